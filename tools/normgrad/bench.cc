// tools/normgrad/bench.cc — `normgrad bench`: normgrad next to the machine's
// read bandwidth and to the libraries a user would pick instead, on the same
// inputs in the same run.
//
// For every shape, element type and thread count, and for each of the four
// operations (grad_beta: pd_gamma/pd_beta; backward: the fused layer-norm
// backward; rms_fwd and rms_bwd: the RMS-norm forward and fused backward)
// and the two vector unit kernels on emulated cores (vec_add:
// z = x + y with Add; row_sum: each row's sum with ReduceSum, or for rows of
// one repeat or less WholeReduceSum, a repeat per row; half and float, next
// to a plain loop over the same bytes), the implementations run
// interleaved — one timed sample of each
// in turn, several rounds — so a noisy neighbour slows all of them alike.
// Each row reports the median time per call, GB/s (bytes read + written),
// the ratio to the read baseline of the same round set (two float arrays as
// large as the inputs, summed), the ratio to the best peer (>1: faster),
// and the normwise error max|got − ref| / max|ref| against the double
// reference, so speed never hides a wrong answer.
//
// Shapes whose two inputs together fit the last-level cache are in-cache
// shapes: every implementation of such a group (and its baseline) is timed
// warm — one untimed call on the same inputs right before each timed sample,
// so the sample never starts with inputs evicted by the implementation
// before it — and its rows say "in-cache", so a cache-speed baseline is never
// read as the machine's memory bandwidth (nor counted in "baseline_gbs").
// Every other group's rows say "memory", and every timed call in them (and
// in the check baseline) starts from memory: the group's inputs and the
// implementation's own outputs are flushed from every cache level first
// (cache_flush.h; not timed), so no implementation and no baseline is
// timed on what the one before it left in a cache larger than the label
// assumes. The flush cannot reach a peer's own buffers (its outputs) nor the
// emulated cores' device memory, which their calls fill, untimed, from the
// inputs.
// The cache size comes from sysfs (sysconf where sysfs has none);
// NORMGRAD_BENCH_CACHE_BYTES, when set, replaces it.
//
// Each row also says whether its figures can be trusted (bench_noise.h):
// other processes taking CPU time while it ran, rounds of the row (or of its
// baseline) spreading too far, or a read baseline re-measured at the end of
// the run far below the one at its start mark it noisy, with the reason, on the table and
// in the JSON. Every sample lasts at least the sample time (calls are
// repeated until it does), so even the tiniest call is timed over many calls.
//
// The JSON (--json): {"baseline_gbs", "last_level_cache_bytes", "peers",
// "noise_check": {"cores", "others_cpu_max", "baseline_start_gbs",
// "baseline_end_gbs"}, "results": [{"op", "impl", "dtype", "rows", "cols",
// "threads", "in_cache" (boolean), "seconds", "gbs", "ratio_to_baseline",
// "ratio_to_best_peer", "error", "noisy" (boolean), "noisy_reason" (only when
// noisy), "note" (only when not run)}]}; numbers not measured (or a cache
// size not known) are null. NORMGRAD_BENCH_OTHERS_CPU, when set, replaces the
// other processes' share of the CPU time measured from /proc/stat (to check
// the rule on a quiet machine).
#include <sys/times.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "bench_noise.h"
#include "bench_peer.h"
#include "cache_flush.h"
#include "commands.h"
#include "normgrad/convert.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/rms_norm.h"
#include "peers/peers.h"
#include "read_baseline.h"
#include "reference.h"

namespace normgrad::cli {
namespace {

using bench::Op;

constexpr const char* kCommand = "bench";

// The benchmarked shapes (a tiny one, squares, transformer widths, a
// narrow one, and 4096x512, whose inputs fit a last-level cache of 16 MiB in
// float), each in every element type.
const std::pair<size_t, size_t> kDefaultShapes[] = {
    {64, 64}, {1024, 1024}, {4096, 4096}, {16384, 768}, {2048, 12288}, {65536, 64}, {4096, 512}};
constexpr DType kAllTypes[] = {DType::kF32, DType::kF16, DType::kBF16};
constexpr int kThreadCounts[] = {1, 2};
// Emulated cores of the Ascend C path (as `normgrad sample`).
constexpr uint32_t kSampleBlocks = 8;

// The most calls one timed sample may make. A call so short that this many
// still take less than the sample time cannot be timed: its row says so.
constexpr int kMaxCallsPerSample = 1 << 24;

// The check baseline, timed at the start and the end of a run: two arrays
// of this many floats each (2 × 32 MiB), larger than the last-level cache.
constexpr size_t kCheckBaselineFloats = size_t{8} << 20;

// The largest problem a shape file may ask for: inputs, outputs and the
// double references of 2^28 elements take about 12 GiB.
constexpr unsigned long long kMaxElements = 1ull << 28;

struct Problem {
  size_t rows, cols;
  DType dtype;
};

// Bytes of a problem's two inputs (dy and x): what the read baseline reads,
// and every operation reads at least.
size_t InputBytes(const Problem& p) { return 2 * p.rows * p.cols * SizeOf(p.dtype); }

// A size in bytes as sysfs writes it ("32768K", "1M", "512"); 0 if it is not
// one.
size_t ParseCacheSize(const std::string& text) {
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text.c_str(), &end, 10);
  if (end == text.c_str()) return 0;
  const std::string unit(end);
  if (unit.empty()) return n;
  if (unit == "K") return n << 10;
  if (unit == "M") return n << 20;
  if (unit == "G") return n << 30;
  return 0;
}

// NORMGRAD_BENCH_CACHE_BYTES as a number; 0 when unset; -1 when it is not a
// whole number of at least 1.
long long ForcedCacheBytes() {
  const char* forced = std::getenv("NORMGRAD_BENCH_CACHE_BYTES");
  if (!forced || !*forced) return 0;
  char* end = nullptr;
  const long long bytes = std::strtoll(forced, &end, 10);
  return *end == '\0' && bytes >= 1 ? bytes : -1;
}

// The last-level cache in bytes: NORMGRAD_BENCH_CACHE_BYTES when set, else
// the largest cache of the highest level sysfs lists for cpu0, else
// sysconf's level-3 size; 0 when none is known. sysfs comes first: the
// kernel's view of the caches is right where the CPU's own description (what
// sysconf reads) is not, as in some virtual machines.
size_t LastLevelCacheBytes() {
  if (const long long forced = ForcedCacheBytes(); forced > 0) return forced;
  int best_level = 0;
  size_t best = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), size_file(dir + "size"), type_file(dir + "type");
    int level = 0;
    std::string size, type;
    if (!(level_file >> level) || !(size_file >> size)) continue;
    if ((type_file >> type) && type == "Instruction") continue;
    const size_t bytes = ParseCacheSize(size);
    if (level > best_level || (level == best_level && bytes > best)) {
      best_level = level;
      best = bytes;
    }
  }
  if (best > 0) return best;
  const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  return l3 > 0 ? static_cast<size_t>(l3) : 0;
}

const char* OpName(Op op) {
  switch (op) {
    case Op::kGradBeta:
      return "grad_beta";
    case Op::kBackward:
      return "backward";
    case Op::kRmsForward:
      return "rms_fwd";
    case Op::kRmsBackward:
      return "rms_bwd";
  }
  return "?";
}
bool IsRms(Op op) { return op == Op::kRmsForward || op == Op::kRmsBackward; }
const char* VectorOpName(VectorKernel kind) {
  return kind == VectorKernel::kAdd ? "vec_add" : "row_sum";
}

// "ROWSxCOLS dtype" per line; blank lines and '#' comments are skipped.
Status ParseShapes(const std::string& path, std::vector<Problem>* out) {
  std::ifstream in(path);
  if (!in) return Status::Error("--shapes " + path + ": cannot be read");
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream fields(line);
    std::string dims, type, extra;
    if (!(fields >> dims)) continue;
    const std::string where = "--shapes " + path + " line " + std::to_string(number) + ": ";
    if (!(fields >> type) || (fields >> extra)) {
      return Status::Error(where + "'" + line + "' is not 'ROWSxCOLS dtype'");
    }
    const size_t x = dims.find('x');
    char* end = nullptr;
    const unsigned long long rows = std::strtoull(dims.c_str(), &end, 10);
    const bool rows_ok = x != std::string::npos && end == dims.c_str() + x && x > 0;
    const unsigned long long cols = rows_ok ? std::strtoull(dims.c_str() + x + 1, &end, 10) : 0;
    if (!rows_ok || *end != '\0' || end == dims.c_str() + x + 1 || rows == 0 || cols == 0) {
      return Status::Error(where + "'" + dims + "' is not ROWSxCOLS with both at least 1");
    }
    if (rows > kMaxElements || cols > kMaxElements || rows * cols > kMaxElements) {
      return Status::Error(where + "'" + dims +
                           "' has more than 2^28 elements (the double "
                           "reference alone would need over 2 GiB)");
    }
    Problem p{rows, cols, DType::kF32};
    if (type == "half" || type == "f16") {
      p.dtype = DType::kF16;
    } else if (type == "bfloat16" || type == "bf16") {
      p.dtype = DType::kBF16;
    } else if (type != "float" && type != "f32") {
      return Status::Error(where + "dtype '" + type + "' is not float, half or bfloat16");
    }
    out->push_back(p);
  }
  if (out->empty()) return Status::Error("--shapes " + path + ": no shapes in the file");
  return Status::Ok();
}

// Standard normal floats (fixed seed), narrowed to `dtype` as bytes.
std::vector<uint8_t> Encode(const std::vector<float>& values, DType dtype) {
  std::vector<uint8_t> bytes(values.size() * SizeOf(dtype));
  if (dtype == DType::kF32) {
    std::copy_n(reinterpret_cast<const uint8_t*>(values.data()), bytes.size(), bytes.data());
  } else if (dtype == DType::kF16) {
    Narrow(values.data(), reinterpret_cast<float16*>(bytes.data()), values.size());
  } else {
    Narrow(values.data(), reinterpret_cast<bfloat16*>(bytes.data()), values.size());
  }
  return bytes;
}

std::vector<float> Normal(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> v(n);
  for (float& x : v) x = normal(rng);
  return v;
}

// One problem's inputs (dy, res = x, gamma; each row's mean and rstd of x,
// and its RMS-norm rstd) and the double references of the operations.
struct Data {
  Problem p;
  std::vector<uint8_t> dy, res, gamma;
  std::vector<float> mean, rstd;
  std::vector<double> grad_gamma, grad_beta;           // Op::kGradBeta
  std::vector<double> back_dx, back_gamma, back_beta;  // Op::kBackward
  float eps = 1e-5f;
  std::vector<float> rms_rstd;                    // RmsNormForward's, given to the backward
  std::vector<double> rms_y, rms_dx, rms_dgamma;  // Op::kRmsForward, Op::kRmsBackward
  float rms_eps = 1e-6f;
};

// The double references of RMS norm on x = res: y with the exact rstd, and
// dx and dgamma of dy with the float rstd the backward is given (as the
// layer-norm backward's reference takes the float mean and rstd).
void RmsReferences(Data* d) {
  const size_t rows = d->p.rows, cols = d->p.cols;
  const DType t = d->p.dtype;
  const double h = static_cast<double>(cols);
  d->rms_y.resize(rows * cols);
  d->rms_dx.resize(rows * cols);
  d->rms_dgamma.assign(cols, 0.0);
  std::vector<double> gamma(cols), x(cols), dy(cols);
  for (size_t c = 0; c < cols; ++c) gamma[c] = reference::Decode(t, d->gamma.data(), c);
  for (size_t r = 0; r < rows; ++r) {
    double squares = 0, gx = 0;
    for (size_t c = 0; c < cols; ++c) {
      x[c] = reference::Decode(t, d->res.data(), r * cols + c);
      dy[c] = reference::Decode(t, d->dy.data(), r * cols + c);
      squares += x[c] * x[c];
      gx += dy[c] * gamma[c] * x[c];
    }
    const double exact = 1 / std::sqrt(squares / h + d->rms_eps), rs = d->rms_rstd[r];
    for (size_t c = 0; c < cols; ++c) {
      d->rms_y[r * cols + c] = x[c] * exact * gamma[c];
      d->rms_dx[r * cols + c] = rs * (dy[c] * gamma[c] - x[c] * rs * rs * gx / h);
      d->rms_dgamma[c] += dy[c] * x[c] * rs;
    }
  }
}

Status MakeData(const Problem& p, const std::vector<float>& dy32, const std::vector<float>& res32,
                Data* d) {
  d->p = p;
  d->dy = Encode(dy32, p.dtype);
  d->res = Encode(res32, p.dtype);
  d->gamma = Encode(Normal(p.cols, 3), p.dtype);
  d->mean.resize(p.rows);
  d->rstd.resize(p.rows);
  LayerNormForwardProblem f;
  f.dtype = p.dtype;
  f.rows = p.rows;
  f.cols = p.cols;
  f.x = d->res.data();
  f.gamma = d->gamma.data();
  f.beta = d->gamma.data();
  f.eps = d->eps;
  f.mean = d->mean.data();
  f.rstd = d->rstd.data();
  if (Status s = LayerNormForward(f); !s.ok()) return s;
  d->grad_gamma.resize(p.cols);
  d->grad_beta.resize(p.cols);
  reference::GradBeta(p.dtype, d->dy.data(), d->res.data(), p.rows, p.cols, p.cols,
                      d->grad_gamma.data(), d->grad_beta.data());
  const std::vector<double> mean(d->mean.begin(), d->mean.end());
  const std::vector<double> rstd(d->rstd.begin(), d->rstd.end());
  d->back_dx.resize(p.rows * p.cols);
  d->back_gamma.resize(p.cols);
  d->back_beta.resize(p.cols);
  reference::LayerNormBackward(p.dtype, d->res.data(), d->dy.data(), d->gamma.data(), mean.data(),
                               rstd.data(), p.rows, p.cols, p.cols, d->back_dx.data(),
                               d->back_gamma.data(), d->back_beta.data());
  d->rms_rstd.resize(p.rows);
  RmsNormForwardProblem rf;
  rf.dtype = p.dtype;
  rf.rows = p.rows;
  rf.cols = p.cols;
  rf.x = d->res.data();
  rf.gamma = d->gamma.data();
  rf.eps = d->rms_eps;
  rf.rstd = d->rms_rstd.data();
  if (Status s = RmsNormForward(rf); !s.ok()) return s;
  RmsReferences(d);
  return Status::Ok();
}

std::vector<double> Widen(DType dtype, const std::vector<uint8_t>& bytes) {
  std::vector<double> out(bytes.size() / SizeOf(dtype));
  for (size_t i = 0; i < out.size(); ++i) out[i] = reference::Decode(dtype, bytes.data(), i);
  return out;
}

// The worst normwise error of an operation's outputs.
double OpError(const Data& d, Op op, const std::vector<double>& gamma,
               const std::vector<double>& beta, const std::vector<double>* dx) {
  const bool grad = op == Op::kGradBeta;
  double e = std::max(reference::NormwiseError(gamma, grad ? d.grad_gamma : d.back_gamma),
                      reference::NormwiseError(beta, grad ? d.grad_beta : d.back_beta));
  if (!grad && dx != nullptr && !dx->empty())
    e = std::max(e, reference::NormwiseError(*dx, d.back_dx));
  return e;
}

// The worst normwise error of an RMS-norm operation's outputs: y
// (kRmsForward), or dx and dgamma (kRmsBackward).
double RmsError(const Data& d, Op op, const std::vector<double>& y_or_dx,
                const std::vector<double>& dgamma) {
  if (op == Op::kRmsForward) return reference::NormwiseError(y_or_dx, d.rms_y);
  return std::max(reference::NormwiseError(y_or_dx, d.rms_dx),
                  reference::NormwiseError(dgamma, d.rms_dgamma));
}

// Bytes an operation reads and writes: inputs, outputs and, where used,
// gamma and the per-row float statistics.
double OpBytes(const Problem& p, Op op) {
  const double n = static_cast<double>(p.rows * p.cols), size = SizeOf(p.dtype);
  const double vector = static_cast<double>(p.cols) * size, stats = 4.0 * p.rows;
  switch (op) {
    case Op::kGradBeta:
      return 2 * n * size + 2 * vector;
    case Op::kBackward:
      return 3 * n * size + 3 * vector + 2 * stats;
    case Op::kRmsForward:
      return 2 * n * size + vector + stats;  // x, gamma; y, rstd
    case Op::kRmsBackward:
      return 3 * n * size + 2 * vector + stats;  // x, dy, gamma, rstd; dx, dgamma
  }
  return 0;
}

// A byte range a timed call reads or writes.
struct Span {
  const void* data;
  size_t bytes;
};

template <typename T>
Span SpanOf(const std::vector<T>& v) {
  return {v.data(), v.size() * sizeof(T)};
}

// One implementation in one group: `run(k)` makes k calls and returns their
// total seconds; `error()` judges the outputs of the last call.
struct Runner {
  std::string impl;
  std::string note;  // non-empty: not run, and why
  std::function<double(int)> run;
  std::function<double()> error;
  std::vector<Span> outputs;  // the runner's own outputs, flushed as its inputs are
  bool peer = false;
  int iters = 1;                // calls per sample
  std::vector<double> samples;  // seconds per call, one per round
  double seconds = 0, err = -1;
};

template <typename F>
double Timed(int k, F call) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < k; ++i) call();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// k timed calls of `call`, an engine call returning a Status; an engine
// error (never expected: the arguments are checked when made) ends the run.
template <typename Call>
std::function<double(int)> EngineCalls(Call call) {
  return [call](int k) {
    return Timed(k, [&] {
      if (Status s = call(); !s.ok()) {
        std::fprintf(stderr, "normgrad bench: %s\n", s.message().c_str());
        std::exit(1);
      }
    });
  };
}

Runner BaselineRunner(const Data& d, int threads) {
  Runner r;
  r.impl = "baseline";
  const size_t floats = d.dy.size() / 4;
  const auto* a = reinterpret_cast<const float*>(d.dy.data());
  const auto* b = reinterpret_cast<const float*>(d.res.data());
  r.run = [=](int k) {
    volatile float sink = 0;
    return Timed(k, [&] { sink = sink + bench::SumTwoArrays(a, b, floats, threads); });
  };
  return r;
}

// normgrad's pd_gamma/pd_beta in `order` on instruction set `isa` (a
// registry name, alive as long as the runner).
Runner GradBetaRunner(const Data& d, int threads, Order order, const std::string& isa) {
  Runner r;
  r.impl = std::string("normgrad:") + OrderName(order) + ":" + isa;
  auto gamma = std::make_shared<std::vector<uint8_t>>(d.p.cols * SizeOf(d.p.dtype));
  auto beta = std::make_shared<std::vector<uint8_t>>(gamma->size());
  GradBetaProblem p;
  p.dtype = d.p.dtype;
  p.rows = d.p.rows;
  p.cols = d.p.cols;
  p.dy = d.dy.data();
  p.res = d.res.data();
  p.pd_gamma = gamma->data();
  p.pd_beta = beta->data();
  p.order = order;
  p.threads = threads;
  p.isa = isa.c_str();
  r.run = EngineCalls([p] { return LayerNormGradBeta(p); });
  r.outputs = {SpanOf(*gamma), SpanOf(*beta)};
  r.error = [&d, gamma, beta] {
    return OpError(d, Op::kGradBeta, Widen(d.p.dtype, *gamma), Widen(d.p.dtype, *beta), nullptr);
  };
  return r;
}

// normgrad's fused layer-norm backward (blocked order) on `isa` (as above).
Runner BackwardRunner(const Data& d, int threads, const std::string& isa) {
  Runner r;
  r.impl = "normgrad:blocked:" + isa;
  const size_t size = SizeOf(d.p.dtype);
  auto dx = std::make_shared<std::vector<uint8_t>>(d.p.rows * d.p.cols * size);
  auto gamma = std::make_shared<std::vector<uint8_t>>(d.p.cols * size);
  auto beta = std::make_shared<std::vector<uint8_t>>(d.p.cols * size);
  LayerNormBackwardProblem p;
  p.dtype = d.p.dtype;
  p.rows = d.p.rows;
  p.cols = d.p.cols;
  p.x = d.res.data();
  p.dy = d.dy.data();
  p.gamma = d.gamma.data();
  p.mean = d.mean.data();
  p.rstd = d.rstd.data();
  p.dx = dx->data();
  p.pd_gamma = gamma->data();
  p.pd_beta = beta->data();
  p.threads = threads;
  p.isa = isa.c_str();
  r.run = EngineCalls([p] { return LayerNormBackward(p); });
  r.outputs = {SpanOf(*dx), SpanOf(*gamma), SpanOf(*beta)};
  r.error = [&d, dx, gamma, beta] {
    const std::vector<double> wide_dx = Widen(d.p.dtype, *dx);
    return OpError(d, Op::kBackward, Widen(d.p.dtype, *gamma), Widen(d.p.dtype, *beta), &wide_dx);
  };
  return r;
}

// normgrad's RMS-norm forward (y and rstd) on `isa` (as above).
Runner RmsForwardRunner(const Data& d, int threads, const std::string& isa) {
  Runner r;
  r.impl = "normgrad:forward:" + isa;
  auto y = std::make_shared<std::vector<uint8_t>>(d.p.rows * d.p.cols * SizeOf(d.p.dtype));
  auto rstd = std::make_shared<std::vector<float>>(d.p.rows);
  RmsNormForwardProblem p;
  p.dtype = d.p.dtype;
  p.rows = d.p.rows;
  p.cols = d.p.cols;
  p.x = d.res.data();
  p.gamma = d.gamma.data();
  p.eps = d.rms_eps;
  p.y = y->data();
  p.rstd = rstd->data();
  p.threads = threads;
  p.isa = isa.c_str();
  r.run = EngineCalls([p] { return RmsNormForward(p); });
  r.outputs = {SpanOf(*y), SpanOf(*rstd)};
  r.error = [&d, y, rstd] { return RmsError(d, Op::kRmsForward, Widen(d.p.dtype, *y), {}); };
  return r;
}

// normgrad's fused RMS-norm backward (blocked order) on `isa` (as above).
Runner RmsBackwardRunner(const Data& d, int threads, const std::string& isa) {
  Runner r;
  r.impl = "normgrad:blocked:" + isa;
  const size_t size = SizeOf(d.p.dtype);
  auto dx = std::make_shared<std::vector<uint8_t>>(d.p.rows * d.p.cols * size);
  auto dgamma = std::make_shared<std::vector<uint8_t>>(d.p.cols * size);
  RmsNormBackwardProblem p;
  p.dtype = d.p.dtype;
  p.rows = d.p.rows;
  p.cols = d.p.cols;
  p.x = d.res.data();
  p.dy = d.dy.data();
  p.gamma = d.gamma.data();
  p.rstd = d.rms_rstd.data();
  p.dx = dx->data();
  p.dgamma = dgamma->data();
  p.threads = threads;
  p.isa = isa.c_str();
  r.run = EngineCalls([p] { return RmsNormBackward(p); });
  r.outputs = {SpanOf(*dx), SpanOf(*dgamma)};
  r.error = [&d, dx, dgamma] {
    return RmsError(d, Op::kRmsBackward, Widen(d.p.dtype, *dx), Widen(d.p.dtype, *dgamma));
  };
  return r;
}

// The operator sample on emulated Ascend C cores; its kernel time. Its
// kSampleBlocks blocks run at once, each on a host thread of its own,
// whatever the row's thread count (launch.h: a launch of at most the
// profile's vector cores runs every block at once).
Runner AscendcRunner(const Data& d) {
  Runner r;
  r.impl = "normgrad-ascendc";
  auto gamma = std::make_shared<std::vector<float>>(d.p.cols);
  auto beta = std::make_shared<std::vector<float>>(d.p.cols);
  double probe = 0;
  r.note = RunSampleKernel(d.p.dtype, d.p.rows, d.p.cols, kSampleBlocks, d.dy.data(), d.res.data(),
                           gamma->data(), beta->data(), 1, &probe);
  // k launches on device memory filled once per sample, like the other
  // rows' inputs (the copy to it and the warm-up launch are not timed).
  r.run = [&d, gamma, beta](int k) {
    double total = 0;
    RunSampleKernel(d.p.dtype, d.p.rows, d.p.cols, kSampleBlocks, d.dy.data(), d.res.data(),
                    gamma->data(), beta->data(), static_cast<uint32_t>(k), &total);
    return total;
  };
  // The sample returns float sums; Ascend C's half API would round them.
  r.error = [&d, gamma, beta] {
    return OpError(d, Op::kGradBeta, std::vector<double>(gamma->begin(), gamma->end()),
                   std::vector<double>(beta->begin(), beta->end()), nullptr);
  };
  return r;
}

// Bytes a vector kernel reads and writes.
double VectorBytes(const Problem& p, VectorKernel kind) {
  const double n = static_cast<double>(p.rows * p.cols), size = SizeOf(p.dtype);
  return kind == VectorKernel::kAdd ? 3 * n * size : (n + static_cast<double>(p.rows)) * size;
}

// The double reference of a vector kernel on x = dy, y = res.
std::vector<double> VectorReference(const Data& d, VectorKernel kind) {
  const size_t n = d.p.rows * d.p.cols;
  std::vector<double> ref(kind == VectorKernel::kAdd ? n : d.p.rows, 0.0);
  for (size_t i = 0; i < n; ++i) {
    const double x = reference::Decode(d.p.dtype, d.dy.data(), i);
    if (kind == VectorKernel::kAdd) {
      ref[i] = x + reference::Decode(d.p.dtype, d.res.data(), i);
    } else {
      ref[i / d.p.cols] += x;
    }
  }
  return ref;
}

// A vector kernel on emulated cores (`emulated`, kSampleBlocks blocks at
// once as AscendcRunner) or as a plain loop on `threads` threads; its
// output's normwise error against `ref`.
Runner VectorRunner(const Data& d, VectorKernel kind, bool emulated, int threads,
                    std::shared_ptr<const std::vector<double>> ref) {
  Runner r;
  r.impl = emulated ? "normgrad-ascendc" : "loop";
  r.peer = !emulated;
  const size_t outputs = kind == VectorKernel::kAdd ? d.p.rows * d.p.cols : d.p.rows;
  auto out = std::make_shared<std::vector<uint8_t>>(outputs * SizeOf(d.p.dtype));
  if (emulated) {
    double probe = 0;
    r.note = RunVectorKernel(kind, d.p.dtype, d.p.rows, d.p.cols, kSampleBlocks, d.dy.data(),
                             d.res.data(), out->data(), 1, &probe);
    r.run = [&d, kind, out](int k) {
      double total = 0;
      RunVectorKernel(kind, d.p.dtype, d.p.rows, d.p.cols, kSampleBlocks, d.dy.data(), d.res.data(),
                      out->data(), static_cast<uint32_t>(k), &total);
      return total;
    };
  } else {
    r.run = [&d, kind, out, threads](int k) {
      return Timed(k, [&] {
        VectorLoop(kind, d.p.dtype, d.p.rows, d.p.cols, d.dy.data(), d.res.data(), out->data(),
                   threads);
      });
    };
  }
  r.outputs = {SpanOf(*out)};
  r.error = [&d, out, ref] { return reference::NormwiseError(Widen(d.p.dtype, *out), *ref); };
  return r;
}

Runner PeerRunner(bench::Peer* peer, const Data& d, Op op, int threads) {
  Runner r;
  r.impl = peer->Name();
  r.peer = true;
  bench::Case c;
  c.op = op;
  c.dtype = d.p.dtype;
  c.rows = d.p.rows;
  c.cols = d.p.cols;
  c.threads = threads;
  c.dy = d.dy.data();
  if (op == Op::kGradBeta) {
    c.res = d.res.data();
  } else if (IsRms(op)) {
    c.x = d.res.data();
    c.gamma = d.gamma.data();
    c.rstd = d.rms_rstd.data();
    c.eps = d.rms_eps;
  } else {
    c.x = d.res.data();
    c.gamma = d.gamma.data();
    c.mean = d.mean.data();
    c.rstd = d.rstd.data();
    c.eps = d.eps;
  }
  r.note = peer->Unsupported(c);
  if (r.note.empty()) r.note = peer->Prepare(c);
  r.run = [peer](int k) { return Timed(k, [&] { peer->Run(); }); };
  r.error = [peer, &d, op] {
    const bench::Results res = peer->Read();
    if (op == Op::kRmsForward) return RmsError(d, op, res.y, {});
    if (op == Op::kRmsBackward) return RmsError(d, op, res.dx, res.pd_gamma);
    return OpError(d, op, res.pd_gamma, res.pd_beta, &res.dx);
  };
  return r;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

// One row of the output.
struct Row {
  const char* op;  // OpName or VectorOpName
  Problem p;
  int threads;
  bool in_cache;
  std::string impl, note;
  double seconds = 0, gbs = 0, x_baseline = 0, x_peer = 0, error = -1;
  NoiseSigns noise = {};
  std::string noisy = {};  // NoisyReason(noise); empty: not noisy
};

// How a group's timed calls start: kWarm, each sample right after an
// untimed call on the same inputs, so it starts with them in the caches;
// kFlushed, every timed call right after the group's inputs and the
// runner's outputs are flushed from every cache (not timed), so it starts
// from memory whatever ran before it.
enum class Start { kWarm, kFlushed };

// k calls of r started as `start` asks; their total seconds. `inputs`: the
// group's arrays, flushed with r.outputs before each call under kFlushed.
double Calls(Runner& r, int k, Start start, const std::vector<Span>& inputs) {
  if (start == Start::kWarm) return r.run(k);
  double total = 0;
  for (int i = 0; i < k; ++i) {
    for (const Span& s : inputs) bench::FlushFromCaches(s.data, s.bytes);
    for (const Span& s : r.outputs) bench::FlushFromCaches(s.data, s.bytes);
    bench::FlushFence();
    total += r.run(1);
  }
  return total;
}

// Sets r.iters, the calls per sample, so that one sample lasts at least
// `sample_seconds`: a single call may be shorter than the clock's and the
// scheduler's granularity, and one preemption would then be the figure.
// Grows the count from a timed sample, at most tenfold a step, until a
// sample lasts long enough; a runner that cannot get there gets a note.
void Calibrate(Runner& r, double sample_seconds, Start start, const std::vector<Span>& inputs) {
  r.run(1);  // warm-up: caches, thread pools, lazy allocations
  r.iters = 1;
  for (double t = Calls(r, 1, start, inputs); t < sample_seconds;
       t = Calls(r, r.iters, start, inputs)) {
    if (r.iters >= kMaxCallsPerSample) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "could not be timed: %d calls took %.3g s", r.iters, t);
      r.note = buf;
      return;
    }
    const double grow = t > 0 ? std::clamp(1.2 * sample_seconds / t, 2.0, 10.0) : 10.0;
    r.iters = static_cast<int>(std::min<double>(kMaxCallsPerSample, std::ceil(r.iters * grow)));
  }
}

// Times every runner of one group, interleaved, its calls started as
// `start` asks (`inputs`: the group's arrays).
void Measure(std::vector<Runner>& runners, int rounds, double sample_seconds, Start start,
             const std::vector<Span>& inputs) {
  for (Runner& r : runners) {
    if (r.note.empty()) Calibrate(r, sample_seconds, start, inputs);
  }
  for (int round = 0; round < rounds; ++round) {
    for (Runner& r : runners) {
      if (!r.note.empty()) continue;
      if (start == Start::kWarm) r.run(1);
      r.samples.push_back(Calls(r, r.iters, start, inputs) / r.iters);
    }
  }
  for (Runner& r : runners) {
    if (!r.note.empty()) continue;
    r.seconds = Median(r.samples);
    if (r.error) r.err = r.error();
  }
}

std::string FormatTime(double seconds) {
  char buf[32];
  if (seconds < 1e-3) {
    std::snprintf(buf, sizeof buf, "%8.2f us", seconds * 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%8.3f ms", seconds * 1e3);
  }
  return buf;
}

void PrintHeader() {
  std::printf("%-9s %-8s %-12s %-8s %3s  %-26s %11s %8s %7s %7s %9s\n", "op", "dtype",
              "rows x cols", "inputs", "thr", "impl", "time", "GB/s", "x base", "x peer", "error");
}

void PrintRow(const Row& r) {
  const std::string shape = std::to_string(r.p.rows) + "x" + std::to_string(r.p.cols);
  std::printf("%-9s %-8s %-12s %-8s %3d  %-26s ", r.op, DTypeName(r.p.dtype), shape.c_str(),
              r.in_cache ? "in-cache" : "memory", r.threads, r.impl.c_str());
  if (!r.note.empty()) {
    std::printf("- (%s)\n", r.note.c_str());
    return;
  }
  // Two decimals, or fewer where a figure would not fit its column
  // (a noisy machine makes tiny rates and huge ratios).
  std::printf("%11s ", FormatTime(r.seconds).c_str());
  std::printf(r.gbs >= 0.1 ? "%8.1f " : "%8.1e ", r.gbs);
  for (double ratio : {r.x_baseline, r.x_peer}) {
    if (ratio <= 0) {
      std::printf("%7s ", "-");
    } else {
      std::printf(ratio < 1000 ? "%7.2f " : "%7.1e ", ratio);
    }
  }
  if (r.error >= 0) {
    std::printf("%9.2e", r.error);
  } else {
    std::printf("%9s", "-");
  }
  if (!r.noisy.empty()) std::printf("  noisy: %s", r.noisy.c_str());
  std::printf("\n");
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string JsonNumber(double v, bool present) {
  if (!present || !std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// What the noise check observed over the whole run.
struct NoiseCheck {
  int cores = 1;
  double others_cpu_max = -1;
  double baseline_start_gbs = -1, baseline_end_gbs = -1;
};

std::string Json(const std::vector<Row>& rows, double baseline_gbs, size_t cache_bytes,
                 const std::vector<std::pair<std::string, std::string>>& peers,
                 const NoiseCheck& check) {
  std::string out =
      "{\"baseline_gbs\": " + JsonNumber(baseline_gbs, baseline_gbs > 0) +
      ", \"last_level_cache_bytes\": " + (cache_bytes > 0 ? std::to_string(cache_bytes) : "null") +
      ",\n \"peers\": {";
  for (size_t i = 0; i < peers.size(); ++i) {
    out += (i ? ", " : "") + JsonString(peers[i].first) + ": " + JsonString(peers[i].second);
  }
  out +=
      "},\n \"noise_check\": {\"cores\": " + std::to_string(check.cores) +
      ", \"others_cpu_max\": " + JsonNumber(check.others_cpu_max, check.others_cpu_max >= 0) +
      ", \"baseline_start_gbs\": " +
      JsonNumber(check.baseline_start_gbs, check.baseline_start_gbs > 0) +
      ", \"baseline_end_gbs\": " + JsonNumber(check.baseline_end_gbs, check.baseline_end_gbs > 0) +
      "}";
  out += ",\n \"results\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    const bool ran = r.note.empty();
    out += "  {\"op\": " + JsonString(r.op) + ", \"impl\": " + JsonString(r.impl) +
           ", \"dtype\": " + JsonString(DTypeName(r.p.dtype)) +
           ", \"rows\": " + std::to_string(r.p.rows) + ", \"cols\": " + std::to_string(r.p.cols) +
           ", \"threads\": " + std::to_string(r.threads) +
           ", \"in_cache\": " + (r.in_cache ? "true" : "false") +
           ", \"seconds\": " + JsonNumber(r.seconds, ran) + ", \"gbs\": " + JsonNumber(r.gbs, ran) +
           ", \"ratio_to_baseline\": " + JsonNumber(r.x_baseline, ran && r.x_baseline > 0) +
           ", \"ratio_to_best_peer\": " + JsonNumber(r.x_peer, ran && r.x_peer > 0) +
           ", \"error\": " + JsonNumber(r.error, ran && r.error >= 0) +
           ", \"noisy\": " + (r.noisy.empty() ? "false" : "true") +
           (r.noisy.empty() ? "" : ", \"noisy_reason\": " + JsonString(r.noisy)) +
           (ran ? "" : ", \"note\": " + JsonString(r.note)) + "}" +
           (i + 1 < rows.size() ? ",\n" : "\n");
  }
  return out + "]}\n";
}

// The directory of the running executable (for the plot script).
std::string ExecutableDir() {
  std::vector<char> buf(4096);
  const ssize_t n = readlink("/proc/self/exe", buf.data(), buf.size() - 1);
  if (n <= 0) return ".";
  std::string path(buf.data(), static_cast<size_t>(n));
  return path.substr(0, path.rfind('/'));
}

// Writes the bar chart with bench_plot.py (Debian's python3-matplotlib).
Status Plot(const std::string& json, const std::string& png) {
  const std::string script = ExecutableDir() + "/normgrad_bench_plot.py";
  if (access(script.c_str(), R_OK) != 0) {
    return Status::Error("--plot: " + script + " is missing (it is installed next to normgrad)");
  }
  char tmp[] = "/tmp/normgrad-bench-XXXXXX";
  const int fd = mkstemp(tmp);
  if (fd < 0) return Status::Error("--plot: cannot create a temporary file");
  const bool written = write(fd, json.data(), json.size()) == static_cast<ssize_t>(json.size());
  close(fd);
  const char* python = std::getenv("NORMGRAD_PYTHON");
  const std::string command = std::string(python && *python ? python : "/usr/bin/python3") + " '" +
                              script + "' '" + tmp + "' '" + png + "'";
  const int rc = written ? std::system(command.c_str()) : -1;
  unlink(tmp);
  if (rc != 0) {
    return Status::Error("--plot " + png +
                         ": the plot script failed (it needs python3-matplotlib; "
                         "`make deps` installs it)");
  }
  return Status::Ok();
}

// NORMGRAD_BENCH_OTHERS_CPU as a number; -1 when unset; -2 when it is not a
// number from 0 to 1.
double ForcedOthersCpu() {
  const char* forced = std::getenv("NORMGRAD_BENCH_OTHERS_CPU");
  if (!forced || !*forced) return -1;
  char* end = nullptr;
  const double share = std::strtod(forced, &end);
  return *end == '\0' && share >= 0 && share <= 1 ? share : -2;
}

// CPU time in clock ticks since boot: the machine's busy time (steal
// included), all of its time, and this process's own.
struct CpuTicks {
  double busy = -1, total = -1, own = -1;
};

CpuTicks ReadCpuTicks() {
  CpuTicks t;
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    unsigned long long user, nice, system, idle, iowait, irq, softirq, steal;
    if (std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle,
                    &iowait, &irq, &softirq, &steal) == 8) {
      t.busy = static_cast<double>(user + nice + system + irq + softirq + steal);
      t.total = t.busy + static_cast<double>(idle + iowait);
    }
    std::fclose(f);
  }
  tms own;
  if (times(&own) != static_cast<clock_t>(-1)) {
    t.own = static_cast<double>(own.tms_utime + own.tms_stime);
  }
  return t;
}

// Other processes' share of the machine's CPU time up to `now`, over the
// last of `starts` (readings at the start of each group, oldest first) that
// leaves at least kOthersWindowSeconds of CPU time before `now`, or the
// first: /proc/stat counts in ticks of 10 ms, so a short group alone would
// see a daemon's one tick as a large share. NORMGRAD_BENCH_OTHERS_CPU when
// set; -1 when it cannot be read.
double OthersCpu(const std::vector<CpuTicks>& starts, const CpuTicks& now) {
  if (const double forced = ForcedOthersCpu(); forced >= 0) return forced;
  if (starts.empty() || now.total < 0 || now.own < 0) return -1;
  const double window = kOthersWindowSeconds * static_cast<double>(sysconf(_SC_CLK_TCK));
  std::vector<double> totals;
  for (const CpuTicks& t : starts) totals.push_back(t.total);
  const CpuTicks& before = starts[WindowStart(totals, now.total, window)];
  if (before.total < 0 || before.own < 0) return -1;
  return OthersCpuShare(now.busy - before.busy, now.own - before.own, now.total - before.total);
}

// The check baseline's GB/s on `threads` threads: the read baseline on two
// arrays of kCheckBaselineFloats, timed as every row is (rounds of samples
// of at least `sample_seconds`, median).
double CheckBaselineGbs(const std::vector<float>& a, const std::vector<float>& b, int threads,
                        int rounds, double sample_seconds) {
  Runner r;
  r.run = [&](int k) {
    volatile float sink = 0;
    return Timed(k,
                 [&] { sink = sink + bench::SumTwoArrays(a.data(), b.data(), a.size(), threads); });
  };
  std::vector<Runner> runners(1, r);
  Measure(runners, rounds, sample_seconds, Start::kFlushed, {SpanOf(a), SpanOf(b)});
  if (!runners[0].note.empty() || runners[0].seconds <= 0) return -1;
  return 2.0 * static_cast<double>(a.size() * sizeof(float)) / runners[0].seconds / 1e9;
}

// "12 s" or "3 min 5 s".
std::string FormatDuration(double seconds) {
  const long s = std::lround(seconds);
  return s < 60 ? std::to_string(s) + " s"
                : std::to_string(s / 60) + " min " + std::to_string(s % 60) + " s";
}

}  // namespace

int RunBench(const BenchOptions& o) {
  std::vector<Problem> problems;
  if (!o.shapes.empty()) {
    if (Status s = ParseShapes(o.shapes, &problems); !s.ok()) return Fail(kCommand, s.message());
  } else {
    for (const auto& [rows, cols] : kDefaultShapes) {
      for (DType t : kAllTypes) problems.push_back({rows, cols, t});
    }
  }
  if (ForcedOthersCpu() == -2) {
    return Fail(kCommand, std::string("NORMGRAD_BENCH_OTHERS_CPU=") +
                              std::getenv("NORMGRAD_BENCH_OTHERS_CPU") +
                              ": not a number from 0 to 1 (it replaces the other processes' "
                              "share of the CPU time)");
  }
  if (ForcedCacheBytes() == -1) {
    return Fail(kCommand, std::string("NORMGRAD_BENCH_CACHE_BYTES=") +
                              std::getenv("NORMGRAD_BENCH_CACHE_BYTES") +
                              ": not a whole number of at least 1 (it replaces the last-level "
                              "cache size read from sysfs)");
  }
  const size_t cache_bytes = LastLevelCacheBytes();
  if (!o.plot.empty() && o.plot.find('\'') != std::string::npos) {
    return Fail(kCommand, "--plot " + o.plot + ": the path must not contain a quote");
  }
  const int rounds = o.quick ? 3 : 7;
  const double sample_seconds = o.quick ? 0.002 : 0.01;

  // Instruction sets: every available one, or (--quick) the dispatched one.
  std::vector<std::string> isas;
  for (const ImplInfo& impl : ListImplementations()) {
    if (impl.available && impl.order == Order::kBlocked) isas.push_back(impl.isa);
  }
  const char* forced = std::getenv("NORMGRAD_IMPL");
  if (o.quick || (forced && *forced)) {
    // The dispatched one: what a call without GradBetaProblem::isa runs.
    GradBetaProblem probe;
    float zero[8] = {}, g[8], b[8];
    probe.rows = 1;
    probe.cols = 8;
    probe.dy = probe.res = zero;
    probe.pd_gamma = g;
    probe.pd_beta = b;
    if (Status s = LayerNormGradBeta(probe); !s.ok()) return Fail(kCommand, s.message());
    const std::string impl = LastRunInfo().impl;
    isas = {impl.substr(impl.find(':') + 1)};
  }

  bench::LoadedPeers loaded = bench::LoadPeers();
  std::vector<std::pair<std::string, std::string>> peer_info;
  for (const auto& peer : loaded.peers) peer_info.push_back({peer->Name(), peer->Version()});
  for (const auto& [name, why] : loaded.missing) peer_info.push_back({name, "missing: " + why});

  if (!o.json) {
    std::printf("normgrad bench: %s, %d rounds interleaved, median per call; instruction sets:",
                o.quick ? "quick" : "full", rounds);
    for (const std::string& isa : isas) std::printf(" %s", isa.c_str());
    std::printf("\npeers:");
    for (const auto& [name, what] : peer_info) std::printf(" %s (%s);", name.c_str(), what.c_str());
    std::printf(
        "\nGB/s = (bytes read + written) / time; x base = GB/s / the read baseline's "
        "GB/s in the same rounds;\nx peer = best peer's time / this time; error = "
        "max|got - ref| / max|ref| against the double reference;\ninputs = in-cache: "
        "both inputs fit the last-level cache (%s), timed warm, baseline included "
        "(a cache speed, not memory bandwidth)\n\n",
        cache_bytes > 0 ? (std::to_string(cache_bytes >> 10) + " KiB").c_str()
                        : "size unknown: no row is in-cache");
    PrintHeader();
  }

  const bool tty = isatty(STDERR_FILENO);
  const auto started = std::chrono::steady_clock::now();
  const auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  };
  // Per problem and thread count: 4 operations, and 2 vector kernels. For
  // the estimate of what is left, a group weighs its input bytes, at least
  // 1 MiB (below that the fixed sample time dominates).
  size_t groups = 0;
  double total_weight = 0, done_weight = 0;
  const auto weight = [](const Problem& p) {
    return std::max(static_cast<double>(p.rows * p.cols * SizeOf(p.dtype)), double{1 << 20});
  };
  for (const Problem& p : problems) {
    const size_t n = std::size(kThreadCounts) * (p.dtype == DType::kBF16 ? 4 : 6);
    groups += n;
    total_weight += static_cast<double>(n) * weight(p);
  }
  size_t group = 0;

  NoiseCheck check;
  check.cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int check_threads = kThreadCounts[std::size(kThreadCounts) - 1];
  const std::vector<float> check_a(kCheckBaselineFloats, 1.0f), check_b(kCheckBaselineFloats, 2.0f);
  check.baseline_start_gbs =
      CheckBaselineGbs(check_a, check_b, check_threads, rounds, sample_seconds);
  std::vector<Row> rows;
  std::vector<CpuTicks> group_starts;  // CPU time at the start of each group
  std::vector<float> dy32, res32;
  std::pair<size_t, size_t> generated{0, 0};
  for (const Problem& p : problems) {
    if (generated != std::make_pair(p.rows, p.cols)) {
      dy32 = Normal(p.rows * p.cols, 1);
      res32 = Normal(p.rows * p.cols, 2);
      generated = {p.rows, p.cols};
    }
    Data d;
    if (Status s = MakeData(p, dy32, res32, &d); !s.ok()) return Fail(kCommand, s.message());
    const bool in_cache = cache_bytes > 0 && InputBytes(p) <= cache_bytes;
    // One group: its runners (the baseline first) timed together, then its rows.
    const auto run_group = [&](const char* name, int threads, double bytes,
                               std::vector<Runner> runners) {
      group_starts.push_back(ReadCpuTicks());
      Measure(runners, rounds, sample_seconds, in_cache ? Start::kWarm : Start::kFlushed,
              {SpanOf(d.dy), SpanOf(d.res), SpanOf(d.gamma), SpanOf(d.mean), SpanOf(d.rstd),
               SpanOf(d.rms_rstd)});
      const double others_cpu = OthersCpu(group_starts, ReadCpuTicks());
      const Runner& baseline = runners[0];
      const bool has_baseline = baseline.note.empty() && baseline.seconds > 0;
      const double baseline_gbs =
          has_baseline ? 2.0 * static_cast<double>(d.dy.size()) / baseline.seconds / 1e9 : 0;
      NoiseSigns noise;
      noise.others_cpu = others_cpu;
      check.others_cpu_max = std::max(check.others_cpu_max, others_cpu);
      noise.baseline_spread = has_baseline ? Spread(baseline.samples) : -1;
      double best_peer = 0;
      for (const Runner& r : runners) {
        if (r.peer && r.note.empty() && (best_peer == 0 || r.seconds < best_peer)) {
          best_peer = r.seconds;
        }
      }
      for (const Runner& r : runners) {
        Row row{name, p, threads, in_cache, r.impl, r.note};
        if (r.note.empty()) {
          row.seconds = r.seconds;
          row.gbs = (r.impl == "baseline" ? 2.0 * static_cast<double>(d.dy.size()) : bytes) /
                    r.seconds / 1e9;
          row.x_baseline = has_baseline ? row.gbs / baseline_gbs : 0;
          row.x_peer = best_peer > 0 && r.impl != "baseline" ? best_peer / r.seconds : 0;
          row.error = r.err;
          row.noise = noise;
          row.noise.spread = Spread(r.samples);
          row.noisy = NoisyReason(row.noise);
        }
        if (!o.json) {
          if (tty) std::fprintf(stderr, "\r\033[K");
          PrintRow(row);
          std::fflush(stdout);
        }
        rows.push_back(row);
      }
    };
    // One line per group: which, the time so far and, once a group is
    // done, about how long the rest takes at the same pace per byte.
    const auto progress = [&](const char* name, int threads) {
      const double so_far = elapsed();
      std::string left;
      if (done_weight > 0) {
        left = ", about " + FormatDuration(so_far * (total_weight - done_weight) / done_weight) +
               " left";
      }
      std::fprintf(stderr, "%snormgrad bench: [%zu/%zu] %s %s %zux%zu, %d thread%s; %s elapsed%s%s",
                   tty ? "\r\033[K" : "", ++group, groups, name, DTypeName(p.dtype), p.rows, p.cols,
                   threads, threads > 1 ? "s" : "", FormatDuration(so_far).c_str(), left.c_str(),
                   tty ? "" : "\n");
      done_weight += weight(p);
    };
    for (int threads : kThreadCounts) {
      for (Op op : {Op::kGradBeta, Op::kBackward, Op::kRmsForward, Op::kRmsBackward}) {
        progress(OpName(op), threads);
        std::vector<Runner> runners;
        runners.push_back(BaselineRunner(d, threads));
        for (const std::string& isa : isas) {
          switch (op) {
            case Op::kGradBeta:
              runners.push_back(GradBetaRunner(d, threads, Order::kSequential, isa));
              runners.push_back(GradBetaRunner(d, threads, Order::kBlocked, isa));
              break;
            case Op::kBackward:
              runners.push_back(BackwardRunner(d, threads, isa));
              break;
            case Op::kRmsForward:
              runners.push_back(RmsForwardRunner(d, threads, isa));
              break;
            case Op::kRmsBackward:
              runners.push_back(RmsBackwardRunner(d, threads, isa));
              break;
          }
        }
        if (op == Op::kGradBeta) runners.push_back(AscendcRunner(d));
        for (const auto& peer : loaded.peers) {
          runners.push_back(PeerRunner(peer.get(), d, op, threads));
        }
        for (const auto& [name, why] : loaded.missing) {
          Runner missing;
          missing.impl = name;
          missing.note = why;
          runners.push_back(missing);
        }
        run_group(OpName(op), threads, OpBytes(p, op), std::move(runners));
      }
      if (p.dtype == DType::kBF16) continue;  // the vector kernels take half or float
      for (VectorKernel kind : {VectorKernel::kAdd, VectorKernel::kRowSum}) {
        progress(VectorOpName(kind), threads);
        const auto ref = std::make_shared<const std::vector<double>>(VectorReference(d, kind));
        std::vector<Runner> runners;
        runners.push_back(BaselineRunner(d, threads));
        runners.push_back(VectorRunner(d, kind, true, threads, ref));
        runners.push_back(VectorRunner(d, kind, false, threads, ref));
        run_group(VectorOpName(kind), threads, VectorBytes(p, kind), std::move(runners));
      }
    }
  }
  if (tty) std::fprintf(stderr, "\r\033[K");

  // The check baseline again: a fall since the start casts doubt on every row.
  check.baseline_end_gbs =
      CheckBaselineGbs(check_a, check_b, check_threads, rounds, sample_seconds);
  size_t noisy_rows = 0, measured_rows = 0;
  for (Row& r : rows) {
    if (!r.note.empty()) continue;
    r.noise.baseline_start_gbs = check.baseline_start_gbs;
    r.noise.baseline_end_gbs = check.baseline_end_gbs;
    r.noisy = NoisyReason(r.noise);
    ++measured_rows;
    if (!r.noisy.empty()) ++noisy_rows;
  }

  // The machine's read bandwidth: the median baseline on the most threads,
  // of the large shapes whose inputs come from memory.
  std::vector<double> baselines;
  for (const Row& r : rows) {
    if (r.impl == "baseline" && r.threads == kThreadCounts[std::size(kThreadCounts) - 1] &&
        r.p.rows * r.p.cols >= (size_t{1} << 22) && !r.in_cache) {
      baselines.push_back(r.gbs);
    }
  }
  const double machine_gbs = Median(baselines);
  const std::string json = Json(rows, machine_gbs, cache_bytes, peer_info, check);
  if (o.json) {
    std::fputs(json.c_str(), stdout);
  } else {
    if (machine_gbs > 0) {
      std::printf(
          "\nread baseline on %d threads, shapes of 4M elements or more not in cache: %.1f GB/s "
          "(median)\n",
          check_threads, machine_gbs);
    }
    std::printf(
        "\ncheck baseline (%d threads, 2 x %zu MiB): %.1f GB/s at the start, %.1f GB/s "
        "at the end; other processes took at most %.0f%% of the CPU time of %d cores\n",
        check_threads, kCheckBaselineFloats * sizeof(float) >> 20, check.baseline_start_gbs,
        check.baseline_end_gbs, 100 * std::max(0.0, check.others_cpu_max), check.cores);
    NoiseSigns run_wide;
    run_wide.baseline_start_gbs = check.baseline_start_gbs;
    run_wide.baseline_end_gbs = check.baseline_end_gbs;
    const std::string fall = NoisyReason(run_wide);
    if (!fall.empty()) std::printf("%s: every row is noisy\n", fall.c_str());
    if (noisy_rows > 0) {
      std::printf(
          "NOISY: %zu of %zu measured rows were timed on a busy or unstable machine; "
          "their figures are not quiet-machine figures\n",
          noisy_rows, measured_rows);
    }
  }
  if (!o.plot.empty()) {
    if (Status s = Plot(json, o.plot); !s.ok()) return Fail(kCommand, s.message());
    if (!o.json) std::printf("plot: %s\n", o.plot.c_str());
  }
  return 0;
}

}  // namespace normgrad::cli

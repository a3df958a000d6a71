// normgrad_isolate.cc — build/bin/normgrad_isolate: for each speed target
// the engine misses (docs/performance.md), the measurement that says why.
// For each case it times, interleaved in one run on the same inputs (one
// sample of each in turn, several rounds, medians and ranges of the
// per-round ratios):
//   baseline  the read baseline of `normgrad bench` (the inputs' bytes read
//             as two float arrays and summed, on the same threads);
//   cols      (sequential order only) the same reads split by columns, as
//             the sequential order must split them;
//   engine    the real kernel through the engine API, order and instruction
//             set forced (LayerNormGradBeta, LayerNormBackward);
//   mirror    the same kernel through a copy of the engine's driver below
//             (same blocks, subtrees, column split, relay, stores): it must
//             match `engine`, which shows the copy is faithful;
//   pattern   the same driver and the same kernel source (accumulate_inl.h,
//             layer_norm_inl.h) over an Ops policy whose float work is one
//             integer xor per operation and whose 16-bit loads and stores
//             convert nothing: the same loads in the same order, the same
//             prefetches, blocking and stores, no arithmetic;
//   relay     (sequential order split by columns only) the real kernel
//             through the engine's other sequential driver, the relay it
//             uses for narrow rows: the same bits, whole rows per thread;
//   skewed    (fused backward only) the engine with dx 1344 bytes further
//             into its page than x and dy (every buffer here starts on a
//             page): whether stores to dx that share the low 12 address bits
//             of the loads ahead of them (4K aliasing) cost time;
//   streams   (fused backward only) x and dy read and dx written with
//             streaming stores in one plain loop: its three streams alone;
//   arith     the real kernel on blocks of rows that stay in L2 (each thread
//             re-reads its own ~192 KiB), as many elements as the case: the
//             arithmetic without the memory.
// Ratios are `normgrad bench`'s: (bytes read + written) / time ÷ the
// baseline's bytes / time. In-cache cases are timed warm, as there: an
// untimed call right before each timed sample. Each line ends with the share
// of the machine's CPU time other processes took while the case was timed
// (from /proc/stat): above a tenth, the line is not a quiet-machine figure.
//
// AVX-512 only: the kernels' access pattern is mirrored for the instruction
// set the engine dispatches on this machine. Flush-to-zero is set on every
// thread so that the pattern's meaningless float bits never hit denormal
// assists (the real kernels' inputs have no denormals, so their times do not
// change).
//
//   build/bin/normgrad_isolate [--rounds N] [--only SUBSTRING] [--threads T]
//
// Exit status 77 (ctest's "skipped") where the CPU has no AVX-512.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_stats.h"
#include "engine/blocked_order.h"
#include "engine/parallel.h"
#include "engine/row_norms.h"
#include "engine/write_output.h"
#include "kernels/kernels.h"
#include "normgrad/float16.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "read_baseline.h"

// The kernels' own source over the real and the pattern-only policies,
// compiled for AVX-512 as src/kernels/isa/avx512.cc and layer_norm_avx512.cc.
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma,f16c")
#include "kernels/grad_beta/accumulate_inl.h"
#include "kernels/isa/avx512_ops_inl.h"
#include "kernels/layer_norm/layer_norm_inl.h"

namespace pattern {

using normgrad::kernels::Avx512F32;

inline __m512 Mix(__m512 a, __m512 b) {
  return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_castps_si512(b)));
}

// Float inputs: the real loads and stores, every float operation one xor.
struct F32 : Avx512F32 {
  static float Sum16(float* lanes) { return lanes[0]; }
  static Vec Add(Vec a, Vec b) { return Mix(a, b); }
  static Vec Sub(Vec a, Vec b) { return Mix(a, b); }
  static Vec Mul(Vec a, Vec b) { return Mix(a, b); }
  static Vec MulAdd(Vec a, Vec b, Vec c) { return Mix(Mix(a, b), c); }
  static Vec MulSub(Vec a, Vec b, Vec c) { return Mix(Mix(a, b), c); }
  static Vec NegMulAdd(Vec a, Vec b, Vec c) { return Mix(Mix(a, b), c); }
};

// 16-bit inputs (half and bfloat16 alike): the same 256-bit loads and
// stores, no widening or narrowing.
struct Bits16 : F32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return normgrad::bits::ToFloat(uint32_t{v} << 16); }
  static uint16_t FromFloat(float f) {
    return static_cast<uint16_t>(normgrad::bits::FromFloat(f) >> 16);
  }
  static Vec Load(const uint16_t* p) {
    return _mm512_castsi512_ps(
        _mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p))));
  }
  static void Store(uint16_t* p, Vec v) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p),
                        _mm512_castsi512_si256(_mm512_castps_si512(v)));
  }
  static void Stream(uint16_t* p, Vec v) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p),
                        _mm512_castsi512_si256(_mm512_castps_si512(v)));
  }
};

// The tree's dst[i] += src[i] as one xor.
void AddArrays(float* dst, const float* src, size_t n) {
  size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(dst + i, Mix(_mm512_loadu_ps(dst + i), _mm512_loadu_ps(src + i)));
  }
  for (; i < n; ++i) dst[i] = src[i];
}

// x and dy read, dx = x ^ dy written with streaming stores, each thread its
// share of the bytes: the fused backward's three streams and nothing else.
void ThreeStreams(const uint8_t* x, const uint8_t* dy, uint8_t* dx, size_t bytes, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<size_t>(omp_get_thread_num());
    const auto nt = static_cast<size_t>(omp_get_num_threads());
    const size_t begin = bytes / 64 * t / nt * 64, end = bytes / 64 * (t + 1) / nt * 64;
    for (size_t i = begin; i < end; i += 64) {
      const __m512i a = _mm512_loadu_si512(x + i), b = _mm512_loadu_si512(dy + i);
      _mm512_stream_si512(reinterpret_cast<__m512i*>(dx + i), _mm512_xor_si512(a, b));
    }
    _mm_sfence();
  }
}

}  // namespace pattern
#pragma GCC pop_options

namespace {

using normgrad::DType;
using normgrad::Order;
using normgrad::SizeOf;
using normgrad::kernels::Isa;
namespace engine = normgrad::engine;

// ---------------------------------------------------------------- inputs

struct Free {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<uint8_t, Free>;

Buffer Allocate(size_t bytes) {
  void* p = std::aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
  if (p == nullptr) {
    std::fprintf(stderr, "normgrad_isolate: out of memory (%zu bytes)\n", bytes);
    std::exit(1);
  }
  return Buffer(static_cast<uint8_t*>(p));
}

// Values in [-1, 1) in the element type, from a fixed linear congruential
// sequence (exact in every type).
void Fill(DType t, void* p, size_t n, uint32_t seed) {
  uint32_t s = seed;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    const float f = static_cast<float>(s >> 16) / 32768.0f - 1.0f;
    if (t == DType::kF32) {
      static_cast<float*>(p)[i] = f;
    } else {
      static_cast<uint16_t*>(p)[i] =
          t == DType::kF16 ? normgrad::bits::FloatToHalf(f) : normgrad::bits::FloatToBfloat16(f);
    }
  }
}

// Bytes by which `skewed` (and the L2 blocks of `arith`) move an output off
// the inputs' offset in a 4 KiB page: a multiple of 64, far from 0 and 4096.
constexpr size_t kSkew = 1344;

struct Case {
  const char* section;  // the README's target
  bool backward;        // fused backward; else pd_gamma/pd_beta
  DType dtype;
  Order order;
  size_t rows, cols;
  bool in_cache;  // timed warm
};

struct Data {
  const Case& c;
  size_t n, elem;
  Buffer dy, x, dx, gamma, pd_gamma, pd_beta;
  std::vector<float> mean, rstd, gamma_f32;
  explicit Data(const Case& k) : c(k), n(k.rows * k.cols), elem(SizeOf(k.dtype)) {
    dy = Allocate(n * elem);
    x = Allocate(n * elem);
    Fill(k.dtype, dy.get(), n, 1);
    Fill(k.dtype, x.get(), n, 2);
    pd_gamma = Allocate(k.cols * elem);
    pd_beta = Allocate(k.cols * elem);
    if (k.backward) {
      dx = Allocate(n * elem + kSkew);
      std::memset(dx.get(), 0, n * elem + kSkew);
      gamma = Allocate(k.cols * elem);
      Fill(k.dtype, gamma.get(), k.cols, 3);
      gamma_f32.resize(k.cols);
      for (size_t i = 0; i < k.cols; ++i) {
        const auto* g = gamma.get() + i * elem;
        uint16_t h;
        std::memcpy(&h, g, sizeof h);
        gamma_f32[i] = k.dtype == DType::kF32   ? reinterpret_cast<const float*>(gamma.get())[i]
                       : k.dtype == DType::kF16 ? normgrad::bits::HalfToFloat(h)
                                                : normgrad::bits::Bfloat16ToFloat(h);
      }
      mean.assign(k.rows, 0.01f);
      rstd.assign(k.rows, 1.7f);
    }
  }
  // What `normgrad bench` counts: inputs read, outputs written.
  double Bytes() const {
    const double in = 2.0 * static_cast<double>(n * elem);
    if (!c.backward) return in + 2.0 * static_cast<double>(c.cols * elem);
    return in + static_cast<double>(n * elem) + 3.0 * static_cast<double>(c.cols * elem) +
           8.0 * static_cast<double>(c.rows);
  }
};

// ------------------------------------------- the engine's driver, copied
// From src/engine/layer_norm_grad_beta.cc and layer_norm.cc, for one column
// strip (every case here has cols ≤ kStripColumns) and as many subtrees as
// threads or more (so the blocked order never splits columns for the
// subtrees).

using normgrad::kernels::kStripColumns;
constexpr size_t kColumnGrain = 64;                   // layer_norm_grad_beta.cc
constexpr size_t kRelayChunkBytes = size_t{1} << 20;  // layer_norm_grad_beta.cc

struct Range {
  size_t begin, end;
};
// ColumnSplit of layer_norm_grad_beta.cc: range i of `parts`.
size_t ColumnParts(size_t cols, size_t parts) {
  return std::max<size_t>(1, std::min(parts, (cols + kColumnGrain - 1) / kColumnGrain));
}
Range ColumnRange(size_t cols, size_t parts, size_t i) {
  const size_t grains = (cols + kColumnGrain - 1) / kColumnGrain;
  return {std::min(cols, grains * i / parts * kColumnGrain),
          std::min(cols, grains * (i + 1) / parts * kColumnGrain)};
}

void Accumulate(const Isa& isa, DType t, const void* dy, const void* res, size_t stride, size_t row,
                size_t rows, size_t col, size_t cols, float* g, float* b) {
  const size_t off = row * stride + col;
  switch (t) {
    case DType::kF32:
      isa.accumulate_f32(static_cast<const float*>(dy) + off, static_cast<const float*>(res) + off,
                         stride, rows, cols, g, b);
      break;
    case DType::kF16:
      isa.accumulate_f16(static_cast<const uint16_t*>(dy) + off,
                         static_cast<const uint16_t*>(res) + off, stride, rows, cols, g, b);
      break;
    case DType::kBF16:
      isa.accumulate_bf16(static_cast<const uint16_t*>(dy) + off,
                          static_cast<const uint16_t*>(res) + off, stride, rows, cols, g, b);
      break;
  }
}

// RunBlocked, one strip.
void GradBetaBlocked(const Isa& isa, Data& d, int threads, std::vector<float>& scratch) {
  const size_t rows = d.c.rows, cols = d.c.cols, pf = 2 * cols;
  const engine::BlockedPlan plan = engine::PlanBlocked(rows, threads);
  scratch.resize(engine::BlockedScratchFloats(plan, threads, pf));
  float* const roots = scratch.data();
  float* const stacks = roots + plan.subtrees * pf;
  const engine::PartialColumns all{cols, 0, cols};
  engine::ParallelForWorkers(threads, plan.subtrees, [&](size_t j, size_t worker) {
    engine::SumSubtree(isa, plan, j, all, roots + j * pf, stacks + worker * plan.levels * pf,
                       [&](size_t b, float* partial) {
                         const size_t row = b * engine::kBlockRows;
                         const size_t n = std::min(engine::kBlockRows, rows - row);
                         Accumulate(isa, d.c.dtype, d.dy.get(), d.x.get(), cols, row, n, 0, cols,
                                    partial, partial + cols);
                       });
  });
  const size_t parts = ColumnParts(cols, static_cast<size_t>(threads));
  engine::ParallelFor(plan.subtrees > 1 ? threads : 1, parts, [&](size_t t) {
    const Range r = ColumnRange(cols, parts, t);
    engine::CombineRoots(isa, plan, roots, {cols, r.begin, r.end});
  });
  engine::WriteOutput(isa, d.c.dtype, roots, cols, d.pd_gamma.get());
  engine::WriteOutput(isa, d.c.dtype, roots + cols, cols, d.pd_beta.get());
}

// RunSequentialColumns: each thread its columns, all rows, in its own buffer.
void GradBetaSequentialColumns(const Isa& isa, Data& d, int threads) {
  const size_t rows = d.c.rows, cols = d.c.cols, parts = ColumnParts(cols, threads);
#pragma omp parallel num_threads(threads)
  {
    thread_local std::vector<float> own;
    for (size_t i = static_cast<size_t>(omp_get_thread_num()); i < parts;
         i += static_cast<size_t>(omp_get_num_threads())) {
      const Range r = ColumnRange(cols, parts, i);
      const size_t w = r.end - r.begin;
      own.resize(2 * w);
      std::fill(own.begin(), own.end(), 0.0f);
      Accumulate(isa, d.c.dtype, d.dy.get(), d.x.get(), cols, 0, rows, r.begin, w, own.data(),
                 own.data() + w);
      engine::WriteOutput(isa, d.c.dtype, own.data(), w,
                          engine::OutputAt(d.pd_gamma.get(), d.c.dtype, r.begin));
      engine::WriteOutput(isa, d.c.dtype, own.data() + w, w,
                          engine::OutputAt(d.pd_beta.get(), d.c.dtype, r.begin));
    }
  }
}

// RunSequentialRelay: chunks of rows dealt to the threads in turn, the
// running sums passed on; a thread reads its next chunk while it waits.
void GradBetaSequentialRelay(const Isa& isa, Data& d, int threads, std::vector<float>& sums) {
  const size_t rows = d.c.rows, cols = d.c.cols, row_bytes = cols * d.elem;
  const size_t chunk = std::max<size_t>(1, kRelayChunkBytes / (2 * row_bytes));
  const size_t chunks = (rows + chunk - 1) / chunk;
  sums.assign(2 * cols, 0.0f);
  std::atomic<size_t> turn{0};
  const uint8_t* dy = d.dy.get();
  const uint8_t* res = d.x.get();
#pragma omp parallel num_threads(threads)
  {
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = static_cast<size_t>(omp_get_num_threads());
    for (size_t k = t; k < chunks; k += nt) {
      const size_t r0 = k * chunk, n = std::min(chunk, rows - r0);
      const uint8_t* lines[2] = {dy + r0 * row_bytes, res + r0 * row_bytes};
      const size_t bytes = n * row_bytes;
      uint8_t sink = 0;
      for (size_t b = 0; b < bytes && turn.load(std::memory_order_acquire) != k; b += 64 * 16) {
        for (size_t l = b; l < std::min(bytes, b + 64 * 16); l += 64) {
          sink ^= *static_cast<const volatile uint8_t*>(lines[0] + l);
          sink ^= *static_cast<const volatile uint8_t*>(lines[1] + l);
        }
      }
      (void)sink;
      while (turn.load(std::memory_order_acquire) != k) std::this_thread::yield();
      Accumulate(isa, d.c.dtype, dy, res, cols, r0, n, 0, cols, sums.data(), sums.data() + cols);
      turn.store(k + 1, std::memory_order_release);
    }
  }
  engine::WriteOutput(isa, d.c.dtype, sums.data(), cols, d.pd_gamma.get());
  engine::WriteOutput(isa, d.c.dtype, sums.data() + cols, cols, d.pd_beta.get());
}

void GradBetaMirror(const Isa& isa, Data& d, int threads, std::vector<float>& scratch) {
  if (d.c.order == Order::kBlocked) {
    GradBetaBlocked(isa, d, threads, scratch);
  } else if (ColumnParts(d.c.cols, threads) < static_cast<size_t>(threads)) {
    GradBetaSequentialRelay(isa, d, threads, scratch);
  } else {
    GradBetaSequentialColumns(isa, d, threads);
  }
}

using BackwardFn = void (*)(const normgrad::kernels::LayerNormBackwardArgs&);
BackwardFn BackwardOf(const Isa& isa, DType t) {
  return t == DType::kF32   ? isa.layer_norm.backward_f32
         : t == DType::kF16 ? isa.layer_norm.backward_f16
                            : isa.layer_norm.backward_bf16;
}

// RunBackward, blocked order (gamma widened once, outside the timing).
void BackwardMirror(const Isa& isa, Data& d, int threads, std::vector<float>& scratch) {
  const size_t rows = d.c.rows, cols = d.c.cols, width = 2 * cols;
  const engine::BlockedPlan plan = engine::PlanBlocked(rows, threads);
  const int used = static_cast<int>(std::min<size_t>(threads, plan.subtrees));
  scratch.resize(engine::BlockedScratchFloats(plan, used, width));
  const bool streaming = engine::Streaming(normgrad::Stores::kAuto, rows, cols, d.c.dtype);
  const BackwardFn kernel = BackwardOf(isa, d.c.dtype);
  auto run_rows = [&](size_t begin, size_t end, float* acc) {
    normgrad::kernels::LayerNormBackwardArgs a{};
    a.x = d.x.get() + begin * cols * d.elem;
    a.dy = d.dy.get() + begin * cols * d.elem;
    a.gamma = d.gamma_f32.data();
    a.mean = d.mean.data() + begin;
    a.rstd = d.rstd.data() + begin;
    a.stride = cols;
    a.rows = end - begin;
    a.cols = cols;
    a.dx = d.dx.get() + begin * cols * d.elem;
    a.f32_dx = d.c.dtype == DType::kF32;
    a.stream_dx = streaming;
    a.acc_gamma = acc;
    a.acc_beta = acc + cols;
    kernel(a);
  };
  float* const sums = scratch.data();
  float* const stacks = sums + plan.subtrees * width;
  const engine::PartialColumns all{cols, 0, cols};
  engine::ParallelForWorkers(used, plan.subtrees, [&](size_t j, size_t worker) {
    engine::SumSubtree(isa, plan, j, all, sums + j * width, stacks + worker * plan.levels * width,
                       [&](size_t b, float* partial) {
                         run_rows(b * engine::kBlockRows,
                                  std::min(rows, (b + 1) * engine::kBlockRows), partial);
                       });
  });
  engine::CombineRoots(isa, plan, sums, all);
  engine::WriteOutput(isa, d.c.dtype, sums, cols, d.pd_gamma.get());
  engine::WriteOutput(isa, d.c.dtype, sums + cols, cols, d.pd_beta.get());
}

// ------------------------------------------------ arithmetic from L2

// Each thread's share of the case's elements, summed (or, backward, run)
// over a block of rows of its own that stays in L2, again and again: the
// columns each thread sums in the case (all, or its column range in the
// sequential order's column split), plain stores for dx. The arrays start
// at different offsets in a 4 KiB page, so that loads never wait on a store
// to an address equal in its low 12 bits (4K aliasing): that would be a cost
// of the blocks' placement, not of the arithmetic.
struct L2Blocks {
  static constexpr size_t kBytes = 192 << 10;
  size_t rows = 0, width = 0, calls = 0;
  std::vector<Buffer> memory;
  std::vector<uint8_t*> dy, x, dx;
  std::vector<std::vector<float>> acc;
};

L2Blocks MakeL2Blocks(const Data& d, int threads) {
  L2Blocks b;
  const bool by_columns = !d.c.backward && d.c.order == Order::kSequential &&
                          ColumnParts(d.c.cols, threads) == static_cast<size_t>(threads);
  b.width = by_columns ? d.c.cols / static_cast<size_t>(threads) : d.c.cols;
  const size_t arrays = d.c.backward ? 3 : 2;
  b.rows = std::max<size_t>(4, L2Blocks::kBytes / (arrays * b.width * d.elem) / 4 * 4);
  const size_t share = d.n / static_cast<size_t>(threads);  // elements per thread
  b.calls = std::max<size_t>(1, share / (b.rows * b.width));
  for (int t = 0; t < threads; ++t) {
    const size_t bytes = b.rows * b.width * d.elem;
    const size_t step = (bytes + 4095) / 4096 * 4096 + kSkew;
    b.memory.push_back(Allocate(3 * step));
    b.dy.push_back(b.memory.back().get());
    b.x.push_back(b.dy.back() + step);
    b.dx.push_back(b.x.back() + step);
    Fill(d.c.dtype, b.dy.back(), b.rows * b.width, 5 + t);
    Fill(d.c.dtype, b.x.back(), b.rows * b.width, 9 + t);
    b.acc.emplace_back(2 * b.width, 0.0f);
  }
  return b;
}

void ArithFromL2(const Isa& isa, Data& d, L2Blocks& b, int threads) {
#pragma omp parallel num_threads(threads)
  {
    const auto t = static_cast<size_t>(omp_get_thread_num());
    float* acc = b.acc[t].data();
    for (size_t k = 0; k < b.calls; ++k) {
      if (!d.c.backward) {
        Accumulate(isa, d.c.dtype, b.dy[t], b.x[t], b.width, 0, b.rows, 0, b.width, acc,
                   acc + b.width);
      } else {
        normgrad::kernels::LayerNormBackwardArgs a{};
        a.x = b.x[t];
        a.dy = b.dy[t];
        a.gamma = d.gamma_f32.data();
        a.mean = d.mean.data();
        a.rstd = d.rstd.data();
        a.stride = b.width;
        a.rows = b.rows;
        a.cols = b.width;
        a.dx = b.dx[t];
        a.f32_dx = d.c.dtype == DType::kF32;
        a.stream_dx = false;
        a.acc_gamma = acc;
        a.acc_beta = acc + b.width;
        BackwardOf(isa, d.c.dtype)(a);
      }
    }
  }
}

// ------------------------------------------------------------ timing

struct Variant {
  Variant(const char* n, std::function<void()> f, double b)
      : name(n), call(std::move(f)), bytes(b) {}
  const char* name;
  std::function<void()> call;
  double bytes;  // counted per call
  int iters = 1;
  std::vector<double> seconds = {};  // per call, one per round
};

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double TimeCalls(Variant& v, int calls) {
  const double t0 = Now();
  for (int i = 0; i < calls; ++i) v.call();
  return Now() - t0;
}

using bench::Median;

double LoadAverage() {
  double one = -1;
  if (FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &one) != 1) one = -1;
    std::fclose(f);
  }
  return one;
}

// CPU time, in clock ticks, of the whole machine (busy, and busy + idle;
// steal counts as busy) and of this process, to see what share other
// processes took while a case was timed.
struct CpuTicks {
  double busy = 0, total = 0, self = 0;
};
CpuTicks ReadCpuTicks() {
  CpuTicks c;
  if (FILE* f = std::fopen("/proc/stat", "r")) {
    double v[8] = {};
    if (std::fscanf(f, "cpu %lf %lf %lf %lf %lf %lf %lf %lf", &v[0], &v[1], &v[2], &v[3], &v[4],
                    &v[5], &v[6], &v[7]) == 8) {
      c.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
      c.total = c.busy + v[3] + v[4];
    }
    std::fclose(f);
  }
  if (FILE* f = std::fopen("/proc/self/stat", "r")) {
    char buf[1024];
    const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    // Fields 14 and 15 (utime, stime) follow the command name's ')'.
    if (const char* p = std::strrchr(buf, ')')) {
      double utime = 0, stime = 0;
      if (std::sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lf %lf", &utime,
                      &stime) == 2) {
        c.self = utime + stime;
      }
    }
    std::fclose(f);
  }
  return c;
}

void RunCase(const Case& c, const Isa& real, const Isa& pat, int threads, int rounds) {
  Data d(c);
  const bool relay = !c.backward && c.order == Order::kSequential &&
                     ColumnParts(c.cols, threads) < static_cast<size_t>(threads);
  if (c.order == Order::kBlocked &&
      engine::PlanBlocked(c.rows, threads).subtrees < static_cast<size_t>(threads)) {
    std::fprintf(stderr,
                 "normgrad_isolate: %zux%zu has fewer subtrees than threads; the "
                 "driver copy covers only the other case\n",
                 c.rows, c.cols);
    std::exit(1);
  }
  std::vector<float> scratch_real, scratch_pat;
  L2Blocks blocks = MakeL2Blocks(d, threads);
  const double bytes = d.Bytes();
  const size_t floats = d.n * d.elem / 4;
  const auto* fa = reinterpret_cast<const float*>(d.dy.get());
  const auto* fb = reinterpret_cast<const float*>(d.x.get());
  static volatile float sink = 0;

  std::vector<Variant> vs;
  vs.push_back({"baseline",
                [&] { sink = sink + normgrad::bench::SumTwoArrays(fa, fb, floats, threads); },
                2.0 * static_cast<double>(d.n * d.elem)});
  if (!c.backward && c.order == Order::kSequential && !relay) {
    vs.push_back({"cols",
                  [&] {
                    sink = sink + normgrad::bench::SumTwoArraysByColumns(
                                      fa, fb, c.rows, c.cols * d.elem / 4, threads);
                  },
                  2.0 * static_cast<double>(d.n * d.elem)});
  }
  if (!c.backward) {
    vs.push_back({"engine",
                  [&] {
                    normgrad::GradBetaProblem p;
                    p.dtype = c.dtype;
                    p.rows = c.rows;
                    p.cols = c.cols;
                    p.dy = d.dy.get();
                    p.res = d.x.get();
                    p.pd_gamma = d.pd_gamma.get();
                    p.pd_beta = d.pd_beta.get();
                    p.order = c.order;
                    p.threads = threads;
                    p.isa = real.name;
                    if (!normgrad::LayerNormGradBeta(p).ok()) std::abort();
                  },
                  bytes});
    vs.push_back({"mirror", [&] { GradBetaMirror(real, d, threads, scratch_real); }, bytes});
    vs.push_back({"pattern", [&] { GradBetaMirror(pat, d, threads, scratch_pat); }, bytes});
    if (c.order == Order::kSequential && !relay) {
      vs.push_back(
          {"relay", [&] { GradBetaSequentialRelay(real, d, threads, scratch_real); }, bytes});
    }
  } else {
    const auto backward = [&](void* dx) {
      normgrad::LayerNormBackwardProblem p;
      p.dtype = c.dtype;
      p.rows = c.rows;
      p.cols = c.cols;
      p.x = d.x.get();
      p.dy = d.dy.get();
      p.gamma = d.gamma.get();
      p.mean = d.mean.data();
      p.rstd = d.rstd.data();
      p.dx = dx;
      p.pd_gamma = d.pd_gamma.get();
      p.pd_beta = d.pd_beta.get();
      p.order = Order::kBlocked;
      p.threads = threads;
      p.isa = real.name;
      if (!normgrad::LayerNormBackward(p).ok()) std::abort();
    };
    vs.push_back({"engine", [backward, &d] { backward(d.dx.get()); }, bytes});
    vs.push_back({"skewed", [backward, &d] { backward(d.dx.get() + kSkew); }, bytes});
    vs.push_back(
        {"streams",
         [&] { pattern::ThreeStreams(d.x.get(), d.dy.get(), d.dx.get(), d.n * d.elem, threads); },
         bytes});
    vs.push_back({"mirror", [&] { BackwardMirror(real, d, threads, scratch_real); }, bytes});
    vs.push_back({"pattern", [&] { BackwardMirror(pat, d, threads, scratch_pat); }, bytes});
  }
  vs.push_back({"arith", [&] { ArithFromL2(real, d, blocks, threads); }, bytes});

  // The outputs of the real kernel through the engine, and whether every
  // other driver of it gives the same bits (the copy is faithful; the relay
  // keeps the sequential order).
  const auto outputs = [&] {
    std::vector<uint8_t> o(d.pd_gamma.get(), d.pd_gamma.get() + c.cols * d.elem);
    o.insert(o.end(), d.pd_beta.get(), d.pd_beta.get() + c.cols * d.elem);
    if (c.backward) o.insert(o.end(), d.dx.get(), d.dx.get() + d.n * d.elem);
    return o;
  };
  std::string same_bits;
  std::find_if(vs.begin(), vs.end(), [](const Variant& v) {
    return v.name == std::string("engine");
  })->call();
  const std::vector<uint8_t> reference = outputs();
  for (Variant& v : vs) {
    if (v.name != std::string("mirror") && v.name != std::string("relay")) continue;
    v.call();
    same_bits += std::string(" ") + v.name + (outputs() == reference ? "=engine" : "!=engine");
  }

  // Calls per sample: at least 20 ms of them.
  constexpr double kSample = 0.02;
  for (Variant& v : vs) {
    v.call();
    const double t = TimeCalls(v, 1);
    v.iters = static_cast<int>(std::clamp(std::ceil(kSample / std::max(t, 1e-9)), 1.0, 1e5));
  }
  const CpuTicks before = ReadCpuTicks();
  for (int r = 0; r < rounds; ++r) {
    for (Variant& v : vs) {
      if (c.in_cache) v.call();
      v.seconds.push_back(TimeCalls(v, v.iters) / v.iters);
    }
  }

  const CpuTicks after = ReadCpuTicks();
  const double total = after.total - before.total;
  const double others =
      total > 0 ? std::max(0.0, (after.busy - before.busy) - (after.self - before.self)) / total
                : 0;

  std::printf("%-3s %-9s %-8s %-10s %5zux%-5zu %-8s %6.1f", c.section,
              c.backward ? "backward" : "grad_beta", normgrad::DTypeName(c.dtype),
              c.backward ? "blocked" : normgrad::OrderName(c.order), c.rows, c.cols,
              c.in_cache ? "in-cache" : "memory", vs[0].bytes / Median(vs[0].seconds) / 1e9);
  for (size_t i = 1; i < vs.size(); ++i) {
    std::vector<double> ratios;
    for (int r = 0; r < rounds; ++r) {
      ratios.push_back((vs[i].bytes / vs[i].seconds[r]) / (vs[0].bytes / vs[0].seconds[r]));
    }
    const auto [lo, hi] = std::minmax_element(ratios.begin(), ratios.end());
    std::printf(" %s %.2f (%.2f-%.2f)", vs[i].name, Median(ratios), *lo, *hi);
    if (std::strcmp(vs[i].name, "arith") == 0) {
      std::printf(" %.2fns", Median(vs[i].seconds) * threads / d.n * 1e9);
    }
  }
  std::printf(" others %.0f%% bits:%s\n", 100 * others, same_bits.c_str());
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 15, threads = 2;
  const char* only = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--rounds" && i + 1 < argc) {
      rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--threads" && i + 1 < argc) {
      threads = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--only" && i + 1 < argc) {
      only = argv[++i];
    } else {
      std::fprintf(stderr, "usage: %s [--rounds N] [--threads T] [--only SUBSTRING]\n", argv[0]);
      return 2;
    }
  }
  const Isa* real = nullptr;
  for (const Isa& isa : normgrad::kernels::Isas()) {
    if (std::strcmp(isa.name, "avx512") == 0 && isa.available()) real = &isa;
  }
  if (real == nullptr) {
    std::fprintf(stderr, "normgrad_isolate: needs AVX-512 (the instruction set it mirrors)\n");
    return 77;  // "skipped" to ctest
  }
  Isa pat = *real;
  pat.accumulate_f32 = AccumulateRows<pattern::F32>;
  pat.accumulate_f16 = AccumulateRows<pattern::Bits16>;
  pat.accumulate_bf16 = AccumulateRows<pattern::Bits16>;
  pat.add = pattern::AddArrays;
  pat.layer_norm.backward_f32 = BackwardKernel<pattern::F32>;
  pat.layer_norm.backward_f16 = BackwardKernel<pattern::Bits16>;
  pat.layer_norm.backward_bf16 = BackwardKernel<pattern::Bits16>;

#pragma omp parallel num_threads(threads)
  _mm_setcsr(_mm_getcsr() | 0x8040);  // flush to zero, denormals are zero

  constexpr DType F = DType::kF32, H = DType::kF16, B = DType::kBF16;
  constexpr Order Bl = Order::kBlocked, Sq = Order::kSequential;
  const Case cases[] = {
      {"2", false, B, Bl, 4096, 4096, false}, {"2", false, B, Bl, 16384, 768, false},
      {"2", false, F, Sq, 4096, 4096, false}, {"2", false, F, Sq, 16384, 768, false},
      {"2", false, B, Sq, 4096, 4096, false}, {"2", false, H, Sq, 16384, 768, false},
      {"2", false, B, Sq, 16384, 768, false}, {"2", false, F, Sq, 65536, 64, false},
      {"2", false, B, Sq, 65536, 64, true},   {"3", true, H, Bl, 4096, 4096, false},
      {"3", true, B, Bl, 4096, 4096, false},  {"3", true, H, Bl, 16384, 768, false},
      {"3", true, B, Bl, 16384, 768, false},  {"3", true, H, Bl, 2048, 12288, false},
      {"3", true, B, Bl, 2048, 12288, false}, {"4", false, F, Bl, 4096, 512, true},
      {"4", false, B, Bl, 4096, 512, true},   {"4", false, H, Bl, 65536, 64, true},
      {"4", false, B, Bl, 65536, 64, true},   {"4", true, F, Bl, 4096, 512, true},
      {"4", true, B, Bl, 4096, 512, true},    {"4", true, F, Bl, 65536, 64, true},
      {"4", true, H, Bl, 65536, 64, true},    {"4", true, B, Bl, 65536, 64, true},
  };
  std::printf("normgrad_isolate: %d threads, %d rounds, load average %.2f at start\n", threads,
              rounds, LoadAverage());
  std::printf(
      "Per case: the baseline's GB/s, then each variant's ratio to it, median (range "
      "over rounds);\narith also in ns per element on each thread; others: the share of "
      "the machine's CPU time other processes took.\n");
  const double t0 = Now();
  for (const Case& c : cases) {
    char name[96];
    std::snprintf(name, sizeof name, "%s %s %s %s %zux%zu", c.section,
                  c.backward ? "backward" : "grad_beta", normgrad::DTypeName(c.dtype),
                  c.backward ? "blocked" : normgrad::OrderName(c.order), c.rows, c.cols);
    if (only != nullptr && std::strstr(name, only) == nullptr) continue;
    RunCase(c, *real, pat, threads, rounds);
  }
  std::printf("load average %.2f at the end; %.0f s\n", LoadAverage(), Now() - t0);
  return 0;
}

// advanced_apis.cc — the advanced APIs most operators call (SoftMax,
// SoftmaxFlashV2, Gelu, SwiGLU, Exp, Log, Sum, ReduceMax; Floor, Round,
// Frac, Sign, Sin, Cos, Tanh, Atan, Asinh, ClampMax, Fmod, Power, CumSum, Erf, Erfc, Lgamma)
// over a whole rows × cols matrix in half and float, TopK (the 50 largest of rows of 32000, as
// many elements in all) in half and float, AscendQuant (half to int8_t per channel) over the
// matrix, and the true transposes Transpose (scenario 7, by blocks of 64 x 64, half and float) and
// TransData (NCDHW to NDC1HWC0, half) (build/bin/normgrad_advanced_apis), next to a plain loop a
// user would write over the same bytes and a read baseline, in rounds that alternate the three.
//
//   normgrad_advanced_apis [--rows R] [--cols C] [--rounds N] [--only TEXT]
//
// The API path is an operator on one emulated core (the calling thread): the
// matrix streams through the unified buffer a tile of rows at a time (16 KiB
// of each input; copied in and out with memcpy, as a DataCopy would), and
// each tile is one API call. The plain loop computes the same formula in
// float on the same thread (half widened and narrowed in short pieces; Exp,
// Log, Erf, Erfc and Lgamma through the C library's expf, logf, erff, erfcf
// and lgammaf, one element at a time, as an operator writer's loop does; TopK a partial sort of the
// row's positions, AscendQuant x · scale + offset in float, held to the int8_t range and rounded to
// nearest even). The read baseline sums the inputs' bytes as floats. Prints for each row the median
// time of each, the API's GB/s
// ((bytes read + bytes written) / median time), and the medians of the
// rounds' ratios: "x loop" (the loop's time ÷ the API's: above 1 the API is
// faster) and "x base" (the API's GB/s ÷ the baseline's), and how far the
// two results are apart ("api-loop": max |API − loop| ÷ max |loop|), so that
// speed never hides a wrong answer.
//
// The unit runs on the instruction set NORMGRAD_IMPL forces, else the best,
// under the process's profile (NORMGRAD_PROFILE, else a2).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_stats.h"
#include "engine/dispatch.h"
#include "kernel_operator.h"
#include "normgrad/convert.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

constexpr uint32_t kTileBytes = 16 * 1024;     // of each input, per API call
constexpr uint32_t kScratchBytes = 96 * 1024;  // every API's sharedTmpBuffer
constexpr uint32_t kStatBytes = 1024;          // max and sums: 32 bytes a row
constexpr float kSwiGluBeta = 1.0f;
constexpr float kClampScalar = 1.5f;  // ClampMax's scalar
// Gelu's tanh form as the page writes it: x / (1 + e^(a·(x³ + b·x))).
constexpr float kGeluA = -0.0713548162726f;
constexpr float kGeluB = 22.363860002236f;

enum class Api {
  kSoftMax,
  kFlashV2,
  kGelu,
  kSwiGlu,
  kExp,
  kLog,
  kFloor,
  kRound,
  kFrac,
  kSign,
  kSin,
  kCos,
  kTanh,
  kAtan,
  kAsinh,
  kClampMax,
  kFmod,
  kPower,
  kCumSum,
  kSum,
  kReduceMax,
  kErf,
  kErfc,
  kLgamma
};

struct ApiInfo {
  Api api;
  const char* name;
  bool two_inputs;
  bool row_output;  // one result per row (Sum, ReduceMax)
};

constexpr ApiInfo kApis[] = {
    {Api::kSoftMax, "SoftMax", false, false},
    {Api::kFlashV2, "SoftmaxFlashV2", false, false},
    {Api::kGelu, "Gelu", false, false},
    {Api::kSwiGlu, "SwiGLU", true, false},
    {Api::kExp, "Exp", false, false},
    {Api::kLog, "Log", false, false},
    {Api::kFloor, "Floor", false, false},
    {Api::kRound, "Round", false, false},
    {Api::kFrac, "Frac", false, false},
    {Api::kSign, "Sign", false, false},
    {Api::kSin, "Sin", false, false},
    {Api::kCos, "Cos", false, false},
    {Api::kTanh, "Tanh", false, false},
    {Api::kAtan, "Atan", false, false},
    {Api::kAsinh, "Asinh", false, false},
    {Api::kClampMax, "ClampMax", false, false},
    {Api::kFmod, "Fmod", true, false},
    {Api::kPower, "Power", true, false},
    {Api::kCumSum, "CumSum", false, false},
    {Api::kSum, "Sum", false, true},
    {Api::kReduceMax, "ReduceMax", false, true},
    {Api::kErf, "Erf", false, false},
    {Api::kErfc, "Erfc", false, false},
    {Api::kLgamma, "Lgamma", false, false},
};

// The matrix in host memory ("global memory"): x (positive for Log and
// Power's base), the gate of SwiGLU (Fmod's divisor, Power's exponent), and
// the outputs of the API and of the loop.
template <typename T>
struct Matrix {
  Matrix(uint32_t row_count, uint32_t col_count, bool positive)
      : rows(row_count),
        cols(col_count),
        x(size_t{row_count} * col_count),
        gate(x.size()),
        out(x.size()),
        loop_out(x.size()) {
    uint32_t state = 2026;
    const auto next = [&state] {
      state = state * 1664525u + 1013904223u;
      return static_cast<float>(state >> 8) * 0x1p-24f;  // [0, 1)
    };
    for (size_t i = 0; i < x.size(); ++i) {
      x[i] = T(positive ? 0.01f + 8.0f * next() : 8.0f * next() - 4.0f);
      gate[i] = T(8.0f * next() - 4.0f);
    }
  }
  uint32_t rows, cols;
  std::vector<T> x, gate, out, loop_out;
  // The plain loop's running max and sum of SoftmaxFlashV2, one per row of
  // a tile, starting as the API's (set by Bench).
  std::vector<float> run_max, run_sum;
};

// The operands of one API call in the unified buffer of the calling
// thread's core.
template <typename T>
struct Ub {
  explicit Ub(uint32_t tile_elements) {
    pipe.InitBuffer(in_buf, tile_elements * sizeof(T));
    pipe.InitBuffer(gate_buf, tile_elements * sizeof(T));
    pipe.InitBuffer(out_buf, tile_elements * sizeof(T));
    pipe.InitBuffer(max_buf, kStatBytes);
    pipe.InitBuffer(sum_buf, kStatBytes);
    pipe.InitBuffer(exp_max_buf, kStatBytes);
    pipe.InitBuffer(tmp_buf, kScratchBytes);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, gate_buf, out_buf, max_buf, sum_buf, exp_max_buf, tmp_buf;
};

// One API call on a tile of `rows` rows of the matrix's columns.
template <typename T>
class ApiTile {
 public:
  ApiTile(Api api, Ub<T>& ub, uint32_t tile_rows, uint32_t cols) : api_(api), ub_(ub), cols_(cols) {
    softmax_tiling_for(tile_rows);
    flash_tiling_for(tile_rows);
    // The running max and sum of SoftmaxFlashV2 start as a first tile
    // leaves them: finite, so every later tile updates them.
    AscendC::Duplicate(ub_.max_buf.template Get<float>(), 0.0f, kStatBytes / 4);
    AscendC::Duplicate(ub_.sum_buf.template Get<float>(), 1.0f, kStatBytes / 4);
  }

  void Run(uint32_t rows) {
    namespace A = AscendC;
    const LocalTensor<T> in = ub_.in_buf.template Get<T>();
    const LocalTensor<T> gate = ub_.gate_buf.template Get<T>();
    const LocalTensor<T> out = ub_.out_buf.template Get<T>();
    const LocalTensor<uint8_t> tmp = ub_.tmp_buf.template Get<uint8_t>();
    const uint32_t n = rows * cols_;
    switch (api_) {
      case Api::kSoftMax: {
        const A::SoftMaxShapeInfo info{rows, cols_, rows, cols_};
        softmax_tiling_for(rows);
        A::SoftMax<T>(out, ub_.sum_buf.template Get<T>(), ub_.max_buf.template Get<T>(), in, tmp,
                      softmax_, info);
        return;
      }
      case Api::kFlashV2: {
        const LocalTensor<float> max = ub_.max_buf.template Get<float>();
        const LocalTensor<float> sum = ub_.sum_buf.template Get<float>();
        flash_tiling_for(rows);
        A::SoftmaxFlashV2<T, true>(out, sum, max, in, ub_.exp_max_buf.template Get<T>(), sum, max,
                                   tmp, flash_);
        return;
      }
      case Api::kGelu:
        A::Gelu<T>(out, in, tmp, n);
        return;
      case Api::kSwiGlu:
        A::SwiGLU<T>(out, in, gate, kSwiGluBeta, tmp, n);
        return;
      case Api::kExp:
        A::Exp<T, 0>(out, in, tmp, n);
        return;
      case Api::kLog:
        A::Log<T>(out, in, n);  // Log takes no sharedTmpBuffer
        return;
      case Api::kFloor:
        A::Floor<T>(out, in, tmp, n);
        return;
      case Api::kRound:
        A::Round<T>(out, in, tmp, n);
        return;
      case Api::kFrac:
        A::Frac<T>(out, in, tmp, n);
        return;
      case Api::kSign:
        A::Sign<T>(out, in, tmp, n);
        return;
      case Api::kSin:
        A::Sin<T>(out, in, tmp, n);
        return;
      case Api::kCos:
        A::Cos<T>(out, in, tmp, n);
        return;
      case Api::kTanh:
        A::Tanh<T>(out, in, tmp, n);
        return;
      case Api::kAtan:
        A::Atan<T>(out, in, tmp, n);
        return;
      case Api::kAsinh:
        A::Asinh<T>(out, in, tmp, n);
        return;
      case Api::kClampMax:
        A::ClampMax<T>(out, in, tmp, T(kClampScalar), n);
        return;
      case Api::kFmod:
        A::Fmod<T>(out, in, gate, tmp, n);
        return;
      case Api::kPower:
        A::Power<T>(out, in, gate, tmp, n);
        return;
      case Api::kCumSum: {
        LocalTensor<T> dst = out;
        LocalTensor<T> last_row = ub_.sum_buf.template Get<T>();  // not written
        LocalTensor<uint8_t> scratch = tmp;
        A::CumSum<T>(dst, last_row, in, scratch, A::CumSumInfo{rows, cols_});
        return;
      }
      case Api::kSum:
        A::Sum<T>(out, in, tmp, A::SumParams{rows, cols_, cols_});
        return;
      case Api::kReduceMax: {
        const uint32_t shape[] = {rows, cols_};
        A::ReduceMax<T, A::Pattern::Reduce::AR>(out, in, tmp, shape, true);
        return;
      }
      case Api::kErf:
        A::Erf<T>(out, in, tmp, n);
        return;
      case Api::kErfc:
        A::Erfc<T>(out, in, tmp, n);
        return;
      case Api::kLgamma:
        A::Lgamma<T>(out, in, tmp, n);
        return;
    }
  }

 private:
  // The last tile may hold fewer rows than the tiling was made for.
  void softmax_tiling_for(uint32_t rows) {
    if (rows == softmax_rows_) return;
    AscendC::SoftMaxTilingFunc(ge::Shape({rows, cols_}), sizeof(T), kScratchBytes, softmax_);
    softmax_rows_ = rows;
  }
  void flash_tiling_for(uint32_t rows) {
    if (rows == flash_rows_) return;
    AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({rows, cols_}), sizeof(T), sizeof(float),
                                      kScratchBytes, flash_, true);
    flash_rows_ = rows;
  }

  Api api_;
  Ub<T>& ub_;
  uint32_t cols_;
  uint32_t softmax_rows_ = 0, flash_rows_ = 0;
  AscendC::tiling::SoftMaxTiling softmax_{}, flash_{};
};

// The API over the whole matrix: each tile copied in, computed, copied out.
template <typename T>
void RunApi(const ApiInfo& info, Matrix<T>& m, Ub<T>& ub, ApiTile<T>& tile, uint32_t tile_rows) {
  T* in = ub.in_buf.template Get<T>().GetPhyAddr();
  T* gate = ub.gate_buf.template Get<T>().GetPhyAddr();
  const T* out = ub.out_buf.template Get<T>().GetPhyAddr();
  for (uint32_t r = 0; r < m.rows; r += tile_rows) {
    const uint32_t rows = std::min(tile_rows, m.rows - r);
    const size_t at = size_t{r} * m.cols, n = size_t{rows} * m.cols;
    std::memcpy(in, m.x.data() + at, n * sizeof(T));
    if (info.two_inputs) std::memcpy(gate, m.gate.data() + at, n * sizeof(T));
    tile.Run(rows);
    if (info.row_output) {
      std::memcpy(m.out.data() + r, out, rows * sizeof(T));
    } else {
      std::memcpy(m.out.data() + at, out, n * sizeof(T));
    }
  }
}

// ---- The plain loops --------------------------------------------------------

// Half steps through float in pieces of this many elements.
constexpr size_t kPiece = 1024;

float GeluOf(float x) { return x / (1.0f + std::exp(kGeluA * (x * x * x + kGeluB * x))); }

// A row of n floats in place: the softmax a user writes.
void SoftmaxRow(float* v, size_t n) {
  float max = v[0];
  for (size_t i = 1; i < n; ++i) max = std::max(max, v[i]);
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    v[i] = std::exp(v[i] - max);
    sum += v[i];
  }
  const float inv = 1.0f / sum;
  for (size_t i = 0; i < n; ++i) v[i] *= inv;
}

// A row of n floats in place as SoftmaxFlashV2 with isUpdate computes it:
// the new max (the row's and the running one), e^(x − max), and the running
// sum and max updated.
void FlashRow(float* v, size_t n, float& run_max, float& run_sum) {
  float max = run_max;
  for (size_t i = 0; i < n; ++i) max = std::max(max, v[i]);
  float sum = 0.0f;
  for (size_t i = 0; i < n; ++i) {
    v[i] = std::exp(v[i] - max);
    sum += v[i];
  }
  run_sum = run_sum * std::exp(run_max - max) + sum;
  run_max = max;
}

// The elementwise formula of `api` over n floats in place (gate: SwiGLU's).
void Elementwise(Api api, float* v, const float* gate, size_t n) {
  switch (api) {
    case Api::kGelu:
      for (size_t i = 0; i < n; ++i) v[i] = GeluOf(v[i]);
      return;
    case Api::kSwiGlu:
      for (size_t i = 0; i < n; ++i) {
        v[i] = v[i] * (gate[i] / (1.0f + std::exp(-kSwiGluBeta * gate[i])));
      }
      return;
    case Api::kExp:
      for (size_t i = 0; i < n; ++i) v[i] = std::exp(v[i]);
      return;
    case Api::kLog:
      for (size_t i = 0; i < n; ++i) v[i] = std::log(v[i]);
      return;
    case Api::kFloor:
      for (size_t i = 0; i < n; ++i) v[i] = std::floor(v[i]);
      return;
    case Api::kRound:
      for (size_t i = 0; i < n; ++i) v[i] = std::nearbyint(v[i]);
      return;
    case Api::kFrac:
      for (size_t i = 0; i < n; ++i) v[i] = v[i] - std::trunc(v[i]);
      return;
    case Api::kSign:
      for (size_t i = 0; i < n; ++i) v[i] = v[i] > 0.0f ? 1.0f : (v[i] < 0.0f ? -1.0f : 0.0f);
      return;
    case Api::kSin:
      for (size_t i = 0; i < n; ++i) v[i] = std::sin(v[i]);
      return;
    case Api::kCos:
      for (size_t i = 0; i < n; ++i) v[i] = std::cos(v[i]);
      return;
    case Api::kTanh:
      for (size_t i = 0; i < n; ++i) v[i] = std::tanh(v[i]);
      return;
    case Api::kAtan:
      for (size_t i = 0; i < n; ++i) v[i] = std::atan(v[i]);
      return;
    case Api::kAsinh:
      for (size_t i = 0; i < n; ++i) v[i] = std::asinh(v[i]);
      return;
    case Api::kClampMax:
      for (size_t i = 0; i < n; ++i) v[i] = v[i] > kClampScalar ? kClampScalar : v[i];
      return;
    case Api::kFmod:
      for (size_t i = 0; i < n; ++i) v[i] = std::fmod(v[i], gate[i]);
      return;
    case Api::kPower:
      for (size_t i = 0; i < n; ++i) v[i] = std::pow(v[i], gate[i]);
      return;
    case Api::kErf:
      for (size_t i = 0; i < n; ++i) v[i] = std::erf(v[i]);
      return;
    case Api::kErfc:
      for (size_t i = 0; i < n; ++i) v[i] = std::erfc(v[i]);
      return;
    case Api::kLgamma:
      for (size_t i = 0; i < n; ++i) v[i] = std::lgamma(v[i]);
      return;
    default:
      return;
  }
}

template <typename T>
void Load(const T* src, float* dst, size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(dst, src, n * sizeof(float));
  } else {
    normgrad::Widen(src, dst, n);
  }
}

template <typename T>
void Store(const float* src, T* dst, size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(dst, src, n * sizeof(float));
  } else {
    normgrad::Narrow(src, dst, n);
  }
}

template <typename T>
void RunLoop(Api api, Matrix<T>& m) {
  std::vector<float> row(m.cols), gate(kPiece), piece(kPiece);
  for (uint32_t r = 0; r < m.rows; ++r) {
    const size_t at = size_t{r} * m.cols;
    if (api == Api::kSoftMax || api == Api::kFlashV2) {
      Load(m.x.data() + at, row.data(), m.cols);
      if (api == Api::kSoftMax) {
        SoftmaxRow(row.data(), m.cols);
      } else {
        // The running max and sum of row r's place in its tile, as the API's.
        const size_t slot = r % m.run_max.size();
        FlashRow(row.data(), m.cols, m.run_max[slot], m.run_sum[slot]);
      }
      Store(row.data(), m.loop_out.data() + at, m.cols);
    } else if (api == Api::kCumSum) {
      Load(m.x.data() + at, row.data(), m.cols);
      for (uint32_t c = 1; c < m.cols; ++c) row[c] += row[c - 1];
      Store(row.data(), m.loop_out.data() + at, m.cols);
    } else if (api == Api::kSum || api == Api::kReduceMax) {
      Load(m.x.data() + at, row.data(), m.cols);
      float acc = api == Api::kSum ? 0.0f : row[0];
      if (api == Api::kSum) {
#pragma omp simd reduction(+ : acc)
        for (uint32_t c = 0; c < m.cols; ++c) acc += row[c];
      } else {
        for (uint32_t c = 1; c < m.cols; ++c) acc = std::max(acc, row[c]);
      }
      Store(&acc, m.loop_out.data() + r, 1);
    } else {
      for (size_t c = 0; c < m.cols; c += kPiece) {
        const size_t n = std::min<size_t>(kPiece, m.cols - c);
        Load(m.x.data() + at + c, piece.data(), n);
        if (api == Api::kSwiGlu || api == Api::kFmod || api == Api::kPower) {
          Load(m.gate.data() + at + c, gate.data(), n);
        }
        Elementwise(api, piece.data(), gate.data(), n);
        Store(piece.data(), m.loop_out.data() + at + c, n);
      }
    }
  }
}

// The read baseline: the inputs' bytes summed as floats.
float ReadBaseline(const void* a, const void* b, size_t bytes) {
  float sum = 0.0f;
  for (const void* p : {a, b}) {
    if (p == nullptr) continue;
    const auto* f = static_cast<const float*>(p);
#pragma omp simd reduction(+ : sum)
    for (size_t i = 0; i < bytes / sizeof(float); ++i) sum += f[i];
  }
  return sum;
}

// max |API − loop| ÷ max |loop| over the first n outputs: how far the two
// results are apart, relative to the results' size.
template <typename T>
double Difference(const Matrix<T>& m, size_t n) {
  double diff = 0.0, size = 0.0;
  for (size_t i = 0; i < n; ++i) {
    const double api = static_cast<float>(m.out[i]), loop = static_cast<float>(m.loop_out[i]);
    diff = std::max(diff, std::fabs(api - loop));
    size = std::max(size, std::fabs(loop));
  }
  return size > 0.0 ? diff / size : diff;
}

using bench::Median;

// Times the API path, the plain loop and the read baseline in `rounds`
// rounds that alternate them (each goes first in turn, after one warm-up of
// all three), and prints the row: the medians, the API's GB/s, x loop,
// x base and `difference()` after the last round.
struct Timed {
  std::function<void()> api, loop;
  std::function<float()> base;
  std::function<double()> difference;
};

void Report(const char* name, const char* type, uint32_t rows, uint32_t cols, size_t in_bytes,
            size_t out_bytes, int rounds, const Timed& t) {
  volatile float sink = 0.0f;
  using Clock = std::chrono::steady_clock;
  const auto time = [&](int which) {
    const auto start = Clock::now();
    if (which == 0) {
      t.api();
    } else if (which == 1) {
      t.loop();
    } else {
      sink = sink + t.base();
    }
    asm volatile("" ::: "memory");
    return std::chrono::duration<double>(Clock::now() - start).count();
  };
  for (int which = 0; which < 3; ++which) time(which);  // warm all three
  std::vector<double> api, loop, base, x_loop, x_base;
  for (int i = 0; i < rounds; ++i) {
    double s[3];
    for (int k = 0; k < 3; ++k) {
      const int which = (i + k) % 3;  // each goes first in turn
      s[which] = time(which);
    }
    api.push_back(s[0]);
    loop.push_back(s[1]);
    base.push_back(s[2]);
    x_loop.push_back(s[1] / s[0]);
    x_base.push_back((double(in_bytes + out_bytes) / s[0]) / (double(in_bytes) / s[2]));
  }
  std::printf("%-15s %-6s %5u x %-5u %9.3f %9.3f %9.3f %8.2f %7.3f %7.3f %9.1e\n", name, type, rows,
              cols, Median(api) * 1e3, Median(loop) * 1e3, Median(base) * 1e3,
              double(in_bytes + out_bytes) / Median(api) / 1e9, Median(x_loop), Median(x_base),
              t.difference());
}

template <typename T>
void Bench(const ApiInfo& info, const char* type, uint32_t rows, uint32_t cols, int rounds) {
  Matrix<T> m(rows, cols, info.api == Api::kLog || info.api == Api::kPower);
  const uint32_t tile_rows = std::max<uint32_t>(1, kTileBytes / (cols * sizeof(T)));
  Ub<T> ub(tile_rows * cols);
  ApiTile<T> tile(info.api, ub, tile_rows, cols);
  m.run_max.assign(tile_rows, 0.0f);
  m.run_sum.assign(tile_rows, 1.0f);
  const size_t in_bytes = m.x.size() * sizeof(T) * (info.two_inputs ? 2 : 1);
  const size_t out_bytes = (info.row_output ? rows : m.out.size()) * sizeof(T);
  Timed t;
  t.api = [&] { RunApi(info, m, ub, tile, tile_rows); };
  t.loop = [&] { RunLoop(info.api, m); };
  t.base = [&] {
    return ReadBaseline(m.x.data(), info.two_inputs ? m.gate.data() : nullptr,
                        m.x.size() * sizeof(T));
  };
  t.difference = [&] { return Difference(m, info.row_output ? rows : m.out.size()); };
  Report(info.name, type, rows, cols, in_bytes, out_bytes, rounds, t);
}

// ---- TopK: the k largest of a vocabulary-sized row --------------------------

// A language model's logits: rows of kVocab, the kTopK largest of each with
// their positions. A TopK call takes at most 4096 elements a row
// (TOPK_NORMAL), so the operator cuts each row into chunks of kTopKChunk,
// keeps the kTopK largest of each with their row positions (isInitIndex),
// then takes the kTopK largest of those candidates (padded with −inf to
// whole 32 elements), as tests/programs/topk_rows_blocks.asc does.
constexpr uint32_t kVocab = 32000;
constexpr uint32_t kTopKChunk = 4000;
constexpr int32_t kTopK = 50;
constexpr uint32_t kTopKOut = 64;  // k rounded up to 32 bytes of half, and of float

// Uniform in [-8, 8), from a fixed seed.
template <typename T>
std::vector<T> Logits(size_t n) {
  std::vector<T> v(n);
  uint32_t state = 31;
  for (T& x : v) {
    state = state * 1664525u + 1013904223u;
    x = T(static_cast<float>(state >> 8) * 0x1p-20f - 8.0f);
  }
  return v;
}

template <typename T>
void BenchTopK(const char* type, uint32_t rows, uint32_t cols, int rounds) {
  namespace A = AscendC;
  // As many elements as the rows x cols matrix of the other rows.
  const uint32_t topk_rows = std::max<uint32_t>(1, uint64_t{rows} * cols / kVocab);
  const uint32_t chunks = kVocab / kTopKChunk;
  const int32_t candidates = (static_cast<int32_t>(chunks) * kTopK + 31) / 32 * 32;
  const std::vector<T> x = Logits<T>(size_t{topk_rows} * kVocab);
  std::vector<int32_t> positions(kVocab);
  for (uint32_t i = 0; i < kVocab; ++i) positions[i] = static_cast<int32_t>(i);
  std::vector<T> values(size_t{topk_rows} * kTopK), loop_values(values.size());
  std::vector<int32_t> indices(values.size()), loop_indices(values.size());

  auto plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  A::TopkTiling chunk_tiling{}, merge_tiling{};
  uint32_t max_chunk = 0, min_chunk = 0, max_merge = 0, min_merge = 0;
  const bool ok =
      A::TopKTilingFunc(*plat, kTopKChunk, 1, kTopK, sizeof(T), true, A::TopKMode::TOPK_NORMAL,
                        true, chunk_tiling) &&
      A::TopKTilingFunc(*plat, candidates, 1, kTopK, sizeof(T), true, A::TopKMode::TOPK_NORMAL,
                        true, merge_tiling) &&
      A::GetTopKMaxMinTmpSize(*plat, kTopKChunk, 1, false, true, A::TopKMode::TOPK_NORMAL, true,
                              sizeof(T), max_chunk, min_chunk) &&
      A::GetTopKMaxMinTmpSize(*plat, candidates, 1, false, true, A::TopKMode::TOPK_NORMAL, true,
                              sizeof(T), max_merge, min_merge);
  if (!ok) {
    std::fprintf(stderr, "TopK: the host tiling failed\n");
    std::exit(1);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> chunk_buf, chunk_index_buf, cand_buf, cand_index_buf, tmp_buf,
      finish_buf, value_buf, index_buf;
  pipe.InitBuffer(chunk_buf, kTopKChunk * sizeof(T));
  pipe.InitBuffer(chunk_index_buf, kTopKChunk * sizeof(int32_t));
  pipe.InitBuffer(cand_buf, candidates * sizeof(T));
  pipe.InitBuffer(cand_index_buf, candidates * sizeof(int32_t));
  pipe.InitBuffer(tmp_buf, std::max(min_chunk, min_merge));
  pipe.InitBuffer(finish_buf, 32);
  pipe.InitBuffer(value_buf, kTopKOut * sizeof(T));
  pipe.InitBuffer(index_buf, kTopKOut * sizeof(int32_t));
  const LocalTensor<T> chunk = chunk_buf.Get<T>(), cand = cand_buf.Get<T>();
  const LocalTensor<T> value = value_buf.Get<T>();
  const LocalTensor<int32_t> chunk_index = chunk_index_buf.Get<int32_t>();
  const LocalTensor<int32_t> cand_index = cand_index_buf.Get<int32_t>();
  const LocalTensor<int32_t> index = index_buf.Get<int32_t>();
  const LocalTensor<uint8_t> tmp = tmp_buf.Get<uint8_t>();
  const LocalTensor<bool> finish = finish_buf.Get<bool>();
  const A::TopKInfo chunk_info{1, static_cast<int32_t>(kTopKChunk),
                               static_cast<int32_t>(kTopKChunk)};
  const A::TopKInfo merge_info{1, candidates, static_cast<int32_t>(chunks) * kTopK};

  Timed t;
  t.api = [&] {
    for (uint32_t r = 0; r < topk_rows; ++r) {
      const T* row = x.data() + size_t{r} * kVocab;
      for (int32_t i = 0; i < candidates; ++i) {
        cand.GetPhyAddr()[i] = T(-INFINITY);  // the padding never wins
        cand_index.GetPhyAddr()[i] = static_cast<int32_t>(kVocab) + i;
      }
      for (uint32_t c = 0; c < chunks; ++c) {
        std::memcpy(chunk.GetPhyAddr(), row + c * kTopKChunk, kTopKChunk * sizeof(T));
        std::memcpy(chunk_index.GetPhyAddr(), positions.data() + c * kTopKChunk,
                    kTopKChunk * sizeof(int32_t));
        A::TopK<T, true, false, false, A::TopKMode::TOPK_NORMAL>(
            value, index, chunk, chunk_index, finish, tmp, kTopK, chunk_tiling, chunk_info, true);
        std::memcpy(cand.GetPhyAddr() + c * kTopK, value.GetPhyAddr(), kTopK * sizeof(T));
        std::memcpy(cand_index.GetPhyAddr() + c * kTopK, index.GetPhyAddr(),
                    kTopK * sizeof(int32_t));
      }
      A::TopK<T, true, false, false, A::TopKMode::TOPK_NORMAL>(
          value, index, cand, cand_index, finish, tmp, kTopK, merge_tiling, merge_info, true);
      std::memcpy(values.data() + size_t{r} * kTopK, value.GetPhyAddr(), kTopK * sizeof(T));
      std::memcpy(indices.data() + size_t{r} * kTopK, index.GetPhyAddr(), kTopK * sizeof(int32_t));
    }
  };
  // The loop a user writes: the row in float, a partial sort of its
  // positions, the largest first and equal values in position order.
  std::vector<float> row(kVocab);
  std::vector<int32_t> order(kVocab);
  t.loop = [&] {
    for (uint32_t r = 0; r < topk_rows; ++r) {
      Load(x.data() + size_t{r} * kVocab, row.data(), kVocab);
      for (uint32_t i = 0; i < kVocab; ++i) order[i] = static_cast<int32_t>(i);
      std::partial_sort(
          order.begin(), order.begin() + kTopK, order.end(),
          [&](int32_t a, int32_t b) { return row[a] > row[b] || (row[a] == row[b] && a < b); });
      for (int32_t i = 0; i < kTopK; ++i) {
        loop_values[size_t{r} * kTopK + i] = T(row[order[i]]);
        loop_indices[size_t{r} * kTopK + i] = order[i];
      }
    }
  };
  t.base = [&] { return ReadBaseline(x.data(), nullptr, x.size() * sizeof(T)); };
  // Positions that differ count as a difference of 1.
  t.difference = [&] {
    double diff = 0.0, size = 0.0;
    for (size_t i = 0; i < values.size(); ++i) {
      const double api = static_cast<float>(values[i]), loop = static_cast<float>(loop_values[i]);
      diff = std::max(diff, std::fabs(api - loop));
      size = std::max(size, std::fabs(loop));
      if (indices[i] != loop_indices[i]) return 1.0;
    }
    return size > 0.0 ? diff / size : diff;
  };
  Report("TopK", type, topk_rows, kVocab, x.size() * sizeof(T),
         values.size() * (sizeof(T) + sizeof(int32_t)), rounds, t);
}

// ---- AscendQuant: half to int8_t per channel -------------------------------

// The rows x cols matrix of halves quantized per column (scaleTensor and
// offsetTensor of cols entries, loaded once), a tile of rows per call. The
// loop a user writes: x · scale + offset in float, held to [-128, 127] and
// rounded to nearest, even on ties.
void BenchQuant(uint32_t rows, uint32_t cols, int rounds) {
  namespace A = AscendC;
  const Matrix<half> m(rows, cols, false);
  std::vector<half> scale(cols), offset(cols);
  for (uint32_t c = 0; c < cols; ++c) {
    scale[c] = half(8.0f + static_cast<float>(c % 97) * 0.25f);
    offset[c] = half(static_cast<float>(c % 13) * 0.5f - 3.0f);
  }
  std::vector<int8_t> out(m.x.size()), loop_out(m.x.size());
  const uint32_t tile_rows = std::max<uint32_t>(1, kTileBytes / (cols * sizeof(half)));
  const uint32_t tile_elements = tile_rows * cols;
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, q_buf, scale_buf, offset_buf, tmp_buf;
  pipe.InitBuffer(in_buf, tile_elements * sizeof(half));
  pipe.InitBuffer(q_buf, tile_elements);
  pipe.InitBuffer(scale_buf, cols * sizeof(half));
  pipe.InitBuffer(offset_buf, cols * sizeof(half));
  pipe.InitBuffer(tmp_buf, kScratchBytes);
  const LocalTensor<half> in = in_buf.Get<half>(), scale_local = scale_buf.Get<half>();
  const LocalTensor<half> offset_local = offset_buf.Get<half>();
  const LocalTensor<int8_t> q = q_buf.Get<int8_t>();
  const LocalTensor<uint8_t> tmp = tmp_buf.Get<uint8_t>();
  std::memcpy(scale_local.GetPhyAddr(), scale.data(), cols * sizeof(half));
  std::memcpy(offset_local.GetPhyAddr(), offset.data(), cols * sizeof(half));

  Timed t;
  t.api = [&] {
    for (uint32_t r = 0; r < rows; r += tile_rows) {
      const size_t at = size_t{r} * cols;
      const uint32_t n = std::min(tile_rows, rows - r) * cols;
      std::memcpy(in.GetPhyAddr(), m.x.data() + at, n * sizeof(half));
      A::AscendQuant<half>(q, in, tmp, scale_local, offset_local, cols, cols, n);
      std::memcpy(out.data() + at, q.GetPhyAddr(), n);
    }
  };
  std::vector<float> row(cols), scales(cols), offsets(cols);
  Load(scale.data(), scales.data(), cols);
  Load(offset.data(), offsets.data(), cols);
  t.loop = [&] {
    for (uint32_t r = 0; r < rows; ++r) {
      const size_t at = size_t{r} * cols;
      Load(m.x.data() + at, row.data(), cols);
      for (uint32_t c = 0; c < cols; ++c) {
        const float v = row[c] * scales[c] + offsets[c];
        loop_out[at + c] =
            static_cast<int8_t>(std::nearbyint(std::min(std::max(v, -128.0f), 127.0f)));
      }
    }
  };
  t.base = [&] { return ReadBaseline(m.x.data(), nullptr, m.x.size() * sizeof(half)); };
  t.difference = [&] {
    double diff = 0.0, size = 0.0;
    for (size_t i = 0; i < out.size(); ++i) {
      diff = std::max(diff, std::fabs(double(out[i]) - double(loop_out[i])));
      size = std::max(size, std::fabs(double(loop_out[i])));
    }
    return size > 0.0 ? diff / size : diff;
  };
  Report("AscendQuant", "half", rows, cols, m.x.size() * sizeof(half), out.size(), rounds, t);
}

// ---- Transpose and TransData: true transposes ------------------------------

// 0 where the two results are the same bits, else 1 (a move changes no bit).
template <typename T>
double BitsDifference(const std::vector<T>& api, const std::vector<T>& loop) {
  return std::memcmp(api.data(), loop.data(), api.size() * sizeof(T)) == 0 ? 0.0 : 1.0;
}

// The rows x cols matrix transposed into cols x rows, a block of kBlock x
// kBlock at a time: each block copied into the unified buffer row by row (as
// a strided DataCopy would), turned by Transpose's scenario 7 ([H, W] to
// [W, H]), and copied out row by row to its place. The loop a user writes:
// out[c · rows + r] = in[r · cols + c], one element at a time.
template <typename T>
void BenchTranspose(const char* type, uint32_t rows, uint32_t cols, int rounds) {
  namespace A = AscendC;
  constexpr uint32_t kBlock = 64;
  const Matrix<T> m(rows, cols, false);
  std::vector<T> out(m.x.size()), loop_out(m.x.size());
  A::tiling::ConfusionTransposeTiling tiling{};
  A::GetTransposeTilingInfo(ge::Shape(std::vector<int64_t>{kBlock, kBlock}), 0, sizeof(T), 7,
                            tiling);
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  pipe.InitBuffer(in_buf, kBlock * kBlock * sizeof(T));
  pipe.InitBuffer(out_buf, kBlock * kBlock * sizeof(T));
  const LocalTensor<T> in = in_buf.Get<T>(), turned = out_buf.Get<T>();
  Timed t;
  t.api = [&] {
    for (uint32_t r0 = 0; r0 < rows; r0 += kBlock) {
      for (uint32_t c0 = 0; c0 < cols; c0 += kBlock) {
        for (uint32_t r = 0; r < kBlock; ++r) {
          std::memcpy(in.GetPhyAddr() + r * kBlock, m.x.data() + size_t{r0 + r} * cols + c0,
                      kBlock * sizeof(T));
        }
        A::Transpose(turned, in, A::TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);
        for (uint32_t c = 0; c < kBlock; ++c) {
          std::memcpy(out.data() + size_t{c0 + c} * rows + r0, turned.GetPhyAddr() + c * kBlock,
                      kBlock * sizeof(T));
        }
      }
    }
  };
  t.loop = [&] {
    for (uint32_t r = 0; r < rows; ++r) {
      for (uint32_t c = 0; c < cols; ++c)
        loop_out[size_t{c} * rows + r] = m.x[size_t{r} * cols + c];
    }
  };
  t.base = [&] { return ReadBaseline(m.x.data(), nullptr, m.x.size() * sizeof(T)); };
  t.difference = [&] { return BitsDifference(out, loop_out); };
  Report("Transpose 7", type, rows, cols, m.x.size() * sizeof(T), out.size() * sizeof(T), rounds,
         t);
}

constexpr AscendC::TransDataConfig kNcdhwToNdc1hwc0 = {AscendC::DataFormat::NCDHW,
                                                       AscendC::DataFormat::NDC1HWC0};

// The rows x cols matrix of halves as NCDHW with C = 16, D = 1 and H x W =
// 16 x 32, converted to NDC1HWC0 one n (16 x 512 halves, 16 KiB) per call:
// each 16 channels of a place side by side. The loop a user writes:
// out[(n · 512 + hw) · 16 + c] = in[(n · 16 + c) · 512 + hw].
void BenchTransData(uint32_t rows, uint32_t cols, int rounds) {
  namespace A = AscendC;
  constexpr uint32_t kC = 16, kH = 16, kW = 32, kHw = kH * kW, kPerN = kC * kHw;
  const Matrix<half> m(rows, cols, false);
  const uint32_t batches = static_cast<uint32_t>(m.x.size() / kPerN);
  std::vector<half> out(size_t{batches} * kPerN), loop_out(out.size());
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  pipe.InitBuffer(in_buf, kPerN * sizeof(half));
  pipe.InitBuffer(out_buf, kPerN * sizeof(half));
  const LocalTensor<half> in = in_buf.Get<half>(), blocked = out_buf.Get<half>();
  const auto nd = A::MakeLayout(A::MakeShape(1u, kC, 1u, kH, kW), A::MakeStride());
  const auto ndc = A::MakeLayout(A::MakeShape(1u, 1u, 1u, kH, kW, kC), A::MakeStride());
  const A::TransDataParams<decltype(nd), decltype(ndc)> params{nd, ndc};
  Timed t;
  t.api = [&] {
    for (uint32_t n = 0; n < batches; ++n) {
      std::memcpy(in.GetPhyAddr(), m.x.data() + size_t{n} * kPerN, kPerN * sizeof(half));
      A::TransData<kNcdhwToNdc1hwc0>(blocked, in, params);
      std::memcpy(out.data() + size_t{n} * kPerN, blocked.GetPhyAddr(), kPerN * sizeof(half));
    }
  };
  t.loop = [&] {
    for (uint32_t n = 0; n < batches; ++n) {
      const half* x = m.x.data() + size_t{n} * kPerN;
      half* o = loop_out.data() + size_t{n} * kPerN;
      for (uint32_t c = 0; c < kC; ++c) {
        for (uint32_t hw = 0; hw < kHw; ++hw) o[hw * kC + c] = x[c * kHw + hw];
      }
    }
  };
  t.base = [&] { return ReadBaseline(m.x.data(), nullptr, m.x.size() * sizeof(half)); };
  t.difference = [&] { return BitsDifference(out, loop_out); };
  Report("TransData", "half", rows, cols, out.size() * sizeof(half), out.size() * sizeof(half),
         rounds, t);
}

}  // namespace

int main(int argc, char** argv) {
  uint32_t rows = 4096, cols = 1024;
  int rounds = 7;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--rows") == 0) {
      rows = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--cols") == 0) {
      cols = static_cast<uint32_t>(std::atoi(argv[i + 1]));
    } else if (std::strcmp(argv[i], "--rounds") == 0) {
      rounds = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--only") == 0) {
      only = argv[i + 1];
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (rows == 0 || cols == 0 || cols % 16 != 0 || cols * sizeof(float) > kTileBytes ||
      rows > 1u << 20 || rounds < 1) {
    std::fprintf(stderr,
                 "--rows takes 1..2^20, --cols a multiple of 16 up to %u, --rounds at least 1\n",
                 kTileBytes / 4);
    return 2;
  }
  std::printf("rounds=%d unit=%s, one emulated core and one thread\n", rounds,
              normgrad::engine::ElementwiseIsa().name);
  std::printf("%-15s %-6s %-13s %9s %9s %9s %8s %7s %7s %9s\n", "api", "type", "rows x cols",
              "api ms", "loop ms", "base ms", "GB/s", "x loop", "x base", "api-loop");
  for (const ApiInfo& info : kApis) {
    for (const bool is_half : {true, false}) {
      const std::string name = std::string(info.name) + " " + (is_half ? "half" : "float");
      if (!only.empty() && name.find(only) == std::string::npos) continue;
      if (is_half) {
        Bench<half>(info, "half", rows, cols, rounds);
      } else {
        Bench<float>(info, "float", rows, cols, rounds);
      }
    }
  }
  for (const bool is_half : {true, false}) {
    if (!only.empty() &&
        std::string(is_half ? "TopK half" : "TopK float").find(only) == std::string::npos) {
      continue;
    }
    if (is_half) {
      BenchTopK<half>("half", rows, cols, rounds);
    } else {
      BenchTopK<float>("float", rows, cols, rounds);
    }
  }
  if (only.empty() || std::string("AscendQuant half").find(only) != std::string::npos) {
    BenchQuant(rows, cols, rounds);
  }
  // Whole blocks of 64 x 64 (Transpose) and of 16 x 512 (TransData).
  if (rows % 64 == 0 && cols % 64 == 0) {
    for (const bool is_half : {true, false}) {
      if (!only.empty() &&
          std::string(is_half ? "Transpose 7 half" : "Transpose 7 float").find(only) ==
              std::string::npos) {
        continue;
      }
      if (is_half) {
        BenchTranspose<half>("half", rows, cols, rounds);
      } else {
        BenchTranspose<float>("float", rows, cols, rounds);
      }
    }
  }
  if ((only.empty() || std::string("TransData half").find(only) != std::string::npos) &&
      uint64_t{rows} * cols % (16 * 512) == 0) {
    BenchTransData(rows, cols, rounds);
  }
  return 0;
}

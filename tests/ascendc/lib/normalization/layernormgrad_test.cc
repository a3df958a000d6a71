// layernormgrad_test.cc — AscendC::LayerNormGrad through kernel_operator.h,
// on the emulated core: bit-exactness against a transcription of the numeric
// order of docs/layernormgrad.md (float and half, shapes from one row up,
// H = 16 … 4160, chunked with and without tails, both prototypes, every
// profile), accuracy against a float64 evaluation of the formulas
// (docs/layernormgrad.md, "What it computes") within the bound of
// docs/numerics.md, what isReuseSource clobbers (element by element), the
// large-variance behaviour (rstd³ = 0), in-place outputs, every kernel-side
// check, and the host tiling driving the kernel.
//
// The oracles here — MakeTiling (docs/layernormgrad.md, "Tiling algorithm",
// with normgrad's clamp), DocumentedOrder ("Numeric order"), Reference64 and
// the error bound (the formulas, docs/numerics.md), and the half conversions
// HalfBitsToFloat / RoundToHalf (compat_test.h) — are written for these tests
// from the documented behaviour and share no code with src/.
//
// Extending: a new shape or scratch size is a row of kFloatCases/kHalfCases
// (say in the comment how many rows a chunk holds and the tail; the test
// asserts both). A new kernel-side check gets a FailsWith line with its
// message in the Checks tests. Random data uses a fixed seed, printed;
// NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LayerNormGrad;
using AscendC::LayerNormGradTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using compat_test::WithinBound;
using normgrad_ascendc::CurrentCore;
using normgrad_ascendc::Profile;

constexpr double kU = 1.0 / (1 << 24);  // unit roundoff of float

// The documented tiling for the Atlas A2/A3 profile, with normgrad's clamp:
// nbuf regions of nohCalSize rows, nohCalSize = roundup(rows that fit, 8|16)
// clamped to B·S, else rounddown(rows that fit, 8|16), else the rows that fit.
LayerNormGradTiling MakeTiling(uint32_t b, uint32_t s, uint32_t h,
                               uint32_t stack_bytes, uint32_t type_size,
                               bool reuse) {
  const bool is_half = type_size == 2;
  const uint32_t nbuf = is_half ? 9 : (reuse ? 4 : 6);
  const uint32_t multiple = is_half ? 16 : 8;
  const uint32_t fit = stack_bytes / 4 / nbuf / h;
  uint32_t rows = std::min((fit + multiple - 1) / multiple * multiple, b * s);
  if (rows > fit)
    rows = fit / multiple * multiple > 0 ? fit / multiple * multiple : fit;
  const uint32_t one = rows * h;
  const uint32_t n = b * s * h;
  LayerNormGradTiling t;
  t.stackBufferSize = stack_bytes;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = h;
  t.oneCalSize = one;
  t.nohCalSize = rows;
  t.loopNum = n / one;
  t.tailSize = n % one;
  t.nohTailSize = t.tailSize / h;
  t.pdVarTensorPos = one;
  t.pdMeanTensorPos = 2 * one;
  if (!is_half && reuse) {
    t.x3TensorPos = 3 * one;
  } else {
    t.x1TensorPos = 3 * one;
    t.x2TensorPos = 4 * one;
    t.x3TensorPos = 5 * one;
  }
  if (is_half) {
    t.tmpTensorPos = 6 * one;
    t.tmpTensor1Pos = 7 * one;
    t.tmpTensor2Pos = 8 * one;
  }
  t.tmpTensorBSHSize = t.pdVarTensorSize = t.pdMeanTensorSize = one;
  t.x1TensorSize = t.x2TensorSize = t.x3TensorSize = one;
  t.tmpTensorSize = t.tmpTensor1Size = t.tmpTensor2Size = one;
  t.lastDimValueBack = FloatBits(1.0f / static_cast<float>(h));
  t.lastDimValueBackMulTwo = FloatBits(2.0f / static_cast<float>(h));
  return t;
}

// The documented row sum (docs/layernormgrad.md, "Row sum"): runs of 64 summed
// by a tree of adjacent pairs (missing lanes are zero), repeated on the partial
// sums. V is float here and Bounded (below) for the error bound.
template <typename V>
V TreeRowSum(std::vector<V> values) {
  for (;;) {
    std::vector<V> partials;
    for (size_t start = 0; start < values.size(); start += 64) {
      std::vector<V> level(64, V{});
      for (size_t i = start; i < std::min(values.size(), start + 64); ++i) {
        level[i - start] = values[i];
      }
      while (level.size() > 1) {
        std::vector<V> next(level.size() / 2);
        for (size_t j = 0; j < next.size(); ++j) {
          next[j] = level[2 * j] + level[2 * j + 1];
        }
        level = next;
      }
      partials.push_back(level[0]);
    }
    if (partials.size() == 1) return partials[0];
    values = partials;
  }
}

// The inputs as floats (half inputs widened exactly).
struct Inputs {
  uint32_t rows, h;
  std::vector<float> dy, x, variance, mean, gamma;
  float epsilon;
};

// The results of the documented order, and x1, x2 (what isReuseSource leaves in
// inputDy and inputX).
struct DocumentedOutputs {
  std::vector<float> pd_x, res, x1, x2;
};

// docs/layernormgrad.md, "Numeric order", line by line, every operation a float
// operation. With `zero_pd_var`, pd_var is taken as 0 instead of its row sum.
DocumentedOutputs DocumentedOrder(const Inputs& in, bool zero_pd_var = false) {
  const uint32_t h = in.h;
  const float inv = 1.0f / static_cast<float>(h);
  const float two_inv = 2.0f / static_cast<float>(h);
  DocumentedOutputs out;
  out.pd_x.resize(size_t{in.rows} * h);
  out.res.resize(out.pd_x.size());
  out.x1.resize(out.pd_x.size());
  out.x2.resize(out.pd_x.size());
  for (uint32_t r = 0; r < in.rows; ++r) {
    const float t = in.variance[r] + in.epsilon;
    const float rstd = 1.0f / std::sqrt(t);
    const float rstd3 = 1.0f / std::sqrt(t * t * t);
    std::vector<float> x1(h), x2(h), x3(h), var_terms(h), x3_terms(h),
        x2_terms(h);
    for (uint32_t c = 0; c < h; ++c) {
      const size_t i = size_t{r} * h + c;
      x1[c] = in.dy[i] * in.gamma[c];
      x2[c] = in.x[i] - in.mean[r];
      var_terms[c] = ((x2[c] * rstd3) * x1[c]) * -0.5f;
      x3[c] = x1[c] * rstd;
      x3_terms[c] = -1.0f * x3[c];
      x2_terms[c] = -2.0f * x2[c];
    }
    const float pd_var = zero_pd_var ? 0.0f : TreeRowSum(var_terms);
    const float pd_mean =
        TreeRowSum(x3_terms) + (TreeRowSum(x2_terms) * inv) * pd_var;
    for (uint32_t c = 0; c < h; ++c) {
      const size_t i = size_t{r} * h + c;
      out.pd_x[i] = ((pd_var * two_inv) * x2[c] + pd_mean * inv) + x3[c];
      out.res[i] = x2[c] * rstd;
      out.x1[i] = x1[c];
      out.x2[i] = x2[c];
    }
  }
  return out;
}

// The formulas of docs/layernormgrad.md, "What it computes", in float64
// (the math, with exact 1/Ho).
struct Reference {
  std::vector<double> pd_x, res;
};

Reference Reference64(const Inputs& in) {
  const uint32_t h = in.h;
  Reference ref;
  for (uint32_t r = 0; r < in.rows; ++r) {
    const double t = static_cast<double>(in.variance[r]) + in.epsilon;
    const double rstd = 1.0 / std::sqrt(t);
    const double rstd3 = std::pow(t, -1.5);
    double pd_var = 0, sum_x1_rstd = 0, sum_x2 = 0;
    for (uint32_t c = 0; c < h; ++c) {
      const size_t i = size_t{r} * h + c;
      const double x1 = static_cast<double>(in.dy[i]) * in.gamma[c];
      const double x2 = static_cast<double>(in.x[i]) - in.mean[r];
      pd_var += -0.5 * x1 * x2 * rstd3;
      sum_x1_rstd += -1.0 * x1 * rstd;
      sum_x2 += -2.0 * x2;
    }
    const double pd_mean = sum_x1_rstd + pd_var * (1.0 / h) * sum_x2;
    for (uint32_t c = 0; c < h; ++c) {
      const size_t i = size_t{r} * h + c;
      const double x1 = static_cast<double>(in.dy[i]) * in.gamma[c];
      const double x2 = static_cast<double>(in.x[i]) - in.mean[r];
      ref.pd_x.push_back(x1 * rstd + pd_var * (2.0 / h) * x2 + pd_mean / h);
      ref.res.push_back(x2 * rstd);
    }
  }
  return ref;
}

// A value and a bound on the error of the float computation of it
// (docs/numerics.md, "LayerNormGrad"): every float operation rounds once,
// relative error at most u = 2^-24 (no underflow or overflow); errors of the
// operands propagate through the exact operation, second-order terms
// included.
struct Bounded {
  double v = 0;  // the exact value
  double e = 0;  // |float result − v| is at most this
};

Bounded operator+(const Bounded& a, const Bounded& b) {
  if (b.v == 0 && b.e == 0) return a;  // a missing lane: exact
  if (a.v == 0 && a.e == 0) return b;
  const double v = a.v + b.v;
  return {v, a.e + b.e + kU * (std::fabs(v) + a.e + b.e)};
}
Bounded operator-(const Bounded& a, const Bounded& b) {
  return a + Bounded{-b.v, b.e};
}
Bounded operator*(const Bounded& a, const Bounded& b) {
  const double ma = std::fabs(a.v), mb = std::fabs(b.v);
  return {a.v * b.v,
          ma * b.e + mb * a.e + a.e * b.e + kU * (ma + a.e) * (mb + b.e)};
}
// Multiplication by -0.5, -1 or -2: exact in float.
Bounded Scaled(const Bounded& a, double c) {
  return {a.v * c, a.e * std::fabs(c)};
}
Bounded Sqrt(const Bounded& a) {
  const double low = std::max(a.v - a.e, 0.0);
  const double v = std::sqrt(a.v);
  return {v, a.e / (std::sqrt(low) + v) + kU * std::sqrt(a.v + a.e)};
}
Bounded Reciprocal(const Bounded& a) {  // a.v > a.e > 0 here
  const double low = a.v - a.e;
  return {1.0 / a.v, a.e / (a.v * low) + kU / low};
}
Bounded Exact(float f) { return {f, 0}; }

// The bounds of pd_x and res for every element, following the documented
// order's operations one by one.
struct Bounds {
  std::vector<double> pd_x, res;
};

Bounds ErrorBounds(const Inputs& in) {
  const uint32_t h = in.h;
  const Bounded inv{1.0 / h, kU / h};  // fl(1/Ho)
  const Bounded two_inv{2.0 / h, 2 * kU / h};
  Bounds bounds;
  for (uint32_t r = 0; r < in.rows; ++r) {
    const Bounded t = Exact(in.variance[r]) + Exact(in.epsilon);
    const Bounded rstd = Reciprocal(Sqrt(t));
    const Bounded rstd3 = Reciprocal(Sqrt((t * t) * t));
    std::vector<Bounded> x1(h), x2(h), x3(h), var_terms(h), x3_terms(h),
        x2_terms(h);
    for (uint32_t c = 0; c < h; ++c) {
      const size_t i = size_t{r} * h + c;
      x1[c] = Exact(in.dy[i]) * Exact(in.gamma[c]);
      x2[c] = Exact(in.x[i]) - Exact(in.mean[r]);
      var_terms[c] = Scaled((x2[c] * rstd3) * x1[c], -0.5);
      x3[c] = x1[c] * rstd;
      x3_terms[c] = Scaled(x3[c], -1);
      x2_terms[c] = Scaled(x2[c], -2);
    }
    const Bounded pd_var = TreeRowSum(var_terms);
    const Bounded pd_mean =
        TreeRowSum(x3_terms) + (TreeRowSum(x2_terms) * inv) * pd_var;
    for (uint32_t c = 0; c < h; ++c) {
      bounds.pd_x.push_back(
          (((pd_var * two_inv) * x2[c] + pd_mean * inv) + x3[c]).e);
      bounds.res.push_back((x2[c] * rstd).e);
    }
  }
  return bounds;
}

uint32_t Seed() { return compat_test::Seed<20250301u>(); }

// ---- Kernel-side setup -----------------------------------------------------

// The tensors in TBufs in the order dy, x, variance, mean, gamma, pd_x, res,
// scratch (each at a multiple of 32), and raw access to their bits.
template <typename T>
struct Tensors : compat_test::TensorBits<T> {
  Tensors(uint32_t rows, uint32_t h, uint32_t scratch_bytes) {
    const uint32_t n = rows * h;
    pipe.InitBuffer(dy_buf, n * sizeof(T));
    pipe.InitBuffer(x_buf, n * sizeof(T));
    pipe.InitBuffer(variance_buf, rows * sizeof(T));
    pipe.InitBuffer(mean_buf, rows * sizeof(T));
    pipe.InitBuffer(gamma_buf, h * sizeof(T));
    pipe.InitBuffer(pd_x_buf, n * sizeof(T));
    pipe.InitBuffer(res_buf, n * sizeof(T));
    dy = dy_buf.template Get<T>();
    x = x_buf.template Get<T>();
    variance = variance_buf.template Get<T>();
    mean = mean_buf.template Get<T>();
    gamma = gamma_buf.template Get<T>();
    pd_x = pd_x_buf.template Get<T>();
    res = res_buf.template Get<T>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }

  TPipe pipe;
  TBuf<TPosition::VECIN> dy_buf, x_buf, variance_buf, mean_buf, gamma_buf;
  TBuf<TPosition::VECOUT> pd_x_buf, res_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> dy, x, variance, mean, gamma, pd_x, res;
  LocalTensor<uint8_t> tmp;
};

template <typename T>
float ValueOf(typename Tensors<T>::Bits bits) {
  if constexpr (std::is_same_v<T, float>) {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  } else {
    return HalfBitsToFloat(bits);
  }
}

// The input bits of one call.
template <typename T>
struct Data {
  std::vector<typename Tensors<T>::Bits> dy, x, variance, mean, gamma;
  T epsilon;

  Inputs AsFloats(uint32_t rows, uint32_t h) const {
    Inputs in{rows, h, {}, {}, {}, {}, {}, static_cast<float>(epsilon)};
    for (auto b : dy) in.dy.push_back(ValueOf<T>(b));
    for (auto b : x) in.x.push_back(ValueOf<T>(b));
    for (auto b : variance) in.variance.push_back(ValueOf<T>(b));
    for (auto b : mean) in.mean.push_back(ValueOf<T>(b));
    for (auto b : gamma) in.gamma.push_back(ValueOf<T>(b));
    return in;
  }
  void WriteTo(const Tensors<T>& t) const {
    Tensors<T>::Write(t.dy, dy);
    Tensors<T>::Write(t.x, x);
    Tensors<T>::Write(t.variance, variance);
    Tensors<T>::Write(t.mean, mean);
    Tensors<T>::Write(t.gamma, gamma);
  }
};

template <typename T>
typename Tensors<T>::Bits BitsOf(float v) {
  if constexpr (std::is_same_v<T, float>) {
    return FloatBits(v);
  } else {
    return half(v).Bits();
  }
}

// Layer-norm-like inputs: per row x = offset + scale·U(−1, 1); mean and
// variance the row's own (population), rounded to T; dy in (−1, 1); gamma
// in (0.5, 1.5).
template <typename T>
Data<T> RandomData(uint32_t rows, uint32_t h, std::mt19937& rng) {
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> scale(0.5f, 2.0f);
  Data<T> d;
  d.epsilon = T(std::is_same_v<T, float> ? 1e-5f : 1e-3f);
  for (uint32_t r = 0; r < rows; ++r) {
    const float offset = unit(rng);
    const float s = scale(rng);
    double sum = 0;
    double sum_sq = 0;
    for (uint32_t c = 0; c < h; ++c) {
      d.x.push_back(BitsOf<T>(offset + s * unit(rng)));
      const double v = ValueOf<T>(d.x.back());
      sum += v;
      sum_sq += v * v;
    }
    const double mean = sum / h;
    d.mean.push_back(BitsOf<T>(static_cast<float>(mean)));
    d.variance.push_back(
        BitsOf<T>(static_cast<float>(std::max(sum_sq / h - mean * mean, 0.0))));
  }
  for (uint32_t i = 0; i < rows * h; ++i) d.dy.push_back(BitsOf<T>(unit(rng)));
  for (uint32_t c = 0; c < h; ++c)
    d.gamma.push_back(BitsOf<T>(1.0f + 0.5f * unit(rng)));
  return d;
}

enum class Proto { kSharedTmpBuffer, kFrameworkScratch };

template <typename T, bool reuse>
void Call(const Tensors<T>& t, T epsilon, LayerNormGradTiling& tiling,
          Proto proto) {
  if (proto == Proto::kSharedTmpBuffer) {
    LocalTensor<uint8_t> tmp = t.tmp;
    LayerNormGrad<T, reuse>(t.pd_x, t.res, t.dy, t.x, t.variance, t.mean,
                            t.gamma, tmp, epsilon, tiling);
  } else {
    LayerNormGrad<T, reuse>(t.pd_x, t.res, t.dy, t.x, t.variance, t.mean,
                            t.gamma, epsilon, tiling);
  }
}

const char* Name(Profile p) { return normgrad_ascendc::GetProfileInfo(p).key; }
const char* Name(Proto p) {
  return p == Proto::kSharedTmpBuffer ? "sharedTmpBuffer" : "framework scratch";
}

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};
constexpr Proto kProtos[] = {Proto::kSharedTmpBuffer, Proto::kFrameworkScratch};

// ---- Random data vs the documented order and float64, and what is clobbered

struct Case {
  uint32_t b, s, h;
  uint32_t rows_that_fit;   // the scratch holds nbuf regions of this many rows
  uint32_t rows_per_chunk;  // float without reuse / half: asserted
  uint32_t tail_rows;
};

// float (nbuf 6, chunks of a multiple of 8 rows, clamped to B·S, else
// rounded down, else the rows that fit).
constexpr Case kFloatCases[] = {
    {1, 1, 16, 1, 1, 0},     // 8 → clamped to 1 row: one chunk
    {1, 3, 48, 1, 1, 0},     // 8 → 3 > 1 fits; rounddown 0 → 1: 3 chunks
    {2, 5, 16, 4, 4, 2},     // 8 → 4: 10 = 2·4 + 2
    {1, 33, 64, 9, 8, 1},    // 16 > 9 → rounddown 8: 33 = 4·8 + 1
    {3, 7, 72, 21, 21, 0},   // 24 → clamped to 21: one chunk (two runs of 64)
    {1, 20, 16, 16, 16, 4},  // 16 fits (the vendor's numbers): 20 = 16 + 4
    {1, 5, 1024, 2, 2, 1},   // 8 → 5 > 2 → 2: 5 = 2·2 + 1
    {2, 70, 48, 14, 8, 4},   // 16 > 14 → 8: 140 = 17·8 + 4
    {1, 1, 4160, 1, 1, 0},   // one row of 65 runs: three summing passes
    {1, 300, 16, 24, 24, 12},  // 24 fits: 300 = 12·24 + 12
};

// half (nbuf 9, chunks of a multiple of 16 rows).
constexpr Case kHalfCases[] = {
    {1, 1, 16, 1, 1, 0},      // 16 → clamped to 1
    {1, 3, 48, 3, 3, 0},      // 16 → clamped to 3
    {2, 5, 32, 4, 4, 2},      // 16 → 10 > 4 → 4: 10 = 2·4 + 2
    {1, 40, 64, 20, 16, 8},   // 32 > 20 → 16: 40 = 2·16 + 8
    {1, 33, 128, 16, 16, 1},  // 16 fits: 33 = 2·16 + 1
    {1, 3, 1024, 1, 1, 0},    // 16 → 3 > 1 → 1: 3 chunks
    {1, 1, 4160, 1, 1, 0},    // three summing passes
    {1, 50, 16, 50, 50, 0},   // 64 → clamped to 50: one chunk
};

struct ByteRange {
  size_t begin, end;
};

// Every UB byte outside `changing` is as before; reports the first that is not.
void ExpectUnchangedOutside(const std::vector<uint8_t>& before,
                            const std::vector<ByteRange>& changing) {
  const uint8_t* ub = CurrentCore().ub();
  for (size_t i = 0; i < before.size(); ++i) {
    bool allowed = false;
    for (const ByteRange& r : changing)
      allowed = allowed || (i >= r.begin && i < r.end);
    if (!allowed && ub[i] != before[i]) {
      ADD_FAILURE() << "UB byte " << i << " changed";
      return;
    }
  }
}

// Runs one case and checks: the outputs bit for bit against DocumentedOrder,
// within the bound against Reference64, inputDy and inputX as before or (float
// with isReuseSource) holding x1 and x2 exactly, and nothing else in the UB
// changed but the outputs and the scratch.
template <typename T, bool reuse>
void RunAndVerify(const Case& c, Profile profile, Proto proto,
                  std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const std::string label =
      std::string("LayerNormGrad<") + (kHalf ? "half" : "float") + ">";
  const uint32_t nbuf = kHalf ? 9 : (reuse ? 4 : 6);
  const uint32_t stack_bytes = nbuf * c.rows_that_fit * c.h * 4;
  SCOPED_TRACE(testing::Message()
               << "[" << c.b << "," << c.s << "," << c.h << "] "
               << (kHalf ? "half" : "float") << ", scratch " << stack_bytes
               << " bytes, " << Name(profile) << ", " << Name(proto)
               << (reuse ? ", isReuseSource" : ""));
  ProfileScope scope(profile);
  LayerNormGradTiling tiling =
      MakeTiling(c.b, c.s, c.h, stack_bytes, sizeof(T), reuse);
  if (kHalf || !reuse) {
    ASSERT_EQ(tiling.nohCalSize, c.rows_per_chunk);
    ASSERT_EQ(tiling.nohTailSize, c.tail_rows);
  }

  const uint32_t rows = c.b * c.s;
  const uint32_t n = rows * c.h;
  Tensors<T> t(rows, c.h, proto == Proto::kSharedTmpBuffer ? stack_bytes : 0);
  uint8_t* ub = CurrentCore().ub();
  const size_t ub_size = CurrentCore().ub_size();
  for (size_t i = 0; i < ub_size; ++i) ub[i] = static_cast<uint8_t>(rng());
  const Data<T> data = RandomData<T>(rows, c.h, rng);
  data.WriteTo(t);
  const std::vector<uint8_t> before(ub, ub + ub_size);

  Call<T, reuse>(t, data.epsilon, tiling, proto);

  const Inputs in = data.AsFloats(rows, c.h);
  const DocumentedOutputs oracle = DocumentedOrder(in);
  const Reference ref = Reference64(in);
  const Bounds bounds = ErrorBounds(in);
  const auto pd_x = Tensors<T>::Read(t.pd_x, n);
  const auto res = Tensors<T>::Read(t.res, n);
  const bool saturate = profile == Profile::k950;
  for (uint32_t i = 0; i < n; ++i) {
    float expect_pd_x = oracle.pd_x[i];
    float expect_res = oracle.res[i];
    double bound_pd_x = bounds.pd_x[i];
    double bound_res = bounds.res[i];
    if constexpr (kHalf) {
      expect_pd_x = RoundToHalf(expect_pd_x, saturate);
      expect_res = RoundToHalf(expect_res, saturate);
      // Narrowing adds half an ulp of half (2^-11 relative, 2^-25 absolute
      // in the subnormal range).
      bound_pd_x += std::ldexp(std::fabs(ref.pd_x[i]) + bound_pd_x, -11) +
                    std::ldexp(1.0, -25);
      bound_res += std::ldexp(std::fabs(ref.res[i]) + bound_res, -11) +
                   std::ldexp(1.0, -25);
    }
    const float got_pd_x = ValueOf<T>(pd_x[i]);
    const float got_res = ValueOf<T>(res[i]);
    ASSERT_EQ(FloatBits(got_pd_x), FloatBits(expect_pd_x))
        << "outputPdX[" << i << "] = " << got_pd_x << ", documented order "
        << expect_pd_x;
    ASSERT_EQ(FloatBits(got_res), FloatBits(expect_res))
        << "resForGamma[" << i << "] = " << got_res << ", documented order "
        << expect_res;
    // The float64 reference's own rounding: 2^-20 of the bound.
    ASSERT_TRUE(WithinBound(label + " outputPdX", got_pd_x, ref.pd_x[i],
                            bound_pd_x * (1 + std::ldexp(1.0, -20))))
        << "outputPdX[" << i << "]";
    ASSERT_TRUE(WithinBound(label + " resForGamma", got_res, ref.res[i],
                            bound_res * (1 + std::ldexp(1.0, -20))))
        << "resForGamma[" << i << "]";
  }

  // inputDy and inputX: float with isReuseSource holds x1 and x2, exactly
  // (every element, every profile); otherwise untouched.
  const bool clobbers = !kHalf && reuse;
  const auto dy_after = Tensors<T>::Read(t.dy, n);
  const auto x_after = Tensors<T>::Read(t.x, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(dy_after[i], clobbers ? FloatBits(oracle.x1[i]) : data.dy[i])
        << "inputDy[" << i << "]";
    ASSERT_EQ(x_after[i], clobbers ? FloatBits(oracle.x2[i]) : data.x[i])
        << "inputX[" << i << "]";
  }

  const size_t bytes = size_t{n} * sizeof(T);
  const size_t scratch = proto == Proto::kSharedTmpBuffer ? t.tmp.view().offset
                                                          : t.pipe.used_bytes();
  const size_t scratch_used =
      profile == Profile::k950 ? 2 * ((c.h + 7) / 8 * 8) * 4 : stack_bytes;
  std::vector<ByteRange> changing = {
      {t.pd_x.view().offset, t.pd_x.view().offset + bytes},
      {t.res.view().offset, t.res.view().offset + bytes},
      {t.dy.view().offset, t.dy.view().offset + bytes},  // checked above
      {t.x.view().offset, t.x.view().offset + bytes},    // checked above
      {scratch, scratch + scratch_used}};
  ExpectUnchangedOutside(before, changing);
}

TEST(LayerNormGrad, BitExactFloatVsDocumentedOrderAndWithinFloat64Bound) {
  std::mt19937 rng(Seed());
  for (const Case& c : kFloatCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<float, false>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGrad, BitExactHalfVsDocumentedOrderAndWithinFloat64Bound) {
  std::mt19937 rng(Seed() + 1);
  for (const Case& c : kHalfCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<half, false>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGrad, FloatReuseSourceLeavesX1InInputDyAndX2InInputX) {
  std::mt19937 rng(Seed() + 2);
  for (const Case& c : kFloatCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<float, true>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGrad, HalfReuseSourceClobbersNothing) {
  std::mt19937 rng(Seed() + 3);
  for (const Case& c : kHalfCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<half, true>(c, profile, proto, rng);
    }
  }
}

void CallHalfReuseTwiceAndExit() {
  ProfileScope scope(Profile::kA2);
  LayerNormGradTiling tiling = MakeTiling(1, 2, 16, 9 * 2 * 16 * 4, 2, true);
  Tensors<half> t(2, 16, tiling.stackBufferSize);
  Call<half, true>(t, half(1.0f), tiling, Proto::kSharedTmpBuffer);
  Call<half, true>(t, half(1.0f), tiling, Proto::kSharedTmpBuffer);
  std::exit(0);
}

// The warning is printed once per process, so this runs in a fresh child.
TEST(LayerNormGradDeathTest, HalfReuseSourceWarnsOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(CallHalfReuseTwiceAndExit(), ::testing::ExitedWithCode(0),
              "^normgrad: warning: LayerNormGrad: isReuseSource has no effect "
              "with half[^\n]*\n$");
}

// ---- In place, large variance, what the 950 profile reads -----------------

// outputPdX over inputDy and resForGamma over inputX (and the other way
// round): the results of separate tensors.
template <typename T, bool reuse>
void RunInPlace(bool swap, Profile profile, std::mt19937& rng) {
  SCOPED_TRACE(testing::Message()
               << (std::is_same_v<T, half> ? "half" : "float")
               << (reuse ? ", isReuseSource" : "") << (swap ? ", swapped" : "")
               << ", " << Name(profile));
  ProfileScope scope(profile);
  const uint32_t rows = 5, h = 64;
  LayerNormGradTiling tiling =
      MakeTiling(1, rows, h, 9 * 2 * h * 4, sizeof(T), reuse);
  Tensors<T> t(rows, h, tiling.stackBufferSize);
  const Data<T> data = RandomData<T>(rows, h, rng);
  data.WriteTo(t);
  const LocalTensor<T> pd_x = swap ? t.x : t.dy;
  const LocalTensor<T> res = swap ? t.dy : t.x;
  LocalTensor<uint8_t> tmp = t.tmp;
  LayerNormGrad<T, reuse>(pd_x, res, t.dy, t.x, t.variance, t.mean, t.gamma,
                          tmp, data.epsilon, tiling);
  const DocumentedOutputs oracle = DocumentedOrder(data.AsFloats(rows, h));
  const auto got_pd_x = Tensors<T>::Read(pd_x, rows * h);
  const auto got_res = Tensors<T>::Read(res, rows * h);
  const bool saturate = profile == Profile::k950;
  for (uint32_t i = 0; i < rows * h; ++i) {
    float expect_pd_x = oracle.pd_x[i];
    float expect_res = oracle.res[i];
    if constexpr (std::is_same_v<T, half>) {
      expect_pd_x = RoundToHalf(expect_pd_x, saturate);
      expect_res = RoundToHalf(expect_res, saturate);
    }
    ASSERT_EQ(FloatBits(ValueOf<T>(got_pd_x[i])), FloatBits(expect_pd_x)) << i;
    ASSERT_EQ(FloatBits(ValueOf<T>(got_res[i])), FloatBits(expect_res)) << i;
  }
}

TEST(LayerNormGrad, OutputsInPlaceOfInputs) {
  std::mt19937 rng(Seed() + 4);
  for (Profile profile : kProfiles) {
    for (bool swap : {false, true}) {
      RunInPlace<float, false>(swap, profile, rng);
      RunInPlace<float, true>(swap, profile, rng);
      RunInPlace<half, false>(swap, profile, rng);
    }
  }
}

TEST(LayerNormGrad, LargeVarianceMakesRstd3ZeroAndPdVarZero) {
  // t = 1e13 > ~7e12: t·t·t = 1e39 overflows float, so rstd³ = 1/sqrt(inf)
  // = 0 and every pd_var term is 0: the vendor's behaviour, reproduced.
  const float t = 1e13f;
  ASSERT_EQ(1.0f / std::sqrt(t * t * t), 0.0f);
  std::mt19937 rng(Seed() + 5);
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    const uint32_t rows = 3, h = 16;
    LayerNormGradTiling tiling =
        MakeTiling(1, rows, h, 6 * rows * h * 4, 4, false);
    Tensors<float> tensors(rows, h, tiling.stackBufferSize);
    Data<float> data = RandomData<float>(rows, h, rng);
    for (auto& v : data.x) v = FloatBits(3e6f * ValueOf<float>(v));
    for (auto& v : data.variance) v = FloatBits(1e13f);
    for (auto& v : data.mean) v = FloatBits(0.0f);
    data.WriteTo(tensors);
    Call<float, false>(tensors, data.epsilon, tiling, Proto::kSharedTmpBuffer);
    const Inputs in = data.AsFloats(rows, h);
    const DocumentedOutputs oracle = DocumentedOrder(in);
    const DocumentedOutputs zero_pd_var = DocumentedOrder(in, true);
    const auto pd_x = Tensors<float>::Read(tensors.pd_x, rows * h);
    for (uint32_t i = 0; i < rows * h; ++i) {
      EXPECT_EQ(pd_x[i], FloatBits(oracle.pd_x[i])) << i;
      EXPECT_EQ(pd_x[i], FloatBits(zero_pd_var.pd_x[i])) << i;
    }
  }
}

TEST(LayerNormGrad, Profile950ReadsNoChunkFields) {
  ProfileScope scope(Profile::k950);
  std::mt19937 rng(Seed() + 6);
  const uint32_t rows = 4, h = 16;
  LayerNormGradTiling tiling = MakeTiling(1, rows, h, 6 * 2 * h * 4, 4, false);
  tiling.loopNum = 99;
  tiling.nohCalSize = 7;
  tiling.x3TensorPos = 1u << 30;
  tiling.stackBufferSize = 1u << 30;
  // 2·roundup(16, 8) floats: exactly what the 950 profile needs.
  Tensors<float> t(rows, h, 2 * 16 * 4);
  const Data<float> data = RandomData<float>(rows, h, rng);
  data.WriteTo(t);
  Call<float, false>(t, data.epsilon, tiling, Proto::kSharedTmpBuffer);
  const DocumentedOutputs oracle = DocumentedOrder(data.AsFloats(rows, h));
  const auto pd_x = Tensors<float>::Read(t.pd_x, rows * h);
  for (uint32_t i = 0; i < rows * h; ++i)
    EXPECT_EQ(pd_x[i], FloatBits(oracle.pd_x[i]));
  // float with isReuseSource needs no scratch at all.
  LocalTensor<uint8_t> none;
  LayerNormGrad<float, true>(t.pd_x, t.res, t.dy, t.x, t.variance, t.mean,
                             t.gamma, none, data.epsilon, tiling);
  const auto dy = Tensors<float>::Read(t.dy, rows * h);
  for (uint32_t i = 0; i < rows * h; ++i)
    EXPECT_EQ(dy[i], FloatBits(oracle.x1[i]));
}

// Programs built for the Ascend 950 fill bLength, sLength, hLength,
// originalHLength, the two constants and stackBufferSize only (oneCalSize
// stays 0): that profile runs them; Atlas A2/A3 refuses the empty chunking.
TEST(LayerNormGrad, Profile950RunsATilingWithTheShapeOnly) {
  const uint32_t rows = 4, h = 16;
  LayerNormGradTiling hand{};
  hand.bLength = 2;
  hand.sLength = 2;
  hand.hLength = h;
  hand.originalHLength = h;
  hand.lastDimValueBack = FloatBits(1.0f / h);
  hand.lastDimValueBackMulTwo = FloatBits(2.0f / h);
  hand.stackBufferSize = 2 * 16 * 4;
  std::mt19937 rng(Seed() + 7);
  const Data<float> data = RandomData<float>(rows, h, rng);
  {
    ProfileScope scope(Profile::k950);
    Tensors<float> t(rows, h, 2 * 16 * 4);
    data.WriteTo(t);
    Call<float, false>(t, data.epsilon, hand, Proto::kSharedTmpBuffer);
    const DocumentedOutputs oracle = DocumentedOrder(data.AsFloats(rows, h));
    const auto pd_x = Tensors<float>::Read(t.pd_x, rows * h);
    for (uint32_t i = 0; i < rows * h; ++i)
      EXPECT_EQ(pd_x[i], FloatBits(oracle.pd_x[i])) << i;
  }
  ProfileScope scope(Profile::kA2);
  Tensors<float> t(rows, h, 2 * 16 * 4);
  data.WriteTo(t);
  EXPECT_TRUE(FailsWith(
      [&] {
        Call<float, false>(t, data.epsilon, hand, Proto::kSharedTmpBuffer);
      },
      "LayerNormGrad: tiling.oneCalSize is 0: the tiling is empty"));
}

// ---- Host tiling → kernel ---------------------------------------------------

TEST(LayerNormGrad, HostTilingEqualsMakeTilingAndDrivesTheKernel) {
  for (const Case& c : kFloatCases) {
    for (bool reuse : {false, true}) {
      const uint32_t bytes = (reuse ? 4 : 6) * c.rows_that_fit * c.h * 4;
      LayerNormGradTiling host;
      AscendC::GetLayerNormGradNDTilingInfo(ge::Shape({c.b, c.s, c.h, c.h}),
                                            bytes, 4, reuse, host);
      const LayerNormGradTiling oracle =
          MakeTiling(c.b, c.s, c.h, bytes, 4, reuse);
      EXPECT_EQ(std::memcmp(&host, &oracle, sizeof host), 0)
          << "[" << c.b << "," << c.s << "," << c.h << "] " << bytes;
    }
  }
  for (const Case& c : kHalfCases) {
    const uint32_t bytes = 9 * c.rows_that_fit * c.h * 4;
    LayerNormGradTiling host;
    AscendC::GetLayerNormGradNDTilingInfo(ge::Shape({c.b, c.s, c.h, c.h}),
                                          bytes, 2, false, host);
    const LayerNormGradTiling oracle =
        MakeTiling(c.b, c.s, c.h, bytes, 2, false);
    EXPECT_EQ(std::memcmp(&host, &oracle, sizeof host), 0)
        << "[" << c.b << "," << c.s << "," << c.h << "] " << bytes;
  }
  // The min and max sizes of the tmp-size query, on every profile (the 950
  // profile has its own sizes and tiling), through the framework scratch:
  // one row of H = 48 (the clamp case) and 20 rows of H = 32, float and half.
  std::mt19937 rng(Seed() + 7);
  for (Profile profile : kProfiles) {
    ProfileScope scope(profile);
    for (uint32_t rows : {1u, 20u}) {
      const uint32_t h = rows == 1 ? 48 : 32;
      for (uint32_t type_size : {4u, 2u}) {
        for (bool max_scratch : {false, true}) {
          SCOPED_TRACE(testing::Message()
                       << Name(profile) << " rows " << rows << " typeSize "
                       << type_size << (max_scratch ? " max" : " min"));
          const ge::Shape shape({1, rows, h, h});
          uint32_t max_bytes = 0, min_bytes = 0;
          AscendC::GetLayerNormGradMaxMinTmpSize(shape, type_size, false,
                                                 max_bytes, min_bytes);
          LayerNormGradTiling tiling;
          AscendC::GetLayerNormGradNDTilingInfo(
              shape, max_scratch ? max_bytes : min_bytes, type_size, false,
              tiling);
          ASSERT_NE(tiling.oneCalSize, 0u);
          if (type_size == 4) {
            const Data<float> f = RandomData<float>(rows, h, rng);
            Tensors<float> t(rows, h, 0);
            f.WriteTo(t);
            Call<float, false>(t, f.epsilon, tiling, Proto::kFrameworkScratch);
            const DocumentedOutputs oracle =
                DocumentedOrder(f.AsFloats(rows, h));
            const auto pd_x = Tensors<float>::Read(t.pd_x, rows * h);
            for (uint32_t i = 0; i < rows * h; ++i)
              ASSERT_EQ(pd_x[i], FloatBits(oracle.pd_x[i]));
          } else {
            const Data<half> d = RandomData<half>(rows, h, rng);
            Tensors<half> t(rows, h, 0);
            d.WriteTo(t);
            Call<half, false>(t, d.epsilon, tiling, Proto::kFrameworkScratch);
            const DocumentedOutputs oracle =
                DocumentedOrder(d.AsFloats(rows, h));
            const auto res = Tensors<half>::Read(t.res, rows * h);
            for (uint32_t i = 0; i < rows * h; ++i) {
              ASSERT_EQ(FloatBits(HalfBitsToFloat(res[i])),
                        FloatBits(RoundToHalf(oracle.res[i],
                                              profile == Profile::k950)));
            }
          }
        }
      }
    }
  }
}

// ---- The checks ------------------------------------------------------------

// [1,8,16] float, no reuse, with its minimum scratch 6·min(128, 256)·4 =
// 3072 bytes (one chunk of 8 rows), valid as set up; each test breaks one
// rule. Buffers: dy 0, x 512, variance 1024, mean 1056, gamma 1088, pd_x
// 1152, res 1664, scratch 2176.
class Checks : public ::testing::Test {
 protected:
  Checks() {
    std::mt19937 rng(1);
    data_ = RandomData<float>(8, 16, rng);
    data_.WriteTo(t_);
  }
  void Shared() { Run(t_.pd_x, t_.res, t_.dy, t_.x); }
  void Run(const LocalTensor<float>& pd_x, const LocalTensor<float>& res,
           const LocalTensor<float>& dy, const LocalTensor<float>& x) {
    LayerNormGrad<float>(pd_x, res, dy, x, t_.variance, t_.mean, t_.gamma,
                         t_.tmp, 1e-5f, tiling_);
  }
  template <typename U>
  static LocalTensor<U> InPosition(const LocalTensor<U>& t,
                                   TPosition position) {
    normgrad_ascendc::TensorView view = t.view();
    view.position = position;
    return LocalTensor<U>(view);
  }

  ProfileScope profile_{Profile::kA2};
  Tensors<float> t_{8, 16, 3072};
  Data<float> data_;
  LayerNormGradTiling tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
};

TEST_F(Checks, ValidSetupRuns) {
  ASSERT_EQ(t_.tmp.view().offset, 2176u);
  ASSERT_EQ(tiling_.nohCalSize, 8u);
  Shared();
  const DocumentedOutputs oracle = DocumentedOrder(data_.AsFloats(8, 16));
  EXPECT_EQ(FloatBits(t_.pd_x.GetValue(127)), FloatBits(oracle.pd_x[127]));
}

TEST_F(Checks, OnlyNd) {
  AscendC::LayerNormGradShapeInfo nz;
  nz.dataFormat = AscendC::DataFormat::NZ;
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGrad<float>(t_.pd_x, t_.res, t_.dy, t_.x, t_.variance, t_.mean,
                             t_.gamma, t_.tmp, 1e-5f, tiling_, nz);
      },
      "LayerNormGrad: shapeInfo.dataFormat is NZ; only ND is supported"));
  AscendC::LayerNormGradShapeInfo nd;
  LayerNormGrad<float>(t_.pd_x, t_.res, t_.dy, t_.x, t_.variance, t_.mean,
                       t_.gamma, 1e-5f, tiling_, nd);  // framework scratch
}

TEST_F(Checks, TensorPlacement) {
  const LocalTensor<float> x_a1 = InPosition(t_.x, TPosition::A1);
  EXPECT_TRUE(FailsWith([&] { Run(t_.pd_x, t_.res, t_.dy, x_a1); },
                        "LayerNormGrad: inputX is in position A1; it must be "
                        "VECIN, VECOUT or VECCALC"));
  const LocalTensor<float> mean = t_.mean;
  t_.mean = mean[1];
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "LayerNormGrad: inputMean LocalTensor starts at UB offset 1060, which is "
      "not 32-byte aligned"));
  t_.mean = mean;
  t_.gamma = LocalTensor<float>();
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: inputGamma LocalTensor is empty"));
}

TEST_F(Checks, EmptyTiling) {
  tiling_ = LayerNormGradTiling();  // what a failed tiling call leaves
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.oneCalSize is 0: the tiling is "
                        "empty (GetLayerNormGradNDTilingInfo failed or was not "
                        "called)"));
}

TEST_F(Checks, TilingShape) {
  tiling_.hLength = 0;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.hLength is 0; H must be at "
                        "least 1"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.sLength = 0;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.sLength is 0; S must be at "
                        "least 1"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.originalHLength = 15;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.originalHLength 15 differs from "
                        "tiling.hLength 16; they must be equal"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.lastDimValueBack = 0;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.lastDimValueBack is 0x00000000, "
                        "expected 0x3D800000 (the float 1.0f / originalHLength "
                        "16): the tiling is inconsistent"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.lastDimValueBackMulTwo = 0x3D800000;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "tiling.lastDimValueBackMulTwo is 0x3D800000, expected "
                        "0x3E000000 (the float 2.0f / originalHLength 16)"));
}

TEST(ChecksOther, LastAxisMustBe32ByteAlignedOnEveryProfile) {
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    {
      // float H = 12: 48-byte rows.
      LayerNormGradTiling tiling =
          MakeTiling(1, 2, 12, 6 * 2 * 12 * 4, 4, false);
      Tensors<float> t(2, 16, tiling.stackBufferSize);
      EXPECT_TRUE(FailsWith(
          [&] {
            Call<float, false>(t, 1e-5f, tiling, Proto::kSharedTmpBuffer);
          },
          "LayerNormGrad: tiling.hLength 12 floats is 48 bytes, not a multiple "
          "of 32 (the last axis must be 32-byte aligned: H a multiple of 8)"));
    }
    {
      // half H = 8: 16-byte rows.
      LayerNormGradTiling tiling = MakeTiling(1, 2, 8, 9 * 2 * 8 * 4, 2, false);
      Tensors<half> t(2, 16, tiling.stackBufferSize);
      EXPECT_TRUE(FailsWith(
          [&] {
            Call<half, false>(t, half(1e-3f), tiling, Proto::kSharedTmpBuffer);
          },
          "LayerNormGrad: tiling.hLength 8 halves is 16 bytes, not a multiple "
          "of 32 (the last axis must be 32-byte aligned: H a multiple of 16)"));
    }
  }
}

TEST_F(Checks, TensorLengths) {
  t_.pd_x.SetSize(132);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: outputPdX length 132 floats (528 "
                        "bytes) is not a multiple of 32 bytes"));
  t_.pd_x.SetSize(128);
  t_.res.SetSize(120);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: resForGamma holds 120 floats, fewer "
                        "than the 128 it must hold (bLength * sLength * "
                        "hLength)"));
  t_.res.SetSize(128);
  t_.x.SetSize(127);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: inputX holds 127 floats, fewer than "
                        "the 128"));
  t_.x.SetSize(128);
  t_.variance.SetSize(7);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: inputVariance holds 7 floats, fewer "
                        "than the 8 it must hold (bLength * sLength)"));
  t_.variance.SetSize(8);
  t_.gamma.SetSize(15);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: inputGamma holds 15 floats, fewer "
                        "than the 16 it must hold (hLength)"));
  t_.gamma.SetSize(16);
  Shared();
}

TEST_F(Checks, WhatMayShareMemory) {
  EXPECT_TRUE(FailsWith([&] { Run(t_.pd_x, t_.pd_x, t_.dy, t_.x); },
                        "LayerNormGrad: outputPdX (UB offset 1152) and "
                        "resForGamma (UB offset 1152) overlap; they must be "
                        "different tensors"));
  // resForGamma from 1024, over inputVariance, inputMean and inputGamma.
  const LocalTensor<float> over_variance(normgrad_ascendc::TensorView{
      t_.variance.view().core, 1024, 512, TPosition::VECOUT});
  EXPECT_TRUE(FailsWith([&] { Run(t_.res, over_variance, t_.dy, t_.x); },
                        "LayerNormGrad: resForGamma (UB offset 1024) overlaps "
                        "inputVariance (UB offset 1024); an output may only be "
                        "inputDy or inputX itself"));
  // outputPdX 32 bytes into inputDy: a partial overlap.
  const LocalTensor<float> shifted(normgrad_ascendc::TensorView{
      t_.dy.view().core, 32, 512, TPosition::VECOUT});
  EXPECT_TRUE(FailsWith([&] { Run(shifted, t_.res, t_.dy, t_.x); },
                        "LayerNormGrad: outputPdX (UB offset 32) overlaps "
                        "inputDy (UB offset 0)"));
  // With float isReuseSource, x1 and x2 are written over inputDy and inputX.
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGrad<float, true>(t_.pd_x, t_.res, t_.dy, t_.dy, t_.variance,
                                   t_.mean, t_.gamma, t_.tmp, 1e-5f, tiling_);
      },
      "LayerNormGrad: inputDy (UB offset 0) and inputX (UB offset 0) overlap; "
      "with isReuseSource they must be different tensors"));
  Run(t_.dy, t_.x, t_.dy, t_.x);  // in place: allowed
}

TEST_F(Checks, TilingConsistency) {
  tiling_.nohCalSize = 4;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.oneCalSize 128 is not "
                        "nohCalSize 4 * hLength 16: the tiling is "
                        "inconsistent"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.loopNum = 2;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.loopNum is 2, expected 1 "
                        "(bLength * sLength * hLength / oneCalSize): the "
                        "tiling is inconsistent"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.nohTailSize = 1;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.nohTailSize is 1, expected 0 "
                        "(tailSize / hLength)"));
}

TEST_F(Checks, ScratchRegions) {
  tiling_.x3TensorSize = 100;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: tiling.x3TensorSize is 100, expected "
                        "128 (oneCalSize: a region holds one chunk)"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.x3TensorPos = 700;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: scratch region tiling.x3TensorPos "
                        "[700, 828) floats runs past tiling.stackBufferSize "
                        "3072 bytes (768 floats)"));
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, false);
  tiling_.x2TensorPos = tiling_.x1TensorPos;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: scratch regions tiling.x1TensorPos "
                        "[384, 512) and tiling.x2TensorPos [384, 512) floats "
                        "overlap"));
  // A float-with-reuse tiling (x1 = x2 = 0) used without reuse.
  tiling_ = MakeTiling(1, 8, 16, 3072, 4, true);
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "overlap (a tiling made for another type or isReuseSource?)"));
}

TEST_F(Checks, SharedScratch) {
  const LocalTensor<uint8_t> full = t_.tmp;
  t_.tmp.SetSize(3040);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: sharedTmpBuffer holds 3040 bytes, "
                        "fewer than tiling.stackBufferSize 3072 bytes"));
  t_.tmp = full[4];
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: sharedTmpBuffer LocalTensor starts at "
                        "UB offset 2180, which is "
                        "not 32-byte aligned"));
  t_.tmp = InPosition(full, TPosition::GM);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNormGrad: sharedTmpBuffer is in position GM"));
}

TEST_F(Checks, FrameworkScratch) {
  auto framework = [&] {
    LayerNormGrad<float>(t_.pd_x, t_.res, t_.dy, t_.x, t_.variance, t_.mean,
                         t_.gamma, 1e-5f, tiling_);
  };
  TBuf<TPosition::VECCALC> most;  // leaves 32 bytes
  t_.pipe.InitBuffer(most,
                     CurrentCore().scratch_end() - t_.pipe.used_bytes() - 32);
  EXPECT_TRUE(FailsWith(framework,
                        "LayerNormGrad: the framework scratch holds 32 bytes, "
                        "fewer than tiling.stackBufferSize 3072 bytes"));
  TBuf<TPosition::VECCALC> rest;
  t_.pipe.InitBuffer(rest, 32);
  EXPECT_TRUE(FailsWith(framework,
                        "LayerNormGrad: no framework scratch is left: the "
                        "pipe's buffers fill the unified buffer up to its "
                        "scratch end (196480 bytes, profile Atlas A2/A3); "
                        "leave tiling.stackBufferSize 3072 bytes free or pass "
                        "a sharedTmpBuffer"));
}

TEST(ChecksOther, Profile950Scratch) {
  ProfileScope scope(Profile::k950);
  // H = 20 half is not aligned; take float H = 24: 2·roundup(24, 8)·4 = 192.
  LayerNormGradTiling tiling = MakeTiling(1, 2, 24, 6 * 2 * 24 * 4, 4, false);
  Tensors<float> t(2, 24, 160);
  EXPECT_TRUE(FailsWith(
      [&] { Call<float, false>(t, 1e-5f, tiling, Proto::kSharedTmpBuffer); },
      "LayerNormGrad: sharedTmpBuffer holds 160 bytes, fewer than the 192 "
      "bytes the Ascend 950 profile needs (x1 and x2 of one row: 2 * "
      "roundup(hLength 24, 8) floats)"));
  TBuf<TPosition::VECCALC> rest;  // no framework scratch left
  t.pipe.InitBuffer(rest, CurrentCore().scratch_end() - t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith(
      [&] { Call<float, false>(t, 1e-5f, tiling, Proto::kFrameworkScratch); },
      "LayerNormGrad: no framework scratch is left"));
  // float with isReuseSource needs none.
  Call<float, true>(t, 1e-5f, tiling, Proto::kFrameworkScratch);
}

}  // namespace

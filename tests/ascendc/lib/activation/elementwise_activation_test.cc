// elementwise_activation_test.cc — the elementwise activation APIs (Sigmoid,
// Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU, GeGLU, ReGlu) through
// kernel_operator.h on the emulated core: every half (for the GLUs every
// half of srcTensor1, with random srcTensor0), every bfloat16_t for ReGlu,
// and a bounded float sweep with the special values (±0, subnormals, ±inf,
// NaN, |x| where e^x overflows), each output against a float64 evaluation
// of the page's formula within the bound docs/numerics.md derives
// ("Activation: elementwise"), worst error ÷ bound to the accuracy ledger;
// the pages' examples; every documented overload; and every check's
// message.
//
// The references and bounds here are written for these tests from the
// pages and docs/numerics.md and share no code with src/. Random data uses
// a fixed seed, printed; NORMGRAD_SEED=<n> overrides it. To add an API of
// the same shape: a row in kApis, a case in Call, Reference and Bound.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::BitsFloat;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

enum class Api {
  kSigmoid,
  kSilu,
  kSwish,
  kGelu,
  kFasterGelu,
  kFasterGeluV2,
  kSwiGLU,
  kGeGLU,
  kReGlu
};

// The overloads: sharedTmpBuffer or the framework scratch, with a count or
// over the whole (first) source.
enum class Form {
  kSharedCount,
  kFrameworkCount,
  kSharedWhole,
  kFrameworkWhole
};

struct ApiInfo {
  Api api;
  const char* name;
  bool glu;                 // two sources
  std::vector<Form> forms;  // the documented overloads
  std::vector<float> betas;
};

const std::vector<Form> kAllForms = {Form::kSharedCount, Form::kFrameworkCount,
                                     Form::kSharedWhole, Form::kFrameworkWhole};
const std::vector<Form> kCountForms = {Form::kSharedCount,
                                       Form::kFrameworkCount};

const ApiInfo kApis[] = {
    {Api::kSigmoid, "Sigmoid", false, kAllForms, {0}},
    {Api::kSilu, "Silu", false, {Form::kFrameworkCount}, {0}},
    {Api::kSwish, "Swish", false, {Form::kFrameworkCount}, {-1.702f, 1, 0.5f}},
    {Api::kGelu, "Gelu", false, kCountForms, {0}},
    {Api::kFasterGelu, "FasterGelu", false, kCountForms, {0}},
    {Api::kFasterGeluV2, "FasterGeluV2", false, kCountForms, {0}},
    {Api::kSwiGLU, "SwiGLU", true, kAllForms, {1, -1.702f, 0.3f}},
    {Api::kGeGLU, "GeGLU", true, kAllForms, {0}},
    {Api::kReGlu, "ReGlu", true, kCountForms, {0}},
};

uint32_t Seed() { return compat_test::Seed<20261205>(); }

// ---- The references: each page's formula in double --------------------------

constexpr double kGeluA = -0.0713548162726;  // GeGLU's page
constexpr double kGeluB = 22.363860002236;

// x / (1 + e^(a·(x³ + b·x))) and its exponent.
double GeluExponent(double x) { return kGeluA * (x * x * x + kGeluB * x); }
double Gelu(double x) { return x / (1 + std::exp(GeluExponent(x))); }

// The argument of the exponential of each API (0 where it has none).
double Exponent(Api api, double x, double x1, double beta) {
  switch (api) {
    case Api::kSigmoid:
    case Api::kSilu:
      return -x;
    case Api::kSwish:
      return beta * x;
    case Api::kGelu:
      return GeluExponent(x);
    case Api::kFasterGelu:
      return -1.702 * x;
    case Api::kSwiGLU:
      return -beta * x1;
    case Api::kGeGLU:
      return GeluExponent(x1);
    case Api::kFasterGeluV2:
    case Api::kReGlu:
      break;
  }
  return 0;
}

double Reference(Api api, double x, double x1, double beta) {
  switch (api) {
    case Api::kSigmoid:
      return 1 / (1 + std::exp(-x));
    case Api::kSilu:
    case Api::kSwish:
    case Api::kGelu:
    case Api::kFasterGelu:
      return x / (1 + std::exp(Exponent(api, x, x1, beta)));
    case Api::kFasterGeluV2: {
      const double sgn = x > 0 ? 1 : (x < 0 ? -1 : 0);
      const double c = std::min(std::fabs(x) / std::sqrt(2.0), 1.769);
      return x * (0.5 + sgn * (0.5 - 0.1444 * (c - 1.769) * (c - 1.769)));
    }
    case Api::kSwiGLU:
      return x * (x1 / (1 + std::exp(-beta * x1)));
    case Api::kGeGLU:
      return x * Gelu(x1);
    case Api::kReGlu:
      return x * (std::isnan(x1) || x1 > 0 ? x1 : 0.0);
  }
  return NAN;
}

// ---- The bounds of docs/numerics.md
// ------------------------------------------

constexpr double kU = 0x1p-24;  // float's unit roundoff

// The error of the float evaluation against `ref` (docs/numerics.md,
// "Activation: elementwise"): for the quotients v / (1 + e^t)
// (k + m·|t|)·u·|ref| plus the underflow floor |v|·2^-126 + 2^-148 (times
// |x0| for a GLU's gate) + 2^-148; FasterGeluV2 6.6·u·|x| + u·|ref|; ReGlu
// u·|ref|. Second-order terms: the 1% margin. Where t is ±inf the quotient is
// its limit in both evaluations: 0.
double FloatError(Api api, double x, double x1, double beta, double ref) {
  const double t = std::fabs(Exponent(api, x, x1, beta));
  const double y = std::fabs(ref);
  double k = 0, m = 0, v = x, scale = 1;
  switch (api) {
    case Api::kSigmoid:
      k = 4.6, v = 1;
      break;
    case Api::kSilu:
      k = 4.6;
      break;
    case Api::kSwish:
      k = 4.6, m = 1;
      break;
    case Api::kFasterGelu:
      k = 4.6, m = 2;
      break;
    case Api::kGelu:
      k = 4.6, m = 5;
      break;
    case Api::kSwiGLU:
      k = 5.6, m = 1, v = x1, scale = std::fabs(x);
      break;
    case Api::kGeGLU:
      k = 5.6, m = 5, v = x1, scale = std::fabs(x);
      break;
    case Api::kFasterGeluV2:
      return 1.01 * (6.6 * kU * std::fabs(x) + kU * y) + 0x1p-149;
    case Api::kReGlu:
      return 1.01 * kU * y + 0x1p-149;
  }
  if (std::isinf(t)) return 0;
  return 1.01 * ((k + m * t) * kU * y +
                 scale * (std::fabs(v) * 0x1p-126 + 0x1p-148)) +
         0x1p-148;
}

// Half an ulp of T at |v| (T: half, bfloat16_t; 0 for float, whose
// rounding FloatError holds).
double HalfUlpOf(const char* type, double v) {
  if (std::strcmp(type, "float") == 0) return 0;
  const bool is_half = std::strcmp(type, "half") == 0;
  const int mantissa = is_half ? 10 : 7;
  const int min_exp = is_half ? -14 : -126;
  const int e = v == 0 ? min_exp : std::max(min_exp, std::ilogb(v));
  return std::ldexp(0.5, e - mantissa);
}

// Whether `ref` rounds to ±inf in T.
bool OverflowsIn(const char* type, double ref) {
  if (std::strcmp(type, "float") == 0) {
    return std::isinf(static_cast<float>(ref));
  }
  if (std::strcmp(type, "half") == 0) return std::fabs(ref) >= 65520.0;
  return std::fabs(ref) >= 0x1.ffp127;  // bfloat16_t's max + half an ulp
}

// got against the reference of (x, x1, beta) within the bound, noted in
// the ledger under `label`; NaN where the reference is NaN, ±inf where it
// overflows T.
::testing::AssertionResult Check(const ApiInfo& a, const std::string& label,
                                 const char* type, double x, double x1,
                                 double beta, double got) {
  const double ref = Reference(a.api, x, x1, beta);
  const auto where = [&] {
    return " at " + std::string(a.name) + "<" + type + ">(" +
           std::to_string(x) + (a.glu ? ", " + std::to_string(x1) : "") +
           ", beta " + std::to_string(beta) + ")";
  };
  if (std::isnan(ref)) {
    if (std::isnan(got)) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "got " << got << ", expected NaN" << where();
  }
  if (OverflowsIn(type, ref) && std::isinf(got) &&
      std::signbit(got) == std::signbit(ref)) {
    return ::testing::AssertionSuccess();
  }
  const double bound =
      FloatError(a.api, x, x1, beta, ref) +
      HalfUlpOf(type, std::max(std::fabs(ref), std::fabs(got)));
  ::testing::AssertionResult result = WithinBound(label, got, ref, bound);
  if (!result) result << where();
  return result;
}

// ---- Calls ------------------------------------------------------------------

// One call of `api` with half or float (the switch Call dispatches to).
template <typename T>
void CallHalfOrFloat(Api api, bool shared, bool whole,
                     const LocalTensor<T>& dst, const LocalTensor<T>& src0,
                     const LocalTensor<T>& src1,
                     const LocalTensor<uint8_t>& tmp, uint32_t n, float beta) {
  switch (api) {
    case Api::kSigmoid:
      if (whole && shared) {
        AscendC::Sigmoid<T, false>(dst, src0, tmp);
      } else if (whole) {
        AscendC::Sigmoid(dst, src0);
      } else if (shared) {
        AscendC::Sigmoid(dst, src0, tmp, n);
      } else {
        AscendC::Sigmoid<T>(dst, src0, n);
      }
      return;
    case Api::kSilu:
      AscendC::Silu(dst, src0, n);
      return;
    case Api::kSwish:
      AscendC::Swish(dst, src0, n, static_cast<T>(beta));
      return;
#define GELU_FORMS(Name)                               \
  if (shared) {                                        \
    AscendC::Name<T, false, false>(dst, src0, tmp, n); \
  } else {                                             \
    AscendC::Name<T, true, true>(dst, src0, n);        \
  }                                                    \
  return;
    case Api::kGelu:
      GELU_FORMS(Gelu)
    case Api::kFasterGelu:
      GELU_FORMS(FasterGelu)
    case Api::kFasterGeluV2:
      GELU_FORMS(FasterGeluV2)
#undef GELU_FORMS
    case Api::kSwiGLU:
      if (whole && shared) {
        AscendC::SwiGLU<T, false>(dst, src0, src1, beta, tmp);
      } else if (whole) {
        AscendC::SwiGLU(dst, src0, src1, beta);
      } else if (shared) {
        AscendC::SwiGLU(dst, src0, src1, beta, tmp, n);
      } else {
        AscendC::SwiGLU(dst, src0, src1, beta, n);
      }
      return;
    case Api::kGeGLU:
      if (whole && shared) {
        AscendC::GeGLU(dst, src0, src1, tmp);
      } else if (whole) {
        AscendC::GeGLU<T, false>(dst, src0, src1);
      } else if (shared) {
        AscendC::GeGLU(dst, src0, src1, tmp, n);
      } else {
        AscendC::GeGLU(dst, src0, src1, n);
      }
      return;
    case Api::kReGlu:
      if (shared) {
        AscendC::ReGlu(dst, src0, src1, tmp, n);
      } else {
        AscendC::ReGlu<T, false>(dst, src0, src1, n);
      }
      return;
  }
}

// One call of `api` in `form` (bfloat16_t: ReGlu, the only API taking it).
template <typename T>
void Call(Api api, Form form, const LocalTensor<T>& dst,
          const LocalTensor<T>& src0, const LocalTensor<T>& src1,
          const LocalTensor<uint8_t>& tmp, uint32_t n, float beta) {
  const bool shared = form == Form::kSharedCount || form == Form::kSharedWhole;
  const bool whole =
      form == Form::kSharedWhole || form == Form::kFrameworkWhole;
  if constexpr (std::is_same_v<T, bfloat16_t>) {  // ReGlu alone takes it
    if (shared) {
      AscendC::ReGlu(dst, src0, src1, tmp, n);
    } else {
      AscendC::ReGlu(dst, src0, src1, n);
    }
  } else {
    CallHalfOrFloat<T>(api, shared, whole, dst, src0, src1, tmp, n, beta);
  }
}

// Two sources, dst of n elements of T and a scratch of tmp_bytes, on one
// pipe.
template <typename T>
struct Tensors {
  Tensors(uint32_t n, uint32_t tmp_bytes) {
    pipe.InitBuffer(src0_buf, n * sizeof(T));
    pipe.InitBuffer(src1_buf, n * sizeof(T));
    pipe.InitBuffer(dst_buf, n * sizeof(T));
    pipe.InitBuffer(tmp_buf, tmp_bytes);
    src0 = src0_buf.template Get<T>();
    src1 = src1_buf.template Get<T>();
    dst = dst_buf.template Get<T>();
    tmp = tmp_buf.Get<uint8_t>();
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> src0_buf, src1_buf;
  TBuf<TPosition::VECOUT> dst_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src0, src1, dst;
  LocalTensor<uint8_t> tmp;
};

// T's bits as uint16_t (half, bfloat16_t) or uint32_t (float).
template <typename T>
using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint16_t>;

template <typename T>
double ValueOf(Bits<T> b) {
  if constexpr (std::is_same_v<T, float>) {
    return BitsFloat(b);
  } else if constexpr (std::is_same_v<T, half>) {
    return HalfBitsToFloat(b);
  } else {
    return BitsFloat(uint32_t{b} << 16);
  }
}

template <typename T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, float>) {
    return "float";
  } else if constexpr (std::is_same_v<T, half>) {
    return "half";
  } else {
    return "bfloat16_t";
  }
}

template <typename T>
void WriteBits(const LocalTensor<T>& t, const std::vector<Bits<T>>& bits) {
  std::memcpy(static_cast<void*>(t.GetPhyAddr()), bits.data(),
              bits.size() * sizeof(Bits<T>));
}

template <typename T>
std::vector<Bits<T>> ReadBits(const LocalTensor<T>& t, size_t n) {
  std::vector<Bits<T>> bits(n);
  std::memcpy(bits.data(), static_cast<const void*>(t.GetPhyAddr()),
              n * sizeof(Bits<T>));
  return bits;
}

// Runs `a` on (x0, x1) with `form` and a scratch of tmp_bytes; returns
// dst's bits.
template <typename T>
std::vector<Bits<T>> RunApi(const ApiInfo& a, Form form,
                            const std::vector<Bits<T>>& x0,
                            const std::vector<Bits<T>>& x1, float beta,
                            uint32_t tmp_bytes) {
  const uint32_t n = static_cast<uint32_t>(x0.size());
  Tensors<T> t(n, tmp_bytes);
  WriteBits(t.src0, x0);
  if (a.glu) WriteBits(t.src1, x1);
  Call<T>(a.api, form, t.dst, t.src0, t.src1, t.tmp, n, beta);
  return ReadBits(t.dst, n);
}

// The β the call computes with: scalarValue of type T for Swish (rounded
// to T), SwiGLU's float as given.
template <typename T>
double BetaOf(const ApiInfo& a, float beta) {
  if (a.api != Api::kSwish) return beta;
  return static_cast<double>(static_cast<float>(static_cast<T>(beta)));
}

// Every (x0[i], x1[i]) through every β of `a`, in chunks, checked.
template <typename T>
void Sweep(const ApiInfo& a, const std::vector<Bits<T>>& x0,
           const std::vector<Bits<T>>& x1) {
  constexpr size_t kChunk = 8192;
  const std::string label = std::string(a.name) + "<" + TypeName<T>() + ">";
  for (const float beta : a.betas) {
    for (size_t start = 0; start < x0.size(); start += kChunk) {
      const size_t n = std::min(kChunk, x0.size() - start);
      const std::vector<Bits<T>> c0(x0.begin() + start, x0.begin() + start + n);
      const std::vector<Bits<T>> c1 =
          a.glu
              ? std::vector<Bits<T>>(x1.begin() + start, x1.begin() + start + n)
              : std::vector<Bits<T>>{};
      const auto out =
          RunApi<T>(a, a.forms[0], c0, c1, beta,
                    static_cast<uint32_t>(std::max<size_t>(n, 128)) * 8);
      for (size_t i = 0; i < n; ++i) {
        ASSERT_TRUE(Check(a, label, TypeName<T>(), ValueOf<T>(c0[i]),
                          a.glu ? ValueOf<T>(c1[i]) : 0.0, BetaOf<T>(a, beta),
                          ValueOf<T>(out[i])));
      }
    }
  }
}

// n random 16-bit patterns that are finite values (their exponent bits,
// `exp_mask`, not all set): a GLU's srcTensor0.
std::vector<uint16_t> RandomSixteen(size_t n, uint16_t exp_mask,
                                    std::mt19937& rng) {
  std::vector<uint16_t> v(n);
  for (auto& b : v) {
    do {
      b = static_cast<uint16_t>(rng());
    } while ((b & exp_mask) == exp_mask);  // not inf or NaN
  }
  return v;
}

std::vector<uint16_t> EverySixteen() {
  std::vector<uint16_t> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

// The floats worth naming, random bit patterns over every exponent, and a
// dense uniform sweep of [-100, 100] (where e^x overflows float at 88.7).
std::vector<uint32_t> FloatSweep(size_t random_count) {
  std::vector<uint32_t> v;
  for (const float f : {0.0f,
                        -0.0f,
                        1.0f,
                        -1.0f,
                        88.72f,
                        -88.72f,
                        88.73f,
                        -88.73f,
                        89.0f,
                        -89.0f,
                        103.9f,
                        -103.9f,
                        1e-30f,
                        -1e-30f,
                        6.9e12f,
                        -6.9e12f,
                        7e12f,
                        -7e12f,
                        3.4028235e38f,
                        -3.4028235e38f,
                        1.17549435e-38f,
                        2.5018f,
                        -2.5018f,
                        2.5019f,
                        -2.5019f,
                        INFINITY,
                        -INFINITY,
                        NAN,
                        -NAN}) {
    v.push_back(FloatBits(f));
  }
  for (uint32_t sub : {1u, 2u, 0x7fffffu, 0x400000u}) {
    v.push_back(sub);
    v.push_back(sub | 0x80000000u);
  }
  std::mt19937 rng(Seed());
  for (size_t i = 0; i < random_count; ++i) v.push_back(rng());
  std::uniform_real_distribution<float> dense(-100.0f, 100.0f);
  for (size_t i = 0; i < random_count; ++i) v.push_back(FloatBits(dense(rng)));
  while (v.size() % 8 != 0) v.push_back(FloatBits(1.0f));
  return v;
}

// srcTensor0 of the float GLU sweeps: random values of moderate size and
// random bit patterns.
std::vector<uint32_t> FloatPartners(size_t n, std::mt19937& rng) {
  std::vector<uint32_t> v(n);
  std::uniform_real_distribution<float> moderate(-8.0f, 8.0f);
  for (size_t i = 0; i < n; ++i) {
    v[i] = i % 4 == 3 ? static_cast<uint32_t>(rng()) : FloatBits(moderate(rng));
  }
  return v;
}

// ---- Accuracy over whole ranges ---------------------------------------------

TEST(ActivationAccuracy, EveryHalf) {
  std::mt19937 rng(Seed());
  const std::vector<uint16_t> all = EverySixteen();
  const ProfileScope scope(Profile::kA2);
  for (const ApiInfo& a : kApis) {
    if (a.glu) {
      Sweep<half>(a, RandomSixteen(all.size(), 0x7c00, rng), all);
    } else {
      Sweep<half>(a, all, {});
    }
  }
}

TEST(ActivationAccuracy, EveryBfloat16OfReGlu) {
  std::mt19937 rng(Seed());
  for (const Profile p : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(p);
    Sweep<bfloat16_t>(kApis[8], RandomSixteen(65536, 0x7f80, rng),
                      EverySixteen());
  }
}

TEST(ActivationAccuracy, FloatSweep) {
  std::mt19937 rng(Seed() + 1);
  const std::vector<uint32_t> sweep = FloatSweep(1 << 13);
  const std::vector<uint32_t> partners = FloatPartners(sweep.size(), rng);
  const ProfileScope scope(Profile::kA2);
  for (const ApiInfo& a : kApis) {
    if (a.glu) {
      Sweep<float>(a, partners, sweep);
    } else {
      Sweep<float>(a, sweep, {});
    }
  }
}

// The profiles compute the same bits, but for half overflow, which Ascend
// 950 saturates (below).
TEST(ActivationAccuracy, EveryProfileComputesTheSame) {
  std::mt19937 rng(Seed() + 2);
  std::vector<uint16_t> x0(1024), x1(1024);
  std::uniform_real_distribution<float> moderate(-12.0f, 12.0f);
  for (size_t i = 0; i < x0.size(); ++i) {
    x0[i] = half(moderate(rng)).Bits();
    x1[i] = half(moderate(rng)).Bits();
  }
  for (const ApiInfo& a : kApis) {
    std::vector<std::vector<uint16_t>> outs;
    for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
      const ProfileScope scope(p);
      outs.push_back(RunApi<half>(a, a.forms[0], x0, x1, a.betas[0], 8192));
    }
    EXPECT_EQ(outs[0], outs[1]) << a.name << " on 310p";
    EXPECT_EQ(outs[0], outs[2]) << a.name << " on 950";
  }
}

TEST(ActivationAccuracy, HalfOverflowSaturatesOnAscend950) {
  for (const Profile p : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(p);
    Tensors<half> t(16, 1024);
    for (uint32_t i = 0; i < 16; ++i) {
      t.src0.SetValue(i, half(300.0f));
      t.src1.SetValue(i, half(i % 2 == 0 ? 300.0f : -300.0f));
    }
    AscendC::SwiGLU(t.dst, t.src0, t.src1, 1.0f, 16);
    const float over = p == Profile::k950 ? 65504.0f : INFINITY;
    EXPECT_EQ(static_cast<float>(t.dst.GetValue(0)), over);  // 90000
    EXPECT_EQ(static_cast<float>(t.dst.GetValue(1)), -0.0f);
  }
}

// A scratch of the minimum (one pass of 256 bytes of input) computes the
// same bits as one large enough for every element.
TEST(ActivationAccuracy, SmallestScratchTakesManyPasses) {
  std::mt19937 rng(Seed() + 3);
  const std::vector<uint16_t> x0 = RandomSixteen(2048, 0x7c00, rng);
  const std::vector<uint16_t> x1 = RandomSixteen(2048, 0x7c00, rng);
  const ProfileScope scope(Profile::kA2);
  for (const ApiInfo& a : kApis) {
    if (a.forms[0] != Form::kSharedCount) continue;  // no sharedTmpBuffer
    const uint32_t min_bytes = a.glu ? 1024 : 512;   // 128 halves a pass
    EXPECT_EQ(
        RunApi<half>(a, Form::kSharedCount, x0, x1, a.betas[0], min_bytes),
        RunApi<half>(a, Form::kSharedCount, x0, x1, a.betas[0], 16384))
        << a.name;
  }
}

// Every documented overload gives the same bits (sharedTmpBuffer or the
// framework scratch, with the count or over the whole source).
TEST(ActivationAccuracy, EveryOverload) {
  std::mt19937 rng(Seed() + 4);
  const std::vector<uint16_t> x0 = RandomSixteen(1024, 0x7c00, rng);
  const std::vector<uint16_t> x1 = RandomSixteen(1024, 0x7c00, rng);
  const ProfileScope scope(Profile::kA2);
  for (const ApiInfo& a : kApis) {
    const auto first = RunApi<half>(a, a.forms[0], x0, x1, a.betas[0], 8192);
    for (const Form f : a.forms) {
      EXPECT_EQ(RunApi<half>(a, f, x0, x1, a.betas[0], 8192), first)
          << a.name << " form " << static_cast<int>(f);
    }
  }
}

// A count below the tensors' length computes that many and leaves the rest
// of dst as it was.
TEST(ActivationAccuracy, CountLeavesTheRestAlone) {
  const ProfileScope scope(Profile::kA2);
  for (const ApiInfo& a : kApis) {
    Tensors<float> t(64, 512);
    for (uint32_t i = 0; i < 64; ++i) {
      t.src0.SetValue(i, 0.25f * static_cast<float>(i));
      t.src1.SetValue(i, 1.0f);
      t.dst.SetValue(i, -7.0f);
    }
    Call<float>(a.api, a.forms[0], t.dst, t.src0, t.src1, t.tmp, 40,
                a.betas[0]);
    for (uint32_t i = 0; i < 64; ++i) {
      if (i < 40) {
        EXPECT_NE(t.dst.GetValue(i), -7.0f) << a.name << " " << i;
      } else {
        EXPECT_EQ(t.dst.GetValue(i), -7.0f) << a.name << " " << i;
      }
    }
  }
}

// ---- The pages' examples ----------------------------------------------------

// Runs `a` on the printed inputs (padded with zeros to 32 elements) and
// compares with the printed outputs within `tolerance` (the printed digits)
// plus the bound.
template <typename T>
void ExpectExample(Api api, const std::vector<float>& x0,
                   const std::vector<float>& x1, float beta,
                   const std::vector<double>& printed, double tolerance) {
  const ApiInfo& a = kApis[static_cast<int>(api)];
  const ProfileScope scope(Profile::kA2);
  const uint32_t n = 32;
  Tensors<T> t(n, 8192);
  for (uint32_t i = 0; i < n; ++i) {
    t.src0.SetValue(i, static_cast<T>(i < x0.size() ? x0[i] : 0.0f));
    t.src1.SetValue(i, static_cast<T>(i < x1.size() ? x1[i] : 0.0f));
  }
  Call<T>(api, a.forms[0], t.dst, t.src0, t.src1, t.tmp, n, beta);
  for (size_t i = 0; i < printed.size(); ++i) {
    const double got = static_cast<float>(t.dst.GetValue(i));
    EXPECT_NEAR(got, printed[i],
                tolerance * std::max(1.0, std::fabs(printed[i])))
        << a.name << " element " << i;
  }
}

const std::vector<float> kSigmoidIn = {
    -100, -50,  -20,  -10,   -5, -4, -3,   -2,  -1,  -0.5, -0.4,
    -0.3, -0.2, -0.1, -0.01, 0,  0,  0.01, 0.1, 0.2, 0.3,  0.4,
    0.5,  1,    2,    3,     4,  5,  10,   20,  50,  100};

TEST(ActivationExamples, Sigmoid) {
  ExpectExample<float>(
      Api::kSigmoid, kSigmoidIn, {}, 0,
      {0.,         0.,         0.,         0.0000454,  0.00669285, 0.01798621,
       0.04742587, 0.11920292, 0.26894142, 0.37754067, 0.40131234, 0.42555748,
       0.450166,   0.47502081, 0.49750002, 0.5,        0.5,        0.50249998,
       0.52497919, 0.549834,   0.57444252, 0.59868766, 0.62245933, 0.73105858,
       0.88079708, 0.95257413, 0.98201379, 0.99330715, 0.9999546,  1.,
       1.,         1.},
      1e-7);
}

TEST(ActivationExamples, Silu) {
  ExpectExample<float>(
      Api::kSilu, kSigmoidIn, {}, 0,
      {-0.,         -0.,         -0.00000004, -0.00045398, -0.03346425,
       -0.07194484, -0.14227761, -0.23840587, -0.2689414,  -0.18877034,
       -0.16052495, -0.12766725, -0.0900332,  -0.04750208, -0.004975,
       0.,          0.,          0.005025,    0.05249792,  0.10996681,
       0.17233276,  0.23947507,  0.31122968,  0.7310586,   1.761594,
       2.8577225,   3.928055,    4.9665356,   9.999546,    20.,
       50.,         100.},
      1e-7);
}

std::vector<float> SwishInputs() {  // -4 + 8·i/31, as printed
  std::vector<float> v(32);
  for (int i = 0; i < 32; ++i) v[i] = -4.0f + 8.0f * i / 31.0f;
  return v;
}

// β = -1.702 gives x·sigmoid(1.702·x): the page's printed values.
TEST(ActivationExamples, Swish) {
  ExpectExample<float>(
      Api::kSwish, SwishInputs(), {}, -1.702f,
      {-0.00441472, -0.00640367, -0.00924141, -0.01325663, -0.01887952,
       -0.02665107, -0.03720944, -0.05122496, -0.06923404, -0.09129371,
       -0.11635891, -0.14131825, -0.15980731, -0.16135658, -0.13200021,
       -0.05746017, 0.07157208,  0.25509655,  0.48380467,  0.74341846,
       1.019972,    1.3029958,   1.5861256,   1.8662498,   2.1423235,
       2.4144034,   2.6830263,   2.9488626,   3.2125497,   3.4746296,
       3.735532,    3.995585},
      1e-6);
  // The page's call, β a double literal converted to T.
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(32, 256);
  const std::vector<float> in = SwishInputs();
  for (uint32_t i = 0; i < 32; ++i) t.src0.SetValue(i, in[i]);
  AscendC::Swish(t.dst, t.src0, 32, -1.702);
  EXPECT_NEAR(t.dst.GetValue(0), -0.00441472, 1e-8);
  EXPECT_NEAR(t.dst.GetValue(31), 3.995585, 1e-6);
}

// half: the device's exponential differs from a correctly rounded one by
// an ulp or so, so the printed halves are met within 2 ulps of half.
TEST(ActivationExamples, Gelu) {
  ExpectExample<half>(
      Api::kGelu,
      {-2.56,  -2.395, -2.23,   -2.066,  -1.9,   -1.735, -1.571,  -1.406,
       -1.241, -1.076, -0.9116, -0.7466, -0.582, -0.417, -0.2522, -0.0874,
       0.0774, 0.2423, 0.407,   0.572,   0.737,  0.902,  1.066,   1.231,
       1.396,  1.561,  1.726,   1.891,   2.055,  2.22,   2.385,   2.55},
      {}, 0, {-0.01295471, -0.01953125, -0.02836609, -0.03991699, -0.05453491,
              -0.07196045, -0.09130859, -0.11254883, -0.13342285, -0.15185547,
              -0.16516113, -0.17004395, -0.16320801, -0.14111328, -0.10101318,
              -0.04067993, 0.04107666,  0.14428711,  0.26782227,  0.40942383,
              0.56689453,  0.7363281,   0.9135742,   1.0966797,   1.2822266,
              1.4677734,   1.6533203,   1.8349609,   2.0136719,   2.1914062,
              2.3632812,   2.5390625},
      2.0 / 1024);
}

TEST(ActivationExamples, FasterGelu) {
  ExpectExample<half>(
      Api::kFasterGelu,
      {-1.83887, -3.60742, 3.12891, -0.620605, 2.0625, -2.77344, -0.04422,
       -3.54297, -3.16211, 2.67383, 1.3291, -1.57617, -0.0123901, 3.77539,
       -1.61621, -0.616699},
      {}, 0,
      {-0.0769653, -0.00775528, 3.11328, -0.160034, 2.00195, -0.0244446,
       -0.021286, -0.00849152, -0.0144653, 2.64453, 1.20312, -0.100769,
       -0.00613022, 3.76758, -0.0969238, -0.159912},
      2.0 / 1024);
}

// The page prints four digits; -0 where the clip makes the factor 0.
TEST(ActivationExamples, FasterGeluV2) {
  const std::vector<float> in = {
      -1.251, 1.074,  -6.137, -9.67, -5.066, -9.44,  -3.588, -5.758,
      -7.484, -5.35,  -9.62,  -4.33, -6.66,  -3.732, 0.0841, -8.59,
      -6.3,   -4.62,  -3.059, -8.34, -8.24,  -7.617, -7.93,  -3.592,
      -3.268, -5.406, -9.49,  5.633, -5.3,   -9.36,  -6.715, -5.727};
  std::vector<double> printed(32, -0.0);
  printed[0] = -0.1411;
  printed[1] = 0.916;
  printed[14] = 0.0486;
  printed[27] = 5.633;
  ExpectExample<half>(Api::kFasterGeluV2, in, {}, 0, printed, 5e-4);
  const ProfileScope scope(Profile::kA2);
  Tensors<half> t(32, 1024);
  for (uint32_t i = 0; i < 32; ++i) t.src0.SetValue(i, half(in[i]));
  AscendC::FasterGeluV2(t.dst, t.src0, 32);
  EXPECT_EQ(t.dst.GetValue(2).Bits(), 0x8000u);  // -0, as printed
}

TEST(ActivationExamples, SwiGLU) {
  ExpectExample<float>(
      Api::kSwiGLU, SwishInputs(), std::vector<float>(32, 0.5f), 1.0f,
      {-1.2449187,  -1.1646013, -1.084284,   -1.0039667,  -0.9236493,
       -0.843332,   -0.7630147, -0.68269736, -0.60238,    -0.52206266,
       -0.4417453,  -0.361428,  -0.28111064, -0.20079333, -0.12047599,
       -0.04015867, 0.04015867, 0.12047599,  0.20079333,  0.28111064,
       0.361428,    0.4417453,  0.52206266,  0.60238,     0.68269736,
       0.7630147,   0.843332,   0.9236493,   1.0039667,   1.084284,
       1.1646013,   1.2449187},
      1e-6);
}

// 512 halves from -2.56 in steps of 0.01 times Gelu(2); the page prints
// the first three and the last three, met within 2 ulps of half (its 4.94
// is an ulp below normgrad's 4.945).
TEST(ActivationExamples, GeGLU) {
  const ProfileScope scope(Profile::kA2);
  Tensors<half> t(512, 8192);
  for (uint32_t i = 0; i < 512; ++i) {
    t.src0.SetValue(i, half(-2.56f + 0.01f * static_cast<float>(i)));
    t.src1.SetValue(i, half(2.0f));
  }
  AscendC::GeGLU<half, false>(t.dst, t.src0, t.src1, t.tmp, 512);
  const std::vector<std::pair<uint32_t, float>> printed = {
      {0, -5.004f}, {1, -4.984f}, {2, -4.96f},
      {509, 4.94f}, {510, 4.96f}, {511, 4.984f}};
  for (const auto& [i, value] : printed) {
    EXPECT_NEAR(static_cast<float>(t.dst.GetValue(i)), value, 0.008) << i;
  }
}

// 30 elements computed; the last two of dst keep their zeros.
TEST(ActivationExamples, ReGlu) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(32, 512);
  for (uint32_t i = 0; i < 32; ++i) {
    t.src0.SetValue(i, 2.0f);
    t.src1.SetValue(i, -1.6f + 0.1f * static_cast<float>(i));
    t.dst.SetValue(i, 0.0f);
  }
  AscendC::ReGlu(t.dst, t.src0, t.src1, t.tmp, 30);
  for (uint32_t i = 0; i < 32; ++i) {
    const double expected = i < 30 && i > 16 ? 0.2 * (i - 16) : 0.0;
    EXPECT_NEAR(t.dst.GetValue(i), expected, 1e-6) << i;
  }
}

// ---- What may share memory
// ---------------------------------------------------

TEST(ActivationAccuracy, GeluFamilyMayWriteItsSourceInPlace) {
  const ProfileScope scope(Profile::kA2);
  for (const Api api : {Api::kGelu, Api::kFasterGelu, Api::kFasterGeluV2}) {
    const ApiInfo& a = kApis[static_cast<int>(api)];
    Tensors<float> t(64, 512);
    for (uint32_t i = 0; i < 64; ++i) {
      t.src0.SetValue(i, -4.0f + 0.125f * static_cast<float>(i));
    }
    Call<float>(api, Form::kSharedCount, t.dst, t.src0, t.src1, t.tmp, 64, 0);
    Call<float>(api, Form::kFrameworkCount, t.src0, t.src0, t.src1, t.tmp, 64,
                0);
    for (uint32_t i = 0; i < 64; ++i) {
      EXPECT_EQ(FloatBits(t.src0.GetValue(i)), FloatBits(t.dst.GetValue(i)))
          << a.name << " " << i;
    }
  }
}

// ---- Checks -----------------------------------------------------------------

class ActivationChecks : public ::testing::Test {
 protected:
  ProfileScope scope{Profile::kA2};
  Tensors<float> t{64, 512};
};

TEST_F(ActivationChecks, TensorsPlacedForTheVectorUnit) {
  EXPECT_TRUE(FailsWith([&] { AscendC::Sigmoid(t.dst, t.src0[1], t.tmp, 8); },
                        "Sigmoid: srcTensor"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Gelu(t.dst, t.src0, t.tmp[4], 8); },
                        "Gelu: sharedTmpBuffer"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::SwiGLU(t.dst, t.src0, t.src1[3], 1.0f, 8); },
                "SwiGLU: srcTensor1"));
}

TEST_F(ActivationChecks, CountWithinTheTensors) {
  EXPECT_TRUE(FailsWith([&] { AscendC::Silu(t.dst, t.src0, 65); },
                        "Silu: srcLocal holds 64 floats, fewer than the 65 it "
                        "must hold (dataSize)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::GeGLU(t.dst, t.src0, t.src1[32], 40); },
      "GeGLU: srcTensor1 holds 32 floats, fewer than the 40 it must hold "
      "(calCount)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SwiGLU(t.dst[32], t.src0, t.src1, 1.0f); },
      "SwiGLU: dstTensor holds 32 floats, fewer than the 64 it must hold "
      "(every element of srcTensor0)"));
}

TEST(ActivationScratch, AtLeastTheMinimum) {
  const ProfileScope scope(Profile::kA2);
  Tensors<half> h(64, 512);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::FasterGelu(h.dst, h.src0, h.tmp[32], 64); },
      "FasterGelu: sharedTmpBuffer holds 480 bytes, fewer than the 512 a call "
      "on halves needs (GetGeluMaxMinTmpSize's minValue: a pass of 128 "
      "elements, 4 bytes each)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Sigmoid(h.dst, h.src0, h.tmp[64], 64); },
                        "Sigmoid: sharedTmpBuffer holds 448 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReGlu(h.dst, h.src0, h.src1, h.tmp, 64); },
      "ReGlu: sharedTmpBuffer holds 512 bytes, fewer than the 1024 a call on "
      "halves needs (GetReGluMaxMinTmpSize's minValue: a pass of 128 "
      "elements, 8 bytes each)"));
}

TEST_F(ActivationChecks, DstAndSourcesMustNotShareMemory) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sigmoid(t.src0, t.src0, t.tmp, 64); },
      "Sigmoid: dstTensor (UB bytes [0, 256)) and srcTensor (UB bytes [0, "
      "256)) overlap; Sigmoid does not support srcTensor and dstTensor "
      "sharing memory"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Swish(t.src0, t.src0, 64, 1.0f); },
                        "Swish does not support srcLocal and dstLocal sharing "
                        "memory"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReGlu(t.src1, t.src0, t.src1, t.tmp, 64); },
      "ReGlu: dstTensor (UB bytes [256, 512)) and srcTensor1 (UB bytes [256, "
      "512)) overlap; ReGlu does not support srcTensor1 and dstTensor "
      "sharing memory"));
}

TEST_F(ActivationChecks, InPlaceButNotPartly) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Gelu(t.src0[8], t.src0, t.tmp, 32); },
      "Gelu: dstLocal (UB bytes [32, 160)) and srcLocal (UB bytes [0, 128)) "
      "overlap; dstLocal may be srcLocal itself but must not overlap it "
      "partly"));
}

TEST_F(ActivationChecks, ScratchSharesNothing) {
  const LocalTensor<uint8_t> over_dst = t.dst.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sigmoid(t.dst, t.src0, over_dst, 64); },
      "Sigmoid: dstTensor (UB bytes [512, 768)) and sharedTmpBuffer (UB "
      "bytes [512, 768)) overlap; Sigmoid writes its scratch, so it must not "
      "share memory with its sources or dstTensor"));
  const LocalTensor<uint8_t> over_src = t.src0.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Gelu(t.dst, t.src0, over_src, 64); },
      "Gelu: srcLocal (UB bytes [0, 256)) and sharedTmpBuffer (UB bytes [0, "
      "256)) overlap"));
}

TEST_F(ActivationChecks, NoFrameworkScratchLeft) {
  TBuf<TPosition::VECCALC> rest;
  t.pipe.InitBuffer(rest, normgrad_ascendc::CurrentCore().scratch_end() -
                              t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith([&] { AscendC::Silu(t.dst, t.src0, 64); },
                        "Silu: no framework scratch is left"));
}

TEST(ActivationProfiles, ReGluBfloat16NotOnAtlasInference) {
  const ProfileScope scope(Profile::k310P);
  Tensors<bfloat16_t> t(64, 1024);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReGlu(t.dst, t.src0, t.src1, t.tmp, 64); },
      "ReGlu: T is bfloat16_t, which profile Atlas inference series (310p) "
      "does not take: ReGlu takes bfloat16_t on Atlas A2/A3 and Ascend 950 "
      "only (half and float on every profile)"));
}

}  // namespace

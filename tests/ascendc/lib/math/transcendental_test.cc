// transcendental_test.cc — the transcendental Math APIs (Exp, Log, Log2,
// Log10, Tanh, Sin, Cos, SinCos, Erf, Erfc, Sinh, Cosh, Tan, Asin, Acos,
// Atan, Asinh, Acosh, Atanh, Digamma, Lgamma) through kernel_operator.h on
// the emulated core: every half and a bounded float sweep with the special
// values against a float64 reference, within the bound docs/numerics.md
// derives ("Math: transcendental"; each API's worst error ÷ bound goes to
// the accuracy ledger); Exp's Taylor levels; the pages' examples; every
// documented overload; the profiles and configs; and every check's message.
//
// The references are the C++ library's double functions, and a digamma
// written here (recurrence, asymptotic series, reflection, in double); they
// share no code with src/. Random data uses a fixed seed, printed;
// NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
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
using compat_test::TensorBits;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

uint32_t Seed() { return compat_test::Seed<20261205>(); }

// ---- The references
// -----------------------------------------------------------

// ψ(x) in double: poles at 0 (−inf from above, +inf from below) and the
// negative integers (NaN); the reflection ψ(x) = ψ(1−x) − π/tan(πx) below
// 0; the recurrence ψ(x) = ψ(x+1) − 1/x up to 20; the asymptotic series.
double DigammaReference(double x) {
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return INFINITY;
  if (x == 0) return std::signbit(x) ? INFINITY : -INFINITY;
  double reflection = 0;
  if (x < 0) {
    const double r = x - std::nearbyint(x);
    if (r == 0) return NAN;
    reflection = -M_PI / std::tan(M_PI * r);
    x = 1 - x;
  }
  double sum = 0;
  for (; x < 20; x += 1) sum += 1 / x;
  const double z = 1 / (x * x);
  // Bernoulli numbers B2..B12 over 2k.
  const double series =
      z * (1.0 / 12 -
           z * (1.0 / 120 -
                z * (1.0 / 252 -
                     z * (1.0 / 240 - z * (1.0 / 132 - z * 691.0 / 32760)))));
  return std::log(x) - 0.5 / x - series - sum + reflection;
}

// ---- The APIs
// -----------------------------------------------------------------

enum class Api {
  kExp,
  kLog,
  kLog2,
  kLog10,
  kTanh,
  kSin,
  kCos,
  kSinCosSin,  // SinCos's dst0
  kSinCosCos,  // SinCos's dst1
  kErf,
  kErfc,
  kSinh,
  kCosh,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
  kDigamma,
  kLgamma,
};

struct ApiInfo {
  Api api;
  const char* name;
  double (*reference)(double);
  double ulps;  // the float bound before rounding to T (docs/numerics.md)
  bool on_a2;   // else Ascend 950 only (SinCos)
  bool on_310p;
  // The inputs the page takes on Atlas A2/A3 (Sin, Cos, Tan: a range).
  bool (*takes)(double);
  // An absolute part of the bound at x, where the method's sums cancel
  // (Digamma, Lgamma); null: none.
  double (*absolute)(double x) = nullptr;
};

double Lgamma(double x) { return std::lgamma(x); }
bool Any(double) { return true; }
bool WithinHalfRange(double x) { return x >= -65504.0 && x <= 65504.0; }
bool InsideHalfRange(double x) { return x > -65504.0 && x < 65504.0; }

// Digamma's sums cancel near its roots: 2^-46 of 2 + ln(1 + |x|), the size
// of its largest terms (docs/numerics.md).
double DigammaAbsolute(double x) {
  return std::ldexp(2 + std::log1p(std::fabs(x)), -46);
}

// Lgamma's difference ln Γ(t) − ln Q cancels near its roots: 2^-49 of
// T·ln T with T = |x| + 11, the size of its largest terms (docs/numerics.md).
double LgammaAbsolute(double x) {
  const double t = std::fabs(x) + 11;
  return std::ldexp(t * std::log(t), -49);
}

// Exp is checked with its levels apart (ExpBoundUlps).
const ApiInfo kApis[] = {
    {Api::kLog, "Log", [](double x) { return std::log(x); }, 4, true, true,
     Any},
    {Api::kLog2, "Log2", [](double x) { return std::log2(x); }, 4, true, true,
     Any},
    {Api::kLog10, "Log10", [](double x) { return std::log10(x); }, 4, true,
     true, Any},
    {Api::kTanh, "Tanh", [](double x) { return std::tanh(x); }, 3, true, true,
     Any},
    {Api::kSin, "Sin", [](double x) { return std::sin(x); }, 2, true, true,
     WithinHalfRange},
    {Api::kCos, "Cos", [](double x) { return std::cos(x); }, 2, true, true,
     WithinHalfRange},
    {Api::kSinCosSin, "SinCos dst0", [](double x) { return std::sin(x); }, 2,
     false, false, Any},
    {Api::kSinCosCos, "SinCos dst1", [](double x) { return std::cos(x); }, 2,
     false, false, Any},
    {Api::kErf, "Erf", [](double x) { return std::erf(x); }, 1, true, true,
     Any},
    {Api::kErfc, "Erfc", [](double x) { return std::erfc(x); }, 1, true, true,
     Any},
    {Api::kSinh, "Sinh", [](double x) { return std::sinh(x); }, 3, true, true,
     Any},
    {Api::kCosh, "Cosh", [](double x) { return std::cosh(x); }, 3, true, true,
     Any},
    {Api::kTan, "Tan", [](double x) { return std::tan(x); }, 2, true, true,
     InsideHalfRange},
    {Api::kAsin, "Asin", [](double x) { return std::asin(x); }, 1, true, true,
     Any},
    {Api::kAcos, "Acos", [](double x) { return std::acos(x); }, 1, true, true,
     Any},
    {Api::kAtan, "Atan", [](double x) { return std::atan(x); }, 1, true, true,
     Any},
    {Api::kAsinh, "Asinh", [](double x) { return std::asinh(x); }, 1, true,
     true, Any},
    {Api::kAcosh, "Acosh", [](double x) { return std::acosh(x); }, 1, true,
     true, Any},
    {Api::kAtanh, "Atanh", [](double x) { return std::atanh(x); }, 1, true,
     true, Any},
    {Api::kDigamma, "Digamma", DigammaReference, 1, true, true, Any,
     DigammaAbsolute},
    {Api::kLgamma, "Lgamma", Lgamma, 1, true, true, Any, LgammaAbsolute},
};

// src, dst (and SinCos's dst1) of n elements of T and a scratch of
// tmp_bytes, on one pipe.
template <typename T>
struct Tensors {
  Tensors(uint32_t n, uint32_t tmp_bytes) {
    pipe.InitBuffer(src_buf, n * sizeof(T));
    pipe.InitBuffer(dst_buf, n * sizeof(T));
    pipe.InitBuffer(dst1_buf, n * sizeof(T));
    pipe.InitBuffer(tmp_buf, tmp_bytes);
    src = src_buf.Get<T>();
    dst = dst_buf.Get<T>();
    dst1 = dst1_buf.Get<T>();
    tmp = tmp_buf.Get<uint8_t>();
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> src_buf;
  TBuf<TPosition::VECOUT> dst_buf, dst1_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src, dst, dst1;
  LocalTensor<uint8_t> tmp;
};

enum class Form {
  kSharedCount,
  kFrameworkCount,
  kSharedWhole,
  kFrameworkWhole
};

constexpr AscendC::SinConfig kSinRadian = {AscendC::SinAlgo::RADIAN_REDUCTION};
constexpr AscendC::CosConfig kCosRadian = {AscendC::CosAlgo::RADIAN_REDUCTION};

// One call of `api` in `form` on t (Sin and Cos with RADIAN_REDUCTION when
// `radian`); the output is t.dst (SinCos: dst0 and dst1).
template <typename T>
void Call(Api api, Form form, Tensors<T>& t, uint32_t n, bool radian = false) {
  const bool shared = form == Form::kSharedCount || form == Form::kSharedWhole;
  const bool whole =
      form == Form::kSharedWhole || form == Form::kFrameworkWhole;
// The four forms of the function `...` (a name with its template
// arguments).
#define FOUR_FORMS(...)                  \
  if (whole && shared) {                 \
    __VA_ARGS__(t.dst, t.src, t.tmp);    \
  } else if (whole) {                    \
    __VA_ARGS__(t.dst, t.src);           \
  } else if (shared) {                   \
    __VA_ARGS__(t.dst, t.src, t.tmp, n); \
  } else {                               \
    __VA_ARGS__(t.dst, t.src, n);        \
  }                                      \
  return;
#define COUNT_FORMS(Name)                     \
  if (shared) {                               \
    AscendC::Name<T>(t.dst, t.src, t.tmp, n); \
  } else {                                    \
    AscendC::Name<T>(t.dst, t.src, n);        \
  }                                           \
  return;
  switch (api) {
    case Api::kExp:
      if (shared) {
        AscendC::Exp<T, 0>(t.dst, t.src, t.tmp, n);
      } else {
        AscendC::Exp<T, 0, false>(t.dst, t.src, n);
      }
      return;
    case Api::kLog:  // the framework scratch only
      if (whole) {
        AscendC::Log(t.dst, t.src);
      } else {
        AscendC::Log(t.dst, t.src, n);
      }
      return;
    case Api::kLog10:
      if (whole) {
        AscendC::Log10(t.dst, t.src);
      } else {
        AscendC::Log10<T, false>(t.dst, t.src, n);
      }
      return;
    case Api::kLog2:
      FOUR_FORMS(AscendC::Log2<T, false>)
    case Api::kTanh:
      FOUR_FORMS(AscendC::Tanh<T, false>)
    case Api::kSin:
      if (radian) {
        FOUR_FORMS(AscendC::Sin<T, false, kSinRadian>)
      }
      FOUR_FORMS(AscendC::Sin<T, false>)
    case Api::kCos:
      if (radian) {
        FOUR_FORMS(AscendC::Cos<T, false, kCosRadian>)
      }
      FOUR_FORMS(AscendC::Cos<T, false>)
    case Api::kSinCosSin:
    case Api::kSinCosCos:
      if (shared) {
        AscendC::SinCos(t.dst, t.dst1, t.src, t.tmp, n);
      } else {
        AscendC::SinCos<AscendC::DEFAULT_SINCOS_CONFIG, T>(t.dst, t.dst1, t.src,
                                                           n);
      }
      return;
    case Api::kErf:
      FOUR_FORMS(AscendC::Erf<T, false>)
    case Api::kErfc:
      FOUR_FORMS(AscendC::Erfc<T, false>)
    case Api::kSinh:
      FOUR_FORMS(AscendC::Sinh<T, false>)
    case Api::kCosh:
      FOUR_FORMS(AscendC::Cosh<T, false>)
    case Api::kTan:
      FOUR_FORMS(AscendC::Tan<T, false>)
    case Api::kAsin:
      FOUR_FORMS(AscendC::Asin<T, false>)
    case Api::kAcos:
      FOUR_FORMS(AscendC::Acos<T, false>)
    case Api::kAtan:
      FOUR_FORMS(AscendC::Atan<T, false>)
    case Api::kAsinh:
      FOUR_FORMS(AscendC::Asinh<T, false>)
    case Api::kAcosh:
      FOUR_FORMS(AscendC::Acosh<T, false>)
    case Api::kAtanh:
      FOUR_FORMS(AscendC::Atanh<T, false>)
    case Api::kDigamma:
      COUNT_FORMS(Digamma)
    case Api::kLgamma:
      COUNT_FORMS(Lgamma)
  }
#undef COUNT_FORMS
#undef FOUR_FORMS
}

// The forms each page documents.
std::vector<Form> FormsOf(Api api) {
  switch (api) {
    case Api::kExp:
    case Api::kSinCosSin:
    case Api::kSinCosCos:
    case Api::kDigamma:
    case Api::kLgamma:
      return {Form::kSharedCount, Form::kFrameworkCount};
    case Api::kLog:
    case Api::kLog10:
      return {Form::kFrameworkCount, Form::kFrameworkWhole};
    default:
      return {Form::kSharedCount, Form::kFrameworkCount, Form::kSharedWhole,
              Form::kFrameworkWhole};
  }
}

using Bits16 = uint16_t;
using Bits32 = uint32_t;

float BitsToValue(Bits16 h) { return HalfBitsToFloat(h); }
float BitsToValue(Bits32 f) { return BitsFloat(f); }

// Runs `call` on `in` (bits of T) in chunks of 4096 elements, each in one
// pass of a scratch large enough; returns the output's bits (dst1's when
// `second`).
template <typename T>
std::vector<typename TensorBits<T>::Bits> RunOnBits(
    const std::function<void(Tensors<T>&, uint32_t)>& call,
    const std::vector<typename TensorBits<T>::Bits>& in, bool second = false) {
  using Bits = typename TensorBits<T>::Bits;
  constexpr size_t kChunk = 4096;
  std::vector<Bits> out;
  for (size_t start = 0; start < in.size(); start += kChunk) {
    const uint32_t n =
        static_cast<uint32_t>(std::min(kChunk, in.size() - start));
    Tensors<T> t(n, std::max<uint32_t>(n * 8, 1024));
    TensorBits<T>::Write(t.src, {in.begin() + start, in.begin() + start + n});
    call(t, n);
    const std::vector<Bits> part =
        TensorBits<T>::Read(second ? t.dst1 : t.dst, n);
    out.insert(out.end(), part.begin(), part.end());
  }
  return out;
}

// ---- The check against the bound
// ----------------------------------------------

// The spacing of floats (halves) at |v|: 2^(e-23) (2^(e-10)) for v in
// [2^e, 2^(e+1)), the subnormals' below.
double UlpFloat(double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e);
  return std::ldexp(1.0, std::max(e - 1, -126) - 23);
}
double UlpHalf(double v) {
  int e = 0;
  std::frexp(std::fabs(v), &e);
  return std::ldexp(1.0, std::max(e - 1, -14) - 10);
}

constexpr double kFloatMax = 3.4028234663852886e38;

// Every output against its reference: NaN where the reference is NaN, the
// infinity where it is one, else within `ulps` floats of it before the
// rounding to T (half: plus half an ulp of half). A result beyond T's range
// may be the infinity of its sign. The worst error ÷ bound goes to the
// ledger under `label`.
template <typename Bits>
void ExpectWithinBound(const std::string& label, const std::vector<Bits>& in,
                       const std::vector<Bits>& out,
                       const std::function<double(double)>& reference,
                       const std::function<double(double)>& ulps,
                       double (*absolute)(double) = nullptr) {
  constexpr bool kHalf = sizeof(Bits) == 2;
  double worst_share = -1, worst_error = 0, worst_bound = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = BitsToValue(in[i]);
    const double ref = reference(x);
    const double got = BitsToValue(out[i]);
    if (std::isnan(ref) || std::isinf(ref)) {
      ASSERT_TRUE(std::isnan(ref) ? std::isnan(got) : got == ref)
          << label << "(" << x << ") = " << got << ", expected " << ref;
      continue;
    }
    const double float_error =
        ulps(x) * UlpFloat(ref) + (absolute != nullptr ? absolute(x) : 0.0);
    const double reach = std::fabs(ref) + float_error;
    const double bound =
        float_error + (kHalf ? 0.5 * UlpHalf(reach) : 0.5 * UlpFloat(reach));
    const double top = kHalf ? 65520.0 : kFloatMax * (1 + std::ldexp(1.0, -24));
    if (std::isinf(got) && std::signbit(got) == std::signbit(ref) &&
        reach >= top * (1 - std::ldexp(1.0, kHalf ? -11 : -24))) {
      continue;  // rounds beyond T's range
    }
    const double error = std::fabs(got - ref);
    ASSERT_LE(error, bound)
        << label << "(" << x << ") = " << got << ", reference " << ref;
    if (error / bound > worst_share) {
      worst_share = error / bound;
      worst_error = error;
      worst_bound = bound;
    }
  }
  if (worst_share >= 0) {
    ASSERT_TRUE(WithinBound(label, worst_error, 0.0, worst_bound));
  }
}

// ---- Inputs
// -------------------------------------------------------------------

std::vector<Bits16> EveryHalf() {
  std::vector<Bits16> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<Bits16>(i);
  return v;
}

// The floats worth naming, random bit patterns over every exponent, and
// values in [-12, 12] where most of these functions turn.
std::vector<Bits32> FloatSweep() {
  std::vector<Bits32> v;
  for (const float f : {0.0f,
                        -0.0f,
                        1.0f,
                        -1.0f,
                        0.5f,
                        -0.5f,
                        2.0f,
                        -2.0f,
                        3.0f,
                        1e-30f,
                        -1e-30f,
                        0.99f,
                        -0.99f,
                        0.001f,
                        1.4616321f,
                        -2.4570549f,
                        88.7f,
                        88.8f,
                        -87.4f,
                        -103.9f,
                        -104.0f,
                        65504.0f,
                        -65504.0f,
                        65505.0f,
                        1e20f,
                        -1e20f,
                        3.4028235e38f,
                        -3.4028235e38f,
                        1.17549435e-38f,
                        INFINITY,
                        -INFINITY,
                        NAN}) {
    v.push_back(FloatBits(f));
  }
  for (const Bits32 sub : {1u, 2u, 0x7fffffu, 0x400000u}) {
    v.push_back(sub);
    v.push_back(sub | 0x80000000u);
  }
  std::mt19937 rng(Seed());
  for (int i = 0; i < 12288; ++i) v.push_back(rng());
  std::uniform_real_distribution<float> near(-12.0f, 12.0f);
  for (int i = 0; i < 4096; ++i) v.push_back(FloatBits(near(rng)));
  while (v.size() % 8 != 0) v.push_back(FloatBits(1.0f));
  return v;
}

template <typename Bits>
std::vector<Bits> Kept(const std::vector<Bits>& in, bool (*takes)(double)) {
  std::vector<Bits> out;
  for (const Bits b : in) {
    if (takes(BitsToValue(b))) out.push_back(b);
  }
  while (out.size() % 16 != 0) out.push_back(out.front());
  return out;
}

Profile ProfileOf(const ApiInfo& a) {
  return a.on_a2 ? Profile::kA2 : Profile::k950;
}

// ---- Accuracy over whole ranges
// -----------------------------------------------

template <typename T, typename Bits>
void SweepEveryApi(const std::vector<Bits>& all, const char* type) {
  for (const ApiInfo& a : kApis) {
    const ProfileScope scope(ProfileOf(a));
    const std::vector<Bits> in = Kept(all, a.takes);
    const bool second = a.api == Api::kSinCosCos;
    const auto out = RunOnBits<T>(
        [&](Tensors<T>& t, uint32_t n) {
          Call<T>(a.api, Form::kSharedCount, t, n);
        },
        in, second);
    ExpectWithinBound(
        std::string(a.name) + "<" + type + ">", in, out, a.reference,
        [&](double) { return a.ulps; }, a.absolute);
  }
}

TEST(MathTranscendental, EveryHalf) {
  SweepEveryApi<half>(EveryHalf(), "half");
}

TEST(MathTranscendental, FloatSweepAndSpecialValues) {
  SweepEveryApi<float>(FloatSweep(), "float");
}

// Sin and Cos with RADIAN_REDUCTION (Ascend 950) take every input, ±inf and
// NaN (NaN out) included.
TEST(MathTranscendental, SinAndCosWithRadianReductionTakeAnyInput) {
  const ProfileScope scope(Profile::k950);
  const std::vector<Bits32> in = FloatSweep();
  for (const Api api : {Api::kSin, Api::kCos}) {
    const auto out = RunOnBits<float>(
        [&](Tensors<float>& t, uint32_t n) {
          Call<float>(api, Form::kSharedCount, t, n, true);
        },
        in);
    const bool sin = api == Api::kSin;
    ExpectWithinBound(
        std::string(sin ? "Sin" : "Cos") + "<float> RADIAN_REDUCTION", in, out,
        [&](double x) { return sin ? std::sin(x) : std::cos(x); },
        [](double) { return 2.0; });
  }
}

// Exp's bound by taylorExpandLevel n (docs/numerics.md): level 0 is e^x in
// float (3 ulps); above 0, 3n + 6 ulps of rounding and the series'
// remainder e/(n+1)! relative, 2^24 ulps per unit.
double ExpBoundUlps(int level) {
  if (level == 0) return 3;
  double factorial = 1;
  for (int k = 2; k <= level + 1; ++k) factorial *= k;
  return 3.0 * level + 6 + std::ldexp(M_E / factorial, 24);
}

template <int kLevel>
void ExpAtLevel() {
  const ProfileScope scope(Profile::kA2);
  const std::string level = " taylorExpandLevel " + std::to_string(kLevel);
  const auto exp_ref = [](double x) { return std::exp(x); };
  const auto bound = [](double) { return ExpBoundUlps(kLevel); };
  const std::vector<Bits16> halves = EveryHalf();
  const auto out16 = RunOnBits<half>(
      [](Tensors<half>& t, uint32_t n) {
        AscendC::Exp<half, kLevel>(t.dst, t.src, t.tmp, n);
      },
      halves);
  ExpectWithinBound("Exp<half>" + level, halves, out16, exp_ref, bound);
  const std::vector<Bits32> floats = FloatSweep();
  const auto out32 = RunOnBits<float>(
      [](Tensors<float>& t, uint32_t n) {
        AscendC::Exp<float, kLevel, false>(t.dst, t.src, n);
      },
      floats);
  ExpectWithinBound("Exp<float>" + level, floats, out32, exp_ref, bound);
}

TEST(MathTranscendental, ExpAtEveryKindOfLevel) {
  ExpAtLevel<0>();
  ExpAtLevel<3>();
  ExpAtLevel<10>();
  ExpAtLevel<15>();
}

// A scratch of the minimum (a pass of 256 bytes of input) gives the same
// bits as one pass over everything.
TEST(MathTranscendental, SmallestScratchTakesManyPasses) {
  const std::vector<Bits32> sweep = FloatSweep();
  const std::vector<Bits32> in(sweep.begin(), sweep.begin() + 1024);
  for (const Api api : {Api::kLgamma, Api::kSinCosCos}) {
    const ProfileScope scope(api == Api::kLgamma ? Profile::kA2
                                                 : Profile::k950);
    const uint32_t min_bytes = api == Api::kLgamma ? 256 : 512;
    std::vector<Bits32> outputs[2][2];  // [small, large][dst, dst1]
    for (const uint32_t bytes : {min_bytes, 8192u}) {
      Tensors<float> t(1024, bytes);
      TensorBits<float>::Write(t.src, in);
      Call<float>(api, Form::kSharedCount, t, 1024);
      outputs[bytes == 8192][0] = TensorBits<float>::Read(t.dst, 1024);
      outputs[bytes == 8192][1] = TensorBits<float>::Read(t.dst1, 1024);
    }
    EXPECT_EQ(outputs[0][0], outputs[1][0]);
    EXPECT_EQ(outputs[0][1], outputs[1][1]);
  }
}

// Every documented overload gives the same bits.
TEST(MathTranscendental, EveryOverload) {
  std::vector<Bits16> in(1024);
  std::mt19937 rng(Seed());
  for (auto& h : in) {
    // |x| below 2: in every API's domain but Acosh's, whose NaN counts too.
    h = static_cast<Bits16>(rng() % 0x4000) | ((rng() & 1) << 15);
  }
  for (const ApiInfo& a : kApis) {
    const ProfileScope scope(ProfileOf(a));
    std::vector<Bits16> first;
    for (const Form f : FormsOf(a.api)) {
      const auto out = RunOnBits<half>(
          [&](Tensors<half>& t, uint32_t n) { Call<half>(a.api, f, t, n); }, in,
          a.api == Api::kSinCosCos);
      if (first.empty()) {
        first = out;
      } else {
        EXPECT_EQ(out, first) << a.name << " form " << static_cast<int>(f);
      }
    }
  }
  const ProfileScope scope(Profile::kA2);
  const auto shared = RunOnBits<half>(
      [](Tensors<half>& t, uint32_t n) {
        Call<half>(Api::kExp, Form::kSharedCount, t, n);
      },
      in);
  const auto framework = RunOnBits<half>(
      [](Tensors<half>& t, uint32_t n) {
        Call<half>(Api::kExp, Form::kFrameworkCount, t, n);
      },
      in);
  EXPECT_EQ(shared, framework);
}

// The configs' other algos (Ascend 950) give the same, bounded results.
TEST(MathTranscendental, EveryAlgoOnAscend950) {
  const ProfileScope scope(Profile::k950);
  Tensors<float> t(64, 256);
  for (uint32_t i = 0; i < 64; ++i) t.src.SetValue(i, -0.9f + 0.03f * i);
  static constexpr AscendC::TanhConfig kTanh = {
      AscendC::TanhAlgo::SUBSECTION_COMPENSATION};
  static constexpr AscendC::ErfConfig kErf = {
      AscendC::ErfAlgo::SUBSECTION_POLYNOMIAL_APPROXIMATION};
  static constexpr AscendC::AtanConfig kAtan = {
      AscendC::AtanAlgo::POLYNOMIAL_APPROXIMATION};
  AscendC::Tanh<float, false, kTanh>(t.dst, t.src, t.tmp, 64);
  // The float nearest to tanh of the input (computed in double).
  EXPECT_EQ(
      t.dst.GetValue(3),
      static_cast<float>(std::tanh(static_cast<double>(t.src.GetValue(3)))));
  AscendC::Erf<float, false, kErf>(t.dst, t.src, 64);
  EXPECT_EQ(t.dst.GetValue(5), std::erf(t.src.GetValue(5)));
  AscendC::Atan<float, false, kAtan>(t.dst, t.src);
  EXPECT_EQ(t.dst.GetValue(7), std::atan(t.src.GetValue(7)));
}

TEST(MathTranscendental, CalCountLeavesTheRestAlone) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 256);
  for (uint32_t i = 0; i < 64; ++i) {
    t.src.SetValue(i, 1.0f);
    t.dst.SetValue(i, -7.0f);
  }
  AscendC::Lgamma(t.dst, t.src, t.tmp, 40);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(t.dst.GetValue(i), i < 40 ? 0.0f : -7.0f) << i;
  }
}

// ---- The pages' examples
// ------------------------------------------------------

// Exp's page: halves 0, 0.01, ..., 5.11 with taylorExpandLevel 15 give
// e^x, printed to eight digits (checked to the half nearest).
TEST(MathTranscendentalExamples, Exp) {
  const ProfileScope scope(Profile::kA2);
  Tensors<half> t(1024, 4096);
  for (uint32_t i = 0; i < 512; ++i) {
    t.src.SetValue(i, static_cast<half>(0.01f * static_cast<float>(i)));
  }
  AscendC::Exp<half, 15, false>(t.dst, t.src, t.tmp, 512);
  const std::vector<std::pair<uint32_t, float>> printed = {{0, 1.0f},
                                                           {1, 1.0100503f},
                                                           {2, 1.0202013f},
                                                           {3, 1.0304545f},
                                                           {511, 165.67036f}};
  for (const auto& [i, value] : printed) {
    const float got = static_cast<float>(t.dst.GetValue(i));
    EXPECT_NEAR(got, value, UlpHalf(value)) << i;
  }
}

// The other pages' printed examples: inputs and outputs as printed (half
// where the page's outputs are those of half inputs, with one ulp of half;
// float otherwise,
// to the printed digits: 2·10^-6 relative, 10^-6 at least). Log's page
// prints three examples: ln, log2 and log10. SinCos's example prints the
// sines of angles in degrees, which no call of a radian function gives, so
// it is not among them.
struct Example {
  Api api;
  bool half;
  std::vector<float> in;
  std::vector<float> printed;
};

const Example kExamples[] = {
    {Api::kLog,
     false,
     {144.22607f, 9634.764f, 1835.1245f, 3145.5125f},
     {4.971382f, 9.173133f, 7.514868f, 8.053732f}},
    {Api::kLog2,
     false,
     {6299.54f, 338.45963f, 2.853525f, 5752.1323f},
     {12.621031f, 8.40284f, 1.5127451f, 12.4898815f}},
    {Api::kLog10,
     false,
     {712.7535f, 78.36265f, 3099.0571f, 9313.082f},
     {2.8529394f, 1.8941091f, 3.4912295f, 3.9690933f}},
    {Api::kTanh,
     true,
     {-2.56f, -2.55f, -2.54f, 0.0f, 2.53f, 2.54f, 2.55f},
     {-0.98813187f, -0.9878992f, -0.98761402f, 0.0f, 0.98737127f, 0.98761402f,
      0.9878992f}},
    {Api::kSin,
     true,
     {-2.56f, -2.55f, -2.54f, 0.0f, 2.53f, 2.54f, 2.55f},
     {-0.54889839f, -0.55703507f, -0.56672889f, 0.0f, 0.57474768f, 0.56672889f,
      0.55703507f}},
    {Api::kCos,
     false,
     {0.0f, 0.01f, 0.02f, 5.10f, 5.11f},
     {1.0f, 0.999949992f, 0.999800026f, 0.377977639f, 0.387216508f}},
    {Api::kErf,
     false,
     {2.015634f, -2.3880906f, -0.2151161f, -2.5f, 0.0f, 2.5f},
     {0.99563545f, -0.999268f, -0.23903976f, -0.9995931f, 0.0f, 0.9995931f}},
    {Api::kErfc,
     false,
     {0.0f, 1.0f, 2.0f, 3.0f},
     {1.0f, 0.15729921f, 4.6777348e-03f, 2.2090497e-05f}},
    {Api::kSinh,
     true,
     {-2.56f, -2.55f, -2.54f, 2.53f, 2.54f, 2.55f},
     {-6.434f, -6.37f, -6.293f, 6.234f, 6.293f, 6.37f}},
    {Api::kCosh,
     false,
     {0.0f, 0.01f, 0.02f, 2.52f, -11.089f, 0.0f, 11.089f},
     {1.0f, 1.00005f, 1.0002f, 6.254528f, 32723.625f, 1.0f, 32723.625f}},
    {Api::kTan,
     true,
     {-2.56f, -2.55f, -2.54f, 2.53f, 2.54f, 2.55f},
     {0.6567f, 0.671f, 0.688f, -0.702f, -0.688f, -0.671f}},
    {Api::kAsin,
     false,
     {0.0f, 0.001f, 0.002f, 0.252f, 0.253f, -1.0f, 1.0f},
     {0.0f, 0.001f, 0.002f, 0.254746f, 0.255780f, -1.570796f, 1.570796f}},
    {Api::kAcos,
     false,
     {0.0f, 0.001f, 0.002f, 0.252f, 0.253f, -1.0f, 1.0f},
     {1.570796f, 1.569796f, 1.568796f, 1.316050f, 1.315016f, 3.141593f, 0.0f}},
    {Api::kAtan,
     true,
     {-2.56f, -2.55f, -2.54f, 0.0f, 2.53f, 2.54f, 2.55f},
     {-1.19847027f, -1.19717361f, -1.19560622f, 0.0f, 1.19429046f, 1.19560622f,
      1.19717361f}},
    {Api::kAsinh,
     false,
     {0.0f, 0.1f, 0.2f, 51.0f, 51.100002f},
     {0.0f, 0.099834f, 0.198690f, 4.625069f, 4.627028f}},
    {Api::kAcosh,
     false,
     {-1.0f, 0.0f, 1.0f, 2.0f, 3.0f, 4.0f},
     {NAN, NAN, 0.0f, 1.316958f, 1.762747f, 2.063437f}},
    {Api::kAtanh,
     false,
     {0.0f, 0.01f, 0.02f, 0.99f, 1.0f, 1.01f},
     {0.0f, 0.01f, 0.020003f, 2.646650f, INFINITY, NAN}},
    {Api::kDigamma,
     false,
     {5.3675685f, 0.26528683f, -2.872628f, 2.9387941f, 9.001339f},
     {1.5843406f, -3.978809f, -6.2081366f, 0.8983184f, 2.1407988f}},
    {Api::kLgamma,
     false,
     {0.0f, 0.01f, 0.02f, 0.03f, 0.04f},
     {INFINITY, 4.599480f, 3.900805f, 3.489971f, 3.197078f}},
};

template <typename T>
void ExpectExample(const Example& e) {
  Tensors<T> t(16, 512);  // a 32-byte block (or two), padded with ones
  for (uint32_t i = 0; i < 16; ++i) {
    t.src.SetValue(i, static_cast<T>(i < e.in.size() ? e.in[i] : 1.0f));
  }
  Call<T>(e.api, FormsOf(e.api).front(), t, 16);
  for (size_t i = 0; i < e.printed.size(); ++i) {
    const float got = static_cast<float>(t.dst.GetValue(i));
    const float want = e.printed[i];
    if (std::isnan(want)) {  // printed "-nan": any NaN
      EXPECT_TRUE(std::isnan(got)) << "element " << i << " of " << e.in[i];
      continue;
    }
    if (std::isinf(want)) {
      EXPECT_EQ(got, want) << "element " << i << " of " << e.in[i];
      continue;
    }
    const double tolerance =
        e.half ? UlpHalf(want) : std::max(1e-6, 2e-6 * std::fabs(want));
    EXPECT_NEAR(got, want, tolerance) << "element " << i << " of " << e.in[i];
  }
}

TEST(MathTranscendentalExamples, EveryPagesPrintedValues) {
  const ProfileScope scope(Profile::kA2);
  for (const Example& e : kExamples) {
    SCOPED_TRACE(static_cast<int>(e.api));
    if (e.half) {
      ExpectExample<half>(e);
    } else {
      ExpectExample<float>(e);
    }
  }
}

// ---- Profiles, configs, and what a call may share
// -----------------------------

TEST(MathTranscendentalChecks, ExpIsNotOnAtlasInference) {
  const ProfileScope scope(Profile::k310P);
  Tensors<float> t(64, 256);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Exp<float, 0>(t.dst, t.src, t.tmp, 64); },
      "Exp: not available on profile Atlas inference series (310p): the "
      "documentation lists Exp for Atlas A2/A3 and Ascend 950 only"));
  AscendC::Log(t.dst, t.src, 64);  // Log is there
  AscendC::Lgamma(t.dst, t.src, 64);
}

TEST(MathTranscendentalChecks, SinCosIsOnAscend950Only) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 512);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SinCos(t.dst, t.dst1, t.src, t.tmp, 64); },
      "SinCos: not available on profile Atlas A2/A3 (a2): the documentation "
      "lists SinCos for Ascend 950 only"));
}

TEST(MathTranscendentalChecks, ConfigsOtherThanTheDefaultOnAscend950Only) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 256);
  static constexpr AscendC::TanhConfig kTanh = {
      AscendC::TanhAlgo::SUBSECTION_COMPENSATION};
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Tanh<float, false, kTanh>(t.dst, t.src, 64); },
      "Tanh: config.algo is SUBSECTION_COMPENSATION, which profile Atlas "
      "A2/A3 (a2) does not take: the documentation gives TanhConfig for "
      "Ascend 950 only (elsewhere the default INTRINSIC)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sin<float, false, kSinRadian>(t.dst, t.src); },
      "Sin: config.algo is RADIAN_REDUCTION, which profile Atlas A2/A3 (a2) "
      "does not take"));
}

TEST(MathTranscendentalChecks, AtanPolynomialTakesFloatOnly) {
  const ProfileScope scope(Profile::k950);
  Tensors<half> t(64, 512);
  static constexpr AscendC::AtanConfig kAtan = {
      AscendC::AtanAlgo::POLYNOMIAL_APPROXIMATION};
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Atan<half, false, kAtan>(t.dst, t.src, t.tmp, 64); },
      "Atan: config.algo is POLYNOMIAL_APPROXIMATION, which takes float "
      "only, and T is half"));
}

// The inputs 1, but 70000 at index 9.
void SetOneBut70000(Tensors<float>& t) {
  for (uint32_t i = 0; i < 64; ++i) t.src.SetValue(i, 1.0f);
  t.src.SetValue(9, 70000.0f);
}

TEST(MathTranscendentalChecks, SinCosAndTanTakeTheirRange) {
  {
    const ProfileScope scope(Profile::kA2);
    Tensors<float> t(64, 256);
    SetOneBut70000(t);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Cos(t.dst, t.src, t.tmp, 64); },
        "Cos: srcTensor[9] is 70000, outside [-65504, 65504]: Cos takes "
        "inputs in that range only on profile Atlas A2/A3 (a2)"));
  }
  {
    const ProfileScope scope(Profile::k950);
    Tensors<float> t(64, 256);
    SetOneBut70000(t);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Sin(t.dst, t.src, 64); },
        "Sin: srcTensor[9] is 70000, outside [-65504, 65504]: Sin with "
        "POLYNOMIAL_APPROXIMATION takes inputs in that range only "
        "(RADIAN_REDUCTION takes any)"));
    AscendC::Sin<float, false, kSinRadian>(t.dst, t.src, 64);
    EXPECT_EQ(t.dst.GetValue(9), std::sin(70000.0f));
  }
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 256);
  SetOneBut70000(t);
  t.src.SetValue(9, -65504.0f);
  EXPECT_TRUE(FailsWith([&] { AscendC::Tan(t.dst, t.src); },
                        "Tan: srcTensor[9] is -65504, outside (-65504, "
                        "65504): Tan takes inputs in that range only"));
}

TEST(MathTranscendentalChecks, CalCountAndScratch) {
  {
    const ProfileScope scope(Profile::kA2);
    Tensors<float> t(64, 256);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Exp<float, 4>(t.dst, t.src, t.tmp, 65); },
        "Exp: srcLocal holds 64 floats, fewer than the 65 it must hold "
        "(calCount)"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Erfc(t.dst, t.src, t.tmp[32]); },
        "Erfc: sharedTmpBuffer holds 224 bytes, fewer than the 256 a call on "
        "floats needs (GetErfcMaxMinTmpSize's minValue: a pass of 64 "
        "elements, 4 bytes each)"));
  }
  const ProfileScope on_950(Profile::k950);
  Tensors<float> t950(64, 256);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SinCos(t950.dst, t950.dst1, t950.src, t950.tmp, 64); },
      "SinCos: sharedTmpBuffer holds 256 bytes, fewer than the 512 a call on "
      "floats needs (GetSinCosMaxMinTmpSize's minValue: a pass of 64 "
      "elements, 8 bytes each)"));
}

TEST(MathTranscendentalChecks, NothingSharesMemory) {
  const ProfileScope scope(Profile::k950);
  Tensors<float> t(64, 512);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Exp<float, 0>(t.src, t.src, 64); },
      "Exp: dstLocal (UB bytes [0, 256)) and srcLocal (UB bytes [0, 256)) "
      "overlap; Exp does not support srcLocal and dstLocal sharing memory"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Digamma(t.src[8], t.src, 16); },
                        "Digamma does not support srcTensor and dstTensor "
                        "sharing memory"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::SinCos(t.dst, t.dst, t.src, t.tmp, 64); },
      "SinCos: dst0 (UB bytes [256, 512)) and dst1 (UB bytes [256, 512)) "
      "overlap; SinCos writes dst0 and dst1 from src, so none of them may "
      "share memory with another"));
  t.pipe.Destroy();
  Tensors<float> wide(128, 512);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SinCos(wide.dst, wide.dst1, wide.src,
                        wide.src.ReinterpretCast<uint8_t>(), 64);
      },
      "SinCos: src (UB bytes [0, 256)) and sharedTmpBuffer (UB bytes [0, "
      "512)) overlap; SinCos writes its scratch, so it must not share memory "
      "with src or dst0 or dst1"));
}

}  // namespace

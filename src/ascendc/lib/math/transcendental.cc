// transcendental.cc — the rules of the Math APIs that compute a
// transcendental function: Exp, Log (Log2, Log10), Tanh, Sin, Cos, SinCos,
// Erf, Erfc, Sinh, Cosh, Tan, Asin, Acos, Atan, Asinh, Acosh, Atanh,
// Digamma and Lgamma (docs/math.md). Each is an entry of the family's table
// (elementwise.h) with its arithmetic on floats and its own checks (a
// config the profile lacks, the input range its page sets).
//
// The arithmetic is float (half widened, the result narrowed to the nearest
// half). Exp and the logarithms are branch-free float steps (a reduction of
// the argument, a polynomial, selects for the special values) in loops g++
// vectorizes; Exp with a taylorExpandLevel above 0 follows its page: e^x =
// e^floor(x) · Σ_{k=0..level} f^k/k! with f = x − floor(x), over blocks of
// elements so that each step is such a loop. Digamma is the recurrence
// ψ(x) = ψ(x+1) − 1/x up to x ≥ 6 and the asymptotic series there, with the
// reflection ψ(x) = ψ(1−x) − π/tan(πx) below 0. The others are the C
// library's float functions. The error bound of each, derived in
// docs/numerics.md ("Math: transcendental"), is checked by the tests
// against a float64 reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/elementwise.h"

namespace normgrad_ascendc {
namespace {

// ---- Exp and the logarithms: branch-free float steps ------------------------

constexpr float kLog2e = 1.44269504f;
// ln 2 in two parts: kLn2Hi has 15 significant bits, so k · kLn2Hi is exact
// for the |k| <= 255 used here.
constexpr float kLn2Hi = 0.693145751953125f;
constexpr float kLn2Lo = 1.42860677e-06f;
// log10(2) split the same way, and log10(e).
constexpr float kLog10Of2Hi = 0.301025390625f;
constexpr float kLog10Of2Lo = 4.60503898e-06f;
constexpr float kLog10e = 0.434294482f;
// 1.5 · 2^23: adding and subtracting it rounds a float below 2^22 in
// magnitude to the nearest integer (ties to even).
constexpr float kRoundMagic = 12582912.0f;
constexpr float kMinNormal = 1.17549435e-38f;

// 2^k for an integer-valued k in [-126, 127], from its bits.
inline float Pow2(float k) {
  const uint32_t bits = static_cast<uint32_t>(static_cast<int32_t>(k) + 127)
                        << 23;
  float r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

// e^x: x = k·ln 2 + r with |r| <= ln2/2 (Cody and Waite's two-part ln 2),
// e^r by its Taylor polynomial of degree 7 (Horner), times 2^k in two
// factors so that subnormal results round once. x is clamped to [-104, 89]
// first (e^-104 rounds to 0 and e^89 overflows, as every x beyond them
// must); NaN is kept.
inline float ExpStep(float x) {
  // Each select's arms are computed first: g++ turns only such selects of
  // ready values into vector blends (floating-point steps may trap).
  const float clamped = std::min(std::max(x, -104.0f), 89.0f);
  const float c = x == x ? clamped : 0.0f;
  const float k = (c * kLog2e + kRoundMagic) - kRoundMagic;
  const float r = (c - k * kLn2Hi) - k * kLn2Lo;
  float p = 1.0f / 5040;
  p = p * r + 1.0f / 720;
  p = p * r + 1.0f / 120;
  p = p * r + 1.0f / 24;
  p = p * r + 1.0f / 6;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  const float k1 = static_cast<float>(static_cast<int32_t>(k) / 2);
  const float result = p * Pow2(k1) * Pow2(k - k1);
  return x == x ? result : x;
}

// The parts of a logarithm: x = 2^exponent · m with m in [√½, √2), and
// ln m = 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716, by its series to
// s^13 (the next term is below 2^-40 of the sum). Subnormal x is scaled by
// 2^23 first. Meaningful for finite x > 0; the callers select the rest.
struct LogParts {
  float exponent;
  float ln_m;
};

inline LogParts LogPartsOf(float x) {
  const bool subnormal = x < kMinNormal;
  const float raised = x * 8388608.0f;
  const float scaled = subnormal ? raised : x;
  uint32_t bits;
  std::memcpy(&bits, &scaled, sizeof bits);
  // The bits of √½: subtracting them puts m's exponent field at 0 for m in
  // [√½, √2); the arithmetic shift keeps the exponent's sign.
  const int32_t e = static_cast<int32_t>(bits - 0x3f3504f3u) >> 23;
  const uint32_t m_bits = bits - (static_cast<uint32_t>(e) << 23);
  float m;
  std::memcpy(&m, &m_bits, sizeof m);
  const float s = (m - 1.0f) / (m + 1.0f);
  const float z = s * s;
  float q = 1.0f / 13;
  q = q * z + 1.0f / 11;
  q = q * z + 1.0f / 9;
  q = q * z + 1.0f / 7;
  q = q * z + 1.0f / 5;
  q = q * z + 1.0f / 3;
  q = q * z + 1.0f;
  return {static_cast<float>(e) - (subnormal ? 23.0f : 0.0f), 2.0f * s * q};
}

// The special values every logarithm shares: −inf at ±0, NaN below 0 and at
// NaN, +inf at +inf; `finite` elsewhere.
inline float LogSpecials(float x, float finite) {
  const float r = x == 0.0f ? -INFINITY : finite;
  const float s = (x < 0.0f) | (x != x) ? NAN : r;
  return x == INFINITY ? INFINITY : s;
}

inline float LogStep(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent * kLn2Hi + (p.exponent * kLn2Lo + p.ln_m));
}

inline float Log2Step(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent + p.ln_m * kLog2e);
}

inline float Log10Step(float x) {
  const LogParts p = LogPartsOf(x);
  return LogSpecials(x, p.exponent * kLog10Of2Hi +
                            (p.exponent * kLog10Of2Lo + p.ln_m * kLog10e));
}

// floor(x) by the rounding trick: the nearest integer, less 1 where it is
// above x; |x| >= 2^22, ±inf and NaN are their own floor.
inline float FloorStep(float x) {
  const float nearest = (x + kRoundMagic) - kRoundMagic;
  const float less_one = nearest - 1.0f;
  const float below = nearest > x ? less_one : nearest;
  return std::fabs(x) < 4194304.0f ? below : x;
}

// ---- The arithmetic ---------------------------------------------------------

// Applies `f` to every value: the loop the passes share, which g++
// vectorizes where `f` is float arithmetic (not a library call).
template <float (*f)(float)>
void Each(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = f(v[i]);
}

float TanhOf(float x) { return std::tanh(x); }
float SinOf(float x) { return std::sin(x); }
float CosOf(float x) { return std::cos(x); }
float ErfOf(float x) { return std::erf(x); }
float ErfcOf(float x) { return std::erfc(x); }
float SinhOf(float x) { return std::sinh(x); }
float CoshOf(float x) { return std::cosh(x); }
float TanOf(float x) { return std::tan(x); }
float AsinOf(float x) { return std::asin(x); }
float AcosOf(float x) { return std::acos(x); }
float AtanOf(float x) { return std::atan(x); }
float AsinhOf(float x) { return std::asinh(x); }
float AcoshOf(float x) { return std::acosh(x); }
float AtanhOf(float x) { return std::atanh(x); }

// ln|Γ(x)|; the reentrant form, as blocks run on threads at once (the sign
// it also gives is not wanted).
float LgammaOf(float x) {
  int sign = 0;
  return ::lgammaf_r(x, &sign);
}

// ψ(x) in float: poles at 0 and the negative integers (−inf at +0, +inf at
// −0 as −1/x gives, NaN at the negative integers and −inf), +inf at +inf.
float DigammaOf(float x) {
  constexpr float kPi = 3.14159265358979f;
  if (std::isnan(x) || x == -INFINITY) return NAN;
  if (x == INFINITY) return INFINITY;
  if (x == 0.0f) return std::signbit(x) ? INFINITY : -INFINITY;
  float reflection = 0.0f;
  if (x < 0.0f) {
    const float r = x - std::nearbyint(x);  // exact; |r| <= 1/2
    if (r == 0.0f) return NAN;
    reflection = -kPi / std::tan(kPi * r);  // tan(πx) = tan(πr)
    x = 1.0f - x;  // exact: a negative non-integer has |x| < 2^23
  }
  float shifted = 0.0f;  // Σ 1/x over the recurrence's steps
  while (x < 6.0f) {
    shifted += 1.0f / x;
    x += 1.0f;
  }
  const float inv = 1.0f / x;
  const float inv2 = inv * inv;
  // ln x − 1/(2x) − Σ B_2k / (2k x^2k), k = 1..4.
  const float series =
      inv2 * (1.0f / 12 -
              inv2 * (1.0f / 120 - inv2 * (1.0f / 252 - inv2 * (1.0f / 240))));
  return std::log(x) - 0.5f * inv - series - shifted + reflection;
}

// Exp: level 0 is e^x itself; above 0 the page's split into e^floor(x) and
// the Taylor series of the fraction, to the power `level`, a block of
// elements at a time so that each step is a loop over the block.
void ExpFloats(float* v, size_t n, uint32_t level) {
  if (level == 0) {
    Each<ExpStep>(v, n, 0);
    return;
  }
  constexpr size_t kBlock = 64;
  float whole[kBlock], fraction[kBlock], term[kBlock], sum[kBlock];
  for (size_t start = 0; start < n; start += kBlock) {
    float* x = v + start;
    const size_t m = std::min(kBlock, n - start);
    for (size_t i = 0; i < m; ++i) {
      whole[i] = FloorStep(x[i]);
      // ±inf: the fraction is 0 (e^±inf is the whole part's); NaN stays.
      const float difference = x[i] - whole[i];
      fraction[i] = std::fabs(x[i]) == INFINITY ? 0.0f : difference;
      term[i] = 1.0f;
      sum[i] = 1.0f;
    }
    for (uint32_t k = 1; k <= level; ++k) {
      const float kf = static_cast<float>(k);
      for (size_t i = 0; i < m; ++i) {
        term[i] = term[i] * fraction[i] / kf;
        sum[i] += term[i];
      }
    }
    for (size_t i = 0; i < m; ++i) x[i] = ExpStep(whole[i]) * sum[i];
  }
}

void SinCosFloats(float* values, float* second, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    second[i] = std::cos(values[i]);
    values[i] = std::sin(values[i]);
  }
}

// ---- The APIs' own checks ---------------------------------------------------

// The input `i` of the call as a double (half widened).
double InputAt(const ElementwiseArgs& a, uint32_t i) {
  return a.type == MathType::kHalf
             ? static_cast<double>(float(HalfData(a.src)[i]))
             : static_cast<double>(FloatData(a.src)[i]);
}

// The config's algo names, by value; the first is the default.
constexpr const char* kTanhAlgos[] = {"INTRINSIC", "SUBSECTION_COMPENSATION"};
constexpr const char* kSinCosAlgos[] = {"POLYNOMIAL_APPROXIMATION",
                                        "RADIAN_REDUCTION"};
constexpr const char* kErfAlgos[] = {"PADE_APPROXIMATION",
                                     "SUBSECTION_POLYNOMIAL_APPROXIMATION"};
constexpr const char* kAtanAlgos[] = {"TAYLOR_EXPANSION",
                                      "POLYNOMIAL_APPROXIMATION"};

// A config other than the default exists on Ascend 950 only (each page:
// "config: Ascend 950 only"); an algo outside the enum is refused too.
template <size_t kCount>
void CheckAlgo(const ElementwiseRule& r, const ElementwiseArgs& a,
               const ProfileInfo& profile, const char* config,
               const char* const (&names)[kCount]) {
  if (a.option >= kCount) {
    Fail("%s: config.algo is %u, which %s does not define (0 to %zu)", r.api,
         a.option, config, kCount - 1);
  }
  if (a.option != 0 && profile.profile != Profile::k950) {
    Fail(
        "%s: config.algo is %s, which profile %s (%s) does not take: the "
        "documentation gives %s for Ascend 950 only (elsewhere the default "
        "%s)",
        r.api, names[a.option], profile.name, profile.key, config, names[0]);
  }
}

// Every input within [-limit, limit] (open: (-limit, limit)); `why` says
// when the page sets the range.
void CheckInputRange(const ElementwiseRule& r, const ElementwiseArgs& a,
                     uint32_t count, double limit, bool open, const char* why) {
  for (uint32_t i = 0; i < count; ++i) {
    const double x = InputAt(a, i);
    const bool inside =
        open ? (x > -limit && x < limit) : (x >= -limit && x <= limit);
    if (!inside) {
      Fail("%s: %s[%u] is %g, outside %c%g, %g%c: %s", r.api, r.src_name, i, x,
           open ? '(' : '[', -limit, limit, open ? ')' : ']', why);
    }
  }
}

void CheckTanh(const ElementwiseRule& r, const ElementwiseArgs& a, uint32_t,
               const ProfileInfo& profile) {
  CheckAlgo(r, a, profile, "TanhConfig", kTanhAlgos);
}

void CheckErf(const ElementwiseRule& r, const ElementwiseArgs& a, uint32_t,
              const ProfileInfo& profile) {
  CheckAlgo(r, a, profile, "ErfConfig", kErfAlgos);
}

// Atan's POLYNOMIAL_APPROXIMATION takes float only.
void CheckAtan(const ElementwiseRule& r, const ElementwiseArgs& a, uint32_t,
               const ProfileInfo& profile) {
  CheckAlgo(r, a, profile, "AtanConfig", kAtanAlgos);
  if (a.option == 1 && a.type == MathType::kHalf) {
    Fail(
        "%s: config.algo is POLYNOMIAL_APPROXIMATION, which takes float "
        "only, and T is half",
        r.api);
  }
}

// Sin and Cos take inputs in [-65504, 65504] except with RADIAN_REDUCTION
// (Ascend 950), which takes any.
void CheckSinOrCos(const ElementwiseRule& r, const ElementwiseArgs& a,
                   uint32_t count, const ProfileInfo& profile) {
  const char* config = a.api == MathApi::kSin ? "SinConfig" : "CosConfig";
  CheckAlgo(r, a, profile, config, kSinCosAlgos);
  if (a.option == 1) return;
  char why[200];
  if (profile.profile == Profile::k950) {
    std::snprintf(why, sizeof why,
                  "%s with POLYNOMIAL_APPROXIMATION takes inputs in that "
                  "range only (RADIAN_REDUCTION takes any)",
                  r.api);
  } else {
    std::snprintf(why, sizeof why,
                  "%s takes inputs in that range only on profile %s (%s)",
                  r.api, profile.name, profile.key);
  }
  CheckInputRange(r, a, count, 65504.0, false, why);
}

void CheckTan(const ElementwiseRule& r, const ElementwiseArgs& a,
              uint32_t count, const ProfileInfo&) {
  CheckInputRange(r, a, count, 65504.0, true,
                  "Tan takes inputs in that range only");
}

constexpr char kDst[] = "dstTensor";
constexpr char kSrc[] = "srcTensor";
constexpr char kCount[] = "calCount";

// An API of half and float on the profiles `on_310p` says, dst never on
// src, with the float arithmetic `f` and its own `check`.
constexpr ElementwiseRule Unary(const char* api, bool on_310p,
                                void (*f)(float*, size_t, uint32_t),
                                void (*check)(const ElementwiseRule&,
                                              const ElementwiseArgs&, uint32_t,
                                              const ProfileInfo&) = nullptr) {
  return {
      api,   kDst, kSrc,    kCount,  false,   on_310p, false, DstOnSrc::kNever,
      false, f,    nullptr, nullptr, nullptr, check};
}

// Indexed by MathApi, from kExp.
constexpr ElementwiseRule kRules[] = {
    // Exp's page names its tensors dstLocal and srcLocal, and lists no
    // Atlas inference AI Core.
    {"Exp", "dstLocal", "srcLocal", kCount, false, false, false,
     DstOnSrc::kNever, false, ExpFloats, nullptr, nullptr, nullptr, nullptr},
    Unary("Log", true, Each<LogStep>),
    Unary("Log2", true, Each<Log2Step>),
    Unary("Log10", true, Each<Log10Step>),
    Unary("Tanh", true, Each<TanhOf>, CheckTanh),
    Unary("Sin", true, Each<SinOf>, CheckSinOrCos),
    Unary("Cos", true, Each<CosOf>, CheckSinOrCos),
    {"SinCos", "dst0", "src", "count", true, false, false, DstOnSrc::kNever,
     false, nullptr, nullptr, "dst1", SinCosFloats, nullptr},
    Unary("Erf", true, Each<ErfOf>, CheckErf),
    Unary("Erfc", true, Each<ErfcOf>),
    Unary("Sinh", true, Each<SinhOf>),
    Unary("Cosh", true, Each<CoshOf>),
    Unary("Tan", true, Each<TanOf>, CheckTan),
    Unary("Asin", true, Each<AsinOf>),
    Unary("Acos", true, Each<AcosOf>),
    Unary("Atan", true, Each<AtanOf>, CheckAtan),
    Unary("Asinh", true, Each<AsinhOf>),
    Unary("Acosh", true, Each<AcoshOf>),
    Unary("Atanh", true, Each<AtanhOf>),
    Unary("Digamma", true, Each<DigammaOf>),
    Unary("Lgamma", true, Each<LgammaOf>),
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(MathApi::kLgamma) -
                      static_cast<size_t>(MathApi::kExp) + 1,
              "one rule per transcendental MathApi, in its order");

}  // namespace

const ElementwiseRule& TranscendentalRule(MathApi api) {
  return kRules[static_cast<size_t>(api) - static_cast<size_t>(MathApi::kExp)];
}

}  // namespace normgrad_ascendc

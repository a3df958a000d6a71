// transcendental.cc — the rules of the Math APIs that compute a
// transcendental function: Exp, Log (Log2, Log10), Tanh, Sin, Cos, SinCos,
// Erf, Erfc, Sinh, Cosh, Tan, Asin, Acos, Atan, Asinh, Acosh, Atanh,
// Digamma and Lgamma (docs/math.md). Each is an entry of the family's table
// (elementwise.h) with its arithmetic on floats and its own checks (a
// config the profile lacks, the input range its page sets).
//
// The arithmetic is float (half widened, the result narrowed to the nearest
// half). Exp and the logarithms are branch-free float steps (a reduction of
// the argument, a polynomial, selects for the special values) run by the
// instruction set's loops (src/kernels/vector/advanced_inl.h, which has
// their steps; the same bits on every set); so are Sin, Cos, SinCos, Tan,
// Tanh, Sinh, Cosh, the inverse functions (Asin, Acos, Atan, Asinh, Acosh,
// Atanh: advanced_inverse_inl.h) and Erf, Erfc, Lgamma and Digamma
// (advanced_special_inl.h: a series and a continued fraction; the
// recurrence, the asymptotic series and the reflection), computed in double
// lanes from the float input and rounded once (Sin, Cos and Tan beyond
// |x| = 65536, at ±inf and NaN the C library's float functions); Exp with a
// taylorExpandLevel above 0 follows its page: e^x = e^floor(x) ·
// Σ_{k=0..level} f^k/k! with f = x − floor(x). The error bound of each,
// derived in docs/numerics.md ("Math: transcendental"), is checked by the
// tests against a float64 reference.
#include <cmath>
#include <cstdio>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/elementwise.h"

namespace normgrad_ascendc {
namespace {

using normgrad::kernels::MathStep;

// ---- The arithmetic ---------------------------------------------------------

// Applies `f`, a C library function, to every value.
template <float (*f)(float)>
void Each(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = f(v[i]);
}

// Cos's pass on a copy into `second`, then Sin's in place.
void SinCosFloats(float* values, float* second, size_t n) {
  std::memcpy(second, values, n * sizeof(float));
  ThroughLoops<MathStep::kCos>(second, n, 0);
  ThroughLoops<MathStep::kSin>(values, n, 0);
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
     DstOnSrc::kNever, false, ThroughLoops<MathStep::kExp>, nullptr, nullptr,
     nullptr, nullptr},
    Unary("Log", true, ThroughLoops<MathStep::kLog>),
    Unary("Log2", true, ThroughLoops<MathStep::kLog2>),
    Unary("Log10", true, ThroughLoops<MathStep::kLog10>),
    Unary("Tanh", true, ThroughLoops<MathStep::kTanh>, CheckTanh),
    Unary("Sin", true, ThroughLoops<MathStep::kSin>, CheckSinOrCos),
    Unary("Cos", true, ThroughLoops<MathStep::kCos>, CheckSinOrCos),
    {"SinCos", "dst0", "src", "count", true, false, false, DstOnSrc::kNever,
     false, nullptr, nullptr, "dst1", SinCosFloats, nullptr},
    Unary("Erf", true, ThroughLoops<MathStep::kErf>, CheckErf),
    Unary("Erfc", true, ThroughLoops<MathStep::kErfc>),
    Unary("Sinh", true, ThroughLoops<MathStep::kSinh>),
    Unary("Cosh", true, ThroughLoops<MathStep::kCosh>),
    Unary("Tan", true, ThroughLoops<MathStep::kTan>, CheckTan),
    Unary("Asin", true, ThroughLoops<MathStep::kAsin>),
    Unary("Acos", true, ThroughLoops<MathStep::kAcos>),
    Unary("Atan", true, ThroughLoops<MathStep::kAtan>, CheckAtan),
    Unary("Asinh", true, ThroughLoops<MathStep::kAsinh>),
    Unary("Acosh", true, ThroughLoops<MathStep::kAcosh>),
    Unary("Atanh", true, ThroughLoops<MathStep::kAtanh>),
    Unary("Digamma", true, ThroughLoops<MathStep::kDigamma>),
    Unary("Lgamma", true, ThroughLoops<MathStep::kLgamma>),
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

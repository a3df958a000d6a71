// elementwise_rules.cc — the rules of the elementwise activation APIs:
// Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU, GeGLU and
// ReGlu (docs/activation.md). Each is an entry of one table (elementwise.h)
// with its arithmetic: the page's formula evaluated in float, one rounding
// per operation in the order written (docs/numerics.md, "Activation:
// elementwise", derives the error of each against the formula in double).
// Exponentials are std::exp on float; an argument beyond float's range gives
// 0 or +inf, and the quotient then its limit (0 or the numerator).
#include <cmath>

#include "ascendc/lib/activation/elementwise.h"

namespace normgrad_ascendc {
namespace activation {
namespace {

// The tanh approximation of Gelu as GeGLU's page writes it:
// x / (1 + e^(a·(x³ + b·x))).
constexpr float kGeluA = -0.0713548162726f;
constexpr float kGeluB = 22.363860002236f;

// FasterGelu: x / (1 + e^(-1.702·x)).
constexpr float kFasterGeluScale = -1.702f;

// FasterGeluV2: x·(1/2 + sgn(x)·(1/2 + p·(min(c·|x|, -q) + q)²)).
constexpr float kV2P = -0.1444f;
constexpr float kV2Q = -1.769f;
constexpr float kV2C = 0.70710678118654752f;

// x / (1 + e^t), the quotient every exponential form here shares.
inline float OverOnePlusExp(float x, float t) {
  return x / (1.0f + std::exp(t));
}

inline float GeluOf(float x) {
  return OverOnePlusExp(x, kGeluA * (x * x * x + kGeluB * x));
}

void SigmoidFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(1.0f, -v[i]);
}

void SiluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(v[i], -v[i]);
}

// The sign of β as the page's example computes it (docs/decisions.md,
// "Activation: elementwise").
void SwishFloats(float* v, const float*, size_t n, float beta) {
  for (size_t i = 0; i < n; ++i) v[i] = OverOnePlusExp(v[i], beta * v[i]);
}

void GeluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = GeluOf(v[i]);
}

void FasterGeluFloats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    v[i] = OverOnePlusExp(v[i], kFasterGeluScale * v[i]);
  }
}

// sgn(0) = sgn(NaN) = 0; x·(…) keeps NaN, and ±0 stays ±0.
void FasterGeluV2Floats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    const float x = v[i];
    const float sign = x > 0.0f ? 1.0f : (x < 0.0f ? -1.0f : 0.0f);
    const float scaled = kV2C * std::fabs(x);
    const float clipped = (scaled < -kV2Q ? scaled : -kV2Q) + kV2Q;
    const float half_erf = 0.5f + kV2P * (clipped * clipped);
    v[i] = x * (0.5f + sign * half_erf);
  }
}

// x0 · Swish(x1) with Swish(x1) = x1 / (1 + e^(-β·x1)) (the page's example).
void SwiGluFloats(float* v, const float* gate, size_t n, float beta) {
  for (size_t i = 0; i < n; ++i) {
    v[i] = v[i] * OverOnePlusExp(gate[i], -beta * gate[i]);
  }
}

void GeGluFloats(float* v, const float* gate, size_t n, float) {
  for (size_t i = 0; i < n; ++i) v[i] = v[i] * GeluOf(gate[i]);
}

// x0 · max(x1, 0): +0 for a negative or zero x1, NaN kept.
void ReGluFloats(float* v, const float* gate, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    const float g = gate[i];
    v[i] = v[i] * (g > 0.0f || g != g ? g : 0.0f);
  }
}

constexpr char kDstTensor[] = "dstTensor";
constexpr char kDstLocal[] = "dstLocal";
constexpr char kSrcLocal[] = "srcLocal";
constexpr char kSrc0[] = "srcTensor0";
constexpr char kSrc1[] = "srcTensor1";
constexpr char kCalCount[] = "calCount";
constexpr char kDataSize[] = "dataSize";
constexpr char kGeluQuery[] = "GetGeluMaxMinTmpSize";

// Indexed by ActivationApi.
constexpr Rule kRules[] = {
    {"Sigmoid", kDstTensor, "srcTensor", nullptr, kCalCount,
     "GetSigmoidMaxMinTmpSize", false, SigmoidFloats},
    {"Silu", kDstLocal, kSrcLocal, nullptr, kDataSize, "GetSiluTmpSize", false,
     SiluFloats},
    {"Swish", kDstLocal, kSrcLocal, nullptr, kDataSize, "GetSwishTmpSize",
     false, SwishFloats},
    {"Gelu", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     GeluFloats},
    {"FasterGelu", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     FasterGeluFloats},
    {"FasterGeluV2", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     FasterGeluV2Floats},
    {"SwiGLU", kDstTensor, kSrc0, kSrc1, kCalCount, "GetSwiGLUMaxMinTmpSize",
     false, SwiGluFloats},
    {"GeGLU", kDstTensor, kSrc0, kSrc1, kCalCount, "GetGeGLUMaxMinTmpSize",
     false, GeGluFloats},
    {"ReGlu", kDstTensor, kSrc0, kSrc1, kCalCount, "GetReGluMaxMinTmpSize",
     false, ReGluFloats},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(ActivationApi::kReGlu) + 1,
              "one rule per ActivationApi, in its order");

}  // namespace

const Rule& RuleOf(ActivationApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace activation
}  // namespace normgrad_ascendc

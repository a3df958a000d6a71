// elementwise_rules.cc — the rules of the elementwise activation APIs:
// Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU, GeGLU and
// ReGlu (docs/activation.md). Each is an entry of one table (elementwise.h)
// with its arithmetic: the page's formula evaluated in float, one rounding
// per operation in the order written (docs/numerics.md, "Activation:
// elementwise", derives the error of each against the formula in double).
// The loops have no branches and no library calls, so the compiler
// vectorizes them; the same source gives the same bits on every instruction
// set (no fused multiply-add: -ffp-contract=off).
#include <cmath>
#include <cstdint>
#include <cstring>

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

inline uint32_t BitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

inline float FloatOf(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

// e^t in float, without branches: t = k·ln2 + r with |r| <= ln2/2 (k·ln2
// split in two parts so that the reduction loses nothing), e^r by its
// Taylor polynomial of degree 7, and 2^k applied as two exact power-of-two
// factors, so that results below 2^-126 round once into the subnormals and
// results above float's range become +inf. Within 2.6u of e^t
// (docs/numerics.md, "Activation: elementwise"); t is clamped to
// [-104, 89], beyond which e^t rounds to 0 or +inf anyway; NaN stays NaN.
inline float ExpOf(float t) {
  constexpr float kLog2e = 1.44269502f;
  constexpr float kLn2Hi = 0.693145751953125f;  // 16 bits: k·kLn2Hi is exact
  constexpr float kLn2Lo = 1.428606765330187e-06f;  // ln2 - kLn2Hi
  constexpr float kShifter = 12582912.0f;  // 1.5·2^23: + rounds to an integer
  const float c = t < -104.0f ? -104.0f : (t > 89.0f ? 89.0f : t);
  const float shifted = c * kLog2e + kShifter;
  const float k = shifted - kShifter;
  const float r = (c - k * kLn2Hi) - k * kLn2Lo;
  float p = 1.0f / 5040.0f;
  p = p * r + 1.0f / 720.0f;
  p = p * r + 1.0f / 120.0f;
  p = p * r + 1.0f / 24.0f;
  p = p * r + 1.0f / 6.0f;
  p = p * r + 0.5f;
  p = p * r + 1.0f;
  p = p * r + 1.0f;
  // k in [-150, 128], the integer in shifted's low bits; 2^k = 2^k1 · 2^k2
  // with both factors normal floats.
  const int32_t ki = static_cast<int32_t>(BitsOf(shifted) - BitsOf(kShifter));
  const int32_t k1 = ki / 2;
  const int32_t k2 = ki - k1;
  return p * FloatOf(static_cast<uint32_t>(k1 + 127) << 23) *
         FloatOf(static_cast<uint32_t>(k2 + 127) << 23);
}

// x / (1 + e^t), the quotient every exponential form here shares.
inline float OverOnePlusExp(float x, float t) { return x / (1.0f + ExpOf(t)); }

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

// sgn(x)·h as h with x's sign: the same for x != 0, and for x = ±0 the
// product x·(…) is ±0 either way (the factor is positive); NaN stays NaN.
void FasterGeluV2Floats(float* v, const float*, size_t n, float) {
  for (size_t i = 0; i < n; ++i) {
    const float x = v[i];
    const float scaled = kV2C * std::fabs(x);
    const float clipped = (scaled < -kV2Q ? scaled : -kV2Q) + kV2Q;
    const float half_erf = 0.5f + kV2P * (clipped * clipped);
    v[i] = x * (0.5f + std::copysign(half_erf, x));
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

// rounding.cc — the rules of the Math APIs that round or split a value:
// Ceil, Floor, Round, Trunc, Frac, Rint and Sign (docs/math.md). Each is an
// entry of one table (elementwise.h) with its arithmetic on floats, which is
// exact: the result is an integer or a difference of a value and its
// integral part, both representable in the input's type, so computing half
// in float and narrowing changes nothing (docs/numerics.md, "Math:
// rounding").
#include <cmath>

#include "ascendc/lib/math/elementwise.h"

namespace normgrad_ascendc {
namespace {

void CeilFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = std::ceil(v[i]);
}

void FloorFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = std::floor(v[i]);
}

// To nearest, a tie to even: the default rounding mode, which no kernel
// changes.
void NearestEvenFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = std::nearbyint(v[i]);
}

void TruncFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = std::trunc(v[i]);
}

// x - Trunc(x), as the page defines it: +0 for an integral x of either
// sign, NaN for ±inf (docs/decisions.md, "Math: the first batch").
void FracFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) v[i] = v[i] - std::trunc(v[i]);
}

// 1 or -1 by the sign; +0 for ±0 and NaN (the page's example).
void SignFloats(float* v, size_t n, uint32_t) {
  for (size_t i = 0; i < n; ++i) {
    v[i] = v[i] > 0.0f ? 1.0f : (v[i] < 0.0f ? -1.0f : 0.0f);
  }
}

void SignInt64(int64_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) v[i] = (v[i] > 0) - (v[i] < 0);
}

constexpr char kDst[] = "dstTensor";
constexpr char kSrc[] = "srcTensor";
constexpr char kCount[] = "calCount";

// Indexed by MathApi, from kCeil.
constexpr ElementwiseRule kRules[] = {
    {"Ceil", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     CeilFloats, nullptr, nullptr, nullptr, nullptr},
    {"Floor", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     FloorFloats, nullptr, nullptr, nullptr, nullptr},
    {"Round", kDst, kSrc, kCount, false, true, false, DstOnSrc::kSameTensorOk,
     false, NearestEvenFloats, nullptr, nullptr, nullptr, nullptr},
    {"Trunc", kDst, kSrc, kCount, false, true, false, DstOnSrc::kSameTensorOk,
     true, TruncFloats, nullptr, nullptr, nullptr, nullptr},
    {"Frac", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     FracFloats, nullptr, nullptr, nullptr, nullptr},
    {"Rint", "dst", "src", "count", true, false, false, DstOnSrc::kNever, false,
     NearestEvenFloats, nullptr, nullptr, nullptr, nullptr},
    {"Sign", kDst, kSrc, kCount, false, true, true, DstOnSrc::kNever, false,
     SignFloats, SignInt64, nullptr, nullptr, nullptr},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(MathApi::kSign) + 1,
              "one rule per MathApi, in its order");

}  // namespace

const ElementwiseRule& RoundingRule(MathApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace normgrad_ascendc

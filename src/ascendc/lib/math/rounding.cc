// rounding.cc — the rules of the Math APIs that round or split a value:
// Ceil, Floor, Round, Trunc, Frac, Rint and Sign (docs/math.md). Each is an
// entry of one table (elementwise.h) with its arithmetic on floats, which is
// exact: the result is an integer or a difference of a value and its
// integral part, both representable in the input's type, so computing half
// in float and narrowing changes nothing (docs/numerics.md, "Math:
// rounding"). The float arithmetic is the instruction set's loops
// (src/kernels/vector/advanced_inl.h): Round and Rint round to nearest, a
// tie to even (the default rounding mode, which no kernel changes); Frac is
// x − Trunc(x), as the page defines it: +0 for an integral x of either sign,
// NaN for ±inf (docs/decisions.md, "Math: the first batch"); Sign is 1 or −1
// by the sign, +0 for ±0 and NaN (the page's example).
#include "ascendc/lib/math/elementwise.h"

namespace normgrad_ascendc {
namespace {

using normgrad::kernels::MathStep;

void SignInt64(int64_t* v, size_t n) {
  for (size_t i = 0; i < n; ++i) v[i] = (v[i] > 0) - (v[i] < 0);
}

constexpr char kDst[] = "dstTensor";
constexpr char kSrc[] = "srcTensor";
constexpr char kCount[] = "calCount";

// Indexed by MathApi, from kCeil.
constexpr ElementwiseRule kRules[] = {
    {"Ceil", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     ThroughLoops<MathStep::kCeil>, nullptr, nullptr, nullptr, nullptr},
    {"Floor", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     ThroughLoops<MathStep::kFloor>, nullptr, nullptr, nullptr, nullptr},
    {"Round", kDst, kSrc, kCount, false, true, false, DstOnSrc::kSameTensorOk,
     false, ThroughLoops<MathStep::kNearestEven>, nullptr, nullptr, nullptr,
     nullptr},
    {"Trunc", kDst, kSrc, kCount, false, true, false, DstOnSrc::kSameTensorOk,
     true, ThroughLoops<MathStep::kTrunc>, nullptr, nullptr, nullptr, nullptr},
    {"Frac", kDst, kSrc, kCount, false, true, false, DstOnSrc::kNever, true,
     ThroughLoops<MathStep::kFrac>, nullptr, nullptr, nullptr, nullptr},
    {"Rint", "dst", "src", "count", true, false, false, DstOnSrc::kNever, false,
     ThroughLoops<MathStep::kNearestEven>, nullptr, nullptr, nullptr, nullptr},
    {"Sign", kDst, kSrc, kCount, false, true, true, DstOnSrc::kNever, false,
     ThroughLoops<MathStep::kSign>, SignInt64, nullptr, nullptr, nullptr},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(MathApi::kSign) + 1,
              "one rule per MathApi, in its order");

}  // namespace

const ElementwiseRule& RoundingRule(MathApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace normgrad_ascendc

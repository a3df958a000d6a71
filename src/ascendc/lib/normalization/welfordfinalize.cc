// welfordfinalize.cc — AscendC::WelfordFinalize on the emulated core: the
// checks (tensor placement, the para's rules per profile, isCorrection's
// profile, tensor lengths, the scratch size, overlaps), then the two sums of
// docs/welfordfinalize.md, "Numeric order", in float and in lane order.
#include "lib/normalization/welfordfinalize.h"

#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {
namespace {

constexpr char kApi[] = "WelfordFinalize";

void CheckPara(const WelfordFinalizeArgs& a, const ProfileInfo& profile) {
  const AscendC::WelfordFinalizePara& p = a.para;
  if (p.abLength == 0 || p.abLength % 8 != 0) {
    Fail(
        "WelfordFinalize: para.abLength is %u; it must be a positive multiple "
        "of "
        "32 / sizeof(float) = 8",
        p.abLength);
  }
  if (a.correction && profile.profile != Profile::k950) {
    Fail(
        "WelfordFinalize: config.isCorrection is true on profile %s; the "
        "corrected "
        "variance (rRecWithCorrection) is supported on Ascend 950 only",
        profile.name);
  }
  if (a.counts != nullptr)
    return;  // the head and tail fields serve the form without counts
  if (uint64_t{p.headCountLength} + p.tailCountLength != p.abLength) {
    Fail(
        "WelfordFinalize: para.headCountLength %u + para.tailCountLength %u is "
        "not "
        "para.abLength %u; they must add up to it",
        p.headCountLength, p.tailCountLength, p.abLength);
  }
  if (p.tailCount == 0 && p.tailCountLength != 0 &&
      profile.profile != Profile::k950) {
    Fail(
        "WelfordFinalize: para.tailCount is 0 but para.tailCountLength is %u; "
        "on profile "
        "%s a zero tailCount needs tailCountLength 0",
        p.tailCountLength, profile.name);
  }
}

void CheckLengths(const WelfordFinalizeArgs& a) {
  const uint32_t ab = a.para.abLength;
  const struct {
    const char* name;
    const TensorView* view;
    uint32_t needed;
    const char* rule;
  } tensors[] = {
      {"outputMean", &a.output_mean, 1, "its one result"},
      {"outputVariance", &a.output_variance, 1, "its one result"},
      {"inputMean", &a.input_mean, ab, "para.abLength"},
      {"inputVariance", &a.input_variance, ab, "para.abLength"},
      {"counts", a.counts, ab, "para.abLength"},
  };
  for (const auto& t : tensors) {
    if (t.view == nullptr) continue;
    const uint32_t elements = t.view->bytes / 4;
    if (elements < t.needed) {
      Fail("WelfordFinalize: %s holds %u elements, fewer than %u (%s)", t.name,
           elements, t.needed, t.rule);
    }
  }
}

}  // namespace

void RunWelfordFinalize(const WelfordFinalizeArgs& a) {
  CheckPlacements(kApi, {{"outputMean", a.output_mean},
                         {"outputVariance", a.output_variance},
                         {"inputMean", a.input_mean},
                         {"inputVariance", a.input_variance}});
  if (a.counts != nullptr) CheckPlacement(kApi, "counts", *a.counts);
  const ProfileInfo& profile = a.input_mean.core->profile();
  CheckPara(a, profile);
  CheckLengths(a);

  const AscendC::WelfordFinalizePara& p = a.para;
  const uint64_t min_bytes = WelfordFinalizeMinTmpBytes(p.abLength);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch = SharedOrFrameworkScratch(a.shared_tmp, 0);
  CheckPlacement(kApi, scratch_name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "WelfordFinalize: %s holds %u bytes, fewer than the minimum %llu "
        "(GetWelfordFinalizeMaxMinTmpSize for abLength %u)",
        scratch_name, scratch.bytes, static_cast<unsigned long long>(min_bytes),
        p.abLength);
  }
  const uint64_t ab_bytes = uint64_t{p.abLength} * 4;
  const TensorView none;
  const UbOperand ops[] = {
      {"outputMean", &a.output_mean, 4, true},
      {"outputVariance", &a.output_variance, 4, true},
      {"inputMean", &a.input_mean, ab_bytes, false},
      {"inputVariance", &a.input_variance, ab_bytes, false},
      {"counts", a.counts != nullptr ? a.counts : &none,
       a.counts != nullptr ? ab_bytes : 0, false},
      {scratch_name, &scratch, scratch.bytes, true},
  };
  CheckOverlaps(kApi, ops, sizeof ops / sizeof ops[0]);

  const uint32_t n = p.abLength;
  const float* m = FloatData(a.input_mean);
  const float* big_m = FloatData(a.input_variance);
  const int32_t* counts =
      a.counts != nullptr ? reinterpret_cast<const int32_t*>(a.counts->data())
                          : nullptr;
  // Every lane saw rnLength values unless counts or a tail say otherwise.
  const bool uniform = counts == nullptr && p.tailCountLength == 0;
  auto weight = [&](uint32_t i) -> float {
    if (counts != nullptr) return static_cast<float>(counts[i]);
    if (uniform) return static_cast<float>(p.rnLength);
    return static_cast<float>(i < p.headCountLength ? p.headCount
                                                    : p.tailCount);
  };
  // Each sum as the vector unit's row sum (RowSum), then scaled once by its
  // coefficient.
  const float weighted =
      RowSum(n, [&](uint32_t i) { return uniform ? m[i] : weight(i) * m[i]; });
  const float mean = weighted * (uniform ? p.abRec : p.rRec);
  const float deviations = RowSum(n, [&](uint32_t i) {
    const float d = m[i] - mean;
    return (d * d) * weight(i) + big_m[i];
  });
  const float variance =
      deviations * (a.correction ? p.rRecWithCorrection : p.rRec);
  FloatData(a.output_mean)[0] = mean;
  FloatData(a.output_variance)[0] = variance;
}

}  // namespace normgrad_ascendc

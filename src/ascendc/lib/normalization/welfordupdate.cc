// welfordupdate.cc — AscendC::WelfordUpdate on the emulated core: the checks
// (tensor placement, the para's rules, tensor lengths, the type on the
// profile, the scratch size, overlaps), then the element-wise update of
// docs/welfordupdate.md, "Numeric order", in float; what isReuseSource
// overwrites and what isInplace copies.
#include "lib/normalization/welfordupdate.h"

#include <algorithm>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {
namespace {

constexpr char kApi[] = "WelfordUpdate";

// inputX's element type.
Element ElementOfX(const WelfordUpdateArgs& a) {
  return ElementOf(a.type, "bfloat16_t elements");
}

// isReuseSource takes effect for float inputX on the profiles that honour it
// (the Atlas inference series reserves the parameter).
bool FloatReuse(const WelfordUpdateArgs& a, Profile profile) {
  return a.type == ElementType::kFloat && a.reuse_source &&
         profile != Profile::k310P;
}

// The rows of a call: para.rnLength on the Ascend 950 profile, whose
// programs pass their row count there (docs/decisions.md); elsewhere the
// reserved 1.
uint32_t Rows(const WelfordUpdateArgs& a) {
  return a.input_x.core->profile().profile == Profile::k950 ? a.para.rnLength
                                                            : 1;
}

void CheckPara(const AscendC::WelfordUpdateParam& p, ElementType type,
               const Element& x, Profile profile) {
  if (profile == Profile::k950) {
    if (p.rnLength == 0) {
      Fail(
          "WelfordUpdate: para.rnLength is 0; it must be at least 1 (the rows "
          "of [rnLength, abLength] on profile Ascend 950)");
    }
  } else if (p.rnLength != 1) {
    Fail("WelfordUpdate: para.rnLength is %u; it must be 1", p.rnLength);
  }
  const uint32_t multiple = kBlockBytes / x.bytes;
  if (p.abLength == 0 || p.abLength % multiple != 0) {
    Fail(
        "WelfordUpdate: para.abLength is %u; it must be a positive multiple of "
        "32 / sizeof(T) = %u (T = %s)",
        p.abLength, multiple, ElementTypeName(type));
  }
  if (p.abComputeLength == 0 || p.abComputeLength > p.abLength) {
    Fail(
        "WelfordUpdate: para.abComputeLength is %u; it must be in [1, "
        "para.abLength %u]",
        p.abComputeLength, p.abLength);
  }
}

void CheckLengths(const WelfordUpdateArgs& a) {
  const uint64_t ab = uint64_t{Rows(a)} * a.para.abLength;
  const struct {
    const char* name;
    const TensorView& view;
    Element e;
  } tensors[] = {
      {"outputMean", a.output_mean, kFloatElement},
      {"outputVariance", a.output_variance, kFloatElement},
      {"inputMean", a.input_mean, kFloatElement},
      {"inputVariance", a.input_variance, kFloatElement},
      {"inputX", a.input_x, ElementOfX(a)},
  };
  for (const auto& t : tensors) {
    const uint32_t elements = t.view.bytes / t.e.bytes;
    if (elements < ab) {
      Fail(
          "WelfordUpdate: %s holds %u %s, fewer than para.rnLength * "
          "para.abLength = %llu",
          t.name, elements, t.e.plural, static_cast<unsigned long long>(ab));
    }
  }
}

// The call writes the outputs, the scratch and, with float isReuseSource,
// inputX; none of them may share memory with another operand.
void CheckWelfordOverlaps(const WelfordUpdateArgs& a, bool float_reuse,
                          const TensorView& scratch, uint64_t scratch_bytes,
                          const char* scratch_name) {
  const uint64_t ab = uint64_t{Rows(a)} * a.para.abLength;
  const UbOperand ops[] = {
      {"outputMean", &a.output_mean, ab * 4, true},
      {"outputVariance", &a.output_variance, ab * 4, true},
      {"inputMean", &a.input_mean, ab * 4, false},
      {"inputVariance", &a.input_variance, ab * 4, false},
      {"inputX", &a.input_x, ab * ElementOfX(a).bytes, float_reuse},
      {scratch_name, &scratch, scratch_bytes, true},
  };
  CheckOverlaps(kApi, ops, sizeof ops / sizeof ops[0]);
}

// Elements [start, start + count) of inputX widened to float into x.
void WidenX(const WelfordUpdateArgs& a, uint32_t start, uint32_t count,
            float* x) {
  switch (a.type) {
    case ElementType::kFloat:
      std::memcpy(x, FloatData(a.input_x) + start, count * sizeof(float));
      return;
    case ElementType::kHalf:
      normgrad::Widen(HalfData(a.input_x) + start, x, count);
      return;
    case ElementType::kBfloat16:
      normgrad::Widen(Bfloat16Data(a.input_x) + start, x, count);
      return;
  }
}

}  // namespace

void RunWelfordUpdate(const WelfordUpdateArgs& a) {
  CheckPlacements(kApi, {{"outputMean", a.output_mean},
                         {"outputVariance", a.output_variance},
                         {"inputMean", a.input_mean},
                         {"inputVariance", a.input_variance},
                         {"inputX", a.input_x}});
  const ProfileInfo& profile = a.input_x.core->profile();
  if (a.type == ElementType::kBfloat16 && profile.profile != Profile::k950) {
    Fail(
        "WelfordUpdate: T = bfloat16_t is not supported on profile %s; it is "
        "supported on Ascend 950 only (half and float on every profile)",
        profile.name);
  }
  CheckPara(a.para, a.type, ElementOfX(a), profile.profile);
  CheckLengths(a);

  const uint32_t ab = a.para.abLength;
  const bool float_reuse = FloatReuse(a, profile.profile);
  const uint64_t min_bytes =
      WelfordUpdateMinTmpBytes(ab, ElementOfX(a).bytes, float_reuse);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch = SharedOrFrameworkScratch(a.shared_tmp, 0);
  if (min_bytes > 0) {
    CheckPlacement(kApi, scratch_name, scratch);
    if (scratch.bytes < min_bytes) {
      Fail(
          "WelfordUpdate: %s holds %u bytes, fewer than the minimum %llu "
          "(GetWelfordUpdateMaxMinTmpSize for abLength %u, T = %s%s)",
          scratch_name, scratch.bytes,
          static_cast<unsigned long long>(min_bytes), ab,
          ElementTypeName(a.type),
          a.reuse_source && a.type == ElementType::kFloat
              ? ", isReuseSource ignored on this profile"
              : "");
    }
  }
  CheckWelfordOverlaps(a, float_reuse, scratch,
                       min_bytes > 0 ? scratch.bytes : 0, scratch_name);

  // No output overlaps an input (checked above), so writing element j never
  // changes what a later element reads.
  const uint32_t n = a.para.abComputeLength;
  const float nrec = a.para.nRec;
  const uint32_t rows = Rows(a);
  for (uint32_t row = 0; row < rows; ++row) {
    // Row `row` of every operand starts row * abLength elements in.
    const uint64_t at = uint64_t{row} * ab;
    const float* mean_in = FloatData(a.input_mean) + at;
    const float* var_in = FloatData(a.input_variance) + at;
    float* mean_out = FloatData(a.output_mean) + at;
    float* var_out = FloatData(a.output_variance) + at;
    float* reused = float_reuse ? FloatData(a.input_x) + at : nullptr;
    // One vector repeat at a time; each element depends on itself alone, so
    // the chunking changes no bit.
    float x[kWelfordUpdateMinChunk];
    for (uint32_t start = 0; start < n; start += kWelfordUpdateMinChunk) {
      const uint32_t count = std::min(kWelfordUpdateMinChunk, n - start);
      WidenX(a, static_cast<uint32_t>(at) + start, count, x);
      for (uint32_t k = 0; k < count; ++k) {
        const uint32_t j = start + k;
        const float delta = x[k] - mean_in[j];
        const float mean = mean_in[j] + delta * nrec;
        const float m2 = var_in[j] + delta * (x[k] - mean);
        mean_out[j] = mean;
        var_out[j] = m2;
        if (reused != nullptr) reused[j] = delta;
      }
    }
    if (a.inplace) {
      std::memcpy(mean_out + n, mean_in + n, uint64_t{ab - n} * 4);
      std::memcpy(var_out + n, var_in + n, uint64_t{ab - n} * 4);
    }
  }
}

}  // namespace normgrad_ascendc

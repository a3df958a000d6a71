// groupnorm.cc — AscendC::GroupNorm on the emulated core: the checks (profile,
// tensor placement, lengths and overlaps; the tiling's shape, chunking and
// scratch regions; gamma and beta within [-100, 100]), then the numeric order
// of docs/groupnorm.md chunk by chunk in float with the tiling's scratch
// layout, half widened on the way in and narrowed on the way out.
#include "lib/normalization/groupnorm.h"

#include <atomic>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "ascendc/lib/normalization/standardize.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace normgrad_ascendc {
namespace {

using AscendC::GroupNormTiling;

constexpr char kApi[] = "GroupNorm";
constexpr float kParamLimit = 100.0f;  // gamma and beta lie in [-100, 100]

void CheckProfile(const TensorView& any) {
  const ProfileInfo& p = any.core->profile();
  if (p.profile == Profile::k310P) {
    Fail(
        "GroupNorm: the profile %s (%s) has no GroupNorm; it runs on the a2 "
        "(Atlas A2/A3) and 950 (Ascend 950) profiles",
        p.key, p.name);
  }
}

// Every field must be what docs/groupnorm.md, "Tiling fields", derives from
// n, c, hw, g and oneTmpSize.
void CheckTiling(const GroupNormTiling& t, const Element& e, bool reuse) {
  CheckTilingFilled(kApi, "oneTmpSize", t.oneTmpSize,
                    "GetGroupNormNDTilingInfo");
  if (t.n == 0 || t.c == 0 || t.hw == 0 || t.g == 0 || t.c % t.g != 0) {
    Fail(
        "GroupNorm: tiling.n %u, tiling.c %u, tiling.hw %u and tiling.g %u "
        "must be at least 1 with g dividing c: the tiling is inconsistent",
        t.n, t.c, t.hw, t.g);
  }
  const uint64_t group = uint64_t{t.c / t.g} * t.hw;
  const uint64_t groups = uint64_t{t.n} * t.g;
  const uint64_t elements = uint64_t{t.n} * t.c * t.hw;
  const uint64_t hw_align = RoundUp(t.hw, kBlockBytes / e.bytes);
  const uint32_t one = t.oneTmpSize;
  if (one % group != 0 || one > elements) {
    Fail(
        "GroupNorm: tiling.oneTmpSize %u must be a multiple of the group "
        "size d*hw = %llu and at most n*c*hw = %llu",
        one, static_cast<unsigned long long>(group),
        static_cast<unsigned long long>(elements));
  }
  const uint64_t mean_size = RoundUp(groups, 8);
  CheckDerivedFields(
      kApi,
      {
          {"d", t.d, t.c / t.g, "c / g"},
          {"hwAlignSize", t.hwAlignSize, hw_align,
           "hw rounded up to a multiple of 32 bytes"},
          {"dhwAlignSize", t.dhwAlignSize, uint64_t{t.c / t.g} * hw_align,
           "d * hwAlignSize"},
          {"inputXSize", t.inputXSize, elements, "n * c * hw"},
          {"meanVarSize", t.meanVarSize, groups, "n * g"},
          {"numberOfTmpBuf", t.numberOfTmpBuf, NumberOfTmpBuf(e.bytes, reuse),
           "2 for float with isReuseSource, else 3"},
          {"meanTmpTensorSize", t.meanTmpTensorSize, mean_size,
           "roundup(n * g, 8)"},
          {"varianceTmpTensorSize", t.varianceTmpTensorSize, mean_size,
           "roundup(n * g, 8)"},
      });
  CheckChunkRounds(kApi, t, groups, group, kGroupsOfDHw);
  CheckDerivedFields(
      kApi,
      {
          {"bshCurLength", t.bshCurLength, one, "oneTmpSize"},
          {"bsCurLength", t.bsCurLength, one / group, "oneTmpSize / (d * hw)"},
          {"smallShape", t.smallShape ? 1u : 0u, one == elements ? 1u : 0u,
           "1 when oneTmpSize == inputXSize"},
      });
  const float factor = 1.0f / static_cast<float>(group);
  if (std::memcmp(&factor, &t.factor, sizeof factor) != 0) {
    Fail(
        "GroupNorm: tiling.factor is %.9g, expected 1.0f / (d * hw) = %.9g: "
        "the tiling is inconsistent",
        static_cast<double>(t.factor), static_cast<double>(factor));
  }
}

bool FloatReuse(const GroupNormArgs& a) { return !a.is_half && a.reuse_source; }

// gamma and beta widened to float (T's values).
float ParamAt(const GroupNormArgs& a, const TensorView& p, uint32_t i) {
  return a.is_half ? float(HalfData(p)[i]) : FloatData(p)[i];
}

// gamma and beta must lie in [-100, 100] (NaN does not).
void CheckParams(const GroupNormArgs& a, const GroupNormTiling& t) {
  const NamedTensor params[] = {{"gamma", a.gamma}, {"beta", a.beta}};
  for (const NamedTensor& p : params) {
    for (uint32_t i = 0; i < t.c; ++i) {
      const float v = ParamAt(a, p.view, i);
      if (!(v >= -kParamLimit && v <= kParamLimit)) {
        Fail(
            "GroupNorm: %s[%u] is %.9g; gamma and beta must lie in [-100, 100]",
            p.name, i, static_cast<double>(v));
      }
    }
  }
}

// One chunk: `groups` whole groups starting at element `element_pos` (group
// `group_pos`), every step over the whole chunk before the next. x of the
// chunk is read before stage or output is written.
void RunChunk(const GroupNormArgs& a, const GroupNormTiling& t,
              const ChunkBuffers& b, bool saturate, uint32_t element_pos,
              uint32_t group_pos, uint32_t groups) {
  const uint32_t m = t.d * t.hw;  // elements per group
  const uint32_t n = groups * m;
  const float* x = AsFloats(a.input_x, a.is_half, element_pos, n, b.stage);
  StandardizeRows(x, groups, m, m, t.factor, a.epsilon,
                  {b.d, b.q, b.mean + group_pos, b.var + group_pos, b.stage});
  // The channel of chunk element i: groups start at a multiple of d channels.
  const uint32_t first_channel = (group_pos % t.g) * t.d;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = (first_channel + i / t.hw) % t.c;
    b.stage[i] = (b.stage[i] * ParamAt(a, a.gamma, c)) + ParamAt(a, a.beta, c);
  }
  if (a.is_half) {
    NarrowToHalf(b.stage, HalfData(a.output) + element_pos, n, saturate);
  } else {
    std::memcpy(FloatData(a.output) + element_pos, b.stage, n * sizeof(float));
  }
}

// The tiling of an Ascend 950 program, which fills n, c, hw, g, d,
// dhwAlignSize, factor and oneTmpSize: the sizes and one chunk of all groups
// derived from n, c, hw and g (d, dhwAlignSize and oneTmpSize are not read;
// factor is checked as on every profile).
GroupNormTiling CompletedOn950(const GroupNormTiling& hand, const Element& e,
                               bool reuse_source) {
  GroupNormTiling t = hand;
  if (t.g == 0 || t.c % t.g != 0) return t;  // for CheckTiling to name
  t.d = t.c / t.g;
  t.hwAlignSize = static_cast<uint32_t>(RoundUp(t.hw, kBlockBytes / e.bytes));
  t.dhwAlignSize = t.d * t.hwAlignSize;
  t = WithOneChunk(t, uint64_t{t.n} * t.g, uint64_t{t.d} * t.hw,
                   NumberOfTmpBuf(e.bytes, reuse_source), e.bytes);
  t.smallShape = true;
  return t;
}

}  // namespace

void RunGroupNorm(const GroupNormArgs& given) {
  const Element e = HalfOrFloat(given.is_half);
  // Ascend 950 reads n, c, hw, g and factor and derives the rest
  // (ReadsShapeOnly).
  const bool shape_only = ReadsShapeOnly(*given.output.core);
  GroupNormArgs a = given;
  GroupNormTiling completed;
  if (shape_only) {
    completed = CompletedOn950(*given.tiling, e, given.reuse_source);
    a.tiling = &completed;
  }
  const GroupNormTiling& t = *a.tiling;
  CheckNormPlacements(kApi, a, "gamma");
  CheckProfile(a.output);
  CheckTiling(t, e, a.reuse_source);
  CheckLengths(
      kApi, e,
      {{"output", a.output, t.inputXSize, "inputXSize = n * c * hw"},
       {"outputMean", a.output_mean, t.meanVarSize, "meanVarSize = n * g"},
       {"outputVariance", a.output_variance, t.meanVarSize,
        "meanVarSize = n * g"},
       {"inputX", a.input_x, t.inputXSize, "inputXSize = n * c * hw"},
       {"gamma", a.gamma, t.c, "c"},
       {"beta", a.beta, t.c, "c"}});
  const TensorView scratch = CheckedChunkScratch(
      kApi, a, e, t.c,
      "GroupNorm must not write what it still reads (only output may be "
      "inputX itself)",
      "", shape_only);
  std::vector<float> own(shape_only ? t.tmpBufSize : 0);
  CheckParams(a, t);
  static std::atomic<bool> warned{false};
  if (a.is_half && a.reuse_source) {
    WarnHalfReuseOnce(warned, kApi, "the input is");
  }

  const ChunkBuffers b =
      PlaceChunkBuffers(t, shape_only ? own.data() : FloatData(scratch),
                        FloatReuse(a) ? FloatData(a.input_x) : nullptr,
                        a.is_half, a.output_mean, a.output_variance);
  const bool saturate = NarrowSaturates(*a.output.core);

  for (uint32_t i = 0; i < t.loopRound; ++i) {
    RunChunk(a, t, b, saturate, i * t.inputRoundSize, i * t.meanVarRoundSize,
             t.meanVarRoundSize);
  }
  if (t.inputTailSize != 0) {
    RunChunk(a, t, b, saturate, t.inputTailPos, t.meanVarTailPos,
             t.meanVarTailSize);
  }
  NarrowMeansAndVariances(t, b, a.is_half, a.output_mean, a.output_variance,
                          saturate);
}

}  // namespace normgrad_ascendc

// groupnorm.cc — AscendC::GroupNorm on the emulated core: the checks (profile,
// tensor placement, lengths and overlaps; the tiling's shape, chunking and
// scratch regions; gamma and beta within [-100, 100]), then the numeric order
// of docs/groupnorm.md chunk by chunk in float with the tiling's scratch
// layout, half widened on the way in and narrowed on the way out.
#include "lib/normalization/groupnorm.h"

#include <atomic>
#include <cstdio>
#include <cstring>

#include "ascendc/lib/common/kernel_checks.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "ascendc/lib/normalization/standardize.h"
#include "ascendc/lib/common/ub_ranges.h"

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

uint64_t RoundUp(uint64_t n, uint64_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// Every field must be what docs/groupnorm.md, "Tiling fields", derives from
// n, c, hw, g and oneTmpSize.
void CheckTiling(const GroupNormTiling& t, const Element& e, bool reuse) {
  if (t.oneTmpSize == 0) {
    Fail(
        "GroupNorm: tiling.oneTmpSize is 0: the tiling is empty "
        "(GetGroupNormNDTilingInfo failed or was not called)");
  }
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
  const uint64_t tail = elements % one;
  const uint64_t mean_size = RoundUp(groups, 8);
  struct Derived {
    const char* field;
    uint64_t value;
    uint64_t expected;
    const char* rule;
  };
  const Derived derived[] = {
      {"d", t.d, t.c / t.g, "c / g"},
      {"hwAlignSize", t.hwAlignSize, hw_align,
       "hw rounded up to a multiple of 32 bytes"},
      {"dhwAlignSize", t.dhwAlignSize, uint64_t{t.c / t.g} * hw_align,
       "d * hwAlignSize"},
      {"inputXSize", t.inputXSize, elements, "n * c * hw"},
      {"meanVarSize", t.meanVarSize, groups, "n * g"},
      {"numberOfTmpBuf", t.numberOfTmpBuf, e.bytes == 4 && reuse ? 2u : 3u,
       "2 for float with isReuseSource, else 3"},
      {"meanTmpTensorSize", t.meanTmpTensorSize, mean_size,
       "roundup(n * g, 8)"},
      {"varianceTmpTensorSize", t.varianceTmpTensorSize, mean_size,
       "roundup(n * g, 8)"},
      {"inputRoundSize", t.inputRoundSize, one, "oneTmpSize"},
      {"loopRound", t.loopRound, elements / one, "inputXSize / oneTmpSize"},
      {"inputTailSize", t.inputTailSize, tail, "inputXSize % oneTmpSize"},
      {"inputTailPos", t.inputTailPos, elements - tail,
       "inputXSize - inputTailSize"},
      {"meanVarRoundSize", t.meanVarRoundSize, one / group,
       "oneTmpSize / (d * hw)"},
      {"meanVarTailSize", t.meanVarTailSize, tail / group,
       "inputTailSize / (d * hw)"},
      {"meanVarTailPos", t.meanVarTailPos, groups - tail / group,
       "meanVarSize - meanVarTailSize"},
      {"bshCurLength", t.bshCurLength, one, "oneTmpSize"},
      {"bsCurLength", t.bsCurLength, one / group, "oneTmpSize / (d * hw)"},
      {"smallShape", t.smallShape ? 1u : 0u, one == elements ? 1u : 0u,
       "1 when oneTmpSize == inputXSize"},
  };
  for (const Derived& d : derived) {
    if (d.value != d.expected) {
      Fail(
          "GroupNorm: tiling.%s is %llu, expected %llu (%s): the tiling is "
          "inconsistent",
          d.field, static_cast<unsigned long long>(d.value),
          static_cast<unsigned long long>(d.expected), d.rule);
    }
  }
  const float factor = 1.0f / static_cast<float>(group);
  if (std::memcmp(&factor, &t.factor, sizeof factor) != 0) {
    Fail(
        "GroupNorm: tiling.factor is %.9g, expected 1.0f / (d * hw) = %.9g: "
        "the tiling is inconsistent",
        static_cast<double>(t.factor), static_cast<double>(factor));
  }
}

void CheckLengths(const GroupNormArgs& a, const GroupNormTiling& t,
                  const Element& e) {
  const NeededLength tensors[] = {
      {"output", a.output, t.inputXSize, "inputXSize = n * c * hw"},
      {"outputMean", a.output_mean, t.meanVarSize, "meanVarSize = n * g"},
      {"outputVariance", a.output_variance, t.meanVarSize,
       "meanVarSize = n * g"},
      {"inputX", a.input_x, t.inputXSize, "inputXSize = n * c * hw"},
      {"gamma", a.gamma, t.c, "c"},
      {"beta", a.beta, t.c, "c"},
  };
  for (const NeededLength& tensor : tensors) CheckLength(kApi, e, tensor);
}

bool FloatReuse(const GroupNormArgs& a) {
  return !a.is_half && a.reuse_source;
}

// What the call writes must not share memory with anything else it writes
// or reads; the one exception is output == inputX exactly (in place: each
// chunk's x is read before its y is written).
void CheckOverlaps(const GroupNormArgs& a, const GroupNormTiling& t,
                   const Element& e, const TensorView& scratch,
                   const char* scratch_name) {
  const uint64_t x_bytes = uint64_t{t.inputXSize} * e.bytes;
  const uint64_t mv_bytes = uint64_t{t.meanVarSize} * e.bytes;
  const uint64_t c_bytes = uint64_t{t.c} * e.bytes;
  const UbRange output = UbRangeOf("output", a.output, x_bytes);
  const UbRange input_x = UbRangeOf("inputX", a.input_x, x_bytes);
  UbRange written[5] = {
      output,
      UbRangeOf("outputMean", a.output_mean, mv_bytes),
      UbRangeOf("outputVariance", a.output_variance, mv_bytes),
      UbRangeOf(scratch_name, scratch, uint64_t{t.tmpBufSize} * 4),
  };
  size_t written_count = 4;
  const size_t reuse_index = 4;
  if (FloatReuse(a)) {
    written[written_count++] =
        UbRangeOf("inputX[0, oneTmpSize) (overwritten with isReuseSource)",
                  a.input_x, uint64_t{t.oneTmpSize} * 4);
  }
  const UbRange read[3] = {input_x, UbRangeOf("gamma", a.gamma, c_bytes),
                           UbRangeOf("beta", a.beta, c_bytes)};
  CheckWrittenAndRead(
      kApi, written, written_count, read, 3,
      "GroupNorm must not write what it still reads (only "
      "output may be inputX itself)",
      [&](size_t i, size_t k) {
        return k == 0 &&
               (i == reuse_index || (i == 0 && output.begin == input_x.begin &&
                                     output.core == input_x.core));
      });
}

float* FloatData(const TensorView& t) {
  return reinterpret_cast<float*>(t.data());
}

normgrad::float16* HalfData(const TensorView& t) {
  return reinterpret_cast<normgrad::float16*>(t.data());
}

// gamma and beta widened to float (T's values).
float ParamAt(const GroupNormArgs& a, const TensorView& p, uint32_t i) {
  return a.is_half ? float(HalfData(p)[i]) : FloatData(p)[i];
}

// gamma and beta must lie in [-100, 100] (NaN does not).
void CheckParams(const GroupNormArgs& a, const GroupNormTiling& t) {
  const struct {
    const char* name;
    const TensorView& view;
  } params[] = {{"gamma", a.gamma}, {"beta", a.beta}};
  for (const auto& p : params) {
    for (uint32_t i = 0; i < t.c; ++i) {
      const float v = ParamAt(a, p.view, i);
      if (!(v >= -kParamLimit && v <= kParamLimit)) {
        Fail("GroupNorm: %s[%u] is %.9g; gamma and beta must lie in [-100, 100]",
             p.name, i, static_cast<double>(v));
      }
    }
  }
}

// Where a call keeps its intermediate values.
struct Buffers {
  float* d;      // first chunk buffer: x − mean
  float* q;      // second: x·factor, then (d·d)·factor
  float* stage;  // third, or inputX[0, oneTmpSize) with float reuse: half's
                 // widened x, then the normalized d·rstd (half: then y)
  float* mean;   // the N·G means: outputMean (float) or the scratch (half)
  float* var;    // the N·G variances, likewise
};

// One chunk: `groups` whole groups starting at element `element_pos` (group
// `group_pos`), every step over the whole chunk before the next. x of the
// chunk is read before stage or output is written.
void RunChunk(const GroupNormArgs& a, const GroupNormTiling& t,
              const Buffers& b, bool saturate, uint32_t element_pos,
              uint32_t group_pos, uint32_t groups) {
  const uint32_t m = t.d * t.hw;  // elements per group
  const uint32_t n = groups * m;
  const float* x = nullptr;
  if (a.is_half) {
    normgrad::Widen(HalfData(a.input_x) + element_pos, b.stage, n);
    x = b.stage;
  } else {
    x = FloatData(a.input_x) + element_pos;
  }
  StandardizeRows(x, groups, m, m, t.factor, a.epsilon,
                  {b.d, b.q, b.mean + group_pos, b.var + group_pos, b.stage});
  // The channel of chunk element i: groups start at a multiple of d channels.
  const uint32_t first_channel = (group_pos % t.g) * t.d;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t c = (first_channel + i / t.hw) % t.c;
    b.stage[i] =
        (b.stage[i] * ParamAt(a, a.gamma, c)) + ParamAt(a, a.beta, c);
  }
  if (a.is_half) {
    NarrowToHalf(b.stage, HalfData(a.output) + element_pos, n, saturate);
  } else {
    std::memcpy(FloatData(a.output) + element_pos, b.stage, n * sizeof(float));
  }
}

void WarnHalfReuseOnce() {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) {
    std::fprintf(stderr,
                 "normgrad: warning: GroupNorm: isReuseSource has no effect "
                 "with half (the input is widened into the scratch); nothing "
                 "is reused\n");
  }
}

}  // namespace

void RunGroupNorm(const GroupNormArgs& a) {
  const GroupNormTiling& t = *a.tiling;
  const Element e = a.is_half ? Element{2, "halves"} : Element{4, "floats"};
  CheckPlacement(kApi, "output", a.output);
  CheckPlacement(kApi, "outputMean", a.output_mean);
  CheckPlacement(kApi, "outputVariance", a.output_variance);
  CheckPlacement(kApi, "inputX", a.input_x);
  CheckPlacement(kApi, "gamma", a.gamma);
  CheckPlacement(kApi, "beta", a.beta);
  CheckProfile(a.output);
  CheckTiling(t, e, a.reuse_source);
  CheckLengths(a, t, e);
  const char* scratch_name =
      a.shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
  const TensorView scratch =
      CheckedTilingScratch(kApi, a.shared_tmp, t.tmpBufSize, scratch_name);
  CheckOverlaps(a, t, e, scratch, scratch_name);
  // With float isReuseSource, inputX serves as the third chunk buffer.
  CheckChunkScratchRegions(kApi, t, a.is_half, !FloatReuse(a), "");
  CheckParams(a, t);
  if (a.is_half && a.reuse_source) WarnHalfReuseOnce();

  float* tmp = FloatData(scratch);
  Buffers b;
  b.d = tmp + t.firstTmpStartPos;
  b.q = tmp + t.secondTmpStartPos;
  b.stage = FloatReuse(a) ? FloatData(a.input_x) : tmp + t.thirdTmpStartPos;
  b.mean = a.is_half ? tmp + t.meanTmpTensorPos : FloatData(a.output_mean);
  b.var =
      a.is_half ? tmp + t.varianceTmpTensorPos : FloatData(a.output_variance);
  const bool saturate = a.output.core->profile().profile == Profile::k950;

  for (uint32_t i = 0; i < t.loopRound; ++i) {
    RunChunk(a, t, b, saturate, i * t.inputRoundSize, i * t.meanVarRoundSize,
             t.meanVarRoundSize);
  }
  if (t.inputTailSize != 0) {
    RunChunk(a, t, b, saturate, t.inputTailPos, t.meanVarTailPos,
             t.meanVarTailSize);
  }
  if (a.is_half) {  // the float means and variances, narrowed at the end
    NarrowToHalf(b.mean, HalfData(a.output_mean), t.meanVarSize, saturate);
    NarrowToHalf(b.var, HalfData(a.output_variance), t.meanVarSize, saturate);
  }
}

}  // namespace normgrad_ascendc

// layernorm.cc — AscendC::LayerNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape, chunking and scratch
// regions), then the numeric order of docs/layernorm.md chunk by chunk in
// float with the tiling's scratch layout, half widened on the way in and
// narrowed on the way out, what isReuseSource overwrites, and the tiling's tail
// rewrite.
#include "lib/normalization/layernorm.h"

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

using AscendC::LayerNormTiling;

constexpr char kApi[] = "LayerNorm";

// The fields every check needs: a filled tiling, H ≥ 1, B·S ≥ 1,
// originalH == H, H·sizeof(T) a multiple of 32, and the host's 1/H.
void CheckShape(const LayerNormTiling& t, const Element& e) {
  if (t.oneTmpSize == 0) {
    Fail(
        "LayerNorm: tiling.oneTmpSize is 0: the tiling is empty "
        "(GetLayerNormNDTilingInfo failed or was not called)");
  }
  if (t.hLength == 0) {
    Fail("LayerNorm: tiling.hLength is 0; H must be at least 1");
  }
  if (t.bLength == 0 || t.sLength == 0) {
    Fail(
        "LayerNorm: tiling.bLength %u * tiling.sLength %u is 0; B*S must be "
        "at least 1",
        t.bLength, t.sLength);
  }
  CheckRowLength("LayerNorm", t.hLength, t.originalHLength, e,
                 "LayerNorm rows cannot be padded: padding columns would "
                 "change the mean and the variance");
  const float inv_h = 1.0f / static_cast<float>(t.originalHLength);
  if (std::memcmp(&inv_h, &t.lastDimValueBack, sizeof inv_h) != 0) {
    Fail(
        "LayerNorm: tiling.lastDimValueBack is %.9g, expected 1.0f / "
        "originalHLength %u = %.9g: the tiling is inconsistent",
        static_cast<double>(t.lastDimValueBack), t.originalHLength,
        static_cast<double>(inv_h));
  }
}

// The chunking fields: each must be what docs/layernorm.md, "Tiling fields",
// derives from bLength, sLength, hLength and oneTmpSize. bshCurLength and
// bsCurLength may also hold the tail's sizes, as a call with a tail leaves
// them.
void CheckChunking(const LayerNormTiling& t) {
  const uint64_t h = t.hLength;
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  const uint64_t bsh = bs * h;
  if (t.inputXSize != bsh) {
    Fail(
        "LayerNorm: tiling.inputXSize is %u, expected %llu (bLength %u * "
        "sLength %u * hLength %u): the tiling is inconsistent",
        t.inputXSize, static_cast<unsigned long long>(bsh), t.bLength,
        t.sLength, t.hLength);
  }
  if (t.meanVarSize != bs) {
    Fail(
        "LayerNorm: tiling.meanVarSize is %u, expected %llu (bLength %u * "
        "sLength %u): the tiling is inconsistent",
        t.meanVarSize, static_cast<unsigned long long>(bs), t.bLength,
        t.sLength);
  }
  const uint32_t one = t.oneTmpSize;
  if (one % h != 0 || one > bsh) {
    Fail(
        "LayerNorm: tiling.oneTmpSize %u must be a multiple of hLength %u "
        "and at most inputXSize %u",
        one, t.hLength, t.inputXSize);
  }
  const uint64_t tail = bsh % one;
  struct Derived {
    const char* field;
    uint32_t value;
    uint64_t expected;
    const char* rule;
  };
  const Derived derived[] = {
      {"inputRoundSize", t.inputRoundSize, one, "oneTmpSize"},
      {"loopRound", t.loopRound, bsh / one, "inputXSize / oneTmpSize"},
      {"inputTailSize", t.inputTailSize, tail, "inputXSize % oneTmpSize"},
      {"inputTailPos", t.inputTailPos, bsh - tail,
       "inputXSize - inputTailSize"},
      {"meanVarRoundSize", t.meanVarRoundSize, one / h, "oneTmpSize / hLength"},
      {"meanVarTailSize", t.meanVarTailSize, tail / h,
       "inputTailSize / hLength"},
      {"meanVarTailPos", t.meanVarTailPos, bs - tail / h,
       "meanVarSize - meanVarTailSize"},
  };
  for (const Derived& d : derived) {
    if (d.value != d.expected) {
      Fail(
          "LayerNorm: tiling.%s is %u, expected %llu (%s): the tiling is "
          "inconsistent",
          d.field, d.value, static_cast<unsigned long long>(d.expected),
          d.rule);
    }
  }
  if (t.bshCurLength != one && (tail == 0 || t.bshCurLength != tail)) {
    Fail(
        "LayerNorm: tiling.bshCurLength is %u, expected oneTmpSize %u (or "
        "inputTailSize %llu, as a call that processed a tail leaves it): the "
        "tiling is inconsistent",
        t.bshCurLength, one, static_cast<unsigned long long>(tail));
  }
  if (t.bsCurLength != t.bshCurLength / h) {
    Fail(
        "LayerNorm: tiling.bsCurLength is %u, expected %llu (bshCurLength "
        "%u / hLength %u): the tiling is inconsistent",
        t.bsCurLength, static_cast<unsigned long long>(t.bshCurLength / h),
        t.bshCurLength, t.hLength);
  }
}

void CheckLengths(const LayerNormArgs& a, const LayerNormTiling& t,
                  const Element& e) {
  const NeededLength tensors[] = {
      {"output", a.output, t.inputXSize, "inputXSize"},
      {"outputMean", a.output_mean, t.meanVarSize, "meanVarSize"},
      {"outputVariance", a.output_variance, t.meanVarSize, "meanVarSize"},
      {"inputX", a.input_x, t.inputXSize, "inputXSize"},
      {"gamma", a.gamma, t.hLength, "hLength"},
      {"beta", a.beta, t.hLength, "hLength"},
  };
  for (const NeededLength& tensor : tensors) CheckLength(kApi, e, tensor);
}

bool FloatReuse(const LayerNormArgs& a) { return !a.is_half && a.reuse_source; }

// What the call writes must not share memory with anything else it writes
// or reads; the one exception is output == inputX exactly (in place, each
// chunk's x is read before its y is written).
void CheckOverlaps(const LayerNormArgs& a, const LayerNormTiling& t,
                   const Element& e, const TensorView& scratch,
                   const char* scratch_name) {
  const uint64_t bsh_bytes = uint64_t{t.inputXSize} * e.bytes;
  const uint64_t bs_bytes = uint64_t{t.meanVarSize} * e.bytes;
  const uint64_t h_bytes = uint64_t{t.hLength} * e.bytes;
  // written[0] is output, written[4] (float isReuseSource only) the part of
  // inputX overwritten; read[0] is inputX.
  constexpr size_t kOutput = 0;
  constexpr size_t kInputXPart = 4;
  constexpr size_t kInputX = 0;
  const UbRange output = UbRangeOf("output", a.output, bsh_bytes);
  UbRange written[5] = {
      output,
      UbRangeOf("outputMean", a.output_mean, bs_bytes),
      UbRangeOf("outputVariance", a.output_variance, bs_bytes),
      UbRangeOf(scratch_name, scratch, uint64_t{t.tmpBufSize} * 4),
  };
  size_t written_count = 4;
  if (FloatReuse(a)) {
    written[written_count++] =
        UbRangeOf("inputX[0, oneTmpSize) (overwritten with isReuseSource)",
                  a.input_x, uint64_t{t.oneTmpSize} * 4);
  }
  const UbRange input_x = UbRangeOf("inputX", a.input_x, bsh_bytes);
  const UbRange read[3] = {input_x, UbRangeOf("gamma", a.gamma, h_bytes),
                           UbRangeOf("beta", a.beta, h_bytes)};
  // inputX[0, oneTmpSize) is part of inputX; output may be inputX itself
  // (with float isReuseSource it then overlaps that region, refused as
  // written twice).
  CheckWrittenAndRead(
      kApi, written, written_count, read, 3,
      "LayerNorm must not write what it still reads (only output may be "
      "inputX itself)",
      [&](size_t i, size_t k) {
        return k == kInputX &&
               (i == kInputXPart ||
                (i == kOutput && output.begin == input_x.begin));
      });
}

float* FloatData(const TensorView& t) {
  return reinterpret_cast<float*>(t.data());
}

normgrad::float16* HalfData(const TensorView& t) {
  return reinterpret_cast<normgrad::float16*>(t.data());
}

// Where a call keeps its intermediate values (docs/decisions.md, LayerNorm).
struct Buffers {
  float* d;      // first chunk buffer: x − mean
  float* q;      // second: x·(1/H), then (d·d)·(1/H)
  float* stage;  // third, or inputX[0, oneTmpSize) with float reuse: half's
                 // widened x, then the normalized d·rstd (half: then y)
  float* mean;   // the B·S means: outputMean (float) or the scratch (half)
  float* var;    // the B·S variances, likewise
};

// One chunk: `rows` rows of H elements starting at element `element_pos`
// (row `row_pos`), every step over the whole chunk before the next (steps
// 1–7 of docs/layernorm.md, "Numeric order"). x of the chunk is read before
// stage or output is written.
void RunChunk(const LayerNormArgs& a, const LayerNormTiling& t,
              const Buffers& b, bool saturate, uint32_t element_pos,
              uint32_t row_pos, uint32_t rows) {
  const uint32_t h = t.hLength;
  const uint32_t n = rows * h;
  const float* x = nullptr;
  if (a.is_half) {
    normgrad::Widen(HalfData(a.input_x) + element_pos, b.stage, n);
    x = b.stage;
  } else {
    x = FloatData(a.input_x) + element_pos;
  }
  StandardizeRows(x, rows, h, h, t.lastDimValueBack, a.epsilon,
                  {b.d, b.q, b.mean + row_pos, b.var + row_pos, b.stage});
  if (a.is_half) {  // y in the stage buffer, then narrowed
    const normgrad::float16* gamma = HalfData(a.gamma);
    const normgrad::float16* beta = HalfData(a.beta);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      b.stage[i] = (b.stage[i] * float(gamma[j])) + float(beta[j]);
    }
    NarrowToHalf(b.stage, HalfData(a.output) + element_pos, n, saturate);
  } else {
    const float* gamma = FloatData(a.gamma);
    const float* beta = FloatData(a.beta);
    float* y = FloatData(a.output) + element_pos;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      y[i] = (b.stage[i] * gamma[j]) + beta[j];
    }
  }
}

void WarnHalfReuseOnce() {
  static std::atomic<bool> warned{false};
  if (!warned.exchange(true)) {
    std::fprintf(stderr,
                 "normgrad: warning: LayerNorm: isReuseSource has no effect "
                 "with half (the input is widened into the scratch); nothing "
                 "is reused\n");
  }
}

}  // namespace

void RunLayerNorm(const LayerNormArgs& a) {
  LayerNormTiling& t = *a.tiling;
  const Element e = a.is_half ? Element{2, "halves"} : Element{4, "floats"};
  CheckPlacement(kApi, "output", a.output);
  CheckPlacement(kApi, "outputMean", a.output_mean);
  CheckPlacement(kApi, "outputVariance", a.output_variance);
  CheckPlacement(kApi, "inputX", a.input_x);
  CheckPlacement(kApi, "gamma", a.gamma);
  CheckPlacement(kApi, "beta", a.beta);
  CheckShape(t, e);
  CheckChunking(t);
  CheckLengths(a, t, e);
  const char* scratch_name =
      a.shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
  const TensorView scratch =
      CheckedTilingScratch(kApi, a.shared_tmp, t.tmpBufSize, scratch_name);
  CheckOverlaps(a, t, e, scratch, scratch_name);
  // With float isReuseSource, inputX serves as the third chunk buffer.
  CheckChunkScratchRegions(kApi, t, a.is_half, !FloatReuse(a),
                           t.numberOfTmpBuf == 2 ? kTwoBuffersHint : "");
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

  ForEachChunk(t, [&](uint32_t element_pos, uint32_t row_pos, uint32_t rows) {
    RunChunk(a, t, b, saturate, element_pos, row_pos, rows);
  });
  if (a.is_half) {  // the float means and variances, narrowed at the end
    NarrowToHalf(b.mean, HalfData(a.output_mean), t.meanVarSize, saturate);
    NarrowToHalf(b.var, HalfData(a.output_variance), t.meanVarSize, saturate);
  }
}

}  // namespace normgrad_ascendc

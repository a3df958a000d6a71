// layernorm.cc — AscendC::LayerNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape, chunking and scratch
// regions), then the numeric order of docs/layernorm.md chunk by chunk in
// float with the tiling's scratch layout, half widened on the way in and
// narrowed on the way out, what isReuseSource overwrites, and the tiling's tail
// rewrite.
#include "lib/normalization/layernorm.h"

#include <atomic>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "ascendc/lib/normalization/standardize.h"

namespace normgrad_ascendc {
namespace {

using AscendC::LayerNormTiling;

constexpr char kApi[] = "LayerNorm";

// The fields every check needs: a filled tiling, H ≥ 1, B·S ≥ 1,
// originalH == H, H·sizeof(T) a multiple of 32, and the host's 1/H.
void CheckShape(const LayerNormTiling& t, const Element& e) {
  CheckTilingFilled(kApi, "oneTmpSize", t.oneTmpSize,
                    "GetLayerNormNDTilingInfo");
  CheckNonZero(kApi, "hLength", t.hLength, "H");
  CheckRowsNotEmpty(kApi, t.bLength, t.sLength);
  CheckRowLength(kApi, t.hLength, t.originalHLength, e,
                 "LayerNorm rows cannot be padded: padding columns would "
                 "change the mean and the variance");
  CheckReciprocal(kApi, "lastDimValueBack", t.lastDimValueBack,
                  "originalHLength", t.originalHLength);
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
  CheckChunkRounds(kApi, t, bs, h, kRowsOfH);
  CheckCurrentChunk(kApi, t);
}

bool FloatReuse(const LayerNormArgs& a) { return !a.is_half && a.reuse_source; }

// One chunk: `rows` rows of H elements starting at element `element_pos`
// (row `row_pos`), every step over the whole chunk before the next (steps
// 1–7 of docs/layernorm.md, "Numeric order"). x of the chunk is read before
// stage or output is written.
void RunChunk(const LayerNormArgs& a, const LayerNormTiling& t,
              const ChunkBuffers& b, bool saturate, uint32_t element_pos,
              uint32_t row_pos, uint32_t rows) {
  const uint32_t h = t.hLength;
  const uint32_t n = rows * h;
  const float* x = AsFloats(a.input_x, a.is_half, element_pos, n, b.stage);
  StandardizeRows(x, rows, h, h, t.lastDimValueBack, a.epsilon,
                  {b.d, b.q, b.mean + row_pos, b.var + row_pos, b.stage});
  ScaleShiftRows(b.stage, n, h, a.is_half, a.gamma, a.beta, a.output,
                 element_pos, saturate);
}

}  // namespace

void RunLayerNorm(const LayerNormArgs& a) {
  LayerNormTiling& t = *a.tiling;
  const Element e = HalfOrFloat(a.is_half);
  CheckNormPlacements(kApi, a, "gamma");
  CheckShape(t, e);
  CheckChunking(t);
  CheckLengths(
      kApi, e,
      {{"output", a.output, t.inputXSize, "inputXSize"},
       {"outputMean", a.output_mean, t.meanVarSize, "meanVarSize"},
       {"outputVariance", a.output_variance, t.meanVarSize, "meanVarSize"},
       {"inputX", a.input_x, t.inputXSize, "inputXSize"},
       {"gamma", a.gamma, t.hLength, "hLength"},
       {"beta", a.beta, t.hLength, "hLength"}});
  const TensorView scratch = CheckedChunkScratch(
      kApi, a, e, t.hLength,
      "LayerNorm must not write what it still reads (only output may be "
      "inputX itself)",
      t.numberOfTmpBuf == 2 ? kTwoBuffersHint : "", false);
  static std::atomic<bool> warned{false};
  if (a.is_half && a.reuse_source) {
    WarnHalfReuseOnce(warned, kApi, "the input is");
  }

  const ChunkBuffers b = PlaceChunkBuffers(
      t, FloatData(scratch), FloatReuse(a) ? FloatData(a.input_x) : nullptr,
      a.is_half, a.output_mean, a.output_variance);
  const bool saturate = NarrowSaturates(*a.output.core);
  ForEachChunk(t, [&](uint32_t element_pos, uint32_t row_pos, uint32_t rows) {
    RunChunk(a, t, b, saturate, element_pos, row_pos, rows);
  });
  NarrowMeansAndVariances(t, b, a.is_half, a.output_mean, a.output_variance,
                          saturate);
}

}  // namespace normgrad_ascendc

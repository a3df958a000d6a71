// deepnorm.cc — AscendC::DeepNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape, chunking and scratch
// regions; the template parameters' rules), then the numeric order of
// docs/deepnorm.md chunk by chunk in float with the tiling's scratch layout,
// and the tiling's tail rewrite.
#include "lib/normalization/deepnorm.h"

#include <algorithm>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "ascendc/lib/normalization/standardize.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/deepnorm_host_tiling.h"

namespace normgrad_ascendc {
namespace {

using AscendC::DeepNormTiling;

constexpr char kApi[] = "DeepNorm";

void CheckTemplate(const DeepNormArgs& a) {
  if (a.is_half && a.reuse_source) {
    Fail(
        "DeepNorm: isReuseSrc is true with T = half; only float may reuse "
        "srcLocal (half is widened into the scratch)");
  }
}

// The shape fields: a filled tiling, H in [1, 2040] and 32-byte aligned,
// B·S ≥ 1, originalHLength in [1, H] and the host's 1/originalH, and the
// basic-block shape when isBasicBlock is set.
void CheckShape(const DeepNormArgs& a, const DeepNormTiling& t,
                const Element& e) {
  CheckTilingFilled(kApi, "oneTmpSize", t.oneTmpSize, "GetDeepNormTilingInfo");
  if (t.hLength == 0 || t.hLength > AscendC::kDeepNormMaxH) {
    Fail("DeepNorm: tiling.hLength is %u; H must be in [1, %u]", t.hLength,
         AscendC::kDeepNormMaxH);
  }
  CheckRowsNotEmpty(kApi, t.bLength, t.sLength);
  if (t.originalHLength == 0 || t.originalHLength > t.hLength) {
    Fail(
        "DeepNorm: tiling.originalHLength is %u; it must be in [1, hLength "
        "%u]",
        t.originalHLength, t.hLength);
  }
  CheckRowLength(kApi, t.hLength, t.hLength, e, kPadRowsAdvice);
  CheckReciprocal(kApi, "lastDimValueBack", t.lastDimValueBack,
                  "originalHLength", t.originalHLength);
  if (a.basic_block) {
    const uint64_t bs = uint64_t{t.bLength} * t.sLength;
    if (t.hLength % 64 != 0 || bs % 8 != 0 || t.originalHLength != t.hLength) {
      Fail(
          "DeepNorm: isBasicBlock is true but tiling.hLength %u, B*S %llu, "
          "originalHLength %u: a basic block needs H a multiple of 64, B*S "
          "a multiple of 8 and originalHLength == hLength",
          t.hLength, static_cast<unsigned long long>(bs), t.originalHLength);
    }
  }
}

// The chunking fields: each must be what docs/deepnorm.md, "Tiling fields",
// derives from bLength, sLength, hLength and oneTmpSize. bshCurLength and
// bsCurLength may also hold the tail's sizes, as a call with a tail leaves
// them.
void CheckChunking(const DeepNormTiling& t) {
  const uint64_t h = t.hLength;
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  const uint64_t bsh = bs * h;
  const uint32_t one = t.oneTmpSize;
  CheckDerivedFields(
      kApi,
      {
          {"inputXSize", t.inputXSize, bsh, "bLength * sLength * hLength"},
          {"meanVarSize", t.meanVarSize, bs, "bLength * sLength"},
          {"oneTmpSize % hLength", one % h, 0, "a whole number of rows"},
          {"oneTmpSize", one, std::min<uint64_t>(one, bsh),
           "at most inputXSize"},
      });
  CheckChunkRounds(kApi, t, bs, h, kRowsOfH);
  CheckCurrentChunk(kApi, t);
}

void CheckLengths(const DeepNormArgs& a, const DeepNormTiling& t,
                  const Element& e) {
  const NeededLength tensors[] = {
      {"dstLocal", a.dst, t.inputXSize, "inputXSize"},
      {"meanLocal", a.mean, t.meanVarSize, "meanVarSize"},
      {"rstdLocal", a.rstd, t.meanVarSize, "meanVarSize"},
      {"srcLocal", a.src, t.inputXSize, "inputXSize"},
      {"gxLocal", a.gx, t.inputXSize, "inputXSize"},
      {"betaLocal", a.beta, t.hLength, "hLength"},
      {"gammaLocal", a.gamma, t.hLength, "hLength"},
  };
  // Each tensor is placed, then long enough, before the next is looked at.
  for (const NeededLength& tensor : tensors) {
    CheckPlacement(kApi, tensor.name, tensor.view);
    CheckLength(kApi, e, tensor);
  }
}

// What the call writes must not share memory with anything else it writes
// or reads; the one exception is dstLocal == srcLocal exactly with float
// isReuseSrc (each chunk's z is formed before its output is written).
void CheckOverlaps(const DeepNormArgs& a, const DeepNormTiling& t,
                   const Element& e, const TensorView& scratch,
                   const char* scratch_name) {
  const uint64_t bsh = uint64_t{t.inputXSize} * e.bytes;
  const uint64_t bs = uint64_t{t.meanVarSize} * e.bytes;
  const uint64_t h = uint64_t{t.hLength} * e.bytes;
  const UbRange written[4] = {
      UbRangeOf("dstLocal", a.dst, bsh), UbRangeOf("meanLocal", a.mean, bs),
      UbRangeOf("rstdLocal", a.rstd, bs),
      UbRangeOf(scratch_name, scratch, uint64_t{t.tmpBufSize} * 4)};
  const UbRange read[4] = {
      UbRangeOf("srcLocal", a.src, bsh), UbRangeOf("gxLocal", a.gx, bsh),
      UbRangeOf("betaLocal", a.beta, h), UbRangeOf("gammaLocal", a.gamma, h)};
  CheckWrittenAndRead(kApi, written, 4, read, 4,
                      "DeepNorm must not write what it still reads (only "
                      "dstLocal may be srcLocal itself, with isReuseSrc = "
                      "true)",
                      [&](size_t i, size_t k) {  // in place
                        return i == 0 && k == 0 && a.reuse_source &&
                               written[0].begin == read[0].begin;
                      });
}

// One chunk: `rows` rows of H elements starting at element `pos` (row
// `row_pos`), every step over the whole chunk before the next (steps 1–7 of
// docs/deepnorm.md, "Numeric order").
void RunChunk(const DeepNormArgs& a, const DeepNormTiling& t, ChunkBuffers b,
              bool saturate, uint32_t pos, uint32_t row_pos, uint32_t rows) {
  const uint32_t h = t.hLength;
  const uint32_t n = rows * h;
  if (a.reuse_source) b.stage = FloatData(a.src) + pos;
  if (a.is_half) {  // z = alpha·x + gx, x and gx widened
    const normgrad::float16* x = HalfData(a.src) + pos;
    const normgrad::float16* gx = HalfData(a.gx) + pos;
    for (uint32_t i = 0; i < n; ++i) {
      b.stage[i] = (a.alpha * float(x[i])) + float(gx[i]);
    }
  } else {
    const float* x = FloatData(a.src) + pos;
    const float* gx = FloatData(a.gx) + pos;
    for (uint32_t i = 0; i < n; ++i) b.stage[i] = (a.alpha * x[i]) + gx[i];
  }
  StandardizeRows(b.stage, rows, h, t.originalHLength, t.lastDimValueBack,
                  a.epsilon,
                  {b.d, b.q, b.mean + row_pos, b.var + row_pos, b.stage});
  ScaleShiftRows(b.stage, n, h, a.is_half, a.gamma, a.beta, a.dst, pos,
                 saturate);
}

// The tiling of an Ascend 950 program, which fills bLength, sLength,
// hLength and originalHLength (and oneTmpSize, which is not read): the
// reciprocal and one chunk of all rows derived from them.
DeepNormTiling CompletedOn950(const DeepNormTiling& hand, const Element& e,
                              bool reuse_source) {
  DeepNormTiling t = hand;
  t.lastDimValueBack = 1.0f / static_cast<float>(t.originalHLength);
  return WithOneChunk(t, uint64_t{t.bLength} * t.sLength, t.hLength,
                      NumberOfTmpBuf(e.bytes, reuse_source), e.bytes);
}

}  // namespace

void RunDeepNorm(const DeepNormArgs& a) {
  const Element e = HalfOrFloat(a.is_half);
  // Ascend 950 reads bLength, sLength, hLength and originalHLength and
  // derives the rest (ReadsShapeOnly).
  const bool shape_only = ReadsShapeOnly(*a.dst.core);
  DeepNormTiling completed;
  if (shape_only) completed = CompletedOn950(*a.tiling, e, a.reuse_source);
  DeepNormTiling& t = shape_only ? completed : *a.tiling;
  CheckTemplate(a);
  CheckShape(a, t, e);
  CheckChunking(t);
  CheckLengths(a, t, e);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      shape_only ? NoScratchInUb(kApi, a.shared_tmp)
                 : CheckedTilingScratch(kApi, a.shared_tmp, t.tmpBufSize,
                                        scratch_name);
  std::vector<float> own(shape_only ? t.tmpBufSize : 0);
  CheckOverlaps(a, t, e, scratch, scratch_name);
  // With isReuseSrc (float only), srcLocal serves as the third chunk buffer.
  CheckChunkScratchRegions(kApi, t, a.is_half, !a.reuse_source,
                           t.numberOfTmpBuf == 2 ? kTwoBuffersHint : "");

  // With isReuseSrc each chunk stages in srcLocal's own chunk (RunChunk).
  const ChunkBuffers b =
      PlaceChunkBuffers(t, shape_only ? own.data() : FloatData(scratch),
                        nullptr, a.is_half, a.mean, a.rstd);
  const bool saturate = NarrowSaturates(*a.dst.core);
  ForEachChunk(t, [&](uint32_t pos, uint32_t row_pos, uint32_t rows) {
    RunChunk(a, t, b, saturate, pos, row_pos, rows);
  });
  NarrowMeansAndVariances(t, b, a.is_half, a.mean, a.rstd, saturate);
}

}  // namespace normgrad_ascendc

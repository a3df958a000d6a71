// deepnorm.cc — AscendC::DeepNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape, chunking and scratch
// regions; the template parameters' rules), then the numeric order of
// docs/deepnorm.md chunk by chunk in float with the tiling's scratch layout,
// and the tiling's tail rewrite.
#include "lib/normalization/deepnorm.h"

#include <algorithm>
#include <cstring>

#include "ascendc/lib/common/kernel_checks.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/deepnorm_host_tiling.h"
#include "ascendc/lib/normalization/standardize.h"
#include "ascendc/lib/common/ub_ranges.h"

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
  if (t.oneTmpSize == 0) {
    Fail(
        "DeepNorm: tiling.oneTmpSize is 0: the tiling is empty "
        "(GetDeepNormTilingInfo failed or was not called)");
  }
  if (t.hLength == 0 || t.hLength > AscendC::kDeepNormMaxH) {
    Fail("DeepNorm: tiling.hLength is %u; H must be in [1, %u]", t.hLength,
         AscendC::kDeepNormMaxH);
  }
  if (t.bLength == 0 || t.sLength == 0) {
    Fail(
        "DeepNorm: tiling.bLength %u * tiling.sLength %u is 0; B*S must be "
        "at least 1",
        t.bLength, t.sLength);
  }
  if (t.originalHLength == 0 || t.originalHLength > t.hLength) {
    Fail(
        "DeepNorm: tiling.originalHLength is %u; it must be in [1, hLength "
        "%u]",
        t.originalHLength, t.hLength);
  }
  CheckRowLength(kApi, t.hLength, t.hLength, e, kPadRowsAdvice);
  const float inv_h = 1.0f / static_cast<float>(t.originalHLength);
  if (std::memcmp(&inv_h, &t.lastDimValueBack, sizeof inv_h) != 0) {
    Fail(
        "DeepNorm: tiling.lastDimValueBack is %.9g, expected 1.0f / "
        "originalHLength %u = %.9g: the tiling is inconsistent",
        static_cast<double>(t.lastDimValueBack), t.originalHLength,
        static_cast<double>(inv_h));
  }
  if (a.basic_block) {
    const uint64_t bs = uint64_t{t.bLength} * t.sLength;
    if (t.hLength % 64 != 0 || bs % 8 != 0 ||
        t.originalHLength != t.hLength) {
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
  const uint64_t tail = one % h == 0 && one <= bsh ? bsh % one : 0;
  struct Derived {
    const char* field;
    uint64_t value;
    uint64_t expected;
    const char* rule;
  };
  const Derived derived[] = {
      {"inputXSize", t.inputXSize, bsh, "bLength * sLength * hLength"},
      {"meanVarSize", t.meanVarSize, bs, "bLength * sLength"},
      {"oneTmpSize % hLength", one % h, 0, "a whole number of rows"},
      {"oneTmpSize", one, std::min<uint64_t>(one, bsh), "at most inputXSize"},
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
          "DeepNorm: tiling.%s is %llu, expected %llu (%s): the tiling is "
          "inconsistent",
          d.field, static_cast<unsigned long long>(d.value),
          static_cast<unsigned long long>(d.expected), d.rule);
    }
  }
  if (t.bshCurLength != one && (tail == 0 || t.bshCurLength != tail)) {
    Fail(
        "DeepNorm: tiling.bshCurLength is %u, expected oneTmpSize %u (or "
        "inputTailSize %llu, as a call that processed a tail leaves it): the "
        "tiling is inconsistent",
        t.bshCurLength, one, static_cast<unsigned long long>(tail));
  }
  if (t.bsCurLength != t.bshCurLength / h) {
    Fail(
        "DeepNorm: tiling.bsCurLength is %u, expected %llu (bshCurLength %u "
        "/ hLength %u): the tiling is inconsistent",
        t.bsCurLength, static_cast<unsigned long long>(t.bshCurLength / h),
        t.bshCurLength, t.hLength);
  }
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

float* FloatData(const TensorView& t) {
  return reinterpret_cast<float*>(t.data());
}

normgrad::float16* HalfData(const TensorView& t) {
  return reinterpret_cast<normgrad::float16*>(t.data());
}

// Where a call keeps its intermediate values.
struct Buffers {
  float* d;      // first chunk buffer: z − mean
  float* q;      // second: z·(1/originalH), then (d·d)·(1/originalH)
  float* stage;  // third, or srcLocal's own chunk with float reuse: z, then
                 // the normalized d·rstd (half: then y)
  float* mean;   // the B·S means: meanLocal (float) or the scratch (half)
  float* var;    // the B·S variances: rstdLocal (float) or the scratch
};

// One chunk: `rows` rows of H elements starting at element `pos` (row
// `row_pos`), every step over the whole chunk before the next (steps 1–7 of
// docs/deepnorm.md, "Numeric order").
void RunChunk(const DeepNormArgs& a, const DeepNormTiling& t, Buffers b,
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
  if (a.is_half) {  // y in the stage buffer, then narrowed
    const normgrad::float16* gamma = HalfData(a.gamma);
    const normgrad::float16* beta = HalfData(a.beta);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      b.stage[i] = (b.stage[i] * float(gamma[j])) + float(beta[j]);
    }
    NarrowToHalf(b.stage, HalfData(a.dst) + pos, n, saturate);
  } else {
    const float* gamma = FloatData(a.gamma);
    const float* beta = FloatData(a.beta);
    float* y = FloatData(a.dst) + pos;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t j = i % h;
      y[i] = (b.stage[i] * gamma[j]) + beta[j];
    }
  }
}

}  // namespace

void RunDeepNorm(const DeepNormArgs& a) {
  DeepNormTiling& t = *a.tiling;
  const Element e = a.is_half ? Element{2, "halves"} : Element{4, "floats"};
  CheckTemplate(a);
  CheckShape(a, t, e);
  CheckChunking(t);
  CheckLengths(a, t, e);
  const char* scratch_name =
      a.shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
  const TensorView scratch =
      CheckedTilingScratch(kApi, a.shared_tmp, t.tmpBufSize, scratch_name);
  CheckOverlaps(a, t, e, scratch, scratch_name);
  // With isReuseSrc (float only), srcLocal serves as the third chunk buffer.
  CheckChunkScratchRegions(kApi, t, a.is_half, !a.reuse_source,
                           t.numberOfTmpBuf == 2 ? kTwoBuffersHint : "");

  float* tmp = FloatData(scratch);
  Buffers b;
  b.d = tmp + t.firstTmpStartPos;
  b.q = tmp + t.secondTmpStartPos;
  b.stage = tmp + t.thirdTmpStartPos;
  b.mean = a.is_half ? tmp + t.meanTmpTensorPos : FloatData(a.mean);
  b.var = a.is_half ? tmp + t.varianceTmpTensorPos : FloatData(a.rstd);
  const bool saturate = a.dst.core->profile().profile == Profile::k950;

  ForEachChunk(t, [&](uint32_t pos, uint32_t row_pos, uint32_t rows) {
    RunChunk(a, t, b, saturate, pos, row_pos, rows);
  });
  if (a.is_half) {  // the float means and variances, narrowed at the end
    NarrowToHalf(b.mean, HalfData(a.mean), t.meanVarSize, saturate);
    NarrowToHalf(b.var, HalfData(a.rstd), t.meanVarSize, saturate);
  }
}

}  // namespace normgrad_ascendc

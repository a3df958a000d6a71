// layernormgradbeta.cc — AscendC::LayerNormGradBeta on the emulated core:
// the kernel checks, the per-profile behaviour and the computation through the
// engine's sequential order, which reproduces the device's bits (the contract:
// docs/layernormgradbeta.md).
#include "lib/normalization/layernormgradbeta.h"

#include <algorithm>
#include <atomic>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad/layer_norm_grad_beta.h"

namespace normgrad_ascendc {
namespace {

using AscendC::LayerNormGradBetaTiling;

constexpr char kApi[] = "LayerNormGradBeta";

// Ascend 950, half: columns summed per engine call into float accumulators
// on the stack (that profile has no scratch). Columns are independent, so
// the split changes no bit.
constexpr uint32_t kColumnBlock = 256;

// The fields the profile reads: H and B·S everywhere, H·sizeof(T) a multiple
// of 32; where rows are chunked (every profile but Ascend 950) also a filled
// tiling (oneCalSize > 0) and originalH == H. The 950 profile reads only
// bsLength and hLength, so a tiling with just those two set runs there.
void CheckShape(const LayerNormGradBetaTiling& t, const Element& e,
                bool chunked) {
  if (chunked) {
    CheckTilingFilled(kApi, "oneCalSize", t.oneCalSize,
                      "GetLayerNormGradBetaNDTilingInfo");
  }
  CheckNonZero(kApi, "hLength", t.hLength, "H");
  CheckNonZero(kApi, "bsLength", t.bsLength, "B*S");
  CheckRowLength(kApi, t.hLength, chunked ? t.originalHLength : t.hLength, e,
                 kPadRowsAdvice);
}

// The chunking fields (Atlas A2/A3 and inference series): each must be what
// docs/layernormgradbeta.md, "Tiling algorithm", derives from bsLength,
// hLength and oneCalSize.
void CheckChunking(const LayerNormGradBetaTiling& t) {
  const uint64_t bsh = uint64_t{t.bsLength} * t.hLength;
  if (t.bshLength != bsh) {
    Fail(
        "LayerNormGradBeta: tiling.bshLength is %u, expected %llu (bsLength "
        "%u * hLength %u): the tiling is inconsistent",
        t.bshLength, static_cast<unsigned long long>(bsh), t.bsLength,
        t.hLength);
  }
  const uint32_t one = t.oneCalSize;
  if (one % t.hLength != 0 || one > bsh) {
    Fail(
        "LayerNormGradBeta: tiling.oneCalSize %u must be a multiple of "
        "hLength %u and at most bshLength %u",
        one, t.hLength, t.bshLength);
  }
  const uint64_t tail = bsh % one;
  CheckDerivedFields(
      kApi,
      {
          {"loopRound", t.loopRound, bsh / one, "bshLength / oneCalSize"},
          {"inputTailSize", t.inputTailSize, tail, "bshLength % oneCalSize"},
          {"inputTailPos", t.inputTailPos, bsh - tail,
           "bshLength - inputTailSize"},
          {"bsTailSize", t.bsTailSize, tail / t.hLength,
           "inputTailSize / hLength"},
          {"bshCurLength", t.bshCurLength, one, "oneCalSize"},
          {"bsCurLength", t.bsCurLength, one / t.hLength,
           "oneCalSize / hLength"},
      });
}

void CheckTensors(const LayerNormGradBetaArgs& a,
                  const LayerNormGradBetaTiling& t, const Element& e) {
  const uint64_t bsh = uint64_t{t.bsLength} * t.hLength;
  CheckBlockOutputs(kApi, e,
                    {{"outputPdGamma", a.pd_gamma, t.hLength, "hLength"},
                     {"outputPdBeta", a.pd_beta, t.hLength, "hLength"}});
  CheckLengths(kApi, e,
               {{"resForGamma", a.res_for_gamma, bsh, "bsLength * hLength"},
                {"inputDy", a.input_dy, bsh, "bsLength * hLength"}});
  const uint64_t out_bytes = uint64_t{t.hLength} * e.bytes;
  const TensorView& g = a.pd_gamma;
  const TensorView& b = a.pd_beta;
  if (g.core == b.core && g.offset < b.offset + out_bytes &&
      b.offset < g.offset + out_bytes) {
    Fail(
        "LayerNormGradBeta: outputPdGamma (UB offset %u) and outputPdBeta "
        "(UB offset %u) overlap in their first hLength %u %s; they must be "
        "different tensors",
        g.offset, b.offset, t.hLength, e.plural);
  }
}

// The scratch (Atlas A2/A3 and inference series): large enough for the
// tiling, and every region the tiling places in it inside it.
TensorView CheckedScratch(const LayerNormGradBetaArgs& a,
                          const LayerNormGradBetaTiling& t) {
  const char* name = ScratchName(a.shared_tmp);
  // What the call writes there: half's float accumulators (float writes
  // nothing in the scratch).
  const uint64_t written =
      a.is_half
          ? 4 * (uint64_t{std::max(t.gammaTempTensorPos, t.betaTempTensorPos)} +
                 t.hLength)
          : 0;
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, written,
                  "tiling.stackBufferSize %u floats", t.stackBufferSize);
  CheckPlacement(kApi, name, scratch);
  if (scratch.bytes / 4 < t.stackBufferSize) {
    Fail(
        "LayerNormGradBeta: %s holds %u floats (%u bytes), fewer than "
        "tiling.stackBufferSize %u floats",
        name, scratch.bytes / 4, scratch.bytes, t.stackBufferSize);
  }
  if (!a.is_half) {  // one chunk of products at the scratch's start
    if (t.oneCalSize > t.stackBufferSize) {
      Fail(
          "LayerNormGradBeta: tiling.oneCalSize %u floats (a chunk of "
          "products) exceeds tiling.stackBufferSize %u floats",
          t.oneCalSize, t.stackBufferSize);
    }
    return scratch;
  }
  // half: float accumulators of H, widened chunks of dy and res.
  const ScratchRegion regions[] = {
      {"gammaTempTensorPos", t.gammaTempTensorPos,
       uint64_t{t.gammaTempTensorPos} + t.hLength},
      {"betaTempTensorPos", t.betaTempTensorPos,
       uint64_t{t.betaTempTensorPos} + t.hLength},
      {"inputDyTmpTensorPos", t.inputDyTmpTensorPos,
       uint64_t{t.inputDyTmpTensorPos} + t.oneCalSize},
      {"resForGammaTmpTensorPos", t.resForGammaTmpTensorPos,
       uint64_t{t.resForGammaTmpTensorPos} + t.oneCalSize},
  };
  CheckScratchRegions(kApi, regions, 4, "stackBufferSize", t.stackBufferSize,
                      "", " (a tiling made for float?)");
  return scratch;
}

void Run(const normgrad::GradBetaProblem& problem) {
  const normgrad::Status status = normgrad::LayerNormGradBeta(problem);
  if (!status.ok()) {
    Fail("LayerNormGradBeta: the engine refused the problem: %s",
         status.message().c_str());
  }
}

// The engine problem for the whole call: sequential order on one thread
// (the device algorithm). The running sums carry across the tiling's chunks
// of bsCurLength rows, so chunking changes no bit; the engine gets the
// whole call as one chunk (chunk_rows 0), which lets it add rows in its
// widest groups (a kernel calling this per tile of a few rows would
// otherwise pay a pass over the accumulators for every row or two).
normgrad::GradBetaProblem Problem(const LayerNormGradBetaArgs& a,
                                  const LayerNormGradBetaTiling& t) {
  normgrad::GradBetaProblem p;
  p.dtype = a.is_half ? normgrad::DType::kF16 : normgrad::DType::kF32;
  p.rows = t.bsLength;
  p.cols = t.hLength;
  p.dy = a.input_dy.data();
  p.res = a.res_for_gamma.data();
  p.pd_gamma = a.pd_gamma.data();
  p.pd_beta = a.pd_beta.data();
  p.order = normgrad::Order::kSequential;
  p.chunk_rows = 0;
  p.threads = 1;
  return p;
}

// float with isReuseSource (docs/layernormgradbeta.md, "isReuseSource"):
// each chunk's products dy·res were written over resForGamma[0, chunk
// length), so it ends up holding the last chunk's products in
// [0, inputTailSize) — all of [0, oneCalSize) without a tail — and the last
// full chunk's in [inputTailSize, oneCalSize). Sources lie at or beyond what
// is written, so writing in place is safe.
void ClobberResForGamma(const LayerNormGradBetaTiling& t, float* res,
                        const float* dy) {
  const uint64_t last_full = uint64_t{t.loopRound - 1} * t.oneCalSize;
  for (uint32_t i = t.inputTailSize; i < t.oneCalSize; ++i) {
    res[i] = dy[last_full + i] * res[last_full + i];
  }
  for (uint32_t i = 0; i < t.inputTailSize; ++i) {
    res[i] = dy[t.inputTailPos + i] * res[t.inputTailPos + i];
  }
}

// Ascend 950: no scratch, no chunks, nothing reused; half saturates. half
// sums kColumnBlock columns at a time into float accumulators on the stack
// and narrows them at once (an output placed over an input at a row start
// only overwrites columns already summed).
void RunAscend950(const LayerNormGradBetaArgs& a,
                  const LayerNormGradBetaTiling& t) {
  normgrad::GradBetaProblem p = Problem(a, t);
  if (!a.is_half) {
    Run(p);
    return;
  }
  float gamma[kColumnBlock];
  float beta[kColumnBlock];
  p.f32_outputs = true;
  p.row_stride = t.hLength;
  p.pd_gamma = gamma;
  p.pd_beta = beta;
  const auto* dy = static_cast<const normgrad::float16*>(p.dy);
  const auto* res = static_cast<const normgrad::float16*>(p.res);
  for (uint32_t col = 0; col < t.hLength; col += kColumnBlock) {
    p.cols = std::min(kColumnBlock, t.hLength - col);
    p.dy = dy + col;
    p.res = res + col;
    Run(p);
    NarrowToHalf(gamma, HalfData(a.pd_gamma) + col, p.cols, true);
    NarrowToHalf(beta, HalfData(a.pd_beta) + col, p.cols, true);
  }
}

}  // namespace

void RunLayerNormGradBeta(const LayerNormGradBetaArgs& a) {
  const LayerNormGradBetaTiling& t = *a.tiling;
  const Element e = HalfOrFloat(a.is_half);
  CheckPlacements(kApi, {{"outputPdGamma", a.pd_gamma},
                         {"outputPdBeta", a.pd_beta},
                         {"resForGamma", a.res_for_gamma},
                         {"inputDy", a.input_dy}});
  const bool chunked = a.pd_gamma.core->profile().profile != Profile::k950;
  CheckShape(t, e, chunked);
  CheckTensors(a, t, e);
  static std::atomic<bool> warned{false};
  if (a.is_half && a.reuse_source) {
    WarnHalfReuseOnce(warned, kApi, "the inputs are");
  }

  if (!chunked) {
    RunAscend950(a, t);
    return;
  }

  CheckChunking(t);
  const TensorView scratch = CheckedScratch(a, t);
  normgrad::GradBetaProblem p = Problem(a, t);
  if (!a.is_half) {
    Run(p);
    if (a.reuse_source) {
      ClobberResForGamma(t, FloatData(a.res_for_gamma), FloatData(a.input_dy));
    }
    return;
  }
  // half: float accumulators in the scratch, then round half to even.
  float* acc = FloatData(scratch);
  p.f32_outputs = true;
  p.pd_gamma = acc + t.gammaTempTensorPos;
  p.pd_beta = acc + t.betaTempTensorPos;
  Run(p);
  normgrad::Narrow(acc + t.gammaTempTensorPos, HalfData(a.pd_gamma), t.hLength);
  normgrad::Narrow(acc + t.betaTempTensorPos, HalfData(a.pd_beta), t.hLength);
}

}  // namespace normgrad_ascendc

// tests/fuzz/layernormgradbeta_tiling_fuzz.cc — libFuzzer target of
// LayerNormGradBeta's host tiling: GetLayerNormGradBetaMaxMinTmpSize and both
// overloads of GetLayerNormGradBetaNDTilingInfo.
//
// Invariants checked (beyond "does not crash"):
//   - the size query gives both sizes or neither, minValue <= maxValue;
//   - the two tiling overloads give the same bytes; a failure zeroes them;
//   - where the size query fails the tiling fails, and a scratch of at least
//     minValue bytes always gives a tiling;
//   - a tiling describes the shape and covers B*S*H in whole rows:
//     loopRound*oneCalSize + inputTailSize = B*S*H, oneCalSize a multiple of
//     H and at most B*S*H; and its buffers (half: gamma and beta sums of H
//     floats, then two chunks) lie inside the scratch it was given.
#include "tiling_fuzz_input.h"

namespace {

constexpr char kApi[] = "GetLayerNormGradBetaNDTilingInfo";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tiling_fuzz::Check;
  FuzzedDataProvider in(data, size);
  auto [a, min_value, scratch, t] =
      tiling_fuzz::QueryAndTile<AscendC::tiling::LayerNormGradBetaTiling,
                                optiling::LayerNormGradBetaTiling>(
          in, "GetLayerNormGradBetaMaxMinTmpSize", kApi,
          [](auto&&... x) { AscendC::GetLayerNormGradBetaMaxMinTmpSize(x...); },
          [](auto&&... x) { AscendC::GetLayerNormGradBetaNDTilingInfo(x...); });
  const bool ok = t.oneCalSize != 0;
  if (min_value == 0) Check(!ok, kApi, a, scratch, "no tiling where the size query fails");
  if (min_value != 0 && scratch >= min_value) {
    Check(ok, kApi, a, scratch, "a scratch of minValue bytes or more gives a tiling");
  }
  if (!ok) {
    Check(tiling_fuzz::AllZero(t), kApi, a, scratch, "a failure zeroes the whole tiling");
    return 0;
  }

  const uint64_t h = t.hLength, bsh = t.bshLength, one = t.oneCalSize;
  Check(t.bLength == a.shape.GetDim(0) && t.sLength == a.shape.GetDim(1) &&
            h == static_cast<uint64_t>(a.shape.GetDim(2)) && t.originalHLength == h &&
            t.bsLength == uint64_t{t.bLength} * t.sLength && bsh == t.bsLength * h,
        kApi, a, scratch, "the tiling describes the shape");
  Check(one % h == 0 && one <= bsh && t.bshCurLength == one && t.bsCurLength * h == one, kApi, a,
        scratch, "a chunk is whole rows, at most B*S*H");
  Check(uint64_t{t.loopRound} * one + t.inputTailSize == bsh && t.inputTailSize < one &&
            t.inputTailPos == bsh - t.inputTailSize && t.bsTailSize * h == t.inputTailSize,
        kApi, a, scratch, "the chunks and the tail cover B*S*H");
  const uint64_t floats = t.stackBufferSize;
  Check(floats == scratch / 4, kApi, a, scratch, "stackBufferSize is the scratch in floats");
  if (a.type_size == 2) {
    Check(t.numberOfTmpBuf == 2 && t.gammaTempTensorPos == 0 && t.betaTempTensorPos == h &&
              t.inputDyTmpTensorPos == 2 * h && t.resForGammaTmpTensorPos == 2 * h + one &&
              2 * h + 2 * one <= floats,
          kApi, a, scratch, "half: two sums of H, two chunks, inside the scratch");
  } else {
    Check(t.numberOfTmpBuf == 1 && one <= floats, kApi, a, scratch,
          "float: one chunk inside the scratch");
  }
  return 0;
}

// tests/fuzz/layernorm_tiling_fuzz.cc — libFuzzer target of LayerNorm's host
// tiling: GetLayerNormMaxMinTmpSize and both overloads of
// GetLayerNormNDTilingInfo.
//
// Invariants checked (beyond "does not crash"):
//   - the size query gives both sizes or neither, minValue <= maxValue;
//   - the two tiling overloads give the same bytes; a failure zeroes them;
//   - a scratch of at least minValue bytes always gives a tiling, and for
//     half, where the size query fails the tiling fails;
//   - a tiling describes the shape and covers B*S*H in whole rows; its
//     numberOfTmpBuf chunk buffers (after half's float means and variances)
//     lie inside the scratch it was given, without overlapping.
#include "tiling_fuzz_input.h"

namespace {

constexpr char kApi[] = "GetLayerNormNDTilingInfo";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using tiling_fuzz::Check;
  FuzzedDataProvider in(data, size);
  auto [a, min_value, scratch, t] =
      tiling_fuzz::QueryAndTile<AscendC::tiling::LayerNormTiling, optiling::LayerNormTiling>(
          in, "GetLayerNormMaxMinTmpSize", kApi,
          [](auto&&... x) { AscendC::GetLayerNormMaxMinTmpSize(x...); },
          [](auto&&... x) { AscendC::GetLayerNormNDTilingInfo(x...); });
  const bool ok = t.oneTmpSize != 0;
  // Half only: for float the size query counts 2*roundup32(4*B*S) bytes of
  // means and variances that the float tiling does not place in the scratch,
  // so it can refuse (minValue beyond 32 bits) a shape the tiling accepts.
  if (min_value == 0 && a.type_size == 2) {
    Check(!ok, kApi, a, scratch, "no half tiling where the size query fails");
  }
  if (min_value != 0 && scratch >= min_value) {
    Check(ok, kApi, a, scratch, "a scratch of minValue bytes or more gives a tiling");
  }
  if (!ok) {
    Check(tiling_fuzz::AllZero(t), kApi, a, scratch, "a failure zeroes the whole tiling");
    return 0;
  }

  const uint64_t h = t.hLength, bs = t.meanVarSize, bsh = t.inputXSize, one = t.oneTmpSize;
  Check(t.bLength == a.shape.GetDim(0) && t.sLength == a.shape.GetDim(1) &&
            h == static_cast<uint64_t>(a.shape.GetDim(2)) && t.originalHLength == h &&
            bs == uint64_t{t.bLength} * t.sLength && bsh == bs * h &&
            t.lastDimValueBack == 1.0f / static_cast<float>(h),
        kApi, a, scratch, "the tiling describes the shape");
  Check(one % h == 0 && one <= bsh && t.inputRoundSize == one && t.bshCurLength == one &&
            t.meanVarRoundSize * h == one && t.bsCurLength * h == one,
        kApi, a, scratch, "a chunk is whole rows, at most B*S*H");
  Check(uint64_t{t.loopRound} * one + t.inputTailSize == bsh && t.inputTailSize < one &&
            t.inputTailPos == bsh - t.inputTailSize && t.meanVarTailSize * h == t.inputTailSize &&
            t.meanVarTailPos + uint64_t{t.meanVarTailSize} == bs,
        kApi, a, scratch, "the chunks and the tail cover B*S*H");
  const uint64_t floats = t.tmpBufSize;
  const uint64_t n = t.numberOfTmpBuf;
  Check(floats == scratch / 4, kApi, a, scratch, "tmpBufSize is the scratch in floats");
  Check(n == (a.type_size == 4 && a.reuse ? 2 : 3) &&
            t.secondTmpStartPos == t.firstTmpStartPos + one &&
            t.thirdTmpStartPos == t.secondTmpStartPos + one &&
            t.firstTmpStartPos + n * one <= floats,
        kApi, a, scratch, "the chunk buffers follow each other inside the scratch");
  Check(t.meanTmpTensorSize >= bs && t.meanTmpTensorSize % 8 == 0 &&
            t.varianceTmpTensorSize == t.meanTmpTensorSize,
        kApi, a, scratch, "means and variances: B*S rounded up to 8 floats each");
  if (a.type_size == 2) {
    Check(t.meanTmpTensorPos == 0 && t.varianceTmpTensorPos == t.meanTmpTensorSize &&
              t.varianceTmpTensorPos + uint64_t{t.varianceTmpTensorSize} <= t.firstTmpStartPos,
          kApi, a, scratch, "half: means and variances before the chunk buffers");
  }
  return 0;
}

// tests/fuzz/layernormgrad_tiling_fuzz.cc — libFuzzer target of
// LayerNormGrad's host tiling: GetLayerNormGradMaxMinTmpSize and both
// overloads of GetLayerNormGradNDTilingInfo, on every product profile.
//
// Invariants checked (beyond "does not crash"):
//   - the size query gives minValue <= maxValue, both or neither;
//   - the two tiling overloads give the same bytes; a failure zeroes them;
//   - a scratch of at least minValue bytes always gives a tiling (the size
//     query's minimum follows the vendor's formula, nbuf*typeSize*min(B*S*H,
//     H*H) bytes, which can exceed 32 bits where the tiling needs only
//     nbuf*H*4 bytes: so where it fails the tiling may still succeed);
//   - a tiling describes the shape and covers B*S*H in whole rows; outside
//     the 950 profile its nbuf regions (9 half, 4 float with reuse, else 6)
//     of oneCalSize floats lie inside the scratch it was given, without
//     overlapping; on the 950 profile a chunk is one element.
#include <algorithm>
#include <utility>

#include "normgrad_ascendc/runtime/profile.h"
#include "tiling_fuzz_input.h"

namespace {

constexpr char kApi[] = "GetLayerNormGradNDTilingInfo";

uint32_t Bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using normgrad_ascendc::Profile;
  using tiling_fuzz::Check;
  FuzzedDataProvider in(data, size);
  const Profile profile = in.PickValueInArray({Profile::kA2, Profile::k310P, Profile::k950});
  normgrad_ascendc::SetProfile(profile);
  const bool p950 = profile == Profile::k950;
  auto [a, min_value, scratch, t] = tiling_fuzz::QueryAndTile<AscendC::tiling::LayerNormGradTiling,
                                                              optiling::LayerNormGradTiling>(
      in, "GetLayerNormGradMaxMinTmpSize", kApi,
      [](auto&&... x) { AscendC::GetLayerNormGradMaxMinTmpSize(x...); },
      [](auto&&... x) { AscendC::GetLayerNormGradNDTilingInfo(x...); });
  const bool ok = t.oneCalSize != 0;
  if (min_value != 0 && scratch >= min_value) {
    Check(ok, kApi, a, scratch, "a scratch of minValue bytes or more gives a tiling");
  }
  if (!ok) {
    Check(tiling_fuzz::AllZero(t), kApi, a, scratch, "a failure zeroes the whole tiling");
    return 0;
  }

  const uint64_t h = t.hLength, bs = uint64_t{t.bLength} * t.sLength, bsh = bs * h;
  const uint64_t one = t.oneCalSize, rows = t.nohCalSize;
  Check(t.bLength == a.shape.GetDim(0) && t.sLength == a.shape.GetDim(1) &&
            h == static_cast<uint64_t>(a.shape.GetDim(2)) && t.originalHLength == h &&
            t.stackBufferSize == scratch &&
            t.lastDimValueBack == Bits(1.0f / static_cast<float>(h)) &&
            t.lastDimValueBackMulTwo == Bits(2.0f / static_cast<float>(h)),
        kApi, a, scratch, "the tiling describes the shape and the scratch");
  Check(uint64_t{t.loopNum} * one + t.tailSize == bsh && t.tailSize < one &&
            uint64_t{t.nohTailSize} * h == t.tailSize - t.tailSize % h,
        kApi, a, scratch, "the chunks and the tail cover B*S*H");
  if (p950) {
    Check(one == 1 && rows == 1, kApi, a, scratch, "950: chunks of one element");
    return 0;
  }
  Check(rows >= 1 && rows <= bs && one == rows * h && t.tailSize % h == 0, kApi, a, scratch,
        "a chunk is nohCalSize whole rows, at most B*S");
  const bool half = a.type_size == 2, reuse_float = a.reuse && !half;
  std::vector<std::pair<uint64_t, uint64_t>> regions = {{t.tmpTensorBSHPos, t.tmpTensorBSHSize},
                                                        {t.pdVarTensorPos, t.pdVarTensorSize},
                                                        {t.pdMeanTensorPos, t.pdMeanTensorSize},
                                                        {t.x3TensorPos, t.x3TensorSize}};
  if (!reuse_float) {
    regions.push_back({t.x1TensorPos, t.x1TensorSize});
    regions.push_back({t.x2TensorPos, t.x2TensorSize});
  }
  if (half) {
    regions.push_back({t.tmpTensorPos, t.tmpTensorSize});
    regions.push_back({t.tmpTensor1Pos, t.tmpTensor1Size});
    regions.push_back({t.tmpTensor2Pos, t.tmpTensor2Size});
  }
  Check(regions.size() == (half ? 9u : reuse_float ? 4u : 6u), kApi, a, scratch, "nbuf regions");
  std::sort(regions.begin(), regions.end());
  uint64_t end = 0;
  for (const auto& [pos, region_size] : regions) {
    Check(region_size == one && pos >= end, kApi, a, scratch,
          "the regions hold a chunk each and do not overlap");
    end = pos + region_size;
  }
  Check(end * 4 <= scratch, kApi, a, scratch, "the regions lie inside the scratch");
  return 0;
}

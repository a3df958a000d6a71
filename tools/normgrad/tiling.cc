// tools/normgrad/tiling.cc — `normgrad tiling`: the scratch-size range and
// the LayerNormGradBeta tiling for a shape, a type size and a scratch size,
// computed by the host tiling API (GetLayerNormGradBetaMaxMinTmpSize and
// GetLayerNormGradBetaNDTilingInfo), as text or as one JSON object.
//
// On bad input the tiling API prints its own message on stderr and returns
// zeros (spec §4); the command detects that and exits 1.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "commands.h"
#include "dims.h"
#include "normgrad_ascendc/profile.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "tiling";
constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

void PrintJson(uint32_t min_value, uint32_t max_value,
               const AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  std::printf("{\"minValue\": %u, \"maxValue\": %u, \"tiling\": {", min_value, max_value);
  const char* separator = "";
  for (const auto& field : normgrad_ascendc::LayerNormGradBetaTilingFields(tiling)) {
    std::printf("%s\"%s\": %u", separator, field.name, field.value);
    separator = ", ";
  }
  std::printf("}}\n");
}

void PrintText(const std::vector<uint64_t>& dims, const TilingOptions& o, uint32_t min_value,
               uint32_t max_value, uint32_t tmp,
               const AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  normgrad_ascendc::Profile profile = normgrad_ascendc::Profile::kA2;
  normgrad_ascendc::ParseProfile(o.profile.c_str(), &profile);  // main.cc checked the key
  const normgrad_ascendc::ProfileInfo& info = normgrad_ascendc::GetProfileInfo(profile);
  std::printf("LayerNormGradBeta tiling: [B, S, H, originalH] = %s, %s (typeSize %u)\n",
              FormatDims(dims).c_str(), o.dtype.c_str(), o.dtype == "half" ? 2u : 4u);
  std::printf("profile: %s (%s), unified buffer %u bytes, queues and scratch below %u\n",
              info.key, info.name, info.ub_bytes, info.scratch_end);
  std::printf("scratch: min %u bytes, max %u bytes; tiling for %u bytes (--tmp %s)\n",
              min_value, max_value, tmp, o.tmp.c_str());
  for (const auto& field : normgrad_ascendc::LayerNormGradBetaTilingFields(tiling)) {
    std::printf("  %-24s %u\n", field.name, field.value);
  }
  std::printf("chunks: %u of %s (%u elements)", tiling.loopRound,
              FormatCount(tiling.bsCurLength, "row").c_str(), tiling.oneCalSize);
  if (tiling.inputTailSize > 0) {
    std::printf(" + a tail of %s (%u elements)", FormatCount(tiling.bsTailSize, "row").c_str(),
                tiling.inputTailSize);
  }
  std::printf("\n");
  if (profile == normgrad_ascendc::Profile::k950) {
    std::printf("note: on this profile the kernel uses no scratch and does not chunk "
                "(spec §6); the tiling functions return the same numbers\n");
  } else if (tmp > info.scratch_end) {
    std::printf("note: %u bytes of scratch do not fit in this profile's unified buffer "
                "(%u bytes for all queues and scratch)\n",
                tmp, info.scratch_end);
  }
}

}  // namespace

int RunTiling(const TilingOptions& o) {
  std::vector<uint64_t> dims;
  Status s = ParseDims(o.shape, kMaxU32, &dims);
  if (!s.ok()) return Fail(kCommand, "--shape: " + s.message());
  if (dims.size() == 3) dims.push_back(dims[2]);  // originalH defaults to H
  const uint32_t type_size = o.dtype == "half" ? 2 : 4;
  const ge::Shape shape(std::vector<int64_t>(dims.begin(), dims.end()));

  uint32_t max_value = 0, min_value = 0;
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, type_size, false, max_value, min_value);
  if (max_value == 0 && min_value == 0) {
    return Fail(kCommand, "no scratch sizes for shape " + FormatDims(dims) + " and " +
                          o.dtype + " (the tiling API's message above says why)");
  }
  uint64_t tmp = o.tmp == "min" ? min_value : max_value;
  if (o.tmp != "min" && o.tmp != "max") {
    s = ParseNumber(o.tmp, kMaxU32, "--tmp", &tmp);
    if (!s.ok()) return Fail(kCommand, s.message());
  }

  AscendC::tiling::LayerNormGradBetaTiling tiling;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, static_cast<uint32_t>(tmp), type_size,
                                            false, tiling);
  if (tiling.oneCalSize == 0) {
    return Fail(kCommand, "no tiling for shape " + FormatDims(dims) + ", " + o.dtype + " and " +
                          std::to_string(tmp) + " bytes of scratch (the tiling API's "
                          "message above says why)");
  }
  if (o.json) {
    PrintJson(min_value, max_value, tiling);
  } else {
    PrintText(dims, o, min_value, max_value, static_cast<uint32_t>(tmp), tiling);
  }
  return 0;
}

}  // namespace normgrad::cli

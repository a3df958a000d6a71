// tools/normgrad/tiling_groupnorm.cc — `normgrad tiling --op groupnorm`:
// shape [N, C, H, W], a type size, isReuseSource and --group-num, through
// GetGroupNormMaxMinTmpSize and GetGroupNormNDTilingInfo.
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

ge::Shape ShapeOf(const OpInput& in) {
  return ge::Shape(std::vector<int64_t>(in.dims.begin(), in.dims.end()));
}

void SizesOfGroupNorm(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetGroupNormMaxMinTmpSize(ShapeOf(in), in.type_size, in.options->reuse,
                                     in.options->group_num, max_value, min_value);
}

bool TilingOfGroupNorm(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::GroupNormTiling t;
  AscendC::GetGroupNormNDTilingInfo(ShapeOf(in), bytes, in.type_size, in.options->reuse,
                                    in.options->group_num, t);
  if (t.oneTmpSize == 0) return false;
  for (const auto& f : normgrad_ascendc::GroupNormTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.meanVarRoundSize, t.inputRoundSize, t.meanVarTailSize,
                          t.inputTailSize);
  out->chunks += " (a row is one group of d*hw elements)";
  if (in.profile == normgrad_ascendc::Profile::k310P) {
    out->note = "this profile has no GroupNorm: the kernel API refuses to run on it";
  }
  return true;
}

}  // namespace

std::vector<TilingOp> GroupNormTilingOps() {
  return {
      {"groupnorm", "GroupNorm", "N,C,H,W", "N, C, H, W", 4, 4, nullptr, SizesOfGroupNorm,
       TilingOfGroupNorm, NeverZero},
  };
}

}  // namespace normgrad::cli

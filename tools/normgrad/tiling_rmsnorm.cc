// tools/normgrad/tiling_rmsnorm.cc — `normgrad tiling --op rmsnorm`: shape
// [B, S, H, originalH] (H the 32-byte aligned row length; originalH defaults
// to H), a type size and --basic-block, through GetRmsNormMaxMinTmpSize and
// GetRmsNormTilingInfo.
#include <cstdint>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

// srcShape [B, S, H] and originSrcShape [B, S, originalH].
ge::Shape SrcShape(const OpInput& in) {
  return ge::Shape({static_cast<int64_t>(in.dims[0]), static_cast<int64_t>(in.dims[1]),
                    static_cast<int64_t>(in.dims[2])});
}

ge::Shape OriginShape(const OpInput& in) {
  return ge::Shape({static_cast<int64_t>(in.dims[0]), static_cast<int64_t>(in.dims[1]),
                    static_cast<int64_t>(in.dims[3])});
}

void CompleteOriginalH(std::vector<uint64_t>* dims) {
  if (dims->size() == 3) dims->push_back((*dims)[2]);
}

void RmsNormSizes(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetRmsNormMaxMinTmpSize(SrcShape(in), in.type_size, max_value, min_value,
                                   in.options->basic_block);
}

bool TilingOfRmsNorm(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::RmsNormTiling t;
  if (!AscendC::GetRmsNormTilingInfo(SrcShape(in), OriginShape(in), bytes, in.type_size, t,
                                     in.options->basic_block)) {
    return false;
  }
  for (const auto& f : normgrad_ascendc::RmsNormTilingFields(t)) out->fields.push_back(FieldOf(f));
  out->chunks =
      ChunkText(t.loopRound, t.mainBsLength, t.mainBshLength, t.tailBsLength, t.tailBshLength);
  if (in.options->basic_block) out->note = "isBasicBlock: chunks of a multiple of 8 rows";
  return true;
}

}  // namespace

std::vector<TilingOp> RmsNormTilingOps() {
  return {{"rmsnorm", "RmsNorm", "B,S,H[,Ho]", "B, S, H, originalH", 3, 4, CompleteOriginalH,
           RmsNormSizes, TilingOfRmsNorm, NeverZero}};
}

}  // namespace normgrad::cli

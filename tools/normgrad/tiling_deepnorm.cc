// tools/normgrad/tiling_deepnorm.cc — `normgrad tiling --op deepnorm`: shape
// [B, S, H, originalH] (originalH defaults to H), a type size, isReuseSource
// (--reuse) and isBasicBlock (--basic-block), through
// GetDeepNormMaxMinTmpSize and GetDeepNormTilingInfo.
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

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

void Sizes(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetDeepNormMaxMinTmpSize(SrcShape(in), in.type_size, in.options->reuse,
                                    in.options->basic_block, max_value, min_value);
}

bool Tiling(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::DeepNormTiling t;
  if (!AscendC::GetDeepNormTilingInfo(SrcShape(in), OriginShape(in), bytes, in.type_size,
                                      in.options->reuse, in.options->basic_block, t)) {
    return false;
  }
  for (const auto& f : normgrad_ascendc::DeepNormTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.meanVarRoundSize, t.inputRoundSize, t.meanVarTailSize,
                          t.inputTailSize);
  if (in.options->basic_block) out->note = "isBasicBlock: the same tiling and sizes";
  return true;
}

}  // namespace

std::vector<TilingOp> DeepNormTilingOps() {
  return {{"deepnorm", "DeepNorm", "B,S,H[,Ho]", "B, S, H, originalH", 3, 4, CompleteOriginalH,
           Sizes, Tiling, NeverZero}};
}

}  // namespace normgrad::cli

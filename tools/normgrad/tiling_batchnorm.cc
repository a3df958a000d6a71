// tools/normgrad/tiling_batchnorm.cc — `normgrad tiling --op batchnorm`:
// shape [B, S, H, originB] (originB defaults to B; originS and originH are
// S and H), a type size and --basic-block, through GetBatchNormMaxMinTmpSize
// and GetBatchNormNDTilingInfo.
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

void CompleteOriginB(std::vector<uint64_t>* dims) {
  if (dims->size() == 3) dims->push_back((*dims)[0]);
}

ge::Shape SrcShape(const OpInput& in) {
  return ge::Shape({static_cast<int64_t>(in.dims[0]), static_cast<int64_t>(in.dims[1]),
                    static_cast<int64_t>(in.dims[2])});
}

ge::Shape OriginShape(const OpInput& in) {
  return ge::Shape({static_cast<int64_t>(in.dims[3]), static_cast<int64_t>(in.dims[1]),
                    static_cast<int64_t>(in.dims[2])});
}

void SizesOfBatchNorm(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetBatchNormMaxMinTmpSize(SrcShape(in), OriginShape(in), in.type_size, in.options->reuse,
                                     max_value, min_value, in.options->basic_block);
}

bool TilingOfBatchNorm(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::BatchNormTiling t;
  if (!AscendC::GetBatchNormNDTilingInfo(SrcShape(in), OriginShape(in), bytes, in.type_size,
                                         in.options->reuse, t, in.options->basic_block)) {
    return false;
  }
  for (const auto& f : normgrad_ascendc::BatchNormTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = std::to_string(t.loopRound) + " of " + std::to_string(t.shCurLength) +
                " columns (" + std::to_string(t.bshCurLength) + " elements)";
  if (t.meanVarTailSize != 0) {
    out->chunks += " + a tail of " + std::to_string(t.meanVarTailSize) + " columns (" +
                   std::to_string(t.inputTailSize) + " elements)";
  }
  return true;
}

}  // namespace

std::vector<TilingOp> BatchNormTilingOps() {
  return {
      {"batchnorm", "BatchNorm", "B,S,H[,originB]", "B, S, H, originB", 3, 4, CompleteOriginB,
       SizesOfBatchNorm, TilingOfBatchNorm, NeverZero},
  };
}

}  // namespace normgrad::cli

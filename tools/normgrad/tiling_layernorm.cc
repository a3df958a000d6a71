// tools/normgrad/tiling_layernorm.cc — `normgrad tiling` for LayerNormGradBeta,
// LayerNormGrad and LayerNorm: shape [B, S, H, originalH] (originalH defaults
// to H), a type size and isReuseSource, through their Get…MaxMinTmpSize and
// Get…NDTilingInfo host functions; and LayerNorm's [A, R] form
// (layernorm-separate): shape [A, R] and the isComputeRstd overloads.
#include <cstring>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

using normgrad_ascendc::Profile;

ge::Shape ShapeOf(const OpInput& in) {
  return ge::Shape(std::vector<int64_t>(in.dims.begin(), in.dims.end()));
}

void CompleteOriginalH(std::vector<uint64_t>* dims) {
  if (dims->size() == 3) dims->push_back((*dims)[2]);
}

// The three APIs' size functions share one signature.
template <void (*kSizes)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&)>
void SizesOf(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  kSizes(ShapeOf(in), in.type_size, in.options->reuse, max_value, min_value);
}

bool TilingOfLayerNormGradBeta(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::LayerNormGradBetaTiling t;
  AscendC::GetLayerNormGradBetaNDTilingInfo(ShapeOf(in), bytes, in.type_size, in.options->reuse, t);
  if (t.oneCalSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormGradBetaTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.bsCurLength, t.oneCalSize, t.bsTailSize, t.inputTailSize);
  if (in.profile == Profile::k950) {
    out->note =
        "on this profile the kernel uses no scratch and does not chunk; "
        "the tiling functions return the same numbers";
  }
  return true;
}

bool TilingOfLayerNormGrad(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::LayerNormGradTiling t;
  AscendC::GetLayerNormGradNDTilingInfo(ShapeOf(in), bytes, in.type_size, in.options->reuse, t);
  if (t.oneCalSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormGradTilingFields(t)) {
    const bool bits = std::strncmp(f.name, "lastDimValueBack", 16) == 0;
    out->fields.push_back(bits ? FloatBitsField(f.name, f.value) : FieldOf(f));
  }
  out->chunks = ChunkText(t.loopNum, t.nohCalSize, t.oneCalSize, t.nohTailSize, t.tailSize);
  if (in.profile == Profile::k950) {
    out->note =
        "on this profile the kernel goes row by row (oneCalSize = "
        "nohCalSize = 1); its scratch holds x1 and x2 of one row";
  }
  return true;
}

bool TilingOfLayerNorm(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(ShapeOf(in), bytes, in.type_size, in.options->reuse, t);
  if (t.oneTmpSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.meanVarRoundSize, t.inputRoundSize, t.meanVarTailSize,
                          t.inputTailSize);
  return true;
}

// LayerNorm's [A, R] form: shape {A, R}, isComputeRstd true.
void SizesOfLayerNormSeparate(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetLayerNormMaxMinTmpSize(ShapeOf(in), in.type_size, in.options->reuse, true, false,
                                     max_value, min_value);
}

bool TilingOfLayerNormSeparate(const OpInput& in, uint32_t bytes, OpTiling* out) {
  AscendC::tiling::LayerNormSeparateTiling t;
  AscendC::GetLayerNormNDTilingInfo(ShapeOf(in), bytes, in.type_size, in.options->reuse, true, t);
  if (t.oneTmpSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormSeparateTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.meanVarRoundSize, t.inputRoundSize, t.meanVarTailSize,
                          t.inputTailSize);
  out->note = "the kernel goes row by row through two row buffers of the scratch";
  return true;
}

// LayerNormGrad on the Ascend 950 profile: float with isReuseSource needs
// no scratch.
bool LayerNormGradZeroSizes(const OpInput& in) {
  return in.profile == Profile::k950 && in.type_size == 4 && in.options->reuse;
}

}  // namespace

std::vector<TilingOp> LayerNormTilingOps() {
  constexpr const char* kForm = "B,S,H[,Ho]";
  constexpr const char* kNames = "B, S, H, originalH";
  return {
      {"layernorm-grad-beta", "LayerNormGradBeta", kForm, kNames, 3, 4, CompleteOriginalH,
       SizesOf<AscendC::GetLayerNormGradBetaMaxMinTmpSize>, TilingOfLayerNormGradBeta, NeverZero},
      {"layernorm-grad", "LayerNormGrad", kForm, kNames, 3, 4, CompleteOriginalH,
       SizesOf<AscendC::GetLayerNormGradMaxMinTmpSize>, TilingOfLayerNormGrad,
       LayerNormGradZeroSizes},
      {"layernorm", "LayerNorm", kForm, kNames, 3, 4, CompleteOriginalH,
       SizesOf<AscendC::GetLayerNormMaxMinTmpSize>, TilingOfLayerNorm, NeverZero},
      {"layernorm-separate", "LayerNorm ([A, R] form)", "A,R", "A, R", 2, 2, nullptr,
       SizesOfLayerNormSeparate, TilingOfLayerNormSeparate, NeverZero},
  };
}

}  // namespace normgrad::cli

// normgrad_ascendc/layernormgradbeta_host_tiling.h — the host-side tiling API
// of LayerNormGradBeta (spec layernormgradbeta.md §4, runtime.md §8): the host
// class optiling::LayerNormGradBetaTiling, the scratch-size query
// AscendC::GetLayerNormGradBetaMaxMinTmpSize and the tiling function
// AscendC::GetLayerNormGradBetaNDTilingInfo (filling the host class or the
// kernel-side struct), plus a by-name listing of the 20 fields for tools.
//
// Error policy (spec §4): these functions return void, as the vendor's do. On
// bad input they print one message on stderr that names the function, the
// argument, the value and the rule; the tiling functions then zero the whole
// tiling (the kernel refuses oneCalSize == 0), the size query returns 0 and 0.
// Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/shape.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::LayerNormGradBetaTiling (same names, same order),
/// and SaveToBuffer, which writes exactly the kernel struct's 80 bytes.
///
/// sizeof(LayerNormGradBetaTiling) is 512: programs malloc sizeof(host class)
/// bytes, SaveToBuffer into them and then copy a fixed amount (e.g. 400 bytes)
/// out, which stays in bounds only because the vendor's classes are large
/// (runtime.md §8). The tail past the 80 data bytes is zero and never saved.
class LayerNormGradBetaTiling {
 public:
  void set_stackBufferSize(uint32_t v) { s_.data.stackBufferSize = v; }
  void set_bLength(uint32_t v) { s_.data.bLength = v; }
  void set_sLength(uint32_t v) { s_.data.sLength = v; }
  void set_hLength(uint32_t v) { s_.data.hLength = v; }
  void set_originalHLength(uint32_t v) { s_.data.originalHLength = v; }
  void set_bshLength(uint32_t v) { s_.data.bshLength = v; }
  void set_bsLength(uint32_t v) { s_.data.bsLength = v; }
  void set_oneCalSize(uint32_t v) { s_.data.oneCalSize = v; }
  void set_numberOfTmpBuf(uint32_t v) { s_.data.numberOfTmpBuf = v; }
  void set_loopRound(uint32_t v) { s_.data.loopRound = v; }
  void set_inputTailSize(uint32_t v) { s_.data.inputTailSize = v; }
  void set_inputTailPos(uint32_t v) { s_.data.inputTailPos = v; }
  void set_bsTailSize(uint32_t v) { s_.data.bsTailSize = v; }
  void set_bshCurLength(uint32_t v) { s_.data.bshCurLength = v; }
  void set_bsCurLength(uint32_t v) { s_.data.bsCurLength = v; }
  void set_gammaTempTensorPos(uint32_t v) { s_.data.gammaTempTensorPos = v; }
  void set_betaTempTensorPos(uint32_t v) { s_.data.betaTempTensorPos = v; }
  void set_inputDyTmpTensorPos(uint32_t v) { s_.data.inputDyTmpTensorPos = v; }
  void set_resForGammaTmpTensorPos(uint32_t v) {
    s_.data.resForGammaTmpTensorPos = v;
  }
  void set_reserved(uint32_t v) { s_.data.reserved = v; }

  uint32_t get_stackBufferSize() const { return s_.data.stackBufferSize; }
  uint32_t get_bLength() const { return s_.data.bLength; }
  uint32_t get_sLength() const { return s_.data.sLength; }
  uint32_t get_hLength() const { return s_.data.hLength; }
  uint32_t get_originalHLength() const { return s_.data.originalHLength; }
  uint32_t get_bshLength() const { return s_.data.bshLength; }
  uint32_t get_bsLength() const { return s_.data.bsLength; }
  uint32_t get_oneCalSize() const { return s_.data.oneCalSize; }
  uint32_t get_numberOfTmpBuf() const { return s_.data.numberOfTmpBuf; }
  uint32_t get_loopRound() const { return s_.data.loopRound; }
  uint32_t get_inputTailSize() const { return s_.data.inputTailSize; }
  uint32_t get_inputTailPos() const { return s_.data.inputTailPos; }
  uint32_t get_bsTailSize() const { return s_.data.bsTailSize; }
  uint32_t get_bshCurLength() const { return s_.data.bshCurLength; }
  uint32_t get_bsCurLength() const { return s_.data.bsCurLength; }
  uint32_t get_gammaTempTensorPos() const { return s_.data.gammaTempTensorPos; }
  uint32_t get_betaTempTensorPos() const { return s_.data.betaTempTensorPos; }
  uint32_t get_inputDyTmpTensorPos() const {
    return s_.data.inputDyTmpTensorPos;
  }
  uint32_t get_resForGammaTmpTensorPos() const {
    return s_.data.resForGammaTmpTensorPos;
  }
  uint32_t get_reserved() const { return s_.data.reserved; }

  /// The number of bytes SaveToBuffer writes: 80, sizeof the kernel struct.
  size_t GetDataSize() const { return sizeof(s_.data); }

  /// Copies the GetDataSize() bytes (the kernel struct's bytes, field order)
  /// to dst. If dst is null or capacity < GetDataSize(), copies nothing and
  /// prints a message on stderr.
  void SaveToBuffer(void* dst, size_t capacity) const;

 private:
  static constexpr size_t kHostClassSize = 512;
  struct Storage {
    AscendC::tiling::LayerNormGradBetaTiling data;
    uint8_t unused_tail[kHostClassSize -
                        sizeof(AscendC::tiling::LayerNormGradBetaTiling)] = {};
  };
  Storage s_;
};

}  // namespace optiling

namespace AscendC {

/// Scratch sizes in bytes for LayerNormGradBeta on srcShape = {B, S, H,
/// originalH} with elements of typeSize bytes (2 half, 4 float):
///   half:  maxValue = 16*B*S*H, minValue = 16*H
///   float: maxValue =  8*B*S*H, minValue =  8*H
/// maxValue saturates at 2^32-1 when it does not fit in 32 bits (it is only a
/// reference value). isReuseSource is ignored. The shape rules are those of
/// GetLayerNormGradBetaNDTilingInfo (including originalH == H, since no tiling
/// exists for other shapes); on bad input: a message on stderr and
/// maxValue = minValue = 0, also when minValue itself does not fit in 32 bits.
void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape,
                                       uint32_t typeSize, bool isReuseSource,
                                       uint32_t& maxValue, uint32_t& minValue);

/// Fills the host tiling for srcShape = {B, S, H, originalH}, a scratch
/// buffer of stackBufferSize BYTES and elements of typeSize bytes (spec §4).
/// isReuseSource does not change the tiling. Bad input — typeSize not 2 or
/// 4, rank not 4, a dimension outside [1, 2^32-1], originalH != H, B*S or
/// B*S*H beyond 32 bits, too little scratch — prints a message on stderr and
/// zeroes the whole tiling.
void GetLayerNormGradBetaNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool isReuseSource, optiling::LayerNormGradBetaTiling& tiling);

/// The same, filling the kernel-side struct directly; its bytes equal those
/// the host overload's SaveToBuffer writes.
void GetLayerNormGradBetaNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool isReuseSource, AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace AscendC

namespace normgrad_ascendc {

/// One field of a tiling struct, by name, for printing (e.g. `normgrad
/// tiling --json`).
struct TilingField {
  const char* name;
  uint32_t value;
};

/// The 20 fields of a LayerNormGradBetaTiling in struct order, named exactly
/// as the struct members ("stackBufferSize", "bLength", ..., "reserved").
std::array<TilingField, 20> LayerNormGradBetaTilingFields(
    const AscendC::tiling::LayerNormGradBetaTiling& tiling);

}  // namespace normgrad_ascendc

// normgrad_ascendc/vector/vector_mask.h — the mask register of an emulated core
// and its mode (vector_unit.h reads and sets it), and its comparison-result
// register (vector_select.h). A block starts with every mask bit set, in
// normal mode, and the comparison-result register zeroed.
#pragma once

#include <cstdint>

namespace AscendC {

/// How the mask register is read: NORMAL, a bit per lane of each repeat;
/// COUNTER, the number of elements of the whole instruction.
enum class MaskMode : uint8_t {
  NORMAL = 0,
  COUNTER,
};

}  // namespace AscendC

namespace normgrad_ascendc {

struct VectorMask {
  uint64_t low = ~uint64_t{0};
  uint64_t high = ~uint64_t{0};
  AscendC::MaskMode mode = AscendC::MaskMode::NORMAL;
};

/// The comparison-result register (CMPMASK), 128 bits as 16 bytes, bit k of
/// byte k / 8 for lane k: Compare's register form writes it, GetCmpMask and
/// SetCmpMask read and load it, Select reads it where no selMask argument
/// gives the selection.
struct CmpMaskRegister {
  uint8_t bytes[16] = {};
};

}  // namespace normgrad_ascendc

// normgrad_ascendc/vector_mask.h — the mask register of an emulated core and
// its mode (vector_unit.h reads and sets it). A block starts with every bit
// set, in normal mode.
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

}  // namespace normgrad_ascendc

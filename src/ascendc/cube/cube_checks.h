// cube_checks.h — the operand and parameter rules the cube instructions
// share (cube_ops.cc, cube_table_copy.cc); each failure is a KernelError
// naming the call, the argument, the value and the rule.
#pragma once

#include <cstdint>
#include <initializer_list>

#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// A live, non-empty LocalTensor at one of `positions` (their names in
/// `expected`), starting at a multiple of `align` bytes.
void CheckOperand(const char* api, const char* which, const TensorView& view,
                  std::initializer_list<AscendC::TPosition> positions,
                  const char* expected, uint32_t align);
/// `needed` bytes fit in the operand's `bytes`.
void CheckFits(const char* api, const char* which, uint64_t needed,
               uint32_t bytes, const char* what);
/// `value` is in [lo, hi].
void CheckRange(const char* api, const char* field, uint64_t value, uint64_t lo,
                uint64_t hi);

}  // namespace normgrad_ascendc

// src/ascendc/lib/common/tiling_checks.h — what the host tiling functions of the
// normalization APIs share (internal, not installed): normgrad's error
// policy for the vendor-signature functions (one line on stderr naming the
// function, the argument, the value and the rule; the caller then zeroes its
// outputs) and the validation of a {B, S, H, originalH} shape with a type
// size. Used by layernormgradbeta_host_tiling.cc and layernormgrad_host_tiling.cc.
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/tiling/shape.h"

namespace normgrad_ascendc {
namespace host_tiling {

inline constexpr uint64_t kU32Max = 0xFFFFFFFFu;

/// One line on stderr: "<function>: <problem>; <consequence>."
void Report(const char* function, const std::string& problem,
            const char* consequence);

/// "[2, 4, 16, 16]".
std::string ShapeText(const ge::Shape& shape);

/// The validated dimensions of srcShape = {B, S, H, originalH}.
struct Dims {
  uint32_t b;
  uint32_t s;
  uint32_t h;
  uint32_t bs;
  uint32_t bsh;
};

/// Checks typeSize (2 or 4) and srcShape (rank 4, every dimension in
/// [1, 2^32-1], originalH == H, B*S and B*S*H within 32 bits). On success
/// fills *dims and returns true; otherwise reports one message for
/// `function`, ending with `consequence`, and returns false.
bool CheckInputs(const char* function, const ge::Shape& shape,
                 uint32_t type_size, const char* consequence, Dims* dims);

}  // namespace host_tiling
}  // namespace normgrad_ascendc

// src/ascendc/lib/common/tiling_checks.h — what the host tiling functions of
// the advanced APIs share (internal, not installed): normgrad's error policy
// for the vendor-signature functions (one line on stderr naming the
// function, the argument, the value and the rule; the caller then zeroes its
// outputs), the checks of a type size and of a shape's rank and dimensions,
// and the validation of a {B, S, H, originalH} shape with a type size.
#pragma once

#include <cstdint>
#include <initializer_list>
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

/// Checks that the type size `argument` ("typeSize") is 2 or 4; `two` names
/// the 2-byte types the API takes ("half"). Otherwise reports "<argument>
/// <size> is not supported: it must be 2 (<two>) or 4 (float)" for
/// `function`, ending with `consequence`, and returns false.
bool CheckTypeSize(const char* function, const char* argument, uint32_t size,
                   const char* two, const char* consequence);

/// The names of a shape's dimensions, in order ({"B", "S", "H"}).
using DimNames = std::initializer_list<const char*>;

/// Checks that `shape` (`text` in messages: "srcShape [2, 4]") has one
/// dimension per name. Otherwise reports "<text> has <n> dimensions: it must
/// have <names.size()>, {<names>}" and returns false.
bool CheckRank(const char* function, const std::string& text,
               const ge::Shape& shape, DimNames names, const char* consequence);

/// Checks that each dimension of `shape` is in [1, 2^32-1] and stores them
/// in dims[0, names.size()). Otherwise reports "<text> has <name> = <value>:
/// every dimension must be in [1, 4294967295]" for the first one outside and
/// returns false.
bool CheckDimRanges(const char* function, const std::string& text,
                    const ge::Shape& shape, DimNames names,
                    const char* consequence, uint64_t* dims);

/// CheckRank, then CheckDimRanges.
bool CheckDims(const char* function, const std::string& text,
               const ge::Shape& shape, DimNames names, const char* consequence,
               uint64_t* dims);

/// The number of elements of srcShape `shape`, of any rank: stores it in
/// `elements` when the shape has a dimension, every dimension is at least 1
/// and the product at most 2^32-1. Otherwise reports "srcShape <shape> has no
/// dimension: ..." or "srcShape <shape> has dimension <i> = <d>: every
/// dimension must be at least 1 and the elements at most 4294967295
/// (<count> is 32 bits)" and returns false; `count` names the API's element
/// count ("calCount").
bool CountElements(const char* function, const ge::Shape& shape,
                   const char* count, const char* consequence,
                   uint64_t* elements);

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

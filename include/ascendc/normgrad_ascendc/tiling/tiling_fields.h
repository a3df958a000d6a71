// normgrad_ascendc/tiling/tiling_fields.h — a tiling struct's fields written
// once: the field-list convention, the macros that make the struct, the host
// class, the host copy and the by-name listing from a list, and TilingField,
// one entry of that listing.
//
// Each op's kernel-side header (e.g. layernormgradbeta_tiling.h) defines one
// field list, an X-macro that names every field's type and name in the order
// of the documented struct:
//
//   #define NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(X)
//     X(uint32_t, stackBufferSize)
//     X(uint32_t, bLength)
//     ...
//
// (one line each, joined by line continuations).
//
// Everything that lists the fields is made from it by passing one of these
// macros as X:
//   NORMGRAD_TILING_STRUCT_MEMBER  the kernel-side struct's members, each 0;
//   NORMGRAD_TILING_DATA_FIELD     the host class's fields (tiling_data.h),
//                                  so both have the same bytes;
//   NORMGRAD_TILING_SET_FIELD      the copy of a kernel-side struct `kernel`
//                                  into a host object `host`, field by field;
//   NORMGRAD_TILING_NAMED_FIELD    the by-name listing of a kernel-side struct
//                                  `tiling`, as TilingField entries;
// and NORMGRAD_TILING_FIELD_COUNT(list) is the number of fields.
// A field's type is uint32_t or float, the types TilingField holds.
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

/// One field of a tiling struct, by name, for printing (e.g. `normgrad
/// tiling --json`): a uint32_t field's value or a float field's value.
struct TilingField {
  enum class Type : uint8_t { kUint32, kFloat };

  constexpr TilingField(const char* field_name, uint32_t v)
      : name(field_name), type(Type::kUint32), value(v) {}
  constexpr TilingField(const char* field_name, float v)
      : name(field_name), type(Type::kFloat), float_value(v) {}

  const char* name;          ///< the struct member's name
  Type type;                 ///< the member's type
  uint32_t value = 0;        ///< a uint32_t member's value (0 for a float)
  float float_value = 0.0f;  ///< a float member's value (0 for a uint32_t)
};

}  // namespace normgrad_ascendc

/// A member of the kernel-side struct, 0 by default.
#define NORMGRAD_TILING_STRUCT_MEMBER(type, name) type name{};

/// A field of the host tiling class (TILING_DATA_FIELD_DEF, tiling_data.h).
#define NORMGRAD_TILING_DATA_FIELD(type, name) \
  TILING_DATA_FIELD_DEF(type, name);

/// host.set_<name>(kernel.<name>): where a host tiling object `host` and a
/// kernel-side struct `kernel` of the same op are in scope.
#define NORMGRAD_TILING_SET_FIELD(type, name) host.set_##name(kernel.name);

/// The TilingField of member <name> of a kernel-side struct `tiling`, and a
/// comma: the elements of a braced list.
#define NORMGRAD_TILING_NAMED_FIELD(type, name) \
  ::normgrad_ascendc::TilingField(#name, tiling.name),

/// One field, counted (NORMGRAD_TILING_FIELD_COUNT).
#define NORMGRAD_TILING_COUNT_ONE(type, name) +1

/// The number of fields in a field list, a constant expression.
#define NORMGRAD_TILING_FIELD_COUNT(list) (0 list(NORMGRAD_TILING_COUNT_ONE))

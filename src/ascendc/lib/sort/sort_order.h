// src/ascendc/lib/sort/sort_order.h — the one order of values the Sort
// family ranks by (internal, not installed; docs/sort.md, "Order"): every
// element type mapped to a 64-bit rank whose unsigned order is the order of
// the values, NaN above every number, −0 equal to +0; and the element's
// size and name.
#pragma once

#include <cstdint>
#include <cstring>

#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace normgrad_ascendc {

/// The rank of every NaN: above every number.
inline constexpr uint64_t kNanRank = ~uint64_t{0};

/// The rank of a floating value: its double's bits, turned so that their
/// unsigned order is the numeric order (negative values' bits inverted,
/// positive values' sign bit set); −0 ranks as +0.
inline uint64_t FloatRank(double d) {
  if (d != d) return kNanRank;
  if (d == 0) d = 0;
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  const uint64_t sign = uint64_t{1} << 63;
  return (bits & sign) != 0 ? ~bits : bits | sign;
}

/// Whether `rank` is a NaN's.
inline bool IsNanRank(SortElem e, uint64_t rank) {
  return rank == kNanRank &&
         (e == SortElem::kHalf || e == SortElem::kBfloat16 ||
          e == SortElem::kFloat);
}

/// The rank of element i of `data`, of type e.
inline uint64_t RankAt(SortElem e, const uint8_t* data, uint64_t i) {
  const uint64_t sign = uint64_t{1} << 63;
  switch (e) {
    case SortElem::kUint8:
      return data[i];
    case SortElem::kInt8:
      return static_cast<uint64_t>(int64_t{static_cast<int8_t>(data[i])}) ^
             sign;
    case SortElem::kUint16: {
      uint16_t v;
      std::memcpy(&v, data + 2 * i, 2);
      return v;
    }
    case SortElem::kInt16: {
      int16_t v;
      std::memcpy(&v, data + 2 * i, 2);
      return static_cast<uint64_t>(int64_t{v}) ^ sign;
    }
    case SortElem::kUint32: {
      uint32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      return v;
    }
    case SortElem::kInt32: {
      int32_t v;
      std::memcpy(&v, data + 4 * i, 4);
      return static_cast<uint64_t>(int64_t{v}) ^ sign;
    }
    case SortElem::kHalf: {
      half v;
      std::memcpy(static_cast<void*>(&v), data + 2 * i, 2);
      return FloatRank(static_cast<float>(v));
    }
    case SortElem::kBfloat16: {
      bfloat16_t v;
      std::memcpy(static_cast<void*>(&v), data + 2 * i, 2);
      return FloatRank(static_cast<float>(v));
    }
    case SortElem::kFloat: {
      float v;
      std::memcpy(&v, data + 4 * i, 4);
      return FloatRank(v);
    }
    case SortElem::kUint64: {
      uint64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      return v;
    }
    case SortElem::kInt64: {
      uint64_t v;
      std::memcpy(&v, data + 8 * i, 8);
      return v ^ sign;
    }
    case SortElem::kOther:
      break;
  }
  return 0;
}

/// Bytes of an element of type e.
constexpr uint32_t SortElemBytes(SortElem e) {
  switch (e) {
    case SortElem::kUint8:
    case SortElem::kInt8:
      return 1;
    case SortElem::kUint16:
    case SortElem::kInt16:
    case SortElem::kHalf:
    case SortElem::kBfloat16:
      return 2;
    case SortElem::kUint32:
    case SortElem::kInt32:
    case SortElem::kFloat:
      return 4;
    case SortElem::kUint64:
    case SortElem::kInt64:
      return 8;
    case SortElem::kOther:
      break;
  }
  return 1;
}

/// The C++ name of e ("half").
const char* SortElemName(SortElem e);

}  // namespace normgrad_ascendc

// normgrad_ascendc/runtime/int4.h — int4b_t, the 4-bit signed integer of
// Atlas A2/A3 kernels, and its tensors (docs/runtime.md, "int4b_t"): a
// two's-complement value in [-8, 7], stored two to a byte, element 2i in the
// low nibble (bits 0..3) of byte i and element 2i+1 in the high nibble.
//
// LocalTensor<int4b_t> and GlobalTensor<int4b_t> count elements, not bytes:
// GetSize() is the elements, n elements take (n + 1) / 2 bytes, and
// operator[] moves by elements. A view starts on a whole byte, so an odd
// offset is a KernelError, as is an index past the end. DataCopy's count
// forms (and Copy) take an even count whose bytes, count / 2, follow the
// 32-byte rule of data_copy.h; the DataCopyParams forms are in 32-byte
// blocks whatever the type and take int4b_t tensors as they are; the slice
// forms do not take int4b_t (a KernelError). Cast converts half to and from
// int4b_t (vector_convert.h).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// One 4-bit signed integer as a scalar. From an int it keeps the low four
/// bits (as an int8_t keeps the low eight); in tensors two share a byte.
struct int4b_t {
  int4b_t() = default;
  constexpr int4b_t(int v) : value(static_cast<int8_t>(((v & 0xF) ^ 8) - 8)) {}
  constexpr operator int() const { return value; }
  int8_t value;  ///< -8..7
};

}  // namespace AscendC

/// int4b_t without the namespace, as C API programs write it (as `half`).
using int4b_t = AscendC::int4b_t;

namespace normgrad_ascendc {

template <>
constexpr const char* TypeName<AscendC::int4b_t>() {
  return "int4b_t";
}
template <>
inline constexpr uint32_t kElementsPerByte<AscendC::int4b_t> = 2;

/// Element i of packed int4b_t data at `bytes`, sign-extended.
inline int Int4At(const uint8_t* bytes, uint64_t i) {
  const int nibble = (bytes[i / 2] >> (i % 2 * 4)) & 0xF;
  return (nibble ^ 8) - 8;
}
/// Sets element i of packed int4b_t data to the low four bits of v; the
/// byte's other element keeps its value.
inline void SetInt4At(uint8_t* bytes, uint64_t i, int v) {
  const int shift = static_cast<int>(i % 2 * 4);
  uint8_t& b = bytes[i / 2];
  b = static_cast<uint8_t>((b & ~(0xF << shift)) | (v & 0xF) << shift);
}

/// The KernelError of an int4b_t view that would start inside a byte.
[[noreturn]] inline void FailOddInt4Offset(const char* api, uint64_t offset) {
  Fail(
      "%s: offset %llu is odd; an int4b_t view starts on a whole byte (two "
      "elements a byte), so the offset must be even",
      api, static_cast<unsigned long long>(offset));
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// A view of packed int4b_t elements in the unified buffer.
template <>
class LocalTensor<int4b_t> {
 public:
  LocalTensor() = default;
  /// normgrad: a tensor over an explicit view (its bytes: twice as many
  /// elements).
  explicit LocalTensor(const normgrad_ascendc::TensorView& view)
      : bytes_(view) {}
  /// `tileSize` elements at byte address `addr` of the current core's UB.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,
              normgrad_ascendc::CallSite site = {})
      : bytes_(pos, addr, (tileSize + 1) / 2, site), odd_(tileSize % 2 != 0) {}

  /// Elements in the view (two a byte; the last byte may hold one).
  uint32_t GetSize() const { return bytes_.GetSize() * 2 - (odd_ ? 1 : 0); }
  /// Sets the length to n elements ((n + 1) / 2 bytes).
  void SetSize(uint32_t n, normgrad_ascendc::CallSite site = {}) {
    bytes_.SetSize((n + 1) / 2, site);
    odd_ = n % 2 != 0;
  }
  void SetBufferLen(uint32_t dataLen, normgrad_ascendc::CallSite site = {}) {
    SetSize(dataLen, site);
  }

  /// The view starting `offset` elements further (offset even, at most
  /// GetSize()).
  LocalTensor operator[](uint32_t offset) const {
    if (offset > GetSize()) {
      normgrad_ascendc::Fail(
          "LocalTensor<int4b_t>::operator[]: offset %u is past the end of a "
          "tensor of %u elements",
          offset, GetSize());
    }
    if (offset % 2 != 0) {
      normgrad_ascendc::FailOddInt4Offset("LocalTensor<int4b_t>::operator[]",
                                          offset);
    }
    LocalTensor moved(bytes_[offset / 2].view());
    moved.odd_ = odd_;
    return moved;
  }

  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(bytes_.view());
  }

  /// Element i (i < GetSize()).
  int4b_t GetValue(uint32_t i, normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("GetValue", i);
    const uint8_t byte = bytes_.GetValue(i / 2);
    return int4b_t(normgrad_ascendc::Int4At(&byte, i % 2));
  }
  /// Sets element i (i < GetSize()); the other element of its byte keeps
  /// its value.
  void SetValue(uint32_t i, const int4b_t& value,
                normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("SetValue", i);
    uint8_t byte = bytes_.GetValue(i / 2);
    normgrad_ascendc::SetInt4At(&byte, i % 2, value);
    bytes_.SetValue(i / 2, byte);
  }

  /// The byte holding elements 0 and 1.
  int4b_t* GetPhyAddr(normgrad_ascendc::CallSite site = {}) const {
    return reinterpret_cast<int4b_t*>(bytes_.GetPhyAddr(site));
  }
  TPosition GetPosition() const { return bytes_.GetPosition(); }
  /// The length in bytes.
  uint32_t GetLength() const { return bytes_.GetLength(); }
  void SetShapeInfo(const ShapeInfo& shapeInfo) {
    bytes_.SetShapeInfo(shapeInfo);
  }
  ShapeInfo GetShapeInfo() const { return bytes_.GetShapeInfo(); }
  void SetUserTag(const TTagType tag) { bytes_.SetUserTag(tag); }
  TTagType GetUserTag() const { return bytes_.GetUserTag(); }
  /// normgrad: the untyped view (its bytes).
  const normgrad_ascendc::TensorView& view() const { return bytes_.view(); }

 private:
  void CheckIndex(const char* method, uint32_t i) const {
    if (i >= GetSize()) {
      normgrad_ascendc::Fail(
          "LocalTensor<int4b_t>::%s: index %u is past the end of a tensor of "
          "%u elements",
          method, i, GetSize());
    }
  }

  LocalTensor<uint8_t> bytes_;  // the packed bytes
  bool odd_ = false;            // the last byte holds one element
};

/// A view of packed int4b_t elements in global memory.
template <>
class GlobalTensor<int4b_t> {
 public:
  GlobalTensor() = default;

  /// Views `count` elements ((count + 1) / 2 bytes) at `buffer`.
  void SetGlobalBuffer(__gm__ int4b_t* buffer, uint64_t count) {
    data_ = reinterpret_cast<uint8_t*>(buffer);
    base_ = data_;
    size_ = count;
    sized_ = true;
  }
  /// Views memory at `buffer` of unknown size (nothing is range-checked).
  void SetGlobalBuffer(__gm__ int4b_t* buffer) {
    SetGlobalBuffer(buffer, 0);
    sized_ = false;
  }

  /// Elements set by SetGlobalBuffer; 0 when the size is unknown.
  uint64_t GetSize() const { return size_; }

  /// The view starting `offset` elements further (offset even).
  GlobalTensor operator[](uint64_t offset) const {
    if (sized_ && offset > size_) {
      normgrad_ascendc::Fail(
          "GlobalTensor<int4b_t>::operator[]: offset %llu is past the end of "
          "a tensor of %llu elements",
          static_cast<unsigned long long>(offset),
          static_cast<unsigned long long>(size_));
    }
    if (offset % 2 != 0) {
      normgrad_ascendc::FailOddInt4Offset("GlobalTensor<int4b_t>::operator[]",
                                          offset);
    }
    GlobalTensor moved = *this;
    moved.data_ = data_ + offset / 2;
    if (sized_) moved.size_ = size_ - offset;
    return moved;
  }

  /// Element i; with a size, i must be < GetSize().
  int4b_t GetValue(uint64_t i, normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    const uint8_t byte = ReadByte("GetValue", i);
    return int4b_t(normgrad_ascendc::Int4At(&byte, i % 2));
  }
  /// Sets element i (the other element of its byte keeps its value).
  void SetValue(uint64_t i, const int4b_t& value,
                normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    uint8_t byte = ReadByte("SetValue", i);
    normgrad_ascendc::SetInt4At(&byte, i % 2, value);
    normgrad_ascendc::WriteGmScalar("GlobalTensor<%s>::SetValue", "int4b_t",
                                    base_, data_ + i / 2, &byte, 1);
  }

  /// The byte holding elements 0 and 1 (null before SetGlobalBuffer).
  __gm__ int4b_t* GetPhyAddr() const {
    return reinterpret_cast<int4b_t*>(data_);
  }
  /// The byte holding element `offset` (even; not checked otherwise).
  __gm__ int4b_t* GetPhyAddr(uint64_t offset) const {
    if (offset % 2 != 0) {
      normgrad_ascendc::FailOddInt4Offset("GlobalTensor<int4b_t>::GetPhyAddr",
                                          offset);
    }
    return reinterpret_cast<int4b_t*>(data_ + offset / 2);
  }

  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  ShapeInfo GetShapeInfo() const { return shape_info_; }

  /// normgrad: whether SetGlobalBuffer gave a size (accesses are checked).
  bool sized() const { return sized_; }
  /// normgrad: the address SetGlobalBuffer got.
  const void* base() const { return base_; }

 private:
  uint8_t ReadByte(const char* method, uint64_t i) const {
    if (data_ == nullptr) {
      normgrad_ascendc::Fail(
          "GlobalTensor<int4b_t>::%s: the tensor has no buffer (call "
          "SetGlobalBuffer first)",
          method);
    }
    if (sized_ && i >= size_) {
      normgrad_ascendc::Fail(
          "GlobalTensor<int4b_t>::%s: index %llu is past the end of a tensor "
          "of %llu elements",
          method, static_cast<unsigned long long>(i),
          static_cast<unsigned long long>(size_));
    }
    uint8_t byte;
    normgrad_ascendc::ReadGmScalar("GlobalTensor<%s>::GetValue", "int4b_t",
                                   &byte, base_, data_ + i / 2, 1);
    return byte;
  }

  uint8_t* data_ = nullptr;
  const uint8_t* base_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
  ShapeInfo shape_info_;
};

}  // namespace AscendC

namespace normgrad_ascendc {

// The copies see int4b_t tensors as their bytes: the DataCopyParams forms
// count 32-byte blocks, and the count forms below convert their counts.
template <>
inline CopyEnd UbEnd(const AscendC::LocalTensor<AscendC::int4b_t>& t) {
  return {t.view().data(), &t.view(), t.GetLength(), true, nullptr};
}
template <>
inline CopyEnd GmEnd(const AscendC::GlobalTensor<AscendC::int4b_t>& t) {
  return {reinterpret_cast<uint8_t*>(t.GetPhyAddr()), nullptr,
          (t.GetSize() + 1) / 2, t.sized(), t.base()};
}

/// The end of a copy for the count forms below.
inline CopyEnd Int4End(const AscendC::LocalTensor<AscendC::int4b_t>& t) {
  return UbEnd(t);
}
inline CopyEnd Int4End(const AscendC::GlobalTensor<AscendC::int4b_t>& t) {
  return GmEnd(t);
}

/// A count form's copy of `count` int4b_t elements: checked in elements
/// (even; count / 2 bytes a multiple of 32, or rounded down where
/// DataCopyImpl rounds; at most each sized end's elements), then moved as
/// bytes by DataCopyImpl, or by CopyImpl for Copy (`copy`: any even count).
template <typename D, typename S>
void Int4Copy(const char* api, const D& dst, const S& src, uint32_t count,
              bool copy = false) {
  const CopyEnd d = Int4End(dst);
  const CopyEnd s = Int4End(src);
  const char* dir = s.ub == nullptr   ? "GM->UB"
                    : d.ub == nullptr ? "UB->GM"
                                      : "UB->UB";
  if (count % 2 != 0) {
    Fail(
        "%s<int4b_t> %s: count %u is odd; int4b_t elements move two a byte, "
        "so the count must be even",
        api, dir, count);
  }
  uint32_t moved = count;
  const uint32_t bytes = count / 2;
  if (!copy && bytes % 32 != 0) {
    if (GetDataCopyMode() == DataCopyMode::kCheck &&
        CurrentCore().profile().profile != Profile::k950) {
      Fail(
          "%s<int4b_t> %s: count %u (%u bytes) is not a multiple of 32 bytes "
          "(64 elements); the device would silently drop the last %u bytes "
          "(NORMGRAD_DATACOPY=truncate mimics that)",
          api, dir, count, bytes, bytes % 32);
    }
    moved = bytes / 32 * 32 * 2;
  }
  const struct {
    const char* which;
    const CopyEnd& end;
    uint64_t elems;
  } ends[] = {{"src", s, src.GetSize()}, {"dst", d, dst.GetSize()}};
  for (const auto& e : ends) {
    const bool has_memory = e.end.data != nullptr;
    if (has_memory && e.end.sized && moved > e.elems) {
      Fail("%s<int4b_t> %s: count %u exceeds the %s %s of %llu elements", api,
           dir, moved, e.which,
           e.end.ub != nullptr ? "LocalTensor" : "GlobalTensor",
           static_cast<unsigned long long>(e.elems));
    }
  }
  if (copy) {
    CopyImpl("int4b_t", 1, d, s, moved / 2);
  } else {
    DataCopyImpl("int4b_t", 1, d, s, moved / 2, api);
  }
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <>
inline void DataCopy<int4b_t>(const LocalTensor<int4b_t>& dst,
                              const GlobalTensor<int4b_t>& src,
                              const uint32_t count,
                              normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Int4Copy("DataCopy", dst, src, count);
}
template <>
inline void DataCopy<int4b_t>(const GlobalTensor<int4b_t>& dst,
                              const LocalTensor<int4b_t>& src,
                              const uint32_t count,
                              normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Int4Copy("DataCopy", dst, src, count);
}
template <>
inline void DataCopy<int4b_t>(const LocalTensor<int4b_t>& dst,
                              const LocalTensor<int4b_t>& src,
                              const uint32_t count,
                              normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Int4Copy("DataCopy", dst, src, count);
}
template <>
inline void Copy<int4b_t, true>(const LocalTensor<int4b_t>& dst,
                                const LocalTensor<int4b_t>& src,
                                const uint32_t count,
                                normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Int4Copy("Copy", dst, src, count, true);
}
template <>
inline void Copy<int4b_t, false>(const LocalTensor<int4b_t>& dst,
                                 const LocalTensor<int4b_t>& src,
                                 const uint32_t count,
                                 normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Int4Copy("Copy", dst, src, count, true);
}

/// The slice forms count elements per dimension; normgrad does not model
/// them for int4b_t.
template <>
inline void DataCopy<int4b_t>(const LocalTensor<int4b_t>&,
                              const GlobalTensor<int4b_t>&, const SliceInfo[],
                              const SliceInfo[], const uint32_t,
                              normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Fail(
      "DataCopy<int4b_t> GM->UB: the slice form (SliceInfo) is not modelled "
      "for int4b_t; use the count or DataCopyParams form");
}
template <>
inline void DataCopy<int4b_t>(const GlobalTensor<int4b_t>&,
                              const LocalTensor<int4b_t>&, const SliceInfo[],
                              const SliceInfo[], const uint32_t,
                              normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Fail(
      "DataCopy<int4b_t> UB->GM: the slice form (SliceInfo) is not modelled "
      "for int4b_t; use the count or DataCopyParams form");
}

}  // namespace AscendC

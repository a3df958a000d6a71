// normgrad_ascendc/runtime/global_tensor.h — GlobalTensor<T>, a typed view of
// global memory (docs/runtime.md, "Positions and tensors"). On the CPU, global
// memory is host memory: whatever the host program allocated (aclrtMalloc,
// GmAlloc, malloc) and passed to the kernel as GM_ADDR.
//
// A GlobalTensor is (address, element count). SetGlobalBuffer(p, count)
// gives it both; SetGlobalBuffer(p) gives it an address of unknown size:
// GetSize() is then 0 and nothing can check accesses against it (DataCopy,
// GetValue and SetValue then trust the kernel, as the device does). With a
// size, GetValue/SetValue/operator[] past the end are KernelErrors (core.h),
// as DataCopy past the end is (data_copy.h). Every access is also checked
// against the allocation it falls in when that memory came from aclrtMalloc,
// aclrtMallocHost or GmAlloc (docs/runtime.md, "Global memory checks"), and
// SetValue writes through the core's atomic mode.
//
// SetL2CacheHint records the tensor's L2 cache mode (CacheMode); the host's
// caches are not steered by it, so it changes no result. CACHE_MODE_PERSISTENT
// is documented as not available yet and is a KernelError.
//
// GlobalTensor<TensorTrait<T>> is a GlobalTensor<T> without a ShapeInfo, as
// LocalTensor<TensorTrait<T>> is (tensor.h); normgrad_ascendc::Plain gives
// the GlobalTensor<T> an API computes on.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// Reads `bytes` at GM address `gm` into `out`: a kernel's scalar access
/// through memory that starts at `base`, checked against the allocation base
/// lies in. Messages name the caller with `api_format` and the element type
/// (e.g. "GlobalTensor<%s>::GetValue").
void ReadGmScalar(const char* api_format, const char* type_name, void* out,
                  const void* base, const void* gm, uint32_t bytes);
/// Writes `bytes` from `value` to GM address `gm` under the core's atomic
/// mode (every kernel write into GM goes that way), checked as ReadGmScalar.
void WriteGmScalar(const char* api_format, const char* type_name,
                   const void* base, void* gm, const void* value,
                   uint32_t bytes);

}  // namespace normgrad_ascendc

namespace AscendC {

/// How a GlobalTensor uses the L2 cache (SetL2CacheHint).
enum class CacheMode : uint8_t {
  CACHE_MODE_DISABLE = 0,
  CACHE_MODE_NORMAL = 1,
  CACHE_MODE_PERSISTENT = 4,
};
/// The accesses an L2 cache hint is for (reserved: only the default, RW, is
/// meaningful).
enum CacheRwMode {
  READ = 1,
  WRITE = 2,
  RW = 3,
};

template <typename T>
class GlobalTensor {
 public:
  static_assert(std::is_trivially_copyable_v<T>,
                "GlobalTensor<T>: T must be trivially copyable");

  /// An empty tensor: no address, size 0.
  GlobalTensor() = default;
  /// A tensor over a TensorTrait is not copied into a plain one (the
  /// TensorTrait page's constraint; see LocalTensor).
  template <typename U, TPosition pos, typename LayoutType>
  GlobalTensor(const GlobalTensor<TensorTrait<U, pos, LayoutType>>&) = delete;
  template <typename U, TPosition pos, typename LayoutType>
  GlobalTensor& operator=(
      const GlobalTensor<TensorTrait<U, pos, LayoutType>>&) = delete;

  /// Views `count` elements at `buffer`.
  void SetGlobalBuffer(__gm__ T* buffer, uint64_t count) {
    data_ = buffer;
    base_ = buffer;
    size_ = count;
    sized_ = true;
  }
  /// Views memory at `buffer` of unknown size (nothing is range-checked).
  void SetGlobalBuffer(__gm__ T* buffer) {
    data_ = buffer;
    base_ = buffer;
    size_ = 0;
    sized_ = false;
  }

  /// Elements set by SetGlobalBuffer; 0 when the size is unknown.
  uint64_t GetSize() const { return size_; }

  /// The view starting `offset` elements further, shorter by as many.
  /// With a size, offset == GetSize() gives an empty view; beyond is an error.
  GlobalTensor operator[](uint64_t offset) const {
    if (sized_ && offset > size_) {
      normgrad_ascendc::Fail(
          "GlobalTensor<%s>::operator[]: offset %llu is past the end of a "
          "tensor of %llu elements",
          normgrad_ascendc::TypeName<T>(),
          static_cast<unsigned long long>(offset),
          static_cast<unsigned long long>(size_));
    }
    GlobalTensor moved = *this;
    moved.data_ = data_ + offset;
    if (sized_) moved.size_ = size_ - offset;
    return moved;
  }

  /// Element i; with a size, i must be < GetSize().
  T GetValue(uint64_t i, normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("GetValue", i);
    T value;
    normgrad_ascendc::ReadGmScalar("GlobalTensor<%s>::GetValue",
                                   normgrad_ascendc::TypeName<T>(), &value,
                                   base_, data_ + i, sizeof(T));
    return value;
  }
  /// Sets element i; with a size, i must be < GetSize(). (const: a view.)
  void SetValue(uint64_t i, const T& value,
                normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("SetValue", i);
    normgrad_ascendc::WriteGmScalar("GlobalTensor<%s>::SetValue",
                                    normgrad_ascendc::TypeName<T>(), base_,
                                    data_ + i, &value, sizeof(T));
  }

  /// Element i itself, to read or to assign (operator() of the page); with
  /// a size, i must be < GetSize(). The element is checked as GetValue
  /// checks it; a write through the reference is a plain store (not under
  /// the core's atomic mode, which SetValue follows).
  T& operator()(uint64_t i) const {
    CheckIndex("operator()", i);
    T value;
    normgrad_ascendc::ReadGmScalar("GlobalTensor<%s>::operator()",
                                   normgrad_ascendc::TypeName<T>(), &value,
                                   base_, data_ + i, sizeof(T));
    return data_[i];
  }

  /// The same memory seen as elements of U: the size becomes the byte size
  /// / sizeof(U), rounded down (with a warning on stderr when bytes are left
  /// over, as the page says the CPU run warns).
  template <typename U>
  GlobalTensor<U> ReinterpretCast() const {
    GlobalTensor<U> cast;
    cast.Reinterpret(reinterpret_cast<U*>(data_),
                     reinterpret_cast<const U*>(base_), size_ * sizeof(T),
                     sized_, normgrad_ascendc::TypeName<T>());
    cast.cache_mode_ = cache_mode_;
    return cast;
  }

  /// The first element (null before SetGlobalBuffer).
  __gm__ T* GetPhyAddr() const { return data_; }
  /// The address `offset` elements further (not checked).
  __gm__ T* GetPhyAddr(uint64_t offset) const { return data_ + offset; }

  /// Attaches a shape description (kept with this tensor object).
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  /// The shape description SetShapeInfo attached (default: no dimensions).
  ShapeInfo GetShapeInfo() const { return shape_info_; }

  /// Records whether the tensor's data goes through the L2 cache (default
  /// CACHE_MODE_NORMAL); see the file comment.
  template <CacheRwMode rwMode = CacheRwMode::RW>
  void SetL2CacheHint(CacheMode mode, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if (mode != CacheMode::CACHE_MODE_DISABLE &&
        mode != CacheMode::CACHE_MODE_NORMAL) {
      normgrad_ascendc::Fail(
          "GlobalTensor<%s>::SetL2CacheHint: mode %d is not available; use "
          "CACHE_MODE_DISABLE (0) or CACHE_MODE_NORMAL (1) (the persistent "
          "mode, 4, is documented as not supported yet)",
          normgrad_ascendc::TypeName<T>(), static_cast<int>(mode));
    }
    cache_mode_ = mode;
  }
  /// normgrad: the mode SetL2CacheHint recorded.
  CacheMode l2_cache_mode() const { return cache_mode_; }

  /// normgrad: whether SetGlobalBuffer gave a size (accesses are checked).
  bool sized() const { return sized_; }
  /// normgrad: the address SetGlobalBuffer got; views made with operator[]
  /// keep it, so that their accesses are judged by the allocation it is in.
  const void* base() const { return base_; }

 private:
  template <typename U>
  friend class GlobalTensor;

  // ReinterpretCast's target: `bytes` of memory at `data` seen as T.
  void Reinterpret(T* data, const T* base, uint64_t bytes, bool sized,
                   const char* from) {
    data_ = data;
    base_ = base;
    sized_ = sized;
    size_ = sized ? bytes / sizeof(T) : 0;
    if (sized && bytes % sizeof(T) != 0) {
      std::fprintf(stderr,
                   "normgrad: warning: GlobalTensor<%s>::ReinterpretCast<%s>: "
                   "%llu bytes are not a whole number of %s elements; the "
                   "size is rounded down to %llu\n",
                   from, normgrad_ascendc::TypeName<T>(),
                   static_cast<unsigned long long>(bytes),
                   normgrad_ascendc::TypeName<T>(),
                   static_cast<unsigned long long>(size_));
    }
  }

  void CheckIndex(const char* api, uint64_t i) const {
    if (data_ == nullptr) {
      normgrad_ascendc::Fail(
          "GlobalTensor<%s>::%s: the tensor has no buffer (call "
          "SetGlobalBuffer first)",
          normgrad_ascendc::TypeName<T>(), api);
    }
    if (sized_ && i >= size_) {
      normgrad_ascendc::Fail(
          "GlobalTensor<%s>::%s: index %llu is past the end of a tensor of "
          "%llu elements",
          normgrad_ascendc::TypeName<T>(), api,
          static_cast<unsigned long long>(i),
          static_cast<unsigned long long>(size_));
    }
  }

  T* data_ = nullptr;
  const T* base_ = nullptr;
  uint64_t size_ = 0;
  bool sized_ = false;
  CacheMode cache_mode_ = CacheMode::CACHE_MODE_NORMAL;
  ShapeInfo shape_info_;
};

/// A global tensor over a TensorTrait (GlobalTensor<TensorTrait<float>>):
/// the GlobalTensor<T> of the trait's element type without a ShapeInfo.
/// SetGlobalBuffer takes `__gm__ T*`; GetSize, GetValue and operator[] count
/// elements of T; operator[] keeps the trait type.
template <typename T, TPosition pos, typename LayoutType>
class GlobalTensor<TensorTrait<T, pos, LayoutType>> : public GlobalTensor<T> {
  using Base = GlobalTensor<T>;

 public:
  GlobalTensor() = default;
  // A copy copies the base subobject as a plain tensor, which the base's
  // own copy takes (its refusal is for a whole trait tensor only); a trait
  // tensor stays trivially copyable, as a plain one is.
  GlobalTensor(const GlobalTensor&) = default;
  GlobalTensor& operator=(const GlobalTensor&) = default;

  /// The view starting `offset` elements further, as a trait tensor.
  GlobalTensor operator[](uint64_t offset) const {
    return GlobalTensor(Base::operator[](offset));
  }

  /// Tensors over a TensorTrait carry no ShapeInfo (the page says so).
  void SetShapeInfo(const ShapeInfo&) = delete;
  ShapeInfo GetShapeInfo() const = delete;

 private:
  explicit GlobalTensor(const Base& plain) : Base(plain) {}
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The global tensor an API computes on: a GlobalTensor<TensorTrait<T>> seen
/// as the GlobalTensor<T> it is, any other itself (as Plain of a
/// LocalTensor, tensor.h).
template <typename T>
const AscendC::GlobalTensor<AscendC::PrimT<T>>& Plain(
    const AscendC::GlobalTensor<T>& tensor) {
  return tensor;
}

}  // namespace normgrad_ascendc

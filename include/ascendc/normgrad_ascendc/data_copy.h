// normgrad_ascendc/data_copy.h — DataCopy between global memory (GM) and the
// unified buffer (UB), and UB to UB (docs/runtime.md, "DataCopy"),
// contiguous "count" form.
//
// On the device, UB addresses are 32-byte aligned and a copy moves whole
// 32-byte blocks: a count whose byte size is not a multiple of 32 is
// silently rounded down, and nothing stops a copy past the end of a tensor.
// normgrad checks every copy instead. In the default mode (check) each of
// these is a KernelError (core.h) naming the direction, the argument, the
// value and the rule:
//   - count·sizeof(T) not a multiple of 32 bytes,
//   - a LocalTensor at a UB offset that is not a multiple of 32,
//   - count more than a LocalTensor's length or a GlobalTensor's size (GM
//     views of unknown size, SetGlobalBuffer(p), are not range-checked),
//   - an empty LocalTensor or a GlobalTensor without a buffer.
// e.g. "DataCopy<float> GM->UB: count 100 (400 bytes) is not a multiple of
//       32 bytes; the device would silently drop the last 16 bytes
//       (NORMGRAD_DATACOPY=truncate mimics that)".
//
// Truncate mode (environment NORMGRAD_DATACOPY=truncate, read once at the
// first copy; or SetDataCopyMode) mimics the device: count is rounded down to
// a multiple of 32 bytes without a message. Every other check stays: a copy
// past a tensor's end would corrupt host memory (or another block's UB) on
// the CPU instead of failing somewhere on the device, so it is still an
// error, judged on the rounded-down count. NORMGRAD_DATACOPY=check (or unset)
// is the default; another value is a KernelError at the first copy.
//
// A copy allocates nothing, reads no environment (after the first) and starts
// no thread. UB→UB copies may overlap.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/global_tensor.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

enum class DataCopyMode : uint8_t {
  kCheck,     ///< unaligned counts are errors (default)
  kTruncate,  ///< unaligned counts are rounded down, as on the device
};

/// The mode in effect: SetDataCopyMode's last value, else NORMGRAD_DATACOPY.
DataCopyMode GetDataCopyMode();
/// Overrides NORMGRAD_DATACOPY for the process (tools, tests).
void SetDataCopyMode(DataCopyMode mode);

/// One side of a copy, its element type erased.
struct CopyEnd {
  uint8_t* data;         ///< first byte (null: no buffer)
  const TensorView* ub;  ///< the LocalTensor's view; null for global memory
  uint64_t elems;        ///< elements available from `data`
  bool sized;            ///< false: a GM view of unknown size (not checked)
};

/// Checks and performs one copy of `count` elements of `elem_bytes` bytes.
void DataCopyImpl(const char* type_name, uint32_t elem_bytes,
                  const CopyEnd& dst, const CopyEnd& src, uint32_t count);

template <typename T>
CopyEnd UbEnd(const AscendC::LocalTensor<T>& t) {
  return {t.view().data(), &t.view(), t.GetSize(), true};
}

template <typename T>
CopyEnd GmEnd(const AscendC::GlobalTensor<T>& t) {
  return {reinterpret_cast<uint8_t*>(t.GetPhyAddr()), nullptr, t.GetSize(),
          t.sized()};
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// GM → UB: `count` elements from `src` to `dst`.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const uint32_t count) {
  normgrad_ascendc::DataCopyImpl(normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 normgrad_ascendc::UbEnd(dst),
                                 normgrad_ascendc::GmEnd(src), count);
}

/// UB → GM: `count` elements from `src` to `dst`.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count) {
  normgrad_ascendc::DataCopyImpl(normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 normgrad_ascendc::GmEnd(dst),
                                 normgrad_ascendc::UbEnd(src), count);
}

/// UB → UB: `count` elements from `src` to `dst` (they may overlap).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count) {
  normgrad_ascendc::DataCopyImpl(normgrad_ascendc::TypeName<T>(), sizeof(T),
                                 normgrad_ascendc::UbEnd(dst),
                                 normgrad_ascendc::UbEnd(src), count);
}

}  // namespace AscendC

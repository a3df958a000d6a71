// normgrad_ascendc/runtime/data_copy.h — DataCopy between global memory (GM)
// and the unified buffer (UB), and UB to UB (docs/runtime.md, "DataCopy" and
// "Data movement"): the contiguous "count" form, the block form with
// DataCopyParams (blockCount blocks of blockLen 32-byte blocks, srcStride and
// dstStride 32-byte blocks between them), the slice form (SliceInfo), Copy
// (UB to UB, any count) and the dcache-bypass scalar accesses. DataCopyPad is
// in data_copy_pad.h. Every access to GM is also checked against the
// allocation it falls in (gm_registry.h in src/), and every write to GM goes
// through the core's atomic mode.
//
// The rest of this comment is about the count form.
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
//
// The multi-dimensional GM → UB form of the 950 (NDDMA: NdDmaParams,
// NdDmaLoopInfo, NdDmaConfig, NdDmaDci) is at the end of this file.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

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
  const void* base;      ///< GM: where the tensor's memory starts
};

/// Checks and performs one copy of `count` elements of `elem_bytes` bytes.
/// `api` names the copy in messages (the C API passes its own name, with an
/// empty type_name for its untyped copies).
void DataCopyImpl(const char* type_name, uint32_t elem_bytes,
                  const CopyEnd& dst, const CopyEnd& src, uint32_t count,
                  const char* api = "DataCopy");

/// Checks and performs a DataCopy with DataCopyParams (all units 32 bytes).
void DataCopyStridedImpl(const char* type_name, uint32_t elem_bytes,
                         const CopyEnd& dst, const CopyEnd& src,
                         const AscendC::DataCopyParams& params,
                         const char* api = "DataCopy");

/// Checks and performs a slice DataCopy between GM and UB.
void DataCopySliceImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const AscendC::SliceInfo dst_slices[],
                       const AscendC::SliceInfo src_slices[], uint32_t dims);

/// Checks and performs Copy: `count` elements, UB to UB (any count).
void CopyImpl(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
              const CopyEnd& src, uint32_t count);

/// The loop mode SetLoopModePara set for copies into the UB (to_ub) or out
/// of it, or null (none set, or the profile is not the 950).
const AscendC::LoopModeParams* ActiveLoopMode(bool to_ub);
/// `end` moved `bytes` further for loop-mode iteration (i1, i2); a UB end's
/// moved view is kept in *view. Past the end of a sized tensor, or not a
/// whole number of elements, is an error naming `api` and `which`.
CopyEnd LoopShifted(const char* api, const char* which, const CopyEnd& end,
                    uint64_t bytes, uint32_t elem_bytes, uint32_t i1,
                    uint32_t i2, TensorView* view);
/// Runs `once(dst, src)` for every iteration of the loop mode set for the
/// copy's direction (GM to UB or UB to GM) and returns true; false when no
/// loop mode applies (the caller then copies once). A loop size of 0 runs
/// its loop once.
template <typename Once>
bool RunLoopMode(const char* api, uint32_t elem_bytes, const CopyEnd& dst,
                 const CopyEnd& src, Once&& once) {
  if ((dst.ub == nullptr) == (src.ub == nullptr)) return false;
  // SetLoopModePara's directions are GM <-> UB only: an L1 end is not looped.
  const CopyEnd& local = dst.ub != nullptr ? dst : src;
  if (IsCubePosition(local.ub->position)) return false;
  const AscendC::LoopModeParams* loop = ActiveLoopMode(dst.ub != nullptr);
  if (loop == nullptr) return false;
  const uint32_t n1 = loop->loop1Size == 0 ? 1 : loop->loop1Size;
  const uint32_t n2 = loop->loop2Size == 0 ? 1 : loop->loop2Size;
  {
    // The last iteration moves furthest: check it before copying anything.
    TensorView view;
    LoopShifted(
        api, "dst", dst,
        (n1 - 1) * loop->loop1DstStride + (n2 - 1) * loop->loop2DstStride,
        elem_bytes, n1 - 1, n2 - 1, &view);
    LoopShifted(
        api, "src", src,
        (n1 - 1) * loop->loop1SrcStride + (n2 - 1) * loop->loop2SrcStride,
        elem_bytes, n1 - 1, n2 - 1, &view);
  }
  for (uint32_t i2 = 0; i2 < n2; ++i2) {
    for (uint32_t i1 = 0; i1 < n1; ++i1) {
      TensorView dst_view, src_view;
      const CopyEnd d =
          LoopShifted(api, "dst", dst,
                      i1 * loop->loop1DstStride + i2 * loop->loop2DstStride,
                      elem_bytes, i1, i2, &dst_view);
      const CopyEnd s =
          LoopShifted(api, "src", src,
                      i1 * loop->loop1SrcStride + i2 * loop->loop2SrcStride,
                      elem_bytes, i1, i2, &src_view);
      once(d, s);
    }
  }
  return true;
}
/// SetLoopModePara's and ResetLoopModePara's checks and register writes.
void SetLoopModeParaImpl(const AscendC::LoopModeParams& params,
                         AscendC::DataCopyMVType type);
void ResetLoopModeParaImpl(AscendC::DataCopyMVType type);

/// One NDDMA copy, its element type erased: `dims` loops (0 innermost), each
/// lp[d] padding positions, size[d] source elements and rp[d] padding
/// positions, position i at dst_stride[d] * i in dst; source element j at
/// src_stride[d] * j. Padding takes *pad (constant mode) or the nearest
/// source element of that dimension (nearest mode).
struct NdDmaCopy {
  uint32_t dims;
  const uint64_t* src_stride;
  const uint32_t* dst_stride;
  const uint32_t* size;
  uint32_t lp[5];
  uint32_t rp[5];
  bool nearest;
  const void* pad;  ///< elem_bytes bytes
};
void DataCopyNdDmaImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const NdDmaCopy& copy);
/// NdDmaDci's check: the 950 only.
void NdDmaDciImpl();

// The copies tell the hooks each UB byte they write (data_copy.cc).
template <typename T>
CopyEnd UbEnd(const AscendC::LocalTensor<T>& t) {
  return {t.view().declared_data(), &t.view(), t.GetSize(), true, nullptr};
}

template <typename T>
CopyEnd GmEnd(const AscendC::GlobalTensor<T>& t) {
  return {reinterpret_cast<uint8_t*>(t.GetPhyAddr()), nullptr, t.GetSize(),
          t.sized(), t.base()};
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// GM → UB: `count` elements from `src` to `dst`.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::GmEnd(normgrad_ascendc::Plain(src)), count);
}

/// UB → GM: `count` elements from `src` to `dst`.
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::GmEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(src)), count);
}

/// UB → UB: `count` elements from `src` to `dst` (they may overlap).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(src)), count);
}

/// GM → UB in blocks: repeatParams.blockCount blocks of blockLen 32-byte
/// blocks, srcStride/dstStride 32-byte blocks apart (end to start).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const DataCopyParams& repeatParams,
              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyStridedImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::GmEnd(normgrad_ascendc::Plain(src)), repeatParams);
}

/// UB → GM in blocks (units as GM → UB).
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
              const DataCopyParams& repeatParams,
              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyStridedImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::GmEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(src)), repeatParams);
}

/// UB → UB in blocks (units as GM → UB).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const DataCopyParams& repeatParams,
              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyStridedImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(src)), repeatParams);
}

/// GM → UB slice: the bursts srcSliceInfo selects (dimValue dimensions, the
/// first the innermost) go, in order, to the bursts dstSliceInfo selects.
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
              const uint32_t dimValue = 1,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(!is_tensorTrait<T>::value,
                "DataCopy (SliceInfo form): a tensor over a TensorTrait has "
                "no ShapeInfo, which the slice form needs");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopySliceImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::UbEnd(dst),
      normgrad_ascendc::GmEnd(src), dstSliceInfo, srcSliceInfo, dimValue);
}

/// UB → GM slice (as GM → UB).
template <typename T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
              const SliceInfo dstSliceInfo[], const SliceInfo srcSliceInfo[],
              const uint32_t dimValue = 1,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(!is_tensorTrait<T>::value,
                "DataCopy (SliceInfo form): a tensor over a TensorTrait has "
                "no ShapeInfo, which the slice form needs");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopySliceImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::GmEnd(dst),
      normgrad_ascendc::UbEnd(src), dstSliceInfo, srcSliceInfo, dimValue);
}

/// NDDMA options: the padding's kind and sizes for every loop at once.
struct NdDmaConfig {
  static constexpr uint16_t unsetPad = 0xffff;
  bool isNearestValueMode = false;  ///< pad with the nearest element
  uint16_t loopLpSize = unsetPad;   ///< left padding of every loop, if set
  uint16_t loopRpSize = unsetPad;   ///< right padding of every loop, if set
  bool ascOptimize = false;         ///< reserved: must stay false
};
inline constexpr NdDmaConfig kDefaultNdDmaConfig{};

/// Per loop (index 0 the innermost of `dim` loops, 1 to 5): strides in
/// elements, the source elements moved and the padding on each side.
template <uint8_t dim>
struct NdDmaLoopInfo {
  static_assert(dim >= 1 && dim <= 5, "NdDmaLoopInfo<dim>: dim must be 1 to 5");
  uint64_t loopSrcStride[dim] = {0};
  uint32_t loopDstStride[dim] = {0};
  uint32_t loopSize[dim] = {0};
  uint8_t loopLpSize[dim] = {0};
  uint8_t loopRpSize[dim] = {0};
};
// The pages write NdDmaLoopInfo loopInfo{{...}, {...}, {...}, {...}, {...}}:
// dim comes from the arrays' length.
template <size_t n>
NdDmaLoopInfo(const uint64_t (&)[n], const uint32_t (&)[n],
              const uint32_t (&)[n], const uint8_t (&)[n], const uint8_t (&)[n])
    -> NdDmaLoopInfo<static_cast<uint8_t>(n)>;

/// The loops and the constant padding value.
template <typename T, uint8_t dim>
struct NdDmaParams {
  NdDmaLoopInfo<dim> loopInfo;
  T constantValue;
};
template <uint8_t dim, typename T>
NdDmaParams(NdDmaLoopInfo<dim>, T) -> NdDmaParams<T, dim>;

/// GM → UB, multi-dimensional (NDDMA; the 950 only): see NdDmaCopy. The
/// padding value may be given in another type (the pages write
/// `NdDmaParams params{loopInfo, 0}`); it is converted to T.
template <typename T, uint8_t dim,
          const NdDmaConfig& config = kDefaultNdDmaConfig, typename U>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const NdDmaParams<U, dim>& params,
              normgrad_ascendc::CallSite site = {}) {
  static_assert(!config.ascOptimize,
                "DataCopy (NDDMA): NdDmaConfig::ascOptimize is reserved and "
                "must be false");
  static_assert(
      config.loopLpSize == NdDmaConfig::unsetPad || config.loopLpSize <= 255,
      "DataCopy (NDDMA): NdDmaConfig::loopLpSize must be unsetPad or "
      "0 to 255");
  static_assert(
      config.loopRpSize == NdDmaConfig::unsetPad || config.loopRpSize <= 255,
      "DataCopy (NDDMA): NdDmaConfig::loopRpSize must be unsetPad or "
      "0 to 255");
  const normgrad_ascendc::ApiCall call(site);
  const PrimT<T> pad = static_cast<PrimT<T>>(params.constantValue);
  normgrad_ascendc::NdDmaCopy copy{dim,
                                   params.loopInfo.loopSrcStride,
                                   params.loopInfo.loopDstStride,
                                   params.loopInfo.loopSize,
                                   {},
                                   {},
                                   config.isNearestValueMode,
                                   &pad};
  for (uint32_t d = 0; d < dim; ++d) {
    copy.lp[d] = config.loopLpSize != NdDmaConfig::unsetPad
                     ? config.loopLpSize
                     : params.loopInfo.loopLpSize[d];
    copy.rp[d] = config.loopRpSize != NdDmaConfig::unsetPad
                     ? config.loopRpSize
                     : params.loopInfo.loopRpSize[d];
  }
  normgrad_ascendc::DataCopyNdDmaImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::GmEnd(normgrad_ascendc::Plain(src)), copy);
}

/// Refreshes the NDDMA data cache before an NDDMA DataCopy (the 950 only).
/// The CPU has no such cache: only the profile is checked.
inline void NdDmaDci(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::NdDmaDciImpl();
}

/// Turns on loop mode for DataCopy and DataCopyPad in one direction (the
/// 950 only): each later copy that way repeats as LoopModeParams says, until
/// ResetLoopModePara.
inline void SetLoopModePara(const LoopModeParams& loopParams,
                            DataCopyMVType type,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetLoopModeParaImpl(loopParams, type);
}
/// Turns loop mode off for one direction (the 950 only).
inline void ResetLoopModePara(DataCopyMVType type,
                              normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ResetLoopModeParaImpl(type);
}

/// UB → UB: `count` elements (any count; isSetMask has no effect).
template <typename T, bool isSetMask = true>
void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CopyImpl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(dst)),
      normgrad_ascendc::UbEnd(normgrad_ascendc::Plain(src)), count);
}

/// One scalar read from GM that bypasses the data cache. On the CPU there is
/// no cache to bypass: an ordinary read, checked like every GM access.
template <typename T>
T ReadGmByPassDCache(__gm__ T* addr, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  T value;
  normgrad_ascendc::ReadGmScalar("ReadGmByPassDCache<%s>",
                                 normgrad_ascendc::TypeName<T>(), &value, addr,
                                 addr, sizeof(T));
  return value;
}

/// One scalar write to GM that bypasses the data cache (through the core's
/// atomic mode, like every GM write).
template <typename T>
void WriteGmByPassDCache(__gm__ T* addr, T value,
                         normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::WriteGmScalar("WriteGmByPassDCache<%s>",
                                  normgrad_ascendc::TypeName<T>(), addr, addr,
                                  &value, sizeof(T));
}

}  // namespace AscendC

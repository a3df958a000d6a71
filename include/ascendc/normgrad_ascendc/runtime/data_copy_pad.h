// normgrad_ascendc/runtime/data_copy_pad.h — DataCopyPad, the copy between
// global memory (GM) and the unified buffer (UB) whose blocks need not be whole
// 32-byte blocks, and SetPadValue (docs/runtime.md, "Data movement").
//
// GM → UB: block k (blockLen bytes) is read at src + k·(blockLen + srcStride)
// bytes and written as one UB row: leftPadding elements, the data,
// rightPadding elements, then filler up to the next 32-byte boundary; rows
// are dstStride 32-byte blocks apart (end to start). Padding takes
// paddingValue when isPad, else the value of the last SetPadValue, else the
// UB keeps what it held (the device leaves it undefined). When both paddings
// are 0 the filler repeats the block's first element, as documented; else it
// takes the padding's value. In PaddingMode::Compact the blocks are packed
// one after another and only the end is padded (rightPadding, then filler).
//
// GM → L1 (the Ascend 950; cube/cube_gm_l1_950.h checks the L1 side): the
// same rows in an L1 tensor; the pad register and loop mode are the UB's and
// do not apply, so without isPad the paddings keep what L1 held.
//
// UB → GM: block k is read at src + k·(blockLen rounded up to 32 +
// srcStride·32) (packed in Compact mode) and its blockLen bytes are written
// at dst + k·(blockLen + dstStride) bytes; the filler is dropped.
//
// blockCount or blockLen 0 copies nothing, as on the device. Errors
// (KernelError, core.h): blockCount over 4095, blockLen over its documented
// maximum or not a multiple of sizeof(T), a padding over 32 bytes, a UB
// tensor not 32-byte aligned, and any byte outside a tensor or outside the
// GM allocation.
//
// The pad value (SetPadValue) is a register of the core: it lives in the
// core's TPipe, or, for kernels without one, in the thread until the next.
#pragma once

#include <cstdint>
#include <cstring>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// A DataCopyPad's blocks, units already in bytes.
struct PadBlocks {
  const char* params;  ///< the parameter's name in messages
  uint32_t count;
  uint64_t len;        ///< bytes per block
  uint64_t max_len;    ///< the documented maximum of len
  uint64_t gm_stride;  ///< bytes between blocks in GM
  uint64_t ub_stride;  ///< 32-byte blocks between rows in the UB
  bool compact;
};

/// The padding of a GM → UB DataCopyPad; counts in elements.
struct PadFill {
  bool is_pad;
  uint32_t left;
  uint32_t right;
  uint8_t value[8];  ///< paddingValue's bytes
};

/// `api`, when set, names the caller in messages (the C API's
/// asc_copy_gm2ub_align and asc_copy_ub2gm_align).
void DataCopyPadInImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const PadBlocks& blocks, const PadFill& fill,
                       const char* api = nullptr);
void DataCopyPadOutImpl(const char* type_name, uint32_t elem_bytes,
                        const CopyEnd& dst, const CopyEnd& src,
                        const PadBlocks& blocks, const char* api = nullptr);
/// Sets the current core's pad value to the `bytes` bytes at `value`.
void SetPadValueImpl(const void* value, uint32_t bytes);

/// DataCopyPad's pages list no type stored two a byte (int4b_t): its block
/// lengths are bytes but its paddings count whole elements.
template <typename T>
inline constexpr bool kPadsType = kElementsPerByte<T> == 0;

template <typename T>
PadFill MakeFill(bool is_pad, uint32_t left, uint32_t right, const void* value,
                 uint32_t value_bytes) {
  PadFill fill{is_pad, left, right, {}};
  std::memcpy(fill.value, value,
              value_bytes < sizeof(T) ? value_bytes : sizeof(T));
  return fill;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// GM → UB with padding (see the file comment).
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyExtParams& dataCopyParams,
                 const DataCopyPadExtParams<T>& padParams,
                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPadsType<T>,
                "DataCopyPad: int4b_t is not a type its pages list");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyPadInImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::UbEnd(dst),
      normgrad_ascendc::GmEnd(src),
      {"dataCopyParams", dataCopyParams.blockCount, dataCopyParams.blockLen,
       2097151, dataCopyParams.srcStride, dataCopyParams.dstStride,
       mode == PaddingMode::Compact},
      normgrad_ascendc::MakeFill<T>(padParams.isPad, padParams.leftPadding,
                                    padParams.rightPadding,
                                    &padParams.paddingValue, sizeof(T)));
}

/// UB → GM, blocks of any byte length (see the file comment).
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& dataCopyParams,
                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPadsType<T>,
                "DataCopyPad: int4b_t is not a type its pages list");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyPadOutImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::GmEnd(dst),
      normgrad_ascendc::UbEnd(src),
      {"dataCopyParams", dataCopyParams.blockCount, dataCopyParams.blockLen,
       2097151, dataCopyParams.dstStride, dataCopyParams.srcStride,
       mode == PaddingMode::Compact});
}

/// GM → UB with the older structs: DataCopyParams' blockLen and srcStride in
/// bytes, dstStride in 32-byte blocks; paddingValue's low bytes are the value.
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
                 const DataCopyParams& dataCopyParams,
                 const DataCopyPadParams& padParams,
                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPadsType<T>,
                "DataCopyPad: int4b_t is not a type its pages list");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyPadInImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::UbEnd(dst),
      normgrad_ascendc::GmEnd(src),
      {"dataCopyParams", dataCopyParams.blockCount, dataCopyParams.blockLen,
       65535, dataCopyParams.srcStride, dataCopyParams.dstStride,
       mode == PaddingMode::Compact},
      normgrad_ascendc::MakeFill<T>(
          padParams.isPad, padParams.leftPadding, padParams.rightPadding,
          &padParams.paddingValue, sizeof(padParams.paddingValue)));
}

/// UB → GM with DataCopyParams: blockLen and dstStride in bytes, srcStride in
/// 32-byte blocks.
template <typename T, PaddingMode mode = PaddingMode::Normal>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyParams& dataCopyParams,
                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kPadsType<T>,
                "DataCopyPad: int4b_t is not a type its pages list");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DataCopyPadOutImpl(
      normgrad_ascendc::TypeName<T>(), sizeof(T), normgrad_ascendc::GmEnd(dst),
      normgrad_ascendc::UbEnd(src),
      {"dataCopyParams", dataCopyParams.blockCount, dataCopyParams.blockLen,
       65535, dataCopyParams.dstStride, dataCopyParams.srcStride,
       mode == PaddingMode::Compact});
}

/// The value DataCopyPad pads with when isPad is false. `pos` (VECIN, VECOUT
/// or MAX, meaning both) is accepted; one value serves both.
template <typename T, TPosition pos = TPosition::MAX>
void SetPadValue(T paddingValue, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  static_assert(sizeof(T) <= 8, "SetPadValue: T is at most 8 bytes");
  normgrad_ascendc::SetPadValueImpl(&paddingValue, sizeof(T));
}

}  // namespace AscendC

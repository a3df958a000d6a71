// normgrad_ascendc/runtime/data_copy_params.h — the parameter structs of the
// data movement APIs (docs/runtime.md, "Data movement"): DataCopyParams (the
// strided DataCopy forms), DataCopyExtParams, DataCopyPadExtParams<T> and
// DataCopyPadParams (DataCopyPad), PaddingMode and SliceInfo, with the field
// names, types and defaults of the documentation.
//
// Units differ per API and side, as documented:
//   - DataCopy with DataCopyParams: blockLen, srcStride and dstStride in
//     32-byte blocks on both sides.
//   - DataCopyPad: blockLen in bytes; the stride of the global-memory side in
//     bytes, the stride of the unified-buffer side in 32-byte blocks.
// A stride (also called gap) is the distance from the end of one block to the
// start of the next.
#pragma once

#include <cstdint>

namespace AscendC {

/// Blocks of a strided DataCopy. srcGap/dstGap are the newer pages' names of
/// srcStride/dstStride (the same fields).
struct DataCopyParams {
  DataCopyParams() : srcStride(0), dstStride(0) {}
  DataCopyParams(uint16_t count, uint16_t len, uint16_t src_stride,
                 uint16_t dst_stride)
      : blockCount(count),
        blockLen(len),
        srcStride(src_stride),
        dstStride(dst_stride) {}

  uint16_t blockCount = 1;  ///< number of blocks, 0 … 4095
  uint16_t blockLen = 0;    ///< each block's length (see the file comment)
  union {
    uint16_t srcStride;  ///< source gap between blocks
    uint16_t srcGap;
  };
  union {
    uint16_t dstStride;  ///< destination gap between blocks
    uint16_t dstGap;
  };
};

/// Blocks of a DataCopyPad with 32-bit lengths and strides.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src_stride,
                    uint32_t dst_stride, uint32_t reserved)
      : blockCount(count),
        blockLen(len),
        srcStride(src_stride),
        dstStride(dst_stride),
        rsv(reserved) {}

  uint16_t blockCount = 1;  ///< number of blocks, 0 … 4095
  uint32_t blockLen = 0;    ///< bytes per block, 0 … 2097151
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;  ///< reserved
};

/// Padding of a GM → UB DataCopyPad: leftPadding/rightPadding elements of
/// paddingValue (when isPad) around each block, at most 32 bytes each.
template <typename T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad),
        leftPadding(left),
        rightPadding(right),
        paddingValue(value) {}

  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = T();
};

/// The older padding struct, used with DataCopyParams; paddingValue holds the
/// value's bits in its low bytes.
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad),
        leftPadding(left),
        rightPadding(right),
        paddingValue(value) {}

  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

/// DataCopyPad's layout in the UB: Normal pads each block to 32 bytes;
/// Compact (Ascend 950) packs the blocks and pads once at the end.
enum class PaddingMode : uint8_t {
  Normal = 0,
  Compact,
};

/// One dimension of a slice DataCopy: elements startIndex … endIndex
/// (inclusive) of a dimension of shapeValue elements, taken as bursts of
/// burstLen 32-byte blocks separated by stride elements.
struct SliceInfo {
  SliceInfo() = default;
  SliceInfo(uint32_t start, uint32_t end, uint32_t stride_elems, uint32_t burst,
            uint32_t shape)
      : startIndex(start),
        endIndex(end),
        stride(stride_elems),
        burstLen(burst),
        shapeValue(shape) {}

  uint32_t startIndex = 0;
  uint32_t endIndex = 0;
  uint32_t stride = 0;
  uint32_t burstLen = 1;
  uint32_t shapeValue = 0;
};

/// The direction SetLoopModePara and ResetLoopModePara configure.
enum class DataCopyMVType : uint8_t {
  UB_TO_OUT = 0,
  OUT_TO_UB = 1,
};

/// Loop mode (the 950): the copy repeats loop1Size times (inner) and
/// loop2Size times (outer), each iteration's source and destination moved by
/// the loops' strides in bytes (start to start).
struct LoopModeParams {
  uint32_t loop1Size = 0;
  uint32_t loop2Size = 0;
  uint64_t loop1SrcStride = 0;
  uint64_t loop1DstStride = 0;
  uint64_t loop2SrcStride = 0;
  uint64_t loop2DstStride = 0;
};

}  // namespace AscendC

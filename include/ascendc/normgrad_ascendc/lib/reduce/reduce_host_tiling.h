// normgrad_ascendc/lib/reduce/reduce_host_tiling.h — the host-side
// scratch-size queries of the Reduce family (docs/reduce.md, "Scratch
// sizes"): Get<Api>MaxMinTmpSize of every API and Mean's
// GetMeanTmpBufferFactorSize, and the sizing rule the kernel side checks the
// scratch against.
//
// The rule (the pages give no formula; docs/decisions.md, "Reduce"): a call
// adds (multiplies, compares) in the family's pairwise tree, whose working
// values live in the scratch, one per element of a row, each of
// ReduceWorkBytes (4 for half, bfloat16_t and float, else the type's size).
// AR, Sum and Mean hold one row of n working values; RA holds the first
// level of the tree over the rows, ceil(rows / 2) rows; ReduceXorSum holds
// the calCount XOR results. Each row rounds up to whole 32-byte blocks.
// maxValue = minValue, as every page says; isReuseSource and isSrcInnerPad
// change nothing (src is only read; rows are always padded).
//
// Error policy: the functions return void, as documented. On bad input — a
// type the API does not take on any profile, a shape of the wrong rank or
// with a dimension below 1, a pattern other than AR and RA, a srcInnerPad
// false where the page allows true only, a size past 32 bits — they print
// one message on stderr naming the function, the argument, the value and
// the rule, and set their outputs to 0. Nothing throws.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/common/reduce_pattern.h"
#include "normgrad_ascendc/runtime/data_type.h"
#include "normgrad_ascendc/tiling/shape.h"

namespace normgrad_ascendc {

/// Bytes of one working value of the tree for an element of `type_size`
/// bytes; `is_16bit_float` for half and bfloat16_t, which work in float.
constexpr uint32_t ReduceWorkBytes(uint32_t type_size, bool is_16bit_float) {
  return is_16bit_float ? 4 : type_size;
}

/// n working values of `work_bytes`, rounded up to whole 32-byte blocks.
constexpr uint64_t ReduceRowBytes(uint64_t n, uint32_t work_bytes) {
  return (n * work_bytes + 31) / 32 * 32;
}

/// The scratch bytes of a pattern call on a rows x cols source: one row of
/// working values (AR), or ceil(rows / 2) rows of them (RA).
constexpr uint64_t ReducePatternTmpBytes(uint64_t rows, uint64_t cols,
                                         uint32_t work_bytes,
                                         bool reduce_rows) {
  const uint64_t row = ReduceRowBytes(cols, work_bytes);
  return reduce_rows ? (rows + 1) / 2 * row : row;
}

/// The padded row length of n elements of `type_size` bytes: the smallest
/// whole number of 32-byte blocks that holds them, in elements (the pages'
/// inner = (n * sizeof(T) + 32 - 1) / 32 * 32 / sizeof(T)).
constexpr uint64_t ReducePaddedRow(uint64_t n, uint32_t type_size) {
  return (n * type_size + 31) / 32 * 32 / type_size;
}

}  // namespace normgrad_ascendc

namespace AscendC {

// The pattern APIs: srcShape {rows, cols}, pattern AR or RA.
void GetReduceSumMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::DataType dataType,
                               ReducePattern pattern, bool isSrcInnerPad,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);
void GetReduceMaxMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::DataType dataType,
                               ReducePattern pattern, bool isSrcInnerPad,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);
void GetReduceMinMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::DataType dataType,
                               ReducePattern pattern, bool isSrcInnerPad,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);
void GetReduceMeanMaxMinTmpSize(const ge::Shape& srcShape,
                                const ge::DataType dataType,
                                ReducePattern pattern, bool isSrcInnerPad,
                                bool isReuseSource, uint32_t& maxValue,
                                uint32_t& minValue);
void GetReduceProdMaxMinTmpSize(const ge::Shape& srcShape,
                                const ge::DataType dataType,
                                ReducePattern pattern, bool isSrcInnerPad,
                                bool isReuseSource, uint32_t& maxValue,
                                uint32_t& minValue);
void GetReduceAnyMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::DataType dataType,
                               ReducePattern pattern, bool isSrcInnerPad,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);
void GetReduceAllMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::DataType dataType,
                               ReducePattern pattern, bool isSrcInnerPad,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue);

/// typeSize 2 (int16_t); the elements of srcShape are calCount.
void GetReduceXorSumMaxMinTmpSize(const ge::Shape& srcShape,
                                  const uint32_t typeSize,
                                  const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue);

/// n elements per row; typeSize 2 (half) or 4 (float).
void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize,
                         const bool isReuseSource, uint32_t& maxSize,
                         uint32_t& minSize);

/// n elements per row; srcTypeSize 2 (half) or 4 (float), accTypeSize
/// srcTypeSize or 4.
void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize,
                          const uint32_t accTypeSize, const bool isReuseSource,
                          uint32_t& maxSize, uint32_t& minSize);

/// maxLiveNodeCount = 4 / typeSize (the float working value per element of
/// a row), extraBuffer = 0.
void GetMeanTmpBufferFactorSize(const uint32_t typeSize,
                                uint32_t& maxLiveNodeCount,
                                uint32_t& extraBuffer);

}  // namespace AscendC

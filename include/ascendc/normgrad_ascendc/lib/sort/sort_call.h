// normgrad_ascendc/lib/sort/sort_call.h — what the Sort family's kernel-side
// APIs share (the contract: docs/sort.md): the element types erased from the
// templates, SortConfig with its defaults, the (score, index) pair of the
// sorted region, and the argument structs and run functions of Sort, Concat,
// Extract and TopK (src/ascendc/lib/sort/). The public templates in
// lib/sort/*.h check their types at compile time and fill these structs.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/lib/sort/topk_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The algorithm of a Sort with SortConfig (Ascend 950).
enum class SortType { RADIX_SORT, MERGE_SORT };

/// The configuration of a Sort with SortConfig; hasSrcIndex and hasDstIndex
/// tell GetSortMaxMinTmpSize which overload the kernel calls (the kernel
/// takes them from the overload itself).
struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};

/// Radix sort, ascending.
inline constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The element types of the family, erased from the templates.
enum class SortElem : uint8_t {
  kUint8,
  kInt8,
  kUint16,
  kInt16,
  kUint32,
  kInt32,
  kHalf,
  kBfloat16,
  kFloat,
  kUint64,
  kInt64,
  kOther,  ///< a type no API of the family takes
};

/// The SortElem of T.
template <typename T>
constexpr SortElem SortElemOf() {
  if constexpr (std::is_same_v<T, uint8_t>) return SortElem::kUint8;
  if constexpr (std::is_same_v<T, int8_t>) return SortElem::kInt8;
  if constexpr (std::is_same_v<T, uint16_t>) return SortElem::kUint16;
  if constexpr (std::is_same_v<T, int16_t>) return SortElem::kInt16;
  if constexpr (std::is_same_v<T, uint32_t>) return SortElem::kUint32;
  if constexpr (std::is_same_v<T, int32_t>) return SortElem::kInt32;
  if constexpr (std::is_same_v<T, half>) return SortElem::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return SortElem::kBfloat16;
  if constexpr (std::is_same_v<T, float>) return SortElem::kFloat;
  if constexpr (std::is_same_v<T, uint64_t>) return SortElem::kUint64;
  if constexpr (std::is_same_v<T, int64_t>) return SortElem::kInt64;
  return SortElem::kOther;
}

/// Whether T is half or float: the types of the sorted-region APIs and of
/// the merge-sort algorithms.
template <typename T>
inline constexpr bool kIsSortScore =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// Whether T is one of the radix algorithms' types.
template <typename T>
inline constexpr bool kIsRadixType = SortElemOf<T>() != SortElem::kOther;

/// Bytes of one (score, index) pair of the sorted region (Atlas A2/A3,
/// Ascend 950): the score in the low bytes, the uint32_t index in bytes 4..7.
inline constexpr uint32_t kSortPairBytes = 8;
/// Elements a Sort or Extract repeat covers in the pair layout.
inline constexpr uint32_t kSortRepeatElements = 32;
/// Elements a Concat repeat covers.
inline constexpr uint32_t kConcatRepeatElements = 16;
/// Elements of T in one Region Proposal (Atlas inference series).
inline constexpr uint32_t kProposalElements = 8;

/// The scratch bytes of a Sort with SortConfig (minValue = maxValue): a
/// working copy of the n values with an index each (`index_bytes`: U's
/// size, or 4 for the generated uint32_t positions), rounded up to 32 bytes.
constexpr uint64_t SortConfigTmpBytes(uint64_t n, uint32_t value_bytes,
                                      uint32_t index_bytes) {
  return (n * (value_bytes + index_bytes) + 31) / 32 * 32;
}

/// Sort without SortConfig: repeatTime·32 scores (concat) and their indices
/// into pairs, sorted within each repeat or (full) across all of them.
struct SortRegionArgs {
  bool is_half;
  bool full;
  TensorView dst, concat, index, tmp;
  int32_t repeat_time;
};
void RunSortRegion(const SortRegionArgs& a);

/// Concat: src into concat, repeatTime·16 elements.
struct ConcatArgs {
  bool is_half;
  TensorView concat, src, tmp;
  int32_t repeat_time;
};
void RunConcat(const ConcatArgs& a);

/// Extract: repeatTime·32 sorted pairs into values and indices.
struct ExtractArgs {
  bool is_half;
  TensorView dst_value, dst_index, sorted;
  int32_t repeat_time;
};
void RunExtract(const ExtractArgs& a);

/// Sort with SortConfig (Ascend 950).
struct SortConfigArgs {
  SortElem value_type;
  SortElem index_type;  ///< kUint32 without a source index
  AscendC::SortConfig config;
  bool has_src_index, has_dst_index;
  TensorView dst, src, dst_index, src_index;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t count;
};
void RunSortConfig(const SortConfigArgs& a);

/// TopK, with its template parameters as values.
struct TopKArgs {
  SortElem type;
  bool init_index, has_finish, small;
  AscendC::TopKConfig config;
  TensorView dst_value, dst_index, src, src_index, finish;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  int32_t k;
  const AscendC::TopkTiling* tiling;
  AscendC::TopKInfo info;
  bool is_largest;
};
void RunTopK(const TopKArgs& a);

}  // namespace normgrad_ascendc

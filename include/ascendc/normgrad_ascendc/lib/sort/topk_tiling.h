// normgrad_ascendc/lib/sort/topk_tiling.h — TopK's types and tiling (the
// contract: docs/sort.md, "TopK"): TopKMode, TopKInfo, TopKConfig and its
// enums, the kernel-side tiling struct TopkTiling (visible as
// AscendC::tiling::TopkTiling, AscendC::TopkTiling and unqualified at global
// scope, as programs write it) with its field list, and the rules both sides
// share, written once: the padded k of each output, and the scratch a call
// needs.
#pragma once

#include <cstdint>

namespace AscendC {

/// Normal: rows of any inner (a multiple of 32, at most 4096); Small: inner
/// is 32.
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };

/// The source's shape: outter rows of inner elements, the first n of each
/// real.
struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;
  int32_t n;
};

enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };

/// algo RADIX_SELECT on Ascend 950 only; order LARGEST/SMALLEST overrides
/// isLargest; sorted false (RADIX_SELECT) leaves the k results in source
/// order.
struct TopKConfig {
  TopKAlgo algo = TopKAlgo::MERGE_SORT;
  TopKOrder order = TopKOrder::UNSET;
  bool sorted = true;
};

inline constexpr TopKConfig defaultTopKConfig = {};

}  // namespace AscendC

/// The fields in the documented order. normgrad's TopKTilingFunc fills the
/// first six and the kernel checks them (docs/sort.md, "TopK tiling"); the
/// others are the device's internal offsets and masks, which normgrad does
/// not use and leaves 0.
#define NORMGRAD_TOPK_TILING_FIELDS(X)  \
  X(int32_t, tmpLocalSize)              \
  X(int32_t, allDataSize)               \
  X(int32_t, innerDataSize)             \
  X(uint32_t, sortRepeat)               \
  X(int32_t, mrgSortRepeat)             \
  X(int32_t, kAlignFourBytes)           \
  X(int32_t, kAlignTwoBytes)            \
  X(int32_t, maskOffset)                \
  X(int32_t, maskVreducev2FourBytes)    \
  X(int32_t, maskVreducev2TwoBytes)     \
  X(int32_t, mrgSortSrc1offset)         \
  X(int32_t, mrgSortSrc2offset)         \
  X(int32_t, mrgSortSrc3offset)         \
  X(int32_t, mrgSortTwoQueueSrc1Offset) \
  X(int32_t, mrgFourQueueTailPara1)     \
  X(int32_t, mrgFourQueueTailPara2)     \
  X(int32_t, srcIndexOffset)            \
  X(uint32_t, copyUbToUbBlockCount)     \
  X(int32_t, topkMrgSrc1MaskSizeOffset) \
  X(int32_t, topkNSmallSrcIndexOffset)  \
  X(uint32_t, vreduceValMask0)          \
  X(uint32_t, vreduceValMask1)          \
  X(uint32_t, vreduceIdxMask0)          \
  X(uint32_t, vreduceIdxMask1)          \
  X(uint16_t, vreducehalfValMask0)      \
  X(uint16_t, vreducehalfValMask1)      \
  X(uint16_t, vreducehalfValMask2)      \
  X(uint16_t, vreducehalfValMask3)      \
  X(uint16_t, vreducehalfValMask4)      \
  X(uint16_t, vreducehalfValMask5)      \
  X(uint16_t, vreducehalfValMask6)      \
  X(uint16_t, vreducehalfValMask7)

namespace AscendC {
namespace tiling {

struct TopkTiling {
#define NORMGRAD_TOPK_MEMBER(type, name) type name = 0;
  NORMGRAD_TOPK_TILING_FIELDS(NORMGRAD_TOPK_MEMBER)
#undef NORMGRAD_TOPK_MEMBER
};

}  // namespace tiling
using tiling::TopkTiling;

}  // namespace AscendC

using AscendC::tiling::TopkTiling;

namespace normgrad_ascendc {

/// k rounded up to whole 32-byte blocks of `elem_bytes`-byte elements: the
/// row length of a Normal-mode output (k_pad, kpad_index).
constexpr int64_t TopKPadded(int64_t k, uint32_t elem_bytes) {
  const int64_t per_block = 32 / elem_bytes;
  return (k + per_block - 1) / per_block * per_block;
}

/// The scratch bytes of a merge-sort TopK (minValue = maxValue): the rows
/// sorted at once (one in Normal mode, all outter in Small mode) as
/// structures of `unit` bytes (an 8-byte pair, or a Region Proposal on the
/// Atlas inference series), twice (sorted and merged), plus their generated
/// indices when isInitIndex is false; rounded up to 32 bytes.
constexpr uint64_t TopKMergeTmpBytes(uint64_t inner, uint64_t outter,
                                     bool small, bool init_index,
                                     uint32_t unit) {
  const uint64_t elements = small ? outter * inner : inner;
  const uint64_t bytes = 2 * elements * unit + (init_index ? 0 : elements * 4);
  return (bytes + 31) / 32 * 32;
}

/// The scratch bytes of a RADIX_SELECT TopK (Ascend 950): the rows selected
/// at once as keys of the type's size with a 4-byte position each, rounded
/// up to 32 bytes.
constexpr uint64_t TopKRadixTmpBytes(uint64_t inner, uint64_t outter,
                                     bool small, uint32_t elem_bytes) {
  const uint64_t elements = small ? outter * inner : inner;
  return (elements * (elem_bytes + 4) + 31) / 32 * 32;
}

/// The fields normgrad's TopKTilingFunc fills (the others stay 0), for a
/// merge-sort TopK of outter rows of inner elements, k results, sorted
/// structures of `unit` bytes: the scratch (tmpLocalSize, TopKMergeTmpBytes),
/// the shape (allDataSize, innerDataSize), the 32-element sorts of one call
/// (sortRepeat) and the four-way merge passes that join them
/// (mrgSortRepeat), and k padded to 32 bytes of 4- and 2-byte elements.
inline AscendC::TopkTiling TopKFilledTiling(int64_t inner, int64_t outter,
                                            int64_t k, bool small,
                                            bool init_index, uint32_t unit) {
  AscendC::TopkTiling t;
  t.tmpLocalSize = static_cast<int32_t>(TopKMergeTmpBytes(
      static_cast<uint64_t>(inner), static_cast<uint64_t>(outter), small,
      init_index, unit));
  t.allDataSize = static_cast<int32_t>(inner * outter);
  t.innerDataSize = static_cast<int32_t>(inner);
  t.sortRepeat = static_cast<uint32_t>((small ? inner * outter : inner) / 32);
  int32_t passes = 0;
  for (int64_t runs = small ? 1 : inner / 32; runs > 1; runs = (runs + 3) / 4) {
    ++passes;
  }
  t.mrgSortRepeat = passes;
  t.kAlignFourBytes = static_cast<int32_t>(TopKPadded(k, 4));
  t.kAlignTwoBytes = static_cast<int32_t>(TopKPadded(k, 2));
  return t;
}

}  // namespace normgrad_ascendc

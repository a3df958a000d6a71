// normgrad_ascendc/vector/vector_unit.h — the execution model every basic
// vector instruction shares (docs/runtime.md, "The vector unit"): repeats of up
// to 256 bytes as 8 blocks of 32 bytes, block and repeat strides, the mask
// register in normal or counter mode, and the executor that walks repeats,
// blocks and masked lanes for an instruction given as a span function.
//
// An instruction is described once (VecInstruction: its operands, the lanes
// of one full repeat and a span function computing n lanes of contiguous
// operands) and runs in either form:
//   - ExecuteCount: the level-2 form, the first `count` elements of each
//     operand, contiguous (the device runs it in counter mode);
//   - ExecuteRepeats: the level-0 form, `repeatTime` repeats under the mask
//     register, each operand walked with its block and repeat strides.
// The executor reads every source lane of a repeat before it writes any
// destination lane of it, and runs repeats in order, so results are those of
// the device wherever the documentation defines them. Lanes the mask leaves
// out keep their destination values.
//
// Checks (a KernelError naming the instruction, the operand, the value and
// the rule): operands are non-empty UB tensors at 32-byte aligned offsets;
// every lane the mask selects lies inside its operand's LocalTensor;
// repeatTime ≤ 255; a counter-mode count at most the UB's bytes; a
// destination and a source share no block within a repeat unless they
// coincide lane for lane, and no repeat reads a block an earlier repeat
// wrote, except where the instruction allows it
// (VecInstruction::dst_feeds_src1: the documented accumulation of Add, Sub,
// Mul, Max, Min, AddRelu, SubRelu with a repeat stride of 0).
//
// Reductions (VecInstruction::reduce) run on the same walk of repeats,
// blocks and masked lanes; only the destination differs. Each repeat's
// lanes fall into groups of ReduceLayout::group consecutive lanes (a pair,
// a block, the whole repeat); the span function computes one result per
// group from the gathered source lanes and the repeat's lane selection, and
// the results of repeat r are stored packed from byte r·repeat_bytes of the
// destination. A group with no selected lane keeps its destination bytes
// unless the layout says to write it. A reduction's destination starts at a
// multiple of ReduceLayout::dst_align bytes and shares no block with a
// source within a repeat (the two cannot coincide lane for lane).
#pragma once

#include <cstdint>
#include <initializer_list>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_mask.h"

namespace AscendC {

inline constexpr int32_t DEFAULT_BLK_NUM = 8;     ///< blocks of a repeat
inline constexpr int32_t DEFAULT_BLK_STRIDE = 1;  ///< contiguous blocks

/// Strides of a one-source instruction, in 32-byte blocks: between the
/// blocks of a repeat (BlkStride) and between repeats (RepStride).
struct UnaryRepeatParams {
  UnaryRepeatParams() {}
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn,
                    uint8_t dstRepStrideIn, uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  UnaryRepeatParams(uint16_t dstBlkStrideIn, uint16_t srcBlkStrideIn,
                    uint8_t dstRepStrideIn, uint8_t srcRepStrideIn,
                    bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;  ///< reserved
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;  ///< reserved
  bool strideSizeMode = false;    ///< reserved
  bool halfBlock = false;         ///< CastDequant: which half of a block
};

/// Strides of a two-source instruction, as UnaryRepeatParams.
struct BinaryRepeatParams {
  BinaryRepeatParams() {}
  BinaryRepeatParams(uint8_t dstBlkStrideIn, uint8_t src0BlkStrideIn,
                     uint8_t src1BlkStrideIn, uint8_t dstRepStrideIn,
                     uint8_t src0RepStrideIn, uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;  ///< reserved
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;  ///< reserved
  bool strideSizeMode = false;    ///< reserved
};

/// The mask argument of a call whose mask was set by SetVectorMask
/// (isSetMask = false); its value is not read.
inline constexpr uint64_t MASK_PLACEHOLDER = 0;

}  // namespace AscendC

namespace normgrad_ascendc {

/// One operand of an instruction.
struct VecOperand {
  const char* name = nullptr;  ///< "dst", "src0", ...
  const TensorView* view = nullptr;
  uint32_t elem_bytes = 0;
  uint32_t block_stride = 1;   ///< 32-byte blocks between a repeat's blocks
  uint32_t repeat_stride = 8;  ///< 32-byte blocks between repeats
};

/// The arguments of a span function: n lanes of each operand, contiguous.
/// operand[0] is the destination; it holds the old destination values when
/// the instruction reads them (VecInstruction::reads_dst). For a reduction,
/// operand[0] receives the repeat's results, packed, one per group; n is a
/// full repeat's lanes.
struct SpanArgs {
  void* operand[4];
  uint32_t n;
  const void* params;  ///< the instruction's scalars, or null
  /// Every lane selected (the flat call over all repeats); otherwise one
  /// repeat's lanes, the mask's choice in `selected` (bit k of word k / 64).
  bool every_lane = false;
  uint64_t selected[2] = {0, 0};
  /// Lane 0's position in the instruction's sequence of lanes: r · lanes
  /// for repeat r, 0 for the flat call.
  uint64_t first_lane = 0;
  bool Selected(uint32_t k) const {
    return every_lane ||
           ((k < 64 ? selected[0] >> k : selected[1] >> (k - 64)) & 1) != 0;
  }
};
using SpanFn = void (*)(const SpanArgs& args);

/// Where a reduction's results go (see the file comment).
struct ReduceLayout {
  uint32_t group;         ///< source lanes reduced into one result
  uint32_t result_bytes;  ///< bytes of one result (a value, an index or both)
  uint64_t repeat_bytes;  ///< bytes from one repeat's results to the next's
  uint32_t dst_align;     ///< dst's start must be a multiple of this
  bool write_empty = false;  ///< write a group that selects no lane
  /// Set: the results stay inside the unit (the first stage of ReduceSum,
  /// ReduceMax, ReduceMin) — each repeat that writes a group hands its
  /// packed results to sink(context, repeat, results), in repeat order,
  /// and the destination operand is not written.
  void (*sink)(void* context, int64_t repeat, const uint8_t* results) = nullptr;
  void* context = nullptr;
  /// Optional, with a sink: hands over the results of `repeats` whole
  /// repeats at once, from the first, when the source is contiguous and
  /// every lane of them is selected — the same calls of the sink, faster.
  void (*whole)(void* context, const uint8_t* src, int64_t repeats) = nullptr;
  /// Without a sink: the span takes any number of whole repeats at once
  /// (every lane selected, n their lanes) and writes their results packed,
  /// so a count form of whole repeats runs as one span call.
  bool flat = false;
};

/// One call of an instruction. Built on every call, so its constructor sets
/// each field once (a value-initialised aggregate of this size is cleared
/// whole first, a cost a short call would notice).
struct VecInstruction {
  /// `list` fills operand[] from the first (the rest keep VecOperand's
  /// defaults); `operands` is how many the instruction has.
  VecInstruction(const char* api_in, const char* type_in, uint32_t lanes_in,
                 std::initializer_list<VecOperand> list, int operands_in,
                 SpanFn span_in)
      : api(api_in),
        type(type_in),
        lanes(lanes_in),
        operands(operands_in),
        span(span_in) {
    // Field by field: the list's elements were just stored a field at a
    // time, and a copy in wider pieces would wait on those stores.
    VecOperand* to = operand;
    for (const VecOperand& o : list) {
      to->name = o.name;
      to->view = o.view;
      to->elem_bytes = o.elem_bytes;
      to->block_stride = o.block_stride;
      to->repeat_stride = o.repeat_stride;
      ++to;
    }
  }

  const char* api;   ///< "Add"
  const char* type;  ///< "float", or "half, float" for two types
  uint32_t lanes;    ///< elements of one full repeat (256 bytes of the widest)
  VecOperand operand[4];  ///< operand[0] is the destination
  int operands;
  SpanFn span;
  const void* params = nullptr;
  bool reads_dst = false;                ///< the span reads the destination too
  bool dst_feeds_src1 = false;           ///< see the file comment
  const ReduceLayout* reduce = nullptr;  ///< set: a reduction
  int64_t max_repeat_time = 255;         ///< the documented repeatTime limit
};

/// The level-2 form: the first `count` elements of every operand.
void ExecuteCount(const VecInstruction& instr, int64_t count);

/// The level-0 form: `repeat_time` repeats under the core's mask register.
void ExecuteRepeats(const VecInstruction& instr, int64_t repeat_time);

/// The flat run's conditions, for API templates that compute the lanes
/// themselves when they hold (no instruction built, no executor): the
/// destination is a UB operand (live, not empty, 32-byte aligned) of at least
/// `bytes`, and each source is such an operand that lies on another core, at
/// the destination's offset (the same lanes: callers pass operands of one
/// element size) or apart from the destination's `bytes`. For such operands
/// every check of ExecuteCount and ExecuteRepeats passes and the executor's
/// flat run computes the same lanes in the same order; where a condition
/// fails, the API takes the executor, which reports the error or walks.
/// Under the sync check every call takes the executor, which tells the
/// check what it reads and writes; so does every call while half results
/// saturate (ctrl_spr.h), the executor being where results are saturated.
inline bool FlatDst(const TensorView& d, uint64_t bytes) {
  return d.IsUbOperand() && bytes <= d.bytes && !SyncCheckOn() &&
         !FloatSaturationOn();
}
inline bool FlatSrc(const TensorView& d, const TensorView& s, uint64_t bytes) {
  return s.IsUbOperand() && bytes <= s.bytes &&
         (s.core != d.core || s.offset == d.offset ||
          uint64_t{s.offset} + bytes <= d.offset ||
          uint64_t{d.offset} + bytes <= s.offset);
}

/// A level-0 call whose operands take their default strides (block stride
/// 1, a repeat's bytes between repeats): sets the mask register from the
/// call's mask argument when `set` (isSetMask; as SetMaskArgument), then
/// returns how many leading lanes of each operand the call covers when the
/// register selects every lane of every repeat — repeat_time · lanes in
/// normal mode, the count in counter mode — else 0.
int64_t FullMaskLanes(bool set, uint64_t len, uint32_t lanes,
                      int64_t repeat_time);
int64_t FullMaskLanes(bool set, const uint64_t mask[], uint32_t lanes,
                      int64_t repeat_time);

/// The high word a bit-mask argument puts in the register: mask[1] for
/// 16-bit lanes (more than 64 a repeat), none for wider ones.
inline uint64_t MaskHighWord(const uint64_t mask[], uint32_t lanes) {
  return lanes > 64 ? mask[1] : 0;
}

/// Sets the mask register from a call's mask argument (isSetMask = true):
/// bits (normal mode, two words for 16-bit lanes and one for wider) or, in
/// counter mode, the element count in the low word.
void SetMaskBits(uint64_t high, uint64_t low);
/// Sets the mask register from a "continuous" mask: in normal mode the first
/// `len` lanes of a repeat of `lanes` (len is clamped to lanes), in counter
/// mode an element count.
void SetMaskLength(uint64_t len, uint32_t lanes, AscendC::MaskMode mode);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Counter mode: the mask register holds an element count.
void SetMaskCount();
/// Normal mode: the mask register holds a bit per lane.
void SetMaskNorm();
/// All mask bits set.
void ResetMask();

/// Sets the mask register: bits (normal mode) or an element count in
/// maskLow (counter mode; maskHigh is ignored).
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  normgrad_ascendc::SetMaskBits(mode == MaskMode::COUNTER ? 0 : maskHigh,
                                maskLow);
}
/// Sets the mask register: the first len lanes of each repeat (normal mode)
/// or len elements (counter mode).
template <typename T, MaskMode mode = MaskMode::NORMAL>
void SetVectorMask(int32_t len) {
  normgrad_ascendc::SetMaskLength(len < 0 ? 0 : static_cast<uint64_t>(len),
                                  256 / sizeof(T), mode);
}

}  // namespace AscendC

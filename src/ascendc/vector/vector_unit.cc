// vector_unit.cc — the vector instruction executor and the mask register
// (normgrad_ascendc/vector/vector_unit.h).
//
// Every instruction runs in one of two ways. The flat way: when each operand
// is walked contiguously (block stride 1, repeat stride one repeat's bytes)
// and every lane of every repeat is selected, the lanes of all repeats form
// one contiguous span per operand, and the span function runs once over it in
// place — the common case, and the fast one: its checks are a size and a
// range test per operand instead of the walk over the plan's repeats, and
// they pass or fail with the walk's (an operand too short, or an overlap
// other than the very same lanes, takes the walk, which reports it or runs
// it). The repeat way, for everything else: per repeat, the blocks of each
// operand the instruction reads are gathered into a contiguous scratch row, the
// span function computes the repeat's lanes there, and the selected lanes are
// scattered back to the destination — or, for a reduction, the span function
// computes the repeat's results and those of groups with a selected lane are
// stored. A source whose blocks are contiguous within a repeat is read in
// place, and a reduction that keeps its results (ReduceSum's first stage) may
// take all its whole, fully selected repeats of a contiguous source at once
// (ReduceLayout::whole).
#include "normgrad_ascendc/vector/vector_unit.h"

#include <algorithm>
#include <bitset>
#include <cstdio>
#include <cstring>
#include <memory>

#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kBlocksPerRepeat = 8;
constexpr uint32_t kRepeatBytes = kBlockBytes * kBlocksPerRepeat;
constexpr uint32_t kMaxUbBlocks = kMaxUbBytes / kBlockBytes;

// The lanes one repeat selects: a bit per lane, up to 128 lanes.
struct LaneSet {
  uint64_t low = 0;
  uint64_t high = 0;

  bool Has(uint32_t k) const {
    return k < 64 ? (low >> k & 1) != 0 : (high >> (k - 64) & 1) != 0;
  }
  bool Empty() const { return low == 0 && high == 0; }
  LaneSet operator&(const LaneSet& o) const {
    return {low & o.low, high & o.high};
  }
  bool operator==(const LaneSet& o) const {
    return low == o.low && high == o.high;
  }
  static LaneSet First(uint32_t n) {
    LaneSet s;
    s.low = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    s.high = n <= 64    ? 0
             : n >= 128 ? ~uint64_t{0}
                        : (uint64_t{1} << (n - 64)) - 1;
    return s;
  }
  // Lanes first .. first + n - 1.
  static LaneSet Range(uint32_t first, uint32_t n) {
    const LaneSet below = First(first);
    const LaneSet upto = First(first + n);
    return {upto.low & ~below.low, upto.high & ~below.high};
  }
};

// The repeats an instruction runs and the lanes each selects: every repeat
// `mask`, except, in counter mode, a last one with only its first `tail`.
struct Plan {
  int64_t repeats = 0;
  LaneSet mask;       // of every repeat but a counter-mode tail
  uint32_t tail = 0;  // lanes of the last repeat in counter mode; 0: none
  LaneSet MaskOf(int64_t r) const {
    return tail != 0 && r == repeats - 1 ? LaneSet::First(tail) : mask;
  }
};

// Where lane k of repeat r of an operand lies, in bytes from its view's
// start.
struct Walk {
  uint32_t elem_bytes;
  uint32_t per_block;     // lanes in a block
  uint64_t block_stride;  // bytes
  uint64_t repeat_stride;
  uint64_t Offset(int64_t r, uint32_t k) const {
    return static_cast<uint64_t>(r) * repeat_stride +
           (k / per_block) * block_stride + (k % per_block) * elem_bytes;
  }
  uint32_t BlocksPerRepeat(uint32_t lanes) const {
    return (lanes + per_block - 1) / per_block;
  }
};

Walk WalkOf(const VecOperand& o) {
  return {o.elem_bytes, kBlockBytes / o.elem_bytes,
          uint64_t{o.block_stride} * kBlockBytes,
          uint64_t{o.repeat_stride} * kBlockBytes};
}

const char* Who(const VecInstruction& in, char (&buffer)[64]) {
  JoinName(buffer, sizeof buffer, {in.api, "<", in.type, ">"});
  return buffer;
}

// Whether the destination operand receives the results (not so for a
// reduction whose results go to a sink).
bool WritesDst(const VecInstruction& in) {
  return in.reduce == nullptr || in.reduce->sink == nullptr;
}

// The FLOAT saturation mode (ctrl_spr.h), applied where the unit stores
// results: a half or bfloat16_t result that is ±inf becomes the type's ±MAX
// and a NaN becomes +0. The instruction's type string names its
// destination's type first ("half", "half, float").
enum class Saturated : uint8_t { kNone, kHalf, kBfloat16 };

// Instructions that move or select values, or write masks, rather than
// compute: the boundary-value appendix gives them no saturated results.
bool MovesValues(const char* api) {
  static constexpr const char* kMoves[] = {
      "Duplicate", "Copy",     "Select",         "Brcb",
      "Gather",    "Gatherb",  "GatherMask",     "Transpose",
      "Compare",   "Compares", "TransDataTo5HD", "CompareScalar"};
  for (const char* name : kMoves) {
    if (std::strcmp(api, name) == 0) return true;
  }
  return false;
}

Saturated SaturatedDst(const VecInstruction& in) {
  if (!FloatSaturationOn() || in.operand[0].elem_bytes != 2 ||
      MovesValues(in.api)) {
    return Saturated::kNone;
  }
  const char* type = in.type;
  const size_t length = std::strcspn(type, ",");
  const auto is = [&](const char* name) {
    return length == std::strlen(name) && std::strncmp(type, name, length) == 0;
  };
  if (is("half")) return Saturated::kHalf;
  if (is("bfloat16_t")) return Saturated::kBfloat16;
  return Saturated::kNone;
}

// Saturates n 16-bit results at `data` of the kind `kind`.
void Saturate(Saturated kind, void* data, uint64_t n) {
  if (kind != Saturated::kNone)
    SaturateFloat16(kind == Saturated::kBfloat16, data, n);
}

// Saturates the results of one span of a reduction that stores them (not
// those handed to a sink, which are intermediate) when each is a 16-bit
// value alone; a value and index pair is left as it is (docs/runtime.md,
// "Control register and saturation").
void SaturateResults(const VecInstruction& in, Saturated kind, void* results,
                     uint64_t groups) {
  if (in.reduce->sink == nullptr && in.reduce->result_bytes == 2)
    Saturate(kind, results, groups);
}

// Tells the sync check what the instruction reads and writes on PIPE_V:
// the first reach(i) bytes of operand i (at most its tensor), the
// destination written (and read where the instruction reads it). `exact`:
// the sources' reaches are the bytes read (the count form), which the init
// check looks at; a destination's old bytes are kept, not read, by some
// instructions (reads_dst), so the init check leaves those out.
template <typename Reach>
void NoteOperands(const VecInstruction& in, bool exact, Reach reach) {
  char who[64];
  Who(in, who);
  for (int i = 0; i < in.operands; ++i) {
    const VecOperand& o = in.operand[i];
    const uint64_t bytes = std::min<uint64_t>(reach(o), o.view->bytes);
    const bool dst = i == 0;
    if (dst && !WritesDst(in)) continue;
    if (!dst || in.reads_dst) {
      NoteTensorAccess(SyncPipe::kV, who, *o.view, 0, bytes, false,
                       exact && !dst);
    }
    if (dst) NoteTensorAccess(SyncPipe::kV, who, *o.view, 0, bytes, true);
  }
}

void CheckOperandMemory(const VecInstruction& in) {
  char who[64];
  for (int i = 0; i < in.operands; ++i) {
    const TensorView& v = *in.operand[i].view;
    if (i > 0 || in.reduce == nullptr) {
      if (!v.IsUbOperand()) v.CheckUbOperand(Who(in, who), in.operand[i].name);
      continue;
    }
    if (!WritesDst(in)) continue;
    if (!v.IsLive()) v.Check(Who(in, who));
    if (v.core == nullptr) {
      Fail("%s: dst LocalTensor is empty (no unified-buffer memory)",
           Who(in, who));
    }
    if (v.offset % in.reduce->dst_align != 0) {
      Fail(
          "%s: dst LocalTensor starts at UB offset %u, which is not %u-byte "
          "aligned (the results of this reduction need %u-byte alignment)",
          Who(in, who), v.offset, in.reduce->dst_align, in.reduce->dst_align);
    }
  }
}

// Whether group g of a reduction's repeat is written when `set` is selected.
bool GroupWritten(const ReduceLayout& l, const LaneSet& set, uint32_t g) {
  return l.write_empty || !(set & LaneSet::Range(g * l.group, l.group)).Empty();
}

// One past the last byte, from its repeat's first result, of the results a
// reduction's repeat writes with lanes `set` (0 when it writes none).
uint64_t ResultsEnd(const ReduceLayout& l, const LaneSet& set, uint32_t lanes) {
  for (uint32_t g = lanes / l.group; g-- > 0;) {
    if (GroupWritten(l, set, g)) return uint64_t{g + 1} * l.result_bytes;
  }
  return 0;
}

// One past the largest byte offset, within a repeat, of the lanes `set`
// selects (0 when it selects none).
uint64_t LaneEnd(const Walk& w, const LaneSet& set, uint32_t lanes) {
  if (w.block_stride != 0) {  // offsets grow with the lane: the last decides
    const LaneSet mine = set & LaneSet::First(lanes);
    if (mine.Empty()) return 0;
    const uint32_t last = mine.high != 0 ? 127 - __builtin_clzll(mine.high)
                                         : 63 - __builtin_clzll(mine.low);
    return w.Offset(0, last) + w.elem_bytes;
  }
  uint64_t end = 0;
  for (uint32_t k = 0; k < lanes; ++k) {
    if (set.Has(k)) end = std::max(end, w.Offset(0, k) + w.elem_bytes);
  }
  return end;
}

// One past the last byte of the operand's view the plan's selected lanes
// reach: the last repeat with its lanes, or the one before it with all of
// the mask's lanes (a short counter-mode tail may reach less far).
uint64_t ReachedEnd(const VecOperand& o, const Plan& plan, uint32_t lanes) {
  const Walk w = WalkOf(o);
  const int64_t last = plan.repeats - 1;
  uint64_t end = static_cast<uint64_t>(last) * w.repeat_stride +
                 LaneEnd(w, plan.MaskOf(last), lanes);
  if (last > 0) {
    end = std::max(end, static_cast<uint64_t>(last - 1) * w.repeat_stride +
                            LaneEnd(w, plan.mask, lanes));
  }
  return end;
}

// One past the last byte of operand i's view the plan reaches: its selected
// lanes, or a reduction's results.
uint64_t Reach(const VecInstruction& in, int i, const Plan& plan) {
  if (i != 0 || in.reduce == nullptr) {
    return ReachedEnd(in.operand[i], plan, in.lanes);
  }
  const ReduceLayout& l = *in.reduce;
  const int64_t last = plan.repeats - 1;
  uint64_t end = static_cast<uint64_t>(last) * l.repeat_bytes +
                 ResultsEnd(l, plan.MaskOf(last), in.lanes);
  if (last > 0) {
    end = std::max(end, static_cast<uint64_t>(last - 1) * l.repeat_bytes +
                            ResultsEnd(l, plan.mask, in.lanes));
  }
  return end;
}

// Every selected lane of every repeat lies inside its operand's tensor, and
// so does every result of a reduction.
void CheckExtents(const VecInstruction& in, const Plan& plan) {
  char who[64];
  for (int i = 0; i < in.operands; ++i) {
    const VecOperand& o = in.operand[i];
    if (i == 0 && !WritesDst(in)) continue;
    const uint64_t end = Reach(in, i, plan);
    if (i == 0 && in.reduce != nullptr && end > o.view->bytes) {
      Fail(
          "%s: dst has %u bytes; %lld repeats of %u-byte results, %llu bytes "
          "from one repeat's results to the next, reach byte %llu, past its "
          "end",
          Who(in, who), o.view->bytes, static_cast<long long>(plan.repeats),
          in.reduce->result_bytes,
          static_cast<unsigned long long>(in.reduce->repeat_bytes),
          static_cast<unsigned long long>(end));
    }
    if (end > o.view->bytes) {
      Fail(
          "%s: %s has %u elements (%u bytes); %lld repeats with block stride "
          "%u and repeat stride %u reach byte %llu, past its end",
          Who(in, who), o.name, o.view->bytes / o.elem_bytes, o.view->bytes,
          static_cast<long long>(plan.repeats), o.block_stride, o.repeat_stride,
          static_cast<unsigned long long>(end));
    }
  }
}

// Whether the destination and a source address the same bytes lane for
// lane (never so for a reduction, whose destination holds results).
bool Coincide(const VecInstruction& in, const VecOperand& a,
              const VecOperand& b) {
  return in.reduce == nullptr && a.view->core == b.view->core &&
         a.view->offset == b.view->offset && a.elem_bytes == b.elem_bytes &&
         a.block_stride == b.block_stride && a.repeat_stride == b.repeat_stride;
}

// Whether the bytes the destination and source i may reach intersect.
bool RangesMeet(const VecInstruction& in, int i, const Plan& plan) {
  const VecOperand& a = in.operand[0];
  const VecOperand& b = in.operand[i];
  if (a.view->core != b.view->core) return false;
  const uint64_t a_first = a.view->offset;
  const uint64_t b_first = b.view->offset;
  return a_first < b_first + Reach(in, i, plan) &&
         b_first < a_first + Reach(in, 0, plan);
}

// In place: a source that coincides with the destination and whose repeats
// touch disjoint blocks (so no repeat reads what an earlier one wrote).
bool InPlace(const VecInstruction& in, const VecOperand& src,
             const Plan& plan) {
  const VecOperand& dst = in.operand[0];
  const uint32_t lanes = in.lanes;
  if (!Coincide(in, dst, src)) return false;
  const uint32_t blocks = WalkOf(dst).BlocksPerRepeat(lanes);
  return plan.repeats == 1 ||
         dst.repeat_stride >= (blocks - 1) * dst.block_stride + 1;
}

using Blocks = std::bitset<kMaxUbBlocks>;

// Marks the UB blocks the selected lanes of repeat r of `o` touch.
void MarkBlocks(const VecOperand& o, const LaneSet& set, uint32_t lanes,
                int64_t r, Blocks* blocks) {
  const Walk w = WalkOf(o);
  for (uint32_t k = 0; k < lanes; ++k) {
    if (!set.Has(k)) continue;
    const uint64_t at = o.view->offset + w.Offset(r, k);
    blocks->set(at / kBlockBytes);
  }
}

// Marks the UB blocks repeat r writes to the destination.
void MarkWritten(const VecInstruction& in, const LaneSet& set, int64_t r,
                 Blocks* blocks) {
  const VecOperand& dst = in.operand[0];
  if (in.reduce == nullptr) {
    MarkBlocks(dst, set, in.lanes, r, blocks);
    return;
  }
  const ReduceLayout& l = *in.reduce;
  for (uint32_t g = 0; g < in.lanes / l.group; ++g) {
    if (!GroupWritten(l, set, g)) continue;
    const uint64_t at = dst.view->offset +
                        static_cast<uint64_t>(r) * l.repeat_bytes +
                        uint64_t{g} * l.result_bytes;
    blocks->set(at / kBlockBytes);
    blocks->set((at + l.result_bytes - 1) / kBlockBytes);
  }
}

// The overlap rules of the file comment of vector_unit.h.
void CheckOverlap(const VecInstruction& in, const Plan& plan) {
  const VecOperand& dst = in.operand[0];
  if (!WritesDst(in)) return;
  bool separate = true;
  for (int i = 1; i < in.operands; ++i) {
    const VecOperand& src = in.operand[i];
    if (!InPlace(in, src, plan) && RangesMeet(in, i, plan)) {
      separate = false;
    }
  }
  if (separate) return;

  // Block by block, repeat by repeat.
  auto written = std::make_unique<Blocks>();
  auto mine = std::make_unique<Blocks>();
  auto theirs = std::make_unique<Blocks>();
  char who[64];
  for (int64_t r = 0; r < plan.repeats; ++r) {
    const LaneSet set = plan.MaskOf(r);
    mine->reset();
    MarkWritten(in, set, r, mine.get());
    for (int i = 1; i < in.operands; ++i) {
      const VecOperand& src = in.operand[i];
      if (src.view->core != dst.view->core) continue;
      theirs->reset();
      MarkBlocks(src, set, in.lanes, r, theirs.get());
      const bool accumulates =
          in.dst_feeds_src1 && i == 2 &&
          (src.repeat_stride == 0 || dst.repeat_stride == 0);
      if (!accumulates && (*theirs & *written).any()) {
        Fail(
            "%s: repeat %lld reads %s from a block an earlier repeat wrote to "
            "dst; a source may not read an earlier repeat's destination",
            Who(in, who), static_cast<long long>(r), src.name);
      }
      if (!accumulates && !Coincide(in, dst, src) && (*theirs & *mine).any()) {
        Fail(
            "%s: in repeat %lld, dst and %s share a block without being the "
            "same lanes; within a repeat a destination and a source must "
            "overlap completely or not at all",
            Who(in, who), static_cast<long long>(r), src.name);
      }
    }
    *written |= *mine;
  }
}

// Whether the operand is walked contiguously: block stride 1 and a repeat
// stride of one repeat's bytes.
bool Contiguous(const VecOperand& o, uint32_t lanes) {
  return o.block_stride == 1 && uint64_t{o.repeat_stride} * kBlockBytes ==
                                    uint64_t{lanes} * o.elem_bytes;
}

// The lanes of all the plan's repeats.
uint64_t PlanLanes(const Plan& plan, uint32_t lanes) {
  return static_cast<uint64_t>(plan.repeats - 1) * lanes +
         (plan.tail != 0 ? plan.tail : lanes);
}

// Whether the plan selects every lane and each operand it reaches is
// contiguous and holds its `n` lanes — then the plan's lanes are the first n
// of each operand and CheckExtents has nothing to find. (A reduction whose
// destination receives results takes the general check.)
bool FitsFlat(const VecInstruction& in, const Plan& plan, uint64_t n) {
  if (!(plan.mask == LaneSet::First(in.lanes))) return false;
  for (int i = 0; i < in.operands; ++i) {
    const VecOperand& o = in.operand[i];
    if (i == 0 && in.reduce != nullptr) {
      if (WritesDst(in)) return false;
      continue;
    }
    if (!Contiguous(o, in.lanes) || n * o.elem_bytes > o.view->bytes)
      return false;
  }
  return true;
}

// The leading repeats a reduction hands over at once (ReduceLayout::whole):
// those before a counter-mode tail, when its source is contiguous and the
// mask selects every lane; else none.
int64_t WholeRepeats(const VecInstruction& in, const Plan& plan) {
  if (in.reduce == nullptr || in.reduce->whole == nullptr) return 0;
  if (!(plan.mask == LaneSet::First(in.lanes)) ||
      !Contiguous(in.operand[1], in.lanes)) {
    return 0;
  }
  return plan.tail != 0 ? plan.repeats - 1 : plan.repeats;
}

// Stores a reduction's results of repeat r from `results`, packed.
void StoreResults(const VecInstruction& in, const LaneSet& set, int64_t r,
                  const uint8_t* results) {
  const ReduceLayout& l = *in.reduce;
  if (l.sink != nullptr) {
    if (ResultsEnd(l, set, in.lanes) != 0) l.sink(l.context, r, results);
    return;
  }
  uint8_t* base =
      in.operand[0].view->data() + static_cast<uint64_t>(r) * l.repeat_bytes;
  for (uint32_t g = 0; g < in.lanes / l.group; ++g) {
    if (GroupWritten(l, set, g)) {
      std::memcpy(base + uint64_t{g} * l.result_bytes,
                  results + uint64_t{g} * l.result_bytes, l.result_bytes);
    }
  }
}

// Per repeat: gather, compute, scatter the selected lanes (or store a
// reduction's results).
void RunRepeats(const VecInstruction& in, const Plan& plan, int64_t first) {
  alignas(64) uint8_t rows[4][kRepeatBytes * 2];  // 128 lanes of 4 bytes max
  const uint8_t* ub_end = in.operand[0].view->core->ub() + kMaxUbBytes;
  SpanArgs args{};
  args.params = in.params;
  for (int i = 0; i < in.operands; ++i) args.operand[i] = rows[i];
  const Saturated saturated = SaturatedDst(in);
  Walk walks[4];
  for (int i = 0; i < in.operands; ++i) walks[i] = WalkOf(in.operand[i]);

  for (int64_t r = first; r < plan.repeats; ++r) {
    const LaneSet set = plan.MaskOf(r);
    for (int i = 0; i < in.operands; ++i) {
      if (i == 0 && !in.reads_dst) continue;
      const Walk& w = walks[i];
      uint8_t* base = in.operand[i].view->data();
      const uint32_t blocks = w.BlocksPerRepeat(in.lanes);
      if (i > 0 && w.block_stride == kBlockBytes &&
          base + w.Offset(r, 0) + blocks * kBlockBytes <= ub_end) {
        args.operand[i] = base + w.Offset(r, 0);  // a source read in place
        continue;
      }
      args.operand[i] = rows[i];
      for (uint32_t b = 0; b < blocks; ++b) {
        const uint8_t* from = base + w.Offset(r, b * w.per_block);
        uint8_t* to = rows[i] + b * kBlockBytes;
        if (from + kBlockBytes <= ub_end) {
          std::memcpy(to, from, kBlockBytes);
        } else {
          std::memset(to, 0, kBlockBytes);  // unselected lanes past the UB
        }
      }
    }
    args.n = in.lanes;
    args.selected[0] = set.low;
    args.selected[1] = set.high;
    args.first_lane = static_cast<uint64_t>(r) * in.lanes;
    in.span(args);
    if (in.reduce != nullptr) {
      SaturateResults(in, saturated, rows[0], in.lanes / in.reduce->group);
      StoreResults(in, set, r, rows[0]);
      continue;
    }
    Saturate(saturated, rows[0], in.lanes);
    const Walk& w = walks[0];
    uint8_t* base = in.operand[0].view->data();
    for (uint32_t k = 0; k < in.lanes; ++k) {
      if (set.Has(k)) {
        std::memcpy(base + w.Offset(r, k), rows[0] + k * w.elem_bytes,
                    w.elem_bytes);
      }
    }
  }
}

// The first `n` lanes of every operand, all selected, as one span call, when
// the destination is apart from each source or the very same lanes; the
// caller has checked that every operand holds n lanes. False (nothing done)
// when the operands overlap otherwise, which the general walk checks and
// reports. Never for a reduction.
bool RunFlat(const VecInstruction& in, uint64_t n) {
  if (n == 0) return false;
  const VecOperand& dst = in.operand[0];
  const uint64_t dst_begin = dst.view->offset;
  const uint64_t dst_end = dst_begin + n * dst.elem_bytes;
  for (int i = 1; i < in.operands; ++i) {
    const VecOperand& src = in.operand[i];
    if (src.view->core != dst.view->core) continue;
    const uint64_t begin = src.view->offset;
    const uint64_t end = begin + n * src.elem_bytes;
    const bool same = begin == dst_begin && src.elem_bytes == dst.elem_bytes;
    if (!same && begin < dst_end && dst_begin < end) return false;
  }
  SpanArgs args;
  args.params = in.params;
  for (int i = 0; i < in.operands; ++i)
    args.operand[i] = in.operand[i].view->data();
  args.n = static_cast<uint32_t>(n);
  args.every_lane = true;
  in.span(args);
  Saturate(SaturatedDst(in), args.operand[0], n);
  return true;
}

// The count form of a reduction whose span takes whole repeats at once
// (ReduceLayout::flat), as one span call: when count is whole repeats,
// every source contiguous, the packed results inside dst and apart from
// every source. False (nothing done) otherwise; the general walk checks
// and reports.
bool RunFlatResults(const VecInstruction& in, int64_t count) {
  const ReduceLayout& l = *in.reduce;
  if (count == 0 || count % in.lanes != 0 || l.sink != nullptr ||
      l.repeat_bytes != uint64_t{in.lanes} / l.group * l.result_bytes) {
    return false;
  }
  const uint64_t n = static_cast<uint64_t>(count);
  const TensorView& dst = *in.operand[0].view;
  const uint64_t dst_end = dst.offset + n / l.group * l.result_bytes;
  if (dst_end - dst.offset > dst.bytes) return false;
  for (int i = 1; i < in.operands; ++i) {
    const VecOperand& src = in.operand[i];
    if (!Contiguous(src, in.lanes)) return false;
    const uint64_t end = src.view->offset + n * src.elem_bytes;
    if (src.view->core == dst.core && src.view->offset < dst_end &&
        dst.offset < end) {
      return false;
    }
  }
  SpanArgs args;
  args.params = in.params;
  for (int i = 0; i < in.operands; ++i)
    args.operand[i] = in.operand[i].view->data();
  args.n = static_cast<uint32_t>(n);
  args.every_lane = true;
  in.span(args);
  SaturateResults(in, SaturatedDst(in), args.operand[0], n / l.group);
  return true;
}

void Execute(const VecInstruction& in, const Plan& plan) {
  if (plan.repeats == 0 || (plan.tail == 0 && plan.mask.Empty())) return;
  const uint64_t n = PlanLanes(plan, in.lanes);
  const bool flat = FitsFlat(in, plan, n);
  if (!flat) CheckExtents(in, plan);
  if (in.reduce == nullptr && flat && RunFlat(in, n)) return;
  CheckOverlap(in, plan);
  const int64_t whole = WholeRepeats(in, plan);
  if (whole > 0)
    in.reduce->whole(in.reduce->context, in.operand[1].view->data(), whole);
  if (whole < plan.repeats) RunRepeats(in, plan, whole);
}

LaneSet MaskRegisterLanes(const VectorMask& m, uint32_t lanes) {
  LaneSet s{m.low, lanes > 64 ? m.high : 0};
  const LaneSet all = LaneSet::First(lanes);
  return {s.low & all.low, s.high & all.high};
}

}  // namespace

void ExecuteCount(const VecInstruction& in, int64_t count) {
  char who[64];
  // An elementwise instruction writes its destination lane for lane over
  // the bytes NoteOperands gives; a reduction's layout may place its
  // results otherwise, so its pointers still count (UbWritesDeclared).
  const UbWritesDeclared declared(SyncCheckOn() && in.reduce == nullptr);
  if (count < 0) {
    Fail("%s: count %lld is negative", Who(in, who),
         static_cast<long long>(count));
  }
  CheckOperandMemory(in);
  for (int i = in.reduce != nullptr ? 1 : 0; i < in.operands; ++i) {
    const VecOperand& o = in.operand[i];
    if (static_cast<uint64_t>(count) * o.elem_bytes > o.view->bytes) {
      Fail("%s: %s has %u elements, fewer than count %lld", Who(in, who),
           o.name, o.view->bytes / o.elem_bytes, static_cast<long long>(count));
    }
  }
  if (SyncCheckOn()) {
    NoteOperands(in, /*exact=*/true, [&](const VecOperand& o) {
      return in.reduce != nullptr && &o == &in.operand[0]
                 ? uint64_t{o.view->bytes}
                 : static_cast<uint64_t>(count) * o.elem_bytes;
    });
  }
  // The count form walks every operand contiguously: an elementwise
  // instruction needs no plan unless its operands overlap.
  if (in.reduce == nullptr && RunFlat(in, static_cast<uint64_t>(count))) return;
  if (in.reduce != nullptr && in.reduce->flat && RunFlatResults(in, count))
    return;
  Plan plan;
  plan.repeats = (count + in.lanes - 1) / in.lanes;
  plan.mask = LaneSet::First(in.lanes);
  plan.tail = static_cast<uint32_t>(count % in.lanes);
  // Every operand walked contiguously; the instruction's own strides are
  // those already unless its operands' element sizes differ.
  bool contiguous = true;
  for (int i = 0; i < in.operands; ++i)
    contiguous &= Contiguous(in.operand[i], in.lanes);
  if (contiguous) {
    Execute(in, plan);
    return;
  }
  VecInstruction walked = in;
  for (int i = 0; i < in.operands; ++i) {
    walked.operand[i].block_stride = 1;
    walked.operand[i].repeat_stride =
        in.lanes * in.operand[i].elem_bytes / kBlockBytes;
  }
  Execute(walked, plan);
}

void ExecuteRepeats(const VecInstruction& in, int64_t repeat_time) {
  char who[64];
  const UbWritesDeclared declared(SyncCheckOn() && in.reduce == nullptr);
  CheckOperandMemory(in);
  const VectorMask& m = CurrentCore().vector_mask();
  Plan plan;
  if (m.mode == AscendC::MaskMode::COUNTER) {
    // The count decides the repeats; repeatTime is not read. No operand
    // holds more elements than the UB has bytes (nor would their bytes be
    // counted without overflow).
    if (m.low > kMaxUbBytes) {
      Fail(
          "%s: the mask register's count %llu (counter mode) is more elements "
          "than the "
          "unified buffer's %u bytes hold",
          Who(in, who), static_cast<unsigned long long>(m.low), kMaxUbBytes);
    }
    plan.repeats = static_cast<int64_t>((m.low + in.lanes - 1) / in.lanes);
    plan.mask = LaneSet::First(in.lanes);
    plan.tail = static_cast<uint32_t>(m.low % in.lanes);
  } else {
    if (repeat_time < 0 || repeat_time > in.max_repeat_time) {
      Fail("%s: repeatTime %lld is out of range (0..%lld)", Who(in, who),
           static_cast<long long>(repeat_time),
           static_cast<long long>(in.max_repeat_time));
    }
    plan.repeats = repeat_time;
    plan.mask = MaskRegisterLanes(m, in.lanes);
  }
  if (SyncCheckOn() && plan.repeats > 0) {
    // From the first block to the last the repeats reach.
    NoteOperands(in, /*exact=*/false, [&](const VecOperand& o) {
      return (static_cast<uint64_t>(plan.repeats - 1) * o.repeat_stride +
              uint64_t{kBlocksPerRepeat - 1} * o.block_stride + 1) *
             kBlockBytes;
    });
  }
  Execute(in, plan);
}

namespace {

// The register from a continuous mask: the first `len` lanes of a repeat of
// `lanes` (len clamped to lanes) in normal mode, an element count in counter
// mode.
void StoreLength(VectorMask& m, uint64_t len, uint32_t lanes,
                 AscendC::MaskMode mode) {
  if (mode == AscendC::MaskMode::COUNTER) {
    m.low = len;
    m.high = 0;
    return;
  }
  const LaneSet first =
      LaneSet::First(static_cast<uint32_t>(std::min<uint64_t>(len, lanes)));
  m.low = first.low;
  m.high = first.high;
}

// The lanes FullMaskLanes returns for the register `m`.
int64_t FullLanes(const VectorMask& m, uint32_t lanes, int64_t repeat_time) {
  if (m.mode == AscendC::MaskMode::COUNTER) return static_cast<int64_t>(m.low);
  return MaskRegisterLanes(m, lanes) == LaneSet::First(lanes)
             ? repeat_time * lanes
             : 0;
}

}  // namespace

int64_t FullMaskLanes(bool set, uint64_t len, uint32_t lanes,
                      int64_t repeat_time) {
  VectorMask& m = CurrentCore().vector_mask();
  if (set) StoreLength(m, len, lanes, m.mode);
  return FullLanes(m, lanes, repeat_time);
}

int64_t FullMaskLanes(bool set, const uint64_t mask[], uint32_t lanes,
                      int64_t repeat_time) {
  VectorMask& m = CurrentCore().vector_mask();
  if (set) {
    m.low = mask[0];
    m.high = MaskHighWord(mask, lanes);
  }
  return FullLanes(m, lanes, repeat_time);
}

void SetMaskBits(uint64_t high, uint64_t low) {
  VectorMask& m = CurrentCore().vector_mask();
  m.low = low;
  m.high = high;
}

void SetMaskLength(uint64_t len, uint32_t lanes, AscendC::MaskMode mode) {
  StoreLength(CurrentCore().vector_mask(), len, lanes, mode);
}

}  // namespace normgrad_ascendc

namespace AscendC {

void SetMaskCount() {
  normgrad_ascendc::CurrentCore().vector_mask().mode = MaskMode::COUNTER;
}

void SetMaskNorm() {
  normgrad_ascendc::CurrentCore().vector_mask().mode = MaskMode::NORMAL;
}

void ResetMask() {
  normgrad_ascendc::VectorMask& m =
      normgrad_ascendc::CurrentCore().vector_mask();
  m.low = ~uint64_t{0};
  m.high = ~uint64_t{0};
}

}  // namespace AscendC

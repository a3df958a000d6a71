// vector_reduce.cc — the reduction instructions (normgrad_ascendc/
// vector_reduce.h): their span function (one binary tree for sums, maxima
// and minima, over a pair, a block or a repeat), their checks per profile,
// and the stages of ReduceSum, ReduceMax and ReduceMin after the first,
// which runs on the vector unit's executor like every instruction.
#include "normgrad_ascendc/vector/vector_reduce.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "ascendc/vector/vector_loops.h"
#include "normgrad/convert.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/runtime/system_query.h"
#include "normgrad_ascendc/vector/vector_ops.h"

namespace normgrad_ascendc {

using AscendC::ReduceOrder;
using AscendC::ReduceType;

namespace {

constexpr uint32_t kMaxLanes = 128;
constexpr int32_t kMaxStride = 65535;

const char* OpName(ReduceType op) {
  switch (op) {
    case ReduceType::SUM:
      return "SUM";
    case ReduceType::MAX:
      return "MAX";
    case ReduceType::MIN:
      return "MIN";
  }
  return "?";
}

const char* OrderName(ReduceOrder order) {
  switch (order) {
    case ReduceOrder::ORDER_VALUE_INDEX:
      return "ORDER_VALUE_INDEX";
    case ReduceOrder::ORDER_INDEX_VALUE:
      return "ORDER_INDEX_VALUE";
    case ReduceOrder::ORDER_ONLY_VALUE:
      return "ORDER_ONLY_VALUE";
    case ReduceOrder::ORDER_ONLY_INDEX:
      return "ORDER_ONLY_INDEX";
  }
  return "?";
}

uint32_t SizeOf(ReduceElem e) {
  switch (e) {
    case ReduceElem::kHalf:
    case ReduceElem::kInt16:
    case ReduceElem::kUint16:
      return 2;
    case ReduceElem::kFloat:
    case ReduceElem::kInt32:
    case ReduceElem::kUint32:
      return 4;
    case ReduceElem::kInt64:
    case ReduceElem::kUint64:
      return 8;
  }
  return 4;
}

// ---- arithmetic of one element type ----

template <typename V>
V Add(V a, V b) {
  if constexpr (std::is_same_v<V, half>) {
    return half(static_cast<float>(a) + static_cast<float>(b));
  } else if constexpr (std::is_integral_v<V>) {
    using U = std::make_unsigned_t<V>;  // wraps modulo 2^bits
    return static_cast<V>(
        static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

template <typename V>
bool IsNan(V v) {
  if constexpr (std::is_integral_v<V>) {
    return false;
  } else {
    return std::isnan(static_cast<float>(v));
  }
}

template <typename V>
bool Greater(V a, V b) {
  if constexpr (std::is_same_v<V, half>) {
    return static_cast<float>(a) > static_cast<float>(b);
  } else {
    return a > b;
  }
}

template <typename V>
V Zero() {
  if constexpr (std::is_integral_v<V>) {
    return V{0};
  } else {
    return V(0.0f);
  }
}

// What a group with no selected lane yields where the profile writes it:
// 0 for a sum, -inf / +inf for max / min (the integer limits for integers).
template <typename V>
V EmptyValue(ReduceType op) {
  if (op == ReduceType::SUM) return Zero<V>();
  if constexpr (std::is_integral_v<V>) {
    return op == ReduceType::MAX ? std::numeric_limits<V>::lowest()
                                 : std::numeric_limits<V>::max();
  } else {
    const float inf = std::numeric_limits<float>::infinity();
    return V(op == ReduceType::MAX ? -inf : inf);
  }
}

// A partial result: a value, the position it came from (max / min), and
// whether any selected lane reached it.
template <typename V>
struct Node {
  V value;
  uint64_t index;
  bool has;
};

// Combines a left node (the earlier positions) with a right one. Sums add;
// max / min pick: a NaN first, else the strictly greater (smaller) right,
// else the left — so equal values keep the earliest position.
template <typename V>
Node<V> Combine(ReduceType op, const Node<V>& l, const Node<V>& r) {
  if (!r.has) return l;
  if (!l.has) return r;
  if (op == ReduceType::SUM) return {Add(l.value, r.value), l.index, true};
  if (IsNan(l.value)) return l;
  if (IsNan(r.value)) return r;
  const bool right = op == ReduceType::MAX ? Greater(r.value, l.value)
                                           : Greater(l.value, r.value);
  return right ? r : l;
}

// The binary tree over n nodes (a power of two), level by level: node i of
// the next level combines nodes 2i and 2i+1.
template <typename V>
Node<V> Tree(ReduceType op, Node<V>* nodes, uint32_t n) {
  for (uint32_t w = n; w > 1; w /= 2) {
    for (uint32_t i = 0; i < w / 2; ++i) {
      nodes[i] = Combine(op, nodes[2 * i], nodes[2 * i + 1]);
    }
  }
  return nodes[0];
}

// The unsigned integer of a type's size: how an index is stored in it.
template <typename V>
using IndexBits =
    std::conditional_t<sizeof(V) == 2, uint16_t,
                       std::conditional_t<sizeof(V) == 4, uint32_t, uint64_t>>;

// Stores one result: the value and/or the index as `order` says.
template <typename V>
void WriteResult(uint8_t* at, const Node<V>& n, ReduceType op,
                 ReduceOrder order) {
  if (op == ReduceType::SUM || order == ReduceOrder::ORDER_ONLY_VALUE) {
    std::memcpy(at, &n.value, sizeof(V));
    return;
  }
  if (order == ReduceOrder::ORDER_ONLY_INDEX) {
    const uint32_t index = static_cast<uint32_t>(n.index);
    std::memcpy(at, &index, sizeof index);
    return;
  }
  const IndexBits<V> index = static_cast<IndexBits<V>>(n.index);
  const bool value_first = order == ReduceOrder::ORDER_VALUE_INDEX;
  std::memcpy(at + (value_first ? 0 : sizeof(V)), &n.value, sizeof(V));
  std::memcpy(at + (value_first ? sizeof(V) : 0), &index, sizeof index);
}

uint32_t ResultBytes(ReduceType op, ReduceOrder order, uint32_t value_bytes) {
  if (op == ReduceType::SUM || order == ReduceOrder::ORDER_ONLY_VALUE) {
    return value_bytes;
  }
  if (order == ReduceOrder::ORDER_ONLY_INDEX) return 4;
  return 2 * value_bytes;
}

struct SpanParams {
  ReduceType op;
  ReduceOrder order;
  uint32_t group;
  uint32_t result_bytes;
  /// Set: the whole-repeat max / min also keeps the extreme of all its
  /// repeats here (Core::reduce_extreme).
  ReduceExtremeRegister* extreme = nullptr;
};

// Folds a result found at lane position `at` into the extreme register,
// the earlier position winning a tie as inside a repeat.
template <typename V>
void KeepExtreme(ReduceExtremeRegister& reg, ReduceType op, const V& value,
                 uint64_t at) {
  Node<V> before{V{}, reg.index, reg.has};
  std::memcpy(static_cast<void*>(&before.value), &reg.value_bits, sizeof(V));
  const Node<V> best = Combine(op, before, Node<V>{value, at, true});
  reg.has = true;
  reg.index = best.index;
  reg.value_bits = 0;
  std::memcpy(&reg.value_bits, &best.value, sizeof(V));
}

// Whether every one of the span's lanes is selected.
bool AllSelected(const SpanArgs& a) {
  const uint64_t low = a.n >= 64 ? ~uint64_t{0} : (uint64_t{1} << a.n) - 1;
  const uint64_t high = a.n >= 128 ? ~uint64_t{0}
                        : a.n > 64 ? (uint64_t{1} << (a.n - 64)) - 1
                                   : 0;
  return a.every_lane ||
         ((a.selected[0] & low) == low && (a.selected[1] & high) == high);
}

// The tree sums of consecutive groups of `group` lanes of src (a power of
// two, n a multiple of it), every lane selected (the common case, and the
// same additions in the same order as Tree), on the instruction set's
// loops: n / group sums. Half is added in float and rounded to half per
// level (the float sum of two halves rounded once is their binary16 sum).
template <typename V>
void GroupSums(const V* src, V* sums, size_t n, uint32_t group) {
  if (group == 1) {  // a group of one lane is its own sum
    std::copy(src, src + n, sums);
  } else if constexpr (std::is_same_v<V, float>) {
    VectorLoops().vector.tree_sums_f32(src, n, group, sums);
  } else {
    VectorLoops().vector.half_tree_sums(reinterpret_cast<const uint16_t*>(src),
                                        n, group,
                                        reinterpret_cast<uint16_t*>(sums));
  }
}

template <typename V>
void SumGroups(const uint8_t* src, uint8_t* out, uint32_t n,
               const SpanParams& p) {
  V v[kMaxLanes], sums[kMaxLanes];
  std::memcpy(static_cast<void*>(v), src, n * sizeof(V));
  GroupSums(v, sums, n, p.group);
  for (uint32_t g = 0; g < n / p.group; ++g) {
    std::memcpy(out + uint64_t{g} * p.result_bytes, &sums[g], sizeof(V));
  }
}

// How many lanes the span selects when they are its first ones (lanes 0 to
// t - 1 and no other); 0 when they are not, or when none is.
uint32_t SelectedPrefix(const SpanArgs& a) {
  const uint64_t low = a.n >= 64 ? ~uint64_t{0} : (uint64_t{1} << a.n) - 1;
  const uint64_t high = a.n >= 128 ? ~uint64_t{0}
                        : a.n > 64 ? (uint64_t{1} << (a.n - 64)) - 1
                                   : 0;
  const uint64_t l = a.selected[0] & low, h = a.selected[1] & high;
  const uint32_t t =
      static_cast<uint32_t>(__builtin_popcountll(l) + __builtin_popcountll(h));
  const uint64_t want_low = t >= 64 ? ~uint64_t{0} : (uint64_t{1} << t) - 1;
  const uint64_t want_high = t <= 64 ? 0 : (uint64_t{1} << (t - 64)) - 1;
  return l == want_low && h == want_high ? t : 0;
}

using Float4 = float __attribute__((vector_size(16)));

// One level of a tree over kN floats (a multiple of 8): to[i] = from[2i] +
// from[2i+1], four sums at a time (the baseline's vectors: SSE, NEON).
template <uint32_t kN>
void PairLevel(const float* from, float* to) {
#pragma GCC unroll 16
  for (uint32_t i = 0; i < kN; i += 8) {
    Float4 a, b;
    std::memcpy(&a, from + i, sizeof a);
    std::memcpy(&b, from + i + 4, sizeof b);
    const Float4 sum = __builtin_shufflevector(a, b, 0, 2, 4, 6) +
                       __builtin_shufflevector(a, b, 1, 3, 5, 7);
    std::memcpy(to + i / 2, &sum, sizeof sum);
  }
}

// The sums of level kN (kN floats in `from`) and of every level after it,
// down to one value, as Tree adds them.
template <uint32_t kN>
float TreeFrom(const float* from) {
  if constexpr (kN == 1) {
    return from[0];
  } else {
    float to[kN / 2];
    if constexpr (kN >= 8) {
      PairLevel<kN>(from, to);
    } else {
      for (uint32_t i = 0; i < kN / 2; ++i)
        to[i] = from[2 * i] + from[2 * i + 1];
    }
    return TreeFrom<kN / 2>(to);
  }
}

// The tree of the first t lanes of a repeat of V (1 ≤ t ≤ its lanes), the
// others not selected, as Tree adds them — half on the instruction set's
// loop, rounded per level — in float (a half's value for V = half). The
// lanes past t take no part: as -0 added takes none (x + -0 is x, bit for
// bit), they are -0 in a tree of the first w ≥ t lanes, w a power of two,
// whose sum the levels above w pass up unchanged.
template <typename V>
float PrefixSum(const V* src, uint32_t t) {
  constexpr uint32_t lanes = 256 / sizeof(V);
  float v[lanes];
  uint32_t w = 8;
  while (w < t) w *= 2;
  if constexpr (std::is_same_v<V, half>) {  // every level rounded to half
    const normgrad::kernels::Isa& isa = VectorLoops();
    isa.widen_f16(reinterpret_cast<const uint16_t*>(src), v, t);
    std::fill(v + t, v + w, -0.0f);
    return isa.vector.half_tree(v, w);
  } else {
    if (t == lanes) return TreeFrom<lanes>(src);
    std::memcpy(v, src, t * sizeof(float));
    std::fill(v + t, v + w, -0.0f);
    switch (w) {
      case 8:
        return TreeFrom<8>(v);
      case 16:
        return TreeFrom<16>(v);
      case 32:
        return TreeFrom<32>(v);
    }
    return TreeFrom<lanes>(v);
  }
}

// The span function of every reduction: per group of lanes, the tree of its
// selected lanes (the index is the lane within the group), one result each.
template <typename D, typename S>
void ReduceSpan(const SpanArgs& a) {
  const SpanParams& p = *static_cast<const SpanParams*>(a.params);
  const uint8_t* src = static_cast<const uint8_t*>(a.operand[1]);
  uint8_t* out = static_cast<uint8_t*>(a.operand[0]);
  if constexpr (std::is_same_v<D, S> && !std::is_integral_v<D>) {
    if (p.op == ReduceType::SUM && p.group == a.n) {  // one group: the repeat
      const uint32_t t = AllSelected(a) ? a.n : SelectedPrefix(a);
      if (t == 1) {  // passed up untouched
        std::memcpy(out, src, sizeof(D));
        return;
      }
      if (t > 0) {
        const D sum =
            static_cast<D>(PrefixSum(reinterpret_cast<const D*>(src), t));
        std::memcpy(out, &sum, sizeof(D));
        return;
      }
    }
    if (p.op == ReduceType::SUM && AllSelected(a))
      return SumGroups<D>(src, out, a.n, p);
  }
  Node<D> nodes[kMaxLanes];
  for (uint32_t g = 0; g * p.group < a.n; ++g) {
    for (uint32_t j = 0; j < p.group; ++j) {
      const uint32_t k = g * p.group + j;
      S s;
      std::memcpy(static_cast<void*>(&s), src + uint64_t{k} * sizeof(S),
                  sizeof(S));
      const bool selected = a.Selected(k);
      nodes[j] = {static_cast<D>(s), j, selected};
    }
    Node<D> r = Tree(p.op, nodes, p.group);
    if (r.has && p.extreme != nullptr) {
      KeepExtreme(*p.extreme, p.op, r.value,
                  a.first_lane + uint64_t{g} * p.group + r.index);
    }
    if (!r.has) r = {EmptyValue<D>(p.op), 0, false};
    WriteResult(out + uint64_t{g} * p.result_bytes, r, p.op, p.order);
  }
}

// Calls f with a value of type T for an element type e.
template <typename F>
void Visit(ReduceElem e, F&& f) {
  switch (e) {
    case ReduceElem::kHalf:
      return f(half{});
    case ReduceElem::kFloat:
      return f(float{});
    case ReduceElem::kInt16:
      return f(int16_t{});
    case ReduceElem::kUint16:
      return f(uint16_t{});
    case ReduceElem::kInt32:
      return f(int32_t{});
    case ReduceElem::kUint32:
      return f(uint32_t{});
    case ReduceElem::kInt64:
      return f(int64_t{});
    case ReduceElem::kUint64:
      return f(uint64_t{});
  }
}

SpanFn SpanFor(ReduceElem dst, ReduceElem src) {
  SpanFn fn = nullptr;
  Visit(dst, [&](auto d) {
    Visit(src, [&](auto s) {
      using D = decltype(d);
      using S = decltype(s);
      if constexpr (std::is_same_v<D, S> ||
                    (std::is_integral_v<D> && std::is_integral_v<S> &&
                     sizeof(D) > sizeof(S))) {
        fn = &ReduceSpan<D, S>;
      }
    });
  });
  return fn;
}

// ---- the checks ----

Profile ThisProfile(const ReduceCall& c) {
  return c.src->core != nullptr ? c.src->core->profile().profile
                                : CurrentProfile();
}

const char* ProfileName(Profile p) { return GetProfileInfo(p).name; }

bool IsFloat(ReduceElem e) {
  return e == ReduceElem::kHalf || e == ReduceElem::kFloat;
}
bool Is64(ReduceElem e) {
  return e == ReduceElem::kInt64 || e == ReduceElem::kUint64;
}

// ---- the registers the SPR getters read (GetReduceRepeatSumSpr,
// GetReduceRepeatMaxMinSpr) ----

// The bits of the `bytes`-byte element at p.
uint64_t ElementBits(const uint8_t* p, uint32_t bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, p, bytes);
  return bits;
}

// The core's extreme register, cleared and set to hold what a max or min
// reduction of `value_bytes` elements finds (nothing yet).
ReduceExtremeRegister& ClaimExtremeRegister(ReduceType op,
                                            uint32_t value_bytes) {
  ReduceExtremeRegister& reg = CurrentCore().reduce_extreme();
  reg = ReduceExtremeRegister();
  reg.op = op == ReduceType::MAX ? ReduceExtremeRegister::Op::kMax
                                 : ReduceExtremeRegister::Op::kMin;
  reg.value_bytes = static_cast<uint8_t>(value_bytes);
  return reg;
}

// After ReduceSum / ReduceMax / ReduceMin of half or float: dst's first
// element (and, for calIndex, the index after it) as the registers hold them:
// the sum register, or the extreme register that ReduceRepeat<MAX/MIN> also
// sets.
void RecordWholeResult(const ReduceCall& c, bool cal_index) {
  if (!IsFloat(c.dst_type)) return;
  const uint32_t bytes = SizeOf(c.dst_type);
  const uint8_t* d = c.dst->data();
  if (c.op == ReduceType::SUM) {
    CurrentCore().reduce_spr().sum = ElementBits(d, bytes);
    return;
  }
  ReduceExtremeRegister& reg = ClaimExtremeRegister(c.op, bytes);
  reg.has = true;
  reg.value_bits = ElementBits(d, bytes);
  reg.index = cal_index ? ElementBits(d + bytes, bytes) : 0;
}

[[noreturn]] void FailType(const ReduceCall& c, const char* supported) {
  Fail("%s: this type is not supported on %s (%s)", c.name(),
       ProfileName(ThisProfile(c)), supported);
}

// The types of ReduceRepeat / ReduceDataBlock / ReducePairElem and their
// earlier names.
void CheckLevel0Types(const ReduceCall& c, ReduceGroup group) {
  const bool on950 = ThisProfile(c) == Profile::k950;
  const ReduceElem d = c.dst_type, s = c.src_type;
  if (group != ReduceGroup::kRepeat || !on950 ||
      std::strncmp(c.api, "Reduce", 6) != 0) {
    if (d != s || !IsFloat(d)) {
      FailType(c, "dst and src both half or both float");
    }
    return;
  }
  const bool same = d == s && !Is64(d);
  const bool widening =
      c.op == ReduceType::SUM &&
      ((d == ReduceElem::kInt32 && s == ReduceElem::kInt16) ||
       (d == ReduceElem::kUint32 && s == ReduceElem::kUint16));
  if (!same && !widening) {
    FailType(c,
             "dst and src of one type among int16_t, uint16_t, half, "
             "int32_t, uint32_t, float; for SUM also int32_t from int16_t "
             "and uint32_t from uint16_t");
  }
}

void CheckOrder(const ReduceCall& c, ReduceOrder order) {
  if (c.op == ReduceType::SUM) return;
  const Profile p = ThisProfile(c);
  const bool ok = p != Profile::k310P ||
                  order == ReduceOrder::ORDER_VALUE_INDEX ||
                  order == ReduceOrder::ORDER_INDEX_VALUE;
  if (!ok) {
    Fail(
        "%s: order %s is not supported on %s (ORDER_VALUE_INDEX or "
        "ORDER_INDEX_VALUE)",
        c.name(), OrderName(order), ProfileName(p));
  }
}

void CheckStride(const ReduceCall& c, const char* what, int32_t value) {
  if (value < 0 || value > kMaxStride) {
    Fail("%s: %s %d is out of range (0..%d)", c.name(), what, value,
         kMaxStride);
  }
}

}  // namespace

const char* ReduceCall::type() const {
  const bool same = dst_type == src_type;
  if (!with_op && same) return dst_type_name;
  if (type_text[0] == '\0') {
    JoinName(type_text, sizeof type_text,
             {with_op ? OpName(op) : "", with_op ? ", " : "", dst_type_name,
              same ? "" : ", ", same ? "" : src_type_name});
  }
  return type_text;
}

const char* ReduceCall::name() const {
  if (name_text[0] == '\0')
    JoinName(name_text, sizeof name_text, {api, "<", type(), ">"});
  return name_text;
}

void SetReduceMask(const ReduceCall& call, const uint64_t mask[]) {
  SetMaskArgument(mask, 256 / SizeOf(call.src_type));
}

void SetReduceMask(const ReduceCall& call, int32_t mask) {
  if (mask < 0) Fail("%s: mask %d is negative", call.name(), mask);
  SetMaskArgument(static_cast<uint64_t>(mask), 256 / SizeOf(call.src_type));
}

void ReduceLevel0(const ReduceCall& c, ReduceGroup group, int32_t repeat_time,
                  int32_t dst_rep_stride, int32_t src_blk_stride,
                  int32_t src_rep_stride, ReduceOrder order) {
  CheckLevel0Types(c, group);
  CheckOrder(c, order);
  CheckStride(c, "dstRepStride", dst_rep_stride);
  CheckStride(c, "srcBlkStride", src_blk_stride);
  CheckStride(c, "srcRepStride", src_rep_stride);
  const uint32_t d_bytes = SizeOf(c.dst_type);
  const uint32_t s_bytes = SizeOf(c.src_type);
  const uint32_t lanes = 256 / s_bytes;
  // Where the 950 profile fills a block or pair that selects no lane; the
  // others keep the destination's bytes.
  const bool fills = ThisProfile(c) == Profile::k950;
  SpanParams p{c.op, order, lanes, d_bytes};
  ReduceLayout layout{};
  switch (group) {
    case ReduceGroup::kRepeat:
      p.result_bytes = ResultBytes(c.op, order, d_bytes);
      if (c.op != ReduceType::SUM) {
        p.extreme = &ClaimExtremeRegister(c.op, d_bytes);
      }
      layout = {
          lanes, p.result_bytes,
          uint64_t{p.result_bytes} * static_cast<uint32_t>(dst_rep_stride),
          p.result_bytes};
      break;
    case ReduceGroup::kDataBlock:  // 8 results a repeat, in units of 8
      p.group = 32 / s_bytes;
      layout = {p.group, d_bytes,
                uint64_t{8} * d_bytes * static_cast<uint32_t>(dst_rep_stride),
                8 * d_bytes, fills};
      break;
    case ReduceGroup::kPair:  // half a repeat's bytes, in units of 128
      p.group = 2;
      layout = {2, d_bytes,
                uint64_t{128} * static_cast<uint32_t>(dst_rep_stride), 32,
                fills};
      break;
  }
  VecInstruction in{
      c.api,
      c.type(),
      lanes,
      {{"dst", c.dst, d_bytes},
       {"src", c.src, s_bytes, static_cast<uint32_t>(src_blk_stride),
        static_cast<uint32_t>(src_rep_stride)}},
      2,
      SpanFor(c.dst_type, c.src_type)};
  in.params = &p;
  in.reduce = &layout;
  ExecuteRepeats(in, repeat_time);
  if (group == ReduceGroup::kRepeat) {
  }
}

namespace {

// ---- ReduceSum, ReduceMax, ReduceMin ----

// How ReduceSum combines the sums of its repeats.
enum class SumOrder : uint8_t {
  kSequential,  // the repeats' sums added one after another
  kTreeRounds,  // the repeats' sums reduced again a repeat at a time
  kLanesFirst,  // the repeats added lane by lane, then one tree
};

struct Whole {
  const ReduceCall* call;
  bool count_form;
  int64_t elements;  // count (count form, or counter mode), else 0
  int64_t repeats;   // the repeats of the first stage
  bool cal_index;
  SumOrder sum_order;
  uint32_t lanes;
};

// sharedTmpBuffer's documented least size, in elements, where the profile
// uses it.
int64_t TmpElements(const Whole& w) {
  const uint32_t bytes = SizeOf(w.call->dst_type);
  const int64_t per_block = 32 / bytes;
  const int64_t per_repeat = 256 / bytes;
  const int64_t first =
      w.count_form ? std::max<int64_t>(1, w.elements / per_repeat) : w.repeats;
  auto blocks = [&](int64_t n) {
    return (n + per_block - 1) / per_block * per_block;
  };
  if (w.call->op == ReduceType::SUM) return blocks(first);
  const int64_t iter1 = first * 2;
  if (!w.cal_index) return blocks(iter1);
  const int64_t iter2 = (iter1 + per_repeat - 1) / per_repeat * 2;
  if (iter2 <= 2) return blocks(iter1) + blocks(iter2);
  const int64_t iter3 = (iter2 + per_repeat - 1) / per_repeat * 2;
  return blocks(iter1) + blocks(iter2) + blocks(iter3);
}

bool UsesTmp(const Whole& w, Profile p) {
  if (w.call->op == ReduceType::SUM)
    return w.sum_order == SumOrder::kTreeRounds;
  return p != Profile::k950;
}

void CheckWholeTypes(const ReduceCall& c, bool count_form) {
  const Profile p = ThisProfile(c);
  const ReduceElem t = c.dst_type;
  if (p != Profile::k950) {
    if (!IsFloat(t)) FailType(c, "half or float");
    return;
  }
  if (Is64(t) && !count_form) {
    FailType(c, "int64_t and uint64_t only in the count form");
  }
  if (c.op == ReduceType::SUM && !IsFloat(t) && !Is64(t)) {
    FailType(c, "half, float, int64_t, uint64_t");
  }
}

void CheckWholeDst(const Whole& w) {
  const ReduceCall& c = *w.call;
  const TensorView& dst = *c.dst;
  if (!dst.IsLive()) dst.Check(c.name());
  if (dst.core == nullptr) {
    Fail("%s: dst LocalTensor is empty (no unified-buffer memory)", c.name());
  }
  const uint32_t bytes = SizeOf(c.dst_type);
  const uint32_t need = w.cal_index ? 2 * bytes : bytes;
  if (dst.offset % need != 0) {
    Fail(
        "%s: dst LocalTensor starts at UB offset %u, which is not %u-byte "
        "aligned (the result%s needs %u-byte alignment)",
        c.name(), dst.offset, need, w.cal_index ? " and its index" : "", need);
  }
  if (dst.bytes < need) {
    Fail("%s: dst has %u bytes, fewer than the %u of the result%s", c.name(),
         dst.bytes, need, w.cal_index ? " and its index" : "");
  }
}

// The fold of the repeats' results as the executor hands them over.
template <typename T>
struct Fold {
  const Whole* w;
  Node<T> best{Zero<T>(), 0, false};  // max / min, folded as they come
  std::vector<T> sums;                // SUM: every repeat's sum (tree rounds)
  Node<T> running{Zero<T>(), 0, false};  // SUM, sequential
  std::vector<T> lanes;                  // lanes first: the gathered elements
};

template <typename T>
void Collect(void* context, int64_t r, const uint8_t* results) {
  Fold<T>& f = *static_cast<Fold<T>*>(context);
  const Whole& w = *f.w;
  if (w.sum_order == SumOrder::kLanesFirst && w.call->op == ReduceType::SUM) {
    const size_t at = f.lanes.size();
    f.lanes.resize(at + w.lanes);
    std::memcpy(static_cast<void*>(f.lanes.data() + at), results,
                w.lanes * sizeof(T));
    return;
  }
  T value;
  std::memcpy(static_cast<void*>(&value), results, sizeof(T));
  if (w.call->op != ReduceType::SUM) {
    IndexBits<T> k;
    std::memcpy(&k, results + sizeof(T), sizeof k);
    const Node<T> n{value, static_cast<uint64_t>(r) * w.lanes + k, true};
    f.best = Combine(w.call->op, f.best, n);
  } else if (w.sum_order == SumOrder::kSequential) {
    f.running = Combine(ReduceType::SUM, f.running, {value, 0, true});
  } else {
    f.sums.push_back(value);
  }
}

// The bulk form of Collect for sums: `repeats` whole repeats of a
// contiguous source, every lane selected; each repeat's tree sum goes to
// Collect in repeat order, computed a slice of repeats at a time.
template <typename T>
void CollectWhole(void* context, const uint8_t* src, int64_t repeats) {
  constexpr int64_t kSlice = 256;  // repeats per slice
  const uint32_t lanes = static_cast<Fold<T>*>(context)->w->lanes;
  T sums[kSlice];
  for (int64_t r = 0; r < repeats; r += kSlice) {
    const int64_t m = std::min(kSlice, repeats - r);
    const T* from =
        reinterpret_cast<const T*>(src) + static_cast<uint64_t>(r) * lanes;
    GroupSums(from, sums, static_cast<size_t>(m) * lanes, lanes);
    for (int64_t j = 0; j < m; ++j) {
      Collect<T>(context, r + j, reinterpret_cast<const uint8_t*>(sums + j));
    }
  }
}

// The tree rounds: the values reduced a repeat (`lanes`) at a time, the
// last group with only its values, until one is left.
template <typename T>
T TreeRounds(std::vector<T> values, uint32_t lanes) {
  Node<T> nodes[kMaxLanes];
  while (values.size() > 1) {
    std::vector<T> next;
    for (size_t at = 0; at < values.size(); at += lanes) {
      for (uint32_t j = 0; j < lanes; ++j) {
        const bool has = at + j < values.size();
        nodes[j] = {has ? values[at + j] : Zero<T>(), 0, has};
      }
      next.push_back(Tree(ReduceType::SUM, nodes, lanes).value);
    }
    values = std::move(next);
  }
  return values[0];
}

// Lanes first: lane k of every repeat added in repeat order, then one tree
// over the lanes; `elements` counts the gathered elements that take part.
template <typename T>
T LanesFirst(const std::vector<T>& gathered, int64_t elements, uint32_t lanes) {
  Node<T> nodes[kMaxLanes];
  for (uint32_t k = 0; k < lanes; ++k) {
    nodes[k] = {Zero<T>(), 0, false};
    for (int64_t at = k; at < elements; at += lanes) {
      nodes[k] = Combine(ReduceType::SUM, nodes[k],
                         {gathered[static_cast<size_t>(at)], 0, true});
    }
  }
  return Tree(ReduceType::SUM, nodes, lanes).value;
}

template <typename T>
void RunWhole(const Whole& w, const std::function<void(VecInstruction&)>& run) {
  const ReduceCall& c = *w.call;
  const bool gather =
      c.op == ReduceType::SUM && w.sum_order == SumOrder::kLanesFirst;
  SpanParams p{c.op, ReduceOrder::ORDER_VALUE_INDEX, gather ? 1 : w.lanes,
               ResultBytes(c.op, ReduceOrder::ORDER_VALUE_INDEX, sizeof(T))};
  Fold<T> fold;
  fold.w = &w;
  ReduceLayout layout{p.group, p.result_bytes,
                      uint64_t{w.lanes} / p.group * p.result_bytes, 1};
  layout.sink = &Collect<T>;
  layout.context = &fold;
  if constexpr (!std::is_integral_v<T>) {
    if (c.op == ReduceType::SUM && !gather) layout.whole = &CollectWhole<T>;
  }
  VecInstruction in{
      c.api,   c.type(),
      w.lanes, {{"dst", c.dst, sizeof(T)}, {"src", c.src, sizeof(T)}},
      2,       &ReduceSpan<T, T>};
  in.params = &p;
  in.reduce = &layout;
  in.max_repeat_time = std::numeric_limits<int32_t>::max();
  run(in);

  Node<T> result{};
  if (c.op != ReduceType::SUM) {
    result = fold.best;
  } else if (gather) {
    if (fold.lanes.empty()) return;
    result = {LanesFirst(fold.lanes, w.elements, w.lanes), 0, true};
  } else if (w.sum_order == SumOrder::kSequential) {
    result = fold.running;
  } else {
    if (fold.sums.empty()) return;
    result = {TreeRounds(fold.sums, w.lanes), 0, true};
  }
  if (!result.has) return;  // nothing selected: nothing written
  uint8_t* out = c.dst->data();
  const ReduceOrder order = w.cal_index ? ReduceOrder::ORDER_VALUE_INDEX
                                        : ReduceOrder::ORDER_ONLY_VALUE;
  WriteResult(out, result, c.op, order);
}

SumOrder SumOrderOf(Profile p, bool count_form, bool counter_mode,
                    int64_t elements, ReduceElem t) {
  switch (p) {
    case Profile::kA2:
      return count_form ? SumOrder::kSequential : SumOrder::kTreeRounds;
    case Profile::k310P:
      return SumOrder::kTreeRounds;
    case Profile::k950: {
      const int64_t bytes = elements * SizeOf(t);
      if (Is64(t) || (counter_mode && bytes >= 256 && bytes <= 1024)) {
        return SumOrder::kLanesFirst;
      }
      return SumOrder::kTreeRounds;
    }
  }
  return SumOrder::kTreeRounds;
}

void CheckWhole(const Whole& w, const TensorView& tmp) {
  const ReduceCall& c = *w.call;
  CheckWholeDst(w);
  const Profile p = ThisProfile(c);
  if (w.cal_index && SizeOf(c.dst_type) == 2) {
    const int64_t last = (w.count_form ? w.elements : w.repeats * w.lanes) - 1;
    if (last > 65535) {
      Fail(
          "%s: calIndex over %lld elements: a %s result holds indices up "
          "to 65535",
          c.name(), static_cast<long long>(last + 1), c.type());
    }
  }
  if (!UsesTmp(w, p) || w.repeats == 0) return;
  if (!tmp.IsUbOperand()) tmp.CheckUbOperand(c.name(), "sharedTmpBuffer");
  const int64_t need = TmpElements(w);
  const int64_t have = tmp.bytes / SizeOf(c.dst_type);
  if (have < need) {
    Fail(
        "%s: sharedTmpBuffer has %lld elements; %lld repeats%s need at least "
        "%lld",
        c.name(), static_cast<long long>(have),
        static_cast<long long>(w.count_form
                                   ? std::max<int64_t>(1, w.elements / w.lanes)
                                   : w.repeats),
        w.cal_index ? " with calIndex" : "", static_cast<long long>(need));
  }
}

// The count form of ReduceMax and ReduceMin of half or float at once: the
// trees and the fold pick the first NaN, else the greatest (least) value
// at its first position (−0 equal to +0) whatever the order of the
// combinations, so the engine's loop that finds that position gives their
// result. Taken, after the checks of ReduceAllCount, when src is a UB
// operand holding the elements and dst's result lies apart from them (the
// checks of the executor, which the general path leaves to report); false
// (nothing done) otherwise.
bool ExtremeDirect(const Whole& w) {
  const ReduceCall& c = *w.call;
  if (c.op == ReduceType::SUM || !IsFloat(c.dst_type) ||
      c.src_type != c.dst_type)
    return false;
  const TensorView& src = *c.src;
  const TensorView& dst = *c.dst;
  const uint32_t size = SizeOf(c.dst_type);
  const uint64_t bytes = static_cast<uint64_t>(w.elements) * size;
  const uint64_t result_bytes = w.cal_index ? 2 * size : size;
  if (!src.IsUbOperand() || bytes > src.bytes) return false;
  if (dst.core == src.core && dst.offset < src.offset + bytes &&
      src.offset < dst.offset + result_bytes) {
    return false;
  }
  const normgrad::kernels::VectorKernels& k = VectorLoops().vector;
  const int least = c.op == ReduceType::MIN ? 1 : 0;
  const auto n = static_cast<uint32_t>(w.elements);
  const uint8_t* from = src.data();
  const ReduceOrder order = w.cal_index ? ReduceOrder::ORDER_VALUE_INDEX
                                        : ReduceOrder::ORDER_ONLY_VALUE;
  if (c.dst_type == ReduceElem::kHalf) {
    Node<half> r{
        half(0.0f),
        k.arg_extreme_f16[least](reinterpret_cast<const uint16_t*>(from), n),
        true};
    std::memcpy(static_cast<void*>(&r.value), from + r.index * 2, 2);
    WriteResult(dst.data(), r, c.op, order);
  } else {
    Node<float> r{
        0.0f, k.arg_extreme_f32[least](reinterpret_cast<const float*>(from), n),
        true};
    std::memcpy(&r.value, from + r.index * 4, 4);
    WriteResult(dst.data(), r, c.op, order);
  }
  return true;
}

void RunWholeTyped(const Whole& w,
                   const std::function<void(VecInstruction&)>& run) {
  Visit(w.call->dst_type, [&](auto t) { RunWhole<decltype(t)>(w, run); });
}

}  // namespace

namespace {

// The count form's sum of `count` elements in A2's order: each repeat's tree
// (the last one's first lanes), the repeats' sums added one after another,
// every addition of half rounded to half.
template <typename V>
V SequentialSum(const V* src, uint32_t count) {
  constexpr uint32_t lanes = 256 / sizeof(V);
  float running = 0.0f;
  const auto add = [&running](bool first, float sum) {
    running = first ? sum : running + sum;
    if constexpr (std::is_same_v<V, half>) {
      running =
          normgrad::bits::HalfToFloat(normgrad::bits::FloatToHalf(running));
    }
  };
  uint32_t at = 0;
  // Whole repeats a slice at a time on the instruction set's trees.
  constexpr uint32_t kSlice = 32 * lanes;
  for (; count - at >= lanes;
       at += std::min(kSlice, (count - at) / lanes * lanes)) {
    const uint32_t n = std::min(kSlice, (count - at) / lanes * lanes);
    if (n == lanes) break;  // one repeat: its own tree is cheaper
    V sums[kSlice / lanes];
    GroupSums(src + at, sums, n, lanes);
    if constexpr (std::is_same_v<V, half>) {
      for (uint32_t r = 0; r < n / lanes; ++r)
        add(at + r == 0, static_cast<float>(sums[r]));
    } else {
      // A local chain: GCC keeps `running` (the lambda's) in memory, and a
      // store and a load on each addition's path take longer than the
      // addition itself.
      float sum = at == 0 ? sums[0] : running + sums[0];
      for (uint32_t r = 1; r < n / lanes; ++r) sum += sums[r];
      running = sum;
    }
  }
  for (; at < count; at += lanes)
    add(at == 0, PrefixSum(src + at, std::min(count - at, lanes)));
  return static_cast<V>(running);
}

}  // namespace

bool ReduceSumDirect(const TensorView& dst, const TensorView& src,
                     const TensorView& tmp, int32_t count, bool is_half) {
  const uint32_t size = is_half ? 2 : 4;
  const uint32_t lanes = 256 / size;
  // The checks of ReduceAllCount, CheckWhole and ExecuteCount for this case
  // (a dst that holds the result, a src that holds count elements, and the
  // one block of sharedTmpBuffer the profiles that read it need for one
  // repeat), all passing; else the general path reports.
  if (count <= 0 || uint64_t{static_cast<uint32_t>(count)} * size > src.bytes ||
      !src.IsUbOperand()) {
    return false;
  }
  if (!dst.IsLive() || dst.core == nullptr || dst.offset % size != 0 ||
      dst.bytes < size) {
    return false;
  }
  if (static_cast<uint32_t>(count) > lanes &&
      src.core->profile().profile != Profile::kA2) {  // another order
    return false;
  }
  if (static_cast<uint32_t>(count) <= lanes &&
      (!tmp.IsUbOperand() || tmp.bytes < 32)) {
    return false;
  }
  const uint8_t* from = src.data();
  uint8_t* to = dst.data();
  const uint32_t n = static_cast<uint32_t>(count);
  if (is_half) {
    if (n == 1) {  // passed up untouched
      std::memmove(to, from, 2);
    } else {
      const half sum = SequentialSum(reinterpret_cast<const half*>(from), n);
      std::memcpy(to, &sum, sizeof sum);
    }
  } else {
    const float sum = SequentialSum(reinterpret_cast<const float*>(from), n);
    std::memcpy(to, &sum, sizeof sum);
  }
  CurrentCore().reduce_spr().sum = ElementBits(to, size);
  return true;
}

void ReduceAllCount(const ReduceCall& c, const TensorView& tmp, int32_t count,
                    bool cal_index, bool count_from_mask) {
  CheckWholeTypes(c, true);
  const Profile p = ThisProfile(c);
  int64_t n = count;
  if (count_from_mask && p == Profile::kA2) {
    const VectorMask& m = CurrentCore().vector_mask();
    if (m.mode != AscendC::MaskMode::COUNTER) {
      Fail(
          "%s: isSetMask = false takes the count from the mask register, "
          "which is in normal mode (call SetMaskCount and SetVectorMask "
          "first)",
          c.name());
    }
    n = static_cast<int64_t>(m.low);
  }
  if (n < 0)
    Fail("%s: count %lld is negative", c.name(), static_cast<long long>(n));
  Whole w{&c,
          true,
          n,
          0,
          cal_index,
          SumOrder::kTreeRounds,
          256 / SizeOf(c.dst_type)};
  w.repeats = (n + w.lanes - 1) / w.lanes;
  w.sum_order = SumOrderOf(p, true, true, n, c.dst_type);
  if (n == 0) return;
  CheckWhole(w, tmp);
  if (!ExtremeDirect(w)) {
    RunWholeTyped(w, [&](VecInstruction& in) { ExecuteCount(in, n); });
  }
  RecordWholeResult(c, cal_index);
}

void ReduceAllRepeats(const ReduceCall& c, const TensorView& tmp,
                      int32_t repeat_time, int32_t src_rep_stride,
                      bool cal_index) {
  CheckWholeTypes(c, false);
  CheckStride(c, "srcRepStride", src_rep_stride);
  if (repeat_time < 0) {
    Fail("%s: repeatTime %d is negative", c.name(), repeat_time);
  }
  const Profile p = ThisProfile(c);
  const VectorMask& m = CurrentCore().vector_mask();
  const bool counter = m.mode == AscendC::MaskMode::COUNTER;
  Whole w{&c,
          false,
          counter ? static_cast<int64_t>(m.low) : 0,
          repeat_time,
          cal_index,
          SumOrder::kTreeRounds,
          256 / SizeOf(c.dst_type)};
  if (counter) w.repeats = (w.elements + w.lanes - 1) / w.lanes;
  w.sum_order = SumOrderOf(p, false, counter, w.elements, c.dst_type);
  if (w.repeats == 0) return;
  CheckWhole(w, tmp);
  RunWholeTyped(w, [&](VecInstruction& in) {
    in.operand[1].repeat_stride = static_cast<uint32_t>(src_rep_stride);
    ExecuteRepeats(in, repeat_time);
  });
  RecordWholeResult(c, cal_index);
}

uint64_t ReduceSumSpr() {
  RequireProfile("GetReduceRepeatSumSpr", {Profile::kA2, Profile::k950},
                 "Atlas A2/A3 and the 950");
  return CurrentCore().reduce_spr().sum;
}

void ReduceMaxMinSpr(bool with_index, uint64_t* value, uint64_t* index) {
  if (with_index) {
    RequireProfile("GetReduceRepeatMaxMinSpr (value and index)", {Profile::kA2},
                   "Atlas A2/A3");
    *index = CurrentCore().reduce_extreme().index;
  } else {
    RequireProfile("GetReduceRepeatMaxMinSpr (value only)", {Profile::k310P},
                   "the Atlas inference series");
  }
  *value = CurrentCore().reduce_extreme().value_bits;
}

}  // namespace normgrad_ascendc

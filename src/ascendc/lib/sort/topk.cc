// topk.cc — RunTopK (docs/sort.md, "TopK"): the checks in the family's order
// (the algorithm and T on the profile, the tensors' placement, the shape and
// k, the tiling's fields, the lengths, the scratch, what may share memory,
// the Atlas inference series' index limit), then per row the k first of the
// row's n real elements by priority: the family's rank (sort_order.h) for
// the largest, its inverse for the smallest, NaN first either way; equal
// priorities keep their order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/sort/sort_order.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/sort/sort_call.h"

namespace normgrad_ascendc {
namespace {

constexpr int32_t kSmallInner = 32;
constexpr int32_t kMaxNormalInner = 4096;
// The Atlas inference series' limit on half rows and indices.
constexpr int32_t kMaxProposalHalfIndex = 2048;

bool IsScore(SortElem e) {
  return e == SortElem::kHalf || e == SortElem::kFloat;
}

void CheckAlgorithm(const TopKArgs& a, const ProfileInfo& p) {
  if (a.config.algo == AscendC::TopKAlgo::RADIX_SELECT) {
    if (p.profile != Profile::k950) {
      Fail(
          "TopK: config.algo is TopKAlgo::RADIX_SELECT, which profile %s (%s) "
          "does not have: RADIX_SELECT runs on profile 950 only",
          p.key, p.name);
    }
    return;
  }
  if (!IsScore(a.type)) {
    Fail(
        "TopK: T is %s, which TopKAlgo::MERGE_SORT does not take: it takes "
        "half and float (the other types need RADIX_SELECT, profile 950)",
        SortElemName(a.type));
  }
}

void CheckShape(const TopKArgs& a, const ProfileInfo& p) {
  const AscendC::TopKInfo& s = a.info;
  if (s.outter < 1) {
    Fail("TopK: topKInfo.outter is %d; it must be at least 1", s.outter);
  }
  if (s.inner < 1 || s.inner % 32 != 0) {
    Fail("TopK: topKInfo.inner is %d; it must be a positive multiple of 32",
         s.inner);
  }
  if (a.small && s.inner != kSmallInner) {
    Fail("TopK: topKInfo.inner is %d; TopKMode::TOPK_NSMALL takes 32 only",
         s.inner);
  }
  if (!a.small && s.inner > kMaxNormalInner) {
    Fail("TopK: topKInfo.inner is %d; TopKMode::TOPK_NORMAL takes at most %d",
         s.inner, kMaxNormalInner);
  }
  if (s.n < 1 || s.n > s.inner) {
    Fail("TopK: topKInfo.n is %d; it must be in [1, topKInfo.inner %d]", s.n,
         s.inner);
  }
  if (a.k < 1 || a.k > s.n) {
    Fail("TopK: k is %d; it must be in [1, topKInfo.n %d]", a.k, s.n);
  }
  if (a.has_finish && a.small) {
    Fail(
        "TopK: isHasfinish is true with TopKMode::TOPK_NSMALL; finishLocal "
        "is read in TopKMode::TOPK_NORMAL only");
  }
  if (p.profile == Profile::k310P && a.type == SortElem::kHalf &&
      !a.init_index && s.inner > kMaxProposalHalfIndex) {
    Fail(
        "TopK: topKInfo.inner is %d; on profile %s (%s) a half TopK without "
        "isInitIndex takes at most %d",
        s.inner, p.key, p.name, kMaxProposalHalfIndex);
  }
}

// The fields normgrad's TopKTilingFunc fills, against what they must be.
void CheckTiling(const TopKArgs& a, uint32_t unit) {
  const AscendC::TopkTiling& t = *a.tiling;
  CheckTilingFilled("TopK", "innerDataSize",
                    static_cast<uint32_t>(t.innerDataSize), "TopKTilingFunc");
  const AscendC::TopkTiling e = TopKFilledTiling(
      a.info.inner, a.info.outter, a.k, a.small, a.init_index, unit);
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  CheckDerivedFields(
      "TopK", {{"innerDataSize", u(t.innerDataSize), u(e.innerDataSize),
                "topKInfo.inner"},
               {"allDataSize", u(t.allDataSize), u(e.allDataSize),
                "topKInfo.inner * topKInfo.outter"},
               {"sortRepeat", t.sortRepeat, e.sortRepeat,
                "the 32-element sorts of one call"},
               {"mrgSortRepeat", u(t.mrgSortRepeat), u(e.mrgSortRepeat),
                "the four-way merge passes of a row"},
               {"kAlignFourBytes", u(t.kAlignFourBytes), u(e.kAlignFourBytes),
                "k rounded up to a multiple of 8"},
               {"kAlignTwoBytes", u(t.kAlignTwoBytes), u(e.kAlignTwoBytes),
                "k rounded up to a multiple of 16"},
               {"tmpLocalSize", u(t.tmpLocalSize), u(e.tmpLocalSize),
                "GetTopKMaxMinTmpSize's minValue for the mode, isInitIndex and "
                "profile"}});
}

// A row's candidates as keys: the priority in the high bits and the
// position's complement in the low 32, so that the larger key comes first
// and equal priorities keep their order. Every type but the 64-bit integers
// ranks in 32 bits (uint64_t keys); those need 64 (Wide keys).
__extension__ typedef unsigned __int128 Wide;

template <typename Key>
Key KeyOf(Key priority, uint32_t position) {
  return priority << 32 | Key{~position};
}
template <typename Key>
uint32_t PositionOf(Key key) {
  return ~static_cast<uint32_t>(key);
}
template <typename Key>
Key PriorityOf(Key key) {
  return key >> 32;
}

// Leaves in keys[0, k) the k largest of keys[0, count) (count >= k, all
// distinct): by priority (sorted), or else those above the k-th priority,
// then those equal to it, each in source order.
template <typename Key>
void KeepLargest(Key* keys, uint32_t count, uint32_t k, bool sorted) {
  const std::greater<Key> larger;
  if (count > k) std::nth_element(keys, keys + (k - 1), keys + count, larger);
  std::sort(keys, keys + k, larger);
  if (sorted) return;
  const Key kth = PriorityOf(keys[k - 1]);
  std::sort(keys, keys + k, [kth](Key x, Key y) {
    const bool x_above = PriorityOf(x) > kth;
    const bool y_above = PriorityOf(y) > kth;
    if (x_above != y_above) return x_above;
    return PositionOf(x) < PositionOf(y);
  });
}

// The priorities of a row of n elements whose rank fits 32 bits: the rank
// for the largest, inverted for the smallest (NaN's UINT32_MAX first either
// way). The floating types' come from the instruction set's loops.
void Priorities(SortElem type, const uint8_t* values, uint32_t n, bool largest,
                uint32_t* priorities) {
  const normgrad::kernels::AdvancedKernels& loops =
      normgrad::kernels::AdvancedKernelsOf(VectorLoops());
  switch (type) {
    case SortElem::kFloat:
      return loops.topk_priorities(priorities, values, n,
                                   {4, 0x7f800000u, 0x3f800000u}, largest);
    case SortElem::kHalf:
      return loops.topk_priorities(priorities, values, n, {2, 0x7c00u, 0x3c00u},
                                   largest);
    case SortElem::kBfloat16:
      return loops.topk_priorities(priorities, values, n, {2, 0x7f80u, 0x3f80u},
                                   largest);
    default:
      break;
  }
  // The integers of at most 32 bits: RankAt's order, moved to 32 bits.
  const uint32_t flip = largest ? 0 : UINT32_MAX;
  const bool is_signed = type == SortElem::kInt8 || type == SortElem::kInt16 ||
                         type == SortElem::kInt32;
  const uint64_t low =
      is_signed ? (uint64_t{1} << 63) - (uint64_t{1} << 31) : 0;
  for (uint32_t j = 0; j < n; ++j) {
    priorities[j] = static_cast<uint32_t>(RankAt(type, values, j) - low) ^ flip;
  }
}

// The work space of a call's rows of n elements.
struct RowSpace {
  std::vector<uint32_t> priorities;
  std::vector<uint32_t> maxima;
  std::vector<uint32_t> positions;
  std::vector<uint64_t> keys;
  std::vector<Wide> wide_keys;
  // Room for rows of n, kept when there is.
  void Fit(uint32_t n) {
    if (priorities.size() >= n) return;
    priorities.resize(n);
    maxima.resize(n);
    positions.resize(n);
    keys.resize(n);
    wide_keys.resize(n);
  }
};

// The k chosen positions of a row of n elements, in output order.
void ChooseRow(SortElem type, const uint8_t* values, uint32_t n, uint32_t k,
               bool largest, bool sorted, RowSpace& space, uint32_t* chosen) {
  if (SortElemBytes(type) == 8) {
    for (uint32_t j = 0; j < n; ++j) {
      const Wide rank = RankAt(type, values, j);
      space.wide_keys[j] = KeyOf<Wide>(largest ? rank : rank ^ UINT64_MAX, j);
    }
    KeepLargest(space.wide_keys.data(), n, k, sorted);
    for (uint32_t i = 0; i < k; ++i) chosen[i] = PositionOf(space.wide_keys[i]);
    return;
  }
  uint32_t* priorities = space.priorities.data();
  Priorities(type, values, n, largest, priorities);
  const normgrad::kernels::AdvancedKernels& loops =
      normgrad::kernels::AdvancedKernelsOf(VectorLoops());
  // Of 2k groups' largest priorities, the k-th largest has k priorities of
  // the row at or above it, so the row's k largest are too: those below need
  // no more look (on random rows, about 1.4 k pass).
  const uint32_t groups = std::min(n, 2 * k);
  uint32_t* maxima = space.maxima.data();
  loops.group_maxima(maxima, priorities, n, groups);
  std::nth_element(maxima, maxima + (k - 1), maxima + groups,
                   std::greater<uint32_t>());
  const uint32_t floor = maxima[k - 1];
  const uint32_t count = static_cast<uint32_t>(
      loops.collect_at_least(space.positions.data(), priorities, n, floor));
  uint64_t* keys = space.keys.data();
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t j = space.positions[i];
    keys[i] = KeyOf<uint64_t>(priorities[j], j);
  }
  KeepLargest(keys, count, k, sorted);
  for (uint32_t i = 0; i < k; ++i) chosen[i] = PositionOf(keys[i]);
}

}  // namespace

void RunTopK(const TopKArgs& a) {
  const char* api = "TopK";
  const ProfileInfo& p = CurrentCore().profile();
  CheckAlgorithm(a, p);
  const bool radix = a.config.algo == AscendC::TopKAlgo::RADIX_SELECT;
  CheckPlacements(api, {{"dstValueLocal", a.dst_value},
                        {"dstIndexLocal", a.dst_index},
                        {"srcLocal", a.src}});
  if (a.init_index) CheckPlacement(api, "srcIndexLocal", a.src_index);
  if (a.has_finish) CheckPlacement(api, "finishLocal", a.finish);
  CheckShape(a, p);

  const uint32_t elem = SortElemBytes(a.type);
  const uint32_t unit =
      p.profile == Profile::k310P ? kProposalElements * elem : kSortPairBytes;
  if (!radix) CheckTiling(a, unit);

  const uint64_t outter = static_cast<uint64_t>(a.info.outter);
  const uint64_t inner = static_cast<uint64_t>(a.info.inner);
  const uint32_t n = static_cast<uint32_t>(a.info.n);
  const uint32_t k = static_cast<uint32_t>(a.k);
  const uint64_t value_row = a.small ? k : TopKPadded(k, elem);
  const uint64_t index_row = a.small ? k : TopKPadded(k, 4);
  const uint64_t index_in = a.small ? outter * inner : inner;
  const Element ve{elem, "elements"};
  const Element ie{4, "int32_t indices"};
  CheckLength(
      api, ve,
      {"srcLocal", a.src, outter * inner, "topKInfo.outter * topKInfo.inner"});
  if (a.init_index) {
    CheckLength(api, ie,
                {"srcIndexLocal", a.src_index, index_in,
                 a.small ? "topKInfo.outter * topKInfo.inner (TOPK_NSMALL)"
                         : "topKInfo.inner (TOPK_NORMAL: one row for all)"});
  }
  if (a.has_finish) {
    CheckLength(api, Element{1, "bools"},
                {"finishLocal", a.finish, outter, "one per row"});
  }
  CheckLength(api, ve,
              {"dstValueLocal", a.dst_value, outter * value_row,
               a.small ? "topKInfo.outter * k (TOPK_NSMALL)"
                       : "topKInfo.outter * k_pad, k rounded up to 32 bytes"});
  CheckLength(api, ie,
              {"dstIndexLocal", a.dst_index, outter * index_row,
               a.small ? "topKInfo.outter * k (TOPK_NSMALL)"
                       : "topKInfo.outter * kpad_index, k rounded up to a "
                         "multiple of 8"});

  const uint64_t needed =
      radix ? TopKRadixTmpBytes(inner, outter, a.small, elem)
            : TopKMergeTmpBytes(inner, outter, a.small, a.init_index, unit);
  const TensorView tmp = CallScratch(api, a.shared_tmp, needed, "%llu bytes",
                                     static_cast<unsigned long long>(needed));
  const char* tmp_name =
      a.shared_tmp != nullptr ? "tmpLocal" : ScratchName(nullptr);
  tmp.CheckUbOperand(api, tmp_name);
  if (a.shared_tmp != nullptr && tmp.position != AscendC::TPosition::VECCALC) {
    Fail("TopK: tmpLocal is in position %s; it must be VECCALC",
         PositionName(tmp.position));
  }
  if (tmp.bytes < needed) {
    Fail(
        "TopK: %s holds %u bytes, fewer than the %llu GetTopKMaxMinTmpSize "
        "gives as minValue for this shape",
        tmp_name, tmp.bytes, static_cast<unsigned long long>(needed));
  }
  const UbOperand ops[] = {
      {"dstValueLocal", &a.dst_value, outter * value_row * elem, true},
      {"dstIndexLocal", &a.dst_index, outter * index_row * 4, true},
      {tmp_name, &tmp, needed, true},
      {"srcLocal", &a.src, outter * inner * elem, false},
      {"srcIndexLocal", &a.src_index, a.init_index ? index_in * 4 : 0, false},
      {"finishLocal", &a.finish, a.has_finish ? outter : 0, false},
  };
  CheckOverlaps(api, ops, 6);

  const int32_t* src_index =
      reinterpret_cast<const int32_t*>(a.src_index.data());
  if (a.init_index && p.profile == Profile::k310P &&
      a.type == SortElem::kHalf) {
    for (uint64_t i = 0; i < index_in; ++i) {
      if (src_index[i] > kMaxProposalHalfIndex) {
        Fail(
            "TopK: srcIndexLocal[%llu] is %d; on profile %s (%s) a half TopK "
            "takes indices of at most %d",
            static_cast<unsigned long long>(i), src_index[i], p.key, p.name,
            kMaxProposalHalfIndex);
      }
    }
  }

  bool largest = a.is_largest;
  if (a.config.order == AscendC::TopKOrder::LARGEST) largest = true;
  if (a.config.order == AscendC::TopKOrder::SMALLEST) largest = false;
  const bool sorted = !radix || a.config.sorted;
  // Kept on the thread from call to call: a call needs no fresh memory.
  thread_local RowSpace space;
  space.Fit(n);
  std::vector<uint32_t> chosen(k);
  int32_t* dst_index = reinterpret_cast<int32_t*>(a.dst_index.data());
  for (uint64_t r = 0; r < outter; ++r) {
    const uint8_t* values = a.src.data() + r * inner * elem;
    ChooseRow(a.type, values, n, k, largest, sorted, space, chosen.data());
    const bool finished = a.has_finish && a.finish.data()[r] != 0;
    const uint64_t index_base = a.small ? r * inner : 0;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t j = chosen[i];
      std::memcpy(a.dst_value.data() + (r * value_row + i) * elem,
                  values + uint64_t{j} * elem, elem);
      int32_t index =
          a.init_index ? src_index[index_base + j] : static_cast<int32_t>(j);
      if (finished) index = static_cast<int32_t>(n);
      dst_index[r * index_row + i] = index;
    }
  }
}

}  // namespace normgrad_ascendc

// topk.cc — RunTopK (docs/sort.md, "TopK"): the checks in the family's order
// (the algorithm and T on the profile, the tensors' placement, the shape and
// k, the tiling's fields, the lengths, the scratch, what may share memory,
// the Atlas inference series' index limit), then per row the k first of the
// row's n real elements by priority: the family's rank (sort_order.h) for
// the largest, its inverse for the smallest, NaN first either way; equal
// priorities keep their order.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/sort/sort_order.h"
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

// A candidate of a row: its priority and position.
struct Candidate {
  uint64_t priority;
  uint32_t position;
};

bool First(const Candidate& x, const Candidate& y) {
  return x.priority != y.priority ? x.priority > y.priority
                                  : x.position < y.position;
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
  std::vector<Candidate> row(n);
  std::vector<Candidate> chosen;
  int32_t* dst_index = reinterpret_cast<int32_t*>(a.dst_index.data());
  for (uint64_t r = 0; r < outter; ++r) {
    const uint8_t* values = a.src.data() + r * inner * elem;
    for (uint32_t j = 0; j < n; ++j) {
      const uint64_t rank = RankAt(a.type, values, j);
      const bool nan = IsNanRank(a.type, rank);
      row[j] = {nan || largest ? rank : ~rank, j};
    }
    if (sorted) {
      std::partial_sort(row.begin(), row.begin() + k, row.end(), First);
      chosen.assign(row.begin(), row.begin() + k);
    } else {
      // Those above the k-th priority, then those equal to it, each in
      // source order.
      std::vector<Candidate> order = row;
      std::nth_element(order.begin(), order.begin() + (k - 1), order.end(),
                       First);
      const uint64_t kth = order[k - 1].priority;
      chosen.clear();
      for (const Candidate& c : row) {
        if (c.priority > kth) chosen.push_back(c);
      }
      for (const Candidate& c : row) {
        if (chosen.size() < k && c.priority == kth) chosen.push_back(c);
      }
    }
    const bool finished = a.has_finish && a.finish.data()[r] != 0;
    const uint64_t index_base = a.small ? r * inner : 0;
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t j = chosen[i].position;
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

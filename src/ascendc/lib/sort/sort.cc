// sort.cc — the sorted-region APIs (Sort without SortConfig, Concat,
// Extract), Sort with SortConfig, and what the advanced MrgSort and the size
// helpers ask of the profile (docs/sort.md). Each call runs its checks in
// the family's order — the profile, the tensors' placement, the counts, the
// lengths, the scratch, what may share memory — then sorts by the family's
// one order (sort_order.h), stably.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/sort/sort_order.h"
#include "normgrad_ascendc/lib/sort/sort_call.h"
#include "normgrad_ascendc/lib/sort/sort_host_tiling.h"

namespace normgrad_ascendc {

const char* SortElemName(SortElem e) {
  switch (e) {
    case SortElem::kUint8:
      return "uint8_t";
    case SortElem::kInt8:
      return "int8_t";
    case SortElem::kUint16:
      return "uint16_t";
    case SortElem::kInt16:
      return "int16_t";
    case SortElem::kUint32:
      return "uint32_t";
    case SortElem::kInt32:
      return "int32_t";
    case SortElem::kHalf:
      return "half";
    case SortElem::kBfloat16:
      return "bfloat16_t";
    case SortElem::kFloat:
      return "float";
    case SortElem::kUint64:
      return "uint64_t";
    case SortElem::kInt64:
      return "int64_t";
    case SortElem::kOther:
      break;
  }
  return "an unsupported type";
}

bool SortsProposals() { return CurrentProfile() == Profile::k310P; }

uint32_t SortStructureBytes(uint32_t elem_bytes) {
  return SortsProposals() ? kProposalElements * elem_bytes : kSortPairBytes;
}

void CheckMrgSortRepeat(int32_t repeat_time) {
  if (repeat_time < 1 || repeat_time > 255) {
    Fail("MrgSort: repeatTime %d is out of range (1..255)", repeat_time);
  }
}

namespace {

constexpr Element kIndexElement{4, "uint32_t indices"};
constexpr Element kPairElement{kSortPairBytes, "8-byte (score, index) pairs"};

// The pair-layout APIs (Sort without SortConfig, Concat, Extract) on the
// Atlas inference series, whose Region Proposal layout normgrad lacks.
void CheckPairLayout(const char* api) {
  const ProfileInfo& p = CurrentCore().profile();
  if (p.profile == Profile::k310P) {
    Fail(
        "%s: the Region Proposal layout of profile %s (%s) is not "
        "implemented; normgrad keeps the sorted region as (score, index) "
        "pairs, the layout of Atlas A2/A3 and Ascend 950 (docs/sort.md, "
        "\"Left out\")",
        api, p.key, p.name);
  }
}

void CheckRepeatTime(const char* api, int32_t repeat_time) {
  if (repeat_time < 0 || repeat_time > 255) {
    Fail("%s: repeatTime %d is out of range (0..255)", api, repeat_time);
  }
}

// A value's rank and where it came from.
struct Ranked {
  uint64_t rank;
  uint32_t position;
};

// Sorts `entries` highest rank first (descend) or lowest first; equal ranks
// keep their order.
void StableSort(std::vector<Ranked>& entries, bool descend) {
  if (descend) {
    std::stable_sort(
        entries.begin(), entries.end(),
        [](const Ranked& a, const Ranked& b) { return a.rank > b.rank; });
  } else {
    std::stable_sort(
        entries.begin(), entries.end(),
        [](const Ranked& a, const Ranked& b) { return a.rank < b.rank; });
  }
}

}  // namespace

void RunSortRegion(const SortRegionArgs& a) {
  const char* api = "Sort";
  CheckPairLayout(api);
  CheckPlacements(api, {{"dst", a.dst},
                        {"concat", a.concat},
                        {"index", a.index},
                        {"tmp", a.tmp}});
  CheckRepeatTime(api, a.repeat_time);
  const Element e = HalfOrFloat(a.is_half);
  const uint32_t n = static_cast<uint32_t>(a.repeat_time) * kSortRepeatElements;
  const uint64_t pair_bytes = uint64_t{n} * kSortPairBytes;
  CheckLengths(api, e, {{"concat", a.concat, n, "32 scores per repeat"}});
  CheckLength(api, kIndexElement,
              {"index", a.index, n, "32 indices per repeat"});
  CheckLength(api, e,
              {"dst", a.dst, pair_bytes / e.bytes,
               "an 8-byte (score, index) pair per score"});
  if (a.full) {
    CheckLength(api, e,
                {"tmp", a.tmp, pair_bytes / e.bytes,
                 "GetSortTmpSize: the full sort merges through a second "
                 "region of pairs"});
  }
  const UbOperand ops[] = {
      {"dst", &a.dst, pair_bytes, true},
      {"tmp", &a.tmp, a.full ? pair_bytes : 0, true},
      {"concat", &a.concat, uint64_t{n} * e.bytes, false},
      {"index", &a.index, uint64_t{n} * 4, false},
  };
  CheckOverlaps(api, ops, 4);
  if (n == 0) return;

  const SortElem type = a.is_half ? SortElem::kHalf : SortElem::kFloat;
  const uint8_t* scores = a.concat.data();
  const uint8_t* indices = a.index.data();
  const uint32_t run = a.full ? n : kSortRepeatElements;
  std::vector<Ranked> entries(run);
  for (uint32_t start = 0; start < n; start += run) {
    for (uint32_t i = 0; i < run; ++i) {
      entries[i] = {RankAt(type, scores, start + i), start + i};
    }
    StableSort(entries, /*descend=*/true);
    for (uint32_t i = 0; i < run; ++i) {
      uint8_t* pair = a.dst.data() + uint64_t{start + i} * kSortPairBytes;
      const uint32_t from = entries[i].position;
      std::memset(pair, 0, kSortPairBytes);
      std::memcpy(pair, scores + uint64_t{from} * e.bytes, e.bytes);
      std::memcpy(pair + 4, indices + uint64_t{from} * 4, 4);
    }
  }
}

void RunConcat(const ConcatArgs& a) {
  const char* api = "Concat";
  CheckPairLayout(api);
  CheckPlacements(api, {{"concat", a.concat}, {"src", a.src}, {"tmp", a.tmp}});
  CheckRepeatTime(api, a.repeat_time);
  const Element e = HalfOrFloat(a.is_half);
  const uint32_t n =
      static_cast<uint32_t>(a.repeat_time) * kConcatRepeatElements;
  CheckLengths(api, e,
               {{"src", a.src, n, "16 elements per repeat"},
                {"concat", a.concat, n, "16 elements per repeat"}});
  const UbOperand ops[] = {
      {"concat", &a.concat, uint64_t{n} * e.bytes, true},
      {"src", &a.src, uint64_t{n} * e.bytes, false},
  };
  CheckOverlaps(api, ops, 2);
  if (n != 0) std::memcpy(a.concat.data(), a.src.data(), uint64_t{n} * e.bytes);
}

void RunExtract(const ExtractArgs& a) {
  const char* api = "Extract";
  CheckPairLayout(api);
  CheckPlacements(api, {{"dstValue", a.dst_value},
                        {"dstIndex", a.dst_index},
                        {"sorted", a.sorted}});
  CheckRepeatTime(api, a.repeat_time);
  const Element e = HalfOrFloat(a.is_half);
  const uint32_t n = static_cast<uint32_t>(a.repeat_time) * kSortRepeatElements;
  CheckLength(api, kPairElement,
              {"sorted", a.sorted, n, "32 pairs per repeat"});
  CheckLengths(api, e, {{"dstValue", a.dst_value, n, "32 scores per repeat"}});
  CheckLength(api, kIndexElement,
              {"dstIndex", a.dst_index, n, "32 indices per repeat"});
  const UbOperand ops[] = {
      {"dstValue", &a.dst_value, uint64_t{n} * e.bytes, true},
      {"dstIndex", &a.dst_index, uint64_t{n} * 4, true},
      {"sorted", &a.sorted, uint64_t{n} * kSortPairBytes, false},
  };
  CheckOverlaps(api, ops, 3);
  for (uint32_t i = 0; i < n; ++i) {
    const uint8_t* pair = a.sorted.data() + uint64_t{i} * kSortPairBytes;
    std::memcpy(a.dst_value.data() + uint64_t{i} * e.bytes, pair, e.bytes);
    std::memcpy(a.dst_index.data() + uint64_t{i} * 4, pair + 4, 4);
  }
}

void RunSortConfig(const SortConfigArgs& a) {
  const char* api = "Sort";
  const ProfileInfo& p = CurrentCore().profile();
  if (p.profile != Profile::k950) {
    Fail(
        "Sort: the forms with SortConfig are available on profile 950 only; "
        "profile %s (%s) has Sort<T, isFullSort> without SortConfig",
        p.key, p.name);
  }
  const bool merge = a.config.type == AscendC::SortType::MERGE_SORT;
  if (merge && a.value_type != SortElem::kHalf &&
      a.value_type != SortElem::kFloat) {
    Fail("Sort: T is %s; SortType::MERGE_SORT takes half and float",
         SortElemName(a.value_type));
  }
  if (merge && a.has_src_index && a.index_type != SortElem::kUint32) {
    Fail("Sort: U is %s; SortType::MERGE_SORT takes uint32_t indices",
         SortElemName(a.index_type));
  }
  CheckPlacements(api, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  if (a.has_dst_index) CheckPlacement(api, "dstIndexTensor", a.dst_index);
  if (a.has_src_index) CheckPlacement(api, "srcIndexTensor", a.src_index);

  const uint32_t n = a.count;
  if (merge && n % 32 != 0) {
    Fail(
        "Sort: calCount %u is not a multiple of 32; SortType::MERGE_SORT "
        "sorts whole groups of 32 (pad the data to a multiple of 32)",
        n);
  }
  const uint32_t vbytes = SortElemBytes(a.value_type);
  const uint32_t ibytes = SortElemBytes(a.index_type);
  const Element ve{vbytes, "values"};
  const Element ie{ibytes, "indices"};
  CheckLength(api, ve, {"srcTensor", a.src, n, "calCount"});
  if (merge) {
    CheckLength(api, ve,
                {"dstTensor", a.dst, uint64_t{n} * 8 / vbytes,
                 "calCount; SortType::MERGE_SORT takes 8 bytes per element"});
  } else {
    CheckLength(api, ve, {"dstTensor", a.dst, n, "calCount"});
  }
  if (a.has_dst_index) {
    CheckLength(api, ie, {"dstIndexTensor", a.dst_index, n, "calCount"});
  }
  if (a.has_src_index) {
    CheckLength(api, ie, {"srcIndexTensor", a.src_index, n, "calCount"});
  }
  const uint64_t needed =
      SortConfigTmpBytes(n, vbytes, a.has_src_index ? ibytes : 4);
  const TensorView tmp = CallScratch(api, a.shared_tmp, needed, "%llu bytes",
                                     static_cast<unsigned long long>(needed));
  const char* tmp_name = ScratchName(a.shared_tmp);
  CheckPlacement(api, tmp_name, tmp);
  if (tmp.bytes < needed) {
    Fail(
        "Sort: %s holds %u bytes, fewer than the %llu GetSortMaxMinTmpSize "
        "gives as minValue for calCount %u",
        tmp_name, tmp.bytes, static_cast<unsigned long long>(needed), n);
  }
  const UbOperand ops[] = {
      {"dstTensor", &a.dst, uint64_t{n} * (merge ? 8 : vbytes), true},
      {"dstIndexTensor", &a.dst_index,
       a.has_dst_index ? uint64_t{n} * ibytes : 0, true},
      {tmp_name, &tmp, needed, true},
      {"srcTensor", &a.src, uint64_t{n} * vbytes, false},
      {"srcIndexTensor", &a.src_index,
       a.has_src_index ? uint64_t{n} * ibytes : 0, false},
  };
  CheckOverlaps(api, ops, 5);
  if (n == 0) return;

  std::vector<Ranked> entries(n);
  for (uint32_t i = 0; i < n; ++i) {
    entries[i] = {RankAt(a.value_type, a.src.data(), i), i};
  }
  StableSort(entries, a.config.isDescend);
  // No destination shares memory with a source (checked above).
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t from = entries[i].position;
    std::memcpy(a.dst.data() + uint64_t{i} * vbytes,
                a.src.data() + uint64_t{from} * vbytes, vbytes);
    if (!a.has_dst_index) continue;
    uint8_t* index = a.dst_index.data() + uint64_t{i} * ibytes;
    if (a.has_src_index) {
      std::memcpy(index, a.src_index.data() + uint64_t{from} * ibytes, ibytes);
    } else {
      std::memcpy(index, &from, 4);
    }
  }
}

}  // namespace normgrad_ascendc

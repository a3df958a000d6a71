// vector_sort.cc — the sort-region instructions (normgrad_ascendc/
// vector_sort.h): their checks, the one ordering of scores they share, the
// sorts of a repeat, the merge of up to four lists, and the proposal field
// moves.
#include "normgrad_ascendc/vector/vector_sort.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace normgrad_ascendc {

namespace {

constexpr int32_t kMaxRepeatTime = 255;
constexpr uint32_t kPairBytes = 8;         // a (score, index) pair
constexpr uint32_t kIndexAt = 4;           // the index's byte in a pair
constexpr uint32_t kSort32Lanes = 32;      // scores a Sort32 repeat sorts
constexpr uint32_t kProposalFields = 8;    // elements of a Region Proposal
constexpr uint32_t kScoreField = 4;        // the score's element in one
constexpr uint32_t kRpSortProposals = 16;  // proposals a repeat handles
constexpr uint32_t kMaxListLength = 4095;
constexpr int kLists = 4;
// The most bytes a sorted repeat holds: 16 float proposals (32 pairs take
// 256).
constexpr uint32_t kMaxRepeatBytes = kRpSortProposals * kProposalFields * 4;

// "Sort32<float>".
struct ApiName {
  ApiName(const char* api, const char* type) {
    std::snprintf(text, sizeof text, "%s<%s>", api, type);
  }
  char text[48];
};

// A score's value: elem_bytes 2 is a half, 4 a float.
float ScoreAt(const uint8_t* p, uint32_t elem_bytes) {
  if (elem_bytes == 2) {
    half h;
    std::memcpy(static_cast<void*>(&h), p, sizeof h);
    return static_cast<float>(h);
  }
  float f;
  std::memcpy(&f, p, sizeof f);
  return f;
}

// Whether score a ranks strictly above score b: NaN above every number,
// numbers by value (−0 equals +0).
bool Above(float a, float b) {
  if (a != a) return b == b;
  if (b != b) return false;
  return a > b;
}

void CheckRepeatTime(const char* api, int32_t repeat_time) {
  if (repeat_time < 0 || repeat_time > kMaxRepeatTime) {
    Fail("%s: repeatTime %d is out of range (0..%d)", api, repeat_time,
         kMaxRepeatTime);
  }
}

// A live, non-empty UB tensor starting at a multiple of `align` bytes;
// `why` says where the alignment comes from.
void CheckStart(const char* api, const char* which, const TensorView& v,
                uint32_t align, const char* why) {
  v.Check(api);
  if (v.core == nullptr) {
    Fail("%s: %s LocalTensor is empty (no unified-buffer memory)", api, which);
  }
  if (v.offset % align != 0) {
    Fail(
        "%s: %s LocalTensor starts at UB offset %u, which is not %u-byte "
        "aligned (%s)",
        api, which, v.offset, align, why);
  }
}

// The operand holds at least `bytes` bytes; `what` says what reaches them.
void CheckHolds(const char* api, const char* which, const TensorView& v,
                uint32_t elem_bytes, uint64_t bytes, const char* what) {
  if (v.bytes < bytes) {
    Fail("%s: %s has %u elements (%u bytes), fewer than the %llu bytes %s", api,
         which, v.bytes / elem_bytes, v.bytes,
         static_cast<unsigned long long>(bytes), what);
  }
}

// ProposalConcat's and ProposalExtract's rule: the device bounds their
// operands by the UB only (a program may let them run past a tensor's size
// into the buffers after it), so the bytes must end inside the UB.
void CheckInUb(const char* api, const char* which, const TensorView& v,
               uint64_t bytes, const char* what) {
  const uint32_t ub = v.core->ub_size();
  if (v.offset + bytes > ub) {
    Fail("%s: %s at UB offset %u: the %llu bytes %s end past the %u-byte UB",
         api, which, v.offset, static_cast<unsigned long long>(bytes), what,
         ub);
  }
}

// Whether bytes [a.offset, a.offset + a_bytes) and [b.offset, b.offset +
// b_bytes) of one core's UB intersect.
bool Meet(const TensorView& a, uint64_t a_bytes, const TensorView& b,
          uint64_t b_bytes) {
  return a.core == b.core && a_bytes != 0 && b_bytes != 0 &&
         a.offset < b.offset + b_bytes && b.offset < a.offset + a_bytes;
}

void CheckApart(const char* api, const TensorView& dst, uint64_t dst_bytes,
                const char* which, const TensorView& src, uint64_t src_bytes) {
  if (Meet(dst, dst_bytes, src, src_bytes)) {
    Fail(
        "%s: dst (UB bytes %u..%llu) overlaps %s (UB bytes %u..%llu); a "
        "destination may not overlap a source",
        api, dst.offset,
        static_cast<unsigned long long>(dst.offset + dst_bytes - 1), which,
        src.offset,
        static_cast<unsigned long long>(src.offset + src_bytes - 1));
  }
}

// Sorts `n` structures of `unit` bytes from `from` into `to` (which may be
// `from`), highest score (at byte score_at) first, equal scores in order.
void SortStructures(const uint8_t* from, uint8_t* to, uint32_t n, uint32_t unit,
                    uint32_t score_at, uint32_t elem_bytes) {
  struct Entry {
    float score;
    uint32_t position;
  };
  Entry entries[kSort32Lanes];
  uint8_t copy[kMaxRepeatBytes];
  std::memcpy(copy, from, uint64_t{n} * unit);
  for (uint32_t k = 0; k < n; ++k) {
    entries[k] = {ScoreAt(copy + k * unit + score_at, elem_bytes), k};
  }
  std::stable_sort(entries, entries + n, [](const Entry& a, const Entry& b) {
    return Above(a.score, b.score);
  });
  for (uint32_t k = 0; k < n; ++k) {
    std::memcpy(to + k * unit, copy + entries[k].position * unit, unit);
  }
}

}  // namespace

void Sort32Impl(const char* type, uint32_t elem_bytes, const TensorView& dst,
                const TensorView& src0, const TensorView& src1,
                int32_t repeat_time, const char* api_name) {
  const ApiName name(api_name, type);
  const char* api = name.text;
  const uint32_t score_step = kSort32Lanes * elem_bytes;
  const uint32_t index_step = kSort32Lanes * sizeof(uint32_t);
  const uint32_t pair_step = kSort32Lanes * kPairBytes;
  CheckStart(api, "dst", dst, pair_step,
             "each repeat's 32 pairs start on a multiple of 256 bytes");
  CheckStart(api, "src0", src0, score_step,
             elem_bytes == 2
                 ? "each repeat's 32 half scores start on a multiple of 64 "
                   "bytes"
                 : "each repeat's 32 float scores start on a multiple of 128 "
                   "bytes");
  CheckStart(api, "src1", src1, index_step,
             "each repeat's 32 indices start on a multiple of 128 bytes");
  CheckRepeatTime(api, repeat_time);
  if (repeat_time == 0) return;

  const uint64_t repeats = static_cast<uint64_t>(repeat_time);
  char what[96];
  std::snprintf(what, sizeof what,
                "that repeatTime %d reads (32 scores per repeat)", repeat_time);
  CheckHolds(api, "src0", src0, elem_bytes, repeats * score_step, what);
  std::snprintf(what, sizeof what,
                "that repeatTime %d reads (32 indices per repeat)",
                repeat_time);
  CheckHolds(api, "src1", src1, sizeof(uint32_t), repeats * index_step, what);
  std::snprintf(what, sizeof what,
                "that repeatTime %d writes (32 8-byte pairs per repeat)",
                repeat_time);
  CheckHolds(api, "dst", dst, elem_bytes, repeats * pair_step, what);
  CheckApart(api, dst, repeats * pair_step, "src0", src0, repeats * score_step);
  CheckApart(api, dst, repeats * pair_step, "src1", src1, repeats * index_step);

  for (uint64_t r = 0; r < repeats; ++r) {
    // The repeat's pairs in source order, then sorted in place.
    uint8_t* out = dst.data() + r * pair_step;
    const uint8_t* scores = src0.data() + r * score_step;
    const uint8_t* indices = src1.data() + r * index_step;
    for (uint32_t k = 0; k < kSort32Lanes; ++k) {
      uint8_t* pair = out + k * kPairBytes;
      std::memset(pair, 0, kIndexAt);
      std::memcpy(pair, scores + k * elem_bytes, elem_bytes);
      std::memcpy(pair + kIndexAt, indices + k * sizeof(uint32_t),
                  sizeof(uint32_t));
    }
    SortStructures(out, out, kSort32Lanes, kPairBytes, 0, elem_bytes);
  }
}

void MergeImpl(const char* type, uint32_t elem_bytes, bool proposals,
               const TensorView& dst, const TensorView* const src[4],
               const AscendC::MrgSort4Info& params, const char* api_name) {
  if (api_name == nullptr) api_name = proposals ? "MrgSort4" : "MrgSort";
  const ApiName name(api_name, type);
  const char* api = name.text;
  static const char* const kNames[kLists] = {"src.src1", "src.src2", "src.src3",
                                             "src.src4"};
  // A structure: a pair, or a proposal; its score's byte.
  const uint32_t unit = proposals ? kProposalFields * elem_bytes : kPairBytes;
  const uint32_t score_at = proposals ? kScoreField * elem_bytes : 0;
  // MrgSort: dst on 32 bytes, lists on 8; MrgSort4: both on 16 (half) or
  // 32 (float) bytes.
  const uint32_t dst_align = proposals ? unit : 32;
  const uint32_t list_align = proposals ? unit : kPairBytes;

  int lists = 0;
  switch (params.validBit) {
    case 3:
      lists = 2;
      break;
    case 7:
      lists = 3;
      break;
    case 15:
      lists = 4;
      break;
    default:
      Fail(
          "%s: params.validBit %u is not 3, 7 or 15 (the first 2, 3 or 4 "
          "lists take part)",
          api, params.validBit);
  }
  const int32_t min_repeat = proposals ? 1 : 0;
  if (params.repeatTimes < min_repeat || params.repeatTimes > kMaxRepeatTime) {
    Fail("%s: params.repeatTimes %u is out of range (%d..%d)", api,
         params.repeatTimes, min_repeat, kMaxRepeatTime);
  }
  char why[96];
  std::snprintf(why, sizeof why, "%s's dst starts on a multiple of %u bytes",
                api, dst_align);
  CheckStart(api, "dst", dst, dst_align, why);
  std::snprintf(why, sizeof why, "%s's lists start on a multiple of %u bytes",
                api, list_align);
  uint32_t length[kLists] = {0, 0, 0, 0};
  uint64_t total = 0;
  for (int i = 0; i < lists; ++i) {
    length[i] = params.elementLengths[i];
    if (length[i] > kMaxListLength) {
      Fail("%s: params.elementLengths[%d] %u is out of range (0..%u)", api, i,
           length[i], kMaxListLength);
    }
    src[i]->Check(api);
    if (length[i] != 0) CheckStart(api, kNames[i], *src[i], list_align, why);
    total += length[i];
  }
  const uint32_t repeats = params.repeatTimes;
  if (repeats > 1) {
    const char* broken = nullptr;
    if (lists != kLists) {
      broken = "validBit is not 15";
    } else if (params.ifExhaustedSuspension) {
      broken = "ifExhaustedSuspension is true";
    } else {
      for (int i = 1; i < kLists && broken == nullptr; ++i) {
        if (length[i] != length[0]) {
          broken = "the elementLengths differ";
        } else if (src[i]->core != src[0]->core ||
                   src[i]->offset != src[0]->offset + static_cast<uint64_t>(i) *
                                                          length[0] * unit) {
          broken = "the lists are not stored one right after another";
        }
      }
    }
    if (broken != nullptr) {
      Fail(
          "%s: params.repeatTimes %u needs four lists (validBit 15) of equal "
          "elementLengths stored one right after another and "
          "ifExhaustedSuspension false, but %s",
          api, repeats, broken);
    }
  }
  if (repeats == 0) return;

  // A repeat's lists and output lie total·unit bytes after the previous
  // repeat's.
  const uint64_t step = total * unit;
  const uint64_t dst_reach = repeats * step;
  char what[96];
  std::snprintf(what, sizeof what,
                "that %u repeat%s of %llu %u-byte structures write", repeats,
                repeats == 1 ? "" : "s", static_cast<unsigned long long>(total),
                unit);
  CheckHolds(api, "dst", dst, elem_bytes, dst_reach, what);
  uint64_t reach[kLists] = {0, 0, 0, 0};
  for (int i = 0; i < lists; ++i) {
    if (length[i] == 0) continue;
    reach[i] = (repeats - 1) * step + uint64_t{length[i]} * unit;
    std::snprintf(what, sizeof what,
                  "that elementLengths[%d] %u %u-byte structures reach%s", i,
                  length[i], unit, repeats == 1 ? "" : " in the last repeat");
    CheckHolds(api, kNames[i], *src[i], elem_bytes, reach[i], what);
    CheckApart(api, dst, dst_reach, kNames[i], *src[i], reach[i]);
  }

  uint32_t taken[kLists] = {0, 0, 0, 0};
  for (uint64_t r = 0; r < repeats; ++r) {
    const uint8_t* list[kLists] = {};
    for (int i = 0; i < lists; ++i) {
      if (length[i] == 0) continue;
      list[i] = src[i]->data() + r * step;
    }
    std::fill(taken, taken + kLists, 0u);
    uint8_t* out = dst.data() + r * step;
    bool stopped = false;
    if (params.ifExhaustedSuspension) {
      for (int i = 0; i < lists; ++i) stopped = stopped || length[i] == 0;
    }
    while (!stopped) {
      int best = -1;
      float best_score = 0;
      for (int i = 0; i < lists; ++i) {
        if (taken[i] == length[i]) continue;
        const float s =
            ScoreAt(list[i] + taken[i] * unit + score_at, elem_bytes);
        if (best < 0 || Above(s, best_score)) {
          best = i;
          best_score = s;
        }
      }
      if (best < 0) break;
      std::memcpy(out, list[best] + taken[best] * unit, unit);
      out += unit;
      ++taken[best];
      stopped = params.ifExhaustedSuspension && taken[best] == length[best];
    }
  }
  MergeRecord& record = CurrentCore().merge_record();
  record.api = api_name;
  record.suspension = params.ifExhaustedSuspension;
  for (int i = 0; i < kLists; ++i) {
    record.consumed[i] = static_cast<uint16_t>(taken[i]);
  }
}

void RpSort16Impl(const char* type, uint32_t elem_bytes, const TensorView& dst,
                  const TensorView& src, int32_t repeat_time) {
  const ApiName name("RpSort16", type);
  const char* api = name.text;
  dst.CheckUbOperand(api, "dst");
  src.CheckUbOperand(api, "src");
  CheckRepeatTime(api, repeat_time);
  if (repeat_time == 0) return;
  const uint32_t unit = kProposalFields * elem_bytes;
  const uint64_t step = uint64_t{kRpSortProposals} * unit;
  const uint64_t bytes = static_cast<uint64_t>(repeat_time) * step;
  char what[96];
  std::snprintf(what, sizeof what,
                "that repeatTime %d covers (16 proposals of %u bytes per "
                "repeat)",
                repeat_time, unit);
  CheckHolds(api, "src", src, elem_bytes, bytes, what);
  CheckHolds(api, "dst", dst, elem_bytes, bytes, what);
  const bool in_place = dst.core == src.core && dst.offset == src.offset;
  if (!in_place) CheckApart(api, dst, bytes, "src", src, bytes);
  for (int32_t r = 0; r < repeat_time; ++r) {
    SortStructures(src.data() + r * step, dst.data() + r * step,
                   kRpSortProposals, unit, kScoreField * elem_bytes,
                   elem_bytes);
  }
}

void ProposalFieldImpl(const char* type, uint32_t elem_bytes, bool concat,
                       const TensorView& dst, const TensorView& src,
                       int32_t repeat_time, int32_t mode_number) {
  const ApiName name(concat ? "ProposalConcat" : "ProposalExtract", type);
  const char* api = name.text;
  dst.CheckUbOperand(api, "dst");
  src.CheckUbOperand(api, "src");
  CheckRepeatTime(api, repeat_time);
  if (mode_number < 0 || mode_number >= 6) {
    Fail(
        "%s: modeNumber %d is out of range (0..5: x1, y1, x2, y2, score, "
        "label)",
        api, mode_number);
  }
  if (repeat_time == 0) return;
  const uint32_t n = static_cast<uint32_t>(repeat_time) * kRpSortProposals;
  const uint64_t element_bytes = uint64_t{n} * elem_bytes;
  const uint64_t proposal_bytes = element_bytes * kProposalFields;
  const TensorView& proposals = concat ? dst : src;
  const TensorView& elements = concat ? src : dst;
  const char* proposals_name = concat ? "dst" : "src";
  const char* elements_name = concat ? "src" : "dst";
  char what[96];
  std::snprintf(what, sizeof what,
                "of the %u proposals repeatTime %d covers (16 per repeat)", n,
                repeat_time);
  CheckInUb(api, proposals_name, proposals, proposal_bytes, what);
  std::snprintf(what, sizeof what,
                "of the %u elements repeatTime %d covers (16 per repeat)", n,
                repeat_time);
  CheckInUb(api, elements_name, elements, element_bytes, what);
  CheckApart(api, dst, concat ? proposal_bytes : element_bytes, "src", src,
             concat ? element_bytes : proposal_bytes);
  const uint64_t field_at = static_cast<uint64_t>(mode_number) * elem_bytes;
  const uint64_t unit = uint64_t{kProposalFields} * elem_bytes;
  for (uint32_t i = 0; i < n; ++i) {
    uint8_t* field = proposals.data() + i * unit + field_at;
    uint8_t* element = elements.data() + uint64_t{i} * elem_bytes;
    if (concat) {
      std::memcpy(field, element, elem_bytes);
    } else {
      std::memcpy(element, field, elem_bytes);
    }
  }
}

}  // namespace normgrad_ascendc

namespace AscendC {

void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2,
                      uint16_t& mrgSortList3, uint16_t& mrgSortList4,
                      normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  const normgrad_ascendc::MergeRecord& record =
      normgrad_ascendc::CurrentCore().merge_record();
  if (record.api == nullptr) {
    normgrad_ascendc::Fail(
        "GetMrgSortResult: no MrgSort or MrgSort4 has run in this block; it "
        "reports the lists of the last one, run with ifExhaustedSuspension "
        "true");
  }
  if (!record.suspension) {
    normgrad_ascendc::Fail(
        "GetMrgSortResult: the last %s ran with ifExhaustedSuspension false; "
        "GetMrgSortResult needs the merge to run with it true",
        record.api);
  }
  mrgSortList1 = record.consumed[0];
  mrgSortList2 = record.consumed[1];
  mrgSortList3 = record.consumed[2];
  mrgSortList4 = record.consumed[3];
}

}  // namespace AscendC

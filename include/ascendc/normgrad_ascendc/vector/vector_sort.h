// normgrad_ascendc/vector/vector_sort.h — the sort-region instructions of the
// vector unit (docs/runtime.md, "Sorting"): sorting scores highest first and
// merging sorted lists, in the two layouts the profiles document.
//
// Atlas A2/A3 and Ascend 950: (score, index) pairs of 8 bytes — a float
// score in bytes 0..3, or a half score in bytes 0..1 and bytes 2..3
// reserved (written as zero); the uint32_t index in bytes 4..7.
//   Sort32            sorts each repeat's 32 scores (src0) with their indices
//                     (src1) into 32 pairs
//   MrgSort           merges up to 4 sorted lists of pairs into one
//   GetMrgSortResult  the pairs the last MrgSort took from each list
// Atlas inference series AI Core: Region Proposals of 8 elements of T
// (x1, y1, x2, y2, score, label, two reserved), 16 bytes of half or 32 of
// float.
//   ProposalConcat    element i of src into field modeNumber of proposal i
//   ProposalExtract   field modeNumber of proposal i into element i of dst
//   RpSort16          sorts each repeat's 16 proposals by score
//   MrgSort4          merges up to 4 sorted lists of proposals into one
//   GetMrgSortResult  the proposals the last MrgSort4 took from each list
//
// Order. Highest score first; equal scores keep their order (a sort keeps
// the earlier element first, a merge takes from the lower-numbered list
// first), so each result equals a stable sort of the input, highest first.
// NaN ranks above every number (NaNs keep their order among themselves);
// −0 and +0 are equal. A merge takes, step by step, the highest-ranking
// head of its lists; for sorted lists, as the pages intend, that is their
// merge, and lists that are not sorted are merged the same way.
//
// A merge with ifExhaustedSuspension stops as soon as one of its lists is
// used up (at once when one is empty); GetMrgSortResult then reports how
// many structures it took from each list. repeatTimes above 1 merges
// groups of four equal lists stored one after another, each group's output
// right after the previous one's.
//
// Checks (a KernelError naming the instruction, the argument, the value and
// the rule): the instruction exists on the profile and takes the type; the
// documented alignments (including Sort32's per-repeat 64/128/256 bytes);
// repeatTime, modeNumber, validBit, elementLengths and repeatTimes in their
// documented ranges; repeatTimes above 1 only with its four conditions;
// every structure read or written inside its LocalTensor; no overlap of a
// destination with a source (RpSort16 may sort in place).
// Each call takes a last, defaulted CallSite (core.h).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"

namespace AscendC {

/// The up to four sorted lists of a merge; which take part is
/// MrgSort4Info::validBit's business.
template <typename T>
struct MrgSortSrcList {
  MrgSortSrcList() {}
  MrgSortSrcList(const LocalTensor<T>& src1In, const LocalTensor<T>& src2In,
                 const LocalTensor<T>& src3In, const LocalTensor<T>& src4In)
      : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
  LocalTensor<T> src1;
  LocalTensor<T> src2;
  LocalTensor<T> src3;
  LocalTensor<T> src4;
};

/// The parameters of a merge.
struct MrgSort4Info {
  MrgSort4Info() {}
  MrgSort4Info(const uint16_t elementLengthsIn[4],
               const bool ifExhaustedSuspensionIn, const uint16_t validBitIn,
               const uint16_t repeatTimesIn)
      : ifExhaustedSuspension(ifExhaustedSuspensionIn),
        validBit(validBitIn),
        repeatTimes(repeatTimesIn) {
    for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
  }
  /// Structures in each list (pairs for MrgSort, proposals for MrgSort4),
  /// 0..4095.
  uint16_t elementLengths[4] = {0, 0, 0, 0};
  /// Stop when one list is used up.
  bool ifExhaustedSuspension = false;
  /// The lists that take part: 3 the first two, 7 three, 15 all four.
  uint16_t validBit = 15;
  /// Merges of four equal, consecutive lists (see the file comment).
  uint16_t repeatTimes = 1;
};

}  // namespace AscendC

namespace normgrad_ascendc {

// Sort32 and MrgSort on Atlas A2/A3 and the 950; the proposal instructions
// on the Atlas inference series AI Core.
inline constexpr TypeRule kPairSortTypes{kTypeHalf | kTypeFloat, 0,
                                         kTypeHalf | kTypeFloat, 0};
inline constexpr TypeRule kProposalTypes{0, kTypeHalf | kTypeFloat, 0, 0};

/// Sort32 on views of elem_bytes-byte scores (2: half, 4: float); `api`
/// names the caller in messages (the C API's asc_bitsort).
void Sort32Impl(const char* type, uint32_t elem_bytes, const TensorView& dst,
                const TensorView& src0, const TensorView& src1,
                int32_t repeat_time, const char* api = "Sort32");
/// MrgSort (proposals = false) or MrgSort4 (true) of lists src[0..3];
/// `api` names the caller (null: the instruction; the C API's
/// asc_mrgsort4).
void MergeImpl(const char* type, uint32_t elem_bytes, bool proposals,
               const TensorView& dst, const TensorView* const src[4],
               const AscendC::MrgSort4Info& params, const char* api = nullptr);
/// RpSort16.
void RpSort16Impl(const char* type, uint32_t elem_bytes, const TensorView& dst,
                  const TensorView& src, int32_t repeat_time);
/// ProposalConcat (concat = true) or ProposalExtract.
void ProposalFieldImpl(const char* type, uint32_t elem_bytes, bool concat,
                       const TensorView& dst, const TensorView& src,
                       int32_t repeat_time, int32_t mode_number);

/// MrgSort (proposals = false) or MrgSort4; the lists' tensors are of T, or
/// over a TensorTrait of T (only their views are read).
template <typename T, typename ListT>
void Merge(const char* api, bool proposals, const AscendC::LocalTensor<T>& dst,
           const AscendC::MrgSortSrcList<ListT>& src,
           const AscendC::MrgSort4Info& params, const CallSite& site) {
  const InstructionCall<T> call(api,
                                proposals ? kProposalTypes : kPairSortTypes,
                                /*count_form=*/true, site);
  const TensorView* const lists[4] = {&src.src1.view(), &src.src2.view(),
                                      &src.src3.view(), &src.src4.view()};
  MergeImpl(TypeName<T>(), sizeof(T), proposals, dst.view(), lists, params);
}

/// ProposalConcat (concat = true) or ProposalExtract.
template <typename T>
void ProposalField(const char* api, bool concat,
                   const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src, int32_t repeat_time,
                   int32_t mode_number, const CallSite& site) {
  const InstructionCall<T> call(api, kProposalTypes, /*count_form=*/true, site);
  ProposalFieldImpl(TypeName<T>(), sizeof(T), concat, dst.view(), src.view(),
                    repeat_time, mode_number);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// Sorts 32 scores per repeat, highest first, into (score, index) pairs:
/// src0 the scores, src1 their indices; repeatTime 0..255 (Atlas A2/A3,
/// Ascend 950).
template <typename T>
void Sort32(const LocalTensor<T>& dst, const LocalTensor<T>& src0,
            const LocalTensor<uint32_t>& src1, const int32_t repeatTime,
            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Sort32", normgrad_ascendc::kPairSortTypes, /*count_form=*/true, site);
  normgrad_ascendc::Sort32Impl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src0).view(),
      src1.view(), repeatTime);
}

/// Merges up to four lists of (score, index) pairs, each sorted highest
/// first, into dst (Atlas A2/A3, Ascend 950).
template <typename T>
void MrgSort(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src,
             const MrgSort4Info& params, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::Merge("MrgSort", false, dst, src, params, site);
}

/// Merges up to four lists of Region Proposals, each sorted by score
/// highest first, into dst (Atlas inference series AI Core).
template <typename T>
void MrgSort4(const LocalTensor<T>& dst, const MrgSortSrcList<T>& src,
              const MrgSort4Info& params,
              normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::Merge("MrgSort4", true, normgrad_ascendc::Plain(dst), src,
                          params, site);
}

/// Sorts 16 Region Proposals per repeat by score, highest first; dst may be
/// src (Atlas inference series AI Core).
template <typename T>
void RpSort16(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const int32_t repeatTime, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "RpSort16", normgrad_ascendc::kProposalTypes, /*count_form=*/true, site);
  normgrad_ascendc::RpSort16Impl(
      normgrad_ascendc::TypeName<PrimT<T>>(), sizeof(PrimT<T>),
      normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src).view(),
      repeatTime);
}

/// Writes src[i] into field modeNumber (0 x1, 1 y1, 2 x2, 3 y2, 4 score,
/// 5 label) of proposal i of dst, 16 per repeat; the proposals' other
/// fields are kept (Atlas inference series AI Core).
template <typename T>
void ProposalConcat(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                    const int32_t repeatTime, const int32_t modeNumber,
                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ProposalField(
      "ProposalConcat", true, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), repeatTime, modeNumber, site);
}

/// Reads field modeNumber of proposal i of src into dst[i], 16 per repeat
/// (Atlas inference series AI Core).
template <typename T>
void ProposalExtract(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     const int32_t repeatTime, const int32_t modeNumber,
                     normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::ProposalField(
      "ProposalExtract", false, normgrad_ascendc::Plain(dst),
      normgrad_ascendc::Plain(src), repeatTime, modeNumber, site);
}

/// The structures the last MrgSort (MrgSort4 on the Atlas inference series
/// AI Core) of this block took from each of its lists; that merge must
/// have run with ifExhaustedSuspension = true.
void GetMrgSortResult(uint16_t& mrgSortList1, uint16_t& mrgSortList2,
                      uint16_t& mrgSortList3, uint16_t& mrgSortList4,
                      normgrad_ascendc::CallSite site = {});

}  // namespace AscendC

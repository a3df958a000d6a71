// lib/sort/mrg_sort.h — the advanced MrgSort API of Ascend C (the contract:
// docs/sort.md): merges 2 to 4 sorted lists into dst, highest score first,
// on the merge instruction of the profile (MrgSort's pairs on Atlas A2/A3
// and Ascend 950, MrgSort4's Region Proposals on the Atlas inference series;
// normgrad_ascendc/vector/vector_sort.h holds its order and checks). With
// isExhaustedSuspension the merge stops when a list is used up, and
// sortedNum[i] tells how many structures it took from list i.
#pragma once

#include "normgrad_ascendc/lib/sort/sort_call.h"
#include "normgrad_ascendc/vector/vector_sort.h"

namespace normgrad_ascendc {

/// Checks repeatTime (1..255: the advanced form merges at least once).
void CheckMrgSortRepeat(int32_t repeat_time);

/// Whether the process profile keeps Region Proposals (MrgSort4).
bool SortsProposals();

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, bool isExhaustedSuspension = false>
__aicore__ inline void MrgSort(const LocalTensor<T>& dst,
                               const MrgSortSrcList<T>& sortList,
                               const uint16_t elementCountList[4],
                               uint32_t sortedNum[4], uint16_t validBit,
                               const int32_t repeatTime,
                               normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsSortScore<T>,
                "MrgSort: T must be half or float");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckMrgSortRepeat(repeatTime);
  const MrgSort4Info info(elementCountList, isExhaustedSuspension, validBit,
                          static_cast<uint16_t>(repeatTime));
  const bool proposals = normgrad_ascendc::SortsProposals();
  normgrad_ascendc::Merge(proposals ? "MrgSort4" : "MrgSort", proposals, dst,
                          sortList, info, site);
  const normgrad_ascendc::MergeRecord& record =
      normgrad_ascendc::CurrentCore().merge_record();
  for (int i = 0; i < 4; ++i) sortedNum[i] = record.consumed[i];
}

}  // namespace AscendC

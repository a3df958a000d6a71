// normgrad_ascendc/runtime/cache.h — the core's data cache
// (docs/program-surface.md, "Utilities"): DataCacheCleanAndInvalid with
// CacheLine and DcciDst, and DataCachePreload.
//
// On the device a scalar access to GM goes through a per-core data cache,
// and this call writes it back and drops it. The emulated core's scalar
// accesses reach host memory directly, so there is nothing to write back:
// the call only checks its arguments, as documented per product:
//   - the tensor must have memory (a GlobalTensor after SetGlobalBuffer; a
//     live LocalTensor);
//   - the forms with dcciDst do not exist on the Atlas inference series;
//   - DcciDst::CACHELINE_ATOMIC exists only on the 950.
// DataCachePreload loads one cache line into the data cache; there is no
// cache to fill here, so it checks that src has memory and that cacheOffset
// is int16_t or int64_t (another type does not compile), on every profile.
// A broken rule is a KernelError naming the call, the argument and the rule.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// What a DataCacheCleanAndInvalid acts on.
enum class CacheLine : uint8_t {
  SINGLE_CACHE_LINE = 0,  ///< the 64-byte line of the tensor's address
  ENTIRE_DATA_CACHE,      ///< the whole data cache (the address is unused)
};
/// The memory the data cache is made consistent with.
enum class DcciDst : uint8_t {
  CACHELINE_ALL = 0,  ///< as CACHELINE_OUT
  CACHELINE_UB,
  CACHELINE_OUT,
  CACHELINE_ATOMIC,  ///< GM, during atomic writes (950 only)
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The checks of DataCacheCleanAndInvalid (cache.cc): `api` names the call,
/// `has_dst` whether the form has dcciDst, `memory` whether the tensor has
/// any.
void CheckDataCacheCall(const char* api, bool has_dst, AscendC::DcciDst dst,
                        bool memory);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Makes the data cache consistent with GM for `dst` (nothing to do here;
/// see the file comment).
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                                     normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckDataCacheCall("DataCacheCleanAndInvalid", true,
                                       dcciDst, dst.GetPhyAddr() != nullptr);
}
/// The same for a LocalTensor (the cache against the UB).
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst,
                                     normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  dst.view().Check("DataCacheCleanAndInvalid");
  normgrad_ascendc::CheckDataCacheCall("DataCacheCleanAndInvalid", true,
                                       dcciDst, dst.view().data() != nullptr);
}
/// The form without dcciDst: the cache against GM.
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst,
                                     normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::CheckDataCacheCall("DataCacheCleanAndInvalid", false,
                                       DcciDst::CACHELINE_OUT,
                                       dst.GetPhyAddr() != nullptr);
}

/// Loads the cache line at src's address + cacheOffset bytes into the data
/// cache (nothing to load here: see the file comment).
template <typename T>
inline void DataCachePreload(const GlobalTensor<uint64_t>& src,
                             const T cacheOffset,
                             normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, int64_t>,
                "DataCachePreload: cacheOffset must be int16_t or int64_t");
  static_cast<void>(cacheOffset);
  const normgrad_ascendc::ApiCall call(site);
  if (src.GetPhyAddr() == nullptr) {
    normgrad_ascendc::Fail(
        "DataCachePreload: src has no memory (a GlobalTensor needs "
        "SetGlobalBuffer)");
  }
}

}  // namespace AscendC

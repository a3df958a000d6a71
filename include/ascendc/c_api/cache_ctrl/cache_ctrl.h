// c_api/cache_ctrl/cache_ctrl.h — the C API's data-cache flushes on Atlas
// A2/A3 (docs/capi.md, "Cache control"): asc_dcci_single and
// asc_ub_dcci_single (the cache line of one address) and the asc_dcci_entire_*
// forms. The emulated core has no data cache between its scalar accesses and
// memory, so there is nothing to flush; the single forms still check their
// address (a GM address must not be null; a UB address must lie in the UB).
// The preloads (asc_datacache_preload, asc_icache_preload) have no cache to
// fill either: they check their address, and the instruction cache's
// preload status is always 0 (idle).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

/// Flushes the cache line holding GM address `dst`.
inline void asc_dcci_single(__gm__ void* dst,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_dcci_single", site);
  normgrad_ascendc::CheckGmPointer("asc_dcci_single", "dst", dst);
}
/// Flushes the cache line holding UB address `dst`.
inline void asc_ub_dcci_single(__ubuf__ void* dst,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_ub_dcci_single", site);
  normgrad_ascendc::UbPointerView("asc_ub_dcci_single", nullptr, "dst", dst, 1);
}
/// Flushes every cache line.
inline void asc_dcci_entire_all(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_dcci_entire_all", site);
}
/// Flushes every cache line of UB data.
inline void asc_dcci_entire_ub(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_dcci_entire_ub", site);
}
/// Flushes every cache line of GM data.
inline void asc_dcci_entire_out(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_dcci_entire_out", site);
}
/// Flushes every cache line of atomic data.
inline void asc_dcci_entire_atomic(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_dcci_entire_atomic", site);
}

/// Loads the data cache from GM address `address` + `offset` bytes.
inline void asc_datacache_preload(__gm__ uint64_t* address, int64_t offset,
                                  normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_datacache_preload", site);
  normgrad_ascendc::CheckGmPointer("asc_datacache_preload", "address", address);
  static_cast<void>(offset);
}
/// Loads `prefetch_len` bytes of instructions from `addr` (a program
/// counter, asc_get_program_counter) into the instruction cache.
inline void asc_icache_preload(const void* addr, int64_t prefetch_len,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_icache_preload", site);
  if (addr == nullptr) {
    normgrad_ascendc::Fail(
        "asc_icache_preload: addr is a null pointer; it must be an "
        "instruction address (asc_get_program_counter)");
  }
  if (prefetch_len < 0) {
    normgrad_ascendc::Fail("asc_icache_preload: prefetch_len %lld is negative",
                           static_cast<long long>(prefetch_len));
  }
}
/// The instruction-cache preload's state: 0 (idle), as every preload has
/// ended when its call returns.
inline int64_t asc_get_icache_preload_status(
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_icache_preload_status", site);
  return 0;
}

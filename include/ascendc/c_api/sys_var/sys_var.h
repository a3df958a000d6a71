// c_api/sys_var/sys_var.h — the C API's system variables on Atlas A2/A3
// (docs/capi.md, "System variables"): the block's index and count, its core
// and sub-block, the unified buffer's physical addresses
// (asc_get_phy_buf_addr, the way a C API program obtains UB pointers) and
// the system cycle counter.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sub_block.h"

/// The index of the running block, 0 … asc_get_block_num() − 1.
inline int64_t asc_get_block_idx(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_block_idx", site);
  return AscendC::GetBlockIdx();
}
/// The number of blocks of the running launch.
inline int64_t asc_get_block_num(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_block_num", site);
  return AscendC::GetBlockNum();
}
/// The number of the core the block runs on: each block runs on an
/// emulated core of its own, numbered as the blocks are.
inline int64_t asc_get_core_id(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_core_id", site);
  return AscendC::GetBlockIdx();
}
/// The block's vector core inside its AI Core (sub_block.h: always 0).
inline int64_t asc_get_sub_block_id(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_sub_block_id", site);
  return AscendC::GetSubBlockIdx();
}
/// Vector cores per AI Core as normgrad runs them (sub_block.h: 1).
inline int64_t asc_get_sub_block_num(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_sub_block_num", site);
  return AscendC::GetSubBlockNum();
}

/// The address of UB byte `offset` (0 … the UB's size) of the calling core,
/// as an integer: cast it to a `__ubuf__ T*`. The whole UB is the program's
/// and is zeroed before each block, as the UB a TPipe hands out is.
uint64_t asc_get_phy_buf_addr(uint64_t offset,
                              normgrad_ascendc::CallSite site = {});

/// A count that grows with time: nanoseconds of the host's steady clock (the
/// emulated core has no cycle counter; differences measure host time).
int64_t asc_get_system_cycle(normgrad_ascendc::CallSite site = {});

// c_api/sys_var/sys_var.h — the C API's system variables on Atlas A2/A3
// (docs/capi.md, "System variables"): the block's index and count, its core
// and sub-block, the unified buffer's physical addresses
// (asc_get_phy_buf_addr, the way a C API program obtains UB pointers) and
// the system cycle counter; and the core's registers as a CPU core has them
// (docs/capi.md, "Registers"): CTRL (asc_get_ctrl/asc_set_ctrl, the CTRL
// register of ctrl_spr.h with bit 56 the mask register's mode), the
// architecture version, the program counter, the inter-core sync base
// address, and the read-only status and base registers.
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
/// The block's core inside its AI Core (sub_block.h: 0 but in mixed kernels).
inline int64_t asc_get_sub_block_id(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_sub_block_id", site);
  return AscendC::GetSubBlockIdx();
}
/// Cores of the running kind per AI Core (sub_block.h: 1 but in mixed kernels).
inline int64_t asc_get_sub_block_num(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_get_sub_block_num", site);
  return AscendC::GetSubBlockNum();
}

/// The address of UB byte `offset` (0 … the UB's size) of the calling core,
/// as an integer: cast it to a `__ubuf__ T*`. The whole UB is the program's
/// and is zeroed before each block, as the UB a TPipe hands out is. On a
/// cube core it is the address of byte `offset` (0 … the L1's size) of
/// whichever cube memory the `__cbuf__`/`__ca__`/`__cb__`/`__cc__` pointer
/// it is cast to names: each is addressed from its own byte 0
/// (capi/capi_cube.h).
uint64_t asc_get_phy_buf_addr(uint64_t offset,
                              normgrad_ascendc::CallSite site = {});

/// A count that grows with time: nanoseconds of the host's steady clock (the
/// emulated core has no cycle counter; differences measure host time).
int64_t asc_get_system_cycle(normgrad_ascendc::CallSite site = {});

/// The CTRL register: the bits SetCtrlSpr keeps, with bit 56 set while the
/// mask register is in counter mode (asc_set_mask_count).
int64_t asc_get_ctrl(normgrad_ascendc::CallSite site = {});
/// Writes CTRL. Only bits 48, 53, 56 and 59 may differ from asc_get_ctrl();
/// bit 56 selects the mask register's mode (1: counter, 0: normal), the
/// others are kept and read back (they change no result here, as for
/// SetCtrlSpr).
void asc_set_ctrl(uint64_t config, normgrad_ascendc::CallSite site = {});

/// The architecture version of Atlas A2/A3 cores, 0x2201 (dav-2201).
void asc_get_arch_ver(uint32_t& core_version,
                      normgrad_ascendc::CallSite site = {});
/// The address of the host code this call returns to: a value per call
/// site (asc_icache_preload accepts it).
int64_t asc_get_program_counter(normgrad_ascendc::CallSite site = {});

/// The inter-core sync base address asc_set_ffts_base_addr left (0 when a
/// block starts).
int64_t asc_get_ffts_base_addr(normgrad_ascendc::CallSite site = {});
/// Sets the inter-core sync base address, 0 … 2^48 − 1.
void asc_set_ffts_base_addr(uint64_t config,
                            normgrad_ascendc::CallSite site = {});

/// The status register: 0. normgrad raises none of its overflow, underflow
/// or NaN/INF flags (results are computed exactly as on the device, the
/// flags are not modelled).
int64_t asc_get_status(normgrad_ascendc::CallSite site = {});
/// The physical stack base: the address of the host stack of the thread
/// running the block, as a number.
int64_t asc_get_phy_stack_base(normgrad_ascendc::CallSite site = {});
/// The system virtual base address: 0, a CPU core maps no system window.
int64_t asc_get_sys_virtual_base(normgrad_ascendc::CallSite site = {});
/// The SMMU tag version: 0, a CPU core has no SMMU.
int64_t asc_get_smmu_tag_version(normgrad_ascendc::CallSite site = {});

// ---- The Ascend 950's MTE2_NZ_PARA (cube_gm2l1_950.cc) ---------------------

/// Sets MTE2_NZ_PARA, which the 950's asc_copy_gm2l1_nd2nz and
/// asc_copy_gm2l1_dn2nz read: bits 0..15 the matrix count, 16..31 the
/// destination's N stride, 32..47 its C0 stride (both in 32-byte units),
/// 48..63 its matrix stride (elements). The 950 only.
void asc_set_gm2l1_nz_para(uint64_t config,
                           normgrad_ascendc::CallSite site = {});

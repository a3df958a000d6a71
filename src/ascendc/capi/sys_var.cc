// sys_var.cc — the C API's system variables that need more than a core
// query and its registers (c_api/sys_var/sys_var.h), and asc_sync_pipe's
// rule (c_api/sync/sync.h).
#include "c_api/sys_var/sys_var.h"

#include <pthread.h>

#include <chrono>
#include <cstdint>

#include "c_api/sync/sync.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/vector/vector_unit.h"

using normgrad_ascendc::CallSite;

uint64_t asc_get_phy_buf_addr(uint64_t offset, CallSite site) {
  const normgrad_ascendc::CapiCall call(
      "asc_get_phy_buf_addr", site, normgrad_ascendc::CapiProfiles::kA2And950);
  normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
  if (core.is_cube()) {
    // Each cube memory is addressed from its own byte 0, and the pointer
    // type the address is cast to names the memory
    // (normgrad_ascendc/capi/capi_cube.h).
    const uint32_t l1 = normgrad_ascendc::CubeMemoryBytes(
        core.profile().profile, normgrad_ascendc::CubeMemory::kL1);
    if (offset > l1) {
      normgrad_ascendc::Fail(
          "asc_get_phy_buf_addr: offset %llu is past the cube core's largest "
          "memory, the L1's %u bytes (profile %s); it must be 0 to %u",
          static_cast<unsigned long long>(offset), l1, core.profile().name, l1);
    }
    return normgrad_ascendc::CubeAddress(offset);
  }
  if (offset > core.ub_size()) {
    normgrad_ascendc::Fail(
        "asc_get_phy_buf_addr: offset %llu is past the unified buffer's %u "
        "bytes (profile %s); it must be 0 to %u",
        static_cast<unsigned long long>(offset), core.ub_size(),
        core.profile().name, core.ub_size());
  }
  // The block may use any byte of its UB: all of it is zeroed after the
  // block.
  core.Touch(core.ub_size());
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(core.ub())) + offset;
}

int64_t asc_get_system_cycle(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_system_cycle", site);
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void asc_sync_pipe(pipe_t pipe, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_sync_pipe", site);
  if (pipe == PIPE_S) {
    normgrad_ascendc::Fail(
        "asc_sync_pipe: pipe PIPE_S is not taken; the scalar pipe is "
        "ordered by the hardware (pass another pipe, or PIPE_ALL)");
  }
}

namespace {

constexpr int kMaskModeBit = 56;
// The CTRL bits asc_set_ctrl may change (its page's list).
constexpr uint64_t kSettableCtrl = uint64_t{1} << 48 | uint64_t{1} << 53 |
                                   uint64_t{1} << kMaskModeBit |
                                   uint64_t{1} << 59;

uint64_t CtrlValue(normgrad_ascendc::Core& core) {
  const bool counter = core.vector_mask().mode == AscendC::MaskMode::COUNTER;
  return (core.ctrl() & ~(uint64_t{1} << kMaskModeBit)) |
         (uint64_t{counter} << kMaskModeBit);
}

}  // namespace

int64_t asc_get_ctrl(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_ctrl", site);
  return static_cast<int64_t>(CtrlValue(normgrad_ascendc::CurrentCore()));
}

void asc_set_ctrl(uint64_t config, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_set_ctrl", site);
  normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
  const uint64_t changed = (config ^ CtrlValue(core)) & ~kSettableCtrl;
  if (changed != 0) {
    normgrad_ascendc::Fail(
        "asc_set_ctrl: config 0x%llx changes CTRL[%d]; only CTRL[48], "
        "CTRL[53], CTRL[56] and CTRL[59] may be set (read the register "
        "with asc_get_ctrl and change only those bits)",
        static_cast<unsigned long long>(config), __builtin_ctzll(changed));
  }
  core.ctrl() = config & ~(uint64_t{1} << kMaskModeBit);
  normgrad_ascendc::NoteCtrlWritten();
  if ((config >> kMaskModeBit & 1) != 0) {
    AscendC::SetMaskCount();
  } else {
    AscendC::SetMaskNorm();
  }
}

void asc_get_arch_ver(uint32_t& core_version, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_arch_ver", site);
  core_version = 0x2201;
}

// Not inline, so that the return address is the caller's code.
__attribute__((noinline)) int64_t asc_get_program_counter(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_program_counter", site);
  return static_cast<int64_t>(
      reinterpret_cast<uintptr_t>(__builtin_return_address(0)));
}

int64_t asc_get_ffts_base_addr(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_ffts_base_addr", site);
  return static_cast<int64_t>(normgrad_ascendc::CurrentCore().capi().ffts_base);
}

void asc_set_ffts_base_addr(uint64_t config, CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_set_ffts_base_addr", site);
  if (config >> 48 != 0) {
    normgrad_ascendc::Fail(
        "asc_set_ffts_base_addr: config 0x%llx is out of range [0, 2^48 - 1]",
        static_cast<unsigned long long>(config));
  }
  normgrad_ascendc::CurrentCore().capi().ffts_base = config;
}

int64_t asc_get_status(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_status", site);
  return 0;
}

int64_t asc_get_phy_stack_base(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_phy_stack_base", site);
  pthread_attr_t attr;
  void* base = nullptr;
  size_t size = 0;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    pthread_attr_getstack(&attr, &base, &size);
    pthread_attr_destroy(&attr);
  }
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(base));
}

int64_t asc_get_sys_virtual_base(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_sys_virtual_base", site);
  return 0;
}

int64_t asc_get_smmu_tag_version(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_smmu_tag_version", site);
  return 0;
}

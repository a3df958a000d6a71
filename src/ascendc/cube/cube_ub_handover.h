// cube_ub_handover.h — a cube core's writes into the UB of a vector core of
// its AI Core (Fixpipe L0C -> UB on the Ascend 950; docs/cube.md, "The Ascend
// 950: out of L0C, and UB ↔ L1"), internal to src/ascendc: the write itself,
// made while the vector core runs, and its hand-over to the init check of
// the vector core when that core returns from a wait that orders it (a flag
// the cube core set after the write: CrossCoreSetFlag / CrossCoreWaitFlag),
// so that a read before the hand-over is the init check's finding. The
// hand-over is the runtime's wait-return hook (runtime/launch_state.h),
// which cube_ub_handover.cc registers: the runtime does not know the cube.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normgrad_ascendc {

/// `bytes` bytes of `data` from byte `data_at`, for destination number
/// `share`, at byte `offset` from the destination's start.
struct OutRun {
  uint32_t share;
  uint64_t offset;
  uint32_t bytes;
  size_t data_at;
};

/// Writes `runs` into the UBs of the calling cube core's vector cores
/// `sub_blocks[share]`, from UB byte `ub_offset`: a KernelError for a launch
/// without vector cores (or, with `one_to_two`, other than 1:2) or a
/// sub-block the launch does not have, or a vector core that has ended.
/// `api` names the call.
void WriteVectorCoreUbs(const char* api,
                        const std::vector<uint32_t>& sub_blocks,
                        bool one_to_two, uint32_t ub_offset,
                        const std::vector<OutRun>& runs,
                        const std::vector<uint8_t>& data);

}  // namespace normgrad_ascendc

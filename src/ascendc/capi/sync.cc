// sync.cc — the C API's synchronization between cores (c_api/sync/sync.h):
// asc_sync_inter_* on the runtime's mode-0 cross-core flags
// (runtime/block_sync.h), asc_sync_block_* and asc_sync_subblock_* on the
// counters of the calling core (Core::capi()).
#include <cstdint>

#include "c_api/sync/sync.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/block_sync.h"

namespace normgrad_ascendc {

namespace {

constexpr int kMaxFlagCount = 15;

uint16_t FlagId(const char* api, int64_t flag_id) {
  if (flag_id < 0 || flag_id > 15) {
    Fail("%s: flag_id %lld is out of range [0, 15]", api,
         static_cast<long long>(flag_id));
  }
  return static_cast<uint16_t>(flag_id);
}

// The counters of a group of one core (the block itself).
void GroupArrive(const char* api, uint8_t (&counters)[16], int64_t flag_id) {
  uint8_t& counter = counters[FlagId(api, flag_id)];
  if (counter == kMaxFlagCount) {
    Fail(
        "%s: the counter of flag_id %lld is already %d, its largest value; "
        "a wait must lower it before the next arrive",
        api, static_cast<long long>(flag_id), kMaxFlagCount);
  }
  ++counter;
}

void GroupWait(const char* api, const char* arrive, uint8_t (&counters)[16],
               int64_t flag_id) {
  uint8_t& counter = counters[FlagId(api, flag_id)];
  if (counter == 0) {
    Fail(
        "%s: the counter of flag_id %lld is 0 and no other core can raise "
        "it: normgrad runs each block as a group of one vector core, so only "
        "this block's own %s counts; the wait would never end",
        api, static_cast<long long>(flag_id), arrive);
  }
  --counter;
}

}  // namespace

}  // namespace normgrad_ascendc

using normgrad_ascendc::CallSite;
using normgrad_ascendc::CapiCall;
using normgrad_ascendc::CurrentCore;

void asc_sync_block_arrive(pipe_t, int64_t flag_id, CallSite site) {
  const CapiCall call("asc_sync_block_arrive", site);
  normgrad_ascendc::GroupArrive("asc_sync_block_arrive",
                                CurrentCore().capi().block_flags, flag_id);
}

void asc_sync_block_wait(pipe_t, int64_t flag_id, CallSite site) {
  const CapiCall call("asc_sync_block_wait", site);
  normgrad_ascendc::GroupWait("asc_sync_block_wait", "asc_sync_block_arrive",
                              CurrentCore().capi().block_flags, flag_id);
}

void asc_sync_subblock_arrive(pipe_t, int64_t flag_id, CallSite site) {
  const CapiCall call("asc_sync_subblock_arrive", site);
  normgrad_ascendc::GroupArrive("asc_sync_subblock_arrive",
                                CurrentCore().capi().subblock_flags, flag_id);
}

void asc_sync_subblock_wait(pipe_t, int64_t flag_id, CallSite site) {
  const CapiCall call("asc_sync_subblock_wait", site);
  normgrad_ascendc::GroupWait("asc_sync_subblock_wait",
                              "asc_sync_subblock_arrive",
                              CurrentCore().capi().subblock_flags, flag_id);
}

void asc_sync_inter_arrive(pipe_t, int64_t flag_id, CallSite site) {
  const char* api = "asc_sync_inter_arrive";
  const CapiCall call(api, site);
  normgrad_ascendc::CrossCoreSetFlagImpl(
      0, normgrad_ascendc::FlagId(api, flag_id), api);
}

void asc_sync_inter_wait(pipe_t, int64_t flag_id, CallSite site) {
  const char* api = "asc_sync_inter_wait";
  const CapiCall call(api, site);
  normgrad_ascendc::CrossCoreWaitFlagImpl(
      0, normgrad_ascendc::FlagId(api, flag_id), api);
}

// c_api/misc/misc.h — the C API's asc_init on Atlas A2/A3 (docs/capi.md,
// "Other operations"): it sets the core's state up for a C API program. A
// block starts on a freshly set-up core already (its mask register all set,
// in normal mode; no atomic mode; its UB zeroed), so asc_init has nothing
// left to do.
#pragma once

#include "normgrad_ascendc/capi/capi_call.h"

/// Sets the NPU's state up for the kernel.
inline void asc_init(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::CapiCall call("asc_init", site);
}

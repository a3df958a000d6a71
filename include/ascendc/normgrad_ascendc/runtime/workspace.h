// normgrad_ascendc/runtime/workspace.h — the workspace of a kernel
// (docs/program-surface.md, "Workspace"): GetSysWorkSpacePtr,
// SetSysWorkspace (also spelled SetSysWorkSpace) and GetUserWorkspace.
//
// The workspace argument a host passes to a kernel starts with the system
// workspace, GetLibApiWorkSpaceSize() bytes (platform_ascendc.h; the
// profile's lib_api_workspace_bytes), followed by the user's part:
// GetUserWorkspace(workspace) is workspace + that size (null stays null).
//
// GetSysWorkSpacePtr returns the system workspace normgrad provides, as the
// framework does for operator projects: real memory of
// GetLibApiWorkSpaceSize() bytes of the largest profile, zeroed when first
// used, shared by every block of every launch (the library APIs that would
// use it are not emulated, so nothing in normgrad writes it). SetSysWorkspace
// checks that its argument is not null and otherwise changes nothing.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

namespace AscendC {

/// The system workspace (see the file comment).
GM_ADDR GetSysWorkSpacePtr();

/// Accepts the kernel's workspace argument as the system workspace; a null
/// workspace is a kernel error.
void SetSysWorkspace(GM_ADDR workspace, normgrad_ascendc::CallSite site = {});

/// The documentation's other spelling of SetSysWorkspace.
inline void SetSysWorkSpace(GM_ADDR workspace,
                            normgrad_ascendc::CallSite site = {}) {
  SetSysWorkspace(workspace, site);
}

/// The user's part of the workspace argument: workspace +
/// GetLibApiWorkSpaceSize(); null for a null workspace.
GM_ADDR GetUserWorkspace(GM_ADDR workspace);

}  // namespace AscendC

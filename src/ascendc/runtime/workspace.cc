// workspace.cc — the kernel workspace (normgrad_ascendc/runtime/workspace.h):
// the system workspace normgrad provides, and the user part of a workspace
// argument.
#include "normgrad_ascendc/runtime/workspace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "normgrad_ascendc/runtime/profile.h"

namespace AscendC {

GM_ADDR GetSysWorkSpacePtr() {
  // calloc: zeroed pages the host commits only when something touches them.
  static uint8_t* const workspace = [] {
    uint32_t bytes = 0;
    for (const auto p :
         {normgrad_ascendc::Profile::kA2, normgrad_ascendc::Profile::k310P,
          normgrad_ascendc::Profile::k950}) {
      bytes = std::max(
          bytes, normgrad_ascendc::GetProfileInfo(p).lib_api_workspace_bytes);
    }
    auto* memory = static_cast<uint8_t*>(std::calloc(bytes, 1));
    if (memory == nullptr) {
      std::fprintf(stderr,
                   "normgrad: GetSysWorkSpacePtr: cannot allocate the %u-byte "
                   "system workspace\n",
                   bytes);
      std::exit(1);
    }
    return memory;
  }();
  return workspace;
}

void SetSysWorkspace(GM_ADDR workspace, normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  if (workspace == nullptr) {
    normgrad_ascendc::Fail(
        "SetSysWorkspace: workspace is null: it must be the kernel's "
        "workspace argument, of GetLibApiWorkSpaceSize() bytes and more");
  }
}

GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  if (workspace == nullptr) return nullptr;
  const auto& profile =
      normgrad_ascendc::GetProfileInfo(normgrad_ascendc::CurrentProfile());
  return workspace + profile.lib_api_workspace_bytes;
}

}  // namespace AscendC

// capi_call.cc — the C API's call prologue and pointer mapping
// (normgrad_ascendc/capi/capi_call.h).
#include "normgrad_ascendc/capi/capi_call.h"

#include <cstdint>

#include "ascendc/runtime/gm_registry.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

namespace {

// "asc_add<float>" or "asc_copy_gm2ub".
struct CapiName {
  CapiName(const char* api, const char* type) {
    if (type == nullptr) {
      JoinName(text, sizeof text, {api});
    } else {
      JoinName(text, sizeof text, {api, "<", type, ">"});
    }
  }
  char text[96];
};

// Why p is not a UB address, for the message.
const char* Elsewhere(const void* p) {
  GmBlock block;
  if (FindGmBlock(p, &block)) return "it points into global memory";
  return "it points outside the unified buffer";
}

}  // namespace

void CheckCapiProfile(const char* api, CapiProfiles profiles) {
  const ProfileInfo& info = CurrentCore().profile();
  if (info.profile == Profile::kA2) return;
  if (profiles == CapiProfiles::kA2And950 && info.profile == Profile::k950) {
    return;
  }
  Fail(
      "%s: not available on profile %s; normgrad maps the C API of Atlas "
      "A2/A3 only%s",
      api, info.name,
      info.profile == Profile::k950
          ? " (on the 950, the cube-side functions whose pages list it: "
            "docs/capi.md)"
          : "");
}

TensorView UbPointerView(const char* api, const char* type, const char* which,
                         const void* p, uint32_t align) {
  Core& core = CurrentCore();
  const auto at = reinterpret_cast<uintptr_t>(p);
  const auto ub = reinterpret_cast<uintptr_t>(core.ub());
  if (p == nullptr) {
    Fail(
        "%s: %s is a null pointer; a UB operand must point into the unified "
        "buffer (asc_get_phy_buf_addr)",
        CapiName(api, type).text, which);
  }
  if (at < ub || at >= ub + core.ub_size()) {
    Fail(
        "%s: %s %p is not a unified-buffer address (%s); this core's UB is "
        "[%p, %p), %u bytes on profile %s: take UB addresses from "
        "asc_get_phy_buf_addr",
        CapiName(api, type).text, which, p, Elsewhere(p),
        static_cast<const void*>(core.ub()),
        static_cast<const void*>(core.ub() + core.ub_size()), core.ub_size(),
        core.profile().name);
  }
  const auto offset = static_cast<uint32_t>(at - ub);
  if (offset % align != 0) {
    Fail(
        "%s: %s is at UB byte %u, which is not %u-byte aligned (this operand "
        "must start at a multiple of %u bytes)",
        CapiName(api, type).text, which, offset, align, align);
  }
  TensorView view;
  view.core = &core;
  view.offset = offset;
  view.bytes = core.ub_size() - offset;
  return view;
}

void CheckUbBytes(const char* api, const char* which, const TensorView& view,
                  uint64_t bytes) {
  if (bytes <= view.bytes) return;
  Fail(
      "%s: %s at UB byte %u with %llu bytes runs past the end of the unified "
      "buffer (%u bytes)",
      api, which, view.offset, static_cast<unsigned long long>(bytes),
      view.core->ub_size());
}

uint32_t CapiCopySize(const char* api, uint32_t size) {
  if (size % 32 != 0 && GetDataCopyMode() != DataCopyMode::kTruncate) {
    Fail(
        "%s: size %u bytes is not a multiple of 32 bytes; the device would "
        "silently drop the last %u bytes (NORMGRAD_DATACOPY=truncate mimics "
        "that)",
        api, size, size % 32);
  }
  return size / 32 * 32;
}

void CheckCapiBursts(const char* api, uint16_t n_burst, uint16_t len_burst) {
  if (n_burst < 1 || n_burst > 4095) {
    Fail("%s: n_burst %u is out of range [1, 4095]", api, n_burst);
  }
  if (len_burst < 1) {
    Fail("%s: len_burst %u is out of range [1, 65535] (32-byte blocks)", api,
         len_burst);
  }
}

void CheckGmPointer(const char* api, const char* which, const void* p) {
  if (p == nullptr) {
    Fail(
        "%s: %s is a null pointer; a GM operand must point into global "
        "memory",
        api, which);
  }
}

}  // namespace normgrad_ascendc

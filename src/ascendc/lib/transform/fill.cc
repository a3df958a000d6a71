// fill.cc — RunFill: Fill of the Tensor transform family (docs/transform.md,
// "Fill"): `count` elements of global memory set to one value, through
// StoreToGm so the block's atomic mode and the race check see the write.
#include <algorithm>
#include <cstring>
#include <vector>

#include "ascendc/lib/transform/transform_rules.h"
#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/gm_store.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"

namespace normgrad_ascendc {
namespace {

const char* kApi = "Fill";

TransformTypes FillTypes(Profile p) {
  using E = TransformElem;
  const TransformTypes b16_b32 = TypeBit(E::kInt16) | TypeBit(E::kUint16) |
                                 TypeBit(E::kHalf) | TypeBit(E::kInt32) |
                                 TypeBit(E::kUint32) | TypeBit(E::kFloat);
  if (p == Profile::k950) return TypeBit(E::kOther) - 1;  // all eleven
  return b16_b32;
}

// Elements written per StoreToGm: the value repeated over 32 KiB.
constexpr uint64_t kChunkBytes = 32 * 1024;

}  // namespace

void RunFill(TransformElem type, void* gm, const void* base, bool sized,
             uint64_t size, uint64_t count, const void* value) {
  Core& core = CurrentCore();
  const ProfileInfo& profile = core.profile();
  CheckTypeOn(kApi, type, FillTypes(profile.profile), profile);
  if (gm == nullptr) {
    Fail("%s: gmWorkspaceAddr has no buffer (call SetGlobalBuffer first)",
         kApi);
  }
  if (sized && count > size) {
    Fail("%s: size is %llu elements, more than the %llu of gmWorkspaceAddr",
         kApi, static_cast<unsigned long long>(count),
         static_cast<unsigned long long>(size));
  }
  if (core.pipe() != nullptr && core.pipe()->used_bytes() > 0) {
    Fail(
        "%s: the pipe has already given out %u bytes of the unified buffer "
        "(InitBuffer); Fill may be called only before the first InitBuffer",
        kApi, core.pipe()->used_bytes());
  }
  const uint32_t bytes = ElemBytes(type);
  const uint64_t total = count * bytes;
  if (total == 0) return;
  uint8_t* out = static_cast<uint8_t*>(gm);
  CheckGmAccess(kApi, base, out, total, /*write=*/true);
  const uint64_t chunk = std::min<uint64_t>(total, kChunkBytes);
  std::vector<uint8_t> pattern(chunk);
  for (uint64_t i = 0; i < chunk; i += bytes) {
    std::memcpy(pattern.data() + i, value, bytes);
  }
  for (uint64_t done = 0; done < total; done += chunk) {
    StoreToGm(kApi, out + done, pattern.data(),
              std::min<uint64_t>(chunk, total - done));
  }
}

}  // namespace normgrad_ascendc

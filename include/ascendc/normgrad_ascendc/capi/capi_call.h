// normgrad_ascendc/capi/capi_call.h — what every function of the C API
// (c_api/*.h, docs/capi.md) shares: the prologue of a call and the mapping
// of its raw pointers onto the emulated core.
//
// Pointers. A `__ubuf__ T*` names a byte of the calling core's unified
// buffer (UB): asc_get_phy_buf_addr(offset) returns the UB's first byte plus
// offset, and a LocalTensor's GetPhyAddr() is such an address too. A UB
// pointer becomes the view of the UB from that byte to the UB's end
// (UbPointerView), so the vector unit and DataCopy check it exactly as they
// check a LocalTensor of that length: every lane an instruction reaches must
// lie inside the UB. A pointer outside the UB (null, host memory, global
// memory, another block's UB) is a KernelError naming the function, the
// operand, the address and the UB's range. `__gm__` pointers are host
// memory, checked against the global-memory registry as GlobalTensors are.
//
// Calls. Every function opens a CapiCall with its caller's site (the
// defaulted last argument), so messages start with the user's file and
// line, and fails on a profile other than Atlas A2/A3: the functions mapped
// here are that product's.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The profiles a C API function runs on: Atlas A2/A3's, or also the 950
/// for the cube-side functions whose pages list it (docs/capi.md); each of
/// those keeps the profile rules of the C++ instruction it calls.
enum class CapiProfiles : uint8_t { kA2, kA2And950 };

/// Fails unless the current core runs one of `profiles`.
void CheckCapiProfile(const char* api,
                      CapiProfiles profiles = CapiProfiles::kA2);

/// The prologue of a C API function: the call site recorded for the call's
/// duration (ApiCall), then the profile checked.
class CapiCall {
 public:
  CapiCall(const char* api, const CallSite& site,
           CapiProfiles profiles = CapiProfiles::kA2)
      : call_(site) {
    CheckCapiProfile(api, profiles);
  }

 private:
  ApiCall call_;
  SyncCheckPause unfollowed_;  ///< the sync check does not follow the C API
};

/// The view of the current core's UB from `p` to its end. Fails unless p is
/// an address inside the UB at a multiple of `align` bytes; messages name
/// `api` (with `<type>` when type is not null) and the operand `which`.
TensorView UbPointerView(const char* api, const char* type, const char* which,
                         const void* p, uint32_t align = 32);

/// The LocalTensor a typed UB pointer names (UbPointerView).
template <typename T>
AscendC::LocalTensor<T> UbTensor(const char* api, const char* which,
                                 const T* p) {
  return AscendC::LocalTensor<T>(UbPointerView(api, TypeName<T>(), which, p));
}

/// Fails unless `bytes` bytes from the start of `view` (a UbPointerView)
/// lie inside the UB.
void CheckUbBytes(const char* api, const char* which, const TensorView& view,
                  uint64_t bytes);

/// The bytes a count-form copy of `size` bytes moves: all of them when
/// `size` is a multiple of 32; else a KernelError naming `api`, or (with
/// NORMGRAD_DATACOPY=truncate, as DataCopy) `size` rounded down to 32 bytes.
uint32_t CapiCopySize(const char* api, uint32_t size);

/// The burst form's rule: n_burst in [1, 4095], len_burst (32-byte blocks)
/// in [1, 65535].
void CheckCapiBursts(const char* api, uint16_t n_burst, uint16_t len_burst);

/// Fails when a global-memory operand is null.
void CheckGmPointer(const char* api, const char* which, const void* p);

}  // namespace normgrad_ascendc

// normgrad_ascendc/capi/capi_cube.h — what the C API's cube functions
// (c_api/cube_datamove/, c_api/cube_compute/, docs/capi.md "The cube side")
// share: the pointer qualifiers of the cube memories, the mapping of a cube
// pointer onto the memory its parameter names, and the wrapping of the C++
// cube instruction's messages under the asc_* function's name.
//
// Pointers. On a cube core each memory (L1, L0A, L0B, L0C, the bias table,
// the fixpipe buffer) is addressed from its own byte 0, as on the device,
// where `__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__biasbuf__` and
// `__fbuf__` are address spaces. A program takes an address with
// asc_get_phy_buf_addr(offset) and casts it to the memory's pointer type;
// the function's parameter says which memory the pointer is in. On a cube
// core that address is CubeAddress(offset): the offset in a window no host
// pointer lies in, so it is never null and pointer arithmetic on it is
// defined. A LocalTensor's GetPhyAddr() at a cube position (the host address
// of that byte of the emulated memory) is taken too, so the C and C++ APIs
// can share data. Anything else (a host array declared `__cbuf__ half
// a[256]` in the kernel: host memory; a GM or UB pointer; null) is a
// KernelError naming the function, the operand, the address and the memory's
// range.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/tensor.h"

/// The _sync twins of the cube functions (docs/capi.md, "Pipes and _sync":
/// a _sync form computes what its function computes). `define(name, ...)`
/// defines one function, naming it #name in its messages;
/// NORMGRAD_CAPI_WITH_SYNC(define, name, args...) defines `name` and
/// `name_sync` from that one definition, so the two cannot drift apart.
/// `args` holds at least one argument (C++17 wants one for the `...`).
#define NORMGRAD_CAPI_WITH_SYNC(define, name, ...) \
  define(name, __VA_ARGS__) define(name##_sync, __VA_ARGS__)

// The cube memories' address spaces: empty on the CPU, as __ubuf__ is.
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif

namespace normgrad_ascendc {

/// Where the cube memories' addresses start: bit 56, past every user-space
/// host address of the 48-bit (and 52-bit) virtual address spaces.
inline constexpr uint64_t kCubeAddressBase = uint64_t{1} << 56;

/// The address asc_get_phy_buf_addr gives byte `offset` of a cube memory.
constexpr uint64_t CubeAddress(uint64_t offset) {
  return kCubeAddressBase + offset;
}

/// Fails unless the current core is a cube core (the rule of the C++ cube
/// instructions, cube/cube_memory.h); `api` names the call.
void CheckCapiCubeCore(const char* api);

/// The view of the cube memory of `position` from the byte `p` names to the
/// memory's end, at `position` (an L1 operand is at A1, B1 or C1 as the C++
/// instruction it maps onto expects). Fails on a vector core, for a pointer
/// that names no byte of that memory, and for a start that is not a multiple
/// of the memory's alignment.
TensorView CubePointerView(const char* api, const char* type, const char* which,
                           const void* p, AscendC::TPosition position);

/// The name of a C API call in its messages: "asc_mmad<float, half>".
struct CapiCubeName {
  CapiCubeName(const char* api, const char* type);
  char text[112];
};

/// Runs `body` (the C++ instruction) so that its KernelError names the
/// asc_* function first, after the call site: "asc_copy_l12l0b<half>:
/// LoadData<half> L1->L0B: the fractals written reaches ..." (the C++
/// instruction's rules and field names follow; docs/capi.md maps the fields
/// onto the C arguments). RethrowAsCapi builds that message from `error`.
[[noreturn]] void RethrowAsCapi(const char* name, const KernelError& error);
template <typename F>
void RunAsCapi(const char* name, F&& body) {
  try {
    body();
  } catch (const KernelError& error) {
    RethrowAsCapi(name, error);
  }
}

}  // namespace normgrad_ascendc

// acl/acl.h — the subset of the Ascend Computing Language (ACL) host runtime
// that Ascend C operator programs call (docs/runtime.md, "ACL runtime"),
// emulated on the CPU by normgrad (src/ascendc/runtime/acl_runtime.cc).
//
// What is real and what is bookkeeping:
//   - Memory is real. aclrtMalloc (device memory) and aclrtMallocHost
//     (pinned host memory) return ordinary host memory, 64-byte aligned,
//     contents undefined as on the device. Every block is tracked: freeing an
//     unknown, interior or already freed pointer, copying past the end of a
//     tracked block, or a copy larger than destMax is an error code with one
//     message on stderr (naming the API, the values and the rule), never a
//     crash. Like the device runtime's pools, a released block stays readable
//     (not writable through aclrtMemcpy/aclrtMemset) until aclFinalize, which
//     releases every block.
//   - aclInit/aclFinalize, devices, contexts and streams are bookkeeping.
//     normgrad emulates one device, id 0. Kernel launches complete before
//     they return, so aclrtSynchronizeStream only reports a pending launch
//     error (docs/runtime.md, "Kernel errors": NORMGRAD_KERNEL_ERRORS=return).
//   - aclInit is optional: the first call of any other function opens a
//     session when none is running (many programs go straight to
//     aclrtSetDevice), and aclFinalize at exit is optional too. aclInit while
//     a session it opened is running is ACL_ERROR_REPEAT_INITIALIZE; aclInit
//     after such first calls keeps their session. aclFinalize ends the
//     session; it is ACL_ERROR_UNINITIALIZE when none is running. Unlike the
//     device runtime, a new session may follow aclFinalize (test programs do
//     this).
// All functions are thread-safe.
//
// Like the other public headers it brings <cstdint>, <cstddef>, <cstdio>,
// <cstdlib>, <cstring> (programs call printf, malloc, memcpy without
// including them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "normgrad_ascendc/runtime/acl_float16.h"  // aclFloat16
#include "securec.h"                               // memcpy_s, memset_s

extern "C" {

/// Every ACL call returns ACL_SUCCESS or one of the error codes below.
typedef int aclError;
/// An opaque stream handle; nullptr is the default stream.
typedef void* aclrtStream;
/// An opaque context handle.
typedef void* aclrtContext;

constexpr aclError ACL_SUCCESS = 0;
constexpr aclError ACL_ERROR_INVALID_PARAM = 100000;
constexpr aclError ACL_ERROR_UNINITIALIZE = 100001;
constexpr aclError ACL_ERROR_REPEAT_INITIALIZE = 100002;
constexpr aclError ACL_ERROR_BAD_ALLOC = 200000;
constexpr aclError ACL_ERROR_API_NOT_SUPPORT = 200001;
constexpr aclError ACL_ERROR_INVALID_DEVICE = 200002;
constexpr aclError ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
constexpr aclError ACL_ERROR_STORAGE_OVER_LIMIT = 300000;
constexpr aclError ACL_ERROR_INTERNAL_ERROR = 500000;
constexpr aclError ACL_ERROR_FAILURE = 500001;

/// How aclrtMalloc picks pages on the device; all behave alike on the CPU.
typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

/// The direction of aclrtMemcpy. "Device" memory is memory from aclrtMalloc;
/// "host" memory is anything else (aclrtMallocHost, malloc, the stack).
/// ACL_MEMCPY_DEFAULT accepts either on both sides.
typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_DEFAULT = 4,
} aclrtMemcpyKind;

/// Starts an ACL session (or adopts the one that earlier calls opened).
/// configPath (a JSON file, or null) is ignored. ACL_ERROR_REPEAT_INITIALIZE
/// if aclInit already started the running session.
aclError aclInit(const char* configPath);

/// Ends the session: releases every block from aclrtMalloc/aclrtMallocHost
/// (freed or not), every context and stream. ACL_ERROR_UNINITIALIZE when no
/// session is running.
aclError aclFinalize(void);

/// Selects device deviceId; only 0 exists (else ACL_ERROR_INVALID_DEVICE).
aclError aclrtSetDevice(int32_t deviceId);

/// Resets device deviceId; only 0 exists (else ACL_ERROR_INVALID_DEVICE).
aclError aclrtResetDevice(int32_t deviceId);

/// Creates a context on deviceId (only 0) and stores its handle in *context.
aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId);

/// Destroys a context from aclrtCreateContext (else ACL_ERROR_INVALID_PARAM).
aclError aclrtDestroyContext(aclrtContext context);

/// Creates a stream and stores its handle in *stream.
aclError aclrtCreateStream(aclrtStream* stream);

/// Destroys a stream from aclrtCreateStream (else ACL_ERROR_INVALID_PARAM).
aclError aclrtDestroyStream(aclrtStream stream);

/// Waits for the work on stream (a stream from aclrtCreateStream, or null for
/// the default stream). Launches finish before they return, so this only
/// returns the error code of a failed launch not yet reported (docs/runtime.md,
/// "Kernel errors"), and clears it.
aclError aclrtSynchronizeStream(aclrtStream stream);

/// Allocates size (≥ 1) bytes of device memory into *devPtr.
/// ACL_ERROR_BAD_ALLOC when the memory is not available.
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);

/// Releases a block from aclrtMalloc (the pointer it returned). The block
/// stays readable until aclFinalize. Null, unknown, interior, host or already
/// released pointers: ACL_ERROR_INVALID_PARAM and a message.
aclError aclrtFree(void* devPtr);

/// Allocates size (≥ 1) bytes of pinned host memory into *hostPtr.
aclError aclrtMallocHost(void** hostPtr, size_t size);

/// Releases a block from aclrtMallocHost; the rules of aclrtFree apply.
aclError aclrtFreeHost(void* hostPtr);

/// Copies count bytes from src to dst (the ranges may overlap). destMax is
/// the capacity of dst: count > destMax is ACL_ERROR_INVALID_PARAM. A range
/// that starts in a tracked block must end inside it; the device side of a
/// HOST_TO_DEVICE, DEVICE_TO_HOST or DEVICE_TO_DEVICE copy must be
/// aclrtMalloc memory and the host side must not; dst must not be a released
/// block. On any error nothing is copied.
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);

/// Sets count bytes at devPtr to (unsigned char)value. maxCount is the
/// capacity of devPtr: count > maxCount is ACL_ERROR_INVALID_PARAM; the range
/// rules of aclrtMemcpy apply to devPtr. On any error nothing is written.
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                     size_t count);

}  // extern "C"

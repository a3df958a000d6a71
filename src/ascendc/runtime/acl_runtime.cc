// acl_runtime.cc — normgrad's CPU implementation of the ACL host runtime
// subset (acl/acl.h; docs/runtime.md, "ACL runtime"): tracked real memory with
// checked copies, and bookkeeping for the session, the device, contexts and
// streams. The blocks live in the global-memory registry (gm_registry.h), so
// that kernels' accesses are checked against them too. One mutex guards the
// session; copies run outside it.
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <unordered_map>

#include "acl/acl.h"
#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/init_check.h"
#include "normgrad_ascendc/runtime/launch.h"

namespace {

constexpr std::align_val_t kAlignment{64};

using normgrad_ascendc::GmBlock;
using normgrad_ascendc::GmOwner;

// The pools: device memory (aclrtMalloc) and pinned host memory
// (aclrtMallocHost). A released block stays in the registry, marked, until
// aclFinalize frees it.
using Pool = GmOwner;
constexpr Pool kDevice = GmOwner::kAclrtMalloc;
constexpr Pool kHost = GmOwner::kAclrtMallocHost;

const char* AllocatorName(Pool pool) {
  return normgrad_ascendc::GmOwnerName(pool);
}

// A context or stream handle: a distinct address the program never reads.
struct Handle {
  char unused;
};

struct State {
  std::mutex mutex;
  bool running = false;      // a session is open: by aclInit or by first use
  bool initialized = false;  // aclInit opened it (a second aclInit fails)
  std::unordered_map<void*, std::unique_ptr<Handle>> contexts;
  std::unordered_map<void*, std::unique_ptr<Handle>> streams;
};

State& GetState() {
  static State* state = new State;  // never destroyed: usable at exit
  return *state;
}

// One line on stderr: "<api>: <problem>; <consequence>."
aclError Fail(aclError code, const char* api, const std::string& problem,
              const char* consequence) {
  std::fprintf(stderr, "%s: %s; %s.\n", api, problem.c_str(), consequence);
  return code;
}

std::string Hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof(text), "%p", p);
  return text;
}

// Every call but aclInit and aclFinalize opens a session when none is
// running: programs may skip aclInit (docs/runtime.md, "ACL runtime").
void Start(State& state) { state.running = true; }

// Checks the range [p, p + count) named `what` (e.g. "dst") of `api`: if it
// starts in a tracked block it must end in it, and a written range must not
// be in a released block. Returns ACL_SUCCESS or prints and returns an error.
aclError CheckRange(const char* api, const char* what, const void* p,
                    size_t count, bool written, const char* consequence) {
  GmBlock block;
  if (!normgrad_ascendc::FindGmBlock(p, &block)) return ACL_SUCCESS;
  const size_t offset = reinterpret_cast<uintptr_t>(p) - block.start;
  const std::string where = std::string(what) + " " + Hex(p) +
                            " is at offset " + std::to_string(offset) +
                            " of a " + std::to_string(block.size) + "-byte " +
                            AllocatorName(block.owner) + " block";
  if (written && block.released) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                where +
                    " that was already released: freed blocks may be "
                    "read until aclFinalize but not written",
                consequence);
  }
  if (count > block.size - offset) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                where + ": " + std::to_string(count) +
                    " bytes from there run " +
                    std::to_string(count - (block.size - offset)) +
                    " bytes past its end; the range must lie inside the block",
                consequence);
  }
  return ACL_SUCCESS;
}

// Checks that p (side `what` of an aclrtMemcpy of `kind`) is device memory
// when `device`, host memory otherwise.
aclError CheckSide(const char* what, const void* p, bool device,
                   const char* kind_name) {
  GmBlock block;
  const bool is_device =
      normgrad_ascendc::FindGmBlock(p, &block) && block.owner == kDevice;
  if (is_device == device) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy",
              std::string(what) + " " + Hex(p) + " is " +
                  (is_device ? "device memory (aclrtMalloc)"
                             : "not device memory (not from aclrtMalloc)") +
                  " but kind " + kind_name + " needs " +
                  (device ? "device" : "host") + " memory there",
              "nothing copied");
}

aclError Allocate(const char* api, Pool pool, void** ptr, size_t size) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  if (ptr == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "the output pointer is null: pass the address of a void*",
                "nothing allocated");
  }
  if (size == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "size 0: the size must be at least 1 byte",
                "nothing allocated");
  }
  // Whole 32-byte blocks, as kernels move data in them (gm_registry.h).
  const size_t rounded = (size + 31) / 32 * 32;
  void* p = rounded >= size ? ::operator new(rounded, kAlignment, std::nothrow)
                            : nullptr;
  if (p == nullptr) {
    return Fail(ACL_ERROR_BAD_ALLOC, api,
                "cannot allocate " + std::to_string(size) + " bytes",
                "nothing allocated");
  }
  normgrad_ascendc::RegisterGmBlock(p, size, pool);
  if (pool == kDevice) normgrad_ascendc::InitGmAllocated(p, size);
  *ptr = p;
  return ACL_SUCCESS;
}

aclError Release(const char* api, Pool pool, void* p) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  static constexpr char kNothing[] = "nothing released";
  const std::string allocator = AllocatorName(pool);
  if (p == nullptr) {
    return Fail(
        ACL_ERROR_INVALID_PARAM, api,
        "the pointer is null: pass a pointer " + allocator + " returned",
        kNothing);
  }
  GmBlock block;
  if (!normgrad_ascendc::FindGmBlock(p, &block) ||
      block.owner == GmOwner::kGmAlloc) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "pointer " + Hex(p) + " is unknown: it must be a pointer " +
                    allocator + " returned (and not yet released)",
                kNothing);
  }
  const uintptr_t start = block.start;
  if (start != reinterpret_cast<uintptr_t>(p)) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "pointer " + Hex(p) + " is " +
                    std::to_string(reinterpret_cast<uintptr_t>(p) - start) +
                    " bytes into a " + std::to_string(block.size) + "-byte " +
                    AllocatorName(block.owner) + " block: pass the pointer " +
                    AllocatorName(block.owner) + " returned",
                kNothing);
  }
  if (block.owner != pool) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "pointer " + Hex(p) + " comes from " +
                    AllocatorName(block.owner) + ": release it with " +
                    (block.owner == kDevice ? "aclrtFree" : "aclrtFreeHost"),
                kNothing);
  }
  if (block.released) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "pointer " + Hex(p) + " (a " + std::to_string(block.size) +
                    "-byte " + allocator +
                    " block) was already released: double free",
                kNothing);
  }
  normgrad_ascendc::MarkGmBlockReleased(p);
  normgrad_ascendc::InitGmReleased(p);
  return ACL_SUCCESS;
}

aclError CheckDevice(const char* api, int32_t device_id) {
  if (device_id == 0) return ACL_SUCCESS;
  return Fail(ACL_ERROR_INVALID_DEVICE, api,
              "deviceId " + std::to_string(device_id) +
                  " does not exist: normgrad emulates one device, id 0",
              "nothing done");
}

using HandleMap = std::unordered_map<void*, std::unique_ptr<Handle>>;

aclError CreateHandle(const char* api, HandleMap State::*map, void** out) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  if (out == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "the output handle pointer is null", "nothing created");
  }
  auto handle = std::make_unique<Handle>();
  *out = handle.get();
  (state.*map)[handle.get()] = std::move(handle);
  return ACL_SUCCESS;
}

aclError DestroyHandle(const char* api, const char* creator,
                       HandleMap State::*map, void* handle) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  if ((state.*map).erase(handle) == 0) {
    return Fail(ACL_ERROR_INVALID_PARAM, api,
                "handle " + Hex(handle) + " is unknown: it must come from " +
                    creator + " and not be destroyed yet",
                "nothing destroyed");
  }
  return ACL_SUCCESS;
}

const char* KindName(aclrtMemcpyKind kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE:
      return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT:
      return "ACL_MEMCPY_DEFAULT";
  }
  return nullptr;
}

}  // namespace

extern "C" {

aclError aclInit(const char* /*configPath*/) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (state.initialized) {
    return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit",
                "ACL is already initialized: call aclInit once per session "
                "(until aclFinalize)",
                "nothing done");
  }
  // A session that the program's first calls opened goes on: its blocks,
  // contexts and streams stay.
  state.running = true;
  state.initialized = true;
  return ACL_SUCCESS;
}

aclError aclFinalize(void) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  if (!state.running) {
    return Fail(ACL_ERROR_UNINITIALIZE, "aclFinalize",
                "no ACL session is running (aclFinalize was already called, "
                "and no ACL call has been made since)",
                "nothing done");
  }
  for (const Pool pool : {kDevice, kHost}) {
    for (const GmBlock& block : normgrad_ascendc::TakeGmBlocks(pool)) {
      normgrad_ascendc::InitGmReleased(reinterpret_cast<void*>(block.start));
      ::operator delete(reinterpret_cast<void*>(block.start), kAlignment);
    }
  }
  state.contexts.clear();
  state.streams.clear();
  state.running = false;
  state.initialized = false;
  return ACL_SUCCESS;
}

aclError aclrtSetDevice(int32_t deviceId) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  return CheckDevice("aclrtSetDevice", deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) {
  State& state = GetState();
  std::lock_guard<std::mutex> lock(state.mutex);
  Start(state);
  return CheckDevice("aclrtResetDevice", deviceId);
}

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  const aclError device = CheckDevice("aclrtCreateContext", deviceId);
  if (device != ACL_SUCCESS) return device;
  return CreateHandle("aclrtCreateContext", &State::contexts, context);
}

aclError aclrtDestroyContext(aclrtContext context) {
  return DestroyHandle("aclrtDestroyContext", "aclrtCreateContext",
                       &State::contexts, context);
}

aclError aclrtCreateStream(aclrtStream* stream) {
  return CreateHandle("aclrtCreateStream", &State::streams, stream);
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return DestroyHandle("aclrtDestroyStream", "aclrtCreateStream",
                       &State::streams, stream);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  {
    State& state = GetState();
    std::lock_guard<std::mutex> lock(state.mutex);
    Start(state);
    if (stream != nullptr && state.streams.count(stream) == 0) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream",
                  "stream " + Hex(stream) +
                      " is unknown: it must come from aclrtCreateStream (or "
                      "be null, the default stream)",
                  "nothing done");
    }
  }
  return normgrad_ascendc::TakeLaunchError();
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  if (policy != ACL_MEM_MALLOC_HUGE_FIRST &&
      policy != ACL_MEM_MALLOC_HUGE_ONLY &&
      policy != ACL_MEM_MALLOC_NORMAL_ONLY) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc",
                "policy " + std::to_string(static_cast<int>(policy)) +
                    " is not an aclrtMemMallocPolicy (0, 1 or 2)",
                "nothing allocated");
  }
  return Allocate("aclrtMalloc", kDevice, devPtr, size);
}

aclError aclrtFree(void* devPtr) {
  return Release("aclrtFree", kDevice, devPtr);
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return Allocate("aclrtMallocHost", kHost, hostPtr, size);
}

aclError aclrtFreeHost(void* hostPtr) {
  return Release("aclrtFreeHost", kHost, hostPtr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  static constexpr char kApi[] = "aclrtMemcpy";
  static constexpr char kNothing[] = "nothing copied";
  {
    State& state = GetState();
    std::lock_guard<std::mutex> lock(state.mutex);
    Start(state);
    const char* kind_name = KindName(kind);
    if (kind_name == nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM, kApi,
                  "kind " + std::to_string(static_cast<int>(kind)) +
                      " is not an aclrtMemcpyKind (0 to 4)",
                  kNothing);
    }
    if (dst == nullptr || src == nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM, kApi,
                  std::string(dst == nullptr ? "dst" : "src") +
                      " is null: both pointers must be valid",
                  kNothing);
    }
    if (count > destMax) {
      return Fail(ACL_ERROR_INVALID_PARAM, kApi,
                  "count " + std::to_string(count) +
                      " bytes is greater than destMax " +
                      std::to_string(destMax) +
                      " bytes: count must not exceed the destination's "
                      "capacity destMax",
                  kNothing);
    }
    if (kind != ACL_MEMCPY_DEFAULT) {
      const bool dst_device = kind == ACL_MEMCPY_HOST_TO_DEVICE ||
                              kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
      const bool src_device = kind == ACL_MEMCPY_DEVICE_TO_HOST ||
                              kind == ACL_MEMCPY_DEVICE_TO_DEVICE;
      aclError error = CheckSide("dst", dst, dst_device, kind_name);
      if (error != ACL_SUCCESS) return error;
      error = CheckSide("src", src, src_device, kind_name);
      if (error != ACL_SUCCESS) return error;
    }
    aclError error = CheckRange(kApi, "dst", dst, count, true, kNothing);
    if (error != ACL_SUCCESS) return error;
    error = CheckRange(kApi, "src", src, count, false, kNothing);
    if (error != ACL_SUCCESS) return error;
  }
  normgrad_ascendc::InitGmHostWrite(dst, count);
  if (count > 0) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                     size_t count) {
  static constexpr char kApi[] = "aclrtMemset";
  static constexpr char kNothing[] = "nothing written";
  {
    State& state = GetState();
    std::lock_guard<std::mutex> lock(state.mutex);
    Start(state);
    if (devPtr == nullptr) {
      return Fail(ACL_ERROR_INVALID_PARAM, kApi,
                  "devPtr is null: it must be valid", kNothing);
    }
    if (count > maxCount) {
      return Fail(ACL_ERROR_INVALID_PARAM, kApi,
                  "count " + std::to_string(count) +
                      " bytes is greater than maxCount " +
                      std::to_string(maxCount) +
                      " bytes: count must not exceed the destination's "
                      "capacity maxCount",
                  kNothing);
    }
    const aclError error =
        CheckRange(kApi, "devPtr", devPtr, count, true, kNothing);
    if (error != ACL_SUCCESS) return error;
  }
  normgrad_ascendc::InitGmHostWrite(devPtr, count);
  if (count > 0) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

}  // extern "C"

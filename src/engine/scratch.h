// engine/scratch.h — the engine's scratch memory: per-thread buffers that
// only grow, so repeated calls allocate nothing, and the out-of-memory
// Status a call returns when one cannot grow.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

#include "normgrad/status.h"

namespace normgrad::engine {

/// "<api>: cannot allocate <size> (<bytes> bytes) for <what>: out of memory",
/// as an out-of-memory Status. Never throws.
Status OutOfMemory(const char* api, const char* what, size_t bytes) noexcept;

/// "<api>: out of memory": for an allocation failure the engine did not
/// foresee (the catch-all around every API call). Never throws.
Status OutOfMemory(const char* api) noexcept;

/// body() — the body of a call of `api` — with an allocation failure the
/// engine did not foresee returned as OutOfMemory(api): the catch-all
/// around every API call.
template <typename Body>
Status CatchOutOfMemory(const char* api, const Body& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return OutOfMemory(api);
  }
}

/// Makes `buffer` hold at least `floats` floats (it never shrinks; its
/// contents are not to be relied on). On failure, OutOfMemory(api, what, …).
/// `floats` of SIZE_MAX stands for a size that overflows size_t.
Status GrowScratch(std::vector<float>& buffer, size_t floats, const char* api,
                   const char* what) noexcept;

/// a · b, or SIZE_MAX when it overflows.
size_t SaturatingProduct(size_t a, size_t b);

}  // namespace normgrad::engine

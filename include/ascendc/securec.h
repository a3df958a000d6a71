// securec.h — the bounds-checked memory functions of the securec library
// that Ascend C host programs call (docs/program-surface.md, "Bounds-checked
// memory helpers"): memcpy_s and memset_s. acl/acl.h and the tiling headers
// include this header, so programs call them without including it.
//
// Both return EOK (0) on success. On failure they return an error code and
// never write outside [dest, dest + destMax):
//   - dest null, or destMax 0 or above SECUREC_MEM_MAX_LEN: EINVAL, nothing
//     written;
//   - count > destMax: the destMax bytes are cleared (memcpy_s) or set
//     (memset_s), ERANGE_AND_RESET;
//   - memcpy_s with src null: dest cleared, EINVAL_AND_RESET;
//   - memcpy_s with overlapping buffers: dest cleared, EOVERLAP_AND_RESET.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#ifndef EOK
#define EOK 0
#endif

using errno_t = int;

/// The largest destMax the functions accept (2 GiB - 1).
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#define EINVAL_AND_RESET (EINVAL | 128)
#define ERANGE_AND_RESET (ERANGE | 128)
#define EOVERLAP_AND_RESET (54 | 128)

/// Copies count bytes from src to dest, a buffer of destMax bytes (see the
/// file comment for the errors).
inline errno_t memcpy_s(void* dest, size_t destMax, const void* src,
                        size_t count) {
  if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
    return EINVAL;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  const auto d = reinterpret_cast<uintptr_t>(dest);
  const auto s = reinterpret_cast<uintptr_t>(src);
  if (count != 0 && d != s && (d < s ? s - d : d - s) < count) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  // memmove: the buffers do not overlap here, but the compiler cannot
  // always tell, and memmove is as fast for disjoint buffers.
  if (count != 0 && d != s) std::memmove(dest, src, count);
  return EOK;
}

/// Sets count bytes of dest, a buffer of destMax bytes, to c (see the file
/// comment for the errors).
inline errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (dest == nullptr || destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) {
    return EINVAL;
  }
  if (count > destMax) {
    std::memset(dest, c, destMax);
    return ERANGE_AND_RESET;
  }
  std::memset(dest, c, count);
  return EOK;
}

// add_custom_host.h — the host side of the vendor-CMake test projects: runs
// add_custom (z = x + y) through `launch(numBlocks, stream, x, y, z)` on
// device memory from aclrtMalloc and checks every value against the sum the
// host computes (exact: small multiples of 0.5). Prints
// "<form>: add_custom ok (<n> values)" or the first mismatches; returns the
// exit status for main.
#pragma once

#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "add_custom_shape.h"

template <typename Launch>
int RunAddCustom(const char* form, Launch launch) {
  constexpr uint32_t kCount = kBlocks * kTile;
  constexpr size_t kBytes = kCount * sizeof(float);
  std::vector<float> x(kCount), y(kCount), z(kCount, -1.0f);
  for (uint32_t i = 0; i < kCount; ++i) {
    x[i] = 0.5f * static_cast<float>(i);
    y[i] = 3.0f - static_cast<float>(i % 97);
  }
  aclrtStream stream = nullptr;
  void *xDevice = nullptr, *yDevice = nullptr, *zDevice = nullptr;
  bool ok =
      aclInit(nullptr) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS &&
      aclrtCreateStream(&stream) == ACL_SUCCESS &&
      aclrtMalloc(&xDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
      aclrtMalloc(&yDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
      aclrtMalloc(&zDevice, kBytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
      aclrtMemcpy(xDevice, kBytes, x.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS &&
      aclrtMemcpy(yDevice, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS;
  if (ok) {
    launch(kBlocks, stream, static_cast<uint8_t*>(xDevice), static_cast<uint8_t*>(yDevice),
           static_cast<uint8_t*>(zDevice));
    ok = aclrtSynchronizeStream(stream) == ACL_SUCCESS &&
         aclrtMemcpy(z.data(), kBytes, zDevice, kBytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS;
  }
  int mismatches = 0;
  for (uint32_t i = 0; ok && i < kCount; ++i) {
    if (z[i] != x[i] + y[i] && ++mismatches <= 5)
      std::printf("%s: z[%u] = %g, expected %g\n", form, i, z[i], x[i] + y[i]);
  }
  aclrtFree(xDevice);
  aclrtFree(yDevice);
  aclrtFree(zDevice);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  if (!ok || mismatches != 0) {
    std::printf("%s: add_custom FAILED (%d mismatches)\n", form, mismatches);
    return 1;
  }
  std::printf("%s: add_custom ok (%u values)\n", form, kCount);
  return 0;
}

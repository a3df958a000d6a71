// platform_ascendc.cc — the platform queries of host programs
// (tiling/platform/platform_ascendc.h): the process profile's product
// figures, with the NORMGRAD_CORE_NUM_AIC / NORMGRAD_CORE_NUM_AIV overrides.
#include "tiling/platform/platform_ascendc.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace platform_ascendc {

namespace {

// The GM bytes a group barrier keeps per core of its group (as
// GroupBarrier::GetWorkspaceLen counts them, block_sync.h).
constexpr uint32_t kGroupWorkspaceBytesPerCore = 512;

const normgrad_ascendc::ProfileInfo& Profile() {
  return normgrad_ascendc::GetProfileInfo(normgrad_ascendc::CurrentProfile());
}

// The environment variable `name` as a positive count, else `fallback` (an
// invalid value is reported on stderr once per call site's variable).
uint32_t CoreCount(const char* name, uint32_t fallback) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long value = std::strtoul(text, &end, 10);
  if (errno != 0 || *end != '\0' || text[0] == '-' || value == 0 ||
      value > 65535) {
    std::fprintf(stderr,
                 "normgrad: warning: %s \"%s\" is not a core count "
                 "(1..65535); using %u\n",
                 name, text, fallback);
    return fallback;
  }
  return static_cast<uint32_t>(value);
}

}  // namespace

uint32_t PlatformAscendC::GetCoreNum() const { return GetCoreNumAiv(); }

uint32_t PlatformAscendC::GetCoreNumAic() const {
  return CoreCount("NORMGRAD_CORE_NUM_AIC", Profile().aic_cores);
}

uint32_t PlatformAscendC::GetCoreNumAiv() const {
  return CoreCount("NORMGRAD_CORE_NUM_AIV", Profile().aiv_cores);
}

uint32_t PlatformAscendC::GetCoreNumVector() const {
  return Profile().vector_cores;
}

SocVersion PlatformAscendC::GetSocVersion() const {
  switch (Profile().profile) {
    case normgrad_ascendc::Profile::k310P:
      return SocVersion::ASCEND310P;
    case normgrad_ascendc::Profile::k950:
      return SocVersion::ASCEND950;
    case normgrad_ascendc::Profile::kA2:
      break;
  }
  return SocVersion::ASCEND910B;
}

NpuArch PlatformAscendC::GetCurNpuArch() const {
  return static_cast<NpuArch>(Profile().arch);
}

uint32_t PlatformAscendC::GetVecRegLen() const {
  return Profile().profile == normgrad_ascendc::Profile::k950 ? 256 : 0;
}

uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum,
                                            uint32_t aicCoreNum,
                                            uint32_t aivCoreNum) const {
  uint32_t blocks = sliceNum;
  if (aicCoreNum == 0 || aivCoreNum == 0) {
    const uint32_t cores = std::max(aicCoreNum, aivCoreNum);
    if (cores != 0) blocks = std::min(sliceNum, cores);
  } else {
    const uint32_t ratio = std::max(1u, aivCoreNum / aicCoreNum);
    blocks = std::min((sliceNum + ratio - 1) / ratio, aicCoreNum);
  }
  return std::max(blocks, 1u);
}

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType,
                                     uint64_t& size) const {
  using normgrad_ascendc::CubeMemory;
  const normgrad_ascendc::Profile profile = Profile().profile;
  switch (memType) {
    case CoreMemType::UB:
      size = Profile().ub_bytes - reservedUb_;
      return;
    case CoreMemType::L1:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kL1);
      return;
    case CoreMemType::L0_A:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kL0A);
      return;
    case CoreMemType::L0_B:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kL0B);
      return;
    case CoreMemType::L0_C:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kL0C);
      return;
    case CoreMemType::BT:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kBiasTable);
      return;
    case CoreMemType::FB:
      size = normgrad_ascendc::CubeMemoryBytes(profile, CubeMemory::kFixpipe);
      return;
    default:
      size = 0;  // L2, HBM: not emulated
      return;
  }
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize() const {
  return Profile().lib_api_workspace_bytes;
}

void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  switch (size) {
    case ReservedSize::RESERVED_SIZE_8K:
      reservedUb_ = 8 * 1024;
      break;
    case ReservedSize::RESERVED_SIZE_16K:
      reservedUb_ = 16 * 1024;
      break;
    case ReservedSize::RESERVED_SIZE_32K:
      reservedUb_ = 32 * 1024;
      break;
  }
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType,
                                   uint64_t& bwSize) const {
  static_cast<void>(memType);
  bwSize = 0;
}

uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize() const {
  return kGroupWorkspaceBytesPerCore * GetCoreNumAic();
}

uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize() const {
  return kGroupWorkspaceBytesPerCore * GetCoreNumAiv();
}

PlatformAscendC* PlatformAscendCManager::GetInstance() {
  static PlatformAscendC platform(nullptr);
  return &platform;
}

PlatformAscendC* PlatformAscendCManager::GetInstance(const char*) {
  return GetInstance();
}

}  // namespace platform_ascendc

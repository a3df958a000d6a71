// tiling/platform/platform_ascendc.h — the platform queries of Ascend C host
// programs (docs/program-surface.md, "Platform queries"):
// platform_ascendc::PlatformAscendC and PlatformAscendCManager.
//
// Every query answers for the process's product profile
// (normgrad_ascendc/runtime/profile.h: NORMGRAD_PROFILE, else the profile the
// program was compiled for, else a2) with the figures of one real product of it
// (profile.h's table; their sources are in docs/decisions.md). The core
// counts can be overridden for experiments with the environment variables
// NORMGRAD_CORE_NUM_AIC and NORMGRAD_CORE_NUM_AIV (positive integers).
//
// Core counts, as the documentation defines them: on products whose cube and
// vector units are separate cores (a2, 950) GetCoreNumAic is the cube cores,
// GetCoreNumAiv and GetCoreNum the vector cores; where they are one AI Core
// (310p) all three are the AI Cores, and GetCoreNumVector is the separate
// Vector Cores beside them (0 elsewhere).
//
// GetCoreMemSize knows the unified buffer (CoreMemType::UB: the profile's UB
// minus what ReserveLocalMemory reserved) and the cube core's memories (L1,
// L0_A, L0_B, L0_C, BT, FB: normgrad_ascendc/cube/cube_memory.h, 0 on the
// profiles that do not emulate them); L2 and HBM report 0.
#pragma once

#include <cstdint>

#include "securec.h"

namespace fe {
/// The platform description operator projects pass to PlatformAscendC; not
/// used on the CPU (the process profile describes the platform).
class PlatFormInfos;
}  // namespace fe

/// Architecture numbers (GetCurNpuArch), as the documentation lists them.
enum class NpuArch : uint32_t {
  DAV_1001 = 1001,  ///< Atlas training series
  DAV_2002 = 2002,  ///< Atlas inference series (the 310p profile)
  DAV_2201 = 2201,  ///< Atlas A2/A3 (the a2 profile)
  DAV_3002 = 3002,  ///< Atlas 200I/500 A2 inference
  DAV_3510 = 3510,  ///< Ascend 950 (the 950 profile)
};

namespace platform_ascendc {

/// The SoC families a profile reports (GetSocVersion).
enum class SocVersion : uint32_t {
  ASCEND910B,  ///< Atlas A2/A3 (a2)
  ASCEND310P,  ///< Atlas inference series (310p)
  ASCEND950,   ///< Ascend 950 (950)
  RESERVED_VERSION,
};

/// On-chip and off-chip memories (GetCoreMemSize), numbered as documented.
enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8,
  RESERVED,
};

/// Unified-buffer space a tiling function keeps back (ReserveLocalMemory).
enum class ReservedSize {
  RESERVED_SIZE_8K,   ///< 8 KiB
  RESERVED_SIZE_16K,  ///< 16 KiB
  RESERVED_SIZE_32K,  ///< 32 KiB
};

/// The platform of the process profile (see the file comment).
class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  /// platformInfo is accepted and not used (null is fine).
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo)
      : platformInfo_(platformInfo) {}

  /// Vector cores (separate cube and vector cores) or AI Cores (one core).
  uint32_t GetCoreNum() const;
  /// Cube cores, or AI Cores.
  uint32_t GetCoreNumAic() const;
  /// Vector cores, or AI Cores.
  uint32_t GetCoreNumAiv() const;
  /// The separate Vector Cores of the Atlas inference series; else 0.
  uint32_t GetCoreNumVector() const;
  SocVersion GetSocVersion() const;
  NpuArch GetCurNpuArch() const;
  /// The vector register width in bytes on register-based architectures
  /// (950: 256); 0 on the others.
  uint32_t GetVecRegLen() const;
  /// The blocks to launch for `sliceNum` slices: with only one kind of core
  /// in use (the other count 0), min(sliceNum, that count); with both, one
  /// block per cube core and its aivCoreNum / aicCoreNum vector cores, so
  /// ceil(sliceNum / ratio) capped at aicCoreNum. At least 1.
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum,
                             uint32_t aivCoreNum) const;
  /// The size in bytes of a memory (see the file comment).
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  /// The system workspace a launch's workspace argument starts with.
  uint32_t GetLibApiWorkSpaceSize() const;
  /// Keeps `size` of the unified buffer back from GetCoreMemSize(UB); the
  /// last call counts.
  void ReserveLocalMemory(ReservedSize size);
  /// The bandwidth of a memory in bytes per cycle: 0 for every memory, as
  /// normgrad models no timing (docs/decisions.md).
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  /// The workspace CreateCubeResGroup needs: 512 bytes per cube core.
  uint32_t GetResCubeGroupWorkSpaceSize() const;
  /// The workspace a GroupBarrier needs at most: 512 bytes per vector core
  /// (a group of every vector core; GroupBarrier::GetWorkspaceLen is the
  /// exact size for given group sizes).
  uint32_t GetResGroupBarrierWorkSpaceSize() const;

 private:
  [[maybe_unused]] fe::PlatFormInfos* platformInfo_;
  uint32_t reservedUb_ = 0;
};

/// The platform of kernel-launch programs, which have no platformInfo.
class PlatformAscendCManager {
 public:
  /// The one PlatformAscendC of the process.
  static PlatformAscendC* GetInstance();
  /// The same; customSocVersion (the SoC name a CPU-only machine passes) is
  /// accepted and not used: the process profile is the platform.
  static PlatformAscendC* GetInstance(const char* customSocVersion);
};

}  // namespace platform_ascendc

// normgrad_ascendc/runtime/profile.h — the product profiles normgrad emulates:
// unified-buffer (UB) size and where the framework scratch ends, per product,
// and the figures of one real product of each (core counts, system
// workspace) that the platform queries (tiling/platform/platform_ascendc.h)
// report.
//
//   key    product                         arch  UB         scratch ends at
//   a2     Atlas A2/A3 (default)           2201  192 KiB    UB - 128 bytes
//   310p   Atlas inference series AI Core  2002  256 KiB    UB end
//   950    Ascend 950 / Atlas 350          3510  248 KiB    UB end
//
// The process profile comes from the environment variable NORMGRAD_PROFILE
// (a key above), read once at first use; without it, the profile the program
// was compiled for (normgrad-cc --profile, which also sets __NPU_ARCH__),
// else a2. SetProfile overrides both (tools, tests). When NORMGRAD_PROFILE
// names another profile than the one the program was compiled for, the run
// uses NORMGRAD_PROFILE and says once on stderr that code under
// `#if __NPU_ARCH__` follows the compiled one. With NORMGRAD_VERBOSE=1 the
// profile in effect is printed on stderr when it is first read and whenever
// SetProfile changes it.
#pragma once

#include <cstdint>

namespace normgrad_ascendc {

enum class Profile : uint8_t { kA2, k310P, k950 };

struct ProfileInfo {
  Profile profile;
  const char* key;        ///< "a2", "310p", "950"
  const char* name;       ///< "Atlas A2/A3", for messages
  uint32_t arch;          ///< the vendor's architecture number
  uint32_t ub_bytes;      ///< unified buffer per core
  uint32_t scratch_end;   ///< UB offset where queues and framework scratch end
  uint32_t aic_cores;     ///< cube cores (AI Cores where cube and vector
                          ///< are one core) of the product
  uint32_t aiv_cores;     ///< vector cores of the AI Cores (the AI Cores
                          ///< themselves where cube and vector are one core):
                          ///< the most blocks a launch that synchronizes its
                          ///< blocks (SyncAll) may have
  uint32_t vector_cores;  ///< separate Vector Cores beside the AI Cores
                          ///< (Atlas inference series only), else 0
  uint32_t lib_api_workspace_bytes;  ///< the system workspace: what
                                     ///< GetLibApiWorkSpaceSize reports and
                                     ///< GetUserWorkspace skips
};

/// The largest UB of any profile; every emulated core reserves this much.
inline constexpr uint32_t kMaxUbBytes = 256 * 1024;

/// The fixed description of a profile.
const ProfileInfo& GetProfileInfo(Profile profile);

/// Looks a key up ("a2", "310p", "950"; case-insensitive). False if unknown.
bool ParseProfile(const char* key, Profile* profile);

/// The process profile: SetProfile's last value, else NORMGRAD_PROFILE, else
/// the compiled profile, else a2. An unknown NORMGRAD_PROFILE value is a
/// KernelError (core.h) naming the valid keys.
Profile CurrentProfile();

/// The profile the program was compiled for (normgrad-cc, or
/// normgrad_add_ascendc_executable), which fixed its __NPU_ARCH__; false
/// for a program built otherwise.
bool CompiledProfile(Profile* profile);

/// Sets the process profile. Cores pick it up when they are created and when
/// a TPipe is created on them, so set it before a kernel starts.
void SetProfile(Profile profile);

}  // namespace normgrad_ascendc

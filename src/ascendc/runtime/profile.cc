// profile.cc — the product profiles (profile.h): the table of UB sizes,
// scratch ends and product figures (their public sources are in
// docs/decisions.md, "The program model and the toolchain"), the key lookup,
// and the process profile from SetProfile, NORMGRAD_PROFILE or the compiled
// profile, announced under NORMGRAD_VERBOSE.
#include "normgrad_ascendc/runtime/profile.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "ascendc/runtime/env_setting.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

// The system workspace every profile reports: 16 MiB, room enough for the
// library APIs that use it, which normgrad runs without it.
constexpr uint32_t kLibApiWorkspaceBytes = 16 * 1024 * 1024;

constexpr ProfileInfo kProfiles[] = {
    {Profile::kA2, "a2", "Atlas A2/A3", 2201, 192 * 1024, 192 * 1024 - 128, 24,
     48, 0, kLibApiWorkspaceBytes},
    {Profile::k310P, "310p", "Atlas inference series", 2002, 256 * 1024,
     256 * 1024, 8, 8, 7, kLibApiWorkspaceBytes},
    {Profile::k950, "950", "Ascend 950", 3510, 248 * 1024, 248 * 1024, 36, 72,
     0, kLibApiWorkspaceBytes},
};

bool Verbose() {
  static const bool verbose = [] {
    const char* value = std::getenv("NORMGRAD_VERBOSE");
    return value != nullptr && *value != '\0' && std::strcmp(value, "0") != 0;
  }();
  return verbose;
}

void Announce(Profile profile) {
  if (!Verbose()) return;
  const ProfileInfo& p = GetProfileInfo(profile);
  std::fprintf(stderr,
               "normgrad: profile %s: %s (arch %u), unified buffer %u bytes, "
               "framework scratch ends at %u\n",
               p.key, p.name, p.arch, p.ub_bytes, p.scratch_end);
}

// NORMGRAD_PROFILE, else the compiled profile, else a2; announced when read.
Profile ParseEnvironmentProfile(const char* value) {
  Profile compiled = Profile::kA2;
  const bool has_compiled = CompiledProfile(&compiled);
  Profile p = compiled;
  if (value != nullptr && *value != '\0') {
    if (!ParseProfile(value, &p)) {
      Fail(
          "NORMGRAD_PROFILE: unknown profile \"%s\"; valid: a2 (Atlas "
          "A2/A3), 310p (Atlas inference series), 950 (Ascend 950)",
          value);
    }
    if (has_compiled && p != compiled) {
      const ProfileInfo& run = GetProfileInfo(p);
      const ProfileInfo& built = GetProfileInfo(compiled);
      std::fprintf(stderr,
                   "normgrad: warning: NORMGRAD_PROFILE=%s runs the program "
                   "on %s cores, but it was compiled for %s (__NPU_ARCH__ "
                   "%u): code under #if __NPU_ARCH__ follows %s; rebuild "
                   "with --profile %s to match\n",
                   run.key, run.name, built.key, built.arch, built.key,
                   run.key);
    }
  }
  Announce(p);
  return p;
}

EnvSetting<Profile> g_profile{"NORMGRAD_PROFILE", ParseEnvironmentProfile};

}  // namespace

}  // namespace normgrad_ascendc

// Defined by the translation unit normgrad-cc (or
// normgrad_add_ascendc_executable) compiles into every program: the key of
// the profile it was compiled for. Weak, so programs built otherwise link
// and see null.
extern "C" __attribute__((weak)) const char* const normgrad_compiled_profile;

namespace normgrad_ascendc {

bool CompiledProfile(Profile* profile) {
  const char* const* key = &normgrad_compiled_profile;
  return key != nullptr && *key != nullptr && ParseProfile(*key, profile);
}

const ProfileInfo& GetProfileInfo(Profile profile) {
  return kProfiles[static_cast<int>(profile)];
}

bool ParseProfile(const char* key, Profile* profile) {
  for (const ProfileInfo& p : kProfiles) {
    size_t i = 0;
    while (p.key[i] != '\0' &&
           std::tolower(static_cast<unsigned char>(key[i])) == p.key[i]) {
      ++i;
    }
    if (p.key[i] == '\0' && key[i] == '\0') {
      *profile = p.profile;
      return true;
    }
  }
  return false;
}

Profile CurrentProfile() { return g_profile.Get(); }

void SetProfile(Profile profile) {
  if (g_profile.Set(profile)) Announce(profile);
}

}  // namespace normgrad_ascendc

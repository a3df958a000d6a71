// profile.cc — the product profiles (profile.h): the table of UB sizes and
// scratch ends, the key lookup, and the process profile from
// NORMGRAD_PROFILE or SetProfile, announced under NORMGRAD_VERBOSE.
#include "normgrad_ascendc/profile.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "env_setting.h"
#include "normgrad_ascendc/core.h"

namespace normgrad_ascendc {

namespace {

constexpr ProfileInfo kProfiles[] = {
    {Profile::kA2, "a2", "Atlas A2/A3", 2201, 192 * 1024, 192 * 1024 - 128,
     24, 48},
    {Profile::k310P, "310p", "Atlas inference series", 2002, 256 * 1024,
     256 * 1024, 8, 7},
    {Profile::k950, "950", "Ascend 950", 3510, 248 * 1024, 248 * 1024, 32, 64},
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

// NORMGRAD_PROFILE, announced when read.
Profile ParseEnvironmentProfile(const char* value) {
  Profile p = Profile::kA2;
  if (value != nullptr && *value != '\0' && !ParseProfile(value, &p)) {
    Fail(
        "NORMGRAD_PROFILE: unknown profile \"%s\"; valid: a2 (Atlas A2/A3), "
        "310p (Atlas inference series), 950 (Ascend 950)",
        value);
  }
  Announce(p);
  return p;
}

EnvSetting<Profile> g_profile{"NORMGRAD_PROFILE", ParseEnvironmentProfile};

}  // namespace

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

// system_query.cc — the core queries of system_query.h: the profile check,
// the architecture number, the program counter, the SSBuffer and AR.
#include "normgrad_ascendc/runtime/system_query.h"

#include <cstdint>
#include <initializer_list>

namespace normgrad_ascendc {

void RequireProfile(const char* api, std::initializer_list<Profile> profiles,
                    const char* where) {
  const ProfileInfo& info = CurrentCore().profile();
  for (Profile p : profiles) {
    if (p == info.profile) return;
  }
  Fail("%s: not supported on %s (it exists on %s)", api, info.name, where);
}

uint32_t ArchVersion() {
  RequireProfile("GetArchVersion",
                 {Profile::kA2, Profile::k310P, Profile::k950},
                 "Atlas A2/A3, the Atlas inference series and the 950");
  // The decimal digits of the architecture number read as hexadecimal.
  uint32_t arch = CurrentCore().profile().arch;
  uint32_t hex = 0;
  for (uint32_t shift = 0; arch != 0; arch /= 10, shift += 4) {
    hex |= (arch % 10) << shift;
  }
  return hex;
}

int64_t ProgramCounter(const void* return_address) {
  RequireProfile("GetProgramCounter",
                 {Profile::kA2, Profile::k310P, Profile::k950},
                 "Atlas A2/A3, the Atlas inference series and the 950");
  return static_cast<int64_t>(reinterpret_cast<uintptr_t>(return_address));
}

void* SsbufBase() {
  RequireProfile("GetSsbufBaseAddr", {Profile::k950}, "the 950");
  return CurrentCore().ssbuf();
}

int64_t GetSprImpl(const char* api) {
  RequireProfile(api, {Profile::k950}, "the 950");
  return CurrentCore().spr_ar();
}

void ClearSprImpl() {
  RequireProfile("ClearSpr", {Profile::k950}, "the 950");
  CurrentCore().spr_ar() = 0;
}

void CheckAsync() {
  RequireProfile("Async", {Profile::kA2, Profile::k950},
                 "Atlas A2/A3 and the 950");
}

}  // namespace normgrad_ascendc

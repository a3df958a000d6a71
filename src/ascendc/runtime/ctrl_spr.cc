// ctrl_spr.cc — the CTRL register of an emulated core (ctrl_spr.h): its
// default per profile, the documented bit ranges and the reads and writes.
#include "normgrad_ascendc/runtime/ctrl_spr.h"

#include <cstdint>

namespace normgrad_ascendc {

namespace {

struct BitRange {
  int start;
  int end;
  bool resettable;  ///< ResetCtrlSpr accepts it too
};

// The ranges SetCtrlSpr and ResetCtrlSpr accept, per profile.
constexpr BitRange kA2Ranges[] = {{48, 48, true}};
constexpr BitRange k950Ranges[] = {
    {6, 8, true},   {9, 10, true},  {45, 45, false}, {48, 48, true},
    {50, 50, true}, {53, 53, true}, {59, 59, true},  {60, 60, true}};

constexpr uint64_t k950Default = uint64_t{1} << 60;

uint64_t FieldMask(int start, int end) {
  const int width = end - start + 1;
  return (width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1) << start;
}

// Fails unless [start, end] is a range `api` accepts on the running profile.
void CheckRange(const char* api, int start, int end, bool reset) {
  const ProfileInfo& info = CurrentCore().profile();
  const BitRange* ranges = nullptr;
  size_t count = 0;
  const char* listed = "";
  switch (info.profile) {
    case Profile::kA2:
      ranges = kA2Ranges;
      count = sizeof kA2Ranges / sizeof kA2Ranges[0];
      listed = "CTRL[48]";
      break;
    case Profile::k950:
      ranges = k950Ranges;
      count = sizeof k950Ranges / sizeof k950Ranges[0];
      listed = reset ? "CTRL[8:6], [10:9], [48], [50], [53], [59], [60]"
                     : "CTRL[8:6], [10:9], [45], [48], [50], [53], [59], [60]";
      break;
    case Profile::k310P:
      Fail(
          "%s: not supported on %s (the CTRL register APIs exist on Atlas "
          "A2/A3 and the 950)",
          api, info.name);
  }
  for (size_t i = 0; i < count; ++i) {
    if (ranges[i].start == start && ranges[i].end == end &&
        (ranges[i].resettable || !reset)) {
      return;
    }
  }
  Fail("%s: CTRL[%d:%d] is not a field it accepts on %s; it accepts %s", api,
       end, start, info.name, listed);
}

}  // namespace

uint64_t DefaultCtrl(Profile profile) {
  return profile == Profile::k950 ? k950Default : 0;
}

void SetCtrlSprImpl(int start, int end, int64_t value) {
  CheckRange("SetCtrlSpr", start, end, false);
  const int width = end - start + 1;
  if (value < 0 || static_cast<uint64_t>(value) >= (uint64_t{1} << width)) {
    Fail(
        "SetCtrlSpr: value %lld does not fit CTRL[%d:%d] (%d bits: 0 to "
        "%llu)",
        static_cast<long long>(value), end, start, width,
        static_cast<unsigned long long>((uint64_t{1} << width) - 1));
  }
  uint64_t& ctrl = CurrentCore().ctrl();
  const uint64_t mask = FieldMask(start, end);
  ctrl = (ctrl & ~mask) | (static_cast<uint64_t>(value) << start);
}

int64_t GetCtrlSprImpl(int start, int end) {
  const uint64_t field = CurrentCore().ctrl() & FieldMask(start, end);
  return static_cast<int64_t>(field >> start);
}

void ResetCtrlSprImpl(int start, int end) {
  CheckRange("ResetCtrlSpr", start, end, true);
  Core& core = CurrentCore();
  const uint64_t mask = FieldMask(start, end);
  core.ctrl() =
      (core.ctrl() & ~mask) | (DefaultCtrl(core.profile().profile) & mask);
}

}  // namespace normgrad_ascendc

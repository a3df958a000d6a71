// ctrl_spr.cc — the CTRL register of an emulated core (ctrl_spr.h): its
// default per profile, the documented bit ranges, the reads and writes, and
// the saturation flags of Atlas A2/A3, which are bits 48 and 59 of it.
#include "normgrad_ascendc/runtime/ctrl_spr.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

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
// CTRL[48] = 1: the INF/NAN mode (docs/decisions.md, "Saturation flags").
constexpr int kFloatBit = 48;
// CTRL[59] = 0: conversions saturate (the 950 page's meaning of the bit).
constexpr int kCastBit = 59;
constexpr uint64_t kA2Default = uint64_t{1} << kFloatBit;

bool Bit(uint64_t ctrl, int bit) { return (ctrl >> bit & 1) != 0; }

// The bit a saturation mode is, and whether the mode is on when it is set:
// FLOAT saturates when CTRL[48] is 0, CAST keeps low bits when CTRL[59] is 1.
int BitOf(AscendC::SaturationMode mode) {
  return mode == AscendC::SaturationMode::FLOAT ? kFloatBit : kCastBit;
}

// Fails unless the running profile has the saturation flags.
void CheckSaturationProfile(const char* api) {
  const ProfileInfo& info = CurrentCore().profile();
  if (info.profile != Profile::kA2) {
    Fail(
        "%s: not supported on %s (the saturation flags exist on Atlas A2/A3 "
        "only)",
        api, info.name);
  }
}

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

std::atomic<bool> g_ctrl_written{false};

uint64_t DefaultCtrl(Profile profile) {
  switch (profile) {
    case Profile::kA2:
      return kA2Default;
    case Profile::k950:
      return k950Default;
    case Profile::k310P:
      break;
  }
  return 0;
}

bool FloatSaturationOnCore() {
  Core& core = CurrentCore();
  return core.profile().profile == Profile::kA2 && !Bit(core.ctrl(), kFloatBit);
}

bool CastTruncatesOnCore() {
  Core& core = CurrentCore();
  return core.profile().profile == Profile::kA2 && Bit(core.ctrl(), kCastBit);
}

void SaturateFloat16(bool bfloat16, void* data, uint64_t n) {
  // An exponent of all ones is inf (mantissa 0) or NaN; MAX is the largest
  // finite value.
  const uint16_t exponent = bfloat16 ? 0x7F80 : 0x7C00;
  const uint16_t max = bfloat16 ? 0x7F7F : 0x7BFF;
  auto* p = static_cast<uint8_t*>(data);
  for (uint64_t i = 0; i < n; ++i) {
    uint16_t v;
    std::memcpy(&v, p + 2 * i, 2);
    if ((v & exponent) != exponent) continue;
    const bool nan = (v & ~(exponent | 0x8000u)) != 0;
    v = nan ? 0 : static_cast<uint16_t>((v & 0x8000u) | max);
    std::memcpy(p + 2 * i, &v, 2);
  }
}

void SaturateFloat32(float* data, uint64_t n) {
  for (uint64_t i = 0; i < n; ++i) {
    const float v = data[i];
    if (std::isnan(v)) {
      data[i] = 0.0f;
    } else if (std::isinf(v)) {
      data[i] = std::copysign(std::numeric_limits<float>::max(), v);
    }
  }
}

void SetOverflowImpl(uint64_t value) {
  Core& core = CurrentCore();
  if (core.profile().profile == Profile::k310P) return;
  uint64_t& ctrl = core.ctrl();
  ctrl = (ctrl & ~(uint64_t{1} << kFloatBit)) |
         (uint64_t{value != 0} << kFloatBit);
  NoteCtrlWritten();
}

void SetSaturationFlagImpl(const char* api, AscendC::SaturationMode mode,
                           bool enable) {
  CheckSaturationProfile(api);
  const int bit = BitOf(mode);
  uint64_t& ctrl = CurrentCore().ctrl();
  // Both bits are set when the mode is off (INF/NAN kept, low bits kept).
  ctrl = (ctrl & ~(uint64_t{1} << bit)) | (uint64_t{!enable} << bit);
  NoteCtrlWritten();
}

bool GetSaturationFlagImpl(const char* api, AscendC::SaturationMode mode) {
  CheckSaturationProfile(api);
  return !Bit(CurrentCore().ctrl(), BitOf(mode));
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
  NoteCtrlWritten();
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
  NoteCtrlWritten();
}

}  // namespace normgrad_ascendc

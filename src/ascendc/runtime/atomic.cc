// atomic.cc — the block's atomic mode and how a write under it combines with
// global memory (normgrad_ascendc/runtime/atomic.h): element by element,
// computing in the mode's type (half and bfloat16 widen to float, combine and
// round back to nearest even, which gives the bits of computing in the 16-bit
// type, then saturate in the FLOAT saturation mode, ctrl_spr.h; integers wrap
// around).
#include "normgrad_ascendc/runtime/atomic.h"

#include <cstring>

#include "normgrad_ascendc/runtime/ctrl_spr.h"

#include "ascendc/runtime/gm_store.h"
#include "ascendc/runtime/launch_state.h"
#include "ascendc/runtime/race_check.h"

namespace normgrad_ascendc {

namespace {

template <typename T>
T Combine(AtomicModeOp op, T old, T value) {
  switch (op) {
    case AtomicModeOp::kAdd:
      if constexpr (std::is_integral_v<T>) {
        using U = std::make_unsigned_t<T>;
        return static_cast<T>(
            static_cast<U>(static_cast<U>(old) + static_cast<U>(value)));
      } else {
        return static_cast<T>(static_cast<float>(old) +
                              static_cast<float>(value));
      }
    case AtomicModeOp::kMax:
      return value > old ? value : old;
    case AtomicModeOp::kMin:
      return value < old ? value : old;
    case AtomicModeOp::kNone:
      break;
  }
  return value;
}

template <typename T>
void CombineAll(AtomicModeOp op, uint8_t* dst, const uint8_t* src,
                uint64_t bytes) {
  for (uint64_t offset = 0; offset + sizeof(T) <= bytes; offset += sizeof(T)) {
    T old;
    T value;
    std::memcpy(&old, dst + offset, sizeof(T));
    std::memcpy(&value, src + offset, sizeof(T));
    const T result = Combine(op, old, value);
    std::memcpy(dst + offset, &result, sizeof(T));
  }
}

}  // namespace

uint32_t AtomicElementBytes(AscendC::AtomicDtype type) {
  using AscendC::AtomicDtype;
  switch (type) {
    case AtomicDtype::ATOMIC_F32:
    case AtomicDtype::ATOMIC_S32:
      return 4;
    case AtomicDtype::ATOMIC_F16:
    case AtomicDtype::ATOMIC_S16:
    case AtomicDtype::ATOMIC_BF16:
      return 2;
    case AtomicDtype::ATOMIC_S8:
    case AtomicDtype::ATOMIC_NONE:
      break;
  }
  return 1;
}

std::string AtomicModeName(const AtomicMode& mode) {
  static const char* const kOps[] = {"DisableDmaAtomic", "SetAtomicAdd",
                                     "SetAtomicMax", "SetAtomicMin"};
  static const char* const kTypes[] = {
      "", "float", "half", "int16_t", "int32_t", "int8_t", "bfloat16_t"};
  std::string name = kOps[static_cast<int>(mode.op)];
  if (mode.op != AtomicModeOp::kNone) {
    name += std::string("<") + kTypes[static_cast<int>(mode.type)] + ">";
  }
  return name;
}

void ApplyWrite(uint8_t* dst, const uint8_t* src, uint64_t bytes,
                AtomicMode mode) {
  using AscendC::AtomicDtype;
  if (mode.op == AtomicModeOp::kNone) {
    CopyBytes(dst, src, bytes);
    return;
  }
  switch (mode.type) {
    case AtomicDtype::ATOMIC_F32:
      return CombineAll<float>(mode.op, dst, src, bytes);
    case AtomicDtype::ATOMIC_F16:
      CombineAll<half>(mode.op, dst, src, bytes);
      if (mode.saturate) SaturateFloat16(false, dst, bytes / 2);
      return;
    case AtomicDtype::ATOMIC_BF16:
      CombineAll<bfloat16_t>(mode.op, dst, src, bytes);
      if (mode.saturate) SaturateFloat16(true, dst, bytes / 2);
      return;
    case AtomicDtype::ATOMIC_S32:
      return CombineAll<int32_t>(mode.op, dst, src, bytes);
    case AtomicDtype::ATOMIC_S16:
      return CombineAll<int16_t>(mode.op, dst, src, bytes);
    case AtomicDtype::ATOMIC_S8:
      return CombineAll<int8_t>(mode.op, dst, src, bytes);
    case AtomicDtype::ATOMIC_NONE:
      break;
  }
  CopyBytes(dst, src, bytes);
}

void SetAtomicMode(AtomicModeOp op, AscendC::AtomicDtype type) {
  CurrentBlock().atomic = AtomicMode{op, type};
}

void SetAtomicModeType(AscendC::AtomicDtype type) {
  CurrentBlock().atomic.type = type;
}

void GetAtomicMode(uint16_t& type, uint16_t& op) {
  const AtomicMode& mode = CurrentBlock().atomic;
  type = mode.op == AtomicModeOp::kNone ? 0 : static_cast<uint16_t>(mode.type);
  op = 0;
}

std::mutex& ScalarAtomicMutex() {
  static std::mutex mutex;
  return mutex;
}

void NoteScalarAtomic(const char* api, const void* address, uint32_t bytes) {
  NoteGmAccess(api, address, bytes, /*write=*/true, /*atomic=*/true);
}

}  // namespace normgrad_ascendc

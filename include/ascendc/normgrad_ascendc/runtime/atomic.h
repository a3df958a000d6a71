// normgrad_ascendc/runtime/atomic.h — atomic writes into global memory
// (docs/runtime.md, "Atomics"): the block's atomic mode for data moved into
// GM (SetAtomicAdd/Max/Min<T>, SetAtomicType<T>, SetStoreAtomicConfig,
// GetStoreAtomicConfig, DisableDmaAtomic, SetAtomicNone) and the scalar GM
// atomics (AtomicAdd, AtomicMax, AtomicMin, AtomicCas, AtomicExch).
//
// Under an atomic mode every write of kernel data into GM (DataCopy,
// DataCopyPad, GlobalTensor::SetValue) combines element by element with what
// is there, computing in the mode's type. In a launch of several blocks the
// combined writes are deferred: each block logs them in its program order,
// and the logs are applied in block order at the next SyncAll the block
// takes part in and at the launch's end, so the result has the same bits on
// every run for any host thread count. In a one-block launch they apply at
// once. Scalar atomics apply at once, under one lock.
#pragma once

#include <cstdint>
#include <mutex>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

namespace AscendC {

/// The atomic element type of SetStoreAtomicConfig, numbered as
/// GetStoreAtomicConfig reports it.
enum class AtomicDtype : uint8_t {
  ATOMIC_NONE = 0,
  ATOMIC_F32,
  ATOMIC_F16,
  ATOMIC_S16,
  ATOMIC_S32,
  ATOMIC_S8,
  ATOMIC_BF16,
};

/// The operation of SetStoreAtomicConfig: only a sum is documented.
enum class AtomicOp : uint8_t { ATOMIC_SUM = 0 };

}  // namespace AscendC

namespace normgrad_ascendc {

/// The operations of a block's atomic mode.
enum class AtomicModeOp : uint8_t { kNone, kAdd, kMax, kMin };

/// Sets the current block's atomic mode. `type` is an AtomicDtype value;
/// keep_op: SetAtomicType changes only the type.
void SetAtomicMode(AtomicModeOp op, AscendC::AtomicDtype type);
void SetAtomicModeType(AscendC::AtomicDtype type);
/// The current block's mode as GetStoreAtomicConfig reports it.
void GetAtomicMode(uint16_t& type, uint16_t& op);

/// The AtomicDtype of a type the data-movement atomics take, else
/// ATOMIC_NONE.
template <typename T>
constexpr AscendC::AtomicDtype AtomicDtypeOf() {
  using AscendC::AtomicDtype;
  if constexpr (std::is_same_v<T, float>) return AtomicDtype::ATOMIC_F32;
  if constexpr (std::is_same_v<T, half>) return AtomicDtype::ATOMIC_F16;
  if constexpr (std::is_same_v<T, int16_t>) return AtomicDtype::ATOMIC_S16;
  if constexpr (std::is_same_v<T, int32_t>) return AtomicDtype::ATOMIC_S32;
  if constexpr (std::is_same_v<T, int8_t>) return AtomicDtype::ATOMIC_S8;
  if constexpr (std::is_same_v<T, bfloat16_t>) return AtomicDtype::ATOMIC_BF16;
  return AtomicDtype::ATOMIC_NONE;
}

/// The lock every scalar GM atomic takes.
std::mutex& ScalarAtomicMutex();

/// Logs a scalar atomic's access for the race check (docs/checks.md): an
/// atomic write, which races with no other atomic.
void NoteScalarAtomic(const char* api, const void* address, uint32_t bytes);

/// A scalar atomic: *address = update(*address) under the lock; returns
/// the old value. `api` names the call for the null-address error.
template <typename T, typename Update>
T ScalarAtomic(const char* api, __gm__ T* address, Update update) {
  if (address == nullptr) {
    Fail("%s: address is null; a scalar atomic needs a global-memory address",
         api);
  }
  NoteScalarAtomic(api, address, sizeof(T));
  const std::lock_guard<std::mutex> lock(ScalarAtomicMutex());
  const T old = *address;
  *address = update(old);
  return old;
}

template <typename T>
constexpr bool kScalarArithmeticAtomicType =
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, int64_t> ||
    std::is_same_v<T, uint64_t>;
template <typename T>
constexpr bool kScalarExchangeAtomicType =
    std::is_same_v<T, uint32_t> || std::is_same_v<T, uint64_t>;

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_DMA_ATOMIC_TYPE_CHECK(api)                                 \
  static_assert(                                                            \
      normgrad_ascendc::AtomicDtypeOf<T>() != AtomicDtype::ATOMIC_NONE, api \
      ": T must be int8_t, int16_t, half, bfloat16_t, int32_t "             \
      "or float")

/// Data moved into GM from now on is added to what is there, in type T.
template <typename T>
inline void SetAtomicAdd(normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DMA_ATOMIC_TYPE_CHECK("SetAtomicAdd");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicMode(normgrad_ascendc::AtomicModeOp::kAdd,
                                  normgrad_ascendc::AtomicDtypeOf<T>());
}

/// Data moved into GM from now on keeps the larger of it and what is there.
template <typename T>
inline void SetAtomicMax(normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DMA_ATOMIC_TYPE_CHECK("SetAtomicMax");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicMode(normgrad_ascendc::AtomicModeOp::kMax,
                                  normgrad_ascendc::AtomicDtypeOf<T>());
}

/// Data moved into GM from now on keeps the smaller of it and what is there.
template <typename T>
inline void SetAtomicMin(normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DMA_ATOMIC_TYPE_CHECK("SetAtomicMin");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicMode(normgrad_ascendc::AtomicModeOp::kMin,
                                  normgrad_ascendc::AtomicDtypeOf<T>());
}

/// Sets only the element type of the atomic mode (the operation stays).
template <typename T>
inline void SetAtomicType(normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_DMA_ATOMIC_TYPE_CHECK("SetAtomicType");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicModeType(normgrad_ascendc::AtomicDtypeOf<T>());
}

#undef NORMGRAD_DMA_ATOMIC_TYPE_CHECK

/// Data moved into GM from now on overwrites what is there.
inline void DisableDmaAtomic(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicMode(normgrad_ascendc::AtomicModeOp::kNone,
                                  AtomicDtype::ATOMIC_NONE);
}

/// The older name of DisableDmaAtomic.
inline void SetAtomicNone(normgrad_ascendc::CallSite site = {}) {
  DisableDmaAtomic(site);
}

/// Turns the atomic sum in `type` on (ATOMIC_NONE: off).
template <AtomicDtype type, AtomicOp op>
inline void SetStoreAtomicConfig(normgrad_ascendc::CallSite site = {}) {
  static_assert(op == AtomicOp::ATOMIC_SUM,
                "SetStoreAtomicConfig: the only operation is ATOMIC_SUM");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::SetAtomicMode(type == AtomicDtype::ATOMIC_NONE
                                      ? normgrad_ascendc::AtomicModeOp::kNone
                                      : normgrad_ascendc::AtomicModeOp::kAdd,
                                  type);
}

/// The atomic mode: atomicType as AtomicDtype's numbers (0: none),
/// atomicOp 0 (sum).
inline void GetStoreAtomicConfig(uint16_t& atomicType, uint16_t& atomicOp,
                                 normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::GetAtomicMode(atomicType, atomicOp);
}

#define NORMGRAD_SCALAR_ATOMIC_TYPE_CHECK(api)                        \
  static_assert(normgrad_ascendc::kScalarArithmeticAtomicType<T>, api \
                ": T must be int32_t, uint32_t, float, int64_t or "   \
                "uint64_t")

/// *address += value; returns the old value.
template <typename T>
inline T AtomicAdd(__gm__ T* address, T value,
                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_SCALAR_ATOMIC_TYPE_CHECK("AtomicAdd");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ScalarAtomic("AtomicAdd", address, [value](T old) {
    return static_cast<T>(old + value);
  });
}

/// *address = max(*address, value); returns the old value.
template <typename T>
inline T AtomicMax(__gm__ T* address, T value,
                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_SCALAR_ATOMIC_TYPE_CHECK("AtomicMax");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ScalarAtomic("AtomicMax", address, [value](T old) {
    return value > old ? value : old;
  });
}

/// *address = min(*address, value); returns the old value.
template <typename T>
inline T AtomicMin(__gm__ T* address, T value,
                   normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_SCALAR_ATOMIC_TYPE_CHECK("AtomicMin");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ScalarAtomic("AtomicMin", address, [value](T old) {
    return value < old ? value : old;
  });
}

#undef NORMGRAD_SCALAR_ATOMIC_TYPE_CHECK

/// *address = (*address == value1 ? value2 : *address); returns the old
/// value.
template <typename T>
inline T AtomicCas(__gm__ T* address, T value1, T value2,
                   normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kScalarExchangeAtomicType<T>,
                "AtomicCas: T must be uint32_t or uint64_t");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ScalarAtomic(
      "AtomicCas", address,
      [value1, value2](T old) { return old == value1 ? value2 : old; });
}

/// *address = value; returns the old value.
template <typename T>
inline T AtomicExch(__gm__ T* address, T value,
                    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kScalarExchangeAtomicType<T>,
                "AtomicExch: T must be uint32_t or uint64_t");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ScalarAtomic("AtomicExch", address,
                                        [value](T) { return value; });
}

}  // namespace AscendC

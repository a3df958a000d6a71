// normgrad_ascendc/runtime/local_mem_allocator.h — static tensor programming
// without a TPipe (docs/runtime.md, "Memory and queues"): Hardware,
// LocalMemAllocator (tensors carved front to back from the UB), InitSocState
// and GetUBSizeInBytes.
//
// LocalMemAllocator<Hardware::UB> hands out LocalTensors one after another
// from UB address 0, each rounded up to 32 bytes; GetCurAddr() is the next
// free address. Asking for more than the UB holds, or allocating on a core
// whose TPipe owns the UB (the two must not be mixed), is a KernelError. Only
// the UB exists on the emulated vector core: other Hardware values do not
// compile.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The physical memories of an AI core.
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

}  // namespace AscendC

namespace normgrad_ascendc {

/// Checks and advances a LocalMemAllocator's cursor for `bytes` of
/// `type_name`; returns the tensor's address.
uint32_t AllocStatic(uint32_t* cursor, const char* type_name, uint64_t bytes);

}  // namespace normgrad_ascendc

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard == Hardware::UB,
                "LocalMemAllocator: normgrad emulates the vector core's "
                "unified buffer (Hardware::UB) only");

 public:
  LocalMemAllocator() = default;

  /// The next free address of the UB.
  uint32_t GetCurAddr() const { return cursor_; }

  /// A tensor of tileSize elements at position pos.
  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(normgrad_ascendc::CallSite site = {}) {
    return Alloc<pos, DataType>(tileSize, site);
  }
  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc(normgrad_ascendc::CallSite site = {}) {
    return Alloc<TPosition::VECCALC, DataType>(tileSize, site);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize,
                              normgrad_ascendc::CallSite site = {}) {
    return Alloc<TPosition::VECCALC, DataType>(tileSize, site);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize,
                              normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    const uint32_t addr = normgrad_ascendc::AllocStatic(
        &cursor_, normgrad_ascendc::TypeName<DataType>(),
        uint64_t{tileSize} * sizeof(DataType));
    if (normgrad_ascendc::SyncCheckOn()) {
      normgrad_ascendc::NoteUbAllocation(
          addr, uint64_t{tileSize} * sizeof(DataType),
          "a LocalMemAllocator tile", "LocalMemAllocator::Alloc");
    }
    return LocalTensor<DataType>(pos, addr, tileSize);
  }

 private:
  uint32_t cursor_ = 0;
};

/// Puts the core's state registers to their defaults at a kernel's start.
/// Every emulated block starts from them already, so there is nothing to do.
inline void InitSocState() {}

/// The size of the current core's UB in bytes (the profile's). Not constexpr
/// as on the device: the profile is chosen when the program runs.
inline uint32_t GetUBSizeInBytes() {
  return normgrad_ascendc::CurrentCore().ub_size();
}

}  // namespace AscendC

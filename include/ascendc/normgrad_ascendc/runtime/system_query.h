// normgrad_ascendc/runtime/system_query.h — what a kernel asks about the
// core it runs on (docs/runtime.md, "System queries"): GetVecLen,
// GetDataBlockSizeInBytes, GetArchVersion, GetProgramCounter,
// GetSsbufBaseAddr, the special-purpose register AR (GetSpr, ClearSpr),
// Async with EngineType, and the profile check these share.
//
// Values. GetVecLen is the 950's vector register width, 256 bytes;
// GetDataBlockSizeInBytes the data block, 32 bytes on every profile.
// GetArchVersion writes the profile's architecture number as hexadecimal
// digits (0x2201 on a2, 0x2002 on 310p, 0x3510 on 950), so that `%x` prints
// the number the product is known by. GetProgramCounter returns the code
// address the call returns to: different call sites give different values,
// one call site the same value each time. GetSsbufBaseAddr returns the
// current core's 1 KiB SSBuffer (a vector core's share outside MIX mode),
// 32-byte aligned, kept across blocks as the device keeps stale data.
// AR is 0 when a block starts; ClearSpr sets it to 0 (no modelled
// instruction writes it: it belongs to the 950's register-model Squeeze).
// Async runs funPtr(args...) for EngineType::AIV and nothing for
// EngineType::AIC: every emulated core is a vector core.
//
// Profiles. GetVecLen, GetSsbufBaseAddr, GetSpr and ClearSpr exist on the
// 950 only, GetArchVersion and GetProgramCounter on a2, 310p and 950, Async
// on a2 and 950; a call on another profile is a KernelError naming the API
// and the products that have it (GetVecLen, being constexpr, is not checked).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// Fails unless the current core's profile is one of `profiles`, with
/// "<api>: not supported on <product> (it exists on <where>)".
void RequireProfile(const char* api, std::initializer_list<Profile> profiles,
                    const char* where);

/// The untyped parts of the APIs below (system_query.cc).
uint32_t ArchVersion();
int64_t ProgramCounter(const void* return_address);
void* SsbufBase();
int64_t GetSprImpl(const char* api);
void ClearSprImpl();
void CheckAsync();

}  // namespace normgrad_ascendc

namespace AscendC {

/// The vector register width in bytes (950).
constexpr uint32_t GetVecLen() { return 256; }

/// The bytes of one data block (32 on every product).
constexpr int16_t GetDataBlockSizeInBytes() { return 32; }

/// The architecture number of the product, in hexadecimal digits.
inline void GetArchVersion(uint32_t& coreVersion,
                           normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  coreVersion = normgrad_ascendc::ArchVersion();
}

/// Where the program is: the address this call returns to.
__attribute__((noinline)) inline int64_t GetProgramCounter(
    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::ProgramCounter(__builtin_return_address(0));
}

/// The current core's SSBuffer (950).
inline void* GetSsbufBaseAddr(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::SsbufBase();
}

/// The special-purpose registers GetSpr and ClearSpr reach.
enum class SpecialPurposeReg : uint8_t { AR };

/// The value of a special-purpose register (950).
template <SpecialPurposeReg spr>
inline int64_t GetSpr(normgrad_ascendc::CallSite site = {}) {
  static_assert(spr == SpecialPurposeReg::AR, "GetSpr: spr must be AR");
  const normgrad_ascendc::ApiCall call(site);
  return normgrad_ascendc::GetSprImpl("GetSpr");
}

/// Sets a special-purpose register to 0 (950).
template <SpecialPurposeReg spr>
inline void ClearSpr(normgrad_ascendc::CallSite site = {}) {
  static_assert(spr == SpecialPurposeReg::AR, "ClearSpr: spr must be AR");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::ClearSprImpl();
}

/// The unit Async runs a function on.
enum class EngineType : uint8_t { AIC, AIV };

/// Runs funPtr(args...) when `engine` is the kind of core running (always
/// AIV here), else nothing.
template <EngineType engine, auto funPtr, class... Args>
inline void Async(Args... args) {
  normgrad_ascendc::CheckAsync();
  if constexpr (engine == EngineType::AIV) funPtr(args...);
}

}  // namespace AscendC

// src/ascendc/lib/transform/transform_rules.h — the rules of the Tensor
// transform family that the kernel side and the host tiling functions share
// (internal, not installed): the element types each API takes per profile,
// their names, and each Transpose scenario's shape rule, written once.
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/lib/transform/transform_call.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// A set of TransformElem values, bit (1 << elem).
using TransformTypes = uint32_t;

constexpr TransformTypes TypeBit(TransformElem e) {
  return TransformTypes{1} << static_cast<uint32_t>(e);
}

/// The C++ name of an element type ("int16_t", "half").
const char* ElemName(TransformElem e);

/// Its size in bytes (0 for kOther).
uint32_t ElemBytes(TransformElem e);

/// "half, float": the names of a set, in TransformElem order.
std::string TypesText(TransformTypes types);

/// Fails (KernelError) unless `api` on `profile` takes `type`, which is in
/// `types`: "<api>: T is <type>, which profile <key> (<name>) does not take:
/// <api> takes <types> there".
void CheckTypeOn(const char* api, TransformElem type, TransformTypes types,
                 const ProfileInfo& profile);

/// The shape of a Transpose scenario as its tiling holds it: dims[0, rank).
struct TransposeShape {
  uint32_t type;  ///< the scenario, 1-7 or 13-16
  uint32_t rank;
  uint64_t dims[4];
};

/// Whether `type` is a scenario the pages support (1-7, 13-16).
bool IsTransposeScenario(uint32_t type);

/// Whether the scenario runs on Ascend 950 only (13-16).
bool Is950OnlyScenario(uint32_t type);

/// The types scenario `type` takes.
TransformTypes TransposeTypes(uint32_t type);

/// The form srcShape takes in scenario `type` ("[B, N, S, H/N]").
const char* TransposeShapeForm(uint32_t type);

/// The scenario's shape rule: "" when the shape suits it, else what is wrong
/// ("S = 20 is not a multiple of 16"), without the caller's name.
std::string TransposeShapeProblem(const TransposeShape& shape);

/// Elements of the source and of the destination of a suitable shape.
uint64_t TransposeSrcElements(const TransposeShape& shape);
uint64_t TransposeDstElements(const TransposeShape& shape);

/// 16: the side of a fractal of the NZ layouts.
inline constexpr uint64_t kFractal = 16;

/// n rounded up to a multiple of 16.
inline constexpr uint64_t RoundUp16(uint64_t n) {
  return (n + kFractal - 1) / kFractal * kFractal;
}

}  // namespace normgrad_ascendc

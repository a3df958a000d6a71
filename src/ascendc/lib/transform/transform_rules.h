// src/ascendc/lib/transform/transform_rules.h — the rules of the Tensor
// transform family that the kernel side and the host tiling functions share
// (internal, not installed): the element types each API takes per profile,
// their names, each Transpose scenario's shape rule and TransData's shape
// rule, written once.
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/lib/transform/transdata_config.h"
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

/// Its plural in messages ("halves", "floats", "int16_t values").
const char* ElemPlural(TransformElem e);

/// Its size in bytes (0 for kOther).
uint32_t ElemBytes(TransformElem e);

/// "half, float": the names of a set, in TransformElem order.
std::string TransformTypesText(TransformTypes types);

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

/// The NCDHW shape of a TransData call and its derived sizes: C1 = C / 16
/// and N1 = N / 16 rounded up, HW = H * W, HWp = HW rounded up to 16 (an
/// NCDHW tensor's merged H and W axis is padded to 32 bytes).
struct TransDataShape {
  uint64_t n, c, d, h, w;
  uint64_t c1, n1, hw, hwp;
};

/// TransData's shape rule for `format`'s dims against the NCDHW side: ""
/// when the src and dst shapes fit the conversion (then *shape is set), else
/// what is wrong, naming `src_name` and `dst_name` ("srcShape").
std::string TransDataShapeProblem(AscendC::DataFormat src_format,
                                  AscendC::DataFormat dst_format,
                                  const uint64_t* src_dims,
                                  const uint64_t* dst_dims,
                                  const char* src_name, const char* dst_name,
                                  TransDataShape* shape);

/// Elements of a tensor in `format` of the call's shape.
uint64_t TransDataElements(AscendC::DataFormat format,
                           const TransDataShape& shape);

}  // namespace normgrad_ascendc

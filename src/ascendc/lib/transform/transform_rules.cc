// transform_rules.cc — the element types, names and Transpose scenario rules
// of transform_rules.h.
#include "ascendc/lib/transform/transform_rules.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

const char* ElemName(TransformElem e) {
  switch (e) {
    case TransformElem::kInt8:
      return "int8_t";
    case TransformElem::kUint8:
      return "uint8_t";
    case TransformElem::kInt16:
      return "int16_t";
    case TransformElem::kUint16:
      return "uint16_t";
    case TransformElem::kHalf:
      return "half";
    case TransformElem::kBfloat16:
      return "bfloat16_t";
    case TransformElem::kInt32:
      return "int32_t";
    case TransformElem::kUint32:
      return "uint32_t";
    case TransformElem::kFloat:
      return "float";
    case TransformElem::kInt64:
      return "int64_t";
    case TransformElem::kUint64:
      return "uint64_t";
    case TransformElem::kOther:
      break;
  }
  return "another type";
}

const char* ElemPlural(TransformElem e) {
  switch (e) {
    case TransformElem::kHalf:
      return "halves";
    case TransformElem::kFloat:
      return "floats";
    case TransformElem::kInt8:
      return "int8_t values";
    case TransformElem::kUint8:
      return "uint8_t values";
    case TransformElem::kInt16:
      return "int16_t values";
    case TransformElem::kUint16:
      return "uint16_t values";
    case TransformElem::kBfloat16:
      return "bfloat16_t values";
    case TransformElem::kInt32:
      return "int32_t values";
    case TransformElem::kUint32:
      return "uint32_t values";
    case TransformElem::kInt64:
      return "int64_t values";
    case TransformElem::kUint64:
      return "uint64_t values";
    case TransformElem::kOther:
      break;
  }
  return "elements";
}

uint32_t ElemBytes(TransformElem e) {
  switch (e) {
    case TransformElem::kInt8:
    case TransformElem::kUint8:
      return 1;
    case TransformElem::kInt16:
    case TransformElem::kUint16:
    case TransformElem::kHalf:
    case TransformElem::kBfloat16:
      return 2;
    case TransformElem::kInt32:
    case TransformElem::kUint32:
    case TransformElem::kFloat:
      return 4;
    case TransformElem::kInt64:
    case TransformElem::kUint64:
      return 8;
    case TransformElem::kOther:
      break;
  }
  return 0;
}

std::string TransformTypesText(TransformTypes types) {
  std::string text;
  for (uint32_t i = 0; i < static_cast<uint32_t>(TransformElem::kOther); ++i) {
    if ((types & (TransformTypes{1} << i)) == 0) continue;
    if (!text.empty()) text += ", ";
    text += ElemName(static_cast<TransformElem>(i));
  }
  return text;
}

void CheckTypeOn(const char* api, TransformElem type, TransformTypes types,
                 const ProfileInfo& profile) {
  if ((types & TypeBit(type)) == 0) {
    Fail("%s: T is %s, which profile %s (%s) does not take: %s takes %s there",
         api, ElemName(type), profile.key, profile.name, api,
         TransformTypesText(types).c_str());
  }
}

bool IsTransposeScenario(uint32_t type) {
  return (type >= 1 && type <= 7) || (type >= 13 && type <= 16);
}

bool Is950OnlyScenario(uint32_t type) { return type >= 13 && type <= 16; }

TransformTypes TransposeTypes(uint32_t type) {
  using E = TransformElem;
  const TransformTypes b16_b32 = TypeBit(E::kInt16) | TypeBit(E::kUint16) |
                                 TypeBit(E::kHalf) | TypeBit(E::kInt32) |
                                 TypeBit(E::kUint32) | TypeBit(E::kFloat);
  const TransformTypes b8 = TypeBit(E::kInt8) | TypeBit(E::kUint8);
  if (type == 16) return b8;
  if (Is950OnlyScenario(type)) return b8 | b16_b32 | TypeBit(E::kBfloat16);
  return b16_b32;
}

const char* TransposeShapeForm(uint32_t type) {
  if (type <= 6) return "[B, N, S, H/N]";
  if (type == 7 || type == 16) return "[H, W]";
  if (type == 13) return "[H, W] or [N, H, W]";
  return "[N, H, W]";
}

namespace {

std::string NotMultiple(const char* name, uint64_t value, uint64_t of) {
  return std::string(name) + " = " + std::to_string(value) +
         " is not a multiple of " + std::to_string(of);
}

}  // namespace

std::string TransposeShapeProblem(const TransposeShape& shape) {
  const uint32_t t = shape.type;
  const bool rank_ok = t <= 6                ? shape.rank == 4
                       : (t == 7 || t == 16) ? shape.rank == 2
                       : t == 13 ? (shape.rank == 2 || shape.rank == 3)
                                 : shape.rank == 3;
  if (!rank_ok) {
    return "srcShape has " + std::to_string(shape.rank) +
           " dimensions: scenario " + std::to_string(t) + " takes " +
           TransposeShapeForm(t);
  }
  for (uint32_t i = 0; i < shape.rank; ++i) {
    if (shape.dims[i] == 0 || shape.dims[i] > 0xFFFFFFFFu) {
      return "srcShape[" + std::to_string(i) + "] is " +
             std::to_string(shape.dims[i]) +
             ": every dimension must be in [1, 4294967295]";
    }
  }
  const uint64_t* d = shape.dims;
  if (t <= 6) {
    const uint64_t n = d[1], s = d[2], w = d[3];
    if (s % kFractal != 0) return NotMultiple("S", s, kFractal);
    if ((t == 3 || t == 4) && (n * w) % kFractal != 0) {
      return NotMultiple("H = N * H/N", n * w, kFractal);
    }
    if (t != 3 && t != 4 && w % kFractal != 0) {
      return NotMultiple("H/N", w, kFractal);
    }
    if (t == 2 && n % kFractal != 0) return NotMultiple("N", n, kFractal);
  } else if (t == 7) {
    if (d[0] % kFractal != 0) return NotMultiple("H", d[0], kFractal);
    if (d[1] % kFractal != 0) return NotMultiple("W", d[1], kFractal);
  } else if (t == 16) {
    if (d[0] % kFractal != 0) return NotMultiple("H", d[0], kFractal);
    if (d[1] % 2 != 0) return NotMultiple("W", d[1], 2);
  }
  // Each product stays below 2^64: a factor and the product so far are
  // both below 2^32 when it is taken.
  uint64_t elements = 1;
  for (uint32_t i = 0; i < shape.rank; ++i) {
    elements *= shape.dims[i];
    if (elements > 0xFFFFFFFFu) break;
  }
  if (elements > 0xFFFFFFFFu || TransposeDstElements(shape) > 0xFFFFFFFFu) {
    return "srcShape holds more than 4294967295 elements (source or "
           "destination)";
  }
  return "";
}

uint64_t TransposeSrcElements(const TransposeShape& shape) {
  uint64_t elements = 1;
  for (uint32_t i = 0; i < shape.rank; ++i) elements *= shape.dims[i];
  return elements;
}

uint64_t TransposeDstElements(const TransposeShape& shape) {
  if (shape.type == 3 || shape.type == 4) {
    // The rows of H/N elements are padded to whole fractals.
    return shape.dims[0] * shape.dims[1] * shape.dims[2] *
           RoundUp16(shape.dims[3]);
  }
  return TransposeSrcElements(shape);
}

namespace {

std::string DimsText(const uint64_t* dims, uint32_t rank) {
  std::string text = "[";
  for (uint32_t i = 0; i < rank; ++i) {
    if (i != 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

// The product of the factors, or UINT64_MAX when it overflows.
uint64_t SaturatingProduct(std::initializer_list<uint64_t> factors) {
  uint64_t p = 1;
  for (uint64_t f : factors) {
    if (__builtin_mul_overflow(p, f, &p)) return UINT64_MAX;
  }
  return p;
}

const char* FormatName(AscendC::DataFormat f) {
  switch (f) {
    case AscendC::DataFormat::NCDHW:
      return "NCDHW";
    case AscendC::DataFormat::NDC1HWC0:
      return "NDC1HWC0";
    default:
      break;
  }
  return "FRACTAL_Z_3D";
}

}  // namespace

std::string TransDataShapeProblem(AscendC::DataFormat src_format,
                                  AscendC::DataFormat dst_format,
                                  const uint64_t* src_dims,
                                  const uint64_t* dst_dims,
                                  const char* src_name, const char* dst_name,
                                  TransDataShape* shape) {
  const bool from_ncdhw = src_format == AscendC::DataFormat::NCDHW;
  const uint64_t* nd = from_ncdhw ? src_dims : dst_dims;
  const char* nd_name = from_ncdhw ? src_name : dst_name;
  const AscendC::DataFormat other = from_ncdhw ? dst_format : src_format;
  const uint64_t* od = from_ncdhw ? dst_dims : src_dims;
  const char* od_name = from_ncdhw ? dst_name : src_name;
  for (uint32_t i = 0; i < 5; ++i) {
    if (nd[i] == 0 || nd[i] > 0xFFFFFFFFu) {
      return std::string(nd_name) + " " + DimsText(nd, 5) +
             " (NCDHW) has a dimension outside [1, 4294967295]";
    }
  }
  TransDataShape s{};
  s.n = nd[0];
  s.c = nd[1];
  s.d = nd[2];
  s.h = nd[3];
  s.w = nd[4];
  s.c1 = RoundUp16(s.c) / kFractal;
  s.n1 = RoundUp16(s.n) / kFractal;
  s.hw = SaturatingProduct({s.h, s.w});
  s.hwp =
      s.hw > 0xFFFFFFFFu ? s.hw : RoundUp16(s.hw);  // too big: refused below
  uint64_t expected[7];
  uint32_t rank = 0;
  if (other == AscendC::DataFormat::NDC1HWC0) {
    const uint64_t e[] = {s.n, s.d, s.c1, s.h, s.w, kFractal};
    rank = 6;
    std::copy(e, e + rank, expected);
  } else {
    const uint64_t e[] = {s.d, s.c1, s.h, s.w, s.n1, kFractal, kFractal};
    rank = 7;
    std::copy(e, e + rank, expected);
  }
  if (!std::equal(expected, expected + rank, od)) {
    return std::string(od_name) + " " + DimsText(od, rank) + " (" +
           FormatName(other) + ") does not match " + nd_name + " " +
           DimsText(nd, 5) + " (NCDHW): it must be " +
           DimsText(expected, rank) + " (C1 = C / 16 and N1 = N / 16 " +
           "rounded up, C0 = N0 = 16)";
  }
  const uint64_t largest =
      std::max({TransDataElements(AscendC::DataFormat::NCDHW, s),
                TransDataElements(other, s)});
  if (largest > 0xFFFFFFFFu) {
    return std::string("the shapes hold more than 4294967295 elements");
  }
  *shape = s;
  return "";
}

uint64_t TransDataElements(AscendC::DataFormat format,
                           const TransDataShape& s) {
  switch (format) {
    case AscendC::DataFormat::NCDHW:
      return SaturatingProduct({s.n, s.c, s.d, s.hwp});
    case AscendC::DataFormat::NDC1HWC0:
      return SaturatingProduct({s.n, s.d, s.c1, s.hw, kFractal});
    default:
      break;
  }
  return SaturatingProduct({s.d, s.c1, s.hw, s.n1, kFractal, kFractal});
}

}  // namespace normgrad_ascendc

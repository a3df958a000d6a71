// transform_rules.cc — the element types, names and Transpose scenario rules
// of transform_rules.h.
#include "ascendc/lib/transform/transform_rules.h"

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

std::string TypesText(TransformTypes types) {
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
         TypesText(types).c_str());
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

}  // namespace normgrad_ascendc

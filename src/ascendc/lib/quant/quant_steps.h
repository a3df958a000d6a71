// quant_steps.h — what the Quantization family's calls share (internal,
// not installed): the erased element types' names, sizes and type bits;
// the steps every call is made of, each rounded as the vector instruction
// that performs it (Cast's conversions, ConvertImpl: nearest even, integers
// saturating, NaN to 0); the profile failure and the checked scratch.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad_ascendc/lib/quant/quant_call.h"
#include "normgrad_ascendc/vector/vector_convert.h"

namespace normgrad_ascendc {

// ---- Types ------------------------------------------------------------------

inline const char* TypeText(QuantType t) {
  switch (t) {
    case QuantType::kInt8:
      return "int8_t";
    case QuantType::kInt32:
      return "int32_t";
    case QuantType::kUint64:
      return "uint64_t";
    case QuantType::kHalf:
      return "half";
    case QuantType::kBfloat16:
      return "bfloat16_t";
    case QuantType::kFloat:
      break;
  }
  return "float";
}

inline uint32_t BytesOf(QuantType t) {
  switch (t) {
    case QuantType::kInt8:
      return 1;
    case QuantType::kUint64:
      return 8;
    case QuantType::kHalf:
    case QuantType::kBfloat16:
      return 2;
    case QuantType::kInt32:
    case QuantType::kFloat:
      break;
  }
  return 4;
}

inline uint32_t BitOf(QuantType t) {
  switch (t) {
    case QuantType::kInt8:
      return kTypeInt8;
    case QuantType::kInt32:
      return kTypeInt32;
    case QuantType::kUint64:
      return kTypeUint64;
    case QuantType::kHalf:
      return kTypeHalf;
    case QuantType::kBfloat16:
      return kTypeBfloat16;
    case QuantType::kFloat:
      break;
  }
  return kTypeFloat;
}

/// The element of a call for messages ("halves", "int8_t elements").
inline Element ElementOfType(QuantType t) {
  switch (t) {
    case QuantType::kHalf:
      return kHalfElement;
    case QuantType::kFloat:
      return kFloatElement;
    case QuantType::kInt8:
      return {1, "int8_t elements"};
    case QuantType::kInt32:
      return {4, "int32_t elements"};
    case QuantType::kUint64:
      return {8, "uint64_t elements"};
    case QuantType::kBfloat16:
      break;
  }
  return {2, "bfloat16_t elements"};
}

inline uint32_t ElementsOf(const TensorView& t, QuantType type) {
  return t.bytes / BytesOf(type);
}

// ---- Arithmetic -------------------------------------------------------------

/// Cast's conversion of n values, by `mode` (nearest even unless a call
/// names another); a copy when the types are the same (Cast float → float
/// would round to integers).
inline void Convert(QuantType dst_type, void* dst, QuantType src_type,
                    const void* src, uint32_t n,
                    AscendC::RoundMode mode = AscendC::RoundMode::CAST_RINT) {
  if (dst_type == src_type) {
    std::memmove(dst, src, uint64_t{n} * BytesOf(dst_type));
    return;
  }
  ConvertImpl(BitOf(dst_type), dst, BitOf(src_type), src, mode, n);
}

/// n values of a tensor from element `pos` as floats: exact for half,
/// bfloat16_t and float; int32_t rounded to nearest even (Cast); uint64_t
/// its low 32 bits, which hold a float.
inline std::vector<float> FloatsOf(const TensorView& t, QuantType type,
                                   uint32_t pos, uint32_t n) {
  std::vector<float> out(n);
  const uint8_t* p = t.data() + uint64_t{pos} * BytesOf(type);
  if (type == QuantType::kUint64) {
    for (uint32_t i = 0; i < n; ++i) std::memcpy(&out[i], p + 8 * i, 4);
  } else {
    Convert(QuantType::kFloat, out.data(), type, p, n);
  }
  return out;
}

/// Each value rounded to half (Cast) and back: a float value as the half
/// operand or result of a vector instruction holds it.
inline void RoundThroughHalf(std::vector<float>& v) {
  std::vector<uint16_t> halves(v.size());
  const auto n = static_cast<uint32_t>(v.size());
  Convert(QuantType::kHalf, halves.data(), QuantType::kFloat, v.data(), n);
  Convert(QuantType::kFloat, v.data(), QuantType::kHalf, halves.data(), n);
}

// ---- Checks -----------------------------------------------------------------

/// "<api>: <what> is not available on profile <key> (<name>): <instead>".
[[noreturn]] inline void FailProfile(const char* api, const char* what,
                                     const ProfileInfo& p,
                                     const char* instead) {
  Fail("%s: %s is not available on profile %s (%s): %s", api, what, p.key,
       p.name, instead);
}

/// The scratch of a call needing `need` bytes: sharedTmpBuffer placed and
/// holding them, or the framework scratch.
inline TensorView CheckedScratch(const char* api, const TensorView* shared_tmp,
                                 uint64_t need, const char* query) {
  const TensorView scratch =
      CallScratch(api, shared_tmp, need, "%llu bytes (%s)",
                  static_cast<unsigned long long>(need), query);
  const char* name = ScratchName(shared_tmp);
  CheckPlacement(api, name, scratch);
  if (scratch.bytes < need) {
    Fail("%s: %s holds %u bytes, fewer than the %llu the call needs (%s)", api,
         name, scratch.bytes, static_cast<unsigned long long>(need), query);
  }
  return scratch;
}

}  // namespace normgrad_ascendc

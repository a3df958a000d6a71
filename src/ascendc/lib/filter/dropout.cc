// dropout.cc — RunDropOut: the checks and the arithmetic of DropOut
// (docs/filter.md, "DropOut").
//
// The checks, in order: the tensors placed for the vector unit; T on the
// core's profile; keepProb in (0, 1); the shape and the mask mode (the
// template's dropOutMode, or for 0 the mode the shape implies) with that
// mode's rules; the lengths of src, dst and mask; the scratch at least
// GetDropOutMaxMinTmpSize's minValue; dst the source itself or apart from
// it, and nothing written sharing memory with the mask or the scratch.
//
// The arithmetic: a kept element is src * (1 / keepProb), the reciprocal
// computed in float and, for half and bfloat16_t, rounded to T first, as a
// multiplication by a scalar of T does; the product is rounded once to T. A
// dropped element is +0. Both run on the instruction set's loops
// (kernels::AdvancedKernels: truths_u8, bit_truths_u8, scale_kept_f32).
#include <cstdio>
#include <type_traits>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/filter/filter_checks.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/filter/filter_call.h"
#include "normgrad_ascendc/lib/filter/filter_host_tiling.h"

namespace normgrad_ascendc {
namespace {

constexpr const char* kApi = "DropOut";

// The four mask layouts (dropOutMode 1 to 4).
enum Mode : uint32_t {
  kBytesPadded = 1,  // a byte per element, mask rows of maskLastAxis bytes
  kBytes = 2,        // a byte per element, mask rows as long as src rows
  kBits = 3,         // a bit per element, one run of bits over all rows
  kBitsPadded = 4,   // a bit per element, mask rows of maskLastAxis bytes
};

// The mode dropOutMode 0 runs: the one the shape implies.
uint32_t InferMode(const AscendC::DropOutShapeInfo& s) {
  const uint64_t k = s.srcLastAxis;
  const uint64_t mask = s.maskLastAxis;
  if (mask == k) return kBytes;
  if (mask * 8 == k) return kBits;
  if (mask > k) return kBytesPadded;
  if (mask * 8 > k) return kBitsPadded;
  Fail(
      "%s: info.maskLastAxis %u is shorter than info.srcLastAxis %u needs "
      "in any mask mode (at least %u bytes for a bit per element)",
      kApi, s.maskLastAxis, s.srcLastAxis, (s.srcLastAxis + 7) / 8);
}

// Checks the shape in `mode`; returns the mask bytes the call reads.
uint64_t CheckShape(const AscendC::DropOutShapeInfo& s, uint32_t mode) {
  const struct {
    const char* name;
    uint32_t value;
  } axes[] = {{"info.firstAxis", s.firstAxis},
              {"info.srcLastAxis", s.srcLastAxis},
              {"info.maskLastAxis", s.maskLastAxis}};
  for (const auto& axis : axes) {
    if (axis.value == 0) {
      Fail("%s: %s is 0; every axis must be at least 1", kApi, axis.name);
    }
  }
  const uint64_t m = s.firstAxis;
  const uint64_t k = s.srcLastAxis;
  switch (mode) {
    case kBytes:
      if (s.maskLastAxis != s.srcLastAxis) {
        Fail(
            "%s: info.maskLastAxis %u differs from info.srcLastAxis %u; "
            "dropOutMode 2 (bytes, no padding) takes a mask row as long as "
            "the source row",
            kApi, s.maskLastAxis, s.srcLastAxis);
      }
      return m * k;
    case kBytesPadded:
      if (s.maskLastAxis < s.srcLastAxis || k % 2 != 0) {
        Fail(
            "%s: info.srcLastAxis %u, info.maskLastAxis %u; dropOutMode 1 "
            "(bytes, padded mask rows) takes a mask row at least as long as "
            "the source row and an even number of valid mask values",
            kApi, s.srcLastAxis, s.maskLastAxis);
      }
      return m * s.maskLastAxis;
    case kBits:
      return (m * k + 7) / 8;
    case kBitsPadded:
      if (k % 8 != 0 || s.maskLastAxis < k / 8) {
        Fail(
            "%s: info.srcLastAxis %u, info.maskLastAxis %u; dropOutMode 4 "
            "(bits, padded mask rows) takes a source row of a multiple of 8 "
            "elements (whole valid mask bytes) and a mask row of at least "
            "srcLastAxis / 8 bytes",
            kApi, s.srcLastAxis, s.maskLastAxis);
      }
      return m * s.maskLastAxis;
    default:
      break;
  }
  return 0;
}

const normgrad::kernels::AdvancedKernels& Loops() {
  return normgrad::kernels::AdvancedKernelsOf(VectorLoops());
}

// truth[c] = whether element (r, c) is kept in `mode`, for the row's k
// elements. Bits are read from the most significant bit of each byte down,
// as the page's example (169 keeps elements 0, 2, 4 and 7) shows.
void RowTruths(uint8_t* truth, const uint8_t* mask, uint32_t mode,
               const AscendC::DropOutShapeInfo& s, uint64_t r) {
  const uint64_t k = s.srcLastAxis;
  switch (mode) {
    case kBytes:
      return Loops().truths_u8(truth, mask + r * k, k, 1, false, false);
    case kBytesPadded:
      return Loops().truths_u8(truth, mask + r * s.maskLastAxis, k, 1, false,
                               false);
    case kBits:
      return Loops().bit_truths_u8(truth, mask, r * k, k);
    default:
      break;
  }
  Loops().bit_truths_u8(truth, mask + r * s.maskLastAxis, 0, k);
}

// A multiplication by a scalar of T: the reciprocal rounded to T; for half
// and bfloat16_t the product of two such values is exact in float, so
// rounding it once to T is the multiplication in T. Row by row on the
// loops: the row's truths, the kept products in float (half and
// bfloat16_t widened first and narrowed after, exactly and once).
template <typename T>
void Compute(const DropOutArgs& a, uint32_t mode) {
  const float scale = static_cast<float>(static_cast<T>(1.0f / a.keep_prob));
  const T* src = reinterpret_cast<const T*>(a.src.data());
  T* dst = reinterpret_cast<T*>(a.dst.data());
  const uint64_t k = a.info.srcLastAxis;
  std::vector<uint8_t> truth(k);
  std::vector<float> row(std::is_same_v<T, float> ? 0 : k);
  for (uint64_t r = 0; r < a.info.firstAxis; ++r) {
    RowTruths(truth.data(), a.mask.data(), mode, a.info, r);
    if constexpr (std::is_same_v<T, float>) {
      Loops().scale_kept_f32(dst + r * k, src + r * k, truth.data(), scale, k);
    } else {
      normgrad::Widen(src + r * k, row.data(), k);
      Loops().scale_kept_f32(row.data(), row.data(), truth.data(), scale, k);
      normgrad::Narrow(row.data(), dst + r * k, k);
    }
  }
}

}  // namespace

void RunDropOut(const DropOutArgs& a) {
  CheckPlacements(
      kApi, {{"dstLocal", a.dst}, {"srcLocal", a.src}, {"maskLocal", a.mask}});
  const ProfileInfo& profile = a.dst.core->profile();
  if (a.type == ElementType::kBfloat16 && profile.profile != Profile::k950) {
    Fail(
        "%s: T is bfloat16_t, which profile %s (%s) does not take: %s takes "
        "half, float there",
        kApi, profile.key, profile.name, kApi);
  }
  if (!(a.keep_prob > 0.0f && a.keep_prob < 1.0f)) {
    Fail("%s: keepProb is %g; it must be in (0, 1)", kApi,
         static_cast<double>(a.keep_prob));
  }
  const uint32_t mode = a.mode == 0 ? InferMode(a.info) : a.mode;
  const uint64_t mask_bytes = CheckShape(a.info, mode);
  const Element e = ElementOf(a.type, "bfloat16_t elements");
  const uint64_t elements = uint64_t{a.info.firstAxis} * a.info.srcLastAxis;
  char rule[96];
  std::snprintf(rule, sizeof rule, "info.firstAxis * info.srcLastAxis = %llu",
                static_cast<unsigned long long>(elements));
  char mask_rule[64];
  std::snprintf(mask_rule, sizeof mask_rule, "the mask of dropOutMode %u",
                mode);
  CheckLengths(kApi, e,
               {{"srcLocal", a.src, elements, rule},
                {"dstLocal", a.dst, elements, rule}});
  CheckLength(kApi, Element{1, "bytes"},
              {"maskLocal", a.mask, mask_bytes, mask_rule});
  const uint64_t needed = DropOutRowTmpBytes(a.info.srcLastAxis, e.bytes);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, needed,
                  "%llu bytes (GetDropOutMaxMinTmpSize's minValue)",
                  static_cast<unsigned long long>(needed));
  CheckPlacement(kApi, scratch_name, scratch);
  if (scratch.bytes < needed) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %llu this call needs "
        "(GetDropOutMaxMinTmpSize's minValue for this shape)",
        kApi, scratch_name, scratch.bytes,
        static_cast<unsigned long long>(needed));
  }
  const uint64_t bytes = elements * e.bytes;
  CheckSameOrApart(kApi, "dstLocal", a.dst, "srcLocal", a.src, bytes);
  const UbOperand ops[] = {
      {"dstLocal", &a.dst, bytes, true},
      {"maskLocal", &a.mask, mask_bytes, false},
      {scratch_name, &scratch, needed, true},
      {"srcLocal", &a.src, bytes, false},
  };
  CheckOverlaps(kApi, ops, 3);
  CheckOverlaps(kApi, ops + 2, 2);
  switch (a.type) {
    case ElementType::kHalf:
      return Compute<half>(a, mode);
    case ElementType::kBfloat16:
      return Compute<bfloat16_t>(a, mode);
    case ElementType::kFloat:
      return Compute<float>(a, mode);
  }
}

}  // namespace normgrad_ascendc

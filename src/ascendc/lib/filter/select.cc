// select.cc — RunSelect: the checks and the arithmetic of the advanced
// Select (docs/filter.md, "Select").
//
// The checks, in order: the tensors placed for the vector unit; the shape
// (every axis at least 1, the source row and the mask row whole 32-byte
// blocks, the mask row a multiple of 16 elements and at least the source
// row); the lengths of src, mask and dst; the scratch at least
// GetSelectMinTmpSize's minValue; dst the source itself or apart from it,
// and nothing written sharing memory with the mask or the scratch.
//
// The arithmetic: element (r, c) takes the tensor's value or the scalar by
// the mask's element (r, c): zero picks src0, anything else src1. A mask
// value is zero exactly when all its bytes are, so only sizeof(U) matters.
// The values are copied, never rounded: the result holds the operands'
// bits. Both steps run on the instruction set's loops
// (kernels::AdvancedKernels: truths_u8, select_scalar_u8).
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/filter/filter_checks.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/filter/filter_call.h"
#include "normgrad_ascendc/lib/filter/filter_host_tiling.h"

namespace normgrad_ascendc {
namespace {

constexpr const char* kApi = "Select";

void CheckShape(const SelectArgs& a, uint32_t elem_bytes) {
  const AscendC::SelectWithBytesMaskShapeInfo& s = a.info;
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
  if (uint64_t{s.srcLastAxis} * elem_bytes % kBlockBytes != 0) {
    Fail(
        "%s: info.srcLastAxis %u is %llu bytes, not a multiple of 32 (the "
        "source's last axis must be 32-byte aligned: a multiple of %u)",
        kApi, s.srcLastAxis,
        static_cast<unsigned long long>(uint64_t{s.srcLastAxis} * elem_bytes),
        kBlockBytes / elem_bytes);
  }
  if (s.maskLastAxis % 16 != 0 ||
      uint64_t{s.maskLastAxis} * a.mask_bytes % kBlockBytes != 0) {
    Fail(
        "%s: info.maskLastAxis is %u; the mask's last axis must be a "
        "multiple of 16 elements and of 32 bytes: a multiple of %u elements "
        "for a %u-byte mask type",
        kApi, s.maskLastAxis, a.mask_bytes == 4 ? 16u : 32u / a.mask_bytes,
        a.mask_bytes);
  }
  if (s.maskLastAxis < s.srcLastAxis) {
    Fail(
        "%s: info.maskLastAxis %u is less than info.srcLastAxis %u; the mask "
        "row must cover the source row",
        kApi, s.maskLastAxis, s.srcLastAxis);
  }
}

// Row by row on the instruction set's loops: the truths of the mask row,
// then the scalar put where its side of the mask holds.
void Compute(const SelectArgs& a, const Element& e) {
  const auto& loops = normgrad::kernels::AdvancedKernelsOf(VectorLoops());
  const uint64_t m = a.info.firstAxis;
  const uint64_t k = a.info.srcLastAxis;
  const uint64_t k2 = a.info.maskLastAxis;
  uint64_t scalar = 0;
  if (e.bytes == 2) {
    const half h = static_cast<half>(a.scalar);
    std::memcpy(&scalar, &h, sizeof h);
  } else {
    const float f = a.scalar;
    std::memcpy(&scalar, &f, sizeof f);
  }
  std::vector<uint8_t> truth(k);
  for (uint64_t r = 0; r < m; ++r) {
    loops.truths_u8(truth.data(), a.mask.data() + r * k2 * a.mask_bytes, k,
                    a.mask_bytes, false, false);
    // zero picks src0, nonzero src1; the scalar is src0 or src1.
    loops.select_scalar_u8(a.dst.data() + r * k * e.bytes,
                           a.src.data() + r * k * e.bytes, scalar, truth.data(),
                           k, e.bytes, !a.scalar_first);
  }
}

}  // namespace

void RunSelect(const SelectArgs& a) {
  const char* src_name = a.scalar_first ? "src1" : "src0";
  CheckPlacements(kApi, {{"dst", a.dst},
                         {src_name, a.src},
                         {"mask", a.mask},
                         {"sharedTmpBuffer", *a.shared_tmp}});
  const Element e = HalfOrFloat(a.is_half);
  CheckShape(a, e.bytes);
  const uint64_t m = a.info.firstAxis;
  const uint64_t elements = m * a.info.srcLastAxis;
  const uint64_t mask_elements = m * a.info.maskLastAxis;
  char src_rule[96];
  std::snprintf(src_rule, sizeof src_rule,
                "info.firstAxis * info.srcLastAxis = %llu",
                static_cast<unsigned long long>(elements));
  CheckLengths(kApi, e,
               {{src_name, a.src, elements, src_rule},
                {"dst", a.dst, elements, src_rule}});
  char mask_rule[96];
  std::snprintf(mask_rule, sizeof mask_rule,
                "info.firstAxis * info.maskLastAxis = %llu",
                static_cast<unsigned long long>(mask_elements));
  CheckLength(kApi, Element{a.mask_bytes, "mask elements"},
              {"mask", a.mask, mask_elements, mask_rule});
  const uint64_t needed = SelectMinTmpBytes(
      m, a.info.srcLastAxis, a.info.maskLastAxis, a.mask_bytes, a.reuse_mask);
  if (a.shared_tmp->bytes < needed) {
    Fail(
        "%s: sharedTmpBuffer holds %u bytes, fewer than the %llu this call "
        "needs (GetSelectMaxMinTmpSize's minValue for this shape)",
        kApi, a.shared_tmp->bytes, static_cast<unsigned long long>(needed));
  }
  const uint64_t bytes = elements * e.bytes;
  CheckSameOrApart(kApi, "dst", a.dst, src_name, a.src, bytes);
  const UbOperand ops[] = {
      {"dst", &a.dst, bytes, true},
      {"mask", &a.mask, mask_elements * a.mask_bytes, false},
      {"sharedTmpBuffer", a.shared_tmp, needed, true},
      {src_name, &a.src, bytes, false},
  };
  // dst against the mask and the scratch; the scratch against the rest.
  CheckOverlaps(kApi, ops, 3);
  CheckOverlaps(kApi, ops + 2, 2);
  Compute(a, e);
}

}  // namespace normgrad_ascendc

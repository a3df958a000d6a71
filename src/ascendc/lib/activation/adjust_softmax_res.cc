// adjust_softmax_res.cc — AscendC::AdjustSoftMaxRes on the emulated core: the
// checks (the layout, placement, the shape, lengths, overlap), then each row
// whose max has the bits `from` filled with `to`.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "lib/activation/adjust_softmax_res.h"
#include "normgrad/float16.h"

namespace normgrad_ascendc {
namespace {

constexpr char kApi[] = "AdjustSoftMaxRes";

// The bits of maxTensor's element i: a float's 32, a half's 16.
uint32_t MaxBits(const AdjustSoftMaxResArgs& a, uint64_t i) {
  if (a.max_half) return HalfData(a.max)[i].Bits();
  uint32_t bits;
  std::memcpy(&bits, FloatData(a.max) + i, sizeof bits);
  return bits;
}

}  // namespace

bool RunAdjustSoftMaxRes(const AdjustSoftMaxResArgs& a) {
  const Element res_e = HalfOrFloat(a.res_half);
  const Element max_e = HalfOrFloat(a.max_half);
  if (a.format_nz) {
    Fail(
        "AdjustSoftMaxRes: isDataFormatNZ is true: the API takes the ND "
        "layout only");
  }
  CheckPlacements(kApi, {{"softMaxRes", a.res}, {"maxTensor", a.max}});
  const uint32_t m = a.shape.srcM;
  const uint32_t k = a.shape.srcK;
  if (m == 0 || k == 0) {
    Fail(
        "AdjustSoftMaxRes: softmaxShapeInfo.srcM %u and srcK %u must both be "
        "at least 1",
        m, k);
  }
  if (uint64_t{k} * res_e.bytes % kBlockBytes != 0) {
    Fail(
        "AdjustSoftMaxRes: softmaxShapeInfo.srcK %u %s is %llu bytes, not a "
        "multiple of 32 (the last axis must be 32-byte aligned)",
        k, res_e.plural,
        static_cast<unsigned long long>(uint64_t{k} * res_e.bytes));
  }
  const uint32_t width = a.step_size_mode != 0 ? 1 : kBlockBytes / max_e.bytes;
  CheckLength(kApi, res_e,
              {"softMaxRes", a.res, uint64_t{m} * k, "srcM * srcK"});
  CheckLength(kApi, max_e,
              {"maxTensor", a.max, uint64_t{m} * width,
               a.step_size_mode != 0 ? "srcM, one per row (stepSizeMode != 0)"
                                     : "srcM rows of a 32-byte block"});
  const UbRange res =
      UbRangeOf("softMaxRes", a.res, uint64_t{m} * k * res_e.bytes);
  const UbRange max =
      UbRangeOf("maxTensor", a.max, uint64_t{m} * width * max_e.bytes);
  if (UbOverlap(res, max)) {
    FailUbOverlap(kApi, res, max,
                  "AdjustSoftMaxRes writes softMaxRes, so it must not share "
                  "memory with maxTensor");
  }
  bool any = false;
  for (uint32_t r = 0; r < m; ++r) {
    if (MaxBits(a, uint64_t{r} * width) != a.from) continue;
    any = true;
    const uint64_t at = uint64_t{r} * k;
    if (a.res_half) {
      normgrad::float16 to[1];
      normgrad::Narrow(&a.to, to, 1);
      std::fill(HalfData(a.res) + at, HalfData(a.res) + at + k, to[0]);
    } else {
      std::fill(FloatData(a.res) + at, FloatData(a.res) + at + k, a.to);
    }
  }
  return any;
}

}  // namespace normgrad_ascendc

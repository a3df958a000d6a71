// transdata.cc — RunTransData (docs/transform.md, "TransData"): the four
// conversions between NCDHW and the formats that split C (and N) into blocks
// of 16, as index maps over 16-bit elements. With C1 = C / 16 and N1 = N / 16
// rounded up, HW = H * W and HWp = HW rounded up to 16:
//   NCDHW        (n, c, d, hw)             at ((n*C + c)*D + d)*HWp + hw
//   NDC1HWC0     (n, d, c1, hw, c0)        at (((n*D + d)*C1 + c1)*HW + hw)*16
//   + c0 FRACTAL_Z_3D (d, c1, hw, n1, n0, c0)   at ((((d*C1 + c1)*HW + hw)*N1 +
//   n1)*16 + n0)*16 + c0
// with c = c1*16 + c0 and n = n1*16 + n0. Converting from NCDHW writes every
// destination element, 0 where c >= C or n >= N; converting to NCDHW writes
// the HW elements of each (n, c, d) row, not its padding up to HWp.
#include <cstring>
#include <string>

#include "ascendc/lib/transform/transform_kernel.h"
#include "ascendc/lib/transform/transform_rules.h"
#include "lib/transform/transdata.h"

namespace normgrad_ascendc {
namespace {

const char* kApi = "TransData";

constexpr TransformTypes kTransDataTypes =
    TypeBit(TransformElem::kInt16) | TypeBit(TransformElem::kUint16) |
    TypeBit(TransformElem::kHalf) | TypeBit(TransformElem::kBfloat16);

// Calls f(ncdhw_index, other_index, valid) for every element of the format
// that is not NCDHW, in its order; valid is false for the channels (and
// batches) past C (and N).
template <typename F>
void ForEachBlocked(AscendC::DataFormat other, const TransDataShape& s, F f) {
  const uint64_t C1 = s.c1, HW = s.hw, HWp = s.hwp, D = s.d;
  uint64_t o = 0;
  if (other == AscendC::DataFormat::NDC1HWC0) {
    for (uint64_t n = 0; n < s.n; ++n)
      for (uint64_t d = 0; d < D; ++d)
        for (uint64_t c1 = 0; c1 < C1; ++c1)
          for (uint64_t hw = 0; hw < HW; ++hw)
            for (uint64_t c0 = 0; c0 < kFractal; ++c0, ++o) {
              const uint64_t c = c1 * kFractal + c0;
              f(((n * s.c + c) * D + d) * HWp + hw, o, c < s.c);
            }
    return;
  }
  for (uint64_t d = 0; d < D; ++d)
    for (uint64_t c1 = 0; c1 < C1; ++c1)
      for (uint64_t hw = 0; hw < HW; ++hw)
        for (uint64_t n1 = 0; n1 < s.n1; ++n1)
          for (uint64_t n0 = 0; n0 < kFractal; ++n0)
            for (uint64_t c0 = 0; c0 < kFractal; ++c0, ++o) {
              const uint64_t c = c1 * kFractal + c0;
              const uint64_t n = n1 * kFractal + n0;
              f(((n * s.c + c) * D + d) * HWp + hw, o, c < s.c && n < s.n);
            }
}

}  // namespace

void RunTransData(const TransDataArgs& a) {
  CheckPlacements(kApi, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile == Profile::k310P) {
    Fail(
        "%s: not available on profile %s (%s): the documentation does not "
        "list TransData for that product",
        kApi, profile.key, profile.name);
  }
  CheckTypeOn(kApi, a.type, kTransDataTypes, profile);
  TransDataShape s{};
  const std::string problem = TransDataShapeProblem(
      a.src_format, a.dst_format, a.src_dims, a.dst_dims,
      "params.srcLayout's shape", "params.dstLayout's shape", &s);
  if (!problem.empty()) Fail("%s: %s", kApi, problem.c_str());
  const uint64_t src_elems = TransDataElements(a.src_format, s);
  const uint64_t dst_elems = TransDataElements(a.dst_format, s);
  const uint32_t bytes = 2;
  const Element e{bytes, ElemPlural(a.type)};
  CheckLengths(
      kApi, e,
      {{"srcTensor", a.src, src_elems, "the source's format and shape"},
       {"dstTensor", a.dst, dst_elems, "the destination's format and shape"}});
  CheckTransformOperands(kApi, "dstTensor", a.dst, dst_elems * bytes,
                         "srcTensor", a.src, src_elems * bytes, a.shared_tmp);

  const uint8_t* src = a.src.data();
  uint8_t* dst = a.dst.data();
  if (a.src_format == AscendC::DataFormat::NCDHW) {
    ForEachBlocked(a.dst_format, s, [&](uint64_t i, uint64_t o, bool valid) {
      if (valid) {
        std::memcpy(dst + o * bytes, src + i * bytes, bytes);
      } else {
        std::memset(dst + o * bytes, 0, bytes);
      }
    });
  } else {
    ForEachBlocked(a.src_format, s, [&](uint64_t o, uint64_t i, bool valid) {
      if (valid) std::memcpy(dst + o * bytes, src + i * bytes, bytes);
    });
  }
}

}  // namespace normgrad_ascendc

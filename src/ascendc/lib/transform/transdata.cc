// transdata.cc — RunTransData (docs/transform.md, "TransData"): the four
// conversions between NCDHW and the formats that split C (and N) into blocks
// of 16, as index maps over 16-bit elements. With C1 = C / 16 and N1 = N / 16
// rounded up, HW = H * W and HWp = HW rounded up to 16:
//   NCDHW        (n, c, d, hw)             at ((n*C + c)*D + d)*HWp + hw
//   NDC1HWC0     (n, d, c1, hw, c0)        at (((n*D + d)*C1 + c1)*HW + hw)*16
//   + c0 FRACTAL_Z_3D (d, c1, hw, n1, n0, c0)   at ((((d*C1 + c1)*HW + hw)*N1 +
//   n1)*16 + n0)*16 + c0
// with c = c1*16 + c0 and n = n1*16 + n0. For each (n, d, c1) the up to 16
// channels c0 of C present form a c0 × HW matrix in NCDHW (its rows D*HWp
// apart) whose transpose is the HW × c0 block of the other format (rows 16
// apart in NDC1HWC0, N1*256 apart in FRACTAL_Z_3D): the move is a batch of
// strided 2-D transposes (TransposeBlock). Converting from NCDHW writes
// every destination element, 0 where c >= C or n >= N (the destination is
// zeroed first when it has such places); converting to NCDHW writes the HW
// elements of each (n, c, d) row, not its padding up to HWp.
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

// Calls f(ncdhw, blocked, blocked_stride, channels) for every block of the
// format that is not NCDHW: the element offsets of its first element on
// either side, the distance between its HW rows in that format, and the
// channels of C it holds (the rows of the NCDHW side, D*HWp apart).
template <typename F>
void ForEachBlock(AscendC::DataFormat other, const TransDataShape& s, F f) {
  const uint64_t C1 = s.c1, HW = s.hw, HWp = s.hwp, D = s.d;
  auto channels = [&](uint64_t c1) {
    return s.c - c1 * kFractal < kFractal ? s.c - c1 * kFractal : kFractal;
  };
  if (other == AscendC::DataFormat::NDC1HWC0) {
    for (uint64_t n = 0; n < s.n; ++n)
      for (uint64_t d = 0; d < D; ++d)
        for (uint64_t c1 = 0; c1 < C1; ++c1) {
          f(((n * s.c + c1 * kFractal) * D + d) * HWp,
            ((n * D + d) * C1 + c1) * HW * kFractal, kFractal, channels(c1));
        }
    return;
  }
  const uint64_t row = s.n1 * kFractal * kFractal;
  for (uint64_t d = 0; d < D; ++d)
    for (uint64_t c1 = 0; c1 < C1; ++c1)
      for (uint64_t n = 0; n < s.n; ++n) {
        f(((n * s.c + c1 * kFractal) * D + d) * HWp,
          (d * C1 + c1) * HW * row + n * kFractal, row, channels(c1));
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
  const uint64_t rows_apart = s.d * s.hwp;  // the NCDHW side's channel rows
  if (a.src_format == AscendC::DataFormat::NCDHW) {
    const bool padded = s.c % kFractal != 0 ||
                        (a.dst_format == AscendC::DataFormat::FRACTAL_Z_3D &&
                         s.n % kFractal != 0);
    if (padded) std::memset(dst, 0, dst_elems * bytes);
    ForEachBlock(
        a.dst_format, s,
        [&](uint64_t nd, uint64_t blocked, uint64_t stride, uint64_t channels) {
          TransposeBlock(dst + blocked * bytes, src + nd * bytes, channels,
                         s.hw, rows_apart, stride, bytes);
        });
  } else {
    ForEachBlock(
        a.src_format, s,
        [&](uint64_t nd, uint64_t blocked, uint64_t stride, uint64_t channels) {
          TransposeBlock(dst + nd * bytes, src + blocked * bytes, s.hw,
                         channels, stride, rows_apart, bytes);
        });
  }
}

}  // namespace normgrad_ascendc

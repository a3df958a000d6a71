// transpose.cc — RunTranspose: the scenarios of TransposeType
// (docs/transform.md, "Transpose"), each an index map from an element of the
// source to its place in the destination, written out below from the
// layouts the page gives. A matrix [R, C] in the NZ layout is
// [C/16, R/16, 16, 16]: element (r, c) at (c / 16) * R * 16 + r * 16 + c % 16.
// Elements move as bytes: the true transposes (scenarios 7, 13, 15 and 16)
// as batches of strided 2-D transposes (TransposeBlock), the others in runs
// where the map is contiguous on both sides (RunCopier: the NZ scenarios'
// runs of 16, whole rows of scenario 14); a
// destination element no source element maps to (the padding of scenarios
// 3 and 4) is not written.
#include <cstring>

#include "ascendc/lib/transform/transform_kernel.h"
#include "ascendc/lib/transform/transform_rules.h"

namespace normgrad_ascendc {
namespace {

const char* kApi = "Transpose";

// The NZ place of element (r, c) of one matrix of `rows` rows.
uint64_t Nz(uint64_t r, uint64_t c, uint64_t rows) {
  return (c / kFractal) * rows * kFractal + r * kFractal + c % kFractal;
}

// Scenarios 1-6 over the origin shape [B, N, S, W] (W = H/N, H = N * W).
void RunNz(uint32_t t, const uint64_t* d, RunCopier& move) {
  const uint64_t B = d[0], N = d[1], S = d[2], W = d[3], H = N * W;
  const uint64_t wp = RoundUp16(W);  // scenarios 3 and 4: padded rows
  for (uint64_t b = 0; b < B; ++b) {
    for (uint64_t n = 0; n < N; ++n) {
      for (uint64_t s = 0; s < S; ++s) {
        for (uint64_t w = 0; w < W; ++w) {
          const uint64_t h = n * W + w;
          // The source: NZ [B, N, W/16, S/16, 16, 16] of [B, N, S, W], or
          // for 3 and 4 NZ [B, H/16, S/16, 16, 16] of [B, S, H].
          const uint64_t in = (t == 3 || t == 4)
                                  ? b * S * H + Nz(s, h, S)
                                  : (b * N + n) * S * W + Nz(s, w, S);
          uint64_t out = 0;
          switch (t) {
            case 1:  // ND [B, S, N, W]
              out = ((b * S + s) * N + n) * W + w;
              break;
            case 2:  // NZ [B, S, W/16, N/16, 16, 16] of [B, S, N, W]
              out = (b * S + s) * N * W + Nz(n, w, N);
              break;
            case 3:  // NZ [B, N, Wp/16, S/16, 16, 16] of [B, N, S, Wp]
              out = (b * N + n) * S * wp + Nz(s, w, S);
              break;
            case 4:  // ND [B, N, S, Wp]
              out = ((b * N + n) * S + s) * wp + w;
              break;
            case 5:  // ND [B, S, H]
              out = (b * S + s) * H + h;
              break;
            default:  // 6: NZ [B, H/16, S/16, 16, 16] of [B, S, H]
              out = b * S * H + Nz(s, h, S);
              break;
          }
          move(in, out);
        }
      }
    }
  }
}

// Scenarios 7, 13, 15 and 16 over the ND source [H, W] or [N, H, W], as
// 2-D transposes: 7 and 13 of [H, W] one of H × W into [W, H]; 13 of
// [N, H, W] N of them, matrix by matrix, into [N, W, H]; 15 into [W, H, N]
// one for each h, of the N × W matrix whose rows (n) lie H·W apart in the
// source and whose columns (w) become rows H·N apart in the destination; 16
// (int8_t into NZ [W/2, H/16, 16, 2]) one of H × W/2 pairs of bytes, each
// pair moved as one 2-byte element.
void RunNdTranspose(uint32_t t, uint32_t rank, const uint64_t* d,
                    const uint8_t* src, uint8_t* dst, uint32_t bytes) {
  if (t == 16) {
    TransposeBlock(dst, src, d[0], d[1] / 2, d[1] / 2, d[0], 2 * bytes);
    return;
  }
  if (rank == 2) {
    TransposeBlock(dst, src, d[0], d[1], d[1], d[0], bytes);
    return;
  }
  const uint64_t N = d[0], H = d[1], W = d[2];
  if (t == 13) {
    for (uint64_t n = 0; n < N; ++n) {
      const uint64_t matrix = n * H * W * bytes;
      TransposeBlock(dst + matrix, src + matrix, H, W, W, H, bytes);
    }
    return;
  }
  for (uint64_t h = 0; h < H; ++h) {
    TransposeBlock(dst + h * N * bytes, src + h * W * bytes, N, W, H * W, H * N,
                   bytes);
  }
}

// Scenario 14 ([N, H, W] to [H, N, W]), whose map keeps rows whole, as runs.
void RunNdRuns(const uint64_t* d, RunCopier& move) {
  const uint64_t N = d[0], H = d[1], W = d[2];
  for (uint64_t n = 0; n < N; ++n) {
    for (uint64_t h = 0; h < H; ++h) {
      for (uint64_t w = 0; w < W; ++w) {
        move((n * H + h) * W + w, (h * N + n) * W + w);
      }
    }
  }
}

}  // namespace

void RunTranspose(const TransposeArgs& a) {
  CheckPlacements(kApi, {{"dst", a.dst}, {"src", a.src}});
  const ProfileInfo& profile = a.dst.core->profile();
  const uint32_t type = static_cast<uint32_t>(a.transpose_type);
  if (!IsTransposeScenario(type)) {
    Fail(
        "%s: transposeType is %u, which is not supported: the scenarios are "
        "1-7 and 13-16 (TRANSPOSE_NZ2ND_0213 ... TRANSPOSE_ND2ND_ONLY, "
        "TRANSPOSE_ND2ND_021 ... TRANSPOSE_ND2NZ_WITH_INTLV)",
        kApi, type);
  }
  if (Is950OnlyScenario(type) && profile.profile != Profile::k950) {
    Fail(
        "%s: transposeType %u is available on profile 950 only, not on "
        "profile %s (%s)",
        kApi, type, profile.key, profile.name);
  }
  CheckTypeOn(kApi, a.type, TransposeTypes(type), profile);

  const AscendC::tiling::ConfusionTransposeTiling& t = *a.tiling;
  CheckTilingFilled(kApi, "transposeType", t.transposeType,
                    "GetTransposeTilingInfo");
  if (t.transposeType != type) {
    Fail(
        "%s: transposeType is %u but tiling.transposeType is %u: pass the "
        "scenario the tiling was made for",
        kApi, type, t.transposeType);
  }
  const uint32_t bytes = ElemBytes(a.type);
  if (t.typeSize != bytes) {
    Fail(
        "%s: tiling.typeSize is %u but T is %s (%u bytes): call "
        "GetTransposeTilingInfo with typeSize = sizeof(T)",
        kApi, t.typeSize, ElemName(a.type), bytes);
  }
  TransposeShape shape{
      type, 0, {t.shapeDim0, t.shapeDim1, t.shapeDim2, t.shapeDim3}};
  while (shape.rank < 4 && shape.dims[shape.rank] != 0) ++shape.rank;
  const std::string problem = TransposeShapeProblem(shape);
  if (!problem.empty()) {
    Fail("%s: the tiling's %s; the tiling is inconsistent", kApi,
         problem.c_str());
  }
  const uint64_t src_elems = TransposeSrcElements(shape);
  const uint64_t dst_elems = TransposeDstElements(shape);
  const Element e{bytes, ElemPlural(a.type)};
  CheckLengths(kApi, e,
               {{"src", a.src, src_elems, "the elements of tiling's srcShape"},
                {"dst", a.dst, dst_elems, "the scenario's destination shape"}});
  CheckTransformOperands(kApi, "dst", a.dst, dst_elems * bytes, "src", a.src,
                         src_elems * bytes, a.shared_tmp);

  if (type == 7 || type == 13 || type == 15 || type == 16) {
    RunNdTranspose(type, shape.rank, shape.dims, a.src.data(), a.dst.data(),
                   bytes);
    return;
  }
  RunCopier move(a.src.data(), a.dst.data(), bytes);
  if (type <= 6) {
    RunNz(type, shape.dims, move);
  } else {
    RunNdRuns(shape.dims, move);
  }
  move.Flush();
}

}  // namespace normgrad_ascendc

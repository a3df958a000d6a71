// rmsnorm.cc — AscendC::RmsNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape and chunking; the
// basic-block shape; the scratch size), then the numeric order of
// docs/rmsnorm.md chunk by chunk in float, half widened on the way in and
// narrowed once on the way out.
#include "lib/normalization/rmsnorm.h"

#include <cmath>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/rmsnorm_host_tiling.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace normgrad_ascendc {
namespace {

using AscendC::RmsNormTiling;

constexpr char kApi[] = "RmsNorm";

// A filled tiling with B·S ≥ 1, 1 ≤ originalH ≤ H, H·sizeof(T) a multiple of
// 32, and the host's 1/originalH.
void CheckShape(const RmsNormTiling& t, const Element& e) {
  CheckTilingFilled(kApi, "mainBsLength", t.mainBsLength,
                    "GetRmsNormTilingInfo");
  CheckRowsNotEmpty(kApi, t.bLength, t.sLength);
  if (t.originalHLength == 0 || t.originalHLength > t.hLength) {
    Fail(
        "RmsNorm: tiling.originalHLength %u must be in [1, tiling.hLength "
        "%u]",
        t.originalHLength, t.hLength);
  }
  CheckRowLength(kApi, t.hLength, t.hLength, e, kPadRowsAdvice);
  CheckReciprocal(kApi, "reciprocalOfHLength", t.reciprocalOfHLength,
                  "originalHLength", t.originalHLength);
}

// The chunking fields: each must be what docs/rmsnorm.md, "Tiling fields",
// derives from bLength, sLength, hLength and mainBsLength.
void CheckChunking(const RmsNormTiling& t) {
  const uint64_t h = t.hLength;
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  const uint64_t rows = t.mainBsLength;
  if (bs * h > 0xFFFFFFFFu || rows > bs) {
    Fail(
        "RmsNorm: tiling.mainBsLength %u must be at most bLength %u * "
        "sLength %u, and B*S*H at most 4294967295: the tiling is "
        "inconsistent",
        t.mainBsLength, t.bLength, t.sLength);
  }
  CheckDerivedFields(
      kApi,
      {
          {"mainBshLength", t.mainBshLength, rows * h,
           "mainBsLength * hLength"},
          {"mainBsLengthAlign", t.mainBsLengthAlign, RoundUp(rows, 8),
           "mainBsLength rounded up to a multiple of 8"},
          {"loopRound", t.loopRound, bs / rows, "B*S / mainBsLength"},
          {"inputTailPos", t.inputTailPos, bs / rows * rows * h,
           "loopRound * mainBshLength"},
          {"tailBsLength", t.tailBsLength, bs % rows, "B*S % mainBsLength"},
          {"tailBshLength", t.tailBshLength, bs % rows * h,
           "tailBsLength * hLength"},
      });
}

// isBasicBlock = true promises H a multiple of 64 below 2048, unpadded rows,
// and B·S and the rows per chunk multiples of 8.
void CheckBasicBlock(const RmsNormTiling& t) {
  if (t.hLength % 64 != 0 || t.hLength >= 2048) {
    Fail(
        "RmsNorm: isBasicBlock is true but tiling.hLength is %u; a basic "
        "block needs H a multiple of 64 below 2048",
        t.hLength);
  }
  if (t.originalHLength != t.hLength) {
    Fail(
        "RmsNorm: isBasicBlock is true but tiling.originalHLength %u differs "
        "from tiling.hLength %u; a basic block needs unpadded rows",
        t.originalHLength, t.hLength);
  }
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  if (bs % 8 != 0 || t.mainBsLength % 8 != 0) {
    Fail(
        "RmsNorm: isBasicBlock is true but B*S is %llu and "
        "tiling.mainBsLength %u; a basic block needs both multiples of 8 (a "
        "tiling from GetRmsNormTilingInfo with isBasicBlock = true)",
        static_cast<unsigned long long>(bs), t.mainBsLength);
  }
}

// The scratch of the call: sharedTmpBuffer or the framework scratch, placed
// for the vector unit and holding what a chunk of mainBsLength rows needs.
TensorView CheckedScratch(const RmsNormArgs& a, const RmsNormTiling& t,
                          const Element& e, const char* name) {
  const uint64_t floats =
      RmsNormScratchFloats(t.mainBsLength, t.hLength, e.bytes);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, floats * 4, "%llu bytes",
                  static_cast<unsigned long long>(floats * 4));
  CheckPlacement(kApi, name, scratch);
  if (scratch.bytes / 4 < floats) {
    Fail(
        "RmsNorm: %s holds %u bytes, fewer than the %llu a chunk of "
        "tiling.mainBsLength %u rows needs (%s: %u*mainBsLength*hLength + "
        "mainBsLengthAlign floats; pass the stackBufferByteSize the tiling "
        "was made with)",
        name, scratch.bytes, static_cast<unsigned long long>(floats * 4),
        t.mainBsLength, e.bytes == 2 ? "half" : "float",
        e.bytes == 2 ? 2u : 1u);
  }
  return scratch;
}

// dstLocal must not share memory with gammaLocal (documented) nor with the
// scratch; it may be srcLocal itself (each row's input is read before its
// output is written) but not overlap it partly. The scratch overlaps nothing.
void CheckOverlaps(const RmsNormArgs& a, const RmsNormTiling& t,
                   const Element& e, const TensorView& scratch,
                   const char* scratch_name) {
  const uint64_t bsh_bytes =
      uint64_t{t.bLength} * t.sLength * t.hLength * e.bytes;
  const UbRange dst = UbRangeOf("dstLocal", a.dst, bsh_bytes);
  const UbRange src = UbRangeOf("srcLocal", a.src, bsh_bytes);
  const UbRange gamma =
      UbRangeOf("gammaLocal", a.gamma, uint64_t{t.hLength} * e.bytes);
  const UbRange tmp =
      UbRangeOf(scratch_name, scratch,
                4 * RmsNormScratchFloats(t.mainBsLength, t.hLength, e.bytes));
  if (UbOverlap(dst, gamma)) {
    FailUbOverlap(kApi, dst, gamma,
                  "dstLocal and gammaLocal must not share memory");
  }
  if (UbOverlap(dst, src) && dst.begin != src.begin) {
    FailUbOverlap(kApi, dst, src,
                  "dstLocal may be srcLocal itself but must not overlap it "
                  "partly");
  }
  for (const UbRange& other : {dst, src, gamma}) {
    if (UbOverlap(tmp, other)) {
      FailUbOverlap(kApi, other, tmp,
                    "RmsNorm writes its scratch, so it must not "
                    "share memory with an operand");
    }
  }
}

// One chunk of `rows` rows starting at row `row0`, every step over the whole
// chunk before the next (docs/rmsnorm.md, "Numeric order"): squares, row
// sums, then each row scaled. The chunk's input is read before its output is
// written, so dstLocal may be srcLocal.
void RunChunk(const RmsNormArgs& a, const RmsNormTiling& t, float* scratch,
              bool saturate, uint32_t row0, uint32_t rows) {
  const uint32_t h = t.hLength;
  const uint32_t n = rows * h;
  const uint32_t first = row0 * h;
  float* squares = scratch;
  float* x_wide = scratch + t.mainBshLength;  // half only
  float* sums =
      a.is_half ? x_wide + t.mainBshLength : squares + t.mainBshLength;
  const float* x = AsFloats(a.src, a.is_half, first, n, x_wide);
  for (uint32_t i = 0; i < n; ++i) squares[i] = x[i] * x[i];
  for (uint32_t r = 0; r < rows; ++r) {
    sums[r] = FoldedRowSum(squares + r * h, h);
  }
  // The scaled rows go to the squares buffer (half) or straight to dstLocal
  // (float): every x of the chunk has been squared already.
  float* y = a.is_half ? squares : FloatData(a.dst) + first;
  for (uint32_t r = 0; r < rows; ++r) {
    const float mean_square = sums[r] * t.reciprocalOfHLength;
    const float rstd = 1.0f / std::sqrt(mean_square + a.epsilon);
    for (uint32_t j = 0; j < h; ++j) {
      const float g =
          a.is_half ? float(HalfData(a.gamma)[j]) : FloatData(a.gamma)[j];
      y[r * h + j] = (x[r * h + j] * rstd) * g;
    }
  }
  if (a.is_half) NarrowToHalf(y, HalfData(a.dst) + first, n, saturate);
}

// `hand` with its chunking fields set for one chunk of all B*S rows (the
// rule of CheckChunking), when B*S*H fits the tiling's 32 bits (else
// unchanged, for CheckChunking to name).
RmsNormTiling OneChunkOn950(const RmsNormTiling& hand) {
  RmsNormTiling t = hand;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  if (rows == 0 || rows * t.hLength > UINT32_MAX) return t;
  t.mainBsLength = static_cast<uint32_t>(rows);
  t.mainBshLength = static_cast<uint32_t>(rows * t.hLength);
  t.mainBsLengthAlign = static_cast<uint32_t>(RoundUp(rows, 8));
  t.loopRound = 1;
  t.inputTailPos = t.mainBshLength;
  t.tailBsLength = 0;
  t.tailBshLength = 0;
  return t;
}

}  // namespace

void RunRmsNorm(const RmsNormArgs& a) {
  const Element e = HalfOrFloat(a.is_half);
  // Ascend 950 reads the shape and the reciprocal only, and works in one
  // chunk of all rows in floats of its own: rows are independent, so the
  // chunking changes no bit.
  const bool shape_only = ReadsShapeOnly(*a.dst.core);
  RmsNormTiling completed;
  if (shape_only) completed = OneChunkOn950(*a.tiling);
  const RmsNormTiling& t = shape_only ? completed : *a.tiling;
  CheckPlacements(
      kApi,
      {{"dstLocal", a.dst}, {"srcLocal", a.src}, {"gammaLocal", a.gamma}});
  CheckShape(t, e);
  CheckChunking(t);
  if (a.basic_block) CheckBasicBlock(t);
  const uint32_t bsh = t.bLength * t.sLength * t.hLength;
  CheckLengths(kApi, e,
               {{"dstLocal", a.dst, bsh, "B*S*H"},
                {"srcLocal", a.src, bsh, "B*S*H"},
                {"gammaLocal", a.gamma, t.hLength, "H"}});
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch = shape_only ? NoScratchInUb(kApi, a.shared_tmp)
                                        : CheckedScratch(a, t, e, scratch_name);
  std::vector<float> own(
      shape_only ? RmsNormScratchFloats(t.mainBsLength, t.hLength, e.bytes)
                 : 0);
  CheckOverlaps(a, t, e, scratch, scratch_name);

  float* tmp = shape_only ? own.data() : FloatData(scratch);
  const bool saturate = NarrowSaturates(*a.dst.core);
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    RunChunk(a, t, tmp, saturate, i * t.mainBsLength, t.mainBsLength);
  }
  if (t.tailBsLength != 0) {
    RunChunk(a, t, tmp, saturate, t.loopRound * t.mainBsLength, t.tailBsLength);
  }
}

}  // namespace normgrad_ascendc

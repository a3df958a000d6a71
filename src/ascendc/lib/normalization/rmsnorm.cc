// rmsnorm.cc — AscendC::RmsNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's shape and chunking; the
// basic-block shape; the scratch size), then the numeric order of
// docs/rmsnorm.md chunk by chunk in float, half widened on the way in and
// narrowed once on the way out.
#include "lib/normalization/rmsnorm.h"

#include <cmath>
#include <cstring>

#include "ascendc/lib/common/kernel_checks.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/rmsnorm_host_tiling.h"
#include "ascendc/lib/common/ub_ranges.h"

namespace normgrad_ascendc {
namespace {

using AscendC::RmsNormTiling;

constexpr char kApi[] = "RmsNorm";

// A filled tiling with B·S ≥ 1, 1 ≤ originalH ≤ H, H·sizeof(T) a multiple of
// 32, and the host's 1/originalH.
void CheckShape(const RmsNormTiling& t, const Element& e) {
  if (t.mainBsLength == 0) {
    Fail(
        "RmsNorm: tiling.mainBsLength is 0: the tiling is empty "
        "(GetRmsNormTilingInfo failed or was not called)");
  }
  if (t.bLength == 0 || t.sLength == 0) {
    Fail(
        "RmsNorm: tiling.bLength %u * tiling.sLength %u is 0; B*S must be at "
        "least 1",
        t.bLength, t.sLength);
  }
  if (t.originalHLength == 0 || t.originalHLength > t.hLength) {
    Fail(
        "RmsNorm: tiling.originalHLength %u must be in [1, tiling.hLength "
        "%u]",
        t.originalHLength, t.hLength);
  }
  CheckRowLength(kApi, t.hLength, t.hLength, e, kPadRowsAdvice);
  const float inv_h = 1.0f / static_cast<float>(t.originalHLength);
  if (std::memcmp(&inv_h, &t.reciprocalOfHLength, sizeof inv_h) != 0) {
    Fail(
        "RmsNorm: tiling.reciprocalOfHLength is %.9g, expected 1.0f / "
        "originalHLength %u = %.9g: the tiling is inconsistent",
        static_cast<double>(t.reciprocalOfHLength), t.originalHLength,
        static_cast<double>(inv_h));
  }
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
  const struct {
    const char* field;
    uint32_t value;
    uint64_t expected;
    const char* rule;
  } derived[] = {
      {"mainBshLength", t.mainBshLength, rows * h, "mainBsLength * hLength"},
      {"mainBsLengthAlign", t.mainBsLengthAlign, (rows + 7) / 8 * 8,
       "mainBsLength rounded up to a multiple of 8"},
      {"loopRound", t.loopRound, bs / rows, "B*S / mainBsLength"},
      {"inputTailPos", t.inputTailPos, bs / rows * rows * h,
       "loopRound * mainBshLength"},
      {"tailBsLength", t.tailBsLength, bs % rows, "B*S % mainBsLength"},
      {"tailBshLength", t.tailBshLength, bs % rows * h,
       "tailBsLength * hLength"},
  };
  for (const auto& d : derived) {
    if (d.value != d.expected) {
      Fail(
          "RmsNorm: tiling.%s is %u, expected %llu (%s): the tiling is "
          "inconsistent",
          d.field, d.value, static_cast<unsigned long long>(d.expected),
          d.rule);
    }
  }
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

void CheckLengths(const RmsNormArgs& a, const RmsNormTiling& t,
                  const Element& e) {
  const uint32_t bsh = t.bLength * t.sLength * t.hLength;
  const NeededLength tensors[] = {
      {"dstLocal", a.dst, bsh, "B*S*H"},
      {"srcLocal", a.src, bsh, "B*S*H"},
      {"gammaLocal", a.gamma, t.hLength, "H"},
  };
  for (const NeededLength& tensor : tensors) CheckLength(kApi, e, tensor);
}

// The scratch of the call: sharedTmpBuffer or the framework scratch, placed
// for the vector unit and holding what a chunk of mainBsLength rows needs.
TensorView CheckedScratch(const RmsNormArgs& a, const RmsNormTiling& t,
                          const Element& e, const char* name) {
  const uint64_t floats = RmsNormScratchFloats(t.mainBsLength, t.hLength,
                                               e.bytes);
  const TensorView scratch =
      a.shared_tmp != nullptr
          ? *a.shared_tmp
          : FrameworkScratch(AscendC::TPosition::VECCALC, floats * 4);
  if (a.shared_tmp == nullptr && scratch.bytes == 0) {
    Fail(
        "RmsNorm: no framework scratch is left: the pipe's buffers fill the "
        "unified buffer up to its scratch end (%u bytes, profile %s); leave "
        "%llu bytes free or pass a sharedTmpBuffer",
        scratch.core->scratch_end(), scratch.core->profile().name,
        static_cast<unsigned long long>(floats * 4));
  }
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

float* FloatData(const TensorView& t) {
  return reinterpret_cast<float*>(t.data());
}

normgrad::float16* HalfData(const TensorView& t) {
  return reinterpret_cast<normgrad::float16*>(t.data());
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
  float* sums = a.is_half ? x_wide + t.mainBshLength : squares + t.mainBshLength;
  const float* x = nullptr;
  if (a.is_half) {
    normgrad::Widen(HalfData(a.src) + first, x_wide, n);
    x = x_wide;
  } else {
    x = FloatData(a.src) + first;
  }
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
      const float g = a.is_half ? float(HalfData(a.gamma)[j])
                                : FloatData(a.gamma)[j];
      y[r * h + j] = (x[r * h + j] * rstd) * g;
    }
  }
  if (a.is_half) NarrowToHalf(y, HalfData(a.dst) + first, n, saturate);
}

}  // namespace

void RunRmsNorm(const RmsNormArgs& a) {
  const RmsNormTiling& t = *a.tiling;
  const Element e = a.is_half ? Element{2, "halves"} : Element{4, "floats"};
  CheckPlacement(kApi, "dstLocal", a.dst);
  CheckPlacement(kApi, "srcLocal", a.src);
  CheckPlacement(kApi, "gammaLocal", a.gamma);
  CheckShape(t, e);
  CheckChunking(t);
  if (a.basic_block) CheckBasicBlock(t);
  CheckLengths(a, t, e);
  const char* scratch_name =
      a.shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
  const TensorView scratch = CheckedScratch(a, t, e, scratch_name);
  CheckOverlaps(a, t, e, scratch, scratch_name);

  float* tmp = FloatData(scratch);
  const bool saturate = a.dst.core->profile().profile == Profile::k950;
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    RunChunk(a, t, tmp, saturate, i * t.mainBsLength, t.mainBsLength);
  }
  if (t.tailBsLength != 0) {
    RunChunk(a, t, tmp, saturate, t.loopRound * t.mainBsLength,
             t.tailBsLength);
  }
}

}  // namespace normgrad_ascendc

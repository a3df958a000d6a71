// rmsnorm_host_tiling.cc — the host tiling API of RmsNorm: the scratch-size
// range and the chunking tiling (docs/rmsnorm.md, "Host tiling"), with
// normgrad's error policy (one message on stderr, outputs zeroed, false
// returned).
#include <string>
#include <vector>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/rmsnorm_host_tiling.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace {

using normgrad_ascendc::RmsNormScratchFloats;
using normgrad_ascendc::RoundUp;
using normgrad_ascendc::host_tiling::CheckDimRanges;
using normgrad_ascendc::host_tiling::CheckTypeSize;
using normgrad_ascendc::host_tiling::Dims;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetRmsNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetRmsNormTilingInfo";
constexpr char kSizesZeroed[] = "maxValue and minValue are set to 0";
constexpr char kTilingZeroed[] = "the tiling is zeroed";
// Basic blocks: H a multiple of 64 below 2048, B·S a multiple of 8.
constexpr uint64_t kBasicBlockH = 64;
constexpr uint64_t kBasicBlockHLimit = 2048;
constexpr uint64_t kBasicBlockRows = 8;

// Checks typeSize and srcShape = {B, S, H} (rank 3, dimensions in
// [1, 2^32-1], H·typeSize a multiple of 32, B·S·H within 32 bits, and the
// basic-block rules when asked); fills *d.
bool CheckSrcShape(const char* fn, const ge::Shape& shape, uint32_t type_size,
                   bool basic, const char* consequence, Dims* d) {
  if (!CheckTypeSize(fn, "typeSize", type_size, "half", consequence)) {
    return false;
  }
  const std::string text = "srcShape " + ShapeText(shape);
  if (shape.GetDimNum() != 3) {
    Report(fn,
           text + " has rank " + std::to_string(shape.GetDimNum()) +
               ": it must be [B, S, H]",
           consequence);
    return false;
  }
  uint64_t dims[3];
  if (!CheckDimRanges(fn, text, shape, {"B", "S", "H"}, consequence, dims)) {
    return false;
  }
  const uint64_t b = dims[0];
  const uint64_t s = dims[1];
  const uint64_t h = dims[2];
  if (h * type_size % 32 != 0) {
    Report(fn,
           text + " has H = " + std::to_string(h) + ", " +
               std::to_string(h * type_size) +
               " bytes: H must be 32-byte aligned (a multiple of " +
               std::to_string(32 / type_size) +
               "); pad the rows and pass the original H in originSrcShape",
           consequence);
    return false;
  }
  if (b * s > kU32Max || b * s * h > kU32Max) {
    Report(fn, text + " has more than 4294967295 rows or elements (B*S*H)",
           consequence);
    return false;
  }
  if (basic && (h % kBasicBlockH != 0 || h >= kBasicBlockHLimit)) {
    Report(fn,
           text + " has H = " + std::to_string(h) +
               ": with isBasicBlock H must be a multiple of 64 below 2048",
           consequence);
    return false;
  }
  if (basic && b * s % kBasicBlockRows != 0) {
    Report(fn,
           text + " has B*S = " + std::to_string(b * s) +
               ": with isBasicBlock B*S must be a multiple of 8",
           consequence);
    return false;
  }
  *d = {static_cast<uint32_t>(b), static_cast<uint32_t>(s),
        static_cast<uint32_t>(h), static_cast<uint32_t>(b * s),
        static_cast<uint32_t>(b * s * h)};
  return true;
}

// The fewest rows a chunk may hold: one, or a basic block's eight.
uint64_t MinRows(bool basic) { return basic ? kBasicBlockRows : 1; }

// The tiling, or all zeros after one message on stderr; returns which.
bool ComputeTiling(const ge::Shape& shape, const ge::Shape& origin,
                   uint32_t stack_bytes, uint32_t type_size, bool basic,
                   AscendC::tiling::RmsNormTiling* out) {
  *out = AscendC::tiling::RmsNormTiling{};
  Dims d;
  if (!CheckSrcShape(kTilingFn, shape, type_size, basic, kTilingZeroed, &d)) {
    return false;
  }
  const std::string origin_text = "originSrcShape " + ShapeText(origin);
  if (origin.GetDimNum() != 3 || origin.GetDim(0) != shape.GetDim(0) ||
      origin.GetDim(1) != shape.GetDim(1)) {
    Report(kTilingFn,
           origin_text +
               " must be [B, S, originalH] with the B and S of "
               "srcShape " +
               ShapeText(shape),
           kTilingZeroed);
    return false;
  }
  const int64_t original_h = origin.GetDim(2);
  const int64_t align = 32 / type_size;
  if (original_h < 1 ||
      RoundUp(static_cast<uint64_t>(original_h), align) != d.h) {
    Report(kTilingFn,
           origin_text + " has originalH = " + std::to_string(original_h) +
               ": it must be at least 1 and H = " + std::to_string(d.h) +
               " must be originalH rounded up to a multiple of " +
               std::to_string(align) + " (32 bytes)",
           kTilingZeroed);
    return false;
  }
  if (basic && original_h != d.h) {
    Report(kTilingFn,
           origin_text + " has originalH = " + std::to_string(original_h) +
               ": with isBasicBlock the rows must not be padded (originalH "
               "== H = " +
               std::to_string(d.h) + ")",
           kTilingZeroed);
    return false;
  }
  const uint64_t floats = stack_bytes / 4;
  const uint64_t per_row = (type_size == 2 ? 2 : 1) * uint64_t{d.h};
  uint64_t rows = floats / (per_row + 1);
  while (rows > 0 && RmsNormScratchFloats(rows, d.h, type_size) > floats) {
    --rows;
  }
  if (rows > d.bs) rows = d.bs;
  if (basic) rows -= rows % kBasicBlockRows;
  if (rows < MinRows(basic)) {
    Report(kTilingFn,
           "stackBufferByteSize " + std::to_string(stack_bytes) +
               " bytes is less than the minimum " +
               std::to_string(
                   4 * RmsNormScratchFloats(MinRows(basic), d.h, type_size)) +
               " (call GetRmsNormMaxMinTmpSize)",
           kTilingZeroed);
    return false;
  }
  const uint32_t r = static_cast<uint32_t>(rows);
  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = static_cast<uint32_t>(original_h);
  out->reciprocalOfHLength = 1.0f / static_cast<float>(original_h);
  out->mainBshLength = r * d.h;
  out->mainBsLength = r;
  out->mainBsLengthAlign = static_cast<uint32_t>(RoundUp(r, 8));
  out->loopRound = d.bs / r;
  out->inputTailPos = d.bs / r * r * d.h;
  out->tailBsLength = d.bs % r;
  out->tailBshLength = d.bs % r * d.h;
  return true;
}

}  // namespace

namespace AscendC {

bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                             uint32_t& maxValue, uint32_t& minValue,
                             const bool isBasicBlock) {
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckSrcShape(kTmpSizeFn, srcShape, typeSize, isBasicBlock, kSizesZeroed,
                     &d)) {
    return false;
  }
  const uint64_t max = 4 * RmsNormScratchFloats(d.bs, d.h, typeSize);
  const uint64_t min =
      4 * RmsNormScratchFloats(MinRows(isBasicBlock), d.h, typeSize);
  if (min > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " needs at least " +
               std::to_string(min) +
               " bytes of scratch: no 32-bit scratch size (at most "
               "4294967295) is enough",
           kSizesZeroed);
    return false;
  }
  maxValue = static_cast<uint32_t>(max > kU32Max ? kU32Max : max);
  minValue = static_cast<uint32_t>(min);
  return true;
}

bool GetRmsNormTilingInfo(const ge::Shape& srcShape,
                          const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize,
                          const uint32_t typeSize,
                          optiling::RmsNormTiling& host,
                          const bool isBasicBlock) {
  AscendC::tiling::RmsNormTiling kernel;
  const bool ok = ComputeTiling(srcShape, originSrcShape, stackBufferByteSize,
                                typeSize, isBasicBlock, &kernel);
  NORMGRAD_RMSNORM_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
  return ok;
}

bool GetRmsNormTilingInfo(const ge::Shape& srcShape,
                          const ge::Shape& originSrcShape,
                          const uint32_t stackBufferByteSize,
                          const uint32_t typeSize,
                          AscendC::tiling::RmsNormTiling& tiling,
                          const bool isBasicBlock) {
  return ComputeTiling(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                       isBasicBlock, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kRmsNormTilingFieldCount> RmsNormTilingFields(
    const AscendC::tiling::RmsNormTiling& tiling) {
  return {{NORMGRAD_RMSNORM_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

// batchnorm_host_tiling.cc — the host tiling API of BatchNorm: scratch sizes
// and the column chunking of docs/batchnorm.md ("Host tiling"), with normgrad's
// error policy (one message on stderr, outputs zeroed, false returned).
#include <cstring>
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/batchnorm_host_tiling.h"

namespace {

using normgrad_ascendc::host_tiling::CheckDims;
using normgrad_ascendc::host_tiling::CheckTypeSize;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetBatchNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetBatchNormNDTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// The validated sizes.
struct Dims {
  uint32_t origin_b;  // the rows the statistics run over
  uint32_t sh;        // S·H features
  uint32_t unit;      // columns of the smallest chunk
  uint32_t half;      // 1 for half, 0 for float
};

bool CheckInputs(const char* function, const ge::Shape& src,
                 const ge::Shape& origin, uint32_t type_size, bool basic_block,
                 const char* consequence, Dims* out) {
  uint64_t s[3], o[3];
  if (!CheckTypeSize(function, "typeSize", type_size, "half", consequence) ||
      !CheckDims(function, "srcShape " + ShapeText(src), src, {"B", "S", "H"},
                 consequence, s) ||
      !CheckDims(function, "originSrcShape " + ShapeText(origin), origin,
                 {"B", "S", "H"}, consequence, o)) {
    return false;
  }
  static constexpr const char* kNames[3] = {"B", "S", "H"};
  for (size_t i = 0; i < 3; ++i) {
    if (o[i] > s[i]) {
      Report(function,
             "originSrcShape " + ShapeText(origin) + " has origin" + kNames[i] +
                 " = " + std::to_string(o[i]) + " above " + kNames[i] + " = " +
                 std::to_string(s[i]) + " of srcShape " + ShapeText(src) +
                 ": the original shape must fit in the stored one",
             consequence);
      return false;
    }
  }
  const uint64_t sh = s[1] * s[2];  // both < 2^32
  if (sh > kU32Max || sh * s[0] > kU32Max) {
    Report(function,
           "srcShape " + ShapeText(src) +
               " has more than 4294967295 elements: B*S*H must fit in 32 bits",
           consequence);
    return false;
  }
  if (sh * type_size % 32 != 0) {
    Report(function,
           "srcShape " + ShapeText(src) + " has S*H = " + std::to_string(sh) +
               " elements of " + std::to_string(type_size) +
               " bytes = " + std::to_string(sh * type_size) +
               " bytes: S*H must be 32-byte aligned (a multiple of " +
               std::to_string(32 / type_size) + ")",
           consequence);
    return false;
  }
  if (basic_block && (o[0] % 8 != 0 || sh % 64 != 0 || sh >= 2048)) {
    Report(function,
           "isBasicBlock needs originB a multiple of 8 and S*H a multiple of "
           "64 below 2048, but originB = " +
               std::to_string(o[0]) + " and S*H = " + std::to_string(sh),
           consequence);
    return false;
  }
  out->origin_b = static_cast<uint32_t>(o[0]);
  out->sh = static_cast<uint32_t>(sh);
  out->unit = basic_block ? 64 : 32 / type_size;
  if (out->unit > out->sh) out->unit = out->sh;
  out->half = type_size == 2 ? 1 : 0;
  return true;
}

// Floats of scratch per chunk column: three chunk buffers of originB rows,
// and for half a float mean and variance.
uint64_t FloatsPerColumn(const Dims& d) {
  return uint64_t{3} * d.origin_b + 2 * d.half;
}

void ComputeTiling(const ge::Shape& src, const ge::Shape& origin,
                   uint32_t stack_bytes, uint32_t type_size, bool basic_block,
                   AscendC::tiling::BatchNormTiling* out, bool* ok) {
  std::memset(static_cast<void*>(out), 0, sizeof *out);
  *ok = false;
  Dims d;
  if (!CheckInputs(kTilingFn, src, origin, type_size, basic_block,
                   kTilingZeroed, &d)) {
    return;
  }
  const uint64_t tmp_buf = stack_bytes / 4;
  uint64_t width = tmp_buf / FloatsPerColumn(d) / d.unit * d.unit;
  if (width == 0) {
    Report(kTilingFn,
           "stackBufferByteSize " + std::to_string(stack_bytes) +
               " bytes is too small for one chunk of " +
               std::to_string(d.unit) + " columns (" +
               std::to_string(FloatsPerColumn(d)) +
               " floats a column): call GetBatchNormMaxMinTmpSize for the "
               "minimum (" +
               std::to_string(4 * FloatsPerColumn(d) * d.unit) + " bytes here)",
           kTilingZeroed);
    return;
  }
  if (width > d.sh) width = d.sh;
  const uint32_t w = static_cast<uint32_t>(width);
  const uint32_t one = d.origin_b * w;
  const uint32_t mv = d.half * 2 * w;  // half's float means and variances
  const uint32_t tail = d.sh % w;
  out->originalBLength = d.origin_b;
  out->meanVarSize = d.sh;
  out->meanTmpTensorPos = 0;
  out->varianceTmpTensorPos = d.half * w;
  out->tmpBufSize = static_cast<uint32_t>(tmp_buf);
  out->oneTmpSize = one;
  out->firstTmpStartPos = mv;
  out->secondTmpStartPos = mv + one;
  out->thirdTmpStartPos = mv + 2 * one;
  out->loopRound = d.sh / w;
  out->inputTailSize = d.origin_b * tail;
  out->inputTailPos = d.sh - tail;
  out->meanVarTailSize = tail;
  out->meanVarTailPos = d.sh - tail;
  out->bshCurLength = one;
  out->shCurLength = w;
  out->firstDimValueBack = 1.0f / static_cast<float>(d.origin_b);
  out->castHalfRepStride = d.half * w / 8;
  out->shCurLengthBlockNum = w * type_size / 32;
  out->castHalfOutRepStride = d.half * w / 16;
  *ok = true;
}

}  // namespace

namespace AscendC {

bool GetBatchNormMaxMinTmpSize(const ge::Shape& srcShape,
                               const ge::Shape& originSrcShape,
                               const uint32_t typeSize, const bool,
                               uint32_t& maxValue, uint32_t& minValue,
                               const bool isBasicBlock) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckInputs(kTmpSizeFn, srcShape, originSrcShape, typeSize, isBasicBlock,
                   kZeroed, &d)) {
    return false;
  }
  const uint64_t min = 4 * FloatsPerColumn(d) * d.unit;
  const uint64_t max = 4 * FloatsPerColumn(d) * d.sh;
  if (min > kU32Max) {
    Report(kTmpSizeFn,
           "originB = " + std::to_string(d.origin_b) + " needs at least " +
               std::to_string(min) +
               " bytes of scratch: no 32-bit scratch size is enough",
           kZeroed);
    return false;
  }
  maxValue = static_cast<uint32_t>(max > kU32Max ? kU32Max : max);
  minValue = static_cast<uint32_t>(min);
  return true;
}

bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape,
                              const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize,
                              const uint32_t typeSize, const bool,
                              optiling::BatchNormTiling& host,
                              const bool isBasicBlock) {
  AscendC::tiling::BatchNormTiling kernel;
  bool ok = false;
  ComputeTiling(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                isBasicBlock, &kernel, &ok);
  NORMGRAD_BATCHNORM_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
  return ok;
}

bool GetBatchNormNDTilingInfo(const ge::Shape& srcShape,
                              const ge::Shape& originSrcShape,
                              const uint32_t stackBufferByteSize,
                              const uint32_t typeSize, const bool,
                              AscendC::tiling::BatchNormTiling& tiling,
                              const bool isBasicBlock) {
  bool ok = false;
  ComputeTiling(srcShape, originSrcShape, stackBufferByteSize, typeSize,
                isBasicBlock, &tiling, &ok);
  return ok;
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kBatchNormTilingFieldCount> BatchNormTilingFields(
    const AscendC::tiling::BatchNormTiling& tiling) {
  return {{NORMGRAD_BATCHNORM_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

// layernorm_separate_host_tiling.cc — the host tiling of LayerNorm's second
// form
// ([A, R] rows, mean and rstd or variance): scratch sizes and the tiling of
// docs/layernorm.md, "The [A, R] form", with normgrad's error policy (one
// message on stderr, the outputs zeroed, nothing thrown).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/layernorm_host_tiling.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace {

using normgrad_ascendc::RoundUp;
using normgrad_ascendc::host_tiling::CheckTypeSize;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetLayerNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetLayerNormNDTilingInfo";

struct Rows {
  uint32_t a;
  uint32_t r;
  uint32_t ar;
};

// srcShape {A, R}: rank 2, both in [1, 2^32-1], R·typeSize a multiple of 32
// bytes, A·R within 32 bits; typeSize 2 or 4.
bool CheckRows(const char* function, const ge::Shape& shape, uint32_t type_size,
               const char* consequence, Rows* rows) {
  if (!CheckTypeSize(function, "typeSize", type_size, "half, bfloat16_t",
                     consequence)) {
    return false;
  }
  const std::string text = "srcShape " + ShapeText(shape);
  if (shape.GetDimNum() != 2) {
    Report(function,
           text + " has " + std::to_string(shape.GetDimNum()) +
               " dimensions: the [A, R] form takes 2, {A, R}",
           consequence);
    return false;
  }
  const int64_t a = shape.GetDim(0), r = shape.GetDim(1);
  if (a < 1 || r < 1 || static_cast<uint64_t>(a) > kU32Max ||
      static_cast<uint64_t>(r) > kU32Max) {
    Report(function, text + ": A and R must be in [1, 4294967295]",
           consequence);
    return false;
  }
  if (static_cast<uint64_t>(r) * type_size % 32 != 0) {
    Report(function,
           text + " has R = " + std::to_string(r) + ": R * typeSize " +
               std::to_string(type_size) +
               " must be a multiple of 32 bytes (pass the padded row length)",
           consequence);
    return false;
  }
  const uint64_t ar = static_cast<uint64_t>(a) * static_cast<uint64_t>(r);
  if (ar > kU32Max) {
    Report(function,
           text + " gives A*R = " + std::to_string(ar) +
               ": it must fit in 32 bits (at most 4294967295)",
           consequence);
    return false;
  }
  *rows = {static_cast<uint32_t>(a), static_cast<uint32_t>(r),
           static_cast<uint32_t>(ar)};
  return true;
}

uint32_t LargestPowerOfTwoAtMost(uint32_t n) {
  uint32_t p = 1;
  while (p <= n / 2) p *= 2;
  return p;
}

void ComputeTiling(const ge::Shape& shape, uint32_t stack_buffer_bytes,
                   uint32_t type_size,
                   AscendC::tiling::LayerNormSeparateTiling* out) {
  static constexpr char kZeroed[] = "the tiling is zeroed";
  *out = AscendC::tiling::LayerNormSeparateTiling{};
  Rows d;
  if (!CheckRows(kTilingFn, shape, type_size, kZeroed, &d)) return;
  const uint64_t tmp_buf = stack_buffer_bytes / 4;
  uint64_t one = tmp_buf / 2 / d.r * d.r;
  if (one == 0) {
    Report(
        kTilingFn,
        "stackBufferSize " + std::to_string(stack_buffer_bytes) + " bytes (" +
            std::to_string(tmp_buf) +
            " floats) is less than the two rows of R = " + std::to_string(d.r) +
            " floats the [A, R] form needs: call GetLayerNormMaxMinTmpSize "
            "for the minimum (" +
            std::to_string(2 * RoundUp(uint64_t{4} * d.r, 32)) + " bytes here)",
        kZeroed);
    return;
  }
  if (one > d.ar) one = d.ar;
  const uint32_t one_tmp = static_cast<uint32_t>(one);
  const uint32_t head = LargestPowerOfTwoAtMost(d.r);
  uint32_t halvings = 0;
  for (uint32_t n = head; n > 64; n /= 2) ++halvings;
  const uint32_t tail = d.ar % one_tmp;
  out->aLength = d.a;
  out->rLength = d.r;
  out->halfAddRepeatTimes = halvings;
  out->rHeadLength = head;
  out->k2Rec = 1.0f / static_cast<float>(head);
  out->k2RRec = static_cast<float>(head) / static_cast<float>(d.r);
  out->inputXSize = d.ar;
  out->meanVarSize = d.a;
  out->numberOfTmpBuf = 2;
  out->varianceTmpTensorPos = 0;
  out->varianceTmpTensorSize = 0;
  out->tmpBufSize = static_cast<uint32_t>(tmp_buf);
  out->oneTmpSize = one_tmp;
  out->firstTmpStartPos = 0;
  out->secondTmpStartPos = one_tmp;
  out->thirdTmpStartPos = 2 * one_tmp;
  out->loopRound = d.ar / one_tmp;
  out->inputRoundSize = one_tmp;
  out->inputTailSize = tail;
  out->inputTailPos = d.ar - tail;
  out->meanVarRoundSize = one_tmp / d.r;
  out->meanVarTailSize = tail / d.r;
  out->meanVarTailPos = d.a - tail / d.r;
  out->arCurLength = one_tmp;
  out->aCurLength = one_tmp / d.r;
  out->rValueBack = 1.0f / static_cast<float>(d.r);
}

}  // namespace

namespace AscendC {

void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                               bool /*isReuseSource*/, bool /*isComputeRstd*/,
                               bool isOnlyOutput, uint32_t& maxValue,
                               uint32_t& minValue) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  if (isOnlyOutput) {
    Report(kTmpSizeFn,
           "isOnlyOutput is true: only false is supported (y, mean and rstd "
           "are all written)",
           kZeroed);
    return;
  }
  Rows d;
  if (!CheckRows(kTmpSizeFn, srcShape, typeSize, kZeroed, &d)) return;
  const uint64_t max = 2 * RoundUp(uint64_t{4} * d.ar, 32);
  maxValue = static_cast<uint32_t>(max > kU32Max ? kU32Max : max);
  minValue = static_cast<uint32_t>(2 * RoundUp(uint64_t{4} * d.r, 32));
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool /*isReuseSource*/, bool /*isComputeRstd*/,
                              optiling::LayerNormSeparateTiling& host) {
  AscendC::tiling::LayerNormSeparateTiling kernel;
  ComputeTiling(srcShape, stackBufferSize, typeSize, &kernel);
  NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

void GetLayerNormNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool /*isReuseSource*/, bool /*isComputeRstd*/,
    AscendC::tiling::LayerNormSeparateTiling& tiling) {
  ComputeTiling(srcShape, stackBufferSize, typeSize, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kLayerNormSeparateTilingFieldCount>
LayerNormSeparateTilingFields(
    const AscendC::tiling::LayerNormSeparateTiling& tiling) {
  return {
      {NORMGRAD_LAYERNORM_SEPARATE_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

// layernorm_host_tiling.cc — the host tiling API of LayerNorm: scratch sizes and
// the chunking tiling, exactly the vendor's documented formulas and numbers,
// with normgrad's error policy (one message on stderr, the whole tiling
// zeroed, nothing thrown).
#include <string>
#include <vector>

#include "normgrad_ascendc/lib/normalization/layernorm_host_tiling.h"
#include "ascendc/lib/common/tiling_checks.h"

namespace {

using normgrad_ascendc::host_tiling::CheckInputs;
using normgrad_ascendc::host_tiling::Dims;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetLayerNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetLayerNormNDTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// The shape rules of CheckInputs, with LayerNorm's own reason for
// originalH == H: CheckInputs suggests zero-padding rows, which would change
// a row's mean and variance. So CheckInputs sees originalH as H, and
// originalH is compared here once everything else is valid.
bool CheckLayerNormInputs(const char* function, const ge::Shape& shape,
                          uint32_t type_size, const char* consequence,
                          Dims* dims) {
  std::vector<int64_t> same_h = shape.GetDims();
  if (same_h.size() == 4) same_h[3] = same_h[2];
  if (!CheckInputs(function, ge::Shape(same_h), type_size, consequence, dims)) {
    return false;
  }
  if (shape.GetDim(3) != shape.GetDim(2)) {
    Report(function,
           "srcShape " + ShapeText(shape) +
               " has originalH = " + std::to_string(shape.GetDim(3)) +
               " but H = " + std::to_string(shape.GetDim(2)) +
               ": normgrad requires originalH == H (LayerNorm rows cannot be "
               "padded: padding columns would change the mean and the "
               "variance)",
           consequence);
    return false;
  }
  return true;
}

constexpr uint64_t RoundUp(uint64_t n, uint64_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// The chunk buffers: two for float with isReuseSource (inputX
// serves as the third), else three.
uint32_t NumberOfTmpBuf(uint32_t type_size, bool is_reuse_source) {
  return type_size == 4 && is_reuse_source ? 2 : 3;
}

// The scratch sizes in bytes, in 64 bits: with mv = roundup32(4·B·S),
// in = roundup32(4·B·S·H), hd = roundup32(4·H) and n chunk buffers,
// max = n·in + 2·mv and min = n·hd + 2·mv.
struct TmpBytes {
  uint64_t max;
  uint64_t min;
};

TmpBytes ScratchBytes(const Dims& d, uint32_t number_of_tmp_buf) {
  const uint64_t mv = RoundUp(uint64_t{4} * d.bs, 32);
  const uint64_t in = RoundUp(uint64_t{4} * d.bsh, 32);
  const uint64_t hd = RoundUp(uint64_t{4} * d.h, 32);
  return {number_of_tmp_buf * in + 2 * mv, number_of_tmp_buf * hd + 2 * mv};
}

// The tiling. Assigns every field of *out: the tiling, or all zeros (after one
// message on stderr) when the input is bad.
void ComputeTiling(const ge::Shape& shape, uint32_t stack_buffer_bytes,
                   uint32_t type_size, bool is_reuse_source,
                   AscendC::tiling::LayerNormTiling* out) {
  *out = AscendC::tiling::LayerNormTiling{};
  Dims d;
  if (!CheckLayerNormInputs(kTilingFn, shape, type_size, kTilingZeroed, &d)) {
    return;
  }
  const uint32_t number_of_tmp_buf = NumberOfTmpBuf(type_size, is_reuse_source);
  const uint64_t mean_size = RoundUp(d.bs, 8);
  if (mean_size > kU32Max) {
    Report(kTilingFn,
           "srcShape " + ShapeText(shape) +
               " gives B*S = " + std::to_string(d.bs) +
               ", which rounds up to " + std::to_string(mean_size) +
               " mean/variance floats: roundup(B*S, 8) must fit "
               "in 32 bits",
           kTilingZeroed);
    return;
  }
  const uint64_t tmp_buf = stack_buffer_bytes / 4;  // scratch in floats
  const uint64_t mv_total = type_size == 2 ? 2 * mean_size : 0;
  // "stackBufferSize <bytes> (<floats>) <problem>: call ... (<min> here)".
  auto report_scratch = [&](const std::string& problem) {
    const uint64_t min_bytes = ScratchBytes(d, number_of_tmp_buf).min;
    Report(kTilingFn,
           "stackBufferSize " + std::to_string(stack_buffer_bytes) +
               " bytes (" + std::to_string(tmp_buf) + " floats) " + problem +
               ": call GetLayerNormMaxMinTmpSize for the minimum (" +
               std::to_string(min_bytes) + " bytes here)",
           kTilingZeroed);
  };
  if (tmp_buf < mv_total) {
    report_scratch(
        "is less than the 2*roundup(B*S, 8) = " + std::to_string(mv_total) +
        " floats that half's float means and variances take");
    return;
  }
  const uint64_t per_buffer = (tmp_buf - mv_total) / number_of_tmp_buf;
  uint64_t one = per_buffer / d.h * d.h;
  if (one == 0) {
    report_scratch(
        "leaves " + std::to_string(per_buffer) + " floats for each of the " +
        std::to_string(number_of_tmp_buf) + " chunk buffers ((tmpBufSize - " +
        std::to_string(mv_total) + ") / " + std::to_string(number_of_tmp_buf) +
        "), less than one row of H = " + std::to_string(d.h));
    return;
  }
  if (one > d.bsh) one = d.bsh;
  const uint32_t one_tmp = static_cast<uint32_t>(one);
  const uint32_t mv = static_cast<uint32_t>(mv_total);
  const uint32_t tail = d.bsh % one_tmp;

  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = d.h;
  out->inputXSize = d.bsh;
  out->meanVarSize = d.bs;
  out->numberOfTmpBuf = number_of_tmp_buf;
  out->meanTmpTensorPos = 0;
  out->meanTmpTensorSize = static_cast<uint32_t>(mean_size);
  out->varianceTmpTensorPos = static_cast<uint32_t>(mean_size);
  out->varianceTmpTensorSize = static_cast<uint32_t>(mean_size);
  out->tmpBufSize = static_cast<uint32_t>(tmp_buf);
  out->oneTmpSize = one_tmp;
  out->firstTmpStartPos = mv;
  out->secondTmpStartPos = mv + one_tmp;
  out->thirdTmpStartPos = mv + 2 * one_tmp;
  out->loopRound = d.bsh / one_tmp;
  out->inputRoundSize = one_tmp;
  out->inputTailSize = tail;
  out->inputTailPos = d.bsh - tail;
  out->meanVarRoundSize = one_tmp / d.h;
  out->meanVarTailSize = tail / d.h;
  out->meanVarTailPos = d.bs - tail / d.h;
  out->bshCurLength = one_tmp;
  out->bsCurLength = one_tmp / d.h;
  out->lastDimValueBack = 1.0f / static_cast<float>(d.h);
}

}  // namespace

namespace AscendC {

void GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                               bool isReuseSource, uint32_t& maxValue,
                               uint32_t& minValue) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckLayerNormInputs(kTmpSizeFn, srcShape, typeSize, kZeroed, &d)) {
    return;
  }
  const uint32_t number_of_tmp_buf = NumberOfTmpBuf(typeSize, isReuseSource);
  const TmpBytes bytes = ScratchBytes(d, number_of_tmp_buf);
  if (bytes.min > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " needs at least " +
               std::to_string(number_of_tmp_buf) +
               "*roundup32(4*H) + 2*roundup32(4*B*S) = " +
               std::to_string(bytes.min) +
               " bytes of scratch: no 32-bit scratch size (at most 4294967295) "
               "is enough",
           kZeroed);
    return;
  }
  maxValue = static_cast<uint32_t>(bytes.max > kU32Max ? kU32Max : bytes.max);
  minValue = static_cast<uint32_t>(bytes.min);
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource,
                              optiling::LayerNormTiling& host) {
  AscendC::tiling::LayerNormTiling kernel;
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, &kernel);
  NORMGRAD_LAYERNORM_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

void GetLayerNormNDTilingInfo(const ge::Shape& srcShape,
                              uint32_t stackBufferSize, uint32_t typeSize,
                              bool isReuseSource,
                              AscendC::tiling::LayerNormTiling& tiling) {
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kLayerNormTilingFieldCount> LayerNormTilingFields(
    const AscendC::tiling::LayerNormTiling& tiling) {
  return {{NORMGRAD_LAYERNORM_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

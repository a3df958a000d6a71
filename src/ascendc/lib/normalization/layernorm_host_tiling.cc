// layernorm_host_tiling.cc — the host tiling API of LayerNorm: scratch sizes
// and the chunking tiling, exactly the vendor's documented formulas and
// numbers, with normgrad's error policy (one message on stderr, the whole
// tiling zeroed, nothing thrown).
#include <string>
#include <vector>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "normgrad_ascendc/lib/normalization/layernorm_host_tiling.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace {

using normgrad_ascendc::ChunkedRows;
using normgrad_ascendc::ChunkedRowsScratchBytes;
using normgrad_ascendc::ChunkElements;
using normgrad_ascendc::MeanVarFloats;
using normgrad_ascendc::NumberOfTmpBuf;
using normgrad_ascendc::RoundUp;
using normgrad_ascendc::SetChunkFields;
using normgrad_ascendc::TmpBytes;
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

// The scratch sizes in bytes (ChunkedRowsScratchBytes): with
// mv = roundup32(4·B·S), in = roundup32(4·B·S·H), hd = roundup32(4·H) and n
// chunk buffers, max = n·in + 2·mv and min = n·hd + 2·mv, for float too.
TmpBytes ScratchBytes(const Dims& d, uint32_t number_of_tmp_buf) {
  return ChunkedRowsScratchBytes(number_of_tmp_buf, d.bsh, d.h,
                                 2 * RoundUp(d.bs, 8));
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
  const uint64_t mv_total = MeanVarFloats(d.bs, type_size);
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
  const uint64_t one =
      ChunkElements(tmp_buf, mv_total, number_of_tmp_buf, d.h, d.bsh);
  if (one == 0) {
    const uint64_t per_buffer = (tmp_buf - mv_total) / number_of_tmp_buf;
    report_scratch(
        "leaves " + std::to_string(per_buffer) + " floats for each of the " +
        std::to_string(number_of_tmp_buf) + " chunk buffers ((tmpBufSize - " +
        std::to_string(mv_total) + ") / " + std::to_string(number_of_tmp_buf) +
        "), less than one row of H = " + std::to_string(d.h));
    return;
  }
  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = d.h;
  SetChunkFields(
      ChunkedRows{d.bs, d.h, number_of_tmp_buf, static_cast<uint32_t>(tmp_buf),
                  static_cast<uint32_t>(mv_total), static_cast<uint32_t>(one)},
      out);
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

// layernormgradbeta_host_tiling.cc — the host tiling API of LayerNormGradBeta:
// scratch sizes and the chunking tiling, exactly the vendor's documented
// algorithm and numbers, with normgrad's error policy (one message on
// stderr, the whole tiling zeroed, nothing thrown).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/layernormgradbeta_host_tiling.h"

namespace {

using normgrad_ascendc::host_tiling::CheckInputs;
using normgrad_ascendc::host_tiling::Dims;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetLayerNormGradBetaMaxMinTmpSize";
constexpr char kTilingFn[] = "GetLayerNormGradBetaNDTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// Bytes of scratch per element of H at the minimum (16 half, 8 float).
uint64_t MinBytesPerColumn(uint32_t type_size) {
  return type_size == 2 ? 16 : 8;
}

// The tiling: scratch in floats, the chunk size (whole rows that fit, at most
// B*S*H), the chunk count and tail, and half's scratch offsets. Assigns every
// field of *out: the tiling, or all zeros (after one message on stderr) when
// the input is bad.
void ComputeTiling(const ge::Shape& shape, uint32_t stack_buffer_bytes,
                   uint32_t type_size,
                   AscendC::tiling::LayerNormGradBetaTiling* out) {
  *out = AscendC::tiling::LayerNormGradBetaTiling{};
  Dims d;
  if (!CheckInputs(kTilingFn, shape, type_size, kTilingZeroed, &d)) return;

  const uint64_t h = d.h;
  const uint64_t sb = stack_buffer_bytes / 4;  // scratch in floats
  // "stackBufferSize <bytes> (<floats>) <problem>: call ... (<min> bytes)".
  auto report_scratch = [&](const std::string& problem) {
    Report(kTilingFn,
           "stackBufferSize " + std::to_string(stack_buffer_bytes) +
               " bytes (" + std::to_string(sb) + " floats) " + problem +
               ": call GetLayerNormGradBetaMaxMinTmpSize for the minimum (" +
               std::to_string(MinBytesPerColumn(type_size) * h) +
               " bytes here)",
           kTilingZeroed);
  };
  if (sb < 2 * h) {
    report_scratch("is less than 2*H = " + std::to_string(2 * h) + " floats");
    return;
  }
  uint64_t one = sb;
  uint32_t number_of_tmp_buf = 1;
  if (type_size == 2) {
    number_of_tmp_buf = 2;
    one = (sb - 2 * h) / 2;
  }
  one = one / h * h;
  if (one == 0) {  // only half: float keeps one >= 2*H
    report_scratch("leaves (" + std::to_string(sb) +
                   " - 2*H) / 2 = " + std::to_string((sb - 2 * h) / 2) +
                   " floats for each of the two half input buffers, less "
                   "than one row of H = " +
                   std::to_string(h));
    return;
  }
  if (one >= d.bsh) one = d.bsh;
  const uint32_t one_cal = static_cast<uint32_t>(one);

  out->stackBufferSize = static_cast<uint32_t>(sb);
  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = d.h;
  out->bshLength = d.bsh;
  out->bsLength = d.bs;
  out->oneCalSize = one_cal;
  out->numberOfTmpBuf = number_of_tmp_buf;
  out->loopRound = d.bsh / one_cal;
  out->inputTailSize = d.bsh % one_cal;
  out->inputTailPos = d.bsh - out->inputTailSize;
  out->bsTailSize = out->inputTailSize / d.h;
  out->bshCurLength = one_cal;
  out->bsCurLength = one_cal / d.h;
  if (type_size == 2) {  // float: all positions stay 0
    out->gammaTempTensorPos = 0;
    out->betaTempTensorPos = d.h;
    out->inputDyTmpTensorPos = 2 * d.h;
    out->resForGammaTmpTensorPos = 2 * d.h + one_cal;
  }
}

}  // namespace

namespace AscendC {

void GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape,
                                       uint32_t typeSize,
                                       bool /*isReuseSource*/,
                                       uint32_t& maxValue, uint32_t& minValue) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckInputs(kTmpSizeFn, srcShape, typeSize, kZeroed, &d)) return;
  const uint64_t per_column = MinBytesPerColumn(typeSize);
  const uint64_t min_bytes = per_column * d.h;
  if (min_bytes > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " needs at least " +
               std::to_string(per_column) +
               "*H = " + std::to_string(min_bytes) +
               " bytes of scratch: no 32-bit scratch size (at most "
               "4294967295) is enough",
           kZeroed);
    return;
  }
  const uint64_t max_bytes = per_column * d.bsh;
  maxValue = static_cast<uint32_t>(max_bytes > kU32Max ? kU32Max : max_bytes);
  minValue = static_cast<uint32_t>(min_bytes);
}

void GetLayerNormGradBetaNDTilingInfo(const ge::Shape& srcShape,
                                      uint32_t stackBufferSize,
                                      uint32_t typeSize, bool /*isReuseSource*/,
                                      optiling::LayerNormGradBetaTiling& host) {
  AscendC::tiling::LayerNormGradBetaTiling kernel;
  ComputeTiling(srcShape, stackBufferSize, typeSize, &kernel);
  NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

void GetLayerNormGradBetaNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool /*isReuseSource*/, AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  ComputeTiling(srcShape, stackBufferSize, typeSize, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kLayerNormGradBetaTilingFieldCount>
LayerNormGradBetaTilingFields(
    const AscendC::tiling::LayerNormGradBetaTiling& tiling) {
  return {
      {NORMGRAD_LAYERNORMGRADBETA_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

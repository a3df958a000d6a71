// deepnorm_host_tiling.cc — the host tiling API of DeepNorm: scratch sizes and
// the chunking tiling (docs/deepnorm.md, "Host tiling"), with normgrad's error
// policy (one message on stderr, the whole tiling zeroed, false returned).
#include <string>
#include <vector>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "normgrad_ascendc/lib/normalization/deepnorm_host_tiling.h"

namespace {

using normgrad_ascendc::ChunkedRows;
using normgrad_ascendc::ChunkedRowsScratchBytes;
using normgrad_ascendc::ChunkElements;
using normgrad_ascendc::MeanVarFloats;
using normgrad_ascendc::NumberOfTmpBuf;
using normgrad_ascendc::SetChunkFields;
using normgrad_ascendc::TmpBytes;
using normgrad_ascendc::host_tiling::CheckInputs;
using normgrad_ascendc::host_tiling::CheckRank;
using normgrad_ascendc::host_tiling::Dims;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetDeepNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetDeepNormTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// srcShape {B, S, H}: CheckInputs' rules (on {B, S, H, H}), then DeepNorm's
// own: H at most 2040 and 32-byte aligned, and the basic-block shape.
bool CheckDeepNormShape(const char* function, const ge::Shape& shape,
                        uint32_t type_size, bool basic_block,
                        const char* consequence, Dims* d) {
  const std::string text = "srcShape " + ShapeText(shape);
  if (!CheckRank(function, text, shape, {"B", "S", "H"}, consequence)) {
    return false;
  }
  std::vector<int64_t> dims = shape.GetDims();
  dims.push_back(dims[2]);
  if (!CheckInputs(function, ge::Shape(dims), type_size, consequence, d)) {
    return false;
  }
  if (d->h > AscendC::kDeepNormMaxH) {
    Report(function,
           text + " has H = " + std::to_string(d->h) + ": H must be at most " +
               std::to_string(AscendC::kDeepNormMaxH),
           consequence);
    return false;
  }
  if (uint64_t{d->h} * type_size % 32 != 0) {
    Report(function,
           text + " has H = " + std::to_string(d->h) + ": H * typeSize " +
               std::to_string(type_size) +
               " must be a multiple of 32 bytes (pad each row with zeros and "
               "pass the unpadded length in originSrcShape)",
           consequence);
    return false;
  }
  if (basic_block && (d->h % 64 != 0 || d->bs % 8 != 0)) {
    Report(function,
           text + " is not a basic block (isBasicBlock is true): H = " +
               std::to_string(d->h) + " must be a multiple of 64 and B*S = " +
               std::to_string(d->bs) + " a multiple of 8",
           consequence);
    return false;
  }
  return true;
}

// n·roundup32(4·B·S·H) and n·roundup32(4·H), plus half's means and variances
// (ChunkedRowsScratchBytes).
TmpBytes ScratchBytes(const Dims& d, uint32_t type_size, bool reuse) {
  return ChunkedRowsScratchBytes(NumberOfTmpBuf(type_size, reuse), d.bsh, d.h,
                                 MeanVarFloats(d.bs, type_size));
}

bool ComputeTiling(const ge::Shape& shape, const ge::Shape& origin,
                   uint32_t stack_buffer_bytes, uint32_t type_size,
                   bool is_reuse_source, bool is_basic_block,
                   AscendC::tiling::DeepNormTiling* out) {
  *out = AscendC::tiling::DeepNormTiling{};
  Dims d;
  if (!CheckDeepNormShape(kTilingFn, shape, type_size, is_basic_block,
                          kTilingZeroed, &d)) {
    return false;
  }
  const std::string origin_text = "originSrcShape " + ShapeText(origin);
  if (origin.GetDimNum() != 3 || origin.GetDim(0) != shape.GetDim(0) ||
      origin.GetDim(1) != shape.GetDim(1)) {
    Report(kTilingFn,
           origin_text +
               " must be {B, S, originH} with the B and S of "
               "srcShape " +
               ShapeText(shape),
           kTilingZeroed);
    return false;
  }
  const int64_t origin_h = origin.GetDim(2);
  if (origin_h < 1 || origin_h > d.h || (is_basic_block && origin_h != d.h)) {
    Report(kTilingFn,
           origin_text + " has originH = " + std::to_string(origin_h) +
               (is_basic_block ? ": with isBasicBlock originH must equal H = "
                               : ": originH must be in [1, H] with H = ") +
               std::to_string(d.h),
           kTilingZeroed);
    return false;
  }
  const uint32_t n = NumberOfTmpBuf(type_size, is_reuse_source);
  const uint64_t tmp_buf = stack_buffer_bytes / 4;  // scratch in floats
  const uint64_t mv_total = MeanVarFloats(d.bs, type_size);
  const uint64_t one = ChunkElements(tmp_buf, mv_total, n, d.h, d.bsh);
  if (one == 0) {
    Report(
        kTilingFn,
        "stackBufferSize " + std::to_string(stack_buffer_bytes) + " bytes (" +
            std::to_string(tmp_buf) + " floats) is too small: it must hold " +
            (mv_total != 0 ? std::to_string(mv_total) +
                                 " floats of half's means and variances "
                                 "and "
                           : std::string()) +
            std::to_string(n) +
            " chunk buffers of at least one row of H = " + std::to_string(d.h) +
            " floats; call GetDeepNormMaxMinTmpSize for the minimum (" +
            std::to_string(ScratchBytes(d, type_size, is_reuse_source).min) +
            " bytes here)",
        kTilingZeroed);
    return false;
  }
  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = static_cast<uint32_t>(origin_h);
  SetChunkFields(
      ChunkedRows{d.bs, d.h, n, static_cast<uint32_t>(tmp_buf),
                  static_cast<uint32_t>(mv_total), static_cast<uint32_t>(one)},
      out);
  out->lastDimValueBack = 1.0f / static_cast<float>(origin_h);
  return true;
}

}  // namespace

namespace AscendC {

bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t typeSize, const bool isReuseSource,
                              const bool isBasicBlock, uint32_t& maxValue,
                              uint32_t& minValue) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckDeepNormShape(kTmpSizeFn, srcShape, typeSize, isBasicBlock, kZeroed,
                          &d)) {
    return false;
  }
  const TmpBytes bytes = ScratchBytes(d, typeSize, isReuseSource);
  if (bytes.min > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " needs at least " +
               std::to_string(bytes.min) +
               " bytes of scratch: no 32-bit scratch size is enough",
           kZeroed);
    return false;
  }
  maxValue = static_cast<uint32_t>(bytes.max > kU32Max ? kU32Max : bytes.max);
  minValue = static_cast<uint32_t>(bytes.min);
  return true;
}

bool GetDeepNormTilingInfo(const ge::Shape& srcShape,
                           const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize,
                           const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock,
                           optiling::DeepNormTiling& host) {
  AscendC::tiling::DeepNormTiling kernel;
  const bool ok = ComputeTiling(srcShape, originSrcShape, stackBufferSize,
                                typeSize, isReuseSource, isBasicBlock, &kernel);
  NORMGRAD_DEEPNORM_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
  return ok;
}

bool GetDeepNormTilingInfo(const ge::Shape& srcShape,
                           const ge::Shape& originSrcShape,
                           const uint32_t stackBufferSize,
                           const uint32_t typeSize, const bool isReuseSource,
                           const bool isBasicBlock,
                           AscendC::tiling::DeepNormTiling& tiling) {
  return ComputeTiling(srcShape, originSrcShape, stackBufferSize, typeSize,
                       isReuseSource, isBasicBlock, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kDeepNormTilingFieldCount> DeepNormTilingFields(
    const AscendC::tiling::DeepNormTiling& tiling) {
  return {{NORMGRAD_DEEPNORM_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

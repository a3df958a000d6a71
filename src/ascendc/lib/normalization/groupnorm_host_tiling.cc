// groupnorm_host_tiling.cc — the host tiling API of GroupNorm: scratch sizes
// and the chunking tiling of docs/groupnorm.md ("Host tiling"), with normgrad's
// error policy (one message on stderr, the whole tiling zeroed, nothing
// thrown).
#include <cstring>
#include <string>
#include <type_traits>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "normgrad_ascendc/lib/normalization/groupnorm_host_tiling.h"
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
using normgrad_ascendc::host_tiling::CheckDims;
using normgrad_ascendc::host_tiling::CheckTypeSize;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetGroupNormMaxMinTmpSize";
constexpr char kTilingFn[] = "GetGroupNormNDTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// The validated sizes of srcShape = {N, C, H, W} with groupNum groups.
struct Dims {
  uint32_t n, c, hw, g, d;
  uint32_t groups;    // N·G
  uint32_t group;     // D·H·W, the elements of one group
  uint32_t elements;  // N·C·H·W
};

// typeSize 2 or 4; rank 4 with every dimension in [1, 2^32-1]; groupNum ≥ 1
// dividing C; N·C·H·W within 32 bits. Reports one message and returns false
// otherwise.
bool CheckInputs(const char* function, const ge::Shape& shape,
                 uint32_t type_size, uint32_t group_num,
                 const char* consequence, Dims* out) {
  const std::string text = "srcShape " + ShapeText(shape);
  uint64_t dims[4];
  if (!CheckTypeSize(function, "typeSize", type_size, "half", consequence) ||
      !CheckDims(function, text, shape, {"N", "C", "H", "W"}, consequence,
                 dims)) {
    return false;
  }
  if (group_num == 0 || dims[1] % group_num != 0) {
    Report(function,
           "groupNum " + std::to_string(group_num) +
               " does not divide C = " + std::to_string(dims[1]) + " of " +
               text + ": the channels must split into groupNum equal groups",
           consequence);
    return false;
  }
  // Each product of dimensions below 2^32 keeps the next one within 64 bits.
  const uint64_t nc = dims[0] * dims[1];
  const uint64_t hw = nc <= kU32Max ? dims[2] * dims[3] : 0;
  const uint64_t elements = nc <= kU32Max && hw <= kU32Max ? nc * hw : 0;
  if (nc > kU32Max || hw > kU32Max || elements > kU32Max) {
    Report(function,
           text +
               " has more than 4294967295 elements: N*C*H*W must fit in "
               "32 bits",
           consequence);
    return false;
  }
  out->n = static_cast<uint32_t>(dims[0]);
  out->c = static_cast<uint32_t>(dims[1]);
  out->hw = static_cast<uint32_t>(hw);
  out->g = group_num;
  out->d = out->c / group_num;
  out->groups = out->n * group_num;
  out->group = out->d * out->hw;
  out->elements = static_cast<uint32_t>(elements);
  return true;
}

// The scratch sizes (ChunkedRowsScratchBytes): chunk buffers of all
// N·C·H·W elements (max) or one group (min), plus half's means and
// variances.
TmpBytes ScratchBytes(const Dims& d, uint32_t type_size, bool reuse) {
  return ChunkedRowsScratchBytes(NumberOfTmpBuf(type_size, reuse), d.elements,
                                 d.group, MeanVarFloats(d.groups, type_size));
}

// Assigns every field of *out: the tiling, or all zeros (after one message
// on stderr) when the input is bad.
void ComputeTiling(const ge::Shape& shape, uint32_t stack_buffer_bytes,
                   uint32_t type_size, bool is_reuse_source, uint32_t group_num,
                   AscendC::tiling::GroupNormTiling* out) {
  std::memset(static_cast<void*>(out), 0, sizeof *out);  // padding too
  Dims d;
  if (!CheckInputs(kTilingFn, shape, type_size, group_num, kTilingZeroed, &d)) {
    return;
  }
  const uint32_t buffers = NumberOfTmpBuf(type_size, is_reuse_source);
  const uint64_t mv_total = MeanVarFloats(d.groups, type_size);
  const uint64_t tmp_buf = stack_buffer_bytes / 4;  // scratch in floats
  const uint64_t one =
      ChunkElements(tmp_buf, mv_total, buffers, d.group, d.elements);
  if (one == 0) {
    const uint64_t min_bytes = ScratchBytes(d, type_size, is_reuse_source).min;
    Report(kTilingFn,
           "stackBufferSize " + std::to_string(stack_buffer_bytes) +
               " bytes is too small for one group of D*H*W = " +
               std::to_string(d.group) + " elements in each of the " +
               std::to_string(buffers) + " chunk buffers" +
               (mv_total != 0 ? " after half's " + std::to_string(mv_total) +
                                    " floats of means and variances"
                              : std::string()) +
               ": call GetGroupNormMaxMinTmpSize for the minimum (" +
               std::to_string(min_bytes) + " bytes here)",
           kTilingZeroed);
    return;
  }
  const uint32_t one_tmp = static_cast<uint32_t>(one);
  const uint32_t hw_align =
      static_cast<uint32_t>(RoundUp(d.hw, 32 / type_size));
  out->n = d.n;
  out->c = d.c;
  out->hw = d.hw;
  out->g = d.g;
  out->d = d.d;
  out->hwAlignSize = hw_align;
  out->dhwAlignSize = d.d * hw_align;
  SetChunkFields(
      ChunkedRows{d.groups, d.group, buffers, static_cast<uint32_t>(tmp_buf),
                  static_cast<uint32_t>(mv_total), one_tmp},
      out);
  out->factor = 1.0f / static_cast<float>(d.group);
  out->smallShape = one_tmp == d.elements;
}

}  // namespace

namespace AscendC {

void GetGroupNormMaxMinTmpSize(const ge::Shape& srcShape,
                               const uint32_t typeSize,
                               const bool isReuseSource,
                               const uint32_t groupNum, uint32_t& maxValue,
                               uint32_t& minValue) {
  static constexpr char kZeroed[] = "maxValue and minValue are set to 0";
  maxValue = 0;
  minValue = 0;
  Dims d;
  if (!CheckInputs(kTmpSizeFn, srcShape, typeSize, groupNum, kZeroed, &d)) {
    return;
  }
  const TmpBytes bytes = ScratchBytes(d, typeSize, isReuseSource);
  if (bytes.min > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " with groupNum " +
               std::to_string(groupNum) + " needs at least " +
               std::to_string(bytes.min) +
               " bytes of scratch: no 32-bit scratch size (at most "
               "4294967295) is enough",
           kZeroed);
    return;
  }
  maxValue = static_cast<uint32_t>(bytes.max > kU32Max ? kU32Max : bytes.max);
  minValue = static_cast<uint32_t>(bytes.min);
}

void GetGroupNormNDTilingInfo(const ge::Shape& srcShape,
                              const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum,
                              optiling::GroupNormTiling& host) {
  AscendC::tiling::GroupNormTiling kernel;
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, groupNum,
                &kernel);
  NORMGRAD_GROUPNORM_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

void GetGroupNormNDTilingInfo(const ge::Shape& srcShape,
                              const uint32_t stackBufferSize,
                              const uint32_t typeSize, const bool isReuseSource,
                              const uint32_t groupNum,
                              AscendC::tiling::GroupNormTiling& tiling) {
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, groupNum,
                &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

// TilingField holds uint32_t or float: smallShape is listed as 0 or 1.
#define NORMGRAD_GROUPNORM_NAMED_FIELD(type, name)                       \
  TilingField(#name,                                                     \
              static_cast<std::conditional_t<std::is_same_v<type, bool>, \
                                             uint32_t, type>>(tiling.name)),

std::array<TilingField, kGroupNormTilingFieldCount> GroupNormTilingFields(
    const AscendC::tiling::GroupNormTiling& tiling) {
  return {{NORMGRAD_GROUPNORM_TILING_FIELDS(NORMGRAD_GROUPNORM_NAMED_FIELD)}};
}

#undef NORMGRAD_GROUPNORM_NAMED_FIELD

}  // namespace normgrad_ascendc

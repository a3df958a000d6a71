// layernormgrad_host_tiling.cc — the host tiling API of LayerNormGrad: scratch
// sizes and the chunking tiling as the vendor documents them, per product
// profile, with normgrad's rule that the layout never exceeds the scratch it
// was given (docs/decisions.md) and normgrad's error policy (one message on
// stderr, the whole tiling zeroed, nothing thrown).
#include <algorithm>
#include <cstring>
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/normalization/layernormgrad_host_tiling.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace {

using normgrad_ascendc::Profile;
using normgrad_ascendc::RoundUp;
using normgrad_ascendc::host_tiling::CheckInputs;
using normgrad_ascendc::host_tiling::Dims;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kTmpSizeFn[] = "GetLayerNormGradMaxMinTmpSize";
constexpr char kTilingFn[] = "GetLayerNormGradNDTilingInfo";
constexpr char kTilingZeroed[] = "the tiling is zeroed";
constexpr char kSizesZeroed[] = "maxValue and minValue are set to 0";

// The number of chunk-sized float regions in the scratch.
uint32_t BufferCount(uint32_t type_size, bool reuse) {
  if (type_size == 2) return 9;
  return reuse ? 4 : 6;
}

// Chunks hold a multiple of this many rows (before normgrad's rule).
uint32_t RowMultiple(uint32_t type_size) { return type_size == 2 ? 16 : 8; }

// The smallest scratch the tiling accepts: one row of H floats in each
// region.
uint64_t OneRowBytes(const Dims& d, uint32_t type_size, bool reuse) {
  return uint64_t{BufferCount(type_size, reuse)} * d.h * 4;
}

// The documented sizes (Atlas A2/A3 and inference series) in bytes: nbuf
// regions of min(B*S*H, H*H) or max(B*S*H, H*H) elements of typeSize. Exact
// up to 2^32 elements per region (beyond, it is only known to exceed 32
// bits). Both are at least one row of H floats in each region, what the
// tiling needs: more than the documented sizes only for half with B*S = 1,
// where 9*H*2 bytes leave each region H/2 floats (docs/decisions.md).
uint64_t ScratchBytes(const Dims& d, uint32_t type_size, bool reuse, bool max) {
  const uint64_t nbuf = BufferCount(type_size, reuse);
  const uint64_t hh = std::min(uint64_t{d.h} * d.h, kU32Max + 1);
  const uint64_t base =
      max ? std::max<uint64_t>(d.bsh, hh) : std::min<uint64_t>(d.bsh, hh);
  return std::max(nbuf * type_size * base, OneRowBytes(d, type_size, reuse));
}

// The process profile. An unknown NORMGRAD_PROFILE is reported like bad
// input (the message names the variable and the valid keys).
bool ReadProfile(const char* function, const char* consequence,
                 Profile* profile) {
  try {
    *profile = normgrad_ascendc::CurrentProfile();
    return true;
  } catch (const normgrad_ascendc::KernelError& e) {
    Report(function, e.what(), consequence);
    return false;
  }
}

uint32_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// The tiling. Assigns every field of *out: the tiling, or all zeros (after one
// message on stderr) when the input is bad.
void ComputeTiling(const ge::Shape& shape, uint32_t stack_buffer_bytes,
                   uint32_t type_size, bool reuse,
                   AscendC::tiling::LayerNormGradTiling* out) {
  *out = AscendC::tiling::LayerNormGradTiling{};
  Dims d;
  Profile profile;
  if (!CheckInputs(kTilingFn, shape, type_size, kTilingZeroed, &d) ||
      !ReadProfile(kTilingFn, kTilingZeroed, &profile)) {
    return;
  }
  const bool is_half = type_size == 2;
  const bool reuse_float = reuse && !is_half;

  uint32_t rows = 1;  // nohCalSize
  uint32_t one = 1;   // oneCalSize
  if (profile != Profile::k950) {
    const uint32_t nbuf = BufferCount(type_size, reuse);
    const uint32_t per_buffer = stack_buffer_bytes / 4 / nbuf;  // floats
    const uint32_t rows_that_fit = per_buffer / d.h;
    if (rows_that_fit == 0) {
      Report(kTilingFn,
             "stackBufferSize " + std::to_string(stack_buffer_bytes) +
                 " bytes gives " + std::to_string(stack_buffer_bytes) + "/4/" +
                 std::to_string(nbuf) + " = " + std::to_string(per_buffer) +
                 " floats for each of the " + std::to_string(nbuf) +
                 " scratch regions, less than one row of H = " +
                 std::to_string(d.h) + ": it needs at least " +
                 std::to_string(nbuf) +
                 "*H*4 = " + std::to_string(OneRowBytes(d, type_size, reuse)) +
                 " bytes (GetLayerNormGradMaxMinTmpSize's minimum here: " +
                 std::to_string(ScratchBytes(d, type_size, reuse, false)) +
                 " bytes)",
             kTilingZeroed);
      return;
    }
    // The vendor rounds up to whole blocks of rows; normgrad then clamps to
    // the rows there are and falls back to rows that fit (docs/decisions.md).
    const uint32_t multiple = RowMultiple(type_size);
    uint64_t chosen =
        std::min<uint64_t>(RoundUp(rows_that_fit, multiple), d.bs);
    if (chosen > rows_that_fit) {
      const uint32_t rounded_down = rows_that_fit / multiple * multiple;
      chosen = rounded_down > 0 ? rounded_down : rows_that_fit;
    }
    rows = static_cast<uint32_t>(chosen);
    one = rows * d.h;  // <= per_buffer
  }

  out->stackBufferSize = stack_buffer_bytes;
  out->bLength = d.b;
  out->sLength = d.s;
  out->hLength = d.h;
  out->originalHLength = d.h;
  out->oneCalSize = one;
  out->nohCalSize = rows;
  out->loopNum = d.bsh / one;
  out->tailSize = d.bsh % one;
  out->nohTailSize = out->tailSize / d.h;
  out->tmpTensorBSHPos = 0;
  out->pdVarTensorPos = one;
  out->pdMeanTensorPos = 2 * one;
  if (reuse_float) {  // x1 and x2 live in inputDy and inputX
    out->x3TensorPos = 3 * one;
  } else {
    out->x1TensorPos = 3 * one;
    out->x2TensorPos = 4 * one;
    out->x3TensorPos = 5 * one;
  }
  if (is_half) {
    out->tmpTensorPos = 6 * one;
    out->tmpTensor1Pos = 7 * one;
    out->tmpTensor2Pos = 8 * one;
  }
  out->tmpTensorBSHSize = one;
  out->pdVarTensorSize = one;
  out->pdMeanTensorSize = one;
  out->x1TensorSize = one;
  out->x2TensorSize = one;
  out->x3TensorSize = one;
  out->tmpTensorSize = one;
  out->tmpTensor1Size = one;
  out->tmpTensor2Size = one;
  const float original_h = static_cast<float>(d.h);
  out->lastDimValueBack = FloatBits(1.0f / original_h);
  out->lastDimValueBackMulTwo = FloatBits(2.0f / original_h);
}

}  // namespace

namespace AscendC {

void GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, uint32_t typeSize,
                                   bool isReuseSource, uint32_t& maxValue,
                                   uint32_t& minValue) {
  maxValue = 0;
  minValue = 0;
  Dims d;
  Profile profile;
  if (!CheckInputs(kTmpSizeFn, srcShape, typeSize, kSizesZeroed, &d) ||
      !ReadProfile(kTmpSizeFn, kSizesZeroed, &profile)) {
    return;
  }
  const bool reuse_float = isReuseSource && typeSize == 4;
  if (profile == Profile::k950) {
    if (reuse_float) return;  // x1 and x2 live in the inputs
    const uint64_t bytes = 2 * RoundUp(d.h, 8) * 4;
    if (bytes > kU32Max) {
      Report(kTmpSizeFn,
             "srcShape " + ShapeText(srcShape) +
                 " needs 2*roundup(H, 8)*4 = " + std::to_string(bytes) +
                 " bytes of scratch on the Ascend 950 profile: no 32-bit "
                 "scratch size (at most 4294967295) is enough",
             kSizesZeroed);
      return;
    }
    maxValue = minValue = static_cast<uint32_t>(bytes);
    return;
  }
  const uint64_t min_bytes = ScratchBytes(d, typeSize, isReuseSource, false);
  const uint64_t max_bytes = ScratchBytes(d, typeSize, isReuseSource, true);
  if (min_bytes > kU32Max) {
    Report(kTmpSizeFn,
           "srcShape " + ShapeText(srcShape) + " needs at least " +
               std::to_string(min_bytes) +
               " bytes of scratch: no 32-bit scratch size (at most "
               "4294967295) is enough",
           kSizesZeroed);
    return;
  }
  maxValue = static_cast<uint32_t>(std::min(max_bytes, kU32Max));
  minValue = static_cast<uint32_t>(min_bytes);
}

void GetLayerNormGradNDTilingInfo(const ge::Shape& srcShape,
                                  uint32_t stackBufferSize, uint32_t typeSize,
                                  bool isReuseSource,
                                  optiling::LayerNormGradTiling& host) {
  AscendC::tiling::LayerNormGradTiling kernel;
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, &kernel);
  NORMGRAD_LAYERNORMGRAD_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
}

void GetLayerNormGradNDTilingInfo(
    const ge::Shape& srcShape, uint32_t stackBufferSize, uint32_t typeSize,
    bool isReuseSource, AscendC::tiling::LayerNormGradTiling& tiling) {
  ComputeTiling(srcShape, stackBufferSize, typeSize, isReuseSource, &tiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kLayerNormGradTilingFieldCount>
LayerNormGradTilingFields(const AscendC::tiling::LayerNormGradTiling& tiling) {
  return {{NORMGRAD_LAYERNORMGRAD_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

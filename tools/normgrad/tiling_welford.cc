// tools/normgrad/tiling_welford.cc — `normgrad tiling` for WelfordUpdate and
// WelfordFinalize, neither of which has a tiling struct.
// - welford-update: shape [rnLength, abLength] (a single number is abLength
//   with rnLength 1), the inputX type size (--dtype half stands for both
//   2-byte types, half and bfloat16_t), isReuseSource and isInplace, through
//   GetWelfordUpdateMaxMinTmpSize; prints the WelfordUpdateParam of the first
//   call on the row.
// - welford-finalize: shape [abLength], float only, through
//   GetWelfordFinalizeMaxMinTmpSize.
#include <cstdio>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

using normgrad_ascendc::Profile;

ge::Shape ShapeOf(const OpInput& in) {
  return ge::Shape(std::vector<int64_t>(in.dims.begin(), in.dims.end()));
}

void CompleteRnLength(std::vector<uint64_t>* dims) {
  if (dims->size() == 1) dims->insert(dims->begin(), 1);
}

void WelfordUpdateSizes(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetWelfordUpdateMaxMinTmpSize(ShapeOf(in), in.type_size, 4, in.options->reuse,
                                         in.options->inplace, max_value, min_value);
}

// float with isReuseSource needs no scratch, except on the inference series.
bool WelfordUpdateZeroSizes(const OpInput& in) {
  return in.type_size == 4 && in.options->reuse && in.profile != Profile::k310P;
}

bool WelfordUpdateTiling(const OpInput& in, uint32_t bytes, OpTiling* out) {
  uint32_t max_value = 0, min_value = 0;
  WelfordUpdateSizes(in, max_value, min_value);
  if (bytes < min_value) {
    std::fprintf(stderr,
                 "WelfordUpdate: a scratch of %u bytes is less than the minimum %u "
                 "(GetWelfordUpdateMaxMinTmpSize)\n",
                 bytes, min_value);
    return false;
  }
  AscendC::WelfordUpdateParam para;
  para.rnLength = static_cast<uint32_t>(in.dims[0]);
  para.abLength = static_cast<uint32_t>(in.dims[1]);
  para.abComputeLength = para.abLength;
  para.nRec = 1.0f;
  for (const auto& f : normgrad_ascendc::WelfordUpdateParamFields(para)) {
    out->fields.push_back(FieldOf(f));
  }
  out->note =
      "WelfordUpdate has no tiling struct; these are the WelfordUpdateParam fields of the "
      "first call (the i-th call passes nRec = 1/i, and abComputeLength < abLength for a "
      "partial last chunk); rnLength must be 1 in the kernel";
  if (in.type_size == 2) {
    out->note += "; typeSize 2 is half or bfloat16_t (Ascend 950 only)";
  }
  return true;
}

void WelfordFinalizeSizes(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ShapeOf(in), in.type_size, in.options->reuse, max_value,
                                           min_value);
}

bool WelfordFinalizeTiling(const OpInput& in, uint32_t bytes, OpTiling* out) {
  uint32_t max_value = 0, min_value = 0;
  WelfordFinalizeSizes(in, max_value, min_value);
  if (bytes < min_value) {
    std::fprintf(stderr,
                 "WelfordFinalize: a scratch of %u bytes is less than the minimum %u "
                 "(GetWelfordFinalizeMaxMinTmpSize)\n",
                 bytes, min_value);
    return false;
  }
  out->fields.push_back(Number("abLength", static_cast<uint32_t>(in.dims[0])));
  out->note =
      "WelfordFinalize has no tiling struct; a call takes WelfordFinalizePara (rnLength, "
      "abLength, the head and tail counts and lengths, abRec, rRec, rRecWithCorrection)";
  return true;
}

}  // namespace

std::vector<TilingOp> WelfordTilingOps() {
  return {
      {"welford-update", "WelfordUpdate", "[rnLength,]abLength", "rnLength, abLength", 1, 2,
       CompleteRnLength, WelfordUpdateSizes, WelfordUpdateTiling, WelfordUpdateZeroSizes},
      {"welford-finalize", "WelfordFinalize", "abLength", "abLength", 1, 1, nullptr,
       WelfordFinalizeSizes, WelfordFinalizeTiling, NeverZero},
  };
}

}  // namespace normgrad::cli

// tools/normgrad/tiling_normalize.cc — `normgrad tiling --op normalize`:
// shape [A, R], the element sizes of inputX (--dtype) and of gamma and beta
// (--gamma-dtype, default --dtype), through GetNormalizeMaxMinTmpSize.
// Normalize has no tiling struct; the command prints the NormalizePara the
// kernel takes (rLengthWithPadding: R rounded up to 32 bytes).
#include <cstdint>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

uint32_t GammaTypeSize(const OpInput& in) {
  const std::string& g = in.options->gamma_dtype;
  if (g.empty()) return in.type_size;
  return g == "half" ? 2 : 4;
}

void NormalizeSizes(const OpInput& in, uint32_t& max_value, uint32_t& min_value) {
  const ge::Shape shape({static_cast<int64_t>(in.dims[0]), static_cast<int64_t>(in.dims[1])});
  AscendC::GetNormalizeMaxMinTmpSize(shape, GammaTypeSize(in), in.type_size, in.options->reuse,
                                     true, false, max_value, min_value);
}

bool ParaOfNormalize(const OpInput& in, uint32_t /*bytes*/, OpTiling* out) {
  const uint32_t align = 32 / in.type_size;
  const uint32_t r = static_cast<uint32_t>(in.dims[1]);
  out->fields.push_back(Number("aLength", static_cast<uint32_t>(in.dims[0])));
  out->fields.push_back(Number("rLength", r));
  out->fields.push_back(Number("rLengthWithPadding", (r + align - 1) / align * align));
  out->note =
      "Normalize has no tiling struct: the kernel takes NormalizePara{aLength, rLength, "
      "rLengthWithPadding} and a scratch of at least minValue bytes";
  return true;
}

}  // namespace

std::vector<TilingOp> NormalizeTilingOps() {
  return {{"normalize", "Normalize", "A,R", "A, R", 2, 2, nullptr, NormalizeSizes, ParaOfNormalize,
           NeverZero}};
}

}  // namespace normgrad::cli

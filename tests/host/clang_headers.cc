// clang_headers.cc — the host headers a program includes, and a tiling-data
// class of its own, compiled by clang with -Wall -Wextra -Wpedantic -Werror
// (test host.clang_headers): programs built with clang and warnings as errors
// must not trip over normgrad's headers.
#include "acl/acl.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClangHeadersTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, gradBeta);
END_TILING_DATA_DEF;
}  // namespace optiling

int main() {
  optiling::ClangHeadersTiling tiling;
  tiling.set_totalLength(8);
  return tiling.get_totalLength() == 8 ? 0 : 1;
}

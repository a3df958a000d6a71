// clang_headers.cc — the headers a program includes (host and kernel side),
// a tiling-data class of its own registered for GET_TILING_DATA, a plain
// tiling struct read through the other tiling macros, the platform queries
// and memcpy_s, compiled by clang with -Wall -Wextra -Wpedantic -Werror (test
// host.clang_headers): programs built with clang and warnings as errors must
// not trip over normgrad's headers.
#include "acl/acl.h"
#include "kernel_operator.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ClangHeadersTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_ARR(float, 2, bias);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, gradBeta);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ClangHeaders, ClangHeadersTiling);
}  // namespace optiling

struct PlainTiling {
  uint32_t n;
};

extern "C" __global__ __aicore__ void registered(GM_ADDR out, GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  reinterpret_cast<__gm__ uint32_t*>(out)[0] = t.totalLength;
  if (TILING_KEY_IS(1)) reinterpret_cast<__gm__ uint32_t*>(out)[1] = 1;
}

extern "C" __global__ __aicore__ void plain(GM_ADDR out, GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(PlainTiling);
  GET_TILING_DATA(t, tiling);
  GET_TILING_DATA_PTR_WITH_STRUCT(PlainTiling, p, tiling);
  COPY_TILING_WITH_STRUCT(PlainTiling, p, q);
  reinterpret_cast<__gm__ uint32_t*>(out)[0] = t.n + q->n;
}

int main() {
  optiling::ClangHeadersTiling tiling;
  tiling.set_totalLength(8);
  char text[4];
  if (memcpy_s(text, sizeof(text), "abc", 4) != EOK) return 1;
  const auto* platform =
      platform_ascendc::PlatformAscendCManager::GetInstance();
  return platform != nullptr && tiling.get_totalLength() == 8 ? 0 : 1;
}

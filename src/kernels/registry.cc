// kernels/registry.cc — the list of instruction sets compiled into this
// build, fastest first. One line per instruction set.
#include "kernels/kernels.h"

namespace normgrad::kernels {

const std::vector<Isa>& Isas() {
  static const std::vector<Isa> list = {
#if defined(NORMGRAD_HAVE_AVX512)
    Avx512Isa(),
#endif
#if defined(NORMGRAD_HAVE_AVX2)
    Avx2Isa(),
#endif
#if defined(NORMGRAD_HAVE_NEON)
    NeonIsa(),
#endif
    ScalarIsa(),
  };
  return list;
}

}  // namespace normgrad::kernels

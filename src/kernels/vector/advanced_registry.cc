// kernels/vector/advanced_registry.cc — AdvancedKernelsOf: the advanced APIs'
// table of each registry entry (advanced.h), made once per set. An entry is
// known by its name: Isas() holds copies of the sets' Isa structs.
#include <cstring>

#include "kernels/vector/advanced.h"

namespace normgrad::kernels {

const AdvancedKernels& AdvancedKernelsOf(const Isa& isa) {
#if defined(NORMGRAD_HAVE_AVX512)
  static const AdvancedKernels avx512 = Avx512AdvancedKernels();
  if (std::strcmp(isa.name, Avx512Isa().name) == 0) return avx512;
#endif
#if defined(NORMGRAD_HAVE_AVX2)
  static const AdvancedKernels avx2 = Avx2AdvancedKernels();
  if (std::strcmp(isa.name, Avx2Isa().name) == 0) return avx2;
#endif
#if defined(NORMGRAD_HAVE_NEON)
  static const AdvancedKernels neon = NeonAdvancedKernels();
  if (std::strcmp(isa.name, NeonIsa().name) == 0) return neon;
#endif
  static const AdvancedKernels scalar = ScalarAdvancedKernels();
  return scalar;
}

}  // namespace normgrad::kernels

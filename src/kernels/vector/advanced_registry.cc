// kernels/vector/advanced_registry.cc — AdvancedKernelsOf: the advanced APIs'
// table of each registry entry (advanced.h), made once per set.
#include "kernels/vector/advanced.h"

namespace normgrad::kernels {

const AdvancedKernels& AdvancedKernelsOf(const Isa& isa) {
#if defined(NORMGRAD_HAVE_AVX512)
  static const AdvancedKernels avx512 = Avx512AdvancedKernels();
  if (&isa == &Avx512Isa()) return avx512;
#endif
#if defined(NORMGRAD_HAVE_AVX2)
  static const AdvancedKernels avx2 = Avx2AdvancedKernels();
  if (&isa == &Avx2Isa()) return avx2;
#endif
#if defined(NORMGRAD_HAVE_NEON)
  static const AdvancedKernels neon = NeonAdvancedKernels();
  if (&isa == &NeonIsa()) return neon;
#endif
  static const AdvancedKernels scalar = ScalarAdvancedKernels();
  return scalar;
}

}  // namespace normgrad::kernels

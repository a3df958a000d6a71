// kernels/isa/scalar.cc — the portable instruction set "scalar": plain C++ for
// any CPU (the compiler may still use the baseline vector unit, which keeps
// the bits: no contraction, IEEE float). Always available; the fallback that
// NORMGRAD_IMPL=scalar forces.
#include "kernels/isa/isa_entry_inl.h"
#include "kernels/isa/scalar_ops_inl.h"
#include "kernels/kernels.h"
#include "kernels/vector/reduce_entry_inl.h"

namespace normgrad::kernels {
namespace {

bool Always() { return true; }

}  // namespace

const Isa& ScalarIsa() {
  static const Isa isa = MakeIsa<ScalarF32, ScalarF16, ScalarBF16>(
      "scalar", Always, ScalarLayerNormKernels(), ScalarRmsNormKernels(),
      WithReductions<ScalarF16>(ScalarVectorKernels()));
  return isa;
}

}  // namespace normgrad::kernels

// kernels/rms_norm/rms_norm_scalar.cc — the RMS-norm kernels of the portable
// instruction set "scalar": rms_norm_inl.h over plain C++ floats (one lane;
// the compiler may still use the baseline vector unit, which keeps the bits).
// Streaming stores are plain stores here; the Ops policies are
// scalar_ops_inl.h's.
#include <cstddef>
#include <cstdint>

#include "kernels/isa/row_norms_entry_inl.h"
#include "kernels/isa/scalar_ops_inl.h"
#include "kernels/kernels.h"
#include "kernels/rms_norm/rms_norm_inl.h"
#include "normgrad/float16.h"

namespace normgrad::kernels {

RmsNormKernels ScalarRmsNormKernels() {
  return RowNormKernelsOf<RmsNormEntries, ScalarF32, ScalarF16, ScalarBF16>();
}

}  // namespace normgrad::kernels

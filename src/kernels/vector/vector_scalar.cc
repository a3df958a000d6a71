// kernels/vector/vector_scalar.cc — the emulated vector unit's loops (vector_inl.h) compiled
// for the baseline CPU (portable C++, vectorized as far as the baseline allows). Only called after
// the run-time CPU check of scalar.cc.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/isa/scalar_ops_inl.h"
#include "kernels/kernels.h"
#include "kernels/vector/vector_inl.h"

#include "kernels/vector/vector_entry_inl.h"

namespace normgrad::kernels {

VectorKernels ScalarVectorKernels() { return MakeVectorKernels<ScalarF16>(); }

}  // namespace normgrad::kernels

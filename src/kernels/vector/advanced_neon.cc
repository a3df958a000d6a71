// kernels/vector/advanced_neon.cc — the advanced APIs' float passes
// (advanced_inl.h) compiled for Advanced SIMD, the aarch64 baseline (4
// floats, 2 doubles per vector).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"
#include "kernels/vector/advanced_binary_inl.h"
#include "kernels/vector/advanced_filter_inl.h"
#include "kernels/vector/advanced_inl.h"
#include "kernels/vector/advanced_inverse_inl.h"
#include "kernels/vector/advanced_special_inl.h"
#include "kernels/vector/advanced_transpose_inl.h"

#include "kernels/vector/advanced_entry_inl.h"

namespace normgrad::kernels {

AdvancedKernels NeonAdvancedKernels() { return AdvancedLoops(); }

}  // namespace normgrad::kernels

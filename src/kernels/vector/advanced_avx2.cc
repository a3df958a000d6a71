// kernels/vector/advanced_avx2.cc — the advanced APIs' float passes
// (advanced_inl.h) compiled for AVX2 (8 floats, 4 doubles per vector). Only
// called after the run-time CPU check of avx2.cc.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"

#pragma GCC push_options
#pragma GCC target("avx2,fma,f16c")
#include "kernels/vector/advanced_binary_inl.h"
#include "kernels/vector/advanced_filter_inl.h"
#include "kernels/vector/advanced_inl.h"
#include "kernels/vector/advanced_inverse_inl.h"
#include "kernels/vector/advanced_special_inl.h"
#include "kernels/vector/advanced_transpose_inl.h"
#pragma GCC pop_options

#include "kernels/vector/advanced_entry_inl.h"

namespace normgrad::kernels {

AdvancedKernels Avx2AdvancedKernels() { return AdvancedLoops(); }

}  // namespace normgrad::kernels

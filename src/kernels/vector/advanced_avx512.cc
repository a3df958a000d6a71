// kernels/vector/advanced_avx512.cc — the advanced APIs' float passes
// (advanced_inl.h) compiled for AVX-512 (16 floats, 8 doubles per vector: F,
// BW, DQ, VL). Only called after the run-time CPU check of avx512.cc.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/vector/advanced.h"

#pragma GCC push_options
#pragma GCC target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma,f16c")
#include "kernels/vector/advanced_binary_inl.h"
#include "kernels/vector/advanced_filter_inl.h"
#include "kernels/vector/advanced_inl.h"
#include "kernels/vector/advanced_inverse_inl.h"
#include "kernels/vector/advanced_special_inl.h"
#include "kernels/vector/advanced_transpose_inl.h"
#pragma GCC pop_options

#include "kernels/vector/advanced_entry_inl.h"

namespace normgrad::kernels {

AdvancedKernels Avx512AdvancedKernels() { return AdvancedLoops(); }

}  // namespace normgrad::kernels

// kernels/vector/advanced_scalar.cc — the advanced APIs' float passes
// (advanced_inl.h) compiled for the baseline CPU (portable C++, vectorized as
// far as the baseline allows), SoftMax's exponential through the C library.
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
namespace {

// SoftMax's exponential through the C library alone (the same bits).
void ExpRoundedByLibrary(float* v, size_t n) {
  for (size_t i = 0; i < n; ++i) v[i] = advanced::ExpOfWidened(v[i]);
}

}  // namespace

AdvancedKernels ScalarAdvancedKernels() {
  AdvancedKernels k = AdvancedLoops();
  // Two double lanes without SSE4's conversions: the C library's exp is
  // faster here (16 against 8-12 ns an element); the same bits.
  k.exp_rounded_f32 = ExpRoundedByLibrary;
  return k;
}

}  // namespace normgrad::kernels

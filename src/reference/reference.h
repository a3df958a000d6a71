// reference/reference.h — the double-precision oracle for pd_gamma/pd_beta:
// plain loops, double accumulation, its own 16-bit decoding; no SIMD, no
// threads, no tiling, and no code shared with the engine it checks. Used by
// tests, the CLI's checks and benchmarks only.
#pragma once

#include <cstddef>
#include <vector>

#include "normgrad/types.h"

namespace normgrad::reference {

/// Exact sums in double (each product dy·res of two floats is exact in
/// double; the sums round once per add at 2^-53). Inputs: `rows` rows of
/// `cols` elements, `row_stride` elements apart, of type `dtype`.
void GradBeta(DType dtype, const void* dy, const void* res, size_t rows,
              size_t cols, size_t row_stride, double* pd_gamma, double* pd_beta);

/// Σ_r |dy·res| and Σ_r |dy| per column: the scale of the rounding-error
/// bounds in docs/numerics.md.
void GradBetaAbsSums(DType dtype, const void* dy, const void* res, size_t rows,
                     size_t cols, size_t row_stride, double* abs_gamma,
                     double* abs_beta);

/// Decodes one element of `dtype` at index i to double.
double Decode(DType dtype, const void* data, size_t i);

/// max_i |a_i − b_i| / max_i |b_i| (0 when b is all zero and a equals it).
double NormwiseError(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace normgrad::reference

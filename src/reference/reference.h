// reference/reference.h — the double-precision oracle for pd_gamma/pd_beta
// and for the layer-norm forward and fused backward:
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
void GradBeta(DType dtype, const void* dy, const void* res, size_t rows, size_t cols,
              size_t row_stride, double* pd_gamma, double* pd_beta);

/// Σ_r |dy·res| and Σ_r |dy| per column: the scale of the rounding-error
/// bounds in docs/numerics.md.
void GradBetaAbsSums(DType dtype, const void* dy, const void* res, size_t rows, size_t cols,
                     size_t row_stride, double* abs_gamma, double* abs_beta);

/// Layer-norm forward in double, two passes per row: mean = Σ x / H,
/// variance = Σ (x − mean)² / H, then y = (x − mean) / √(variance + eps) ·
/// gamma + beta. x: `rows` rows of `cols` elements, `row_stride` apart;
/// gamma, beta: `cols` elements; all of type `dtype`. Outputs: y dense
/// (rows × cols), mean and variance `rows` each.
void LayerNormForward(DType dtype, const void* x, const void* gamma, const void* beta, size_t rows,
                      size_t cols, size_t row_stride, double eps, double* y, double* mean,
                      double* variance);

/// Fused layer-norm backward in double, given each row's mean and rstd (as
/// the engine takes them): x̂ = (x − mean)·rstd, g = dy·gamma,
/// dx = rstd·(g − Σ g / H − x̂·Σ (g·x̂) / H) (dense, rows × cols),
/// pd_gamma = Σ_r dy·x̂, pd_beta = Σ_r dy. Inputs as for LayerNormForward.
void LayerNormBackward(DType dtype, const void* x, const void* dy, const void* gamma,
                       const double* mean, const double* rstd, size_t rows, size_t cols,
                       size_t row_stride, double* dx, double* pd_gamma, double* pd_beta);

/// The scales of the backward's rounding-error bounds (docs/numerics.md),
/// for the same arguments: per element of dx (dense)
/// rstd·(|g| + Σ|g| / H + |x̂|·Σ|g·x̂| / H); per column Σ_r |dy·x̂| and Σ_r |dy|.
void LayerNormBackwardScales(DType dtype, const void* x, const void* dy, const void* gamma,
                             const double* mean, const double* rstd, size_t rows, size_t cols,
                             size_t row_stride, double* dx_scale, double* abs_gamma,
                             double* abs_beta);

/// Decodes one element of `dtype` at index i to double.
double Decode(DType dtype, const void* data, size_t i);

/// max_i |a_i − b_i| / max_i |b_i| (0 when b is all zero and a equals it).
double NormwiseError(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace normgrad::reference

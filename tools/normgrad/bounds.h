// bounds.h — the rounding-error bounds `normgrad demo` and `normgrad sample`
// check their results against, as derived in docs/numerics.md.
#pragma once

#include <cmath>
#include <cstddef>

namespace normgrad::cli {

/// A float sum of `rows` terms t_r (dy·res for pd_gamma, dy for pd_beta) in
/// which every term passes through at most k roundings is within
/// γ(k)·Σ|t_r| of the exact sum, γ(k) = k·u / (1 − k·u), u = 2^-24; the
/// double reference's own error, at most rows·2^-53·Σ|t_r| (double sums of
/// exact products), is added too. abs_sum = Σ|t_r|.
inline double SumBound(double k, size_t rows, double abs_sum) {
  const double u = std::ldexp(1.0, -24);
  return (k * u / (1.0 - k * u) + static_cast<double>(rows) * std::ldexp(1.0, -53)) * abs_sum;
}

/// `bound` for a result rounded once more to a 16-bit type of unit roundoff
/// u16 (2^-11 half, 2^-8 bfloat16): u16 of the rounded value, |ref| + bound
/// at most, plus 2^-25 absolute (half's subnormals).
inline double RoundedBound(double bound, double u16, double ref) {
  return bound + u16 * (std::fabs(ref) + bound) + std::ldexp(1.0, -25);
}

}  // namespace normgrad::cli

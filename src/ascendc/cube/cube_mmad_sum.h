// cube_mmad_sum.h — the sum behind every float result of the cube's matrix
// multiplies, internal to src/ascendc: Mmad (cube_ops.cc, which defines it)
// and MmadMx (cube_mx.cc) hand it their operands as floats, so that the
// order of the k terms, the roundings and the saturation of what is stored
// (docs/numerics.md, "Cube: Mmad") are written once.
#pragma once

#include <cstdint>
#include <functional>

namespace normgrad_ascendc {

/// A float C in L0C and what it starts from.
struct FloatMmadC {
  /// L0C's Nz: 16 x 16 fractals of floats, the fractals of one 16-column
  /// block `m1` apart.
  uint8_t* l0c = nullptr;
  uint32_t m1 = 0;
  /// C starts from what L0C holds (`keep`), from `bias` (n floats), or
  /// from 0 when neither.
  bool keep = false;
  const float* bias = nullptr;
};

/// C[i][j] = its start + Σ_t A[i][t] · B[t][j] for i < m, j < n: per
/// element, the k products in ascending t, each rounded to float, each
/// added with one rounding; with the FLOAT saturation mode on, an inf is
/// stored as ±FLT_MAX and a NaN as 0. `b` is B row-major ([t][j]);
/// `row_of_a(i, row)` writes A's row i (k floats) into `row`.
void SumFloatMmad(const FloatMmadC& c, uint32_t m, uint32_t k, uint32_t n,
                  const float* b,
                  const std::function<void(uint32_t, float*)>& row_of_a);

}  // namespace normgrad_ascendc

// src/ascendc/lib/matmul/cube_tiling_search.h — the Matmul tiling algorithm
// (internal): from a validated request (shapes, the rules' context, the
// user's fixed choices) to a TCubeTiling that CheckCubeTiling accepts, or
// the reason there is none. docs/matmul_tiling.md, "Algorithm", describes
// the steps: split the cores, choose the bases, then the L1 steps.
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"

namespace normgrad_ascendc {
namespace matmul {

/// Everything the search needs; -1 (or 0 for the alignments) means "choose".
struct CubeTilingRequest {
  int32_t m = 0, n = 0, k = 0;  ///< the computed shape
  int32_t org_m = 0, org_n = 0, org_ka = 0, org_kb = 0;
  /// The rules' context: widths, transposes, formats, bias, split-K and
  /// capacities (its `mdl` is ignored: the result obeys the MDL rules too).
  CubeTilingContext context;
  uint32_t c_bits = 32;
  uint64_t ub_bytes = 0;
  bool a_in_ub = false, b_in_ub = false, c_in_ub = false, bias_in_ub = false;
  int32_t dim = 1;  ///< cores the split may use
  int32_t single[3] = {-1, -1, -1};
  int32_t single_max[3] = {-1, -1, -1};
  int32_t single_min[3] = {-1, -1, -1};
  int32_t align[3] = {0, 0, 0};
  int32_t base[2] = {-1, -1};  ///< fixed baseM, baseN
  int32_t base_max[3] = {-1, -1, -1};
  int32_t base_min[3] = {-1, -1, -1};
  int32_t iterate_order = 0;
};

struct CubeTilingOutcome {
  bool ok = false;
  std::string problem;  ///< why there is no tiling (when !ok)
  TCubeTiling tiling{};
  int32_t m_dim = 0, n_dim = 0;  ///< the cores along M and N
};

CubeTilingOutcome SearchCubeTiling(const CubeTilingRequest& request);

}  // namespace matmul
}  // namespace normgrad_ascendc

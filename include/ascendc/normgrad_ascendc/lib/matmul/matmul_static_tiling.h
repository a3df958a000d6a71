// normgrad_ascendc/lib/matmul/matmul_static_tiling.h — a Matmul tiling fixed
// at compile time (docs/matmul.md, "The contract"): MatmulApiStaticTiling
// (the TCubeTiling fields as constants, -1 where the runtime tiling gives
// them, and the MatmulConfig) and GetMatmulApiTiling, which makes one from a
// config whose base shape (and, for a full tiling, single-core shape) are
// constants. A Matmul whose MM_CFG is such a tiling takes its config from
// `cfg`; with a full tiling REGIST_MATMUL_OBJ / Init may pass a null tiling,
// and a runtime tiling must agree with the constants (Matmul::Init checks
// both, with the rules every tiling meets: CheckCubeTiling).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "normgrad_ascendc/lib/matmul/matmul_config.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/sys_var.h"

namespace AscendC {

namespace Impl {
/// The compiled profile's L1 bytes: GetMatmulApiTiling's default.
inline constexpr int32_t L1_SIZE = static_cast<int32_t>(ASC_L1_SIZE);
}  // namespace Impl

/// The constant tiling: each TCubeTiling field (-1: the runtime tiling's)
/// and the config the Matmul runs with.
struct MatmulApiStaticTiling {
#define NORMGRAD_STATIC_TILING_FIELD(type, name) type name = -1;
  NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_STATIC_TILING_FIELD)
#undef NORMGRAD_STATIC_TILING_FIELD
  MatmulConfig cfg{};
};

namespace matmul_detail {

template <typename T>
constexpr uint32_t kStaticBits = std::is_same_v<T, int4b_t>
                                     ? 4
                                     : static_cast<uint32_t>(8 * sizeof(T));

// An operand's (rows × cols) block in Nz at the given width, in bytes.
constexpr int64_t StaticNzBytes(int64_t rows, int64_t cols, uint32_t bits) {
  const int64_t c0 = 256 / bits;
  return (rows + 15) / 16 * 16 * ((cols + c0 - 1) / c0 * c0) * bits / 8;
}

}  // namespace matmul_detail

/// The constant tiling of `mmCFG` (made by a config builder with constant
/// basicM/N/K, and for a full tiling singleCoreM/N/K too). A full tiling
/// is one core's Matmul of the single shape (M = singleCoreM, ...), one
/// base block of each operand in L1, L0A and L0B double-buffered where two
/// blocks fit, a bias allowed; a partial one fixes the base shape only.
/// `l1Size` is recorded (shareL1Size); Init checks the buffers' fit.
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(
    const MatmulConfig& mmCFG, int32_t l1Size = Impl::L1_SIZE) {
  MatmulApiStaticTiling t;
  t.cfg = mmCFG;
  if (mmCFG.basicM == 0 || mmCFG.basicN == 0 || mmCFG.basicK == 0) return t;
  t.baseM = static_cast<int32_t>(mmCFG.basicM);
  t.baseN = static_cast<int32_t>(mmCFG.basicN);
  t.baseK = static_cast<int32_t>(mmCFG.basicK);
  t.iterateOrder = mmCFG.iterateOrder == IterateOrder::ORDER_N ? 1 : 0;
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 ||
      mmCFG.singleCoreK == 0) {
    return t;  // partial: the rest comes from the runtime tiling
  }
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  t.N = t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  t.Ka = t.Kb = t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  t.depthA1 = t.depthB1 = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.isBias = 1;
  t.transLength = 0;
  const int64_t l0a = static_cast<int64_t>(ASC_L0A_SIZE);
  const int64_t l0b = static_cast<int64_t>(ASC_L0B_SIZE);
  const int64_t a_block = matmul_detail::StaticNzBytes(
      t.baseM, t.baseK, matmul_detail::kStaticBits<typename A_TYPE::T>);
  const int64_t b_block = matmul_detail::StaticNzBytes(
      t.baseN, t.baseK, matmul_detail::kStaticBits<typename B_TYPE::T>);
  t.dbL0A = 2 * a_block <= l0a ? 2 : 1;
  t.dbL0B = 2 * b_block <= l0b ? 2 : 1;
  t.dbL0C = 1;
  t.shareMode = 0;
  t.shareL1Size = l1Size;
  t.shareL0CSize = 0;
  t.shareUbSize = 0;
  t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 0;
  t.mxTypePara = 0;
  // No batch layout: one matrix per call.
  t.ALayoutInfoB = t.ALayoutInfoS = t.ALayoutInfoN = t.ALayoutInfoG =
      t.ALayoutInfoD = 0;
  t.BLayoutInfoB = t.BLayoutInfoS = t.BLayoutInfoN = t.BLayoutInfoG =
      t.BLayoutInfoD = 0;
  t.CLayoutInfoB = t.CLayoutInfoS1 = t.CLayoutInfoN = t.CLayoutInfoG =
      t.CLayoutInfoS2 = 0;
  t.BatchNum = 0;
  return t;
}

namespace matmul_detail {

// A Matmul's MM_CFG is a MatmulConfig or a MatmulApiStaticTiling.
template <typename Cfg>
constexpr bool kIsStaticTiling =
    std::is_same_v<std::decay_t<Cfg>, MatmulApiStaticTiling>;

template <typename Cfg>
constexpr const MatmulConfig& ConfigOf(const Cfg& cfg) {
  if constexpr (kIsStaticTiling<Cfg>) {
    return cfg.cfg;
  } else {
    return cfg;
  }
}

}  // namespace matmul_detail

}  // namespace AscendC

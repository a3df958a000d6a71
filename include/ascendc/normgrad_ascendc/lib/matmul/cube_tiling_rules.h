// normgrad_ascendc/lib/matmul/cube_tiling_rules.h — the rules a TCubeTiling
// must obey (docs/matmul_tiling.md, "Rules"), in one place: the host's
// GetTiling checks its own result with CheckCubeTiling, and the kernel-side
// Matmul checks the tiling its Init is given with the same function. The
// context names what the tiling alone does not say: the element widths, the
// transposes and formats, bias, the template (Norm or MDL), whether K is
// split across cores, MX mode (MxMatmul, Ascend 950), the 4:2 sparse
// Matmul (Atlas A2/A3), and the cube core's
// capacities (ProfileCubeContext fills those from a product profile).
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {
namespace matmul {

/// What a TCubeTiling is checked against besides its own fields.
struct CubeTilingContext {
  uint32_t a_bits = 16;     ///< A's element width in bits (int4b_t: 4)
  uint32_t b_bits = 16;     ///< B's element width in bits
  uint32_t bias_bits = 32;  ///< the bias element width in bits
  bool a_transpose = false;
  bool b_transpose = false;
  bool a_nz = false;     ///< A is given in the NZ format
  bool b_nz = false;     ///< B is given in the NZ format
  bool bias = false;     ///< the Matmul adds a bias (isBias must agree)
  bool mdl = false;      ///< the MDL template (its extra rules apply)
  bool split_k = false;  ///< K is split across cores (singleCoreK < K)
  /// MX mode (MxMatmul): A and B come with fp8_e8m0_t scales, one per 32
  /// elements along K, which L1 and the L0A_MX / L0B_MX buffers hold too.
  bool mx = false;
  /// The 4:2 sparse Matmul (SetSparse(true)): B holds the 2 values kept of
  /// every 4 along K (a base block baseK / 2 of them) and, in L1, their
  /// 2-bit indices (a quarter of the block's bytes).
  bool sparse = false;
  uint64_t l1_bytes = 0;
  uint64_t l0a_bytes = 0;
  uint64_t l0b_bytes = 0;
  uint64_t l0c_bytes = 0;
  uint64_t bias_table_bytes = 0;
  uint64_t l0a_mx_bytes = 0;  ///< A's scale buffer (0: no MX on the profile)
  uint64_t l0b_mx_bytes = 0;  ///< B's scale buffer
  uint32_t core_num = 0;      ///< the most cores usedCoreNum may name
};

/// A context with `profile`'s cube capacities and core count (the larger of
/// its cube and vector core counts: a Matmul launched from vector cores
/// counts those) and every other member at its default.
CubeTilingContext ProfileCubeContext(Profile profile);

/// The rules, in the order CheckCubeTiling applies them.
enum class CubeTilingRule {
  kNone,
  kUsedCoreNum,    ///< 1 <= usedCoreNum <= core_num
  kShape,          ///< M, N, Ka, Kb >= 1
  kShapeNzAlign,   ///< NZ inputs: M, N to 16, Ka, Kb to C0
  kSingleShape,    ///< 1 <= singleCore* <= the whole shape; K unsplit
  kSingleNzAlign,  ///< NZ inputs: singleCoreM/N to 16, singleCoreK to C0
  kCoreSplit,      ///< usedCoreNum <= the blocks the single shapes cut
  kBasePositive,   ///< baseM, baseN, baseK >= 1
  kBaseAlign,      ///< fractal alignment of the bases
  kMxBaseK,        ///< MX: baseK a multiple of 64 (MmadMx's K unit)
  kSparseK,        ///< sparse: baseK (and a split singleCoreK) to 64
  kStepPositive,   ///< depths and steps >= 1
  kIsBias,         ///< isBias is 0 or 1 and agrees with the context
  kIterateOrder,   ///< 0 or 1
  kDoubleBuffer,   ///< dbL0A, dbL0B, dbL0C are 1 or 2
  kL0A,            ///< baseM * baseK * A * dbL0A fits L0A
  kL0B,            ///< baseN * baseK * B * dbL0B fits L0B (sparse:
                   ///< baseK / 2)
  kL0C,            ///< baseM * baseN * 4 * dbL0C fits L0C
  kBiasTable,      ///< baseN * bias fits the bias table
  kL0AMx,          ///< MX: A's base block's scales fit L0A_MX
  kL0BMx,          ///< MX: B's base block's scales fit L0B_MX
  kDepthA1,        ///< depthA1 = stepM * stepKa * (1 or 2)
  kDepthB1,        ///< depthB1 = stepN * stepKb * (1 or 2)
  kL1,             ///< A's and B's L1 blocks (and bias) fit L1
  kMdlStepM,       ///< MDL: stepM = 1 unless Ka is loaded whole
  kMdlStepN,       ///< MDL: stepN = 1 unless Kb is loaded whole
  kMdlKSteps,      ///< MDL: the Ka and Kb step counts divide one another
  kMxTypePara,     ///< MX: mxTypePara's factors in [1, 127], M / N > 1
                   ///< only with K loaded whole (0: every factor 1)
  kBatchLayout,    ///< layout axes all 0 or all >= 1, BatchNum >= 0
  kBatchPairing,   ///< A's, B's, C's B and N agree; G axes divide
  kBatchL1,        ///< layouts: BatchNum of A's and B's matrices fit L1
};

/// The first rule `tiling` breaks and its message (naming the field, its
/// value and the rule); {kNone, ""} when it breaks none.
struct CubeTilingViolation {
  CubeTilingRule rule = CubeTilingRule::kNone;
  std::string message;
};
CubeTilingViolation FindCubeTilingViolation(const TCubeTiling& tiling,
                                            const CubeTilingContext& context);

/// The message of the first rule `tiling` breaks; empty when it is valid.
std::string CheckCubeTiling(const TCubeTiling& tiling,
                            const CubeTilingContext& context);

/// mxTypePara with all four scale factors 1: each base block's scales are
/// loaded with the block (what the host tiling gives in MX mode).
constexpr int32_t kMxTypeParaPerBlock = 0x01010101;

/// C0_size: the elements of one 32-byte fractal row for a width in bits
/// (float 8, half 16, int8 32, int4 64).
constexpr uint32_t C0Elements(uint32_t bits) { return 256 / bits; }

/// The scale bytes of one base block of A (`rows` baseM) or B (baseN) in
/// MX mode: one fp8_e8m0_t per 32 elements along K, rows padded to the
/// 16-row scale fractal: Ceil16(rows) * baseK / 32.
uint64_t MxScaleBlockBytes(int32_t rows, int32_t base_k);

/// The L1 bytes of A's buffered blocks (depthA1 of them), of B's, of the
/// bias row when the context has a bias, in MX mode of A's and B's
/// scales (one scale block per buffered block), and in the sparse Matmul
/// B's blocks of kept values with their indices: what the kL1 rule bounds.
uint64_t CubeL1Bytes(const TCubeTiling& tiling,
                     const CubeTilingContext& context);

}  // namespace matmul
}  // namespace normgrad_ascendc

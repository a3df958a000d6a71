// normgrad_ascendc/lib/matmul/matmul.h — the kernel-side Matmul object
// (docs/matmul.md): Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB,
// MATMUL_POLICY>,
// REGIST_MATMUL_OBJ and the members a kernel calls (Init, SetTensorA/B,
// SetBias, SetOrgShape, SetSingleShape, SetTail, Iterate, GetTensorC,
// IterateAll, End, ...).
//
// The object computes C = A · B (+ bias) of its core's single shape in base
// blocks of baseM × baseN, each over K in steps of baseK, with the cube
// instructions of cube/cube_api.h and nothing else: GM → L1 by DataCopy
// with ND2NZ (an operand at TSCM is in L1 already), L1 → L0A/L0B by
// LoadData or LoadDataWithTranspose (one path for A and B: LoadOperand;
// on the Ascend 950 by LoadData2DParamsV2, A into its Nz),
// Mmad into L0C (the first K step from the bias or 0, the others
// accumulating), Fixpipe L0C → GM. So a
// Matmul's bits are the basic data path's, and its operands meet the same
// checks. Its L1, L0A, L0B, L0C and bias-table buffers are sized from the
// tiling and carved by a TPipe of a cube core: the kernel's own on a cube
// core, or (called from a vector core) one of a cube-core context the
// object keeps for its vector core (docs/matmul.md, "Where it runs").
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/cube/cube_mx.h"
#include "normgrad_ascendc/cube/cube_out_950.h"
#include "normgrad_ascendc/cube/cube_sparse.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"
#include "normgrad_ascendc/lib/matmul/matmul_batch_layout.h"
#include "normgrad_ascendc/lib/matmul/matmul_config.h"
#include "normgrad_ascendc/lib/matmul/matmul_static_tiling.h"
#include "normgrad_ascendc/runtime/atomic.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_pad.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// Where a Matmul object's cube work runs (matmul.cc decides).
enum class MatmulSide : uint8_t {
  kHere,       ///< on the current core, a cube core
  kForVector,  ///< on a cube-core context serving the current vector core
};

/// Decides where the object runs from the current core; on the cube core
/// of a mixed launch without ASCENDC_CUBE_ONLY the block ends here (that
/// core only serves its vector cores' objects).
MatmulSide MatmulSideForCurrentCore(bool cube_only);

/// A cube core standing for the AI Core of the current vector core: its
/// block index and count are the AI Core's.
std::unique_ptr<Core> NewMatmulCubeContext();

/// The bytes a (rows × cols) operand of `elem_bits`-bit elements (int4b_t:
/// 4) takes in Nz (rows to 16, cols to C0 = 32 bytes of elements).
constexpr uint64_t MatmulNzBytesOfBits(uint64_t rows, uint64_t cols,
                                       uint32_t elem_bits) {
  const uint64_t c0 = 256 / elem_bits;
  return (rows + 15) / 16 * 16 * ((cols + c0 - 1) / c0 * c0) * elem_bits / 8;
}

/// The same for whole-byte elements.
constexpr uint64_t MatmulNzBytes(uint64_t rows, uint64_t cols,
                                 uint32_t elem_bytes) {
  return MatmulNzBytesOfBits(rows, cols, 8 * elem_bytes);
}

/// The L1 bytes of an operand's base block stored as (rows × cols), as the
/// object keeps it there. `k_rows`: the stored rows run along K (A
/// transposed, B as [K, N]), so its load into L0 transposes: 16-bit types
/// fractal by fractal from Nz; int8_t (int4b_t) by squares of two (four)
/// fractals one above the other, so its column blocks hold whole squares
/// (rows to 32, 64); float by squares of two fractals side by side, so it
/// is kept in bands of 16 rows, each band's fractals one after the other
/// (columns to 16).
constexpr uint64_t MatmulL1BlockBytes(uint64_t rows, uint64_t cols,
                                      uint32_t elem_bits, bool k_rows) {
  if (k_rows && (elem_bits == 8 || elem_bits == 4)) {
    const uint64_t side = 256 / elem_bits;  // a square's rows and columns
    return (rows + side - 1) / side * side * ((cols + side - 1) / side * side) *
           elem_bits / 8;
  }
  if (k_rows && elem_bits == 32) {
    return (rows + 15) / 16 * 16 * ((cols + 15) / 16 * 16) * 4;
  }
  return MatmulNzBytesOfBits(rows, cols, elem_bits);
}

/// The L0A / L0B bytes of an operand's (mn × k) base block: Zz / Zn of 16
/// rows of M (N) by C0 of K. A float block loaded by squares spans K
/// rounded up to 16 (A's Mmad reads it so: kDirectionAlign); an int8_t
/// (int4b_t) one has one (three) fractals more, where the part of a last
/// square that overhangs M (N) lands.
constexpr uint64_t MatmulL0BlockBytes(uint64_t mn, uint64_t k,
                                      uint32_t elem_bits, bool k_rows) {
  if (k_rows && elem_bits == 32) {
    return (mn + 15) / 16 * 16 * ((k + 15) / 16 * 16) * 4;
  }
  if (k_rows && elem_bits == 8) return MatmulNzBytesOfBits(mn, k, 8) + 512;
  if (k_rows && elem_bits == 4) {
    return MatmulNzBytesOfBits(mn, k, 4) + 3 * 512;
  }
  return MatmulNzBytesOfBits(mn, k, elem_bits);
}

/// The orientations each operand may come in (A as [M, K] "plain" or [K,
/// M]; B as [K, N] "plain" or [N, K]) and whether the object moves it into
/// L1 itself (not for an operand at TSCM, already there).
struct MatmulOperandForms {
  bool a_plain, a_trans, a_to_l1, b_plain, b_trans, b_to_l1;
};

/// The tiling's rules (the page's, CheckCubeTiling with `rules`, and those
/// the object relies on besides) and its buffers' fit in the profile's cube
/// memories: a KernelError naming the field, value and rule.
/// `quantized`: the object keeps a block's per-column quantization
/// parameters in L1 too.
struct MatmulBufferBytes {
  uint64_t l1_a, l1_b, l1_bias, l1_quant, l0a, l0b, l0c, bias_table;
  uint64_t l1_scale_a, l1_scale_b;  // MxMatmul: the blocks' scales
  uint64_t l1_index;  // the sparse Matmul: B's blocks' 2-bit indices
};
/// `mx`: an MxMatmul, whose blocks' scales take L1 too.
MatmulBufferBytes CheckMatmulTiling(const TCubeTiling& t,
                                    const matmul::CubeTilingContext& rules,
                                    uint32_t a_bits, uint32_t b_bits,
                                    uint32_t bias_bytes, uint32_t l0c_bytes,
                                    const MatmulOperandForms& forms,
                                    bool quantized, bool mx);

}  // namespace normgrad_ascendc

namespace AscendC {

/// Where a block of C lies (Matmul::GetOffsetC): its first element's
/// offset, first row and column, height and width.
struct MatrixOffset {
  int32_t offset;
  int32_t row, col;
  int32_t height, width;
};

namespace matmul_detail {

// The packed 4-bit floats of MXFP4: a tensor of them counts bytes (two
// elements each), not elements as an int4b_t tensor does.
template <typename T>
constexpr bool kFp4x2 =
    std::is_same_v<T, fp4x2_e2m1_t> || std::is_same_v<T, fp4x2_e1m2_t>;

// An element's width in bits (int4b_t and the fp4x2 types: 4, two a byte).
template <typename T>
constexpr uint32_t kBits = std::is_same_v<T, int4b_t> || kFp4x2<T>
                               ? 4
                               : static_cast<uint32_t>(8 * sizeof(T));

// The bits one index step of a tensor of T spans: an element's, or for the
// fp4x2 types a byte's (two elements).
template <typename T>
constexpr uint32_t kIndexBits = kFp4x2<T> ? 8 : kBits<T>;

template <typename T>
constexpr bool kSixteenBit =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

// The Atlas A2/A3 type rows of the Matmul page's table 2 that the cube
// instructions emulate today: (A, B, bias, C).
template <typename A, typename B, typename Bias, typename C>
constexpr bool kEmulatedPair =
    (std::is_same_v<A, B> &&
     ((kSixteenBit<A> && std::is_same_v<Bias, float> &&
       (std::is_same_v<C, float> || std::is_same_v<C, half> ||
        std::is_same_v<C, bfloat16_t>)) ||
      (std::is_same_v<A, half> && std::is_same_v<Bias, half> &&
       (std::is_same_v<C, float> || std::is_same_v<C, half> ||
        std::is_same_v<C, bfloat16_t>)) ||
      (std::is_same_v<A, bfloat16_t> && std::is_same_v<Bias, half> &&
       (std::is_same_v<C, float> || std::is_same_v<C, half>)) ||
      (std::is_same_v<A, float> &&
       (std::is_same_v<Bias, float> || std::is_same_v<Bias, half>)&&(
           std::is_same_v<C, float> || std::is_same_v<C, half> ||
           std::is_same_v<C, bfloat16_t>)) ||
      (std::is_same_v<A, int8_t> && std::is_same_v<Bias, int32_t> &&
       (std::is_same_v<C, int32_t> || std::is_same_v<C, half> ||
        std::is_same_v<C, int8_t>)) ||
      (std::is_same_v<A, int4b_t> && std::is_same_v<Bias, int32_t> &&
       (std::is_same_v<C, int32_t> || std::is_same_v<C, half>)) ||
      (kSixteenBit<A> && std::is_same_v<Bias, float> &&
       std::is_same_v<C, int8_t>)));

template <typename T>
constexpr bool kFp8 =
    std::is_same_v<T, fp8_e4m3fn_t> || std::is_same_v<T, fp8_e5m2_t>;

// The Ascend 950's rows of the type table beyond Atlas A2/A3's that
// normgrad emulates: C in float, half or bfloat16_t from E4M3 / E5M2 on
// either side (mixed too) or HiFloat8 on both, with a float, half or
// bfloat16_t bias; float, half or bfloat16_t on both sides with a
// bfloat16_t bias; and the quantized rows of kQuant950Row.
template <typename C>
constexpr bool kFloatOut =
    std::is_same_v<C, float> || std::is_same_v<C, half> ||
    std::is_same_v<C, bfloat16_t>;
// The Ascend 950's quantized rows, whose Fixpipe modes only
// FixpipeParamsArch3510 has: C in fp8_e4m3fn_t from E4M3 / E5M2 inputs or
// in hifloat8_t from HiFloat8 inputs (a float, half or bfloat16_t bias),
// and int8_t inputs with an int32_t bias into bfloat16_t.
template <typename A, typename B, typename Bias, typename C>
constexpr bool kQuant950Row =
    (((kFp8<A> && kFp8<B> && std::is_same_v<C, fp8_e4m3fn_t>) ||
      (std::is_same_v<A, hifloat8_t> && std::is_same_v<B, hifloat8_t> &&
       std::is_same_v<C, hifloat8_t>)) &&
     kFloatOut<Bias>) ||
    (std::is_same_v<A, int8_t> && std::is_same_v<B, int8_t> &&
     std::is_same_v<Bias, int32_t> && std::is_same_v<C, bfloat16_t>);
// MxMatmul's rows (its guide page): MXFP8 or MXFP4 pairs as MmadMx takes
// them, the bias and C float, half or bfloat16_t.
template <typename A, typename B, typename Bias, typename C>
constexpr bool kEmulatedMxRow =
    cube_detail::kMmadMxPair<A, B>&& kFloatOut<Bias>&& kFloatOut<C>;
template <typename A, typename B, typename Bias, typename C>
constexpr bool kEmulated950Row = kFloatOut<C> &&
                                 ((((kFp8<A> && kFp8<B>) ||
                                    (std::is_same_v<A, hifloat8_t> &&
                                     std::is_same_v<B, hifloat8_t>)) &&
                                   kFloatOut<Bias>) ||
                                  (std::is_same_v<A, B> && kFloatOut<A> &&
                                   std::is_same_v<Bias, bfloat16_t>));

// The rows whose output Fixpipe quantizes with a mode only the Ascend
// 950's FixpipeParamsArch3510 has (kQuant950Row's outputs).
template <typename L0cT, typename C>
constexpr bool kQuantizedBy950 = std::is_same_v<C, fp8_e4m3fn_t> ||
                                 std::is_same_v<C, hifloat8_t> ||
                                 (std::is_same_v<L0cT, int32_t> &&
                                  std::is_same_v<C, bfloat16_t>);

// The rows whose output Fixpipe quantizes: a parameter from SetQuantScalar
// or SetQuantVector.
template <typename L0cT, typename C>
constexpr bool kQuantized = std::is_same_v<C, int8_t> ||
                            (std::is_same_v<L0cT, int32_t> &&
                             std::is_same_v<C, half>) ||
                            kQuantizedBy950<L0cT, C>;

// Fixpipe's conversion from the L0C type to C's: a cast, or the scalar
// (vector: false) or per-column (true) quantization mode.
template <typename L0cT, typename C>
constexpr QuantMode_t OutQuant(bool vector) {
  if constexpr (std::is_same_v<L0cT, C>) return NoQuant;
  if constexpr (std::is_same_v<L0cT, int32_t>) {
    if constexpr (std::is_same_v<C, half>) return vector ? VDEQF16 : DEQF16;
    if constexpr (std::is_same_v<C, bfloat16_t>) {
      return vector ? VQS322BF16_PRE : QS322BF16_PRE;
    }
    return vector ? VREQ8 : REQ8;
  }
  if constexpr (std::is_same_v<C, int8_t>) {
    return vector ? VQF322B8_PRE : QF322B8_PRE;
  }
  if constexpr (std::is_same_v<C, fp8_e4m3fn_t>) {
    return vector ? VQF322FP8_PRE : QF322FP8_PRE;
  }
  if constexpr (std::is_same_v<C, hifloat8_t>) {
    return vector ? VQF322HIF8_PRE : QF322HIF8_PRE;
  }
  if constexpr (std::is_same_v<C, half>) return F322F16;
  return F322BF16;
}

// Whether an operand type is a MatmulTypeWithScale (has scales).
template <typename T, typename = void>
constexpr bool kWithScale = false;
template <typename T>
constexpr bool kWithScale<T, std::void_t<decltype(T::scalePosition)>> = true;

// Whether an operand's scales, if it has any, are in GM as ND, or as
// VECTOR with an A in VECTOR (GEMV: one row of scales, laid out as ND):
// what normgrad emulates.
template <typename T>
constexpr bool GmNdScales() {
  if constexpr (kWithScale<T>) {
    return T::scalePosition == TPosition::GM &&
           (T::scaleFormat == CubeFormat::ND ||
            (T::scaleFormat == CubeFormat::VECTOR &&
             T::format == CubeFormat::VECTOR));
  } else {
    return true;
  }
}

// An operand's scale format and SCALE_ISTRANS (ND and false without scales).
template <typename T>
constexpr CubeFormat ScaleFormatOf() {
  if constexpr (kWithScale<T>) {
    return T::scaleFormat;
  } else {
    return CubeFormat::ND;
  }
}
template <typename T>
constexpr bool ScaleTransOf() {
  if constexpr (kWithScale<T>) {
    return T::isScaleTrans;
  } else {
    return false;
  }
}

// A GM view of `elems` elements of T on host `storage` (sized for them and
// 32 bytes more), from its first 32-byte boundary: the object's staging
// areas, which the cube's moves address as aligned GM.
template <typename T>
GlobalTensor<T> AlignedGmView(std::vector<uint8_t>& storage, size_t elems) {
  uint8_t* start = storage.data();
  while (reinterpret_cast<uintptr_t>(start) % 32 != 0) ++start;
  GlobalTensor<T> view;
  view.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(start), elems);
  return view;
}

}  // namespace matmul_detail

// Whether the kernel defined ASCENDC_CUBE_ONLY before including this
// header decides where its objects run, so the class lives in an inline
// namespace named after it: a program whose files include it both ways
// gets two distinct classes rather than one with two meanings.
#ifdef ASCENDC_CUBE_ONLY
#define NORMGRAD_MATMUL_MODE matmul_cube_only
#define NORMGRAD_MATMUL_CUBE_ONLY true
#else
#define NORMGRAD_MATMUL_MODE matmul_mixed
#define NORMGRAD_MATMUL_CUBE_ONLY false
#endif

inline namespace NORMGRAD_MATMUL_MODE {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          MATMUL_POLICY_DEFAULT_OF(MatmulPolicy)>
class Matmul {
 public:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  /// ASCENDC_CUBE_ONLY: the object runs on the kernel's own cube core.
  static constexpr bool kCubeOnly = NORMGRAD_MATMUL_CUBE_ONLY;
  using Policy = MATMUL_POLICY<MM_CFG>;
  /// MM_CFG's config (its `cfg` when MM_CFG is a MatmulApiStaticTiling).
  static constexpr const MatmulConfig& kConfig =
      matmul_detail::ConfigOf(MM_CFG);
  static_assert(Policy::kEmulated,
                "Matmul: the SplitM / SplitN dual outputs are not emulated "
                "yet");
  /// MxMatmul: A and B carry scale matrices (MatmulWithScalePolicy).
  static constexpr bool kMx =
      std::is_same_v<Policy, Impl::Detail::MatmulWithScalePolicy<MM_CFG>>;
  static_assert(!kMx || (matmul_detail::kWithScale<A_TYPE> &&
                         matmul_detail::kWithScale<B_TYPE>),
                "Matmul: MatmulWithScalePolicy needs A_TYPE and B_TYPE "
                "declared with MatmulTypeWithScale");
  static_assert(
      !kMx || cube_detail::kMmadMxPair<typename A_TYPE::T, typename B_TYPE::T>,
      "Matmul: MxMatmul takes MXFP8 (A and B fp8_e4m3fn_t or "
      "fp8_e5m2_t) or MXFP4 (A and B fp4x2_e2m1_t or fp4x2_e1m2_t)");
  static_assert(kMx || !(matmul_detail::kFp4x2<typename A_TYPE::T> ||
                         matmul_detail::kFp4x2<typename B_TYPE::T>),
                "Matmul: fp4x2_e2m1_t and fp4x2_e1m2_t operands are "
                "MxMatmul's (MatmulTypeWithScale, MatmulWithScalePolicy)");
  static_assert(matmul_detail::GmNdScales<A_TYPE>() &&
                    matmul_detail::GmNdScales<B_TYPE>(),
                "Matmul: MxMatmul's scale matrices are emulated in GM as ND "
                "(scaleA in VECTOR with A in VECTOR); at VECOUT or TSCM, or "
                "in NZ, not yet");
  static_assert(!kMx || ((A_TYPE::format == CubeFormat::ND ||
                          A_TYPE::format == CubeFormat::NZ ||
                          A_TYPE::format == CubeFormat::VECTOR) &&
                         (B_TYPE::format == CubeFormat::ND ||
                          B_TYPE::format == CubeFormat::NZ) &&
                         A_TYPE::pos != TPosition::VECOUT &&
                         B_TYPE::pos != TPosition::VECOUT),
                "Matmul: MxMatmul is emulated with A and B in GM (ND or NZ, "
                "A in VECTOR too) or at TSCM (NZ); at VECOUT not yet");
  // The guide's GEMV rule: A and scaleA both in VECTOR, in GM, neither
  // transposed.
  static_assert(!kMx || ((A_TYPE::format == CubeFormat::VECTOR) ==
                             (matmul_detail::ScaleFormatOf<A_TYPE>() ==
                              CubeFormat::VECTOR) &&
                         (A_TYPE::format != CubeFormat::VECTOR ||
                          (A_TYPE::pos == TPosition::GM &&
                           !matmul_detail::ScaleTransOf<A_TYPE>()))),
                "Matmul: an MxMatmul GEMV declares A and scaleA both in "
                "CubeFormat::VECTOR, in GM, SCALE_ISTRANS false");
  static_assert(!kMx || kConfig.doNorm || kConfig.doMultiDataLoad,
                "Matmul: MxMatmul runs with the Norm and MDL templates only "
                "(its guide page)");
  // MatmulConfig switches that change what the object computes or writes
  // and that it does not honour are refused here, never ignored.
  static_assert(!kConfig.isPartialOutput || kConfig.doMultiDataLoad,
                "Matmul: MatmulConfig.isPartialOutput true needs the MDL "
                "template (GetMDLConfig, or GetMMConfig<CONFIG_MDL>)");
  static_assert(!A_TYPE::isSparse,
                "Matmul: A_TYPE is a SparseMatmulType; in the 4:2 sparse "
                "Matmul B is the sparse one (B_TYPE), A is whole");
  /// The 4:2 sparse Matmul (docs/matmul.md, "Sparse Matmul"): B_TYPE a
  /// SparseMatmulType, B the values kept along K, SetSparseIndex their
  /// indices; Init refuses what the pages exclude.
  static constexpr bool kSparse = B_TYPE::isSparse;
  /// The sparse Matmul's instructions exist for int8_t A and B only (Init
  /// refuses other types before they would run).
  static constexpr bool kSparseInt8 =
      kSparse && std::is_same_v<SrcAT, int8_t> && std::is_same_v<SrcBT, int8_t>;
  static_assert(!kConfig.enableRelu,
                "Matmul: MatmulConfig.enableRelu true is not supported on "
                "Atlas A2/A3 (its MatmulConfig page)");
  static_assert(!kConfig.intraBlockPartSum,
                "Matmul: MatmulConfig.intraBlockPartSum true is not supported "
                "on Atlas A2/A3 (its MatmulConfig page)");
  static_assert(!kConfig.isCO1Shared,
                "Matmul: MatmulConfig.isCO1Shared true is not supported on "
                "Atlas A2/A3 (its MatmulConfig page)");
  static_assert(!kConfig.isEnableChannelSplit ||
                    (C_TYPE::pos == TPosition::GM &&
                     C_TYPE::format == CubeFormat::NZ &&
                     std::is_same_v<DstT, float> &&
                     !std::is_same_v<SrcAT, int8_t> &&
                     !std::is_same_v<SrcAT, int4b_t>),
                "Matmul: MatmulConfig.isEnableChannelSplit true needs C_TYPE "
                "in GM, format NZ, type float, from a float L0C (half, "
                "bfloat16_t or float inputs)");
  static_assert(!MM_CB::kDataCopyOut || C_TYPE::pos == TPosition::GM,
                "Matmul: MatmulCallBackFunc's DataCopyOut moves C from L0C to "
                "GM; C_TYPE's position must be GM");
  static_assert(A_TYPE::format != CubeFormat::VECTOR || !A_TYPE::isTrans,
                "Matmul: A_TYPE in CubeFormat::VECTOR (GEMV) has ISTRANS true; "
                "a vector A is not transposed");
  /// L0C holds int32_t for 8-bit and 4-bit inputs, float otherwise.
  using L0cT = std::conditional_t<std::is_same_v<SrcAT, int8_t> ||
                                      std::is_same_v<SrcAT, int4b_t>,
                                  int32_t, float>;
  static constexpr bool kInt4 = std::is_same_v<SrcAT, int4b_t>;
  /// Whether Fixpipe quantizes C (SetQuantScalar / SetQuantVector).
  static constexpr bool kQuantOut = matmul_detail::kQuantized<L0cT, DstT>;
  /// Whether C goes to the UB (VECIN).
  static constexpr bool kLocalC = C_TYPE::pos == TPosition::VECIN;

  Matmul() = default;
  ~Matmul() {
    if (context_ == nullptr) return;
    const normgrad_ascendc::ScopedCore on(*context_);
    pipe_.reset();
  }
  Matmul(const Matmul&) = delete;
  Matmul& operator=(const Matmul&) = delete;

  /// Takes the tiling and carves the object's buffers (REGIST_MATMUL_OBJ
  /// with a tiling calls it).
  void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr,
            normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    Place(tpipe);
    const Here here(*this);
    if constexpr (kSparse) CheckSparse();
    CheckTypes();
    tiling_ = StaticOrGiven(cubeTiling);
    const normgrad_ascendc::MatmulBufferBytes need =
        normgrad_ascendc::CheckMatmulTiling(
            tiling_, TilingRules(), matmul_detail::kBits<SrcAT>,
            matmul_detail::kBits<SrcBT>, sizeof(BiasT), sizeof(L0cT),
            OperandForms(), kQuantOut, kMx);
    TPipe* pipe = pipe_ != nullptr ? pipe_.get() : tpipe_;
    if (pipe == nullptr) pipe = GetTPipePtr();
    if (pipe == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::Init: tpipe is null and the core has no TPipe; pass the "
          "kernel's TPipe to REGIST_MATMUL_OBJ or Init");
    }
    if (!buffers_carved_) {
      if (need.l1_a > 0) {
        pipe->InitBuffer(a1_, static_cast<uint32_t>(need.l1_a));
      }
      if (need.l1_b > 0) {
        pipe->InitBuffer(b1_, static_cast<uint32_t>(need.l1_b));
      }
      if (need.l1_index > 0) {
        pipe->InitBuffer(index1_, static_cast<uint32_t>(need.l1_index));
      }
      if (need.l1_scale_a > 0) {
        pipe->InitBuffer(scale_a1_, static_cast<uint32_t>(need.l1_scale_a));
        pipe->InitBuffer(scale_b1_, static_cast<uint32_t>(need.l1_scale_b));
      }
      if (need.l1_bias > 0) {
        pipe->InitBuffer(bias1_, static_cast<uint32_t>(need.l1_bias));
        pipe->InitBuffer(bias2_, static_cast<uint32_t>(need.bias_table));
      }
      pipe->InitBuffer(a2_, static_cast<uint32_t>(need.l0a));
      pipe->InitBuffer(b2_, static_cast<uint32_t>(need.l0b));
      if constexpr (C_TYPE::pos != TPosition::CO1) {
        pipe->InitBuffer(c1_, static_cast<uint32_t>(need.l0c));
      }
      if constexpr (kQuantOut) {
        // The per-column parameters of a block (uint64_t each), in L1.
        pipe->InitBuffer(quant1_, static_cast<uint32_t>(need.l1_quant));
      }
      carved_ = need;
      buffers_carved_ = true;
    } else if (need.l1_a > carved_.l1_a || need.l1_b > carved_.l1_b ||
               need.l0a > carved_.l0a || need.l0b > carved_.l0b ||
               need.l0c > carved_.l0c || need.l1_bias > carved_.l1_bias ||
               need.l1_scale_a > carved_.l1_scale_a ||
               need.l1_scale_b > carved_.l1_scale_b ||
               need.l1_index > carved_.l1_index) {
      normgrad_ascendc::Fail(
          "Matmul::Init: the new tiling needs larger buffers than the first "
          "Init carved (L1 %llu + %llu, L0A %llu, L0B %llu, L0C %llu bytes); "
          "a later Init may only shrink the base blocks",
          ull(need.l1_a), ull(need.l1_b), ull(need.l0a), ull(need.l0b),
          ull(need.l0c));
    }
    if constexpr (kLocalC) PrepareLocalC();
    if constexpr (A_TYPE::pos == TPosition::VECOUT ||
                  B_TYPE::pos == TPosition::VECOUT ||
                  BIAS_TYPE::pos == TPosition::VECOUT) {
      if (context_ == nullptr) {
        normgrad_ascendc::Fail(
            "Matmul::Init: an operand at VECOUT comes from a vector core's "
            "UB, but this object runs on a cube core, which has none");
      }
    }
    if constexpr (A_TYPE::pos == TPosition::TSCM ||
                  B_TYPE::pos == TPosition::TSCM) {
      if (context_ != nullptr) {
        normgrad_ascendc::Fail(
            "Matmul::Init: an operand at TSCM lies in the L1 of the cube core "
            "that runs the object, but this object serves a vector core "
            "(which has no L1); use TSCM operands on a cube core "
            "(ASCENDC_CUBE_ONLY or a pure cube kernel)");
      }
    }
    initialized_ = true;
    org_m_ = tiling_.M;
    org_n_ = tiling_.N;
    org_ka_ = tiling_.Ka;
    org_kb_ = tiling_.Kb;
    org_kc_ = 0;
    single_m_ = tiling_.singleCoreM;
    single_n_ = tiling_.singleCoreN;
    single_k_ = tiling_.singleCoreK;
    bias_on_ = false;
    a_set_ = b_set_ = false;
    index_set_ = false;
    quant_ = QuantSource::kNone;
    ResetIteration();
  }

  /// One quantization parameter for all of C (the Fixpipe parameter's
  /// bits), for the rows whose output is quantized.
  void SetQuantScalar(const uint64_t quantScalar,
                      normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableQuantVector,
                  "Matmul::SetQuantScalar: MatmulConfig.enableQuantVector is "
                  "false, which compiles SetQuantScalar out");
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetQuantScalar");
    RequireQuantRow("SetQuantScalar");
    quant_scalar_ = quantScalar;
    quant_ = QuantSource::kScalar;
  }

  /// One parameter per column of C, from GM (the core's first column's
  /// entry first, as the bias).
  void SetQuantVector(const GlobalTensor<uint64_t>& quantTensor,
                      normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableQuantVector,
                  "Matmul::SetQuantVector: MatmulConfig.enableQuantVector is "
                  "false, which compiles SetQuantVector out");
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetQuantVector");
    RequireQuantRow("SetQuantVector");
    quant_gm_ = quantTensor;
    quant_ = QuantSource::kVector;
  }

  /// The 4:2 sparse Matmul's index matrix in GM, from the core's first
  /// element: two 2-bit indices for each group of four along K (one per
  /// kept value of B), four a byte (the first in the low bits), in the
  /// fractal order of B's Nz (docs/matmul.md, "Sparse Matmul").
  void SetSparseIndex(const GlobalTensor<uint8_t>& indexGlobal,
                      normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if constexpr (!kSparse) {
      normgrad_ascendc::Fail(
          "Matmul::SetSparseIndex: B_TYPE is not a SparseMatmulType; the "
          "index matrix belongs to the 4:2 sparse Matmul (declare B_TYPE as "
          "SparseMatmulType<...>)");
    }
    RequireInit("SetSparseIndex");
    index_gm_ = indexGlobal;
    index_set_ = true;
    ResetIteration();
  }

  // The rules of the sparse Matmul's pages (SetSparseIndex, the guide's
  // SparseMatmulType table), checked by Init.
  static void CheckSparse() {
    const char* why = nullptr;
    if (normgrad_ascendc::OnProfile950()) {
      why =
          "is not on profile Ascend 950: its SetSparseIndex page lists Atlas "
          "A2/A3 only (the 950's cube has no sparse Mmad)";
    } else if (!kCubeOnly) {
      why =
          "runs in pure cube mode only: define ASCENDC_CUBE_ONLY before "
          "including the Matmul header";
    } else if (!kConfig.doMultiDataLoad) {
      why = "runs with the MDL template only (CFG_MDL, GetMDLConfig)";
    } else if (!std::is_same_v<SrcBT, int8_t>) {
      why = "takes B of int8_t only (SparseMatmulType's TYPE)";
    } else if (!std::is_same_v<SrcAT, int8_t>) {
      why = "takes A of int8_t only (MmadWithSparse multiplies int8_t)";
    } else if (B_TYPE::pos != TPosition::GM) {
      why = "takes B in GM only (SparseMatmulType's POSITION)";
    } else if (B_TYPE::indexPosition != TPosition::GM) {
      why = "takes the index matrix in GM only (INDEX_POSITION)";
    } else if (B_TYPE::format != CubeFormat::ND &&
               B_TYPE::format != CubeFormat::NZ) {
      why = "takes B as ND or NZ only (SparseMatmulType's CubeFormat)";
    } else if (!B_TYPE::isTrans) {
      why =
          "takes B transposed only (SparseMatmulType's ISTRANS true: B "
          "stored as [N, K / 2])";
    } else if (B_TYPE::layout != LayoutMode::NONE) {
      why = "has no batches (SparseMatmulType's LAYOUT is NONE)";
    } else if (B_TYPE::ibShare) {
      why = "has no IBShare (SparseMatmulType's IBSHARE is false)";
    } else if (MM_CB::kCopyB1) {
      why =
          "moves B and its indices itself: a CopyB1 callback is not "
          "emulated with it";
    }
    if (why != nullptr) {
      normgrad_ascendc::Fail("Matmul::Init: the 4:2 sparse Matmul %s", why);
    }
  }

  /// A in GM from the core's first element ([M, K], or [K, M] with
  /// isTransposeA); B likewise ([K, N], or [N, K]).
  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetTensorA", "A_TYPE", A_TYPE::pos, TPosition::GM);
    SetA(gm, isTransposeA);
  }

  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetTensorB", "B_TYPE", B_TYPE::pos, TPosition::GM);
    SetB(gm, isTransposeB);
  }

  /// MxMatmul: A's scales in GM, one fp8_e8m0_t per 32 elements of K, as
  /// [M, 2 * ceil(K / 64)] row major, or with isTransposeScaleA as
  /// [ceil(K / 64), M, 2] (docs/matmul.md, "MxMatmul").
  void SetTensorScaleA(const GlobalTensor<fp8_e8m0_t>& gm,
                       bool isTransposeScaleA = false,
                       normgrad_ascendc::CallSite site = {}) {
    static_assert(kMx,
                  "Matmul::SetTensorScaleA belongs to MxMatmul (a Matmul "
                  "with MatmulWithScalePolicy)");
    const normgrad_ascendc::ApiCall call(site);
    SetScale<true>(gm, isTransposeScaleA);
  }

  /// MxMatmul: B's scales, as [ceil(K / 64), N, 2], or with
  /// isTransposeScaleB as [N, 2 * ceil(K / 64)].
  void SetTensorScaleB(const GlobalTensor<fp8_e8m0_t>& gm,
                       bool isTransposeScaleB = false,
                       normgrad_ascendc::CallSite site = {}) {
    static_assert(kMx,
                  "Matmul::SetTensorScaleB belongs to MxMatmul (a Matmul "
                  "with MatmulWithScalePolicy)");
    const normgrad_ascendc::ApiCall call(site);
    SetScale<false>(gm, isTransposeScaleB);
  }

  void SetBias(const GlobalTensor<BiasT>& biasGlobal,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableSetBias,
                  "Matmul::SetBias: MatmulConfig.enableSetBias is false, which "
                  "compiles SetBias out");
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetBias", "BIAS_TYPE", BIAS_TYPE::pos, TPosition::GM);
    SetBiasGm(biasGlobal);
  }

  /// A as one row of K values all equal to `aScalar` (its page: the scalar
  /// spreads to a [1, K] tensor; 1 sums B along K). A is then that row in
  /// GM, so the single shape's M is 1. The page's example passes an
  /// isTransposeA too, which a row of equal values makes moot.
  void SetTensorA(SrcAT aScalar, bool isTransposeA = false,
                  normgrad_ascendc::CallSite site = {}) {
    static_assert(std::is_same_v<SrcAT, half> || std::is_same_v<SrcAT, float>,
                  "Matmul::SetTensorA(aScalar): the scalar A is half or float "
                  "(its page's types)");
    static_assert(
        A_TYPE::pos == TPosition::GM && (A_TYPE::format == CubeFormat::ND ||
                                         A_TYPE::format == CubeFormat::VECTOR),
        "Matmul::SetTensorA(aScalar): A_TYPE must be in GM as ND or "
        "VECTOR (the scalar stands for A in GM)");
    const normgrad_ascendc::ApiCall call(site);
    (void)isTransposeA;
    SetA(GlobalTensor<SrcAT>(), false);
    a_scalar_ = aScalar;
  }

  /// A and B at VECOUT: in the UB of the calling vector core, addressed as
  /// in GM (rows of the org shape) and read when the computation starts.
  /// At TSCM: the core's whole single-shape matrix already in L1, in Nz
  /// (docs/matmul.md), which the cube's loads read in place.
  void SetTensorA(const LocalTensor<SrcAT>& leftMatrix,
                  bool isTransposeA = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireLocalOperand("SetTensorA", "A_TYPE", A_TYPE::pos, leftMatrix);
    SetA(GlobalTensor<SrcAT>(), isTransposeA);
    a_local_ = leftMatrix;
  }
  void SetTensorB(const LocalTensor<SrcBT>& rightMatrix,
                  bool isTransposeB = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireLocalOperand("SetTensorB", "B_TYPE", B_TYPE::pos, rightMatrix);
    SetB(GlobalTensor<SrcBT>(), isTransposeB);
    b_local_ = rightMatrix;
  }
  /// The bias in the UB of the calling vector core (VECOUT), as in GM; or
  /// at TSCM (the Ascend 950): singleCoreN values already in L1.
  void SetBias(const LocalTensor<BiasT>& inputBias,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableSetBias,
                  "Matmul::SetBias: MatmulConfig.enableSetBias is false, which "
                  "compiles SetBias out");
    const normgrad_ascendc::ApiCall call(site);
    if (BIAS_TYPE::pos == TPosition::TSCM) {
      RequireLocalOperand("SetBias", "BIAS_TYPE", BIAS_TYPE::pos, inputBias);
      RequireTscmBiasAlignment(inputBias);
    } else {
      RequireOperandIn("SetBias", "BIAS_TYPE", BIAS_TYPE::pos,
                       TPosition::VECOUT);
    }
    SetBiasGm(GlobalTensor<BiasT>());
    bias_local_ = inputBias;
  }
  /// The next Iterate computes without the bias.
  void DisableBias(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    bias_on_ = false;
  }
  void ClearBias(normgrad_ascendc::CallSite site = {}) { DisableBias(site); }

  void SetOrgShape(int orgM, int orgN, int orgK,
                   normgrad_ascendc::CallSite site = {}) {
    SetOrgShape(orgM, orgN, orgK, orgK, 0, site);
  }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0,
                   normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableSetOrgShape,
                  "Matmul::SetOrgShape: MatmulConfig.enableSetOrgShape is "
                  "false, which compiles SetOrgShape out");
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetOrgShape");
    CheckPositive("SetOrgShape", "orgM", orgM);
    CheckPositive("SetOrgShape", "orgN", orgN);
    CheckPositive("SetOrgShape", "orgKa", orgKa);
    CheckPositive("SetOrgShape", "orgKb", orgKb);
    if (orgKa != orgKb) {
      normgrad_ascendc::Fail(
          "Matmul::SetOrgShape: orgKa %d differs from orgKb %d; A's columns "
          "and B's rows are the same K",
          orgKa, orgKb);
    }
    if (orgKc < 0) {
      normgrad_ascendc::Fail(
          "Matmul::SetOrgShape: orgKc %d is negative; it is C's row length, "
          "or 0 for B's N",
          orgKc);
    }
    org_m_ = orgM;
    org_n_ = orgN;
    org_ka_ = orgKa;
    org_kb_ = orgKb;
    org_kc_ = orgKc;
    ResetIteration();
  }

  void SetSingleShape(int singleM, int singleN, int singleK,
                      normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetSingleShape");
    SetShape("SetSingleShape", "singleM", singleM, org_m_, "orgM");
    SetShape("SetSingleShape", "singleN", singleN, org_n_, "orgN");
    SetShape("SetSingleShape", "singleK", singleK, org_ka_, "orgKa");
    single_m_ = singleM;
    single_n_ = singleN;
    single_k_ = singleK;
    ResetIteration();
  }

  /// -1 keeps a value; a tail is at most the tiling's single shape.
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableSetTail,
                  "Matmul::SetTail: MatmulConfig.enableSetTail is false, which "
                  "compiles SetTail out");
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetTail");
    if (tailM != -1) {
      SetShape("SetTail", "tailM", tailM, tiling_.singleCoreM, "singleCoreM");
      single_m_ = tailM;
    }
    if (tailN != -1) {
      SetShape("SetTail", "tailN", tailN, tiling_.singleCoreN, "singleCoreN");
      single_n_ = tailN;
    }
    if (tailK != -1) {
      SetShape("SetTail", "tailK", tailK, tiling_.singleCoreK, "singleCoreK");
      single_k_ = tailK;
    }
    ResetIteration();
  }

  /// Computes the next baseM × baseN block of C into the object's L0C;
  /// false once the single shape is done. The asynchronous form (sync
  /// false) starts the computation of every block: the CPU computes the
  /// first at the call and each further one when GetTensorC<false> asks
  /// for it, so one Iterate<false> may serve all of them.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(!kConfig.enableMixDualMaster,
                  "Matmul::Iterate: with MatmulConfig.enableMixDualMaster "
                  "the result is taken by IterateAll only");
    static_assert(AllowsIterate(IterateMode::ITERATE_MODE_NORMAL),
                  "Matmul::Iterate: MatmulConfig.iterateMode leaves Iterate "
                  "out (ITERATE_MODE_NORMAL is not set)");
    static_assert(C_TYPE::pos != TPosition::CO1,
                  "Matmul::Iterate: with C at CO1 pass the L0C tensor "
                  "(Iterate(enPartialSum, localCmatrix))");
    static_assert(sync || !kConfig.isPartialOutput,
                  "Matmul::Iterate<false>: the asynchronous Iterate with "
                  "MatmulConfig.isPartialOutput true is not emulated yet");
    const normgrad_ascendc::ApiCall call(site);
    StageLocalInputs("Iterate");
    const Here here(*this);
    if (!Advance("Iterate")) return false;
    ComputeBlock(c1_.template Get<L0cT>(), enPartialSum, "Iterate");
    have_block_ = true;
    async_ = !sync;
    return true;
  }

  /// The form with the user's L0C tensor (C at CO1, NZ, float or int32_t).
  template <bool sync = true, typename T>
  bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(!kConfig.enableMixDualMaster,
                  "Matmul::Iterate: with MatmulConfig.enableMixDualMaster "
                  "the result is taken by IterateAll only");
    static_assert(AllowsIterate(IterateMode::ITERATE_MODE_NORMAL),
                  "Matmul::Iterate: MatmulConfig.iterateMode leaves Iterate "
                  "out (ITERATE_MODE_NORMAL is not set)");
    static_assert(C_TYPE::pos == TPosition::CO1,
                  "Matmul::Iterate(enPartialSum, localCmatrix): C_TYPE's "
                  "position must be CO1");
    static_assert(std::is_same_v<T, L0cT>,
                  "Matmul::Iterate: localCmatrix's type must be the L0C type "
                  "(int32_t for int8_t inputs, float otherwise)");
    const normgrad_ascendc::ApiCall call(site);
    StageLocalInputs("Iterate");
    const Here here(*this);
    if (!Advance("Iterate")) return false;
    ComputeBlock(localCmatrix, enPartialSum, "Iterate");
    return true;
  }

  /// Moves the block the last Iterate computed to `gm`, at its place in
  /// the single shape (or at gm's start, rows baseN apart, with
  /// enSequentialWrite). enAtomic: 0 none, 1 add, 2 max, 3 min.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false,
                  normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableGetTensorC,
                  "Matmul::GetTensorC: MatmulConfig.enableGetTensorC is false, "
                  "which compiles GetTensorC out");
    const normgrad_ascendc::ApiCall call(site);
    RequireSequentialForPartial(enSequentialWrite);
    const Here here(*this);
    TakeBlock(!sync, "GetTensorC");
    WriteBlock(gm, enAtomic, enSequentialWrite);
    have_block_ = false;
  }

  /// The asynchronous form that moves nothing: the block goes to its slot
  /// of the workspace (SetWorkspace), rows baseN apart, and the tensor of
  /// that slot (baseM × baseN values) is returned for the kernel to copy.
  /// Block i of the computation has slot i. C at VECIN, as its page says.
  template <bool sync = false>
  GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0,
                                bool enSequentialWrite = false,
                                normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableGetTensorC,
                  "Matmul::GetTensorC: MatmulConfig.enableGetTensorC is false, "
                  "which compiles GetTensorC out");
    static_assert(!sync,
                  "Matmul::GetTensorC(): the form returning the workspace's "
                  "block is asynchronous only (GetTensorC<false>())");
    static_assert(kLocalC,
                  "Matmul::GetTensorC(): the form returning the workspace's "
                  "block needs C_TYPE at VECIN");
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // the slot is written row after row
    RequireLocalC("GetTensorC", enAtomic);
    const Here here(*this);
    const uint32_t index = blocks_taken_;  // the next block's slot
    const uint64_t slot = uint64_t{1} * tiling_.baseM * tiling_.baseN;
    const uint64_t need = (uint64_t{index} + 1) * slot;
    if (workspace_elems_ != 0 && workspace_elems_ < need) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: the workspace holds %llu elements of %s; "
          "block %u of the computation takes its slot of baseM x baseN = "
          "%llu values, up to element %llu",
          ull(workspace_elems_), normgrad_ascendc::TypeName<DstT>(), index,
          ull(slot), ull(need));
    }
    TakeBlock(true, "GetTensorC");
    GlobalTensor<DstT> block;
    block.SetGlobalBuffer(
        reinterpret_cast<__gm__ DstT*>(workspace_.GetPhyAddr()) +
            uint64_t{index} * slot,
        slot);
    WriteBlock(block, 0, true);
    have_block_ = false;
    return block;
  }

  /// The asynchronous GetTensorC into the UB, under its older name.
  void AsyncGetTensorC(const LocalTensor<DstT>& c,
                       normgrad_ascendc::CallSite site = {}) {
    GetTensorC<false>(c, 0, false, site);
  }

  /// Orders the asynchronous GetTensorC before the kernel's vector work:
  /// the CPU has finished each at its call, so this returns at once.
  void WaitGetTensorC(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
  }

  /// Where the block the last Iterate computed lies in the core's C: its
  /// first row and column, its height and width, and the offset of its
  /// first element in C's rows (orgN, or orgKc when set, apart).
  MatrixOffset GetOffsetC(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("GetOffsetC");
    if (next_ == 0) {
      normgrad_ascendc::Fail(
          "Matmul::GetOffsetC: no block computed yet; call Iterate first");
    }
    MatrixOffset at;
    at.row = static_cast<int32_t>(m_idx_ * tiling_.baseM);
    at.col = static_cast<int32_t>(n_idx_ * tiling_.baseN);
    at.height = static_cast<int32_t>(CurM());
    at.width = static_cast<int32_t>(CurN());
    at.offset = at.row * (org_kc_ > 0 ? org_kc_ : org_n_) + at.col;
    return at;
  }

  /// The block the last Iterate computed into the UB (C at VECIN, on a
  /// vector core): rows baseN apart from the tensor's start.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false,
                  normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableGetTensorC,
                  "Matmul::GetTensorC: MatmulConfig.enableGetTensorC is false, "
                  "which compiles GetTensorC out");
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // a block in the UB always starts at its start
    RequireLocalC("GetTensorC", enAtomic);
    uint32_t cur_m = 0;
    {
      const Here here(*this);
      TakeBlock(!sync, "GetTensorC");
      WriteBlock(scratch_gm_, 0, true);
      have_block_ = false;
      cur_m = CurM();
    }
    // On the vector core: the block from the cube's output into the UB.
    DataCopy(co2Local, scratch_gm_, cur_m * tiling_.baseN);
  }

  /// The block both to `gm` (as the GM form) and into the UB (as the
  /// LocalTensor form); C at VECIN, on a vector core.
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm,
                  const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false,
                  normgrad_ascendc::CallSite site = {}) {
    static_assert(kConfig.enableGetTensorC,
                  "Matmul::GetTensorC: MatmulConfig.enableGetTensorC is false, "
                  "which compiles GetTensorC out");
    const normgrad_ascendc::ApiCall call(site);
    RequireLocalC("GetTensorC", 0);
    RequireSequentialForPartial(enSequentialWrite);
    uint32_t cur_m = 0;
    {
      const Here here(*this);
      TakeBlock(!sync, "GetTensorC");
      WriteBlock(gm, enAtomic, enSequentialWrite);
      WriteBlock(scratch_gm_, 0, true);
      have_block_ = false;
      cur_m = CurM();
    }
    DataCopy(co2Local, scratch_gm_, cur_m * tiling_.baseN);
  }

  /// All blocks of the single shape into the UB (C at VECIN, on a vector
  /// core): rows singleCoreN apart.
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0,
                  normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_ALL),
        "Matmul::IterateAll: MatmulConfig.iterateMode leaves IterateAll "
        "out (ITERATE_MODE_ALL is not set)");
    static_assert(!kConfig.isPartialOutput,
                  "Matmul::IterateAll: MatmulConfig.isPartialOutput is true; "
                  "take the K steps' blocks with Iterate and GetTensorC "
                  "(sequential write)");
    const normgrad_ascendc::ApiCall call(site);
    RequireLocalC("IterateAll", enAtomic);
    constexpr uint32_t per32 = 32 / sizeof(DstT);
    if (single_n_ % per32 != 0) {
      normgrad_ascendc::Fail(
          "Matmul::IterateAll: singleCoreN %d of %s is not a whole number of "
          "32-byte blocks; a result in the UB has rows of whole blocks",
          single_n_, normgrad_ascendc::TypeName<DstT>());
    }
    ResetIteration();
    StageLocalInputs("IterateAll");
    for (;;) {
      uint32_t m0 = 0, n0 = 0, cur_m = 0, cur_n = 0;
      {
        const Here here(*this);
        if (!Advance("IterateAll")) break;
        ComputeBlock(c1_.template Get<L0cT>(), false, "IterateAll");
        have_block_ = true;
        WriteBlock(scratch_gm_, 0, true);
        have_block_ = false;
        m0 = m_idx_ * tiling_.baseM;
        n0 = n_idx_ * tiling_.baseN;
        cur_m = CurM();
        cur_n = CurN();
      }
      DataCopyParams rows;
      rows.blockCount = static_cast<uint16_t>(cur_m);
      rows.blockLen = static_cast<uint16_t>(cur_n / per32);
      rows.srcStride = static_cast<uint16_t>((tiling_.baseN - cur_n) / per32);
      rows.dstStride = static_cast<uint16_t>((single_n_ - cur_n) / per32);
      DataCopy(ubCmatrix[uint64_t{m0} * single_n_ + n0], scratch_gm_, rows);
    }
  }

  /// All blocks of the single shape into `gm`. The asynchronous form
  /// (sync false) has finished when it returns as well; WaitIterateAll
  /// then returns at once.
  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false, normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_ALL),
        "Matmul::IterateAll: MatmulConfig.iterateMode leaves IterateAll "
        "out (ITERATE_MODE_ALL is not set)");
    static_assert(C_TYPE::pos != TPosition::CO1,
                  "Matmul::IterateAll: C_TYPE's position must not be CO1");
    static_assert(!kConfig.isPartialOutput,
                  "Matmul::IterateAll: MatmulConfig.isPartialOutput is true; "
                  "take the K steps' blocks with Iterate and GetTensorC "
                  "(sequential write)");
    const normgrad_ascendc::ApiCall call(site);
    (void)waitIterateAll;
    if (fakeMsg) return;  // IBShare's pairing call: no computation
    ResetIteration();
    StageLocalInputs("IterateAll");
    const Here here(*this);
    while (Advance("IterateAll")) {
      ComputeBlock(c1_.template Get<L0cT>(), false, "IterateAll");
      have_block_ = true;
      WriteBlock(gm, enAtomic, enSequentialWrite);
      have_block_ = false;
    }
  }

  /// Batches (docs/matmul.md, "Batches"): one call computes max(batchA,
  /// batchB) matrices of the single shape, C_c = A · B (+ bias_c), the
  /// smaller count's matrices each shared by consecutive batches. A, B and
  /// C lie as their LayoutMode says: NORMAL matrices one after another
  /// (matrixStrideA / matrixStrideB elements apart, 0: one whole matrix),
  /// BSNGD, SBNGD and BNGS1S2 as the tiling's layout axes place them. The
  /// kernel's form without ASCENDC_CUBE_ONLY; the asynchronous form has
  /// finished when it returns too.
  template <bool sync = true, bool waitIterateBatch = false,
            bool kCube = kCubeOnly, typename = std::enable_if_t<!kCube>>
  void IterateBatch(const GlobalTensor<DstT>& gm, uint32_t batchA,
                    uint32_t batchB, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0,
                    normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_BATCH),
        "Matmul::IterateBatch: MatmulConfig.iterateMode leaves IterateBatch "
        "out (ITERATE_MODE_BATCH is not set)");
    const normgrad_ascendc::ApiCall call(site);
    (void)matrixStrideC;  // reserved
    BatchToGm({"IterateBatch", batchA, batchB, 0, matrixStrideA, matrixStrideB,
               enSequentialWrite, enPartialSum, enAtomic},
              gm);
  }

  /// The batches into the UB (C at VECIN, on a vector core): each a whole
  /// single shape after the previous one, rows singleCoreN apart.
  template <bool sync = true, bool kCube = kCubeOnly,
            typename = std::enable_if_t<!kCube>>
  void IterateBatch(const LocalTensor<DstT>& ubCmatrix, uint32_t batchA,
                    uint32_t batchB, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0,
                    const bool enPartialSum = false, const uint8_t enAtomic = 0,
                    normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_BATCH),
        "Matmul::IterateBatch: MatmulConfig.iterateMode leaves IterateBatch "
        "out (ITERATE_MODE_BATCH is not set)");
    static_assert(sync,
                  "Matmul::IterateBatch: the asynchronous form (sync = false) "
                  "does not move C into the UB");
    const normgrad_ascendc::ApiCall call(site);
    (void)matrixStrideC;
    BatchToUb({"IterateBatch", batchA, batchB, 0, matrixStrideA, matrixStrideB,
               enSequentialWrite, enPartialSum, enAtomic},
              ubCmatrix);
  }

  /// The pure cube forms: the batch counts from SetBatchNum.
  template <bool kCube = kCubeOnly, typename = std::enable_if_t<kCube>>
  void IterateBatch(const GlobalTensor<DstT>& gm, bool enPartialSum,
                    uint8_t enAtomic, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0,
                    normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_BATCH),
        "Matmul::IterateBatch: MatmulConfig.iterateMode leaves IterateBatch "
        "out (ITERATE_MODE_BATCH is not set)");
    const normgrad_ascendc::ApiCall call(site);
    (void)matrixStrideC;  // reserved
    BatchToGm({"IterateBatch", batch_a_, batch_b_, 0, matrixStrideA,
               matrixStrideB, enSequentialWrite, enPartialSum, enAtomic},
              gm);
  }
  template <bool kCube = kCubeOnly, typename = std::enable_if_t<kCube>>
  void IterateBatch(const LocalTensor<DstT>& ubCmatrix, bool enPartialSum,
                    uint8_t enAtomic, bool enSequentialWrite,
                    const uint32_t matrixStrideA = 0,
                    const uint32_t matrixStrideB = 0,
                    const uint32_t matrixStrideC = 0,
                    normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_BATCH),
        "Matmul::IterateBatch: MatmulConfig.iterateMode leaves IterateBatch "
        "out (ITERATE_MODE_BATCH is not set)");
    const normgrad_ascendc::ApiCall call(site);
    (void)matrixStrideC;
    BatchToUb({"IterateBatch", batch_a_, batch_b_, 0, matrixStrideA,
               matrixStrideB, enSequentialWrite, enPartialSum, enAtomic},
              ubCmatrix);
  }

  /// batchLoop IterateBatch calls, each taking the next batchA matrices of
  /// A and batchB of B from SetTensorA's and SetTensorB's start, their C
  /// into the workspace (SetWorkspace): loop after loop, each max(batchA,
  /// batchB) whole single shapes, rows singleCoreN apart (rounded up to 32
  /// bytes for C in ND_ALIGN). GetBatchTensorC hands them out in order.
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB,
                     bool enSequentialWrite, const uint32_t matrixStrideA = 0,
                     const uint32_t matrixStrideB = 0,
                     const uint32_t matrixStrideC = 0,
                     normgrad_ascendc::CallSite site = {}) {
    static_assert(
        AllowsIterate(IterateMode::ITERATE_MODE_N_BATCH),
        "Matmul::IterateNBatch: MatmulConfig.iterateMode leaves IterateNBatch "
        "out (ITERATE_MODE_N_BATCH is not set)");
    static_assert(kConfig.isNBatch,
                  "Matmul::IterateNBatch: set MatmulConfig.isNBatch to true "
                  "(GetNormalConfig's batchLoop) to compute several batch "
                  "calls into the workspace");
    static_assert(C_TYPE::format != CubeFormat::NZ,
                  "Matmul::IterateNBatch: C in ND or ND_ALIGN (the workspace "
                  "holds whole row-major matrices)");
    CheckBatchTypes();
    const normgrad_ascendc::ApiCall call(site);
    (void)matrixStrideC;      // reserved
    (void)enSequentialWrite;  // the workspace holds whole matrices either way
    RequireInit("IterateNBatch");
    if (batchLoop == 0) {
      normgrad_ascendc::Fail(
          "Matmul::IterateNBatch: batchLoop 0 must be at least 1");
    }
    if (!workspace_set_) {
      normgrad_ascendc::Fail(
          "Matmul::IterateNBatch: no workspace; call SetWorkspace first (the "
          "results go there)");
    }
    const uint32_t batches = std::max(batchA, batchB);
    const uint64_t need =
        uint64_t{1} * batchLoop * batches * single_m_ * PackedRowLength();
    if (workspace_elems_ != 0 && workspace_elems_ < need) {
      normgrad_ascendc::Fail(
          "Matmul::IterateNBatch: the workspace holds %llu elements of %s; "
          "batchLoop %u x max(batchA, batchB) %u x singleCoreM %d x %llu "
          "(a row) = %llu are written",
          ull(workspace_elems_), normgrad_ascendc::TypeName<DstT>(), batchLoop,
          batches, single_m_, ull(PackedRowLength()), ull(need));
    }
    GlobalTensor<DstT> out = workspace_;
    if (workspace_elems_ == 0) {
      out.SetGlobalBuffer(
          reinterpret_cast<__gm__ DstT*>(workspace_.GetPhyAddr()), need);
    }
    const Here here(*this);
    for (uint32_t loop = 0; loop < batchLoop; ++loop) {
      RunBatchCall({"IterateNBatch", batchA, batchB, loop, matrixStrideA,
                    matrixStrideB, false, false, 0},
                   out, true);
    }
    nbatch_ = {batchLoop, 0, batchA, batchB};
  }

  /// The next loop's results of IterateNBatch: max(batchA, batchB) single
  /// shapes in the workspace.
  template <bool sync = true>
  GlobalTensor<DstT> GetBatchTensorC(uint32_t batchA, uint32_t batchB,
                                     bool enSequentialWrite = false,
                                     normgrad_ascendc::CallSite site = {}) {
    static_assert(!sync,
                  "Matmul::GetBatchTensorC: only the asynchronous form "
                  "(sync = false) exists");
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // reserved
    return NextBatchSlice("GetBatchTensorC", batchA, batchB);
  }
  /// The same results copied into the UB from `c`'s start (on a vector
  /// core).
  template <bool sync = true>
  void GetBatchTensorC(const LocalTensor<DstT>& c, uint32_t batchA,
                       uint32_t batchB, bool enSequentialWrite = false,
                       normgrad_ascendc::CallSite site = {}) {
    static_assert(!sync,
                  "Matmul::GetBatchTensorC: only the asynchronous form "
                  "(sync = false) exists");
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // reserved
    CopyBatchSlice("GetBatchTensorC", c, batchA, batchB);
  }

  /// What GetBatchTensorC does (its page recommends that name), in both
  /// the synchronous and the asynchronous form.
  template <bool sync = true>
  GlobalTensor<DstT> GetBatchC(uint32_t batchA, uint32_t batchB,
                               bool enSequentialWrite = false,
                               normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // the slices are whole matrices
    return NextBatchSlice("GetBatchC", batchA, batchB);
  }
  template <bool sync = true>
  void GetBatchC(const LocalTensor<DstT>& c, uint32_t batchA, uint32_t batchB,
                 bool enSequentialWrite = false,
                 normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;
    CopyBatchSlice("GetBatchC", c, batchA, batchB);
  }

  /// The batch counts of the pure cube form of IterateBatch.
  void SetBatchNum(int32_t batchA, int32_t batchB,
                   normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    CheckPositive("SetBatchNum", "batchA", batchA);
    CheckPositive("SetBatchNum", "batchB", batchB);
    batch_a_ = static_cast<uint32_t>(batchA);
    batch_b_ = static_cast<uint32_t>(batchB);
  }

  void WaitIterateBatch(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
  }

  void WaitIterateAll(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
  }

  /// Ends the object's current computation; it may be set up again.
  void End(normgrad_ascendc::CallSite site = {}) {
    static_assert(
        kConfig.enableEnd,
        "Matmul::End: MatmulConfig.enableEnd is false, which compiles End out");
    const normgrad_ascendc::ApiCall call(site);
    ResetIteration();
  }

  /// HF32 for float inputs: normgrad refuses it until Mmad emulates it.
  void SetHF32(bool enableHF32 = false, int32_t transMode = 0,
               normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if (!normgrad_ascendc::CurrentCore().is_cube()) {
      normgrad_ascendc::Fail(
          "Matmul::SetHF32: called on a vector core; the HF32 mode is set "
          "only in pure Cube mode (ASCENDC_CUBE_ONLY, the object on a cube "
          "core)");
    }
    if (transMode != 0 && transMode != 1) {
      normgrad_ascendc::Fail(
          "Matmul::SetHF32: transMode %d is not 0 (ties to even) or 1 (ties "
          "away from zero)",
          transMode);
    }
    // The object's Mmads run on this cube core, so its mode registers are
    // the HF32 switch (docs/cube.md, "Mmad modes").
    normgrad_ascendc::RunSetHF32Mode(enableHF32 ? AscendC::HF32Mode::ENABLE
                                                : AscendC::HF32Mode::DISABLE);
    normgrad_ascendc::RunSetHF32TransMode(
        transMode == 1 ? AscendC::HF32TransMode::NEAREST_ZERO
                       : AscendC::HF32TransMode::NEAREST_EVEN);
  }

  /// The workspace: IterateNBatch writes its results there (the other
  /// asynchronous forms compute at the call and leave it unused). `size`
  /// counts elements of T; 0 leaves it unknown (unchecked).
  template <typename T>
  void SetWorkspace(const GlobalTensor<T>& addr,
                    normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    KeepWorkspace(addr.GetPhyAddr(), uint64_t{addr.GetSize()} * sizeof(T));
  }
  template <typename T>
  void SetWorkspace(__gm__ const T* addr, int size,
                    normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if (size < 0) {
      normgrad_ascendc::Fail(
          "Matmul::SetWorkspace: size %d is negative; it counts the "
          "workspace's elements",
          size);
    }
    KeepWorkspace(addr, uint64_t(size) * sizeof(T));
  }

  /// The Ascend 950's VECCALC scratch for the object (MatmulGetTmpBufSize's
  /// ubSize bytes). The CPU's moves need none, so the object only checks
  /// the tensor and, as the device's object uses it as scratch, takes its
  /// bytes as unwritten when each computation starts: under
  /// NORMGRAD_CHECK=init a read of them afterwards is a finding.
  void SetLocalWorkspace(const LocalTensor<uint8_t>& tmpBuffer,
                         normgrad_ascendc::CallSite site = {}) {
    static_assert(!kConfig.enableMixDualMaster,
                  "Matmul::SetLocalWorkspace: not available with "
                  "MatmulConfig.enableMixDualMaster true");
    const normgrad_ascendc::ApiCall call(site);
    if (!normgrad_ascendc::OnProfile950()) {
      normgrad_ascendc::Fail(
          "Matmul::SetLocalWorkspace: not available on profile %s; its page "
          "lists the Ascend 950 (and the Atlas inference series' AI Core), "
          "and Atlas A2/A3's Matmul needs no VECCALC scratch",
          normgrad_ascendc::CurrentCore().profile().name);
    }
    RequireInit("SetLocalWorkspace");
    if (context_ == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::SetLocalWorkspace: tmpBuffer lies in a vector core's UB, "
          "but this object runs on a cube core, which has none");
    }
    if (tmpBuffer.GetPosition() != TPosition::VECCALC) {
      normgrad_ascendc::Fail(
          "Matmul::SetLocalWorkspace: tmpBuffer is at %s; the scratch is a "
          "VECCALC tensor",
          normgrad_ascendc::PositionName(tmpBuffer.GetPosition()));
    }
    if (tmpBuffer.GetSize() < static_cast<uint32_t>(tiling_.transLength)) {
      normgrad_ascendc::Fail(
          "Matmul::SetLocalWorkspace: tmpBuffer holds %u bytes, fewer than "
          "the tiling's transLength of %d (MatmulGetTmpBufSize's ubSize)",
          tmpBuffer.GetSize(), tiling_.transLength);
    }
    local_workspace_ = tmpBuffer;
  }

  /// What the callbacks (MM_CB) receive as tilingPtr and dataPtr.
  void SetUserDefInfo(const uint64_t tilingPtr) { user_def_info_ = tilingPtr; }
  void SetSelfDefineData(const uint64_t dataPtr) {
    static_assert(kConfig.enableSetDefineData,
                  "Matmul::SetSelfDefineData: MatmulConfig.enableSetDefineData "
                  "is false, which compiles SetSelfDefineData out");
    self_define_data_ = dataPtr;
  }

  void SetSubBlockIdx(uint8_t subBlockIdx) { sub_block_idx_ = subBlockIdx; }
  uint8_t GetSubBlockIdx() { return sub_block_idx_; }

  /// Where the object runs: called by REGIST_MATMUL_OBJ before Init.
  void Register(TPipe* tpipe) { Place(tpipe); }

 private:
  // The operand's position is the form's (GM or VECOUT).
  static void RequireOperandIn(const char* api, const char* which,
                               TPosition declared, TPosition form) {
    if (declared != form) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s's position is %s, but this form takes the operand "
          "at %s; pass a %s",
          api, which, normgrad_ascendc::PositionName(declared),
          normgrad_ascendc::PositionName(form),
          form == TPosition::GM ? "LocalTensor" : "GlobalTensor");
    }
  }

  // The LocalTensor form of SetTensorA/B: the operand declared at VECOUT
  // (a UB tensor) or at TSCM (an L1 tensor, as the cube's loads read it).
  template <typename T>
  static void RequireLocalOperand(const char* api, const char* which,
                                  TPosition declared,
                                  const LocalTensor<T>& tensor) {
    if (declared == TPosition::TSCM) {
      const TPosition at = tensor.GetPosition();
      if (at != TPosition::A1 && at != TPosition::B1 && at != TPosition::C1) {
        normgrad_ascendc::Fail(
            "Matmul::%s: %s is at TSCM, but the tensor is at %s; an operand "
            "at TSCM is a tensor in L1 (A1, B1 or C1)",
            api, which, normgrad_ascendc::PositionName(at));
      }
      return;
    }
    RequireOperandIn(api, which, declared, TPosition::VECOUT);
  }

  // A float or int32_t bias at TSCM starts on 64 bytes (its SetBias page
  // for the Ascend 950).
  static void RequireTscmBiasAlignment(const LocalTensor<BiasT>& bias) {
    if constexpr (sizeof(BiasT) == 4) {
      const uint32_t at = bias.view().offset;  // bytes into L1
      if (at % 64 != 0) {
        normgrad_ascendc::Fail(
            "Matmul::SetBias: inputBias (%s at TSCM) starts at L1 byte %u, "
            "not a multiple of 64; a float or int32_t bias in L1 starts on "
            "64 bytes",
            normgrad_ascendc::TypeName<BiasT>(), at);
      }
    }
  }

  // The checks and state of SetTensorA / SetTensorB / SetBias. A float or
  // int8_t operand comes transposed exactly when its MatmulType says
  // ISTRANS: the page ties the two (with the host tiling's isTrans), since
  // the L1 space of the two orientations differs for them.
  template <typename T>
  static void CheckTranspose(const char* api, const char* arg,
                             const char* which, bool trans, bool declared) {
    if (trans && !declared) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s is true, but %s's ISTRANS is false; declare "
          "MatmulType<..., ISTRANS = true> for %c to transpose it",
          api, arg, which, which[0]);
    }
    if (!matmul_detail::kSixteenBit<T> && trans != declared) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s is %s, but %s's ISTRANS is true; for %s (not half "
          "or bfloat16_t) the transpose must equal ISTRANS (and the host "
          "tiling's isTrans)",
          api, arg, trans ? "true" : "false", which,
          normgrad_ascendc::TypeName<T>());
    }
  }

  void SetA(const GlobalTensor<SrcAT>& gm, bool isTransposeA) {
    RequireInit("SetTensorA");
    CheckTranspose<SrcAT>("SetTensorA", "isTransposeA", "A_TYPE", isTransposeA,
                          A_TYPE::isTrans);
    if constexpr (A_TYPE::format == CubeFormat::VECTOR) {
      const auto address = reinterpret_cast<uintptr_t>(gm.GetPhyAddr());
      if (address % 16 != 0) {
        normgrad_ascendc::Fail(
            "Matmul::SetTensorA: A in CubeFormat::VECTOR (GEMV) starts at "
            "GM address %#llx, which is not 16-byte aligned; a vector A in "
            "GM is 16-byte aligned",
            ull(address));
      }
    }
    a_gm_ = gm;
    a_scalar_.reset();
    trans_a_ = isTransposeA != kColumnMajorA;
    a_set_ = true;
    ResetIteration();
  }

  void SetB(const GlobalTensor<SrcBT>& gm, bool isTransposeB) {
    RequireInit("SetTensorB");
    CheckTranspose<SrcBT>("SetTensorB", "isTransposeB", "B_TYPE", isTransposeB,
                          B_TYPE::isTrans);
    b_gm_ = gm;
    trans_b_ = isTransposeB != kColumnMajorB;
    b_set_ = true;
    ResetIteration();
  }

  template <bool kIsA>
  void SetScale(const GlobalTensor<fp8_e8m0_t>& gm, bool trans) {
    const char* api = kIsA ? "SetTensorScaleA" : "SetTensorScaleB";
    RequireInit(api);
    const bool declared = kIsA ? A_TYPE::isScaleTrans : B_TYPE::isScaleTrans;
    if (trans && !declared) {
      normgrad_ascendc::Fail(
          "Matmul::%s: isTransposeScale%c is true, but %s_TYPE's "
          "SCALE_ISTRANS is false; declare MatmulTypeWithScale<..., "
          "SCALE_ISTRANS = true> to transpose the scales",
          api, kIsA ? 'A' : 'B', kIsA ? "A" : "B");
    }
    // The page's rule: the scales of the single shape, one per 32 of K,
    // their count along K padded to even (pairs of scales).
    const uint64_t need =
        uint64_t{static_cast<uint32_t>(kIsA ? single_m_ : single_n_)} * 2 *
        CeilDiv(single_k_, kMxK);
    if (gm.GetSize() != 0 && gm.GetSize() < need) {
      normgrad_ascendc::Fail(
          "Matmul::%s: the scale tensor holds %llu fp8_e8m0_t; the single "
          "shape needs at least %s x 2 x ceil(K / 64) = %llu (one scale per "
          "32 elements of K, padded to even)",
          api, ull(gm.GetSize()), kIsA ? "singleCoreM" : "singleCoreN",
          ull(need));
    }
    if constexpr (kIsA) {
      scale_a_gm_ = gm;
      trans_scale_a_ = trans;
      scale_a_set_ = true;
    } else {
      scale_b_gm_ = gm;
      trans_scale_b_ = trans;
      scale_b_set_ = true;
    }
    ResetIteration();
  }

  void SetBiasGm(const GlobalTensor<BiasT>& biasGlobal) {
    RequireInit("SetBias");
    if constexpr (kConfig.isPartialOutput) {
      normgrad_ascendc::Fail(
          "Matmul::SetBias: MatmulConfig.isPartialOutput is true; a Matmul "
          "with partial output takes no bias");
    }
    if constexpr (kInt4) {
      normgrad_ascendc::Fail(
          "Matmul::SetBias: a bias with int4b_t inputs is not emulated yet: "
          "normgrad starts C from the bias in Mmad, whose bias form takes no "
          "int4b_t inputs");
    }
    if (tiling_.isBias != 1) {
      normgrad_ascendc::Fail(
          "Matmul::SetBias: the tiling's isBias is %d; a bias needs a tiling "
          "made with isBias 1 (its buffers are sized then)",
          tiling_.isBias);
    }
    bias_gm_ = biasGlobal;
    bias_on_ = true;
    ResetIteration();
  }

  static unsigned long long ull(uint64_t v) { return v; }

  // The tiling Init runs with: the given one, which must agree with the
  // constants of a static tiling (MM_CFG a MatmulApiStaticTiling), or, when
  // none is given, a full static tiling's.
  static TCubeTiling StaticOrGiven(const TCubeTiling* given) {
    if constexpr (matmul_detail::kIsStaticTiling<decltype(MM_CFG)>) {
      if (given == nullptr) {
        if (MM_CFG.M < 0) {
          normgrad_ascendc::Fail(
              "Matmul::Init: cubeTiling is null, but MM_CFG's static tiling "
              "fixes the base shape only (GetMatmulApiTiling of a config "
              "without singleCoreM/N/K); pass the runtime tiling");
        }
        TCubeTiling t{};
#define NORMGRAD_STATIC_TILING_COPY(type, name) t.name = MM_CFG.name;
        NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_STATIC_TILING_COPY)
#undef NORMGRAD_STATIC_TILING_COPY
        return t;
      }
      const auto agree = [&](const char* field, int32_t constant,
                             int32_t value) {
        if (constant >= 0 && constant != value) {
          normgrad_ascendc::Fail(
              "Matmul::Init: tiling %s %d differs from MM_CFG's static "
              "tiling's %d (GetMatmulApiTiling); the constants must equal "
              "the runtime tiling's",
              field, value, constant);
        }
      };
      agree("baseM", MM_CFG.baseM, given->baseM);
      agree("baseN", MM_CFG.baseN, given->baseN);
      agree("baseK", MM_CFG.baseK, given->baseK);
      agree("singleCoreM", MM_CFG.singleCoreM, given->singleCoreM);
      agree("singleCoreN", MM_CFG.singleCoreN, given->singleCoreN);
      agree("singleCoreK", MM_CFG.singleCoreK, given->singleCoreK);
    } else if (given == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::Init: cubeTiling is null; only a Matmul whose MM_CFG is "
          "a full static tiling (GetMatmulApiTiling) runs without one");
    }
    return *given;
  }

  // Makes the object's cube core the current core for a call's duration.
  class Here {
   public:
    explicit Here(Matmul& m) {
      if (m.context_ != nullptr) scope_.emplace(*m.context_);
    }

   private:
    std::optional<normgrad_ascendc::ScopedCore> scope_;
  };

  void Place(TPipe* tpipe) {
    if (placed_) return;
    placed_ = true;
    if (normgrad_ascendc::MatmulSideForCurrentCore(kCubeOnly) ==
        normgrad_ascendc::MatmulSide::kForVector) {
      context_ = normgrad_ascendc::NewMatmulCubeContext();
      const normgrad_ascendc::ScopedCore on(*context_);
      pipe_ = std::make_unique<TPipe>();
    } else {
      tpipe_ = tpipe;
    }
  }

  // C at VECIN: the object serves a vector core, whose UB takes the
  // result through a staging area of one block (the cube's output).
  void PrepareLocalC() {
    if (context_ == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::Init: C_TYPE at VECIN puts the result in a vector core's "
          "UB, but this object runs on a cube core, which has none");
    }
    constexpr uint32_t per32 = 32 / sizeof(DstT);
    if (tiling_.baseN % per32 != 0) {
      normgrad_ascendc::Fail(
          "Matmul::Init: tiling baseN %d of %s is not a whole number of "
          "32-byte blocks; a result in the UB (C_TYPE at VECIN) has rows of "
          "whole blocks",
          tiling_.baseN, normgrad_ascendc::TypeName<DstT>());
    }
    const size_t elems = size_t{1} * tiling_.baseM * tiling_.baseN;
    scratch_.assign(elems * sizeof(DstT) + 32, 0);
    scratch_gm_ = matmul_detail::AlignedGmView<DstT>(scratch_, elems);
  }

  // ---- Batches (docs/matmul.md, "Batches") ----

  // One IterateBatch's worth of batches: `loop` earlier calls' batches of
  // A, B and C come before them (IterateNBatch's loops; 0 for IterateBatch,
  // whose operands start at the call's first batch).
  struct BatchCall {
    const char* api;
    uint32_t batch_a, batch_b;
    uint32_t loop;
    uint32_t stride_a, stride_b;  // NORMAL: matrixStrideA / matrixStrideB
    bool sequential, partial;
    uint8_t atomic;
  };

  static constexpr LayoutMode kInLayout = A_TYPE::layout;
  static constexpr bool kLayoutBatches = kInLayout != LayoutMode::NORMAL;

  static constexpr bool IsBatchLayout(LayoutMode mode) {
    return mode == LayoutMode::BSNGD || mode == LayoutMode::SBNGD ||
           mode == LayoutMode::BNGS1S2;
  }

  static constexpr void CheckBatchTypes() {
    static_assert(C_TYPE::format != CubeFormat::COLUMN_MAJOR &&
                      !kColumnMajorA && !kColumnMajorB,
                  "Matmul: batches with a matrix in COLUMN_MAJOR are not "
                  "emulated yet");
    static_assert(A_TYPE::layout == B_TYPE::layout,
                  "Matmul: batches need A_TYPE and B_TYPE of one LayoutMode");
    static_assert(kInLayout == LayoutMode::NORMAL || IsBatchLayout(kInLayout),
                  "Matmul: batches need A_TYPE and B_TYPE with a LayoutMode "
                  "(NORMAL, BSNGD, SBNGD or BNGS1S2)");
    static_assert(kLayoutBatches ? IsBatchLayout(C_TYPE::layout)
                                 : C_TYPE::layout == LayoutMode::NORMAL,
                  "Matmul: C_TYPE's LayoutMode is NORMAL with NORMAL inputs, "
                  "and BSNGD, SBNGD or BNGS1S2 with those layouts");
    static_assert(!kQuantOut,
                  "Matmul: batches are not quantized (no SetQuantScalar or "
                  "SetQuantVector rows)");
    static_assert(!kConfig.doMultiDataLoad && !kConfig.doSpecialMDL,
                  "Matmul: batches run with the Norm template only");
    static_assert(!kConfig.enableMixDualMaster,
                  "Matmul: batches are not computed with enableMixDualMaster "
                  "(MixDualMaster) set");
    static_assert(kInLayout == LayoutMode::NORMAL ||
                      kInLayout == LayoutMode::BNGS1S2 ||
                      (A_TYPE::format == CubeFormat::ND &&
                       B_TYPE::format == CubeFormat::ND),
                  "Matmul: A and B in BSNGD or SBNGD are ND");
    static_assert(!kLayoutBatches || C_TYPE::format != CubeFormat::NZ,
                  "Matmul: C in a batch layout is ND or ND_ALIGN");
  }

  // IterateBatch into GM, C where its layout puts it.
  void BatchToGm(const BatchCall& call, const GlobalTensor<DstT>& gm) {
    CheckBatchTypes();
    static_assert(C_TYPE::pos == TPosition::GM,
                  "Matmul::IterateBatch: this form writes C in GM; C_TYPE's "
                  "position must be GM");
    const Here here(*this);
    RunBatchCall(call, gm, false);
  }

  // IterateBatch into the UB: the batches through a staging area (the
  // cube's output), then one DataCopy on the vector core.
  void BatchToUb(const BatchCall& call, const LocalTensor<DstT>& ub) {
    CheckBatchTypes();
    static_assert(C_TYPE::format != CubeFormat::NZ,
                  "Matmul::IterateBatch: C in the UB is ND");
    RequireLocalC(call.api, call.atomic);
    const uint64_t row = PackedRowLength();
    if (row * sizeof(DstT) % 32 != 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: singleCoreN %d of %s is not a whole number of 32-byte "
          "blocks; batches in the UB have rows of whole blocks",
          call.api, single_n_, normgrad_ascendc::TypeName<DstT>());
    }
    const uint64_t elems =
        uint64_t{1} * std::max(call.batch_a, call.batch_b) * single_m_ * row;
    if (ub.GetSize() < elems) {
      normgrad_ascendc::Fail(
          "Matmul::%s: ubCmatrix holds %llu elements; max(batchA, batchB) %u "
          "batches of singleCoreM %d x singleCoreN %d are %llu",
          call.api, ull(ub.GetSize()), std::max(call.batch_a, call.batch_b),
          single_m_, single_n_, ull(elems));
    }
    batch_stage_.assign(elems * sizeof(DstT) + 32, 0);
    const GlobalTensor<DstT> stage =
        matmul_detail::AlignedGmView<DstT>(batch_stage_, elems);
    {
      const Here here(*this);
      RunBatchCall(call, stage, true);
    }
    DataCopy(ub, stage, static_cast<uint32_t>(elems));
  }

  // A row of C when batches lie one after another (the workspace, the UB):
  // singleCoreN, rounded up to 32 bytes for ND_ALIGN.
  uint64_t PackedRowLength() const {
    constexpr uint32_t per32 = 32 / sizeof(DstT);
    if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) {
      return (uint64_t(single_n_) + per32 - 1) / per32 * per32;
    }
    return uint64_t(single_n_);
  }

  // The checks of one call's batch counts against the pages' rules; the
  // number of batches.
  uint32_t CheckBatchCall(const BatchCall& call) const {
    RequireInit(call.api);
    if (a_scalar_) {
      normgrad_ascendc::Fail(
          "Matmul::%s: A is the scalar of SetTensorA(aScalar), one row; "
          "batches take A as matrices in GM",
          call.api);
    }
    if (A_TYPE::pos != TPosition::GM || B_TYPE::pos != TPosition::GM) {
      normgrad_ascendc::Fail(
          "Matmul::%s: A and B in GM are emulated; operands at VECOUT are "
          "not yet",
          call.api);
    }
    const uint32_t a = call.batch_a, b = call.batch_b;
    const uint32_t batches = std::max(a, b);
    if (a == 0 || b == 0 || batches % a != 0 || batches % b != 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: batchA %u and batchB %u must be equal, or one a "
          "multiple of the other (consecutive batches share the fewer "
          "matrices)",
          call.api, a, b);
    }
    if (tiling_.BatchNum > 0 && batches > uint32_t(tiling_.BatchNum)) {
      normgrad_ascendc::Fail(
          "Matmul::%s: max(batchA, batchB) %u exceeds the tiling's BatchNum "
          "%d, the most batches one call computes (the host's SetBatchNum or "
          "SetBatchInfoForNormal)",
          call.api, batches, tiling_.BatchNum);
    }
    if (call.sequential && (C_TYPE::layout == LayoutMode::BSNGD ||
                            C_TYPE::layout == LayoutMode::SBNGD)) {
      normgrad_ascendc::Fail(
          "Matmul::%s: enSequentialWrite is true, but C's layout %s has no "
          "sequential write (its rows lie apart)",
          call.api, normgrad_ascendc::matmul::LayoutName(C_TYPE::layout));
    }
    if constexpr (kLayoutBatches) CheckLayoutCall(call);
    return batches;
  }

  void CheckLayoutCall(const BatchCall& call) const {
    const TCubeTiling& t = tiling_;
    const char* layout = normgrad_ascendc::matmul::LayoutName(kInLayout);
    if (t.ALayoutInfoB == 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: A_TYPE's layout is %s, but the tiling has no layout "
          "axes (ALayoutInfoB 0); the host gives them with SetALayout, "
          "SetBLayout, SetCLayout and SetBatchNum",
          call.api, layout);
    }
    if (uint64_t{1} * t.ALayoutInfoG * call.batch_b !=
        uint64_t{1} * t.BLayoutInfoG * call.batch_a) {
      normgrad_ascendc::Fail(
          "Matmul::%s: ALayoutInfoG / batchA (%d / %u) differs from "
          "BLayoutInfoG / batchB (%d / %u); a call takes the same share of "
          "A's and B's G axes",
          call.api, t.ALayoutInfoG, call.batch_a, t.BLayoutInfoG, call.batch_b);
    }
    if (kInLayout == LayoutMode::BSNGD) {
      const int64_t a_rows = int64_t{1} * t.ALayoutInfoN * t.ALayoutInfoG;
      const int64_t b_rows = int64_t{1} * t.BLayoutInfoN * t.BLayoutInfoG;
      if (a_rows % call.batch_a != 0 || b_rows % call.batch_b != 0) {
        normgrad_ascendc::Fail(
            "Matmul::%s: in BSNGD, ALayoutInfoN * ALayoutInfoG = %lld must "
            "be a multiple of batchA %u and BLayoutInfoN * BLayoutInfoG = "
            "%lld of batchB %u; a call stays within one B (the kernel loops "
            "over the rest)",
            call.api, static_cast<long long>(a_rows), call.batch_a,
            static_cast<long long>(b_rows), call.batch_b);
      }
    }
    const uint32_t reduce = CReduce();
    if (std::max(call.batch_a, call.batch_b) % reduce != 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: C's G axis (CLayoutInfoG %d) sums %u batches into one "
          "C, but the call has max(batchA, batchB) %u; a call covers whole "
          "sums",
          call.api, t.CLayoutInfoG, reduce,
          std::max(call.batch_a, call.batch_b));
    }
    // Each matrix of the layouts holds the single shape it gives.
    struct Fit {
      const char* what;
      int value;
      const char* field;
      int32_t axis;
    };
    const Fit fits[] = {
        {trans_a_ ? "singleCoreK" : "singleCoreM",
         trans_a_ ? single_k_ : single_m_, "ALayoutInfoS", t.ALayoutInfoS},
        {trans_a_ ? "singleCoreM" : "singleCoreK",
         trans_a_ ? single_m_ : single_k_, "ALayoutInfoD", t.ALayoutInfoD},
        {trans_b_ ? "singleCoreN" : "singleCoreK",
         trans_b_ ? single_n_ : single_k_, "BLayoutInfoS", t.BLayoutInfoS},
        {trans_b_ ? "singleCoreK" : "singleCoreN",
         trans_b_ ? single_k_ : single_n_, "BLayoutInfoD", t.BLayoutInfoD},
        {"singleCoreM", single_m_, "CLayoutInfoS1", t.CLayoutInfoS1},
        {"singleCoreN", single_n_, "CLayoutInfoS2", t.CLayoutInfoS2}};
    for (const Fit& f : fits) {
      if (f.value > f.axis) {
        normgrad_ascendc::Fail(
            "Matmul::%s: %s %d exceeds the tiling's %s %d; a batch's matrix "
            "in the layout holds the single shape (S rows of D elements)",
            call.api, f.what, f.value, f.field, f.axis);
      }
    }
  }

  // Layout C: how many consecutive batches one C sums (C's G axis smaller
  // than the inputs').
  uint32_t CReduce() const {
    if constexpr (!kLayoutBatches) return 1;
    const int32_t g = std::max(tiling_.ALayoutInfoG, tiling_.BLayoutInfoG);
    return static_cast<uint32_t>(g / std::max(1, tiling_.CLayoutInfoG));
  }

  // Computes one call's batches into `out`: at C's layout places, or
  // (`packed`) one whole single shape after another. The operands' row
  // lengths become the layouts' for the call (the org widths LoadA, LoadB
  // and WriteBlock read), and every batch is one IterateAll on shifted
  // operands.
  void RunBatchCall(const BatchCall& call, const GlobalTensor<DstT>& out,
                    bool packed) {
    namespace mm = normgrad_ascendc::matmul;
    const uint32_t batches = CheckBatchCall(call);
    const uint32_t per_a = batches / call.batch_a;
    const uint32_t per_b = batches / call.batch_b;
    const uint32_t reduce = packed ? 1 : CReduce();
    const mm::LayoutAxes ax = mm::LayoutAxesA(tiling_);
    const mm::LayoutAxes bx = mm::LayoutAxesB(tiling_);
    const mm::LayoutAxes cx = mm::LayoutAxesC(tiling_);
    const GlobalTensor<SrcAT> a0 = a_gm_;
    const GlobalTensor<SrcBT> b0 = b_gm_;
    const GlobalTensor<BiasT> bias0 = bias_gm_;
    const bool bias_on = bias_on_;
    const int org[5] = {org_m_, org_n_, org_ka_, org_kb_, org_kc_};
    const uint64_t a_step =
        call.stride_a != 0 ? call.stride_a : uint64_t{1} * org_m_ * org_ka_;
    const uint64_t b_step =
        call.stride_b != 0 ? call.stride_b : uint64_t{1} * org_kb_ * org_n_;
    const uint64_t bias_n = kLayoutBatches ? cx.d : uint64_t(org_n_);
    if constexpr (kLayoutBatches) {
      const int row_a =
          RowField(call.api, mm::LayoutRowLength(kInLayout, ax), "A");
      const int row_b =
          RowField(call.api, mm::LayoutRowLength(kInLayout, bx), "B");
      (trans_a_ ? org_m_ : org_ka_) = row_a;
      (trans_b_ ? org_kb_ : org_n_) = row_b;
      org_kc_ =
          RowField(call.api, mm::LayoutRowLength(C_TYPE::layout, cx), "C");
    }
    if (packed) org_kc_ = single_n_;
    const uint64_t first = uint64_t{1} * call.loop * batches;
    for (uint32_t c = 0; c < batches; ++c) {
      const uint64_t ia = uint64_t{1} * call.loop * call.batch_a + c / per_a;
      const uint64_t ib = uint64_t{1} * call.loop * call.batch_b + c / per_b;
      const uint64_t ic = first + c / reduce;
      if constexpr (kLayoutBatches) {
        a_gm_ = a0[mm::LayoutBatchOffset(kInLayout, ax, ia)];
        b_gm_ = b0[mm::LayoutBatchOffset(kInLayout, bx, ib)];
      } else {
        a_gm_ = a0[ia * a_step];
        b_gm_ = b0[ib * b_step];
      }
      // The first batch of a sum starts C (with the bias); the others add.
      const bool starts = c % reduce == 0;
      bias_on_ = bias_on && starts;
      if (bias_on_ && kConfig.isBiasBatch) bias_gm_ = bias0[ic * bias_n];
      uint64_t c_offset = 0;
      if (packed) {
        c_offset = (first + c) * single_m_ * PackedRowLength();
      } else if constexpr (kLayoutBatches) {
        c_offset = mm::LayoutBatchOffset(C_TYPE::layout, cx, ic);
      } else {
        c_offset = ic * org[0] * org[1];
      }
      ResetIteration();
      while (Advance(call.api)) {
        ComputeBlock(c1_.template Get<L0cT>(), call.partial, call.api);
        have_block_ = true;
        WriteBlock(out[c_offset], starts ? call.atomic : uint8_t{1},
                   call.sequential && !packed);
        have_block_ = false;
      }
    }
    a_gm_ = a0;
    b_gm_ = b0;
    bias_gm_ = bias0;
    bias_on_ = bias_on;
    org_m_ = org[0];
    org_n_ = org[1];
    org_ka_ = org[2];
    org_kb_ = org[3];
    org_kc_ = org[4];
    ResetIteration();
  }

  // A layout's row length as the org width the loads read.
  static int RowField(const char* api, uint64_t row, const char* which) {
    if (row > 0x7fffffffu) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s's layout rows are %llu elements apart, beyond an "
          "int",
          api, which, ull(row));
    }
    return static_cast<int>(row);
  }

  // IterateNBatch's results: the workspace (SetWorkspace) and which loop
  // GetBatchTensorC hands out next.
  struct NBatchState {
    uint32_t loops = 0, read = 0, batch_a = 0, batch_b = 0;
  };

  void KeepWorkspace(__gm__ const void* addr, uint64_t bytes) {
    workspace_.SetGlobalBuffer(
        reinterpret_cast<__gm__ DstT*>(const_cast<__gm__ void*>(addr)),
        bytes / sizeof(DstT));
    workspace_elems_ = bytes / sizeof(DstT);
    workspace_set_ = addr != nullptr;
  }

  GlobalTensor<DstT> NextBatchSlice(const char* api, uint32_t batch_a,
                                    uint32_t batch_b) {
    RequireInit(api);
    if (nbatch_.read >= nbatch_.loops) {
      normgrad_ascendc::Fail(
          "Matmul::%s: no IterateNBatch result left (%u loops computed, %u "
          "taken); each IterateNBatch loop gives one slice",
          api, nbatch_.loops, nbatch_.read);
    }
    if (batch_a != nbatch_.batch_a || batch_b != nbatch_.batch_b) {
      normgrad_ascendc::Fail(
          "Matmul::%s: batchA %u and batchB %u differ from IterateNBatch's "
          "%u and %u",
          api, batch_a, batch_b, nbatch_.batch_a, nbatch_.batch_b);
    }
    const uint64_t elems = uint64_t{1} * std::max(batch_a, batch_b) *
                           single_m_ * PackedRowLength();
    GlobalTensor<DstT> slice;
    slice.SetGlobalBuffer(
        reinterpret_cast<__gm__ DstT*>(workspace_.GetPhyAddr()) +
            elems * nbatch_.read,
        elems);
    ++nbatch_.read;
    return slice;
  }

  void CopyBatchSlice(const char* api, const LocalTensor<DstT>& c,
                      uint32_t batch_a, uint32_t batch_b) {
    if (context_ == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::%s: the LocalTensor form copies into a vector core's UB, "
          "but this object runs on a cube core, which has none",
          api);
    }
    const GlobalTensor<DstT> slice = NextBatchSlice(api, batch_a, batch_b);
    if (PackedRowLength() * sizeof(DstT) % 32 != 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: singleCoreN %d of %s is not a whole number of 32-byte "
          "blocks; C into the UB needs C_TYPE's format ND_ALIGN then",
          api, single_n_, normgrad_ascendc::TypeName<DstT>());
    }
    if (c.GetSize() < slice.GetSize()) {
      normgrad_ascendc::Fail(
          "Matmul::%s: c holds %llu elements; the slice has %llu", api,
          ull(c.GetSize()), ull(slice.GetSize()));
    }
    DataCopy(c, slice, static_cast<uint32_t>(slice.GetSize()));
  }

  // An operand at VECOUT: at the start of a computation (the first Iterate
  // or IterateAll), the elements its single shape reads move from the
  // vector core's UB to a staging area the cube's loads read as GM.
  template <typename T>
  static void Stage(const char* api, const char* which,
                    const LocalTensor<T>& local, uint64_t elems,
                    std::vector<uint8_t>& store, GlobalTensor<T>& gm) {
    static_assert(!std::is_same_v<T, int4b_t>,
                  "Matmul: an int4b_t operand at VECOUT is not emulated yet "
                  "(it is staged by DataCopyPad, which takes no int4b_t)");
    if (local.GetSize() < elems) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s in the UB holds %llu elements; the single shape "
          "reads %llu (rows as the org shape gives them)",
          api, which, ull(local.GetSize()), ull(elems));
    }
    store.assign(elems * sizeof(T) + 32, 0);
    gm = matmul_detail::AlignedGmView<T>(store, elems);
    DataCopyPad(gm, local,
                DataCopyExtParams(1, static_cast<uint32_t>(elems * sizeof(T)),
                                  0, 0, 0));
  }

  void StageLocalInputs(const char* api) {
    if (next_ != 0) return;  // staged when the computation started
    if (a_scalar_) {
      if (single_m_ != 1) {
        normgrad_ascendc::Fail(
            "Matmul::%s: A is the scalar of SetTensorA(aScalar), a [1, K] "
            "row, but the single shape's M is %d; set M to 1 (SetTail or "
            "the tiling's singleCoreM)",
            api, single_m_);
      }
      a_row_.assign(org_ka_, *a_scalar_);
      a_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ SrcAT*>(a_row_.data()),
                            a_row_.size());
    }
    if (local_workspace_ && normgrad_ascendc::SyncCheckOn()) {
      normgrad_ascendc::NoteUbAllocation(
          local_workspace_->view().offset, local_workspace_->GetSize(),
          "Matmul's local workspace (SetLocalWorkspace)", api);
    }
    if constexpr (A_TYPE::pos == TPosition::VECOUT) {
      if (a_set_) {
        const uint64_t elems =
            trans_a_ ? uint64_t{1} * (single_k_ - 1) * org_m_ + single_m_
                     : uint64_t{1} * (single_m_ - 1) * org_ka_ + single_k_;
        Stage(api, "A", a_local_, elems, a_stage_, a_gm_);
      }
    }
    if constexpr (B_TYPE::pos == TPosition::VECOUT) {
      if (b_set_) {
        const uint64_t elems =
            trans_b_ ? uint64_t{1} * (single_n_ - 1) * org_kb_ + single_k_
                     : uint64_t{1} * (single_k_ - 1) * org_n_ + single_n_;
        Stage(api, "B", b_local_, elems, b_stage_, b_gm_);
      }
    }
    if constexpr (BIAS_TYPE::pos == TPosition::VECOUT) {
      if (bias_on_) {
        Stage(api, "the bias", bias_local_, uint64_t{1} * single_n_,
              bias_stage_, bias_gm_);
      }
    }
  }

  void RequireLocalC(const char* api, uint8_t atomic) const {
    static_assert(kLocalC,
                  "Matmul: the LocalTensor forms of GetTensorC and IterateAll "
                  "need C_TYPE at VECIN");
    RequireInit(api);
    if (atomic != 0) {
      normgrad_ascendc::Fail(
          "Matmul::%s: enAtomic %u into the UB is not emulated yet (0 only)",
          api, static_cast<unsigned>(atomic));
    }
  }

  // An operand in COLUMN_MAJOR (the Ascend 950's) holds the bytes of the
  // other orientation in ND: A [M, K] column by column is A [K, M] row by
  // row. The object reads it so: its stored orientation is the one
  // SetTensorA/B names, flipped.
  static constexpr bool kColumnMajorA =
      A_TYPE::format == CubeFormat::COLUMN_MAJOR;
  static constexpr bool kColumnMajorB =
      B_TYPE::format == CubeFormat::COLUMN_MAJOR;

  // The orientations each operand may come in: half and bfloat16_t either
  // way when ISTRANS, float and int8_t only the way ISTRANS says (as
  // stored: flipped in COLUMN_MAJOR).
  static constexpr normgrad_ascendc::MatmulOperandForms OperandForms() {
    constexpr bool a16 = matmul_detail::kSixteenBit<SrcAT>;
    constexpr bool b16 = matmul_detail::kSixteenBit<SrcBT>;
    constexpr bool a_plain = a16 || !A_TYPE::isTrans, a_trans = A_TYPE::isTrans;
    constexpr bool b_plain = b16 || !B_TYPE::isTrans, b_trans = B_TYPE::isTrans;
    return {
        kColumnMajorA ? a_trans : a_plain, kColumnMajorA ? a_plain : a_trans,
        A_TYPE::pos != TPosition::TSCM,    kColumnMajorB ? b_trans : b_plain,
        kColumnMajorB ? b_plain : b_trans, B_TYPE::pos != TPosition::TSCM};
  }

  // What the page's tiling rules need besides the tiling: the operands'
  // widths, formats and whether they may come transposed, the bias, the
  // template, a split K, and this core's cube capacities.
  normgrad_ascendc::matmul::CubeTilingContext TilingRules() const {
    normgrad_ascendc::matmul::CubeTilingContext rules =
        normgrad_ascendc::matmul::ProfileCubeContext(
            normgrad_ascendc::CurrentCore().profile().profile);
    rules.a_bits = matmul_detail::kBits<SrcAT>;
    rules.b_bits = matmul_detail::kBits<SrcBT>;
    rules.bias_bits = 8 * sizeof(BiasT);
    rules.a_transpose = OperandForms().a_trans;
    rules.b_transpose = OperandForms().b_trans;
    rules.a_nz = A_TYPE::format == CubeFormat::NZ;
    rules.b_nz = B_TYPE::format == CubeFormat::NZ;
    rules.bias = tiling_.isBias == 1;
    rules.mdl = kConfig.doMultiDataLoad || kConfig.doSpecialMDL;
    rules.split_k = tiling_.singleCoreK < tiling_.Ka;
    rules.mx = kMx;
    rules.sparse = kSparse;
    return rules;
  }

  static void CheckTypes() {
    if constexpr (matmul_detail::kQuant950Row<SrcAT, SrcBT, BiasT, DstT>) {
      if (!normgrad_ascendc::OnProfile950()) {
        normgrad_ascendc::Fail(
            "Matmul::Init: the type row (A %s, B %s, bias %s, C %s) is the "
            "Ascend 950's; its C is quantized by a Fixpipe mode that Atlas "
            "A2/A3 lacks (QF322FP8_PRE, QF322HIF8_PRE, QS322BF16_PRE)",
            normgrad_ascendc::TypeName<SrcAT>(),
            normgrad_ascendc::TypeName<SrcBT>(),
            normgrad_ascendc::TypeName<BiasT>(),
            normgrad_ascendc::TypeName<DstT>());
      }
      if constexpr (kMx) {
        normgrad_ascendc::Fail(
            "Matmul::Init: C_TYPE %s in an MxMatmul; MxMatmul's C is half, "
            "float or bfloat16_t (its type table)",
            normgrad_ascendc::TypeName<DstT>());
      }
    } else if constexpr (matmul_detail::kEmulated950Row<SrcAT, SrcBT, BiasT,
                                                        DstT> ||
                         (kMx && matmul_detail::kEmulatedMxRow<SrcAT, SrcBT,
                                                               BiasT, DstT>)) {
      if (!normgrad_ascendc::OnProfile950()) {
        normgrad_ascendc::Fail(
            "Matmul::Init: the type row (A %s, B %s, bias %s, C %s) is the "
            "Ascend 950's; Atlas A2/A3 has no 8-bit float Mmad and no "
            "bfloat16_t bias",
            normgrad_ascendc::TypeName<SrcAT>(),
            normgrad_ascendc::TypeName<SrcBT>(),
            normgrad_ascendc::TypeName<BiasT>(),
            normgrad_ascendc::TypeName<DstT>());
      }
    } else if constexpr (!matmul_detail::kEmulatedPair<SrcAT, SrcBT, BiasT,
                                                       DstT>) {
      normgrad_ascendc::Fail(
          "Matmul::Init: the type row (A %s, B %s, bias %s, C %s) is not one "
          "normgrad emulates on Atlas A2/A3 (docs/matmul.md lists the rows; "
          "int4b_t is not emulated yet)",
          normgrad_ascendc::TypeName<SrcAT>(),
          normgrad_ascendc::TypeName<SrcBT>(),
          normgrad_ascendc::TypeName<BiasT>(),
          normgrad_ascendc::TypeName<DstT>());
    }
    // A float operand at TSCM whose stored rows run along K would load by
    // squares of two fractals side by side; the object's own L1 blocks are
    // laid out for that, a whole matrix in Nz is not.
    if (A_TYPE::pos == TPosition::TSCM && matmul_detail::kBits<SrcAT> == 32 &&
        A_TYPE::isTrans && !normgrad_ascendc::OnProfile950()) {
      normgrad_ascendc::Fail(
          "Matmul::Init: A_TYPE at TSCM of float with ISTRANS true ([K, M]) "
          "is not emulated on Atlas A2/A3 (the Ascend 950 profile has it): "
          "its load transposes squares of two fractals side by side, which "
          "a whole matrix in Nz does not keep together; give A as [M, K] or "
          "in GM");
    }
    if (B_TYPE::pos == TPosition::TSCM && matmul_detail::kBits<SrcBT> == 32 &&
        !B_TYPE::isTrans && !normgrad_ascendc::OnProfile950()) {
      normgrad_ascendc::Fail(
          "Matmul::Init: B_TYPE at TSCM of float with ISTRANS false ([K, N]) "
          "is not emulated on Atlas A2/A3 (the Ascend 950 profile has it): "
          "its load transposes squares of two fractals side by side, which "
          "a whole matrix in Nz does not keep together; give B as [N, K] or "
          "in GM");
    }
    if constexpr (kInt4 && A_TYPE::isTrans) {
      normgrad_ascendc::Fail(
          "Matmul::Init: A_TYPE of int4b_t has ISTRANS true; on Atlas A2/A3 "
          "an int4b_t A is not transposed (its SetTensorA page)");
    }
    if (kInt4 && normgrad_ascendc::OnProfile950()) {
      normgrad_ascendc::Fail(
          "Matmul::Init: int4b_t operands on profile Ascend 950: its cube "
          "has no int4b_t Mmad and its Matmul type table no int4b_t row; "
          "Cast the operands to int8_t first");
    }
    CheckOperandPlace("A_TYPE", A_TYPE::pos, A_TYPE::format, false);
    CheckOperandPlace("B_TYPE", B_TYPE::pos, B_TYPE::format, false);
    CheckOperandPlace("BIAS_TYPE", BIAS_TYPE::pos, BIAS_TYPE::format, false);
    CheckOperandPlace("C_TYPE", C_TYPE::pos, C_TYPE::format, true);
  }

  static void CheckOperandPlace(const char* which, TPosition pos,
                                CubeFormat format, bool is_c) {
    const char* pos_name = normgrad_ascendc::PositionName(pos);
    if (format == CubeFormat::COLUMN_MAJOR) {
      CheckColumnMajor(which, pos_name, pos == TPosition::GM);
      return;
    }
    if (is_c) {
      if (pos == TPosition::CO1) {
        if (normgrad_ascendc::OnProfile950()) {
          normgrad_ascendc::Fail(
              "Matmul::Init: C_TYPE at CO1 is not one C takes on profile "
              "Ascend 950 (GM or VECIN)");
        }
        if (format != CubeFormat::NZ) {
          normgrad_ascendc::Fail(
              "Matmul::Init: C_TYPE at CO1 must have format NZ (CO1 holds "
              "C as the cube leaves it)");
        }
        return;
      }
      if (pos == TPosition::GM) {
        if (format != CubeFormat::ND && format != CubeFormat::ND_ALIGN &&
            format != CubeFormat::NZ) {
          normgrad_ascendc::Fail(
              "Matmul::Init: C_TYPE in GM has format %d; C takes ND, "
              "ND_ALIGN or NZ",
              static_cast<int>(format));
        }
        return;
      }
      if (pos == TPosition::VECIN) {
        if (format != CubeFormat::ND) {
          normgrad_ascendc::Fail(
              "Matmul::Init: C_TYPE at VECIN with format %d is not emulated "
              "yet; a result in the UB is ND",
              static_cast<int>(format));
        }
        return;
      }
      normgrad_ascendc::Fail(
          "Matmul::Init: C_TYPE's position %s is not one C takes on Atlas "
          "A2/A3 (GM, VECIN, CO1)",
          pos_name);
    }
    if (pos == TPosition::GM) {
      const bool bias = which[0] == 'B' && which[1] == 'I';
      const bool a = which[0] == 'A';
      const bool taken = format == CubeFormat::ND ||
                         (!bias && format == CubeFormat::NZ) ||
                         (a && format == CubeFormat::VECTOR);
      if (!taken) {
        normgrad_ascendc::Fail(
            "Matmul::Init: %s in GM with format %d is not emulated yet; A "
            "is read as ND, NZ or VECTOR, B as ND or NZ, the bias as ND",
            which, static_cast<int>(format));
      }
      return;
    }
    if (pos == TPosition::VECOUT) {
      if (format != CubeFormat::ND) {
        normgrad_ascendc::Fail(
            "Matmul::Init: %s at VECOUT with format %d is not emulated yet; "
            "an operand in the UB is read as ND",
            which, static_cast<int>(format));
      }
      return;
    }
    if (pos == TPosition::TSCM) {
      if (which[0] == 'B' && which[1] == 'I') {
        if (!normgrad_ascendc::OnProfile950()) {
          normgrad_ascendc::Fail(
              "Matmul::Init: BIAS_TYPE at TSCM is not one the bias takes on "
              "Atlas A2/A3 (GM or VECOUT; TSCM is the Ascend 950's)");
        }
        if (format != CubeFormat::ND) {
          normgrad_ascendc::Fail(
              "Matmul::Init: BIAS_TYPE at TSCM has format %d; the bias is ND",
              static_cast<int>(format));
        }
        return;
      }
      if (format != CubeFormat::NZ) {
        normgrad_ascendc::Fail(
            "Matmul::Init: %s at TSCM has format %d; an operand already in "
            "L1 is read in place by the cube's loads, so it must be NZ",
            which, static_cast<int>(format));
      }
      return;
    }
    normgrad_ascendc::Fail(
        "Matmul::Init: %s's position %s is not one it takes on Atlas A2/A3 "
        "(GM, VECOUT, TSCM)",
        which, pos_name);
  }

  // CubeFormat::COLUMN_MAJOR, a matrix stored column after column: the
  // Ascend 950's, for A, B and C in GM outside MxMatmul (the MatmulType
  // page). C is written so by WriteBlock950, A and B read as kColumnMajorA
  // says.
  static void CheckColumnMajor(const char* which, const char* pos_name,
                               bool in_gm) {
    if (!normgrad_ascendc::OnProfile950()) {
      normgrad_ascendc::Fail(
          "Matmul::Init: %s has format COLUMN_MAJOR, which is the Ascend "
          "950's; Atlas A2/A3 has no column-major matrices",
          which);
    }
    if (which[0] == 'B' && which[1] == 'I') {
      normgrad_ascendc::Fail(
          "Matmul::Init: BIAS_TYPE has format COLUMN_MAJOR; the bias is ND");
    }
    if (!in_gm) {
      normgrad_ascendc::Fail(
          "Matmul::Init: %s at %s has format COLUMN_MAJOR; a COLUMN_MAJOR "
          "matrix lies in GM",
          which, pos_name);
    }
    if (kMx) {
      normgrad_ascendc::Fail(
          "Matmul::Init: %s has format COLUMN_MAJOR in an MxMatmul; "
          "MxMatmul takes no COLUMN_MAJOR matrix",
          which);
    }
  }

  // Whether MatmulConfig.iterateMode keeps an Iterate family (on the device
  // the others are compiled out).
  static constexpr bool AllowsIterate(IterateMode mode) {
    return (kConfig.iterateMode & static_cast<uint8_t>(mode)) != 0;
  }

  // isPartialOutput: GetTensorC writes each K step's block in sequential
  // write mode only (its page).
  static void RequireSequentialForPartial(bool sequential) {
    if (kConfig.isPartialOutput && !sequential) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: enSequentialWrite is false, but "
          "MatmulConfig.isPartialOutput is true; partial output is taken in "
          "sequential write mode only (enSequentialWrite true)");
    }
  }

  void RequireInit(const char* api) const {
    if (!initialized_) {
      normgrad_ascendc::Fail(
          "Matmul::%s: the object has no tiling; pass one to "
          "REGIST_MATMUL_OBJ or call Init first",
          api);
    }
  }

  static void CheckPositive(const char* api, const char* arg, int value) {
    if (value <= 0) {
      normgrad_ascendc::Fail("Matmul::%s: %s %d must be at least 1", api, arg,
                             value);
    }
  }

  static void SetShape(const char* api, const char* arg, int value, int limit,
                       const char* limit_name) {
    CheckPositive(api, arg, value);
    if (value > limit) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s %d is beyond %s %d; a core computes at most that "
          "much",
          api, arg, value, limit_name, limit);
    }
  }

  void ResetIteration() {
    next_ = 0;
    k_step_ = 0;
    have_block_ = false;
    async_ = false;
    blocks_taken_ = 0;
  }

  // The block a GetTensorC moves: the one Iterate computed, or, after an
  // asynchronous Iterate, the next one (computed here). The asynchronous
  // forms cache results in the workspace, which SetWorkspace gives.
  void TakeBlock(bool asynchronous, const char* api) {
    if (asynchronous && !workspace_set_) {
      normgrad_ascendc::Fail(
          "Matmul::%s: the asynchronous form (sync false) caches the results "
          "in the workspace; call SetWorkspace before Iterate",
          api);
    }
    if (!have_block_ && asynchronous && async_) {
      if (!Advance(api)) {
        normgrad_ascendc::Fail(
            "Matmul::%s: every block of the asynchronous Iterate has been "
            "taken (%u)",
            api, blocks_taken_);
      }
      ComputeBlock(c1_.template Get<L0cT>(), false, api);
      have_block_ = true;
      ++blocks_taken_;
      return;
    }
    if (!have_block_) {
      normgrad_ascendc::Fail(
          "Matmul::%s: no block to move; call Iterate first (each Iterate "
          "that returns true gives one block)",
          api);
    }
    if (asynchronous) ++blocks_taken_;
  }

  // Picks the next block (m_idx_, n_idx_); false when all are done. With
  // isPartialOutput each block is taken once per K step (k_step_), its
  // steps one after another before the next block.
  bool Advance(const char* api) {
    RequireInit(api);
    if (!a_set_ || !b_set_) {
      normgrad_ascendc::Fail("Matmul::%s: %s is not set; call %s first", api,
                             a_set_ ? "B" : "A",
                             a_set_ ? "SetTensorB" : "SetTensorA");
    }
    if constexpr (kMx) {
      if (!scale_a_set_ || !scale_b_set_) {
        normgrad_ascendc::Fail(
            "Matmul::%s: the scales of %s are not set; call %s first", api,
            scale_a_set_ ? "B" : "A",
            scale_a_set_ ? "SetTensorScaleB" : "SetTensorScaleA");
      }
      // The tiling pages' rule: only with A and B in GM may K's scales be
      // an odd count (the user pads them); in L1 they come in pairs.
      constexpr bool kBothGm =
          A_TYPE::pos == TPosition::GM && B_TYPE::pos == TPosition::GM;
      if (!kBothGm && CeilDiv(single_k_, 32) % 2 != 0) {
        normgrad_ascendc::Fail(
            "Matmul::%s: MxMatmul with A or B at TSCM and singleCoreK %d: K "
            "rounded up to 32 must be an even number of 32s (the scales come "
            "in pairs; only with A and B in GM does the user pad them)",
            api, single_k_);
      }
    }
    if constexpr (A_TYPE::format == CubeFormat::VECTOR) {
      if (org_m_ != 1) {
        normgrad_ascendc::Fail(
            "Matmul::%s: orgM is %d; A in CubeFormat::VECTOR (GEMV) is one "
            "row, so M must be 1",
            api, org_m_);
      }
    }
    if constexpr (kConfig.isPartialOutput) {
      if (next_ > 0 && k_step_ + 1 < CeilDiv(single_k_, tiling_.baseK)) {
        ++k_step_;
        return true;
      }
    }
    const uint32_t m_iter = CeilDiv(single_m_, tiling_.baseM);
    const uint32_t n_iter = CeilDiv(single_n_, tiling_.baseN);
    for (;;) {
      if (next_ >= m_iter * n_iter) return false;
      if (tiling_.iterateOrder == 0) {
        m_idx_ = next_ % m_iter;
        n_idx_ = next_ / m_iter;
      } else {
        n_idx_ = next_ % n_iter;
        m_idx_ = next_ / n_iter;
      }
      ++next_;
      // The triangular policies leave out the blocks on the other side of
      // the diagonal of blocks.
      if (Policy::kTriangle > 0 && m_idx_ > n_idx_) continue;
      if (Policy::kTriangle < 0 && m_idx_ < n_idx_) continue;
      k_step_ = 0;
      return true;
    }
  }

  static uint32_t CeilDiv(int a, int b) {
    return static_cast<uint32_t>((a + b - 1) / b);
  }
  static uint32_t Ceil16(uint32_t x) { return (x + 15) / 16 * 16; }

  uint32_t CurM() const {
    return std::min<uint32_t>(tiling_.baseM,
                              single_m_ - m_idx_ * tiling_.baseM);
  }
  uint32_t CurN() const {
    return std::min<uint32_t>(tiling_.baseN,
                              single_n_ - n_idx_ * tiling_.baseN);
  }

  // C's block (m_idx_, n_idx_) = A's rows × B's columns (+ the bias), K in
  // baseK steps, into `c` at L0C.
  void ComputeBlock(const LocalTensor<L0cT>& c, bool partial, const char* api) {
    if (partial && (single_m_ != tiling_.baseM || single_n_ != tiling_.baseN)) {
      normgrad_ascendc::Fail(
          "Matmul::%s: enPartialSum needs singleCoreM == baseM and "
          "singleCoreN == baseN (one block per core), not %d x %d with base "
          "%d x %d",
          api, single_m_, single_n_, tiling_.baseM, tiling_.baseN);
    }
    const uint32_t cur_m = CurM(), cur_n = CurN();
    const uint32_t m0 = m_idx_ * tiling_.baseM, n0 = n_idx_ * tiling_.baseN;
    // isPartialOutput: one K step (k_step_) per Iterate, not accumulated.
    const uint32_t s_first = kConfig.isPartialOutput ? k_step_ : 0;
    const uint32_t s_end = kConfig.isPartialOutput
                               ? k_step_ + 1
                               : CeilDiv(single_k_, tiling_.baseK);
    const bool bias = bias_on_ && !partial;
    if (bias) LoadBias(n0, cur_n);
    for (uint32_t s = s_first; s < s_end; ++s) {
      const uint32_t k0 = s * tiling_.baseK;
      const uint32_t cur_k = std::min<uint32_t>(tiling_.baseK, single_k_ - k0);
      LoadOperand<true>(m0, k0, cur_m, cur_k);
      // The sparse B loads below, after the bias start.
      if constexpr (!kSparse) LoadOperand<false>(n0, k0, cur_n, cur_k);
      MmadParams p;
      // Mmad reads A of one row as an ND row (GEMV); the block's A lies in
      // L0A in Zz, so a one-row block computes its whole fractal row, of
      // which Fixpipe moves the first.
      p.m = static_cast<uint16_t>(cur_m == 1 ? 16 : cur_m);
      p.n = static_cast<uint16_t>(cur_n);
      // MxMatmul: a K tail, padded with zeros in L1, multiplies to 64.
      p.k =
          static_cast<uint16_t>(kMx ? (cur_k + kMxK - 1) / kMxK * kMxK : cur_k);
      // A float A loaded by squares lies in L0A with K to 16; the 950's
      // Nz keeps K's columns of 8 apart, as its Mmad reads them.
      p.kDirectionAlign = matmul_detail::kBits<SrcAT> == 32 && trans_a_ &&
                          !normgrad_ascendc::OnProfile950();
      p.cmatrixInitVal = s == s_first && !partial;
      const LocalTensor<SrcAT> a2 = a2_.template Get<SrcAT>();
      const LocalTensor<SrcBT> b2 = b2_.template Get<SrcBT>();
      if constexpr (kSparseInt8) {
        // MmadWithSparse has no bias operand: the block's C starts from the
        // bias by Mmad's bias form over a zeroed fractal row of L0B (C =
        // bias + A · 0, exact in int32_t), and every K step accumulates.
        if (s == s_first && bias) {
          Fill(b2, InitConstValueParams<int8_t>{1, Ceil16(cur_n) / 16, 0,
                                                int8_t{0}});
          MmadParams start = p;
          start.k = 32;
          Mmad(c, a2, b2, bias2_.template Get<L0cT>(), start);
          p.cmatrixInitVal = false;
        }
        LoadSparseB(n0, k0, cur_n, cur_k, api);
        MmadWithSparse(c, a2, b2, p);
      } else if constexpr (kMx) {
        if (s == s_first && bias) {
          MmadMx(c, a2, b2, bias2_.template Get<L0cT>(), p);
        } else {
          MmadMx(c, a2, b2, p);
        }
      } else if constexpr (kInt4) {
        Mmad(c, a2, b2, p);  // SetBias refuses a bias for int4b_t
      } else if (s == s_first && bias) {
        Mmad(c, a2, b2, bias2_.template Get<L0cT>(), p);
      } else {
        Mmad(c, a2, b2, p);
      }
    }
  }

  // A GM row length as ND2NZ's srcDValue, which has 16 bits.
  static uint16_t RowLength(const char* name, int value) {
    if (value > 65535) {
      normgrad_ascendc::Fail(
          "Matmul: %s %d makes GM rows longer than the 65535 elements one "
          "ND2NZ move reads (srcDValue); longer rows are not emulated yet",
          name, value);
    }
    return static_cast<uint16_t>(value);
  }

  // `count` fractals from `src`, `src_stride` fractals apart, into `dst`
  // one after the other, by LoadData 2D calls of at most 255 repeats (its
  // repeatTimes is 8 bits).
  template <typename T>
  static void LoadFractals(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           uint32_t count, uint32_t src_stride,
                           bool transpose) {
    constexpr uint32_t frac = 4096 / matmul_detail::kBits<T>;
    constexpr uint32_t kMaxRepeats = 255;
    LoadData2DParams load;
    load.srcStride = static_cast<uint16_t>(src_stride);
    load.ifTranspose = transpose;
    for (uint32_t done = 0; done < count; done += kMaxRepeats) {
      load.repeatTimes =
          static_cast<uint8_t>(std::min(kMaxRepeats, count - done));
      LoadData(dst[done * frac], src[done * src_stride * frac], load);
    }
  }

  // The sparse Matmul's B block: its kept values (from k0 / 2, 2 · ⌈k / 4⌉
  // of them along K) GM → L1 as any B block stored [N, K] (CopyToL1), their
  // indices GM → L1 in the same fractal order, a quarter of the bytes; then
  // LoadDataWithSparse moves both into L0B and the index buffer, L1's
  // fractals (16 rows of N by 32 kept values, K-major) being L0B's Zn.
  void LoadSparseB(uint32_t n0, uint32_t k0, uint32_t n, uint32_t k,
                   const char* api) {
    if (!index_set_) {
      normgrad_ascendc::Fail(
          "Matmul::%s: the 4:2 sparse Matmul has no index matrix; call "
          "SetSparseIndex before computing",
          api);
    }
    if constexpr (kSparseInt8) {
      const uint32_t kept = 2 * CeilDiv(static_cast<int>(k), 4);
      const OperandBlock blk{n0, k0 / 2, n, kept, false};
      const LocalTensor<int8_t> l1 = b1_.template Get<int8_t>();
      CopyToL1<false>(l1, blk, true);
      // The index's fractals: 128 bytes, column blocks of Ceil16(N) rows.
      constexpr uint32_t kIndexFractal = 128;
      const uint32_t n1 = Ceil16(n) / 16, k1 = CeilDiv(kept, 32);
      const uint32_t column = Ceil16(StoredRows<false>(true)) / 16;
      const uint64_t first = uint64_t{k0 / 64} * column + n0 / 16;
      const uint64_t end =
          (first + uint64_t{k1 - 1} * column + n1) * kIndexFractal;
      if (index_gm_.GetSize() != 0 && end > index_gm_.GetSize()) {
        normgrad_ascendc::Fail(
            "Matmul::%s: the index tensor holds %llu bytes, but the block at "
            "N %u, K %u reads its indices up to byte %llu (NZ: fractals of "
            "16 rows of N by 32 indices, 128 bytes, column blocks of "
            "Ceil16(N) rows)",
            api, ull(index_gm_.GetSize()), n0, k0, ull(end));
      }
      const LocalTensor<uint8_t> index = index1_.template Get<uint8_t>();
      DataCopyParams move;
      move.blockCount = static_cast<uint16_t>(k1);
      move.blockLen = static_cast<uint16_t>(n1 * kIndexFractal / 32);
      move.srcStride =
          static_cast<uint16_t>((column - n1) * kIndexFractal / 32);
      DataCopy(index, index_gm_[first * kIndexFractal], move);
      const LocalTensor<int8_t> l0 = b2_.template Get<int8_t>();
      constexpr uint32_t kMaxRepeats = 255;
      LoadData2DParams load;
      for (uint32_t done = 0; done < n1 * k1; done += kMaxRepeats) {
        load.startIndex = static_cast<uint16_t>(done);
        load.repeatTimes =
            static_cast<uint8_t>(std::min(kMaxRepeats, n1 * k1 - done));
        LoadDataWithSparse(l0[done * 512], l1, index, load);
      }
    }
  }

  // One operand's base block on its way to L0A (A, in Zz) or L0B (B, in
  // Zn): its place along M (N for B) and K, and whether the stored rows run
  // along K (A transposed, B as [K, N]). A and B take one path, so each
  // layout rule lives once; both L0 layouts are fractals of 16 rows of M (N)
  // by C0 of K, A's in row-major order of fractals, B's K-major.
  struct OperandBlock {
    uint32_t mn0, k0;  // the block's first row of M (N) and of K
    uint32_t mn, k;    // its extent along M (N) and K
    bool k_rows;       // the stored rows run along K
    // The block as the operand stores it: first row and column, extents.
    uint32_t row0() const { return k_rows ? k0 : mn0; }
    uint32_t col0() const { return k_rows ? mn0 : k0; }
    uint32_t rows() const { return k_rows ? k : mn; }
    uint32_t cols() const { return k_rows ? mn : k; }
  };

  template <bool kIsA>
  using OperandT = std::conditional_t<kIsA, SrcAT, SrcBT>;
  template <bool kIsA>
  using OperandType = std::conditional_t<kIsA, A_TYPE, B_TYPE>;

  template <bool kIsA>
  const GlobalTensor<OperandT<kIsA>>& OperandGm() const {
    if constexpr (kIsA) {
      return a_gm_;
    } else {
      return b_gm_;
    }
  }
  template <bool kIsA>
  const LocalTensor<OperandT<kIsA>>& OperandLocal() const {
    if constexpr (kIsA) {
      return a_local_;
    } else {
      return b_local_;
    }
  }
  // The stored matrix's row length (an ND row in GM) and its rows, with
  // their names for messages; at TSCM its rows are the single shape's.
  template <bool kIsA>
  std::pair<const char*, int> StoredRowLength(bool trans) const {
    if constexpr (kIsA) {
      return trans ? std::pair{"orgM", org_m_} : std::pair{"orgKa", org_ka_};
    } else if constexpr (kSparse) {
      // [N, K / 2]: the values kept of each group of four along K.
      return std::pair{"orgKb's kept values (2 * ceil(orgKb / 4))",
                       2 * ((org_kb_ + 3) / 4)};
    } else {
      return trans ? std::pair{"orgKb", org_kb_} : std::pair{"orgN", org_n_};
    }
  }
  template <bool kIsA>
  uint32_t StoredRows(bool trans) const {
    if constexpr (OperandType<kIsA>::pos == TPosition::TSCM) {
      if constexpr (kIsA) return trans ? single_k_ : single_m_;
      return trans ? single_n_ : single_k_;
    } else if constexpr (kIsA) {
      return trans ? org_ka_ : org_m_;
    } else {
      return trans ? org_n_ : org_kb_;
    }
  }

  // The height of a column block of the object's L1 block (its stored rows
  // rounded up: to 32 where int8_t squares are loaded; docs/matmul.md).
  template <typename T>
  static uint32_t L1Height(const OperandBlock& blk) {
    constexpr uint32_t bits = matmul_detail::kBits<T>;
    // An MxMatmul block's K rows go to MmadMx's unit of 64 (a K tail's
    // rows past K are zeros).
    const uint32_t unit =
        blk.k_rows && bits <= 8 ? (kMx ? kMxK : 256 / bits) : 16;
    return (blk.rows() + unit - 1) / unit * unit;
  }

  // A's (B's) base block into L0A (L0B): moved GM → L1 first (by the
  // object, or by the kernel's CopyA1 / CopyB1 callback), or read in place
  // from the kernel's L1 tensor at TSCM.
  template <bool kIsA>
  void LoadOperand(uint32_t mn0, uint32_t k0, uint32_t mn, uint32_t k) {
    using T = OperandT<kIsA>;
    const bool trans = kIsA ? trans_a_ : trans_b_;
    const OperandBlock blk{mn0, k0, mn, k, kIsA == trans};
    LocalTensor<T> l0;
    LocalTensor<T> l1;
    if constexpr (kIsA) {
      l0 = a2_.template Get<T>();
    } else {
      l0 = b2_.template Get<T>();
    }
    if constexpr (OperandType<kIsA>::pos == TPosition::TSCM) {
      constexpr uint32_t c0 = 256 / matmul_detail::kBits<T>;
      const char* which = kIsA ? "A" : "B";
      if (blk.row0() % 16 != 0 || blk.col0() % c0 != 0) {
        normgrad_ascendc::Fail(
            "Matmul: %s at TSCM is read in whole fractals, but a base block "
            "starts at row %u, column %u of it (rows in 16s, columns in %u "
            "for %s: make the base blocks such multiples)",
            which, blk.row0(), blk.col0(), c0, normgrad_ascendc::TypeName<T>());
      }
      const uint32_t height = Ceil16(StoredRows<kIsA>(trans));
      const uint64_t whole_cols = kIsA ? (trans ? single_m_ : single_k_)
                                       : (trans ? single_k_ : single_n_);
      const uint64_t need = normgrad_ascendc::MatmulNzBytesOfBits(
          height, whole_cols, matmul_detail::kBits<T>);
      const LocalTensor<T>& scm = OperandLocal<kIsA>();
      const uint64_t have =
          uint64_t{scm.GetSize()} * matmul_detail::kIndexBits<T> / 8;
      if (have < need) {
        normgrad_ascendc::Fail(
            "Matmul: %s at TSCM holds %llu bytes; the single shape in Nz "
            "(%u x %llu stored, rows to 16, columns to 32 bytes) takes %llu",
            which, ull(have), height, ull(whole_cols), ull(need));
      }
      if constexpr (matmul_detail::kBits<T> <= 8) {
        // int8_t / int4b_t rows along K load by squares of c0 rows: the
        // last column block's last square reads that far past its start.
        if (blk.k_rows) {
          const uint64_t last_block = blk.col0() / c0 + (blk.mn - 1) / c0;
          const uint64_t end = ((last_block * height + blk.row0()) / 16 +
                                uint64_t{CeilDiv(blk.k, c0)} * (c0 / 16)) *
                               512;
          if (end > have) {
            normgrad_ascendc::Fail(
                "Matmul: %s of %s at TSCM is loaded by squares of %u rows of "
                "K; the last one reads up to byte %llu of the tensor, which "
                "holds %llu: allocate the tensor that long (the rows past K "
                "are read, not used)",
                which, normgrad_ascendc::TypeName<T>(), c0, ull(end),
                ull(have));
          }
        }
      }
      if constexpr (kMx) {
        const MxScales scales = CopyScalesToL1<kIsA>(blk);
        Load950(l0, scm, height, blk.row0(), blk.col0(), blk, &scales);
        return;
      }
      LoadToL0<kIsA>(l0, scm, height, blk.row0(), blk.col0(), blk);
    } else {
      if constexpr (kIsA) {
        l1 = a1_.template Get<T>();
      } else {
        l1 = b1_.template Get<T>();
      }
      if constexpr (kMx) {
        // A K tail: the block is padded with zeros in L1 to MmadMx's unit
        // of 64 along K, then loaded and multiplied that long.
        OperandBlock padded = blk;
        padded.k = (blk.k + kMxK - 1) / kMxK * kMxK;
        if (padded.k != blk.k) ZeroL1Block<T>(l1, padded);
        CopyToL1<kIsA>(l1, blk, trans);
        const MxScales scales = CopyScalesToL1<kIsA>(blk);
        Load950(l0, l1, L1Height<T>(padded), 0, 0, padded, &scales);
        return;
      }
      CopyToL1<kIsA>(l1, blk, trans);
      LoadToL0<kIsA>(l0, l1, L1Height<T>(blk), 0, 0, blk);
    }
  }

  // The base block GM → L1: by the kernel's callback (MM_CB), which gets
  // the block's indices (A: along M and K; B: along K and N) and size and
  // must write the layout below; from an operand stored in NZ by strided
  // DataCopy of whole fractals; from ND by DataCopy with ND2NZ. The layout:
  // Nz, column blocks L1Height apart, except a float block whose stored
  // rows run along K, kept in bands of 16 rows, each band's fractals one
  // after the other (16-column pairs side by side, as its squares read).
  template <bool kIsA>
  void CopyToL1(const LocalTensor<OperandT<kIsA>>& l1, const OperandBlock& blk,
                bool trans) {
    using T = OperandT<kIsA>;
    using Type = OperandType<kIsA>;
    constexpr uint32_t bits = matmul_detail::kBits<T>;
    constexpr uint32_t c0 = 256 / bits;
    constexpr uint32_t frac = 4096 / bits;
    // The elements one GM index spans (an fp4x2 tensor counts bytes).
    constexpr uint32_t per_index = matmul_detail::kIndexBits<T> / bits;
    const GlobalTensor<T>& gm = OperandGm<kIsA>();
    if constexpr (kIsA && MM_CB::kCopyA1) {
      MM_CB::CopyA1Ptr(l1.template ReinterpretCast<int8_t>(),
                       reinterpret_cast<__gm__ void*>(gm.GetPhyAddr()),
                       static_cast<int>(blk.mn0 / tiling_.baseM),
                       static_cast<int>(blk.k0 / tiling_.baseK),
                       static_cast<int>(blk.mn), static_cast<int>(blk.k),
                       user_def_info_, self_define_data_);
      return;
    }
    if constexpr (!kIsA && MM_CB::kCopyB1) {
      MM_CB::CopyB1Ptr(l1.template ReinterpretCast<int8_t>(),
                       reinterpret_cast<__gm__ void*>(gm.GetPhyAddr()),
                       static_cast<int>(blk.k0 / tiling_.baseK),
                       static_cast<int>(blk.mn0 / tiling_.baseN),
                       static_cast<int>(blk.k), static_cast<int>(blk.mn),
                       user_def_info_, self_define_data_);
      return;
    }
    const bool bands = FloatBands<kIsA>(blk);
    const uint32_t rows = blk.rows(), cols = blk.cols();
    const uint32_t band_fracs = Ceil16(cols) / 8;  // float bands: C1 to even
    const uint32_t height = L1Height<T>(blk);
    if constexpr (Type::format == CubeFormat::NZ) {
      // Column blocks of the stored matrix are runs of whole_rows rows.
      const uint32_t whole_rows = Ceil16(StoredRows<kIsA>(trans));
      if (blk.row0() % 16 != 0 || blk.col0() % c0 != 0) {
        normgrad_ascendc::Fail(
            "Matmul: %s in NZ is read in whole fractals, but a base block "
            "starts at row %u, column %u of it (rows in 16s, columns in %u "
            "for %s: make the base blocks such multiples)",
            kIsA ? "A" : "B", blk.row0(), blk.col0(), c0,
            normgrad_ascendc::TypeName<T>());
      }
      const uint64_t first =
          uint64_t{blk.col0()} / c0 * whole_rows + blk.row0();
      DataCopyParams move;
      move.blockCount = static_cast<uint16_t>(CeilDiv(cols, c0));
      if (!bands) {
        move.blockLen = static_cast<uint16_t>(Ceil16(rows));  // 32-byte rows
        move.srcStride = static_cast<uint16_t>(whole_rows - Ceil16(rows));
        move.dstStride = static_cast<uint16_t>(height - Ceil16(rows));
        DataCopy(l1, gm[first * c0 / per_index], move);
        return;
      }
      move.blockLen = 16;
      move.srcStride = static_cast<uint16_t>(whole_rows - 16);
      for (uint32_t b = 0; b < Ceil16(rows) / 16; ++b) {
        DataCopy(l1[b * band_fracs * frac], gm[(first + 16 * b) * c0], move);
      }
    } else {
      const auto [row_name, row_len] = StoredRowLength<kIsA>(trans);
      const uint64_t first =
          (uint64_t{blk.row0()} * row_len + blk.col0()) / per_index;
      // int4b_t and fp4x2 move as their bytes: ND2NZ's lengths count bytes
      // then, so rows and blocks start on whole bytes.
      constexpr uint32_t per_unit = bits == 4 ? 2 : 1;
      if (bits == 4 && (row_len % 2 != 0 || cols % 2 != 0)) {
        normgrad_ascendc::Fail(
            "Matmul: %s of %s has an odd number of elements along its inner "
            "axis (%s %d, a block of %u); %s matrices have an even inner axis "
            "(two elements a byte)",
            kIsA ? "A" : "B", normgrad_ascendc::TypeName<T>(), row_name,
            row_len, cols, normgrad_ascendc::TypeName<T>());
      }
      Nd2NzParams nz;
      nz.ndNum = 1;
      nz.dValue = static_cast<uint16_t>(cols / per_unit);
      nz.srcDValue =
          static_cast<uint16_t>(RowLength(row_name, row_len) / per_unit);
      nz.dstNzNStride = 1;
      if (!bands) {
        nz.nValue = static_cast<uint16_t>(rows);
        nz.dstNzC0Stride = static_cast<uint16_t>(height);
        DataCopy(l1, gm[first], nz);
        return;
      }
      nz.dstNzC0Stride = 16;
      for (uint32_t b = 0; b * 16 < rows; ++b) {
        nz.nValue =
            static_cast<uint16_t>(std::min<uint32_t>(16, rows - 16 * b));
        DataCopy(l1[b * band_fracs * frac],
                 gm[first + uint64_t{16} * b * row_len], nz);
      }
    }
  }

  // Whether a float block whose stored rows run along K is kept in L1 in
  // bands of 16 rows, for LoadDataWithTranspose's squares: not on the 950,
  // whose V2 loads transpose squares of an Nz matrix.
  template <bool kIsA>
  static bool FloatBands(const OperandBlock& blk) {
    return blk.k_rows && matmul_detail::kBits<OperandT<kIsA>> == 32 &&
           !normgrad_ascendc::OnProfile950();
  }

  // The block from L1 (`src`: column blocks `height` rows apart, the block
  // at stored row `row0`, column `col0`) into L0. Where the stored rows run
  // along M (N), each L1 fractal is an L0 fractal (LoadData); along K, each
  // 16-bit fractal is transposed (LoadData with ifTranspose), and int8_t
  // and float blocks go by squares of two fractals (LoadDataWithTranspose).
  template <bool kIsA>
  void LoadToL0(const LocalTensor<OperandT<kIsA>>& l0,
                const LocalTensor<OperandT<kIsA>>& src, uint32_t height,
                uint32_t row0, uint32_t col0, const OperandBlock& blk) {
    using T = OperandT<kIsA>;
    constexpr uint32_t bits = matmul_detail::kBits<T>;
    constexpr uint32_t c0 = 256 / bits;
    constexpr uint32_t frac = 4096 / bits;
    if constexpr (bits >= 8) {
      if (normgrad_ascendc::OnProfile950()) {
        Load950(l0, src, height, row0, col0, blk);
        return;
      }
    }
    const uint32_t mn1 = Ceil16(blk.mn) / 16;
    // A float A whose rows are loaded by squares spans K to 16
    // (kDirectionAlign in its Mmad).
    const uint32_t k1 = kIsA && blk.k_rows && bits == 32 ? Ceil16(blk.k) / 8
                                                         : CeilDiv(blk.k, c0);
    // L0 fractal (mi, ki): Zz for A, Zn for B.
    const auto dst_at = [&](uint32_t mi, uint32_t ki) -> uint32_t {
      return kIsA ? mi * k1 + ki : ki * mn1 + mi;
    };
    if (!blk.k_rows || bits == 16) {
      // The L1 fractal holding L0 fractal (mi, ki), counted from src.
      const auto src_at = [&](uint32_t mi, uint32_t ki) -> uint64_t {
        return blk.k_rows
                   ? (uint64_t{col0 / c0 + mi} * height + row0 + 16 * ki) / 16
                   : (uint64_t{col0 / c0 + ki} * height + row0 + 16 * mi) / 16;
      };
      // A row of L0 fractals (A: along K; B: along N) per call.
      const uint32_t outer = kIsA ? mn1 : k1, inner = kIsA ? k1 : mn1;
      for (uint32_t o = 0; o < outer; ++o) {
        const uint32_t mi = kIsA ? o : 0, ki = kIsA ? 0 : o;
        const uint64_t first = src_at(mi, ki);
        const uint64_t next = kIsA ? src_at(mi, 1) : src_at(1, ki);
        LoadFractals(l0[dst_at(mi, ki) * frac], src[first * frac], inner,
                     static_cast<uint32_t>(next - first), blk.k_rows);
      }
      return;
    }
    if constexpr (bits == 8) {
      // int8_t: a square is 32 stored rows (K) by 32 columns (M or N), two
      // fractals one above the other in a column block; transposed, its
      // fractals are L0 (2j, q) and (2j + 1, q). Where M (N) has an odd
      // number of 16s, the last squares' second fractals fall past the
      // block, into the one fractal the buffer has beyond it.
      const uint32_t spill = mn1 * k1;
      for (uint32_t j = 0; 2 * j < mn1; ++j) {
        const uint64_t first = (uint64_t{col0 / c0 + j} * height + row0) / 16;
        const LocalTensor<T> from = src[first * frac];
        const uint32_t t0 = dst_at(2 * j, 0);
        if (2 * j + 1 < mn1) {
          LoadSquares(l0[t0 * frac], from, k1, 1, dst_at(2 * j, 1) - t0,
                      dst_at(2 * j + 1, 0) - t0, 2);
          continue;
        }
        for (uint32_t q = 0; q < k1; ++q) {
          const uint32_t at = dst_at(2 * j, q);
          LoadSquares(l0[at * frac], from[2 * q * frac], 1, 1, 1, spill - at,
                      2);
        }
      }
    } else if constexpr (bits == 4) {
      // int4b_t (B as [K, N] only: an int4b_t A is never transposed): a
      // square is 64 stored rows (K) by 64 columns (N), four fractals one
      // above the other in a column block; transposed, its fractals are L0
      // (4j + f, q), one after the other. Where N has no multiple of four
      // 16s, the last squares' overhanging fractals fall on the next K
      // row's first ones, which the other column blocks (loaded after it)
      // or the next square write again, and past the block into the three
      // fractals the buffer has beyond it.
      const uint32_t blocks = CeilDiv(mn1, 4);
      for (uint32_t jj = blocks; jj-- > 0;) {
        const uint64_t first = (uint64_t{col0 / c0 + jj} * height + row0) / 16;
        const LocalTensor<T> from = src[first * frac];
        const uint32_t t0 = dst_at(4 * jj, 0);
        if (4 * jj + 3 < mn1) {
          LoadSquares(l0[t0 * frac], from, k1, 1, dst_at(4 * jj, 1) - t0, 1, 4);
          continue;
        }
        for (uint32_t q = 0; q < k1; ++q) {
          LoadSquares(l0[dst_at(4 * jj, q) * frac], from[4 * q * frac], 1, 1, 1,
                      1, 4);
        }
      }
    } else {
      // float: a square is 16 stored rows (K) by 16 columns (M or N), two
      // fractals side by side in a band of the L1 block; transposed, its
      // fractals are L0 (p, 2b) and (p, 2b + 1).
      const uint32_t band_count = Ceil16(blk.k) / 16;
      const uint32_t band_fracs = Ceil16(blk.mn) / 8;
      if constexpr (kIsA) {
        for (uint32_t p = 0; p < mn1; ++p) {
          LoadSquares(l0[dst_at(p, 0) * frac], src[2 * p * frac], band_count,
                      band_fracs / 2, 2, 1, 2);
        }
      } else {
        for (uint32_t b = 0; b < band_count; ++b) {
          LoadSquares(l0[dst_at(0, 2 * b) * frac], src[b * band_fracs * frac],
                      mn1, 1, 1, mn1, 2);
        }
      }
    }
  }

  // MmadMx's unit of K: two scales of 32 elements.
  static constexpr uint32_t kMxK = 64;

  // Sets the L1 block `blk` (as LoadOperand lays it: column blocks of 32
  // bytes, L1Height rows each) to zeros.
  template <typename T>
  static void ZeroL1Block(const LocalTensor<T>& l1, const OperandBlock& blk) {
    const uint32_t col_blocks =
        CeilDiv(blk.cols() * matmul_detail::kBits<T>, 256);
    InitConstValueParams<int8_t> zeros;
    zeros.repeatTimes = 1;
    zeros.blockNum = static_cast<uint16_t>(col_blocks * L1Height<T>(blk));
    zeros.initValue = 0;
    Fill(l1.template ReinterpretCast<int8_t>(), zeros);
  }

  // An operand block's scales in L1, as fractals of 16 rows (of M or N) by
  // two scales (64 elements of K), and their move into L0A_MX / L0B_MX,
  // which goes with the block's first load (LoadData's MX form).
  struct MxScales {
    LocalTensor<fp8_e8m0_t> l1;
    LoadData2DMxParams params;
  };

  // The block's scales GM -> L1, two scales (a uint16_t) a unit: scales
  // whose rows run along M (N) (A's [M, 2 ceil(K/64)], B's transposed) by
  // DN2NZ, each row's pairs becoming one column of the fractals; rows along
  // K (A's transposed [ceil(K/64), M, 2], B's [ceil(K/64), N, 2]) by ND2NZ.
  // Either way scale (r, kb) of the block lands at byte ((r / 16) · pairs +
  // kb / 2) · 32 + (r % 16) · 2 + kb % 2, the layout MmadMx reads.
  template <bool kIsA>
  MxScales CopyScalesToL1(const OperandBlock& blk) {
    const LocalTensor<fp8_e8m0_t> l1 =
        kIsA ? scale_a1_.template Get<fp8_e8m0_t>()
             : scale_b1_.template Get<fp8_e8m0_t>();
    const GlobalTensor<uint16_t> gm =
        (kIsA ? scale_a_gm_ : scale_b_gm_).template ReinterpretCast<uint16_t>();
    const LocalTensor<uint16_t> to = l1.template ReinterpretCast<uint16_t>();
    const bool trans = kIsA ? trans_scale_a_ : trans_scale_b_;
    // A K tail's last pair may hold one scale of the operand's and the
    // zero the page has the user pad the scales with.
    const uint32_t pairs = CeilDiv(blk.k, kMxK), pair0 = blk.k0 / kMxK;
    if (kIsA != trans) {
      const int org_k = kIsA ? org_ka_ : org_kb_;
      const uint64_t row_pairs = CeilDiv(static_cast<uint32_t>(org_k), 64);
      Dn2NzParams dn;
      dn.dnNum = 1;
      dn.dValue = blk.mn;
      dn.nValue = static_cast<uint16_t>(pairs);
      dn.srcDValue = row_pairs;
      dn.dstNzC0Stride = static_cast<uint16_t>(pairs);
      dn.dstNzNStride = 1;
      DataCopy(to, gm[blk.mn0 * row_pairs + pair0], dn);
    } else {
      const int row_len = kIsA ? org_m_ : org_n_;
      Nd2NzParams nz;
      nz.ndNum = 1;
      nz.nValue = static_cast<uint16_t>(pairs);
      nz.dValue = static_cast<uint16_t>(blk.mn);
      nz.srcDValue = RowLength(kIsA ? "orgM" : "orgN", row_len);
      nz.dstNzC0Stride = static_cast<uint16_t>(pairs);
      nz.dstNzNStride = 1;
      DataCopy(to, gm[uint64_t{pair0} * row_len + blk.mn0], nz);
    }
    MxScales scales{l1, {}};
    scales.params.xStep = static_cast<uint8_t>(Ceil16(blk.mn) / 16);
    scales.params.yStep = static_cast<uint8_t>(pairs);
    scales.params.srcStride = static_cast<uint16_t>(pairs);
    scales.params.dstStride = static_cast<uint16_t>(pairs);
    return scales;
  }

  // A's block into L0A as the 950's Nz, or B's into L0B as Zn (both:
  // fractal (mi, ki) of 16 rows of M (N) by C0 of K at ki · mn1 + mi) by
  // LoadData2DParamsV2, from L1's Nz (src as in LoadToL0). Rows along M
  // (N): one move of the whole block. Rows along K, each square of the block is
  // transposed where the move puts it, so the moves place the squares:
  // 16-bit, one move per fractal row of K (its fractals to M's places);
  // 8-bit, per two fractal rows (a 32 x 32 square is two L0 fractals along
  // M; where M has an odd number of 16s the last square's second fractal
  // lands on the next K column's first, which the next move writes again,
  // or in the fractal the buffer has past the block); 32-bit, per square of
  // two fractal columns (two L0 fractals along K).
  template <typename T>
  void Load950(const LocalTensor<T>& l0, const LocalTensor<T>& src,
               uint32_t height, uint32_t row0, uint32_t col0,
               const OperandBlock& blk, const MxScales* mx = nullptr) {
    constexpr uint32_t bits = matmul_detail::kBits<T>;
    constexpr uint32_t c0 = 256 / bits;
    constexpr uint32_t frac = 4096 / matmul_detail::kIndexBits<T>;
    const uint32_t mn1 = Ceil16(blk.mn) / 16;
    const uint32_t first_row = row0 / 16, first_col = col0 / c0;
    const uint32_t src_stride = height / 16;
    if (!blk.k_rows) {
      LoadNz(l0, src, first_row, first_col, mn1, CeilDiv(blk.k, c0), src_stride,
             mn1, false, mx);
      return;
    }
    if constexpr (bits == 16) {
      for (uint32_t r = 0; r < CeilDiv(blk.k, 16); ++r) {
        LoadNz(l0[r * mn1 * frac], src, first_row + r, first_col, 1, mn1,
               src_stride, 1, true);
      }
    } else if constexpr (bits == 8) {
      for (uint32_t q = 0; q < CeilDiv(blk.k, 32); ++q) {
        LoadNz(l0[q * mn1 * frac], src, first_row + 2 * q, first_col, 2,
               CeilDiv(mn1, 2), src_stride, 2, true, q == 0 ? mx : nullptr);
      }
    } else if constexpr (bits == 4) {
      // MXFP4: a 64 x 64 square is four L0 fractals along M (N); as for
      // 8-bit, a last square's overhang lands on the next K column's first
      // fractals, written again by the next move, or in the three fractals
      // the buffer has past the block.
      for (uint32_t q = 0; q < CeilDiv(blk.k, 64); ++q) {
        LoadNz(l0[q * mn1 * frac], src, first_row + 4 * q, first_col, 4,
               CeilDiv(mn1, 4), src_stride, 4, true, q == 0 ? mx : nullptr);
      }
    } else {
      for (uint32_t r = 0; r < CeilDiv(blk.k, 16); ++r) {
        for (uint32_t p = 0; p < mn1; ++p) {
          LoadNz(l0[(2 * r * mn1 + p) * frac], src, first_row + r,
                 first_col + 2 * p, 1, 2, src_stride, mn1, true);
        }
      }
    }
  }

  // LoadData2DParamsV2 moves of m_steps x k_steps fractals of `src` from
  // fractal row `m0`, column `k0` into `dst`, column by column
  // `dst_stride` fractals apart, in calls of at most 255 columns (kStep
  // has 8 bits; mStep needs no split: one fractal column of 128 fractal
  // rows fills the 950's L0A).
  template <typename T>
  static void LoadNz(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                     uint32_t m0, uint32_t k0, uint32_t m_steps,
                     uint32_t k_steps, uint32_t src_stride, uint32_t dst_stride,
                     bool transpose, const MxScales* mx = nullptr) {
    constexpr uint32_t frac = 4096 / matmul_detail::kIndexBits<T>;
    constexpr uint32_t kMaxSteps = 255;
    LoadData2DParamsV2 load;
    load.mStartPosition = m0;
    load.mStep = static_cast<uint16_t>(m_steps);
    load.srcStride = static_cast<int32_t>(src_stride);
    load.dstStride = static_cast<uint16_t>(dst_stride);
    load.ifTranspose = transpose;
    for (uint32_t done = 0; done < k_steps; done += kMaxSteps) {
      load.kStartPosition = k0 + done;
      load.kStep = static_cast<uint16_t>(std::min(kMaxSteps, k_steps - done));
      if constexpr (cube_detail::kMmadMxPair<T, T>) {
        if (mx != nullptr && done == 0) {
          LoadData(dst, src, mx->l1, load, mx->params);
          continue;
        }
      }
      LoadData(dst[uint64_t{done} * dst_stride * frac], src, load);
    }
  }

  // `count` squares of `fractals` fractals from `src`, `src_stride`
  // squares apart, each transposed by LoadDataWithTranspose: square i's
  // first fractal to fractal i · dst_step of `dst`, each further one
  // `t1_step` fractals after the one before (calls of at most 255 repeats:
  // repeatTimes has 8 bits).
  template <typename T>
  static void LoadSquares(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                          uint32_t count, uint32_t src_stride,
                          uint32_t dst_step, uint32_t t1_step,
                          uint32_t fractals) {
    constexpr uint32_t frac = 4096 / matmul_detail::kBits<T>;
    constexpr uint32_t kMaxRepeats = 255;
    LoadData2dTransposeParams load;
    load.srcStride = static_cast<uint16_t>(src_stride);
    load.dstGap = static_cast<uint16_t>(dst_step - 1);
    load.dstFracGap = static_cast<uint16_t>(t1_step - 1);
    for (uint32_t done = 0; done < count; done += kMaxRepeats) {
      load.repeatTimes =
          static_cast<uint8_t>(std::min(kMaxRepeats, count - done));
      LoadDataWithTranspose(dst[done * dst_step * frac],
                            src[done * src_stride * fractals * frac], load);
    }
  }

  // The bias's cur_n values at n0: GM → L1 (C1) → bias table (C2); at
  // TSCM from the kernel's L1 tensor straight into the table.
  void LoadBias(uint32_t n0, uint32_t cur_n) {
    LocalTensor<BiasT> l1;
    if constexpr (BIAS_TYPE::pos == TPosition::TSCM) {
      if (bias_local_.GetSize() < static_cast<uint64_t>(single_n_)) {
        normgrad_ascendc::Fail(
            "Matmul: the bias at TSCM holds %llu elements, fewer than "
            "singleCoreN %d; it must hold the core's whole N",
            ull(bias_local_.GetSize()), single_n_);
      }
      l1 = bias_local_[n0];
    } else {
      l1 = bias1_.template Get<BiasT>();
      Nd2NzParams nz;
      nz.ndNum = 1;
      nz.nValue = 1;
      nz.dValue = static_cast<uint16_t>(cur_n);
      nz.srcDValue = static_cast<uint16_t>(cur_n);
      nz.dstNzC0Stride = 1;
      nz.dstNzNStride = 1;
      DataCopy(l1, bias_gm_[n0], nz);
    }
    // The bias table counts its blocks in 64 bytes of float on Atlas A2/A3,
    // in 32 bytes (an even count) on the 950.
    DataCopyParams move;
    move.blockCount = 1;
    move.blockLen =
        static_cast<uint16_t>((uint64_t{cur_n} * 4 + 63) / 64 *
                              (normgrad_ascendc::OnProfile950() ? 2 : 1));
    const LocalTensor<L0cT> table = bias2_.template Get<L0cT>();
    if constexpr (std::is_same_v<BiasT, L0cT>) {
      DataCopy(table, l1, move);
    } else {
      DataCopy<L0cT, BiasT>(table, l1, move);
    }
  }

  // The computed block from L0C to `gm`.
  void WriteBlock(const GlobalTensor<DstT>& gm, uint8_t atomic,
                  bool sequential) {
    if (atomic > 3) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: enAtomic %u is not 0 (none), 1 (add), 2 (max) "
          "or 3 (min)",
          static_cast<unsigned>(atomic));
    }
    const uint32_t cur_m = CurM(), cur_n = CurN();
    const uint32_t m0 = m_idx_ * tiling_.baseM, n0 = n_idx_ * tiling_.baseN;
    FixpipeParamsV220 out;
    out.mSize = static_cast<uint16_t>(cur_m);
    out.nSize = static_cast<uint16_t>(cur_n);
    out.srcStride = static_cast<uint16_t>(Ceil16(cur_m));
    out.quantPre =
        matmul_detail::OutQuant<L0cT, DstT>(quant_ == QuantSource::kVector);
    if constexpr (kQuantOut) {
      if (quant_ == QuantSource::kNone) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: C of %s from %s inputs is quantized on its "
            "way out; call SetQuantScalar or SetQuantVector first",
            normgrad_ascendc::TypeName<DstT>(),
            normgrad_ascendc::TypeName<SrcAT>());
      }
      out.deqScalar = quant_scalar_;
    }
    const uint32_t row = org_kc_ > 0 ? org_kc_ : org_n_;
    uint64_t offset = 0;
    if constexpr (C_TYPE::format == CubeFormat::NZ) {
      // Column blocks of 16 columns, or of 8 with the channel split
      // (float in 16 x 8 fractals).
      constexpr uint32_t width = kConfig.isEnableChannelSplit ? 8 : 16;
      if (cur_n % width != 0) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: C in NZ needs N blocks of whole %u columns%s; "
            "this block has %u (singleCoreN %d, baseN %d)",
            width, kConfig.isEnableChannelSplit ? " (channel split)" : "",
            cur_n, single_n_, tiling_.baseN);
      }
      const uint64_t col_rows = sequential ? Ceil16(cur_m) : Ceil16(org_m_);
      out.dstStride =
          static_cast<uint32_t>(col_rows * width * sizeof(DstT) / 32);
      out.channelSplit = kConfig.isEnableChannelSplit;
      offset = sequential ? 0 : uint64_t{n0} * col_rows + uint64_t{m0} * width;
    } else if constexpr (C_TYPE::format == CubeFormat::COLUMN_MAJOR) {
      // Columns of orgM (in sequential write mode baseM) elements.
      const uint32_t stride = sequential ? tiling_.baseM : org_m_;
      out.dstStride = stride;
      offset = sequential ? 0 : uint64_t{n0} * stride + m0;
    } else {
      uint32_t stride = sequential ? tiling_.baseN : row;
      if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) {
        constexpr uint32_t per32 = 32 / sizeof(DstT);
        stride = (stride + per32 - 1) / per32 * per32;
      }
      out.dstStride = stride;
      offset = sequential ? 0 : uint64_t{m0} * stride + n0;
    }
    const LocalTensor<L0cT> c = c1_.template Get<L0cT>();
    if constexpr ((matmul_detail::kQuantizedBy950<L0cT, DstT> ||
                   C_TYPE::format == CubeFormat::COLUMN_MAJOR) &&
                  !MM_CB::kDataCopyOut) {
      WriteBlock950(gm[offset], c, out, atomic, n0, cur_n);
      return;
    }
    SetAtomic(atomic);
    if constexpr (MM_CB::kDataCopyOut) {
      // The kernel's own move: the block's place in GM, L0C, and the
      // geometry the object's Fixpipe would use (docs/matmul.md).
      DataCopyOutParams params;
      params.cBurstNum = out.mSize;
      params.burstLen = out.nSize;
      params.srcStride = out.srcStride;
      params.dstStride = out.dstStride;
      params.oriNSize = out.nSize;
      params.enUnitFlag = false;
      params.quantScalar = quant_scalar_;
      params.cbufWorkspaceAddr = 0;
      MM_CB::DataCopyOutPtr(
          reinterpret_cast<__gm__ void*>(gm[offset].GetPhyAddr()),
          c.template ReinterpretCast<int8_t>(), &params, user_def_info_,
          self_define_data_);
      if (atomic != 0) SetAtomicNone();
      return;
    }
    if (quant_ == QuantSource::kVector) {
      const LocalTensor<uint64_t> params = LoadQuantVector(n0, cur_n);
      if constexpr (C_TYPE::format == CubeFormat::NZ) {
        Fixpipe<DstT, L0cT, CFG_NZ>(gm[offset], c, params, out);
      } else {
        Fixpipe<DstT, L0cT, CFG_ROW_MAJOR>(gm[offset], c, params, out);
      }
    } else if constexpr (C_TYPE::format == CubeFormat::NZ) {
      Fixpipe<DstT, L0cT, CFG_NZ>(gm[offset], c, out);
    } else {
      Fixpipe<DstT, L0cT, CFG_ROW_MAJOR>(gm[offset], c, out);
    }
    if (atomic != 0) SetAtomicNone();
  }

  // WriteBlock's Fixpipe for the Ascend 950's quantized rows, whose modes
  // only FixpipeParamsArch3510 has, and for C in COLUMN_MAJOR (the 950's
  // NZ2DN). That form moves whole column blocks of 16 (and in ND rows, in
  // DN columns, of whole 32 bytes), so C in NZ (whole column blocks
  // already) goes out in one call, its dstStride in elements; C in ND,
  // ND_ALIGN or COLUMN_MAJOR goes out a column block at a time into the
  // object's staging tile ([cur_m, 16] row major, as NZ stores one column
  // block), whose first cur_n columns are then placed in `dst`'s rows (DN:
  // columns) out.dstStride elements apart.
  void WriteBlock950(const GlobalTensor<DstT>& dst, const LocalTensor<L0cT>& c,
                     const FixpipeParamsV220& out, uint8_t atomic, uint32_t n0,
                     uint32_t cur_n) {
    const LocalTensor<uint64_t> params = quant_ == QuantSource::kVector
                                             ? LoadQuantVector(n0, cur_n)
                                             : LocalTensor<uint64_t>();
    FixpipeParamsArch3510<CO2Layout::NZ> p;
    p.mSize = out.mSize;
    p.srcStride = out.srcStride;
    p.quantPre = out.quantPre;
    p.deqScalar = out.deqScalar;
    if constexpr (C_TYPE::format == CubeFormat::NZ) {
      p.nSize = out.nSize;
      p.dstStride = out.dstStride * 32 / sizeof(DstT);
      SetAtomic(atomic);
      Fixpipe950Call(dst, c, params, p);
      if (atomic != 0) SetAtomicNone();
      return;
    }
    constexpr bool dn = C_TYPE::format == CubeFormat::COLUMN_MAJOR;
    constexpr const char* format =
        dn ? "COLUMN_MAJOR"
           : (C_TYPE::format == CubeFormat::ND_ALIGN ? "ND_ALIGN" : "ND");
    if (atomic != 0) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: enAtomic %u with C of %s in %s is not "
          "emulated yet (0 only)",
          static_cast<unsigned>(atomic), normgrad_ascendc::TypeName<DstT>(),
          format);
    }
    const uint64_t rows = out.mSize, column_block = uint64_t{16} * rows;
    const uint64_t last = dn ? (cur_n - 1) * uint64_t{out.dstStride} + rows
                             : (rows - 1) * out.dstStride + cur_n;
    if (dst.sized() && last > dst.GetSize()) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: C in GM holds %llu elements, but the block "
          "(%llu x %u, %s %u apart) needs %llu",
          ull(dst.GetSize()), ull(rows), cur_n, dn ? "columns" : "rows",
          static_cast<unsigned>(out.dstStride), ull(last));
    }
    if (stage_.size() < column_block * sizeof(DstT) + 32) {
      stage_.assign(column_block * sizeof(DstT) + 32, 0);
    }
    const GlobalTensor<DstT> tile =
        matmul_detail::AlignedGmView<DstT>(stage_, column_block);
    p.nSize = 16;
    p.dstStride = static_cast<uint32_t>(column_block);
    const DstT* from = tile.GetPhyAddr();
    DstT* to = dst.GetPhyAddr();
    for (uint32_t j0 = 0; j0 < cur_n; j0 += 16) {
      Fixpipe950Call(tile, c[uint64_t{j0} * out.srcStride],
                     quant_ == QuantSource::kVector ? params[j0] : params, p);
      const uint32_t width = std::min(16u, cur_n - j0);
      for (uint64_t m = 0; m < rows; ++m) {
        for (uint32_t j = 0; j < width; ++j) {
          const uint64_t at = dn ? uint64_t{j0 + j} * out.dstStride + m
                                 : m * out.dstStride + j0 + j;
          normgrad_ascendc::WriteGmScalar("Matmul::GetTensorC (C of %s)",
                                          normgrad_ascendc::TypeName<DstT>(),
                                          dst.base(), to + at,
                                          from + m * 16 + j, sizeof(DstT));
        }
      }
    }
  }

  // One FixpipeParamsArch3510 move in NZ: with the block's per-column
  // parameters in L1 (SetQuantVector) or the scalar one.
  void Fixpipe950Call(const GlobalTensor<DstT>& dst, const LocalTensor<L0cT>& c,
                      const LocalTensor<uint64_t>& params,
                      const FixpipeParamsArch3510<CO2Layout::NZ>& p) {
    if (quant_ == QuantSource::kVector) {
      Fixpipe<DstT, L0cT, CFG_NZ>(dst, c, params, p);
    } else {
      Fixpipe<DstT, L0cT, CFG_NZ>(dst, c, p);
    }
  }

  // The block's cur_n per-column parameters at n0: GM → L1 (C1), moved
  // as pairs of uint32_t (ND2NZ pads the last 32 bytes).
  LocalTensor<uint64_t> LoadQuantVector(uint32_t n0, uint32_t cur_n) {
    const LocalTensor<uint64_t> l1 = quant1_.template Get<uint64_t>();
    GlobalTensor<uint32_t> words;
    words.SetGlobalBuffer(
        reinterpret_cast<__gm__ uint32_t*>(quant_gm_.GetPhyAddr()),
        quant_gm_.GetSize() * 2);
    Nd2NzParams nz;
    nz.ndNum = 1;
    nz.nValue = 1;
    nz.dValue = static_cast<uint16_t>(cur_n * 2);
    nz.srcDValue = static_cast<uint16_t>(cur_n * 2);
    nz.dstNzC0Stride = 1;
    nz.dstNzNStride = 1;
    DataCopy(l1.template ReinterpretCast<uint32_t>(), words[uint64_t{n0} * 2],
             nz);
    return l1;
  }

  void RequireQuantRow(const char* api) const {
    if constexpr (!kQuantOut) {
      normgrad_ascendc::Fail(
          "Matmul::%s: C of %s from %s inputs is not quantized; the "
          "parameter serves int8_t inputs into half or int8_t, and half or "
          "bfloat16_t inputs into int8_t (on the Ascend 950 also int8_t "
          "inputs into bfloat16_t, and C in fp8_e4m3fn_t or hifloat8_t)",
          api, normgrad_ascendc::TypeName<DstT>(),
          normgrad_ascendc::TypeName<SrcAT>());
    }
  }

  static void SetAtomic(uint8_t atomic) {
    if constexpr (matmul_detail::kFp8<DstT> ||
                  std::is_same_v<DstT, hifloat8_t>) {
      if (atomic != 0) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: enAtomic %u with C of %s; the atomic "
            "operations take no 8-bit float (0 only)",
            static_cast<unsigned>(atomic), normgrad_ascendc::TypeName<DstT>());
      }
    } else {
      if (atomic == 1) SetAtomicAdd<DstT>();
      if (atomic == 2) SetAtomicMax<DstT>();
      if (atomic == 3) SetAtomicMin<DstT>();
    }
  }

  TCubeTiling tiling_{};
  bool placed_ = false;
  bool initialized_ = false;     // Init has run
  bool buffers_carved_ = false;  // the first Init carved the buffers
  normgrad_ascendc::MatmulBufferBytes carved_{};
  TPipe* tpipe_ = nullptr;
  std::unique_ptr<normgrad_ascendc::Core> context_;
  std::unique_ptr<TPipe> pipe_;
  TBuf<TPosition::A1> a1_;
  TBuf<TPosition::B1> b1_;
  TBuf<TPosition::B1> index1_;  // the sparse Matmul: B's block's indices
  TBuf<TPosition::C1> bias1_;
  TBuf<TPosition::C2> bias2_;
  TBuf<TPosition::A2> a2_;
  TBuf<TPosition::B2> b2_;
  TBuf<TPosition::CO1> c1_;
  TBuf<TPosition::C1> quant1_;
  enum class QuantSource : uint8_t { kNone, kScalar, kVector };
  QuantSource quant_ = QuantSource::kNone;
  uint64_t quant_scalar_ = 0;
  GlobalTensor<uint64_t> quant_gm_;
  LocalTensor<SrcAT> a_local_;  // operands at VECOUT, and their staging
  LocalTensor<SrcBT> b_local_;
  LocalTensor<BiasT> bias_local_;
  std::vector<uint8_t> a_stage_, b_stage_, bias_stage_;
  std::vector<uint8_t> scratch_;  // C at VECIN: one block from the cube
  std::vector<uint8_t> stage_;    // WriteBlock950's column block tile
  GlobalTensor<DstT> scratch_gm_;
  GlobalTensor<SrcAT> a_gm_;
  GlobalTensor<SrcBT> b_gm_;
  GlobalTensor<uint8_t> index_gm_;  // SetSparseIndex
  bool index_set_ = false;
  // MxMatmul: the scales in GM and each operand block's scales in L1.
  GlobalTensor<fp8_e8m0_t> scale_a_gm_, scale_b_gm_;
  bool scale_a_set_ = false, scale_b_set_ = false;
  bool trans_scale_a_ = false, trans_scale_b_ = false;
  TBuf<TPosition::A1> scale_a1_;
  TBuf<TPosition::B1> scale_b1_;
  GlobalTensor<BiasT> bias_gm_;
  bool a_set_ = false, b_set_ = false, bias_on_ = false;
  bool trans_a_ = false, trans_b_ = false;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  uint32_t next_ = 0, m_idx_ = 0, n_idx_ = 0;
  uint32_t k_step_ = 0;  // isPartialOutput: the block's K step
  bool have_block_ = false;
  bool async_ = false;         // the last Iterate was Iterate<false>
  uint32_t blocks_taken_ = 0;  // blocks the asynchronous GetTensorC took
  uint8_t sub_block_idx_ = 0;
  uint32_t batch_a_ = 1, batch_b_ = 1;  // SetBatchNum
  std::vector<uint8_t> batch_stage_;    // IterateBatch into the UB
  GlobalTensor<DstT> workspace_;        // SetWorkspace
  uint64_t workspace_elems_ = 0;        // 0: size unknown
  bool workspace_set_ = false;
  NBatchState nbatch_;
  // SetTensorA(aScalar)'s value, and the [1, K] row A reads from it.
  std::optional<SrcAT> a_scalar_;
  std::vector<SrcAT> a_row_;
  // SetLocalWorkspace's tensor (the 950's scratch of the device's object).
  std::optional<LocalTensor<uint8_t>> local_workspace_;
  uint64_t user_def_info_ = 0;     // the callbacks' tilingPtr
  uint64_t self_define_data_ = 0;  // the callbacks' dataPtr
};

}  // namespace NORMGRAD_MATMUL_MODE

}  // namespace AscendC

namespace normgrad_ascendc {

inline void RegisterMatmulObjects(const CallSite&, AscendC::TPipe*) {}
template <typename M, typename T, typename... Rest>
void RegisterMatmulTiling(const CallSite& site, AscendC::TPipe* pipe, M& mm,
                          T&& next, Rest&&... rest);

/// REGIST_MATMUL_OBJ's pairs: each object, optionally followed by its
/// tiling (a TCubeTiling pointer).
template <typename M, typename... Rest>
void RegisterMatmulObjects(const CallSite& site, AscendC::TPipe* pipe, M& mm,
                           Rest&&... rest) {
  {
    const ApiCall call(site);
    mm.Register(pipe);
  }
  if constexpr (sizeof...(Rest) > 0) {
    RegisterMatmulTiling(site, pipe, mm, std::forward<Rest>(rest)...);
  }
}

template <typename M, typename T, typename... Rest>
void RegisterMatmulTiling(const CallSite& site, AscendC::TPipe* pipe, M& mm,
                          T&& next, Rest&&... rest) {
  using Next = std::decay_t<T>;
  if constexpr (std::is_convertible_v<Next, const TCubeTiling*>) {
    mm.Init(next, pipe, site);
    RegisterMatmulObjects(site, pipe, std::forward<Rest>(rest)...);
  } else if constexpr (std::is_same_v<Next, TCubeTiling>) {
    mm.Init(&next, pipe, site);
    RegisterMatmulObjects(site, pipe, std::forward<Rest>(rest)...);
  } else {
    RegisterMatmulObjects(site, pipe, next, std::forward<Rest>(rest)...);
  }
}

}  // namespace normgrad_ascendc

/// Registers up to four Matmul objects with the kernel's TPipe, each
/// followed by its tiling (or Init later).
#define REGIST_MATMUL_OBJ(tpipe, workspace, ...)                               \
  do {                                                                         \
    static_cast<void>(workspace); /* the system workspace: unused */           \
    ::normgrad_ascendc::RegisterMatmulObjects(                                 \
        ::normgrad_ascendc::CallSite(__FILE__, __LINE__), tpipe, __VA_ARGS__); \
  } while (0)

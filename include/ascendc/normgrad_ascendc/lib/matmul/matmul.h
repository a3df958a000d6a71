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
// with ND2NZ, L1 → L0A/L0B by LoadData, Mmad into L0C (the first K step
// from the bias or 0, the others accumulating), Fixpipe L0C → GM. So a
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
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"
#include "normgrad_ascendc/lib/matmul/matmul_batch_layout.h"
#include "normgrad_ascendc/lib/matmul/matmul_config.h"
#include "normgrad_ascendc/runtime/atomic.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_pad.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/pipe.h"
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

/// The L1 bytes a (rows × cols) operand takes in Nz (rows to 16, cols to
/// C0 = 32 bytes of elements).
constexpr uint64_t MatmulNzBytes(uint64_t rows, uint64_t cols,
                                 uint32_t elem_bytes) {
  const uint64_t c0 = 32 / elem_bytes;
  return (rows + 15) / 16 * 16 * ((cols + c0 - 1) / c0 * c0) * elem_bytes;
}

/// The tiling's rules (the page's, CheckCubeTiling with `rules`, and those
/// the object relies on besides) and its buffers' fit in the profile's cube
/// memories: a KernelError naming the field, value and rule.
/// `quantized`: the object keeps a block's per-column quantization
/// parameters in L1 too.
struct MatmulBufferBytes {
  uint64_t l1_a, l1_b, l1_bias, l1_quant, l0a, l0b, l0c, bias_table;
};
MatmulBufferBytes CheckMatmulTiling(const TCubeTiling& t,
                                    const matmul::CubeTilingContext& rules,
                                    uint32_t a_bytes, uint32_t b_bytes,
                                    uint32_t bias_bytes, uint32_t l0c_bytes,
                                    bool trans_possible, bool quantized);

}  // namespace normgrad_ascendc

namespace AscendC {

namespace matmul_detail {

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
      (kSixteenBit<A> && std::is_same_v<Bias, float> &&
       std::is_same_v<C, int8_t>)));

// The rows whose output Fixpipe quantizes: a parameter from SetQuantScalar
// or SetQuantVector.
template <typename L0cT, typename C>
constexpr bool kQuantized = std::is_same_v<C, int8_t> ||
                            (std::is_same_v<L0cT, int32_t> &&
                             std::is_same_v<C, half>);

// Fixpipe's conversion from the L0C type to C's: a cast, or the scalar
// (vector: false) or per-column (true) quantization mode.
template <typename L0cT, typename C>
constexpr QuantMode_t OutQuant(bool vector) {
  if constexpr (std::is_same_v<L0cT, C>) return NoQuant;
  if constexpr (std::is_same_v<L0cT, int32_t>) {
    if constexpr (std::is_same_v<C, half>) return vector ? VDEQF16 : DEQF16;
    return vector ? VREQ8 : REQ8;
  }
  if constexpr (std::is_same_v<C, int8_t>) {
    return vector ? VQF322B8_PRE : QF322B8_PRE;
  }
  if constexpr (std::is_same_v<C, half>) return F322F16;
  return F322BF16;
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
  static_assert(Policy::kEmulated,
                "Matmul: MatmulWithScalePolicy (MxMatmul) and the SplitM / "
                "SplitN dual outputs are not emulated yet");
  /// L0C holds int32_t for 8-bit inputs, float otherwise.
  using L0cT =
      std::conditional_t<std::is_same_v<SrcAT, int8_t>, int32_t, float>;
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
    if (cubeTiling == nullptr) {
      normgrad_ascendc::Fail("Matmul::Init: cubeTiling is null");
    }
    Place(tpipe);
    const Here here(*this);
    CheckTypes();
    tiling_ = *cubeTiling;
    const normgrad_ascendc::MatmulBufferBytes need =
        normgrad_ascendc::CheckMatmulTiling(
            tiling_, TilingRules(), sizeof(SrcAT), sizeof(SrcBT), sizeof(BiasT),
            sizeof(L0cT), A_TYPE::isTrans || B_TYPE::isTrans, kQuantOut);
    TPipe* pipe = pipe_ != nullptr ? pipe_.get() : tpipe_;
    if (pipe == nullptr) pipe = GetTPipePtr();
    if (pipe == nullptr) {
      normgrad_ascendc::Fail(
          "Matmul::Init: tpipe is null and the core has no TPipe; pass the "
          "kernel's TPipe to REGIST_MATMUL_OBJ or Init");
    }
    if (!buffers_carved_) {
      pipe->InitBuffer(a1_, static_cast<uint32_t>(need.l1_a));
      pipe->InitBuffer(b1_, static_cast<uint32_t>(need.l1_b));
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
               need.l0c > carved_.l0c || need.l1_bias > carved_.l1_bias) {
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
    quant_ = QuantSource::kNone;
    ResetIteration();
  }

  /// One quantization parameter for all of C (the Fixpipe parameter's
  /// bits), for the rows whose output is quantized.
  void SetQuantScalar(const uint64_t quantScalar,
                      normgrad_ascendc::CallSite site = {}) {
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
    const normgrad_ascendc::ApiCall call(site);
    RequireInit("SetQuantVector");
    RequireQuantRow("SetQuantVector");
    quant_gm_ = quantTensor;
    quant_ = QuantSource::kVector;
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

  void SetBias(const GlobalTensor<BiasT>& biasGlobal,
               normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetBias", "BIAS_TYPE", BIAS_TYPE::pos, TPosition::GM);
    SetBiasGm(biasGlobal);
  }

  /// A, B and the bias in the UB of the calling vector core (position
  /// VECOUT), addressed as in GM (rows of the org shape); read when the
  /// computation starts.
  void SetTensorA(const LocalTensor<SrcAT>& leftMatrix,
                  bool isTransposeA = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetTensorA", "A_TYPE", A_TYPE::pos, TPosition::VECOUT);
    SetA(GlobalTensor<SrcAT>(), isTransposeA);
    a_local_ = leftMatrix;
  }
  void SetTensorB(const LocalTensor<SrcBT>& rightMatrix,
                  bool isTransposeB = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetTensorB", "B_TYPE", B_TYPE::pos, TPosition::VECOUT);
    SetB(GlobalTensor<SrcBT>(), isTransposeB);
    b_local_ = rightMatrix;
  }
  void SetBias(const LocalTensor<BiasT>& inputBias,
               normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    RequireOperandIn("SetBias", "BIAS_TYPE", BIAS_TYPE::pos, TPosition::VECOUT);
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
  /// false once the single shape is done. `sync` is accepted: the CPU
  /// computes at the call either way.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false,
               normgrad_ascendc::CallSite site = {}) {
    static_assert(C_TYPE::pos != TPosition::CO1,
                  "Matmul::Iterate: with C at CO1 pass the L0C tensor "
                  "(Iterate(enPartialSum, localCmatrix))");
    const normgrad_ascendc::ApiCall call(site);
    StageLocalInputs("Iterate");
    const Here here(*this);
    if (!Advance("Iterate")) return false;
    ComputeBlock(c1_.template Get<L0cT>(), enPartialSum, "Iterate");
    have_block_ = true;
    return true;
  }

  /// The form with the user's L0C tensor (C at CO1, NZ, float or int32_t).
  template <bool sync = true, typename T>
  bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix,
               normgrad_ascendc::CallSite site = {}) {
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
    const normgrad_ascendc::ApiCall call(site);
    const Here here(*this);
    if (!have_block_) {
      normgrad_ascendc::Fail(
          "Matmul::GetTensorC: no block to move; call Iterate first (each "
          "Iterate that returns true gives one block)");
    }
    WriteBlock(gm, enAtomic, enSequentialWrite);
    have_block_ = false;
  }

  /// The block the last Iterate computed into the UB (C at VECIN, on a
  /// vector core): rows baseN apart from the tensor's start.
  template <bool sync = true>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    (void)enSequentialWrite;  // a block in the UB always starts at its start
    RequireLocalC("GetTensorC", enAtomic);
    uint32_t cur_m = 0;
    {
      const Here here(*this);
      if (!have_block_) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: no block to move; call Iterate first (each "
            "Iterate that returns true gives one block)");
      }
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
    const normgrad_ascendc::ApiCall call(site);
    RequireLocalC("GetTensorC", 0);
    uint32_t cur_m = 0;
    {
      const Here here(*this);
      if (!have_block_) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: no block to move; call Iterate first (each "
            "Iterate that returns true gives one block)");
      }
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
    static_assert(C_TYPE::pos != TPosition::CO1,
                  "Matmul::IterateAll: C_TYPE's position must not be CO1");
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
    static_assert(MM_CFG.isNBatch,
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
    KeepWorkspace(addr.GetPhyAddr(), addr.GetSize() * sizeof(T));
  }
  template <typename T>
  void SetWorkspace(__gm__ const T* addr, int size,
                    normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    KeepWorkspace(addr, size > 0 ? uint64_t(size) * sizeof(T) : 0);
  }

  /// What the callbacks (MM_CB) receive as tilingPtr and dataPtr.
  void SetUserDefInfo(const uint64_t tilingPtr) { user_def_info_ = tilingPtr; }
  void SetSelfDefineData(const uint64_t dataPtr) {
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

  // The checks and state of SetTensorA / SetTensorB / SetBias.
  void SetA(const GlobalTensor<SrcAT>& gm, bool isTransposeA) {
    RequireInit("SetTensorA");
    if (isTransposeA && !A_TYPE::isTrans) {
      normgrad_ascendc::Fail(
          "Matmul::SetTensorA: isTransposeA is true, but A_TYPE's ISTRANS is "
          "false; declare MatmulType<..., ISTRANS = true> for A to transpose "
          "it");
    }
    if (isTransposeA && !matmul_detail::kSixteenBit<SrcAT>) {
      normgrad_ascendc::Fail(
          "Matmul::SetTensorA: a transposed A of %s needs LoadData with "
          "transpose of 32-bit or 8-bit fractals, which is not emulated yet "
          "(half and bfloat16_t A may be transposed)",
          normgrad_ascendc::TypeName<SrcAT>());
    }
    a_gm_ = gm;
    trans_a_ = isTransposeA;
    a_set_ = true;
    ResetIteration();
  }

  void SetB(const GlobalTensor<SrcBT>& gm, bool isTransposeB) {
    RequireInit("SetTensorB");
    if (isTransposeB && !B_TYPE::isTrans) {
      normgrad_ascendc::Fail(
          "Matmul::SetTensorB: isTransposeB is true, but B_TYPE's ISTRANS is "
          "false; declare MatmulType<..., ISTRANS = true> for B to transpose "
          "it");
    }
    if (!isTransposeB && !matmul_detail::kSixteenBit<SrcBT>) {
      normgrad_ascendc::Fail(
          "Matmul::SetTensorB: B of %s in [K, N] order needs LoadData with "
          "transpose of 32-bit or 8-bit fractals, which is not emulated yet; "
          "give B as [N, K] (ISTRANS = true and isTransposeB = true)",
          normgrad_ascendc::TypeName<SrcBT>());
    }
    b_gm_ = gm;
    trans_b_ = isTransposeB;
    b_set_ = true;
    ResetIteration();
  }

  void SetBiasGm(const GlobalTensor<BiasT>& biasGlobal) {
    RequireInit("SetBias");
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
    uint8_t* start = scratch_.data();
    while (reinterpret_cast<uintptr_t>(start) % 32 != 0) ++start;
    scratch_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(start), elems);
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
    static_assert(!MM_CFG.doMultiDataLoad && !MM_CFG.doSpecialMDL,
                  "Matmul: batches run with the Norm template only");
    static_assert(!MM_CFG.enableMixDualMaster,
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
    uint8_t* start = batch_stage_.data();
    while (reinterpret_cast<uintptr_t>(start) % 32 != 0) ++start;
    GlobalTensor<DstT> stage;
    stage.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(start), elems);
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
      if (bias_on_ && MM_CFG.isBiasBatch) bias_gm_ = bias0[ic * bias_n];
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
    if (local.GetSize() < elems) {
      normgrad_ascendc::Fail(
          "Matmul::%s: %s in the UB holds %llu elements; the single shape "
          "reads %llu (rows as the org shape gives them)",
          api, which, ull(local.GetSize()), ull(elems));
    }
    store.assign(elems * sizeof(T) + 32, 0);
    uint8_t* start = store.data();
    while (reinterpret_cast<uintptr_t>(start) % 32 != 0) ++start;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(start), elems);
    DataCopyPad(gm, local,
                DataCopyExtParams(1, static_cast<uint32_t>(elems * sizeof(T)),
                                  0, 0, 0));
  }

  void StageLocalInputs(const char* api) {
    if (next_ != 0) return;  // staged when the computation started
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

  // What the page's tiling rules need besides the tiling: the operands'
  // widths, formats and whether they may come transposed, the bias, the
  // template, a split K, and this core's cube capacities.
  normgrad_ascendc::matmul::CubeTilingContext TilingRules() const {
    normgrad_ascendc::matmul::CubeTilingContext rules =
        normgrad_ascendc::matmul::ProfileCubeContext(
            normgrad_ascendc::CurrentCore().profile().profile);
    rules.a_bits = 8 * sizeof(SrcAT);
    rules.b_bits = 8 * sizeof(SrcBT);
    rules.bias_bits = 8 * sizeof(BiasT);
    rules.a_transpose = A_TYPE::isTrans;
    rules.b_transpose = B_TYPE::isTrans;
    rules.a_nz = A_TYPE::format == CubeFormat::NZ;
    rules.b_nz = B_TYPE::format == CubeFormat::NZ;
    rules.bias = tiling_.isBias == 1;
    rules.mdl = MM_CFG.doMultiDataLoad || MM_CFG.doSpecialMDL;
    rules.split_k = tiling_.singleCoreK < tiling_.Ka;
    return rules;
  }

  static void CheckTypes() {
    static_assert(!MM_CB::kDataCopyOut,
                  "Matmul: MatmulCallBackFunc's DataCopyOut is not emulated "
                  "yet (CopyA1 and CopyB1 are)");
    if constexpr (!matmul_detail::kEmulatedPair<SrcAT, SrcBT, BiasT, DstT>) {
      normgrad_ascendc::Fail(
          "Matmul::Init: the type row (A %s, B %s, bias %s, C %s) is not one "
          "normgrad emulates on Atlas A2/A3 (docs/matmul.md lists the rows; "
          "int4b_t is not emulated yet)",
          normgrad_ascendc::TypeName<SrcAT>(),
          normgrad_ascendc::TypeName<SrcBT>(),
          normgrad_ascendc::TypeName<BiasT>(),
          normgrad_ascendc::TypeName<DstT>());
    }
    CheckOperandPlace("A_TYPE", A_TYPE::pos, A_TYPE::format, false);
    CheckOperandPlace("B_TYPE", B_TYPE::pos, B_TYPE::format, false);
    CheckOperandPlace("BIAS_TYPE", BIAS_TYPE::pos, BIAS_TYPE::format, false);
    CheckOperandPlace("C_TYPE", C_TYPE::pos, C_TYPE::format, true);
  }

  static void CheckOperandPlace(const char* which, TPosition pos,
                                CubeFormat format, bool is_c) {
    const char* pos_name = normgrad_ascendc::PositionName(pos);
    if (is_c) {
      if (pos == TPosition::CO1) {
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
      if (format != CubeFormat::ND && (bias || format != CubeFormat::NZ)) {
        normgrad_ascendc::Fail(
            "Matmul::Init: %s in GM with format %d is not emulated yet; A "
            "and B are read as ND or NZ, the bias as ND",
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
      normgrad_ascendc::Fail(
          "Matmul::Init: %s at TSCM (an operand already in L1) is not "
          "emulated yet; give it in GM or at VECOUT",
          which);
    }
    normgrad_ascendc::Fail(
        "Matmul::Init: %s's position %s is not one it takes on Atlas A2/A3 "
        "(GM, VECOUT, TSCM)",
        which, pos_name);
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
    have_block_ = false;
  }

  // Picks the next block (m_idx_, n_idx_); false when all are done.
  bool Advance(const char* api) {
    RequireInit(api);
    if (!a_set_ || !b_set_) {
      normgrad_ascendc::Fail("Matmul::%s: %s is not set; call %s first", api,
                             a_set_ ? "B" : "A",
                             a_set_ ? "SetTensorB" : "SetTensorA");
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
      return true;
    }
  }

  static uint32_t CeilDiv(int a, int b) {
    return static_cast<uint32_t>((a + b - 1) / b);
  }
  static uint32_t Ceil16(uint32_t x) { return (x + 15) / 16 * 16; }
  template <typename T>
  static uint32_t CeilC0(uint32_t x) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    return (x + c0 - 1) / c0 * c0;
  }

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
    const uint32_t k_steps = CeilDiv(single_k_, tiling_.baseK);
    const bool bias = bias_on_ && !partial;
    if (bias) LoadBias(n0, cur_n);
    for (uint32_t s = 0; s < k_steps; ++s) {
      const uint32_t k0 = s * tiling_.baseK;
      const uint32_t cur_k = std::min<uint32_t>(tiling_.baseK, single_k_ - k0);
      LoadA(m0, k0, cur_m, cur_k);
      LoadB(k0, n0, cur_k, cur_n);
      MmadParams p;
      p.m = static_cast<uint16_t>(cur_m);
      p.n = static_cast<uint16_t>(cur_n);
      p.k = static_cast<uint16_t>(cur_k);
      p.cmatrixInitVal = s == 0 && !partial;
      const LocalTensor<SrcAT> a2 = a2_.template Get<SrcAT>();
      const LocalTensor<SrcBT> b2 = b2_.template Get<SrcBT>();
      if (s == 0 && bias) {
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
    constexpr uint32_t frac = 512 / sizeof(T);
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

  // Where a base block lies in an operand given in NZ: its first row and
  // column in the operand as stored (the transposed shape for a transposed
  // operand), its rows and columns, and the stored matrix's rows rounded
  // up to 16 (one column block's length).
  struct NzPart {
    uint32_t row0, col0, rows, cols, whole_rows;
  };

  // A base block of an operand stored in NZ: its column blocks are
  // contiguous runs of rows in GM, so one strided DataCopy moves them into
  // the layout ND2NZ would have made (column blocks Ceil16(rows) apart).
  template <typename T>
  static void CopyNzPart(const LocalTensor<T>& dst, const GlobalTensor<T>& nz,
                         const NzPart& p, const char* which) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    if (p.row0 % 16 != 0 || p.col0 % c0 != 0) {
      normgrad_ascendc::Fail(
          "Matmul: %s in NZ is read in whole fractals, but a base block "
          "starts at row %u, column %u of it (rows in 16s, columns in %u "
          "for %s: make the base blocks such multiples)",
          which, p.row0, p.col0, c0, normgrad_ascendc::TypeName<T>());
    }
    const uint32_t rows = Ceil16(p.rows);
    DataCopyParams move;
    move.blockCount = static_cast<uint16_t>((p.cols + c0 - 1) / c0);
    move.blockLen = static_cast<uint16_t>(rows);  // 32-byte rows
    move.srcStride = static_cast<uint16_t>(p.whole_rows - rows);
    DataCopy(dst, nz[(uint64_t{p.col0} / c0 * p.whole_rows + p.row0) * c0],
             move);
  }

  // A's base block into L1 as the object's layout wants it: the ND2NZ move
  // `nz` from `src`, or the kernel's CopyA1 callback (MM_CB), which gets
  // the block's indices along M and K and its size and must write the same
  // layout.
  void CopyA1(const LocalTensor<SrcAT>& a1, const GlobalTensor<SrcAT>& src,
              const Nd2NzParams& nz, const NzPart& part, uint32_t m0,
              uint32_t k0, uint32_t cur_m, uint32_t cur_k) {
    if constexpr (MM_CB::kCopyA1) {
      MM_CB::CopyA1Ptr(a1.template ReinterpretCast<int8_t>(),
                       reinterpret_cast<__gm__ void*>(a_gm_.GetPhyAddr()),
                       static_cast<int>(m0 / tiling_.baseM),
                       static_cast<int>(k0 / tiling_.baseK),
                       static_cast<int>(cur_m), static_cast<int>(cur_k),
                       user_def_info_, self_define_data_);
    } else if constexpr (A_TYPE::format == CubeFormat::NZ) {
      CopyNzPart(a1, a_gm_, part, "A");
    } else {
      DataCopy(a1, src, nz);
    }
  }

  // B's base block into L1: ND2NZ, or the CopyB1 callback (indices along
  // K and N).
  void CopyB1(const LocalTensor<SrcBT>& b1, const GlobalTensor<SrcBT>& src,
              const Nd2NzParams& nz, const NzPart& part, uint32_t k0,
              uint32_t n0, uint32_t cur_k, uint32_t cur_n) {
    if constexpr (MM_CB::kCopyB1) {
      MM_CB::CopyB1Ptr(b1.template ReinterpretCast<int8_t>(),
                       reinterpret_cast<__gm__ void*>(b_gm_.GetPhyAddr()),
                       static_cast<int>(k0 / tiling_.baseK),
                       static_cast<int>(n0 / tiling_.baseN),
                       static_cast<int>(cur_k), static_cast<int>(cur_n),
                       user_def_info_, self_define_data_);
    } else if constexpr (B_TYPE::format == CubeFormat::NZ) {
      CopyNzPart(b1, b_gm_, part, "B");
    } else {
      DataCopy(b1, src, nz);
    }
  }

  // A's (cur_m × cur_k) part at (m0, k0): GM → L1 (Nz) → L0A (Zz).
  void LoadA(uint32_t m0, uint32_t k0, uint32_t cur_m, uint32_t cur_k) {
    constexpr uint32_t frac = 512 / sizeof(SrcAT);
    const LocalTensor<SrcAT> a1 = a1_.template Get<SrcAT>();
    const LocalTensor<SrcAT> a2 = a2_.template Get<SrcAT>();
    Nd2NzParams nz;
    nz.ndNum = 1;
    nz.dstNzNStride = 1;
    const uint32_t m_pad = Ceil16(cur_m);
    const uint32_t k_pad = CeilC0<SrcAT>(cur_k);
    if (!trans_a_) {  // A is [M, K]: rows of M, C0 blocks of K
      nz.nValue = static_cast<uint16_t>(cur_m);
      nz.dValue = static_cast<uint16_t>(cur_k);
      nz.srcDValue = RowLength("orgKa", org_ka_);
      nz.dstNzC0Stride = static_cast<uint16_t>(m_pad);
      CopyA1(a1, a_gm_[uint64_t{m0} * org_ka_ + k0], nz,
             {m0, k0, cur_m, cur_k, Ceil16(org_m_)}, m0, k0, cur_m, cur_k);
      const uint32_t m1 = m_pad / 16, k1 = k_pad / (32 / sizeof(SrcAT));
      for (uint32_t i = 0; i < m1; ++i) {
        LoadFractals(a2[i * k1 * frac], a1[i * frac], k1, m1, false);
      }
    } else {  // A is [K, M] (16-bit): each 16 x 16 fractal transposed
      const uint32_t k_rows = Ceil16(cur_k);
      nz.nValue = static_cast<uint16_t>(cur_k);
      nz.dValue = static_cast<uint16_t>(cur_m);
      nz.srcDValue = RowLength("orgM", org_m_);
      nz.dstNzC0Stride = static_cast<uint16_t>(k_rows);
      CopyA1(a1, a_gm_[uint64_t{k0} * org_m_ + m0], nz,
             {k0, m0, cur_k, cur_m, Ceil16(org_ka_)}, m0, k0, cur_m, cur_k);
      const uint32_t m1 = m_pad / 16, k1 = k_rows / 16;
      for (uint32_t i = 0; i < m1; ++i) {
        LoadFractals(a2[i * k1 * frac], a1[i * k1 * frac], k1, 1, true);
      }
    }
  }

  // B's (cur_k × cur_n) part at (k0, n0): GM → L1 (Nz) → L0B (Zn).
  void LoadB(uint32_t k0, uint32_t n0, uint32_t cur_k, uint32_t cur_n) {
    constexpr uint32_t frac = 512 / sizeof(SrcBT);
    const LocalTensor<SrcBT> b1 = b1_.template Get<SrcBT>();
    const LocalTensor<SrcBT> b2 = b2_.template Get<SrcBT>();
    Nd2NzParams nz;
    nz.ndNum = 1;
    nz.dstNzNStride = 1;
    const uint32_t n_pad = Ceil16(cur_n);
    if (!trans_b_) {  // B is [K, N] (16-bit): each fractal transposed
      const uint32_t k_rows = Ceil16(cur_k);
      nz.nValue = static_cast<uint16_t>(cur_k);
      nz.dValue = static_cast<uint16_t>(cur_n);
      nz.srcDValue = RowLength("orgN", org_n_);
      nz.dstNzC0Stride = static_cast<uint16_t>(k_rows);
      CopyB1(b1, b_gm_[uint64_t{k0} * org_n_ + n0], nz,
             {k0, n0, cur_k, cur_n, Ceil16(org_kb_)}, k0, n0, cur_k, cur_n);
      const uint32_t k1 = k_rows / 16, n1 = n_pad / 16;
      for (uint32_t i = 0; i < k1; ++i) {
        LoadFractals(b2[i * n1 * frac], b1[i * frac], n1, k1, true);
      }
    } else {  // B is [N, K]: its Nz is B's Zn
      nz.nValue = static_cast<uint16_t>(cur_n);
      nz.dValue = static_cast<uint16_t>(cur_k);
      nz.srcDValue = RowLength("orgKb", org_kb_);
      nz.dstNzC0Stride = static_cast<uint16_t>(n_pad);
      CopyB1(b1, b_gm_[uint64_t{n0} * org_kb_ + k0], nz,
             {n0, k0, cur_n, cur_k, Ceil16(org_n_)}, k0, n0, cur_k, cur_n);
      const uint32_t k1 = CeilC0<SrcBT>(cur_k) / (32 / sizeof(SrcBT));
      const uint32_t n1 = n_pad / 16;
      for (uint32_t i = 0; i < k1; ++i) {
        LoadFractals(b2[i * n1 * frac], b1[i * n1 * frac], n1, 1, false);
      }
    }
  }

  // The bias's cur_n values at n0: GM → L1 (C1) → bias table (C2).
  void LoadBias(uint32_t n0, uint32_t cur_n) {
    const LocalTensor<BiasT> l1 = bias1_.template Get<BiasT>();
    Nd2NzParams nz;
    nz.ndNum = 1;
    nz.nValue = 1;
    nz.dValue = static_cast<uint16_t>(cur_n);
    nz.srcDValue = static_cast<uint16_t>(cur_n);
    nz.dstNzC0Stride = 1;
    nz.dstNzNStride = 1;
    DataCopy(l1, bias_gm_[n0], nz);
    DataCopyParams move;
    move.blockCount = 1;
    move.blockLen = static_cast<uint16_t>((uint64_t{cur_n} * 4 + 63) / 64);
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
      if (cur_n % 16 != 0) {
        normgrad_ascendc::Fail(
            "Matmul::GetTensorC: C in NZ needs N blocks of whole 16 columns; "
            "this block has %u (singleCoreN %d, baseN %d)",
            cur_n, single_n_, tiling_.baseN);
      }
      const uint64_t col_rows = sequential ? Ceil16(cur_m) : Ceil16(org_m_);
      out.dstStride = static_cast<uint32_t>(col_rows * 16 * sizeof(DstT) / 32);
      offset = sequential ? 0 : uint64_t{n0} * col_rows + uint64_t{m0} * 16;
    } else {
      uint32_t stride = sequential ? tiling_.baseN : row;
      if constexpr (C_TYPE::format == CubeFormat::ND_ALIGN) {
        constexpr uint32_t per32 = 32 / sizeof(DstT);
        stride = (stride + per32 - 1) / per32 * per32;
      }
      out.dstStride = stride;
      offset = sequential ? 0 : uint64_t{m0} * stride + n0;
    }
    SetAtomic(atomic);
    const LocalTensor<L0cT> c = c1_.template Get<L0cT>();
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
          "bfloat16_t inputs into int8_t",
          api, normgrad_ascendc::TypeName<DstT>(),
          normgrad_ascendc::TypeName<SrcAT>());
    }
  }

  static void SetAtomic(uint8_t atomic) {
    if (atomic == 1) SetAtomicAdd<DstT>();
    if (atomic == 2) SetAtomicMax<DstT>();
    if (atomic == 3) SetAtomicMin<DstT>();
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
  GlobalTensor<DstT> scratch_gm_;
  GlobalTensor<SrcAT> a_gm_;
  GlobalTensor<SrcBT> b_gm_;
  GlobalTensor<BiasT> bias_gm_;
  bool a_set_ = false, b_set_ = false, bias_on_ = false;
  bool trans_a_ = false, trans_b_ = false;
  int org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, org_kc_ = 0;
  int single_m_ = 0, single_n_ = 0, single_k_ = 0;
  uint32_t next_ = 0, m_idx_ = 0, n_idx_ = 0;
  bool have_block_ = false;
  uint8_t sub_block_idx_ = 0;
  uint32_t batch_a_ = 1, batch_b_ = 1;  // SetBatchNum
  std::vector<uint8_t> batch_stage_;    // IterateBatch into the UB
  GlobalTensor<DstT> workspace_;        // SetWorkspace
  uint64_t workspace_elems_ = 0;        // 0: size unknown
  bool workspace_set_ = false;
  NBatchState nbatch_;
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

// c_api/cube_compute/cube_compute.h — the C API's matrix computation on
// Atlas A2/A3 (docs/capi.md, "The cube side"): asc_mmad (Mmad: C = A × B
// plus the initial C), asc_mmad_s4 (int4b_t inputs), and the Mmad mode
// registers: HF32 rounding of float inputs (asc_enable_hf32,
// asc_set_fp32_mode, asc_enable_hf32_trans: SetHF32Mode and
// SetHF32TransMode) and the order the cube walks its output
// (asc_set_mmad_direction_m/n: SetMMColumnMajor/SetMMRowMajor, which change
// no value); and the fixpipe buffer's quantization parameters for
// asc_copy_l0c2gm (asc_set_l0c2gm_config: SetFixPipeConfig) with their
// getters. Pointers are mapped as normgrad_ascendc/capi/capi_cube.h says;
// every function is cube-only.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_mx.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/float8.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

namespace normgrad_ascendc {

/// The arguments of asc_mmad, as its page names them.
struct CapiMmadArgs {
  uint16_t left_height;  ///< M
  uint16_t n_dim;        ///< K: A's width and B's height
  uint16_t right_width;  ///< N
  uint8_t unit_flag;
  bool k_direction_align;  ///< disable_gemv on the 950
  bool is_weight_offset;
  bool c_matrix_source;
  bool c_matrix_init_val;
};
/// Mmad on the L0C, L0A and L0B operands the pointers name.
void CapiMmad(const char* api, CubeType c_type, CubeType a_type,
              CubeType b_type, void* c, void* a, void* b,
              const CapiMmadArgs& args, const CallSite& site);
/// MmadWithSparse on the L0C, L0A and L0B operands the pointers name.
void CapiMmadSparse(const char* api, void* c, void* a, void* b, uint16_t m,
                    uint16_t k, uint16_t n, uint8_t unit_flag,
                    bool c_matrix_source, bool c_matrix_init_val,
                    const CallSite& site);
/// The fixpipe settings of asc_set_l0c2gm_config and their getters.
void CapiSetL0c2GmConfig(uint64_t relu_pre, uint64_t quant_pre,
                         bool enable_unit_flag, const CallSite& site);
enum class L0c2GmSetting : uint8_t { kPrequant, kRelu, kUnitFlag };
uint64_t CapiGetL0c2Gm(const char* api, L0c2GmSetting setting,
                       const CallSite& site);
/// The mode registers (each cube-only).
void CapiSetHf32(const char* api, bool on, const CallSite& site);
void CapiSetHf32Trans(uint32_t mode, const CallSite& site);
void CapiSetMmadDirection(const char* api, const CallSite& site);

/// The pairs of asc_mmad: (C, A and B); the 8-bit floats are the 950's.
template <typename C, typename A>
inline constexpr bool kCapiMmadPair =
    (std::is_same_v<C, int32_t> && std::is_same_v<A, int8_t>) ||
    (std::is_same_v<C, float> &&
     (std::is_same_v<A, half> || std::is_same_v<A, float> ||
      std::is_same_v<A, bfloat16_t> || std::is_same_v<A, fp8_e4m3fn_t> ||
      std::is_same_v<A, fp8_e5m2_t> || std::is_same_v<A, hifloat8_t>));

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_MMAD(name, pair_rule, pairs)                             \
  template <typename C, typename A>                                            \
  void name(__cc__ C* c_matrix, __ca__ A* a_matrix, __cb__ A* b_matrix,        \
            uint16_t left_height, uint16_t n_dim, uint16_t right_width,        \
            uint8_t unit_flag, bool k_direction_align, bool c_matrix_source,   \
            bool c_matrix_init_val, normgrad_ascendc::CallSite site = {}) {    \
    static_assert(pair_rule, #name                                             \
                  ": (c_matrix, a_matrix and b_matrix) "                       \
                  "must be " pairs);                                           \
    normgrad_ascendc::CapiMmad(                                                \
        #name, normgrad_ascendc::CubeTypeOf<C>(),                              \
        normgrad_ascendc::CubeTypeOf<A>(), normgrad_ascendc::CubeTypeOf<A>(),  \
        c_matrix, a_matrix, b_matrix,                                          \
        {left_height, n_dim, right_width, unit_flag, k_direction_align, false, \
         c_matrix_source, c_matrix_init_val},                                  \
        site);                                                                 \
  }                                                                            \
  /* The form with the sparse weight offset: feat_offset is reserved, and */   \
  /* is_weight_offset must be false (no weight offset is emulated). */         \
  template <typename C, typename A>                                            \
  void name(__cc__ C* c_matrix, __ca__ A* a_matrix, __cb__ A* b_matrix,        \
            uint16_t left_height, uint16_t n_dim, uint16_t right_width,        \
            uint8_t feat_offset, uint8_t smask_offset, uint8_t unit_flag,      \
            bool k_direction_align, bool is_weight_offset,                     \
            bool c_matrix_source, bool c_matrix_init_val,                      \
            normgrad_ascendc::CallSite site = {}) {                            \
    static_assert(pair_rule, #name                                             \
                  ": (c_matrix, a_matrix and b_matrix) "                       \
                  "must be " pairs);                                           \
    (void)feat_offset;                                                         \
    (void)smask_offset;                                                        \
    normgrad_ascendc::CapiMmad(                                                \
        #name, normgrad_ascendc::CubeTypeOf<C>(),                              \
        normgrad_ascendc::CubeTypeOf<A>(), normgrad_ascendc::CubeTypeOf<A>(),  \
        c_matrix, a_matrix, b_matrix,                                          \
        {left_height, n_dim, right_width, unit_flag, k_direction_align,        \
         is_weight_offset, c_matrix_source, c_matrix_init_val},                \
        site);                                                                 \
  }

#define NORMGRAD_CAPI_MMAD_PAIRS                                            \
  "(int32_t, int8_t), (float, half), (float, float), (float, bfloat16_t), " \
  "(float, fp8_e4m3fn_t), (float, fp8_e5m2_t) or (float, hifloat8_t)"
/// C (left_height × right_width, L0C, Nz) = A (left_height × n_dim, L0A, Zz)
/// × B (n_dim × right_width, L0B, Zn), starting from 0
/// (c_matrix_init_val) or from what L0C holds (c_matrix_source false).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_MMAD, asc_mmad,
                        (normgrad_ascendc::kCapiMmadPair<C, A>),
                        NORMGRAD_CAPI_MMAD_PAIRS)
/// asc_mmad on int4b_t inputs (two a byte) into int32_t.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_MMAD, asc_mmad_s4,
                        (std::is_same_v<C, int32_t> &&
                         std::is_same_v<A, AscendC::int4b_t>),
                        "(int32_t, int4b_t)")
#undef NORMGRAD_CAPI_MMAD_PAIRS
#undef NORMGRAD_CAPI_MMAD

#define NORMGRAD_CAPI_MMAD_SPARSE(name, T)                                  \
  inline void name(__cc__ int32_t* c, __ca__ T* a, __cb__ T* b, uint16_t m, \
                   uint16_t k, uint16_t n, uint8_t unit_flag,               \
                   bool c_matrix_source, bool c_matrix_init_val,            \
                   normgrad_ascendc::CallSite site = {}) {                  \
    normgrad_ascendc::CapiMmadSparse(#name, c, a, b, m, k, n, unit_flag,    \
                                     c_matrix_source, c_matrix_init_val,    \
                                     site);                                 \
  }
/// C (m × n, int32_t, L0C) = A (m × k, int8_t, L0A) × the 4:2 sparse B whose
/// densified values and indices asc_copy_l12l0b_sparse loaded into L0B
/// (MmadWithSparse), starting from 0 (c_matrix_init_val) or from L0C.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_MMAD_SPARSE, asc_mmad_sparse, int8_t)
#undef NORMGRAD_CAPI_MMAD_SPARSE

/// Mmad rounds float inputs to HF32 (SetHF32Mode(ENABLE)).
inline void asc_enable_hf32(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetHf32("asc_enable_hf32", true, site);
}
/// Mmad takes float inputs as they are (SetHF32Mode(DISABLE)).
inline void asc_set_fp32_mode(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetHf32("asc_set_fp32_mode", false, site);
}
/// The HF32 rounding: 0 ties to even, 1 ties away from zero
/// (SetHF32TransMode NEAREST_EVEN / NEAREST_ZERO); other modes are refused.
inline void asc_enable_hf32_trans(uint32_t mode,
                                  normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetHf32Trans(mode, site);
}
/// The cube walks its output along M first, or along N first: every value
/// and its place in L0C are the same either way (docs/cube.md, "Mmad
/// modes"), so these only check that the core is a cube core.
inline void asc_set_mmad_direction_m(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetMmadDirection("asc_set_mmad_direction_m", site);
}
inline void asc_set_mmad_direction_n(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetMmadDirection("asc_set_mmad_direction_n", site);
}

/// The per-column quantization parameters of asc_copy_l0c2gm's vector modes:
/// `quant_pre` is their fixpipe-buffer address (from asc_get_phy_buf_addr);
/// `relu_pre` is reserved and must be 0 (SetFixPipeConfig's reluPre);
/// `enable_unit_flag` is kept for asc_get_l0c2gm_unitflag.
inline void asc_set_l0c2gm_config(uint64_t relu_pre, uint64_t quant_pre,
                                  bool enable_unit_flag,
                                  normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL0c2GmConfig(relu_pre, quant_pre, enable_unit_flag,
                                        site);
}
/// What asc_set_l0c2gm_config set in this block (0 before it): the quant
/// parameters' address as asc_get_phy_buf_addr gives it, the ReLU address
/// (0), the unit flag (0 or 1).
inline uint64_t asc_get_l0c2gm_prequant(normgrad_ascendc::CallSite site = {}) {
  return normgrad_ascendc::CapiGetL0c2Gm(
      "asc_get_l0c2gm_prequant", normgrad_ascendc::L0c2GmSetting::kPrequant,
      site);
}
inline uint64_t asc_get_l0c2gm_relu(normgrad_ascendc::CallSite site = {}) {
  return normgrad_ascendc::CapiGetL0c2Gm(
      "asc_get_l0c2gm_relu", normgrad_ascendc::L0c2GmSetting::kRelu, site);
}
inline uint64_t asc_get_l0c2gm_unitflag(normgrad_ascendc::CallSite site = {}) {
  return normgrad_ascendc::CapiGetL0c2Gm(
      "asc_get_l0c2gm_unitflag", normgrad_ascendc::L0c2GmSetting::kUnitFlag,
      site);
}

/// The Ascend 950's NZ2ND register, which its copies out of L0C
/// (asc_copy_l0c2gm, asc_copy_l0c2l1, asc_copy_l0c2ub) read with nz2nd_en:
/// nd_num matrices (1..65535), src_nd_stride (0..65535) 16-value rows of
/// L0C from one source matrix's start to the next one's, dst_nd_stride
/// (1..2^32 - 1) elements between the destination matrices (docs/capi.md
/// on the unit of src_nd_stride). Not set in the block: one matrix.
/// Refused on Atlas A2/A3 (asc_set_l0c_copy_params sets theirs).
void asc_set_l0c2gm_nz2nd(uint64_t nd_num, uint64_t src_nd_stride,
                          uint64_t dst_nd_stride,
                          normgrad_ascendc::CallSite site = {});

// ---- The 950's 8-bit floats and MX (docs/capi.md, "The 950's 8-bit floats
// and MX"; cube/cube_mx.h) ----

namespace normgrad_ascendc {

/// MmadMx on the L0C, L0A and L0B operands the pointers name (the scales at
/// their addresses / 16); `args.k_direction_align` is disable_gemv.
void CapiMmadMx(const char* api, CubeType a_type, CubeType b_type, void* c,
                void* a, void* b, const CapiMmadArgs& args,
                const CallSite& site);
/// asc_enable_hif8 (`hif8` true) and asc_enable_fp8.
void CapiSetFloat8Mode(const char* api, bool hif8, const CallSite& site);

/// The 950's mixed FP8 pairs of asc_mmad (A's type is not B's).
template <typename A, typename B>
inline constexpr bool kCapiMixedFp8 =
    !std::is_same_v<A, B> &&
    (std::is_same_v<A, fp8_e4m3fn_t> || std::is_same_v<A, fp8_e5m2_t>)&&(
        std::is_same_v<B, fp8_e4m3fn_t> || std::is_same_v<B, fp8_e5m2_t>);

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_MMAD_950(name, run, pair_rule)                        \
  template <typename A, typename B, std::enable_if_t<(pair_rule), int> = 0> \
  void name(__cc__ float* c_matrix, __ca__ A* a_matrix, __cb__ B* b_matrix, \
            uint16_t left_height, uint16_t n_dim, uint16_t right_width,     \
            uint8_t unit_flag, bool disable_gemv, bool c_matrix_source,     \
            bool c_matrix_init_val, normgrad_ascendc::CallSite site = {}) { \
    normgrad_ascendc::run(                                                  \
        #name, normgrad_ascendc::CubeTypeOf<A>(),                           \
        normgrad_ascendc::CubeTypeOf<B>(), c_matrix, a_matrix, b_matrix,    \
        {left_height, n_dim, right_width, unit_flag, disable_gemv, false,   \
         c_matrix_source, c_matrix_init_val},                               \
        site);                                                              \
  }

namespace normgrad_ascendc {
inline void CapiMmadFloat(const char* api, CubeType a_type, CubeType b_type,
                          void* c, void* a, void* b, const CapiMmadArgs& args,
                          const CallSite& site) {
  CapiMmad(api, CubeType::kFloat, a_type, b_type, c, a, b, args, site);
}
}  // namespace normgrad_ascendc

/// asc_mmad with A fp8_e4m3fn_t and B fp8_e5m2_t or the other way round
/// (the same-type 8-bit float pairs are asc_mmad's own template above).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_MMAD_950, asc_mmad, CapiMmadFloat,
                        (normgrad_ascendc::kCapiMixedFp8<A, B>))
/// C (float, L0C) = (scaleA ⊗ A) × (scaleB ⊗ B) + the initial C: MmadMx,
/// the scales in L0A_MX / L0B_MX at A's and B's addresses / 16.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_MMAD_950, asc_mmad_mx, CapiMmadMx,
                        (AscendC::cube_detail::kMmadMxPair<A, B>))
#undef NORMGRAD_CAPI_MMAD_950

/// Mmad reads every 8-bit float operand (fp8_e4m3fn_t, fp8_e5m2_t,
/// hifloat8_t) as hifloat8_t.
inline void asc_enable_hif8(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetFloat8Mode("asc_enable_hif8", true, site);
}
/// Mmad reads FP8 operands as their types and refuses hifloat8_t ones.
inline void asc_enable_fp8(normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetFloat8Mode("asc_enable_fp8", false, site);
}

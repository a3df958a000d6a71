// c_api/cube_datamove/cube_datamove.h — the C API's matrix data movement on
// Atlas A2/A3 (docs/capi.md, "The cube side"): GM → L1 (bytes, bursts,
// 512-byte fractals, ND → Nz), GM → L0A/L0B, L1 → GM, L1 → L0A/L0B
// (fractals, img2col with its registers, transposed squares), L0C → GM and
// L0C → L1 with the fixpipe settings, and the fills of L1, L0A and L0B. Each
// function runs the C++ cube instruction it names in its comment on the same
// core (cube/cube_api.h, runtime/data_copy.h), so the bytes are the same by
// construction; its pointers are mapped as normgrad_ascendc/capi/capi_cube.h
// says, its own argument ranges are checked with its argument names, and the
// C++ instruction's rules follow under the asc_* name. Every function is
// cube-only: on a vector core it is refused as the C++ instructions are.
// The _sync forms compute the same thing (docs/capi.md, "Pipes and _sync"):
// each comes from its function's definition by NORMGRAD_CAPI_WITH_SYNC
// (capi/capi_cube.h).
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_img2col.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/cube/cube_mx.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

/// The repeats, blocks and gap of asc_fill_l0a/l0b/l1: `repeat` runs of
/// `blk_num` blocks with `dst_gap` blocks from one run's end to the next
/// one's start; a block is 32 bytes in L1 and 512 bytes in L0A/L0B. Each
/// field is 15 bits wide (0..32767), at bits 0, 16 and 32 of `config`.
constexpr uint64_t ASC_FILL_VALUE_DEFAULT_VALUE = 0;
union asc_fill_value_config {
  uint64_t config = ASC_FILL_VALUE_DEFAULT_VALUE;
  __extension__ struct {
    uint64_t repeat : 15;
    uint64_t reserved1 : 1;
    uint64_t blk_num : 15;
    uint64_t reserved2 : 1;
    uint64_t dst_gap : 15;
    uint64_t reserved3 : 17;
  };
};

/// The feature map of the 3D copies (asc_set_l13d_fmatrix/_b): its height
/// and width (1..32767) and its padding on each side (0..255), from the low
/// byte of `config` up.
constexpr uint64_t ASC_DEFAULT_L13D_FMATRIX_CONFIG_VALUE = 0;
union asc_l13d_fmatrix_config {
  uint64_t config = ASC_DEFAULT_L13D_FMATRIX_CONFIG_VALUE;
  __extension__ struct {
    uint16_t l1_height;
    uint16_t l1_width;
    uint8_t padding_left_size;
    uint8_t padding_right_size;
    uint8_t padding_top_size;
    uint8_t padding_bottom_size;
  };
};

/// The repeat of the 3D copies (asc_set_l13d_rpt): rpt_time windows (bits
/// 16..23, 1 by default), each rpt_stride (bits 0..15) further along the
/// rows (rpt_mode 0, bit 24) or the columns (1).
constexpr uint64_t ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE = 0x0000000000010000;
union asc_load3d_v2_config {
  uint64_t config = ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE;
  __extension__ struct {
    uint64_t rpt_stride : 16;
    uint64_t rpt_time : 8;
    uint64_t rpt_mode : 1;
    uint64_t reserved2 : 39;
  };
};

namespace normgrad_ascendc {

/// An element type as the C API's cube functions pass it on.
struct CapiCubeType {
  const char* name;
  uint32_t bytes;  ///< sizeof(T), as the C++ instruction's template passes
  CubeType type;
};
template <typename T>
constexpr CapiCubeType CapiCubeTypeOf() {
  return {TypeName<T>(), sizeof(T), CubeTypeOf<T>()};
}
/// asc_copy_l0c2l1's `void` destination (the int4b_t outputs, which are not
/// emulated) is refused at run time with the rest of its rules.
template <typename T>
constexpr CapiCubeType CapiL0c2L1TypeOf() {
  if constexpr (std::is_same_v<T, void>) {
    return {"void", 0, CubeType::kOther};
  } else {
    return CapiCubeTypeOf<T>();
  }
}

/// GM → L1 or L1 → GM: `size` bytes (count form) or bursts (DataCopy).
struct CapiBursts {
  bool count_form;
  uint32_t size;
  uint16_t n_burst;
  uint16_t len_burst;
  uint16_t src_gap;
  uint16_t dst_gap;
};
void CapiCopyGmL1(const char* api, bool to_l1, void* dst, void* src,
                  const CapiBursts& bursts, const CallSite& site);
/// L1 → the bias table (asc_copy_l12bt: `dst` the bias-table address / 16,
/// as the page's example encodes it; `src_type` the source pointer's element
/// type, "void" for the untyped form; `conv_control` widens half, and on the
/// 950 bfloat16_t, to float) or the fixpipe buffer (asc_copy_l12fb), in the
/// C API pages' units: `size` bytes, or bursts with gaps from a burst's end
/// to the next one's start (docs/capi.md maps them onto DataCopy's units,
/// which differ between Atlas A2/A3 and the 950).
void CapiCopyL1ToBiasTable(const char* api, const char* src_type, uint64_t dst,
                           void* src, const CapiBursts& bursts,
                           uint16_t conv_control, const CallSite& site);
void CapiCopyL1ToFixpipeBuffer(const char* api, void* dst, void* src,
                               const CapiBursts& bursts, const CallSite& site);
/// L1 → L0C (asc_copy_l12l0c): `n_burst` bursts of `len_burst` 32-byte
/// blocks of L0C, the gaps in 32-byte blocks from a burst's end to the next
/// one's start on each side; float into half or bfloat16_t rounds to nearest
/// even, and its source bursts are twice as long (docs/capi.md).
void CapiCopyL1ToL0c(const char* api, const CapiCubeType& dst_type,
                     const CapiCubeType& src_type, void* dst, void* src,
                     const CapiBursts& bursts, const CallSite& site);
/// The (L0C, L1) type pairs of asc_copy_l12l0c's page.
template <typename D, typename S>
inline constexpr bool kCapiL12L0cPair =
    (std::is_same_v<D, S> &&
     (std::is_same_v<D, bfloat16_t> || std::is_same_v<D, half> ||
      std::is_same_v<D, float> || std::is_same_v<D, int32_t> ||
      std::is_same_v<D, uint32_t>)) ||
    ((std::is_same_v<D, half> ||
      std::is_same_v<D, bfloat16_t>)&&std::is_same_v<S, float>);
/// asc_set_l0c2gm_lrelu_alpha: refused (docs/capi.md): no Atlas A2/A3 copy
/// out of L0C reads a Leaky ReLU alpha.
[[noreturn]] void CapiSetL0c2GmLreluAlpha(float alpha, const CallSite& site);
/// GM → L1 (A1), L0A (A2) or L0B (B2) by 512-byte fractals (LoadData 2D
/// from GM).
void CapiCopyGmFractals(const char* api, const CapiCubeType& type,
                        AscendC::TPosition to, void* dst, void* src,
                        uint16_t base_idx, uint8_t repeat, uint16_t src_stride,
                        uint16_t dst_gap, const CallSite& site);
/// L1 → L0A (A2) or L0B (B2) by img2col from the feature-map registers
/// (LoadData 3D, as the v2 Pro form: the map and the pad value come from
/// asc_set_l13d_fmatrix and asc_set_l13d_padding).
/// `only_950`: T is one of the types the 950's pages add (kCapiL13d950Type).
void CapiCopyL1ToL0Img2col(const char* api, const CapiCubeType& type,
                           uint32_t elem_bits, bool only_950,
                           AscendC::TPosition to, void* dst, void* src,
                           const Img2colFields& fields, const CallSite& site);
/// L1 → L0A (A2) or L0B (B2), square by square, each transposed
/// (LoadDataWithTranspose).
void CapiCopyL1ToL0Transposed(const char* api, const CapiCubeType& type,
                              AscendC::TPosition to, void* dst, void* src,
                              const AscendC::LoadData2dTransposeParams& params,
                              const CallSite& site);
/// The 3D copies' registers: SetFmatrix (left or right), the pad value
/// (SetLoadDataPaddingValue), the repeat (SetLoadDataRepeat) and the L1
/// boundary (SetLoadDataBoundary).
void CapiSetL13dFmatrix(const char* api, const asc_l13d_fmatrix_config& config,
                        AscendC::FmatrixMode mode, const CallSite& site);
void CapiSetL13dPadding(const char* type, uint32_t bytes, const void* value,
                        const CallSite& site);
void CapiSetL13dRepeat(const asc_load3d_v2_config& config,
                       const CallSite& site);
void CapiSetL13dSize(uint64_t value, const CallSite& site);
/// GM → L1 with ND → Nz (DataCopy with Nd2NzParams).
void CapiCopyNd2Nz(const char* api, const CapiCubeType& type, void* dst,
                   void* src, const AscendC::Nd2NzParams& params,
                   const CallSite& site);
/// L1 → L0A (A2) or L0B (B2) by 512-byte fractals (LoadData 2D).
void CapiCopyL1ToL0(const char* api, const CapiCubeType& type,
                    AscendC::TPosition to, void* dst, void* src,
                    uint16_t start_index, uint8_t repeat, uint16_t src_stride,
                    uint16_t dst_gap, const CallSite& site);
/// L1 → L0B of the densified 4:2 sparse B with its index fractals beside
/// (LoadDataWithSparse): `repeat` 512-byte fractals from fractal
/// `start_index` of `src`, and as many 128-byte fractals of `index`.
void CapiCopyL1ToL0bSparse(const char* api, void* dst, void* src, void* index,
                           uint16_t start_index, uint8_t repeat,
                           const CallSite& site);
/// The arguments of asc_copy_l0c2gm, as its page names them.
struct CapiL0cCopy {
  uint16_t n_size;
  uint16_t m_size;
  uint32_t dst_stride_dst_d;
  uint16_t src_stride;
  uint8_t unit_flag_mode;
  uint64_t quant_pre;
  uint8_t relu_pre;
  bool channel_split;
  bool nz2nd_en;
};
/// L0C → GM through the fixpipe settings (DataCopy L0C → GM), or (`dst` in
/// L1) L0C → L1 (Fixpipe L0C → L1 with the same settings).
void CapiCopyL0cOut(bool to_l1, const char* api, const CapiCubeType& dst_type,
                    const CapiCubeType& src_type, void* dst, void* src,
                    const CapiL0cCopy& args, const CallSite& site);
/// asc_set_l0c_copy_params (SetFixpipeNz2ndFlag) and
/// asc_set_l0c_copy_prequant (SetFixpipePreQuantFlag).
void CapiSetL0cCopyParams(uint16_t nd_num, uint16_t src_nd_stride,
                          uint16_t dst_nd_stride, const CallSite& site);
void CapiSetL0cCopyPrequant(uint64_t config, const CallSite& site);
/// Fill of L1 (A1), L0A (A2) or L0B (B2): `value_bytes` bytes at `value`
/// make each element of `type` (docs/capi.md says which pairs are taken).
void CapiFill(const char* api, const CapiCubeType& type, AscendC::TPosition to,
              void* dst, const void* value, const char* value_type,
              uint32_t value_bytes, const asc_fill_value_config& config,
              const CallSite& site);

/// The element types of each family, as their pages list them.
template <typename T>
inline constexpr bool kCapiGm2L1FractalType =
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, float> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, uint8_t>;
/// GM → L0A/L0B: the fractal types of the GM → L0 LoadData (its page lists
/// int4b_t too, which the C++ GM form does not take: docs/capi.md).
template <typename T>
inline constexpr bool kCapiGm2L0Type =
    kCapiGm2L1FractalType<T> && !std::is_same_v<T, AscendC::int4b_t>;
/// The 3D copies' types: into L0A those of LoadData 3D, into L0B the 16-
/// and 32-bit ones.
template <typename T>
inline constexpr bool kCapiL13dL0bType =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, float>;
/// The types the 950's 3D copies add to Atlas A2/A3's (their
/// asc_copy_l12l0a / asc_copy_l12l0b pages); on Atlas A2/A3 a call with one
/// is refused.
template <typename T>
inline constexpr bool kCapiL13d950Type =
    std::is_same_v<T, fp8_e4m3fn_t> || std::is_same_v<T, fp8_e5m2_t> ||
    std::is_same_v<T, hifloat8_t> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t>;
/// The transposing copies' types (LoadDataWithTranspose's, less int4b_t).
template <typename T>
inline constexpr bool kCapiTransType =
    std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
    std::is_same_v<T, float>;
template <typename T>
inline constexpr bool kCapiNd2NzType =
    std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, int16_t> || std::is_same_v<T, float> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t>;
template <typename T>
inline constexpr bool kCapiL12L0Type =
    std::is_same_v<T, AscendC::int4b_t> || std::is_same_v<T, uint8_t> ||
    std::is_same_v<T, int8_t> || std::is_same_v<T, half> ||
    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, float>;
template <typename D, typename S>
inline constexpr bool kCapiL0c2GmPair =
    (std::is_same_v<S, float> &&
     (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
      std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t> ||
      std::is_same_v<D, float>)) ||
    (std::is_same_v<S, int32_t> &&
     (std::is_same_v<D, half> || std::is_same_v<D, int16_t> ||
      std::is_same_v<D, int8_t> || std::is_same_v<D, int32_t>));
template <typename D, typename S>
inline constexpr bool kCapiL0c2L1Pair =
    (std::is_same_v<S, float> &&
     (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
      std::is_same_v<D, int8_t> || std::is_same_v<D, void>)) ||
    (std::is_same_v<S, int32_t> &&
     (std::is_same_v<D, half> || std::is_same_v<D, int16_t> ||
      std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t> ||
      std::is_same_v<D, void>));
template <typename T>
inline constexpr bool kCapiFillType =
    std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, float>;
/// A fill value: half or uint32_t for every type, bfloat16_t for bfloat16_t.
template <typename T, typename V>
inline constexpr bool kCapiFillValue = std::is_same_v<V, half> ||
                                       std::is_same_v<V, uint32_t> ||
                                       (std::is_same_v<V, bfloat16_t> &&
                                        std::is_same_v<T, bfloat16_t>);

}  // namespace normgrad_ascendc

// ---- GM → L1 ----------------------------------------------------------------

#define NORMGRAD_CAPI_GM2L1_COUNT(name, T)                          \
  inline void name(__cbuf__ T* dst, __gm__ T* src, uint32_t size,   \
                   normgrad_ascendc::CallSite site = {}) {          \
    normgrad_ascendc::CapiCopyGmL1(#name, true, dst, src,           \
                                   {true, size, 0, 0, 0, 0}, site); \
  }
/// GM → L1: the first `size` bytes (a multiple of 32), as DataCopy GM → L1.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM2L1_COUNT, asc_copy_gm2l1, void)
#undef NORMGRAD_CAPI_GM2L1_COUNT
/// GM → L1: n_burst (1..4095) bursts of len_burst (1..65535) 32-byte blocks,
/// src_gap and dst_gap blocks from one burst's end to the next one's start.
inline void asc_copy_gm2l1(__cbuf__ void* dst, __gm__ void* src,
                           uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap, uint16_t dst_gap,
                           normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiCopyGmL1(
      "asc_copy_gm2l1", true, dst, src,
      {false, 0, n_burst, len_burst, src_gap, dst_gap}, site);
}

#define NORMGRAD_CAPI_ND2NZ(name, T_rule)                                      \
  template <typename T>                                                        \
  void name(__cbuf__ T* dst, __gm__ T* src, uint16_t nd_num, uint16_t n_value, \
            uint16_t d_value, uint16_t src_nd_matrix_stride,                   \
            uint16_t src_d_value, uint16_t dst_nz_c0_stride,                   \
            uint16_t dst_nz_n_stride, uint16_t dst_nz_matrix_stride,           \
            normgrad_ascendc::CallSite site = {}) {                            \
    static_assert(T_rule, #name                                                \
                  ": T must be int8_t, uint8_t, bfloat16_t, half, int16_t, "   \
                  "float, int32_t or uint32_t");                               \
    normgrad_ascendc::CapiCopyNd2Nz(                                           \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), dst, src,                \
        AscendC::Nd2NzParams(nd_num, n_value, d_value, src_nd_matrix_stride,   \
                             src_d_value, dst_nz_c0_stride, dst_nz_n_stride,   \
                             dst_nz_matrix_stride),                            \
        site);                                                                 \
  }
/// GM → L1 with ND → Nz: nd_num matrices of n_value rows and d_value
/// columns (DataCopy with Nd2NzParams, field for field).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_ND2NZ, asc_copy_gm2l1_nd2nz,
                        normgrad_ascendc::kCapiNd2NzType<T>)
#undef NORMGRAD_CAPI_ND2NZ

// ---- GM → L1 / L0A / L0B by fractals ----------------------------------------

#define NORMGRAD_CAPI_GM_FRACTALS(name, qualifier, position, type_rule)   \
  template <typename T, typename = std::enable_if_t<type_rule>>           \
  void name(qualifier T* dst, __gm__ T* src, uint16_t base_idx,           \
            uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,        \
            normgrad_ascendc::CallSite site = {}) {                       \
    normgrad_ascendc::CapiCopyGmFractals(                                 \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), position, dst, src, \
        base_idx, repeat, src_stride, dst_gap, site);                     \
  }
/// GM → L1 by 512-byte fractals: `repeat` fractals from fractal base_idx of
/// src, src_stride fractals apart, dst_gap fractals between them in L1
/// (LoadData GM → L1).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM_FRACTALS, asc_copy_gm2l1, __cbuf__,
                        AscendC::TPosition::A1,
                        normgrad_ascendc::kCapiGm2L1FractalType<T>)
/// GM → L0A / L0B: `repeat` (1..255) 512-byte fractals from fractal base_idx
/// of src, src_stride fractals apart, dst_gap fractals between them
/// (LoadData 2D from GM).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM_FRACTALS, asc_copy_gm2l0a, __ca__,
                        AscendC::TPosition::A2,
                        normgrad_ascendc::kCapiGm2L0Type<T>)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM_FRACTALS, asc_copy_gm2l0b, __cb__,
                        AscendC::TPosition::B2,
                        normgrad_ascendc::kCapiGm2L0Type<T>)
#undef NORMGRAD_CAPI_GM_FRACTALS

// ---- L1 → GM ----------------------------------------------------------------

#define NORMGRAD_CAPI_L12GM(name, T)                                       \
  inline void name(__gm__ T* dst, __cbuf__ T* src, uint16_t n_burst,       \
                   uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap, \
                   normgrad_ascendc::CallSite site = {}) {                 \
    normgrad_ascendc::CapiCopyGmL1(                                        \
        #name, false, dst, src,                                            \
        {false, 0, n_burst, len_burst, src_gap, dst_gap}, site);           \
  }
/// L1 → GM: bursts as asc_copy_gm2l1's (DataCopy L1 → GM).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12GM, asc_copy_l12gm, void)
#undef NORMGRAD_CAPI_L12GM

// ---- L1 → L0A / L0B ---------------------------------------------------------

#define NORMGRAD_CAPI_L12L0(name, qualifier, position)                       \
  template <typename T>                                                      \
  void name(qualifier T* dst, __cbuf__ T* src, uint16_t start_index,         \
            uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,           \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(normgrad_ascendc::kCapiL12L0Type<T>, #name                 \
                  ": T must be int4b_t, uint8_t, int8_t, half, bfloat16_t, " \
                  "uint32_t, int32_t or float");                             \
    normgrad_ascendc::CapiCopyL1ToL0(                                        \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), position, dst, src,    \
        start_index, repeat, src_stride, dst_gap, site);                     \
  }
/// L1 → L0A / L0B: `repeat` (1..255) fractals from fractal start_index of
/// src, src_stride fractals apart, dst_gap fractals between them in L0A /
/// L0B (LoadData 2D, no transpose).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0, asc_copy_l12l0a, __ca__,
                        AscendC::TPosition::A2)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0, asc_copy_l12l0b, __cb__,
                        AscendC::TPosition::B2)
#undef NORMGRAD_CAPI_L12L0

#define NORMGRAD_CAPI_L12L0C(name, qualifier)                           \
  template <typename D, typename S>                                     \
  void name(qualifier D* dst, __cbuf__ S* src, uint16_t n_burst,        \
            uint16_t len_burst, uint16_t src_gap, uint16_t dst_gap,     \
            normgrad_ascendc::CallSite site = {}) {                     \
    static_assert(normgrad_ascendc::kCapiL12L0cPair<D, S>, #name        \
                  ": (dst, src) must be the same of bfloat16_t, half, " \
                  "float, int32_t, uint32_t, or (half or bfloat16_t, "  \
                  "float)");                                            \
    normgrad_ascendc::CapiCopyL1ToL0c(                                  \
        #name, normgrad_ascendc::CapiCubeTypeOf<D>(),                   \
        normgrad_ascendc::CapiCubeTypeOf<S>(), dst, src,                \
        {false, 0, n_burst, len_burst, src_gap, dst_gap}, site);        \
  }
/// L1 → L0C in bursts (docs/capi.md): the same type, or float narrowed to
/// half or bfloat16_t.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0C, asc_copy_l12l0c, __cc__)
#undef NORMGRAD_CAPI_L12L0C

/// The Leaky ReLU alpha of the copies out of L0C. Their Atlas A2/A3 pages
/// take relu_pre as ReLU on or off only, so nothing would read it: the call
/// is a KernelError saying so.
inline void asc_set_l0c2gm_lrelu_alpha(half& config,
                                       normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL0c2GmLreluAlpha(static_cast<float>(config), site);
}
inline void asc_set_l0c2gm_lrelu_alpha(float& config,
                                       normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL0c2GmLreluAlpha(config, site);
}

// ---- L1 → bias table / fixpipe buffer --------------------------------------
//
// One name serves both profiles: the Atlas A2/A3 page's units and rules
// where the program runs on Atlas A2/A3, the 950 page's on the 950
// (docs/capi.md, "The 950's bias table and fixpipe buffer copies").

#define NORMGRAD_CAPI_L12BT_COUNT(name, T)                       \
  inline void name(uint64_t dst, __cbuf__ T* src, uint32_t size, \
                   normgrad_ascendc::CallSite site = {}) {       \
    normgrad_ascendc::CapiCopyL1ToBiasTable(                     \
        #name, #T, dst, src, {true, size, 0, 0, 0, 0}, 0, site); \
  }
#define NORMGRAD_CAPI_L12BT(T)                                                \
  NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12BT_COUNT, asc_copy_l12bt, T)       \
  inline void asc_copy_l12bt(                                                 \
      uint64_t dst, __cbuf__ T* src, uint16_t conv_control, uint16_t n_burst, \
      uint16_t len_burst, uint16_t source_gap, uint16_t dst_gap,              \
      normgrad_ascendc::CallSite site = {}) {                                 \
    normgrad_ascendc::CapiCopyL1ToBiasTable(                                  \
        "asc_copy_l12bt", #T, dst, src,                                       \
        {false, 0, n_burst, len_burst, source_gap, dst_gap}, conv_control,    \
        site);                                                                \
  }
/// `size` bytes (a multiple of 32) of L1 into the bias table at `dst` (the
/// table's byte address / 16), or `n_burst` bursts of `len_burst` 32-byte
/// blocks of the bias table, the gaps in 32-byte blocks; `conv_control` 1
/// widens half (on the 950 also bfloat16_t) in L1 to float. The typed forms
/// are the 950 page's: there the pointer's type says what L1 holds; on
/// Atlas A2/A3 they are the untyped form.
NORMGRAD_CAPI_L12BT(void)
NORMGRAD_CAPI_L12BT(bfloat16_t)
NORMGRAD_CAPI_L12BT(half)
NORMGRAD_CAPI_L12BT(float)
NORMGRAD_CAPI_L12BT(int32_t)
#undef NORMGRAD_CAPI_L12BT
#undef NORMGRAD_CAPI_L12BT_COUNT

#define NORMGRAD_CAPI_L12FB_COUNT(name, T)                          \
  inline void name(__fbuf__ T* dst, __cbuf__ T* src, uint32_t size, \
                   normgrad_ascendc::CallSite site = {}) {          \
    normgrad_ascendc::CapiCopyL1ToFixpipeBuffer(                    \
        #name, dst, src, {true, size, 0, 0, 0, 0}, site);           \
  }
/// `size` bytes (a multiple of 32) of L1 into the fixpipe buffer.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12FB_COUNT, asc_copy_l12fb, void)
#undef NORMGRAD_CAPI_L12FB_COUNT
/// `n_burst` bursts of `len_burst` blocks, the gaps from a burst's end to
/// the next one's start: src_gap_size in 32-byte blocks; len_burst and
/// dst_gap_size in 32-byte blocks on Atlas A2/A3, 64-byte ones on the 950.
inline void asc_copy_l12fb(__fbuf__ void* dst, __cbuf__ void* src,
                           uint16_t n_burst, uint16_t len_burst,
                           uint16_t src_gap_size, uint16_t dst_gap_size,
                           normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiCopyL1ToFixpipeBuffer(
      "asc_copy_l12fb", dst, src,
      {false, 0, n_burst, len_burst, src_gap_size, dst_gap_size}, site);
}

#define NORMGRAD_CAPI_L12L0B_SPARSE(name, T)                            \
  inline void name(__cb__ T* dst, __cbuf__ T* src, __cbuf__ T* index,   \
                   uint16_t start_index, uint8_t repeat,                \
                   normgrad_ascendc::CallSite site = {}) {              \
    normgrad_ascendc::CapiCopyL1ToL0bSparse(#name, dst, src, index,     \
                                            start_index, repeat, site); \
  }
/// L1 → L0B of a densified 4:2 sparse B (int8_t) and its 2-bit indices, the
/// operand asc_mmad_sparse reads (docs/cube.md, "Sparse Mmad"); `repeat` 0
/// moves nothing.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0B_SPARSE, asc_copy_l12l0b_sparse,
                        int8_t)
#undef NORMGRAD_CAPI_L12L0B_SPARSE

// ---- L1 → L0A / L0B by img2col ----------------------------------------------

namespace normgrad_ascendc {
/// The 3D copies' types on either profile (the 950's checked at run time).
template <typename T>
inline constexpr bool kCapiL13dL0aAnyType =
    kImg2colType<T> || kCapiL13d950Type<T>;
template <typename T>
inline constexpr bool kCapiL13dL0bAnyType =
    kCapiL13dL0bType<T> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t>;
/// The 3D copies' arguments as LoadData 3D's fields; the feature map and
/// the pad value are the registers'.
inline Img2colFields CapiImg2colFields(
    uint16_t k_extension, uint16_t m_extension, uint16_t k_start_pt,
    uint16_t m_start_pt, uint8_t stride_w, uint8_t stride_h, uint8_t filter_w,
    uint8_t filter_h, uint8_t dilation_filter_w, uint8_t dilation_filter_h,
    bool filter_size_w, bool filter_size_h, bool transpose, bool f_matrix_ctrl,
    uint16_t channel_size) {
  Img2colFields f;
  f.channel_size = channel_size;
  f.k_extension = k_extension;
  f.m_extension = m_extension;
  f.k_start = k_start_pt;
  f.m_start = m_start_pt;
  f.stride_w = stride_w;
  f.stride_h = stride_h;
  f.filter_w = filter_w;
  f.filter_h = filter_h;
  f.dilation_w = dilation_filter_w;
  f.dilation_h = dilation_filter_h;
  f.transpose = transpose;
  f.filter_size_w = filter_size_w;
  f.filter_size_h = filter_size_h;
  f.fmatrix_ctrl = f_matrix_ctrl;
  f.set_fmatrix = false;
  f.set_padding = false;
  return f;
}
}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_L13D(name, qualifier, position, type_rule, types)        \
  template <typename T>                                                        \
  void name(qualifier T* dst, __cbuf__ T* src, uint16_t k_extension,           \
            uint16_t m_extension, uint16_t k_start_pt, uint16_t m_start_pt,    \
            uint8_t stride_w, uint8_t stride_h, uint8_t filter_w,              \
            uint8_t filter_h, uint8_t dilation_filter_w,                       \
            uint8_t dilation_filter_h, bool filter_size_w, bool filter_size_h, \
            bool transpose, bool f_matrix_ctrl, uint16_t channel_size,         \
            normgrad_ascendc::CallSite site = {}) {                            \
    static_assert(type_rule, #name " (3D): T must be " types);                 \
    normgrad_ascendc::CapiCopyL1ToL0Img2col(                                   \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(),                          \
        normgrad_ascendc::kImg2colBits<T>,                                     \
        normgrad_ascendc::kCapiL13d950Type<T>, position, dst, src,             \
        normgrad_ascendc::CapiImg2colFields(                                   \
            k_extension, m_extension, k_start_pt, m_start_pt, stride_w,        \
            stride_h, filter_w, filter_h, dilation_filter_w,                   \
            dilation_filter_h, filter_size_w, filter_size_h, transpose,        \
            f_matrix_ctrl, channel_size),                                      \
        site);                                                                 \
  }
/// L1 → L0A / L0B by img2col: the window k_extension × m_extension from
/// (m_start_pt, k_start_pt) of the feature map's convolution matrix, the
/// map (C1HWC0 in L1) as asc_set_l13d_fmatrix set it, the padding as
/// asc_set_l13d_padding, repeated as asc_set_l13d_rpt (LoadData 3D v2).
/// On the 950 the output's columns of fractals lie one after another (the
/// repeat setter has no dstStride); the 950 adds the 8-bit floats and the
/// 16-bit integers into L0A, and int16_t / uint16_t into L0B.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L13D, asc_copy_l12l0a, __ca__,
                        AscendC::TPosition::A2,
                        normgrad_ascendc::kCapiL13dL0aAnyType<T>,
                        "int4b_t, uint8_t, int8_t, half, bfloat16_t, "
                        "uint32_t, int32_t or float (on the 950 also "
                        "fp8_e4m3fn_t, fp8_e5m2_t, hifloat8_t, int16_t or "
                        "uint16_t)")
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L13D, asc_copy_l12l0b, __cb__,
                        AscendC::TPosition::B2,
                        normgrad_ascendc::kCapiL13dL0bAnyType<T>,
                        "half, bfloat16_t, uint32_t, int32_t or float (on "
                        "the 950 also int16_t or uint16_t)")
#undef NORMGRAD_CAPI_L13D

/// The feature map the 3D copies read with f_matrix_ctrl false (SetFmatrix
/// FMATRIX_LEFT); asc_set_l13d_fmatrix_b sets the right one, which Atlas
/// A2/A3's copies do not read (f_matrix_ctrl must be false).
inline void asc_set_l13d_fmatrix(asc_l13d_fmatrix_config& config,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dFmatrix(
      "asc_set_l13d_fmatrix", config, AscendC::FmatrixMode::FMATRIX_LEFT, site);
}
inline void asc_set_l13d_fmatrix_b(asc_l13d_fmatrix_config& config,
                                   normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dFmatrix("asc_set_l13d_fmatrix_b", config,
                                       AscendC::FmatrixMode::FMATRIX_RIGHT,
                                       site);
}
/// The value the 3D copies write for the padding: a half, int16_t or
/// uint16_t for the 16-bit types; the uint64_t form gives the bits of a
/// 32-bit element (it must fit 32 bits: docs/capi.md).
inline void asc_set_l13d_padding(half config,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dPadding("half", 2, &config, site);
}
inline void asc_set_l13d_padding(int16_t config,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dPadding("int16_t", 2, &config, site);
}
inline void asc_set_l13d_padding(uint16_t config,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dPadding("uint16_t", 2, &config, site);
}
inline void asc_set_l13d_padding(uint64_t config,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dPadding("uint64_t", 8, &config, site);
}
/// The 3D copies' repeat (SetLoadDataRepeat).
inline void asc_set_l13d_rpt(asc_load3d_v2_config& config,
                             normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dRepeat(config, site);
}
/// The L1 byte where the 3D copies' reads wrap to L1's start: 0 (none) or
/// 1024 and more (SetLoadDataBoundary).
inline void asc_set_l13d_size(uint64_t value,
                              normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL13dSize(value, site);
}

// ---- L1 → L0A / L0B transposed --------------------------------------------

#define NORMGRAD_CAPI_TRANS(name, qualifier, position)                     \
  template <typename T>                                                    \
  void name(qualifier T* dst, __cbuf__ T* src, uint16_t index_id,          \
            uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,         \
            bool enable_addr_decrement, uint16_t dst_frac_gap,             \
            normgrad_ascendc::CallSite site = {}) {                        \
    static_assert(normgrad_ascendc::kCapiTransType<T>, #name               \
                  ": T must be uint8_t, int8_t, half, bfloat16_t, "        \
                  "uint32_t, int32_t or float");                           \
    normgrad_ascendc::CapiCopyL1ToL0Transposed(                            \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), position, dst, src,  \
        AscendC::LoadData2dTransposeParams(index_id, repeat, src_stride,   \
                                           dst_gap, dst_frac_gap,          \
                                           enable_addr_decrement ? 1 : 0), \
        site);                                                             \
  }
/// L1 → L0A / L0B, `repeat` squares from square index_id, src_stride squares
/// apart (falling with enable_addr_decrement), each transposed: a 16 × 16
/// fractal of half or bfloat16_t, two 16 × 8 fractals of a 32-bit type, two
/// 16 × 32 fractals of an 8-bit type; dst_gap fractals between the squares'
/// first fractals' end and start, dst_frac_gap between a square's fractals
/// (LoadDataWithTranspose).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_TRANS, asc_copy_l12l0a_trans, __ca__,
                        AscendC::TPosition::A2)
// A program compiled for the 950 has that product's asc_copy_l12l0b_trans
// (its own block at the end of this file) in place of this one.
#if !defined(__NPU_ARCH__) || __NPU_ARCH__ != 3510
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_TRANS, asc_copy_l12l0b_trans, __cb__,
                        AscendC::TPosition::B2)
#endif
#undef NORMGRAD_CAPI_TRANS

// ---- L0C → GM ---------------------------------------------------------------

#define NORMGRAD_CAPI_L0C2GM(name, qualifier)                                  \
  template <typename D, typename S>                                            \
  void name(qualifier D* dst, __cc__ S* src, uint16_t n_size, uint16_t m_size, \
            uint32_t dst_stride_dst_d, uint16_t src_stride,                    \
            uint8_t unit_flag_mode, uint64_t quant_pre, uint8_t relu_pre,      \
            bool channel_split, bool nz2nd_en,                                 \
            normgrad_ascendc::CallSite site = {}) {                            \
    static_assert(normgrad_ascendc::kCapiL0c2GmPair<D, S>, #name               \
                  ": (dst, src) must be (half, float), (bfloat16_t, "          \
                  "float), (int8_t, float), (uint8_t, float), (float, "        \
                  "float), (half, int32_t), (int16_t, int32_t), (int8_t, "     \
                  "int32_t) or (int32_t, int32_t)");                           \
    normgrad_ascendc::CapiCopyL0cOut(                                          \
        false, #name, normgrad_ascendc::CapiCubeTypeOf<D>(),                   \
        normgrad_ascendc::CapiCubeTypeOf<S>(), dst, src,                       \
        {n_size, m_size, dst_stride_dst_d, src_stride, unit_flag_mode,         \
         quant_pre, relu_pre, channel_split, nz2nd_en},                        \
        site);                                                                 \
  }
/// L0C → GM: n_size × m_size values (dst_stride_dst_d: elements from one
/// column block's start to the next one's in the NZ output, a multiple of 32
/// bytes; elements of a row in the ND output), converted by quant_pre (a
/// QuantMode_t number: NoQuant 0, F322F16 1, F322BF16 2, DEQF16 3, VDEQF16 4,
/// QF322B8_PRE 5, VQF322B8_PRE 6, REQ8 7, VREQ8 8), relu_pre 0 or 1, the
/// output NZ or (nz2nd_en) ND with asc_set_l0c_copy_params's setting; a
/// scalar mode takes asc_set_l0c_copy_prequant's parameter (DataCopy L0C →
/// GM with DataCopyCO12DstParams, field for field).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L0C2GM, asc_copy_l0c2gm, __gm__)
#undef NORMGRAD_CAPI_L0C2GM

/// L0C → L1: as asc_copy_l0c2gm into L1, NZ only (Fixpipe L0C → L1, which
/// always converts: quant_pre F322F16, F322BF16, DEQF16, QF322B8_PRE or
/// REQ8, the scalar modes with asc_set_l0c_copy_prequant's parameter).
#define NORMGRAD_CAPI_L0C2L1(name, qualifier)                                  \
  template <typename D, typename S>                                            \
  void name(qualifier D* dst, __cc__ S* src, uint16_t n_size, uint16_t m_size, \
            uint32_t dst_stride, uint16_t src_stride, uint8_t unit_flag_mode,  \
            uint64_t quant_pre, uint8_t relu_pre, bool enable_channel_split,   \
            bool enable_nz2nd, normgrad_ascendc::CallSite site = {}) {         \
    static_assert(normgrad_ascendc::kCapiL0c2L1Pair<D, S>, #name               \
                  ": (dst, src) must be (half, float), (bfloat16_t, "          \
                  "float), (int8_t, float), (void, float), (half, "            \
                  "int32_t), (int16_t, int32_t), (int8_t, int32_t), "          \
                  "(uint8_t, int32_t) or (void, int32_t)");                    \
    normgrad_ascendc::CapiCopyL0cOut(                                          \
        true, #name, normgrad_ascendc::CapiL0c2L1TypeOf<D>(),                  \
        normgrad_ascendc::CapiCubeTypeOf<S>(), dst, src,                       \
        {n_size, m_size, dst_stride, src_stride, unit_flag_mode, quant_pre,    \
         relu_pre, enable_channel_split, enable_nz2nd},                        \
        site);                                                                 \
  }
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L0C2L1, asc_copy_l0c2l1, __cbuf__)
#undef NORMGRAD_CAPI_L0C2L1

/// The NZ → ND setting of asc_copy_l0c2gm (SetFixpipeNz2ndFlag): nd_num
/// matrices (1..65535), src_nd_stride (1..512) and dst_nd_stride (1..65535)
/// apart.
inline void asc_set_l0c_copy_params(uint16_t nd_num, uint16_t src_nd_stride,
                                    uint16_t dst_nd_stride,
                                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL0cCopyParams(nd_num, src_nd_stride, dst_nd_stride,
                                         site);
}
/// The scalar quantization parameter of asc_copy_l0c2gm
/// (SetFixpipePreQuantFlag).
inline void asc_set_l0c_copy_prequant(uint64_t config,
                                      normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CapiSetL0cCopyPrequant(config, site);
}

// ---- Fill -------------------------------------------------------------------

#define NORMGRAD_CAPI_FILL(name, qualifier, position)                        \
  template <typename T, typename V>                                          \
  void name(qualifier T* dst, V value, const asc_fill_value_config& config,  \
            normgrad_ascendc::CallSite site = {}) {                          \
    static_assert(normgrad_ascendc::kCapiFillType<T>, #name                  \
                  ": T must be int16_t, uint16_t, half, bfloat16_t, "        \
                  "int32_t, uint32_t or float");                             \
    static_assert(normgrad_ascendc::kCapiFillValue<T, V>, #name              \
                  ": value must be half or uint32_t (or bfloat16_t "         \
                  "for a bfloat16_t dst)");                                  \
    normgrad_ascendc::CapiFill(                                              \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), position, dst, &value, \
        normgrad_ascendc::TypeName<V>(), sizeof(V), config, site);           \
  }

/// Sets config.repeat runs of config.blk_num blocks of dst to value's bits
/// (Fill): 512-byte blocks of L0A / L0B, 32-byte blocks of L1. A value of
/// dst's size gives each element its bits; a uint32_t for a 16-bit dst must
/// fit in 16 bits; a half for a 32-bit dst is refused (docs/capi.md).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_FILL, asc_fill_l0a, __ca__,
                        AscendC::TPosition::A2)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_FILL, asc_fill_l0b, __cb__,
                        AscendC::TPosition::B2)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_FILL, asc_fill_l1, __cbuf__,
                        AscendC::TPosition::A1)

#undef NORMGRAD_CAPI_FILL

// ---- Image loads with AIPP --------------------------------------------------

#include "normgrad_ascendc/cube/cube_aipp.h"  // LoadImageToLocalParams

namespace normgrad_ascendc {
/// asc_load_image_to_cbuf (src/ascendc/capi/load_image.cc): LoadImageToLocal
/// into the L1 byte `dst` names, with the C API page's ranges.
void CapiLoadImageToCbuf(const char* api, const char* type, uint32_t bytes,
                         void* dst, const AscendC::LoadImageToLocalParams& p,
                         const CallSite& site);
}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_LOAD_IMAGE(name, T)                                    \
  inline void name(                                                          \
      __cbuf__ T* dst, uint16_t hor_size, uint16_t ver_size,                 \
      uint16_t hor_start_pos, uint16_t ver_start_pos, uint16_t src_hor_size, \
      uint8_t top_pad_size, uint8_t bot_pad_size, uint16_t left_pad_size,    \
      uint16_t right_pad_size, normgrad_ascendc::CallSite site = {}) {       \
    AscendC::LoadImageToLocalParams p;                                       \
    p.horizSize = hor_size;                                                  \
    p.vertSize = ver_size;                                                   \
    p.horizStartPos = hor_start_pos;                                         \
    p.vertStartPos = ver_start_pos;                                          \
    p.srcHorizSize = src_hor_size;                                           \
    p.topPadSize = top_pad_size;                                             \
    p.botPadSize = bot_pad_size;                                             \
    p.leftPadSize = left_pad_size;                                           \
    p.rightPadSize = right_pad_size;                                         \
    normgrad_ascendc::CapiLoadImageToCbuf(                                   \
        #name, normgrad_ascendc::TypeName<T>(), sizeof(T), dst, p, site);    \
  }

/// GM → L1: the image SetAippFunctions set (the C API has no settings of
/// its own), cropped, preprocessed and padded as LoadImageToLocal does it.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_LOAD_IMAGE, asc_load_image_to_cbuf,
                        int8_t)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_LOAD_IMAGE, asc_load_image_to_cbuf, half)

#undef NORMGRAD_CAPI_LOAD_IMAGE

// ---- The Ascend 950: out of L0C (asc_copy_l0c2ub, and the 3510 forms of
// asc_copy_l0c2gm and asc_copy_l0c2l1) ----------------------------------------

namespace normgrad_ascendc {

/// The arguments of the 950's copies out of L0C, as their pages name them
/// (an argument a form does not have is 0 / false).
struct CapiL0cOut950 {
  uint16_t n_size;
  uint16_t m_size;
  uint32_t loop_dst_stride;
  uint16_t loop_src_stride;
  uint8_t dual_dst_ctl;
  bool sub_blockid;
  uint8_t clip_relu_pre;
  uint8_t unit_flag_ctl;
  uint64_t quant_pre;
  uint8_t relu_pre;
  bool split_en;
  bool nz2nd_en;
  uint64_t quant_post;
  uint8_t relu_post;
  bool clip_relu_post;
  uint8_t eltwise_op;
  uint8_t eltwise_antq_en;
  bool c0_pad_en;
  bool broadcast_en;
  bool nz2dn_en;
};
/// Where a 950 copy out of L0C writes.
enum class CapiL0cTarget : uint8_t { kGm, kL1, kUb };
/// The 950's copies out of L0C (Fixpipe with FixpipeParamsArch3510,
/// docs/capi.md).
void CapiCopyL0cOut950(CapiL0cTarget target, const char* api,
                       const CapiCubeType& dst_type,
                       const CapiCubeType& src_type, void* dst, void* src,
                       const CapiL0cOut950& args, const CallSite& site);

/// The (dst, src) pairs of the 950's copies out of L0C that normgrad
/// emulates.
template <typename D, typename S>
inline constexpr bool kCapiL0cOut950Pair =
    (std::is_same_v<S, float> &&
     (std::is_same_v<D, bfloat16_t> || std::is_same_v<D, half> ||
      std::is_same_v<D, float> || std::is_same_v<D, int8_t> ||
      std::is_same_v<D, uint8_t> || std::is_same_v<D, fp8_e4m3fn_t> ||
      std::is_same_v<D, hifloat8_t>)) ||
    (std::is_same_v<S, int32_t> &&
     (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
      std::is_same_v<D, int32_t> || std::is_same_v<D, int8_t> ||
      std::is_same_v<D, uint8_t>));

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_L0C_OUT_950_PAIRS(name)                                 \
  static_assert(normgrad_ascendc::kCapiL0cOut950Pair<D, S>, name              \
                ": (dst, src) must be (bfloat16_t, float), (half, "           \
                "float), (float, float), (int8_t, float), (uint8_t, float), " \
                "(fp8_e4m3fn_t, float), (hifloat8_t, float), (half, "         \
                "int32_t), (bfloat16_t, int32_t), (int32_t, int32_t), "       \
                "(int8_t, int32_t) or (uint8_t, int32_t) on the Ascend 950")

#define NORMGRAD_CAPI_L0C2UB_950(name, qualifier)                             \
  template <typename D, typename S>                                           \
  void name(qualifier D* dst_addr, __cc__ S* src_addr, uint16_t n_size,       \
            uint16_t m_size, uint32_t loop_dst_stride,                        \
            uint16_t loop_src_stride, uint8_t dual_dst_ctl, bool sub_blockid, \
            uint8_t clip_relu_pre, uint8_t unit_flag_ctl, uint64_t quant_pre, \
            uint8_t relu_pre, bool split_en, bool nz2nd_en,                   \
            uint64_t quant_post, uint8_t relu_post, bool clip_relu_post,      \
            uint8_t eltwise_op, bool eltwise_antq_en, bool c0_pad_en,         \
            bool broadcast_en, bool nz2dn_en,                                 \
            normgrad_ascendc::CallSite site = {}) {                           \
    NORMGRAD_CAPI_L0C_OUT_950_PAIRS(#name);                                   \
    normgrad_ascendc::CapiCopyL0cOut950(                                      \
        normgrad_ascendc::CapiL0cTarget::kUb, #name,                          \
        normgrad_ascendc::CapiCubeTypeOf<D>(),                                \
        normgrad_ascendc::CapiCubeTypeOf<S>(), dst_addr, src_addr,            \
        {n_size,          m_size,      loop_dst_stride, loop_src_stride,      \
         dual_dst_ctl,    sub_blockid, clip_relu_pre,   unit_flag_ctl,        \
         quant_pre,       relu_pre,    split_en,        nz2nd_en,             \
         quant_post,      relu_post,   clip_relu_post,  eltwise_op,           \
         eltwise_antq_en, c0_pad_en,   broadcast_en,    nz2dn_en},            \
        site);                                                                \
  }
/// L0C → UB on the Ascend 950: n_size × m_size values into the UB of vector
/// core sub_blockid (or both, dual_dst_ctl 1: rows split, 2: columns split)
/// at dst_addr's offset, NZ, or ND with nz2nd_en, or DN with nz2dn_en
/// (loop_dst_stride in elements), through quant_pre (a QuantMode_t number,
/// 0 .. 22: the casts, and the scalar modes with asc_set_l0c_copy_prequant's
/// parameter; not the V modes) and relu_pre (0 or 1). The ND output
/// moves the matrices of asc_set_l0c2gm_nz2nd (one if it was not called),
/// the DN output one matrix; the post-processing arguments (quant_post,
/// relu_post, clip_relu_pre/post, eltwise_*, c0_pad_en, broadcast_en) must
/// be 0 / false.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L0C2UB_950, asc_copy_l0c2ub, __ubuf__)
#undef NORMGRAD_CAPI_L0C2UB_950

#define NORMGRAD_CAPI_L0C2GM_950(name, qualifier)                              \
  template <typename D, typename S>                                            \
  void name(qualifier D* dst_addr, __cc__ S* src_addr, uint16_t n_size,        \
            uint16_t m_size, uint32_t loop_dst_stride,                         \
            uint16_t loop_src_stride, uint8_t l2_cache_ctl,                    \
            uint8_t clip_relu_pre, uint8_t unit_flag_ctl, uint64_t quant_pre,  \
            uint8_t relu_pre, bool split_en, bool nz2nd_en,                    \
            uint64_t quant_post, uint8_t relu_post, bool clip_relu_post,       \
            uint8_t eltwise_op, bool eltwise_antq_en, bool c0_pad_en,          \
            bool broadcast_en, bool nz2dn_en,                                  \
            normgrad_ascendc::CallSite site = {}) {                            \
    NORMGRAD_CAPI_L0C_OUT_950_PAIRS(#name);                                    \
    (void)l2_cache_ctl;                                                        \
    normgrad_ascendc::CapiCopyL0cOut950(normgrad_ascendc::CapiL0cTarget::kGm,  \
                                        #name,                                 \
                                        normgrad_ascendc::CapiCubeTypeOf<D>(), \
                                        normgrad_ascendc::CapiCubeTypeOf<S>(), \
                                        dst_addr, src_addr, {n_size,           \
                                                             m_size,           \
                                                             loop_dst_stride,  \
                                                             loop_src_stride,  \
                                                             0,                \
                                                             false,            \
                                                             clip_relu_pre,    \
                                                             unit_flag_ctl,    \
                                                             quant_pre,        \
                                                             relu_pre,         \
                                                             split_en,         \
                                                             nz2nd_en,         \
                                                             quant_post,       \
                                                             relu_post,        \
                                                             clip_relu_post,   \
                                                             eltwise_op,       \
                                                             eltwise_antq_en,  \
                                                             c0_pad_en,        \
                                                             broadcast_en,     \
                                                             nz2dn_en},        \
                                        site);                                 \
  }
/// L0C → GM, the Ascend 950's form (asc_copy_l0c2gm_arch_3510): as
/// asc_copy_l0c2ub into GM, without the UB's dual_dst_ctl and sub_blockid;
/// l2_cache_ctl (the L2 cache policy) changes nothing on the CPU.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L0C2GM_950, asc_copy_l0c2gm, __gm__)
#undef NORMGRAD_CAPI_L0C2GM_950

/// L0C → L1, the Ascend 950's form (asc_copy_l0c2l1_arch_3510): NZ, or ND
/// with nz2nd_en, as asc_copy_l0c2ub into L1.
template <typename D, typename S>
void asc_copy_l0c2l1(__cbuf__ D* dst, __cc__ S* src, uint16_t n_size,
                     uint16_t m_size, uint32_t dst_stride, uint16_t src_stride,
                     uint8_t clip_relu_pre, uint8_t unit_flag_mode,
                     uint64_t quant_pre, uint8_t relu_pre, bool channel_split,
                     bool nz2nd_en, uint64_t quant_post, uint8_t relu_post,
                     bool clip_relu_post, uint8_t eltwise_op,
                     uint8_t eltwise_antq_en, bool c0_pad_en,
                     normgrad_ascendc::CallSite site = {}) {
  NORMGRAD_CAPI_L0C_OUT_950_PAIRS("asc_copy_l0c2l1");
  normgrad_ascendc::CapiCopyL0cOut950(
      normgrad_ascendc::CapiL0cTarget::kL1, "asc_copy_l0c2l1",
      normgrad_ascendc::CapiCubeTypeOf<D>(),
      normgrad_ascendc::CapiCubeTypeOf<S>(), dst, src, {n_size,
                                                        m_size,
                                                        dst_stride,
                                                        src_stride,
                                                        0,
                                                        false,
                                                        clip_relu_pre,
                                                        unit_flag_mode,
                                                        quant_pre,
                                                        relu_pre,
                                                        channel_split,
                                                        nz2nd_en,
                                                        quant_post,
                                                        relu_post,
                                                        clip_relu_post,
                                                        eltwise_op,
                                                        eltwise_antq_en,
                                                        c0_pad_en,
                                                        false,
                                                        false},
      site);
}

#undef NORMGRAD_CAPI_L0C_OUT_950_PAIRS

namespace normgrad_ascendc {
/// L1 → the UB of vector core `sub_blockid` on the 950 (DataCopyL1ToUB with
/// DataCopyParams, docs/capi.md).
void CapiCopyL1ToUb(const char* api, void* dst, void* src, bool sub_blockid,
                    uint16_t n_burst, uint16_t len_burst, uint16_t src_gap,
                    uint16_t dst_gap, const CallSite& site);
}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_L12UB(name, T)                                         \
  inline void name(__ubuf__ T* dst_addr, __cbuf__ T* src_addr,               \
                   bool sub_blockid, uint16_t n_burst, uint16_t len_burst,   \
                   uint16_t src_gap, uint16_t dst_gap,                       \
                   normgrad_ascendc::CallSite site = {}) {                   \
    normgrad_ascendc::CapiCopyL1ToUb(#name, dst_addr, src_addr, sub_blockid, \
                                     n_burst, len_burst, src_gap, dst_gap,   \
                                     site);                                  \
  }
/// L1 → UB on the Ascend 950: n_burst bursts of len_burst 32-byte blocks from
/// src_addr into the UB of vector core sub_blockid of this AI Core (1:2
/// kernels) at dst_addr's offset, src_gap / dst_gap blocks from one burst's
/// end to the next one's start. The _sync form is the same call (the
/// emulated copy is done when it returns).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12UB, asc_copy_l12ub, void)
#undef NORMGRAD_CAPI_L12UB
// ---- The Ascend 950: GM → L1 with ND2NZ and DN2NZ (cube_gm2l1_950.cc) -------
//
// The 950's forms take one matrix's shape and its source strides in bytes
// (loop1_src_stride: from one source line to the next; loop4_src_stride:
// from one source matrix to the next); the matrix count and the
// destination strides come from MTE2_NZ_PARA (asc_set_gm2l1_nz_para, which
// must have been called in the block). They run DataCopy with Nd2NzParams
// or Dn2NzParams (cube/cube_gm_l1_950.h) field for field; l2_cache_ctl (0,
// 1, 2 or 4) changes nothing on the CPU. On another profile they are
// refused.

namespace normgrad_ascendc {

/// `dn`: DN2NZ (else ND2NZ).
void CapiCopyGm2L1Nz950(const char* api, bool dn, const CapiCubeType& type,
                        void* dst, void* src, uint64_t loop1_src_stride,
                        uint8_t l2_cache_ctl, uint16_t n_value,
                        uint32_t d_value, uint64_t loop4_src_stride,
                        bool smallc0_en, const CallSite& site);

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_GM2L1_NZ_950(name, dn)                                \
  template <typename T>                                                     \
  void name(__cbuf__ T* dst, __gm__ T* src, uint64_t loop1_src_stride,      \
            uint8_t l2_cache_ctl, uint16_t n_value, uint32_t d_value,       \
            uint64_t loop4_src_stride, bool smallc0_en,                     \
            normgrad_ascendc::CallSite site = {}) {                         \
    static_assert(normgrad_ascendc::kCubeMoveType<T>, #name                 \
                  ": T must be int8_t, uint8_t, int16_t, uint16_t, "        \
                  "half, bfloat16_t, int32_t, uint32_t or float");          \
    normgrad_ascendc::CapiCopyGm2L1Nz950(                                   \
        #name, dn, normgrad_ascendc::CapiCubeTypeOf<T>(), dst, src,         \
        loop1_src_stride, l2_cache_ctl, n_value, d_value, loop4_src_stride, \
        smallc0_en, site);                                                  \
  }

/// GM (DN) → L1 (Nz): DataCopy with Dn2NzParams.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM2L1_NZ_950, asc_copy_gm2l1_dn2nz, true)
/// GM (ND) → L1 (Nz), the 950's form: DataCopy with Nd2NzParams.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM2L1_NZ_950, asc_copy_gm2l1_nd2nz, false)

#undef NORMGRAD_CAPI_GM2L1_NZ_950

// ---- The Ascend 950: GM → L1 with padding (cube_gm2l1_950.cc) --------------
//
// asc_copy_gm2l1_align runs DataCopyPad GM → L1 (cube/cube_gm_l1_950.h)
// field for field: n_burst blocks of len_burst bytes, left/right_padding_count
// elements of padding, burst_src_stride bytes and burst_dst_stride 32-byte
// blocks from one block's end to the next one's start. The paddings take the
// value of asc_set_gm2l1_pad (which must have been called in the block when a
// padding is asked for); without paddings a row's filler repeats its first
// element (data_select_bit false, the only value its page allows). The copy
// repeats over the loops asc_set_gm2l1_loop_size, _loop1_stride and
// _loop2_stride set. The 950 only.

namespace normgrad_ascendc {

void CapiCopyGm2L1Align(const char* api, const CapiCubeType& type, void* dst,
                        void* src, uint32_t n_burst, uint32_t len_burst,
                        uint8_t left_padding_count, uint8_t right_padding_count,
                        bool data_select_bit, uint8_t l2_cache_ctl,
                        uint64_t burst_src_stride, uint32_t burst_dst_stride,
                        const CallSite& site);

}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_GM2L1_ALIGN(name, type_rule)                             \
  template <typename T>                                                        \
  void name(__cbuf__ T* dst, __gm__ T* src, uint32_t n_burst,                  \
            uint32_t len_burst, uint8_t left_padding_count,                    \
            uint8_t right_padding_count, bool data_select_bit,                 \
            uint8_t l2_cache_ctl, uint64_t burst_src_stride,                   \
            uint32_t burst_dst_stride, normgrad_ascendc::CallSite site = {}) { \
    static_assert(type_rule, #name                                             \
                  ": T must be int8_t, uint8_t, int16_t, uint16_t, "           \
                  "half, bfloat16_t, int32_t, uint32_t or float");             \
    normgrad_ascendc::CapiCopyGm2L1Align(                                      \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), dst, src, n_burst,       \
        len_burst, left_padding_count, right_padding_count, data_select_bit,   \
        l2_cache_ctl, burst_src_stride, burst_dst_stride, site);               \
  }

/// GM → L1 with padding: DataCopyPad GM → L1.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_GM2L1_ALIGN, asc_copy_gm2l1_align,
                        normgrad_ascendc::kCubeMoveType<T>)

#undef NORMGRAD_CAPI_GM2L1_ALIGN

/// The loop counts of asc_copy_gm2l1_align, each 0 .. 2^21 (0 or 1: once).
void asc_set_gm2l1_loop_size(uint64_t loop1_size, uint64_t loop2_size,
                             normgrad_ascendc::CallSite site = {});
/// The inner loop's strides: source 0 .. 2^40 bytes, destination 0 .. 2^21
/// bytes and a multiple of 32.
void asc_set_gm2l1_loop1_stride(uint64_t loop1_src_stride,
                                uint64_t loop1_dst_stride,
                                normgrad_ascendc::CallSite site = {});
/// The outer loop's strides, with the inner loop's ranges.
void asc_set_gm2l1_loop2_stride(uint64_t loop2_src_stride,
                                uint64_t loop2_dst_stride,
                                normgrad_ascendc::CallSite site = {});
/// The padding value of asc_copy_gm2l1_align: its low sizeof(T) bytes are
/// the element.
void asc_set_gm2l1_pad(uint32_t pad_val, normgrad_ascendc::CallSite site = {});
// ---- The Ascend 950's L1 → L0A / L0B (src/ascendc/capi/cube_load_950.cc) ----

#include "normgrad_ascendc/cube/cube_load_950.h"  // LoadData2DParamsV2

namespace normgrad_ascendc {
/// LoadData with LoadData2DParamsV2 into `to` (A2 or B2), the C API's
/// arguments in its fields.
void CapiCopyL1ToL0V2(const char* api, const CapiCubeType& type,
                      AscendC::TPosition to, void* dst, void* src,
                      const AscendC::LoadData2DParamsV2& params,
                      const CallSite& site);
/// LoadDataWithTranspose with LoadData2dTransposeParamsV2 into L0B.
void CapiCopyL1ToL0bTransV2(const char* api, const CapiCubeType& type,
                            void* dst, void* src,
                            const AscendC::LoadData2dTransposeParamsV2& params,
                            const CallSite& site);
/// The 950 pages' types of the 2D loads into L0A / L0B.
template <typename T>
inline constexpr bool kCapiL12L0V2Type =
    kCapiL12L0Type<T> || std::is_same_v<T, int16_t> ||
    std::is_same_v<T, uint16_t>;
}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_L12L0_V2(name, qualifier, position, transpose)          \
  template <typename T>                                                       \
  void name(qualifier T* dst, __cbuf__ T* src, uint16_t m_start_position,     \
            uint16_t k_start_position, uint8_t m_step, uint8_t k_step,        \
            int16_t src_stride, uint16_t dst_stride,                          \
            normgrad_ascendc::CallSite site = {}) {                           \
    static_assert(normgrad_ascendc::kCapiL12L0V2Type<T>, #name                \
                  ": T must be int4b_t, uint8_t, int8_t, uint16_t, int16_t, " \
                  "half, bfloat16_t, uint32_t, int32_t or float");            \
    normgrad_ascendc::CapiCopyL1ToL0V2(                                       \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), position, dst, src,     \
        AscendC::LoadData2DParamsV2(m_start_position, k_start_position,       \
                                    m_step, k_step, src_stride, dst_stride,   \
                                    transpose, 0),                            \
        site);                                                                \
  }
/// The 950's L1 → L0A / L0B (its asc_copy_l12l0a/b pages, 2D forms): the
/// block of m_step × k_step fractals at (m_start_position, k_start_position)
/// of an Nz matrix with src_stride fractals per column, into an Nz matrix
/// with dst_stride fractals per column; the _transpose forms transpose each
/// square (LoadData with LoadData2DParamsV2).
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0_V2, asc_copy_l12l0a, __ca__,
                        AscendC::TPosition::A2, false)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0_V2, asc_copy_l12l0a_transpose,
                        __ca__, AscendC::TPosition::A2, true)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0_V2, asc_copy_l12l0b, __cb__,
                        AscendC::TPosition::B2, false)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0_V2, asc_copy_l12l0b_transpose,
                        __cb__, AscendC::TPosition::B2, true)
#undef NORMGRAD_CAPI_L12L0_V2

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
#define NORMGRAD_CAPI_L12L0B_TRANS_V2(name, qualifier)                     \
  template <typename T>                                                    \
  void name(qualifier T* dst, __cbuf__ T* src, uint16_t index_id,          \
            uint8_t repeat, uint16_t src_stride, uint16_t dst_gap,         \
            uint16_t dst_frac_gap, uint16_t src_frac_gap,                  \
            normgrad_ascendc::CallSite site = {}) {                        \
    static_assert(normgrad_ascendc::kCapiTransType<T>, #name               \
                  ": T must be uint8_t, int8_t, half, bfloat16_t, "        \
                  "uint32_t, int32_t or float");                           \
    normgrad_ascendc::CapiCopyL1ToL0bTransV2(                              \
        #name, normgrad_ascendc::CapiCubeTypeOf<T>(), dst, src,            \
        AscendC::LoadData2dTransposeParamsV2(index_id, repeat, src_stride, \
                                             dst_gap, dst_frac_gap,        \
                                             src_frac_gap, 0),             \
        site);                                                             \
  }
/// The 950's L1 → L0B transposed (its asc_copy_l12l0b_trans page): `repeat`
/// squares, the first at fractal index_id, src_stride fractals apart,
/// src_frac_gap fractals between one square's fractals in L1, dst_gap and
/// dst_frac_gap as on Atlas A2/A3 (LoadDataWithTranspose with
/// LoadData2dTransposeParamsV2). Declared where the program is compiled for
/// the 950, whose header has this form in place of Atlas A2/A3's.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_L12L0B_TRANS_V2, asc_copy_l12l0b_trans,
                        __cb__)
#undef NORMGRAD_CAPI_L12L0B_TRANS_V2
#endif
// ---- The 950's MX scale moves (docs/capi.md, "The 950's 8-bit floats and
// MX"; cube/cube_mx.h) ----

namespace normgrad_ascendc {
/// The scale move of LoadData's MX form into L0A_MX (`side` kA) or L0B_MX:
/// `dst` is the L0A / L0B address (asc_get_phy_buf_addr) / 16.
void CapiCopyL1ToMx(const char* api, MxSide side, uint64_t dst, const void* src,
                    uint16_t x_start_pos, uint16_t y_start_pos, uint8_t x_step,
                    uint8_t y_step, uint16_t src_stride, uint16_t dst_stride,
                    const CallSite& site);
}  // namespace normgrad_ascendc

#define NORMGRAD_CAPI_COPY_MX(name, side)                                      \
  inline void name(uint64_t dst, __cbuf__ fp8_e8m0_t* src,                     \
                   uint16_t x_start_pos, uint16_t y_start_pos, uint8_t x_step, \
                   uint8_t y_step, uint16_t src_stride, uint16_t dst_stride,   \
                   normgrad_ascendc::CallSite site = {}) {                     \
    normgrad_ascendc::CapiCopyL1ToMx(                                          \
        #name, normgrad_ascendc::MxSide::side, dst, src, x_start_pos,          \
        y_start_pos, x_step, y_step, src_stride, dst_stride, site);            \
  }
/// L1 → L0A_MX / L0B_MX: x_step rows of y_step 32-byte scale fractals.
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_COPY_MX, asc_copy_l12l0a_mx, kA)
NORMGRAD_CAPI_WITH_SYNC(NORMGRAD_CAPI_COPY_MX, asc_copy_l12l0b_mx, kB)
#undef NORMGRAD_CAPI_COPY_MX

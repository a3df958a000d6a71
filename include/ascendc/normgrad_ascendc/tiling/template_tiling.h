// normgrad_ascendc/tiling/template_tiling.h — tiling template programming
// (docs/program-surface.md, "Tiling templates"): the parameter declarations
// (ASCENDC_TPL_ARGS_DECL with ASCENDC_TPL_DTYPE_DECL, _DATATYPE_DECL,
// _FORMAT_DECL, _UINT_DECL, _BOOL_DECL, _KERNEL_TYPE_DECL), the allowed
// combinations (ASCENDC_TPL_SEL of ASCENDC_TPL_ARGS_SEL with the _SEL forms),
// and the tiling key they give (GET_TPL_TILING_KEY, ASCENDC_TPL_SEL_PARAM).
// Programs reach it as "ascendc/host_api/tiling/template_argument.h" and
// through tiling/tiling_api.h.
//
// The key. Each declared parameter takes its bit width in the key — 8 bits
// for data types, formats and kernel types, 1 for a bool, the declared width
// for a UINT — in declaration order from bit 0 up, holding the parameter's
// value. GET_TPL_TILING_KEY(v0, v1, ...) takes one value per declared
// parameter, in that order. A value must be one the declaration lists, fit
// its width, and the values together must match one ASCENDC_TPL_ARGS_SEL (a
// parameter a combination does not name takes any declared value); the
// kernel-type, deterministic and tiling-struct selections are not part of the
// key. A broken rule prints one line on stderr naming the macro, the
// parameter, the value and the rule, and gives the key ~0 (which no
// combination of fewer than 64 key bits encodes).
//
// The kernel side is a kernel template whose parameters are the declared
// ones in the same order (template <uint32_t D_T_X, ..., uint32_t IS_SPLIT>);
// a program launches the instantiation its key stands for.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "normgrad_ascendc/runtime/data_type.h"

/// The kinds of template parameter (ParamStruct::paramType).
#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_KERNEL_TYPE 4
#define ASCENDC_TPL_DETERMINISTIC 5
#define ASCENDC_TPL_SHARED_KERNEL_TYPE 6

/// Bit widths of a parameter in the key.
#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_16_BW 16
#define ASCENDC_TPL_32_BW 32

/// How a UINT parameter lists its values: ranges (a count, then that many
/// inclusive [first, last] pairs), a list, or ranges followed by a list.
#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

/// The kernel types of ASCENDC_TPL_KERNEL_TYPE_DECL / _SEL.
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIV_1_0 2
#define ASCENDC_TPL_MIX_AIC_1_0 3
#define ASCENDC_TPL_MIX_AIC_1_1 4
#define ASCENDC_TPL_MIX_AIC_1_2 5

/// The native data types of ASCENDC_TPL_DATATYPE_DECL: ge::DataType's
/// numbers, so a program passes static_cast<int>(dtype).
#define C_DT_FLOAT ge::DT_FLOAT
#define C_DT_FLOAT16 ge::DT_FLOAT16
#define C_DT_INT8 ge::DT_INT8
#define C_DT_INT32 ge::DT_INT32
#define C_DT_UINT8 ge::DT_UINT8
#define C_DT_INT16 ge::DT_INT16
#define C_DT_UINT16 ge::DT_UINT16
#define C_DT_UINT32 ge::DT_UINT32
#define C_DT_INT64 ge::DT_INT64
#define C_DT_UINT64 ge::DT_UINT64
#define C_DT_DOUBLE ge::DT_DOUBLE
#define C_DT_BOOL ge::DT_BOOL
#define C_DT_BF16 ge::DT_BF16

/// One declared or selected parameter.
struct ParamStruct {
  const char* name;
  uint32_t paramType;
  uint8_t bitWidth;
  std::vector<uint64_t> vals;
  const char* macroType;  ///< "DECL" or "SEL"
  ParamStruct(const char* inName, uint32_t inParamType, uint8_t inBitWidth,
              std::vector<uint64_t> inVals, const char* inMacroType)
      : name(inName),
        paramType(inParamType),
        bitWidth(inBitWidth),
        vals(std::move(inVals)),
        macroType(inMacroType) {}
};
using TilingDeclareParams = std::vector<ParamStruct>;
using TilingSelectParams = std::vector<std::vector<ParamStruct>>;

namespace AscendC {

/// The tiling key of `values` (see the file comment).
uint64_t EncodeTilingKey(const TilingDeclareParams& declareParams,
                         const TilingSelectParams& selectParamsVec,
                         const std::vector<uint64_t>& tilingParams);

}  // namespace AscendC

#define ASCENDC_TPL_DTYPE_DECL(x, ...)                              \
  ParamStruct {                                                     \
#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "DECL" \
  }
#define ASCENDC_TPL_DATATYPE_DECL(x, ...)                           \
  ParamStruct {                                                     \
#x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "DECL" \
  }
#define ASCENDC_TPL_FORMAT_DECL(x, ...)                              \
  ParamStruct {                                                      \
#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "DECL" \
  }
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) \
  ParamStruct { #x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__ }, "DECL" }
#define ASCENDC_TPL_BOOL_DECL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__ }, "DECL" }
#define ASCENDC_TPL_KERNEL_TYPE_DECL(x, ...)              \
  ParamStruct {                                           \
#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, \
        {__VA_ARGS__ }, "DECL"                            \
  }

#define ASCENDC_TPL_DTYPE_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "SEL" }
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_DTYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "SEL" }
#define ASCENDC_TPL_FORMAT_SEL(x, ...)                              \
  ParamStruct {                                                     \
#x, ASCENDC_TPL_FORMAT, ASCENDC_TPL_8_BW, {__VA_ARGS__ }, "SEL" \
  }
#define ASCENDC_TPL_UINT_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__ }, "SEL" }
#define ASCENDC_TPL_BOOL_SEL(x, ...) \
  ParamStruct { #x, ASCENDC_TPL_BOOL, ASCENDC_TPL_1_BW, {__VA_ARGS__ }, "SEL" }
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...)                                     \
  ParamStruct {                                                              \
    "kernel_type", ASCENDC_TPL_KERNEL_TYPE, ASCENDC_TPL_8_BW, {__VA_ARGS__}, \
        "SEL"                                                                \
  }
#define ASCENDC_TPL_DETERMINISTIC_SEL(...)                        \
  ParamStruct {                                                   \
    "deterministic", ASCENDC_TPL_DETERMINISTIC, ASCENDC_TPL_1_BW, \
        {__VA_ARGS__}, "SEL"                                      \
  }
#define ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(x, ...)        \
  ParamStruct {                                           \
#x, ASCENDC_TPL_SHARED_KERNEL_TYPE, ASCENDC_TPL_8_BW, \
        {__VA_ARGS__ }, "SEL"                             \
  }
/// Names a combination's tiling structure: not part of the key.
#define ASCENDC_TPL_TILING_STRUCT_SEL(...)

/// The operator's parameters (x: its OpType, for the reader).
#define ASCENDC_TPL_ARGS_DECL(x, ...) \
  static TilingDeclareParams g_tilingDeclareParams { __VA_ARGS__ }
/// One allowed combination.
#define ASCENDC_TPL_ARGS_SEL(...) \
  { __VA_ARGS__ }
/// Every allowed combination.
#define ASCENDC_TPL_SEL(...) \
  static TilingSelectParams g_tilingSelectParams { __VA_ARGS__ }

/// The key of the parameter values given in declaration order.
#define GET_TPL_TILING_KEY(...)                                           \
  ::AscendC::EncodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams, \
                             {__VA_ARGS__})
/// Sets the key of the values on a tiling context (context->SetTilingKey).
#define ASCENDC_TPL_SEL_PARAM(context, ...)         \
  do {                                              \
    uint64_t key = GET_TPL_TILING_KEY(__VA_ARGS__); \
    (context)->SetTilingKey(key);                   \
  } while (0)

// fixpipe_convert.h — what every way out of L0C shares (internal to
// src/ascendc/cube): the element types' names and sizes, the quantization
// modes' names and type pairs, the decoded quantization parameter, the
// conversion of one L0C value on its way out (ReLU, cast or quantization,
// the Ascend 950's modes into fp8_e4m3fn_t, hifloat8_t, half, bfloat16_t and
// float included) and the placement of a column in an NZ output. Defined in
// cube_ops.cc (Fixpipe and DataCopy out of L0C, Atlas A2/A3) and used by
// cube_out_950.cc (the Ascend 950's FixpipeParamsArch3510 forms).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/cube/cube_api.h"

namespace normgrad_ascendc {

/// Rows of a fractal; L0C's C0 (16 values of a row side by side).
inline constexpr uint32_t kCubeBlock = 16;

/// "float", "int8_t", ... for messages.
const char* CubeTypeName(CubeType type);
/// The bytes of one element of `type` (int4b_t: not asked).
uint32_t CubeTypeBytes(CubeType type);

const char* QuantModeName(AscendC::QuantMode_t mode);
/// Whether `mode` is one the Ascend 950 added (QF322FP8_PRE and after):
/// FixpipeParamsArch3510 takes them, the Atlas A2/A3 forms do not.
bool ModeIs950s(AscendC::QuantMode_t mode);
/// The modes that read one parameter per column from cbufWorkspace.
bool IsVectorMode(AscendC::QuantMode_t mode);
/// A per-column mode has a cbufWorkspace and no other mode has one; else a
/// KernelError naming `api` and the mode.
void CheckQuantWorkspace(const char* api, AscendC::QuantMode_t mode,
                         bool has_workspace);
/// The fixpipe-buffer tensor SetFixPipeConfig last named on this core (the
/// V modes' per-column parameters of DataCopy L0C -> GM and of the C API's
/// copies out of L0C); the caller checks that it was set in this block
/// (FixpipeRegisters::config_set).
TensorView FixpipeConfigTable();
/// Whether `mode` turns L0C values of `src` into `dst`.
bool ModeConverts(AscendC::QuantMode_t mode, CubeType src, CubeType dst);
/// Whether `mode` takes a quantization parameter (not NoQuant, not a cast).
bool ModeQuantizes(AscendC::QuantMode_t mode);

/// One quantization parameter (QUANT_PRE): the scale M1 in bits 0..31 read
/// as a float with only its top 10 mantissa bits, the right shift N (bits
/// 32..35, 1..16) applied when MCB (bit 36) is set (Atlas A2/A3 only), the
/// 9-bit Offset (bits 37..45) and the Sign bit 46 (1: int8_t results), both
/// for the 8-bit integer outputs; and whether the mode rounds into
/// hifloat8_t by the hybrid rounding.
struct QuantParam {
  float scale;
  bool shift_on;
  uint32_t shift;
  int32_t offset;
  bool is_signed;
  bool hybrid;
};

/// Decodes and checks `bits`; `where` names it in messages.
QuantParam DecodeQuantParam(const char* api, const char* where, uint64_t bits,
                            AscendC::QuantMode_t mode, CubeType dst_type);

/// One L0C value at `at` through the ReLU and conversion into `to`. `q` is
/// the column's quantization parameter (null for the casts).
void ConvertOut(CubeType src_type, CubeType dst_type, bool relu,
                const QuantParam* q, const uint8_t* at, uint8_t* to);

/// Where an NZ output puts column n: in column block `block`, row m at m x
/// `pitch` elements, `column` into the row. F32 Channel Split cuts each
/// 16 x 16 fractal into two 16 x 8 ones (blocks of 8 channels); an 8-bit
/// output merges two 16 x 16 fractals into one 16 x 32 (Int8 Channel
/// Merge), and when N is an odd number of 16s the last 16 channels stay a
/// 16 x 16 fractal of their own. Otherwise blocks of 16.
struct NzOutPlace {
  bool split;
  bool merge;
  uint32_t n_size;
  struct Spot {
    uint32_t block, pitch, column;
  };
  Spot Of(uint32_t n) const {
    if (split) return {n / 8, 8, n % 8};
    if (!merge) return {n / kCubeBlock, kCubeBlock, n % kCubeBlock};
    const uint32_t merged = n_size / 32;  // whole 16 x 32 fractals
    if (n < merged * 32) return {n / 32, 32, n % 32};
    return {merged, kCubeBlock, n - merged * 32};
  }
};

}  // namespace normgrad_ascendc

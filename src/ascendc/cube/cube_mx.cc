// cube_mx.cc — the Ascend 950's MX matrix multiply (normgrad_ascendc/cube/
// cube_mx.h, docs/cube.md "The Ascend 950: 8-bit floats and MX"): the scale
// moves into L0A_MX / L0B_MX, MmadMx, and the HiF8 / FP8 mode of Mmad's
// 8-bit float operands, each checked against its page's rules first.
#include "normgrad_ascendc/cube/cube_mx.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/cube/cube_mmad_sum.h"
#include "ascendc/cube/cube_unit_flag.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kFractalBytes = 512;  // one L0A/L0B fractal
constexpr uint32_t kCubeBlock = 16;      // rows of a fractal; L0C's C0
constexpr uint32_t kMxBlock = 32;        // K elements one scale covers
constexpr uint32_t kMxK = 64;            // K of one 32-byte scale fractal

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

const char* Float8Name(CubeType type) {
  const Float8Kind* kind = Float8KindOf(type);
  return kind != nullptr ? Float8KindName(*kind) : "T";
}

// The 950's rule for every call of this file: `what` is the call's subject.
void Require950(const char* api, const char* what) {
  char why[256];
  std::snprintf(why, sizeof why,
                "%s exists on the Ascend 950 only (run on the 950 profile: "
                "NORMGRAD_PROFILE=950)",
                what);
  RequireCubeProfile(api, {Profile::k950}, why);
}

// Byte of scale (row, kb) in an MX buffer from `base`: fractals of 16 rows ×
// 2 scales (32 bytes, row major), `kb1` fractals along K per fractal row.
uint64_t ScaleByte(uint64_t base, uint32_t row, uint32_t kb, uint32_t kb1) {
  return base + (uint64_t{row / kCubeBlock} * kb1 + kb / 2) * 32 +
         uint64_t{row % kCubeBlock} * 2 + kb % 2;
}

// The scales of `rows` rows × k / 32 blocks from `base`, each of their
// fractals checked to have been loaded in this block; as floats, [row][kb].
std::vector<float> ReadScales(const char* api, const char* which, MxSide side,
                              uint64_t base, uint32_t rows, uint32_t k) {
  MxScaleBuffers& mx = CurrentCore().mx_scales();
  const uint32_t kb1 = k / kMxK;
  const uint32_t row_fractals = CeilDiv(rows, kCubeBlock);
  // No bound to check: an operand that fits in L0A / L0B has its scales (a
  // 32nd of its bytes, or a 16th for fp4) inside L0A_MX / L0B_MX.
  const uint64_t end = base + uint64_t{row_fractals} * kb1 * 32;
  const char* buffer = side == MxSide::kA ? "L0A_MX" : "L0B_MX";
  const int s = static_cast<int>(side);
  for (uint64_t f = base / 32; f < CeilDiv(static_cast<uint32_t>(end), 32);
       ++f) {
    if (!mx.IsLoaded(s, static_cast<uint32_t>(f))) {
      Fail(
          "%s: %s's scale fractal at %s bytes %llu..%llu was not loaded in "
          "this block (LoadData's MX form, or asc_copy_l12l0%c_mx, fills "
          "it)",
          api, which, buffer, static_cast<unsigned long long>(f * 32),
          static_cast<unsigned long long>(f * 32 + 31),
          side == MxSide::kA ? 'a' : 'b');
    }
  }
  const float* e8m0 = Float8Table(Float8Kind::kE8m0);
  std::vector<float> out(uint64_t{rows} * (k / kMxBlock));
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t kb = 0; kb < k / kMxBlock; ++kb) {
      out[uint64_t{r} * (k / kMxBlock) + kb] =
          e8m0[mx.buffer(s)[ScaleByte(base, r, kb, kb1)]];
    }
  }
  return out;
}

}  // namespace

// ---- The HiF8 / FP8 mode ---------------------------------------------------

CubeType MmadInputType(const char* api, const char* which, CubeType type) {
  const bool float8 = type == CubeType::kFp8E4m3 ||
                      type == CubeType::kFp8E5m2 || type == CubeType::kHif8;
  if (!float8) return type;
  char what[48];
  std::snprintf(what, sizeof what, "a %s %s", Float8Name(type), which);
  Require950(api, what);
  switch (CurrentCore().mmad_modes().float8) {
    case MmadModes::Float8Mode::kAsTyped:
      return type;
    case MmadModes::Float8Mode::kHif8:
      return CubeType::kHif8;
    case MmadModes::Float8Mode::kFp8:
      break;
  }
  if (type == CubeType::kHif8) {
    Fail(
        "%s: %s is hifloat8_t, but asc_enable_fp8 set the FP8 mode, in which "
        "8-bit operands are not read as hifloat8_t; call asc_enable_hif8 "
        "before this Mmad",
        api, which);
  }
  return type;
}

void RunSetFloat8Mode(const char* api, MmadModes::Float8Mode mode) {
  Require950(api, "the HiF8 / FP8 mode of Mmad");
  CurrentCore().mmad_modes().float8 = mode;
}

// ---- The scale move --------------------------------------------------------

void RunLoadMxScales(const char* api, MxSide side, uint64_t mx_addr,
                     const TensorView& src,
                     const AscendC::LoadData2DMxParams& p) {
  Require950(api, "the MX scale move");
  CheckOperand(api, "srcMx", src, {TPosition::A1, TPosition::B1},
               "A1 or B1 (L1)", 32);
  const char* buffer = side == MxSide::kA ? "L0A_MX" : "L0B_MX";
  if (mx_addr % MxScaleBuffers::kFractalBytes != 0) {
    Fail(
        "%s: the scales go to %s byte %llu, which is not a multiple of 32 "
        "(the L0A/L0B operand must start on 512 bytes)",
        api, buffer, static_cast<unsigned long long>(mx_addr));
  }
  if (p.xStep == 0 || p.yStep == 0) return;  // a NOP
  const uint64_t last_x = p.xStep - 1u;
  const uint64_t last_y = p.yStep - 1u;
  const uint64_t dst_end = mx_addr + ((last_x * p.dstStride + last_y) + 1) * 32;
  if (dst_end > MxScaleBuffers::kBytes) {
    Fail(
        "%s: the scale fractals written (xStep %u rows %u x 32 bytes apart, "
        "yStep %u a row, from %s byte %llu) end at byte %llu, past the "
        "buffer's %u bytes",
        api, p.xStep, p.dstStride, p.yStep, buffer,
        static_cast<unsigned long long>(mx_addr),
        static_cast<unsigned long long>(dst_end), MxScaleBuffers::kBytes);
  }
  const uint64_t first =
      uint64_t{p.xStartPosition} * p.srcStride + p.yStartPosition;
  const uint64_t src_end = (first + last_x * p.srcStride + last_y + 1) * 32;
  CheckFits(api, "srcMx", src_end, src.bytes, "the scale fractals read");
  MxScaleBuffers& mx = CurrentCore().mx_scales();
  const int s = static_cast<int>(side);
  const uint8_t* from = src.declared_data();
  for (uint32_t x = 0; x < p.xStep; ++x) {
    for (uint32_t y = 0; y < p.yStep; ++y) {
      const uint64_t in = (first + uint64_t{x} * p.srcStride + y) * 32;
      const uint64_t out = mx_addr + (uint64_t{x} * p.dstStride + y) * 32;
      std::memmove(mx.buffer(s) + out, from + in, 32);
      mx.MarkLoaded(s, static_cast<uint32_t>(out / 32));
    }
  }
}

// ---- MmadMx ----------------------------------------------------------------

void RunMmadMx(CubeType fm_type, CubeType filter_type, const TensorView& dst,
               const TensorView& fm, const TensorView& filter,
               const TensorView* bias, const AscendC::MmadParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "MmadMx<float, %s, %s>", Float8Name(fm_type),
                Float8Name(filter_type));
  Require950(api, "MmadMx");
  if (bias != nullptr) {
    CheckOperand(api, "bias", *bias, {TPosition::C2}, "C2 (the bias table)",
                 64);
  }
  CheckMmadOperands(api, dst, fm, filter, p);
  // fp8 operands start on 1024 bytes, fp4x2 ones on 512.
  const uint32_t in_bits = CubeTypeBits(fm_type);
  const uint32_t align = in_bits == 8 ? 1024 : kFractalBytes;
  CheckOperand(api, "fm", fm, {TPosition::A2}, "A2 (L0A)", align);
  CheckOperand(api, "filter", filter, {TPosition::B2}, "B2 (L0B)", align);
  if (bias == nullptr && !p.isBias && !p.cmatrixInitVal && p.cmatrixSource) {
    Fail(
        "%s: mmadParams.cmatrixSource is true, but this form has no bias "
        "tensor to start C from; pass the bias (the MmadMx form with a C2 "
        "tensor)",
        api);
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  if (p.k % kMxK != 0) {
    Fail(
        "%s: mmadParams.k %u is not a multiple of 64 (MmadMx's K is whole "
        "32-byte scale fractals: 2 scales of 32 elements)",
        api, p.k);
  }
  const uint32_t k0 = 256 / in_bits;  // K of one fractal (32 bytes a row)
  const uint32_t k1 = p.k / k0;
  const uint32_t m1 = CeilDiv(p.m, kCubeBlock);
  const uint32_t n1 = CeilDiv(p.n, kCubeBlock);
  const bool gemv = p.m == 1 && !p.disableGemv;  // A is one ND row
  const uint64_t a_bytes =
      gemv ? uint64_t{p.k} * in_bits / 8 : uint64_t{m1} * k1 * kFractalBytes;
  const uint64_t b_bytes = uint64_t{k1} * n1 * kFractalBytes;
  const uint64_t c_bytes = uint64_t{m1} * n1 * kCubeBlock * kCubeBlock * 4;
  CheckFits(api, "fm", a_bytes, fm.bytes, "A (m x k)");
  CheckFits(api, "filter", b_bytes, filter.bytes, "B (k x n)");
  CheckFits(api, "dst", c_bytes, dst.bytes, "C (m x n)");
  if (bias != nullptr) {
    CheckFits(api, "bias", uint64_t{p.n} * 4, bias->bytes, "the bias (1 x n)");
  }
  const std::vector<float> scale_a =
      ReadScales(api, "fm", MxSide::kA, fm.offset / 16, p.m, p.k);
  const std::vector<float> scale_b =
      ReadScales(api, "filter", MxSide::kB, filter.offset / 16, p.n, p.k);
  RunUnitFlag("MmadMx", api, "mmadParams.unitFlag", UnitFlagSide::kWrite,
              p.unitFlag, MmadL0cBlocks(dst.offset, p.m, p.n));

  // Element index of A (m, k) in L0A (Nz: fractal row i, column j at j · m1
  // + i; or the ND row of GEMV) and of B (k, n) in L0B (Zn).
  const uint64_t fractal_elems = uint64_t{kCubeBlock} * k0;
  const auto a_index = [&](uint32_t m, uint32_t k) {
    return gemv ? uint64_t{k}
                : (uint64_t{k / k0} * m1 + m / kCubeBlock) * fractal_elems +
                      uint64_t{m % kCubeBlock} * k0 + k % k0;
  };
  const auto b_index = [&](uint32_t k, uint32_t n) {
    return (uint64_t{k / k0} * n1 + n / kCubeBlock) * fractal_elems +
           uint64_t{n % kCubeBlock} * k0 + k % k0;
  };
  const float* a_table = Float8Table(*Float8KindOf(fm_type));
  const float* b_table = Float8Table(*Float8KindOf(filter_type));
  const auto code = [in_bits](const uint8_t* base, uint64_t e) {
    return in_bits == 8 ? base[e] : (base[e / 2] >> (e % 2 * 4)) & 0xF;
  };
  const uint8_t* a = fm.declared_data();
  const uint8_t* b = filter.declared_data();
  const uint32_t kb_count = p.k / kMxBlock;
  // The scaled operands as floats, each product of a value and its
  // power-of-two scale rounded to float (exact inside float's range):
  // scaleB ⊗ B row-major [k][n], and scaleA ⊗ A a row at a time.
  std::vector<float> sb(uint64_t{p.k} * p.n);
  for (uint32_t k = 0; k < p.k; ++k) {
    for (uint32_t n = 0; n < p.n; ++n) {
      sb[uint64_t{k} * p.n + n] =
          b_table[code(b, b_index(k, n))] *
          scale_b[uint64_t{n} * kb_count + k / kMxBlock];
    }
  }
  const auto scaled_row_of_a = [&](uint32_t m, float* row) {
    for (uint32_t k = 0; k < p.k; ++k) {
      row[k] = a_table[code(a, a_index(m, k))] *
               scale_a[uint64_t{m} * kb_count + k / kMxBlock];
    }
  };
  // Then Mmad's float sum: C from the bias, from L0C or from 0.
  std::vector<float> bias_values;
  if (bias != nullptr) {
    bias_values.resize(p.n);
    std::memcpy(bias_values.data(), bias->declared_data(), uint64_t{p.n} * 4);
  }
  FloatMmadC c;
  c.l0c = dst.declared_data();
  c.m1 = m1;
  c.keep = bias == nullptr && (p.isBias || !p.cmatrixInitVal);
  c.bias = bias != nullptr ? bias_values.data() : nullptr;
  SumFloatMmad(c, p.m, p.k, p.n, sb.data(), scaled_row_of_a);
}

}  // namespace normgrad_ascendc

// cube_ops.cc — the cube unit's basic data path (normgrad_ascendc/cube/
// cube_api.h, docs/cube.md): ND2NZ DataCopy GM → L1, LoadData 2D into
// L0A/L0B, Mmad into L0C and Fixpipe NZ2ND out to GM, each checked against
// its page's rules before it moves a byte.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/gm_store.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kFractalBytes = 512;  // one L0A/L0B fractal
constexpr uint32_t kCubeBlock = 16;      // rows of a fractal; L0C's C0

const char* CubeTypeName(CubeType type) {
  switch (type) {
    case CubeType::kInt8:
      return "int8_t";
    case CubeType::kUint8:
      return "uint8_t";
    case CubeType::kInt16:
      return "int16_t";
    case CubeType::kUint16:
      return "uint16_t";
    case CubeType::kHalf:
      return "half";
    case CubeType::kBfloat16:
      return "bfloat16_t";
    case CubeType::kInt32:
      return "int32_t";
    case CubeType::kUint32:
      return "uint32_t";
    case CubeType::kFloat:
      return "float";
    case CubeType::kOther:
      break;
  }
  return "T";
}

uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// The operand rule of the cube instructions: a live, non-empty LocalTensor
// at one of `positions` (their names in `expected`), starting at a multiple
// of `align` bytes.
void CheckOperand(const char* api, const char* which, const TensorView& view,
                  std::initializer_list<TPosition> positions,
                  const char* expected, uint32_t align) {
  view.Check(api);
  if (view.core == nullptr) {
    Fail("%s: %s LocalTensor is empty (no memory)", api, which);
  }
  bool placed = false;
  for (const TPosition p : positions) placed = placed || view.position == p;
  if (!placed) {
    Fail("%s: %s LocalTensor is at position %s; it must be at %s", api, which,
         PositionName(view.position), expected);
  }
  if (view.offset % align != 0) {
    Fail(
        "%s: %s LocalTensor starts at %s offset %u, which is not a multiple "
        "of %u bytes",
        api, which, CubeMemoryName(CubeMemoryOf(view.position)), view.offset,
        align);
  }
}

// An error unless `needed` bytes fit in the operand's `bytes`.
void CheckFits(const char* api, const char* which, uint64_t needed,
               uint32_t bytes, const char* what) {
  if (needed > bytes) {
    Fail("%s: %s reaches %llu bytes into %s, past the end of its %u bytes", api,
         what, static_cast<unsigned long long>(needed), which, bytes);
  }
}

// An error unless `value` is in [lo, hi].
void CheckRange(const char* api, const char* field, uint64_t value, uint64_t lo,
                uint64_t hi) {
  if (value < lo || value > hi) {
    Fail("%s: %s %llu is out of range [%llu, %llu]", api, field,
         static_cast<unsigned long long>(value),
         static_cast<unsigned long long>(lo),
         static_cast<unsigned long long>(hi));
  }
}

// An error unless the GM side has a buffer and [p, p + bytes) is inside it.
void CheckGmSide(const char* api, const char* which, const GmSide& gm,
                 uint32_t elem_bytes, uint64_t end_elem, bool write) {
  if (gm.data == nullptr) {
    Fail("%s: %s GlobalTensor has no buffer (call SetGlobalBuffer first)", api,
         which);
  }
  if (gm.sized && end_elem > gm.elems) {
    Fail(
        "%s: the access reaches element %llu of %s, past the end of the "
        "GlobalTensor of %llu elements",
        api, static_cast<unsigned long long>(end_elem), which,
        static_cast<unsigned long long>(gm.elems));
  }
  CheckGmAccess(api, gm.base, gm.data, end_elem * elem_bytes, write);
}

}  // namespace

// ---- DataCopy GM -> L1 with ND2NZ ------------------------------------------

void RunNd2Nz(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
              const GmSide& src, const AscendC::Nd2NzParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s> GM->L1 (Nd2NzParams)",
                type_name);
  CheckOperand(api, "dst", dst, {TPosition::A1, TPosition::B1, TPosition::C1},
               "A1, B1 or C1 (L1)", 32);
  CheckRange(api, "intriParams.ndNum", p.ndNum, 0, 4095);
  CheckRange(api, "intriParams.nValue", p.nValue, 0, 16384);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // a NOP
  CheckRange(api, "intriParams.srcDValue", p.srcDValue, 1, 65535);
  CheckRange(api, "intriParams.dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
  CheckRange(api, "intriParams.dstNzNStride", p.dstNzNStride, 1, 16384);
  CheckRange(api, "intriParams.dstNzMatrixStride", p.dstNzMatrixStride, 0,
             16384);
  const uint32_t c0 = 32 / elem_bytes;  // elements of one 32-byte row piece
  const uint32_t blocks = CeilDiv(p.dValue, c0);
  const uint64_t last = p.ndNum - 1u;
  // The last element read and the end of the last 32 bytes written.
  const uint64_t src_end = last * p.srcNdMatrixStride +
                           uint64_t{p.nValue - 1u} * p.srcDValue + p.dValue;
  const uint64_t dst_end = (last * p.dstNzMatrixStride +
                            (uint64_t{blocks - 1} * p.dstNzC0Stride +
                             uint64_t{p.nValue - 1u} * p.dstNzNStride + 1) *
                                c0) *
                           elem_bytes;
  CheckFits(api, "dst", dst_end, dst.bytes, "the Nz matrices");
  CheckGmSide(api, "src", src, elem_bytes, src_end, false);
  uint8_t* out = dst.declared_data();
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const uint8_t* matrix =
        src.data + uint64_t{i} * p.srcNdMatrixStride * elem_bytes;
    uint8_t* nz = out + uint64_t{i} * p.dstNzMatrixStride * elem_bytes;
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const uint8_t* row = matrix + uint64_t{r} * p.srcDValue * elem_bytes;
      NoteGmRead(api, row, uint64_t{p.dValue} * elem_bytes);
      for (uint32_t j = 0; j < blocks; ++j) {
        uint8_t* to =
            nz +
            (uint64_t{j} * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * 32;
        const uint32_t valid = std::min(c0, p.dValue - j * c0);
        std::memcpy(to, row + uint64_t{j} * 32, uint64_t{valid} * elem_bytes);
        // A row shorter than its 32 bytes is padded with zeros.
        std::memset(to + valid * elem_bytes, 0, (c0 - valid) * elem_bytes);
      }
    }
  }
}

// ---- LoadData 2D -----------------------------------------------------------

void RunLoadData2D(const char* type_name, uint32_t elem_bytes,
                   const TensorView& dst, const TensorView* src_local,
                   const GmSide* src_gm, const AscendC::LoadData2DParams& p) {
  char api[48];
  std::snprintf(api, sizeof api, "LoadData<%s> %s->%s", type_name,
                src_local != nullptr ? "L1" : "GM",
                dst.position == TPosition::B2 ? "L0B" : "L0A");
  CheckOperand(api, "dst", dst, {TPosition::A2, TPosition::B2},
               "A2 (L0A) or B2 (L0B)", kFractalBytes);
  if (src_local != nullptr) {
    CheckOperand(api, "src", *src_local,
                 {TPosition::A1, TPosition::B1, TPosition::C1},
                 "A1, B1 or C1 (L1)", 32);
  }
  if (p.ifTranspose && src_local == nullptr) {
    Fail(
        "%s: loadDataParams.ifTranspose is true; only the L1 -> L0A/L0B "
        "paths transpose",
        api);
  }
  if (p.ifTranspose && elem_bytes != 2) {
    Fail(
        "%s: loadDataParams.ifTranspose is true for a %u-byte type; the "
        "transpose moves 16-bit types only",
        api, elem_bytes);
  }
  if (p.addrMode != 0) {
    Fail(
        "%s: loadDataParams.addrMode %u; only 0 (fractal index growing) "
        "applies to the L1/GM -> L0A/L0B paths",
        api, p.addrMode);
  }
  if (p.repeatTimes == 0) return;  // a NOP
  const uint64_t last = p.repeatTimes - 1u;
  const uint64_t src_end =
      (p.startIndex + last * p.srcStride + 1) * kFractalBytes;
  const uint64_t dst_end = (last * (1u + p.dstGap) + 1) * kFractalBytes;
  CheckFits(api, "dst", dst_end, dst.bytes, "the fractals written");
  const uint8_t* from = nullptr;
  if (src_local != nullptr) {
    CheckFits(api, "src", src_end, src_local->bytes, "the fractals read");
    from = src_local->declared_data();
  } else {
    CheckGmSide(api, "src", *src_gm, elem_bytes, src_end / elem_bytes, false);
    from = src_gm->data;
  }
  uint8_t* to = dst.declared_data();
  for (uint32_t i = 0; i < p.repeatTimes; ++i) {
    const uint8_t* fractal =
        from + (p.startIndex + uint64_t{i} * p.srcStride) * kFractalBytes;
    uint8_t* out = to + uint64_t{i} * (1u + p.dstGap) * kFractalBytes;
    if (src_local == nullptr) NoteGmRead(api, fractal, kFractalBytes);
    if (!p.ifTranspose) {
      std::memmove(out, fractal, kFractalBytes);
      continue;
    }
    // A 16 x 16 fractal of 16-bit elements, transposed.
    uint16_t in[256];
    std::memcpy(in, fractal, sizeof in);
    uint16_t turned[256];
    for (uint32_t r = 0; r < 16; ++r) {
      for (uint32_t c = 0; c < 16; ++c) turned[c * 16 + r] = in[r * 16 + c];
    }
    std::memcpy(out, turned, sizeof turned);
  }
}

// ---- Mmad ------------------------------------------------------------------

namespace {

// An element of A, B or the bias as a double (exact for every input type).
double Element(CubeType type, const uint8_t* p) {
  switch (type) {
    case CubeType::kInt8:
      return static_cast<int8_t>(*p);
    case CubeType::kHalf: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return normgrad::bits::HalfToFloat(b);
    }
    case CubeType::kBfloat16: {
      uint16_t b;
      std::memcpy(&b, p, 2);
      return normgrad::bits::Bfloat16ToFloat(b);
    }
    case CubeType::kFloat: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case CubeType::kInt32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    default:
      return 0;
  }
}

int32_t SaturateInt32(int64_t v) {
  if (v > std::numeric_limits<int32_t>::max()) {
    return std::numeric_limits<int32_t>::max();
  }
  if (v < std::numeric_limits<int32_t>::min()) {
    return std::numeric_limits<int32_t>::min();
  }
  return static_cast<int32_t>(v);
}

}  // namespace

void RunMmad(CubeType dst_type, CubeType fm_type, CubeType filter_type,
             const TensorView& dst, const TensorView& fm,
             const TensorView& filter, const TensorView* bias,
             CubeType bias_type, const AscendC::MmadParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "Mmad<%s, %s, %s>", CubeTypeName(dst_type),
                CubeTypeName(fm_type), CubeTypeName(filter_type));
  CheckOperand(api, "dst", dst, {TPosition::CO1}, "CO1 (L0C)", 1024);
  CheckOperand(api, "fm", fm, {TPosition::A2}, "A2 (L0A)", kFractalBytes);
  CheckOperand(api, "filter", filter, {TPosition::B2}, "B2 (L0B)",
               kFractalBytes);
  if (bias != nullptr) {
    CheckOperand(api, "bias", *bias, {TPosition::C2}, "C2 (the bias table)",
                 64);
  }
  CheckRange(api, "mmadParams.m", p.m, 0, 4095);
  CheckRange(api, "mmadParams.n", p.n, 0, 4095);
  CheckRange(api, "mmadParams.k", p.k, 0, 4095);
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) {
    Fail("%s: mmadParams.unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  }
  if (p.disableGemv) {
    Fail(
        "%s: mmadParams.disableGemv is true; only the Ascend 950 turns GEMV "
        "off (profile %s)",
        api, CurrentCore().profile().name);
  }
  if (bias == nullptr && !p.isBias && !p.cmatrixInitVal && p.cmatrixSource) {
    Fail(
        "%s: mmadParams.cmatrixSource is true, but this form has no bias "
        "tensor to start C from; pass the bias (the Mmad form with a C2 "
        "tensor)",
        api);
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  const uint32_t in_bytes = fm_type == CubeType::kInt8    ? 1
                            : fm_type == CubeType::kFloat ? 4
                                                          : 2;
  const uint32_t k0 = 32 / in_bytes;  // K of one fractal
  // The K extent of A's rows of fractals: float aligns K to 8 (k0), or to
  // 16 with kDirectionAlign.
  const uint32_t k_aligned = fm_type == CubeType::kFloat && p.kDirectionAlign
                                 ? CeilDiv(p.k, 16) * 16
                                 : CeilDiv(p.k, k0) * k0;
  const uint32_t k1 = k_aligned / k0;
  const uint32_t m1 = CeilDiv(p.m, kCubeBlock);
  const uint32_t n1 = CeilDiv(p.n, kCubeBlock);
  const bool gemv = p.m == 1;  // A is read as one ND row
  const uint64_t a_bytes =
      gemv ? uint64_t{p.k} * in_bytes : uint64_t{m1} * k1 * kFractalBytes;
  const uint64_t b_bytes = uint64_t{CeilDiv(p.k, k0)} * n1 * kFractalBytes;
  const uint64_t c_bytes = uint64_t{m1} * n1 * kCubeBlock * kCubeBlock * 4;
  CheckFits(api, "fm", a_bytes, fm.bytes, "A (m x k)");
  CheckFits(api, "filter", b_bytes, filter.bytes, "B (k x n)");
  CheckFits(api, "dst", c_bytes, dst.bytes, "C (m x n)");
  if (bias != nullptr) {
    CheckFits(api, "bias", uint64_t{p.n} * 4, bias->bytes, "the bias (1 x n)");
  }
  const uint8_t* a = fm.declared_data();
  const uint8_t* b = filter.declared_data();
  const uint8_t* bias_data = bias != nullptr ? bias->declared_data() : nullptr;
  uint8_t* c = dst.declared_data();
  // C starts from the bias, from what L0C holds, or from 0.
  const bool from_bias = bias != nullptr;
  const bool keep = !from_bias && (p.isBias || !p.cmatrixInitVal);
  std::vector<const uint8_t*> a_row(p.k);
  for (uint32_t m = 0; m < p.m; ++m) {
    for (uint32_t k = 0; k < p.k; ++k) {
      a_row[k] =
          gemv ? a + uint64_t{k} * in_bytes
               : a + (uint64_t{m / kCubeBlock} * k1 + k / k0) * kFractalBytes +
                     (uint64_t{m % kCubeBlock} * k0 + k % k0) * in_bytes;
    }
    for (uint32_t n = 0; n < p.n; ++n) {
      uint8_t* out =
          c +
          (uint64_t{n / kCubeBlock} * m1 + m / kCubeBlock) * kCubeBlock *
              kCubeBlock * 4 +
          (uint64_t{m % kCubeBlock} * kCubeBlock + n % kCubeBlock) * 4;
      const auto b_at = [&](uint32_t k) {
        return b + (uint64_t{k / k0} * n1 + n / kCubeBlock) * kFractalBytes +
               (uint64_t{n % kCubeBlock} * k0 + k % k0) * in_bytes;
      };
      if (dst_type == CubeType::kInt32) {
        int64_t acc = 0;
        if (from_bias)
          acc = static_cast<int64_t>(
              Element(bias_type, bias_data + uint64_t{n} * 4));
        if (keep) acc = static_cast<int64_t>(Element(CubeType::kInt32, out));
        for (uint32_t k = 0; k < p.k; ++k) {
          acc += static_cast<int64_t>(Element(fm_type, a_row[k])) *
                 static_cast<int64_t>(Element(filter_type, b_at(k)));
        }
        const int32_t v = SaturateInt32(acc);
        std::memcpy(out, &v, 4);
        continue;
      }
      float acc = 0.0f;
      if (from_bias)
        acc =
            static_cast<float>(Element(bias_type, bias_data + uint64_t{n} * 4));
      if (keep) acc = static_cast<float>(Element(CubeType::kFloat, out));
      // k in order, each product rounded to float (exact for half and
      // bfloat16 inputs), then one rounding per accumulation.
      for (uint32_t k = 0; k < p.k; ++k) {
        const float product = static_cast<float>(Element(fm_type, a_row[k])) *
                              static_cast<float>(Element(filter_type, b_at(k)));
        acc = acc + product;
      }
      std::memcpy(out, &acc, 4);
    }
  }
}

// ---- Fixpipe L0C -> GM -----------------------------------------------------

void RunFixpipe(CubeType dst_type, CubeType src_type, AscendC::CO2Layout layout,
                const GmSide& dst, const TensorView& src,
                const AscendC::FixpipeParamsV220& p) {
  char api[64];
  std::snprintf(api, sizeof api, "Fixpipe<%s, %s> L0C->GM",
                CubeTypeName(dst_type), CubeTypeName(src_type));
  CheckOperand(api, "src", src, {TPosition::CO1}, "CO1 (L0C)", 64);
  if (layout != AscendC::CO2Layout::ROW_MAJOR) {
    Fail(
        "%s: config %s: normgrad emulates the NZ2ND output (CFG_ROW_MAJOR) "
        "only so far",
        api, layout == AscendC::CO2Layout::NZ ? "CFG_NZ" : "COLUMN_MAJOR");
  }
  // The documented (L0C type, GM type, quantPre) combinations emulated.
  const bool from_float = src_type == CubeType::kFloat;
  CubeType expected = CubeType::kOther;
  switch (p.quantPre) {
    case AscendC::NoQuant:
      expected = src_type;
      break;
    case AscendC::F322F16:
      expected = from_float ? CubeType::kHalf : CubeType::kOther;
      break;
    case AscendC::F322BF16:
      expected = from_float ? CubeType::kBfloat16 : CubeType::kOther;
      break;
    default:
      Fail(
          "%s: intriParams.quantPre %d is a quantization mode, which "
          "normgrad does not emulate yet (NoQuant, F322F16 and F322BF16 "
          "are)",
          api, static_cast<int>(p.quantPre));
  }
  if (expected != dst_type) {
    Fail(
        "%s: intriParams.quantPre %d does not turn %s into %s (NoQuant keeps "
        "the L0C type; F322F16 makes half and F322BF16 bfloat16_t, from "
        "float)",
        api, static_cast<int>(p.quantPre), CubeTypeName(src_type),
        CubeTypeName(dst_type));
  }
  CheckRange(api, "intriParams.nSize", p.nSize, 0, 4095);
  CheckRange(api, "intriParams.mSize", p.mSize, 0, 8192);
  CheckRange(api, "intriParams.srcNdStride", p.srcNdStride, 0, 512);
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) {
    Fail("%s: intriParams.unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  }
  if (p.channelSplit) {
    Fail("%s: intriParams.channelSplit does not combine with NZ2ND", api);
  }
  if (p.nSize == 0 || p.mSize == 0 || p.ndNum == 0) return;  // a NOP
  if (p.dstStride < p.nSize) {
    Fail(
        "%s: intriParams.dstStride %u is less than nSize %u: the rows of the "
        "ND output would overlap",
        api, p.dstStride, p.nSize);
  }
  if (p.ndNum > 1 &&
      p.dstNdStride < uint64_t{p.mSize - 1u} * p.dstStride + p.nSize) {
    Fail(
        "%s: intriParams.dstNdStride %u is less than one ND matrix (%llu "
        "elements): the matrices would overlap",
        api, p.dstNdStride,
        static_cast<unsigned long long>(uint64_t{p.mSize - 1u} * p.dstStride +
                                        p.nSize));
  }
  const uint32_t out_bytes =
      dst_type == CubeType::kHalf || dst_type == CubeType::kBfloat16 ? 2 : 4;
  const uint32_t blocks = CeilDiv(p.nSize, kCubeBlock);
  const uint64_t last = p.ndNum - 1u;
  // In elements of L0C (16 of them are one C0_Size).
  const uint64_t src_end =
      (last * p.srcNdStride + uint64_t{blocks - 1} * p.srcStride) * kCubeBlock +
      uint64_t{p.mSize} * kCubeBlock;
  CheckFits(api, "src", src_end * 4, src.bytes, "the NZ matrices");
  const uint64_t dst_end =
      last * p.dstNdStride + uint64_t{p.mSize - 1u} * p.dstStride + p.nSize;
  CheckGmSide(api, "dst", dst, out_bytes, dst_end, true);
  const uint8_t* l0c = src.declared_data();
  std::vector<uint8_t> row(uint64_t{p.nSize} * out_bytes);
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const uint64_t src_base = uint64_t{i} * p.srcNdStride * kCubeBlock;
    const uint64_t dst_base = uint64_t{i} * p.dstNdStride;
    for (uint32_t m = 0; m < p.mSize; ++m) {
      for (uint32_t n = 0; n < p.nSize; ++n) {
        const uint8_t* at =
            l0c +
            (src_base + uint64_t{n / kCubeBlock} * p.srcStride * kCubeBlock +
             uint64_t{m} * kCubeBlock + n % kCubeBlock) *
                4;
        uint8_t* to = row.data() + uint64_t{n} * out_bytes;
        if (src_type == CubeType::kInt32) {
          int32_t v;
          std::memcpy(&v, at, 4);
          if (p.reluEn && v < 0) v = 0;
          std::memcpy(to, &v, 4);
          continue;
        }
        float v;
        std::memcpy(&v, at, 4);
        // ReLU keeps the positive values; the rest (negative, zeros of
        // either sign, NaN) become +0.
        if (p.reluEn && !(v > 0.0f)) v = 0.0f;
        if (dst_type == CubeType::kHalf) {
          const uint16_t h = normgrad::bits::FloatToHalf(v);
          std::memcpy(to, &h, 2);
        } else if (dst_type == CubeType::kBfloat16) {
          const uint16_t h = normgrad::bits::FloatToBfloat16(v);
          std::memcpy(to, &h, 2);
        } else {
          std::memcpy(to, &v, 4);
        }
      }
      uint8_t* out =
          dst.data + (dst_base + uint64_t{m} * p.dstStride) * out_bytes;
      StoreToGm(api, out, row.data(), row.size());
    }
  }
}

}  // namespace normgrad_ascendc

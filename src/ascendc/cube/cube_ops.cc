// cube_ops.cc — the cube unit's basic data path (normgrad_ascendc/cube/
// cube_api.h, docs/cube.md): ND2NZ DataCopy GM → L1, LoadData 2D into
// L0A/L0B, Mmad into L0C, Fixpipe out to GM (NZ2ND, NZ2NZ with F32 Channel
// Split and Int8 Channel Merge) or L1 with its casts and quantization modes,
// and DataCopy L0C -> GM / L1 with the fixpipe registers, each checked
// against its page's rules before it moves a byte.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/cube/cube_mmad_sum.h"
#include "ascendc/cube/cube_unit_flag.h"
#include "ascendc/cube/fixpipe_convert.h"
#include "ascendc/cube/hf32_round.h"
#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/gm_store.h"
#include "ascendc/runtime/race_check.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_l1_moves.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/cube/cube_mx.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/runtime/float8.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kFractalBytes = 512;  // one L0A/L0B fractal
uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

}  // namespace

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
    case CubeType::kInt4:
      return "int4b_t";
    case CubeType::kFp8E4m3:
      return "fp8_e4m3fn_t";
    case CubeType::kFp8E5m2:
      return "fp8_e5m2_t";
    case CubeType::kHif8:
      return "hifloat8_t";
    case CubeType::kFp8E8m0:
      return "fp8_e8m0_t";
    case CubeType::kFp4E2m1:
      return "fp4x2_e2m1_t";
    case CubeType::kFp4E1m2:
      return "fp4x2_e1m2_t";
    case CubeType::kOther:
      break;
  }
  return "T";
}

uint32_t CubeTypeBits(CubeType type) {
  switch (type) {
    case CubeType::kInt4:
    case CubeType::kFp4E2m1:
    case CubeType::kFp4E1m2:
      return 4;
    case CubeType::kInt8:
    case CubeType::kUint8:
    case CubeType::kFp8E4m3:
    case CubeType::kFp8E5m2:
    case CubeType::kHif8:
    case CubeType::kFp8E8m0:
      return 8;
    case CubeType::kInt16:
    case CubeType::kUint16:
    case CubeType::kHalf:
    case CubeType::kBfloat16:
      return 16;
    case CubeType::kInt32:
    case CubeType::kUint32:
    case CubeType::kFloat:
    case CubeType::kOther:
      break;
  }
  return 32;
}

const Float8Kind* Float8KindOf(CubeType type) {
  static constexpr Float8Kind kKinds[] = {
      Float8Kind::kE4m3fn, Float8Kind::kE5m2, Float8Kind::kHif8,
      Float8Kind::kE8m0,   Float8Kind::kE2m1, Float8Kind::kE1m2};
  switch (type) {
    case CubeType::kFp8E4m3:
      return &kKinds[0];
    case CubeType::kFp8E5m2:
      return &kKinds[1];
    case CubeType::kHif8:
      return &kKinds[2];
    case CubeType::kFp8E8m0:
      return &kKinds[3];
    case CubeType::kFp4E2m1:
      return &kKinds[4];
    case CubeType::kFp4E1m2:
      return &kKinds[5];
    default:
      return nullptr;
  }
}

// ---- Shared checks (cube_checks.h) ----------------------------------------

void CheckGmSide(const char* api, const char* which, const GmSide& gm,
                 uint32_t elem_bytes, uint64_t end_elem, bool write) {
  if (gm.data == nullptr) {
    Fail("%s: %s GlobalTensor has no buffer (call SetGlobalBuffer first)", api,
         which);
  }
  if (gm.sized && end_elem > gm.elems) {
    Fail(
        "%s: the access reaches %s %llu of %s, past the end of the "
        "GlobalTensor of %llu %s",
        api, gm.int4 ? "byte" : "element",
        static_cast<unsigned long long>(end_elem), which,
        static_cast<unsigned long long>(gm.elems),
        gm.int4 ? "bytes (two int4b_t a byte)" : "elements");
  }
  CheckGmAccess(api, gm.base, gm.data, end_elem * elem_bytes, write);
}

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

void CheckFits(const char* api, const char* which, uint64_t needed,
               uint32_t bytes, const char* what) {
  if (needed > bytes) {
    Fail("%s: %s reaches %llu bytes into %s, past the end of its %u bytes", api,
         what, static_cast<unsigned long long>(needed), which, bytes);
  }
}

void CheckRange(const char* api, const char* field, uint64_t value, uint64_t lo,
                uint64_t hi) {
  if (value < lo || value > hi) {
    Fail("%s: %s %llu is out of range [%llu, %llu]", api, field,
         static_cast<unsigned long long>(value),
         static_cast<unsigned long long>(lo),
         static_cast<unsigned long long>(hi));
  }
}

void RequireCubeProfile(const char* api,
                        std::initializer_list<Profile> profiles,
                        const char* why) {
  const ProfileInfo& info = CurrentCore().profile();
  for (const Profile p : profiles) {
    if (p == info.profile) return;
  }
  Fail("%s: not available on profile %s: %s", api, info.name, why);
}

void CheckMmadOperands(const char* api, const TensorView& dst,
                       const TensorView& fm, const TensorView& filter,
                       const AscendC::MmadParams& p) {
  CheckOperand(api, "dst", dst, {TPosition::CO1}, "CO1 (L0C)", 1024);
  CheckOperand(api, "fm", fm, {TPosition::A2}, "A2 (L0A)", kFractalBytes);
  CheckOperand(api, "filter", filter, {TPosition::B2}, "B2 (L0B)",
               kFractalBytes);
  CheckRange(api, "mmadParams.m", p.m, 0, 4095);
  CheckRange(api, "mmadParams.n", p.n, 0, 4095);
  CheckRange(api, "mmadParams.k", p.k, 0, 4095);
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) {
    Fail("%s: mmadParams.unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  }
  if (p.kDirectionAlign && OnProfile950()) {
    Fail(
        "%s: mmadParams.kDirectionAlign is true; the 950 aligns float K to 8 "
        "only (kDirectionAlign false)",
        api);
  }
  if (p.disableGemv && !OnProfile950()) {
    Fail(
        "%s: mmadParams.disableGemv is true; only the Ascend 950 turns GEMV "
        "off (profile %s)",
        api, CurrentCore().profile().name);
  }
}

// ---- DataCopy GM -> L1 (or UB) with ND2NZ ----------------------------------

Nd2NzExtent Nd2NzExtentOf(uint32_t elem_bytes, const AscendC::Nd2NzParams& p) {
  const uint32_t c0 = 32 / elem_bytes;  // elements of one 32-byte row piece
  const uint32_t blocks = CeilDiv(p.dValue, c0);
  const uint64_t last = p.ndNum - 1u;
  return {last * p.srcNdMatrixStride + uint64_t{p.nValue - 1u} * p.srcDValue +
              p.dValue,
          (last * p.dstNzMatrixStride +
           (uint64_t{blocks - 1} * p.dstNzC0Stride +
            uint64_t{p.nValue - 1u} * p.dstNzNStride + 1) *
               c0) *
              elem_bytes};
}

void MoveNd2Nz(const char* api, uint32_t elem_bytes, uint8_t* out,
               const GmSide& src, const AscendC::Nd2NzParams& p,
               const Nd2NzPiece& piece) {
  const uint32_t c0 = 32 / elem_bytes;
  const uint32_t blocks = CeilDiv(p.dValue, c0);
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    const uint8_t* matrix =
        src.data + uint64_t{i} * p.srcNdMatrixStride * elem_bytes;
    const uint64_t nz = uint64_t{i} * p.dstNzMatrixStride * elem_bytes;
    for (uint32_t r = 0; r < p.nValue; ++r) {
      const uint8_t* row = matrix + uint64_t{r} * p.srcDValue * elem_bytes;
      NoteGmRead(api, row, uint64_t{p.dValue} * elem_bytes);
      for (uint32_t j = 0; j < blocks; ++j) {
        const uint64_t to =
            nz +
            (uint64_t{j} * p.dstNzC0Stride + uint64_t{r} * p.dstNzNStride) * 32;
        const uint32_t valid = std::min(c0, p.dValue - j * c0);
        const uint8_t* from = row + uint64_t{j} * 32;
        if (piece) piece(from, valid * elem_bytes, to);
        std::memcpy(out + to, from, uint64_t{valid} * elem_bytes);
        // A row shorter than its 32 bytes is padded with zeros.
        std::memset(out + to + valid * elem_bytes, 0,
                    (c0 - valid) * elem_bytes);
      }
    }
  }
}

void RunNd2Nz(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
              const GmSide& src, const AscendC::Nd2NzParams& p) {
  // A destination in the UB is the vector core's form (cube_l1_moves.cc).
  if (!IsCubePosition(dst.position)) {
    RunNd2NzToUb(type_name, elem_bytes, dst, src, p);
    return;
  }
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
  const Nd2NzExtent extent = Nd2NzExtentOf(elem_bytes, p);
  CheckFits(api, "dst", extent.dst_bytes, dst.bytes, "the Nz matrices");
  CheckGmSide(api, "src", src, elem_bytes, extent.src_elems, false);
  MoveNd2Nz(api, elem_bytes, dst.declared_data(), src, p, nullptr);
}

// ---- LoadData 2D -----------------------------------------------------------

void RunLoadData2D(const char* type_name, uint32_t elem_bytes,
                   const TensorView& dst, const TensorView* src_local,
                   const GmSide* src_gm, const AscendC::LoadData2DParams& p) {
  // GM -> L1 (A1/B1) moves fractals too, into 32-byte aligned L1.
  const bool to_l1 = src_gm != nullptr && (dst.position == TPosition::A1 ||
                                           dst.position == TPosition::B1);
  char api[48];
  std::snprintf(api, sizeof api, "LoadData<%s> %s->%s", type_name,
                src_local != nullptr ? "L1" : "GM",
                to_l1                           ? "L1"
                : dst.position == TPosition::B2 ? "L0B"
                                                : "L0A");
  if (src_gm != nullptr) {
    CheckOperand(api, "dst", dst,
                 {TPosition::A1, TPosition::B1, TPosition::A2, TPosition::B2},
                 "A1, B1 (L1), A2 (L0A) or B2 (L0B)",
                 to_l1 ? 32 : kFractalBytes);
  } else {
    CheckOperand(api, "dst", dst, {TPosition::A2, TPosition::B2},
                 "A2 (L0A) or B2 (L0B)", kFractalBytes);
  }
  if (src_local != nullptr) {
    CheckOperand(api, "src", *src_local,
                 {TPosition::A1, TPosition::B1, TPosition::C1},
                 "A1, B1 or C1 (L1)", 32);
  }
  if (src_gm != nullptr && !to_l1) {
    RequireCubeProfile(api, {Profile::kA2},
                       "the 950 has no GM -> L0A/L0B path; move into L1 "
                       "first, then LoadData L1 -> L0A/L0B");
  }
  if (p.ifTranspose && src_local == nullptr) {
    Fail(
        "%s: loadDataParams.ifTranspose is true; only the L1 -> L0A/L0B "
        "paths transpose",
        api);
  }
  if (p.ifTranspose && dst.position == TPosition::A2 && OnProfile950()) {
    Fail(
        "%s: loadDataParams.ifTranspose is true; the 950's L1 -> L0A load "
        "does not transpose (its L0A holds A as Nz fractals)",
        api);
  }
  if (p.ifTranspose && elem_bytes != 2) {
    Fail(
        "%s: loadDataParams.ifTranspose is true for a %u-byte type; the "
        "transpose moves 16-bit types only",
        api, elem_bytes);
  }
  // addrMode 1 (the fractal index falls) is the GM -> L1 page's only.
  if (p.addrMode > (to_l1 ? 1 : 0)) {
    Fail("%s: loadDataParams.addrMode %u; %s", api, p.addrMode,
         to_l1 ? "0 (fractal index growing) or 1 (falling)"
               : "only 0 (fractal index growing) applies to the L1/GM -> "
                 "L0A/L0B paths");
  }
  if (p.repeatTimes == 0) return;  // a NOP
  const uint64_t last = p.repeatTimes - 1u;
  const bool falling = p.addrMode == 1;
  if (falling && last * p.srcStride > p.startIndex) {
    Fail(
        "%s: loadDataParams.addrMode 1 from startIndex %u steps %llu "
        "fractals down (repeatTimes %u x srcStride %u): below fractal 0",
        api, p.startIndex, static_cast<unsigned long long>(last * p.srcStride),
        p.repeatTimes, p.srcStride);
  }
  const uint64_t src_end =
      (p.startIndex + (falling ? 0 : last * p.srcStride) + 1) * kFractalBytes;
  // The 950 ignores dstGap: its fractals land one after another.
  const uint64_t dst_gap = OnProfile950() ? 0 : p.dstGap;
  const uint64_t dst_end = (last * (1u + dst_gap) + 1) * kFractalBytes;
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
    const uint64_t step = uint64_t{i} * p.srcStride;
    const uint8_t* fractal =
        from +
        (falling ? p.startIndex - step : p.startIndex + step) * kFractalBytes;
    uint8_t* out = to + uint64_t{i} * (1u + dst_gap) * kFractalBytes;
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

// ---- Fill ------------------------------------------------------------------

void RunFill(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
             uint32_t repeat_times, uint32_t block_num, uint32_t dst_gap,
             const void* value) {
  char api[32];
  std::snprintf(api, sizeof api, "Fill<%s>", type_name);
  CheckOperand(api, "dst", dst,
               {TPosition::A1, TPosition::B1, TPosition::A2, TPosition::B2},
               "A1, B1 (L1), A2 (L0A) or B2 (L0B)", 32);
  const bool l0 =
      dst.position == TPosition::A2 || dst.position == TPosition::B2;
  if (l0) {
    RequireCubeProfile(api, {Profile::kA2},
                       "the 950 cannot fill L0A/L0B; fill an L1 tensor and "
                       "load it");
  }
  const uint32_t block = l0 ? kFractalBytes : 32;
  if (l0 && dst.offset % kFractalBytes != 0) {
    Fail(
        "%s: dst LocalTensor starts at %s offset %u, which is not a multiple "
        "of 512 bytes",
        api, CubeMemoryName(CubeMemoryOf(dst.position)), dst.offset);
  }
  CheckRange(api, "initConstValueParams.repeatTimes", repeat_times, 0, 32767);
  CheckRange(api, "initConstValueParams.blockNum", block_num, 0, 32767);
  CheckRange(api, "initConstValueParams.dstGap", dst_gap, 0, 32767);
  if (repeat_times == 0 || block_num == 0) return;  // a NOP
  const uint64_t run = uint64_t{block_num} * block;
  const uint64_t pitch = run + uint64_t{dst_gap} * block;
  CheckFits(api, "dst", (repeat_times - 1u) * pitch + run, dst.bytes,
            "the blocks filled");
  uint8_t* out = dst.declared_data();
  for (uint32_t r = 0; r < repeat_times; ++r) {
    uint8_t* to = out + r * pitch;
    for (uint64_t b = 0; b < run; b += elem_bytes) {
      std::memcpy(to + b, value, elem_bytes);
    }
  }
}

// ---- Mmad ------------------------------------------------------------------

namespace {

// An element of A, B or the bias as a double (exact for every input type).
double Element(CubeType type, const uint8_t* p) {
  if (const Float8Kind* kind = Float8KindOf(type)) {
    return DecodeFloat8(*kind, *p);
  }
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

// Mmad's working copies of A, B, the bias and a row of C, kept per host
// thread (each emulated core runs on its own) so repeated Mmads do not
// allocate.
struct MmadScratch {
  std::vector<float> fa, fb, fraw, frow, fc, fbias;
  std::vector<int32_t> ia, ib, iraw, irow, isum;
};

// `count` consecutive inputs of `type` from element index `first` of
// `base` (int4b_t: two a byte, the low nibble first) into `out`, exactly:
// 16-bit floats by the instruction set's widening, a run at a time.
template <typename T>
void InputRun(CubeType type, const uint8_t* base, uint64_t first,
              uint32_t count, T* out) {
  if constexpr (std::is_same_v<T, float>) {
    const normgrad::kernels::Isa& isa = VectorLoops();
    const auto bits16 = [&] {
      return reinterpret_cast<const uint16_t*>(base + first * 2);
    };
    switch (type) {
      case CubeType::kHalf:
        isa.widen_f16(bits16(), out, count);
        return;
      case CubeType::kBfloat16:
        isa.widen_bf16(bits16(), out, count);
        return;
      case CubeType::kFloat:
        std::memcpy(out, base + first * 4, uint64_t{count} * 4);
        return;
      default:
        break;
    }
  }
  if (const Float8Kind* kind = Float8KindOf(type)) {
    // 8-bit floats a byte each; 4-bit ones two a byte, the low nibble first.
    const float* table = Float8Table(*kind);
    const bool fp4 = CubeTypeBits(type) == 4;
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t e = first + i;
      const uint8_t byte = base[fp4 ? e / 2 : e];
      out[i] = static_cast<T>(table[fp4 ? (byte >> (e % 2 * 4)) & 0xF : byte]);
    }
    return;
  }
  const uint64_t bytes = CubeTypeBits(type) / 8;
  for (uint32_t i = 0; i < count; ++i) {
    out[i] = type == CubeType::kInt4
                 ? static_cast<T>(Int4At(base, first + i))
                 : static_cast<T>(Element(type, base + (first + i) * bytes));
  }
}

MmadScratch& Scratch() {
  thread_local MmadScratch scratch;
  return scratch;
}

}  // namespace

void RunMmad(CubeType dst_type, CubeType fm_type, CubeType filter_type,
             const TensorView& dst, const TensorView& fm,
             const TensorView& filter, const TensorView* bias,
             CubeType bias_type, const AscendC::MmadParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "Mmad<%s, %s, %s>", CubeTypeName(dst_type),
                CubeTypeName(fm_type), CubeTypeName(filter_type));
  // The 950's 8-bit floats, read as the HiF8 / FP8 mode says (cube_mx.cc).
  fm_type = MmadInputType(api, "fm", fm_type);
  filter_type = MmadInputType(api, "filter", filter_type);
  if (bias != nullptr) {
    CheckOperand(api, "bias", *bias, {TPosition::C2}, "C2 (the bias table)",
                 64);
  }
  CheckMmadOperands(api, dst, fm, filter, p);
  if (bias == nullptr && !p.isBias && !p.cmatrixInitVal && p.cmatrixSource) {
    Fail(
        "%s: mmadParams.cmatrixSource is true, but this form has no bias "
        "tensor to start C from; pass the bias (the Mmad form with a C2 "
        "tensor)",
        api);
  }
  if (fm_type == CubeType::kInt4) {
    RequireCubeProfile(api, {Profile::kA2},
                       "the 950's cube has no int4 inputs; Cast int4b_t to "
                       "int8_t first");
  }
  if (p.m == 0 || p.n == 0 || p.k == 0) return;  // a NOP
  const uint32_t in_bits = CubeTypeBits(fm_type);
  const uint32_t k0 = 256 / in_bits;  // K of one fractal (32 bytes)
  const uint64_t fractal_elems = kFractalBytes * 8 / in_bits;
  // The K extent of A's rows of fractals: float aligns K to 8 (k0), or to
  // 16 with kDirectionAlign.
  const uint32_t k_aligned = fm_type == CubeType::kFloat && p.kDirectionAlign
                                 ? CeilDiv(p.k, 16) * 16
                                 : CeilDiv(p.k, k0) * k0;
  const uint32_t k1 = k_aligned / k0;
  const uint32_t m1 = CeilDiv(p.m, kCubeBlock);
  const uint32_t n1 = CeilDiv(p.n, kCubeBlock);
  const bool gemv = p.m == 1 && !p.disableGemv;  // A is one ND row
  // A's fractals: Zz on Atlas A2/A3 (fractal rows one after another), Nz on
  // the 950 (fractal columns one after another).
  const bool a_nz = OnProfile950();
  const uint64_t a_bytes = gemv ? (uint64_t{p.k} * in_bits + 7) / 8
                                : uint64_t{m1} * k1 * kFractalBytes;
  const uint64_t b_bytes = uint64_t{CeilDiv(p.k, k0)} * n1 * kFractalBytes;
  const uint64_t c_bytes = uint64_t{m1} * n1 * kCubeBlock * kCubeBlock * 4;
  CheckFits(api, "fm", a_bytes, fm.bytes, "A (m x k)");
  CheckFits(api, "filter", b_bytes, filter.bytes, "B (k x n)");
  CheckFits(api, "dst", c_bytes, dst.bytes, "C (m x n)");
  if (bias != nullptr) {
    CheckFits(api, "bias", uint64_t{p.n} * 4, bias->bytes, "the bias (1 x n)");
  }
  RunUnitFlag("Mmad", api, "mmadParams.unitFlag", UnitFlagSide::kWrite,
              p.unitFlag, MmadL0cBlocks(dst.offset, p.m, p.n));
  const uint8_t* a = fm.declared_data();
  const uint8_t* b = filter.declared_data();
  const uint8_t* bias_data = bias != nullptr ? bias->declared_data() : nullptr;
  uint8_t* c = dst.declared_data();
  // C starts from the bias, from what L0C holds, or from 0.
  const bool from_bias = bias != nullptr;
  const bool keep = !from_bias && (p.isBias || !p.cmatrixInitVal);
  // SetHF32Mode rounds float inputs to HF32 (docs/numerics.md).
  const MmadModes& modes = CurrentCore().mmad_modes();
  const bool hf32 = modes.hf32 && fm_type == CubeType::kFloat;
  const bool hf32_ties_away = modes.hf32_trans == 1;
  const auto a_index = [&](uint32_t m, uint32_t k) {
    const uint64_t fractal = a_nz ? uint64_t{k / k0} * m1 + m / kCubeBlock
                                  : uint64_t{m / kCubeBlock} * k1 + k / k0;
    return gemv ? uint64_t{k}
                : fractal * fractal_elems + uint64_t{m % kCubeBlock} * k0 +
                      k % k0;
  };
  // From one of A's fractals to the next along k.
  const uint64_t a_k_step = (a_nz ? m1 : 1) * fractal_elems;
  const auto b_index = [&](uint32_t k, uint32_t n) {
    return (uint64_t{k / k0} * n1 + n / kCubeBlock) * fractal_elems +
           uint64_t{n % kCubeBlock} * k0 + k % k0;
  };
  // C's row m from column block nb on (L0C is Nz: 16 columns a run).
  const auto c_run = [&](uint32_t m, uint32_t nb) {
    return c +
           (uint64_t{nb} * m1 + m / kCubeBlock) * kCubeBlock * kCubeBlock * 4 +
           uint64_t{m % kCubeBlock} * kCubeBlock * 4;
  };
  const uint32_t m_count = p.m, n_count = p.n, k_count = p.k;
  // A and B as T, each widened in one run of all its fractals: A stays in
  // its L0A layout (read by a_index), B becomes a row-major [k][n] matrix,
  // the rows the axpy loops want, by turning each of its fractals.
  const uint64_t a_elems = gemv ? k_count : a_bytes * 8 / in_bits;
  const uint32_t b_k1 = CeilDiv(k_count, k0);
  const auto unpack = [&](auto& fa, auto& fb, auto& b_fractals) {
    fa.resize(a_elems);
    InputRun(fm_type, a, 0, static_cast<uint32_t>(a_elems), fa.data());
    b_fractals.resize(uint64_t{b_k1} * n1 * fractal_elems);
    InputRun(filter_type, b, 0, static_cast<uint32_t>(b_fractals.size()),
             b_fractals.data());
    fb.resize(uint64_t{k_count} * n_count);
    for (uint32_t k = 0; k < k_count; k += k0) {
      const uint32_t k_run = std::min(k0, k_count - k);
      for (uint32_t n = 0; n < n_count; n += kCubeBlock) {
        const auto* fractal = b_fractals.data() + b_index(k, n);
        const uint32_t n_run = std::min(kCubeBlock, n_count - n);
        for (uint32_t i = 0; i < k_run; ++i) {
          auto* row = fb.data() + uint64_t{k + i} * n_count + n;
          for (uint32_t j = 0; j < n_run; ++j) row[j] = fractal[j * k0 + i];
        }
      }
    }
  };
  // Row m of A in k order, out of A's fractals.
  const auto a_row = [&](const auto& fa, uint32_t m, auto* row) {
    if (gemv) {  // A is the one ND row
      std::copy_n(fa.data(), k_count, row);
      return;
    }
    const auto* first = fa.data() + a_index(m, 0);
    for (uint32_t k = 0; k < k_count; k += k0) {
      std::copy_n(first + uint64_t{k / k0} * a_k_step,
                  std::min(k0, k_count - k), row + k);
    }
  };
  MmadScratch& s = Scratch();
  if (dst_type == CubeType::kInt32) {
    // Products of int8 (or int4) values are at most 2^14 in size, so k <=
    // 4095 of them sum exactly in int32; the initial value is added in 64
    // bits and the total saturated once, as the page says.
    unpack(s.ia, s.ib, s.iraw);
    s.isum.resize(n_count);
    s.irow.resize(k_count);
    for (uint32_t m = 0; m < m_count; ++m) {
      int32_t* __restrict sum = s.isum.data();
      std::fill(s.isum.begin(), s.isum.end(), 0);
      a_row(s.ia, m, s.irow.data());
      for (uint32_t k = 0; k < k_count; ++k) {
        const int32_t a_mk = s.irow[k];
        const int32_t* __restrict b_k = s.ib.data() + uint64_t{k} * n_count;
        for (uint32_t n = 0; n < n_count; ++n) sum[n] += a_mk * b_k[n];
      }
      for (uint32_t n = 0; n < n_count; ++n) {
        uint8_t* out = c_run(m, n / kCubeBlock) + (n % kCubeBlock) * 4;
        int64_t init = 0;
        if (from_bias)
          init = static_cast<int64_t>(
              Element(bias_type, bias_data + uint64_t{n} * 4));
        if (keep) init = static_cast<int64_t>(Element(CubeType::kInt32, out));
        const int32_t v = SaturateInt32(init + sum[n]);
        std::memcpy(out, &v, 4);
      }
    }
    return;
  }
  // Float results: A and B as floats (float inputs rounded to HF32 in that
  // mode), then the float sum (cube_mmad_sum.h).
  unpack(s.fa, s.fb, s.fraw);
  if (hf32) {
    for (float& v : s.fa) v = RoundToHf32(v, hf32_ties_away);
    for (float& v : s.fb) v = RoundToHf32(v, hf32_ties_away);
  }
  if (from_bias) {
    s.fbias.resize(n_count);
    InputRun(bias_type, bias_data, 0, n_count, s.fbias.data());
  }
  FloatMmadC start;
  start.l0c = c;
  start.m1 = m1;
  start.keep = keep;
  start.bias = from_bias ? s.fbias.data() : nullptr;
  SumFloatMmad(start, m_count, k_count, n_count, s.fb.data(),
               [&](uint32_t m, float* row) { a_row(s.fa, m, row); });
}

void SumFloatMmad(const FloatMmadC& c, uint32_t m, uint32_t k, uint32_t n,
                  const float* b,
                  const std::function<void(uint32_t, float*)>& row_of_a) {
  // Per row of C one axpy per t (acc = acc + fl(a[i][t] * b[t][j]) for all
  // j at once): each element's k terms in order.
  MmadScratch& s = Scratch();
  s.fc.resize(n);
  s.frow.resize(k);
  // C's row i from column block jb on (L0C is Nz: 16 columns a run).
  const auto c_run = [&](uint32_t i, uint32_t jb) {
    return c.l0c +
           (uint64_t{jb} * c.m1 + i / kCubeBlock) * kCubeBlock * kCubeBlock *
               4 +
           uint64_t{i % kCubeBlock} * kCubeBlock * 4;
  };
  const normgrad::kernels::AdvancedKernels& loops =
      normgrad::kernels::AdvancedKernelsOf(VectorLoops());
  // CTRL[48] = 0 (SetOverflow(0)): inf results become ±MAX and NaN 0.
  const bool saturate = FloatSaturationOn();
  for (uint32_t i = 0; i < m; ++i) {
    float* acc = s.fc.data();
    for (uint32_t j = 0; j < n; j += kCubeBlock) {
      const uint32_t run = std::min(kCubeBlock, n - j) * 4;
      if (c.keep) {
        std::memcpy(acc + j, c_run(i, j / kCubeBlock), run);
      } else if (c.bias != nullptr) {
        std::memcpy(acc + j, c.bias + j, run);
      } else {
        std::memset(acc + j, 0, run);
      }
    }
    row_of_a(i, s.frow.data());
    for (uint32_t t = 0; t < k; ++t) {
      loops.axpy_f32(acc, b + uint64_t{t} * n, n, s.frow[t], false);
    }
    if (saturate) SaturateFloat32(acc, n);
    for (uint32_t j = 0; j < n; j += kCubeBlock) {
      std::memcpy(c_run(i, j / kCubeBlock), acc + j,
                  std::min(kCubeBlock, n - j) * 4);
    }
  }
}

// ---- Fixpipe L0C -> GM / L1 -----------------------------------------------

using AscendC::QuantMode_t;

namespace {

// What a quantization mode writes (besides NoQuant's type of L0C).
enum class ModeOut : uint8_t { kSame, kHalf, kBf16, kB8, kFloat, kFp8, kHif8 };

// Each mode, in the order of QuantMode_t: its name, whether it reads one
// parameter per column, whether it takes a parameter at all, the L0C type it
// reads (kOther: either), what it writes, and whether it is the Ascend
// 950's only.
struct QuantModeInfo {
  const char* name;
  bool vector;
  bool quantizes;
  CubeType from;
  ModeOut to;
  bool only_950;
};
constexpr CubeType kF32 = CubeType::kFloat;
constexpr CubeType kS32 = CubeType::kInt32;
constexpr QuantModeInfo kQuantModes[] = {
    {"NoQuant", false, false, CubeType::kOther, ModeOut::kSame, false},
    {"F322F16", false, false, kF32, ModeOut::kHalf, false},
    {"F322BF16", false, false, kF32, ModeOut::kBf16, false},
    {"DEQF16", false, true, kS32, ModeOut::kHalf, false},
    {"VDEQF16", true, true, kS32, ModeOut::kHalf, false},
    {"QF322B8_PRE", false, true, kF32, ModeOut::kB8, false},
    {"VQF322B8_PRE", true, true, kF32, ModeOut::kB8, false},
    {"REQ8", false, true, kS32, ModeOut::kB8, false},
    {"VREQ8", true, true, kS32, ModeOut::kB8, false},
    {"QF322FP8_PRE", false, true, kF32, ModeOut::kFp8, true},
    {"VQF322FP8_PRE", true, true, kF32, ModeOut::kFp8, true},
    {"QF322HIF8_PRE", false, true, kF32, ModeOut::kHif8, true},
    {"VQF322HIF8_PRE", true, true, kF32, ModeOut::kHif8, true},
    {"QF322HIF8_PRE_HYBRID", false, true, kF32, ModeOut::kHif8, true},
    {"VQF322HIF8_PRE_HYBRID", true, true, kF32, ModeOut::kHif8, true},
    {"QS322BF16_PRE", false, true, kS32, ModeOut::kBf16, true},
    {"VQS322BF16_PRE", true, true, kS32, ModeOut::kBf16, true},
    {"QF322F16_PRE", false, true, kF32, ModeOut::kHalf, true},
    {"VQF322F16_PRE", true, true, kF32, ModeOut::kHalf, true},
    {"QF322BF16_PRE", false, true, kF32, ModeOut::kBf16, true},
    {"VQF322BF16_PRE", true, true, kF32, ModeOut::kBf16, true},
    {"QF322F32_PRE", false, true, kF32, ModeOut::kFloat, true},
    {"VQF322F32_PRE", true, true, kF32, ModeOut::kFloat, true},
};
static_assert(sizeof kQuantModes / sizeof kQuantModes[0] ==
                  AscendC::VQF322F32_PRE + 1u,
              "kQuantModes: one row per QuantMode_t value, in order");

// The row of `mode`; null for a value outside the enumeration (a number
// passed through the C API, say).
const QuantModeInfo* InfoOf(QuantMode_t mode) {
  const auto i = static_cast<uint32_t>(mode);
  return i < sizeof kQuantModes / sizeof kQuantModes[0] ? &kQuantModes[i]
                                                        : nullptr;
}

}  // namespace

const char* QuantModeName(QuantMode_t mode) {
  const QuantModeInfo* info = InfoOf(mode);
  return info != nullptr ? info->name : "unknown";
}

bool IsVectorMode(QuantMode_t mode) {
  const QuantModeInfo* info = InfoOf(mode);
  return info != nullptr && info->vector;
}

bool ModeIs950s(QuantMode_t mode) {
  const QuantModeInfo* info = InfoOf(mode);
  return info != nullptr && info->only_950;
}

void CheckQuantWorkspace(const char* api, QuantMode_t mode,
                         bool has_workspace) {
  const bool vector_mode = IsVectorMode(mode);
  if (vector_mode && !has_workspace) {
    Fail(
        "%s: intriParams.quantPre %s reads one parameter per column from "
        "cbufWorkspace; use the Fixpipe form with cbufWorkspace",
        api, QuantModeName(mode));
  }
  if (!vector_mode && has_workspace) {
    Fail(
        "%s: cbufWorkspace is given, but intriParams.quantPre %s is not a "
        "per-column mode (a V mode: VDEQF16, VQF322B8_PRE, VREQ8; on the "
        "Ascend 950 also VQF322FP8_PRE, VQF322HIF8_PRE(_HYBRID), "
        "VQS322BF16_PRE, VQF322F16_PRE, VQF322BF16_PRE, VQF322F32_PRE)",
        api, QuantModeName(mode));
  }
}

bool ModeConverts(QuantMode_t mode, CubeType src, CubeType dst) {
  const QuantModeInfo* info = InfoOf(mode);
  if (info == nullptr) return false;
  if (info->from != CubeType::kOther && info->from != src) return false;
  switch (info->to) {
    case ModeOut::kSame:
      return dst == src;
    case ModeOut::kHalf:
      return dst == CubeType::kHalf;
    case ModeOut::kBf16:
      return dst == CubeType::kBfloat16;
    case ModeOut::kB8:
      return dst == CubeType::kInt8 || dst == CubeType::kUint8;
    case ModeOut::kFloat:
      return dst == CubeType::kFloat;
    case ModeOut::kFp8:
      return dst == CubeType::kFp8E4m3;
    case ModeOut::kHif8:
      return dst == CubeType::kHif8;
  }
  return false;
}

bool ModeQuantizes(QuantMode_t mode) {
  const QuantModeInfo* info = InfoOf(mode);
  return info != nullptr && info->quantizes;
}

// Decodes and checks `bits`; `where` names it in messages.
QuantParam DecodeQuantParam(const char* api, const char* where, uint64_t bits,
                            QuantMode_t mode, CubeType dst_type) {
  QuantParam q{};
  const uint32_t scale_bits = static_cast<uint32_t>(bits) & 0xFFFFE000u;
  std::memcpy(&q.scale, &scale_bits, 4);
  if (!std::isfinite(q.scale) ||
      (q.scale != 0.0f && std::fpclassify(q.scale) == FP_SUBNORMAL)) {
    Fail(
        "%s: %s 0x%016llx has the scale %g in bits 0..31, which is inf, NaN "
        "or subnormal; quantization parameters must be normal or zero",
        api, where, static_cast<unsigned long long>(bits), q.scale);
  }
  // The right shift N and its MCB flag (bits 32..36) are Atlas A2/A3's; the
  // 950's parameter leaves those bits unused.
  q.shift = static_cast<uint32_t>((bits >> 32) & 0xFu) + 1u;
  q.shift_on = ((bits >> 36) & 1u) != 0 && !OnProfile950();
  const uint32_t offset9 = static_cast<uint32_t>((bits >> 37) & 0x1FFu);
  q.offset = offset9 >= 256 ? static_cast<int32_t>(offset9) - 512
                            : static_cast<int32_t>(offset9);
  q.is_signed = ((bits >> 46) & 1u) != 0;
  q.hybrid = mode == AscendC::QF322HIF8_PRE_HYBRID ||
             mode == AscendC::VQF322HIF8_PRE_HYBRID;
  const QuantModeInfo* info = InfoOf(mode);
  if (info != nullptr && info->to == ModeOut::kB8 &&
      q.is_signed != (dst_type == CubeType::kInt8)) {
    Fail(
        "%s: %s 0x%016llx has the sign bit 46 %s, which makes %s results, "
        "but dst is %s",
        api, where, static_cast<unsigned long long>(bits),
        q.is_signed ? "set" : "clear", q.is_signed ? "int8_t" : "uint8_t",
        CubeTypeName(dst_type));
  }
  return q;
}

// Rounds to the nearest integer, ties to even, and saturates to the 8-bit
// range; NaN becomes 0 (integers have only the saturating mode).
uint8_t RoundToB8(float v, bool is_signed) {
  const float lo = is_signed ? -128.0f : 0.0f;
  const float hi = is_signed ? 127.0f : 255.0f;
  if (std::isnan(v)) return 0;
  // Ties to even without the floating-point environment's rounding mode.
  float r = std::floor(v);
  const float rest = v - r;  // exact for |v| < 2^24; 0 beyond
  if (rest > 0.5f || (rest == 0.5f && std::fmod(r, 2.0f) != 0.0f)) r += 1.0f;
  r = std::min(std::max(r, lo), hi);
  return is_signed ? static_cast<uint8_t>(static_cast<int8_t>(r))
                   : static_cast<uint8_t>(r);
}

// A float result narrowed to half or bfloat16_t (ties to even), saturated
// in the FLOAT saturation mode.
void StoreFloat16(CubeType dst_type, float v, uint8_t* to) {
  const bool bf16 = dst_type == CubeType::kBfloat16;
  uint16_t h = bf16 ? normgrad::bits::FloatToBfloat16(v)
                    : normgrad::bits::FloatToHalf(v);
  if (FloatSaturationOn()) SaturateFloat16(bf16, &h, 1);
  std::memcpy(to, &h, 2);
}

// One L0C value at `at` through Fixpipe's ReLU and conversion into `to`.
// `q` is the column's quantization parameter (null for the casts).
void ConvertOut(CubeType src_type, CubeType dst_type, bool relu,
                const QuantParam* q, const uint8_t* at, uint8_t* to) {
  if (q == nullptr) {
    if (src_type == CubeType::kInt32) {
      int32_t v;
      std::memcpy(&v, at, 4);
      if (relu && v < 0) v = 0;
      std::memcpy(to, &v, 4);
      return;
    }
    float v;
    std::memcpy(&v, at, 4);
    // ReLU keeps the positive values; the rest (negative, zeros of either
    // sign, NaN) become +0.
    if (relu && !(v > 0.0f)) v = 0.0f;
    if (dst_type == CubeType::kFloat) {
      if (FloatSaturationOn()) SaturateFloat32(&v, 1);
      std::memcpy(to, &v, 4);
      return;
    }
    StoreFloat16(dst_type, v, to);
    return;
  }
  // The quantization modes: x * M1 for x >= 0, x * M2 for x < 0, with M2 the
  // scale too, or 0 under ReLU (which gives +0).
  float x = 0.0f;
  bool negative = false;
  if (src_type == CubeType::kInt32) {
    int32_t v;
    std::memcpy(&v, at, 4);
    negative = v < 0;
    int64_t w = v;
    if (q->shift_on) {
      // MCB: shifted right by N (arithmetically), then made int16_t.
      w = std::min<int64_t>(std::max<int64_t>(w >> q->shift, INT16_MIN),
                            INT16_MAX);
    }
    x = static_cast<float>(w);
  } else {
    std::memcpy(&x, at, 4);
    negative = x < 0.0f;
  }
  const float scaled = relu && negative ? 0.0f : x * q->scale;
  switch (dst_type) {
    case CubeType::kHalf:  // (V)DEQF16, (V)QF322F16_PRE: no offset
    case CubeType::kBfloat16:
      StoreFloat16(dst_type, scaled, to);
      return;
    case CubeType::kFloat: {
      float v = scaled;
      if (FloatSaturationOn()) SaturateFloat32(&v, 1);
      std::memcpy(to, &v, 4);
      return;
    }
    case CubeType::kFp8E4m3:
      *to = EncodeFp8E4m3fn(scaled);
      return;
    case CubeType::kHif8:
      *to = EncodeHif8(scaled,
                       q->hybrid ? Hif8Round::kHybrid : Hif8Round::kHalfAway);
      return;
    default:
      *to = RoundToB8(scaled + static_cast<float>(q->offset), q->is_signed);
      return;
  }
}

uint32_t CubeTypeBytes(CubeType type) { return CubeTypeBits(type) / 8; }

namespace {

// How a call names itself and where its per-column parameters lie: the
// Fixpipe forms (cbufWorkspace in L1) and DataCopy L0C -> GM (the fixpipe
// registers, the parameters in the fixpipe buffer).
struct FixpipeCall {
  const char* op;
  const char* workspace;
  TPosition workspace_position;
  const char* workspace_expected;
  uint32_t workspace_align;
  const char* scalar;
  const char* unit_flag;
};
constexpr FixpipeCall kFixpipeCall{
    "Fixpipe", "cbufWorkspace",         TPosition::C1,         "C1 (L1)",
    32,        "intriParams.deqScalar", "intriParams.unitFlag"};
constexpr FixpipeCall kDataCopyCall{"DataCopy",
                                    "SetFixPipeConfig's tensor",
                                    TPosition::C2PIPE2GM,
                                    "C2PIPE2GM (the fixpipe buffer)",
                                    128,
                                    "SetFixpipePreQuantFlag's config",
                                    "intriParams.unitFlag"};

// The Atlas A2/A3 forms (FixpipeParamsV220, DataCopyCO12DstParams) have the
// nine modes of their pages; the 950's added ones are refused, named.
void RefuseModeOf950(const char* api, QuantMode_t mode) {
  if (!ModeIs950s(mode)) return;
  Fail(
      "%s: intriParams.quantPre %s is one of the Ascend 950's modes, set in "
      "FixpipeParamsArch3510; this form has NoQuant, F322F16, F322BF16, "
      "DEQF16, VDEQF16, QF322B8_PRE, VQF322B8_PRE, REQ8 and VREQ8",
      api, QuantModeName(mode));
}

void FixpipeImpl(const FixpipeCall& how, CubeType dst_type, CubeType src_type,
                 AscendC::CO2Layout layout, const GmSide* dst_gm,
                 const TensorView* dst_l1, const TensorView& src,
                 const TensorView* workspace,
                 const AscendC::FixpipeParamsV220& p) {
  const bool to_gm = dst_gm != nullptr;
  char api[64];
  std::snprintf(api, sizeof api, "%s<%s, %s> L0C->%s", how.op,
                CubeTypeName(dst_type), CubeTypeName(src_type),
                to_gm ? "GM" : "L1");
  CheckOperand(api, "src", src, {TPosition::CO1}, "CO1 (L0C)", 64);
  if (!to_gm) {
    CheckOperand(api, "dst", *dst_l1,
                 {TPosition::A1, TPosition::B1, TPosition::C1},
                 "A1, B1 or C1 (L1)", 32);
  }
  if (workspace != nullptr) {
    CheckOperand(api, how.workspace, *workspace, {how.workspace_position},
                 how.workspace_expected, how.workspace_align);
  }
  if (layout == AscendC::CO2Layout::COLUMN_MAJOR) {
    Fail("%s: config CFG_COLUMN_MAJOR (NZ2DN) is the Ascend 950's only", api);
  }
  const bool nz = layout == AscendC::CO2Layout::NZ;
  if (!to_gm && !nz) {
    Fail("%s: config CFG_ROW_MAJOR: the L0C -> L1 path writes NZ only (CFG_NZ)",
         api);
  }
  const char* mode = QuantModeName(p.quantPre);
  RefuseModeOf950(api, p.quantPre);
  if (!ModeConverts(p.quantPre, src_type, dst_type)) {
    Fail(
        "%s: intriParams.quantPre %s does not turn %s into %s (float: "
        "NoQuant to float, F322F16 to half, F322BF16 to bfloat16_t, "
        "QF322B8_PRE or VQF322B8_PRE to int8_t/uint8_t; int32_t: NoQuant to "
        "int32_t, DEQF16 or VDEQF16 to half, REQ8 or VREQ8 to int8_t/uint8_t)",
        api, mode, CubeTypeName(src_type), CubeTypeName(dst_type));
  }
  if (!to_gm && p.quantPre == AscendC::NoQuant) {
    Fail("%s: intriParams.quantPre NoQuant: the L0C -> L1 path always converts",
         api);
  }
  CheckQuantWorkspace(api, p.quantPre, workspace != nullptr);
  const bool vector_mode = IsVectorMode(p.quantPre);
  const uint32_t out_bytes = CubeTypeBytes(dst_type);
  CheckRange(api, "intriParams.nSize", p.nSize, 0, 4095);
  CheckRange(api, "intriParams.mSize", p.mSize, 0, nz ? 65535 : 8192);
  if (p.unitFlag != 0 && p.unitFlag != 2 && p.unitFlag != 3) {
    Fail("%s: intriParams.unitFlag %u is not 0, 2 or 3", api, p.unitFlag);
  }
  if (p.channelSplit && !nz) {
    Fail("%s: intriParams.channelSplit does not combine with NZ2ND", api);
  }
  // F32 Channel Split: float in L0C and out, NZ into GM, without unitFlag.
  if (p.channelSplit && !to_gm) {
    Fail(
        "%s: intriParams.channelSplit is true; F32 Channel Split takes effect "
        "only on the L0C -> GM path (set it false)",
        api);
  }
  if (p.channelSplit &&
      (src_type != CubeType::kFloat || dst_type != CubeType::kFloat)) {
    Fail(
        "%s: intriParams.channelSplit is true for %s -> %s; F32 Channel Split "
        "needs float in L0C and float out",
        api, CubeTypeName(src_type), CubeTypeName(dst_type));
  }
  if (p.channelSplit && p.unitFlag != 0) {
    Fail(
        "%s: intriParams.channelSplit does not combine with unitFlag %u (set "
        "unitFlag 0)",
        api, p.unitFlag);
  }
  const uint32_t n_multiple = p.channelSplit ? 8 : kCubeBlock;
  if (nz && p.nSize % n_multiple != 0) {
    Fail("%s: intriParams.nSize %u is not a multiple of %u (NZ output%s)", api,
         p.nSize, n_multiple, p.channelSplit ? " with channelSplit" : "");
  }
  if (!nz) CheckRange(api, "intriParams.srcNdStride", p.srcNdStride, 0, 512);
  // NZ2NZ moves one matrix: ndNum and its strides belong to NZ2ND.
  const uint32_t nd_num = nz ? 1u : p.ndNum;
  if (p.nSize == 0 || p.mSize == 0 || nd_num == 0) return;  // a NOP
  const uint32_t blocks = CeilDiv(p.nSize, kCubeBlock);
  const uint64_t last = nd_num - 1u;
  const NzOutPlace place{p.channelSplit, out_bytes == 1, p.nSize};
  if (nz) {
    if (p.dstStride == 0) {
      Fail("%s: intriParams.dstStride is 0; NZ2NZ needs it >= 1 (32 bytes)",
           api);
    }
    const uint32_t pitch = place.Of(0).pitch;
    if (uint64_t{p.dstStride} * 32 < uint64_t{p.mSize} * pitch * out_bytes) {
      Fail(
          "%s: intriParams.dstStride %u (x 32 bytes) is less than one column "
          "of fractals (mSize %u x %u x %u bytes): the NZ output would overlap",
          api, p.dstStride, p.mSize, pitch, out_bytes);
    }
  } else {
    if (p.dstStride < p.nSize) {
      Fail(
          "%s: intriParams.dstStride %u is less than nSize %u: the rows of "
          "the ND output would overlap",
          api, p.dstStride, p.nSize);
    }
    if (nd_num > 1 &&
        p.dstNdStride < uint64_t{p.mSize - 1u} * p.dstStride + p.nSize) {
      Fail(
          "%s: intriParams.dstNdStride %u is less than one ND matrix (%llu "
          "elements): the matrices would overlap",
          api, p.dstNdStride,
          static_cast<unsigned long long>(uint64_t{p.mSize - 1u} * p.dstStride +
                                          p.nSize));
    }
  }
  // In elements of L0C (16 of them are one C0_Size).
  const uint64_t src_end =
      (last * p.srcNdStride + uint64_t{blocks - 1} * p.srcStride) * kCubeBlock +
      uint64_t{p.mSize} * kCubeBlock;
  CheckFits(api, "src", src_end * 4, src.bytes, "the NZ matrices");
  if (p.unitFlag != 0) {
    // The L0C blocks read: mSize rows of 16 values in each column block.
    L0cBlockSet read;
    for (uint32_t i = 0; i < nd_num; ++i) {
      for (uint32_t b = 0; b < blocks; ++b) {
        const uint64_t start = src.offset + (uint64_t{i} * p.srcNdStride +
                                             uint64_t{b} * p.srcStride) *
                                                kCubeBlock * 4;
        read.AddBytes(start, start + uint64_t{p.mSize} * kCubeBlock * 4);
      }
    }
    RunUnitFlag(how.op, api, how.unit_flag, UnitFlagSide::kRead, p.unitFlag,
                read);
  }
  // The destination: element (m, n) of matrix i at `dst_index` elements.
  const uint64_t block_elems = uint64_t{p.dstStride} * 32 / out_bytes;
  const auto dst_index = [&](uint32_t i, uint32_t m, uint32_t n) {
    if (!nz) return uint64_t{i} * p.dstNdStride + uint64_t{m} * p.dstStride + n;
    const NzOutPlace::Spot spot = place.Of(n);
    return uint64_t{spot.block} * block_elems + uint64_t{m} * spot.pitch +
           spot.column;
  };
  const uint64_t dst_end = dst_index(nd_num - 1, p.mSize - 1, p.nSize - 1) + 1;
  uint8_t* out_base = nullptr;
  if (to_gm) {
    if (nz && reinterpret_cast<uintptr_t>(dst_gm->data) % 32 != 0) {
      Fail("%s: dst GM address is not 32-byte aligned (NZ output)", api);
    }
    CheckGmSide(api, "dst", *dst_gm, out_bytes, dst_end, true);
    out_base = dst_gm->data;
  } else {
    CheckFits(api, "dst", dst_end * out_bytes, dst_l1->bytes, "the NZ output");
    out_base = dst_l1->declared_data();
  }
  // The quantization parameters: one for all, or one per column.
  std::vector<QuantParam> params;
  const bool quant = ModeQuantizes(p.quantPre);
  if (quant && !vector_mode) {
    params.push_back(
        DecodeQuantParam(api, how.scalar, p.deqScalar, p.quantPre, dst_type));
  } else if (vector_mode) {
    CheckFits(api, how.workspace, uint64_t{p.nSize} * 8, workspace->bytes,
              "one parameter per column (nSize x 8 bytes)");
    const uint8_t* ws = workspace->declared_data();
    for (uint32_t n = 0; n < p.nSize; ++n) {
      uint64_t bits;
      std::memcpy(&bits, ws + uint64_t{n} * 8, 8);
      char where[64];
      std::snprintf(where, sizeof where, "%s[%u]", how.workspace, n);
      params.push_back(
          DecodeQuantParam(api, where, bits, p.quantPre, dst_type));
    }
  }
  const uint8_t* l0c = src.declared_data();
  // One destination run at a time: an ND row, or the elements of an NZ row
  // that lie side by side (16, or 8 split channels).
  const uint32_t run = nz ? n_multiple : p.nSize;
  std::vector<uint8_t> staged(uint64_t{run} * out_bytes);
  for (uint32_t i = 0; i < nd_num; ++i) {
    const uint64_t src_base = uint64_t{i} * p.srcNdStride * kCubeBlock;
    for (uint32_t m = 0; m < p.mSize; ++m) {
      for (uint32_t n0 = 0; n0 < p.nSize; n0 += run) {
        for (uint32_t n = n0; n < n0 + run; ++n) {
          const uint8_t* at =
              l0c +
              (src_base + uint64_t{n / kCubeBlock} * p.srcStride * kCubeBlock +
               uint64_t{m} * kCubeBlock + n % kCubeBlock) *
                  4;
          const QuantParam* q = params.empty()       ? nullptr
                                : params.size() == 1 ? &params[0]
                                                     : &params[n];
          ConvertOut(src_type, dst_type, p.reluEn, q, at,
                     staged.data() + uint64_t{n - n0} * out_bytes);
        }
        uint8_t* out = out_base + dst_index(i, m, n0) * out_bytes;
        if (to_gm) {
          StoreToGm(api, out, staged.data(), staged.size());
        } else {
          std::memcpy(out, staged.data(), staged.size());
        }
      }
    }
  }
}

}  // namespace

void RunFixpipe(CubeType dst_type, CubeType src_type, AscendC::CO2Layout layout,
                const GmSide* dst_gm, const TensorView* dst_l1,
                const TensorView& src, const TensorView* workspace,
                const AscendC::FixpipeParamsV220& params) {
  FixpipeImpl(kFixpipeCall, dst_type, src_type, layout, dst_gm, dst_l1, src,
              workspace, params);
}

// ---- DataCopy L0C -> GM / L1 and the fixpipe registers ---------------------

namespace {

// DataCopy out of L0C into GM (`dst_gm`) or L1 (`dst_l1`, the other null):
// the Fixpipe of the same parameters with its settings read from the fixpipe
// registers.
void DataCopyFromL0c(CubeType dst_type, CubeType src_type, const GmSide* dst_gm,
                     const TensorView* dst_l1, const TensorView& src,
                     const AscendC::DataCopyCO12DstParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s, %s> L0C->%s",
                CubeTypeName(dst_type), CubeTypeName(src_type),
                dst_gm != nullptr ? "GM" : "L1");
  // On Atlas A2/A3 the L0C -> L1 path writes NZ and never splits channels;
  // a program that asks for either would get what it did not ask for.
  if (dst_l1 != nullptr && p.nz2ndEn) {
    Fail(
        "%s: intriParams.nz2ndEn is true; the L0C -> L1 path of Atlas A2/A3 "
        "writes NZ only (set it false)",
        api);
  }
  if (dst_l1 != nullptr && p.channelSplit) {
    Fail(
        "%s: intriParams.channelSplit is true; F32 Channel Split takes effect "
        "only on the L0C -> GM path (set it false)",
        api);
  }
  // Before the registers a mode reads are looked at.
  RefuseModeOf950(api, p.quantPre);
  Core& core = CurrentCore();
  const FixpipeRegisters& regs = core.fixpipe_registers();
  if (p.reluPre > 1) {
    Fail("%s: intriParams.reluPre %u is not 0 (no ReLU) or 1 (Normal ReLU)",
         api, p.reluPre);
  }
  AscendC::FixpipeParamsV220 v;
  v.nSize = p.nSize;
  v.mSize = p.mSize;
  v.srcStride = p.srcStride;
  v.dstStride = p.dstStride;
  v.quantPre = p.quantPre;
  v.reluEn = p.reluPre == 1;
  v.unitFlag = p.unitFlag;
  v.channelSplit = p.channelSplit;
  if (p.nz2ndEn) {
    if (!regs.nz2nd_set) {
      Fail(
          "%s: intriParams.nz2ndEn is true, but SetFixpipeNz2ndFlag was not "
          "called in this block; set the NZ2ND setting first",
          api);
    }
    v.ndNum = regs.nd_num;
    v.srcNdStride = regs.src_nd_stride;
    v.dstNdStride = regs.dst_nd_stride;
  }
  const bool scalar = p.quantPre == AscendC::DEQF16 ||
                      p.quantPre == AscendC::QF322B8_PRE ||
                      p.quantPre == AscendC::REQ8;
  if (scalar) {
    if (!regs.quant_set) {
      Fail(
          "%s: intriParams.quantPre %s takes its parameter from "
          "SetFixpipePreQuantFlag, which was not called in this block",
          api, QuantModeName(p.quantPre));
    }
    v.deqScalar = regs.quant_pre;
  }
  TensorView table;
  const bool vector = IsVectorMode(p.quantPre);
  if (vector) {
    if (!regs.config_set) {
      Fail(
          "%s: intriParams.quantPre %s reads one parameter per column from "
          "the fixpipe buffer, but SetFixPipeConfig was not called in this "
          "block",
          api, QuantModeName(p.quantPre));
    }
    table = FixpipeConfigTable();
  }
  FixpipeImpl(
      kDataCopyCall, dst_type, src_type,
      p.nz2ndEn ? AscendC::CO2Layout::ROW_MAJOR : AscendC::CO2Layout::NZ,
      dst_gm, dst_l1, src, vector ? &table : nullptr, v);
}

}  // namespace

void RunDataCopyL0cToGm(CubeType dst_type, CubeType src_type, const GmSide& dst,
                        const TensorView& src,
                        const AscendC::DataCopyCO12DstParams& params) {
  DataCopyFromL0c(dst_type, src_type, &dst, nullptr, src, params);
}

void RunDataCopyL0cToL1(CubeType dst_type, CubeType src_type,
                        const TensorView& dst, const TensorView& src,
                        const AscendC::DataCopyCO12DstParams& params) {
  DataCopyFromL0c(dst_type, src_type, nullptr, &dst, src, params);
}

TensorView FixpipeConfigTable() {
  Core& core = CurrentCore();
  const FixpipeRegisters& regs = core.fixpipe_registers();
  TensorView table;
  table.core = &core;
  table.offset = regs.config_offset;
  table.bytes = regs.config_bytes;
  table.position = TPosition::C2PIPE2GM;
  return table;
}

void RunSetFixPipeConfig(const TensorView* quant, const TensorView* relu,
                         bool clear_unit_flags) {
  const char* api = "SetFixPipeConfig";
  if (relu != nullptr && relu->core != nullptr) {
    Fail(
        "%s: reluPre is a tensor at position %s; it is reserved: pass an "
        "empty LocalTensor",
        api, PositionName(relu->position));
  }
  if (clear_unit_flags) ClearUnitFlags();
  if (quant == nullptr) return;  // clears the unit flags only
  CheckOperand(api, "quantPre", *quant, {TPosition::C2PIPE2GM},
               "C2PIPE2GM (the fixpipe buffer)", 128);
  FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
  regs.config_set = true;
  regs.config_offset = quant->offset;
  regs.config_bytes = quant->bytes;
}

void RunSetFixpipeNz2ndFlag(uint16_t nd_num, uint16_t src_nd_stride,
                            uint16_t dst_nd_stride) {
  const char* api = "SetFixpipeNz2ndFlag";
  CheckRange(api, "ndNum", nd_num, 1, 65535);
  if (nd_num > 1) CheckRange(api, "srcNdStride", src_nd_stride, 1, 512);
  CheckRange(api, "dstNdStride", dst_nd_stride, 1, 65535);
  FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
  regs.nz2nd_set = true;
  regs.nd_num = nd_num;
  regs.src_nd_stride = src_nd_stride;
  regs.dst_nd_stride = dst_nd_stride;
}

void RunSetFixpipePreQuantFlag(uint64_t config) {
  FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
  regs.quant_set = true;
  regs.quant_pre = config;
}

}  // namespace normgrad_ascendc

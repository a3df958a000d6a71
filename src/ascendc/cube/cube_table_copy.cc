// cube_table_copy.cc — DataCopy L1 → bias table (C2) and L1 → fixpipe
// buffer (C2PIPE2GM), as their pages give them for Atlas A2/A3 and for the
// Ascend 950, whose block units and bias source types differ
// (normgrad_ascendc/cube/cube_table_copy.h, docs/cube.md).
#include "normgrad_ascendc/cube/cube_table_copy.h"

#include <cstdio>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

// The block units of the two paths. Atlas A2/A3: the bias table's
// blockLen and dstGap count 64 bytes of the destination, the fixpipe
// buffer's blockLen and dstGap 128 bytes. The 950: the bias table's count
// 32 bytes (blockLen even), the fixpipe buffer's blockLen 64 bytes and its
// dstGap 128. Both count srcGap in 32 bytes of L1.
struct TableUnits {
  uint32_t block_len;
  uint32_t dst_gap;
};
TableUnits UnitsOf(bool bias) {
  if (OnProfile950()) return bias ? TableUnits{32, 32} : TableUnits{64, 128};
  return bias ? TableUnits{64, 64} : TableUnits{128, 128};
}
constexpr uint32_t kL1Unit = 32;

// One block pattern: `count` blocks of `dst_bytes` (reading `src_bytes`),
// the starts `dst_pitch` / `src_pitch` bytes apart.
struct Blocks {
  uint32_t count;
  uint64_t dst_bytes;
  uint64_t src_bytes;
  uint64_t dst_pitch;
  uint64_t src_pitch;
};

// How a bias copy turns a source element into the table's.
enum class Widen : uint8_t { kNone, kHalf, kBfloat16 };

// Copies the blocks, widening half or bfloat16_t to float where the types
// differ (both exactly).
void MoveBlocks(const Blocks& b, Widen widen, uint8_t* to,
                const uint8_t* from) {
  for (uint32_t i = 0; i < b.count; ++i) {
    uint8_t* d = to + i * b.dst_pitch;
    const uint8_t* s = from + i * b.src_pitch;
    if (widen == Widen::kNone) {
      std::memmove(d, s, b.dst_bytes);
      continue;
    }
    for (uint64_t e = 0; e < b.dst_bytes / 4; ++e) {
      uint16_t h;
      std::memcpy(&h, s + e * 2, 2);
      const float f = widen == Widen::kHalf
                          ? normgrad::bits::HalfToFloat(h)
                          : normgrad::bits::Bfloat16ToFloat(h);
      std::memcpy(d + e * 4, &f, 4);
    }
  }
}

}  // namespace

bool IsCubeTablePosition(AscendC::TPosition position) {
  return position == TPosition::C2 || position == TPosition::C2PIPE2GM;
}

void RunL1ToCubeTable(TableCopyType dst_type, TableCopyType src_type,
                      const TensorView& dst, const TensorView* src,
                      uint32_t count, const AscendC::DataCopyParams* params) {
  const bool bias = dst.position == TPosition::C2;
  char api[80];
  if (std::strcmp(dst_type.name, src_type.name) == 0) {
    std::snprintf(api, sizeof api, "DataCopy<%s> L1->%s", dst_type.name,
                  bias ? "BiasTable" : "FixpipeBuffer");
  } else {
    std::snprintf(api, sizeof api, "DataCopy<%s, %s> L1->%s", dst_type.name,
                  src_type.name, bias ? "BiasTable" : "FixpipeBuffer");
  }
  if (src == nullptr) {
    Fail("%s: src is a GlobalTensor; the %s is filled from L1 (C1) only", api,
         bias ? "bias table" : "fixpipe buffer");
  }
  CheckOperand(api, "dst", dst, {bias ? TPosition::C2 : TPosition::C2PIPE2GM},
               bias ? "C2 (the bias table)" : "C2PIPE2GM (the fixpipe buffer)",
               bias ? 64 : 128);
  CheckOperand(api, "src", *src, {TPosition::C1}, "C1 (L1)", kL1Unit);
  // The types: the bias table holds int32_t or float, from the same type or
  // (float) from half, and on the 950 from bfloat16_t too; the fixpipe
  // buffer holds uint64_t parameters.
  const bool on_950 = OnProfile950();
  const bool same = std::strcmp(dst_type.name, src_type.name) == 0;
  const bool to_float = bias && std::strcmp(dst_type.name, "float") == 0;
  const Widen widen =
      to_float && std::strcmp(src_type.name, "half") == 0 ? Widen::kHalf
      : to_float && on_950 && std::strcmp(src_type.name, "bfloat16_t") == 0
          ? Widen::kBfloat16
          : Widen::kNone;
  const bool bias_type = std::strcmp(dst_type.name, "float") == 0 ||
                         std::strcmp(dst_type.name, "int32_t") == 0;
  if (bias ? !(bias_type && (same || widen != Widen::kNone))
           : !(same && std::strcmp(dst_type.name, "uint64_t") == 0)) {
    Fail(
        "%s: the types (dst %s, src %s) are not documented for this path "
        "(bias table: float from float or half%s, int32_t from int32_t; "
        "fixpipe buffer: uint64_t from uint64_t)",
        api, dst_type.name, src_type.name,
        on_950 ? " or bfloat16_t" : " (bfloat16_t on the Ascend 950 only)");
  }
  const uint64_t ratio = dst_type.bytes / src_type.bytes;  // 2 or 1
  Blocks b{};
  if (params == nullptr) {
    // The count form: whole 32-byte blocks, the rest dropped.
    b = {1, uint64_t{count} * dst_type.bytes / 32 * 32, 0, 0, 0};
    b.src_bytes = b.dst_bytes / ratio;
  } else {
    const AscendC::DataCopyParams& p = *params;
    CheckRange(api, "repeatParams.blockCount", p.blockCount, 0, 4095);
    if (p.blockCount == 0 || p.blockLen == 0) return;  // a NOP
    const TableUnits unit = UnitsOf(bias);
    if (bias && on_950 && p.blockLen % 2 != 0) {
      Fail(
          "%s: repeatParams.blockLen %u is odd; on the Ascend 950 the bias "
          "table's blockLen counts 32 bytes and must be even",
          api, p.blockLen);
    }
    b.count = p.blockCount;
    b.dst_bytes = uint64_t{p.blockLen} * unit.block_len;
    b.src_bytes = b.dst_bytes / ratio;
    if (bias) {
      // The gaps run from one block's end to the next one's start.
      b.dst_pitch = b.dst_bytes + uint64_t{p.dstGap} * unit.dst_gap;
      b.src_pitch = b.src_bytes + uint64_t{p.srcGap} * kL1Unit;
    } else {
      // The fixpipe buffer's gaps run from start to start.
      if (p.blockCount > 1 && p.dstGap == 0) {
        Fail(
            "%s: repeatParams.dstGap 0 with blockCount %u: the fixpipe "
            "buffer's dstGap is in [1, 65535] (128-byte units, start to "
            "start)",
            api, p.blockCount);
      }
      b.dst_pitch = uint64_t{p.dstGap} * unit.dst_gap;
      b.src_pitch = uint64_t{p.srcGap} * kL1Unit;
    }
  }
  if (b.count == 0 || b.dst_bytes == 0) return;
  const auto span = [&](uint64_t pitch, uint64_t bytes) {
    return (b.count - 1u) * pitch + bytes;
  };
  CheckFits(api, "dst", span(b.dst_pitch, b.dst_bytes), dst.bytes,
            "the blocks written");
  CheckFits(api, "src", span(b.src_pitch, b.src_bytes), src->bytes,
            "the blocks read");
  MoveBlocks(b, widen, dst.declared_data(), src->declared_data());
}

}  // namespace normgrad_ascendc

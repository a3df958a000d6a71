// cube_out_950.cc — Fixpipe with FixpipeParamsArch3510, the Ascend 950's ways
// out of L0C (normgrad_ascendc/cube/cube_out_950.h, docs/cube.md): the
// parameters checked against the pages' rules, then every value walked from
// its place in L0C to its place in the destination (NZ, ND or DN; GM, L1, or
// the UB of one or both vector cores of the AI Core) through the conversion
// the Atlas A2/A3 Fixpipe uses (fixpipe_convert.h); and DataCopyL1ToUB.
#include "normgrad_ascendc/cube/cube_out_950.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/cube/cube_ub_handover.h"
#include "ascendc/cube/cube_unit_flag.h"
#include "ascendc/cube/fixpipe_convert.h"
#include "ascendc/runtime/gm_store.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

namespace {

using AscendC::CO2Layout;
using AscendC::TPosition;

const char* LayoutName(CO2Layout layout) {
  switch (layout) {
    case CO2Layout::NZ:
      return "NZ";
    case CO2Layout::ROW_MAJOR:
      return "ND";
    case CO2Layout::COLUMN_MAJOR:
      return "DN";
  }
  return "?";
}

// Where the values go: one destination, or the two UBs of the
// dual-destination mode, each with the rows and columns it receives.
enum class Target : uint8_t { kGm, kL1, kUb };

// The part of the M x N matrix one destination receives: rows [m0, m0 +
// m_count) and columns [n0, n0 + n_count), placed from row 0 and column 0.
struct Share {
  uint32_t sub_block;  // the UB's vector core (kUb)
  uint32_t m0, m_count, n0, n_count;
};

// The parameter rules of FixpipeParamsArch3510 (the three pages and the
// NZ2DN and dual-destination pages).
void CheckParams(const char* api, Target target, CubeType dst_type,
                 CubeType src_type, const TensorView* workspace,
                 const Fixpipe950Params& p) {
  const char* mode = QuantModeName(p.quant_pre);
  if (!ModeConverts(p.quant_pre, src_type, dst_type)) {
    Fail(
        "%s: intriParams.quantPre %s does not turn %s into %s (float: "
        "NoQuant to float, F322F16, QF322F16_PRE or VQF322F16_PRE to half, "
        "F322BF16, QF322BF16_PRE or VQF322BF16_PRE to bfloat16_t, "
        "QF322F32_PRE or VQF322F32_PRE to float, QF322B8_PRE or VQF322B8_PRE "
        "to int8_t/uint8_t, QF322FP8_PRE or VQF322FP8_PRE to fp8_e4m3fn_t, "
        "QF322HIF8_PRE(_HYBRID) or VQF322HIF8_PRE(_HYBRID) to hifloat8_t; "
        "int32_t: NoQuant to int32_t, DEQF16 or VDEQF16 to half, "
        "QS322BF16_PRE or VQS322BF16_PRE to bfloat16_t, REQ8 or VREQ8 to "
        "int8_t/uint8_t)",
        api, mode, CubeTypeName(src_type), CubeTypeName(dst_type));
  }
  CheckQuantWorkspace(api, p.quant_pre, workspace != nullptr);
  CheckRange(api, "intriParams.nSize", p.n_size, 0, 4095);
  if (p.unit_flag != 0 && p.unit_flag != 2 && p.unit_flag != 3) {
    Fail("%s: intriParams.unitFlag %u is not 0, 2 or 3", api, p.unit_flag);
  }
  CheckRange(api, "intriParams.dualDstCtrl", p.dual_dst, 0, 2);
  CheckRange(api, "intriParams.subBlockId", p.sub_block, 0, 1);
  const uint32_t out_bytes = CubeTypeBytes(dst_type);
  if (p.channel_split) {
    if (target != Target::kGm) {
      Fail(
          "%s: intriParams.isChannelSplit is true; F32 Channel Split takes "
          "effect on the L0C -> GM path only (set it false)",
          api);
    }
    if (p.layout != CO2Layout::NZ) {
      Fail("%s: intriParams.isChannelSplit does not combine with NZ2%s", api,
           LayoutName(p.layout));
    }
    if (src_type != CubeType::kFloat || dst_type != CubeType::kFloat) {
      Fail(
          "%s: intriParams.isChannelSplit is true for %s -> %s; F32 Channel "
          "Split needs float in L0C and float out",
          api, CubeTypeName(src_type), CubeTypeName(dst_type));
    }
  }
  const uint32_t n_multiple = p.channel_split ? 8 : kCubeBlock;
  if (p.n_size % n_multiple != 0) {
    Fail("%s: intriParams.nSize %u is not a multiple of %u%s", api, p.n_size,
         n_multiple, p.channel_split ? " (isChannelSplit)" : "");
  }
  if (p.layout == CO2Layout::ROW_MAJOR &&
      uint64_t{p.n_size} * out_bytes % 32 != 0) {
    Fail(
        "%s: intriParams.nSize %u x %u bytes is not a multiple of 32 bytes "
        "(NZ2ND)",
        api, p.n_size, out_bytes);
  }
  if (p.layout == CO2Layout::COLUMN_MAJOR) {
    if (uint64_t{p.m_size} * out_bytes % 32 != 0) {
      Fail(
          "%s: intriParams.mSize %u x %u bytes is not a multiple of 32 bytes "
          "(NZ2DN)",
          api, p.m_size, out_bytes);
    }
    if (p.src_c0_stride == 0) {
      Fail("%s: intriParams.params.srcNzC0Stride is 0; NZ2DN needs it >= 1",
           api);
    }
    if (p.src_c0_stride != 1 && p.unit_flag != 0) {
      Fail(
          "%s: intriParams.params.srcNzC0Stride %u with unitFlag %u; NZ2DN "
          "with a srcNzC0Stride other than 1 does not combine with unitFlag "
          "(set unitFlag 0)",
          api, p.src_c0_stride, p.unit_flag);
    }
  }
  if (p.dual_dst != 0) {
    if (target != Target::kUb) {
      Fail(
          "%s: intriParams.dualDstCtrl %u; the dual-destination mode is the "
          "L0C -> UB path's only (set it 0)",
          api, p.dual_dst);
    }
    if (p.layout == CO2Layout::COLUMN_MAJOR) {
      Fail(
          "%s: intriParams.dualDstCtrl %u does not combine with NZ2DN (the "
          "dual-destination mode takes NZ2NZ or NZ2ND)",
          api, p.dual_dst);
    }
    if (p.quant_pre != AscendC::NoQuant || p.relu) {
      Fail(
          "%s: intriParams.dualDstCtrl %u with quantPre %s and reluEn %s; "
          "the dual-destination mode moves the values unconverted (quantPre "
          "NoQuant, reluEn false)",
          api, p.dual_dst, mode, p.relu ? "true" : "false");
    }
    if (p.dual_dst == 1 && p.m_size % 2 != 0) {
      Fail(
          "%s: intriParams.mSize %u is odd; dualDstCtrl 1 splits the rows in "
          "two halves (mSize a multiple of 2)",
          api, p.m_size);
    }
    if (p.dual_dst == 2 && p.n_size % 32 != 0) {
      Fail(
          "%s: intriParams.nSize %u is not a multiple of 32; dualDstCtrl 2 "
          "splits the columns in two halves of whole 16-column blocks",
          api, p.n_size);
    }
  }
}

}  // namespace

void RunFixpipe950(CubeType dst_type, CubeType src_type, bool to_ub,
                   const GmSide* dst_gm, const TensorView* dst_local,
                   const TensorView& src, const TensorView* workspace,
                   const Fixpipe950Params& p, Fixpipe950Table table) {
  const Target target = dst_gm != nullptr ? Target::kGm
                        : to_ub           ? Target::kUb
                                          : Target::kL1;
  char api[96];
  std::snprintf(api, sizeof api,
                "Fixpipe<%s, %s> L0C->%s (FixpipeParamsArch3510)",
                CubeTypeName(dst_type), CubeTypeName(src_type),
                target == Target::kGm   ? "GM"
                : target == Target::kL1 ? "L1"
                                        : "UB");
  RequireCubeProfile(api, {Profile::k950},
                     "FixpipeParamsArch3510 is the Ascend 950's; Atlas A2/A3 "
                     "takes FixpipeParamsV220");
  CheckOperand(api, "src", src, {TPosition::CO1}, "CO1 (L0C)", 64);
  if (target == Target::kL1) {
    CheckOperand(api, "dst", *dst_local,
                 {TPosition::A1, TPosition::B1, TPosition::C1},
                 "A1, B1 or C1 (L1); for the UB, config.isToUB", 32);
  } else if (target == Target::kUb) {
    CheckOperand(api, "dst", *dst_local,
                 {TPosition::VECIN, TPosition::VECOUT, TPosition::VECCALC},
                 "VECIN, VECOUT or VECCALC (config.isToUB: the UB)", 32);
  }
  const bool in_fixpipe_buffer = table == Fixpipe950Table::kFixpipeBuffer;
  const char* table_name =
      in_fixpipe_buffer ? "SetFixPipeConfig's tensor" : "cbufWorkspace";
  if (workspace != nullptr) {
    if (in_fixpipe_buffer) {
      CheckOperand(api, table_name, *workspace, {TPosition::C2PIPE2GM},
                   "C2PIPE2GM (the fixpipe buffer)", 128);
    } else {
      CheckOperand(api, table_name, *workspace, {TPosition::C1}, "C1 (L1)", 32);
    }
  }
  CheckParams(api, target, dst_type, src_type, workspace, p);
  if (p.n_size == 0 || p.m_size == 0 || p.num == 0) return;  // a NOP

  const bool nz = p.layout == CO2Layout::NZ;
  const bool dn = p.layout == CO2Layout::COLUMN_MAJOR;
  const uint32_t out_bytes = CubeTypeBytes(dst_type);
  // The destinations and what each receives.
  std::vector<Share> shares;
  if (p.dual_dst == 1) {
    const uint32_t half = p.m_size / 2u;
    shares.push_back({0, 0, half, 0, p.n_size});
    shares.push_back({1, half, half, 0, p.n_size});
  } else if (p.dual_dst == 2) {
    const uint32_t half = p.n_size / 2u;
    shares.push_back({0, 0, p.m_size, 0, half});
    shares.push_back({1, 0, p.m_size, half, half});
  } else {
    shares.push_back({p.sub_block, 0, p.m_size, 0, p.n_size});
  }
  const NzOutPlace place{p.channel_split, out_bytes == 1, p.n_size};
  // Element (i, m, n) of a share (m, n counted from its first row and
  // column) in its destination.
  const auto dst_index = [&](const Share& s, uint32_t i, uint32_t m,
                             uint32_t n) {
    if (nz) {
      const NzOutPlace::Spot spot =
          NzOutPlace{p.channel_split, out_bytes == 1, s.n_count}.Of(n);
      return uint64_t{spot.block} * p.dst_stride + uint64_t{m} * spot.pitch +
             spot.column;
    }
    const uint64_t matrix = uint64_t{i} * p.dst_matrix_stride;
    return dn ? matrix + uint64_t{n} * p.dst_stride + m
              : matrix + uint64_t{m} * p.dst_stride + n;
  };
  if (p.dst_stride == 0) {
    Fail("%s: intriParams.dstStride is 0; it must be at least 1", api);
  }
  for (const Share& s : shares) {
    // No two values of a share in one place: a row (ND), a column (DN) or
    // a column block (NZ) must fit in dstStride.
    const uint64_t line = nz   ? uint64_t{s.m_count} * place.Of(0).pitch
                          : dn ? s.m_count
                               : s.n_count;
    if (p.dst_stride < line) {
      Fail(
          "%s: intriParams.dstStride %u is less than %llu (%s): the output "
          "would overlap itself",
          api, p.dst_stride, static_cast<unsigned long long>(line),
          nz   ? "mSize x the fractal's row, elements between column blocks"
          : dn ? "mSize, the elements of a DN row"
               : "nSize, the elements of an ND row");
    }
    if (!nz && p.num > 1) {
      const uint64_t matrix =
          dn ? uint64_t{s.n_count - 1u} * p.dst_stride + s.m_count
             : uint64_t{s.m_count - 1u} * p.dst_stride + s.n_count;
      if (p.dst_matrix_stride < matrix) {
        Fail(
            "%s: intriParams.params.%s %llu is less than one %s matrix (%llu "
            "elements): the matrices would overlap",
            api, dn ? "dstDnMatrixStride" : "dstNdStride",
            static_cast<unsigned long long>(p.dst_matrix_stride),
            LayoutName(p.layout), static_cast<unsigned long long>(matrix));
      }
    }
  }
  // The source: element (i, m, n) of L0C, in 4-byte values.
  const uint32_t row_step = dn ? p.src_c0_stride : 1u;
  const auto src_index = [&](uint32_t i, uint32_t m, uint32_t n) {
    return (uint64_t{i} * p.src_matrix_stride +
            uint64_t{n / kCubeBlock} * p.src_stride + uint64_t{m} * row_step) *
               kCubeBlock +
           n % kCubeBlock;
  };
  const uint32_t blocks = (p.n_size + kCubeBlock - 1) / kCubeBlock;
  CheckFits(api, "src",
            (src_index(p.num - 1, p.m_size - 1, (blocks - 1) * kCubeBlock) +
             kCubeBlock) *
                4,
            src.bytes, "the NZ matrices");
  if (p.unit_flag != 0) {
    L0cBlockSet read;
    for (uint32_t i = 0; i < p.num; ++i) {
      for (uint32_t b = 0; b < blocks; ++b) {
        const uint64_t first = src_index(i, 0, b * kCubeBlock);
        const uint64_t last = src_index(i, p.m_size - 1, b * kCubeBlock);
        read.AddBytes(src.offset + first * 4,
                      src.offset + (last + kCubeBlock) * 4);
      }
    }
    RunUnitFlag("Fixpipe", api, "intriParams.unitFlag", UnitFlagSide::kRead,
                p.unit_flag, read);
  }
  // Each destination's extent, checked against it.
  std::vector<uint8_t*> bases(shares.size(), nullptr);
  std::vector<uint64_t> ends(shares.size(), 0);
  for (size_t k = 0; k < shares.size(); ++k) {
    const Share& s = shares[k];
    ends[k] = dst_index(s, p.num - 1, s.m_count - 1, s.n_count - 1) + 1;
  }
  if (target == Target::kGm) {
    if (p.layout != CO2Layout::ROW_MAJOR &&
        reinterpret_cast<uintptr_t>(dst_gm->data) % 32 != 0) {
      Fail("%s: dst GM address is not 32-byte aligned (%s output)", api,
           LayoutName(p.layout));
    }
    CheckGmSide(api, "dst", *dst_gm, out_bytes, ends[0], true);
    bases[0] = dst_gm->data;
  } else {
    for (size_t k = 0; k < shares.size(); ++k) {
      CheckFits(api, "dst", ends[k] * out_bytes, dst_local->bytes,
                "the output");
    }
    if (target == Target::kL1) bases[0] = dst_local->declared_data();
  }
  // The quantization parameters: one for all, or one per column.
  std::vector<QuantParam> params;
  if (IsVectorMode(p.quant_pre)) {
    CheckFits(api, table_name, uint64_t{p.n_size} * 8, workspace->bytes,
              "one parameter per column (nSize x 8 bytes)");
    const uint8_t* ws = workspace->declared_data();
    for (uint32_t n = 0; n < p.n_size; ++n) {
      uint64_t bits;
      std::memcpy(&bits, ws + uint64_t{n} * 8, 8);
      char where[48];
      std::snprintf(where, sizeof where, "%s[%u]", table_name, n);
      params.push_back(
          DecodeQuantParam(api, where, bits, p.quant_pre, dst_type));
    }
  } else if (ModeQuantizes(p.quant_pre)) {
    params.push_back(DecodeQuantParam(api, "intriParams.deqScalar",
                                      p.deq_scalar, p.quant_pre, dst_type));
  }
  // The walk: converted values gathered into runs of consecutive elements
  // of one destination, each run then stored at once.
  const uint8_t* l0c = src.declared_data();
  std::vector<OutRun> runs;  // offsets in bytes from the destination's start
  std::vector<uint8_t> data;
  const auto put = [&](uint32_t k, uint64_t index, const uint8_t* value) {
    const uint64_t at = index * out_bytes;
    if (!runs.empty() && runs.back().share == k &&
        runs.back().offset + runs.back().bytes == at) {
      runs.back().bytes += out_bytes;
    } else {
      runs.push_back({k, at, out_bytes, data.size()});
    }
    data.insert(data.end(), value, value + out_bytes);
  };
  uint8_t value[4];
  for (uint32_t k = 0; k < shares.size(); ++k) {
    const Share& s = shares[k];
    for (uint32_t i = 0; i < p.num; ++i) {
      // DN runs go down a column; NZ and ND along a row.
      const uint32_t outer = dn ? s.n_count : s.m_count;
      const uint32_t inner = dn ? s.m_count : s.n_count;
      for (uint32_t a = 0; a < outer; ++a) {
        for (uint32_t b = 0; b < inner; ++b) {
          const uint32_t m = dn ? b : a;
          const uint32_t n = dn ? a : b;
          const uint32_t column = s.n0 + n;
          const QuantParam* q = params.empty()       ? nullptr
                                : params.size() == 1 ? &params[0]
                                                     : &params[column];
          ConvertOut(src_type, dst_type, p.relu, q,
                     l0c + src_index(i, s.m0 + m, column) * 4, value);
          put(k, dst_index(s, i, m, n), value);
        }
      }
    }
  }
  if (target == Target::kGm) {
    for (const OutRun& r : runs) {
      StoreToGm(api, bases[0] + r.offset, data.data() + r.data_at, r.bytes);
    }
  } else if (target == Target::kL1) {
    for (const OutRun& r : runs) {
      std::memcpy(bases[0] + r.offset, data.data() + r.data_at, r.bytes);
    }
  } else {
    std::vector<uint32_t> sub_blocks;
    for (const Share& s : shares) sub_blocks.push_back(s.sub_block);
    WriteVectorCoreUbs(api, sub_blocks, false, dst_local->offset, runs, data);
  }
}

void RunDataCopyL1ToUb(const char* type_name, uint32_t sub_block,
                       const TensorView& dst, const TensorView& src,
                       uint32_t block_count, uint32_t block_len,
                       uint32_t src_gap, uint32_t dst_gap) {
  char api[64];
  JoinName(api, sizeof api, {"DataCopyL1ToUB<", type_name, "> L1->UB"});
  RequireCubeProfile(api, {Profile::k950},
                     "the L1 -> UB copy is the Ascend 950's");
  CheckOperand(api, "src", src, {TPosition::A1, TPosition::B1, TPosition::C1},
               "A1, B1 or C1 (L1)", 32);
  CheckOperand(api, "dst", dst,
               {TPosition::VECIN, TPosition::VECOUT, TPosition::VECCALC},
               "VECIN, VECOUT or VECCALC (the UB)", 32);
  if (block_count == 0 && block_len == 0) return;  // count under 32 bytes
  CheckRange(api, "repeatParams.blockCount", block_count, 1, 4095);
  CheckRange(api, "repeatParams.blockLen", block_len, 1, 65535);
  const uint64_t last = uint64_t{block_count} - 1u;
  CheckFits(api, "src", (last * (block_len + src_gap) + block_len) * 32,
            src.bytes, "the copy");
  CheckFits(api, "dst", (last * (block_len + dst_gap) + block_len) * 32,
            dst.bytes, "the copy");
  const uint8_t* from = src.declared_data();
  std::vector<uint8_t> data;
  std::vector<OutRun> runs;
  for (uint64_t b = 0; b <= last; ++b) {
    const uint8_t* at = from + b * (block_len + src_gap) * 32;
    runs.push_back(
        {0, b * (block_len + dst_gap) * 32, block_len * 32u, data.size()});
    data.insert(data.end(), at, at + uint64_t{block_len} * 32);
  }
  WriteVectorCoreUbs(api, {sub_block}, true, dst.offset, runs, data);
}

}  // namespace normgrad_ascendc

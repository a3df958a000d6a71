// cube_datamove.cc — the C API's matrix data movement
// (c_api/cube_datamove/cube_datamove.h) on the C++ cube instructions:
// DataCopy GM <-> L1 (DataCopyImpl, DataCopyStridedImpl), LoadData 2D
// (RunLoadData2D), DataCopy with Nd2NzParams (RunNd2Nz), DataCopy L0C -> GM
// and its fixpipe registers (RunDataCopyL0cToGm, RunSetFixpipeNz2ndFlag,
// RunSetFixpipePreQuantFlag), Fixpipe L0C -> L1 (RunFixpipe), LoadData 3D
// and its registers (RunLoadData3D, RunSetFmatrix, ...),
// LoadDataWithTranspose (RunLoadDataWithTranspose), LoadDataWithSparse
// (RunLoadDataWithSparse), the copies into the bias table and the fixpipe
// buffer (RunL1ToCubeTable) and Fill (RunFill); L1 -> L0C, which has no C++
// instruction, is its own move here.
#include "c_api/cube_datamove/cube_datamove.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc/cube/cube_checks.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_img2col.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/cube/cube_sparse.h"
#include "normgrad_ascendc/cube/cube_table_copy.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

// A GM operand as the cube instructions take it: an address of unknown
// size, checked against its allocation.
GmSide GmPointer(const char* api, const char* which, void* p) {
  CheckGmPointer(api, which, p);
  return {static_cast<uint8_t*>(p), 0, false, p};
}

// `value` of the C argument `arg` in [lo, hi], else the page's rule.
void CheckArg(const char* api, const char* arg, uint64_t value, uint64_t lo,
              uint64_t hi) {
  if (value >= lo && value <= hi) return;
  Fail("%s: %s %llu is out of range [%llu, %llu]", api, arg,
       static_cast<unsigned long long>(value),
       static_cast<unsigned long long>(lo),
       static_cast<unsigned long long>(hi));
}

}  // namespace

void CapiCopyGmL1(const char* api, bool to_l1, void* dst, void* src,
                  const CapiBursts& b, const CallSite& site) {
  const CapiCall call(api, site);
  void* l1 = to_l1 ? dst : src;
  void* gm = to_l1 ? src : dst;
  const TensorView view =
      CubePointerView(api, nullptr, to_l1 ? "dst" : "src", l1, TPosition::A1);
  CheckGmPointer(api, to_l1 ? "src" : "dst", gm);
  const CopyEnd l1_end{view.declared_data(), &view, view.bytes, true, nullptr};
  const CopyEnd gm_end{static_cast<uint8_t*>(gm), nullptr, 0, false, gm};
  const CopyEnd& d = to_l1 ? l1_end : gm_end;
  const CopyEnd& s = to_l1 ? gm_end : l1_end;
  if (b.count_form) {
    DataCopyImpl("", 1, d, s, CapiCopySize(api, b.size), api);
    return;
  }
  CheckCapiBursts(api, b.n_burst, b.len_burst);
  DataCopyStridedImpl(
      "", 1, d, s,
      AscendC::DataCopyParams(b.n_burst, b.len_burst, b.src_gap, b.dst_gap),
      api);
}

void CapiCopyGmFractals(const char* api, const CapiCubeType& type, TPosition to,
                        void* dst, void* src, uint16_t base_idx, uint8_t repeat,
                        uint16_t src_stride, uint16_t dst_gap,
                        const CallSite& site) {
  const CapiCall call(api, site);
  const CapiCubeName name(api, type.name);
  const TensorView d = CubePointerView(api, type.name, "dst", dst, to);
  const GmSide from = GmPointer(name.text, "src", src);
  if (to != TPosition::A1) CheckArg(name.text, "repeat", repeat, 1, 255);
  RunAsCapi(name.text, [&] {
    RunLoadData2D(type.name, type.bytes, d, nullptr, &from,
                  AscendC::LoadData2DParams(base_idx, repeat, src_stride, 0,
                                            dst_gap, false, 0));
  });
}

void CapiCopyNd2Nz(const char* api, const CapiCubeType& type, void* dst,
                   void* src, const AscendC::Nd2NzParams& params,
                   const CallSite& site) {
  const CapiCall call(api, site);
  const CapiCubeName name(api, type.name);
  const TensorView to =
      CubePointerView(api, type.name, "dst", dst, TPosition::A1);
  const GmSide from = GmPointer(name.text, "src", src);
  // The page's ranges where they are narrower than Nd2NzParams's.
  CheckArg(name.text, "dst_nz_matrix_stride", params.dstNzMatrixStride,
           params.ndNum > 1 ? 1 : 0, 65535);
  RunAsCapi(name.text,
            [&] { RunNd2Nz(type.name, type.bytes, to, from, params); });
}

void CapiCopyL1ToL0(const char* api, const CapiCubeType& type, TPosition to,
                    void* dst, void* src, uint16_t start_index, uint8_t repeat,
                    uint16_t src_stride, uint16_t dst_gap,
                    const CallSite& site) {
  const CapiCall call(api, site);
  const CapiCubeName name(api, type.name);
  const TensorView d = CubePointerView(api, type.name, "dst", dst, to);
  const TensorView s =
      CubePointerView(api, type.name, "src", src, TPosition::A1);
  CheckArg(name.text, "repeat", repeat, 1, 255);
  RunAsCapi(name.text, [&] {
    RunLoadData2D(type.name, type.bytes, d, &s, nullptr,
                  AscendC::LoadData2DParams(start_index, repeat, src_stride, 0,
                                            dst_gap, false, 0));
  });
}

namespace {

// `value` (a count of the C API's `value_unit`-byte blocks) as a whole
// number of DataCopy's `unit`-byte blocks on this profile, else the rule.
uint16_t InUnits(const char* api, const char* arg, uint64_t value,
                 uint32_t value_unit, uint32_t unit, const char* what) {
  const uint64_t blocks = value * value_unit / unit;
  if (value * value_unit % unit != 0 || blocks > 65535) {
    Fail(
        "%s: %s %llu (x %u bytes) is not a whole number of the %s's %u-byte "
        "blocks up to 65535 (the unit of DataCopy L1 -> %s on %s)",
        api, arg, static_cast<unsigned long long>(value), value_unit, what,
        unit, what, CurrentCore().profile().name);
  }
  return static_cast<uint16_t>(blocks);
}

// The element types of an asc_copy_l12bt: the source's as its pointer
// names it (the 950's page; "void" for the untyped form), and the table's.
struct BiasTypes {
  TableCopyType to;
  TableCopyType from;
};

// Atlas A2/A3 (the untyped form only): conv_control 1 reads half and
// writes float, 0 moves the bytes. The 950: a half or bfloat16_t source
// is widened with conv_control 1 (the untyped one as half) and a float or
// int32_t one moves as it is; a 16-bit source without the conversion, or a
// 32-bit one with it, is no bias table type (docs/decisions.md).
BiasTypes BiasTypesOf(const char* api, const char* src_type,
                      uint16_t conv_control) {
  if (conv_control > 1) {
    Fail("%s: conv_control %u is not 0 (no conversion) or 1 (%s to float)", api,
         conv_control, OnProfile950() ? "half or bfloat16_t" : "half");
  }
  const TableCopyType kFloat{"float", 4};
  if (!OnProfile950() || std::strcmp(src_type, "void") == 0) {
    return {kFloat, conv_control == 1 ? TableCopyType{"half", 2} : kFloat};
  }
  const bool narrow = std::strcmp(src_type, "half") == 0 ||
                      std::strcmp(src_type, "bfloat16_t") == 0;
  if (narrow != (conv_control == 1)) {
    Fail(
        "%s: conv_control %u with a %s source: the bias table holds float or "
        "int32_t, so a half or bfloat16_t source needs conv_control 1 (widen "
        "to float) and a float or int32_t one conv_control 0",
        api, conv_control, src_type);
  }
  if (narrow) return {kFloat, {src_type, 2}};
  return {{src_type, 4}, {src_type, 4}};
}

}  // namespace

void CapiCopyL1ToBiasTable(const char* api, const char* src_type, uint64_t dst,
                           void* src, const CapiBursts& b,
                           uint16_t conv_control, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(
      api, std::strcmp(src_type, "void") == 0 || !OnProfile950() ? nullptr
                                                                 : src_type);
  if (dst > UINT64_MAX / 16) {
    Fail(
        "%s: dst 0x%llx is not a bias-table address / 16 (take "
        "asc_get_phy_buf_addr(offset) / 16)",
        name.text, static_cast<unsigned long long>(dst));
  }
  const TensorView d =
      CubePointerView(api, nullptr, "dst (x 16)",
                      reinterpret_cast<void*>(dst * 16), TPosition::C2);
  const TensorView s = CubePointerView(api, nullptr, "src", src, TPosition::C1);
  const BiasTypes t = BiasTypesOf(name.text, src_type, conv_control);
  if (b.count_form) {
    const uint32_t size = CapiCopySize(name.text, b.size);
    RunAsCapi(name.text, [&] {
      RunL1ToCubeTable(t.to, t.from, d, &s, size / t.to.bytes, nullptr);
    });
    return;
  }
  CheckCapiBursts(name.text, b.n_burst, b.len_burst);
  // The C API counts the table's side in 32 bytes and its gaps from a
  // block's end to the next one's start. DataCopy does too on the 950; on
  // Atlas A2/A3 it counts 64 bytes.
  const AscendC::DataCopyParams p =
      OnProfile950()
          ? AscendC::DataCopyParams(b.n_burst, b.len_burst, b.src_gap,
                                    b.dst_gap)
          : AscendC::DataCopyParams(
                b.n_burst,
                InUnits(name.text, "len_burst", b.len_burst, 32, 64,
                        "bias table"),
                b.src_gap,
                InUnits(name.text, "dst_gap", b.dst_gap, 32, 64, "bias table"));
  RunAsCapi(name.text, [&] { RunL1ToCubeTable(t.to, t.from, d, &s, 0, &p); });
}

void CapiCopyL1ToFixpipeBuffer(const char* api, void* dst, void* src,
                               const CapiBursts& b, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const TensorView d =
      CubePointerView(api, nullptr, "dst", dst, TPosition::C2PIPE2GM);
  const TensorView s = CubePointerView(api, nullptr, "src", src, TPosition::C1);
  const TableCopyType type{"uint64_t", 8};
  if (b.count_form) {
    const uint32_t size = CapiCopySize(api, b.size);
    RunAsCapi(api,
              [&] { RunL1ToCubeTable(type, type, d, &s, size / 8, nullptr); });
    return;
  }
  CheckCapiBursts(api, b.n_burst, b.len_burst);
  // The C API counts len_burst and dst_gap_size in 32 bytes on Atlas A2/A3
  // and in 64 bytes on the 950, src_gap_size in 32, each gap from a burst's
  // end to the next one's start. DataCopy counts blockLen in 128 bytes (64
  // on the 950), and both gaps from one block's start to the next one's:
  // srcGap in 32 bytes, dstGap in 128.
  const uint32_t len_unit = OnProfile950() ? 64 : 32;
  const uint64_t src_pitch = uint64_t{b.len_burst} * len_unit / 32 + b.src_gap;
  if (src_pitch > 65535) {
    Fail(
        "%s: len_burst %u (x %u bytes) + src_gap_size %u (x 32 bytes) is "
        "more than 65535 32-byte blocks from one burst's start to the next",
        api, b.len_burst, len_unit, b.src_gap);
  }
  const uint16_t block_len =
      OnProfile950()
          ? b.len_burst
          : InUnits(api, "len_burst", b.len_burst, 32, 128, "fixpipe buffer");
  // One burst has no next one: its gaps mean nothing (DataCopy's 0).
  const bool one = b.n_burst == 1;
  const AscendC::DataCopyParams p(
      b.n_burst, block_len,
      one ? uint16_t{0} : static_cast<uint16_t>(src_pitch),
      one ? uint16_t{0}
          : InUnits(api, "len_burst + dst_gap_size",
                    uint64_t{b.len_burst} + b.dst_gap, len_unit, 128,
                    "fixpipe buffer"));
  RunAsCapi(api, [&] { RunL1ToCubeTable(type, type, d, &s, 0, &p); });
}

void CapiCopyL1ToL0c(const char* api, const CapiCubeType& dst_type,
                     const CapiCubeType& src_type, void* dst, void* src,
                     const CapiBursts& b, const CallSite& site) {
  const CapiCall call(api, site);
  char types[40];
  std::snprintf(types, sizeof types, "%s, %s", dst_type.name, src_type.name);
  const CapiCubeName name(api, types);
  const TensorView d = CubePointerView(api, types, "dst", dst, TPosition::CO1);
  const TensorView s = CubePointerView(api, types, "src", src, TPosition::A1);
  CheckArg(name.text, "n_burst", b.n_burst, 1, 4095);
  CheckArg(name.text, "len_burst", b.len_burst, 1, 65535);
  // len_burst counts L0C's side; a float source of a 16-bit burst is twice
  // as long.
  const uint64_t ratio = src_type.bytes / dst_type.bytes;
  const uint64_t dst_block = uint64_t{b.len_burst} * 32;
  const uint64_t src_block = dst_block * ratio;
  const uint64_t dst_pitch = dst_block + uint64_t{b.dst_gap} * 32;
  const uint64_t src_pitch = src_block + uint64_t{b.src_gap} * 32;
  const uint64_t last = b.n_burst - 1u;
  const uint64_t dst_end = last * dst_pitch + dst_block;
  const uint64_t src_end = last * src_pitch + src_block;
  if (dst_end > d.bytes) {
    Fail(
        "%s: the bursts reach %llu bytes into dst, past the end of L0C (%u "
        "bytes from dst)",
        name.text, static_cast<unsigned long long>(dst_end), d.bytes);
  }
  if (src_end > s.bytes) {
    Fail(
        "%s: the bursts reach %llu bytes into src, past the end of L1 (%u "
        "bytes from src)",
        name.text, static_cast<unsigned long long>(src_end), s.bytes);
  }
  uint8_t* to = d.declared_data();
  const uint8_t* from = s.declared_data();
  const bool bf16 = dst_type.type == CubeType::kBfloat16;
  for (uint64_t i = 0; i < b.n_burst; ++i) {
    uint8_t* out = to + i * dst_pitch;
    const uint8_t* in = from + i * src_pitch;
    if (ratio == 1) {
      std::memmove(out, in, dst_block);
      continue;
    }
    for (uint64_t e = 0; e < dst_block / 2; ++e) {
      float f;
      std::memcpy(&f, in + e * 4, 4);
      const uint16_t bits = bf16 ? normgrad::bits::FloatToBfloat16(f)
                                 : normgrad::bits::FloatToHalf(f);
      std::memcpy(out + e * 2, &bits, 2);
    }
  }
}

void CapiSetL0c2GmLreluAlpha(float alpha, const CallSite& site) {
  const char* api = "asc_set_l0c2gm_lrelu_alpha";
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  Fail(
      "%s: config %g: no Atlas A2/A3 copy out of L0C reads a Leaky ReLU "
      "alpha (asc_copy_l0c2gm and asc_copy_l0c2l1 take relu_pre 0, no ReLU, "
      "or 1, ReLU; Fixpipe's reluEn likewise), so the setting is not emulated",
      api, static_cast<double>(alpha));
}

void CapiCopyL1ToL0bSparse(const char* api, void* dst, void* src, void* index,
                           uint16_t start_index, uint8_t repeat,
                           const CallSite& site) {
  const CapiCall call(api, site);
  const TensorView d = CubePointerView(api, nullptr, "dst", dst, TPosition::B2);
  const TensorView s = CubePointerView(api, nullptr, "src", src, TPosition::B1);
  const TensorView i =
      CubePointerView(api, nullptr, "index", index, TPosition::B1);
  RunAsCapi(api, [&] {
    RunLoadDataWithSparse(
        d, s, i,
        AscendC::LoadData2DParams(start_index, repeat, 0, 0, 0, false, 0));
  });
}

void CapiCopyL1ToL0Img2col(const char* api, const CapiCubeType& type,
                           uint32_t elem_bits, bool only_950, TPosition to,
                           void* dst, void* src, const Img2colFields& fields,
                           const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const CapiCubeName name(api, type.name);
  if (only_950) {
    RequireCubeProfile(name.text, {Profile::k950},
                       "its 3D form takes this type on the Ascend 950 only");
  }
  const TensorView d = CubePointerView(api, type.name, "dst", dst, to);
  const TensorView s =
      CubePointerView(api, type.name, "src", src, TPosition::A1);
  CheckArg(name.text, "k_extension", fields.k_extension, 1, 65535);
  CheckArg(name.text, "m_extension", fields.m_extension, 1, 65535);
  // The 950's repeat setter has no dstStride: the columns of fractals lie
  // one after another, the Nz that Mmad reads (docs/capi.md).
  Img2colFields f = fields;
  f.dense_columns = true;
  RunAsCapi(name.text,
            [&] { RunLoadData3D(type.name, elem_bits, d, s, f, nullptr); });
}

void CapiCopyL1ToL0Transposed(const char* api, const CapiCubeType& type,
                              TPosition to, void* dst, void* src,
                              const AscendC::LoadData2dTransposeParams& params,
                              const CallSite& site) {
  const CapiCall call(api, site);
  const CapiCubeName name(api, type.name);
  const TensorView d = CubePointerView(api, type.name, "dst", dst, to);
  const TensorView s =
      CubePointerView(api, type.name, "src", src, TPosition::A1);
  RunAsCapi(name.text, [&] {
    RunLoadDataWithTranspose(type.name, type.bytes * 8, d, s, params);
  });
}

void CapiSetL13dFmatrix(const char* api, const asc_l13d_fmatrix_config& config,
                        AscendC::FmatrixMode mode, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  const uint8_t pads[4] = {config.padding_left_size, config.padding_right_size,
                           config.padding_top_size, config.padding_bottom_size};
  RunAsCapi(api, [&] {
    RunSetFmatrix(config.l1_height, config.l1_width, pads, mode);
  });
}

void CapiSetL13dPadding(const char* type, uint32_t bytes, const void* value,
                        const CallSite& site) {
  const char* api = "asc_set_l13d_padding";
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  if (bytes == 8) {
    // The uint64_t form: the bits of a 32-bit element (docs/capi.md).
    uint64_t wide;
    std::memcpy(&wide, value, 8);
    if (wide > UINT32_MAX) {
      Fail(
          "%s: config 0x%llx does not fit 32 bits; the uint64_t form gives "
          "the bits of a 32-bit element",
          api, static_cast<unsigned long long>(wide));
    }
    const auto narrow = static_cast<uint32_t>(wide);
    RunAsCapi(api, [&] { RunSetLoadDataPaddingValue("uint32_t", 4, &narrow); });
    return;
  }
  RunAsCapi(api, [&] { RunSetLoadDataPaddingValue(type, bytes, value); });
}

void CapiSetL13dRepeat(const asc_load3d_v2_config& config,
                       const CallSite& site) {
  const char* api = "asc_set_l13d_rpt";
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  AscendC::LoadDataRepeatParam p;
  p.repeatStride = static_cast<uint16_t>(config.rpt_stride);
  p.repeatTime = static_cast<uint8_t>(config.rpt_time);
  p.repeatMode = static_cast<uint8_t>(config.rpt_mode);
  RunAsCapi(api, [&] { RunSetLoadDataRepeat(p); });
}

void CapiSetL13dSize(uint64_t value, const CallSite& site) {
  const char* api = "asc_set_l13d_size";
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  CheckArg(api, "value", value, 0, UINT32_MAX);
  RunAsCapi(api, [&] { RunSetLoadDataBoundary(static_cast<uint32_t>(value)); });
}

void CapiCopyL0cOut(bool to_l1, const char* api, const CapiCubeType& dst_type,
                    const CapiCubeType& src_type, void* dst, void* src,
                    const CapiL0cCopy& a, const CallSite& site) {
  const CapiCall call(api, site);
  char types[48];
  JoinName(types, sizeof types, {dst_type.name, ", ", src_type.name});
  const CapiCubeName name(api, types);
  const TensorView from =
      CubePointerView(api, types, "src", src, TPosition::CO1);
  const char* stride = to_l1 ? "dst_stride" : "dst_stride_dst_d";
  CheckArg(name.text, "quant_pre", a.quant_pre, AscendC::NoQuant,
           AscendC::VREQ8);
  CheckArg(name.text, "n_size", a.n_size, 1, 4095);
  CheckArg(name.text, "m_size", a.m_size, 1, a.nz2nd_en ? 8192 : 65535);
  CheckArg(name.text, stride, a.dst_stride_dst_d, 1, UINT32_MAX);
  CheckArg(name.text, "relu_pre", a.relu_pre, 0, 1);
  // The C API pages count the NZ output's stride in elements, the C++
  // instruction's in 32-byte blocks (docs/decisions.md).
  uint64_t dst_stride = a.dst_stride_dst_d;
  if (!a.nz2nd_en && dst_type.bytes != 0) {
    const uint64_t bytes = dst_stride * dst_type.bytes;
    if (bytes % 32 != 0) {
      Fail(
          "%s: %s %u elements (%llu bytes) is not a multiple of 32 bytes; in "
          "the NZ output it runs from one column block's start to the next "
          "one's, which start on 32 bytes",
          name.text, stride, a.dst_stride_dst_d,
          static_cast<unsigned long long>(bytes));
    }
    dst_stride = bytes / 32;
  }
  const auto mode = static_cast<AscendC::QuantMode_t>(a.quant_pre);
  if (!to_l1) {
    const GmSide to = GmPointer(name.text, "dst", dst);
    AscendC::DataCopyCO12DstParams p;
    p.nSize = a.n_size;
    p.mSize = a.m_size;
    p.dstStride = static_cast<uint32_t>(dst_stride);
    p.srcStride = a.src_stride;
    p.unitFlag = a.unit_flag_mode;
    p.quantPre = mode;
    p.reluPre = a.relu_pre;
    p.channelSplit = a.channel_split;
    p.nz2ndEn = a.nz2nd_en;
    RunAsCapi(name.text, [&] {
      RunDataCopyL0cToGm(dst_type.type, src_type.type, to, from, p);
    });
    return;
  }
  const TensorView to = CubePointerView(api, types, "dst", dst, TPosition::A1);
  if (dst_type.bytes == 0) {
    Fail("%s: a void dst (the int4b_t outputs) is not emulated", name.text);
  }
  if (a.nz2nd_en) {
    Fail(
        "%s: enable_nz2nd is true; the L0C -> L1 path writes NZ only (pass "
        "false)",
        name.text);
  }
  AscendC::FixpipeParamsV220 p;
  p.nSize = a.n_size;
  p.mSize = a.m_size;
  p.srcStride = a.src_stride;
  p.dstStride = static_cast<uint32_t>(dst_stride);
  p.quantPre = mode;
  p.reluEn = a.relu_pre == 1;
  p.unitFlag = a.unit_flag_mode;
  p.channelSplit = a.channel_split;
  const FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
  switch (mode) {
    case AscendC::DEQF16:
    case AscendC::QF322B8_PRE:
    case AscendC::REQ8:
      if (!regs.quant_set) {
        Fail(
            "%s: quant_pre %llu is a scalar mode, whose parameter "
            "asc_set_l0c_copy_prequant sets; it was not called in this block",
            name.text, static_cast<unsigned long long>(a.quant_pre));
      }
      p.deqScalar = regs.quant_pre;
      break;
    case AscendC::VDEQF16:
    case AscendC::VQF322B8_PRE:
    case AscendC::VREQ8:
      Fail(
          "%s: quant_pre %llu is a vector mode; its per-column parameters "
          "into L1 are not emulated yet",
          name.text, static_cast<unsigned long long>(a.quant_pre));
    default:
      break;
  }
  RunAsCapi(name.text, [&] {
    RunFixpipe(dst_type.type, src_type.type, AscendC::CO2Layout::NZ, nullptr,
               &to, from, nullptr, p);
  });
}

void CapiSetL0cCopyParams(uint16_t nd_num, uint16_t src_nd_stride,
                          uint16_t dst_nd_stride, const CallSite& site) {
  const char* api = "asc_set_l0c_copy_params";
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  CheckArg(api, "nd_num", nd_num, 1, 65535);
  CheckArg(api, "src_nd_stride", src_nd_stride, 1, 512);
  CheckArg(api, "dst_nd_stride", dst_nd_stride, 1, 65535);
  RunAsCapi(api, [&] {
    RunSetFixpipeNz2ndFlag(nd_num, src_nd_stride, dst_nd_stride);
  });
}

void CapiSetL0cCopyPrequant(uint64_t config, const CallSite& site) {
  const char* api = "asc_set_l0c_copy_prequant";
  // Its page lists the 950: the 950's copies out of L0C read it.
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  RunSetFixpipePreQuantFlag(config);
}

void CapiFill(const char* api, const CapiCubeType& type, TPosition to,
              void* dst, const void* value, const char* value_type,
              uint32_t value_bytes, const asc_fill_value_config& config,
              const CallSite& site) {
  const CapiCall call(api, site);
  char types[48];
  JoinName(types, sizeof types, {type.name, ", ", value_type});
  const CapiCubeName name(api, types);
  const TensorView d = CubePointerView(api, types, "dst", dst, to);
  // The element's bits: the value's own when the sizes agree; the low half
  // of a uint32_t for a 16-bit element when its high half is 0.
  uint8_t bits[4] = {};
  if (value_bytes == type.bytes) {
    std::memcpy(bits, value, value_bytes);
  } else if (value_bytes == 4) {
    uint32_t wide;
    std::memcpy(&wide, value, 4);
    if (wide > 0xffffu) {
      Fail(
          "%s: value 0x%x does not fit the 16 bits of a %s element; pass "
          "the element's bits (0 to 0xffff) or a half",
          name.text, wide, type.name);
    }
    const auto narrow = static_cast<uint16_t>(wide);
    std::memcpy(bits, &narrow, 2);
  } else {
    Fail(
        "%s: a 16-bit value for a 32-bit %s element: the page does not say "
        "which bits it writes; pass the element's bits as a uint32_t",
        name.text, type.name);
  }
  RunAsCapi(name.text, [&] {
    RunFill(type.name, type.bytes, d, config.repeat, config.blk_num,
            config.dst_gap, bits);
  });
}

}  // namespace normgrad_ascendc

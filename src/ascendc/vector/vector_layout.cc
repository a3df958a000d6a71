// vector_layout.cc — the fill, layout, gather and scatter instructions that
// do not run on the executor's lane walk (Brcb, Gatherb, Transpose,
// TransDataTo5HD, Interleave, DeInterleave), Duplicate's fill, and the
// offset checks of Gather and Scatter
// (normgrad_ascendc/vector/vector_layout.h).
//
// Each reads all the source bytes a step needs before it writes any
// destination byte, so operands the documentation lets overlap (Transpose
// in place) give the documented result.
#include "normgrad_ascendc/vector/vector_layout.h"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/runtime/init_check.h"
#include "engine/dispatch.h"

namespace normgrad_ascendc {

void FillSpan(void* d, const void* value, uint32_t bytes, uint32_t n) {
  const normgrad::kernels::VectorKernels& k =
      normgrad::engine::ElementwiseIsa().vector;
  if (bytes == 2) {
    uint16_t v;
    std::memcpy(&v, value, sizeof v);
    k.fill[0](d, v, n);
    return;
  }
  if (bytes == 4) {
    uint32_t v;
    std::memcpy(&v, value, sizeof v);
    k.fill[1](d, v, n);
    return;
  }
  auto* out = static_cast<uint8_t*>(d);
  for (uint32_t i = 0; i < n; ++i) std::memcpy(out + i * bytes, value, bytes);
}

namespace {

constexpr uint32_t kBlock = 32;

const char* Who(const char* api, const char* type, char (&buffer)[96]) {
  if (*type == '\0') {  // an untyped caller (the C API's asc_transto5hd_b16)
    std::snprintf(buffer, sizeof buffer, "%s", api);
  } else {
    std::snprintf(buffer, sizeof buffer, "%s<%s>", api, type);
  }
  return buffer;
}

// Whether [a, a + a_bytes) and [b, b + b_bytes) share a byte.
bool Meet(const uint8_t* a, uint64_t a_bytes, const uint8_t* b,
          uint64_t b_bytes) {
  if (a == nullptr || b == nullptr || a_bytes == 0 || b_bytes == 0) {
    return false;
  }
  const auto pa = reinterpret_cast<uintptr_t>(a);
  const auto pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

void CheckElements(const char* who, const char* name, const TensorView& v,
                   uint32_t elem_bytes, uint64_t need, const char* why) {
  if (v.bytes / elem_bytes < need) {
    Fail("%s: %s has %u elements, fewer than the %" PRIu64 " %s", who, name,
         v.bytes / elem_bytes, need, why);
  }
}

void CheckApart(const char* who, const char* a_name, const uint8_t* a,
                uint64_t a_bytes, const char* b_name, const uint8_t* b,
                uint64_t b_bytes) {
  if (Meet(a, a_bytes, b, b_bytes)) {
    Fail(
        "%s: %s and %s overlap; the instruction does not allow them to "
        "share memory",
        who, a_name, b_name);
  }
}

}  // namespace

uint64_t MaxIndexedOffset(uint32_t elem_bytes) {
  if (OnProfile950()) {
    if (elem_bytes == 1) return (uint64_t{1} << 16) - 1;
    if (elem_bytes == 2) return (uint64_t{1} << 17) - 1;
  }
  return UINT32_MAX;
}

bool IndexedFits(const IndexedSide& side, uint32_t offset) {
  const uint64_t at = uint64_t{side.base} + offset;
  return offset <= side.max_offset && at % side.elem_bytes == 0 &&
         at + side.elem_bytes <= side.bytes;
}

uint64_t IndexedPosition(const IndexedSide& side, uint64_t lane,
                         uint32_t offset) {
  const uint64_t at = uint64_t{side.base} + offset;
  if (IndexedFits(side, offset)) return at;
  char who[96];
  Who(side.api, side.type, who);
  if (offset > side.max_offset) {
    Fail("%s: lane %" PRIu64 ": %s %u exceeds %" PRIu64
         ", the largest byte offset for %u-byte elements on profile %s",
         who, lane, side.offsets, offset, side.max_offset, side.elem_bytes,
         CurrentCore().profile().name);
  }
  if (at % side.elem_bytes != 0) {
    Fail("%s: lane %" PRIu64 ": %s %u (plus base address %u) is byte %" PRIu64
         ", not a multiple of the element size %u",
         who, lane, side.offsets, offset, side.base, at, side.elem_bytes);
  }
  Fail("%s: lane %" PRIu64
       ": %s %u (plus base address %u) addresses bytes %" PRIu64 "..%" PRIu64
       " of %s, which has %u bytes (%u elements); the "
       "device would %s memory outside %s",
       who, lane, side.offsets, offset, side.base, at, at + side.elem_bytes - 1,
       side.tensor, side.bytes, side.bytes / side.elem_bytes,
       std::strcmp(side.tensor, "src") == 0 ? "read" : "write", side.tensor);
}

void CheckIndexedCall(const IndexedSide& side, const TensorView& contiguous,
                      const TensorView& offsets, const char* contiguous_name) {
  char who[96];
  Who(side.api, side.type, who);
  if (side.base % side.elem_bytes != 0) {
    Fail("%s: %sBaseAddr %u is not a multiple of the element size %u", who,
         side.tensor, side.base, side.elem_bytes);
  }
  CheckApart(who, side.tensor, side.data, side.bytes, contiguous_name,
             contiguous.data(), contiguous.bytes);
  if (std::strcmp(side.tensor, "dst") == 0) {
    CheckApart(who, side.tensor, side.data, side.bytes, side.offsets,
               offsets.data(), offsets.bytes);
  }
}

void BrcbImpl(const char* type, const TensorView& dst, const TensorView& src,
              uint32_t elem_bytes, uint32_t repeat_time,
              const AscendC::BrcbRepeatParams& p, const char* api) {
  char who[96];
  Who(api, type, who);
  dst.CheckUbOperand(who, "dst");
  src.CheckUbOperand(who, "src");
  if (p.dstBlkStride == 0) {
    Fail("%s: repeatParams.dstBlkStride 0 is not allowed (at least 1 block)",
         who);
  }
  if (repeat_time == 0) return;
  const uint64_t elems = uint64_t{8} * repeat_time;
  CheckElements(who, "src", src, elem_bytes, elems,
                "that repeatTime reads (8 a repeat)");
  const uint64_t reach =
      (uint64_t{repeat_time - 1} * p.dstRepStride + 7ull * p.dstBlkStride) *
          kBlock +
      kBlock;
  if (reach > dst.bytes) {
    Fail(
        "%s: dst has %u bytes; %u repeats with dstBlkStride %u and "
        "dstRepStride %u reach byte %" PRIu64 ", past its end",
        who, dst.bytes, repeat_time, p.dstBlkStride, p.dstRepStride, reach);
  }
  CheckApart(who, "src", src.data(), elems * elem_bytes, "dst", dst.data(),
             reach);
  const uint8_t* from = src.data();
  uint8_t* base = dst.data();
  for (uint64_t r = 0; r < repeat_time; ++r) {
    for (uint64_t j = 0; j < 8; ++j) {
      uint8_t* block =
          base + (r * p.dstRepStride + j * p.dstBlkStride) * kBlock;
      const uint8_t* value = from + (r * 8 + j) * elem_bytes;
      for (uint32_t k = 0; k < kBlock; k += elem_bytes) {
        std::memcpy(block + k, value, elem_bytes);
      }
    }
  }
}

void GatherbImpl(const char* type, const TensorView& dst, const TensorView& src,
                 const TensorView& offsets, uint32_t repeat_time,
                 const AscendC::GatherRepeatParams& p, const char* api) {
  char who[96];
  Who(api, type, who);
  dst.CheckUbOperand(who, "dst");
  src.CheckUbOperand(who, "src");
  offsets.CheckUbOperand(who, "offset");
  if (repeat_time == 0) return;
  const uint64_t blk = p.dstBlkStride == 0 ? 1 : p.dstBlkStride;
  const uint64_t lanes = uint64_t{8} * repeat_time;
  CheckElements(who, "offset", offsets, 4, lanes,
                "that repeatTime reads (8 a repeat)");
  const uint64_t reach =
      (uint64_t{repeat_time - 1} * p.dstRepStride + 7 * blk) * kBlock + kBlock;
  if (reach > dst.bytes) {
    Fail("%s: dst has %u bytes; %u repeats with dstBlkStride %" PRIu64
         " and dstRepStride %u reach byte %" PRIu64 ", past its end",
         who, dst.bytes, repeat_time, blk, p.dstRepStride, reach);
  }
  CheckApart(who, "src", src.data(), src.bytes, "dst", dst.data(), reach);
  CheckApart(who, "offset", offsets.data(), lanes * 4, "dst", dst.data(),
             reach);
  std::vector<uint32_t> at(lanes);
  std::memcpy(at.data(), offsets.data(), lanes * 4);
  for (uint64_t lane = 0; lane < lanes; ++lane) {
    if (at[lane] % kBlock != 0 || uint64_t{at[lane]} + kBlock > src.bytes) {
      Fail("%s: lane %" PRIu64 ": offset %u addresses bytes %u..%" PRIu64
           " of src, which has %u bytes; an offset must be a multiple of 32 "
           "and its block inside src",
           who, lane, at[lane], at[lane], uint64_t{at[lane]} + kBlock - 1,
           src.bytes);
    }
  }
  for (uint64_t r = 0; r < repeat_time; ++r) {
    for (uint64_t j = 0; j < 8; ++j) {
      std::memcpy(dst.data() + (r * p.dstRepStride + j * blk) * kBlock,
                  src.data() + at[r * 8 + j], kBlock);
    }
  }
}

void Transpose16Impl(const char* api, const char* type, const TensorView& dst,
                     const TensorView& src) {
  char who[96];
  Who(api, type, who);
  dst.CheckUbOperand(who, "dst");
  src.CheckUbOperand(who, "src");
  CheckElements(who, "dst", dst, 2, 256, "elements of a 16x16 matrix");
  CheckElements(who, "src", src, 2, 256, "elements of a 16x16 matrix");
  if (SyncCheckOn()) {
    NoteTensorAccess(SyncPipe::kV, who, src, 0, 512, false);
    NoteTensorAccess(SyncPipe::kV, who, dst, 0, 512, true);
  }
  uint16_t in[256];
  std::memcpy(in, src.data(), sizeof in);
  uint16_t out[256];
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) out[i * 16 + j] = in[j * 16 + i];
  }
  std::memcpy(dst.data(), out, sizeof out);
}

void TransposeNchwImpl(const char* type, const TensorView& dst,
                       const TensorView& src, const TensorView& tmp,
                       uint32_t elem_bytes,
                       const AscendC::TransposeParamsExt& p) {
  const bool to_nhwc =
      p.transposeType == AscendC::TransposeType::TRANSPOSE_NCHW2NHWC;
  char who[96];
  Who(to_nhwc ? "Transpose(TRANSPOSE_NCHW2NHWC)"
              : "Transpose(TRANSPOSE_NHWC2NCHW)",
      type, who);
  dst.CheckUbOperand(who, "dst");
  src.CheckUbOperand(who, "src");
  const uint64_t n = p.nSize, c = p.cSize, h = p.hSize, w = p.wSize;
  if (c > 4095) {
    Fail("%s: transposeParams.cSize %" PRIu64 " is out of range (0..4095)", who,
         c);
  }
  if (h * w > 4095) {
    Fail("%s: transposeParams.hSize * wSize = %" PRIu64
         " is out of range (0..4095)",
         who, h * w);
  }
  if (h * w * elem_bytes % kBlock != 0) {
    Fail("%s: transposeParams.hSize * wSize * sizeof(T) = %" PRIu64
         " bytes is not a multiple of 32",
         who, h * w * elem_bytes);
  }
  if (n == 0 || c == 0 || h == 0 || w == 0) return;
  const uint64_t elems = n * c * h * w;
  CheckElements(who, "dst", dst, elem_bytes, elems,
                "elements of the N*C*H*W shape");
  CheckElements(who, "src", src, elem_bytes, elems,
                "elements of the N*C*H*W shape");
  CheckApart(who, "src", src.data(), elems * elem_bytes, "dst", dst.data(),
             elems * elem_bytes);
  if (CurrentCore().profile().profile != Profile::k310P) {
    // The scratch the device's implementation stages blocks in: h0 rows of
    // one 32-byte block (32 rows for 1-byte types) per channel and a few more.
    const uint64_t h0 = elem_bytes == 1 ? 32 : 16;
    const uint64_t w0 = kBlock / elem_bytes;
    const uint64_t need = (to_nhwc ? c + 2 : 2 * c + 1) * h0 * w0 * elem_bytes;
    tmp.CheckUbOperand(who, "sharedTmpBuffer");
    if (tmp.bytes < need) {
      Fail("%s: sharedTmpBuffer has %u bytes, fewer than the %" PRIu64
           " this shape needs (%s * %" PRIu64 " * %" PRIu64 " * %u)",
           who, tmp.bytes, need, to_nhwc ? "(cSize + 2)" : "(2 * cSize + 1)",
           h0, w0, elem_bytes);
    }
    CheckApart(who, "sharedTmpBuffer", tmp.data(), need, "src", src.data(),
               elems * elem_bytes);
    CheckApart(who, "sharedTmpBuffer", tmp.data(), need, "dst", dst.data(),
               elems * elem_bytes);
  }
  const uint8_t* s = src.data();
  uint8_t* d = dst.data();
  const uint64_t hw = h * w;
  for (uint64_t in = 0; in < n; ++in) {
    for (uint64_t ic = 0; ic < c; ++ic) {
      for (uint64_t k = 0; k < hw; ++k) {
        const uint64_t nchw = (in * c + ic) * hw + k;
        const uint64_t nhwc = (in * hw + k) * c + ic;
        const uint64_t from = to_nhwc ? nchw : nhwc;
        const uint64_t to = to_nhwc ? nhwc : nchw;
        std::memcpy(d + to * elem_bytes, s + from * elem_bytes, elem_bytes);
      }
    }
  }
}

BlockRef AddressBlock(const char* type, const char* list, int i,
                      uint64_t address) {
  char who[96];
  Who("TransDataTo5HD", type, who);
  const Core& core = CurrentCore();
  const uint64_t ub = reinterpret_cast<uintptr_t>(core.ub());
  if (address < ub || address >= ub + core.ub_size()) {
    Fail("%s: %s[%d] = 0x%" PRIx64
         " is not an address in the unified buffer (take it from a "
         "LocalTensor's GetPhyAddr)",
         who, list, i, address);
  }
  const uint64_t offset = address - ub;
  if (offset % kBlock != 0) {
    Fail("%s: %s[%d] is at UB offset %" PRIu64 ", which is not 32-byte aligned",
         who, list, i, offset);
  }
  return {core.ub() + offset, core.ub_size() - offset};
}

BlockRef TensorBlock(const char* type, const char* list, int i,
                     const TensorView& view) {
  char who[96], name[32];
  Who("TransDataTo5HD", type, who);
  std::snprintf(name, sizeof name, "%s[%d]", list, i);
  view.CheckUbOperand(who, name);
  return {view.data(), view.bytes};
}

void AddressList(const char* type, const char* which, const TensorView& view,
                 uint64_t (&out)[16]) {
  char who[96];
  Who("TransDataTo5HD", type, who);
  view.CheckUbOperand(who, which);
  CheckElements(who, which, view, 8, 16, "addresses of the list");
  std::memcpy(out, view.data(), sizeof out);
}

void TransDataTo5HDImpl(const char* type, const BlockRef (&dst)[16],
                        const BlockRef (&src)[16], uint32_t elem_bytes,
                        const AscendC::TransDataTo5HDParams& p,
                        const char* api) {
  char who[96];
  Who(api, type, who);
  const uint32_t repeats = p.repeatTimes;
  for (uint32_t r = 0; r < repeats; ++r) {
    // With one repeat the lists are already shifted by one stride; with more,
    // repeat r is shifted by r strides.
    const uint64_t step = repeats == 1 ? 1 : r;
    const uint64_t src_shift = step * p.srcRepStride * kBlock;
    const uint64_t dst_shift = step * p.dstRepStride * kBlock;
    auto check = [&](const char* name, int i, const BlockRef& ref,
                     uint64_t shift) {
      if (shift + kBlock > ref.room) {
        Fail("%s: repeat %u reads or writes bytes %" PRIu64 "..%" PRIu64
             " from %s[%d], past the end of its memory (%" PRIu64
             " bytes); repeatTimes %u, srcRepStride %u, dstRepStride %u",
             who, r, shift, shift + kBlock - 1, name, i, ref.room, repeats,
             p.srcRepStride, p.dstRepStride);
      }
    };
    for (int i = 0; i < 16; ++i) {
      check("srcList", i, src[i], src_shift);
      check("dstList", i, dst[i], dst_shift);
    }
    uint8_t in[16][kBlock];
    uint8_t out[16][kBlock];
    for (int i = 0; i < 16; ++i) {
      std::memcpy(in[i], src[i].start + src_shift, kBlock);
      std::memcpy(out[i], dst[i].start + dst_shift, kBlock);
    }
    if (elem_bytes == 1) {
      // Byte j of each source's chosen half forms half of destination j.
      const int s_half = p.srcHighHalf ? 16 : 0;
      const int d_half = p.dstHighHalf ? 16 : 0;
      for (int j = 0; j < 16; ++j) {
        for (int i = 0; i < 16; ++i) out[j][d_half + i] = in[i][s_half + j];
      }
    } else if (elem_bytes == 2) {
      // Element j of each source forms destination j.
      for (int j = 0; j < 16; ++j) {
        for (int i = 0; i < 16; ++i)
          std::memcpy(&out[j][2 * i], &in[i][2 * j], 2);
      }
    } else {
      // Element j of sources 0..7 forms destination 2j, of sources 8..15
      // destination 2j + 1.
      for (int j = 0; j < 8; ++j) {
        for (int i = 0; i < 16; ++i) {
          std::memcpy(&out[2 * j + i / 8][4 * (i % 8)], &in[i][4 * j], 4);
        }
      }
    }
    for (int i = 0; i < 16; ++i) {
      std::memcpy(dst[i].start + dst_shift, out[i], kBlock);
      // An address list's blocks reach the UB through no tensor: the init
      // check learns of the write here.
      if (SyncCheckOn()) {
        InitUbAccess(who, dst[i].start + dst_shift - CurrentCore().ub(), kBlock,
                     /*write=*/true, /*exact=*/false);
      }
    }
  }
}

namespace {

void CheckPairCount(const char* who, const char* name, int64_t count) {
  if (count < 0 || count % 2 != 0) {
    Fail("%s: %s %lld must be even and not negative", who, name,
         static_cast<long long>(count));
  }
}

}  // namespace

void InterleaveImpl(const char* type, const TensorView& dst0,
                    const TensorView& dst1, const TensorView& src0,
                    const TensorView& src1, uint32_t elem_bytes,
                    int64_t count) {
  char who[96];
  Who("Interleave", type, who);
  CheckPairCount(who, "count", count);
  const std::pair<const char*, const TensorView*> all[] = {
      {"dst0", &dst0}, {"dst1", &dst1}, {"src0", &src0}, {"src1", &src1}};
  for (const auto& [name, v] : all) {
    v->CheckUbOperand(who, name);
    CheckElements(who, name, *v, elem_bytes, static_cast<uint64_t>(count),
                  "count asks for");
  }
  const uint64_t bytes = static_cast<uint64_t>(count) * elem_bytes;
  for (int d = 0; d < 2; ++d) {
    for (int s = 2; s < 4; ++s) {
      CheckApart(who, all[s].first, all[s].second->data(), bytes, all[d].first,
                 all[d].second->data(), bytes);
    }
  }
  for (uint64_t i = 0; i < 2 * static_cast<uint64_t>(count); ++i) {
    const TensorView& s = i % 2 == 0 ? src0 : src1;
    const TensorView& d = i < static_cast<uint64_t>(count) ? dst0 : dst1;
    const uint64_t at = i < static_cast<uint64_t>(count) ? i : i - count;
    std::memcpy(d.data() + at * elem_bytes, s.data() + (i / 2) * elem_bytes,
                elem_bytes);
  }
}

void DeInterleaveImpl(const char* type, const TensorView& dst0,
                      const TensorView& dst1, const TensorView& src0,
                      const TensorView* src1, uint32_t elem_bytes,
                      int64_t count) {
  char who[96];
  Who("DeInterleave", type, who);
  CheckPairCount(who, src1 != nullptr ? "count" : "srcCount", count);
  // Two sources: 2·count elements (src0 then src1) into count each; one
  // source: srcCount elements into srcCount / 2 each.
  const uint64_t in_each = static_cast<uint64_t>(count);
  const uint64_t out_each = src1 != nullptr ? in_each : in_each / 2;
  const char* why = src1 != nullptr ? "count asks for" : "the outputs take";
  dst0.CheckUbOperand(who, "dst0");
  dst1.CheckUbOperand(who, "dst1");
  CheckElements(who, "dst0", dst0, elem_bytes, out_each, why);
  CheckElements(who, "dst1", dst1, elem_bytes, out_each, why);
  const char* src0_name = src1 != nullptr ? "src0" : "src";
  src0.CheckUbOperand(who, src0_name);
  CheckElements(who, src0_name, src0, elem_bytes, in_each,
                src1 != nullptr ? "count asks for" : "srcCount asks for");
  if (src1 != nullptr) {
    src1->CheckUbOperand(who, "src1");
    CheckElements(who, "src1", *src1, elem_bytes, in_each, "count asks for");
  }
  const uint64_t out_bytes = out_each * elem_bytes;
  const uint64_t in_bytes = in_each * elem_bytes;
  for (const auto& [dn, dv] :
       {std::pair<const char*, const TensorView*>{"dst0", &dst0},
        {"dst1", &dst1}}) {
    CheckApart(who, src0_name, src0.data(), in_bytes, dn, dv->data(),
               out_bytes);
    if (src1 != nullptr) {
      CheckApart(who, "src1", src1->data(), in_bytes, dn, dv->data(),
                 out_bytes);
    }
  }
  for (uint64_t i = 0; i < 2 * out_each; ++i) {
    const uint8_t* from = i < in_each
                              ? src0.data() + i * elem_bytes
                              : src1->data() + (i - in_each) * elem_bytes;
    uint8_t* to = (i % 2 == 0 ? dst0 : dst1).data() + (i / 2) * elem_bytes;
    std::memcpy(to, from, elem_bytes);
  }
}

}  // namespace normgrad_ascendc

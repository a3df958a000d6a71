// vector_datamove.cc — the C API's asc_copy_gm2ub, asc_copy_ub2gm and
// asc_copy_ub2ub (c_api/vector_datamove/vector_datamove.h) on DataCopy's
// checks and copy (DataCopyImpl, DataCopyStridedImpl), and the _align
// copies with asc_set_copy_pad_val on DataCopyPad's.
#include "c_api/vector_datamove/vector_datamove.h"

#include <cstdint>
#include <utility>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_pad.h"

namespace normgrad_ascendc {

namespace {

enum class Memory : uint8_t { kGm, kUb };

// One side of a copy: its CopyEnd, and the UB view it points to.
struct End {
  End(const char* api, const char* which, Memory memory, void* p) {
    if (memory == Memory::kUb) {
      view = UbPointerView(api, nullptr, which, p);
      copy = {view.data(), &view, view.bytes, true, nullptr};
    } else {
      CheckGmPointer(api, which, p);
      copy = {static_cast<uint8_t*>(p), nullptr, 0, false, p};
    }
  }
  End(const End&) = delete;
  End& operator=(const End&) = delete;
  // The UB bytes [0, bytes) must lie in the UB.
  void CheckReach(const char* api, const char* which, uint64_t bytes) const {
    if (copy.ub != nullptr) CheckUbBytes(api, which, view, bytes);
  }
  TensorView view;
  CopyEnd copy;
};

void CopyCount(const char* api, Memory to, void* dst, Memory from, void* src,
               uint32_t size, const CallSite& site) {
  const CapiCall call(api, site);
  const End d(api, "dst", to, dst);
  const End s(api, "src", from, src);
  const uint32_t moved = CapiCopySize(api, size);
  s.CheckReach(api, "src", moved);
  d.CheckReach(api, "dst", moved);
  DataCopyImpl("", 1, d.copy, s.copy, moved, api);
}

void CopyBursts(const char* api, Memory to, void* dst, Memory from, void* src,
                uint16_t n_burst, uint16_t len_burst, uint16_t src_gap,
                uint16_t dst_gap, const CallSite& site) {
  const CapiCall call(api, site);
  const End d(api, "dst", to, dst);
  const End s(api, "src", from, src);
  CheckCapiBursts(api, n_burst, len_burst);
  // Bytes from the first burst's start to the last one's end.
  const auto reach = [&](uint16_t gap) {
    return (uint64_t{n_burst} - 1) * (uint64_t{len_burst} + gap) * 32 +
           uint64_t{len_burst} * 32;
  };
  s.CheckReach(api, "src", reach(src_gap));
  d.CheckReach(api, "dst", reach(dst_gap));
  DataCopyStridedImpl(
      "", 1, d.copy, s.copy,
      AscendC::DataCopyParams(n_burst, len_burst, src_gap, dst_gap), api);
}

// The _align copies' argument rules, as their pages give them; the blocks
// for DataCopyPad (the gap in bytes on the GM side, in blocks in the UB).
PadBlocks AlignBlocks(const char* api, const char* type, uint32_t elem_bytes,
                      const AlignBursts& b, bool gm_source) {
  const char* len = b.count_form ? "size" : "len_burst";
  if (!b.count_form && (b.n_burst < 1 || b.n_burst > 4095)) {
    Fail("%s<%s>: n_burst %u is out of range [1, 4095]", api, type, b.n_burst);
  }
  if (b.len_burst < 1 || b.len_burst > 2097151) {
    Fail("%s<%s>: %s %u bytes is out of range [1, 2097151]", api, type, len,
         b.len_burst);
  }
  if (b.len_burst % elem_bytes != 0) {
    Fail("%s<%s>: %s %u bytes is not a whole number of %u-byte elements", api,
         type, len, b.len_burst, elem_bytes);
  }
  for (const auto& [name, count] :
       {std::pair<const char*, uint32_t>{"left_padding_num",
                                         b.left_padding_num},
        {"right_padding_num", b.right_padding_num}}) {
    if (count * elem_bytes > 32) {
      Fail(
          "%s<%s>: %s %u elements (%u bytes) is over 32 bytes; a padding is "
          "at most 32 bytes",
          api, type, name, count, count * elem_bytes);
    }
    if (count != 0 && !gm_source) {
      Fail(
          "%s<%s>: %s %u is not 0; normgrad pads only the rows a GM -> UB "
          "copy writes into the UB (the page does not say what padding a "
          "UB -> GM copy writes)",
          api, type, name, count);
    }
  }
  const uint32_t gm_gap = gm_source ? b.src_gap : b.dst_gap;
  const uint32_t ub_gap = gm_source ? b.dst_gap : b.src_gap;
  return {"bursts", b.n_burst, b.len_burst, 2097151, uint64_t{gm_gap} * 32,
          ub_gap,   false};
}

// A GM operand of an _align copy starts on a whole element.
void CheckGmElement(const char* api, const char* type, const char* which,
                    const void* p, uint32_t elem_bytes) {
  if (reinterpret_cast<uintptr_t>(p) % elem_bytes != 0) {
    Fail("%s<%s>: %s %p is not aligned to its %u-byte elements", api, type,
         which, p, elem_bytes);
  }
}

}  // namespace

void CopyAlignIn(const char* api, const char* type, uint32_t elem_bytes,
                 void* dst, void* src, const AlignBursts& bursts,
                 const CallSite& site) {
  const CapiCall call(api, site);
  const End d(api, "dst", Memory::kUb, dst);
  const End s(api, "src", Memory::kGm, src);
  CheckGmElement(api, type, "src", src, elem_bytes);
  const PadBlocks blocks = AlignBlocks(api, type, elem_bytes, bursts, true);
  CopyEnd to = d.copy;
  to.elems = d.view.bytes / elem_bytes;
  DataCopyPadInImpl(
      type, elem_bytes, to, s.copy, blocks,
      {false, bursts.left_padding_num, bursts.right_padding_num, {}}, api);
}

void CopyAlignOut(const char* api, const char* type, uint32_t elem_bytes,
                  void* dst, void* src, const AlignBursts& bursts,
                  const CallSite& site) {
  const CapiCall call(api, site);
  const End d(api, "dst", Memory::kGm, dst);
  const End s(api, "src", Memory::kUb, src);
  CheckGmElement(api, type, "dst", dst, elem_bytes);
  const PadBlocks blocks = AlignBlocks(api, type, elem_bytes, bursts, false);
  CopyEnd from = s.copy;
  from.elems = s.view.bytes / elem_bytes;
  DataCopyPadOutImpl(type, elem_bytes, d.copy, from, blocks, api);
}

void SetCopyPadValue(const void* value, uint32_t bytes, const CallSite& site) {
  const CapiCall call("asc_set_copy_pad_val", site);
  SetPadValueImpl(value, bytes);
}

}  // namespace normgrad_ascendc

using normgrad_ascendc::CallSite;
using normgrad_ascendc::CopyBursts;
using normgrad_ascendc::CopyCount;
using Memory = normgrad_ascendc::Memory;

void asc_copy_gm2ub(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_gm2ub", Memory::kUb, dst, Memory::kGm, src, size, site);
}
void asc_copy_gm2ub(void* dst, void* src, uint16_t n_burst, uint16_t len_burst,
                    uint16_t src_gap, uint16_t dst_gap, CallSite site) {
  CopyBursts("asc_copy_gm2ub", Memory::kUb, dst, Memory::kGm, src, n_burst,
             len_burst, src_gap, dst_gap, site);
}
void asc_copy_gm2ub_sync(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_gm2ub_sync", Memory::kUb, dst, Memory::kGm, src, size,
            site);
}

void asc_copy_ub2gm(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_ub2gm", Memory::kGm, dst, Memory::kUb, src, size, site);
}
void asc_copy_ub2gm(void* dst, void* src, uint16_t n_burst, uint16_t len_burst,
                    uint16_t src_gap, uint16_t dst_gap, CallSite site) {
  CopyBursts("asc_copy_ub2gm", Memory::kGm, dst, Memory::kUb, src, n_burst,
             len_burst, src_gap, dst_gap, site);
}
void asc_copy_ub2gm_sync(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_ub2gm_sync", Memory::kGm, dst, Memory::kUb, src, size,
            site);
}

void asc_copy_ub2ub(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_ub2ub", Memory::kUb, dst, Memory::kUb, src, size, site);
}
void asc_copy_ub2ub(void* dst, void* src, uint16_t n_burst, uint16_t len_burst,
                    uint16_t src_gap, uint16_t dst_gap, CallSite site) {
  CopyBursts("asc_copy_ub2ub", Memory::kUb, dst, Memory::kUb, src, n_burst,
             len_burst, src_gap, dst_gap, site);
}
void asc_copy_ub2ub_sync(void* dst, void* src, uint32_t size, CallSite site) {
  CopyCount("asc_copy_ub2ub_sync", Memory::kUb, dst, Memory::kUb, src, size,
            site);
}

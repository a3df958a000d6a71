// vector_compute.cc — the untyped parts of the C API's vector instructions
// that read or set a register of the core (c_api/vector_compute/): the
// extreme register of asc_get_reduce_max/min_cnt, asc_reduce with the count
// asc_get_rsvd_count reads, the merge record asc_get_vms4_sr reads, and the
// address registers of asc_set_va_reg that asc_transto5hd_b* reads.
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "c_api/vector_compute/vector_compute.h"
#include "normgrad_ascendc/capi/capi_call.h"

namespace normgrad_ascendc {

void ReadReduceExtreme(const char* api, ReduceExtremeRegister::Op op,
                       uint32_t value_bytes, void* value, uint32_t& index) {
  const ReduceExtremeRegister& reg = CurrentCore().reduce_extreme();
  const bool max = op == ReduceExtremeRegister::Op::kMax;
  const char* producer =
      max ? "asc_repeat_reduce_max" : "asc_repeat_reduce_min";
  if (reg.op != op) {
    Fail(
        "%s: the last whole-repeat reduction of this block was %s; it reads "
        "the extreme the last %s left",
        api,
        reg.op == ReduceExtremeRegister::Op::kNone
            ? "none (no max or min reduction ran)"
            : (max ? "a minimum (asc_repeat_reduce_min)"
                   : "a maximum (asc_repeat_reduce_max)"),
        producer);
  }
  const char* type = value_bytes == 2 ? "half" : "float";
  if (reg.value_bytes != value_bytes) {
    Fail("%s: val is %s, but the last %s ran on %s", api, type, producer,
         reg.value_bytes == 2 ? "half" : "float");
  }
  if (!reg.has) {
    Fail("%s: the last %s selected no element, so it found no %s", api,
         producer, max ? "maximum" : "minimum");
  }
  std::memcpy(value, &reg.value_bits, value_bytes);
  index = static_cast<uint32_t>(reg.index);
}

void CapiReduceCountImpl(const char* api, const char* type, uint32_t elem_bytes,
                         const TensorView& dst, const TensorView& src0,
                         const TensorView& src1, uint32_t count) {
  if (count == 0) {
    Fail("%s<%s>: count 0 is out of range (1..4294967295)", api, type);
  }
  // GatherMask in counter mode: `count` lanes in one repeat, the pattern's
  // bits contiguous; the mask register is given back as it was.
  GatherMaskArgs args{type,       &dst,  &src0,
                      elem_bytes, &src1, 0,
                      true,       count, AscendC::GatherMaskParams(1, 1, 8, 8)};
  args.api = api;
  args.pattern_name = "src1";
  args.pattern_stride_name = "repeat stride";
  VectorMask& mask = CurrentCore().vector_mask();
  const VectorMask saved = mask;
  try {
    CurrentCore().capi().rsvd_count = static_cast<int64_t>(RunGatherMask(args));
  } catch (...) {
    mask = saved;
    throw;
  }
  mask = saved;
}

void CapiReduceRepeatsImpl(const char* api, const char* type,
                           uint32_t elem_bytes, const TensorView& dst,
                           const TensorView& src0, const void* src1,
                           uint8_t pattern_mode,
                           const AscendC::GatherMaskParams& params) {
  // A built-in pattern does not read src1.
  TensorView pattern;
  if (pattern_mode == 0) pattern = UbPointerView(api, type, "src1", src1);
  GatherMaskArgs args{type,
                      &dst,
                      &src0,
                      elem_bytes,
                      pattern_mode == 0 ? &pattern : nullptr,
                      pattern_mode,
                      false,
                      0,
                      params};
  args.api = api;
  args.pattern_name = pattern_mode == 0 ? "src1" : "pattern_mode";
  args.pattern_stride_name = "src1_repeat_stride";
  args.repeat_name = "repeat";
  CurrentCore().capi().rsvd_count = static_cast<int64_t>(RunGatherMask(args));
}

void SetVaRegister(const char* api, const char* type, ub_addr8_t addr,
                   void* const* addresses) {
  if (addr > VA7) {
    Fail("%s: addr %u is not an address register (VA0..VA7)", api, addr);
  }
  if (addresses == nullptr) {
    Fail("%s: src_array is a null pointer; it holds 8 UB addresses", api);
  }
  CapiRegisters& regs = CurrentCore().capi();
  for (unsigned i = 0; i < 8; ++i) {
    char which[24];
    std::snprintf(which, sizeof which, "src_array[%u]", i);
    regs.va[addr][i] = UbPointerView(api, type, which, addresses[i]).offset;
  }
  regs.va_set = static_cast<uint8_t>(regs.va_set | 1u << addr);
}

namespace {

// The 16 blocks of the lists in register `first` and the next one.
void VaBlocks(const char* api, const char* which, ub_addr8_t first,
              BlockRef (&out)[16]) {
  Core& core = CurrentCore();
  const CapiRegisters& regs = core.capi();
  if (first >= VA7) {
    Fail(
        "%s: %s VA%u has no next register for its blocks 8..15; a list takes "
        "two registers, VAn and VAn+1 (n at most 6)",
        api, which, first);
  }
  for (int half = 0; half < 2; ++half) {
    const unsigned reg = first + half;
    if ((regs.va_set >> reg & 1) == 0) {
      Fail("%s: %s reads VA%u, which asc_set_va_reg has not set in this block",
           api, which, reg);
    }
    for (int i = 0; i < 8; ++i) {
      const uint32_t offset = regs.va[reg][i];
      out[8 * half + i] = {core.ub() + offset, core.ub_size() - offset};
    }
  }
}

}  // namespace

void CapiTransTo5hd(const char* api, uint32_t elem_bytes, ub_addr8_t dst,
                    ub_addr8_t src, const AscendC::TransDataTo5HDParams& params,
                    const CallSite& site) {
  const CapiCall call(api, site);
  BlockRef d[16], s[16];
  VaBlocks(api, "dst", dst, d);
  VaBlocks(api, "src", src, s);
  TransDataTo5HDImpl("", d, s, elem_bytes, params, api);
}

}  // namespace normgrad_ascendc

using normgrad_ascendc::CallSite;

int64_t asc_get_rsvd_count(CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_rsvd_count", site);
  return normgrad_ascendc::CurrentCore().capi().rsvd_count;
}

void asc_get_vms4_sr(uint16_t sorted_num[ASC_C_API_MRGSORT_ELEMENT_LEN],
                     CallSite site) {
  const char* api = "asc_get_vms4_sr";
  const normgrad_ascendc::CapiCall call(api, site);
  const normgrad_ascendc::MergeRecord& record =
      normgrad_ascendc::CurrentCore().merge_record();
  if (record.api == nullptr) {
    normgrad_ascendc::Fail(
        "%s: no asc_mrgsort4 has run in this block; it reports the lists of "
        "the last one, run with if_exhausted_suspension true",
        api);
  }
  if (!record.suspension) {
    normgrad_ascendc::Fail(
        "%s: the last merge (%s) ran with if_exhausted_suspension false; "
        "asc_get_vms4_sr needs it true",
        api, record.api);
  }
  for (int i = 0; i < ASC_C_API_MRGSORT_ELEMENT_LEN; ++i) {
    sorted_num[i] = record.consumed[i];
  }
}

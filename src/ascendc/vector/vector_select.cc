// vector_select.cc — the parts of the compare-and-select instructions that
// are not templates (normgrad_ascendc/vector/vector_select.h): the profile
// rules of Compare, the CMPMASK register, where Select's selection bits come
// from, GatherMask, and float Compare's whole words of lanes and Select's
// contiguous lanes on the engine's loops for the instruction set it picks.
#include "normgrad_ascendc/vector/vector_select.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

#include "engine/dispatch.h"
#include "kernels/kernels.h"

namespace normgrad_ascendc {

uint32_t CompareFloatImpl(AscendC::CMPMODE mode, uint8_t* bits, const float* x,
                          const float* y, float scalar, uint32_t n) {
  // CMPMODE and kernels::CompareOp list the relations in the same order.
  const uint32_t words = n / 64 * 64;
  normgrad::engine::ElementwiseIsa().vector.compare_f32[static_cast<int>(mode)](
      bits, x, y, scalar, words);
  return words;
}

void SelectLoop(uint32_t bytes, void* d, const void* x, const void* y,
                uint64_t scalar, bool invert, const uint8_t* bits, uint32_t n) {
  const int log2 = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;
  normgrad::engine::ElementwiseIsa().vector.select[log2](d, x, y, scalar,
                                                         invert, bits, n);
}

namespace {

const char* SelModeName(AscendC::SELMODE mode) {
  switch (mode) {
    case AscendC::SELMODE::VSEL_CMPMASK_SPR:
      return "VSEL_CMPMASK_SPR";
    case AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE:
      return "VSEL_TENSOR_SCALAR_MODE";
    case AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE:
      return "VSEL_TENSOR_TENSOR_MODE";
  }
  return "?";
}

// The rule of GetCmpMask's and SetCmpMask's operand: live, not empty,
// 16-byte aligned and at least `min_bytes` long.
void CheckRegisterOperand(const char* who, const char* which,
                          const TensorView& v, uint32_t min_bytes) {
  v.Check(who);
  if (v.core == nullptr) {
    Fail("%s: %s LocalTensor is empty (no unified-buffer memory)", who, which);
  }
  if (v.offset % 16 != 0) {
    Fail(
        "%s: %s LocalTensor starts at UB offset %u, which is not 16-byte "
        "aligned",
        who, which, v.offset);
  }
  if (v.bytes < min_bytes) {
    Fail("%s: %s has %u bytes, fewer than the %u it must have", who, which,
         v.bytes, min_bytes);
  }
}

// Compare's register form keeps the first repeat's results.
struct RegisterSink {
  CmpMaskRegister* reg;
  uint32_t bytes;
};

void SinkToRegister(void* context, int64_t repeat, const uint8_t* results) {
  if (repeat != 0) return;
  const auto* sink = static_cast<const RegisterSink*>(context);
  std::memcpy(sink->reg->bytes, results, sink->bytes);
}

template <typename Mask>
void CompareRepeats(const VecInstruction& in, const Mask& mask,
                    bool is_set_mask, uint8_t repeat_time) {
  if (CompareReadsMask()) {
    if (is_set_mask) SetMaskArgument(mask, in.lanes);
    ExecuteRepeats(in, repeat_time);
    return;
  }
  // The mask is reserved on this profile: every lane of repeatTime repeats,
  // and the mask register keeps its contents.
  VectorMask& reg = CurrentCore().vector_mask();
  const VectorMask saved = reg;
  reg = VectorMask();
  try {
    ExecuteRepeats(in, repeat_time);
  } catch (...) {
    reg = saved;
    throw;
  }
  reg = saved;
}

// Whether GatherMask keeps lane k under built-in pattern p (1..7): 1 even
// lanes, 2 odd lanes, 3..6 lane 0..3 of every four, 7 every lane.
bool BuiltinKeeps(uint8_t p, uint64_t k) {
  if (p == 1) return k % 2 == 0;
  if (p == 2) return k % 2 == 1;
  if (p == 7) return true;
  return k % 4 == static_cast<uint64_t>(p - 3);
}

}  // namespace

const char* CmpModeName(AscendC::CMPMODE mode) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return "LT";
    case AscendC::CMPMODE::GT:
      return "GT";
    case AscendC::CMPMODE::EQ:
      return "EQ";
    case AscendC::CMPMODE::LE:
      return "LE";
    case AscendC::CMPMODE::GE:
      return "GE";
    case AscendC::CMPMODE::NE:
      return "NE";
  }
  return "?";
}

void CheckCmpMode(const char* api, const char* type, uint32_t bit,
                  AscendC::CMPMODE mode) {
  if (static_cast<uint8_t>(mode) > static_cast<uint8_t>(AscendC::CMPMODE::NE)) {
    Fail("%s<%s>: cmpMode %d is not a CMPMODE (LT, GT, EQ, LE, GE, NE)", api,
         type, static_cast<int>(mode));
  }
  const ProfileInfo& profile = CurrentCore().profile();
  if (profile.profile == Profile::kA2 && bit == kTypeInt32 &&
      mode != AscendC::CMPMODE::EQ) {
    Fail(
        "%s<%s>: cmpMode %s is not supported for int32_t on profile %s "
        "(int32_t compares by EQ only there)",
        api, type, CmpModeName(mode), profile.name);
  }
}

bool CompareReadsMask() { return OnProfile950(); }

void RunCompareRepeats(const VecInstruction& in, const uint64_t mask[],
                       bool is_set_mask, uint8_t repeat_time) {
  CompareRepeats(in, mask, is_set_mask, repeat_time);
}

void RunCompareRepeats(const VecInstruction& in, uint64_t mask,
                       bool is_set_mask, uint8_t repeat_time) {
  CompareRepeats(in, mask, is_set_mask, repeat_time);
}

void RunCompareToRegister(VecInstruction in) {
  CmpMaskRegister& reg = CurrentCore().cmp_mask();
  reg = CmpMaskRegister();
  RegisterSink sink{&reg, in.lanes / 8};
  ReduceLayout layout = *in.reduce;
  layout.sink = &SinkToRegister;
  layout.context = &sink;
  in.reduce = &layout;
  ExecuteRepeats(in, 1);
}

void CheckSelMode(const char* type, AscendC::SELMODE mode, bool scalar_form) {
  if (static_cast<uint8_t>(mode) >
      static_cast<uint8_t>(AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE)) {
    Fail("Select<%s>: selMode %d is not a SELMODE (0, 1 or 2)", type,
         static_cast<int>(mode));
  }
  const bool scalar_mode = mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE;
  if (scalar_mode != scalar_form) {
    Fail("Select<%s>: selMode %s takes %s; this form's src1 is %s", type,
         SelModeName(mode), scalar_mode ? "a scalar src1" : "a tensor src1",
         scalar_form ? "a scalar" : "a tensor");
  }
}

Selection SelectionFromMask(const char* type, AscendC::SELMODE mode,
                            const TensorView& sel_mask, uint32_t lanes,
                            uint64_t needed_bits) {
  char who[64];
  std::snprintf(who, sizeof who, "Select<%s>", type);
  sel_mask.CheckUbOperand(who, "selMask");
  if (mode == AscendC::SELMODE::VSEL_CMPMASK_SPR) {
    const uint64_t used = std::min<uint64_t>(needed_bits, lanes);
    if (uint64_t{sel_mask.bytes} * 8 < used) {
      Fail(
          "%s: selMask has %u bytes; mode VSEL_CMPMASK_SPR reads its first "
          "%llu bits",
          who, sel_mask.bytes, static_cast<unsigned long long>(used));
    }
    CmpMaskRegister& reg = CurrentCore().cmp_mask();
    reg = CmpMaskRegister();
    std::memcpy(reg.bytes, sel_mask.data(),
                std::min<uint32_t>(sel_mask.bytes, sizeof reg.bytes));
    return {reg.bytes, sizeof reg.bytes, lanes};
  }
  if (uint64_t{sel_mask.bytes} * 8 < needed_bits) {
    Fail(
        "%s: selMask has %u bytes (%llu bits); mode %s takes a bit per "
        "lane, %llu bits here",
        who, sel_mask.bytes,
        static_cast<unsigned long long>(uint64_t{sel_mask.bytes} * 8),
        SelModeName(mode), static_cast<unsigned long long>(needed_bits));
  }
  return {sel_mask.data(), sel_mask.bytes, 0};
}

Selection SelectionFromRegister(const char* type, AscendC::SELMODE mode,
                                uint32_t lanes, uint64_t needed_bits) {
  Core& core = CurrentCore();
  CmpMaskRegister& reg = core.cmp_mask();
  if (mode == AscendC::SELMODE::VSEL_CMPMASK_SPR) {
    return {reg.bytes, sizeof reg.bytes, lanes};
  }
  uint64_t address = 0;
  std::memcpy(&address, reg.bytes, sizeof address);
  const auto ub = reinterpret_cast<uintptr_t>(core.ub());
  const uint64_t ub_size = core.ub_size();
  uint64_t offset = address;
  if (address >= ub && address < ub + ub_size) offset = address - ub;
  if (offset >= ub_size) {
    Fail(
        "Select<%s>: the CMPMASK register holds 0x%llx, which is not a UB "
        "address; mode %s without a selMask argument reads selMask's address "
        "there (SetCmpMask)",
        type, static_cast<unsigned long long>(address), SelModeName(mode));
  }
  if (offset % 32 != 0) {
    Fail(
        "Select<%s>: selMask at UB offset %llu (from the CMPMASK register) "
        "is not 32-byte aligned",
        type, static_cast<unsigned long long>(offset));
  }
  if (offset + (needed_bits + 7) / 8 > ub_size) {
    Fail(
        "Select<%s>: selMask at UB offset %llu (from the CMPMASK register) "
        "needs %llu bits, past the end of the %llu-byte UB",
        type, static_cast<unsigned long long>(offset),
        static_cast<unsigned long long>(needed_bits),
        static_cast<unsigned long long>(ub_size));
  }
  return {core.ub() + offset, ub_size - offset, 0};
}

uint64_t LevelZeroLaneEnd(uint32_t lanes, int64_t repeat_time) {
  const VectorMask& m = CurrentCore().vector_mask();
  if (m.mode == AscendC::MaskMode::COUNTER) return m.low;
  if (repeat_time <= 0) return 0;
  uint64_t low = m.low;
  const uint64_t high = lanes > 64 ? m.high : 0;
  if (lanes < 64) low &= (uint64_t{1} << lanes) - 1;
  if (low == 0 && high == 0) return 0;
  const uint32_t last =
      high != 0 ? 127 - __builtin_clzll(high) : 63 - __builtin_clzll(low);
  return static_cast<uint64_t>(repeat_time - 1) * lanes + last + 1;
}

void ScalarFromRegister(void* scalar, uint32_t bytes) {
  std::memcpy(scalar, CurrentCore().cmp_mask().bytes, bytes);
}

void GetCmpMaskImpl(const char* type, const TensorView& dst) {
  char who[64];
  std::snprintf(who, sizeof who, "GetCmpMask<%s>", type);
  CheckRegisterOperand(who, "dst", dst, 128);
  std::memcpy(dst.data(), CurrentCore().cmp_mask().bytes, 16);
}

void SetCmpMaskImpl(const char* type, const TensorView& src) {
  char who[64];
  std::snprintf(who, sizeof who, "SetCmpMask<%s>", type);
  CheckRegisterOperand(who, "src", src, 16);
  std::memcpy(CurrentCore().cmp_mask().bytes, src.data(), 16);
}

uint64_t RunGatherMask(const GatherMaskArgs& call) {
  char who[64];
  std::snprintf(who, sizeof who, "%s<%s>", call.api, call.type);
  call.dst->CheckUbOperand(who, "dst");
  call.src0->CheckUbOperand(who, "src0");
  if (call.pattern != nullptr) {
    call.pattern->CheckUbOperand(who, call.pattern_name);
  }
  const ProfileInfo& profile = CurrentCore().profile();
  const bool p310 = profile.profile == Profile::k310P;
  if (call.pattern == nullptr) {
    const unsigned last = p310 ? 6 : 7;
    if (call.builtin < 1 || call.builtin > last) {
      Fail("%s: %s %u is out of range (1..%u on profile %s)", who,
           call.pattern_name, call.builtin, last, profile.name);
    }
  }
  const AscendC::GatherMaskParams& p = call.params;
  const uint32_t e = call.elem_bytes;
  const uint32_t lanes = 256 / e;
  const uint32_t per_block = 32 / e;
  // The repeats and the lanes of each: normal mode, repeatTimes repeats of
  // 256 bytes; counter mode, `mask` lanes in each of repeatTimes repeats, or
  // on the inference profile `mask` lanes in all, 256 bytes a repeat.
  if (call.reduce_mode && call.mask == 0) {
    Fail(
        "%s: mask 0 is out of range in counter mode (reduceMode true takes "
        "1..4294967295)",
        who);
  }
  const bool total_count = call.reduce_mode && p310;
  const int64_t repeats =
      total_count ? (int64_t{call.mask} + lanes - 1) / lanes : p.repeatTimes;
  if (!total_count && repeats > 255) {
    Fail("%s: %s %lld is out of range (0..255)", who, call.repeat_name,
         static_cast<long long>(repeats));
  }
  auto lanes_of = [&](int64_t r) -> uint64_t {
    if (total_count) {
      return std::min<uint64_t>(lanes,
                                call.mask - static_cast<uint64_t>(r) * lanes);
    }
    return call.reduce_mode ? call.mask : lanes;
  };
  auto src_offset = [&](int64_t r, uint64_t k) -> uint64_t {
    return static_cast<uint64_t>(r) * p.src0RepeatStride * 32 +
           k / per_block * p.src0BlockStride * 32 + k % per_block * e;
  };
  auto pattern_offset = [&](int64_t r) -> uint64_t {
    return static_cast<uint64_t>(r) * p.src1RepeatStride * 32;
  };
  // Every lane lies inside its operand; the sync check learns of the bytes
  // from the first lane to the last.
  uint64_t src_reach = 0, pattern_reach = 0;
  for (int64_t r = 0; r < repeats; ++r) {
    const uint64_t n = lanes_of(r);
    const uint64_t src_end =
        p.src0BlockStride == 0
            ? src_offset(r, std::min<uint64_t>(n, per_block) - 1) + e
            : src_offset(r, n - 1) + e;
    src_reach = std::max(src_reach, src_end);
    if (src_end > call.src0->bytes) {
      Fail(
          "%s: src0 has %u elements (%u bytes); %lld repeats with block "
          "stride %u and repeat stride %u reach byte %llu, past its end",
          who, call.src0->bytes / e, call.src0->bytes,
          static_cast<long long>(repeats), p.src0BlockStride,
          p.src0RepeatStride, static_cast<unsigned long long>(src_end));
    }
    const uint64_t pattern_end = pattern_offset(r) + (n + 7) / 8;
    if (call.pattern != nullptr && pattern_end > call.pattern->bytes) {
      Fail(
          "%s: %s has %u bytes; %lld repeats of %llu bits with "
          "%s %u reach byte %llu, past its end",
          who, call.pattern_name, call.pattern->bytes,
          static_cast<long long>(repeats), static_cast<unsigned long long>(n),
          call.pattern_stride_name, p.src1RepeatStride,
          static_cast<unsigned long long>(pattern_end));
    }
    pattern_reach = std::max(pattern_reach, pattern_end);
  }
  // Every source lane is read before dst is written.
  const uint8_t* src = call.src0->data();
  const uint8_t* pattern =
      call.pattern != nullptr ? call.pattern->data() : nullptr;
  std::vector<uint8_t> kept;
  for (int64_t r = 0; r < repeats; ++r) {
    const uint64_t n = lanes_of(r);
    for (uint64_t k = 0; k < n; ++k) {
      const bool keep =
          pattern != nullptr
              ? (pattern[pattern_offset(r) + k / 8] >> (k % 8) & 1) != 0
              : BuiltinKeeps(call.builtin, k);
      if (!keep) continue;
      const uint8_t* at = src + src_offset(r, k);
      kept.insert(kept.end(), at, at + e);
    }
  }
  const uint64_t count = kept.size() / e;
  if (kept.size() > call.dst->bytes) {
    Fail("%s: dst has %u elements, fewer than the %llu the pattern keeps", who,
         call.dst->bytes / e, static_cast<unsigned long long>(count));
  }
  if (SyncCheckOn()) {
    NoteTensorAccess(SyncPipe::kV, who, *call.src0, 0, src_reach, false);
    if (call.pattern != nullptr) {
      NoteTensorAccess(SyncPipe::kV, who, *call.pattern, 0, pattern_reach,
                       false);
    }
    NoteTensorAccess(SyncPipe::kV, who, *call.dst, 0, kept.size(), true);
  }
  if (!kept.empty()) std::memcpy(call.dst->data(), kept.data(), kept.size());
  CurrentCore().vector_mask().mode = AscendC::MaskMode::NORMAL;
  return count;
}

}  // namespace normgrad_ascendc

// data_copy_pad.cc — DataCopyPad in both directions and SetPadValue
// (normgrad_ascendc/runtime/data_copy_pad.h): the checks, the row layout with
// its padding and filler, and the pad-value register.
#include "normgrad_ascendc/runtime/data_copy_pad.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/gm_store.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

uint64_t RoundUp32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }

// The current core's pad register: its TPipe's, else the thread's.
PadRegister& CurrentPadRegister() {
  AscendC::TPipe* pipe = CurrentCore().pipe();
  if (pipe != nullptr) return pipe->pad_register();
  thread_local PadRegister without_pipe;
  return without_pipe;
}

// The name messages start with: DataCopyPad's with its direction, or the
// caller's (the C API's asc_copy_*_align).
struct Op {
  Op(const char* type_name, const char* direction, const char* api) {
    if (api != nullptr) {
      std::snprintf(text, sizeof text, "%s<%s>", api, type_name);
    } else {
      std::snprintf(text, sizeof text, "DataCopyPad<%s> %s", type_name,
                    direction);
    }
  }
  char text[64];
};

void CheckGm(const Op& op, const char* which, const CopyEnd& end) {
  if (end.data == nullptr) {
    Fail("%s: %s GlobalTensor has no buffer (call SetGlobalBuffer first)",
         op.text, which);
  }
}

// The limits every DataCopyPad shares; false when it copies nothing.
bool CheckBlocks(const Op& op, uint32_t elem_bytes, const PadBlocks& b) {
  if (b.count > 4095) {
    Fail("%s: %s.blockCount %u is out of range: it must be 0 to 4095", op.text,
         b.params, b.count);
  }
  if (b.len > b.max_len) {
    Fail("%s: %s.blockLen %llu bytes is out of range: it must be 0 to %llu",
         op.text, b.params, static_cast<unsigned long long>(b.len),
         static_cast<unsigned long long>(b.max_len));
  }
  if (b.len % elem_bytes != 0) {
    Fail(
        "%s: %s.blockLen %llu bytes is not a multiple of the element size "
        "%u (blockLen is in bytes: whole elements)",
        op.text, b.params, static_cast<unsigned long long>(b.len), elem_bytes);
  }
  return b.count != 0 && b.len != 0;
}

// `span` bytes from `end` must lie inside its tensor (and its allocation).
void CheckSpan(const Op& op, const char* which, const CopyEnd& end,
               uint32_t elem_bytes, uint64_t span, const PadBlocks& b,
               bool write) {
  if (end.sized && span > end.elems * elem_bytes) {
    Fail(
        "%s: %s {blockCount %u, blockLen %llu, gm stride %llu bytes, ub "
        "stride %llu blocks} reach %llu bytes into %s, past the end of the %s "
        "of %llu elements (%llu bytes)",
        op.text, b.params, b.count, static_cast<unsigned long long>(b.len),
        static_cast<unsigned long long>(b.gm_stride),
        static_cast<unsigned long long>(b.ub_stride),
        static_cast<unsigned long long>(span), which,
        end.ub != nullptr ? "LocalTensor" : "GlobalTensor",
        static_cast<unsigned long long>(end.elems),
        static_cast<unsigned long long>(end.elems * elem_bytes));
  }
  if (end.ub == nullptr) {
    CheckGmAccess(op.text, end.base, end.data, span, write);
  }
}

// Fills `bytes` at `at` with the element `value` repeated.
void FillElements(uint8_t* at, uint64_t bytes, const uint8_t* value,
                  uint32_t elem_bytes) {
  for (uint64_t i = 0; i + elem_bytes <= bytes; i += elem_bytes) {
    std::memcpy(at + i, value, elem_bytes);
  }
}

}  // namespace

namespace {

// DataCopyPadInImpl and DataCopyPadOutImpl for one loop-mode iteration (or
// the whole copy without loop mode).
void PadIn(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
           const CopyEnd& src, const PadBlocks& b, const PadFill& fill,
           const char* api) {
  // An L1 destination is the 950's GM -> L1 form (cube_gm_l1_950.h): the
  // same rows, without the UB's pad register and sync tracking.
  const bool to_l1 = IsCubePosition(dst.ub->position);
  const Op op(type_name, to_l1 ? "GM->L1" : "GM->UB", api);
  if (to_l1) {
    CheckPadIntoL1(op.text, *dst.ub);
  } else {
    dst.ub->CheckUbOperand(op.text, "dst");
  }
  CheckGm(op, "src", src);
  for (const auto& [name, count] :
       {std::pair<const char*, uint32_t>{"leftPadding", fill.left},
        {"rightPadding", fill.right}}) {
    if (uint64_t{count} * elem_bytes > 32) {
      Fail(
          "%s: padParams.%s %u elements (%llu bytes) is over 32 bytes; a "
          "padding is at most 32 bytes",
          op.text, name, count,
          static_cast<unsigned long long>(uint64_t{count} * elem_bytes));
    }
  }
  if (!CheckBlocks(op, elem_bytes, b)) return;
  const uint64_t left = uint64_t{fill.left} * elem_bytes;
  const uint64_t right = uint64_t{fill.right} * elem_bytes;
  const uint64_t src_pitch = b.len + b.gm_stride;
  // A UB row: left padding, data, right padding, filler to 32 bytes.
  const uint64_t row = b.compact ? b.len : RoundUp32(left + b.len + right);
  const uint64_t dst_pitch = b.compact ? b.len : row + b.ub_stride * 32;
  const uint64_t dst_span = b.compact ? RoundUp32(b.count * b.len + right)
                                      : (b.count - 1) * dst_pitch + row;
  CheckSpan(op, "src", src, elem_bytes, (b.count - 1) * src_pitch + b.len, b,
            false);
  CheckSpan(op, "dst", dst, elem_bytes, dst_span, b, true);

  const PadRegister& reg = CurrentPadRegister();
  const uint8_t* pad = fill.is_pad         ? fill.value
                       : reg.set && !to_l1 ? reg.value
                                           : nullptr;
  if (SyncCheckOn() && !to_l1) {
    // MTE2 writes the rows with their paddings and fillers.
    for (uint32_t k = 0; k < b.count; ++k) {
      NoteGmCopy(SyncPipe::kMte2, op.text, src.data + k * src_pitch, b.len);
    }
    NoteTensorAccess(SyncPipe::kMte2, op.text, *dst.ub,
                     dst.data - dst.ub->declared_data(), dst_span, true);
  }
  for (uint32_t k = 0; k < b.count; ++k) {
    uint8_t* out = dst.data + k * dst_pitch;
    const uint8_t* in = src.data + k * src_pitch;
    NoteGmRead(op.text, in, b.len);
    if (b.compact) {
      CopyBytes(out, in, b.len);
      continue;
    }
    if (pad != nullptr) FillElements(out, left, pad, elem_bytes);
    CopyBytes(out + left, in, b.len);
    if (pad != nullptr)
      FillElements(out + left + b.len, right, pad, elem_bytes);
    // Without paddings the filler repeats the block's first element.
    const uint8_t* filler = fill.left == 0 && fill.right == 0 ? out : pad;
    if (filler != nullptr) {
      const uint64_t used = left + b.len + right;
      FillElements(out + used, row - used, filler, elem_bytes);
    }
  }
  if (b.compact) {
    const uint64_t used = b.count * b.len;
    const uint8_t* filler =
        fill.right == 0 ? dst.data + (b.count - 1) * b.len : pad;
    if (pad != nullptr) FillElements(dst.data + used, right, pad, elem_bytes);
    if (filler != nullptr) {
      FillElements(dst.data + used + right, dst_span - used - right, filler,
                   elem_bytes);
    }
  }
}

void PadOut(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
            const CopyEnd& src, const PadBlocks& b, const char* api) {
  const Op op(type_name, "UB->GM", api);
  CheckGm(op, "dst", dst);
  src.ub->CheckUbOperand(op.text, "src");
  if (!CheckBlocks(op, elem_bytes, b)) return;
  const uint64_t src_pitch =
      b.compact ? b.len : RoundUp32(b.len) + b.ub_stride * 32;
  const uint64_t dst_pitch = b.len + b.gm_stride;
  CheckSpan(op, "src", src, elem_bytes, (b.count - 1) * src_pitch + b.len, b,
            false);
  CheckSpan(op, "dst", dst, elem_bytes, (b.count - 1) * dst_pitch + b.len, b,
            true);
  for (uint32_t k = 0; k < b.count; ++k) {
    if (SyncCheckOn()) {
      NoteTensorAccess(SyncPipe::kMte3, op.text, *src.ub,
                       src.data + k * src_pitch - src.ub->declared_data(),
                       b.len, false,
                       /*exact=*/true);
      NoteGmCopy(SyncPipe::kMte3, op.text, dst.data + k * dst_pitch, b.len);
    }
    StoreToGm(op.text, dst.data + k * dst_pitch, src.data + k * src_pitch,
              b.len);
  }
}

}  // namespace

void DataCopyPadInImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const PadBlocks& blocks, const PadFill& fill,
                       const char* api) {
  const auto once = [&](const CopyEnd& d, const CopyEnd& s) {
    PadIn(type_name, elem_bytes, d, s, blocks, fill, api);
  };
  if (!RunLoopMode(api ? api : "DataCopyPad", elem_bytes, dst, src, once)) {
    once(dst, src);
  }
}

void DataCopyPadOutImpl(const char* type_name, uint32_t elem_bytes,
                        const CopyEnd& dst, const CopyEnd& src,
                        const PadBlocks& blocks, const char* api) {
  const auto once = [&](const CopyEnd& d, const CopyEnd& s) {
    PadOut(type_name, elem_bytes, d, s, blocks, api);
  };
  if (!RunLoopMode(api ? api : "DataCopyPad", elem_bytes, dst, src, once)) {
    once(dst, src);
  }
}

void SetPadValueImpl(const void* value, uint32_t bytes) {
  PadRegister& reg = CurrentPadRegister();
  reg.set = true;
  std::memset(reg.value, 0, sizeof reg.value);
  std::memcpy(reg.value, value, bytes);
}

}  // namespace normgrad_ascendc

// src/ascendc/lib/common/kernel_checks.h — the kernel-side checks every
// advanced API shares (internal, not installed): the element type of a
// call; the placement every tensor argument passes and the length it must
// have; the check record of a tiling field against the value its rule
// derives; the checks of a tiling's shape fields (filled, nonzero, a row of
// whole 32-byte blocks, a reciprocal the host computed); the scratch of a
// call (sharedTmpBuffer or the framework scratch) and the regions a tiling
// places in it. The overlap rule is ub_ranges.h.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The unified buffer's block: addresses and lengths are multiples of it.
inline constexpr uint32_t kBlockBytes = 32;

/// The element type of a call, for sizes and messages.
struct Element {
  uint32_t bytes;
  const char* plural;  ///< "floats", "halves"
};

inline constexpr Element kHalfElement{2, "halves"};
inline constexpr Element kFloatElement{4, "floats"};

/// The element type of a call whose T is half or float.
constexpr Element HalfOrFloat(bool is_half) {
  return is_half ? kHalfElement : kFloatElement;
}

/// The element type of a call whose T is `type`; `bfloat16_plural` is what
/// the API's messages call bfloat16_t values ("bfloat16_t elements").
constexpr Element ElementOf(ElementType type, const char* bfloat16_plural) {
  switch (type) {
    case ElementType::kHalf:
      return kHalfElement;
    case ElementType::kBfloat16:
      return {2, bfloat16_plural};
    case ElementType::kFloat:
      break;
  }
  return kFloatElement;
}

// ---- Tensor arguments -------------------------------------------------------

/// Fails (KernelError naming `api` and `argument`) unless the tensor is live
/// (TensorView::Check), has unified-buffer memory, is in VECIN, VECOUT or
/// VECCALC, and starts at a 32-byte aligned UB address.
inline void CheckPlacement(const char* api, const char* argument,
                           const TensorView& t) {
  t.CheckUbOperand(api, argument);
  if (!IsVectorPosition(t.position)) {
    Fail("%s: %s is in position %s; it must be VECIN, VECOUT or VECCALC", api,
         argument, PositionName(t.position));
  }
}

/// A tensor argument and its name in messages.
struct NamedTensor {
  const char* name;
  const TensorView& view;
};

/// CheckPlacement of each tensor, in order.
inline void CheckPlacements(const char* api,
                            std::initializer_list<NamedTensor> tensors) {
  for (const NamedTensor& t : tensors) CheckPlacement(api, t.name, t.view);
}

/// A tensor argument and the elements it must hold; `rule` says where that
/// number comes from ("inputXSize").
struct NeededLength {
  const char* name;
  const TensorView& view;
  uint64_t needed;
  const char* rule;
};

/// Fails unless the tensor holds at least `needed` elements of type `e`.
inline void CheckLength(const char* api, const Element& e,
                        const NeededLength& tensor) {
  const uint32_t elements = tensor.view.bytes / e.bytes;
  if (elements < tensor.needed) {
    Fail("%s: %s holds %u %s, fewer than the %llu it must hold (%s)", api,
         tensor.name, elements, e.plural,
         static_cast<unsigned long long>(tensor.needed), tensor.rule);
  }
}

/// CheckLength of each tensor, in order.
inline void CheckLengths(const char* api, const Element& e,
                         std::initializer_list<NeededLength> tensors) {
  for (const NeededLength& t : tensors) CheckLength(api, e, t);
}

/// For each output, in order: fails unless its length is a whole number of
/// 32-byte blocks (the API writes it block by block), then CheckLength.
inline void CheckBlockOutputs(const char* api, const Element& e,
                              std::initializer_list<NeededLength> outputs) {
  for (const NeededLength& out : outputs) {
    const uint32_t bytes = out.view.bytes;
    if (bytes % kBlockBytes != 0) {
      Fail("%s: %s length %u %s (%u bytes) is not a multiple of 32 bytes", api,
           out.name, bytes / e.bytes, e.plural, bytes);
    }
    CheckLength(api, e, out);
  }
}

// ---- Tiling fields ----------------------------------------------------------

/// The check record of a tiling field whose value a rule derives from other
/// fields: `field` holds `value` and must hold `expected`, which `rule`
/// ("inputXSize / oneTmpSize") derives.
struct DerivedField {
  const char* field;
  uint64_t value;
  uint64_t expected;
  const char* rule;
};

/// Fails at the first field, in order, that does not hold what its rule
/// derives: "<api>: tiling.<field> is <value>, expected <expected> (<rule>):
/// the tiling is inconsistent".
inline void CheckDerivedFields(const char* api,
                               std::initializer_list<DerivedField> fields) {
  for (const DerivedField& d : fields) {
    if (d.value != d.expected) {
      Fail(
          "%s: tiling.%s is %llu, expected %llu (%s): the tiling is "
          "inconsistent",
          api, d.field, static_cast<unsigned long long>(d.value),
          static_cast<unsigned long long>(d.expected), d.rule);
    }
  }
}

/// Fails when `field` is 0: every tiling `tiling_function` fills sets it, so
/// the tiling is empty.
inline void CheckTilingFilled(const char* api, const char* field,
                              uint32_t value, const char* tiling_function) {
  if (value == 0) {
    Fail(
        "%s: tiling.%s is 0: the tiling is empty (%s failed or was not "
        "called)",
        api, field, tiling_function);
  }
}

/// Fails when the size `field` of the dimension `dimension` ("H") is 0.
inline void CheckNonZero(const char* api, const char* field, uint32_t value,
                         const char* dimension) {
  if (value == 0) {
    Fail("%s: tiling.%s is 0; %s must be at least 1", api, field, dimension);
  }
}

/// Fails when tiling.bLength or tiling.sLength is 0: B*S rows, none.
inline void CheckRowsNotEmpty(const char* api, uint32_t b_length,
                              uint32_t s_length) {
  if (b_length == 0 || s_length == 0) {
    Fail(
        "%s: tiling.bLength %u * tiling.sLength %u is 0; B*S must be at "
        "least 1",
        api, b_length, s_length);
  }
}

/// What to do instead of originalHLength != hLength, for the APIs whose rows
/// may be zero-padded.
inline constexpr const char* kPadRowsAdvice =
    "pad each row with zeros to the 32-byte aligned H and pass that H as both";

/// Fails unless the tiling's originalHLength equals its hLength (`advice`
/// says what to do instead) and a row of hLength elements is a whole number
/// of 32-byte blocks.
inline void CheckRowLength(const char* api, uint32_t h, uint32_t original_h,
                           const Element& e, const char* advice) {
  if (original_h != h) {
    Fail(
        "%s: tiling.originalHLength %u differs from tiling.hLength %u; they "
        "must be equal (%s)",
        api, original_h, h, advice);
  }
  const uint64_t row_bytes = uint64_t{h} * e.bytes;
  if (row_bytes % kBlockBytes != 0) {
    Fail(
        "%s: tiling.hLength %u %s is %llu bytes, not a multiple of 32 (the "
        "last axis must be 32-byte aligned: H a multiple of %u)",
        api, h, e.plural, static_cast<unsigned long long>(row_bytes),
        kBlockBytes / e.bytes);
  }
}

/// Fails unless the float tiling field `field` holds the bits of
/// 1.0f / (float)n, n being the field `of` (the host divides the same way).
inline void CheckReciprocal(const char* api, const char* field, float value,
                            const char* of, uint32_t n) {
  const float expected = 1.0f / static_cast<float>(n);
  if (std::memcmp(&expected, &value, sizeof value) != 0) {
    Fail(
        "%s: tiling.%s is %.9g, expected 1.0f / %s %u = %.9g: the tiling is "
        "inconsistent",
        api, field, static_cast<double>(value), of, n,
        static_cast<double>(expected));
  }
}

// ---- The scratch ------------------------------------------------------------

/// How messages name the scratch of a call.
inline const char* ScratchName(const TensorView* shared_tmp) {
  return shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
}

/// The scratch of a call: sharedTmpBuffer when the kernel passes one, else
/// the framework scratch (PopStackBuffer), of which the call writes
/// `written` bytes.
inline TensorView SharedOrFrameworkScratch(const TensorView* shared_tmp,
                                           uint64_t written) {
  return shared_tmp != nullptr
             ? *shared_tmp
             : FrameworkScratch(AscendC::TPosition::VECCALC, written);
}

/// SharedOrFrameworkScratch, failing when no framework scratch is left. The
/// message says what to leave free: `leave_format` and its arguments, as
/// printf formats them ("tiling.tmpBufSize %u floats").
template <typename... LeaveArgs>
TensorView CallScratch(const char* api, const TensorView* shared_tmp,
                       uint64_t written, const char* leave_format,
                       LeaveArgs... leave_args) {
  const TensorView scratch = SharedOrFrameworkScratch(shared_tmp, written);
  if (shared_tmp == nullptr && scratch.bytes == 0) {
    char leave[160];
    std::snprintf(leave, sizeof leave, leave_format, leave_args...);
    Fail(
        "%s: no framework scratch is left: the pipe's buffers fill "
        "the unified buffer up to its scratch end (%u bytes, profile %s); "
        "leave %s free or pass a sharedTmpBuffer",
        api, scratch.core->scratch_end(), scratch.core->profile().name, leave);
  }
  return scratch;
}

/// The scratch of a call whose tiling asks for tmpBufSize floats
/// (CallScratch).
inline TensorView TilingScratch(const char* api, const TensorView* shared_tmp,
                                uint32_t tmp_buf_size) {
  return CallScratch(api, shared_tmp, uint64_t{tmp_buf_size} * 4,
                     "tiling.tmpBufSize %u floats", tmp_buf_size);
}

/// TilingScratch, placed for the vector unit (CheckPlacement) and holding
/// at least tmpBufSize floats; `name` is how messages call it.
inline TensorView CheckedTilingScratch(const char* api,
                                       const TensorView* shared_tmp,
                                       uint32_t tmp_buf_size,
                                       const char* name) {
  const TensorView scratch = TilingScratch(api, shared_tmp, tmp_buf_size);
  CheckPlacement(api, name, scratch);
  if (scratch.bytes / 4 < tmp_buf_size) {
    Fail(
        "%s: %s holds %u floats (%u bytes), fewer than "
        "tiling.tmpBufSize %u floats",
        api, name, scratch.bytes / 4, scratch.bytes, tmp_buf_size);
  }
  return scratch;
}

/// A region a tiling places in the scratch: floats [pos, end), placed by the
/// tiling field `field`.
struct ScratchRegion {
  const char* field;
  uint32_t pos;
  uint64_t end;
};

/// Fails unless every region lies inside the `capacity` floats of the
/// tiling field `capacity_field` (`past_hint` ends that message) and
/// overlaps none before it (`overlap_hint` ends that one).
inline void CheckScratchRegions(const char* api, const ScratchRegion* regions,
                                size_t count, const char* capacity_field,
                                uint32_t capacity, const char* past_hint,
                                const char* overlap_hint) {
  for (size_t i = 0; i < count; ++i) {
    const ScratchRegion& r = regions[i];
    if (r.end > capacity) {
      Fail(
          "%s: scratch region tiling.%s [%u, %llu) floats runs past "
          "tiling.%s %u floats%s",
          api, r.field, r.pos, static_cast<unsigned long long>(r.end),
          capacity_field, capacity, past_hint);
    }
    for (size_t j = 0; j < i; ++j) {
      const ScratchRegion& q = regions[j];
      if (r.pos < q.end && q.pos < r.end) {
        Fail(
            "%s: scratch regions tiling.%s [%u, %llu) and tiling.%s "
            "[%u, %llu) floats overlap%s",
            api, q.field, q.pos, static_cast<unsigned long long>(q.end),
            r.field, r.pos, static_cast<unsigned long long>(r.end),
            overlap_hint);
      }
    }
  }
}

// ---- Notices ----------------------------------------------------------------

/// Prints once per `warned` flag (one per API: once per process) that
/// isReuseSource has no effect with half, as half widens its input into the
/// scratch; `widened` says what it widens ("the input is").
inline void WarnHalfReuseOnce(std::atomic<bool>& warned, const char* api,
                              const char* widened) {
  if (!warned.exchange(true)) {
    std::fprintf(stderr,
                 "normgrad: warning: %s: isReuseSource has no effect with half "
                 "(%s widened into the scratch); nothing is reused\n",
                 api, widened);
  }
}

}  // namespace normgrad_ascendc

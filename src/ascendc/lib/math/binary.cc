// binary.cc — RunMathCall: the checks and the computation every Math API of
// the binary call shape shares (docs/math.md, "Binary, logical and
// bitwise"), each API's own part taken from its rule (binary.h).
//
// The checks, in order: dst and every tensor operand placed for the vector
// unit; the API on the core's profile; the count within dst and every
// tensor operand (a single point: one element); for the overloads with a
// scratch, the scratch placed and at least its query's minValue; then no
// tensor operand shares memory with dst, and the scratch with none; then the
// API's own checks and arithmetic (its rule's compute). Each result is
// computed straight into dst (by the instruction set's loops where the
// operands are whole tensors), so the scratch of the overloads that take
// one is checked as the pages ask but holds nothing (docs/decisions.md,
// "Math part: binary, logical and bitwise").
#include <algorithm>
#include <cstdio>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/binary.h"
#include "normgrad_ascendc/lib/math/math_host_tiling.h"

namespace normgrad_ascendc {

uint32_t ValueTypeBytes(ValueType type) {
  switch (type) {
    case ValueType::kBool:
    case ValueType::kInt8:
    case ValueType::kUint8:
      return 1;
    case ValueType::kInt16:
    case ValueType::kUint16:
    case ValueType::kHalf:
    case ValueType::kBfloat16:
      return 2;
    case ValueType::kInt32:
    case ValueType::kUint32:
    case ValueType::kFloat:
      return 4;
    case ValueType::kInt64:
    case ValueType::kUint64:
      return 8;
  }
  return 4;
}

normgrad::kernels::FloatFormat FormatOf(ValueType type) {
  switch (type) {
    case ValueType::kHalf:
      return {2, 0x7c00u, 0x3c00u};
    case ValueType::kBfloat16:
      return {2, 0x7f80u, 0x3f80u};
    default:
      return {4, 0x7f800000u, 0x3f800000u};
  }
}

const char* ValueTypeName(ValueType type) {
  constexpr const char* kNames[] = {
      "bool",     "int8_t",  "uint8_t",  "int16_t", "uint16_t",   "int32_t",
      "uint32_t", "int64_t", "uint64_t", "half",    "bfloat16_t", "float"};
  return kNames[static_cast<size_t>(type)];
}

namespace {

// The element type of a tensor operand, for lengths and messages.
Element ElementOfValue(ValueType type) {
  constexpr const char* kPlurals[] = {"bool elements",       "int8_t elements",
                                      "uint8_t elements",    "int16_t elements",
                                      "uint16_t elements",   "int32_t elements",
                                      "uint32_t elements",   "int64_t elements",
                                      "uint64_t elements",   "halves",
                                      "bfloat16_t elements", "floats"};
  return {ValueTypeBytes(type), kPlurals[static_cast<size_t>(type)]};
}

void CheckProfile(const MathCallRule& r, const ProfileInfo& profile) {
  if (r.only_950 && profile.profile != Profile::k950) {
    Fail(
        "%s: not available on profile %s (%s): the documentation lists %s "
        "for Ascend 950 only",
        r.api, profile.name, profile.key, r.api);
  }
}

// The first tensor among the sources: the forms without a count take its
// every element (Power's scalar base comes before its tensor).
uint32_t FirstTensor(const MathCallArgs& a) {
  uint32_t k = 0;
  while (k + 1 < a.input_count && !a.inputs[k].is_tensor) ++k;
  return k;
}

// The elements of operand k a call of `count` elements touches.
uint64_t TouchedElements(const MathOperand& op, uint32_t count) {
  return op.single_point ? 1 : count;
}

void CheckLengthsOf(const MathCallRule& r, const MathCallArgs& a,
                    uint32_t count, bool whole) {
  const uint32_t first = FirstTensor(a);
  char rule[96];
  std::snprintf(rule, sizeof rule, whole ? "every element of %s" : "%s",
                whole ? r.input_names[first] : r.count_name);
  for (uint32_t k = 0; k < a.input_count; ++k) {
    const MathOperand& op = a.inputs[k];
    if (!op.is_tensor) continue;
    const char* why =
        op.single_point ? "a scalar taken from its element 0" : rule;
    CheckLength(r.api, ElementOfValue(op.type),
                {r.input_names[k], op.view, TouchedElements(op, count), why});
    if (whole && k != first &&
        op.view.bytes / ValueTypeBytes(op.type) != count) {
      Fail(
          "%s: %s holds %u %s but %s holds %u: the forms without %s take "
          "sources of the same size",
          r.api, r.input_names[k], op.view.bytes / ValueTypeBytes(op.type),
          ElementOfValue(op.type).plural, r.input_names[first], count,
          r.count_name);
    }
  }
  CheckLength(r.api, ElementOfValue(a.dst_type),
              {r.dst_name, a.dst, count, rule});
}

// The scratch of the overloads that take one: the framework scratch or
// sharedTmpBuffer, placed, of at least minValue bytes; its range.
UbRange CheckScratch(const MathCallRule& r, const MathCallArgs& a,
                     uint32_t count) {
  const uint32_t type_size = ValueTypeBytes(a.inputs[0].type);
  const uint32_t min_bytes = MathMinTmpBytes(type_size);
  const uint64_t wanted = MathMaxTmpBytes(type_size, count);
  const char* name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(r.api, a.shared_tmp, wanted, "%u bytes (%s's minValue)",
                  min_bytes, r.size_query);
  CheckPlacement(r.api, name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %u a call on %s needs "
        "(%s's minValue)",
        r.api, name, scratch.bytes, min_bytes,
        ElementOfValue(a.inputs[0].type).plural, r.size_query);
  }
  return UbRangeOf(name, scratch, std::min<uint64_t>(scratch.bytes, wanted));
}

void CheckOverlapsOf(const MathCallRule& r, const MathCallArgs& a,
                     uint32_t count, const UbRange* scratch) {
  const UbRange dst = UbRangeOf(r.dst_name, a.dst,
                                uint64_t{count} * ValueTypeBytes(a.dst_type));
  char rule[160];
  for (uint32_t k = 0; k < a.input_count; ++k) {
    const MathOperand& op = a.inputs[k];
    if (!op.is_tensor) continue;
    const UbRange src =
        UbRangeOf(r.input_names[k], op.view,
                  TouchedElements(op, count) * ValueTypeBytes(op.type));
    if (UbOverlap(dst, src)) {
      std::snprintf(rule, sizeof rule,
                    "%s does not support a source sharing memory with %s",
                    r.api, r.dst_name);
      FailUbOverlap(r.api, dst, src, rule);
    }
    if (scratch != nullptr && UbOverlap(*scratch, src)) {
      std::snprintf(rule, sizeof rule,
                    "%s writes its scratch, so it must not share memory "
                    "with a source or %s",
                    r.api, r.dst_name);
      FailUbOverlap(r.api, src, *scratch, rule);
    }
  }
  if (scratch != nullptr && UbOverlap(*scratch, dst)) {
    std::snprintf(rule, sizeof rule,
                  "%s writes its scratch, so it must not share memory with "
                  "a source or %s",
                  r.api, r.dst_name);
    FailUbOverlap(r.api, dst, *scratch, rule);
  }
}

}  // namespace

void RunMathCall(const MathCallArgs& a) {
  const MathCallRule& r = RuleOf(a.api);
  CheckPlacement(r.api, r.dst_name, a.dst);
  for (uint32_t k = 0; k < a.input_count; ++k) {
    if (a.inputs[k].is_tensor) {
      CheckPlacement(r.api, r.input_names[k], a.inputs[k].view);
    }
  }
  CheckProfile(r, a.dst.core->profile());

  const bool whole = a.count == kWholeSource;
  const MathOperand& first = a.inputs[FirstTensor(a)];
  const uint32_t count =
      whole ? first.view.bytes / ValueTypeBytes(first.type) : a.count;
  CheckLengthsOf(r, a, count, whole);
  if (a.takes_scratch) {
    const UbRange scratch = CheckScratch(r, a, count);
    CheckOverlapsOf(r, a, count, &scratch);
  } else {
    CheckOverlapsOf(r, a, count, nullptr);
  }
  r.compute(a, count);
}

}  // namespace normgrad_ascendc

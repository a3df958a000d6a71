// elementwise.cc — RunActivation: the checks and the passes every elementwise
// activation API shares (docs/activation.md, "Kernel checks" and "How a call
// computes"), each API's own part taken from its rule (elementwise.h).
//
// The checks, in order: dst and the sources placed for the vector unit; T on
// the core's profile; the count within every tensor; the scratch
// (sharedTmpBuffer or the framework scratch) placed and at least the
// query's minValue; what may share memory. Then the elements are computed in
// passes through the scratch: each pass widens its inputs into the scratch
// as floats, applies the API's arithmetic there, and narrows the results
// into dst (half rounded to nearest even, saturating on Ascend 950 as every
// narrowing to half there does; bfloat16_t rounded to nearest even).
#include <algorithm>
#include <cstdio>
#include <cstring>

#include "ascendc/lib/activation/elementwise.h"
#include "ascendc/lib/common/advanced_api.h"
#include "normgrad_ascendc/lib/activation/elementwise_host_tiling.h"

namespace normgrad_ascendc {
namespace {

using activation::Rule;
using activation::RuleOf;

// bfloat16_t on the profiles the API's page lists for it.
void CheckTypeOnProfile(const Rule& r, ElementType type,
                        const ProfileInfo& profile) {
  if (type == ElementType::kBfloat16 && profile.profile == Profile::k310P) {
    Fail(
        "%s: T is bfloat16_t, which profile %s (%s) does not take: %s takes "
        "bfloat16_t on Atlas A2/A3 and Ascend 950 only (half and float on "
        "every profile)",
        r.api, profile.name, profile.key, r.api);
  }
}

// dst against each source by the API's rule; the scratch against all.
void CheckOverlaps(const Rule& r, const ActivationArgs& a, uint64_t bytes,
                   const TensorView& scratch, uint64_t scratch_bytes,
                   const char* scratch_name) {
  const UbRange dst = UbRangeOf(r.dst_name, a.dst, bytes);
  UbRange operands[3] = {dst, UbRangeOf(r.src0_name, a.src0, bytes), {}};
  const size_t count = a.src1 != nullptr ? 3 : 2;
  if (a.src1 != nullptr) operands[2] = UbRangeOf(r.src1_name, *a.src1, bytes);
  char rule[192];
  for (size_t i = 1; i < count; ++i) {
    const UbRange& src = operands[i];
    if (!UbOverlap(dst, src)) continue;
    if (!r.dst_may_be_src) {
      std::snprintf(rule, sizeof rule,
                    "%s does not support %s and %s sharing memory", r.api,
                    src.name, r.dst_name);
      FailUbOverlap(r.api, dst, src, rule);
    }
    if (dst.begin != src.begin) {
      std::snprintf(rule, sizeof rule,
                    "%s may be %s itself but must not overlap it partly",
                    r.dst_name, src.name);
      FailUbOverlap(r.api, dst, src, rule);
    }
  }
  const UbRange tmp = UbRangeOf(scratch_name, scratch, scratch_bytes);
  for (size_t i = 0; i < count; ++i) {
    if (!UbOverlap(tmp, operands[i])) continue;
    std::snprintf(rule, sizeof rule,
                  "%s writes its scratch, so it must not share memory with "
                  "its sources or %s",
                  r.api, r.dst_name);
    FailUbOverlap(r.api, operands[i], tmp, rule);
  }
}

// n elements of `t` from element `pos` as floats in `out`.
void Widen(const TensorView& t, ElementType type, uint64_t pos, size_t n,
           float* out) {
  switch (type) {
    case ElementType::kHalf:
      normgrad::Widen(HalfData(t) + pos, out, n);
      return;
    case ElementType::kBfloat16:
      normgrad::Widen(Bfloat16Data(t) + pos, out, n);
      return;
    case ElementType::kFloat:
      break;
  }
  std::memcpy(out, FloatData(t) + pos, n * sizeof(float));
}

// n results into `t` from element `pos`, narrowed to its type.
void Store(const float* results, size_t n, const TensorView& t,
           ElementType type, uint64_t pos) {
  switch (type) {
    case ElementType::kHalf:
      NarrowToHalf(results, HalfData(t) + pos, n, NarrowSaturates(*t.core));
      return;
    case ElementType::kBfloat16:
      normgrad::Narrow(results, Bfloat16Data(t) + pos, n);
      return;
    case ElementType::kFloat:
      break;
  }
  std::memcpy(FloatData(t) + pos, results, n * sizeof(float));
}

}  // namespace

void RunActivation(const ActivationArgs& a) {
  const Rule& r = RuleOf(a.api);
  const Element e = ElementOf(a.type, "bfloat16_t elements");
  const uint32_t inputs = a.src1 != nullptr ? 2 : 1;
  if (a.src1 != nullptr) {
    CheckPlacements(
        r.api,
        {{r.dst_name, a.dst}, {r.src0_name, a.src0}, {r.src1_name, *a.src1}});
  } else {
    CheckPlacements(r.api, {{r.dst_name, a.dst}, {r.src0_name, a.src0}});
  }
  CheckTypeOnProfile(r, a.type, a.dst.core->profile());

  const bool whole = a.count == kEverySourceElement;
  const uint32_t count = whole ? a.src0.bytes / e.bytes : a.count;
  char rule[96];
  std::snprintf(rule, sizeof rule, whole ? "every element of %s" : "%s",
                whole ? r.src0_name : r.count_name);
  CheckLength(r.api, e, {r.src0_name, a.src0, count, rule});
  if (a.src1 != nullptr) {
    CheckLength(r.api, e, {r.src1_name, *a.src1, count, rule});
  }
  CheckLength(r.api, e, {r.dst_name, a.dst, count, rule});

  const uint32_t min_bytes = ActivationMinTmpBytes(e.bytes, inputs);
  const uint64_t wanted = ActivationMaxTmpBytes(e.bytes, inputs, count);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(r.api, a.shared_tmp, wanted, "%u bytes (%s's minValue)",
                  min_bytes, r.query);
  CheckPlacement(r.api, scratch_name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %u a call on %s needs (%s's "
        "minValue: a pass of %u elements, %u bytes each)",
        r.api, scratch_name, scratch.bytes, min_bytes, e.plural, r.query,
        ActivationMinPassElements(e.bytes), ActivationBytesPerElement(inputs));
  }
  const uint64_t scratch_bytes = std::min<uint64_t>(scratch.bytes, wanted);
  CheckOverlaps(r, a, uint64_t{count} * e.bytes, scratch, scratch_bytes,
                scratch_name);

  // A pass: [values | gates] in the scratch, `pass` floats each.
  const uint64_t pass = scratch_bytes / ActivationBytesPerElement(inputs);
  float* values = reinterpret_cast<float*>(scratch.data());
  float* gates = a.src1 != nullptr ? values + pass : nullptr;
  for (uint64_t pos = 0; pos < count; pos += pass) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(pass, count - pos));
    Widen(a.src0, a.type, pos, n, values);
    if (gates != nullptr) Widen(*a.src1, a.type, pos, n, gates);
    r.apply(values, gates, n, a.beta);
    Store(values, n, a.dst, a.type, pos);
  }
}

}  // namespace normgrad_ascendc

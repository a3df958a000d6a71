// elementwise.cc — RunElementwiseMath: the checks and the passes every
// elementwise Math API shares (docs/math.md, "Kernel checks" and "How a
// call computes"), each API's own part taken from its rule (elementwise.h).
//
// The checks, in order: dst (SinCos: dst0 and dst1) and src placed for the
// vector unit; the API on the core's profile, and T on it; calCount within
// every tensor; the scratch (sharedTmpBuffer or the framework scratch)
// placed and at least Get<Api>MaxMinTmpSize's minValue; what may share
// memory; on Atlas inference AI Core the input range of the APIs that have
// one; the API's own checks (its config, its input range). Then the
// elements are computed in passes through the scratch: each pass loads its
// elements into the scratch as floats (half widened) or int64_t values,
// applies the API's arithmetic there (SinCos writes its second output into
// the scratch's second half), and stores them to dst, narrowing half
// results to the nearest half (docs/numerics.md, "Math: rounding" and
// "Math: transcendental").
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/elementwise.h"
#include "normgrad_ascendc/lib/math/math_host_tiling.h"

namespace normgrad_ascendc {
namespace {

constexpr Element kInt64Element{8, "int64_t elements"};

Element ElementOf(MathType type) {
  switch (type) {
    case MathType::kHalf:
      return kHalfElement;
    case MathType::kInt64:
      return kInt64Element;
    case MathType::kFloat:
      break;
  }
  return kFloatElement;
}

// The API exists on the core's profile, and T with it.
void CheckProfile(const ElementwiseRule& r, MathType type,
                  const ProfileInfo& profile) {
  const bool is_950 = profile.profile == Profile::k950;
  if (r.only_950 && !is_950) {
    Fail(
        "%s: not available on profile %s (%s): the documentation lists %s "
        "for Ascend 950 only",
        r.api, profile.name, profile.key, r.api);
  }
  if (!r.on_310p && profile.profile == Profile::k310P) {
    Fail(
        "%s: not available on profile %s (%s): the documentation lists %s "
        "for Atlas A2/A3 and Ascend 950 only",
        r.api, profile.name, profile.key, r.api);
  }
  if (type == MathType::kInt64 && !is_950) {
    Fail(
        "%s: T is int64_t, which profile %s (%s) does not take: %s takes "
        "int64_t on Ascend 950 only (half and float on every profile)",
        r.api, profile.name, profile.key, r.api);
  }
}

// dst against src by the API's rule (SinCos: dst0 and dst1 against src and
// each other); the scratch against all of them.
void CheckOverlaps(const ElementwiseRule& r, const ElementwiseArgs& a,
                   uint64_t data_bytes, const TensorView& scratch,
                   uint64_t scratch_bytes, const char* scratch_name) {
  const UbRange dst = UbRangeOf(r.dst_name, a.dst, data_bytes);
  const UbRange src = UbRangeOf(r.src_name, a.src, data_bytes);
  std::vector<UbRange> operands = {dst, src};
  if (UbOverlap(dst, src)) {
    if (r.dst_on_src == DstOnSrc::kNever) {
      char rule[160];
      std::snprintf(rule, sizeof rule,
                    "%s does not support %s and %s sharing memory", r.api,
                    r.src_name, r.dst_name);
      FailUbOverlap(r.api, dst, src, rule);
    }
    if (dst.begin != src.begin) {
      char rule[160];
      std::snprintf(rule, sizeof rule,
                    "%s may be %s itself but must not overlap it partly",
                    r.dst_name, r.src_name);
      FailUbOverlap(r.api, dst, src, rule);
    }
  }
  if (a.second_dst != nullptr) {
    const UbRange dst1 =
        UbRangeOf(r.second_dst_name, *a.second_dst, data_bytes);
    for (const UbRange& other : {src, dst}) {
      if (UbOverlap(dst1, other)) {
        char rule[160];
        std::snprintf(rule, sizeof rule,
                      "%s writes %s and %s from %s, so none of them may "
                      "share memory with another",
                      r.api, r.dst_name, r.second_dst_name, r.src_name);
        FailUbOverlap(r.api, other, dst1, rule);
      }
    }
    operands.push_back(dst1);
  }
  const UbRange tmp = UbRangeOf(scratch_name, scratch, scratch_bytes);
  for (const UbRange& operand : operands) {
    if (UbOverlap(tmp, operand)) {
      char rule[160];
      std::snprintf(rule, sizeof rule,
                    "%s writes its scratch, so it must not share memory "
                    "with %s or %s%s%s",
                    r.api, r.src_name, r.dst_name,
                    a.second_dst != nullptr ? " or " : "",
                    a.second_dst != nullptr ? r.second_dst_name : "");
      FailUbOverlap(r.api, operand, tmp, rule);
    }
  }
}

// Atlas inference AI Core: every input in [-2147483647, 2147483647].
void CheckRange310p(const ElementwiseRule& r, const ElementwiseArgs& a,
                    uint32_t count) {
  constexpr double kLimit = 2147483647.0;  // compared exactly, in double
  for (uint32_t i = 0; i < count; ++i) {
    const double x = a.type == MathType::kHalf
                         ? static_cast<double>(float(HalfData(a.src)[i]))
                         : static_cast<double>(FloatData(a.src)[i]);
    if (!(x >= -kLimit && x <= kLimit)) {
      Fail(
          "%s: %s[%u] is %g, outside [-2147483647, 2147483647]: on Atlas "
          "inference AI Core (310p) %s takes inputs in that range only",
          r.api, r.src_name, i, x, r.api);
    }
  }
}

// One pass of n elements from element `pos` through the scratch.
void RunPass(const ElementwiseRule& r, const ElementwiseArgs& a,
             const Element& e, uint8_t* scratch, uint64_t pos, size_t n) {
  const uint8_t* src = a.src.data() + pos * e.bytes;
  if (a.type == MathType::kInt64) {
    uint8_t* dst = a.dst.data() + pos * e.bytes;
    auto* values = reinterpret_cast<int64_t*>(scratch);
    std::memcpy(values, src, n * 8);
    r.on_int64(values, n);
    std::memcpy(dst, values, n * 8);
    return;
  }
  auto* values = reinterpret_cast<float*>(scratch);
  if (a.type == MathType::kHalf) {
    normgrad::Widen(reinterpret_cast<const normgrad::float16*>(src), values, n);
  } else {
    std::memcpy(values, src, n * 4);
  }
  float* second = values + n;
  if (a.second_dst != nullptr) {
    r.on_floats_pair(values, second, n);
  } else {
    r.on_floats(values, n, a.option);
  }
  const auto store = [&](const float* from, const TensorView& to) {
    uint8_t* dst = to.data() + pos * e.bytes;
    if (a.type == MathType::kHalf) {
      normgrad::Narrow(from, reinterpret_cast<normgrad::float16*>(dst), n);
    } else {
      std::memcpy(dst, from, n * 4);
    }
  };
  store(values, a.dst);
  if (a.second_dst != nullptr) store(second, *a.second_dst);
}

}  // namespace

const ElementwiseRule& RuleOf(MathApi api) {
  return api <= MathApi::kSign ? RoundingRule(api) : TranscendentalRule(api);
}

void RunElementwiseMath(const ElementwiseArgs& a) {
  const ElementwiseRule& r = RuleOf(a.api);
  const Element e = ElementOf(a.type);
  if (a.second_dst != nullptr) {
    CheckPlacements(r.api, {{r.dst_name, a.dst},
                            {r.second_dst_name, *a.second_dst},
                            {r.src_name, a.src}});
  } else {
    CheckPlacements(r.api, {{r.dst_name, a.dst}, {r.src_name, a.src}});
  }
  const ProfileInfo& profile = a.dst.core->profile();
  CheckProfile(r, a.type, profile);

  const bool whole = a.count == kWholeSource;
  const uint32_t count = whole ? a.src.bytes / e.bytes : a.count;
  char rule[96];
  std::snprintf(rule, sizeof rule, whole ? "every element of %s" : "%s",
                whole ? r.src_name : r.count_name);
  if (a.second_dst != nullptr) {
    CheckLengths(r.api, e,
                 {{r.src_name, a.src, count, rule},
                  {r.dst_name, a.dst, count, rule},
                  {r.second_dst_name, *a.second_dst, count, rule}});
  } else {
    CheckLengths(
        r.api, e,
        {{r.src_name, a.src, count, rule}, {r.dst_name, a.dst, count, rule}});
  }

  const uint32_t outputs = OutputsOf(r);
  const uint32_t min_bytes = MathMinTmpBytes(e.bytes, outputs);
  const uint64_t wanted = MathMaxTmpBytes(e.bytes, count, outputs);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(r.api, a.shared_tmp, wanted,
                  "%u bytes (Get%sMaxMinTmpSize's minValue)", min_bytes, r.api);
  CheckPlacement(r.api, scratch_name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %u a call on %s needs "
        "(Get%sMaxMinTmpSize's minValue: a pass of %u elements, %u bytes "
        "each)",
        r.api, scratch_name, scratch.bytes, min_bytes, e.plural, r.api,
        MathMinPassElements(e.bytes), MathIntermediateBytes(e.bytes, outputs));
  }
  const uint64_t scratch_bytes = std::min<uint64_t>(scratch.bytes, wanted);
  CheckOverlaps(r, a, uint64_t{count} * e.bytes, scratch, scratch_bytes,
                scratch_name);
  if (r.range_on_310p && profile.profile == Profile::k310P) {
    CheckRange310p(r, a, count);
  }
  if (r.check != nullptr) r.check(r, a, count, profile);

  const uint64_t pass = scratch_bytes / MathIntermediateBytes(e.bytes, outputs);
  for (uint64_t pos = 0; pos < count; pos += pass) {
    const size_t n = static_cast<size_t>(std::min<uint64_t>(pass, count - pos));
    RunPass(r, a, e, scratch.data(), pos, n);
  }
}

}  // namespace normgrad_ascendc

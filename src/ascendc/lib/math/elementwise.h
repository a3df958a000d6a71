// src/ascendc/lib/math/elementwise.h — the rule of an elementwise Math API
// (internal, not installed): what RunElementwiseMath (elementwise.cc) needs
// to know of each API beyond the call shape they share — its name and
// argument names, the profiles and types it has, whether dst may be src,
// Atlas inference AI Core's input range, its own checks and its arithmetic.
// Each API's rule is one entry of the family's table, split by file:
// rounding.cc (Ceil ... Sign) and transcendental.cc (Exp ... Lgamma).
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/math/elementwise_call.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// Whether dst may share memory with src.
enum class DstOnSrc : uint8_t {
  kNever,         ///< the page refuses any overlap
  kSameTensorOk,  ///< dst may be src itself (same start), not overlap partly
};

struct ElementwiseRule {
  const char* api;
  const char* dst_name;    ///< "dstTensor" (Rint: "dst")
  const char* src_name;    ///< "srcTensor" (Rint: "src")
  const char* count_name;  ///< "calCount" (Rint: "count")
  bool only_950;           ///< the page lists the API for Ascend 950 only
  bool on_310p;            ///< the page lists Atlas inference AI Core
  bool int64_on_950;       ///< T = int64_t on Ascend 950 (Sign)
  DstOnSrc dst_on_src;
  /// Atlas inference AI Core (310p) takes inputs in [-2147483647,
  /// 2147483647] only.
  bool range_on_310p;
  /// The arithmetic, in place: on floats (half widened), given the call's
  /// option (ElementwiseArgs::option), and, where the API takes int64_t, on
  /// int64_t values (else null).
  void (*on_floats)(float* values, size_t n, uint32_t option);
  void (*on_int64)(int64_t* values, size_t n);
  /// SinCos: the name of the second output, and the arithmetic that writes
  /// both (values in place, the second into `second`); null elsewhere.
  const char* second_dst_name;
  void (*on_floats_pair)(float* values, float* second, size_t n);
  /// The API's own checks after the shared ones (its config on the profile,
  /// the input range its page sets), over the call's `count` inputs; null
  /// where it has none.
  void (*check)(const ElementwiseRule& rule, const ElementwiseArgs& a,
                uint32_t count, const ProfileInfo& profile);
};

/// The rule of `api`: RoundingRule (rounding.cc) or TranscendentalRule
/// (transcendental.cc), whichever table holds it.
const ElementwiseRule& RuleOf(MathApi api);
const ElementwiseRule& RoundingRule(MathApi api);
const ElementwiseRule& TranscendentalRule(MathApi api);

/// An API's arithmetic as the instruction set's loop `kStep`
/// (kernels::AdvancedKernels::math_f32, src/kernels/vector/advanced_inl.h:
/// the same bits on every set), for a rule's on_floats.
template <normgrad::kernels::MathStep kStep>
void ThroughLoops(float* v, size_t n, uint32_t option) {
  normgrad::kernels::AdvancedKernelsOf(VectorLoops())
      .math_f32[static_cast<int>(kStep)](v, n, option);
}

/// Outputs per element of `rule`'s calls: 2 for SinCos, else 1.
inline uint32_t OutputsOf(const ElementwiseRule& rule) {
  return rule.on_floats_pair != nullptr ? 2 : 1;
}

}  // namespace normgrad_ascendc

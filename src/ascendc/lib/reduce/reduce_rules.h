// src/ascendc/lib/reduce/reduce_rules.h — the rule of each Reduce API
// (internal, not installed): what the family's shared call (reduce.cc) and
// scratch-size queries (reduce_host_tiling.cc) need to know of an API beyond
// the call shape — its name, the element types each profile takes (none:
// the profile lacks the API), what srcInnerPad may be, whether its inputs
// must be 0 or 1, and how it combines two values. The table is
// reduce_rules.cc.
#pragma once

#include <cstdint>
#include <string>

#include "normgrad_ascendc/lib/reduce/reduce_call.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

/// A set of ReduceElemType values, bit (1 << elem).
using ReduceTypes = uint32_t;

constexpr ReduceTypes ReduceTypeBit(ReduceElemType e) {
  return ReduceTypes{1} << static_cast<uint32_t>(e);
}

/// How an API combines two values of its tree (Mean and ReduceMean add,
/// then divide by the count; ReduceXorSum adds its XOR results).
enum class Combine : uint8_t { kAdd, kMax, kMin, kMul, kOr, kAnd };

/// What srcInnerPad may be.
enum class InnerPad : uint8_t {
  kTrueOnly,           ///< every profile: true only
  kTrueOnlyExcept950,  ///< true only, but reserved (ignored) on Ascend 950
};

struct ReduceRule {
  ReduceApi api;
  const char* name;
  ReduceTypes a2;    ///< Atlas A2/A3
  ReduceTypes p310;  ///< Atlas inference AI Core
  ReduceTypes p950;  ///< Ascend 950
  InnerPad inner_pad;
  bool zero_or_one;  ///< every input must be 0 or 1 (ReduceAny, ReduceAll)
  bool divides;      ///< the sum is divided by the count (means)
  Combine combine;
};

/// The rule of `api` (reduce_rules.cc).
const ReduceRule& RuleOf(ReduceApi api);

/// The types `rule` takes on `profile`.
ReduceTypes TypesOn(const ReduceRule& rule, Profile profile);

/// The C++ name of an element type ("int16_t", "half").
const char* ElemName(ReduceElemType e);

/// Its plural in messages ("floats", "int16_t values").
const char* ElemPlural(ReduceElemType e);

/// Its size in bytes.
uint32_t ElemBytes(ReduceElemType e);

/// "half, float": the names of a set, in ReduceElemType order.
std::string TypesText(ReduceTypes types);

}  // namespace normgrad_ascendc

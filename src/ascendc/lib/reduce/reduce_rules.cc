// reduce_rules.cc — the rule of each Reduce API (reduce_rules.h): the types
// each page lists per profile, its srcInnerPad rule, its 0/1 inputs and its
// combine operation, one row per API.
#include "ascendc/lib/reduce/reduce_rules.h"

namespace normgrad_ascendc {
namespace {

constexpr ReduceTypes kI8 = ReduceTypeBit(ReduceElemType::kInt8);
constexpr ReduceTypes kU8 = ReduceTypeBit(ReduceElemType::kUint8);
constexpr ReduceTypes kI16 = ReduceTypeBit(ReduceElemType::kInt16);
constexpr ReduceTypes kU16 = ReduceTypeBit(ReduceElemType::kUint16);
constexpr ReduceTypes kF16 = ReduceTypeBit(ReduceElemType::kHalf);
constexpr ReduceTypes kBf16 = ReduceTypeBit(ReduceElemType::kBfloat16);
constexpr ReduceTypes kI32 = ReduceTypeBit(ReduceElemType::kInt32);
constexpr ReduceTypes kU32 = ReduceTypeBit(ReduceElemType::kUint32);
constexpr ReduceTypes kF32 = ReduceTypeBit(ReduceElemType::kFloat);
constexpr ReduceTypes kI64 = ReduceTypeBit(ReduceElemType::kInt64);
constexpr ReduceTypes kU64 = ReduceTypeBit(ReduceElemType::kUint64);

// ReduceMax's and ReduceMin's list on Ascend 950.
constexpr ReduceTypes kAll950 =
    kI8 | kU8 | kI16 | kU16 | kF16 | kBf16 | kI32 | kU32 | kF32 | kI64 | kU64;

// Indexed by ReduceApi. ReduceSum, ReduceMax and ReduceMin list their types
// per profile; the others one list for every profile that has them.
constexpr ReduceRule kRules[] = {
    {ReduceApi::kReduceSum, "ReduceSum", kF32, 0,
     kI32 | kU32 | kF32 | kI64 | kU64, InnerPad::kTrueOnlyExcept950, false,
     false, Combine::kAdd},
    {ReduceApi::kReduceMax, "ReduceMax", kF16 | kF32, 0, kAll950,
     InnerPad::kTrueOnlyExcept950, false, false, Combine::kMax},
    {ReduceApi::kReduceMin, "ReduceMin", kF16 | kF32, 0, kAll950,
     InnerPad::kTrueOnlyExcept950, false, false, Combine::kMin},
    {ReduceApi::kReduceMean, "ReduceMean", kF32, 0, kF32, InnerPad::kTrueOnly,
     false, true, Combine::kAdd},
    {ReduceApi::kReduceProd, "ReduceProd", kF32, 0, kF32, InnerPad::kTrueOnly,
     false, false, Combine::kMul},
    {ReduceApi::kReduceAny, "ReduceAny", kU8 | kF32, 0, kU8 | kF32,
     InnerPad::kTrueOnly, true, false, Combine::kOr},
    {ReduceApi::kReduceAll, "ReduceAll", kU8 | kF32, 0, kU8 | kF32,
     InnerPad::kTrueOnly, true, false, Combine::kAnd},
    {ReduceApi::kReduceXorSum, "ReduceXorSum", kI16, kI16, kI16,
     InnerPad::kTrueOnly, false, false, Combine::kAdd},
    {ReduceApi::kSum, "Sum", kF16 | kF32, kF16 | kF32, kF16 | kF32,
     InnerPad::kTrueOnly, false, false, Combine::kAdd},
    {ReduceApi::kMean, "Mean", kF16 | kF32, kF16 | kF32, kF16 | kF32,
     InnerPad::kTrueOnly, false, true, Combine::kAdd},
};

struct ElemInfo {
  const char* name;
  const char* plural;  ///< for lengths in messages: "floats"
  uint32_t bytes;
};

// Indexed by ReduceElemType.
constexpr ElemInfo kElems[] = {
    {"int8_t", "int8_t values", 1},
    {"uint8_t", "uint8_t values", 1},
    {"int16_t", "int16_t values", 2},
    {"uint16_t", "uint16_t values", 2},
    {"half", "halves", 2},
    {"bfloat16_t", "bfloat16_t values", 2},
    {"int32_t", "int32_t values", 4},
    {"uint32_t", "uint32_t values", 4},
    {"float", "floats", 4},
    {"int64_t", "int64_t values", 8},
    {"uint64_t", "uint64_t values", 8},
    {"(other)", "(other)", 0},
};
}  // namespace

const ReduceRule& RuleOf(ReduceApi api) {
  return kRules[static_cast<uint32_t>(api)];
}

ReduceTypes TypesOn(const ReduceRule& rule, Profile profile) {
  switch (profile) {
    case Profile::kA2:
      return rule.a2;
    case Profile::k310P:
      return rule.p310;
    case Profile::k950:
      break;
  }
  return rule.p950;
}

const char* ElemName(ReduceElemType e) {
  return kElems[static_cast<uint32_t>(e)].name;
}

const char* ElemPlural(ReduceElemType e) {
  return kElems[static_cast<uint32_t>(e)].plural;
}

uint32_t ElemBytes(ReduceElemType e) {
  return kElems[static_cast<uint32_t>(e)].bytes;
}

std::string TypesText(ReduceTypes types) {
  std::string text;
  for (uint32_t e = 0; e < static_cast<uint32_t>(ReduceElemType::kOther); ++e) {
    if ((types & (ReduceTypes{1} << e)) == 0) continue;
    if (!text.empty()) text += ", ";
    text += kElems[e].name;
  }
  return text;
}

}  // namespace normgrad_ascendc

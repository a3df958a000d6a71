// compare_logic.cc — the rules of the Math APIs of the binary call shape
// (binary.h), in one table (Fma, Fmod, Hypot, Axpy and Power, whose results
// round,
// have
// their arithmetic in float_binary.cc), and the arithmetic of the exact
// ones: the clamps (Clamp, ClampMax, ClampMin), the predicates
// (IsFinite, IsInf, IsNan), the bit operations (BitwiseAnd, BitwiseOr,
// BitwiseXor, BitwiseNot, Xor), the logical ones (LogicalAnd, LogicalAnds,
// LogicalOr, LogicalOrs, LogicalNot, LogicalXor) and Where. Every result is
// exact: a comparison, a selection of one operand's bits, or a bit
// operation (docs/numerics.md, "Math: binary").
#include <cmath>
#include <vector>

#include "ascendc/lib/math/binary.h"

namespace normgrad_ascendc {
namespace {

// a > b by value: half and bfloat16_t compared as the floats they are
// (exact); any comparison with NaN is false.
template <typename T>
bool Greater(T a, T b) {
  if constexpr (kIsMathFloating<T>) {
    return static_cast<float>(a) > static_cast<float>(b);
  } else {
    return a > b;
  }
}

template <typename T>
bool IsNanValue(T v) {
  if constexpr (kIsMathFloating<T>) {
    return std::isnan(static_cast<float>(v));
  } else {
    return false;
  }
}

// A value is true when it is not zero: ±0 is false, NaN true; bool is read
// as its byte.
template <typename T>
bool Truth(T v) {
  if constexpr (kIsMathFloating<T>) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != 0;
  }
}

// ---- Clamps -----------------------------------------------------------------

// NaN stays NaN; min above max gives max; else x held to [min, max]. A NaN
// bound compares false, so it holds nothing (docs/decisions.md).
template <typename T>
T ClampOne(T x, T lo, T hi) {
  if (IsNanValue(x)) return x;
  if (Greater(lo, hi) || Greater(x, hi)) return hi;
  if (Greater(lo, x)) return lo;
  return x;
}

void ClampValues(const MathCallArgs& a, uint32_t n) {
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (uint32_t i = 0; i < n; ++i) {
      Store(a.dst, i,
            ClampOne(Load<T>(a.inputs[0], i), Load<T>(a.inputs[1], i),
                     Load<T>(a.inputs[2], i)));
    }
  });
}

// ClampMax: above the scalar becomes the scalar. ClampMin: below it.
template <bool kIsMax>
void ClampToScalar(const MathCallArgs& a, uint32_t n) {
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    const T s = Load<T>(a.inputs[1], 0);
    for (uint32_t i = 0; i < n; ++i) {
      const T x = Load<T>(a.inputs[0], i);
      const bool past = kIsMax ? Greater(x, s) : Greater(s, x);
      Store(a.dst, i, past ? s : x);
    }
  });
}

// ---- Predicates -------------------------------------------------------------

bool FiniteFloat(float x) { return std::isfinite(x); }
bool InfFloat(float x) { return std::isinf(x); }
bool NanFloat(float x) { return std::isnan(x); }

// dst is true / 1 where the predicate holds, false / 0 elsewhere; a
// floating dst has src's type.
template <bool (*kHolds)(float)>
void Classify(const MathCallArgs& a, uint32_t n) {
  WithType(a.inputs[0].type, [&](auto tag) {
    using S = typename decltype(tag)::Type;
    if constexpr (kIsMathFloating<S>) {
      for (uint32_t i = 0; i < n; ++i) {
        const bool holds = kHolds(static_cast<float>(Load<S>(a.inputs[0], i)));
        if (a.dst_type == ValueType::kBool) {
          Store<uint8_t>(a.dst, i, holds ? 1 : 0);
        } else {
          Store(a.dst, i, static_cast<S>(holds ? 1.0f : 0.0f));
        }
      }
    }
  });
}

// ---- Bit operations ---------------------------------------------------------

struct BitAnd {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x & y);
  }
};
struct BitOr {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x | y);
  }
};
struct BitXor {
  template <typename T>
  T operator()(T x, T y) const {
    return static_cast<T>(x ^ y);
  }
};

template <typename Op>
void Bitwise(const MathCallArgs& a, uint32_t n) {
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (kIsMathInteger<T>) {
      for (uint32_t i = 0; i < n; ++i) {
        Store(a.dst, i, Op{}(Load<T>(a.inputs[0], i), Load<T>(a.inputs[1], i)));
      }
    }
  });
}

void BitwiseNotValues(const MathCallArgs& a, uint32_t n) {
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (kIsMathInteger<T>) {
      for (uint32_t i = 0; i < n; ++i) {
        Store(a.dst, i, static_cast<T>(~Load<T>(a.inputs[0], i)));
      }
    }
  });
}

// ---- Logical operations -----------------------------------------------------

// The truth of each of the n elements an operand gives.
std::vector<uint8_t> Truths(const MathOperand& op, uint32_t n) {
  std::vector<uint8_t> t(n);
  WithType(op.type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (uint32_t i = 0; i < n; ++i) t[i] = Truth(Load<T>(op, i)) ? 1 : 0;
  });
  return t;
}

struct And {
  bool operator()(bool x, bool y) const { return x && y; }
};
struct Or {
  bool operator()(bool x, bool y) const { return x || y; }
};
struct Xor {
  bool operator()(bool x, bool y) const { return x != y; }
};

// dst (bool) from the truths of two operands: tensors, or a tensor and a
// scalar (a single point or a value) in either place.
template <typename Op>
void Logical(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> x = Truths(a.inputs[0], n);
  const std::vector<uint8_t> y = Truths(a.inputs[1], n);
  for (uint32_t i = 0; i < n; ++i) {
    Store<uint8_t>(a.dst, i, Op{}(x[i] != 0, y[i] != 0) ? 1 : 0);
  }
}

void LogicalNotValues(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> x = Truths(a.inputs[0], n);
  for (uint32_t i = 0; i < n; ++i) Store<uint8_t>(a.dst, i, x[i] ? 0 : 1);
}

// ---- Where ------------------------------------------------------------------

// src0's element where condition is true, src1's elsewhere, bit for bit.
void WhereValues(const MathCallArgs& a, uint32_t n) {
  const std::vector<uint8_t> condition = Truths(a.inputs[2], n);
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (uint32_t i = 0; i < n; ++i) {
      Store(a.dst, i,
            condition[i] ? Load<T>(a.inputs[0], i) : Load<T>(a.inputs[1], i));
    }
  });
}

constexpr char kDst[] = "dst";
constexpr char kSrc[] = "src";
constexpr char kSrc0[] = "src0";
constexpr char kSrc1[] = "src1";
constexpr char kCount[] = "count";

// Indexed by MathCallApi.
constexpr MathCallRule kRules[] = {
    {"Clamp", kDst, {kSrc, "min", "max"}, kCount, true, ClampValues, nullptr},
    {"ClampMax",
     "dstTensor",
     {"srcTensor", "scalar", nullptr},
     "calCount",
     false,
     ClampToScalar<true>,
     "GetClampMaxMinTmpSize"},
    {"ClampMin",
     "dstTensor",
     {"srcTensor", "scalar", nullptr},
     "calCount",
     false,
     ClampToScalar<false>,
     "GetClampMaxMinTmpSize"},
    {"IsFinite",
     kDst,
     {kSrc},
     "calCount",
     true,
     Classify<FiniteFloat>,
     nullptr},
    {"IsInf",
     kDst,
     {kSrc},
     kCount,
     true,
     Classify<InfFloat>,
     "GetIsInfMaxMinTmpSize"},
    {"IsNan",
     kDst,
     {kSrc},
     kCount,
     true,
     Classify<NanFloat>,
     "GetIsNanMaxMinTmpSize"},
    {"BitwiseAnd",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Bitwise<BitAnd>,
     nullptr},
    {"BitwiseOr", kDst, {kSrc0, kSrc1}, kCount, true, Bitwise<BitOr>, nullptr},
    {"BitwiseXor",
     kDst,
     {kSrc0, kSrc1},
     kCount,
     true,
     Bitwise<BitXor>,
     nullptr},
    {"BitwiseNot", kDst, {kSrc}, kCount, true, BitwiseNotValues, nullptr},
    {"LogicalAnd", kDst, {kSrc0, kSrc1}, kCount, true, Logical<And>, nullptr},
    {"LogicalAnds", kDst, {kSrc0, kSrc1}, kCount, true, Logical<And>, nullptr},
    {"LogicalOr", kDst, {kSrc0, kSrc1}, kCount, true, Logical<Or>, nullptr},
    {"LogicalOrs", kDst, {kSrc0, kSrc1}, kCount, true, Logical<Or>, nullptr},
    {"LogicalNot", kDst, {kSrc}, kCount, true, LogicalNotValues, nullptr},
    {"LogicalXor", kDst, {kSrc0, kSrc1}, kCount, true, Logical<Xor>, nullptr},
    {"Xor",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     Bitwise<BitXor>,
     "GetXorMaxMinTmpSize"},
    {"Where",
     kDst,
     {kSrc0, kSrc1, "condition"},
     kCount,
     true,
     WhereValues,
     nullptr},
    {"Fma",
     kDst,
     {kSrc0, kSrc1, "src2"},
     kCount,
     true,
     FmaValues,
     "GetFmaMaxMinTmpSize"},
    {"Fmod",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     FmodValues,
     "GetFmodMaxMinTmpSize"},
    {"Hypot",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     true,
     HypotValues,
     "GetHypotMaxMinTmpSize"},
    {"Axpy",
     "dstTensor",
     {"srcTensor", "scalarValue", nullptr},
     "calCount",
     false,
     AxpyValues,
     "GetAxpyMaxMinTmpSize"},
    {"Power",
     "dstTensor",
     {"src0Tensor", "src1Tensor", nullptr},
     "calCount",
     false,
     PowerValues,
     "GetPowerMaxMinTmpSize"},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(MathCallApi::kPower) + 1,
              "one rule per MathCallApi, in its order");

}  // namespace

const MathCallRule& RuleOf(MathCallApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace normgrad_ascendc

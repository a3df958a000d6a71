// float_binary.cc — the arithmetic of the Math APIs of the binary call
// shape whose results round: Fma, Fmod, Hypot and Axpy (their rules are
// entries of compare_logic.cc's table). Fma, Fmod and Hypot compute in
// float or wider and round once to float; a half or bfloat16_t result is
// that float rounded again (to nearest, ties to even; beyond the type's
// range ±inf, as the pages' inf results ask). Axpy follows its page's two
// steps. Fma and Hypot run on the instruction set's loops
// (kernels::AdvancedKernels: fma_f32, hypot_f32). The bounds:
// docs/numerics.md, "Math: binary".
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/binary.h"
#include "normgrad/convert.h"

namespace normgrad_ascendc {
namespace {

// Element i of a floating operand, widened exactly.
template <typename T>
float At(const MathOperand& op, uint32_t i) {
  return static_cast<float>(Load<T>(op, i));
}

// dst[i] = f(i) for the floating T of dst, rounded to T.
template <typename F>
void EachFloating(const MathCallArgs& a, uint32_t n, F&& f) {
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (kIsMathFloating<T>) {
      for (uint32_t i = 0; i < n; ++i) {
        Store(a.dst, i, static_cast<T>(f(tag, i)));
      }
    }
  });
}

// Calls kernel(dst, sources, m) on the operands (whole tensors of dst's
// floating type) as floats: a float call's own memory, a half or
// bfloat16_t call's in blocks widened exactly, the results rounded to the
// type (to nearest, ties to even; ±inf beyond its range).
template <typename Kernel>
void InFloatBlocks(const MathCallArgs& a, uint32_t n, Kernel&& kernel) {
  constexpr uint32_t kMaxSources = 3;
  const float* sources[kMaxSources] = {};
  if (a.dst_type == ValueType::kFloat) {
    for (uint32_t k = 0; k < a.input_count; ++k) {
      sources[k] = reinterpret_cast<const float*>(a.inputs[k].view.data());
    }
    kernel(reinterpret_cast<float*>(a.dst.data()), sources, n);
    return;
  }
  constexpr uint32_t kBlock = 1024;
  float widened[kMaxSources][kBlock];
  float result[kBlock];
  for (uint32_t k = 0; k < a.input_count; ++k) sources[k] = widened[k];
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
      using Raw = std::conditional_t<std::is_same_v<T, half>, normgrad::float16,
                                     normgrad::bfloat16>;
      for (uint32_t start = 0; start < n; start += kBlock) {
        const uint32_t m = std::min(kBlock, n - start);
        for (uint32_t k = 0; k < a.input_count; ++k) {
          normgrad::Widen(
              reinterpret_cast<const Raw*>(a.inputs[k].view.data()) + start,
              widened[k], m);
        }
        kernel(result, sources, m);
        normgrad::Narrow(result, reinterpret_cast<Raw*>(a.dst.data()) + start,
                         m);
      }
    }
  });
}

// A double rounded to float, to nearest: ±inf from halfway past the
// largest float on (C++ leaves a conversion out of range undefined).
float RoundToFloat(double d) {
  constexpr double kHalfwayPastMax = 0x1.ffffffp127;
  if (std::fabs(d) >= kHalfwayPastMax) return std::copysign(INFINITY, d);
  return static_cast<float>(d);
}

// Atlas inference AI Core: Fmod's inputs in [-2147483647, 2147483647].
void CheckFmodRange310p(const MathCallArgs& a, uint32_t n) {
  constexpr double kLimit = 2147483647.0;  // compared exactly, in double
  const char* names[] = {"src0Tensor", "src1Tensor"};
  for (uint32_t k = 0; k < 2; ++k) {
    WithType(a.inputs[k].type, [&](auto tag) {
      using T = typename decltype(tag)::Type;
      for (uint32_t i = 0; i < n; ++i) {
        const double x =
            static_cast<double>(static_cast<float>(Load<T>(a.inputs[k], i)));
        if (!(x >= -kLimit && x <= kLimit)) {
          Fail(
              "Fmod: %s[%u] is %g, outside [-2147483647, 2147483647]: on "
              "Atlas inference AI Core (310p) Fmod takes inputs in that "
              "range only",
              names[k], i, x);
        }
      }
    });
  }
}

// base^exp for integers: repeated squaring with wrap-around (every product
// modulo 2^bits); a negative exponent gives the integer part of 1 / base^-exp:
// 1 for base 1, ±1 for base -1, else 0 (docs/decisions.md).
template <typename T>
T IntegerPower(T base, T exp) {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 != 0) ? T(-1) : T(1);
      return 0;
    }
  }
  uint64_t result = 1;
  uint64_t square = static_cast<uint64_t>(base);
  for (uint64_t e = static_cast<uint64_t>(exp); e != 0; e >>= 1) {
    if (e & 1) result *= square;
    square *= square;
  }
  return static_cast<T>(result);
}

// What Power takes on the core's profile: T (half, float and int32_t
// everywhere, the other types on Ascend 950), PowerConfig (Ascend 950), and
// on Atlas inference AI Core exponents below 2^31 - 1.
void CheckPower(const MathCallArgs& a, uint32_t n) {
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile == Profile::k950) return;
  const ValueType t = a.dst_type;
  if (t != ValueType::kHalf && t != ValueType::kFloat &&
      t != ValueType::kInt32) {
    Fail(
        "Power: T is %s, which profile %s (%s) does not take: Power takes %s "
        "on Ascend 950 only (half, float and int32_t on every profile)",
        ValueTypeName(t), profile.name, profile.key, ValueTypeName(t));
  }
  if (a.mode != 0) {
    Fail(
        "Power: PowerConfig::algo is DOUBLE_FLOAT_TECH, which profile %s "
        "(%s) does not take: PowerConfig applies to Ascend 950 only "
        "(INTRINSIC elsewhere)",
        profile.name, profile.key);
  }
  if (profile.profile != Profile::k310P) return;
  WithType(t, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (uint32_t i = 0; i < n; ++i) {
      const double y = static_cast<double>(Load<T>(a.inputs[1], i));
      if (!(y < 2147483647.0)) {
        Fail(
            "Power: the exponent (element %u) is %g, not below 2147483647: "
            "on Atlas inference AI Core (310p) Power's exponents must be "
            "below 2^31 - 1",
            i, y);
      }
    }
  });
}

}  // namespace

// a * b + c rounded once to float: the product of two floats is exact
// inside the fused operation.
void FmaValues(const MathCallArgs& a, uint32_t n) {
  InFloatBlocks(a, n, [](float* dst, const float* const* x, size_t m) {
    Loops().fma_f32(dst, x[0], x[1], x[2], m);
  });
}

// The exact remainder a - Trunc(a / b) * b, with a's sign: it is always a
// value of T, so nothing rounds. IEEE's special cases: NaN for b = ±0 or
// a = ±inf, a itself for b = ±inf (docs/decisions.md).
void FmodValues(const MathCallArgs& a, uint32_t n) {
  const ProfileInfo& profile = a.dst.core->profile();
  if (a.mode != 0 && profile.profile != Profile::k950) {
    Fail(
        "Fmod: FmodConfig::algo is ITERATION_COMPENSATION, which profile %s "
        "(%s) does not take: FmodConfig applies to Ascend 950 only (NORMAL "
        "elsewhere)",
        profile.name, profile.key);
  }
  if (profile.profile == Profile::k310P) CheckFmodRange310p(a, n);
  EachFloating(a, n, [&](auto tag, uint32_t i) {
    using T = typename decltype(tag)::Type;
    return std::fmod(At<T>(a.inputs[0], i), At<T>(a.inputs[1], i));
  });
}

// sqrt(a^2 + b^2) in double (the squares of floats are exact there), then
// rounded to float; +inf where either input is ±inf, even beside a NaN.
void HypotValues(const MathCallArgs& a, uint32_t n) {
  InFloatBlocks(a, n, [](float* dst, const float* const* x, size_t m) {
    Loops().hypot_f32(dst, x[0], x[1], m);
  });
}

// Muls then Add, as the page builds it: the product src * scalarValue
// rounded to dst's type, then added to dst and rounded again (half: both in
// half; float and half into float: both in float, the product exact).
void AxpyValues(const MathCallArgs& a, uint32_t n) {
  WithType(a.inputs[0].type, [&](auto src_tag) {
    using U = typename decltype(src_tag)::Type;
    if constexpr (kIsMathFloating<U>) {
      MathOperand dst;  // dst is read as well as written
      dst.is_tensor = true;
      dst.type = a.dst_type;
      dst.view = a.dst;
      const float scalar = At<U>(a.inputs[1], 0);
      EachFloating(a, n, [&](auto tag, uint32_t i) {
        using T = typename decltype(tag)::Type;
        const T product = static_cast<T>(At<U>(a.inputs[0], i) * scalar);
        return static_cast<float>(Load<T>(dst, i)) +
               static_cast<float>(product);
      });
    }
  });
}

// Floats: base^exp in double, rounded to float (then to half or
// bfloat16_t), with C's pow for the special cases and negative bases with
// integral exponents; both PowerConfig algorithms give it. Integers:
// IntegerPower.
void PowerValues(const MathCallArgs& a, uint32_t n) {
  CheckPower(a, n);
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    for (uint32_t i = 0; i < n; ++i) {
      const T base = Load<T>(a.inputs[0], i);
      const T exp = Load<T>(a.inputs[1], i);
      if constexpr (kIsMathFloating<T>) {
        const double p = std::pow(static_cast<double>(static_cast<float>(base)),
                                  static_cast<double>(static_cast<float>(exp)));
        Store(a.dst, i, static_cast<T>(RoundToFloat(p)));
      } else {
        Store(a.dst, i, IntegerPower(base, exp));
      }
    }
  });
}

}  // namespace normgrad_ascendc

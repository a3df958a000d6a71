// float_binary.cc — the arithmetic of the Math APIs of the binary call
// shape whose results round: Fma, Fmod, Hypot, Axpy and Power (their rules
// are entries of compare_logic.cc's table). Fma, Fmod, Hypot and Power on
// floats compute in float or wider and round once to float (Fmod's
// remainder is exact; integer Power wraps around); a half or bfloat16_t
// result is that float rounded again (to nearest, ties to even; beyond the
// type's range ±inf, as the pages' inf results ask). Axpy follows its
// page's two steps. All run on the instruction set's loops
// (kernels::AdvancedKernels: fma_f32, hypot_f32, fmod_f32, power_f32,
// power_u32, axpy_f32), a block of elements at a time. The bounds:
// docs/numerics.md, "Math: binary".
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/math/binary.h"
#include "normgrad/convert.h"

namespace normgrad_ascendc {
namespace {

constexpr uint32_t kBlock = 1024;

// The raw 16-bit elements of a half or bfloat16_t tensor.
template <typename Raw>
const Raw* RawData(const TensorView& t) {
  return reinterpret_cast<const Raw*>(t.data());
}

// The floats of a floating operand for its elements [start, start + m): a
// float tensor's own memory; else `buffer` (m floats) filled with a half or
// bfloat16_t tensor's elements widened exactly, or the scalar (or a
// tensor's element 0) repeated.
const float* FloatsOf(const MathOperand& op, uint32_t start, uint32_t m,
                      float* buffer) {
  if (op.is_tensor && !op.single_point) {
    switch (op.type) {
      case ValueType::kFloat:
        return reinterpret_cast<const float*>(op.view.data()) + start;
      case ValueType::kHalf:
        normgrad::Widen(RawData<normgrad::float16>(op.view) + start, buffer, m);
        return buffer;
      default:  // bfloat16_t
        normgrad::Widen(RawData<normgrad::bfloat16>(op.view) + start, buffer,
                        m);
        return buffer;
    }
  }
  float value = 0.0f;
  WithType(op.type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (kIsMathFloating<T>) {
      value = static_cast<float>(Load<T>(op, 0));
    }
  });
  std::fill(buffer, buffer + m, value);
  return buffer;
}

// Rounds m floats to dst's half or bfloat16_t elements from `start` (to
// nearest, ties to even; ±inf beyond the type's range).
void NarrowInto(const TensorView& dst, ValueType type, uint32_t start,
                uint32_t m, const float* v) {
  if (type == ValueType::kHalf) {
    normgrad::Narrow(
        v, reinterpret_cast<normgrad::float16*>(dst.data()) + start, m);
  } else {
    normgrad::Narrow(
        v, reinterpret_cast<normgrad::bfloat16*>(dst.data()) + start, m);
  }
}

// Calls kernel(dst, sources, m) on the operands as floats (FloatsOf), a
// block of elements at a time: a float dst's own memory, a half or
// bfloat16_t dst's results rounded to the type.
template <typename Kernel>
void InFloatBlocks(const MathCallArgs& a, uint32_t n, Kernel&& kernel) {
  constexpr uint32_t kMaxSources = 3;
  float widened[kMaxSources][kBlock];
  float result[kBlock];
  const float* sources[kMaxSources] = {};
  const bool float_dst = a.dst_type == ValueType::kFloat;
  for (uint32_t start = 0; start < n; start += kBlock) {
    const uint32_t m = std::min(kBlock, n - start);
    for (uint32_t k = 0; k < a.input_count; ++k) {
      sources[k] = FloatsOf(a.inputs[k], start, m, widened[k]);
    }
    float* out =
        float_dst ? reinterpret_cast<float*>(a.dst.data()) + start : result;
    kernel(out, sources, m);
    if (!float_dst) NarrowInto(a.dst, a.dst_type, start, m, result);
  }
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

// The elements [start, start + m) of an integer operand as 32-bit words,
// sign- or zero-extended by its type: a 32-bit tensor's own memory, else
// `buffer` filled (a scalar, or a tensor's element 0, repeated).
template <typename T>
const uint32_t* WordsOf(const MathOperand& op, uint32_t start, uint32_t m,
                        uint32_t* buffer) {
  if (sizeof(T) == 4 && op.is_tensor && !op.single_point) {
    return reinterpret_cast<const uint32_t*>(op.view.data()) + start;
  }
  for (uint32_t i = 0; i < m; ++i) {
    buffer[i] = static_cast<uint32_t>(Load<T>(op, start + i));
  }
  return buffer;
}

// base^exp for integers on the loops (power_u32): repeated squaring with
// wrap-around (every product modulo 2^bits, as modulo 2^32 and then
// truncated); a negative exponent gives the integer part of
// 1 / base^-exp: 1 for base 1, ±1 for base -1, else 0 (docs/decisions.md).
template <typename T>
void IntegerPowers(const MathCallArgs& a, uint32_t n) {
  uint32_t bases[kBlock], exps[kBlock], result[kBlock];
  for (uint32_t start = 0; start < n; start += kBlock) {
    const uint32_t m = std::min(kBlock, n - start);
    uint32_t* out = sizeof(T) == 4
                        ? reinterpret_cast<uint32_t*>(a.dst.data()) + start
                        : result;
    Loops().power_u32(out, WordsOf<T>(a.inputs[0], start, m, bases),
                      WordsOf<T>(a.inputs[1], start, m, exps), m,
                      std::is_signed_v<T>);
    if (sizeof(T) != 4) {
      for (uint32_t i = 0; i < m; ++i) {
        Store(a.dst, start + i, static_cast<T>(result[i]));
      }
    }
  }
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
// value of T, so nothing rounds (fmod_f32). IEEE's special cases: NaN for
// b = ±0 or a = ±inf, a itself for b = ±inf (docs/decisions.md).
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
  InFloatBlocks(a, n, [](float* dst, const float* const* x, size_t m) {
    Loops().fmod_f32(dst, x[0], x[1], m);
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
// half; float and half into float: both in float, the product exact) —
// axpy_f32 on dst's floats (a half dst widened and rounded back).
void AxpyValues(const MathCallArgs& a, uint32_t n) {
  float scalar = 0.0f;
  FloatsOf(a.inputs[1], 0, 1, &scalar);
  const bool float_dst = a.dst_type == ValueType::kFloat;
  float widened[kBlock], sums[kBlock];
  for (uint32_t start = 0; start < n; start += kBlock) {
    const uint32_t m = std::min(kBlock, n - start);
    const float* src = FloatsOf(a.inputs[0], start, m, widened);
    float* acc =
        float_dst ? reinterpret_cast<float*>(a.dst.data()) + start : sums;
    if (!float_dst) {
      normgrad::Widen(RawData<normgrad::float16>(a.dst) + start, sums, m);
    }
    Loops().axpy_f32(acc, src, m, scalar, !float_dst);
    if (!float_dst) NarrowInto(a.dst, a.dst_type, start, m, sums);
  }
}

// Floats: base^exp, the float nearest to C's pow in double (then rounded
// to half or bfloat16_t), on the loops (power_f32); both PowerConfig
// algorithms give it. Integers: IntegerPowers.
void PowerValues(const MathCallArgs& a, uint32_t n) {
  CheckPower(a, n);
  WithType(a.dst_type, [&](auto tag) {
    using T = typename decltype(tag)::Type;
    if constexpr (kIsMathFloating<T>) {
      InFloatBlocks(a, n, [](float* dst, const float* const* x, size_t m) {
        Loops().power_f32(dst, x[0], x[1], m);
      });
    } else if constexpr (sizeof(T) <= 4) {
      IntegerPowers<T>(a, n);
    }
  });
}

}  // namespace normgrad_ascendc

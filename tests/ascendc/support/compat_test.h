// compat_test.h — helpers shared by the compat and runtime tests: asserting
// a KernelError's message, switching the product profile for one scope, raw
// tensor bits, the random seed, the test-side float/half conversions (written
// from the format definitions; they share no code with src/), and element
// values as doubles, rounded and compared bit for bit.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

namespace compat_test {

// Runs f; succeeds when it throws normgrad_ascendc::KernelError whose
// message contains `expected`. Use as EXPECT_TRUE(FailsWith([&] {...}, "…")).
template <typename F>
::testing::AssertionResult FailsWith(F&& f, const std::string& expected) {
  try {
    f();
  } catch (const normgrad_ascendc::KernelError& e) {
    const std::string message = e.what();
    if (message.find(expected) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "message\n  \"" << message << "\"\nlacks\n  \"" << expected
           << "\"";
  }
  return ::testing::AssertionFailure()
         << "no KernelError; expected one with \"" << expected << "\"";
}

// Sets the process profile for the scope's lifetime, then restores it.
class ProfileScope {
 public:
  explicit ProfileScope(normgrad_ascendc::Profile profile)
      : previous_(normgrad_ascendc::CurrentProfile()) {
    normgrad_ascendc::SetProfile(profile);
  }
  ~ProfileScope() { normgrad_ascendc::SetProfile(previous_); }
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

 private:
  normgrad_ascendc::Profile previous_;
};

// Raw access to the bits of a float or half LocalTensor, as uint32_t or
// uint16_t; a test's tensor set derives from it.
template <typename T>
struct TensorBits {
  using Bits = std::conditional_t<std::is_same_v<T, float>, uint32_t, uint16_t>;

  static void Write(const AscendC::LocalTensor<T>& t,
                    const std::vector<Bits>& bits) {
    std::memcpy(static_cast<void*>(t.GetPhyAddr()), bits.data(),
                bits.size() * sizeof(Bits));
  }
  static std::vector<Bits> Read(const AscendC::LocalTensor<T>& t, size_t n) {
    std::vector<Bits> bits(n);
    std::memcpy(bits.data(), static_cast<const void*>(t.GetPhyAddr()),
                n * sizeof(Bits));
    return bits;
  }
};

// The random seed of a test file: NORMGRAD_SEED, else kDefault; printed on
// first use.
template <uint32_t kDefault>
uint32_t Seed() {
  static const uint32_t seed = [] {
    const char* env = std::getenv("NORMGRAD_SEED");
    const uint32_t s =
        env != nullptr ? static_cast<uint32_t>(std::strtoul(env, nullptr, 10))
                       : kDefault;
    std::printf("[   SEED   ] %u (NORMGRAD_SEED overrides)\n", s);
    return s;
  }();
  return seed;
}

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

inline float BitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

// binary16 bits → value, by the definition of the format.
inline float HalfBitsToFloat(uint16_t h) {
  const int exponent = (h >> 10) & 31;
  const int mantissa = h & 1023;
  const float sign = (h & 0x8000) != 0 ? -1.0f : 1.0f;
  if (exponent == 31) return mantissa != 0 ? NAN : sign * INFINITY;
  if (exponent == 0) {
    return sign * std::ldexp(static_cast<float>(mantissa), -24);
  }
  return sign * std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
}

// The half value nearest to x, ties to even, as a float: ±inf beyond the
// range, or ±65504 when saturating (Ascend 950).
inline float RoundToHalf(float x, bool saturate) {
  if (std::isnan(x) || x == 0.0f) return x;
  if (std::isinf(x)) return saturate ? std::copysign(65504.0f, x) : x;
  const double a = std::fabs(static_cast<double>(x));
  int e2 = 0;
  std::frexp(a, &e2);                          // a in [2^(e2-1), 2^e2)
  const int exponent = std::max(e2 - 1, -14);  // subnormals share 2^-14's
  const double quantum = std::ldexp(1.0, exponent - 10);
  double r = std::nearbyint(a / quantum) * quantum;  // round half to even
  if (r > 65504.0) r = saturate ? 65504.0 : INFINITY;
  return static_cast<float>(std::copysign(r, static_cast<double>(x)));
}

// Whether T is one of the floating-point element types.
template <typename T>
constexpr bool kFloatLike =
    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
    std::is_same_v<T, float>;

// An element's value as a double (exact for every element type but 64-bit
// integers beyond 2^53).
template <typename T>
double ToDouble(T v) {
  if constexpr (kFloatLike<T>) {
    return static_cast<double>(static_cast<float>(v));
  } else {
    return static_cast<double>(v);
  }
}

// The exact value v rounded once to T: float from double; the 16-bit types
// through float, which rounds the same as directly for the sums and products
// of two 16-bit values (24 ≥ 2·11+2 bits).
template <typename T>
T RoundTo(double v) {
  return static_cast<T>(static_cast<float>(v));
}

// Equal bits, or both NaN.
template <typename T>
bool Same(T a, T b) {
  if constexpr (kFloatLike<T>) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    if (std::isnan(fa) && std::isnan(fb)) return true;
    return std::memcmp(&a, &b, sizeof a) == 0;
  } else {
    return a == b;
  }
}

}  // namespace compat_test

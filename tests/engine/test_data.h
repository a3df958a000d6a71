// test_data.h — input generators for the engine tests: seeded random
// matrices in f32/f16/bf16 (stored as raw element bytes) and exact fills
// (small integers, so every partial sum is exact in float). The seed is
// printed by the tests that use it; NORMGRAD_SEED overrides it. Also the
// fixed 16-lane tree the engine's kernels fold their row sums with, written
// out for the tests that check kernels bit for bit.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "normgrad/float16.h"
#include "normgrad/types.h"

namespace testdata {

inline uint32_t Seed() {
  const char* s = std::getenv("NORMGRAD_SEED");
  return s ? static_cast<uint32_t>(std::strtoul(s, nullptr, 10)) : 20261202u;
}

/// rows × stride elements of `dtype` as bytes; columns ≥ cols are padding
/// filled with a value that would corrupt any sum that read it.
struct Matrix {
  normgrad::DType dtype;
  size_t rows, cols, stride;
  std::vector<uint8_t> bytes;
  const void* data() const { return bytes.data(); }
};

inline void Store(normgrad::DType t, uint8_t* base, size_t i, float v) {
  if (t == normgrad::DType::kF32) {
    std::memcpy(base + 4 * i, &v, 4);
  } else {
    const uint16_t b =
        t == normgrad::DType::kF16 ? normgrad::float16(v).Bits() : normgrad::bfloat16(v).Bits();
    std::memcpy(base + 2 * i, &b, 2);
  }
}

template <typename Gen>
Matrix Make(normgrad::DType t, size_t rows, size_t cols, size_t stride, Gen gen) {
  Matrix m{t, rows, cols, stride, std::vector<uint8_t>(rows * stride * normgrad::SizeOf(t))};
  for (size_t r = 0; r < rows; ++r) {
    for (size_t c = 0; c < stride; ++c) {
      Store(t, m.bytes.data(), r * stride + c, c < cols ? gen() : 1.0e4f);
    }
  }
  return m;
}

/// Standard normal values (rounded to the type).
inline Matrix Normal(normgrad::DType t, size_t rows, size_t cols, uint32_t seed,
                     size_t stride = 0) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  return Make(t, rows, cols, stride ? stride : cols, [&] { return dist(rng); });
}

/// Integers in [-4, 4]: products ≤ 16, so sums of up to 2^20 rows are exact.
inline Matrix SmallIntegers(normgrad::DType t, size_t rows, size_t cols, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-4, 4);
  return Make(t, rows, cols, cols, [&] { return static_cast<float>(dist(rng)); });
}

/// Test-name suffix for tests parameterized by element type.
template <typename ParamInfo>
std::string TypeName(const ParamInfo& param_info) {
  return normgrad::DTypeName(param_info.param);
}

/// lanes[0] + … + lanes[15] by the fixed tree ((l0 + l1) + (l2 + l3)) + … .
inline float LiteralTreeSum(std::vector<float> lanes) {
  for (size_t s = 1; s < 16; s *= 2) {
    for (size_t i = 0; i < 16; i += 2 * s) lanes[i] = lanes[i] + lanes[i + s];
  }
  return lanes[0];
}

}  // namespace testdata

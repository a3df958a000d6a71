// matmul_test_support.h — what the Matmul object's tests share: a GM view of
// a host vector, the tiling of a one-core Matmul with the base blocks given
// (what a host GetTiling would hand a single core), the elements of small
// values in every operand type, and the fixtures that
// run a test on a cube core of Atlas A2/A3 or of the Ascend 950.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"

namespace matmul_test {

// The Ascend 950's 8-bit floats.
template <typename T>
constexpr bool kFloat8 =
    std::is_same_v<T, fp8_e4m3fn_t> || std::is_same_v<T, fp8_e5m2_t> ||
    std::is_same_v<T, hifloat8_t>;

// The element of value v. Nothing converts into an 8-bit float, so its code
// is found among the 256 (v must be one of their values).
template <typename T>
T ToElement(double v) {
  if constexpr (kFloat8<T>) {
    for (int code = 0; code < 256; ++code) {
      const T x = T::FromBits(static_cast<uint8_t>(code));
      if (static_cast<double>(static_cast<float>(x)) == v) return x;
    }
    ADD_FAILURE() << v << " is no value of " << normgrad_ascendc::TypeName<T>();
    return T::FromBits(0);
  } else {
    return static_cast<T>(v);
  }
}

// The test's thread is a cube core (a pure cube kernel's), profile a2.
class CubeCoreTest : public testing::Test {
 protected:
  void SetUp() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }
  void TearDown() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
};

// The same on the Ascend 950.
class CubeCore950Test : public CubeCoreTest {
 protected:
  void SetUp() override {
    CubeCoreTest::SetUp();
    normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::k950);
  }
  void TearDown() override {
    normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
    CubeCoreTest::TearDown();
  }
};

template <typename T>
AscendC::GlobalTensor<T> Gm(std::vector<T>& v) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(v.data(), v.size());
  return g;
}

// A tiling of one core: the whole M × N × K, base blocks as given.
inline TCubeTiling Tiling(int m, int n, int k, int base_m, int base_n,
                          int base_k, bool bias = true, int order = 0) {
  TCubeTiling t{};
  t.usedCoreNum = 1;
  t.M = t.singleCoreM = m;
  t.N = t.singleCoreN = n;
  t.Ka = t.Kb = t.singleCoreK = k;
  t.baseM = base_m;
  t.baseN = base_n;
  t.baseK = base_k;
  t.depthA1 = t.depthB1 = 1;
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.isBias = bias ? 1 : 0;
  t.iterateOrder = order;
  t.dbL0A = t.dbL0B = t.dbL0C = 1;
  return t;
}

}  // namespace matmul_test

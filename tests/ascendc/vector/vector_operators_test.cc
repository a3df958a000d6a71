// vector_operators_test.cc — the whole-tensor operator forms (dst = src0 +
// src1, dst = src0 < src1, ...; normgrad_ascendc/vector/vector_operators.h)
// through kernel_operator.h: each against an element-by-element reference
// written here, the count they compute (the destination's length, a
// comparison's source length), and their errors, which name the count form
// and the line of the operator.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

constexpr uint32_t kBytes = 1024;

struct Ub {
  Ub() {
    pipe.InitBuffer(a_buf, kBytes);
    pipe.InitBuffer(b_buf, kBytes);
    pipe.InitBuffer(d_buf, kBytes);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> a_buf, b_buf, d_buf;
};

// a[i] and b[i]: small binary fractions of both signs, so that +, −, × are
// exact and b is never zero; b a power of two, so that a / b is exact too.
float A(uint32_t i) {
  return static_cast<float>(static_cast<int>(i % 37) - 18) * 0.25f;
}
float B(uint32_t i) {
  return (i % 3 == 0 ? -1.0f : 1.0f) * static_cast<float>(1u << (i % 5));
}

template <typename T, typename F>
void Fill(const LocalTensor<T>& t, F value) {
  for (uint32_t i = 0; i < t.GetSize(); ++i)
    t.SetValue(i, static_cast<T>(value(i)));
}

TEST(VectorOperators, ArithmeticOverTheWholeDestination) {
  Ub ub;
  LocalTensor<float> a = ub.a_buf.Get<float>(), b = ub.b_buf.Get<float>();
  LocalTensor<float> d = ub.d_buf.Get<float>();
  Fill(a, A);
  Fill(b, B);
  const uint32_t n = d.GetSize();
  ASSERT_EQ(n, kBytes / sizeof(float));
  d = a + b;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), A(i) + B(i)) << i;
  d = a - b;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), A(i) - B(i)) << i;
  d = a * b;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), A(i) * B(i)) << i;
  d = a / b;
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(d.GetValue(i), A(i) / B(i)) << i;
}

TEST(VectorOperators, HalfAndTheSourceAsDestination) {
  Ub ub;
  LocalTensor<half> a = ub.a_buf.Get<half>(), b = ub.b_buf.Get<half>();
  Fill(a, A);
  Fill(b, B);
  a = a + b;  // in place, as the count form allows
  for (uint32_t i = 0; i < a.GetSize(); ++i) {
    ASSERT_EQ(static_cast<float>(a.GetValue(i)), A(i) + B(i)) << i;
  }
}

TEST(VectorOperators, CountIsTheDestinationsLength) {
  Ub ub;
  LocalTensor<float> a = ub.a_buf.Get<float>(), b = ub.b_buf.Get<float>();
  LocalTensor<float> d = ub.d_buf.Get<float>();
  Fill(a, A);
  Fill(b, B);
  Fill(d, [](uint32_t) { return 7.0f; });
  LocalTensor<float> head = d;
  head.SetSize(64);
  head = a + b;
  EXPECT_EQ(d.GetSize(), kBytes / sizeof(float))
      << "the assignment keeps the view";
  for (uint32_t i = 0; i < d.GetSize(); ++i) {
    ASSERT_EQ(d.GetValue(i), i < 64 ? A(i) + B(i) : 7.0f) << i;
  }
}

TEST(VectorOperators, LogicOnBits) {
  Ub ub;
  LocalTensor<uint16_t> a = ub.a_buf.Get<uint16_t>(),
                        b = ub.b_buf.Get<uint16_t>();
  LocalTensor<uint16_t> d = ub.d_buf.Get<uint16_t>();
  const auto x = [](uint32_t i) { return static_cast<uint16_t>(i * 40503u); };
  const auto y = [](uint32_t i) {
    return static_cast<uint16_t>(~(i * 2654435761u >> 7));
  };
  Fill(a, x);
  Fill(b, y);
  d = a & b;
  for (uint32_t i = 0; i < d.GetSize(); ++i)
    ASSERT_EQ(d.GetValue(i), x(i) & y(i)) << i;
  d = a | b;
  for (uint32_t i = 0; i < d.GetSize(); ++i)
    ASSERT_EQ(d.GetValue(i), x(i) | y(i)) << i;
}

TEST(VectorOperators, ComparisonsGiveABitPerSourceElement) {
  Ub ub;
  LocalTensor<float> a = ub.a_buf.Get<float>(), b = ub.b_buf.Get<float>();
  LocalTensor<uint8_t> d = ub.d_buf.Get<uint8_t>();
  // b[i] = a[i], a[i] ± 0.25 in turn: every relation holds somewhere.
  const auto bv = [](uint32_t i) {
    return A(i) + 0.25f * static_cast<float>(int(i % 3) - 1);
  };
  Fill(a, A);
  Fill(b, bv);
  const uint32_t n = a.GetSize();
  const auto check = [&](const char* name, auto holds) {
    SCOPED_TRACE(name);
    for (uint32_t i = 0; i < n; ++i) {
      const bool bit = (d.GetValue(i / 8) >> (i % 8) & 1u) != 0;
      ASSERT_EQ(bit, holds(A(i), bv(i))) << i;
    }
    for (uint32_t i = n / 8; i < d.GetSize(); ++i)
      ASSERT_EQ(d.GetValue(i), 0xa5) << i;
  };
  const auto reset = [&] { Fill(d, [](uint32_t) { return 0xa5; }); };
  reset();
  d = a < b;
  check("<", [](float x, float y) { return x < y; });
  reset();
  d = a > b;
  check(">", [](float x, float y) { return x > y; });
  reset();
  d = a <= b;
  check("<=", [](float x, float y) { return x <= y; });
  reset();
  d = a >= b;
  check(">=", [](float x, float y) { return x >= y; });
  reset();
  d = a == b;
  check("==", [](float x, float y) { return x == y; });
  reset();
  d = a != b;
  check("!=", [](float x, float y) { return x != y; });
}

TEST(VectorOperators, ErrorsNameTheCountFormAndTheOperatorsLine) {
  Ub ub;
  LocalTensor<float> a = ub.a_buf.Get<float>(), b = ub.b_buf.Get<float>();
  LocalTensor<float> d = ub.d_buf.Get<float>();
  a.SetSize(32);  // shorter than the destination
  const std::string line = std::to_string(__LINE__ + 1);
  EXPECT_TRUE(FailsWith([&] { d = a + b; },
                        "vector_operators_test.cc:" + line + ": Add"));
  EXPECT_TRUE(FailsWith([&] { d = b * a; }, "src1"));
  LocalTensor<float> src = ub.b_buf.Get<float>();
  src.SetSize(64);  // 64 bits of result
  LocalTensor<uint8_t> bits = ub.d_buf.Get<uint8_t>();
  bits.SetSize(4);  // 32 bits of room
  EXPECT_TRUE(FailsWith([&] { bits = src < src; }, "Compare"));
}

}  // namespace

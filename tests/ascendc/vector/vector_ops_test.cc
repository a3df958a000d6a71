// vector_ops_test.cc — the basic vector operations (docs/runtime.md) through
// kernel_operator.h: exact results against scalar expectations for float and
// half, Cast in every rounding mode between half, float and int32, the
// operand checks, and the synchronization calls that do nothing.
//
// Extending: expected values are literals whose derivation is in a comment
// (exact binary fractions, or the rounding rule applied by hand). A new
// check gets a FailsWith line with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

// Three 1 KiB UB buffers.
struct Ub {
  Ub() {
    pipe.InitBuffer(x_buf, 1024);
    pipe.InitBuffer(y_buf, 1024);
    pipe.InitBuffer(z_buf, 1024);
  }
  template <typename T>
  LocalTensor<T> x() {
    return x_buf.Get<T>();
  }
  template <typename T>
  LocalTensor<T> y() {
    return y_buf.Get<T>();
  }
  template <typename T>
  LocalTensor<T> z() {
    return z_buf.Get<T>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> x_buf, y_buf, z_buf;
};

template <typename T>
void Fill(const LocalTensor<T>& t, const std::vector<float>& values) {
  for (size_t i = 0; i < values.size(); ++i) {
    t.SetValue(static_cast<uint32_t>(i), static_cast<T>(values[i]));
  }
}

template <typename T>
std::vector<float> Read(const LocalTensor<T>& t, uint32_t n) {
  std::vector<float> v(n);
  for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<float>(t.GetValue(i));
  return v;
}

// ---- Elementwise, float -----------------------------------------------------

TEST(VectorOps, FloatBinaryExact) {
  Ub ub;
  auto x = ub.x<float>(), y = ub.y<float>(), z = ub.z<float>();
  Fill(x, {1.5f, -2.0f, 3.0f, 0.25f});
  Fill(y, {0.5f, 4.0f, -1.0f, 8.0f});
  AscendC::Add(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{2.0f, 2.0f, 2.0f, 8.25f}));
  AscendC::Sub(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{1.0f, -6.0f, 4.0f, -7.75f}));
  AscendC::Mul(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{0.75f, -8.0f, -3.0f, 2.0f}));
  AscendC::Div(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{3.0f, -0.5f, -3.0f, 0.03125f}));
  AscendC::Max(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{1.5f, 4.0f, 3.0f, 8.0f}));
  AscendC::Min(z, x, y, 4);
  EXPECT_EQ(Read(z, 4), (std::vector<float>{0.5f, -2.0f, -1.0f, 0.25f}));
}

TEST(VectorOps, FloatRoundsEachResult) {
  Ub ub;
  auto x = ub.x<float>(), y = ub.y<float>();
  // 1 + 2^-24 is a tie between 1 and 1 + 2^-23: ties to even give 1.
  Fill(x, {1.0f});
  Fill(y, {std::ldexp(1.0f, -24)});
  AscendC::Add(x, x, y, 1);
  EXPECT_EQ(x.GetValue(0), 1.0f);
  // 1/3 is the float nearest to it.
  Fill(x, {1.0f});
  Fill(y, {3.0f});
  AscendC::Div(x, x, y, 1);
  EXPECT_EQ(x.GetValue(0), 1.0f / 3.0f);
}

TEST(VectorOps, CountLimitsTheElementsWritten) {
  Ub ub;
  auto x = ub.x<float>(), z = ub.z<float>();
  Fill(x, {1.0f, 2.0f, 3.0f});
  Fill(z, {9.0f, 9.0f, 9.0f});
  AscendC::Add(z, x, x, 2);
  EXPECT_EQ(Read(z, 3), (std::vector<float>{2.0f, 4.0f, 9.0f}));
}

TEST(VectorOps, InPlaceAndViews) {
  Ub ub;
  auto x = ub.x<float>();
  Fill(x, {1.0f, 2.0f, 3.0f, 4.0f});
  Fill(x[8], {0.0f, 0.0f, 0.0f, 0.0f});
  AscendC::Add(x, x, x, 4);  // dst == src
  EXPECT_EQ(Read(x, 4), (std::vector<float>{2.0f, 4.0f, 6.0f, 8.0f}));
  AscendC::Add(x[8], x[8], x, 4);  // a view one block in: [2+2, 4+4, …]
  EXPECT_EQ(Read(x[8], 4), (std::vector<float>{2.0f, 4.0f, 6.0f, 8.0f}));
}

TEST(VectorOps, NanAndInfinity) {
  Ub ub;
  auto x = ub.x<float>(), y = ub.y<float>(), z = ub.z<float>();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Fill(x, {nan, 1.0f, 1.0f});
  Fill(y, {1.0f, nan, 0.0f});
  AscendC::Max(z, x, y, 3);
  EXPECT_TRUE(std::isnan(z.GetValue(0)) && std::isnan(z.GetValue(1)));
  AscendC::Min(z, x, y, 3);
  EXPECT_TRUE(std::isnan(z.GetValue(0)) && std::isnan(z.GetValue(1)));
  AscendC::Div(z, x, y, 3);
  EXPECT_EQ(z.GetValue(2), std::numeric_limits<float>::infinity());
}

TEST(VectorOps, ScalarsAndDuplicate) {
  Ub ub;
  auto x = ub.x<float>(), z = ub.z<float>();
  Fill(x, {1.0f, -2.5f});
  AscendC::Adds(z, x, 0.5f, 2);
  EXPECT_EQ(Read(z, 2), (std::vector<float>{1.5f, -2.0f}));
  AscendC::Muls(z, x, -4.0f, 2);
  EXPECT_EQ(Read(z, 2), (std::vector<float>{-4.0f, 10.0f}));
  AscendC::Duplicate(z, 0.0f, 256);
  EXPECT_EQ(Read(z, 256), std::vector<float>(256, 0.0f));
  auto ints = ub.y<int32_t>();
  AscendC::Duplicate(ints, -3, 5);
  EXPECT_EQ(ints.GetValue(4), -3);
  EXPECT_EQ(ints.GetValue(5), 0);
}

// ---- Elementwise, every operation against the element loop -----------------

// The operations as a plain element loop computes them: in
// float, each result rounded to T, element i read after element i − 1 was
// written.
enum class Op { kAdd, kSub, kMul, kDiv, kMax, kMin, kAdds, kMuls };

float Apply(Op op, float a, float b) {
  switch (op) {
    case Op::kAdd:
    case Op::kAdds:
      return a + b;
    case Op::kSub:
      return a - b;
    case Op::kMul:
    case Op::kMuls:
      return a * b;
    case Op::kDiv:
      return a / b;
    case Op::kMax:
      return (std::isnan(a) || a > b) ? a : b;
    case Op::kMin:
      return (std::isnan(a) || a < b) ? a : b;
  }
  return 0;
}

template <typename T>
void Run(Op op, const LocalTensor<T>& d, const LocalTensor<T>& a,
         const LocalTensor<T>& b, T scalar, int32_t n) {
  switch (op) {
    case Op::kAdd:
      return AscendC::Add(d, a, b, n);
    case Op::kSub:
      return AscendC::Sub(d, a, b, n);
    case Op::kMul:
      return AscendC::Mul(d, a, b, n);
    case Op::kDiv:
      return AscendC::Div(d, a, b, n);
    case Op::kMax:
      return AscendC::Max(d, a, b, n);
    case Op::kMin:
      return AscendC::Min(d, a, b, n);
    case Op::kAdds:
      return AscendC::Adds(d, a, scalar, n);
    case Op::kMuls:
      return AscendC::Muls(d, a, scalar, n);
  }
}

// Random bit patterns (NaNs, infinities, subnormals and zeros among them)
// in x and y; every operation over every way of sharing memory the API
// allows — separate tensors, dst = src0, dst = src1, all three the same,
// dst one repeat (256 bytes) before src0 or src1, which the instruction
// reads before the destination reaches it — and counts around the vector
// widths;
// the result's bits must equal the element loop's, run on a copy (a NaN
// matches any NaN: C++ leaves the sign and payload of a NaN result open).
template <typename T, typename Bits>
void CheckEveryOperation() {
  Ub ub;
  const uint32_t capacity = 1024 / sizeof(T);
  const uint32_t kRepeat = 256 / sizeof(T);
  std::mt19937 gen(7);
  std::uniform_int_distribution<uint32_t> bits;
  const Op ops[] = {Op::kAdd, Op::kSub, Op::kMul,  Op::kDiv,
                    Op::kMax, Op::kMin, Op::kAdds, Op::kMuls};
  const int32_t counts[] = {1, 7, 8, 15, 16, 17, 63, 64, 65, 200, 255};
  for (Op op : ops) {
    for (int layout = 0; layout < 6; ++layout) {
      for (int32_t n : counts) {
        T* x = ub.x<T>().GetPhyAddr();
        T* y = ub.y<T>().GetPhyAddr();
        for (uint32_t i = 0; i < capacity; ++i) {
          const Bits bx = static_cast<Bits>(bits(gen)),
                     by = static_cast<Bits>(bits(gen));
          std::memcpy(static_cast<void*>(&x[i]), &bx, sizeof bx);
          std::memcpy(static_cast<void*>(&y[i]), &by, sizeof by);
        }
        T scalar;
        const Bits bs = static_cast<Bits>(bits(gen));
        std::memcpy(static_cast<void*>(&scalar), &bs, sizeof bs);
        // The operands as offsets in elements into x (0) or y (1).
        struct At {
          int buf;
          uint32_t at;
        } d{2, 0}, a{0, 0}, b{1, 0};
        switch (layout) {
          case 1:
            d = a;
            break;  // dst = src0
          case 2:
            d = b;
            break;  // dst = src1
          case 3:
            d = a;
            b = a;
            break;  // all one tensor
          case 4:
            a = {0, kRepeat};
            d = {0, 0};
            break;  // dst a repeat before src0
          case 5:
            b = {1, kRepeat};
            d = {1, 0};
            break;  // dst a repeat before src1
        }
        if (layout >= 4 && n > static_cast<int32_t>(capacity - kRepeat))
          continue;
        std::vector<T> mem[3] = {std::vector<T>(x, x + capacity),
                                 std::vector<T>(y, y + capacity),
                                 std::vector<T>(capacity)};
        std::memcpy(mem[2].data(), ub.z<T>().GetPhyAddr(), 1024);
        for (int32_t i = 0; i < n; ++i) {
          const float va = static_cast<float>(mem[a.buf][a.at + i]);
          const float vb = (op == Op::kAdds || op == Op::kMuls)
                               ? static_cast<float>(scalar)
                               : static_cast<float>(mem[b.buf][b.at + i]);
          mem[d.buf][d.at + i] = static_cast<T>(Apply(op, va, vb));
        }
        auto tensor = [&](At p) {
          LocalTensor<T> t = p.buf == 0   ? ub.x<T>()
                             : p.buf == 1 ? ub.y<T>()
                                          : ub.z<T>();
          return t[p.at];
        };
        Run(op, tensor(d), tensor(a), tensor(b), scalar, n);
        const T* got = tensor({d.buf, 0}).GetPhyAddr();
        for (uint32_t i = 0; i < capacity; ++i) {
          const float g = static_cast<float>(got[i]),
                      w = static_cast<float>(mem[d.buf][i]);
          if (std::isnan(g) && std::isnan(w))
            continue;  // sign and payload unspecified
          ASSERT_EQ(std::memcmp(&got[i], &mem[d.buf][i], sizeof(T)), 0)
              << "op " << static_cast<int>(op) << ", layout " << layout
              << ", count " << n << ", element " << i << ": got " << g
              << ", expected " << w;
        }
      }
    }
  }
}

TEST(VectorOps, FloatEveryOperationMatchesTheElementLoop) {
  CheckEveryOperation<float, uint32_t>();
}

TEST(VectorOps, HalfEveryOperationMatchesTheElementLoop) {
  CheckEveryOperation<half, uint16_t>();
}

// ---- Elementwise, half ------------------------------------------------------

TEST(VectorOps, HalfRoundsToNearestEven) {
  Ub ub;
  auto x = ub.x<half>(), y = ub.y<half>(), z = ub.z<half>();
  // 2048 + 1 is a tie between 2048 and 2050 (ulp 2): even mantissa → 2048.
  // 2050 + 1 ties between 2050 and 2052 → 2052. 1 + 2^-11 ties → 1.
  Fill(x, {2048.0f, 2050.0f, 1.0f, 60000.0f});
  Fill(y, {1.0f, 1.0f, std::ldexp(1.0f, -11), 10000.0f});
  AscendC::Add(z, x, y, 4);
  EXPECT_EQ(Read(z, 4),
            (std::vector<float>{2048.0f, 2052.0f, 1.0f,
                                std::numeric_limits<float>::infinity()}));
  // 3 · 0.1 in half: half(0.1) = 1638 · 2^-14; the exact product
  // 4914 · 2^-14 = 1228.5 · 2^-12 is a tie (ulp 2^-12 in [0.25, 0.5)), so it
  // rounds to the even 1228 · 2^-12 = 0.2998046875.
  Fill(x, {3.0f});
  Fill(y, {0.1f});
  AscendC::Mul(z, x, y, 1);
  EXPECT_EQ(float(z.GetValue(0)), 0.2998046875f);
  AscendC::Muls(z, y, 3.0f, 1);
  EXPECT_EQ(float(z.GetValue(0)), 0.2998046875f);
  AscendC::Duplicate(z, half(1.5f), 3);
  EXPECT_EQ(Read(z, 3), (std::vector<float>{1.5f, 1.5f, 1.5f}));
}

// ---- Cast -------------------------------------------------------------------

TEST(Cast, FloatToHalfEveryMode) {
  Ub ub;
  auto f = ub.x<float>();
  auto h = ub.z<half>();
  // 1 + 2^-11 is halfway between half 1 and 1 + 2^-10; 1 + 3·2^-12 lies
  // between them, nearer the upper one; −(1 + 2^-11) mirrors the first.
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  const float upper = 1.0f + std::ldexp(1.0f, -10);
  const float above = 1.0f + 3.0f * std::ldexp(1.0f, -12);
  Fill(f, {tie, above, -tie, 1e6f, -1e6f});
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    RoundMode mode;
    std::vector<float> expected;
  };
  const Case cases[] = {
      {RoundMode::CAST_NONE, {1.0f, upper, -1.0f, inf, -inf}},
      {RoundMode::CAST_RINT, {1.0f, upper, -1.0f, inf, -inf}},
      {RoundMode::CAST_FLOOR, {1.0f, 1.0f, -upper, 65504.0f, -inf}},
      {RoundMode::CAST_CEIL, {upper, upper, -1.0f, inf, -65504.0f}},
      {RoundMode::CAST_TRUNC, {1.0f, 1.0f, -1.0f, 65504.0f, -65504.0f}},
      {RoundMode::CAST_ROUND, {upper, upper, -upper, inf, -inf}},
  };
  for (const Case& c : cases) {
    AscendC::Cast(h, f, c.mode, 5);
    EXPECT_EQ(Read(h, 5), c.expected) << static_cast<int>(c.mode);
  }
}

TEST(Cast, HalfToFloatIsExact) {
  Ub ub;
  auto h = ub.x<half>();
  auto f = ub.z<float>();
  Fill(h, {0.1f, -65504.0f, std::ldexp(1.0f, -24)});
  AscendC::Cast(f, h, RoundMode::CAST_NONE, 3);
  // half(0.1) = 0x2E66 = 1638 · 2^-14; the smallest subnormal 2^-24.
  EXPECT_EQ(Read(f, 3), (std::vector<float>{1638.0f / 16384.0f, -65504.0f,
                                            std::ldexp(1.0f, -24)}));
}

TEST(Cast, FloatToInt32EveryMode) {
  Ub ub;
  auto f = ub.x<float>();
  auto i = ub.z<int32_t>();
  Fill(f, {2.5f, -2.5f, 3.7f, -3.7f, 1e10f, -1e10f,
           std::numeric_limits<float>::quiet_NaN()});
  struct Case {
    RoundMode mode;
    std::vector<int32_t> expected;
  };
  const int32_t max = std::numeric_limits<int32_t>::max();
  const int32_t min = std::numeric_limits<int32_t>::min();
  const Case cases[] = {
      {RoundMode::CAST_RINT, {2, -2, 4, -4, max, min, 0}},
      {RoundMode::CAST_NONE, {2, -2, 4, -4, max, min, 0}},
      {RoundMode::CAST_FLOOR, {2, -3, 3, -4, max, min, 0}},
      {RoundMode::CAST_CEIL, {3, -2, 4, -3, max, min, 0}},
      {RoundMode::CAST_TRUNC, {2, -2, 3, -3, max, min, 0}},
      {RoundMode::CAST_ROUND, {3, -3, 4, -4, max, min, 0}},
  };
  for (const Case& c : cases) {
    AscendC::Cast(i, f, c.mode, 7);
    std::vector<int32_t> got(7);
    for (uint32_t k = 0; k < 7; ++k) got[k] = i.GetValue(k);
    EXPECT_EQ(got, c.expected) << static_cast<int>(c.mode);
  }
}

TEST(Cast, Int32ToFloatAndHalf) {
  Ub ub;
  auto i = ub.x<int32_t>();
  auto f = ub.y<float>();
  auto h = ub.z<half>();
  // 2^24 + 1 is a tie between 2^24 and 2^24 + 2 (ulp 2).
  const int32_t values[] = {7, -16777217, 16777217, 2049};
  for (uint32_t k = 0; k < 4; ++k) i.SetValue(k, values[k]);
  AscendC::Cast(f, i, RoundMode::CAST_RINT, 4);
  EXPECT_EQ(Read(f, 4),
            (std::vector<float>{7.0f, -16777216.0f, 16777216.0f, 2049.0f}));
  AscendC::Cast(f, i, RoundMode::CAST_CEIL, 4);
  EXPECT_EQ(f.GetValue(2), 16777218.0f);
  // int32 → half multiplies by DEQSCALE (1.0 when a block starts) and
  // rounds to nearest even whatever the mode: 2049 is a tie between 2048
  // and 2050 → 2048; ±(2^24 + 1) are beyond half's range → ±inf.
  const float inf = std::numeric_limits<float>::infinity();
  for (RoundMode mode : {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR}) {
    AscendC::Cast(h, i, mode, 4);
    EXPECT_EQ(Read(h, 4), (std::vector<float>{7.0f, -inf, inf, 2048.0f}));
  }
}

// ---- Checks -----------------------------------------------------------------

TEST(VectorOps, OperandChecks) {
  Ub ub;
  auto x = ub.x<float>(), z = ub.z<float>();
  LocalTensor<float> empty;
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(z, x, x[224], 64); },
                        "Add<float>: src1 has 32 elements, fewer than count "
                        "64"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Mul(z[248], x, x, 16); },
                        "Mul<float>: dst has 8 elements, fewer than count 16"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Mul(z[4], x, x, 8); },
      "Mul<float>: dst LocalTensor starts at UB offset 2064, which is not "
      "32-byte aligned"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Duplicate(z[1], 0.0f, 8); },
                "Duplicate<float>: dst LocalTensor starts at UB offset"));
  // dst one block into src0: within the first repeat they share blocks
  // without being the same lanes.
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(x[8], x, ub.y<float>(), 16); },
                        "Add<float>: in repeat 0, dst and src0 share a block "
                        "without being the same lanes"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Sub(z, empty, x, 8); },
                        "Sub<float>: src0 LocalTensor is empty (no "
                        "unified-buffer memory)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Max(z, x, x, -1); },
                        "Max<float>: count -1 is negative"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Adds(z, x[200], 1.0f, 64); },
                        "Adds<float>: src has 56 elements, fewer than count "
                        "64"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Duplicate(z, 0.0f, 257); },
                        "Duplicate<float>: dst has 256 elements, fewer than "
                        "count 257"));
  auto h = ub.y<half>();  // 512 halves
  EXPECT_TRUE(FailsWith([&] { AscendC::Cast(h, x, RoundMode::CAST_RINT, 300); },
                        "Cast<half, float>: src has 256 elements, fewer than "
                        "count 300"));
}

// The message starts with the file and line of the kernel's call.
TEST(VectorOps, ErrorsNameTheCallersLine) {
  Ub ub;
  auto x = ub.x<float>(), z = ub.z<float>();
  // The call outside any macro: compilers place a call inside a macro's
  // arguments at different lines.
  const auto call = [&] { AscendC::Add(z, x, x[224], 64); };
  const std::string line = std::to_string(__LINE__ - 1);
  EXPECT_TRUE(
      FailsWith(call, std::string(__FILE__) + ":" + line + ": Add<float>:"));
}

TEST(Sync, BarriersAndFlagsAreAccepted) {
  TPipe pipe;
  AscendC::PipeBarrier<PIPE_V>();
  AscendC::PipeBarrier<PIPE_ALL>();
  const auto event = pipe.FetchEventID(AscendC::HardEvent::V_MTE3);
  AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(event);
  AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(event);
  AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
  AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(
      pipe.FetchEventID<AscendC::HardEvent::MTE2_V>());
  const auto reserved = pipe.AllocEventID<AscendC::HardEvent::V_S>();
  AscendC::SetFlag<AscendC::HardEvent::V_S>(reserved);
  AscendC::WaitFlag<AscendC::HardEvent::V_S>(reserved);
  pipe.ReleaseEventID<AscendC::HardEvent::V_S>(reserved);
  EXPECT_EQ(reserved, EVENT_ID0);
}

}  // namespace

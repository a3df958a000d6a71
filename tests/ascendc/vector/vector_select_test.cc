// vector_select_test.cc — the compare-and-select instructions
// (normgrad_ascendc/vector/vector_select.h) through kernel_operator.h: Compare
// and Compares in every CMPMODE, count and level-0 forms, on every profile's
// types; Compare into the CMPMASK register with GetCmpMask/SetCmpMask;
// Select in its three modes with and without a selMask argument; GatherMask
// with built-in and user patterns in normal and counter mode; and the
// checks.
//
// The reference is written here from the documented semantics, sharing no
// code with src/: lane k of repeat r of an operand lies at element
//   (r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e) / e;
// Compare's result is a little-endian bit string, lane k of repeat r at bit
// r·lanes + k, 0 for a lane the mask leaves out (the mask is read on the 950
// profile only); Select takes src0 where the selection bit is 1 (mode 0:
// bit k of every repeat; modes 1, 2: bit r·lanes + k), and keeps dst where
// the mask leaves a lane out; GatherMask packs the kept elements.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::BinaryRepeatParams;
using AscendC::CMPMODE;
using AscendC::LocalTensor;
using AscendC::SELMODE;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::UnaryRepeatParams;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

constexpr uint32_t kBufferBytes = 8192;
constexpr CMPMODE kModes[] = {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ,
                              CMPMODE::LE, CMPMODE::GE, CMPMODE::NE};

// Four UB buffers of kBufferBytes; buffer 0 is dst by convention.
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].Get<T>();
  }
  uint8_t* Bytes(int i) {
    return reinterpret_cast<uint8_t*>(buf[i].Get<uint8_t>().GetPhyAddr());
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[4];
};

template <typename T>
T Make(double x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(x);
  } else {
    return T(static_cast<float>(x));
  }
}
template <typename T>
double Value(T x) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<double>(x);
  } else {
    return static_cast<double>(static_cast<float>(x));
  }
}

// The relation on doubles, IEEE style (NaN: only NE holds).
bool Rel(CMPMODE m, double a, double b) {
  switch (m) {
    case CMPMODE::LT:
      return a < b;
    case CMPMODE::GT:
      return a > b;
    case CMPMODE::EQ:
      return a == b;
    case CMPMODE::LE:
      return a <= b;
    case CMPMODE::GE:
      return a >= b;
    case CMPMODE::NE:
      return a != b;
  }
  return false;
}

// Small values with many ties, a NaN and signed zeros for floating types;
// written to buffer i.
template <typename T>
std::vector<double> Fill(Ub& ub, int i, uint32_t seed) {
  std::mt19937 rng(seed);
  const uint32_t n = kBufferBytes / sizeof(T);
  std::vector<double> v(n);
  const LocalTensor<T> t = ub.Get<T>(i);
  for (uint32_t k = 0; k < n; ++k) {
    double x = static_cast<double>(rng() % 7);
    if constexpr (std::is_signed_v<T> || !std::is_integral_v<T>) x -= 3;
    if constexpr (!std::is_integral_v<T>) {
      if (rng() % 16 == 0) x = std::numeric_limits<double>::quiet_NaN();
      if (x == 0 && rng() % 2 == 0) x = -0.0;
    }
    t.SetValue(k, Make<T>(x));
    v[k] = Value(t.GetValue(k));
  }
  return v;
}

uint32_t Element(uint32_t e, uint32_t r, uint32_t k, uint32_t blk,
                 uint32_t rep) {
  return (r * rep * 32 + (k / (32 / e)) * blk * 32 + (k % (32 / e)) * e) / e;
}

bool Bit(const uint8_t* bytes, uint64_t i) {
  return (bytes[i / 8] >> (i % 8) & 1) != 0;
}

// ---- Compare and Compares ----

template <typename T>
void CheckCompareCount(uint32_t count, uint32_t seed) {
  Ub ub;
  const auto x = Fill<T>(ub, 1, seed);
  const auto y = Fill<T>(ub, 2, seed + 1);
  const uint32_t unit = 256 / sizeof(T);
  const uint32_t compared = count / unit * unit;
  for (CMPMODE m : kModes) {
    std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
    AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<T>(1), ub.Get<T>(2), m, count);
    for (uint32_t i = 0; i < compared; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, x[i], y[i]))
          << normgrad_ascendc::TypeName<T>() << " mode " << static_cast<int>(m)
          << " lane " << i;
    }
    for (uint32_t b = compared / 8; b < compared / 8 + 64; ++b) {
      ASSERT_EQ(ub.Bytes(0)[b], 0xA5) << "byte " << b << " past the results";
    }
    // Compares against a value that occurs in src0.
    const double s = x[3];
    std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
    AscendC::Compares(ub.Get<uint8_t>(0), ub.Get<T>(1), Make<T>(s), m, count);
    for (uint32_t i = 0; i < compared; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, x[i], s))
          << "Compares " << normgrad_ascendc::TypeName<T>() << " lane " << i;
    }
  }
}

TEST(VectorSelect, CompareCountFormEveryModeA2) {
  CheckCompareCount<float>(1000, 1);  // 960 compared
  CheckCompareCount<half>(1000, 2);   // 896 compared
}

TEST(VectorSelect, CompareCountFormEveryType950) {
  ProfileScope profile(Profile::k950);
  CheckCompareCount<float>(512, 3);
  CheckCompareCount<half>(512, 4);
  CheckCompareCount<bfloat16_t>(512, 5);
  CheckCompareCount<int16_t>(512, 6);
  CheckCompareCount<uint16_t>(512, 7);
  CheckCompareCount<int32_t>(512, 8);
  CheckCompareCount<uint32_t>(512, 9);
  CheckCompareCount<int8_t>(1024, 10);
  CheckCompareCount<uint8_t>(1024, 11);
  CheckCompareCount<int64_t>(300, 12);
  CheckCompareCount<uint64_t>(300, 13);
}

TEST(VectorSelect, CompareIeeeEdgeCases) {
  Ub ub;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float a[8] = {nan, 1.0f, -0.0f, inf, -inf, nan, 1e-45f, 2.0f};
  const float b[8] = {1.0f, nan, 0.0f, inf, -inf, nan, 0.0f, 2.0f};
  const LocalTensor<float> s0 = ub.Get<float>(1), s1 = ub.Get<float>(2);
  for (uint32_t i = 0; i < 64; ++i) {
    s0.SetValue(i, a[i % 8]);
    s1.SetValue(i, b[i % 8]);
  }
  // Bits 0..7: LT, GT, EQ, LE, GE, NE in turn.
  const uint8_t expect[6] = {0x00, 0x40, 0x9C, 0x9C, 0xDC, 0x63};
  for (int m = 0; m < 6; ++m) {
    AscendC::Compare(ub.Get<uint8_t>(0), s0, s1, kModes[m], 64);
    EXPECT_EQ(ub.Bytes(0)[0], expect[m]) << "mode " << m;
  }
}

TEST(VectorSelect, CompareInt32IsEqOnlyOnA2) {
  Ub ub;
  const auto x = Fill<int32_t>(ub, 1, 20);
  const auto y = Fill<int32_t>(ub, 2, 21);
  AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<int32_t>(1), ub.Get<int32_t>(2),
                   CMPMODE::EQ, 64);
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(Bit(ub.Bytes(0), i), x[i] == y[i]);
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<int32_t>(1),
                         ub.Get<int32_t>(2), CMPMODE::LT, 64);
      },
      "Compare<int32_t>: cmpMode LT is not supported for int32_t on profile "
      "Atlas A2/A3 (int32_t compares by EQ only there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compares(ub.Get<uint8_t>(0), ub.Get<int32_t>(1), 3,
                          CMPMODE::GE, 64);
      },
      "Compares<int32_t>: cmpMode GE is not supported for int32_t"));
}

TEST(VectorSelect, CompareTakesNoInt32On310P) {
  ProfileScope profile(Profile::k310P);
  Ub ub310;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub310.Get<uint8_t>(0), ub310.Get<int32_t>(1),
                         ub310.Get<int32_t>(2), CMPMODE::EQ, 64);
      },
      "Compare<int32_t>: element type int32_t is not supported on profile"));
}

// Level 0: `repeats` repeats with strides under a mask; `reads_mask` says
// whether the profile applies it.
template <typename T>
void CheckCompareLevel0(bool reads_mask, uint32_t seed) {
  Ub ub;
  const auto x = Fill<T>(ub, 1, seed);
  const auto y = Fill<T>(ub, 2, seed + 1);
  const uint32_t e = sizeof(T), lanes = 256 / e;
  const uint64_t bits[2] = {0x33333333F0F0F00Full, 0x8000000000000001ull};
  const uint64_t lo = bits[0], hi = lanes > 64 ? bits[1] : 0;
  auto on = [&](uint32_t k) {
    return !reads_mask || (k < 64 ? (lo >> k & 1) : (hi >> (k - 64) & 1));
  };
  const uint32_t repeats = 3;
  for (CMPMODE m : kModes) {
    std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
    // src0: block stride 2, repeat stride 16; src1: contiguous blocks,
    // repeat stride 9; dst's strides are not read.
    AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<T>(1), ub.Get<T>(2), m, bits,
                     repeats, BinaryRepeatParams(5, 2, 1, 3, 16, 9));
    for (uint32_t r = 0; r < repeats; ++r) {
      for (uint32_t k = 0; k < lanes; ++k) {
        const bool want = on(k) && Rel(m, x[Element(e, r, k, 2, 16)],
                                       y[Element(e, r, k, 1, 9)]);
        ASSERT_EQ(Bit(ub.Bytes(0), uint64_t{r} * lanes + k), want)
            << "repeat " << r << " lane " << k;
      }
    }
    EXPECT_EQ(ub.Bytes(0)[repeats * lanes / 8], 0xA5);
    // The continuous form and Compares.
    std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
    const double s = 1;
    AscendC::Compares(ub.Get<uint8_t>(0), ub.Get<T>(1), Make<T>(s), m,
                      uint64_t{lanes / 2 + 3}, repeats,
                      UnaryRepeatParams(1, 1, 8, 8));
    for (uint32_t i = 0; i < repeats * lanes; ++i) {
      const bool sel = !reads_mask || i % lanes < lanes / 2 + 3;
      ASSERT_EQ(Bit(ub.Bytes(0), i), sel && Rel(m, x[i], s)) << "lane " << i;
    }
  }
}

TEST(VectorSelect, CompareLevel0IgnoresTheMaskOnA2And310P) {
  const uint64_t before[2] = {0x1234, 0x5678};
  AscendC::SetVectorMask<float>(before[1], before[0]);
  CheckCompareLevel0<float>(false, 30);
  CheckCompareLevel0<half>(false, 31);
  const auto& reg = normgrad_ascendc::CurrentCore().vector_mask();
  EXPECT_EQ(reg.low, before[0]);  // the mask register keeps its contents
  EXPECT_EQ(reg.high, before[1]);
  ProfileScope profile(Profile::k310P);
  CheckCompareLevel0<half>(false, 32);
  AscendC::ResetMask();
}

TEST(VectorSelect, CompareLevel0AppliesTheMaskOn950) {
  ProfileScope profile(Profile::k950);
  CheckCompareLevel0<float>(true, 40);
  CheckCompareLevel0<half>(true, 41);
  CheckCompareLevel0<int16_t>(true, 42);
  CheckCompareLevel0<uint32_t>(true, 43);
  CheckCompareLevel0<bfloat16_t>(true, 44);
  AscendC::ResetMask();
}

TEST(VectorSelect, CompareCounterModeOn950) {
  ProfileScope profile(Profile::k950);
  Ub ub;
  const auto x = Fill<float>(ub, 1, 50);
  const auto y = Fill<float>(ub, 2, 51);
  std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0, 100);
  AscendC::Compare<float, uint8_t, false>(
      ub.Get<uint8_t>(0), ub.Get<float>(1), ub.Get<float>(2), CMPMODE::LE,
      AscendC::MASK_PLACEHOLDER, 1, BinaryRepeatParams());
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  for (uint32_t i = 0; i < 128; ++i) {
    ASSERT_EQ(Bit(ub.Bytes(0), i), i < 100 && x[i] <= y[i]) << i;
  }
  EXPECT_EQ(ub.Bytes(0)[16], 0xA5);
}

TEST(VectorSelect, ComparesFlexibleScalarPositionOn950) {
  {
    Ub ub;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Compares(ub.Get<uint8_t>(0), 1.0f, ub.Get<float>(1),
                            CMPMODE::LT, 64);
        },
        "Compares<float>: Compares is not available on profile Atlas A2/A3"));
  }
  ProfileScope profile(Profile::k950);
  Ub ub;
  const auto x = Fill<float>(ub, 1, 60);
  for (CMPMODE m : kModes) {
    AscendC::Compares(ub.Get<uint8_t>(0), 0.0f, ub.Get<float>(1), m, 128);
    for (uint32_t i = 0; i < 128; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, 0.0, x[i])) << i;
    }
    uint64_t bits[2] = {0xFFFF0000FFFF0000ull, 0};
    std::memset(ub.Bytes(0), 0, 64);
    AscendC::Compares(ub.Get<uint8_t>(0), 1.0f, ub.Get<float>(1), m, bits, 2,
                      UnaryRepeatParams(1, 1, 8, 8));
    for (uint32_t i = 0; i < 128; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i),
                (bits[0] >> (i % 64) & 1) != 0 && Rel(m, 1.0, x[i]))
          << i;
    }
  }
  const auto xi = Fill<int8_t>(ub, 2, 61);
  AscendC::Compares(ub.Get<uint8_t>(0), int8_t{1}, ub.Get<int8_t>(2),
                    CMPMODE::GT, 256);
  for (uint32_t i = 0; i < 256; ++i) {
    ASSERT_EQ(Bit(ub.Bytes(0), i), 1 > xi[i]) << i;
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<float> small = ub.Get<float>(1);
        small.SetSize(32);
        AscendC::Compares(ub.Get<uint8_t>(0), 1.0f, small, CMPMODE::LT, 64);
      },
      "Compares<float>: src1 has 32 elements, fewer than count 64"));
}

// CompareScalar, Compares' earlier name: the same four forms, every mode,
// on A2 (the scalar second) and the 950 (either position, the mask read).
TEST(VectorSelect, CompareScalarEveryFormAndMode) {
  {
    Ub ub;
    const auto x = Fill<half>(ub, 1, 70);
    for (CMPMODE m : kModes) {
      const double s = x[5];
      std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
      AscendC::CompareScalar(ub.Get<uint8_t>(0), ub.Get<half>(1), Make<half>(s),
                             m, 300);  // 256 compared
      for (uint32_t i = 0; i < 256; ++i) {
        ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, x[i], s)) << "lane " << i;
      }
      EXPECT_EQ(ub.Bytes(0)[32], 0xA5);
      std::memset(ub.Bytes(0), 0xA5, kBufferBytes);
      AscendC::CompareScalar(ub.Get<uint8_t>(0), ub.Get<half>(1), Make<half>(s),
                             m, uint64_t{128}, 2,
                             UnaryRepeatParams(1, 1, 8, 8));
      for (uint32_t i = 0; i < 256; ++i) {
        ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, x[i], s)) << "lane " << i;
      }
    }
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::CompareScalar(ub.Get<uint8_t>(0), 1.0f, ub.Get<float>(1),
                                 CMPMODE::LT, 64);
        },
        "CompareScalar<float>: CompareScalar is not available on profile "
        "Atlas A2/A3"));
    EXPECT_TRUE(FailsWith(
        [&] {
          LocalTensor<float> small = ub.Get<float>(1);
          small.SetSize(32);
          AscendC::CompareScalar(ub.Get<uint8_t>(0), small, 1.0f, CMPMODE::LT,
                                 64);
        },
        "CompareScalar<float>: src0 has 32 elements, fewer than count 64"));
  }
  ProfileScope profile(Profile::k950);
  Ub ub;
  const auto x = Fill<float>(ub, 1, 71);
  for (CMPMODE m : kModes) {
    const uint64_t bits[2] = {0x00FF00FF00FF00FFull, 0};
    AscendC::CompareScalar(ub.Get<uint8_t>(0), ub.Get<float>(1), 0.5f, m, 128);
    for (uint32_t i = 0; i < 128; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, x[i], 0.5)) << i;
    }
    AscendC::CompareScalar(ub.Get<uint8_t>(0), -0.5f, ub.Get<float>(1), m, 64);
    for (uint32_t i = 0; i < 64; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), Rel(m, -0.5, x[i])) << i;
    }
    std::memset(ub.Bytes(0), 0, 64);
    AscendC::CompareScalar(ub.Get<uint8_t>(0), ub.Get<float>(1), 0.5f, m, bits,
                           2, UnaryRepeatParams(1, 1, 8, 8));
    for (uint32_t i = 0; i < 128; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i),
                (bits[0] >> (i % 64) & 1) != 0 && Rel(m, x[i], 0.5))
          << i;
    }
    std::memset(ub.Bytes(0), 0, 64);
    AscendC::CompareScalar(ub.Get<uint8_t>(0), 0.5f, ub.Get<float>(1), m,
                           uint64_t{40}, 2, UnaryRepeatParams(1, 1, 8, 8));
    for (uint32_t i = 0; i < 128; ++i) {
      ASSERT_EQ(Bit(ub.Bytes(0), i), i % 64 < 40 && Rel(m, 0.5, x[i])) << i;
    }
  }
}

TEST(VectorSelect, CompareChecks) {
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0)[8], ub.Get<float>(1),
                         ub.Get<float>(2), CMPMODE::LT, 64);
      },
      "Compare<float>: dst LocalTensor starts at UB offset"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<float>(1),
                         ub.Get<float>(2)[4], CMPMODE::LT, 64);
      },
      "Compare<float>: src1"));
  EXPECT_TRUE(FailsWith(
      [&] {
        const LocalTensor<float> s = ub.Get<float>(1);
        AscendC::Compare(ub.Get<uint8_t>(0), s, s, CMPMODE::LT, 4096);
      },
      "Compare<float>: src0 has 2048 elements, fewer than count 4096"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<float>(1), ub.Get<float>(2),
                         static_cast<CMPMODE>(9), 64);
      },
      "Compare<float>: cmpMode 9 is not a CMPMODE"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<float>(1), ub.Get<float>(2),
                         CMPMODE::LT, uint64_t{64}, 200, BinaryRepeatParams());
      },
      "Compare<float>: src0 has 2048 elements (8192 bytes); 200 repeats"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub.Get<uint8_t>(0), ub.Get<int16_t>(1),
                         ub.Get<int16_t>(2), CMPMODE::EQ, 128);
      },
      "Compare<int16_t>: element type int16_t is not supported on profile "
      "Atlas A2/A3"));
}

TEST(VectorSelect, CompareChecksOn950) {
  ProfileScope profile(Profile::k950);
  Ub ub950;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub950.Get<uint8_t>(0), ub950.Get<int8_t>(1),
                         ub950.Get<int8_t>(2), CMPMODE::EQ, uint64_t{128}, 1,
                         BinaryRepeatParams());
      },
      "Compare<int8_t>: element type int8_t takes only the count form on "
      "profile Ascend 950"));
  // Compare into the register takes half and float on every profile.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub950.Get<int16_t>(1), ub950.Get<int16_t>(2),
                         CMPMODE::EQ, uint64_t{128}, BinaryRepeatParams());
      },
      "Compare<int16_t>: element type int16_t is not supported on profile "
      "Ascend 950 (Compare takes half, float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Compare(ub950.Get<float>(1), ub950.Get<float>(2),
                         static_cast<CMPMODE>(6), uint64_t{64},
                         BinaryRepeatParams());
      },
      "Compare<float>: cmpMode 6 is not a CMPMODE"));
}

// ---- the CMPMASK register ----

TEST(VectorSelect, CompareIntoTheRegister) {
  Ub ub;
  const auto x = Fill<half>(ub, 1, 70);
  const auto y = Fill<half>(ub, 2, 71);
  const uint64_t bits[2] = {0xFFFFFFFF0000FFFFull, 0x00FF00FF00FF00FFull};
  for (CMPMODE m : kModes) {
    AscendC::Compare(ub.Get<half>(1), ub.Get<half>(2), m, bits,
                     BinaryRepeatParams(1, 1, 2, 8, 8, 8));
    std::memset(ub.Bytes(3), 0xA5, kBufferBytes);
    AscendC::GetCmpMask(ub.Get<uint8_t>(3));
    for (uint32_t k = 0; k < 128; ++k) {
      const bool sel = (bits[k / 64] >> (k % 64) & 1) != 0;
      ASSERT_EQ(Bit(ub.Bytes(3), k),
                sel && Rel(m, x[k], y[Element(2, 0, k, 2, 8)]))
          << k;
    }
    EXPECT_EQ(ub.Bytes(3)[16], 0xA5);  // 16 bytes written
  }
  // float: 64 lanes; the register's high 64 bits become 0.
  const auto xf = Fill<float>(ub, 1, 72);
  AscendC::Compare(ub.Get<float>(1), ub.Get<float>(1), CMPMODE::EQ,
                   uint64_t{64}, BinaryRepeatParams());
  AscendC::GetCmpMask(ub.Get<uint8_t>(3));
  for (uint32_t k = 0; k < 128; ++k) {
    ASSERT_EQ(Bit(ub.Bytes(3), k), k < 64 && !std::isnan(xf[k])) << k;
  }
}

TEST(VectorSelect, SetCmpMaskAndGetCmpMask) {
  Ub ub;
  for (uint32_t i = 0; i < 16; ++i)
    ub.Bytes(1)[i] = static_cast<uint8_t>(i * 17);
  AscendC::SetCmpMask(ub.Get<uint16_t>(1));
  std::memset(ub.Bytes(0), 0, 32);
  AscendC::GetCmpMask(ub.Get<uint32_t>(0));
  EXPECT_EQ(std::memcmp(ub.Bytes(0), ub.Bytes(1), 16), 0);
  // A block starts with the register zeroed.
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  AscendC::GetCmpMask(ub.Get<uint8_t>(0));
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(ub.Bytes(0)[i], 0);
  EXPECT_TRUE(
      FailsWith([&] { AscendC::GetCmpMask(ub.Get<uint8_t>(0)[8]); },
                "GetCmpMask<uint8_t>: dst LocalTensor starts at UB offset"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(0);
        small.SetSize(64);
        AscendC::GetCmpMask(small);
      },
      "GetCmpMask<uint8_t>: dst has 64 bytes, fewer than the 128 it must "
      "have"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::SetCmpMask(ub.Get<uint8_t>(0)[4]); },
                "SetCmpMask<uint8_t>: src LocalTensor starts at UB offset"));
  // 16-byte alignment is enough.
  AscendC::SetCmpMask(ub.Get<uint8_t>(1)[16]);
  AscendC::GetCmpMask(ub.Get<uint8_t>(0)[16]);
  EXPECT_EQ(std::memcmp(ub.Bytes(0) + 16, ub.Bytes(1) + 16, 16), 0);
}

// ---- Select ----

// Random selection bits into buffer 3.
std::vector<uint8_t> FillSelMask(Ub& ub, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(kBufferBytes);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  std::memcpy(ub.Bytes(3), v.data(), v.size());
  return v;
}

template <typename T>
std::vector<double> Snapshot(Ub& ub, int i) {
  std::vector<double> v(kBufferBytes / sizeof(T));
  const LocalTensor<T> t = ub.Get<T>(i);
  for (uint32_t k = 0; k < v.size(); ++k) v[k] = Value(t.GetValue(k));
  return v;
}

// Same bits (NaN equal to NaN).
bool Same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || a == b;
}

template <typename T>
void CheckSelectCount(SELMODE mode, uint32_t count, uint32_t seed) {
  Ub ub;
  const auto x = Fill<T>(ub, 1, seed);
  const auto y = Fill<T>(ub, 2, seed + 1);
  Fill<T>(ub, 0, seed + 2);
  const auto sel = FillSelMask(ub, seed + 3);
  const auto before = Snapshot<T>(ub, 0);
  const uint32_t lanes = normgrad_ascendc::LanesOf(sizeof(T));
  const double s = 2;
  if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
    AscendC::Select(ub.Get<T>(0), ub.Get<uint8_t>(3), ub.Get<T>(1), Make<T>(s),
                    mode, count);
  } else {
    AscendC::Select(ub.Get<T>(0), ub.Get<uint16_t>(3), ub.Get<T>(1),
                    ub.Get<T>(2), mode, count);
  }
  const auto after = Snapshot<T>(ub, 0);
  for (uint32_t i = 0; i < after.size(); ++i) {
    double want = before[i];
    if (i < count) {
      const uint64_t b = mode == SELMODE::VSEL_CMPMASK_SPR ? i % lanes : i;
      const double other = mode == SELMODE::VSEL_TENSOR_SCALAR_MODE ? s : y[i];
      want = Bit(sel.data(), b) ? x[i] : other;
    }
    ASSERT_TRUE(Same(after[i], want))
        << normgrad_ascendc::TypeName<T>() << " mode " << static_cast<int>(mode)
        << " element " << i << ": " << after[i] << " vs " << want;
  }
}

TEST(VectorSelect, SelectCountFormEveryMode) {
  uint32_t seed = 100;
  for (SELMODE m : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                    SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    CheckSelectCount<float>(m, 1000, seed += 5);
    CheckSelectCount<half>(m, 1000, seed += 5);
    ProfileScope profile(Profile::k310P);
    CheckSelectCount<half>(m, 300, seed += 5);
  }
}

TEST(VectorSelect, SelectCountFormEveryType950) {
  ProfileScope profile(Profile::k950);
  uint32_t seed = 200;
  for (SELMODE m : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                    SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    CheckSelectCount<bfloat16_t>(m, 700, seed += 5);
    CheckSelectCount<int16_t>(m, 700, seed += 5);
    CheckSelectCount<uint16_t>(m, 700, seed += 5);
    CheckSelectCount<int32_t>(m, 500, seed += 5);
    CheckSelectCount<uint32_t>(m, 500, seed += 5);
    CheckSelectCount<int8_t>(m, 1500, seed += 5);
    CheckSelectCount<uint8_t>(m, 1500, seed += 5);
    CheckSelectCount<int64_t>(m, 300, seed += 5);
    CheckSelectCount<uint64_t>(m, 300, seed += 5);
  }
}

// Level 0 with strides under a bit mask (or a continuous mask, or counter
// mode): the reference walks lanes and keeps dst where a lane is left out.
template <typename T>
void CheckSelectLevel0(SELMODE mode, int mask_kind, uint32_t seed) {
  Ub ub;
  const auto x = Fill<T>(ub, 1, seed);
  const auto y = Fill<T>(ub, 2, seed + 1);
  Fill<T>(ub, 0, seed + 2);
  const auto sel = FillSelMask(ub, seed + 3);
  const auto before = Snapshot<T>(ub, 0);
  const uint32_t e = sizeof(T), lanes = 256 / e;
  const uint64_t bits[2] = {0xF0F0F0F0FFFF0001ull, 0x7FFFFFFF00000000ull};
  const uint32_t first = lanes / 2 + 5;     // continuous mask
  const uint32_t counted = 2 * lanes + 17;  // counter mode
  const uint32_t repeats = 4;
  const BinaryRepeatParams rp(2, 1, 3, 17, 8, 25);
  const double s = 2;
  auto run = [&](const auto& mask) {
    constexpr bool kSet = !std::is_same_v<std::decay_t<decltype(mask)>, int>;
    if constexpr (kSet) {
      if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        AscendC::Select(ub.Get<T>(0), ub.Get<uint32_t>(3), ub.Get<T>(1),
                        Make<T>(s), mode, mask, repeats, rp);
      } else {
        AscendC::Select(ub.Get<T>(0), ub.Get<uint32_t>(3), ub.Get<T>(1),
                        ub.Get<T>(2), mode, mask, repeats, rp);
      }
    } else if (mode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
      AscendC::Select<T, uint8_t, false>(
          ub.Get<T>(0), ub.Get<uint8_t>(3), ub.Get<T>(1), Make<T>(s), mode,
          AscendC::MASK_PLACEHOLDER, repeats, rp);
    } else {
      AscendC::Select<T, uint8_t, false>(
          ub.Get<T>(0), ub.Get<uint8_t>(3), ub.Get<T>(1), ub.Get<T>(2), mode,
          AscendC::MASK_PLACEHOLDER, repeats, rp);
    }
  };
  uint32_t runs = repeats;
  if (mask_kind == 0) {
    run(bits);
  } else if (mask_kind == 1) {
    run(uint64_t{first});
  } else {
    AscendC::SetMaskCount();
    AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, counted);
    run(0);
    AscendC::SetMaskNorm();
    AscendC::ResetMask();
    runs = (counted + lanes - 1) / lanes;
  }
  std::vector<double> want = before;
  for (uint32_t r = 0; r < runs; ++r) {
    for (uint32_t k = 0; k < lanes; ++k) {
      bool on = false;
      if (mask_kind == 0) on = (bits[k / 64] >> (k % 64) & 1) != 0;
      if (mask_kind == 0 && lanes <= 64) on = (bits[0] >> k & 1) != 0;
      if (mask_kind == 1) on = k < first;
      if (mask_kind == 2) on = r * lanes + k < counted;
      if (!on) continue;
      const uint64_t b = mode == SELMODE::VSEL_CMPMASK_SPR ? k : r * lanes + k;
      const double other = mode == SELMODE::VSEL_TENSOR_SCALAR_MODE
                               ? s
                               : y[Element(e, r, k, 3, 25)];
      want[Element(e, r, k, 2, 17)] =
          Bit(sel.data(), b) ? x[Element(e, r, k, 1, 8)] : other;
    }
  }
  const auto after = Snapshot<T>(ub, 0);
  for (uint32_t i = 0; i < after.size(); ++i) {
    ASSERT_TRUE(Same(after[i], want[i]))
        << normgrad_ascendc::TypeName<T>() << " mode " << static_cast<int>(mode)
        << " mask kind " << mask_kind << " element " << i;
  }
}

TEST(VectorSelect, SelectLevel0EveryModeAndMask) {
  uint32_t seed = 300;
  for (SELMODE m : {SELMODE::VSEL_CMPMASK_SPR, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                    SELMODE::VSEL_TENSOR_TENSOR_MODE}) {
    for (int kind = 0; kind < 3; ++kind) {
      CheckSelectLevel0<float>(m, kind, seed += 5);
      CheckSelectLevel0<half>(m, kind, seed += 5);
      ProfileScope profile(Profile::k950);
      CheckSelectLevel0<int16_t>(m, kind, seed += 5);
      CheckSelectLevel0<uint32_t>(m, kind, seed += 5);
      CheckSelectLevel0<bfloat16_t>(m, kind, seed += 5);
    }
  }
}

TEST(VectorSelect, SelectFlexibleScalarPositionOn950) {
  ProfileScope profile(Profile::k950);
  Ub ub;
  const auto y = Fill<float>(ub, 2, 400);
  const auto sel = FillSelMask(ub, 401);
  AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), 7.0f, ub.Get<float>(2),
                  SELMODE::VSEL_TENSOR_SCALAR_MODE, 200);
  for (uint32_t i = 0; i < 200; ++i) {
    ASSERT_TRUE(
        Same(ub.Get<float>(0).GetValue(i), Bit(sel.data(), i) ? 7.0 : y[i]))
        << i;
  }
  Fill<float>(ub, 0, 402);
  const auto before = Snapshot<float>(ub, 0);
  AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), 7.0f, ub.Get<float>(2),
                  SELMODE::VSEL_TENSOR_SCALAR_MODE, uint64_t{10}, 2,
                  BinaryRepeatParams(1, 1, 2, 8, 8, 16));
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < 64; ++k) {
      const double want = k >= 10 ? before[r * 64 + k]
                          : Bit(sel.data(), r * 64 + k)
                              ? 7.0
                              : y[Element(4, r, k, 2, 16)];
      ASSERT_TRUE(Same(ub.Get<float>(0).GetValue(r * 64 + k), want)) << k;
    }
  }
}

TEST(VectorSelect, SelectByTheRegister) {
  Ub ub;
  const auto x = Fill<float>(ub, 1, 500);
  const auto y = Fill<float>(ub, 2, 501);
  // Mode 0: Compare into the register, then Select by it over 3 repeats.
  AscendC::Compare(ub.Get<float>(1), ub.Get<float>(2), CMPMODE::GT,
                   uint64_t{64}, BinaryRepeatParams());
  AscendC::Select<float, SELMODE::VSEL_CMPMASK_SPR>(
      ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 3,
      BinaryRepeatParams());
  for (uint32_t i = 0; i < 192; ++i) {
    const uint32_t k = i % 64;
    ASSERT_TRUE(Same(ub.Get<float>(0).GetValue(i), x[k] > y[k] ? x[i] : y[i]))
        << i;
  }
  // Mode 1: the scalar from SetCmpMask.
  const auto sel = FillSelMask(ub, 502);
  LocalTensor<float> scalar = ub.Get<float>(2)[1024];
  scalar.SetValue(0, -9.0f);
  AscendC::SetCmpMask(scalar);
  AscendC::SetVectorMask<float>(0, 0xFFFFull);
  AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), ub.Get<float>(1), 2,
                  BinaryRepeatParams());
  AscendC::ResetMask();
  for (uint32_t i = 0; i < 128; ++i) {
    if (i % 64 >= 16) continue;
    ASSERT_TRUE(
        Same(ub.Get<float>(0).GetValue(i), Bit(sel.data(), i) ? x[i] : -9.0))
        << i;
  }
  // Mode 2: selMask's address in the register, as GetPhyAddr gives it and as
  // a UB offset.
  Fill<float>(ub, 2, 503);
  const auto y2 = Snapshot<float>(ub, 2);
  LocalTensor<uint64_t> address = ub.Get<uint64_t>(0)[1000];
  for (int as_offset = 0; as_offset < 2; ++as_offset) {
    const uint64_t where =
        as_offset ? static_cast<uint64_t>(ub.Bytes(3) -
                                          normgrad_ascendc::CurrentCore().ub())
                  : reinterpret_cast<uint64_t>(ub.Get<uint8_t>(3).GetPhyAddr());
    address.SetValue(0, where);
    AscendC::SetCmpMask(address);
    AscendC::Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(
        ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 4,
        BinaryRepeatParams());
    for (uint32_t i = 0; i < 256; ++i) {
      ASSERT_TRUE(
          Same(ub.Get<float>(0).GetValue(i), Bit(sel.data(), i) ? x[i] : y2[i]))
          << i;
    }
  }
  address.SetValue(0, 12345678);
  AscendC::SetCmpMask(address);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(
            ub.Get<float>(0), ub.Get<float>(1), ub.Get<float>(2), 1,
            BinaryRepeatParams());
      },
      "Select<float>: the CMPMASK register holds 0xbc614e, which is not a UB "
      "address"));
}

TEST(VectorSelect, SelectChecks) {
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), ub.Get<float>(1),
                        ub.Get<float>(2), SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
      },
      "Select<float>: selMode VSEL_TENSOR_SCALAR_MODE takes a scalar src1; "
      "this form's src1 is a tensor"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), ub.Get<float>(1),
                        1.0f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
      },
      "Select<float>: selMode VSEL_TENSOR_TENSOR_MODE takes a tensor src1; "
      "this form's src1 is a scalar"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(3);
        small.SetSize(32);
        AscendC::Select(ub.Get<float>(0), small, ub.Get<float>(1),
                        ub.Get<float>(2), SELMODE::VSEL_TENSOR_TENSOR_MODE,
                        512);
      },
      "Select<float>: selMask has 32 bytes (256 bits); mode "
      "VSEL_TENSOR_TENSOR_MODE takes a bit per lane, 512 bits here"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<uint8_t> small = ub.Get<uint8_t>(3);
        small.SetSize(4);
        AscendC::Select(ub.Get<float>(0), small, ub.Get<float>(1),
                        ub.Get<float>(2), SELMODE::VSEL_CMPMASK_SPR, 512);
      },
      "Select<float>: selMask has 4 bytes; mode VSEL_CMPMASK_SPR reads its "
      "first 64 bits"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3)[16],
                        ub.Get<float>(1), ub.Get<float>(2),
                        SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
      },
      "Select<float>: selMask LocalTensor starts at UB offset"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select(ub.Get<int32_t>(0), ub.Get<uint8_t>(3),
                        ub.Get<int32_t>(1), ub.Get<int32_t>(2),
                        SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
      },
      "Select<int32_t>: element type int32_t is not supported on profile "
      "Atlas A2/A3 (Select takes half, float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Select(ub.Get<float>(0), ub.Get<uint8_t>(3), ub.Get<float>(1),
                        ub.Get<float>(2), SELMODE::VSEL_TENSOR_TENSOR_MODE,
                        uint64_t{64}, 33, BinaryRepeatParams(1, 1, 1, 8, 8, 8));
      },
      "Select<float>: dst has 2048 elements (8192 bytes); 33 repeats"));
}

// ---- GatherMask ----

// The reference: lanes in order, kept where the pattern bit is 1.
template <typename T>
void CheckGatherMask(const std::function<bool(uint32_t, uint64_t)>& keep,
                     uint32_t repeats,
                     const std::function<uint64_t(uint32_t)>& lanes_of,
                     uint32_t blk, uint32_t rep, const std::vector<double>& x,
                     const std::vector<double>& before,
                     const std::vector<double>& after, uint64_t rsvd) {
  std::vector<double> want = before;
  uint64_t n = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint64_t k = 0; k < lanes_of(r); ++k) {
      if (keep(r, k)) {
        want[n++] =
            x[Element(sizeof(T), r, static_cast<uint32_t>(k), blk, rep)];
      }
    }
  }
  ASSERT_EQ(rsvd, n);
  for (uint32_t i = 0; i < want.size(); ++i) {
    ASSERT_TRUE(Same(after[i], want[i])) << "element " << i;
  }
}

template <typename T>
void CheckBuiltinPatterns(uint8_t last, uint32_t seed) {
  for (uint8_t p = 1; p <= last; ++p) {
    Ub ub;
    const auto x = Fill<T>(ub, 1, seed + p);
    Fill<T>(ub, 0, seed + 10 + p);
    const auto before = Snapshot<T>(ub, 0);
    uint64_t rsvd = 0;
    AscendC::GatherMask(ub.Get<T>(0), ub.Get<T>(1), p, false, 0, {2, 3, 20, 0},
                        rsvd);
    const uint32_t lanes = 256 / sizeof(T);
    CheckGatherMask<T>(
        [&](uint32_t, uint64_t k) {
          switch (p) {
            case 1:
              return k % 2 == 0;
            case 2:
              return k % 2 == 1;
            case 7:
              return true;
            default:
              return k % 4 == uint64_t{p} - 3u;
          }
        },
        3, [&](uint32_t) { return uint64_t{lanes}; }, 2, 20, x, before,
        Snapshot<T>(ub, 0), rsvd);
  }
}

TEST(VectorSelect, GatherMaskBuiltinPatterns) {
  CheckBuiltinPatterns<float>(7, 600);
  CheckBuiltinPatterns<half>(7, 620);
  CheckBuiltinPatterns<uint16_t>(7, 640);
  CheckBuiltinPatterns<int32_t>(7, 660);
  CheckBuiltinPatterns<bfloat16_t>(7, 670);
  {
    ProfileScope profile(Profile::k310P);
    CheckBuiltinPatterns<half>(6, 680);
  }
  ProfileScope profile(Profile::k950);
  CheckBuiltinPatterns<int8_t>(7, 700);
  CheckBuiltinPatterns<uint8_t>(7, 720);
}

TEST(VectorSelect, GatherMaskDocumentedExampleInPlace) {
  Ub ub;
  const LocalTensor<float> src = ub.Get<float>(1);
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, static_cast<float>(i + 1));
  uint64_t rsvd = 0;
  AscendC::GatherMask(src, src, 2, false, 0, {1, 4, 8, 0}, rsvd);
  EXPECT_EQ(rsvd, 128u);
  for (uint32_t i = 0; i < 128; ++i) {
    ASSERT_EQ(src.GetValue(i), static_cast<float>(2 * i + 2)) << i;
  }
}

template <typename T, typename U>
void CheckUserPattern(bool counter, uint32_t mask, uint32_t seed) {
  Ub ub;
  const auto x = Fill<T>(ub, 1, seed);
  Fill<T>(ub, 0, seed + 1);
  const auto pattern = FillSelMask(ub, seed + 2);
  const auto before = Snapshot<T>(ub, 0);
  const uint32_t lanes = 256 / sizeof(T);
  const bool total =
      counter &&
      normgrad_ascendc::CurrentCore().profile().profile == Profile::k310P;
  const uint32_t repeats = total ? (mask + lanes - 1) / lanes : 3;
  // Counter mode changes to normal mode.
  if (counter) AscendC::SetMaskCount();
  uint64_t rsvd = 0;
  AscendC::GatherMask(ub.Get<T>(0), ub.Get<T>(1), ub.Get<U>(3), counter, mask,
                      {1, 3, 9, 2}, rsvd);
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().mode,
            AscendC::MaskMode::NORMAL);
  CheckGatherMask<T>(
      [&](uint32_t r, uint64_t k) {
        return Bit(pattern.data() + r * 2 * 32, k);
      },
      repeats,
      [&](uint32_t r) -> uint64_t {
        if (total) return std::min<uint64_t>(lanes, mask - uint64_t{r} * lanes);
        return counter ? mask : lanes;
      },
      1, 9, x, before, Snapshot<T>(ub, 0), rsvd);
}

TEST(VectorSelect, GatherMaskUserPatterns) {
  CheckUserPattern<float, uint32_t>(false, 0, 800);
  CheckUserPattern<half, uint16_t>(false, 0, 810);
  CheckUserPattern<half, uint16_t>(true, 70, 820);  // 70 lanes a repeat
  CheckUserPattern<float, uint32_t>(true, 40, 830);
  {
    ProfileScope profile(Profile::k310P);  // 150 lanes in all
    CheckUserPattern<half, uint16_t>(true, 150, 840);
    CheckUserPattern<float, uint32_t>(true, 150, 850);
  }
  ProfileScope profile(Profile::k950);
  CheckUserPattern<int8_t, uint8_t>(false, 0, 860);
  CheckUserPattern<uint8_t, uint8_t>(true, 100, 870);
}

TEST(VectorSelect, GatherMaskChecks) {
  Ub ub;
  uint64_t rsvd = 0;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GatherMask(ub.Get<float>(0), ub.Get<float>(1), 0, false, 0,
                            {1, 1, 8, 0}, rsvd);
      },
      "GatherMask<float>: src1Pattern 0 is out of range (1..7 on profile "
      "Atlas A2/A3)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GatherMask(ub.Get<float>(0), ub.Get<float>(1),
                            ub.Get<uint32_t>(3), true, 0, {1, 1, 8, 0}, rsvd);
      },
      "GatherMask<float>: mask 0 is out of range in counter mode"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<float> small = ub.Get<float>(0);
        small.SetSize(64);
        AscendC::GatherMask(small, ub.Get<float>(1), 7, false, 0, {1, 2, 8, 0},
                            rsvd);
      },
      "GatherMask<float>: dst has 64 elements, fewer than the 128 the pattern "
      "keeps"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GatherMask(ub.Get<float>(0), ub.Get<float>(1), 1, false, 0,
                            {1, 40, 8, 0}, rsvd);
      },
      "GatherMask<float>: src0 has 2048 elements (8192 bytes); 40 repeats"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LocalTensor<uint32_t> small = ub.Get<uint32_t>(3);
        small.SetSize(8);
        AscendC::GatherMask(ub.Get<float>(0), ub.Get<float>(1), small, false, 0,
                            {1, 2, 8, 1}, rsvd);
      },
      "GatherMask<float>: src1Pattern has 32 bytes; 2 repeats of 64 bits with "
      "src1RepeatStride 1 reach byte 40, past its end"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GatherMask(ub.Get<int8_t>(0), ub.Get<int8_t>(1), 1, false, 0,
                            {1, 1, 8, 0}, rsvd);
      },
      "GatherMask<int8_t>: element type int8_t is not supported on profile "
      "Atlas A2/A3"));
}

TEST(VectorSelect, GatherMaskChecksOn310P) {
  ProfileScope profile(Profile::k310P);
  Ub ub310;
  uint64_t rsvd = 0;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GatherMask(ub310.Get<float>(0), ub310.Get<float>(1), 7, false,
                            0, {1, 1, 8, 0}, rsvd);
      },
      "GatherMask<float>: src1Pattern 7 is out of range (1..6 on profile"));
}

}  // namespace

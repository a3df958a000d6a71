// binary_logic_test.cc — the Math APIs of the binary call shape through
// kernel_operator.h on the emulated core: the clamps (Clamp, ClampMax,
// ClampMin), the predicates (IsFinite, IsInf, IsNan), the bit operations
// (BitwiseAnd/Or/Xor/Not, Xor), the logical ones (LogicalAnd/Ands/Or/Ors/
// Not/Xor) and Where. Every half (and bfloat16_t) exhaustively, a bounded
// float sweep with the special values (±0, NaN with payloads, ±inf,
// subnormals) and the integer types' extremes, bit for bit against
// references written here from the pages; the pages' examples; every
// documented overload; every check's message; the scratch-size queries.
//
// The references share no code with src/. Random data uses a fixed seed,
// printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

uint32_t Seed() { return compat_test::Seed<20261205>(); }

// Up to eight tensors of any element types on one pipe, each rounded up to
// whole 32-byte blocks.
class Ub {
 public:
  template <typename T>
  LocalTensor<T> Make(uint32_t n) {
    const uint32_t bytes = (n * sizeof(T) + 31) / 32 * 32;
    pipe_.InitBuffer(bufs_[used_], bytes);
    return bufs_[used_++].Get<T>();
  }

 private:
  TPipe pipe_;
  TBuf<TPosition::VECCALC> bufs_[8];
  int used_ = 0;
};

template <typename T, typename V>
void Fill(const LocalTensor<T>& t, const std::vector<V>& values) {
  static_assert(sizeof(T) == sizeof(V), "bits of the tensor's type");
  std::memcpy(static_cast<void*>(t.GetPhyAddr()), values.data(),
              values.size() * sizeof(V));
}

template <typename V, typename T>
std::vector<V> Bits(const LocalTensor<T>& t, size_t n) {
  static_assert(sizeof(T) == sizeof(V), "bits of the tensor's type");
  std::vector<V> v(n);
  std::memcpy(v.data(), static_cast<const void*>(t.GetPhyAddr()),
              n * sizeof(V));
  return v;
}

// Runs f with stderr captured; returns what it printed.
template <typename F>
std::string Stderr(F&& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

// ---- Values of the 16-bit floats and float, from their bits
// -------------------

bool HalfIsNan(uint16_t h) { return (h & 0x7c00) == 0x7c00 && (h & 0x3ff); }
bool HalfIsInf(uint16_t h) { return (h & 0x7fff) == 0x7c00; }
float Bf16Value(uint16_t b) {
  return compat_test::BitsFloat(uint32_t{b} << 16);
}
bool Bf16IsNan(uint16_t b) { return (b & 0x7f80) == 0x7f80 && (b & 0x7f); }
bool Bf16IsInf(uint16_t b) { return (b & 0x7fff) == 0x7f80; }

std::vector<uint16_t> EveryHalfBits() {
  std::vector<uint16_t> v(65536);
  for (uint32_t i = 0; i < 65536; ++i) v[i] = static_cast<uint16_t>(i);
  return v;
}

// Floats worth naming (±0, ±inf, NaNs with payloads, subnormals, the
// extremes), then random bit patterns over every exponent.
std::vector<uint32_t> FloatSweep(size_t random_count) {
  std::vector<uint32_t> v = {
      0x00000000u, 0x80000000u, 0x7f800000u,     0xff800000u,
      0x7fc00000u, 0xffc00000u, 0x7f800001u,     0x7fa5a5a5u,
      0xffbfffffu, 0x00000001u, 0x807fffffu,     0x00800000u,
      0x7f7fffffu, 0xff7fffffu, FloatBits(1.0f), FloatBits(-2.5f)};
  std::mt19937 rng(Seed());
  for (size_t i = 0; i < random_count; ++i) v.push_back(rng());
  while (v.size() % 8 != 0) v.push_back(FloatBits(3.0f));
  return v;
}

// ---- Clamps -----------------------------------------------------------------

// The page's rule on values: NaN kept; min above max gives max; else held
// to [min, max]; comparisons with a NaN bound are false.
template <typename B>
B ClampRef(B x, B lo, B hi, double (*value)(B), bool (*is_nan)(B)) {
  if (is_nan(x)) return x;
  if (value(lo) > value(hi) || value(x) > value(hi)) return hi;
  if (value(lo) > value(x)) return lo;
  return x;
}

double HalfValue(uint16_t h) { return HalfBitsToFloat(h); }
bool HalfNan(uint16_t h) { return HalfIsNan(h); }
double FloatValue(uint32_t f) { return compat_test::BitsFloat(f); }
bool FloatNan(uint32_t f) { return std::isnan(compat_test::BitsFloat(f)); }

TEST(MathClamp, EveryHalfWithScalarAndTensorBounds) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint16_t> all = EveryHalfBits();
  // (min, max) as half bits: 30 and 60 (the page's), -0 and +0, min above
  // max, a NaN bound, the infinities.
  const std::pair<uint16_t, uint16_t> bounds[] = {{0x4f80, 0x5380},
                                                  {0x8000, 0x0000},
                                                  {0x4000, 0xbc00},
                                                  {0x7e00, 0x3c00},
                                                  {0xfc00, 0x7c00}};
  constexpr uint32_t kChunk = 16384;
  for (const auto& [lo, hi] : bounds) {
    for (uint32_t start = 0; start < 65536; start += kChunk) {
      Ub ub;
      auto src = ub.Make<half>(kChunk);
      auto dst = ub.Make<half>(kChunk);
      Fill(src, std::vector<uint16_t>(all.begin() + start,
                                      all.begin() + start + kChunk));
      half lo_h, hi_h;
      std::memcpy(static_cast<void*>(&lo_h), &lo, 2);
      std::memcpy(static_cast<void*>(&hi_h), &hi, 2);
      AscendC::Clamp(dst, src, lo_h, hi_h, kChunk);
      const auto out = Bits<uint16_t>(dst, kChunk);
      for (uint32_t i = 0; i < kChunk; ++i) {
        const uint16_t x = all[start + i];
        ASSERT_EQ(out[i], ClampRef<uint16_t>(x, lo, hi, HalfValue, HalfNan))
            << "Clamp(" << HalfBitsToFloat(x) << ", " << HalfBitsToFloat(lo)
            << ", " << HalfBitsToFloat(hi) << ")";
      }
    }
  }
}

TEST(MathClamp, FloatSweepWithTensorBounds) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint32_t> x = FloatSweep(8192);
  const uint32_t n = static_cast<uint32_t>(x.size());
  std::vector<uint32_t> lo(n), hi(n);
  std::mt19937 rng(Seed());
  for (uint32_t i = 0; i < n; ++i) {  // bounds from the sweep itself, mixed
    lo[i] = x[rng() % n];
    hi[i] = i % 7 == 0 ? lo[i] : x[rng() % n];
  }
  Ub ub;
  auto src = ub.Make<float>(n);
  auto min = ub.Make<float>(n);
  auto max = ub.Make<float>(n);
  auto dst = ub.Make<float>(n);
  Fill(src, x);
  Fill(min, lo);
  Fill(max, hi);
  AscendC::Clamp(dst, src, min, max, n);
  const auto out = Bits<uint32_t>(dst, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(out[i],
              ClampRef<uint32_t>(x[i], lo[i], hi[i], FloatValue, FloatNan))
        << i;
  }
}

template <typename T>
void ExpectIntegerClamp(T lo, T hi) {
  std::vector<T> in = {std::numeric_limits<T>::min(),
                       std::numeric_limits<T>::max(),
                       T(0),
                       T(1),
                       lo,
                       hi};
  std::mt19937_64 rng(Seed());
  while (in.size() < 64) in.push_back(static_cast<T>(rng()));
  Ub ub;
  auto src = ub.Make<T>(64);
  auto dst = ub.Make<T>(64);
  Fill(src, in);
  AscendC::Clamp(dst, src, lo, hi, 64);
  const auto out = Bits<T>(dst, 64);
  for (size_t i = 0; i < 64; ++i) {
    const T want = lo > hi ? hi : (in[i] > hi ? hi : (in[i] < lo ? lo : in[i]));
    ASSERT_EQ(out[i], want) << normgrad_ascendc::TypeName<T>() << " " << i;
  }
}

TEST(MathClamp, EveryIntegerType) {
  const ProfileScope scope(Profile::k950);
  ExpectIntegerClamp<int8_t>(-5, 100);
  ExpectIntegerClamp<uint8_t>(3, 250);
  ExpectIntegerClamp<int16_t>(-300, 300);
  ExpectIntegerClamp<uint16_t>(9, 8);  // min above max: every value max
  ExpectIntegerClamp<int32_t>(-70000, 70000);
  ExpectIntegerClamp<uint32_t>(1u << 31, 0xfffffff0u);
  ExpectIntegerClamp<int64_t>(INT64_MIN + 1, int64_t{1} << 40);
  ExpectIntegerClamp<uint64_t>(uint64_t{1} << 63, UINT64_MAX - 1);
}

TEST(MathClamp, EveryBfloat16) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint16_t> all = EveryHalfBits();
  constexpr uint32_t kChunk = 32768;
  const uint16_t lo = 0xc120, hi = 0x42c8;  // -10, 100
  for (uint32_t start = 0; start < 65536; start += kChunk) {
    Ub ub;
    auto src = ub.Make<bfloat16_t>(kChunk);
    auto dst = ub.Make<bfloat16_t>(kChunk);
    Fill(src, std::vector<uint16_t>(all.begin() + start,
                                    all.begin() + start + kChunk));
    AscendC::Clamp(dst, src, bfloat16_t(-10.0f), bfloat16_t(100.0f), kChunk);
    const auto out = Bits<uint16_t>(dst, kChunk);
    for (uint32_t i = 0; i < kChunk; ++i) {
      const uint16_t x = all[start + i];
      ASSERT_EQ(out[i], ClampRef<uint16_t>(
                            x, lo, hi,
                            [](uint16_t b) -> double { return Bf16Value(b); },
                            Bf16IsNan))
          << Bf16Value(x);
    }
  }
}

// ClampMax and ClampMin on every profile: every half and the float sweep
// against the scalar 2 (the page's) and -0.5, both overloads.
TEST(MathClamp, ClampMaxAndClampMinOnEveryProfile) {
  const std::vector<uint16_t> all = EveryHalfBits();
  const std::vector<uint32_t> floats = FloatSweep(4096);
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    for (const bool is_max : {true, false}) {
      for (const float s : {2.0f, -0.5f}) {
        constexpr uint32_t kChunk = 16384;
        const uint16_t s_bits = s == 2.0f ? 0x4000 : 0xb800;
        for (uint32_t start = 0; start < 65536; start += kChunk) {
          Ub ub;
          auto src = ub.Make<half>(kChunk);
          auto dst = ub.Make<half>(kChunk);
          auto tmp = ub.Make<uint8_t>(4096);
          Fill(src, std::vector<uint16_t>(all.begin() + start,
                                          all.begin() + start + kChunk));
          const bool shared = start % (2 * kChunk) == 0;
          if (is_max && shared)
            AscendC::ClampMax(dst, src, tmp, half(s), kChunk);
          if (is_max && !shared) AscendC::ClampMax(dst, src, half(s), kChunk);
          if (!is_max && shared)
            AscendC::ClampMin(dst, src, tmp, half(s), kChunk);
          if (!is_max && !shared) AscendC::ClampMin(dst, src, half(s), kChunk);
          const auto out = Bits<uint16_t>(dst, kChunk);
          for (uint32_t i = 0; i < kChunk; ++i) {
            const uint16_t x = all[start + i];
            const float v = HalfBitsToFloat(x);
            const bool past = is_max ? v > s : v < s;
            ASSERT_EQ(out[i], past ? s_bits : x)
                << (is_max ? "ClampMax(" : "ClampMin(") << v << ", " << s
                << ") on " << normgrad_ascendc::GetProfileInfo(p).key;
          }
        }
        const uint32_t n = static_cast<uint32_t>(floats.size());
        Ub ub;
        auto src = ub.Make<float>(n);
        auto dst = ub.Make<float>(n);
        auto tmp = ub.Make<uint8_t>(256);
        Fill(src, floats);
        if (is_max) {
          AscendC::ClampMax<float, false>(dst, src, tmp, s, n);
        } else {
          AscendC::ClampMin<float, false>(dst, src, tmp, s, n);
        }
        const auto out = Bits<uint32_t>(dst, n);
        for (uint32_t i = 0; i < n; ++i) {
          const float v = compat_test::BitsFloat(floats[i]);
          const bool past = is_max ? v > s : v < s;
          ASSERT_EQ(out[i], past ? FloatBits(s) : floats[i]) << v;
        }
      }
    }
  }
}

// The pages' examples: Clamp's (half, 30 and 60) and ClampMax's (0..127
// against 2).
TEST(MathClamp, PageExamples) {
  {
    const ProfileScope scope(Profile::k950);
    const std::vector<float> in = {13, 78, 35, 95, 83, 2, 2,  95, 51, 73,
                                   98, 3,  55, 32, 61, 2, 40, 26, 95, 63};
    const std::vector<float> printed = {30, 60, 35, 60, 60, 30, 30, 60, 51, 60,
                                        60, 30, 55, 32, 60, 30, 40, 30, 60, 60};
    Ub ub;
    auto src = ub.Make<half>(512);
    auto dst = ub.Make<half>(512);
    for (uint32_t i = 0; i < 512; ++i) src.SetValue(i, half(in[i % 20]));
    const half min = 30;
    const half max = 60;
    AscendC::Clamp(dst, src, min, max, 512);
    for (uint32_t i = 0; i < 512; ++i) {
      ASSERT_EQ(static_cast<float>(dst.GetValue(i)), printed[i % 20]) << i;
    }
  }
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto src = ub.Make<half>(128);
  auto dst = ub.Make<half>(128);
  auto tmp = ub.Make<uint8_t>(1024);
  for (uint32_t i = 0; i < 128; ++i) src.SetValue(i, half(float(i)));
  AscendC::ClampMax(dst, src, tmp, static_cast<half>(2), 128);
  for (uint32_t i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(dst.GetValue(i)), i < 2 ? float(i) : 2.0f);
  }
}

// ---- Predicates -------------------------------------------------------------

enum class Pred { kFinite, kInf, kNan };

bool HalfHolds(Pred p, uint16_t h) {
  switch (p) {
    case Pred::kFinite:
      return (h & 0x7c00) != 0x7c00;
    case Pred::kInf:
      return HalfIsInf(h);
    case Pred::kNan:
      return HalfIsNan(h);
  }
  return false;
}

// Every half into a bool dst and a half dst (1 or 0), with each overload.
TEST(MathPredicates, EveryHalfToBoolAndToHalf) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint16_t> all = EveryHalfBits();
  constexpr uint32_t kChunk = 16384;
  for (const Pred p : {Pred::kFinite, Pred::kInf, Pred::kNan}) {
    for (uint32_t start = 0; start < 65536; start += kChunk) {
      Ub ub;
      auto src = ub.Make<half>(kChunk);
      auto flags = ub.Make<bool>(kChunk);
      auto ones = ub.Make<half>(kChunk);
      auto tmp = ub.Make<uint8_t>(1024);
      Fill(src, std::vector<uint16_t>(all.begin() + start,
                                      all.begin() + start + kChunk));
      if (p == Pred::kFinite) {
        AscendC::IsFinite(flags, src, kChunk);
        AscendC::IsFinite(ones, src, kChunk);
      } else if (p == Pred::kInf) {
        AscendC::IsInf(flags, src, tmp, kChunk);
        AscendC::IsInf(ones, src, kChunk);
      } else {
        AscendC::IsNan(flags, src, kChunk);
        AscendC::IsNan(ones, src, tmp, kChunk);
      }
      const auto b = Bits<uint8_t>(flags, kChunk);
      const auto h = Bits<uint16_t>(ones, kChunk);
      for (uint32_t i = 0; i < kChunk; ++i) {
        const bool holds = HalfHolds(p, all[start + i]);
        ASSERT_EQ(b[i], holds ? 1 : 0) << int(p) << " " << all[start + i];
        ASSERT_EQ(h[i], holds ? 0x3c00 : 0x0000) << int(p);
      }
    }
  }
}

TEST(MathPredicates, FloatSweepAndEveryBfloat16) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint32_t> x = FloatSweep(8192);
  const uint32_t n = static_cast<uint32_t>(x.size());
  {
    Ub ub;
    auto src = ub.Make<float>(n);
    auto finite = ub.Make<bool>(n);
    auto inf = ub.Make<float>(n);
    auto nan = ub.Make<bool>(n);
    Fill(src, x);
    AscendC::IsFinite(finite, src, n);
    AscendC::IsInf<AscendC::DEFAULT_IS_INF_CONFIG>(inf, src, n);
    AscendC::IsNan(nan, src, n);
    const auto f = Bits<uint8_t>(finite, n);
    const auto i1 = Bits<uint32_t>(inf, n);
    const auto nn = Bits<uint8_t>(nan, n);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t e = x[i] & 0x7f800000u, m = x[i] & 0x7fffffu;
      ASSERT_EQ(f[i], e != 0x7f800000u ? 1 : 0) << std::hex << x[i];
      ASSERT_EQ(i1[i], e == 0x7f800000u && m == 0 ? FloatBits(1.0f) : 0u);
      ASSERT_EQ(nn[i], e == 0x7f800000u && m != 0 ? 1 : 0);
    }
  }
  const std::vector<uint16_t> all = EveryHalfBits();
  for (uint32_t start = 0; start < 65536; start += 32768) {
    Ub ub;
    auto src = ub.Make<bfloat16_t>(32768);
    auto ones = ub.Make<bfloat16_t>(32768);
    Fill(src, std::vector<uint16_t>(all.begin() + start,
                                    all.begin() + start + 32768));
    AscendC::IsFinite(ones, src, 32768);
    const auto out = Bits<uint16_t>(ones, 32768);
    for (uint32_t i = 0; i < 32768; ++i) {
      const uint16_t b = all[start + i];
      ASSERT_EQ(out[i], Bf16IsNan(b) || Bf16IsInf(b) ? 0x0000 : 0x3f80) << b;
    }
  }
}

// ---- Bit operations ---------------------------------------------------------

// Every int16_t against random partners, for And, Or, Xor, Not and Xor.
TEST(MathBitwise, EveryInt16) {
  std::vector<uint16_t> a = EveryHalfBits(), b(65536);
  std::mt19937 rng(Seed());
  for (auto& v : b) v = static_cast<uint16_t>(rng());
  constexpr uint32_t kChunk = 16384;
  for (uint32_t start = 0; start < 65536; start += kChunk) {
    std::vector<uint16_t> o_xor;
    {
      const ProfileScope scope(Profile::k950);
      Ub ub;
      auto s0 = ub.Make<int16_t>(kChunk);
      auto s1 = ub.Make<int16_t>(kChunk);
      auto d_and = ub.Make<int16_t>(kChunk);
      auto d_or = ub.Make<int16_t>(kChunk);
      auto d_xor = ub.Make<int16_t>(kChunk);
      auto d_not = ub.Make<int16_t>(kChunk);
      Fill(s0, std::vector<uint16_t>(a.begin() + start,
                                     a.begin() + start + kChunk));
      Fill(s1, std::vector<uint16_t>(b.begin() + start,
                                     b.begin() + start + kChunk));
      AscendC::BitwiseAnd(d_and, s0, s1, kChunk);
      AscendC::BitwiseOr(d_or, s0, s1, kChunk);
      AscendC::BitwiseXor(d_xor, s0, s1, kChunk);
      AscendC::BitwiseNot(d_not, s0, kChunk);
      const auto o_and = Bits<uint16_t>(d_and, kChunk);
      const auto o_or = Bits<uint16_t>(d_or, kChunk);
      o_xor = Bits<uint16_t>(d_xor, kChunk);
      const auto o_not = Bits<uint16_t>(d_not, kChunk);
      for (uint32_t i = 0; i < kChunk; ++i) {
        const uint16_t x = a[start + i], y = b[start + i];
        // Bit by bit, from the truth tables.
        uint16_t want_and = 0, want_or = 0, want_xor = 0, want_not = 0;
        for (int k = 0; k < 16; ++k) {
          const int p = (x >> k) & 1, q = (y >> k) & 1;
          want_and |= uint16_t((p && q) << k);
          want_or |= uint16_t((p || q) << k);
          want_xor |= uint16_t((p != q) << k);
          want_not |= uint16_t((!p) << k);
        }
        ASSERT_EQ(o_and[i], want_and);
        ASSERT_EQ(o_or[i], want_or);
        ASSERT_EQ(o_xor[i], want_xor);
        ASSERT_EQ(o_not[i], want_not);
      }
    }
    // Xor (every profile) on the same data, on A2.
    const ProfileScope a2(Profile::kA2);
    Ub ub2;
    auto x0 = ub2.Make<int16_t>(kChunk);
    auto x1 = ub2.Make<int16_t>(kChunk);
    auto xd = ub2.Make<int16_t>(kChunk);
    Fill(x0,
         std::vector<uint16_t>(a.begin() + start, a.begin() + start + kChunk));
    Fill(x1,
         std::vector<uint16_t>(b.begin() + start, b.begin() + start + kChunk));
    AscendC::Xor(xd, x0, x1, kChunk);
    ASSERT_EQ(Bits<uint16_t>(xd, kChunk), o_xor);
  }
}

template <typename T>
void ExpectBitwiseOn() {
  std::vector<T> x = {std::numeric_limits<T>::min(),
                      std::numeric_limits<T>::max(), T(0), T(-1)};
  std::vector<T> y = {T(-1), T(0), std::numeric_limits<T>::max(), T(5)};
  std::mt19937_64 rng(Seed());
  while (x.size() < 64) {
    x.push_back(static_cast<T>(rng()));
    y.push_back(static_cast<T>(rng()));
  }
  Ub ub;
  auto s0 = ub.Make<T>(64);
  auto s1 = ub.Make<T>(64);
  auto d = ub.Make<T>(64);
  Fill(s0, x);
  Fill(s1, y);
  static constexpr AscendC::BitwiseAndConfig kAnd = {false};
  AscendC::BitwiseAnd<kAnd>(d, s0, s1, 64);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), T(x[i] & y[i]));
  AscendC::BitwiseOr(d, s0, s1, 64);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), T(x[i] | y[i]));
  AscendC::BitwiseXor(d, s0, s1, 64);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), T(x[i] ^ y[i]));
  AscendC::BitwiseNot(d, s0, 64);
  for (size_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), T(~x[i]));
}

TEST(MathBitwise, EveryIntegerType) {
  const ProfileScope scope(Profile::k950);
  ExpectBitwiseOn<int8_t>();
  ExpectBitwiseOn<uint8_t>();
  ExpectBitwiseOn<uint16_t>();
  ExpectBitwiseOn<int32_t>();
  ExpectBitwiseOn<uint32_t>();
  ExpectBitwiseOn<int64_t>();
  ExpectBitwiseOn<uint64_t>();
}

// Xor's page example, with each of its four overloads (uint16_t). The
// page prints 10 for 13 ^ 6, which is 11 (0b1101 ^ 0b0110 = 0b1011): the
// operation is followed (docs/decisions.md).
TEST(MathBitwise, XorPageExampleEveryOverload) {
  const ProfileScope scope(Profile::k310P);
  const std::vector<uint16_t> a = {2, 3, 5, 7, 11, 13, 17, 19,
                                   2, 3, 5, 7, 11, 13, 17, 19};
  const std::vector<uint16_t> b = {1, 2, 3, 4, 5, 6, 7, 8,
                                   1, 2, 3, 4, 5, 6, 7, 8};
  const std::vector<uint16_t> printed = {3, 1, 6, 3, 14, 11, 22, 27};
  for (int form = 0; form < 4; ++form) {
    Ub ub;
    auto s0 = ub.Make<uint16_t>(16);
    auto s1 = ub.Make<uint16_t>(16);
    auto d = ub.Make<uint16_t>(16);
    auto tmp = ub.Make<uint8_t>(512);
    Fill(s0, a);
    Fill(s1, b);
    if (form == 0) AscendC::Xor(d, s0, s1, tmp, 16);
    if (form == 1) AscendC::Xor(d, s0, s1, 16);
    if (form == 2) AscendC::Xor(d, s0, s1, tmp);
    if (form == 3) AscendC::Xor(d, s0, s1);
    for (uint32_t i = 0; i < 16; ++i) {
      EXPECT_EQ(d.GetValue(i), printed[i % 8]) << form << " " << i;
    }
  }
}

// ---- Logical operations -----------------------------------------------------

// Every half is a truth value (±0 false, NaN true), against a partner of
// every kind: LogicalAnd/Or/Xor with a tensor, the -s forms with a scalar
// on either side and with a single point of a tensor, and LogicalNot.
TEST(MathLogical, EveryHalfAsATruthValue) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint16_t> all = EveryHalfBits();
  std::vector<uint16_t> other(65536);
  std::mt19937 rng(Seed());
  for (auto& v : other) v = rng() % 3 == 0 ? 0x8000 : uint16_t(rng());
  constexpr uint32_t kChunk = 8192;
  for (uint32_t start = 0; start < 65536; start += kChunk) {
    Ub ub;
    auto s0 = ub.Make<half>(kChunk);
    auto s1 = ub.Make<half>(kChunk);
    auto d = ub.Make<bool>(kChunk);
    Fill(s0, std::vector<uint16_t>(all.begin() + start,
                                   all.begin() + start + kChunk));
    Fill(s1, std::vector<uint16_t>(other.begin() + start,
                                   other.begin() + start + kChunk));
    auto truth = [](uint16_t h) { return (h & 0x7fff) != 0; };
    auto expect = [&](const char* what, auto op) {
      const auto out = Bits<uint8_t>(d, kChunk);
      for (uint32_t i = 0; i < kChunk; ++i) {
        const bool want = op(truth(all[start + i]), truth(other[start + i]),
                             truth(other[start]));
        ASSERT_EQ(out[i], want ? 1 : 0) << what << " " << all[start + i];
      }
    };
    AscendC::LogicalAnd(d, s0, s1, kChunk);
    expect("And", [](bool x, bool y, bool) { return x && y; });
    AscendC::LogicalOr(d, s0, s1, kChunk);
    expect("Or", [](bool x, bool y, bool) { return x || y; });
    AscendC::LogicalXor(d, s0, s1, kChunk);
    expect("Xor", [](bool x, bool y, bool) { return x != y; });
    AscendC::LogicalNot(d, s0, kChunk);
    expect("Not", [](bool x, bool, bool) { return !x; });
    // src1's element 0 as the scalar (the default index 1).
    AscendC::LogicalAnds(d, s0, s1, kChunk);
    expect("Ands", [](bool x, bool, bool s) { return x && s; });
    AscendC::LogicalOrs(d, s0, s1, kChunk);
    expect("Ors", [](bool x, bool, bool s) { return x || s; });
    // A scalar value, first and last.
    AscendC::LogicalAnds(d, half(0.0f), s0, kChunk);
    expect("Ands(0, x)", [](bool, bool, bool) { return false; });
    AscendC::LogicalOrs(d, s0, -0.0f, kChunk);
    expect("Ors(x, -0)", [](bool x, bool, bool) { return x; });
  }
}

// A scalar taken from src0's element 0 (scalarTensorIndex 0), integer and
// bool sources, and the page's example.
TEST(MathLogical, ScalarIndexTypesAndPageExample) {
  const ProfileScope scope(Profile::k950);
  const std::vector<float> in = {1,  2,  0, -1, -2, 0, 3,  4,  0,
                                 -3, -4, 0, 5,  6,  0, -5, -6, 0};
  Ub ub;
  auto vec = ub.Make<half>(512);
  auto scalar = ub.Make<half>(16);
  auto d = ub.Make<bool>(512);
  for (uint32_t i = 0; i < 512; ++i) vec.SetValue(i, half(in[i % 18]));
  scalar.SetValue(0, half(3.0f));
  AscendC::LogicalAnds(d, vec, scalar, 512);  // scalar last
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(d.GetValue(i), in[i % 18] != 0) << i;
  }
  static constexpr AscendC::LogicalAndsConfig kFirst = {false, 0};
  AscendC::LogicalAnds<kFirst>(d, scalar, vec, 512);  // scalar first
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(d.GetValue(i), in[i % 18] != 0) << i;
  }
  scalar.SetValue(0, half(0.0f));
  static constexpr AscendC::LogicalOrsConfig kOrsFirst = {false, 0};
  AscendC::LogicalOrs<kOrsFirst>(d, scalar, vec, 512);
  for (uint32_t i = 0; i < 512; ++i) ASSERT_EQ(d.GetValue(i), in[i % 18] != 0);

  auto ints = ub.Make<uint64_t>(64);
  auto flags = ub.Make<bool>(64);
  for (uint32_t i = 0; i < 64; ++i) {
    ints.SetValue(i, i % 3 == 0 ? 0 : uint64_t{1} << (i % 64));
    flags.SetValue(i, i % 2 == 0);
  }
  AscendC::LogicalXor(d, flags, flags, 64);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_FALSE(d.GetValue(i));
  AscendC::LogicalOrs(d, ints, false, 64);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), i % 3 != 0) << i;
  AscendC::LogicalNot(d, ints, 64);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(d.GetValue(i), i % 3 == 0) << i;
}

// ---- Where ------------------------------------------------------------------

TEST(MathWhere, PageExampleScalarsAndPayloads) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto s0 = ub.Make<half>(512);
  auto s1 = ub.Make<half>(512);
  auto cond = ub.Make<bool>(512);
  auto d = ub.Make<half>(512);
  for (uint32_t i = 0; i < 512; ++i) {
    s0.SetValue(i, half(float(i + 1)));
    s1.SetValue(i, half(-float(i + 1)));
    cond.SetValue(i, i % 2 == 1);
  }
  AscendC::Where(d, s0, s1, cond, 512);
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(float(d.GetValue(i)), i % 2 ? float(i + 1) : -float(i + 1));
  }
  AscendC::Where(d, half(7.0f), s1, cond, 512);
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(float(d.GetValue(i)), i % 2 ? 7.0f : -float(i + 1));
  }
  // Bits are copied: NaN payloads and -0 survive; int64_t and bool too.
  auto f0 = ub.Make<float>(64);
  auto fd = ub.Make<float>(64);
  std::vector<uint32_t> bits(64);
  for (uint32_t i = 0; i < 64; ++i) bits[i] = 0x7fa00000u + i;
  bits[1] = 0x80000000u;
  Fill(f0, bits);
  AscendC::Where(fd, f0, 1.5f, cond, 64);
  const auto got = Bits<uint32_t>(fd, 64);
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(got[i], i % 2 ? bits[i] : FloatBits(1.5f)) << i;
  }
  auto id = ub.Make<int64_t>(64);
  AscendC::Where(id, INT64_MIN, INT64_MAX, cond, 64);
  for (uint32_t i = 0; i < 64; ++i) {
    ASSERT_EQ(id.GetValue(i), i % 2 ? INT64_MIN : INT64_MAX);
  }
}

// ---- Fma, Fmod, Hypot: against float64 --------------------------------------

// |got - ref| in units in the last place of a type with `mantissa_bits`
// fraction bits and smallest normal exponent `min_exp`, at ref.
double UlpsOff(double got, double ref, int mantissa_bits, int min_exp) {
  int e = 0;
  std::frexp(ref, &e);  // |ref| in [2^(e-1), 2^e)
  const int exponent = std::max(e - 1, min_exp);
  return std::fabs(got - ref) / std::ldexp(1.0, exponent - mantissa_bits);
}

// The bounds of docs/numerics.md ("Math: binary"): one rounding to float,
// and for half and bfloat16_t a second one to the type.
constexpr double kFloatBound = 0.5 + 1.0 / (1 << 20);
constexpr double kHalfBound = 0.5 + 1.0 / (1 << 13);

enum class Rounding { kFma, kFmod, kHypot };

double Reference(Rounding op, double x, double y, double z) {
  switch (op) {
    case Rounding::kFma:
      return x * y + z;  // the product of halves or floats is exact here
    case Rounding::kFmod:
      return std::fmod(x, y);
    case Rounding::kHypot:
      if (std::isinf(x) || std::isinf(y)) return INFINITY;
      return std::sqrt(x * x + y * y);
  }
  return NAN;
}

// Every half as src0 against random halves (and, for Fma, src2): results
// within kHalfBound ulps, Fmod's exactly; NaN where the reference is NaN,
// ±inf past the range.
void ExpectEveryHalf(Rounding op, const char* label) {
  const std::vector<uint16_t> all = EveryHalfBits();
  std::mt19937 rng(Seed());
  std::vector<uint16_t> ys(65536), zs(65536);
  for (auto& v : ys) v = static_cast<uint16_t>(rng());
  for (auto& v : zs) v = static_cast<uint16_t>(rng());
  double worst = 0;
  constexpr uint32_t kChunk = 8192;
  for (uint32_t start = 0; start < 65536; start += kChunk) {
    Ub ub;
    auto s0 = ub.Make<half>(kChunk);
    auto s1 = ub.Make<half>(kChunk);
    auto s2 = ub.Make<half>(kChunk);
    auto d = ub.Make<half>(kChunk);
    auto tmp = ub.Make<uint8_t>(kChunk * 4);
    auto part = [&](const std::vector<uint16_t>& v) {
      return std::vector<uint16_t>(v.begin() + start,
                                   v.begin() + start + kChunk);
    };
    Fill(s0, part(all));
    Fill(s1, part(ys));
    Fill(s2, part(zs));
    if (op == Rounding::kFma) AscendC::Fma(d, s0, s1, s2, tmp, kChunk);
    if (op == Rounding::kFmod) AscendC::Fmod(d, s0, s1, tmp, kChunk);
    if (op == Rounding::kHypot) AscendC::Hypot(d, s0, s1, kChunk);
    const auto out = Bits<uint16_t>(d, kChunk);
    for (uint32_t i = 0; i < kChunk; ++i) {
      const double x = HalfBitsToFloat(all[start + i]);
      const double y = HalfBitsToFloat(ys[start + i]);
      const double z = HalfBitsToFloat(zs[start + i]);
      const double ref = Reference(op, x, y, z);
      const double got = HalfBitsToFloat(out[i]);
      auto where = [&] {
        return std::string(label) + "(" + std::to_string(x) + ", " +
               std::to_string(y) + ", " + std::to_string(z) + ")";
      };
      if (std::isnan(ref)) {
        ASSERT_TRUE(std::isnan(got)) << where() << " = " << got;
        continue;
      }
      if (std::fabs(ref) >= 65520.0) {  // rounds past 65504
        ASSERT_EQ(got, std::copysign(INFINITY, ref)) << where();
        continue;
      }
      const double ulps = UlpsOff(got, ref, 10, -14);
      if (op == Rounding::kFmod) {
        ASSERT_EQ(got, ref) << where();  // a remainder is a value of T
        ASSERT_EQ(std::signbit(got), std::signbit(ref)) << where();
      }
      ASSERT_LE(ulps, kHalfBound) << where() << " = " << got << ", not " << ref;
      worst = std::max(worst, ulps);
    }
  }
  ASSERT_TRUE(WithinBound(std::string(label) + "<half> (ulps)", worst, 0.0,
                          op == Rounding::kFmod ? 0.0 : kHalfBound));
}

TEST(MathRounding2, EveryHalf) {
  const ProfileScope scope(Profile::k950);
  ExpectEveryHalf(Rounding::kFma, "Fma");
  ExpectEveryHalf(Rounding::kFmod, "Fmod");
  ExpectEveryHalf(Rounding::kHypot, "Hypot");
  const ProfileScope a2(Profile::kA2);
  ExpectEveryHalf(Rounding::kFmod, "Fmod");
}

// The float sweep (special values, then random bits) against float64.
TEST(MathRounding2, FloatSweep) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint32_t> x = FloatSweep(8192);
  const uint32_t n = static_cast<uint32_t>(x.size());
  std::vector<uint32_t> y(n), z(n);
  std::mt19937 rng(Seed() + 1);
  for (uint32_t i = 0; i < n; ++i) {
    y[i] = x[rng() % n];
    // Fma's addend near the product, so that it cancels.
    const float p = compat_test::BitsFloat(x[i]) * compat_test::BitsFloat(y[i]);
    z[i] = i % 3 == 0 ? FloatBits(-p * (1.0f + (rng() % 64) * 1e-7f))
                      : static_cast<uint32_t>(rng());
  }
  Ub ub;
  auto s0 = ub.Make<float>(n);
  auto s1 = ub.Make<float>(n);
  auto s2 = ub.Make<float>(n);
  auto d = ub.Make<float>(n);
  Fill(s0, x);
  Fill(s1, y);
  Fill(s2, z);
  for (const Rounding op :
       {Rounding::kFma, Rounding::kFmod, Rounding::kHypot}) {
    const char* label = op == Rounding::kFma    ? "Fma"
                        : op == Rounding::kFmod ? "Fmod"
                                                : "Hypot";
    if (op == Rounding::kFma) AscendC::Fma(d, s0, s1, s2, n);
    if (op == Rounding::kFmod) {
      static constexpr AscendC::FmodConfig kPrecise = {
          AscendC::FmodAlgo::ITERATION_COMPENSATION, 4};
      AscendC::Fmod<float, false, kPrecise>(d, s0, s1, n);
    }
    if (op == Rounding::kHypot) AscendC::Hypot(d, s0, s1);
    const auto out = Bits<uint32_t>(d, n);
    double worst = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const double a = compat_test::BitsFloat(x[i]);
      const double b = compat_test::BitsFloat(y[i]);
      const double c = compat_test::BitsFloat(z[i]);
      const double ref = Reference(op, a, b, c);
      const double got = compat_test::BitsFloat(out[i]);
      if (std::isnan(ref)) {
        ASSERT_TRUE(std::isnan(got)) << label << " " << a << " " << b;
        continue;
      }
      if (std::fabs(ref) >= 3.4028235677973366e38) {
        ASSERT_EQ(got, std::copysign(INFINITY, ref)) << label << " " << a;
        continue;
      }
      const double ulps = UlpsOff(got, ref, 23, -126);
      if (op == Rounding::kFmod) {
        ASSERT_EQ(got, ref) << label << "(" << a << ", " << b << ")";
      }
      ASSERT_LE(ulps, kFloatBound) << label << "(" << a << ", " << b << ", "
                                   << c << ") = " << got << ", not " << ref;
      worst = std::max(worst, ulps);
    }
    ASSERT_TRUE(WithinBound(std::string(label) + "<float> (ulps)", worst, 0.0,
                            op == Rounding::kFmod ? 0.0 : kFloatBound));
  }
}

TEST(MathRounding2, HypotEveryBfloat16AndSpecialValues) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint16_t> all = EveryHalfBits();
  std::mt19937 rng(Seed());
  double worst = 0;
  for (uint32_t start = 0; start < 65536; start += 16384) {
    Ub ub;
    auto s0 = ub.Make<bfloat16_t>(16384);
    auto s1 = ub.Make<bfloat16_t>(16384);
    auto d = ub.Make<bfloat16_t>(16384);
    std::vector<uint16_t> ys(16384);
    for (auto& v : ys) v = static_cast<uint16_t>(rng());
    Fill(s0, std::vector<uint16_t>(all.begin() + start,
                                   all.begin() + start + 16384));
    Fill(s1, ys);
    AscendC::Hypot(d, s0, s1, 16384);
    const auto out = Bits<uint16_t>(d, 16384);
    for (uint32_t i = 0; i < 16384; ++i) {
      const double ref = Reference(Rounding::kHypot, Bf16Value(all[start + i]),
                                   Bf16Value(ys[i]), 0);
      const double got = Bf16Value(out[i]);
      if (std::isnan(ref)) {
        ASSERT_TRUE(std::isnan(got));
        continue;
      }
      if (ref >= 3.3961775292304e38) {
        ASSERT_EQ(got, INFINITY);
        continue;
      }
      const double ulps = UlpsOff(got, ref, 7, -126);
      ASSERT_LE(ulps, kHalfBound) << Bf16Value(all[start + i]);
      worst = std::max(worst, ulps);
    }
  }
  ASSERT_TRUE(WithinBound("Hypot<bfloat16_t> (ulps)", worst, 0.0, kHalfBound));
  // The page's rules: ±inf beside NaN gives inf; NaN beside a finite value
  // gives NaN; and its example 3, 4 → 5.
  Ub ub;
  auto s0 = ub.Make<float>(8);
  auto s1 = ub.Make<float>(8);
  auto d = ub.Make<float>(8);
  const std::vector<float> a = {-INFINITY, NAN, NAN, 3, 1, 0, -0.0f, 1e-45f};
  const std::vector<float> b = {NAN, INFINITY, 2, 4, 1e30f, 0, -0.0f, 1e-45f};
  Fill(s0, a);
  Fill(s1, b);
  AscendC::Hypot(d, s0, s1);
  EXPECT_EQ(d.GetValue(0), INFINITY);
  EXPECT_EQ(d.GetValue(1), INFINITY);
  EXPECT_TRUE(std::isnan(d.GetValue(2)));
  EXPECT_EQ(d.GetValue(3), 5.0f);
  EXPECT_EQ(d.GetValue(4), 1e30f);
  EXPECT_EQ(FloatBits(d.GetValue(5)), 0u);
  EXPECT_EQ(FloatBits(d.GetValue(6)), 0u);
  EXPECT_EQ(d.GetValue(7), 1e-45f);  // sqrt(2) * the smallest subnormal
}

// The pages' examples: Fma 1 * 2 + 1 = 3; Fmod(2, 1.5) = 0.5, Fmod(-3,
// 1.1) = -0.8 in float; Fmod of -2.56 ... 2.55 by 2 in half.
TEST(MathRounding2, PageExamples) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto s0 = ub.Make<half>(512);
  auto s1 = ub.Make<half>(512);
  auto s2 = ub.Make<half>(512);
  auto d = ub.Make<half>(512);
  for (uint32_t i = 0; i < 512; ++i) {
    s0.SetValue(i, half(1.0f));
    s1.SetValue(i, half(2.0f));
    s2.SetValue(i, half(1.0f));
  }
  static constexpr AscendC::FmaConfig kFma = {false};
  AscendC::Fma<kFma>(d, s0, s1, s2, 512);
  for (uint32_t i = 0; i < 512; ++i) ASSERT_EQ(float(d.GetValue(i)), 3.0f);
  for (uint32_t i = 0; i < 512; ++i) {
    s0.SetValue(i, half(-2.56f + 0.01f * static_cast<float>(i)));
    s1.SetValue(i, half(2.0f));
  }
  AscendC::Fmod(d, s0, s1);
  for (uint32_t i = 0; i < 512; ++i) {
    const float x = float(s0.GetValue(i));
    ASSERT_EQ(float(d.GetValue(i)), float(half(std::fmod(x, 2.0f)))) << x;
  }
  EXPECT_NEAR(float(d.GetValue(0)), -0.56f, 1e-3f);
  EXPECT_NEAR(float(d.GetValue(511)), 0.55f, 1e-3f);
  auto f0 = ub.Make<float>(8);
  auto f1 = ub.Make<float>(8);
  auto fd = ub.Make<float>(8);
  f0.SetValue(0, 2.0f);
  f1.SetValue(0, 1.5f);
  f0.SetValue(1, -3.0f);
  f1.SetValue(1, 1.1f);
  AscendC::Fmod(fd, f0, f1, 2);
  EXPECT_EQ(fd.GetValue(0), 0.5f);
  EXPECT_NEAR(fd.GetValue(1), -0.8f, 1e-6f);
  EXPECT_TRUE(std::signbit(fd.GetValue(1)));
}

TEST(MathRounding2, FmodChecks) {
  {
    const ProfileScope scope(Profile::kA2);
    Ub ub;
    auto s0 = ub.Make<float>(8);
    auto s1 = ub.Make<float>(8);
    auto d = ub.Make<float>(8);
    static constexpr AscendC::FmodConfig kPrecise = {
        AscendC::FmodAlgo::ITERATION_COMPENSATION, 11};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Fmod<float, false, kPrecise>(d, s0, s1, 8); },
        "Fmod: FmodConfig::algo is ITERATION_COMPENSATION, which profile "
        "Atlas A2/A3 (a2) does not take: FmodConfig applies to Ascend 950 "
        "only"));
    EXPECT_TRUE(FailsWith([&] { AscendC::Hypot(d, s0, s1, 8); },
                          "Hypot: not available on profile Atlas A2/A3"));
    EXPECT_TRUE(FailsWith([&] { AscendC::Fma(d, s0, s1, s0, 8); },
                          "Fma: not available on profile Atlas A2/A3"));
  }
  const ProfileScope scope(Profile::k310P);
  Ub ub;
  auto s0 = ub.Make<float>(8);
  auto s1 = ub.Make<float>(8);
  auto d = ub.Make<float>(8);
  for (uint32_t i = 0; i < 8; ++i) {
    s0.SetValue(i, 7.0f);
    s1.SetValue(i, 2.0f);
  }
  AscendC::Fmod(d, s0, s1);
  EXPECT_EQ(d.GetValue(7), 1.0f);
  s1.SetValue(5, 4294967296.0f);
  EXPECT_TRUE(FailsWith([&] { AscendC::Fmod(d, s0, s1); },
                        "Fmod: src1Tensor[5] is 4.29497e+09, outside "
                        "[-2147483647, 2147483647]: on Atlas inference AI "
                        "Core (310p) Fmod takes inputs in that range only"));
}

TEST(MathRounding2, TmpSizes) {
  uint32_t max_value = 7, min_value = 7, live = 7, extra = 7;
  AscendC::GetFmodMaxMinTmpSize(ge::Shape({256}), 4, false, max_value,
                                min_value);
  EXPECT_EQ(max_value, 1024u);
  EXPECT_EQ(min_value, 256u);
  AscendC::GetHypotTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetHypotMaxMinTmpSize(ge::Shape({1024}), 2, false, max_value,
                                 min_value);
  EXPECT_EQ(max_value, 4096u);
  const ProfileScope scope(Profile::k950);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  AscendC::GetFmaMaxMinTmpSize(platform, ge::Shape({64}), 4, false, max_value,
                               min_value);
  EXPECT_EQ(max_value, 256u);
  EXPECT_EQ(min_value, 256u);
  AscendC::GetFmaTmpBufferFactorSize(platform, 2, live, extra);
  EXPECT_EQ(live, 2u);
}

// ---- Axpy -------------------------------------------------------------------

// The page's two steps on values: the product rounded to dst's type, then
// the sum rounded to it. In double, each step is one operation on values of
// the type, rounded once (double holds at least twice their precision plus
// two bits, so rounding it again to the type gives the type's own result).
// double → float to nearest, ±inf past the range (a plain conversion of a
// double out of float's range is undefined in C++).
float Nearest(double v) {
  if (std::fabs(v) >= 0x1.ffffffp127) return std::copysign(INFINITY, v);
  return static_cast<float>(v);
}

float RoundHalf(double v) {
  return compat_test::RoundToHalf(Nearest(v), false);
}

TEST(MathAxpy, EveryHalfOnEveryProfile) {
  const std::vector<uint16_t> all = EveryHalfBits();
  std::mt19937 rng(Seed());
  std::vector<uint16_t> init(65536);
  for (auto& v : init)
    v = static_cast<uint16_t>(rng() & 0x7bff) | ((rng() & 1) << 15);
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    for (const float s : {3.0f, -0.0999755859375f}) {
      for (uint32_t start = 0; start < 65536; start += 16384) {
        Ub ub;
        auto src = ub.Make<half>(16384);
        auto dst = ub.Make<half>(16384);
        auto wide = ub.Make<float>(16384);
        auto tmp = ub.Make<uint8_t>(1024);
        Fill(src, std::vector<uint16_t>(all.begin() + start,
                                        all.begin() + start + 16384));
        Fill(dst, std::vector<uint16_t>(init.begin() + start,
                                        init.begin() + start + 16384));
        std::vector<float> wide_init(16384);
        for (uint32_t i = 0; i < 16384; ++i) {
          wide_init[i] = HalfBitsToFloat(init[start + i]);
        }
        Fill(wide, wide_init);
        AscendC::Axpy(dst, src, half(s), tmp, 16384);
        AscendC::Axpy<float, half, false>(wide, src, half(s), tmp, 16384);
        for (uint32_t i = 0; i < 16384; ++i) {
          const double x = HalfBitsToFloat(all[start + i]);
          const double d0 = HalfBitsToFloat(init[start + i]);
          const float want = RoundHalf(d0 + RoundHalf(x * s));
          const float got = float(dst.GetValue(i));
          if (std::isnan(want)) {
            ASSERT_TRUE(std::isnan(got));
          } else {
            ASSERT_EQ(got, want) << x << " * " << s << " + " << d0;
          }
          const float want_wide = float(d0 + double(float(x * s)));
          const float got_wide = wide.GetValue(i);
          if (std::isnan(want_wide)) {
            ASSERT_TRUE(std::isnan(got_wide));
          } else {
            ASSERT_EQ(got_wide, want_wide) << x << " * " << s << " + " << d0;
          }
        }
      }
    }
  }
}

TEST(MathAxpy, FloatSweepAndPageExample) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<uint32_t> x = FloatSweep(8192);
  const uint32_t n = static_cast<uint32_t>(x.size());
  std::vector<uint32_t> init(n);
  std::mt19937 rng(Seed() + 2);
  for (auto& v : init) v = x[rng() % n];
  Ub ub;
  auto src = ub.Make<float>(n);
  auto dst = ub.Make<float>(n);
  auto tmp = ub.Make<uint8_t>(512);
  Fill(src, x);
  Fill(dst, init);
  const float s = -1.7f;
  AscendC::Axpy(dst, src, s, tmp, n);
  for (uint32_t i = 0; i < n; ++i) {
    const double a = compat_test::BitsFloat(x[i]);
    const double d0 = compat_test::BitsFloat(init[i]);
    const float want = Nearest(d0 + double(Nearest(a * s)));
    const float got = dst.GetValue(i);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << i;
    } else {
      ASSERT_EQ(FloatBits(got), FloatBits(want))
          << a << " * " << s << " + " << d0;
    }
  }
  // The page: 1 .. 512 times 3 into zeros.
  auto hs = ub.Make<half>(512);
  auto hd = ub.Make<half>(512);
  for (uint32_t i = 0; i < 512; ++i) {
    hs.SetValue(i, half(float(i + 1)));
    hd.SetValue(i, half(0.0f));
  }
  AscendC::Axpy(hd, hs, static_cast<half>(3.0), tmp, 512);
  for (uint32_t i = 0; i < 512; ++i) {
    ASSERT_EQ(float(hd.GetValue(i)), 3.0f * float(i + 1));
  }
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetAxpyMaxMinTmpSize(ge::Shape({512}), 2, false, max_value,
                                min_value);
  EXPECT_EQ(max_value, 2048u);
  EXPECT_EQ(min_value, 512u);
  EXPECT_TRUE(FailsWith([&] { AscendC::Axpy(hd, hd, half(1), tmp, 512); },
                        "Axpy: dstTensor (UB bytes"));
}

// ---- Power ------------------------------------------------------------------

// base^exp for the floating types: C's pow in float64 (its special cases and
// negative bases with integral exponents), within kHalfBound ulps of half.
void ExpectHalfPower(const std::vector<uint16_t>& base,
                     const std::vector<uint16_t>& exp,
                     const std::vector<uint16_t>& out, double& worst) {
  for (size_t i = 0; i < out.size(); ++i) {
    const double x = HalfBitsToFloat(base[i]);
    const double y = HalfBitsToFloat(exp[i]);
    const double ref = std::pow(x, y);
    const double got = HalfBitsToFloat(out[i]);
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(got)) << x << " ^ " << y << " = " << got;
      continue;
    }
    if (std::fabs(ref) >= 65520.0) {
      ASSERT_EQ(got, std::copysign(INFINITY, ref)) << x << " ^ " << y;
      continue;
    }
    const double ulps = UlpsOff(got, ref, 10, -14);
    ASSERT_LE(ulps, kHalfBound) << x << " ^ " << y << " = " << got;
    worst = std::max(worst, ulps);
  }
}

// Every half as the base against random exponents (small ones mostly, so
// that results stay in range), and every half as the exponent of scalar
// bases; tensor/tensor, tensor/scalar and scalar/tensor, on A2 and 950.
TEST(MathPower, EveryHalfInEveryShape) {
  const std::vector<uint16_t> all = EveryHalfBits();
  std::mt19937 rng(Seed());
  std::vector<uint16_t> exps(65536);
  for (auto& e : exps) {
    e = rng() % 4 == 0 ? static_cast<uint16_t>(rng())
                       : static_cast<uint16_t>(FloatBits(0) |
                                               (rng() % 2 ? 0x3c00 : 0x4000) |
                                               (rng() & 0x83ff));
  }
  double worst = 0;
  for (const Profile p : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(p);
    for (uint32_t start = 0; start < 65536; start += 16384) {
      Ub ub;
      auto base = ub.Make<half>(16384);
      auto exp = ub.Make<half>(16384);
      auto d = ub.Make<half>(16384);
      auto tmp = ub.Make<uint8_t>(2048);
      const std::vector<uint16_t> b(all.begin() + start,
                                    all.begin() + start + 16384);
      const std::vector<uint16_t> e(exps.begin() + start,
                                    exps.begin() + start + 16384);
      Fill(base, b);
      Fill(exp, e);
      AscendC::Power(d, base, exp, tmp, 16384);
      ExpectHalfPower(b, e, Bits<uint16_t>(d, 16384), worst);
      AscendC::Power(d, base, half(2.5f));
      ExpectHalfPower(b, std::vector<uint16_t>(16384, 0x4100),
                      Bits<uint16_t>(d, 16384), worst);
      AscendC::Power(d, half(-2.0f), base, 16384);  // every half as exponent
      ExpectHalfPower(std::vector<uint16_t>(16384, 0xc000), b,
                      Bits<uint16_t>(d, 16384), worst);
    }
  }
  ASSERT_TRUE(WithinBound("Power<half> (ulps)", worst, 0.0, kHalfBound));
}

TEST(MathPower, FloatSweepAndBfloat16) {
  const ProfileScope scope(Profile::k950);
  const std::vector<uint32_t> x = FloatSweep(8192);
  const uint32_t n = static_cast<uint32_t>(x.size());
  std::vector<uint32_t> y(n);
  std::mt19937 rng(Seed() + 3);
  for (uint32_t i = 0; i < n; ++i) {
    y[i] = i % 4 == 0 ? x[rng() % n]
                      : FloatBits(static_cast<float>(int(rng() % 41) - 20) *
                                  (i % 3 == 0 ? 0.37f : 1.0f));
  }
  Ub ub;
  auto base = ub.Make<float>(n);
  auto exp = ub.Make<float>(n);
  auto d = ub.Make<float>(n);
  Fill(base, x);
  Fill(exp, y);
  static constexpr AscendC::PowerConfig kPrecise = {
      AscendC::PowerAlgo::DOUBLE_FLOAT_TECH};
  AscendC::Power<float, false, kPrecise>(d, base, exp, n);
  const auto out = Bits<uint32_t>(d, n);
  double worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const double a = compat_test::BitsFloat(x[i]);
    const double b = compat_test::BitsFloat(y[i]);
    const double ref = std::pow(a, b);
    const double got = compat_test::BitsFloat(out[i]);
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(got)) << a << " ^ " << b;
      continue;
    }
    if (std::fabs(ref) >= 3.4028235677973366e38) {
      ASSERT_EQ(got, std::copysign(INFINITY, ref)) << a << " ^ " << b;
      continue;
    }
    const double ulps = UlpsOff(got, ref, 23, -126);
    ASSERT_LE(ulps, kFloatBound) << a << " ^ " << b << " = " << got;
    worst = std::max(worst, ulps);
  }
  ASSERT_TRUE(WithinBound("Power<float> (ulps)", worst, 0.0, kFloatBound));

  auto bb = ub.Make<bfloat16_t>(256);
  auto bd = ub.Make<bfloat16_t>(256);
  for (uint32_t i = 0; i < 256; ++i) bb.SetValue(i, bfloat16_t(0.05f * i));
  AscendC::Power<bfloat16_t, false, kPrecise>(bd, bb, bfloat16_t(1.5f), 256);
  for (uint32_t i = 0; i < 256; ++i) {
    const double ref = std::pow(double(float(bb.GetValue(i))), 1.5);
    ASSERT_LE(UlpsOff(float(bd.GetValue(i)), ref, 7, -126), kHalfBound) << i;
  }
}

// Integers: repeated multiplication modulo 2^bits (the reference multiplies
// exp times; the implementation squares); negative exponents.
template <typename T>
void ExpectIntegerPower() {
  std::mt19937 rng(Seed());
  std::vector<T> b(64), e(64);
  for (uint32_t i = 0; i < 64; ++i) {
    b[i] = static_cast<T>(static_cast<int>(rng() % 21) -
                          (std::is_signed_v<T> ? 10 : 0));
    e[i] = static_cast<T>(rng() % 40);
  }
  b[0] = 0;
  e[0] = 0;  // 0^0 = 1
  if constexpr (std::is_signed_v<T>) {
    b[1] = 1, e[1] = T(-3);
    b[2] = -1, e[2] = T(-3);
    b[3] = 5, e[3] = T(-1);
    b[4] = -1, e[4] = T(-2);
  }
  Ub ub;
  auto base = ub.Make<T>(64);
  auto exp = ub.Make<T>(64);
  auto d = ub.Make<T>(64);
  Fill(base, b);
  Fill(exp, e);
  AscendC::Power(d, base, exp);
  for (uint32_t i = 0; i < 64; ++i) {
    T want = 1;
    if (std::is_signed_v<T> && e[i] < T(0)) {
      want = b[i] == 1 ? T(1) : (b[i] == T(-1) ? T(e[i] % 2 ? -1 : 1) : T(0));
    } else {
      uint64_t acc = 1;
      for (T k = 0; k < e[i]; ++k) acc *= static_cast<uint64_t>(b[i]);
      want = static_cast<T>(acc);
    }
    ASSERT_EQ(d.GetValue(i), want) << normgrad_ascendc::TypeName<T>() << " "
                                   << int64_t(b[i]) << " ^ " << int64_t(e[i]);
  }
}

TEST(MathPower, IntegerTypes) {
  {
    const ProfileScope scope(Profile::kA2);
    ExpectIntegerPower<int32_t>();
  }
  const ProfileScope scope(Profile::k950);
  ExpectIntegerPower<int8_t>();
  ExpectIntegerPower<uint8_t>();
  ExpectIntegerPower<int16_t>();
  ExpectIntegerPower<uint16_t>();
  ExpectIntegerPower<int32_t>();
  ExpectIntegerPower<uint32_t>();
}

// The page's example, in int32_t and float, in the three shapes.
TEST(MathPower, PageExample) {
  const ProfileScope scope(Profile::k310P);
  const std::vector<int32_t> b = {2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<int32_t> e = {4, 3, 2, 1, 4, 3, 2, 1};
  const std::vector<int32_t> printed = {16, 27, 16, 5, 1296, 343, 64, 9};
  Ub ub;
  auto base = ub.Make<int32_t>(8);
  auto exp = ub.Make<int32_t>(8);
  auto d = ub.Make<int32_t>(8);
  Fill(base, b);
  Fill(exp, e);
  AscendC::Power<int32_t, false>(d, base, exp);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(d.GetValue(i), printed[i]) << i;
  auto fb = ub.Make<float>(8);
  auto fe = ub.Make<float>(8);
  auto fd = ub.Make<float>(8);
  for (uint32_t i = 0; i < 8; ++i) {
    fb.SetValue(i, float(b[i]));
    fe.SetValue(i, float(e[i]));
  }
  AscendC::Power<float, false>(fd, fb, fe);
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(fd.GetValue(i), float(printed[i]));
  AscendC::Power<float, false>(fd, fb.GetValue(0), fe);  // scalar base 2
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(fd.GetValue(i), std::ldexp(1.0f, e[i]));
  }
  AscendC::Power<float, false>(fd, fb, fe.GetValue(0));  // scalar exponent 4
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(fd.GetValue(i), float(b[i] * b[i] * b[i] * b[i]));
  }
}

TEST(MathPower, ChecksAndQueries) {
  {
    const ProfileScope scope(Profile::kA2);
    Ub ub;
    auto i8 = ub.Make<int8_t>(32);
    auto d8 = ub.Make<int8_t>(32);
    auto f = ub.Make<float>(8);
    auto fd = ub.Make<float>(8);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Power(d8, i8, i8); },
        "Power: T is int8_t, which profile Atlas A2/A3 (a2) does not take: "
        "Power takes int8_t on Ascend 950 only (half, float and int32_t on "
        "every profile)"));
    static constexpr AscendC::PowerConfig kPrecise = {
        AscendC::PowerAlgo::DOUBLE_FLOAT_TECH};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Power<float, false, kPrecise>(fd, f, 2.0f, 8); },
        "Power: PowerConfig::algo is DOUBLE_FLOAT_TECH, which profile Atlas "
        "A2/A3 (a2) does not take"));
    EXPECT_TRUE(FailsWith([&] { AscendC::Power(fd, 2.0f, f, 9); },
                          "Power: src1Tensor holds 8 floats, fewer than the "
                          "9 it must hold (calCount)"));
  }
  {
    const ProfileScope scope(Profile::k310P);
    Ub ub;
    auto f = ub.Make<float>(8);
    auto fd = ub.Make<float>(8);
    for (uint32_t i = 0; i < 8; ++i) f.SetValue(i, 1.0f);
    f.SetValue(3, 2147483648.0f);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Power(fd, 2.0f, f); },
        "Power: the exponent (element 3) is 2.14748e+09, not below "
        "2147483647: on Atlas inference AI Core (310p) Power's exponents "
        "must be below 2^31 - 1"));
  }
  uint32_t max_value = 7, min_value = 7, live = 7, extra = 7;
  AscendC::GetPowerMaxMinTmpSize(ge::Shape({1024}), ge::Shape({1}), false, 2,
                                 false, max_value, min_value);
  EXPECT_EQ(max_value, 4096u);
  EXPECT_EQ(min_value, 512u);
  AscendC::GetPowerMaxMinTmpSize(ge::Shape({8}), ge::Shape({8}), true, 1, false,
                                 max_value, min_value);
  EXPECT_EQ(max_value, 1024u);  // int8_t: 256 per pass, 4 bytes each
  EXPECT_EQ(min_value, 1024u);
  AscendC::GetPowerTmpBufferFactorSize(true, false, true, 4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetPowerTmpBufferFactorSize(false, false, false, 4, live,
                                                   extra);
            }),
            "GetPowerTmpBufferFactorSize: baseIsTensor and expIsTensor are "
            "both false: Power takes a tensor base, a tensor exponent or "
            "both; maxLiveNodeCount and extraBuffer are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetPowerMaxMinTmpSize(ge::Shape({8}), ge::Shape({8}),
                                             false, 8, false, max_value,
                                             min_value);
            }),
            "GetPowerMaxMinTmpSize: typeSize 8 is not supported: it must be "
            "1, 2 or 4; maxValue and minValue are 0.\n");
}

// ---- CumSum -----------------------------------------------------------------

// The page's two examples: 4 x 8 ones along the last axis and the first,
// each with the last line out.
TEST(MathCumSum, PageExamples) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto src = ub.Make<float>(32);
  auto dst = ub.Make<float>(32);
  auto last = ub.Make<float>(16);
  auto tmp = ub.Make<uint8_t>(64);
  for (uint32_t i = 0; i < 32; ++i) src.SetValue(i, 1.0f);
  static constexpr AscendC::CumSumConfig kLast{
      true, false, true, AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  const AscendC::CumSumInfo info{4, 8};
  AscendC::CumSum<float, kLast>(dst, last, src, info);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(dst.GetValue(i), float(i % 8 + 1)) << i;
  }
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(last.GetValue(i), 8.0f);
  static constexpr AscendC::CumSumConfig kFirst{
      false, false, true,
      AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  AscendC::CumSum<float, kFirst>(dst, last, src, tmp, info);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(dst.GetValue(i), float(i / 8 + 1)) << i;
  }
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(last.GetValue(i), 4.0f);
}

// The orders the docs state, written here on floats: one running sum, or
// Sklansky's recursive halving (the prefix of each half, then the lower
// half's last sum added to the upper half), over k values `stride` apart.
void RunningSum(std::vector<float>& v, size_t at, uint32_t k, uint32_t stride) {
  for (uint32_t i = 1; i < k; ++i) {
    v[at + i * stride] = v[at + (i - 1) * stride] + v[at + i * stride];
  }
}

void SklanskyPrefix(std::vector<float>& v, size_t at, uint32_t k,
                    uint32_t stride) {
  if (k < 2) return;
  uint32_t lower = 1;
  while (lower * 2 < k) lower *= 2;  // the largest power of two below k
  SklanskyPrefix(v, at, lower, stride);
  SklanskyPrefix(v, at + size_t{lower} * stride, k - lower, stride);
  const float pivot = v[at + size_t{lower - 1} * stride];
  for (uint32_t j = lower; j < k; ++j) v[at + size_t{j} * stride] += pivot;
}

template <typename T>
void ExpectCumSum(bool last_axis, bool sklansky, uint32_t outter,
                  uint32_t inner, const char* label) {
  std::mt19937 rng(Seed() + outter + inner);
  std::uniform_real_distribution<float> dist(-4.0f, 4.0f);
  const uint32_t n = outter * inner;
  std::vector<float> x(n);
  for (auto& v : x) v = static_cast<float>(static_cast<T>(dist(rng)));
  Ub ub;
  auto src = ub.Make<T>(n);
  auto dst = ub.Make<T>(n);
  auto last = ub.Make<T>(std::max(outter, inner));
  auto tmp = ub.Make<uint8_t>(inner * 4);
  for (uint32_t i = 0; i < n; ++i) src.SetValue(i, static_cast<T>(x[i]));
  const AscendC::CumSumInfo info{outter, inner};
  using AscendC::CumSumAlgorithm;
  static constexpr AscendC::CumSumConfig kFirstLines{
      false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  static constexpr AscendC::CumSumConfig kFirstSklansky{
      false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
  static constexpr AscendC::CumSumConfig kLastLines{
      true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
  static constexpr AscendC::CumSumConfig kLastSklansky{
      true, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
  if (!last_axis && !sklansky) {
    AscendC::CumSum<T, kFirstLines>(dst, last, src, tmp, info);
  } else if (!last_axis) {
    AscendC::CumSum<T, kFirstSklansky>(dst, last, src, tmp, info);
  } else if (!sklansky) {
    AscendC::CumSum<T, kLastLines>(dst, last, src, info);
  } else {
    AscendC::CumSum<T, kLastSklansky>(dst, last, src, info);
  }
  // Bit for bit against the stated order in float.
  std::vector<float> want = x;
  const uint32_t lines = last_axis ? outter : inner;
  const uint32_t k = last_axis ? inner : outter;
  const uint32_t stride = last_axis ? 1 : inner;
  for (uint32_t l = 0; l < lines; ++l) {
    const size_t at = last_axis ? size_t{l} * inner : l;
    if (sklansky) {
      SklanskyPrefix(want, at, k, stride);
    } else {
      RunningSum(want, at, k, stride);
    }
  }
  // Against float64: the float sums' error, at most (steps) * 2^-24 of the
  // sum of magnitudes, plus half an ulp of T (docs/numerics.md).
  int steps = 0;
  if (sklansky) {
    while ((1u << steps) < k) ++steps;
  } else {
    steps = static_cast<int>(k) - 1;
  }
  const bool is_half = std::is_same_v<T, half>;
  double worst = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const float got = static_cast<float>(dst.GetValue(i));
    const float expected =
        is_half ? compat_test::RoundToHalf(want[i], false) : want[i];
    ASSERT_EQ(got, expected) << label << " element " << i;
    const uint32_t row = i / inner, col = i % inner;
    double exact = 0, magnitude = 0;
    for (uint32_t t = 0; t <= (last_axis ? col : row); ++t) {
      const float v = last_axis ? x[row * inner + t] : x[t * inner + col];
      exact += v;
      magnitude += std::fabs(v);
    }
    const double top = std::max(std::fabs(exact), std::fabs(double(got)));
    const double half_ulp =
        top == 0
            ? 0
            : std::ldexp(1.0, std::max(std::ilogb(top), is_half ? -14 : -126) -
                                  (is_half ? 11 : 24));
    const double bound = steps * std::ldexp(magnitude, -24) + half_ulp;
    const double err = std::fabs(got - exact);
    ASSERT_LE(err, bound + 1e-30) << label << " element " << i;
    if (bound > 0) worst = std::max(worst, err / bound);
  }
  const uint32_t last_count = last_axis ? outter : inner;
  for (uint32_t i = 0; i < last_count; ++i) {
    const uint32_t from = last_axis ? i * inner + inner - 1 : n - inner + i;
    ASSERT_EQ(float(last.GetValue(i)), float(dst.GetValue(from))) << i;
  }
  ASSERT_TRUE(
      WithinBound(std::string(label) + " (error / bound)", worst, 0.0, 1.0));
}

TEST(MathCumSum, BothAxesBothOrders) {
  {
    const ProfileScope scope(Profile::k310P);
    ExpectCumSum<half>(true, false, 16, 128, "CumSum<half> last axis");
    ExpectCumSum<float>(false, false, 100, 64, "CumSum<float> first axis");
  }
  const ProfileScope scope(Profile::k950);
  ExpectCumSum<half>(false, false, 37, 64, "CumSum<half> first axis");
  ExpectCumSum<float>(true, false, 8, 200, "CumSum<float> last axis");
  ExpectCumSum<half>(true, true, 8, 112, "CumSum<half> last axis Sklansky");
  ExpectCumSum<float>(false, true, 77, 16, "CumSum<float> first axis Sklansky");
}

TEST(MathCumSum, ChecksAndQuery) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto src = ub.Make<float>(64);
  auto dst = ub.Make<float>(64);
  auto last = ub.Make<float>(8);
  auto tmp = ub.Make<uint8_t>(64);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum(dst, last, src, AscendC::CumSumInfo{4, 12});
      },
      "CumSum: cumSumInfo.inner is 12, 48 bytes of floats: inner * sizeof(T) "
      "must be a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum(dst, last, src, AscendC::CumSumInfo{0, 8});
      },
      "CumSum: cumSumInfo is {outter 0, inner 8}: both must be above 0"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum(dst, last, src, AscendC::CumSumInfo{9, 8});
      },
      "CumSum: srcTensor holds 64 floats, fewer than the 72 it must hold "
      "(cumSumInfo.outter * inner)"));
  static constexpr AscendC::CumSumConfig kOut{false, false, true};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum<float, kOut>(dst, last, src,
                                     AscendC::CumSumInfo{4, 16});
      },
      "CumSum: lastRowTensor holds 8 floats, fewer than the 16 it must hold "
      "(the last row: cumSumInfo.inner)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum<float>(dst, last, src, tmp, AscendC::CumSumInfo{2, 32});
      },
      "CumSum: sharedTmpBuffer holds 64 bytes, fewer than the 128 a row of 32 "
      "elements needs"));
  static constexpr AscendC::CumSumConfig kSklansky{
      true, false, false, AscendC::CumSumAlgorithm::CUMSUM_ALGORITHM_SKLANSKY};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum<float, kSklansky>(dst, last, src,
                                          AscendC::CumSumInfo{8, 8});
      },
      "CumSum: CumSumConfig::algorithm is CUMSUM_ALGORITHM_SKLANSKY, which "
      "profile Atlas A2/A3 (a2) does not take"));
  auto shifted = src[8];
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CumSum(shifted, last, src, AscendC::CumSumInfo{2, 8});
      },
      "CumSum: dstTensor (UB bytes [32, 96)) and srcTensor (UB bytes [0, 64)) "
      "overlap; dstTensor may be srcTensor itself"));
  // In place: dstTensor is srcTensor.
  for (uint32_t i = 0; i < 64; ++i) src.SetValue(i, 1.0f);
  AscendC::CumSum(src, last, src, AscendC::CumSumInfo{8, 8});
  EXPECT_EQ(src.GetValue(63), 8.0f);
  EXPECT_EQ(src.GetValue(8), 1.0f);

  uint32_t max_value = 7, min_value = 7;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({32, 32}), 2, true, false,
                                  max_value, min_value);
  EXPECT_EQ(max_value, 128u);  // the page's call: a line of 32 floats
  EXPECT_EQ(min_value, 128u);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetCumSumMaxMinTmpSize(ge::Shape({4, 3}), 4, false,
                                              false, max_value, min_value);
            }),
            "GetCumSumMaxMinTmpSize: srcShape [4, 3]: inner 3 * typeSize 4 "
            "must be a multiple of 32 bytes; maxValue and minValue are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetCumSumMaxMinTmpSize(ge::Shape({4, 8, 8}), 4, false,
                                              false, max_value, min_value);
            }),
            "GetCumSumMaxMinTmpSize: srcShape [4, 8, 8] must have two "
            "dimensions: {outter, inner}; maxValue and minValue are 0.\n");
}

// ---- Checks -----------------------------------------------------------------

TEST(MathBinaryChecks, Ascend950OnlyApisOnOtherProfiles) {
  for (const Profile p : {Profile::kA2, Profile::k310P}) {
    const ProfileScope scope(p);
    Ub ub;
    auto a = ub.Make<int32_t>(8);
    auto b = ub.Make<int32_t>(8);
    auto d = ub.Make<int32_t>(8);
    auto flags = ub.Make<bool>(32);
    const std::string profile = normgrad_ascendc::GetProfileInfo(p).name +
                                std::string(" (") +
                                normgrad_ascendc::GetProfileInfo(p).key + ")";
    EXPECT_TRUE(FailsWith([&] { AscendC::Clamp(d, a, 0, 5, 8); },
                          "Clamp: not available on profile " + profile +
                              ": the documentation lists Clamp for Ascend "
                              "950 only"));
    EXPECT_TRUE(FailsWith([&] { AscendC::BitwiseAnd(d, a, b, 8); },
                          "BitwiseAnd: not available on profile " + profile));
    EXPECT_TRUE(FailsWith([&] { AscendC::LogicalOrs(flags, a, 1, 8); },
                          "LogicalOrs: not available on profile " + profile));
    EXPECT_TRUE(FailsWith([&] { AscendC::Where(d, a, b, flags, 8); },
                          "Where: not available on profile " + profile));
  }
}

TEST(MathBinaryChecks, CountWithinEveryTensor) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto a = ub.Make<float>(64);
  auto b = ub.Make<float>(32);
  auto d = ub.Make<float>(64);
  auto flags = ub.Make<bool>(64);
  EXPECT_TRUE(FailsWith([&] { AscendC::Clamp(d, a, b, 1.0f, 64); },
                        "Clamp: min holds 32 floats, fewer than the 64 it "
                        "must hold (count)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::IsNan(flags, a, 65); },
                        "IsNan: src holds 64 floats, fewer than the 65 it "
                        "must hold (count)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Where(d, a, a, flags[32], 64); },
                        "Where: condition holds 32 bool elements, fewer than "
                        "the 64 it must hold (count)"));
  auto i16 = ub.Make<int16_t>(32);
  auto j16 = ub.Make<int16_t>(16);
  auto k16 = ub.Make<int16_t>(32);
  EXPECT_TRUE(FailsWith([&] { AscendC::Xor(k16, i16, j16); },
                        "Xor: src1Tensor holds 16 int16_t elements, fewer "
                        "than the 32 it must hold (every element of "
                        "src0Tensor)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Xor(k16, j16, i16); },
                        "Xor: src1Tensor holds 32 int16_t elements but "
                        "src0Tensor holds 16: the forms without calCount "
                        "take sources of the same size"));
}

TEST(MathBinaryChecks, PlacementAndOverlap) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto a = ub.Make<half>(64);
  auto d = ub.Make<half>(64);
  auto tmp = ub.Make<uint8_t>(1024);
  EXPECT_TRUE(FailsWith([&] { AscendC::ClampMin(d, a[1], tmp, half(0), 8); },
                        "ClampMin: srcTensor"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ClampMax(a[16], a, tmp, half(1), 32); },
      "ClampMax: dstTensor (UB bytes [32, 96)) and srcTensor (UB bytes [0, "
      "64)) overlap; ClampMax does not support a source sharing memory with "
      "dstTensor"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Clamp(a, a, half(0), half(1), 64); },
                        "Clamp does not support a source sharing memory with "
                        "dst"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Where(d, a, half(0), d.ReinterpretCast<bool>(), 64); },
      "Where: dst (UB bytes [128, 256)) and condition (UB bytes [128, 192)) "
      "overlap"));
  auto over = a.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ClampMax(d, a, over, half(1), 64); },
      "ClampMax: sharedTmpBuffer holds 128 bytes, fewer than the 512 a call "
      "on halves needs (GetClampMaxMinTmpSize's minValue)"));
}

TEST(MathBinaryChecks, ScratchMustNotShareMemory) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto a = ub.Make<half>(512);
  auto d = ub.Make<half>(512);
  auto as_tmp = a.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ClampMin(d, a, as_tmp, half(1), 256); },
      "ClampMin: srcTensor (UB bytes [0, 512)) and sharedTmpBuffer (UB bytes "
      "[0, 1024)) overlap; ClampMin writes its scratch, so it must not share "
      "memory with a source or dstTensor"));
}

// ---- Scratch-size queries ---------------------------------------------------

// The family's rule (docs/math.md, "Scratch sizes") for the APIs with a
// scratch; 0 for the Ascend 950 APIs without one.
TEST(MathBinaryTmpSizes, ByTheRule) {
  uint32_t max_value = 7, min_value = 7, live = 7, extra = 7;
  AscendC::GetClampMaxMinTmpSize(ge::Shape({1024}), 2, false, max_value,
                                 min_value);
  EXPECT_EQ(max_value, 4096u);  // the page's call: a float per half
  EXPECT_EQ(min_value, 512u);
  AscendC::GetClampTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetXorMaxMinTmpSize(ge::Shape({8}), 2, false, max_value, min_value);
  EXPECT_EQ(max_value, 512u);
  EXPECT_EQ(min_value, 512u);
  AscendC::GetXorTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 2u);

  const ProfileScope scope(Profile::k950);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  AscendC::GetIsInfMaxMinTmpSize(platform, ge::Shape({32, 32}), 4, false,
                                 max_value, min_value);
  EXPECT_EQ(max_value, 4096u);
  EXPECT_EQ(min_value, 256u);
  AscendC::GetIsNanTmpBufferFactorSize(platform, 2, live, extra);
  EXPECT_EQ(live, 2u);
  using MaxMin =
      void (*)(const platform_ascendc::PlatformAscendC&, const ge::Shape&,
               uint32_t, bool, uint32_t&, uint32_t&);
  using Factor = void (*)(const platform_ascendc::PlatformAscendC&, uint32_t,
                          uint32_t&, uint32_t&);
  const std::pair<MaxMin, Factor> none[] = {
      {AscendC::GetBitwiseAndMaxMinTmpSize,
       AscendC::GetBitwiseAndTmpBufferFactorSize},
      {AscendC::GetBitwiseOrMaxMinTmpSize,
       AscendC::GetBitwiseOrTmpBufferFactorSize},
      {AscendC::GetBitwiseXorMaxMinTmpSize,
       AscendC::GetBitwiseXorTmpBufferFactorSize},
      {AscendC::GetBitwiseNotMaxMinTmpSize,
       AscendC::GetBitwiseNotTmpBufferFactorSize},
      {AscendC::GetLogicalAndMaxMinTmpSize,
       AscendC::GetLogicalAndTmpBufferFactorSize},
      {AscendC::GetLogicalAndsMaxMinTmpSize,
       AscendC::GetLogicalAndsTmpBufferFactorSize},
      {AscendC::GetLogicalOrMaxMinTmpSize,
       AscendC::GetLogicalOrTmpBufferFactorSize},
      {AscendC::GetLogicalOrsMaxMinTmpSize,
       AscendC::GetLogicalOrsTmpBufferFactorSize},
      {AscendC::GetLogicalNotMaxMinTmpSize,
       AscendC::GetLogicalNotTmpBufferFactorSize},
      {AscendC::GetLogicalXorMaxMinTmpSize,
       AscendC::GetLogicalXorTmpBufferFactorSize},
      {AscendC::GetWhereMaxMinTmpSize, AscendC::GetWhereTmpBufferFactorSize},
  };
  for (const auto& [max_min, factor] : none) {
    for (const uint32_t size : {1u, 2u, 4u, 8u}) {
      max_value = min_value = live = extra = 7;
      EXPECT_EQ(Stderr([&] {
                  max_min(platform, ge::Shape({1024}), size, false, max_value,
                          min_value);
                  factor(platform, size, live, extra);
                }),
                "");
      EXPECT_EQ(max_value, 0u);
      EXPECT_EQ(min_value, 0u);
      EXPECT_EQ(live, 0u);
      EXPECT_EQ(extra, 0u);
    }
  }
}

TEST(MathBinaryTmpSizes, BadInputIsReportedAndGivesZero) {
  uint32_t max_value = 7, min_value = 7, live = 7, extra = 7;
  EXPECT_EQ(Stderr([&] {
              AscendC::GetXorMaxMinTmpSize(ge::Shape({64}), 4, false, max_value,
                                           min_value);
            }),
            "GetXorMaxMinTmpSize: typeSize 4 is not supported: it must be 2 "
            "(int16_t or uint16_t); maxValue and minValue are 0.\n");
  EXPECT_EQ(max_value, 0u);
  {
    const ProfileScope scope(Profile::kA2);
    const platform_ascendc::PlatformAscendC platform(nullptr);
    EXPECT_EQ(Stderr([&] {
                AscendC::GetWhereMaxMinTmpSize(platform, ge::Shape({64}), 2,
                                               false, max_value, min_value);
              }),
              "GetWhereMaxMinTmpSize: ascendcPlatform is architecture 2201: "
              "Where exists on Ascend 950 (3510) only; maxValue and minValue "
              "are 0.\n");
  }
  const ProfileScope scope(Profile::k950);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetBitwiseNotTmpBufferFactorSize(platform, 3, live,
                                                        extra);
            }),
            "GetBitwiseNotTmpBufferFactorSize: typeSize 3 is not supported: "
            "it must be 1, 2, 4 or 8; maxLivedNodeCount and extraBuf are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetLogicalAndMaxMinTmpSize(platform, ge::Shape({0}), 1,
                                                  false, max_value, min_value);
            }),
            "GetLogicalAndMaxMinTmpSize: srcShape [0] has dimension 0 = 0: "
            "every dimension must be at least 1 and the elements at most "
            "4294967295 (calCount is 32 bits); maxValue and minValue are "
            "0.\n");
}

}  // namespace

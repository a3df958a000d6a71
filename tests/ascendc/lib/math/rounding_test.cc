// rounding_test.cc — the Math APIs that round or split a value (Ceil,
// Floor, Round, Trunc, Frac, Rint, Sign) through kernel_operator.h on the
// emulated core: every half exhaustively and a dense float sweep with the
// special values (±0, subnormals, ±inf, NaN, the edges where every float is
// an integer), bit for bit against a float64 reference on the profiles that
// have each API; Sign on int64_t (Ascend 950); the pages' examples; every
// documented overload; and every check's message.
//
// The references here are written for these tests from the pages' formulas
// and share no code with src/. Random data uses a fixed seed, printed;
// NORMGRAD_SEED=<n> overrides it. To add an API of the same shape: a case
// in Call, a reference in Reference, and a row in kApis.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::TensorBits;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;

enum class Api { kCeil, kFloor, kRound, kTrunc, kFrac, kRint, kSign };

struct ApiInfo {
  Api api;
  const char* name;
  bool only_950;
  bool whole_forms;  // the page documents the forms without calCount
};

constexpr ApiInfo kApis[] = {
    {Api::kCeil, "Ceil", false, false},   {Api::kFloor, "Floor", false, false},
    {Api::kRound, "Round", false, false}, {Api::kTrunc, "Trunc", false, true},
    {Api::kFrac, "Frac", false, true},    {Api::kRint, "Rint", true, false},
    {Api::kSign, "Sign", false, true},
};

enum class Form {
  kSharedCount,
  kFrameworkCount,
  kSharedWhole,
  kFrameworkWhole
};

uint32_t Seed() { return compat_test::Seed<20261230>(); }

// ---- The references ---------------------------------------------------------

// Round half to even, from the definition: the nearer of floor and floor+1,
// the even one at a tie; the sign of a zero result is x's.
double NearestEven(double x) {
  if (!std::isfinite(x)) return x;
  const double lo = std::floor(x);
  const double d = x - lo;
  double r = lo;
  if (d > 0.5 || (d == 0.5 && std::fmod(lo, 2.0) != 0.0)) r = lo + 1.0;
  return r == 0.0 ? std::copysign(0.0, x) : r;
}

double TowardZero(double x) { return x < 0 ? std::ceil(x) : std::floor(x); }

double Reference(Api api, double x) {
  switch (api) {
    case Api::kCeil:
      return std::ceil(x);
    case Api::kFloor:
      return std::floor(x);
    case Api::kRound:
    case Api::kRint:
      return NearestEven(x);
    case Api::kTrunc:
      return TowardZero(x);
    case Api::kFrac:  // x - Trunc(x): NaN for ±inf, +0 for integral x
      return x - TowardZero(x);
    case Api::kSign:
      return x > 0 ? 1.0 : (x < 0 ? -1.0 : 0.0);
  }
  return NAN;
}

// ---- Calls ------------------------------------------------------------------

template <typename T>
void Call(Api api, Form form, const LocalTensor<T>& dst,
          const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
          uint32_t n) {
  const bool shared = form == Form::kSharedCount || form == Form::kSharedWhole;
  const bool whole =
      form == Form::kSharedWhole || form == Form::kFrameworkWhole;
#define COUNT_FORMS(Name)               \
  if (shared) {                         \
    AscendC::Name<T>(dst, src, tmp, n); \
  } else {                              \
    AscendC::Name<T>(dst, src, n);      \
  }                                     \
  return;
#define ALL_FORMS(Name)                     \
  if (whole && shared) {                    \
    AscendC::Name<T, false>(dst, src, tmp); \
  } else if (whole) {                       \
    AscendC::Name<T, false>(dst, src);      \
  } else {                                  \
    COUNT_FORMS(Name)                       \
  }                                         \
  return;
  switch (api) {
    case Api::kCeil:
      COUNT_FORMS(Ceil)
    case Api::kFloor:
      COUNT_FORMS(Floor)
    case Api::kRound:
      COUNT_FORMS(Round)
    case Api::kTrunc:
      ALL_FORMS(Trunc)
    case Api::kFrac:
      ALL_FORMS(Frac)
    case Api::kSign:
      ALL_FORMS(Sign)
    case Api::kRint: {
      static constexpr AscendC::RintConfig kConfig = {false};
      if (shared) {
        AscendC::Rint<kConfig, T>(dst, src, tmp, n);
      } else {
        AscendC::Rint(dst, src, n);
      }
      return;
    }
  }
#undef ALL_FORMS
#undef COUNT_FORMS
}

// src and dst of n elements of T and a scratch of tmp_bytes, on one pipe.
template <typename T>
struct Tensors {
  Tensors(uint32_t n, uint32_t tmp_bytes) {
    pipe.InitBuffer(src_buf, n * sizeof(T));
    pipe.InitBuffer(dst_buf, n * sizeof(T));
    pipe.InitBuffer(tmp_buf, tmp_bytes);
    src = src_buf.Get<T>();
    dst = dst_buf.Get<T>();
    tmp = tmp_buf.Get<uint8_t>();
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> src_buf;
  TBuf<TPosition::VECOUT> dst_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src, dst;
  LocalTensor<uint8_t> tmp;
};

// Runs the API on `in` (bits of T) in one call; returns dst's bits.
template <typename T>
std::vector<typename TensorBits<T>::Bits> RunOnBits(
    Api api, Form form, const std::vector<typename TensorBits<T>::Bits>& in,
    uint32_t tmp_bytes) {
  const uint32_t n = static_cast<uint32_t>(in.size());
  Tensors<T> t(n, tmp_bytes);
  TensorBits<T>::Write(t.src, in);
  Call<T>(api, form, t.dst, t.src, t.tmp, n);
  return TensorBits<T>::Read(t.dst, n);
}

float BitsToValue(uint16_t h) { return HalfBitsToFloat(h); }
float BitsToValue(uint32_t f) { return compat_test::BitsFloat(f); }

// Every output against Reference rounded to T (exact: every result of these
// APIs is a value of T), bit for bit; NaN where the reference is NaN. The
// worst |error| goes to the ledger with the bound 0 (docs/numerics.md,
// "Math: rounding").
template <typename T>
void ExpectExact(Api api, const char* name, const char* type,
                 const std::vector<typename TensorBits<T>::Bits>& in,
                 const std::vector<typename TensorBits<T>::Bits>& out,
                 const char* where) {
  double worst = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double x = BitsToValue(in[i]);
    const double ref = Reference(api, x);
    const double got = BitsToValue(out[i]);
    if (std::isnan(ref)) {
      ASSERT_TRUE(std::isnan(got))
          << name << "<" << type << ">(" << x << ") = " << got
          << ", expected NaN; " << where;
      continue;
    }
    const float ref_f = static_cast<float>(ref);  // exact
    const bool same = got == ref_f && std::signbit(got) == std::signbit(ref_f);
    ASSERT_TRUE(same) << name << "<" << type << ">(" << x << ") = " << got
                      << ", expected " << ref << "; " << where;
    worst = std::max(worst, std::fabs(got - ref));
  }
  ASSERT_TRUE(
      WithinBound(std::string(name) + "<" + type + ">", 0.0, worst, 0.0));
}

std::vector<Profile> ProfilesOf(const ApiInfo& a) {
  if (a.only_950) return {Profile::k950};
  return {Profile::kA2, Profile::k950};
}

const char* Key(Profile p) { return normgrad_ascendc::GetProfileInfo(p).key; }

// ---- Accuracy over whole ranges ---------------------------------------------

TEST(MathRounding, EveryHalfOnEveryProfile) {
  constexpr uint32_t kChunk = 8192;
  for (const ApiInfo& a : kApis) {
    for (const Profile p : ProfilesOf(a)) {
      const ProfileScope scope(p);
      for (uint32_t start = 0; start < 65536; start += kChunk) {
        std::vector<uint16_t> in(kChunk);
        for (uint32_t i = 0; i < kChunk; ++i) in[i] = uint16_t(start + i);
        const auto out =
            RunOnBits<half>(a.api, Form::kSharedCount, in, kChunk * 4);
        const std::string where = std::string("profile ") + Key(p);
        ExpectExact<half>(a.api, a.name, "half", in, out, where.c_str());
      }
    }
  }
}

// The floats worth naming, then random bit patterns over every exponent.
std::vector<uint32_t> FloatSweep(size_t random_count) {
  std::vector<uint32_t> v;
  for (const float f : {0.0f,
                        -0.0f,
                        0.5f,
                        -0.5f,
                        1.5f,
                        -1.5f,
                        2.5f,
                        -2.5f,
                        0.49999997f,
                        -0.49999997f,
                        8388607.5f,
                        -8388607.5f,
                        8388608.0f,
                        -8388609.0f,
                        16777216.0f,
                        2147483647.0f,
                        -2147483648.0f,
                        3.4028235e38f,
                        -3.4028235e38f,
                        1.17549435e-38f,
                        INFINITY,
                        -INFINITY,
                        NAN,
                        -NAN}) {
    v.push_back(FloatBits(f));
  }
  for (uint32_t sub : {1u, 2u, 0x7fffffu, 0x400000u}) {
    v.push_back(sub);
    v.push_back(sub | 0x80000000u);
  }
  std::mt19937 rng(Seed());
  for (size_t i = 0; i < random_count; ++i) v.push_back(rng());
  // Values near the integers, where the rounding decisions are.
  std::uniform_int_distribution<int> k(-100000, 100000);
  for (size_t i = 0; i < random_count / 4; ++i) {
    const float base = static_cast<float>(k(rng)) * 0.5f;
    v.push_back(FloatBits(base));
    v.push_back(FloatBits(std::nextafter(base, INFINITY)));
    v.push_back(FloatBits(std::nextafter(base, -INFINITY)));
  }
  while (v.size() % 8 != 0) v.push_back(FloatBits(1.0f));
  return v;
}

TEST(MathRounding, FloatSweepOnEveryProfile) {
  const std::vector<uint32_t> all = FloatSweep(1 << 17);
  constexpr size_t kChunk = 8192;
  for (const ApiInfo& a : kApis) {
    for (const Profile p : ProfilesOf(a)) {
      const ProfileScope scope(p);
      for (size_t start = 0; start < all.size(); start += kChunk) {
        const size_t n = std::min(kChunk, all.size() - start);
        const std::vector<uint32_t> in(all.begin() + start,
                                       all.begin() + start + n);
        const auto out = RunOnBits<float>(
            a.api, Form::kSharedCount, in,
            static_cast<uint32_t>(std::max<size_t>(n * 4, 256)));
        const std::string where = std::string("profile ") + Key(p);
        ExpectExact<float>(a.api, a.name, "float", in, out, where.c_str());
      }
    }
  }
}

// A scratch of the minimum (a pass of 256 bytes of input) computes the same
// as one large enough for every element: the passes are independent.
TEST(MathRounding, SmallestScratchTakesManyPasses) {
  const std::vector<uint32_t> in = FloatSweep(4096);
  for (const ApiInfo& a : kApis) {
    const ProfileScope scope(a.only_950 ? Profile::k950 : Profile::kA2);
    const auto small = RunOnBits<float>(a.api, Form::kSharedCount,
                                        {in.begin(), in.begin() + 4096}, 256);
    ExpectExact<float>(a.api, a.name, "float", {in.begin(), in.begin() + 4096},
                       small, "a 256-byte scratch");
  }
}

// Every documented overload gives the same bits (the sharedTmpBuffer or the
// framework scratch, with calCount or over the whole srcTensor).
TEST(MathRounding, EveryOverload) {
  std::vector<uint16_t> in(1024);
  std::mt19937 rng(Seed());
  for (auto& h : in) {
    h = static_cast<uint16_t>(rng() & 0x7bff) | ((rng() & 1) << 15);
  }
  for (const ApiInfo& a : kApis) {
    const ProfileScope scope(a.only_950 ? Profile::k950 : Profile::kA2);
    std::vector<Form> forms = {Form::kSharedCount, Form::kFrameworkCount};
    if (a.whole_forms) {
      forms.push_back(Form::kSharedWhole);
      forms.push_back(Form::kFrameworkWhole);
    }
    for (const Form f : forms) {
      const auto out = RunOnBits<half>(a.api, f, in, 4096);
      ExpectExact<half>(a.api, a.name, "half", in, out, "every overload");
    }
  }
}

// calCount below the tensor's length computes that many and leaves the rest
// of dstTensor as it was.
TEST(MathRounding, CalCountLeavesTheRestAlone) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 256);
  for (uint32_t i = 0; i < 64; ++i) {
    t.src.SetValue(i, 0.25f + static_cast<float>(i));
    t.dst.SetValue(i, -7.0f);
  }
  AscendC::Ceil(t.dst, t.src, t.tmp, 40);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(t.dst.GetValue(i), i < 40 ? 1.0f + static_cast<float>(i) : -7.0f)
        << i;
  }
}

TEST(MathRounding, SignOnInt64OnAscend950) {
  const ProfileScope scope(Profile::k950);
  const std::vector<int64_t> in = {INT64_MIN, -5, -1, 0, 1, 7, INT64_MAX, 0};
  Tensors<int64_t> t(8, 256);
  for (uint32_t i = 0; i < 8; ++i) t.src.SetValue(i, in[i]);
  AscendC::Sign(t.dst, t.src, t.tmp, 8);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(t.dst.GetValue(i), in[i] > 0 ? 1 : (in[i] < 0 ? -1 : 0)) << i;
  }
  AscendC::Sign(t.dst, t.src);  // whole, framework scratch
  EXPECT_EQ(t.dst.GetValue(0), -1);
  EXPECT_EQ(t.dst.GetValue(6), 1);
}

// ---- The pages' examples ----------------------------------------------------

// Runs `api` on halves (the examples' type where the page names one) and
// compares with the printed output.
void ExpectHalfExample(Api api, Profile p, const std::vector<float>& in,
                       const std::vector<float>& printed) {
  const ProfileScope scope(p);
  const uint32_t n = 16;  // a 32-byte block of halves, padded with zeros
  Tensors<half> t(n, 512);
  for (uint32_t i = 0; i < n; ++i) {
    t.src.SetValue(i, static_cast<half>(i < in.size() ? in[i] : 0.0f));
  }
  Call<half>(api, Form::kSharedCount, t.dst, t.src, t.tmp, n);
  for (size_t i = 0; i < printed.size(); ++i) {
    EXPECT_EQ(static_cast<float>(t.dst.GetValue(i)), printed[i])
        << "element " << i << " of " << in[i];
  }
}

TEST(MathRoundingExamples, Ceil) {
  ExpectHalfExample(Api::kCeil, Profile::kA2,
                    {-1.1f, 0.0f, 0.9f, 1.9f, 2.9f, 3.9f, 4.9f, 5.9f},
                    {-1, 0, 1, 2, 3, 4, 5, 6});
  ExpectHalfExample(Api::kCeil, Profile::kA2, {3.9f, -3.9f}, {4, -3});
}

TEST(MathRoundingExamples, Floor) {
  ExpectHalfExample(Api::kFloor, Profile::kA2,
                    {-1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f},
                    {-2, -1, 0, 1, 2, 3, 4, 5});
  ExpectHalfExample(Api::kFloor, Profile::kA2, {3.9f, -3.9f}, {3, -4});
}

TEST(MathRoundingExamples, Trunc) {
  ExpectHalfExample(Api::kTrunc, Profile::kA2,
                    {9.33f, -8.07f, -6.38f, 8.45f, 5.83f, 6.46f, 4.18f, 1.93f},
                    {9, -8, -6, 8, 5, 6, 4, 1});
  ExpectHalfExample(Api::kTrunc, Profile::kA2, {3.9f, -3.9f}, {3, -3});
}

// The page's printed inputs are rounded; its ties (6.5 printed) are not
// exact inputs, so the example's other values are checked, and the page's
// rule (a tie to the even integer) on exact ties.
TEST(MathRoundingExamples, Round) {
  ExpectHalfExample(Api::kRound, Profile::kA2,
                    {0.80541134f, 0.8385705f, 0.49426016f, 1.30962205f,
                     0.28947052f, 6.6f, -4.3f, -8.6f, 8.8f, -8.3f, 3.5f, -3.4f},
                    {1, 1, 0, 1, 0, 7, -4, -9, 9, -8, 4, -3});
  ExpectHalfExample(Api::kRound, Profile::kA2, {0.5f, 1.5f, 2.5f, -2.5f},
                    {0, 2, 2, -2});
}

TEST(MathRoundingExamples, Rint) {
  ExpectHalfExample(Api::kRint, Profile::k950,
                    {-1.5f, -1.3f, -0.9f, -0.5f, 0.5f, 0.9f, 1.1f, 1.5f, 2.2f,
                     2.5f, 2.8f, 3.2f},
                    {-2, -1, -1, 0, 0, 1, 1, 2, 2, 2, 3, 3});
  ExpectHalfExample(Api::kRint, Profile::k950, {3.9f, 3.3f, 3.5f}, {4, 3, 4});
}

// Frac's example prints float results to two decimals; the page's worked
// values are exact floats.
TEST(MathRoundingExamples, Frac) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<float> in = {9.33f, -8.07f, -6.38f, 8.45f,       5.83f,
                                 6.46f, 4.18f,  1.93f,  -258.41888f, 5592.625f};
  const std::vector<double> printed = {0.33, -0.07, -0.38, 0.45,        0.83,
                                       0.46, 0.18,  0.93,  -0.41888428, 0.625};
  Tensors<float> t(16, 256);
  for (uint32_t i = 0; i < 16; ++i) t.src.SetValue(i, i < 10 ? in[i] : 0.0f);
  AscendC::Frac<float, false>(t.dst, t.src);
  for (uint32_t i = 0; i < 10; ++i) {
    EXPECT_NEAR(t.dst.GetValue(i), printed[i], i < 8 ? 0.005 : 1e-7) << i;
  }
  EXPECT_EQ(t.dst.GetValue(9), 0.625f);
}

TEST(MathRoundingExamples, Sign) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<float> in = {-INFINITY, -2.0f, -0.0f, 0.0f,
                                 NAN,       -NAN,  2.0f,  INFINITY};
  const std::vector<float> printed = {-1, -1, 0, 0, 0, 0, 1, 1};
  Tensors<float> t(8, 256);
  for (uint32_t i = 0; i < 8; ++i) t.src.SetValue(i, in[i]);
  AscendC::Sign(t.dst, t.src);
  AscendC::Sign(t.dst, t.src, 8);
  AscendC::Sign(t.dst, t.src, t.tmp);
  AscendC::Sign(t.dst, t.src, t.tmp, 8);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(FloatBits(t.dst.GetValue(i)), FloatBits(printed[i])) << i;
  }
}

// ---- Profiles, and what a call may share ------------------------------------

TEST(MathRounding, TruncAndRoundMayWriteTheirSourceInPlace) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(64, 256);
  for (uint32_t i = 0; i < 64; ++i) t.src.SetValue(i, -2.75f + i);
  AscendC::Trunc(t.src, t.src, t.tmp, 64);
  EXPECT_EQ(t.src.GetValue(0), -2.0f);
  EXPECT_EQ(t.src.GetValue(63), 60.0f);
  for (uint32_t i = 0; i < 64; ++i) t.src.SetValue(i, 0.5f + i);
  AscendC::Round(t.src, t.src, 64);
  EXPECT_EQ(t.src.GetValue(0), 0.0f);
  EXPECT_EQ(t.src.GetValue(1), 2.0f);
}

TEST(MathRounding, AtlasInferenceTakesFiniteInputsInRange) {
  const ProfileScope scope(Profile::k310P);
  std::vector<uint32_t> in;
  for (const float f : {-2147483520.0f, -1.5f, 0.5f, 2147483520.0f}) {
    for (int i = 0; i < 16; ++i) in.push_back(FloatBits(f));
  }
  for (const ApiInfo& a : kApis) {
    if (a.only_950) continue;
    const auto out = RunOnBits<float>(a.api, Form::kSharedCount, in, 256);
    ExpectExact<float>(a.api, a.name, "float", in, out, "profile 310p");
  }
}

class MathRoundingChecks : public ::testing::Test {
 protected:
  ProfileScope scope{Profile::kA2};
  Tensors<float> t{64, 256};
};

TEST_F(MathRoundingChecks, RintIsOnAscend950Only) {
  EXPECT_TRUE(FailsWith([&] { AscendC::Rint(t.dst, t.src, t.tmp, 64); },
                        "Rint: not available on profile Atlas A2/A3 (a2): "
                        "the documentation lists Rint for Ascend 950 only"));
}

TEST_F(MathRoundingChecks, SignOnInt64IsOnAscend950Only) {
  const LocalTensor<int64_t> dst = t.dst.ReinterpretCast<int64_t>();
  const LocalTensor<int64_t> src = t.src.ReinterpretCast<int64_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sign(dst, src, 32); },
      "Sign: T is int64_t, which profile Atlas A2/A3 (a2) does not take: "
      "Sign takes int64_t on Ascend 950 only (half and float on every "
      "profile)"));
}

TEST_F(MathRoundingChecks, CalCountWithinTheTensors) {
  EXPECT_TRUE(FailsWith([&] { AscendC::Floor(t.dst, t.src, t.tmp, 65); },
                        "Floor: srcTensor holds 64 floats, fewer than the 65 "
                        "it must hold (calCount)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Frac(t.dst[32], t.src); },
      "Frac: dstTensor holds 32 floats, fewer than the 64 it must hold "
      "(every element of srcTensor)"));
}

TEST_F(MathRoundingChecks, ScratchOfAtLeastTheMinimum) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Ceil(t.dst, t.src, t.tmp[32], 64); },
      "Ceil: sharedTmpBuffer holds 224 bytes, fewer than the 256 a call on "
      "floats needs (GetCeilMaxMinTmpSize's minValue: a pass of 64 "
      "elements, 4 bytes each)"));
}

TEST_F(MathRoundingChecks, TensorsPlacedForTheVectorUnit) {
  EXPECT_TRUE(FailsWith([&] { AscendC::Ceil(t.dst, t.src[1], t.tmp, 8); },
                        "Ceil: srcTensor"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Ceil(t.dst, t.src, t.tmp[4], 8); },
                        "Ceil: sharedTmpBuffer"));
}

TEST_F(MathRoundingChecks, DstAndSrcMustNotShareMemory) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Ceil(t.src, t.src, t.tmp, 64); },
      "Ceil: dstTensor (UB bytes [0, 256)) and srcTensor (UB bytes [0, 256)) "
      "overlap; Ceil does not support srcTensor and dstTensor sharing "
      "memory"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Sign(t.src[8], t.src, t.tmp, 16); },
                        "Sign does not support srcTensor and dstTensor "
                        "sharing memory"));
}

TEST_F(MathRoundingChecks, InPlaceButNotPartly) {
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Trunc(t.src[8], t.src, t.tmp, 32); },
      "Trunc: dstTensor (UB bytes [32, 160)) and srcTensor (UB bytes [0, "
      "128)) overlap; dstTensor may be srcTensor itself but must not overlap "
      "it partly"));
}

TEST_F(MathRoundingChecks, ScratchSharesNothing) {
  const LocalTensor<uint8_t> over_dst = t.dst.ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Round(t.dst, t.dst, over_dst, 64); },
      "Round: dstTensor (UB bytes [256, 512)) and sharedTmpBuffer (UB bytes "
      "[256, 512)) overlap"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Floor(t.src, t.dst, over_dst, 64); },
      "Floor: srcTensor (UB bytes [256, 512)) and sharedTmpBuffer (UB bytes "
      "[256, 512)) overlap; Floor writes its scratch, so it must not share "
      "memory with srcTensor or dstTensor"));
}

TEST_F(MathRoundingChecks, NoFrameworkScratchLeft) {
  TBuf<TPosition::VECCALC> rest;
  t.pipe.InitBuffer(rest, normgrad_ascendc::CurrentCore().scratch_end() -
                              t.pipe.used_bytes());
  EXPECT_TRUE(FailsWith([&] { AscendC::Trunc(t.dst, t.src); },
                        "Trunc: no framework scratch is left"));
}

TEST(MathRoundingRange, AtlasInferenceRefusesInputsOutOfRange) {
  const ProfileScope scope(Profile::k310P);
  Tensors<float> t(64, 256);
  for (uint32_t i = 0; i < 64; ++i) t.src.SetValue(i, 1.0f);
  t.src.SetValue(5, 3e9f);
  EXPECT_TRUE(FailsWith([&] { AscendC::Ceil(t.dst, t.src, t.tmp, 64); },
                        "Ceil: srcTensor[5] is 3e+09, outside [-2147483647, "
                        "2147483647]: on Atlas inference AI Core (310p) Ceil "
                        "takes inputs in that range only"));
  t.src.SetValue(5, NAN);
  EXPECT_TRUE(FailsWith([&] { AscendC::Frac(t.dst, t.src); },
                        "Frac: srcTensor[5] is nan, outside"));
  // Round and Sign have no such limit.
  AscendC::Round(t.dst, t.src, t.tmp, 64);
  AscendC::Sign(t.dst, t.src, t.tmp, 64);
  EXPECT_EQ(FloatBits(t.dst.GetValue(5)), FloatBits(0.0f));
}

}  // namespace

// quant_test.cc — the Quantization family (AscendQuant, AscendDequant,
// AscendAntiQuant) through kernel_operator.h on the emulated core, and their
// scratch-size queries through tiling_api.h: the pages' examples; every
// output bit for bit against a reference written here from the pages' steps
// (each step exact in double, then rounded as the page says: to half,
// bfloat16_t or float to nearest even, to int8_t to nearest even and
// saturated); every half input of AscendQuant, a dense bounded sweep of
// float inputs and the special values; every documented overload and form;
// every type per profile; every check's message; the queries' sizes and bad
// input.
//
// The references share no code with src/. Random data uses a fixed seed,
// printed; NORMGRAD_SEED=<n> overrides it. To add a case: a shape or a value
// set to the test of its API.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

uint32_t Seed() { return compat_test::Seed<20261206>(); }

// ---- References -------------------------------------------------------------

// x rounded to nearest even in a binary format of `digits` significant bits
// whose smallest normal exponent is `emin` (subnormals below it), ±inf past
// `max` after rounding.
double RoundTo(double x, int digits, int emin, double max) {
  if (!std::isfinite(x) || x == 0) return x;
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const int exponent = std::max(e - 1, emin);
  const double quantum = std::ldexp(1.0, exponent - (digits - 1));
  const double r = std::nearbyint(x / quantum) * quantum;
  return std::fabs(r) > max ? std::copysign(INFINITY, x) : r;
}

double ToHalf(double x) { return RoundTo(x, 11, -14, 65504.0); }
double ToBf16(double x) { return RoundTo(x, 8, -126, 3.3895313892515355e38); }
double ToFloat(double x) { return RoundTo(x, 24, -126, FLT_MAX); }

// To int8_t: nearest even, saturated; NaN gives 0.
int8_t ToInt8(double x) {
  if (std::isnan(x)) return 0;
  const double r = std::nearbyint(x);
  return static_cast<int8_t>(std::min(127.0, std::max(-128.0, r)));
}

// ---- Tensors ----------------------------------------------------------------

uint32_t Round32(uint64_t bytes) {
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

// Buffers of one pipe, handed out in order.
struct Ub {
  template <typename T>
  LocalTensor<T> Alloc(uint32_t elements) {
    TBuf<TPosition::VECCALC>& b = bufs[used++];
    pipe.InitBuffer(b, Round32(uint64_t{elements} * sizeof(T)));
    return b.Get<T>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[8];
  int used = 0;
};

template <typename T>
void Put(const LocalTensor<T>& t, const std::vector<T>& v) {
  std::memcpy(static_cast<void*>(t.GetPhyAddr()), v.data(),
              v.size() * sizeof(T));
}

template <typename T>
std::vector<T> Take(const LocalTensor<T>& t, size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), static_cast<const void*>(t.GetPhyAddr()),
              n * sizeof(T));
  return v;
}

template <typename T>
double Value(T v) {
  return static_cast<double>(static_cast<float>(v));
}

// Same value (NaN equals NaN, ±0 distinguished).
bool SameValue(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <typename T>
std::vector<T> Values(const std::vector<double>& v) {
  std::vector<T> out;
  out.reserve(v.size());
  for (double x : v) out.push_back(T(static_cast<float>(x)));
  return out;
}

// ---- AscendQuant ------------------------------------------------------------

// The page's steps: src, scale and offset to half, x·scale rounded to half,
// + offset rounded to half, then to int8_t.
int8_t QuantRef(double x, double scale, double offset) {
  const double p = ToHalf(ToHalf(x) * ToHalf(scale));
  return ToInt8(ToHalf(p + ToHalf(offset)));
}

// bfloat16_t (the dstT form): in float.
int8_t QuantRefFloat(double x, double scale, double offset) {
  return ToInt8(ToFloat(ToFloat(x * scale) + offset));
}

// Checks n results against QuantRef; prints the first few mismatches.
::testing::AssertionResult QuantMatches(const std::vector<int8_t>& got,
                                        const std::vector<double>& src,
                                        const std::vector<double>& scale,
                                        const std::vector<double>& offset,
                                        bool in_float = false) {
  int bad = 0;
  ::testing::AssertionResult r = ::testing::AssertionSuccess();
  for (size_t i = 0; i < got.size(); ++i) {
    const double s = scale[i % scale.size()], o = offset[i % offset.size()];
    const int8_t want =
        in_float ? QuantRefFloat(src[i], s, o) : QuantRef(src[i], s, o);
    if (got[i] != want && bad++ < 5) {
      r = ::testing::AssertionFailure();
      r << "[" << i << "] src " << src[i] << " scale " << s << " offset " << o
        << ": got " << int{got[i]} << ", want " << int{want} << "\n";
    }
  }
  return r;
}

template <typename T>
void QuantPerTensorExample() {
  // The page's example: 1024 values -512..511, scale 0.02, offset 0.9, the
  // first 1022 computed.
  Ub ub;
  auto src = ub.Alloc<T>(1024);
  auto dst = ub.Alloc<int8_t>(1024);
  auto tmp = ub.Alloc<uint8_t>(4096);
  std::vector<double> x(1024);
  for (int i = 0; i < 1024; ++i) x[i] = i - 512;
  Put(src, Values<T>(x));
  Put(dst, std::vector<int8_t>(1024, 77));
  AscendC::AscendQuant<T>(dst, src, tmp, 0.02f, 0.9f, 1022);
  std::vector<int8_t> got = Take(dst, 1024);
  EXPECT_EQ(got[0], -9);  // -512 · 0.02 + 0.9 = -9.34
  EXPECT_EQ(got[1021], 11);
  EXPECT_EQ(got[1022], 77);  // past calCount: not written
  EXPECT_EQ(got[1023], 77);
  got.resize(1022);
  EXPECT_TRUE(QuantMatches(got, x, {0.02f}, {0.9f}));
  // The framework scratch, and the whole tensor.
  AscendC::AscendQuant<T>(dst, src, 0.02f, 0.9f);
  EXPECT_TRUE(QuantMatches(Take(dst, 1024), x, {0.02f}, {0.9f}));
  Put(dst, std::vector<int8_t>(1024, 0));
  AscendC::AscendQuant<T>(dst, src, tmp, 0.02f, 0.9f);
  EXPECT_TRUE(QuantMatches(Take(dst, 1024), x, {0.02f}, {0.9f}));
  Put(dst, std::vector<int8_t>(1024, 0));
  AscendC::AscendQuant<T>(dst, src, 0.02f, 0.9f, 512);
  EXPECT_TRUE(QuantMatches(Take(dst, 512), x, {0.02f}, {0.9f}));
  EXPECT_EQ(Take(dst, 1024)[512], 0);
}

TEST(AscendQuant, PerTensorExampleHalfAndFloat) {
  QuantPerTensorExample<half>();
  QuantPerTensorExample<float>();
}

TEST(AscendQuant, EveryHalfInput) {
  // Every half bit pattern (NaN, ±inf, subnormals, the ties of x.5 to
  // even, saturation) through two (scale, offset) pairs.
  constexpr uint32_t kChunk = 8192;
  const double pairs[][2] = {{1.0, 0.0}, {0.0999755859375, -3.5}};
  for (const auto& pr : pairs) {
    for (uint32_t first = 0; first < 65536; first += kChunk) {
      Ub ub;
      auto src = ub.Alloc<half>(kChunk);
      auto dst = ub.Alloc<int8_t>(kChunk);
      std::vector<half> h(kChunk);
      std::vector<double> x(kChunk);
      for (uint32_t i = 0; i < kChunk; ++i) {
        h[i] = half::FromBits(static_cast<uint16_t>(first + i));
        x[i] = Value(h[i]);
      }
      Put(src, h);
      AscendC::AscendQuant<half>(dst, src, static_cast<float>(pr[0]),
                                 static_cast<float>(pr[1]));
      ASSERT_TRUE(QuantMatches(Take(dst, kChunk), x, {pr[0]}, {pr[1]}))
          << "from half bits " << first;
    }
  }
  // The ties themselves: nearest even.
  Ub ub;
  auto src = ub.Alloc<half>(16);
  auto dst = ub.Alloc<int8_t>(32);
  Put(src, Values<half>({0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 127.5, -128.5, 300,
                         -300, 126.5, 3.25, -3.75, 0, -0.0, 1000}));
  AscendC::AscendQuant<half>(dst, src, 1.0f, 0.0f, 16);
  const std::vector<int8_t> want = {0,   2,    2,   0, -2, -2, 127, -128,
                                    127, -128, 126, 3, -4, 0,  0,   127};
  EXPECT_EQ(Take(dst, 16), want);
}

TEST(AscendQuant, FloatInputsSweep) {
  // A dense bounded sweep: random floats over many magnitudes, the special
  // values, and scales and offsets that round when narrowed to half.
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<double> mag(-12, 12);
  std::uniform_real_distribution<double> unit(-1, 1);
  constexpr uint32_t kN = 8192;
  std::vector<double> x(kN);
  for (uint32_t i = 0; i < kN; ++i) {
    x[i] = static_cast<float>(unit(rng) * std::exp2(mag(rng)));
  }
  const double specials[] = {
      NAN,  INFINITY, -INFINITY,  65504,     65520,   -65536,
      1e-8, -0.0,     0.49999997, 2.5000002, FLT_MAX, std::ldexp(1.0, -25)};
  for (size_t i = 0; i < std::size(specials); ++i) x[i] = specials[i];
  for (int round = 0; round < 3; ++round) {
    const double scale = static_cast<float>(unit(rng) * 8);
    const double offset = static_cast<float>(unit(rng) * 30);
    Ub ub;
    auto src = ub.Alloc<float>(kN);
    auto dst = ub.Alloc<int8_t>(kN);
    auto tmp = ub.Alloc<uint8_t>(kN * 4);
    Put(src, Values<float>(x));
    AscendC::AscendQuant<float>(dst, src, tmp, static_cast<float>(scale),
                                static_cast<float>(offset), kN);
    EXPECT_TRUE(QuantMatches(Take(dst, kN), x, {scale}, {offset}))
        << "scale " << scale << " offset " << offset;
  }
}

template <typename T>
void QuantPerChannel() {
  // src [16, 64], scale and offset [64]: every overload of the form.
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<double> u(-1, 1);
  constexpr uint32_t kCols = 64, kN = 16 * kCols;
  std::vector<double> x(kN), sc(kCols), of(kCols);
  for (double& v : x) v = static_cast<float>(u(rng) * 300);
  for (double& v : sc) v = static_cast<float>(u(rng) * 0.6);
  for (double& v : of) v = static_cast<float>(u(rng) * 20);
  // T values: what the kernel reads.
  const std::vector<T> xs = Values<T>(x), scs = Values<T>(sc),
                       ofs = Values<T>(of);
  for (uint32_t i = 0; i < kN; ++i) x[i] = Value(xs[i]);
  for (uint32_t i = 0; i < kCols; ++i)
    sc[i] = Value(scs[i]), of[i] = Value(ofs[i]);
  Ub ub;
  auto src = ub.Alloc<T>(kN);
  auto dst = ub.Alloc<int8_t>(kN);
  auto scale = ub.Alloc<T>(kCols);
  auto offset = ub.Alloc<T>(kCols);
  auto tmp = ub.Alloc<uint8_t>(kN * sizeof(T));
  Put(src, xs);
  Put(scale, scs);
  Put(offset, ofs);
  const T off = ofs[5];
  const auto check = [&](uint32_t n, bool tensor_offset) {
    std::vector<double> o =
        tensor_offset ? of : std::vector<double>{Value(off)};
    std::vector<double> xs_n(x.begin(), x.begin() + n);
    std::vector<int8_t> got = Take(dst, n);
    if (!tensor_offset) {
      // QuantMatches pairs offset i with element i: repeat the scalar.
      o.assign(kCols, Value(off));
    }
    EXPECT_TRUE(QuantMatches(got, xs_n, sc, o)) << "n " << n;
    Put(dst, std::vector<int8_t>(kN, 0));
  };
  AscendC::AscendQuant<T>(dst, src, tmp, scale, offset, kCols, kCols, kN);
  check(kN, true);
  AscendC::AscendQuant<T>(dst, src, tmp, scale, off, kCols, 512);
  check(512, false);
  AscendC::AscendQuant<T>(dst, src, tmp, scale, offset);
  check(kN, true);
  AscendC::AscendQuant<T>(dst, src, tmp, scale, off);
  check(kN, false);
  AscendC::AscendQuant<T>(dst, src, scale, offset, kCols, kCols, 256);
  check(256, true);
  AscendC::AscendQuant<T>(dst, src, scale, off, kCols, kN);
  check(kN, false);
  AscendC::AscendQuant<T>(dst, src, scale, offset);
  check(kN, true);
  AscendC::AscendQuant<T>(dst, src, scale, off);
  check(kN, false);
  // A scaleCount of 32 repeats the first 32 parameters.
  AscendC::AscendQuant<T>(dst, src, tmp, scale, offset, 32, 32, kN);
  std::vector<double> sc32(sc.begin(), sc.begin() + 32);
  std::vector<double> of32(of.begin(), of.begin() + 32);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc32, of32));
}

TEST(AscendQuant, PerChannelEveryOverload) {
  QuantPerChannel<half>();
  QuantPerChannel<float>();
}

TEST(AscendQuant, ConfigCountsReplaceTheArguments) {
  static constexpr AscendC::AscendQuantConfig kCfg = {256, 0, 0, 1024};
  Ub ub;
  auto src = ub.Alloc<half>(1024);
  auto dst = ub.Alloc<int8_t>(1024);
  auto tmp = ub.Alloc<uint8_t>(2048);
  std::vector<double> x(1024);
  for (int i = 0; i < 1024; ++i) x[i] = (i % 97) - 40.25;
  Put(src, Values<half>(x));
  Put(dst, std::vector<int8_t>(1024, 5));
  AscendC::AscendQuant<half, false, kCfg>(dst, src, tmp, 0.5f, 1.0f);
  const std::vector<int8_t> got = Take(dst, 1024);
  EXPECT_TRUE(QuantMatches({got.begin(), got.begin() + 256}, x, {0.5}, {1.0}));
  EXPECT_EQ(got[256], 5);
  static constexpr AscendC::AscendQuantConfig kTooMuch = {0, 0, 0, 4096};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<half, false, kTooMuch>(dst, src, tmp, 0.5f, 1.0f);
      },
      "AscendQuant: config.workLocalSize is 4096 bytes, more than "
      "sharedTmpBuffer's 2048; it must not be"));
}

TEST(AscendQuant, DstTFormOn950) {
  const ProfileScope scope(Profile::k950);
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<double> u(-200, 200);
  constexpr uint32_t kN = 512;
  std::vector<double> x(kN), sc(32), of(32);
  for (double& v : x) v = Value(bfloat16_t(static_cast<float>(u(rng))));
  for (double& v : sc) v = Value(bfloat16_t(static_cast<float>(u(rng) / 300)));
  for (double& v : of) v = Value(bfloat16_t(static_cast<float>(u(rng) / 10)));
  Ub ub;
  auto src = ub.Alloc<bfloat16_t>(kN);
  auto dst = ub.Alloc<int8_t>(kN);
  auto scale = ub.Alloc<bfloat16_t>(32);
  auto offset = ub.Alloc<bfloat16_t>(32);
  auto tmp = ub.Alloc<uint8_t>(kN * 2);
  Put(src, Values<bfloat16_t>(x));
  Put(scale, Values<bfloat16_t>(sc));
  Put(offset, Values<bfloat16_t>(of));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, tmp, scale, offset, 32, 32,
                                           kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, of, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, 0.25f, -1.5f);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, {0.25}, {-1.5}, true));
  // half and float take the int8_t form's path through half.
  auto hsrc = ub.Alloc<half>(kN);
  Put(hsrc, Values<half>(x));
  AscendC::AscendQuant<int8_t, half>(dst, hsrc, tmp, 0.3f, 2.0f, kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, {0.3f}, {2.0}));
  // Every other overload of the form.
  const bfloat16_t off = bfloat16_t(1.5f);
  const std::vector<double> offv(32, 1.5);
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, tmp, scale, off, 32, kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, offv, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, tmp, scale, off);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, offv, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, tmp, scale, offset);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, of, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, scale, off, 32, kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, offv, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, scale, offset, 32, 32, kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, of, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, scale, off);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, offv, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, scale, offset);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, sc, of, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, tmp, -0.25f, 1.0f);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, {-0.25}, {1.0}, true));
  AscendC::AscendQuant<int8_t, bfloat16_t>(dst, src, 0.125f, 0.0f, kN);
  EXPECT_TRUE(QuantMatches(Take(dst, kN), x, {0.125}, {0.0}, true));
}

TEST(AscendQuant, DstTFormOnlyOn950) {
  for (Profile p : {Profile::kA2, Profile::k310P}) {
    const ProfileScope scope(p);
    Ub ub;
    auto src = ub.Alloc<half>(64);
    auto dst = ub.Alloc<int8_t>(64);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::AscendQuant<int8_t, half>(dst, src, 1.0f, 0.0f); },
        "AscendQuant: the dstT form (dstT int8_t, srcT half) is not available "
        "on profile"));
    // The int8_t form runs on every profile.
    AscendC::AscendQuant<half>(dst, src, 1.0f, 0.0f);
  }
}

TEST(AscendQuant, Checks) {
  Ub ub;
  auto src = ub.Alloc<float>(256);
  auto dst = ub.Alloc<int8_t>(256);
  auto scale = ub.Alloc<float>(64);
  auto offset = ub.Alloc<float>(64);
  auto tmp = ub.Alloc<uint8_t>(1024);
  Put(src, std::vector<float>(256, 1.0f));
  Put(scale, std::vector<float>(64, 0.5f));
  Put(offset, std::vector<float>(64, 0.0f));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<float>(dst, src, tmp, 1.0f, 0.0f, 300); },
      "AscendQuant: calCount is 300, more than srcTensor's 256 or dstTensor's "
      "256 elements; it must be at most both"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<float>(dst, src, tmp, scale, offset, 48, 48, 96);
      },
      "AscendQuant: scaleCount is 48; it must be a nonzero multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<float>(dst, src, tmp, scale, offset, 96, 96, 96);
      },
      "AscendQuant: scaleCount is 96, more than scaleTensor's 64 or "
      "dstTensor's 256 elements"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<float>(dst, src, tmp, scale, offset, 64, 32, 128);
      },
      "AscendQuant: offsetCount is 32 but scaleCount is 64; they must be "
      "equal"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<float>(dst, src, tmp, scale, offset, 64, 64, 96);
      },
      "AscendQuant: calCount is 96, not a multiple of scaleCount 64; it must "
      "be one"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<float>(dst, src, tmp, 70000.0f, 0.0f); },
      "AscendQuant: scale is 70000, outside half's range [-65504, 65504]; a "
      "float scale must lie in it"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::AscendQuant<float>(dst, src, tmp, NAN, 0.0f); },
                "AscendQuant: scale is nan, outside half's range"));
  std::vector<float> bad(64, 0.5f);
  bad[3] = -1e6f;
  Put(scale, bad);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<float>(dst, src, tmp, scale, offset); },
      "AscendQuant: scaleTensor[3] is -1e+06, outside half's range"));
  Put(scale, std::vector<float>(64, 0.5f));
  auto small = tmp[512];  // 512 bytes left: 256 floats need 1024
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<float>(dst, src, small, 1.0f, 0.0f); },
      "AscendQuant: sharedTmpBuffer holds 512 bytes, fewer than the 1024 the "
      "call needs (GetAscendQuantMaxMinTmpSize for calCount elements)"));
  // dst may be src itself, not part of a parameter.
  auto as_int8 = scale.ReinterpretCast<int8_t>();
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendQuant<float>(as_int8, src, tmp, scale, offset, 64, 64,
                                    64);
      },
      "AscendQuant: dstTensor (UB bytes"));
  auto in_place = src.ReinterpretCast<int8_t>();
  AscendC::AscendQuant<float>(in_place, src, tmp, 2.0f, 1.0f, 256);
  EXPECT_EQ(Take(in_place, 4), (std::vector<int8_t>{3, 3, 3, 3}));
  auto vecin_less = dst[1];  // not 32-byte aligned
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<float>(vecin_less, src, 1.0f, 0.0f, 32); },
      "AscendQuant"));
}

// ---- AscendDequant ----------------------------------------------------------

// The page's steps: src and deqScale to float, their product in float, then
// to dstT.
double DequantRef(int32_t x, double scale, double (*to_dst)(double)) {
  return to_dst(ToFloat(ToFloat(x) * scale));
}

template <typename D>
double (*ToDst())(double) {
  if constexpr (std::is_same_v<D, half>) return &ToHalf;
  if constexpr (std::is_same_v<D, bfloat16_t>) return &ToBf16;
  return &ToFloat;
}

// Checks rows x cal results (rows of n_dst) against DequantRef; elements
// past cal in each row must still hold `fill`.
template <typename D>
::testing::AssertionResult DequantMatches(
    const LocalTensor<D>& dst, const std::vector<int32_t>& src, uint32_t rows,
    uint32_t n, uint32_t cal, const std::vector<double>& scale, double fill) {
  const uint32_t n_dst = (n * sizeof(D) + 31) / 32 * 32 / sizeof(D);
  const std::vector<D> got = Take(dst, size_t{rows} * n_dst);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < n_dst; ++j) {
      const double g = Value(got[r * n_dst + j]);
      const double want =
          j < cal
              ? DequantRef(src[r * n + j], scale[j % scale.size()], ToDst<D>())
              : fill;
      if (!SameValue(g, want)) {
        return ::testing::AssertionFailure()
               << "[" << r << "][" << j << "]: got " << g << ", want " << want;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(AscendDequant, PageExample) {
  // 4 x 8 int32_t, -16..15; deqScale [2.2, -2.2, ...]; calCount 6.
  Ub ub;
  auto src = ub.Alloc<int32_t>(32);
  auto dst = ub.Alloc<float>(32);
  auto scale = ub.Alloc<float>(8);
  auto tmp = ub.Alloc<uint8_t>(128);
  std::vector<int32_t> x(32);
  for (int i = 0; i < 32; ++i) x[i] = i - 16;
  const std::vector<float> s = {2.2f, -2.2f, 2.2f, -2.2f, 2.2f, -2.2f, 0, 0};
  Put(src, x);
  Put(scale, s);
  Put(dst, std::vector<float>(32, -1.0f));
  AscendC::AscendDequant(dst, src, scale, tmp, {4, 8, 6});
  const std::vector<double> sd(s.begin(), s.end());
  EXPECT_TRUE(DequantMatches(dst, x, 4, 8, 6, sd, -1.0));
  const std::vector<float> got = Take(dst, 32);
  EXPECT_NEAR(got[0], -35.2, 1e-5);
  EXPECT_NEAR(got[1], 33.0, 1e-5);
  EXPECT_NEAR(got[8 * 3 + 5], -28.6, 1e-5);
  // The other forms with the same values.
  Put(dst, std::vector<float>(32, -1.0f));
  AscendC::AscendDequant(dst, src, scale, {4, 8, 6});
  EXPECT_TRUE(DequantMatches(dst, x, 4, 8, 6, sd, -1.0));
  Put(dst, std::vector<float>(32, -1.0f));
  AscendC::AscendDequant(dst, src, 2.2f, tmp, {4, 8, 6});
  EXPECT_TRUE(DequantMatches(dst, x, 4, 8, 6, {2.2f}, -1.0));
  Put(dst, std::vector<float>(32, -1.0f));
  AscendC::AscendDequant(dst, src, 2.2f, {4, 8, 6});
  EXPECT_TRUE(DequantMatches(dst, x, 4, 8, 6, {2.2f}, -1.0));
}

TEST(AscendDequant, EveryTypePairAndPaddedRows) {
  std::mt19937 rng(Seed());
  std::uniform_int_distribution<int32_t> big(-(1 << 30), 1 << 30);
  std::uniform_real_distribution<double> u(-3, 3);
  constexpr uint32_t kRows = 3, kN = 24, kCal = 20;
  std::vector<int32_t> x(kRows * kN);
  for (int32_t& v : x) v = big(rng) >> (rng() % 28);
  x[0] = INT32_MAX;
  x[1] = INT32_MIN;
  x[2] = 16777217;  // rounds to float
  std::vector<double> sf(kN), sb(kN);
  for (uint32_t j = 0; j < kN; ++j) {
    sf[j] = static_cast<float>(u(rng) *
                               std::exp2(static_cast<int>(rng() % 16) - 8));
    sb[j] = Value(bfloat16_t(static_cast<float>(sf[j])));
  }
  {  // float dst: float and bfloat16_t scales, tensor and scalar.
    Ub ub;
    auto src = ub.Alloc<int32_t>(kRows * kN);
    auto tmp = ub.Alloc<uint8_t>(kRows * kN * 4);
    Put(src, x);
    auto dst = ub.Alloc<float>(kRows * kN);
    auto s32 = ub.Alloc<float>(kN);
    auto s16 = ub.Alloc<bfloat16_t>(kN);
    Put(s32, Values<float>(sf));
    Put(s16, Values<bfloat16_t>(sb));
    Put(dst, std::vector<float>(kRows * kN, 0.0f));
    AscendC::AscendDequant(dst, src, s32, tmp, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, sf, 0.0));
    AscendC::AscendDequant(dst, src, s16, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, sb, 0.0));
    AscendC::AscendDequant(dst, src, bfloat16_t(0.375f), {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, {0.375}, 0.0));
  }
  {  // bfloat16_t dst: rows of 24 padded to 32.
    Ub ub2;
    auto src2 = ub2.Alloc<int32_t>(kRows * kN);
    Put(src2, x);
    auto dst = ub2.Alloc<bfloat16_t>(kRows * 32);
    auto s32 = ub2.Alloc<float>(kN);
    auto s16 = ub2.Alloc<bfloat16_t>(kN);
    Put(s32, Values<float>(sf));
    Put(s16, Values<bfloat16_t>(sb));
    Put(dst, std::vector<bfloat16_t>(kRows * 32, bfloat16_t(7.0f)));
    AscendC::AscendDequant(dst, src2, s32, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, sf, 7.0));
    AscendC::AscendDequant(dst, src2, s16, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, sb, 7.0));
    AscendC::AscendDequant(dst, src2, -1.25f, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, {-1.25}, 7.0));
  }
  {  // half dst with uint64_t scales: the float in the low 32 bits.
    Ub ub3;
    auto src3 = ub3.Alloc<int32_t>(kRows * kN);
    Put(src3, x);
    auto dst = ub3.Alloc<half>(kRows * 32);
    auto s64 = ub3.Alloc<uint64_t>(kN);
    std::vector<uint64_t> bits(kN);
    for (uint32_t j = 0; j < kN; ++j) {
      const float f = static_cast<float>(sf[j]) / 4096;
      uint32_t b = 0;
      std::memcpy(&b, &f, 4);
      bits[j] = (uint64_t{0xABCD} << 32) | b;  // the high bits are ignored
    }
    std::vector<double> s64v(kN);
    for (uint32_t j = 0; j < kN; ++j)
      s64v[j] = static_cast<float>(sf[j]) / 4096;
    Put(s64, bits);
    Put(dst, std::vector<half>(kRows * 32, half(3.0f)));
    AscendC::AscendDequant(dst, src3, s64, {kRows, kN, kCal});
    EXPECT_TRUE(DequantMatches(dst, x, kRows, kN, kCal, s64v, 3.0));
  }
}

TEST(AscendDequant, SingleRowModeAndLegacyForms) {
  // {1, 16, 8} float: SINGLE_ROW reads it as {2, 8, 8}; MULTI_ROW as one
  // row whose first 8 are computed.
  std::vector<int32_t> x(16);
  for (int i = 0; i < 16; ++i) x[i] = 3 * i - 20;
  const std::vector<double> s = {0.5, -1, 2, 3, 0.25, 1, -4, 8};
  {
    Ub ub;
    auto src = ub.Alloc<int32_t>(16);
    auto dst = ub.Alloc<float>(16);
    auto scale = ub.Alloc<float>(8);
    Put(src, x);
    Put(scale, Values<float>(s));
    Put(dst, std::vector<float>(16, 9.0f));
    AscendC::AscendDequant(dst, src, scale, {1, 16, 8});
    EXPECT_TRUE(DequantMatches(dst, x, 2, 8, 8, s, 9.0));
    Put(dst, std::vector<float>(16, 9.0f));
    AscendC::AscendDequant<float, float,
                           AscendC::DeQuantMode::DEQUANT_WITH_MULTI_ROW>(
        dst, src, scale, {1, 16, 8});
    EXPECT_TRUE(DequantMatches(dst, x, 1, 16, 8, s, 9.0));
  }
  // The forms the page no longer recommends: one row of the whole src.
  Ub ub2;
  auto src2 = ub2.Alloc<int32_t>(8);
  auto dst2 = ub2.Alloc<float>(8);
  auto scale2 = ub2.Alloc<float>(8);
  auto tmp2 = ub2.Alloc<uint8_t>(64);
  Put(src2, std::vector<int32_t>(x.begin(), x.begin() + 8));
  Put(scale2, Values<float>(s));
  const std::vector<int32_t> x8(x.begin(), x.begin() + 8);
  Put(dst2, std::vector<float>(8, 9.0f));
  AscendC::AscendDequant<float, float,
                         AscendC::DeQuantMode::DEQUANT_WITH_MULTI_ROW>(
      dst2, src2, scale2, tmp2, 5u);
  EXPECT_TRUE(DequantMatches(dst2, x8, 1, 8, 5, s, 9.0));
  AscendC::AscendDequant(dst2, src2, scale2, tmp2);
  EXPECT_TRUE(DequantMatches(dst2, x8, 1, 8, 8, s, 9.0));
  Put(dst2, std::vector<float>(8, 9.0f));
  AscendC::AscendDequant<float, float,
                         AscendC::DeQuantMode::DEQUANT_WITH_MULTI_ROW>(
      dst2, src2, scale2, 3u);
  EXPECT_TRUE(DequantMatches(dst2, x8, 1, 8, 3, s, 9.0));
  AscendC::AscendDequant(dst2, src2, scale2);
  EXPECT_TRUE(DequantMatches(dst2, x8, 1, 8, 8, s, 9.0));
}

TEST(AscendDequant, Checks) {
  {
    Ub ub;
    auto src = ub.Alloc<int32_t>(32);
    auto dst = ub.Alloc<float>(32);
    auto scale = ub.Alloc<float>(8);
    auto tmp = ub.Alloc<uint8_t>(128);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp, {4, 6, 6});
        },
        "AscendDequant: params.n is 6; n int32_t must be a nonzero multiple of "
        "32 bytes (n a multiple of 8)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp, {4, 8, 9});
        },
        "AscendDequant: params.calCount is 9; it must be in [1, params.n = "
        "8]"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp, {0, 8, 8});
        },
        "AscendDequant: params.m is 0; it must be at least 1"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp, {2, 16, 16});
        },
        "AscendDequant: params.calCount is 16, more than deqScale's 8 "
        "elements"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp, {8, 8, 8});
        },
        "AscendDequant: srcTensor holds 32 int32_t elements, fewer than the 64 "
        "it must hold (params.m * params.n)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(dst, src, scale, tmp[64], {4, 8, 8});
        },
        "AscendDequant: sharedTmpBuffer holds 64 bytes, fewer than the 128 the "
        "call needs"));
    auto over = src.ReinterpretCast<float>();
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendDequant(over, src, scale, tmp, {4, 8, 8});
        },
        "AscendDequant: dstTensor (UB bytes [0, 128)) and srcTensor (UB bytes "
        "[0, 128)) overlap"));
  }
  const ProfileScope scope(Profile::k310P);
  Ub ub2;
  auto src2 = ub2.Alloc<int32_t>(16);
  auto dst2 = ub2.Alloc<bfloat16_t>(16);
  auto dstf = ub2.Alloc<float>(16);
  auto s16 = ub2.Alloc<bfloat16_t>(16);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendDequant(dst2, src2, 1.0f, {1, 16, 16});
      },
      "AscendDequant: dstT bfloat16_t is not available on profile 310p "
      "(Atlas inference series): dstT is half or float there"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendDequant(dstf, src2, s16, {1, 16, 16});
      },
      "AscendDequant: scaleT bfloat16_t is not available on profile 310p "
      "(Atlas inference series): a deqScale tensor is uint64_t or float "
      "there"));
  AscendC::AscendDequant(dstf, src2, 1.0f, {1, 16, 16});
}

// ---- AscendAntiQuant --------------------------------------------------------

// The page's formula dst = scale · (src + offset): half adds and multiplies
// in half; bfloat16_t in float, then to bfloat16_t.
double AntiRef(int8_t x, double offset, double scale, bool half_out,
               bool has_offset) {
  if (half_out) {
    const double t = has_offset ? ToHalf(x + offset) : x;
    return ToHalf(t * scale);
  }
  const double t = has_offset ? ToFloat(x + offset) : x;
  return ToBf16(ToFloat(t * scale));
}

template <typename Out>
::testing::AssertionResult AntiMatches(const LocalTensor<Out>& dst,
                                       const std::vector<int8_t>& src,
                                       uint32_t rows, uint32_t cols,
                                       const std::vector<double>& offset,
                                       const std::vector<double>& scale,
                                       uint32_t width, uint32_t group,
                                       bool transpose, bool has_offset) {
  const std::vector<Out> got = Take(dst, size_t{rows} * cols);
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) {
      size_t p = 0;
      if (scale.size() > 1) {
        p = transpose ? size_t{i} * width + j / group
                      : size_t{i / group} * width + j;
      }
      const double want = AntiRef(src[i * cols + j], offset[p], scale[p],
                                  std::is_same_v<Out, half>, has_offset);
      const double g = Value(got[i * cols + j]);
      if (!SameValue(g, want)) {
        return ::testing::AssertionFailure()
               << "[" << i << "][" << j << "]: got " << g << ", want " << want;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(AscendAntiQuant, PageExample) {
  // src [2, 64] of 1, offset and scale [1, 64] of 2 and 3: every output 9.
  Ub ub;
  auto src = ub.Alloc<int8_t>(128);
  auto dst = ub.Alloc<half>(128);
  auto offset = ub.Alloc<half>(64);
  auto scale = ub.Alloc<half>(64);
  auto tmp = ub.Alloc<uint8_t>(512);
  Put(src, std::vector<int8_t>(128, 1));
  Put(offset, std::vector<half>(64, half(2.0f)));
  Put(scale, std::vector<half>(64, half(3.0f)));
  const AscendC::AntiQuantShapeInfo shapeInfo = {1, 64, 1, 64};
  AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale, tmp, 2,
                                                shapeInfo);
  for (half h : Take(dst, 128)) ASSERT_EQ(static_cast<float>(h), 9.0f);
}

template <typename Out>
void AntiQuantPerChannel(bool transpose) {
  // src [K, N] = [64, 32] (isTranspose: [N, K] = [32, 64]), groups of 16
  // along K: parameters [4, 32] ([32, 4]).
  std::mt19937 rng(Seed());
  std::uniform_int_distribution<int> byte(-128, 127);
  std::uniform_real_distribution<double> u(-1, 1);
  constexpr uint32_t kK = 64, kN = 32, kGroup = 16, kElems = kK * kN;
  const uint32_t rows = transpose ? kN : kK, cols = transpose ? kK : kN;
  const uint32_t ph = transpose ? kN : kK / kGroup;
  const uint32_t pw = transpose ? kK / kGroup : kN;
  std::vector<int8_t> x(kElems);
  for (int8_t& v : x) v = static_cast<int8_t>(byte(rng));
  x[0] = -128;
  x[1] = 127;
  std::vector<double> of(ph * pw), sc(ph * pw);
  for (double& v : of) v = Value(Out(static_cast<float>(u(rng) * 40)));
  for (double& v : sc) v = Value(Out(static_cast<float>(u(rng) * 0.07)));
  sc[0] = Value(Out(2000.0f));  // overflows half: to inf
  Ub ub;
  auto src = ub.Alloc<int8_t>(kElems);
  auto dst = ub.Alloc<Out>(kElems);
  auto offset = ub.Alloc<Out>(ph * pw);
  auto scale = ub.Alloc<Out>(ph * pw);
  auto tmp = ub.Alloc<uint8_t>(kElems * 4);
  Put(src, x);
  Put(offset, Values<Out>(of));
  Put(scale, Values<Out>(sc));
  const AscendC::AntiQuantShapeInfo info = {ph, pw, ph, pw};
  if (transpose) {
    AscendC::AscendAntiQuant<int8_t, Out, true>(dst, src, offset, scale, tmp,
                                                kK, info);
  } else {
    AscendC::AscendAntiQuant<int8_t, Out, false>(dst, src, offset, scale, tmp,
                                                 kK, info);
  }
  EXPECT_TRUE(
      AntiMatches(dst, x, rows, cols, of, sc, pw, kGroup, transpose, true));
  // Without offset; the shapes from the tensors' ShapeInfo.
  const uint32_t dims[] = {ph, pw};
  scale.SetShapeInfo(AscendC::ShapeInfo(2, dims));
  offset.SetShapeInfo(AscendC::ShapeInfo(2, dims));
  if (transpose) {
    AscendC::AscendAntiQuant<int8_t, Out, true>(dst, src, scale, tmp, kK);
  } else {
    AscendC::AscendAntiQuant<int8_t, Out, false>(dst, src, scale, tmp, kK);
  }
  EXPECT_TRUE(
      AntiMatches(dst, x, rows, cols, of, sc, pw, kGroup, transpose, false));
  // The framework scratch.
  if (transpose) {
    AscendC::AscendAntiQuant<int8_t, Out, true>(dst, src, offset, scale, kK);
  } else {
    AscendC::AscendAntiQuant<int8_t, Out, false>(dst, src, offset, scale, kK);
  }
  EXPECT_TRUE(
      AntiMatches(dst, x, rows, cols, of, sc, pw, kGroup, transpose, true));
}

TEST(AscendAntiQuant, PerChannelHalfAndBfloat16) {
  for (bool transpose : {false, true}) {
    AntiQuantPerChannel<half>(transpose);
    AntiQuantPerChannel<bfloat16_t>(transpose);
  }
}

template <typename Out>
void AntiQuantPerTensor() {
  // Every int8_t value, per tensor, with and without offset.
  Ub ub;
  auto src = ub.Alloc<int8_t>(256);
  auto dst = ub.Alloc<Out>(256);
  auto tmp = ub.Alloc<uint8_t>(1024);
  std::vector<int8_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<int8_t>(i - 128);
  Put(src, x);
  const Out offset = Out(-3.375f), scale = Out(0.0123f);
  const std::vector<double> of = {Value(offset)}, sc = {Value(scale)};
  AscendC::AscendAntiQuant<int8_t, Out, false>(dst, src, offset, scale, tmp, 8);
  EXPECT_TRUE(AntiMatches(dst, x, 8, 32, of, sc, 1, 1, false, true));
  AscendC::AscendAntiQuant<int8_t, Out, true>(dst, src, scale, tmp, 32);
  EXPECT_TRUE(AntiMatches(dst, x, 8, 32, of, sc, 1, 1, false, false));
  AscendC::AscendAntiQuant<int8_t, Out, false>(dst, src, offset, scale, 8);
  EXPECT_TRUE(AntiMatches(dst, x, 8, 32, of, sc, 1, 1, false, true));
}

TEST(AscendAntiQuant, PerTensorEveryInt8) {
  AntiQuantPerTensor<half>();
  AntiQuantPerTensor<bfloat16_t>();
}

TEST(AscendAntiQuant, Checks) {
  {
    Ub ub;
    auto src = ub.Alloc<int8_t>(256);
    auto dst = ub.Alloc<half>(256);
    auto offset = ub.Alloc<half>(32);
    auto scale = ub.Alloc<half>(32);
    auto tmp = ub.Alloc<uint8_t>(1024);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, half(1.0f),
                                                        half(1.0f), tmp, 3);
        },
        "AscendAntiQuant: k is 3, which does not divide src's 256 elements"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, true>(dst, src, half(1.0f),
                                                       half(1.0f), tmp, 16);
        },
        "AscendAntiQuant: k is 16; with isTranspose it must be a multiple of "
        "32"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale,
                                                        tmp, 8);
        },
        "AscendAntiQuant: shapeInfo gives scale no shape (scaleHeight 0, "
        "scaleWidth 0) and its ShapeInfo has 0 dimensions"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(dst, src, offset, scale,
                                                        tmp, 8, {1, 32, 2, 16});
        },
        "AscendAntiQuant: offset's shape [1, 32] differs from scale's [2, "
        "16]"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(
              dst, src, offset, scale, tmp, 16, {1, 32, 1, 32});
        },
        "AscendAntiQuant: the parameters' shape [1, 32] does not fit src [16, "
        "16]"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(
              dst, src, offset, scale, tmp[512], 8, {1, 32, 1, 32});
        },
        "AscendAntiQuant: sharedTmpBuffer holds 512 bytes, fewer than the 1024 "
        "the call needs"));
    auto over = tmp.ReinterpretCast<half>();
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int8_t, half, false>(
              over, src, offset, scale, tmp, 8, {1, 32, 1, 32});
        },
        "AscendAntiQuant: dst (UB bytes"));
  }
  const ProfileScope scope(Profile::k310P);
  Ub ub2;
  auto src2 = ub2.Alloc<int8_t>(64);
  auto dst2 = ub2.Alloc<bfloat16_t>(64);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::AscendAntiQuant<int8_t, bfloat16_t, false>(
            dst2, src2, bfloat16_t(1.0f), bfloat16_t(1.0f), 2);
      },
      "AscendAntiQuant: OutputDataType bfloat16_t is not available on "
      "profile 310p (Atlas inference series): OutputDataType is half there"));
}

// ---- AscendAntiQuant from int4b_t (Atlas A2/A3) -----------------------------

// An int4b_t source: `values` (each in [-8, 7]) packed two a byte, element 2i
// in the low nibble of byte i, into a uint8_t tensor seen as int4b_t.
LocalTensor<AscendC::int4b_t> PutInt4(Ub& ub,
                                      const std::vector<int8_t>& values) {
  auto bytes = ub.Alloc<uint8_t>(static_cast<uint32_t>(values.size() / 2));
  std::vector<uint8_t> packed(values.size() / 2);
  for (size_t i = 0; i < packed.size(); ++i) {
    packed[i] = static_cast<uint8_t>((values[2 * i] & 0xF) |
                                     (values[2 * i + 1] & 0xF) << 4);
  }
  Put(bytes, packed);
  return bytes.ReinterpretCast<AscendC::int4b_t>();
}

template <typename Out>
void AntiQuantInt4(bool transpose) {
  // src [K, N] = [128, 32] (isTranspose: [32, 128]) of int4b_t, every value
  // in turn; groups of 32 along K: parameters [4, 32] ([32, 4]).
  using AscendC::int4b_t;
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<double> u(-1, 1);
  constexpr uint32_t kK = 128, kN = 32, kGroup = 32, kElems = kK * kN;
  const uint32_t rows = transpose ? kN : kK, cols = transpose ? kK : kN;
  const uint32_t ph = transpose ? kN : kK / kGroup;
  const uint32_t pw = transpose ? kK / kGroup : kN;
  std::vector<int8_t> x(kElems);
  for (uint32_t i = 0; i < kElems; ++i) x[i] = static_cast<int8_t>(i % 16 - 8);
  std::vector<double> of(ph * pw), sc(ph * pw);
  for (double& v : of) v = Value(Out(static_cast<float>(u(rng) * 10)));
  for (double& v : sc) v = Value(Out(static_cast<float>(u(rng) * 0.37)));
  Ub ub;
  const LocalTensor<int4b_t> src = PutInt4(ub, x);
  ASSERT_EQ(src.GetSize(), kElems);
  auto dst = ub.Alloc<Out>(kElems);
  auto offset = ub.Alloc<Out>(ph * pw);
  auto scale = ub.Alloc<Out>(ph * pw);
  auto tmp = ub.Alloc<uint8_t>(kElems * 4);
  Put(offset, Values<Out>(of));
  Put(scale, Values<Out>(sc));
  const AscendC::AntiQuantShapeInfo info = {ph, pw, ph, pw};
  if (transpose) {
    AscendC::AscendAntiQuant<int4b_t, Out, true>(dst, src, offset, scale, tmp,
                                                 kK, info);
  } else {
    AscendC::AscendAntiQuant<int4b_t, Out, false>(dst, src, offset, scale, tmp,
                                                  kK, info);
  }
  EXPECT_TRUE(
      AntiMatches(dst, x, rows, cols, of, sc, pw, kGroup, transpose, true));
  // Per tensor, without offset, on the framework scratch.
  const Out one_scale = Out(-0.8125f);
  if (transpose) {
    AscendC::AscendAntiQuant<int4b_t, Out, true>(dst, src, Out(2.5f), one_scale,
                                                 kK);
  } else {
    AscendC::AscendAntiQuant<int4b_t, Out, false>(dst, src, Out(2.5f),
                                                  one_scale, kK);
  }
  EXPECT_TRUE(AntiMatches(dst, x, rows, cols, {2.5}, {Value(one_scale)}, 1, 1,
                          transpose, true));
  AscendC::AscendAntiQuant<int4b_t, Out, false>(dst, src, one_scale, tmp, kK);
  EXPECT_TRUE(
      AntiMatches(dst, x, kK, kN, {0}, {Value(one_scale)}, 1, 1, false, false));
}

TEST(AscendAntiQuant, Int4SourceOnA2) {
  for (bool transpose : {false, true}) {
    AntiQuantInt4<half>(transpose);
    AntiQuantInt4<bfloat16_t>(transpose);
  }
}

TEST(AscendAntiQuant, Int4Checks) {
  using AscendC::int4b_t;
  {
    Ub ub;
    const auto src = PutInt4(ub, std::vector<int8_t>(256, 3));
    auto dst = ub.Alloc<half>(256);
    auto tmp = ub.Alloc<uint8_t>(1024);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int4b_t, half, true>(dst, src, half(1.0f),
                                                        half(1.0f), tmp, 32);
        },
        "AscendAntiQuant: k is 32; with isTranspose it must be a multiple of "
        "64 (K int4b_t a whole number of 32-byte blocks)"));
    auto short_src = PutInt4(ub, std::vector<int8_t>(96, 3));
    short_src.SetSize(96);  // its buffer rounds up to 32 bytes
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int4b_t, half, false>(
              dst, short_src, half(1.0f), half(1.0f), tmp, 2);
        },
        "AscendAntiQuant: src holds 96 int4b_t elements (48 bytes), not a "
        "multiple of 32 bytes"));
  }
  for (Profile p : {Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    Ub ub;
    const auto src = PutInt4(ub, std::vector<int8_t>(64, 1));
    auto dst = ub.Alloc<half>(64);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AscendAntiQuant<int4b_t, half, false>(dst, src, half(1.0f),
                                                         half(1.0f), 2);
        },
        "AscendAntiQuant: InputDataType int4b_t is not available on profile"));
  }
}

TEST(AscendAntiQuant, Int4QueryTakesDtInt4) {
  // The scratch holds the same per-element work as for int8_t sources.
  uint32_t mx4 = 0, mn4 = 0, mx8 = 0, mn8 = 0;
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({64, 512}),
                                           ge::Shape({1, 512}), false,
                                           ge::DT_INT4, ge::DT_BF16, mx4, mn4);
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({64, 512}),
                                           ge::Shape({1, 512}), false,
                                           ge::DT_INT8, ge::DT_BF16, mx8, mn8);
  EXPECT_GT(mn4, 0u);
  EXPECT_EQ(mx4, mx8);
  EXPECT_EQ(mn4, mn8);
  EXPECT_EQ(static_cast<int>(ge::DT_INT4), 29);
}

// ---- Quantize, Dequantize, AntiQuantize (Ascend 950) -----------------------

// To int8_t by a rounding mode, saturated; NaN gives 0.
int8_t ToInt8By(double x, AscendC::RoundMode mode) {
  if (std::isnan(x)) return 0;
  double r = std::nearbyint(x);
  switch (mode) {
    case AscendC::RoundMode::CAST_ROUND:
      r = std::round(x);
      break;
    case AscendC::RoundMode::CAST_FLOOR:
      r = std::floor(x);
      break;
    case AscendC::RoundMode::CAST_CEIL:
      r = std::ceil(x);
      break;
    case AscendC::RoundMode::CAST_TRUNC:
      r = std::trunc(x);
      break;
    default:
      break;
  }
  return static_cast<int8_t>(std::min(127.0, std::max(-128.0, r)));
}

// The parameter of element (i, j) of an [m, n] source, by policy.
size_t ParamIndex(int policy, int k_dim, uint32_t group, uint32_t n, uint32_t i,
                  uint32_t j) {
  switch (policy) {
    case 0:
      return 0;
    case 1:
      return j;
    case 2:
      return i;
    default:
      break;
  }
  return k_dim == 0 ? size_t{i / group} * n + j
                    : size_t{i} * ((n + group - 1) / group) + j / group;
}

size_t ParamCount(int policy, int k_dim, uint32_t group, uint32_t m,
                  uint32_t n) {
  switch (policy) {
    case 0:
      return 1;
    case 1:
      return n;
    case 2:
      return m;
    default:
      break;
  }
  return k_dim == 0 ? size_t{(m + group - 1) / group} * n
                    : size_t{m} * ((n + group - 1) / group);
}

template <const AscendC::QuantizeConfig& config, typename S, typename Sc>
void QuantizeCase(uint32_t m, uint32_t n, uint32_t group) {
  constexpr int policy = static_cast<int>(config.policy);
  std::mt19937 rng(Seed() + policy);
  std::uniform_real_distribution<double> u(-1, 1);
  const size_t np = ParamCount(policy, config.kDim, group, m, n);
  std::vector<double> x(size_t{m} * n), sc(np), of(np);
  for (double& v : x) v = Value(S(static_cast<float>(u(rng) * 500)));
  for (double& v : sc) v = Value(Sc(static_cast<float>(u(rng) * 0.7)));
  for (double& v : of) v = Value(Sc(static_cast<float>(u(rng) * 9)));
  x[0] = Value(S(2.5f));
  x[1] = Value(S(-3.5f));
  Ub ub;
  auto src = ub.Alloc<S>(m * n);
  auto dst = ub.Alloc<int8_t>(m * n);
  auto tmp = ub.Alloc<uint8_t>(m * n * 4);
  Put(src, Values<S>(x));
  std::vector<int8_t> got;
  if constexpr (policy == 0) {
    sc[0] = 1.0;  // the ties of x[0], x[1] stay ties
    of[0] = 0.0;
    AscendC::Quantize<config>(dst, src, tmp, Sc(1.0f), Sc(0.0f), {m, n, group});
  } else {
    auto scale = ub.Alloc<Sc>(np);
    auto offset = ub.Alloc<Sc>(np);
    Put(scale, Values<Sc>(sc));
    Put(offset, Values<Sc>(of));
    AscendC::Quantize<config>(dst, src, scale, offset, {m, n, group});
  }
  got = Take(dst, size_t{m} * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const size_t p = ParamIndex(policy, config.kDim, group, n, i, j);
      double t = ToFloat(x[i * n + j] * sc[p]);
      if (config.hasOffset) t = ToFloat(t + of[p]);
      const int8_t want = ToInt8By(t, config.roundMode);
      ASSERT_EQ(int{got[i * n + j]}, int{want})
          << "policy " << policy << " [" << i << "][" << j << "] x "
          << x[i * n + j] << " scale " << sc[p] << " offset " << of[p];
    }
  }
}

using AscendC::QuantizePolicy;
using AscendC::RoundMode;
constexpr AscendC::QuantizeConfig kQTensor = {QuantizePolicy::PER_TENSOR, true,
                                              RoundMode::CAST_RINT, 1};
constexpr AscendC::QuantizeConfig kQChannel = {QuantizePolicy::PER_CHANNEL,
                                               true, RoundMode::CAST_ROUND, 1};
constexpr AscendC::QuantizeConfig kQToken = {QuantizePolicy::PER_TOKEN, false,
                                             RoundMode::CAST_FLOOR, 1};
constexpr AscendC::QuantizeConfig kQGroup0 = {QuantizePolicy::PER_GROUP, true,
                                              RoundMode::CAST_CEIL, 0};
constexpr AscendC::QuantizeConfig kQGroup1 = {QuantizePolicy::PER_GROUP, true,
                                              RoundMode::CAST_TRUNC, 1};
constexpr AscendC::QuantizeConfig kQHybrid = {QuantizePolicy::PER_CHANNEL, true,
                                              RoundMode::CAST_HYBRID, 1};

TEST(Quantize, EveryPolicyTypeAndRounding) {
  const ProfileScope scope(Profile::k950);
  QuantizeCase<kQTensor, half, half>(4, 32, 0);
  QuantizeCase<kQTensor, float, float>(4, 32, 0);
  QuantizeCase<kQChannel, half, float>(6, 64, 0);
  QuantizeCase<kQChannel, bfloat16_t, bfloat16_t>(6, 64, 0);
  QuantizeCase<kQToken, float, float>(8, 32, 0);
  QuantizeCase<kQToken, bfloat16_t, float>(8, 32, 0);
  QuantizeCase<kQGroup0, half, half>(70, 32, 32);
  QuantizeCase<kQGroup1, float, float>(3, 96, 64);
  QuantizeCase<kQHybrid, half, half>(2, 64, 0);  // not for int8_t: CAST_RINT
}

TEST(Quantize, ScalarOffsetTakesTheScalesType) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto src = ub.Alloc<half>(32);
  auto dst = ub.Alloc<int8_t>(32);
  auto scale = ub.Alloc<half>(32);
  Put(src, std::vector<half>(32, half(10.0f)));
  Put(scale, std::vector<half>(32, half(1.0f)));
  // 0.50003 rounds to the half 0.5: 10 + 0.5 is a tie, to even 10 (as a
  // float offset, 10.50003 would give 11). CAST_HYBRID falls back to RINT.
  AscendC::Quantize<kQHybrid>(dst, src, scale, 0.50003f, {1, 32, 0});
  EXPECT_EQ(Take(dst, 1)[0], 10);
  AscendC::Quantize<kQChannel>(dst, src, scale, 0.50003f, {1, 32, 0});
  EXPECT_EQ(Take(dst, 1)[0], 11);  // CAST_ROUND: the tie away from zero
}

template <const AscendC::DequantizeConfig& config, typename D, typename S,
          typename Sc>
void DequantizeCase(uint32_t m, uint32_t n, uint32_t group) {
  constexpr int policy = static_cast<int>(config.policy);
  std::mt19937 rng(Seed() + 10 + policy);
  std::uniform_int_distribution<int32_t> big(-(1 << 30), 1 << 30);
  std::uniform_real_distribution<double> u(-1, 1);
  const size_t np = ParamCount(policy, config.kDim, group, m, n);
  std::vector<double> x(size_t{m} * n), sc(np);
  std::vector<S> xs(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if constexpr (std::is_same_v<S, int32_t>) {
      xs[i] = big(rng) >> (rng() % 30);
      x[i] = xs[i];
    } else {
      xs[i] = static_cast<float>(u(rng) * 1e5);
      x[i] = xs[i];
    }
  }
  for (double& v : sc) v = static_cast<float>(u(rng) * 0.01);
  Ub ub;
  auto src = ub.Alloc<S>(m * n);
  auto dst = ub.Alloc<D>(m * n);
  Put(src, xs);
  if constexpr (policy == 0) {
    sc[0] = Value(Sc(0.0123f));
    AscendC::Dequantize<config>(dst, src, Sc(0.0123f), 0, {m, n, group});
  } else if constexpr (std::is_same_v<Sc, uint64_t>) {
    auto scale = ub.Alloc<uint64_t>(np);
    auto offset = ub.Alloc<uint64_t>(np);
    std::vector<uint64_t> bits(np);
    for (size_t p = 0; p < np; ++p) {
      const float f = static_cast<float>(sc[p]);
      uint32_t b = 0;
      std::memcpy(&b, &f, 4);
      bits[p] = (uint64_t{7} << 32) | b;
    }
    Put(scale, bits);
    AscendC::Dequantize<config>(dst, src, scale, offset, {m, n, group});
  } else {
    for (double& v : sc) v = Value(Sc(static_cast<float>(v)));
    auto scale = ub.Alloc<Sc>(np);
    auto offset = ub.Alloc<Sc>(np);
    Put(scale, Values<Sc>(sc));
    AscendC::Dequantize<config>(dst, src, scale, offset, {m, n, group});
  }
  const std::vector<D> got = Take(dst, size_t{m} * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const size_t p = ParamIndex(policy, config.kDim, group, n, i, j);
      const double want = ToDst<D>()(ToFloat(ToFloat(x[i * n + j]) * sc[p]));
      ASSERT_TRUE(SameValue(Value(got[i * n + j]), want))
          << "policy " << policy << " [" << i << "][" << j << "]: got "
          << Value(got[i * n + j]) << ", want " << want;
    }
  }
}

using AscendC::DequantizePolicy;
constexpr AscendC::DequantizeConfig kDTensor = {DequantizePolicy::PER_TENSOR,
                                                false, 1};
constexpr AscendC::DequantizeConfig kDChannel = {DequantizePolicy::PER_CHANNEL,
                                                 false, 1};
constexpr AscendC::DequantizeConfig kDToken = {DequantizePolicy::PER_TOKEN,
                                               false, 1};
constexpr AscendC::DequantizeConfig kDGroup0 = {DequantizePolicy::PER_GROUP,
                                                false, 0};
constexpr AscendC::DequantizeConfig kDGroup1 = {DequantizePolicy::PER_GROUP,
                                                false, 1};

TEST(Dequantize, EveryPolicyAndType) {
  const ProfileScope scope(Profile::k950);
  DequantizeCase<kDTensor, float, int32_t, float>(4, 16, 0);
  DequantizeCase<kDTensor, bfloat16_t, int32_t, bfloat16_t>(4, 16, 0);
  DequantizeCase<kDChannel, half, int32_t, uint64_t>(5, 32, 0);
  DequantizeCase<kDChannel, bfloat16_t, int32_t, float>(5, 32, 0);
  DequantizeCase<kDToken, half, int32_t, float>(7, 16, 0);
  DequantizeCase<kDToken, float, float, float>(7, 16, 0);
  DequantizeCase<kDGroup0, bfloat16_t, float, bfloat16_t>(40, 16, 32);
  DequantizeCase<kDGroup1, half, int32_t, half>(3, 96, 32);
}

template <const AscendC::AntiQuantizeConfig& config, typename D, typename Sc>
void AntiQuantizeCase(uint32_t m, uint32_t n, uint32_t group) {
  constexpr int policy = static_cast<int>(config.policy);
  std::mt19937 rng(Seed() + 20 + policy);
  std::uniform_int_distribution<int> byte(-128, 127);
  std::uniform_real_distribution<double> u(-1, 1);
  const size_t np = ParamCount(policy, config.kDim, group, m, n);
  std::vector<int8_t> x(size_t{m} * n);
  for (int8_t& v : x) v = static_cast<int8_t>(byte(rng));
  std::vector<double> sc(np), of(np);
  for (double& v : sc) v = Value(Sc(static_cast<float>(u(rng) * 0.05)));
  for (double& v : of) v = Value(Sc(static_cast<float>(u(rng) * 30)));
  Ub ub;
  auto src = ub.Alloc<int8_t>(m * n);
  auto dst = ub.Alloc<D>(m * n);
  auto tmp = ub.Alloc<uint8_t>(m * n * 4);
  Put(src, x);
  if constexpr (policy == 0) {
    AscendC::AntiQuantize<config>(dst, src, Sc(static_cast<float>(sc[0])),
                                  Sc(static_cast<float>(of[0])), tmp,
                                  {m, n, group});
  } else {
    auto scale = ub.Alloc<Sc>(np);
    auto offset = ub.Alloc<Sc>(np);
    Put(scale, Values<Sc>(sc));
    Put(offset, Values<Sc>(of));
    AscendC::AntiQuantize<config>(dst, src, scale, offset, tmp, {m, n, group});
  }
  const std::vector<D> got = Take(dst, size_t{m} * n);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const size_t p = ParamIndex(policy, config.kDim, group, n, i, j);
      const double t =
          config.hasOffset ? ToFloat(x[i * n + j] + of[p]) : x[i * n + j];
      const double want = ToDst<D>()(ToFloat(t * sc[p]));
      ASSERT_TRUE(SameValue(Value(got[i * n + j]), want))
          << "policy " << policy << " [" << i << "][" << j << "]: got "
          << Value(got[i * n + j]) << ", want " << want;
    }
  }
}

using AscendC::AntiQuantizePolicy;
constexpr AscendC::AntiQuantizeConfig kATensor = {
    AntiQuantizePolicy::PER_TENSOR, true, 1};
constexpr AscendC::AntiQuantizeConfig kAChannel = {
    AntiQuantizePolicy::PER_CHANNEL, false, 1};
constexpr AscendC::AntiQuantizeConfig kAToken = {AntiQuantizePolicy::PER_TOKEN,
                                                 true, 1};
constexpr AscendC::AntiQuantizeConfig kAGroup0 = {AntiQuantizePolicy::PER_GROUP,
                                                  true, 0};
constexpr AscendC::AntiQuantizeConfig kAGroup1 = {AntiQuantizePolicy::PER_GROUP,
                                                  true, 1};

TEST(AntiQuantize, EveryPolicyAndType) {
  const ProfileScope scope(Profile::k950);
  AntiQuantizeCase<kATensor, half, half>(4, 64, 0);
  AntiQuantizeCase<kATensor, bfloat16_t, bfloat16_t>(4, 64, 0);
  AntiQuantizeCase<kAChannel, half, half>(5, 64, 0);
  AntiQuantizeCase<kAToken, float, float>(9, 32, 0);
  AntiQuantizeCase<kAToken, half, float>(9, 32, 0);
  AntiQuantizeCase<kAGroup0, bfloat16_t, float>(50, 32, 32);
  AntiQuantizeCase<kAGroup1, bfloat16_t, bfloat16_t>(2, 128, 64);
}

TEST(Quantize, ChecksOfTheThree) {
  {
    const ProfileScope scope(Profile::kA2);
    Ub ub;
    auto src = ub.Alloc<half>(64);
    auto dst = ub.Alloc<int8_t>(64);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Quantize<kQTensor>(dst, src, half(1.0f), half(0.0f),
                                      {2, 32, 0});
        },
        "Quantize: Quantize is not available on profile a2 (Atlas A2/A3): "
        "the page gives it to Ascend 950 only"));
  }
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto src = ub.Alloc<half>(256);
  auto dst = ub.Alloc<int8_t>(256);
  auto scale = ub.Alloc<half>(64);
  auto offset = ub.Alloc<half>(64);
  auto tmp = ub.Alloc<uint8_t>(1024);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQTensor>(dst, src, half(1.0f), half(0.0f),
                                    {16, 16, 0});
      },
      "Quantize: params.n 16 int8_t of dstTensor are 16 bytes, not a "
      "multiple of 32; the n direction must be 32-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQGroup0>(dst, src, scale, offset, {8, 32, 16});
      },
      "Quantize: params.groupSize is 16; with PER_GROUP it must be a "
      "nonzero multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQToken>(dst, src, scale, offset, {0, 32, 0});
      },
      "Quantize: params.m is 0 and params.n 32; both must be at least 1"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQChannel>(dst, src, tmp, scale, offset, {2, 128, 0});
      },
      "Quantize: scale holds 64 halves, fewer than the 128 it must hold "
      "(PER_CHANNEL with params.m 2, params.n 128)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQTensor>(dst, src, tmp[768], half(1.0f), half(0.0f),
                                    {8, 32, 0});
      },
      "Quantize: sharedTmpBuffer holds 256 bytes, fewer than the 512 the "
      "call needs"));
  auto over = src.ReinterpretCast<int8_t>();
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Quantize<kQTensor>(over, src, half(1.0f), half(0.0f),
                                    {2, 32, 0});
      },
      "Quantize: dstTensor (UB bytes"));
  auto isrc = ub.Alloc<int32_t>(64);
  auto fdst = ub.Alloc<float>(128);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Dequantize<kDChannel>(
            fdst, isrc, scale.ReinterpretCast<float>(),
            offset.ReinterpretCast<float>(), {2, 64, 0});
      },
      "Dequantize: srcTensor holds 64 int32_t elements, fewer than the 128 "
      "it must hold (params.m * params.n)"));
}

// ---- Scratch-size queries ---------------------------------------------------

template <typename F>
std::string Stderr(F&& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

TEST(QuantTiling, SizesFollowTheRule) {
  uint32_t mx = 9, mn = 9;
  // The page's example: 1024 halves, one half each.
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 2, mx, mn);
  EXPECT_EQ(mx, 2048u);
  EXPECT_EQ(mn, 2048u);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({3, 7}), 4, mx, mn);
  EXPECT_EQ(mx, 96u);  // 84 bytes in whole blocks
  uint32_t live = 9, extra = 9;
  AscendC::GetAscendQuantTmpBufferFactorSize(live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  // Dequant: one float per element of (2, 1024).
  AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({2, 1024}), 4, mx, mn);
  EXPECT_EQ(mx, 8192u);
  EXPECT_EQ(mn, 8192u);
  AscendC::GetAscendDequantTmpBufferFactorSize(ge::Shape({2, 1024}), live,
                                               extra);
  EXPECT_EQ(live, 1u);
  live = 9;
  AscendC::GetAscendDequantTmpBufferFactorSize(live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  // AntiQuant: one float per element of src (64, 512).
  AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({64, 512}),
                                           ge::Shape({1, 512}), false,
                                           ge::DT_INT8, ge::DT_BF16, mx, mn);
  EXPECT_EQ(mx, 131072u);
  EXPECT_EQ(mn, 131072u);
  EXPECT_EQ(AscendC::GetAscendAntiQuantMaxTmpSize(ge::Shape({64, 512}),
                                                  ge::Shape({1, 512}), false,
                                                  ge::DT_INT8, ge::DT_FLOAT16),
            131072u);
  EXPECT_EQ(AscendC::GetAscendAntiQuantMinTmpSize(ge::Shape({64, 512}),
                                                  ge::Shape({1, 512}), true,
                                                  ge::DT_INT8, ge::DT_FLOAT16),
            131072u);
  AscendC::GetAscendAntiQuantTmpBufferFactorSize(
      ge::Shape({64, 512}), ge::Shape({1, 512}), false, ge::DT_INT8,
      ge::DT_BF16, live, extra);
  EXPECT_EQ(live, 4u);
  EXPECT_EQ(extra, 0u);
  // The Ascend 950's three.
  AscendC::GetQuantizeMaxMinTmpSize(ge::Shape({8, 64}), 2, mx, mn);
  EXPECT_EQ(mx, 1024u);
  EXPECT_EQ(mn, 1024u);
  live = extra = 9;
  AscendC::GetQuantizeTmpBufferFactorSize(live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetDequantizeMaxMinTmpSize(ge::Shape({3, 8}), 4, mx, mn);
  EXPECT_EQ(mx, 96u);
  live = 9;
  AscendC::GetDequantizeTmpBufferFactorSize(ge::Shape({3, 8}), live, extra);
  EXPECT_EQ(live, 1u);
  AscendC::GetAntiQuantizeMaxMinTmpSize(ge::Shape({4, 64}), ge::Shape({1}),
                                        false, ge::DT_INT8, ge::DT_FLOAT, mx,
                                        mn);
  EXPECT_EQ(mx, 1024u);
  EXPECT_EQ(mn, 1024u);
  AscendC::GetAntiQuantizeTmpBufferFactorSize(ge::Shape({4, 64}),
                                              ge::Shape({4, 1}), ge::DT_INT8,
                                              ge::DT_BF16, live, extra);
  EXPECT_EQ(live, 4u);
  // A kernel given the query's size runs; one block less fails.
  Ub ub;
  auto src = ub.Alloc<half>(1024);
  auto dst = ub.Alloc<int8_t>(1024);
  auto tmp = ub.Alloc<uint8_t>(2048);
  AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 2, mx, mn);
  AscendC::AscendQuant<half>(dst, src, tmp, 1.0f, 0.0f);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::AscendQuant<half>(dst, src, tmp[32], 1.0f, 0.0f); },
      "fewer than the 2048 the call needs"));
}

TEST(QuantTiling, BadInputReportsAndZeroes) {
  uint32_t mx = 9, mn = 9;
  EXPECT_NE(
      Stderr([&] {
        AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({64}), 1, mx, mn);
      })
          .find("GetAscendQuantMaxMinTmpSize: typeSize 1 is not supported: "
                "it must be 2 (half) or 4 (float); maxValue and minValue "
                "are 0"),
      std::string::npos);
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  mx = mn = 9;
  EXPECT_NE(
      Stderr([&] {
        AscendC::GetAscendQuantMaxMinTmpSize(ge::Shape({4, 0}), 2, mx, mn);
      })
          .find("GetAscendQuantMaxMinTmpSize: srcShape [4, 0] has "
                "dimension 1 = 0"),
      std::string::npos);
  EXPECT_EQ(mx, 0u);
  mx = mn = 9;
  EXPECT_NE(
      Stderr([&] {
        AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({2, 8}), 2, mx, mn);
      })
          .find("GetAscendDequantMaxMinTmpSize: typeSize 2 is not "
                "supported: it must be 4 (srcTensor is int32_t)"),
      std::string::npos);
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  mx = mn = 9;
  EXPECT_NE(Stderr([&] {
              AscendC::GetAscendAntiQuantMaxMinTmpSize(
                  ge::Shape({64, 512}), ge::Shape({1, 512}), false,
                  ge::DT_FLOAT16, ge::DT_FLOAT16, mx, mn);
            })
                .find("GetAscendAntiQuantMaxMinTmpSize: inputDataType 1 is not "
                      "supported: it must be DT_INT8 (int8_t)"),
            std::string::npos);
  EXPECT_EQ(mx, 0u);
  EXPECT_NE(
      Stderr([&] {
        AscendC::GetAscendAntiQuantMaxMinTmpSize(
            ge::Shape({64, 512}), ge::Shape({1, 512}), false, ge::DT_INT8,
            ge::DT_FLOAT, mx, mn);
      })
          .find("outputDataType 0 is not supported: it must be DT_FLOAT16 "
                "(half) or DT_BF16 (bfloat16_t)"),
      std::string::npos);
  EXPECT_NE(Stderr([&] {
              AscendC::GetAscendAntiQuantMaxMinTmpSize(
                  ge::Shape({64}), ge::Shape({1, 512}), false, ge::DT_INT8,
                  ge::DT_BF16, mx, mn);
            }).find("srcShape [64] has 1 dimensions: it must have 2"),
            std::string::npos);
  EXPECT_NE(
      Stderr([&] {
        AscendC::GetAntiQuantizeMaxMinTmpSize(ge::Shape({4, 64}),
                                              ge::Shape({1}), true, ge::DT_INT8,
                                              ge::DT_FLOAT, mx, mn);
      })
          .find("GetAntiQuantizeMaxMinTmpSize: isTranspose is true: it is "
                "reserved and must be false; maxValue and minValue are 0"),
      std::string::npos);
  EXPECT_NE(Stderr([&] {
              AscendC::GetDequantizeMaxMinTmpSize(ge::Shape({4, 8}), 8, mx, mn);
            }).find("GetDequantizeMaxMinTmpSize: typeSize 8 is not supported"),
            std::string::npos);
  EXPECT_EQ(mx, 0u);
  uint32_t live = 9, extra = 9;
  EXPECT_NE(Stderr([&] {
              AscendC::GetAscendAntiQuantTmpBufferFactorSize(
                  ge::Shape({64, 512}), ge::Shape({1}), false, ge::DT_INT8,
                  ge::DT_BF16, live, extra);
            }).find("scaleShape [1] has 1 dimensions"),
            std::string::npos);
  EXPECT_EQ(live, 0u);
  EXPECT_EQ(extra, 0u);
}

}  // namespace

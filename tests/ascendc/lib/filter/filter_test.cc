// filter_test.cc — the Filter family (Select, DropOut), Index (Arange),
// Random (PhiloxRandom) and the AscendC::Std utilities through
// kernel_operator.h on the emulated core, and the scratch-size queries
// through tiling_api.h: the pages' examples; every type, mask type, mode and
// overload on random data against references written here (Philox4x32 from
// the paper's definition); the special values; every check's message; the
// queries' sizes and bad input.
//
// The references share no code with src/. Random data uses a fixed seed,
// printed; NORMGRAD_SEED=<n> overrides it. To add a case: a shape to the
// loops of the API's random test, or a line to its checks test.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
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

uint32_t Round32(uint64_t bytes) {
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

// Up to eight buffers of one pipe, each made on first use.
struct Ub {
  template <typename T>
  LocalTensor<T> Make(int i, uint64_t elements) {
    pipe.InitBuffer(bufs[i],
                    std::max<uint32_t>(Round32(elements * sizeof(T)), 32));
    return bufs[i].Get<T>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> bufs[8];
};

template <typename T>
void Write(const LocalTensor<T>& t, const std::vector<T>& v) {
  std::memcpy(static_cast<void*>(t.GetPhyAddr()), v.data(),
              v.size() * sizeof(T));
}

template <typename T>
std::vector<T> Read(const LocalTensor<T>& t, size_t n) {
  std::vector<T> v(n);
  std::memcpy(static_cast<void*>(v.data()),
              static_cast<const void*>(t.GetPhyAddr()), n * sizeof(T));
  return v;
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

std::string CapturedStderr(const std::function<void()>& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

// ---- Select -----------------------------------------------------------------

// The page's example: half src of 2 rows of 32, the scalar 35.6 second, a
// bool mask of the same shape; the printed output.
TEST(Select, PageExample) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<float> src = {
      -84.6,  -24.38, 30.97,  -30.25, 22.28,  -92.56, 90.44,  -58.72,
      -86.56, 5.74,   6.754,  -86.3,  -96.7,  -37.38, -81.9,  46.9,
      -99.4,  94.2,   -41.78, -60.3,  -14.43, 78.6,   8.93,   -65.2,
      79.94,  -46.88, 4.516,  20.03,  -25.56, 24.73,  0.3223, 21.98,
      -87.4,  -93.9,  46.22,  -69.9,  90.8,   -24.17, -96.2,  -91.,
      90.44,  9.766,  68.25,  -57.78, -75.44, -8.86,  -91.56, 21.6,
      76.,    82.1,   -78.,   -23.75, 92.,    -66.44, 75.,    94.9,
      2.62,   -90.9,  15.945, 38.16,  50.84,  96.94,  -59.38, 44.22};
  const std::vector<int> mask = {
      0, 1, 0, 0, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1,  //
      1, 0, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1,  //
      0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0,  //
      1, 0, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1, 1};
  const std::vector<float> want = {
      -84.6, 35.6,   30.97, -30.25, 35.6,  35.6,   90.44, 35.6,   35.6,   5.74,
      6.754, 35.6,   -96.7, 35.6,   -81.9, 35.6,   35.6,  94.2,   -41.78, -60.3,
      35.6,  35.6,   35.6,  35.6,   35.6,  -46.88, 35.6,  20.03,  35.6,   35.6,
      35.6,  35.6,   -87.4, -93.9,  35.6,  -69.9,  35.6,  -24.17, 35.6,   -91.,
      35.6,  9.766,  35.6,  -57.78, 35.6,  35.6,   35.6,  21.6,   35.6,   82.1,
      35.6,  -23.75, 35.6,  -66.44, 35.6,  35.6,   35.6,  -90.9,  15.945, 38.16,
      35.6,  96.94,  35.6,  35.6};
  Ub ub;
  auto s = ub.Make<half>(0, 64);
  auto d = ub.Make<half>(1, 64);
  auto m = ub.Make<bool>(2, 64);
  auto tmp = ub.Make<uint8_t>(3, 1024);
  std::vector<half> hs(src.begin(), src.end());
  std::vector<bool> unused;
  Write(s, hs);
  for (int i = 0; i < 64; ++i) m.SetValue(i, mask[i] != 0);
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 32;
  info.maskLastAxis = 32;
  const half scalar = 35.6f;
  AscendC::Select(d, s, scalar, m, tmp, info);
  const auto out = Read(d, 64);
  for (int i = 0; i < 64; ++i) {
    EXPECT_TRUE(SameBits(out[i], half(want[i]))) << i;
  }
}

// The reference: zero picks src0, anything else src1.
template <typename T, typename U>
void CheckSelect(uint32_t m, uint32_t k, uint32_t k2, bool scalar_first,
                 bool reuse, std::mt19937& rng) {
  Ub ub;
  auto s = ub.Make<T>(0, uint64_t{m} * k);
  auto d = ub.Make<T>(1, uint64_t{m} * k);
  auto mask = ub.Make<U>(2, uint64_t{m} * k2);
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetSelectMaxMinTmpSize(
      scalar_first ? ge::Shape({1}) : ge::Shape({m, k}),
      scalar_first ? ge::Shape({m, k}) : ge::Shape({1}), sizeof(T),
      ge::Shape({m, k2}), sizeof(U), reuse, max_tmp, min_tmp);
  ASSERT_GT(min_tmp, 0u);
  auto tmp = ub.Make<uint8_t>(3, min_tmp);
  std::uniform_real_distribution<float> value(-100, 100);
  std::vector<T> src(uint64_t{m} * k);
  for (auto& x : src) x = static_cast<T>(value(rng));
  // bool values kept as bytes (std::vector<bool> packs bits).
  using Stored = std::conditional_t<std::is_same_v<U, bool>, uint8_t, U>;
  std::vector<Stored> mv(uint64_t{m} * k2);
  for (auto& x : mv) {
    // Zero, one, or a value whose low byte is zero (a value, not a bit).
    const uint32_t pick = rng() % 3;
    if constexpr (std::is_same_v<U, bool>) {
      x = pick != 0;
    } else if constexpr (sizeof(U) == 1) {
      x = static_cast<Stored>(pick == 0 ? 0 : pick == 1 ? 1 : 0x80);
    } else {
      x = static_cast<Stored>(pick == 0 ? 0 : pick == 1 ? 1 : 0x100);
    }
  }
  Write(s, src);
  std::memcpy(static_cast<void*>(mask.GetPhyAddr()), mv.data(),
              mv.size() * sizeof(U));
  const T scalar = static_cast<T>(value(rng));
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = m;
  info.srcLastAxis = k;
  info.maskLastAxis = k2;
  if (scalar_first) {
    if (reuse) {
      AscendC::Select<T, U, true>(d, scalar, s, mask, tmp, info);
    } else {
      AscendC::Select<T, U, false>(d, scalar, s, mask, tmp, info);
    }
  } else {
    if (reuse) {
      AscendC::Select<T, U, true>(d, s, scalar, mask, tmp, info);
    } else {
      AscendC::Select<T, U, false>(d, s, scalar, mask, tmp, info);
    }
  }
  const auto out = Read(d, src.size());
  std::vector<Stored> mask_after(mv.size());
  std::memcpy(mask_after.data(), static_cast<const void*>(mask.GetPhyAddr()),
              mv.size() * sizeof(U));
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const bool nonzero = mv[uint64_t{r} * k2 + c] != Stored{0};
      const T src0 = scalar_first ? scalar : src[uint64_t{r} * k + c];
      const T src1 = scalar_first ? src[uint64_t{r} * k + c] : scalar;
      const T want = nonzero ? src1 : src0;
      ASSERT_TRUE(SameBits(out[uint64_t{r} * k + c], want))
          << "r " << r << " c " << c;
    }
  }
  EXPECT_EQ(std::memcmp(mask_after.data(), mv.data(), mv.size() * sizeof(U)),
            0);
}

template <typename T, typename U>
void SelectShapes(std::mt19937& rng) {
  constexpr uint32_t kAlign = 32 / sizeof(T);
  constexpr uint32_t kMaskAlign = sizeof(U) == 1 ? 32 : 16;
  for (const bool scalar_first : {false, true}) {
    for (const bool reuse : {true, false}) {
      CheckSelect<T, U>(1, kAlign, kMaskAlign, scalar_first, reuse, rng);
      CheckSelect<T, U>(3, 2 * kAlign, 4 * kMaskAlign, scalar_first, reuse,
                        rng);
      CheckSelect<T, U>(5, 96, 96, scalar_first, reuse, rng);
    }
  }
}

template <typename T>
void SelectEveryMask(std::mt19937& rng) {
  SelectShapes<T, bool>(rng);
  SelectShapes<T, int8_t>(rng);
  SelectShapes<T, uint8_t>(rng);
  SelectShapes<T, int16_t>(rng);
  SelectShapes<T, uint16_t>(rng);
  SelectShapes<T, int32_t>(rng);
  SelectShapes<T, uint32_t>(rng);
}

TEST(Select, EveryTypeMaskOverloadAndProfile) {
  std::mt19937 rng(Seed());
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    SelectEveryMask<half>(rng);
    SelectEveryMask<float>(rng);
  }
}

TEST(Select, SpecialValuesKeepTheirBits) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto s = ub.Make<float>(0, 8);
  auto d = ub.Make<float>(1, 8);
  auto mask = ub.Make<uint8_t>(2, 32);
  auto tmp = ub.Make<uint8_t>(3, 64);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  Write(s,
        std::vector<float>{nan, -0.0f, INFINITY, -INFINITY, 1e-45f, 2, 3, 4});
  Write(mask, std::vector<uint8_t>(32, 0));
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 8;
  info.maskLastAxis = 32;
  AscendC::Select(d, s, -0.0f, mask, tmp, info);
  const auto in = Read(s, 8);
  const auto out = Read(d, 8);
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(SameBits(out[i], in[i])) << i;
  Write(mask, std::vector<uint8_t>(32, 7));
  AscendC::Select(d, s, -0.0f, mask, tmp, info);
  for (float v : Read(d, 8)) EXPECT_TRUE(SameBits(v, -0.0f));
}

TEST(Select, InPlaceOnTheSource) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto s = ub.Make<float>(0, 8);
  auto mask = ub.Make<int32_t>(1, 16);
  auto tmp = ub.Make<uint8_t>(2, 64);
  Write(s, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  Write(mask, std::vector<int32_t>{0, -1, 0, 1 << 30, 0, 0, 5, 0, 9, 9, 9, 9, 9,
                                   9, 9, 9});
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 8;
  info.maskLastAxis = 16;
  AscendC::Select(s, 0.5f, s, mask, tmp, info);
  EXPECT_EQ(Read(s, 8), (std::vector<float>{0.5, 2, 0.5, 4, 0.5, 0.5, 7, 0.5}));
}

// The basic instruction (bit mask, SELMODE) and the advanced API (mask
// tensor, shape info) are overloads of one name in one program.
TEST(Select, BasicInstructionAndAdvancedApiBothResolve) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto a = ub.Make<float>(0, 64);
  auto b = ub.Make<float>(1, 64);
  auto d = ub.Make<float>(2, 64);
  auto bits = ub.Make<uint8_t>(3, 32);
  auto bytes = ub.Make<uint8_t>(4, 64);
  auto tmp = ub.Make<uint8_t>(5, 1024);
  std::vector<float> av(64), bv(64);
  for (int i = 0; i < 64; ++i) {
    av[i] = static_cast<float>(i);
    bv[i] = static_cast<float>(-i);
  }
  Write(a, av);
  Write(b, bv);
  std::vector<uint8_t> bit_mask(32, 0);
  bit_mask[0] = 0x0F;  // lanes 0-3 take a
  Write(bits, bit_mask);
  AscendC::Select(d, bits, a, b, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
  auto out = Read(d, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], i < 4 ? av[i] : bv[i]) << i;

  std::vector<uint8_t> byte_mask(64, 0);
  byte_mask[5] = 1;
  Write(bytes, byte_mask);
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 64;
  info.maskLastAxis = 64;
  AscendC::Select(d, a, 100.0f, bytes, tmp, info);
  out = Read(d, 64);
  for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], i == 5 ? 100.0f : av[i]) << i;
}

TEST(Select, ChecksNameTheArgumentAndTheRule) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto big = ub.Make<float>(0, 256);
  auto d = ub.Make<float>(1, 64);
  auto mask = ub.Make<uint8_t>(2, 64);
  auto tmp = ub.Make<uint8_t>(3, 1024);
  auto small_tmp = ub.Make<uint8_t>(4, 32);
  auto call = [&](uint32_t m, uint32_t k, uint32_t k2,
                  const LocalTensor<float>& dst, const LocalTensor<float>& src,
                  const LocalTensor<uint8_t>& msk,
                  const LocalTensor<uint8_t>& t) {
    AscendC::SelectWithBytesMaskShapeInfo info;
    info.firstAxis = m;
    info.srcLastAxis = k;
    info.maskLastAxis = k2;
    AscendC::Select(dst, src, 1.0f, msk, t, info);
  };
  EXPECT_TRUE(FailsWith([&] { call(0, 8, 32, d, big, mask, tmp); },
                        "Select: info.firstAxis is 0; every axis must be at "
                        "least 1"));
  EXPECT_TRUE(FailsWith([&] { call(1, 6, 32, d, big, mask, tmp); },
                        "Select: info.srcLastAxis 6 is 24 bytes, not a "
                        "multiple of 32 (the source's last axis must be "
                        "32-byte aligned: a multiple of 8)"));
  EXPECT_TRUE(FailsWith([&] { call(1, 8, 16, d, big, mask, tmp); },
                        "Select: info.maskLastAxis is 16; the mask's last "
                        "axis must be a multiple of 16 elements and of 32 "
                        "bytes: a multiple of 32 elements for a 1-byte mask "
                        "type"));
  EXPECT_TRUE(FailsWith([&] { call(1, 64, 32, d, big, mask, tmp); },
                        "Select: info.maskLastAxis 32 is less than "
                        "info.srcLastAxis 64; the mask row must cover the "
                        "source row"));
  EXPECT_TRUE(FailsWith([&] { call(2, 64, 64, d, big, mask, tmp); },
                        "Select: dst holds 64 floats, fewer than the 128 it "
                        "must hold (info.firstAxis * info.srcLastAxis = 128)"));
  EXPECT_TRUE(FailsWith([&] { call(2, 8, 64, d, big, mask, tmp); },
                        "Select: mask holds 64 mask elements, fewer than the "
                        "128 it must hold (info.firstAxis * info.maskLastAxis "
                        "= 128)"));
  EXPECT_TRUE(FailsWith([&] { call(1, 64, 64, d, big, mask, small_tmp); },
                        "Select: sharedTmpBuffer holds 32 bytes, fewer than "
                        "the 160 this call needs (GetSelectMaxMinTmpSize's "
                        "minValue for this shape)"));
  EXPECT_TRUE(FailsWith([&] { call(1, 64, 64, big[8], big, mask, tmp); },
                        "Select: dst (UB bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { call(1, 32, 32, d, big, d.ReinterpretCast<uint8_t>(), tmp); },
      "overlap; the call writes dst, so it must not share memory with "
      "another operand"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SelectWithBytesMaskShapeInfo info;
        info.firstAxis = 1;
        info.srcLastAxis = 8;
        info.maskLastAxis = 32;
        LocalTensor<float> empty;
        AscendC::Select(d, empty, 1.0f, mask, tmp, info);
      },
      "Select: src0 LocalTensor is empty (no unified-buffer memory)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SelectWithBytesMaskShapeInfo info;
        info.firstAxis = 1;
        info.srcLastAxis = 8;
        info.maskLastAxis = 32;
        AscendC::Select(d, 1.0f, big[4], mask, tmp, info);
      },
      "Select: src1 LocalTensor starts at UB offset"));
}

TEST(Select, TmpSizesFollowTheRule) {
  // The page's call: a {64, 128} half source, the scalar second, a bool
  // mask of the same shape. A row: 128 halves of mask (256 bytes) and 128
  // selection bits (16 bytes, one block).
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetSelectMaxMinTmpSize(ge::Shape({64, 128}), ge::Shape({1}), 2,
                                  ge::Shape({64, 128}), 1, false, max_value,
                                  min_value);
  EXPECT_EQ(min_value, 256u + 32u);
  EXPECT_EQ(max_value, 64u * (256u + 32u));
  // A wider mask kept apart (isReuseMask false) adds its narrowed copy.
  AscendC::GetSelectMaxMinTmpSize(ge::Shape({1}), ge::Shape({4, 40}), 4,
                                  ge::Shape({4, 64}), 2, false, max_value,
                                  min_value);
  const uint32_t row = 96 + 32;          // 80 bytes -> 96; 5 bytes -> 32
  const uint32_t copy = 4 * 40 * 2 + 0;  // 320 bytes, whole blocks
  EXPECT_EQ(min_value, row + copy);
  EXPECT_EQ(max_value, 4 * row + copy);
  EXPECT_EQ(AscendC::GetSelectMinTmpSize(ge::Shape({1}), ge::Shape({4, 40}), 4,
                                         ge::Shape({4, 64}), 2, true),
            row);
  EXPECT_EQ(AscendC::GetSelectMaxTmpSize(ge::Shape({1}), ge::Shape({4, 40}), 4,
                                         ge::Shape({4, 64}), 2, true),
            4 * row);
  // The deprecated names give the same sizes.
  uint32_t old_max = 0, old_min = 0;
  AscendC::GetSelectWithBytesMaskMaxMinTmpSize(
      ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 128}), 1, false,
      old_max, old_min);
  EXPECT_EQ(old_min, 256u + 32u);
  EXPECT_EQ(old_max, 64u * (256u + 32u));
  EXPECT_EQ(AscendC::GetSelectWithBytesMaskMinTmpSize(
                ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 128}),
                1, false),
            256u + 32u);
  EXPECT_EQ(AscendC::GetSelectWithBytesMaskMaxTmpSize(
                ge::Shape({64, 128}), ge::Shape({1}), 2, ge::Shape({64, 128}),
                1, false),
            64u * (256u + 32u));
}

TEST(Select, TmpSizeQueriesReportBadInput) {
  struct Case {
    ge::Shape src0, src1;
    uint32_t src_size;
    ge::Shape mask;
    uint32_t mask_size;
    const char* message;
  };
  const Case cases[] = {
      {ge::Shape({1}), ge::Shape({1}), 2, ge::Shape({1, 32}), 1,
       "GetSelectMaxMinTmpSize: src0Shape [1] and src1Shape [1]: exactly one "
       "of them must be the scalar's shape {1}; maxValue and minValue are 0"},
      {ge::Shape({2, 16}), ge::Shape({1}), 3, ge::Shape({2, 32}), 1,
       "GetSelectMaxMinTmpSize: srcTypeSize 3 is not supported: it must be 2 "
       "(half) or 4 (float)"},
      {ge::Shape({2, 16}), ge::Shape({1}), 2, ge::Shape({2, 32}), 8,
       "GetSelectMaxMinTmpSize: maskTypeSize 8 is not supported"},
      {ge::Shape({2, 16}), ge::Shape({1}), 2, ge::Shape({3, 32}), 1,
       "GetSelectMaxMinTmpSize: maskShape [3, 32] does not fit the source's 2 "
       "rows of 16"},
      {ge::Shape({2, 0}), ge::Shape({1}), 2, ge::Shape({2, 32}), 1,
       "GetSelectMaxMinTmpSize: src0Shape [2, 0] has dimension 1 = 0"},
  };
  for (const Case& c : cases) {
    uint32_t max_value = 7, min_value = 7;
    const std::string err = CapturedStderr([&] {
      AscendC::GetSelectMaxMinTmpSize(c.src0, c.src1, c.src_size, c.mask,
                                      c.mask_size, true, max_value, min_value);
    });
    EXPECT_NE(err.find(c.message), std::string::npos) << err;
    EXPECT_EQ(max_value, 0u);
    EXPECT_EQ(min_value, 0u);
  }
}

// ---- DropOut ----------------------------------------------------------------

template <typename T>
std::vector<T> RunDropOut(const std::vector<T>& src,
                          const std::vector<uint8_t>& mask, float keep_prob,
                          uint32_t m, uint32_t k, uint32_t mask_last,
                          uint32_t mode, bool shared) {
  Ub ub;
  auto s = ub.Make<T>(0, src.size());
  auto d = ub.Make<T>(1, src.size());
  auto mk = ub.Make<uint8_t>(2, mask.size());
  Write(s, src);
  Write(mk, mask);
  AscendC::DropOutShapeInfo info;
  info.firstAxis = m;
  info.srcLastAxis = k;
  info.maskLastAxis = mask_last;
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({m, k}), sizeof(T), false,
                                   max_value, min_value);
  auto tmp = ub.Make<uint8_t>(3, min_value);
#define NORMGRAD_DROPOUT_MODE(n)                                     \
  case n:                                                            \
    if (shared) {                                                    \
      AscendC::DropOut<T, false, n>(d, s, mk, tmp, keep_prob, info); \
    } else {                                                         \
      AscendC::DropOut<T, true, n>(d, s, mk, keep_prob, info);       \
    }                                                                \
    break;
  switch (mode) {
    NORMGRAD_DROPOUT_MODE(0)
    NORMGRAD_DROPOUT_MODE(1)
    NORMGRAD_DROPOUT_MODE(2)
    NORMGRAD_DROPOUT_MODE(3)
    NORMGRAD_DROPOUT_MODE(4)
    default:
      break;
  }
#undef NORMGRAD_DROPOUT_MODE
  return Read(d, src.size());
}

// The page's byte-mode example: 0..31, its mask, keepProb 0.5.
TEST(DropOut, PageByteModeExample) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<uint8_t> mask = {0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 1,
                                     1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 1,
                                     1, 1, 1, 0, 1, 0, 1, 1, 1, 0};
  const std::vector<float> want = {0,  2,  0,  0,  0,  0, 0,  0,  16, 0, 20,
                                   22, 24, 0,  28, 30, 0, 0,  36, 0,  0, 42,
                                   44, 46, 48, 0,  52, 0, 56, 58, 60, 0};
  std::vector<float> src(32);
  for (int i = 0; i < 32; ++i) src[i] = static_cast<float>(i);
  EXPECT_EQ(RunDropOut<float>(src, mask, 0.5f, 1, 32, 32, 0, true), want);
  std::vector<half> hsrc(src.begin(), src.end());
  const auto hout = RunDropOut<half>(hsrc, mask, 0.5f, 2, 16, 16, 2, false);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(static_cast<float>(hout[i]), want[i]);
}

// The page's bit-mode examples: 169 = 1010 1001 keeps elements 0, 2, 4, 7
// (the first element is the byte's most significant bit); padded mask rows
// (special case 1) and one run of bits padded at its end (special case 2).
TEST(DropOut, PageBitModeExamples) {
  const ProfileScope scope(Profile::kA2);
  std::vector<float> src = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(RunDropOut<float>(src, {169}, 0.5f, 1, 8, 1, 0, true),
            (std::vector<float>{2, 0, 6, 0, 10, 0, 0, 16}));
  src = {1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 16, 17, 18};
  const std::vector<float> want = {2,  0, 6,  0, 10, 0, 0, 16,
                                   22, 0, 26, 0, 30, 0, 0, 36};
  // Special case 1: each 8-element row's byte followed by a padding byte.
  EXPECT_EQ(
      RunDropOut<float>(src, {169, 0xFF, 169, 0x5A}, 0.5f, 2, 8, 2, 0, true),
      want);
  EXPECT_EQ(
      RunDropOut<float>(src, {169, 0xFF, 169, 0x5A}, 0.5f, 2, 8, 2, 4, false),
      want);
  // Special case 2: the bits of both rows in a row, the tail padded.
  EXPECT_EQ(
      RunDropOut<float>(src, {169, 169, 0xFF, 0xFF}, 0.5f, 2, 8, 1, 0, true),
      want);
  EXPECT_EQ(
      RunDropOut<float>(src, {169, 169, 0xFF, 0xFF}, 0.5f, 2, 8, 1, 3, true),
      want);
}

// The reference: kept elements times 1/keepProb rounded to T, the product
// rounded once to T; dropped elements +0.
template <typename T>
void CheckDropOutModes(std::mt19937& rng, float keep_prob) {
  const uint32_t m = 3, k = 32;
  std::uniform_real_distribution<float> value(-50, 50);
  std::vector<T> src(m * k);
  for (auto& x : src) x = static_cast<T>(value(rng));
  const float scale = static_cast<float>(static_cast<T>(1.0f / keep_prob));
  auto want_at = [&](uint32_t i, bool kept) {
    return kept ? compat_test::RoundTo<T>(
                      static_cast<double>(static_cast<float>(src[i])) * scale)
                : static_cast<T>(0.0f);
  };
  struct Layout {
    uint32_t mode;
    uint32_t mask_last;
    uint32_t mask_bytes;
  };
  const Layout layouts[] = {
      {1, 48, m * 48}, {2, k, m * k}, {3, k / 8, m * k / 8}, {4, 6, m * 6}};
  for (const Layout& l : layouts) {
    std::vector<uint8_t> mask(l.mask_bytes);
    for (auto& b : mask) b = static_cast<uint8_t>(rng());
    if (l.mode <= 2) {
      for (auto& b : mask) b = b % 3 == 0 ? 0 : b;  // nonzero keeps
    }
    for (const bool shared : {true, false}) {
      for (const uint32_t mode : {0u, l.mode}) {
        const auto out = RunDropOut<T>(src, mask, keep_prob, m, k, l.mask_last,
                                       mode, shared);
        for (uint32_t r = 0; r < m; ++r) {
          for (uint32_t c = 0; c < k; ++c) {
            bool kept = false;
            if (l.mode == 1 || l.mode == 2) {
              kept = mask[r * l.mask_last + c] != 0;
            } else if (l.mode == 3) {
              const uint32_t i = r * k + c;
              kept = (mask[i / 8] & (0x80 >> (i % 8))) != 0;
            } else {
              kept = (mask[r * l.mask_last + c / 8] & (0x80 >> (c % 8))) != 0;
            }
            const uint32_t i = r * k + c;
            ASSERT_TRUE(SameBits(out[i], want_at(i, kept)))
                << "mode " << l.mode << " r " << r << " c " << c;
          }
        }
      }
    }
  }
}

TEST(DropOut, EveryModeTypeAndOverload) {
  std::mt19937 rng(Seed());
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    for (const float keep : {0.5f, 0.3f, 0.9f}) {
      CheckDropOutModes<float>(rng, keep);
      CheckDropOutModes<half>(rng, keep);
      if (p == Profile::k950) CheckDropOutModes<bfloat16_t>(rng, keep);
    }
  }
}

TEST(DropOut, ChecksNameTheArgumentAndTheRule) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<float> src(32, 1.0f);
  const std::vector<uint8_t> mask(32, 1);
  EXPECT_TRUE(
      FailsWith([&] { RunDropOut<float>(src, mask, 1.0f, 1, 32, 32, 0, true); },
                "DropOut: keepProb is 1; it must be in (0, 1)"));
  EXPECT_TRUE(
      FailsWith([&] { RunDropOut<float>(src, mask, 0.0f, 1, 32, 32, 0, true); },
                "DropOut: keepProb is 0; it must be in (0, 1)"));
  EXPECT_TRUE(
      FailsWith([&] { RunDropOut<float>(src, mask, NAN, 1, 32, 32, 0, true); },
                "DropOut: keepProb is nan; it must be in (0, 1)"));
  EXPECT_TRUE(
      FailsWith([&] { RunDropOut<float>(src, mask, 0.5f, 0, 32, 32, 0, true); },
                "DropOut: info.firstAxis is 0; every axis must be at least 1"));
  EXPECT_TRUE(FailsWith(
      [&] { RunDropOut<float>(src, mask, 0.5f, 1, 32, 3, 0, true); },
      "DropOut: info.maskLastAxis 3 is shorter than info.srcLastAxis 32 needs "
      "in any mask mode (at least 4 bytes for a bit per element)"));
  EXPECT_TRUE(FailsWith(
      [&] { RunDropOut<float>(src, mask, 0.5f, 1, 32, 16, 2, true); },
      "DropOut: info.maskLastAxis 16 differs from info.srcLastAxis 32; "
      "dropOutMode 2 (bytes, no padding) takes a mask row as long as the "
      "source row"));
  EXPECT_TRUE(FailsWith(
      [&] { RunDropOut<float>(src, mask, 0.5f, 1, 31, 32, 1, true); },
      "DropOut: info.srcLastAxis 31, info.maskLastAxis 32; dropOutMode 1"));
  EXPECT_TRUE(FailsWith(
      [&] { RunDropOut<float>(src, mask, 0.5f, 1, 12, 2, 4, true); },
      "DropOut: info.srcLastAxis 12, info.maskLastAxis 2; dropOutMode 4 "
      "(bits, padded mask rows) takes a source row of a multiple of 8 "
      "elements"));
  EXPECT_TRUE(FailsWith(
      [&] { RunDropOut<float>(src, mask, 0.5f, 2, 32, 32, 0, true); },
      "DropOut: srcLocal holds 32 floats, fewer than the 64 it must hold "
      "(info.firstAxis * info.srcLastAxis = 64)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        RunDropOut<float>(std::vector<float>(64, 1.0f), mask, 0.5f, 2, 32, 32,
                          1, true);
      },
      "DropOut: maskLocal holds 32 bytes, fewer than the 64 it must hold (the "
      "mask of dropOutMode 1)"));
  {
    const ProfileScope a2(Profile::kA2);
    EXPECT_TRUE(FailsWith(
        [&] {
          RunDropOut<bfloat16_t>(std::vector<bfloat16_t>(32, 1.0f), mask, 0.5f,
                                 1, 32, 32, 0, true);
        },
        "DropOut: T is bfloat16_t, which profile a2 (Atlas A2/A3) does not "
        "take: DropOut takes half, float there"));
  }
  Ub ub;
  auto s = ub.Make<float>(0, 64);
  auto mk = ub.Make<uint8_t>(1, 32);
  auto tmp = ub.Make<uint8_t>(2, 32);
  AscendC::DropOutShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 32;
  info.maskLastAxis = 32;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::DropOut(s, s, mk, tmp, 0.5f, info); },
      "DropOut: sharedTmpBuffer holds 32 bytes, fewer than the 160 this call "
      "needs (GetDropOutMaxMinTmpSize's minValue for this shape)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::DropOut(s[8], s, mk, 0.5f, info); },
                        "DropOut: dstLocal (UB bytes"));
}

TEST(DropOut, InPlaceOnTheSource) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto s = ub.Make<float>(0, 8);
  auto mk = ub.Make<uint8_t>(1, 32);
  Write(s, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  Write(mk, std::vector<uint8_t>{0xF0});
  AscendC::DropOutShapeInfo info;
  info.firstAxis = 1;
  info.srcLastAxis = 8;
  info.maskLastAxis = 1;
  AscendC::DropOut(s, s, mk, 0.25f, info);
  EXPECT_EQ(Read(s, 8), (std::vector<float>{4, 8, 12, 16, 0, 0, 0, 0}));
}

// The special values through the kept products: NaN stays NaN, ±inf and
// ±0 keep their sign, a product past T's largest finite value becomes inf,
// subnormals scale; a dropped element is +0 whatever its source.
template <typename T>
void CheckDropOutSpecials(const std::vector<float>& values) {
  std::vector<T> src(32);
  for (size_t i = 0; i < src.size(); ++i)
    src[i] = static_cast<T>(values[i % values.size()]);
  const std::vector<uint8_t> mask = {0xff, 0xf0, 0x0f, 0xff};  // mode 3
  const float keep_prob = 0.3f;
  const float scale = static_cast<float>(static_cast<T>(1.0f / keep_prob));
  const auto out = RunDropOut<T>(src, mask, keep_prob, 1, 32, 4, 3, true);
  for (uint32_t i = 0; i < 32; ++i) {
    const bool kept = (mask[i / 8] & (0x80 >> (i % 8))) != 0;
    const double product =
        static_cast<double>(static_cast<float>(src[i])) * scale;
    const T want =
        kept ? compat_test::RoundTo<T>(product) : static_cast<T>(0.0f);
    if (std::isnan(product) && kept) {
      ASSERT_TRUE(std::isnan(static_cast<float>(out[i]))) << i;
    } else {
      ASSERT_TRUE(SameBits(out[i], want))
          << i << ": " << static_cast<float>(out[i]);
    }
  }
}

TEST(DropOut, SpecialValuesRoundOnce) {
  const std::vector<float> specials = {
      0.0f,    -0.0f,     INFINITY, -INFINITY, NAN,  65504.0f, -60000.0f,
      6.0e-8f, -1.0e-40f, 3.0e38f,  -3.0e38f,  1.0f, 1.5f};
  for (const Profile p : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(p);
    CheckDropOutSpecials<float>(specials);
    CheckDropOutSpecials<half>(specials);
    if (p == Profile::k950) CheckDropOutSpecials<bfloat16_t>(specials);
  }
}

TEST(DropOut, TmpSizesFollowTheRule) {
  // The page's call passes {16, 64, 64} with typeSize 2: rows of 64 halves
  // (128 bytes) and their 64 mask bytes; 16 * 64 rows.
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetDropOutMaxMinTmpSize(ge::Shape({16, 64, 64}), 2, false, max_value,
                                   min_value);
  EXPECT_EQ(min_value, 128u + 64u);
  EXPECT_EQ(max_value, 16u * 64u * (128u + 64u));
  EXPECT_EQ(AscendC::GetDropOutMinTmpSize(ge::Shape({3, 10}), 4, false),
            64u + 32u);
  EXPECT_EQ(AscendC::GetDropOutMaxTmpSize(ge::Shape({3, 10}), 4, false),
            3u * (64u + 32u));
  const std::string err = CapturedStderr([&] {
    AscendC::GetDropOutMaxMinTmpSize(ge::Shape({4, 8}), 8, false, max_value,
                                     min_value);
  });
  EXPECT_NE(err.find("GetDropOutMaxMinTmpSize: typeSize 8 is not supported: "
                     "it must be 2 (half, bfloat16_t) or 4 (float); maxValue "
                     "and minValue are 0"),
            std::string::npos)
      << err;
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
  const std::string empty = CapturedStderr([&] {
    EXPECT_EQ(AscendC::GetDropOutMinTmpSize(ge::Shape(), 2, false), 0u);
  });
  EXPECT_NE(empty.find("GetDropOutMinTmpSize: srcShape [] has no dimension"),
            std::string::npos)
      << empty;
}

// ---- Arange -----------------------------------------------------------------

// The page's three steps, written from its description: the first 8 values
// one by one, then blocks of 8 from the first block plus 8j * diffValue,
// then blocks of 64 from the first 64 plus 64k * diffValue; each scalar and
// each sum rounded to T.
template <typename T>
std::vector<T> ArangeModel(float first, float diff, int count) {
  std::vector<T> v(count);
  auto add = [](T a, float b) {
    return compat_test::RoundTo<T>(static_cast<double>(static_cast<float>(a)) +
                                   static_cast<double>(b));
  };
  for (int i = 0; i < count && i < 8; ++i) {
    const float product = static_cast<float>(static_cast<double>(i) * diff);
    v[i] = compat_test::RoundTo<T>(static_cast<double>(first) + product);
  }
  for (int j = 1; j < 8 && 8 * j < count; ++j) {
    const float s = static_cast<float>(
        static_cast<T>(static_cast<float>(static_cast<double>(8 * j) * diff)));
    for (int i = 0; i < 8 && 8 * j + i < count; ++i)
      v[8 * j + i] = add(v[i], s);
  }
  for (int k = 1; 64 * k < count; ++k) {
    const float s = static_cast<float>(
        static_cast<T>(static_cast<float>(static_cast<double>(64 * k) * diff)));
    for (int i = 0; i < 64 && 64 * k + i < count; ++i) {
      v[64 * k + i] = add(v[i], s);
    }
  }
  return v;
}

template <typename T>
std::vector<T> RunArange(T first, T diff, int32_t count) {
  Ub ub;
  auto d = ub.Make<T>(0, count);
  AscendC::Arange<T>(d, first, diff, count);
  return Read(d, count);
}

TEST(Arange, FloatsFollowThePagesSteps) {
  const ProfileScope scope(Profile::kA2);
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<float> value(-1000, 1000);
  std::uniform_real_distribution<float> step(0, 10);
  for (const int count : {1, 7, 8, 9, 63, 64, 65, 200, 1000}) {
    for (int trial = 0; trial < 4; ++trial) {
      const float first = value(rng);
      const float diff = trial == 0 ? 0.0f : step(rng);
      const auto f = RunArange<float>(first, diff, count);
      const auto fw = ArangeModel<float>(first, diff, count);
      for (int i = 0; i < count; ++i) {
        ASSERT_TRUE(SameBits(f[i], fw[i]))
            << "float count " << count << " i " << i;
      }
      const half hf = static_cast<half>(first / 100);
      const half hd = static_cast<half>(diff / 10);
      const auto h = RunArange<half>(hf, hd, count);
      const auto hw = ArangeModel<half>(static_cast<float>(hf),
                                        static_cast<float>(hd), count);
      for (int i = 0; i < count; ++i) {
        ASSERT_TRUE(SameBits(h[i], hw[i]))
            << "half count " << count << " i " << i;
      }
    }
  }
}

// The bound of docs/numerics.md ("Index: Arange"): element m within
// 6u · (|firstValue| + m · diffValue) of the exact value, u = 2^-24 (float).
TEST(Arange, FloatsStayWithinTheirBound) {
  const ProfileScope scope(Profile::kA2);
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<float> value(-1000, 1000);
  std::uniform_real_distribution<float> step(0, 10);
  for (int trial = 0; trial < 8; ++trial) {
    const float first = value(rng);
    const float diff = step(rng);
    const int count = 1000;
    const auto f = RunArange<float>(first, diff, count);
    for (int m = 0; m < count; ++m) {
      const double exact = double{first} + m * double{diff};
      const double bound =
          6 * 0x1p-24 * (std::fabs(double{first}) + m * double{diff});
      ASSERT_LE(std::fabs(f[m] - exact), bound)
          << "first " << first << " diff " << diff << " m " << m;
    }
  }
}

// Where every value is exact, the sequence is firstValue + i * diffValue.
TEST(Arange, ExactSequences) {
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    const auto f = RunArange<float>(-3.5f, 0.25f, 300);
    for (int i = 0; i < 300; ++i) EXPECT_EQ(f[i], -3.5f + 0.25f * i);
    const auto h = RunArange<half>(half(1.0f), half(0.5f), 100);
    for (int i = 0; i < 100; ++i)
      EXPECT_EQ(static_cast<float>(h[i]), 1 + 0.5f * i);
    const auto i32 = RunArange<int32_t>(-100, 7, 130);
    for (int i = 0; i < 130; ++i) EXPECT_EQ(i32[i], -100 + 7 * i);
  }
}

// Integers wrap in T's width (int16_t past 32767).
TEST(Arange, IntegersWrapInTheirWidth) {
  const ProfileScope scope(Profile::k950);
  const auto i16 = RunArange<int16_t>(32700, 10, 20);
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(i16[i],
              static_cast<int16_t>(static_cast<uint16_t>(32700 + 10 * i)));
  }
  const auto i64 = RunArange<int64_t>(int64_t{1} << 40, int64_t{1} << 33, 70);
  for (int i = 0; i < 70; ++i) {
    EXPECT_EQ(i64[i], (int64_t{1} << 40) + i * (int64_t{1} << 33));
  }
}

TEST(Arange, ChecksNameTheArgumentAndTheRule) {
  const ProfileScope scope(Profile::kA2);
  EXPECT_TRUE(FailsWith([] { RunArange<float>(0.0f, 1.0f, 0); },
                        "Arange: count is 0; it must be at least 1"));
  EXPECT_TRUE(FailsWith([] { RunArange<float>(0.0f, -1.0f, 8); },
                        "Arange: diffValue is -1; it must be at least 0"));
  EXPECT_TRUE(FailsWith([] { RunArange<int32_t>(0, -2, 8); },
                        "Arange: diffValue is -2; it must be at least 0"));
  EXPECT_TRUE(FailsWith([] { RunArange<int64_t>(0, 1, 8); },
                        "Arange: T is int64_t, which profile a2 (Atlas A2/A3) "
                        "does not take: Arange takes int16_t, half, int32_t, "
                        "float there"));
  Ub ub;
  auto d = ub.Make<float>(0, 8);
  EXPECT_TRUE(FailsWith([&] { AscendC::Arange(d, 0.0f, 1.0f, 9); },
                        "Arange: dst holds 8 float elements, fewer than the 9 "
                        "it must hold (count)"));
}

TEST(Arange, TmpSizesAreZero) {
  uint32_t max_value = 5, min_value = 5;
  AscendC::GetArangeMaxMinTmpSize(max_value, min_value);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
  max_value = min_value = 5;
  AscendC::GetArithProgressionMaxMinTmpSize(max_value, min_value);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

// ---- PhiloxRandom -----------------------------------------------------------

// Philox4x32, from the paper's definition (Salmon et al., SC 2011): each
// round multiplies words 0 and 2 by the two multipliers, and the new words
// are (hi(M1*c2) ^ c1 ^ k0, lo(M1*c2), hi(M0*c0) ^ c3 ^ k1, lo(M0*c0)); the
// key then takes the Weyl increments.
__extension__ typedef unsigned __int128 Uint128;

struct Block {
  uint32_t w[4];
};
Block ReferencePhilox(Block c, uint32_t k0, uint32_t k1, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    const uint64_t a = 0xD2511F53ull * c.w[0];
    const uint64_t b = 0xCD9E8D57ull * c.w[2];
    c = Block{{static_cast<uint32_t>(b >> 32) ^ c.w[1] ^ k0,
               static_cast<uint32_t>(b),
               static_cast<uint32_t>(a >> 32) ^ c.w[3] ^ k1,
               static_cast<uint32_t>(a)}};
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// The counter plus n, in 128 bits.
Block CounterPlus(const uint32_t c[4], uint64_t n) {
  Uint128 v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 32) | c[i];
  v += n;
  Block b;
  for (int i = 0; i < 4; ++i) b.w[i] = static_cast<uint32_t>(v >> (32 * i));
  return b;
}

// The page's float: uniform in [0, 1) from a word's low 23 bits.
float ReferenceUnit(uint32_t word) {
  return static_cast<float>(word & 0x7FFFFF) / 8388608.0f;
}

TEST(PhiloxRandom, KnownAnswerOfThePaperConstants) {
  // Philox4x32-10 of counter 0 and key 0, a published test vector.
  const Block out = ReferencePhilox(Block{{0, 0, 0, 0}}, 0, 0, 10);
  EXPECT_EQ(out.w[0], 0x6627e8d5u);
  EXPECT_EQ(out.w[1], 0xe169c58du);
  EXPECT_EQ(out.w[2], 0xbc57ac4cu);
  EXPECT_EQ(out.w[3], 0x9b00dbd8u);
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto d = ub.Make<uint32_t>(0, 8);
  const AscendC::PhiloxKey key = {0, 0};
  const AscendC::PhiloxCounter counter = {0, 0, 0, 0};
  AscendC::PhiloxRandom<10>(d, key, counter, 4);
  EXPECT_EQ(Read(d, 4), (std::vector<uint32_t>{0x6627e8d5u, 0xe169c58du,
                                               0xbc57ac4cu, 0x9b00dbd8u}));
}

// The page's example: PhiloxRandom<10>, key {0, 0}, counter {0, 0, 0, 0},
// 1024 floats, of which it prints the first and last three.
TEST(PhiloxRandom, PageExample) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto d = ub.Make<float>(0, 1024);
  const AscendC::PhiloxKey key = {0, 0};
  const AscendC::PhiloxCounter counter = {0, 0, 0, 0};
  AscendC::PhiloxRandom<10>(d, key, counter, 1024);
  const auto out = Read(d, 1024);
  EXPECT_EQ(out[0], 0.31179297f);
  EXPECT_EQ(out[1], 0.8263413f);
  EXPECT_EQ(out[2], 0.6849456f);
  EXPECT_EQ(out[1021], 0.10521233f);
  EXPECT_EQ(out[1022], 0.29894042f);
  EXPECT_EQ(out[1023], 0.96700084f);
}

template <typename T, uint16_t kRounds>
void CheckConsecutive(const uint32_t key[2], const uint32_t counter[4],
                      uint16_t count) {
  Ub ub;
  auto d = ub.Make<T>(0, count + 8);
  std::vector<T> sentinel(count + 8);
  std::memset(static_cast<void*>(sentinel.data()), 0xAB,
              sentinel.size() * sizeof(T));
  Write(d, sentinel);
  const AscendC::PhiloxKey k = {key[0], key[1]};
  const AscendC::PhiloxCounter c = {counter[0], counter[1], counter[2],
                                    counter[3]};
  AscendC::PhiloxRandom<kRounds>(d, k, c, count);
  const auto out = Read(d, count + 8);
  for (uint32_t i = 0; i < count; ++i) {
    const Block b =
        ReferencePhilox(CounterPlus(counter, i / 4), key[0], key[1], kRounds);
    const uint32_t word = b.w[i % 4];
    if constexpr (std::is_same_v<T, float>) {
      ASSERT_TRUE(SameBits(out[i], ReferenceUnit(word))) << i;
      ASSERT_GE(out[i], 0.0f);
      ASSERT_LT(out[i], 1.0f);
    } else {
      ASSERT_EQ(static_cast<uint32_t>(out[i]), word) << i;
    }
  }
  for (uint32_t i = count; i < count + 8u; ++i) {
    ASSERT_TRUE(SameBits(out[i], sentinel[i])) << "written past count: " << i;
  }
}

TEST(PhiloxRandom, ConsecutiveFormEveryTypeAndRounds) {
  const ProfileScope scope(Profile::k950);
  std::mt19937 rng(Seed());
  for (int trial = 0; trial < 4; ++trial) {
    uint32_t key[2];
    uint32_t counter[4];
    for (uint32_t& k : key) k = static_cast<uint32_t>(rng());
    for (uint32_t& c : counter) c = static_cast<uint32_t>(rng());
    for (const uint16_t count : {1, 3, 4, 37, 256}) {
      CheckConsecutive<uint32_t, 7>(key, counter, count);
      CheckConsecutive<uint32_t, 10>(key, counter, count);
      CheckConsecutive<int32_t, 7>(key, counter, count);
      CheckConsecutive<float, 7>(key, counter, count);
      CheckConsecutive<float, 10>(key, counter, count);
    }
  }
  // The counter carries from word to word.
  const uint32_t key[2] = {1, 2};
  const uint32_t counter[4] = {0xFFFFFFFEu, 0xFFFFFFFFu, 0xFFFFFFFFu, 7};
  CheckConsecutive<uint32_t, 10>(key, counter, 16);
  EXPECT_EQ(CounterPlus(counter, 2).w[3], 8u);
}

// The stride form writes what the consecutive form writes at the same
// places of a stride-wide block: the page's figure, by columns in two calls
// (the second call's counter one more), gives the 32 consecutive numbers.
TEST(PhiloxRandom, StrideFormMatchesTheFigure) {
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto whole = ub.Make<uint32_t>(0, 32);
  auto left = ub.Make<uint32_t>(1, 32);
  auto right = ub.Make<uint32_t>(2, 32);
  Write(left, std::vector<uint32_t>(32, 0));
  Write(right, std::vector<uint32_t>(32, 0));
  const AscendC::PhiloxKey key = {0x1234, 0x5678};
  const AscendC::PhiloxCounter c0 = {0, 0, 0, 0};
  const AscendC::PhiloxCounter c1 = {1, 0, 0, 0};
  AscendC::PhiloxRandom(whole, key, c0, 32);
  AscendC::PhiloxRandomParams params{8, 4, 4};
  AscendC::PhiloxRandom(left, key, c0, params);
  AscendC::PhiloxRandom(right, key, c1, params);
  const auto w = Read(whole, 32);
  const auto l = Read(left, 32);
  const auto r = Read(right, 32);
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 8; ++col) {
      const int i = row * 8 + col;
      if (col < 4) {
        EXPECT_EQ(l[i], w[i]) << i;
        EXPECT_EQ(r[i], w[i + 4]) << i;
      } else {
        EXPECT_EQ(l[i], 0u) << "the gap is not written: " << i;
      }
    }
  }
  // Against the reference for a wider block, in float.
  auto f = ub.Make<float>(3, 3 * 12);
  const AscendC::PhiloxCounter c = {5, 6, 7, 8};
  AscendC::PhiloxRandom<10>(f, key, c, AscendC::PhiloxRandomParams{12, 3, 8});
  const auto fo = Read(f, 36);
  const uint32_t cw[4] = {5, 6, 7, 8};
  for (uint32_t row = 0; row < 3; ++row) {
    for (uint32_t col = 0; col < 8; ++col) {
      const Block b = ReferencePhilox(CounterPlus(cw, row * 3 + col / 4),
                                      0x1234, 0x5678, 10);
      EXPECT_TRUE(SameBits(fo[row * 12 + col], ReferenceUnit(b.w[col % 4])));
    }
  }
}

TEST(PhiloxRandom, ChecksNameTheArgumentAndTheRule) {
  const AscendC::PhiloxKey key = {0, 0};
  const AscendC::PhiloxCounter c = {0, 0, 0, 0};
  for (const Profile p : {Profile::kA2, Profile::k310P}) {
    const ProfileScope scope(p);
    Ub ub;
    auto d = ub.Make<uint32_t>(0, 32);
    const std::string name = normgrad_ascendc::GetProfileInfo(p).key;
    EXPECT_TRUE(FailsWith([&] { AscendC::PhiloxRandom(d, key, c, 8); },
                          "PhiloxRandom: not available on profile " + name));
  }
  const ProfileScope scope(Profile::k950);
  Ub ub;
  auto d = ub.Make<uint32_t>(0, 32);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::PhiloxRandom(d, key, c, 33); },
      "PhiloxRandom: dstLocal holds 32 elements, fewer than the 33 it must "
      "hold (count)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::PhiloxRandom(d, key, c, AscendC::PhiloxRandomParams{8, 0, 4});
      },
      "PhiloxRandom: params.row 0 * params.column 4 is 0; it must be at least "
      "1"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::PhiloxRandom(d, key, c, AscendC::PhiloxRandomParams{8, 2, 6});
      },
      "PhiloxRandom: params.column is 6 and params.stride 8; both must be "
      "multiples of 4"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::PhiloxRandom(d, key, c, AscendC::PhiloxRandomParams{4, 2, 8});
      },
      "PhiloxRandom: params.stride 4 is less than params.column 8"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::PhiloxRandom(d, key, c,
                              AscendC::PhiloxRandomParams{12, 3, 12});
      },
      "PhiloxRandom: dstLocal holds 32 elements, fewer than the 36 it must "
      "hold ((params.row - 1) * params.stride + params.column)"));
}

// ---- AscendC::Std -----------------------------------------------------------

namespace Std = AscendC::Std;

// The integer_sequence page: make_index_sequence<5> is 0..4, and
// index_sequence keeps what it is given.
template <size_t... Is>
constexpr size_t SumOf(Std::index_sequence<Is...>) {
  return (size_t{0} + ... + Is);
}
static_assert(SumOf(Std::make_index_sequence<5>{}) == 10);
static_assert(SumOf(Std::index_sequence<0, 1, 2, 10, 8000>{}) == 8013);
static_assert(Std::make_index_sequence<64>::size() == 64);
static_assert(std::is_same_v<Std::make_index_sequence<3>,
                             Std::IntegerSequence<size_t, 0, 1, 2>>);
static_assert(std::is_same_v<Std::MakeIntegerSequence<int, 2>,
                             Std::integer_sequence<int, 0, 1>>);

// max and min (the pages' examples) are constant expressions.
static_assert(Std::max(int64_t{1}, int64_t{2}) == 2);
static_assert(Std::min(int64_t{1}, int64_t{2}) == 1);
static_assert(Std::max(true, false) && !Std::min(true, false));
static_assert(Std::max(uint8_t{200}, uint8_t{7}) == 200);
static_assert(Std::min(-1.5f, 2.0f) == -1.5f);

TEST(Std, MaxMinOfEveryListedTypeAndNaN) {
  EXPECT_EQ(Std::max(int8_t{-3}, int8_t{-4}), -3);
  EXPECT_EQ(Std::min(uint16_t{3}, uint16_t{65535}), 3);
  EXPECT_EQ(Std::max(int32_t{-5}, int32_t{5}), 5);
  EXPECT_EQ(Std::min(uint32_t{1}, uint32_t{0}), 0u);
  EXPECT_EQ(Std::max(uint64_t{1} << 63, uint64_t{3}), uint64_t{1} << 63);
  EXPECT_EQ(Std::min(int16_t{-300}, int16_t{300}), -300);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // Neither is larger: src0 is returned.
  EXPECT_TRUE(std::isnan(Std::max(nan, 1.0f)));
  EXPECT_EQ(Std::max(1.0f, nan), 1.0f);
  EXPECT_TRUE(std::isnan(Std::min(nan, 1.0f)));
  EXPECT_TRUE(SameBits(Std::max(-0.0f, 0.0f), -0.0f));
}

TEST(Std, AbsOfEveryListedType) {
  EXPECT_EQ(Std::abs(int64_t{-2}), 2);      // the page's example
  EXPECT_EQ(Std::abs(int8_t{-128}), -128);  // wraps: no +128 in int8_t
  EXPECT_EQ(Std::abs(int8_t{-127}), 127);
  EXPECT_EQ(Std::abs(int16_t{-32768}), -32768);
  EXPECT_EQ(Std::abs(int32_t{-7}), 7);
  EXPECT_EQ(Std::abs(std::numeric_limits<int64_t>::min()),
            std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Std::abs(-2.5f), 2.5f);
  EXPECT_TRUE(SameBits(Std::abs(-0.0f), 0.0f));
  EXPECT_EQ(Std::abs(-INFINITY), INFINITY);
  const float negative_nan = -std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(compat_test::FloatBits(Std::abs(negative_nan)) >> 31, 0u);
}

TEST(Std, SqrtOfFloatAndTruncatedInt64) {
  EXPECT_EQ(Std::sqrt(int64_t{4}), 2);  // the page's example
  EXPECT_EQ(Std::sqrt(int64_t{0}), 0);
  EXPECT_EQ(Std::sqrt(int64_t{-9}), 0);
  EXPECT_EQ(Std::sqrt(int64_t{8}), 2);
  EXPECT_EQ(Std::sqrt(std::numeric_limits<int64_t>::max()), 3037000499);
  std::mt19937_64 rng(Seed());
  std::vector<int64_t> xs;
  for (int64_t r = 1; r < 3037000499; r = r * 3 + 1) {
    xs.push_back(r * r - 1);
    xs.push_back(r * r);
    xs.push_back(r * r + 1);
  }
  for (int i = 0; i < 2000; ++i) xs.push_back(static_cast<int64_t>(rng() >> 1));
  for (const int64_t x : xs) {
    const int64_t r = Std::sqrt(x);
    const Uint128 r2 = static_cast<Uint128>(r) * r;
    const Uint128 next = static_cast<Uint128>(r + 1) * (r + 1);
    ASSERT_TRUE(r2 <= static_cast<Uint128>(x) && static_cast<Uint128>(x) < next)
        << x;
  }
  for (const float x : {0.0f, 2.0f, 1e-40f, 3.0e38f, 0.5f, 16.0f}) {
    EXPECT_TRUE(SameBits(Std::sqrt(x),
                         static_cast<float>(std::sqrt(static_cast<double>(x)))))
        << x;
  }
  EXPECT_TRUE(std::isnan(Std::sqrt(-1.0f)));
  EXPECT_TRUE(SameBits(Std::sqrt(-0.0f), -0.0f));
}

// The tuple page's example, on the types and tensors it names.
TEST(Std, TupleGetMakeTupleAndTie) {
  const ProfileScope scope(Profile::kA2);
  Ub ub;
  auto a = ub.Make<float>(0, 8);
  auto b = ub.Make<float>(1, 8);
  AscendC::GlobalTensor<float> g;
  auto tensors = Std::make_tuple(a, b, g);
  static_assert(Std::tuple_size<decltype(tensors)>::value == 3);
  EXPECT_EQ(Std::get<1>(tensors).GetPhyAddr(), b.GetPhyAddr());

  Std::tuple<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, uint64_t,
             int64_t, half, float, bfloat16_t, bool>
      t1 = {2,   3, 4, 5, 6, 7, 8, 9, half(10.0f), 11.0f, bfloat16_t(12.0f),
            true};
  static_assert(Std::tuple_size<decltype(t1)>::value == 12);
  Std::get<0>(t1) += 1;
  Std::get<9>(t1) += 1.0f;
  EXPECT_EQ(Std::get<0>(t1), 3);
  EXPECT_EQ(Std::get<7>(t1), 9);
  EXPECT_EQ(static_cast<float>(Std::get<8>(t1)), 10.0f);
  EXPECT_EQ(Std::get<9>(t1), 12.0f);
  EXPECT_EQ(static_cast<float>(Std::get<10>(t1)), 12.0f);
  EXPECT_TRUE(Std::get<11>(t1));

  const Std::tuple<uint32_t, float, bool> t4{11, 2.2f, true};
  Std::tuple_element<0, decltype(t4)>::type first = 77;
  Std::tuple_element<1, decltype(t4)>::type second = 7.7f;
  EXPECT_EQ(first, 77u);
  EXPECT_EQ(second, 7.7f);
  uint32_t u = 0;
  float f = 0;
  bool flag = false;
  Std::tie(u, f, flag) = t4;
  EXPECT_EQ(u, 11u);
  EXPECT_EQ(f, 2.2f);
  EXPECT_TRUE(flag);

  // 64 elements, assigned from a make_tuple of ints.
  auto t8 = Std::make_tuple(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                            16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                            29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
                            42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54,
                            55, 56, 57, 58, 59, 60, 61, 62, 63, 64);
  static_assert(Std::tuple_size<decltype(t8)>::value == 64);
  EXPECT_EQ(Std::get<63>(t8), 64);
  Std::tuple<uint32_t, float, bool> t9 = Std::make_tuple(22u, 3.3f, true);
  EXPECT_EQ(Std::get<0>(t9), 22u);
  EXPECT_EQ(Std::get<0>(std::move(t9)), 22u);
}

}  // namespace

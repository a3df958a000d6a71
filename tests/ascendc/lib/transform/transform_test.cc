// transform_test.cc — the Tensor transform family through kernel_operator.h
// on the emulated core, and its host tiling functions through tiling_api.h:
// the pages' examples; every Transpose scenario, Pad, UnPad and Broadcast
// form bit for bit against a reference written here from the layouts the
// pages give (walking the destination and asking which source element
// belongs there, the other way round from src/); every type per profile;
// every overload; every check's message; the tilings' fields and bad input;
// TransData's four conversions with the documented Layout; Fill on
// global memory.
//
// To add a case: a shape to a scenario's list in TransposeScenarios, or a
// test below with its reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <tuple>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::TransposeType;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

uint32_t Round32(uint64_t bytes) {
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

// src, dst and a scratch of 32 bytes, on one pipe.
template <typename T>
struct Tensors {
  Tensors(uint64_t src_elems, uint64_t dst_elems) {
    pipe.InitBuffer(src_buf, Round32(src_elems * sizeof(T)));
    pipe.InitBuffer(dst_buf, Round32(dst_elems * sizeof(T)));
    pipe.InitBuffer(tmp_buf, 32);
    src = src_buf.Get<T>();
    dst = dst_buf.Get<T>();
    tmp = tmp_buf.Get<uint8_t>();
  }
  T* Src() { return reinterpret_cast<T*>(src.GetPhyAddr()); }
  T* Dst() { return reinterpret_cast<T*>(dst.GetPhyAddr()); }
  TPipe pipe;
  TBuf<TPosition::VECIN> src_buf;
  TBuf<TPosition::VECOUT> dst_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src, dst;
  LocalTensor<uint8_t> tmp;
};

// A distinct bit pattern per element index (for any T: the bytes of i + 1
// spread over the element), and a marker for elements never written.
template <typename T>
T Pattern(uint64_t i) {
  T v;
  uint8_t bytes[sizeof(T)];
  for (size_t b = 0; b < sizeof(T); ++b) {
    bytes[b] = static_cast<uint8_t>((i + 1) >> (8 * (b % 4)));
  }
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <typename T>
T Marker() {
  uint8_t bytes[sizeof(T)];
  std::memset(bytes, 0xA5, sizeof(T));
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return v;
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Expects dst[i] == expected[i] bit for bit.
template <typename T>
void ExpectBits(const T* dst, const std::vector<T>& expected,
                const std::string& label) {
  uint64_t mismatches = 0;
  for (uint64_t i = 0; i < expected.size(); ++i) {
    if (!SameBits(dst[i], expected[i]) && ++mismatches <= 3) {
      ADD_FAILURE() << label << ": element " << i << " differs";
    }
  }
  EXPECT_EQ(mismatches, 0u) << label;
}

// What f prints on stderr (the host functions' messages).
std::string StderrOf(const std::function<void()>& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

// ---- Transpose ----------------------------------------------------------

struct Scenario {
  uint32_t type;
  std::vector<int64_t> shape;
};

// The destination of scenario `t` for source `src` (origin shape in the
// page's form), built by walking the destination's layout. `marker` fills
// destination elements no source element maps to.
template <typename T>
std::vector<T> TransposeReference(uint32_t t, const std::vector<int64_t>& sh,
                                  const std::vector<T>& src, T marker) {
  std::vector<T> out;
  if (t <= 6) {
    const uint64_t B = sh[0], N = sh[1], S = sh[2], W = sh[3], H = N * W;
    // The logical element (b, s, h) of [B, S, H], h = n * W + w, read from
    // the source's NZ layout.
    auto at = [&](uint64_t b, uint64_t s, uint64_t h) {
      if (t == 3 || t == 4) {
        // NZ [B, H/16, S/16, 16, 16]: fractal (h1, s1), row s0, column h0.
        const uint64_t h1 = h / 16, h0 = h % 16;
        return src[b * S * H + h1 * (S / 16) * 256 + s * 16 + h0];
      }
      const uint64_t n = h / W, w = h % W, w1 = w / 16, w0 = w % 16;
      // NZ [B, N, W/16, S/16, 16, 16].
      return src[((b * N + n) * (W / 16) + w1) * (S / 16) * 256 +
                 (s / 16) * 256 + (s % 16) * 16 + w0];
    };
    const uint64_t wp = (W + 15) / 16 * 16;
    if (t == 1) {  // [B, S, N, W]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t s = 0; s < S; ++s)
          for (uint64_t n = 0; n < N; ++n)
            for (uint64_t w = 0; w < W; ++w) out.push_back(at(b, s, n * W + w));
    } else if (t == 2) {  // NZ [B, S, W/16, N/16, 16, 16] of [N, W]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t s = 0; s < S; ++s)
          for (uint64_t w1 = 0; w1 < W / 16; ++w1)
            for (uint64_t n1 = 0; n1 < N / 16; ++n1)
              for (uint64_t n0 = 0; n0 < 16; ++n0)
                for (uint64_t w0 = 0; w0 < 16; ++w0)
                  out.push_back(at(b, s, (n1 * 16 + n0) * W + w1 * 16 + w0));
    } else if (t == 3) {  // NZ [B, N, Wp/16, S/16, 16, 16] of [S, Wp]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t n = 0; n < N; ++n)
          for (uint64_t w1 = 0; w1 < wp / 16; ++w1)
            for (uint64_t s = 0; s < S; ++s)
              for (uint64_t w0 = 0; w0 < 16; ++w0) {
                const uint64_t w = w1 * 16 + w0;
                out.push_back(w < W ? at(b, s, n * W + w) : marker);
              }
    } else if (t == 4) {  // [B, N, S, Wp]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t n = 0; n < N; ++n)
          for (uint64_t s = 0; s < S; ++s)
            for (uint64_t w = 0; w < wp; ++w)
              out.push_back(w < W ? at(b, s, n * W + w) : marker);
    } else if (t == 5) {  // [B, S, H]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t s = 0; s < S; ++s)
          for (uint64_t h = 0; h < H; ++h) out.push_back(at(b, s, h));
    } else {  // 6: NZ [B, H/16, S/16, 16, 16]
      for (uint64_t b = 0; b < B; ++b)
        for (uint64_t h1 = 0; h1 < H / 16; ++h1)
          for (uint64_t s = 0; s < S; ++s)
            for (uint64_t h0 = 0; h0 < 16; ++h0)
              out.push_back(at(b, s, h1 * 16 + h0));
    }
    return out;
  }
  if (sh.size() == 2) {
    const uint64_t H = sh[0], W = sh[1];
    if (t == 16) {  // NZ [W/2, H/16, 16, 2]
      for (uint64_t w1 = 0; w1 < W / 2; ++w1)
        for (uint64_t h = 0; h < H; ++h)
          for (uint64_t w0 = 0; w0 < 2; ++w0)
            out.push_back(src[h * W + w1 * 2 + w0]);
    } else {  // [W, H]
      for (uint64_t w = 0; w < W; ++w)
        for (uint64_t h = 0; h < H; ++h) out.push_back(src[h * W + w]);
    }
    return out;
  }
  const uint64_t N = sh[0], H = sh[1], W = sh[2];
  auto at = [&](uint64_t n, uint64_t h, uint64_t w) {
    return src[(n * H + h) * W + w];
  };
  if (t == 13) {  // [N, W, H]
    for (uint64_t n = 0; n < N; ++n)
      for (uint64_t w = 0; w < W; ++w)
        for (uint64_t h = 0; h < H; ++h) out.push_back(at(n, h, w));
  } else if (t == 14) {  // [H, N, W]
    for (uint64_t h = 0; h < H; ++h)
      for (uint64_t n = 0; n < N; ++n)
        for (uint64_t w = 0; w < W; ++w) out.push_back(at(n, h, w));
  } else {  // 15: [W, H, N]
    for (uint64_t w = 0; w < W; ++w)
      for (uint64_t h = 0; h < H; ++h)
        for (uint64_t n = 0; n < N; ++n) out.push_back(at(n, h, w));
  }
  return out;
}

uint64_t Elements(const std::vector<int64_t>& shape) {
  uint64_t n = 1;
  for (int64_t d : shape) n *= static_cast<uint64_t>(d);
  return n;
}

// Runs scenario s on T through the host tiling and both overloads, and
// compares with the reference.
template <typename T>
void CheckScenario(const Scenario& s) {
  const std::string label = "scenario " + std::to_string(s.type) + " " +
                            normgrad_ascendc::TypeName<T>();
  const ge::Shape shape(s.shape);
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetTransposeMaxMinTmpSize(shape, sizeof(T), s.type, max_value,
                                     min_value);
  EXPECT_EQ(max_value, 0u) << label;
  EXPECT_EQ(min_value, 0u) << label;
  AscendC::tiling::ConfusionTransposeTiling tiling;
  AscendC::GetTransposeTilingInfo(shape, min_value, sizeof(T), s.type, tiling);
  ASSERT_EQ(tiling.transposeType, s.type) << label;
  const uint64_t n = Elements(s.shape);
  std::vector<T> src(n);
  for (uint64_t i = 0; i < n; ++i) src[i] = Pattern<T>(i);
  const std::vector<T> expected =
      TransposeReference<T>(s.type, s.shape, src, Marker<T>());
  for (bool shared : {true, false}) {
    Tensors<T> t(n, expected.size());
    std::memcpy(t.Src(), src.data(), n * sizeof(T));
    for (uint64_t i = 0; i < expected.size(); ++i) t.Dst()[i] = Marker<T>();
    const auto type = static_cast<TransposeType>(s.type);
    if (shared) {
      AscendC::Transpose(t.dst, t.src, t.tmp, type, tiling);
    } else {
      AscendC::Transpose(t.dst, t.src, type, tiling);
    }
    ExpectBits(t.Dst(), expected, label + (shared ? " shared" : " framework"));
  }
}

const std::vector<Scenario>& NzScenarios() {
  static const std::vector<Scenario> kList = {
      {1, {1, 2, 64, 32}},  // the page's example
      {1, {2, 3, 16, 16}}, {2, {1, 16, 32, 32}}, {2, {2, 32, 16, 16}},
      {3, {2, 2, 32, 24}}, {3, {1, 4, 16, 4}},   {3, {1, 1, 16, 48}},
      {4, {2, 2, 32, 24}}, {4, {1, 8, 16, 2}},   {5, {2, 3, 32, 16}},
      {5, {1, 2, 16, 48}}, {6, {2, 3, 32, 16}},  {6, {1, 1, 48, 32}},
      {7, {16, 32}},       {7, {48, 16}},
  };
  return kList;
}

const std::vector<Scenario>& Nd950Scenarios() {
  static const std::vector<Scenario> kList = {
      {13, {5, 7}},
      {13, {3, 4, 9}},
      {14, {3, 5, 7}},
      {14, {1, 2, 33}},
      {15, {4, 3, 5}},
      {15, {2, 17, 1}},
      // Whole tiles and tails of the tiled transpose (8 and 16 wide).
      {13, {33, 17}},
      {13, {2, 19, 35}},
      {15, {17, 9, 33}},
  };
  return kList;
}

TEST(Transpose, NzAndTwoDimensionalScenariosOnEveryProfile) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    for (const Scenario& s : NzScenarios()) {
      CheckScenario<half>(s);
      CheckScenario<float>(s);
    }
  }
  const ProfileScope scope(Profile::kA2);
  for (const Scenario& s : NzScenarios()) {
    CheckScenario<int16_t>(s);
    CheckScenario<uint16_t>(s);
    CheckScenario<int32_t>(s);
    CheckScenario<uint32_t>(s);
  }
}

TEST(Transpose, NdScenariosOn950) {
  const ProfileScope scope(Profile::k950);
  for (const Scenario& s : Nd950Scenarios()) {
    CheckScenario<int8_t>(s);
    CheckScenario<uint8_t>(s);
    CheckScenario<half>(s);
    CheckScenario<bfloat16_t>(s);
    CheckScenario<int16_t>(s);
    CheckScenario<uint16_t>(s);
    CheckScenario<int32_t>(s);
    CheckScenario<uint32_t>(s);
    CheckScenario<float>(s);
  }
  for (const Scenario& s :
       std::vector<Scenario>{{16, {16, 2}}, {16, {32, 6}}, {16, {48, 38}}}) {
    CheckScenario<int8_t>(s);
    CheckScenario<uint8_t>(s);
  }
}

TEST(Transpose, PageExampleMovesRowsOfTheFractals) {
  // Scenario 1, [1, 2, 64, 32] half: element (s, w) of head n lands at
  // s * 64 + n * 32 + w; spot-check from the page's picture of the layout.
  const ProfileScope scope(Profile::kA2);
  AscendC::tiling::ConfusionTransposeTiling tiling;
  AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 0, 2, 1, tiling);
  Tensors<int16_t> t(4096, 4096);
  for (int i = 0; i < 4096; ++i) t.Src()[i] = static_cast<int16_t>(i);
  AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_NZ2ND_0213, tiling);
  // Head 1, row s = 17, column w = 20: fractal w1 = 1, s1 = 1, inside
  // (1, 4): source index 2048 + 1 * 1024 + 1 * 256 + 1 * 16 + 4.
  EXPECT_EQ(t.Dst()[17 * 64 + 32 + 20], 2048 + 1024 + 256 + 16 + 4);
  EXPECT_EQ(t.Dst()[0], 0);
  EXPECT_EQ(t.Dst()[1], 1);
  EXPECT_EQ(t.Dst()[64], 16);  // row s = 1 of head 0
}

TEST(Transpose, ChecksEveryRule) {
  const ProfileScope scope(Profile::kA2);
  AscendC::tiling::ConfusionTransposeTiling tiling;
  AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 4, 7, tiling);
  {
    Tensors<float> t(512, 512);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_TYPE_NONE,
                             tiling);
        },
        "Transpose: transposeType is 0, which is not supported: the scenarios "
        "are 1-7 and 13-16"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_NCHW2NHWC,
                             tiling);
        },
        "transposeType is 11, which is not supported"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_ND2ND_021,
                             tiling);
        },
        "Transpose: transposeType 13 is available on profile 950 only, not on "
        "profile a2 (Atlas A2/A3)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_NZ2ND_0213,
                             tiling);
        },
        "Transpose: transposeType is 1 but tiling.transposeType is 7: pass the "
        "scenario the tiling was made for"));
    AscendC::tiling::ConfusionTransposeTiling empty;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_ND2ND_ONLY,
                             empty);
        },
        "Transpose: tiling.transposeType is 0: the tiling is empty "
        "(GetTransposeTilingInfo failed or was not called)"));
    AscendC::tiling::ConfusionTransposeTiling halves;
    AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 2, 7, halves);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_ND2ND_ONLY,
                             halves);
        },
        "Transpose: tiling.typeSize is 2 but T is float (4 bytes)"));
    AscendC::tiling::ConfusionTransposeTiling bad = tiling;
    bad.shapeDim1 = 20;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_ND2ND_ONLY,
                             bad);
        },
        "Transpose: the tiling's W = 20 is not a multiple of 16; the tiling is "
        "inconsistent"));
    AscendC::tiling::ConfusionTransposeTiling big;
    AscendC::GetTransposeTilingInfo(ge::Shape({32, 32}), 0, 4, 7, big);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, TransposeType::TRANSPOSE_ND2ND_ONLY,
                             big);
        },
        "Transpose: src holds 512 floats, fewer than the 1024 it must hold"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.src, t.src, TransposeType::TRANSPOSE_ND2ND_ONLY,
                             tiling);
        },
        "Transpose: dst (UB bytes"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Transpose(t.dst, t.src, t.dst.ReinterpretCast<uint8_t>(),
                             TransposeType::TRANSPOSE_ND2ND_ONLY, tiling);
        },
        "and sharedTmpBuffer (UB bytes"));
  }
  Tensors<int8_t> b8(512, 512);
  AscendC::tiling::ConfusionTransposeTiling i8;
  {
    const ProfileScope p950(Profile::k950);
    AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 1, 13, i8);
  }
  ASSERT_EQ(i8.transposeType, 13u);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(b8.dst, b8.src, TransposeType::TRANSPOSE_ND2ND_021,
                           i8);
      },
      "transposeType 13 is available on profile 950 only"));
}

TEST(Transpose, TypesPerScenario) {
  const ProfileScope scope(Profile::k950);
  AscendC::tiling::ConfusionTransposeTiling tiling;
  AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 1, 16, tiling);
  Tensors<half> h(512, 512);
  AscendC::tiling::ConfusionTransposeTiling nd;
  EXPECT_NE(
      StderrOf([&] {
        AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 2, 16, nd);
      })
          .find("GetTransposeTilingInfo: typeSize 2 is not supported: "
                "scenario 16 takes 1 (int8_t, uint8_t); the tiling is "
                "zeroed."),
      std::string::npos);
  EXPECT_EQ(nd.transposeType, 0u);
  nd = tiling;
  nd.typeSize = 2;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(h.dst, h.src,
                           TransposeType::TRANSPOSE_ND2NZ_WITH_INTLV, nd);
      },
      "Transpose: T is half, which profile 950 (Ascend 950) does not take: "
      "Transpose takes int8_t, uint8_t there"));
  AscendC::tiling::ConfusionTransposeTiling seven;
  EXPECT_NE(
      StderrOf([&] {
        AscendC::GetTransposeTilingInfo(ge::Shape({16, 32}), 0, 1, 7, seven);
      })
          .find("typeSize 1 is not supported: scenario 7 takes 2 or 4 "
                "(int16_t, uint16_t, half, int32_t, uint32_t, float)"),
      std::string::npos);
  EXPECT_EQ(seven.transposeType, 0u);
}

TEST(TransposeTiling, FieldsOldNamesAndBadInput) {
  AscendC::tiling::ConfusionTransposeTiling a, b, c;
  AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 0, 2, 1, a);
  EXPECT_EQ(a.transposeType, 1u);
  EXPECT_EQ(a.typeSize, 2u);
  EXPECT_EQ(a.shapeDim0, 1u);
  EXPECT_EQ(a.shapeDim1, 2u);
  EXPECT_EQ(a.shapeDim2, 64u);
  EXPECT_EQ(a.shapeDim3, 32u);
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 0, 2, 1,
                                           b);
  EXPECT_EQ(std::memcmp(&a, &b, sizeof a), 0);
  AscendC::GetConfusionTransposeOnlyTilingInfo(ge::Shape({16, 48}), 0, 4, c);
  EXPECT_EQ(c.transposeType, 7u);
  EXPECT_EQ(c.shapeDim0, 16u);
  EXPECT_EQ(c.shapeDim1, 48u);
  EXPECT_EQ(c.shapeDim2, 0u);

  optiling::ConfusionTransposeTiling host;
  AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 64, 32}), 0, 2, 1, host);
  EXPECT_EQ(host.get_shapeDim2(), 64u);
  EXPECT_EQ(host.get_transposeType(), 1u);
  optiling::ConfusionTransposeTiling old_host, only_host;
  AscendC::GetConfusionTransposeTilingInfo(ge::Shape({2, 16, 16}), 0, 4, 15,
                                           old_host);
  EXPECT_EQ(old_host.get_transposeType(), 15u);
  AscendC::GetConfusionTransposeOnlyTilingInfo(ge::Shape({16, 16}), 0, 2,
                                               only_host);
  EXPECT_EQ(only_host.get_transposeType(), 7u);

  uint32_t max_value = 9, min_value = 9;
  AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape({16, 16}), 2, 7,
                                              max_value, min_value);
  EXPECT_EQ(max_value + min_value, 0u);

  AscendC::tiling::ConfusionTransposeTiling bad;
  EXPECT_NE(StderrOf([&] {
              AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 20, 32}), 0, 2,
                                              1, bad);
            })
                .find("GetTransposeTilingInfo: S = 20 is not a multiple of 16 "
                      "(srcShape [1, 2, 20, 32]); the tiling is zeroed."),
            std::string::npos);
  EXPECT_EQ(bad.transposeType, 0u);
  EXPECT_NE(
      StderrOf([&] {
        AscendC::GetTransposeTilingInfo(ge::Shape({16, 16}), 0, 2, 9, bad);
      })
          .find("transposeTypeIn 9 is not supported: it must be in "
                "[1, 7] or [13, 16]"),
      std::string::npos);
  EXPECT_NE(
      StderrOf([&] {
        AscendC::GetTransposeTilingInfo(ge::Shape({16, 16}), 0, 2, 1, bad);
      })
          .find("srcShape has 2 dimensions: scenario 1 takes "
                "[B, N, S, H/N]"),
      std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::GetTransposeTilingInfo(ge::Shape({1, 2, 16, 16}), 0, 8,
                                              1, bad);
            }).find("typeSize 8 is not supported: scenario 1 takes 2 or 4"),
            std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::GetTransposeTilingInfo(ge::Shape({1, 15, 16, 16}), 0, 2,
                                              2, bad);
            }).find("N = 15 is not a multiple of 16"),
            std::string::npos);
  EXPECT_NE(
      StderrOf([&] {
        AscendC::GetTransposeTilingInfo(ge::Shape({1, 3, 16, 5}), 0, 2, 3, bad);
      }).find("H = N * H/N = 15 is not a multiple of 16"),
      std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::GetTransposeMaxMinTmpSize(ge::Shape({16, 0}), 2, 7,
                                                 max_value, min_value);
            })
                .find("srcShape[1] is 0: every dimension must be in "
                      "[1, 4294967295] (srcShape [16, 0]); maxValue and "
                      "minValue are 0."),
            std::string::npos);
}

// ---- Pad and UnPad ------------------------------------------------------

// Pad's destination from the page: each row of `width` source elements (the
// first `ori` are data) becomes `aligned` elements: left pads, the data,
// right pads, then untouched elements (marker).
template <typename T>
std::vector<T> PadReference(const std::vector<T>& src, uint32_t height,
                            uint32_t width, uint32_t ori, uint32_t aligned,
                            uint32_t left, uint32_t right, T pad, T marker) {
  std::vector<T> out;
  for (uint32_t r = 0; r < height; ++r) {
    for (uint32_t c = 0; c < aligned; ++c) {
      if (c < left) {
        out.push_back(pad);
      } else if (c < left + ori) {
        out.push_back(src[r * width + c - left]);
      } else if (c < left + ori + right) {
        out.push_back(pad);
      } else {
        out.push_back(marker);
      }
    }
  }
  return out;
}

template <typename T>
void CheckPad(uint32_t height, uint32_t width, uint32_t ori, uint16_t left,
              uint16_t right, int32_t pad_value, T pad) {
  const std::string label =
      std::string("Pad ") + normgrad_ascendc::TypeName<T>() + " " +
      std::to_string(height) + "x" + std::to_string(width);
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetPadMaxMinTmpSize(ge::Shape({height, width}), sizeof(T), max_value,
                               min_value);
  EXPECT_EQ(max_value + min_value, 0u) << label;
  AscendC::tiling::PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({height, width}), ge::Shape({height, ori}),
                         min_value, sizeof(T), tiling);
  const uint32_t aligned = (width * sizeof(T) + 31) / 32 * 32 / sizeof(T);
  ASSERT_EQ(tiling.alignedWidth, aligned) << label;
  std::vector<T> src(uint64_t{height} * width);
  for (uint64_t i = 0; i < src.size(); ++i) src[i] = Pattern<T>(i);
  const std::vector<T> expected = PadReference(src, height, width, ori, aligned,
                                               left, right, pad, Marker<T>());
  for (bool shared : {true, false}) {
    Tensors<T> t(src.size(), expected.size());
    std::memcpy(t.Src(), src.data(), src.size() * sizeof(T));
    for (uint64_t i = 0; i < expected.size(); ++i) t.Dst()[i] = Marker<T>();
    AscendC::PadParams params{left, right, pad_value};
    if (shared) {
      AscendC::Pad(t.dst, t.src, params, t.tmp, tiling);
    } else {
      AscendC::Pad(t.dst, t.src, params, tiling);
    }
    ExpectBits(t.Dst(), expected, label);
  }
}

TEST(Pad, PageExampleHalf16x15) {
  // The page: 16 x 15 half holding 0..239, one column of 321 on the right.
  AscendC::tiling::PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({16, 15}), ge::Shape({16, 15}), 0, 2,
                         tiling);
  Tensors<half> t(240, 256);
  for (int i = 0; i < 240; ++i) t.Src()[i] = half(static_cast<float>(i));
  AscendC::PadParams params{0, 1, 321};
  AscendC::Pad(t.dst, t.src, params, tiling);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 15; ++c) {
      EXPECT_EQ(static_cast<float>(t.Dst()[r * 16 + c]), r * 15 + c);
    }
    EXPECT_EQ(static_cast<float>(t.Dst()[r * 16 + 15]), 321.0f);
  }
}

TEST(Pad, BothScenariosEveryType) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    // Scenario 1: width not aligned; pads on both sides.
    CheckPad<half>(16, 15, 15, 1, 0, -7, half(-7.0f));
    CheckPad<half>(32, 13, 13, 1, 2, 2049, half(2048.0f));  // rounds to even
    CheckPad<float>(8, 5, 5, 1, 2, 16777217, 16777216.0f);
    CheckPad<int32_t>(8, 3, 3, 2, 3, -5, -5);
    CheckPad<uint32_t>(8, 7, 7, 0, 1, 9, 9u);
    CheckPad<int16_t>(16, 9, 9, 3, 4, 70000, static_cast<int16_t>(4464));
    CheckPad<uint16_t>(16, 3, 3, 0, 2, -1, static_cast<uint16_t>(65535));
    // Scenario 2: width aligned with redundant columns; right only.
    CheckPad<half>(16, 16, 14, 0, 2, 5, half(5.0f));
    CheckPad<float>(4, 16, 9, 0, 3, 1, 1.0f);  // columns 12..15 untouched
  }
}

TEST(Pad, ChecksEveryRule) {
  const ProfileScope scope(Profile::kA2);
  AscendC::tiling::PadTiling tiling;
  AscendC::PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 14}), 0, 2,
                         tiling);
  Tensors<half> t(256, 256);
  AscendC::PadParams left{1, 1, 0};
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, left, tiling); },
                        "Pad: padParams.leftPad is 1; a 32-byte aligned width "
                        "(16) with redundant columns can be padded on the "
                        "right only"));
  AscendC::PadParams wide{0, 3, 0};
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, wide, tiling); },
                        "Pad: padParams.leftPad 0 + srcOriWidth 14 + "
                        "padParams.rightPad 3 = 17 columns, more than the "
                        "32-byte aligned width 16"));
  AscendC::tiling::PadTiling empty;
  AscendC::PadParams ok{0, 1, 0};
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, empty); },
                        "Pad: tiling.srcHeight is 0: the tiling is empty "
                        "(PadTilingFunc failed or was not called)"));
  AscendC::tiling::PadTiling floats;
  AscendC::PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 14}), 0, 4,
                         floats);
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, floats); },
                        "Pad: tiling.typeSize is 4 but T is half (2 bytes)"));
  AscendC::tiling::PadTiling bad = tiling;
  bad.alignedWidth = 32;
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, bad); },
                        "Pad: tiling.alignedWidth is 32, expected 16 (srcWidth "
                        "rounded up to whole 32-byte blocks)"));
  bad = tiling;
  bad.srcOriWidth = 16;
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, bad); },
                        "Pad has nothing to pad there"));
  AscendC::tiling::PadTiling odd;
  AscendC::PadTilingFunc(ge::Shape({16, 15}), ge::Shape({16, 15}), 0, 2, odd);
  odd.srcHeight = 3;
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, odd); },
                        "Pad: the source holds 3 x 15 = 45 halves (90 bytes); "
                        "its size must be a multiple of 32 bytes"));
  bad = tiling;
  bad.srcHeight = 17;
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Pad(t.dst, t.src, ok, bad); },
                "Pad: srcTensor holds 256 halves, fewer than the 272 it "
                "must hold (srcHeight * srcWidth)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Pad(t.src, t.src, ok, tiling); },
                        "Pad: dstTensor (UB bytes"));
}

TEST(PadTiling, FieldsAndBadInput) {
  AscendC::tiling::PadTiling t;
  AscendC::PadTilingFunc(ge::Shape({320, 63}), ge::Shape({320, 63}), 0, 2, t);
  EXPECT_EQ(t.srcHeight, 320u);
  EXPECT_EQ(t.srcWidth, 63u);
  EXPECT_EQ(t.srcOriWidth, 63u);
  EXPECT_EQ(t.alignedWidth, 64u);
  EXPECT_EQ(t.typeSize, 2u);
  optiling::PadTiling host;
  AscendC::PadTilingFunc(ge::Shape({320, 63}), ge::Shape({320, 63}), 64, 2,
                         host);
  EXPECT_EQ(host.get_alignedWidth(), 64u);
  EXPECT_EQ(host.get_stackBufferSize(), 64u);
  EXPECT_NE(StderrOf([&] {
              AscendC::PadTilingFunc(ge::Shape({16, 16}), ge::Shape({16, 16}),
                                     0, 2, t);
            })
                .find("PadTilingFunc: srcShape [16, 16] is 32-byte aligned and "
                      "every column is data: there is nothing to pad; the "
                      "tiling is zeroed."),
            std::string::npos);
  EXPECT_EQ(t.srcHeight, 0u);
  EXPECT_NE(
      StderrOf([&] {
        AscendC::PadTilingFunc(ge::Shape({3, 15}), ge::Shape({3, 15}), 0, 2, t);
      })
          .find("srcShape [3, 15] holds 90 bytes: the source's size must "
                "be a multiple of 32 bytes"),
      std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::PadTilingFunc(ge::Shape({16, 15}), ge::Shape({8, 15}), 0,
                                     2, t);
            }).find("oriSrcShape [8, 15] does not fit srcShape [16, 15]"),
            std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::PadTilingFunc(ge::Shape({16, 15}), ge::Shape({16, 15}),
                                     0, 8, t);
            }).find("typeSize 8 is not supported"),
            std::string::npos);
  uint32_t max_value = 0, min_value = 0;
  EXPECT_NE(StderrOf([&] {
              AscendC::GetPadMaxMinTmpSize(ge::Shape({16}), 2, max_value,
                                           min_value);
            }).find("GetPadMaxMinTmpSize: srcShape [16] has 1 dimensions"),
            std::string::npos);
}

template <typename T>
void CheckUnPad(uint32_t height, uint32_t width, uint16_t right) {
  const std::string label =
      std::string("UnPad ") + normgrad_ascendc::TypeName<T>() + " " +
      std::to_string(height) + "x" + std::to_string(width);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetUnPadMaxMinTmpSize(platform, ge::Shape({height, width}),
                                 sizeof(T), max_value, min_value);
  EXPECT_EQ(max_value + min_value, 0u) << label;
  AscendC::tiling::UnPadTiling tiling;
  AscendC::UnPadTilingFunc(ge::Shape({height, width}), min_value, sizeof(T),
                           tiling);
  ASSERT_EQ(tiling.srcWidth, width) << label;
  std::vector<T> src(uint64_t{height} * width);
  for (uint64_t i = 0; i < src.size(); ++i) src[i] = Pattern<T>(i);
  std::vector<T> expected;  // each row without its last `right` columns
  for (uint32_t r = 0; r < height; ++r) {
    for (uint32_t c = 0; c + right < width; ++c) {
      expected.push_back(src[r * width + c]);
    }
  }
  for (bool shared : {true, false}) {
    Tensors<T> t(src.size(), src.size());
    std::memcpy(t.Src(), src.data(), src.size() * sizeof(T));
    AscendC::UnPadParams params{0, right};
    if (shared) {
      AscendC::UnPad(t.dst, t.src, params, t.tmp, tiling);
    } else {
      AscendC::UnPad(t.dst, t.src, params, tiling);
    }
    ExpectBits(t.Dst(), expected, label);
  }
}

TEST(UnPad, EveryTypeAndThePageExample) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    CheckUnPad<half>(16, 16, 1);  // the page: 16 x 16 -> 16 x 15
    CheckUnPad<half>(5, 32, 15);
    CheckUnPad<float>(4, 16, 3);
    CheckUnPad<int32_t>(3, 8, 7);
    CheckUnPad<uint32_t>(2, 24, 1);
    CheckUnPad<int16_t>(7, 48, 9);
    CheckUnPad<uint16_t>(1, 16, 2);
  }
}

TEST(UnPad, ChecksEveryRule) {
  const ProfileScope scope(Profile::kA2);
  AscendC::tiling::UnPadTiling tiling;
  AscendC::UnPadTilingFunc(ge::Shape({16, 16}), 0, 2, tiling);
  AscendC::UnPadParams ok{0, 1};
  {
    Tensors<half> t(256, 256);
    AscendC::UnPadParams left{1, 1};
    EXPECT_TRUE(FailsWith([&] { AscendC::UnPad(t.dst, t.src, left, tiling); },
                          "UnPad: unPadParams.leftPad is 1; it is reserved and "
                          "must be 0"));
    AscendC::UnPadParams none{0, 0};
    EXPECT_TRUE(
        FailsWith([&] { AscendC::UnPad(t.dst, t.src, none, tiling); },
                  "UnPad: unPadParams.rightPad is 0; it must be at least "
                  "1 and less than 32 bytes of half (at most 15)"));
    AscendC::UnPadParams block{0, 16};
    EXPECT_TRUE(FailsWith([&] { AscendC::UnPad(t.dst, t.src, block, tiling); },
                          "unPadParams.rightPad is 16"));
  }
  Tensors<half> t(256, 256);
  AscendC::tiling::UnPadTiling bad = tiling;
  bad.srcSize = 1;
  EXPECT_TRUE(FailsWith([&] { AscendC::UnPad(t.dst, t.src, ok, bad); },
                        "UnPad: tiling.srcSize is 1, expected 256 (srcHeight * "
                        "srcWidth)"));
  bad = tiling;
  bad.srcWidth = 24;
  bad.srcSize = 16 * 24;
  EXPECT_TRUE(
      FailsWith([&] { AscendC::UnPad(t.dst, t.src, ok, bad); },
                "UnPad: tiling.srcWidth is 24 halves, not a whole number "
                "of 32-byte blocks"));
  AscendC::tiling::UnPadTiling empty;
  EXPECT_TRUE(FailsWith([&] { AscendC::UnPad(t.dst, t.src, ok, empty); },
                        "UnPad: tiling.srcHeight is 0: the tiling is empty"));
  AscendC::UnPadTiling floats;
  AscendC::UnPadTilingFunc(ge::Shape({16, 16}), 0, 4, floats);
  EXPECT_TRUE(FailsWith([&] { AscendC::UnPad(t.dst, t.src, ok, floats); },
                        "UnPad: tiling.typeSize is 4 but T is half"));
  EXPECT_NE(StderrOf([&] {
              AscendC::UnPadTilingFunc(ge::Shape({16, 15}), 0, 2, bad);
            })
                .find("UnPadTilingFunc: srcShape [16, 15] has width 15 (30 "
                      "bytes): UnPad takes rows of whole 32-byte blocks; the "
                      "tiling is zeroed."),
            std::string::npos);
  EXPECT_EQ(bad.srcHeight, 0u);
  optiling::UnPadTiling host;
  AscendC::UnPadTilingFunc(ge::Shape({320, 64}), 0, 2, host);
  EXPECT_EQ(host.get_srcSize(), 320u * 64u);
  EXPECT_EQ(host.get_elementsPerBlock(), 16u);
}

// ---- Broadcast ----------------------------------------------------------

// dst of `dst_shape` where each index reads src at the same index, 0 along
// the axes where src_shape is 1.
template <typename T>
std::vector<T> BroadcastReference(const std::vector<uint32_t>& dst_shape,
                                  const std::vector<uint32_t>& src_shape,
                                  const std::vector<T>& src) {
  uint64_t total = 1;
  for (uint32_t d : dst_shape) total *= d;
  std::vector<T> out(total);
  for (uint64_t o = 0; o < total; ++o) {
    uint64_t rest = o, from = 0, src_stride = 1;
    for (size_t d = dst_shape.size(); d-- > 0;) {
      const uint64_t i = rest % dst_shape[d];
      rest /= dst_shape[d];
      from += (src_shape[d] == 1 ? 0 : i) * src_stride;
      src_stride *= src_shape[d];
    }
    out[o] = src[from];
  }
  return out;
}

template <typename T, int dim, int axis>
void CheckBroadcast(std::vector<uint32_t> dst_shape,
                    std::vector<uint32_t> src_shape) {
  uint64_t src_n = 1, dst_n = 1;
  for (int d = 0; d < dim; ++d) {
    src_n *= src_shape[d];
    dst_n *= dst_shape[d];
  }
  const platform_ascendc::PlatformAscendC platform(nullptr);
  uint32_t max_value = 1, min_value = 1;
  std::vector<int64_t> s64(src_shape.begin(), src_shape.end());
  std::vector<int64_t> d64(dst_shape.begin(), dst_shape.end());
  AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape(s64), ge::Shape(d64),
                                     sizeof(T), false, max_value, min_value);
  EXPECT_EQ(max_value + min_value, 0u);
  std::vector<T> src(src_n);
  for (uint64_t i = 0; i < src_n; ++i) src[i] = Pattern<T>(i);
  const std::vector<T> expected = BroadcastReference(dst_shape, src_shape, src);
  for (bool shared : {true, false}) {
    Tensors<T> t(src_n, dst_n);
    std::memcpy(t.Src(), src.data(), src_n * sizeof(T));
    if (shared) {
      AscendC::Broadcast<T, dim, axis>(t.dst, t.src, dst_shape.data(),
                                       src_shape.data(), t.tmp);
    } else {
      AscendC::Broadcast<T, dim, axis>(t.dst, t.src, dst_shape.data(),
                                       src_shape.data());
    }
    ExpectBits(t.Dst(), expected,
               std::string("Broadcast ") + normgrad_ascendc::TypeName<T>());
  }
}

TEST(Broadcast, PageExample) {
  const ProfileScope scope(Profile::kA2);
  Tensors<float> t(16, 256);
  for (int i = 0; i < 16; ++i) t.Src()[i] = static_cast<float>(i + 1);
  const uint32_t src_shape[2] = {16, 1};
  const uint32_t dst_shape[2] = {16, 16};
  AscendC::Broadcast<float, 2, 1>(t.dst, t.src, dst_shape, src_shape);
  for (int r = 0; r < 16; ++r) {
    for (int c = 0; c < 16; ++c) {
      EXPECT_EQ(t.Dst()[r * 16 + c], static_cast<float>(r + 1));
    }
  }
}

template <typename T>
void BroadcastForms() {
  CheckBroadcast<T, 2, 1>({64, 16}, {64, 1});
  CheckBroadcast<T, 2, 1>({32, 5}, {32, 1});  // k not aligned
  CheckBroadcast<T, 2, 0>({3, 32}, {1, 32});
  CheckBroadcast<T, 1, 0>({7}, {1});
}

TEST(Broadcast, DimAxisFormsEveryType) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    BroadcastForms<int8_t>();
    BroadcastForms<uint8_t>();
    BroadcastForms<half>();
    BroadcastForms<float>();
  }
  const ProfileScope scope(Profile::k950);
  BroadcastForms<int16_t>();
  BroadcastForms<uint16_t>();
  BroadcastForms<bfloat16_t>();
  BroadcastForms<int32_t>();
  BroadcastForms<uint32_t>();
  BroadcastForms<int64_t>();
  BroadcastForms<uint64_t>();
}

TEST(Broadcast, ChecksEveryRule) {
  const ProfileScope scope(Profile::kA2);
  const uint32_t dst[2] = {16, 16};
  const uint32_t col16[2] = {16, 1};
  {
    Tensors<float> t(64, 256);
    const uint32_t src_bad[2] = {16, 2};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 1>(t.dst, t.src, dst, src_bad); },
        "Broadcast: srcShape[1] is 2 and dstShape[1] 16; a source dimension "
        "must equal the destination's or be 1"));
    const uint32_t src_other[2] = {8, 1};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 1>(t.dst, t.src, dst, src_other); },
        "Broadcast: srcShape[0] is 8 and dstShape[0] 16"));
    const uint32_t src_axis[2] = {16, 16};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 1>(t.dst, t.src, dst, src_axis); },
        "Broadcast: srcShape[1] is 16; the broadcast axis (axis = 1) must be "
        "1"));
    const uint32_t row[2] = {1, 5};
    const uint32_t rows[2] = {4, 5};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 0>(t.dst, t.src, rows, row); },
        "Broadcast: srcShape[1] is 5 floats (20 bytes), not a multiple of 32 "
        "bytes; with dim = 2 and axis = 0 it must be 32-byte aligned"));
    const uint32_t big[2] = {16, 32};
    const uint32_t col[2] = {16, 1};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 1>(t.dst, t.src, big, col); },
        "Broadcast: dstLocal holds 256 floats, fewer than the 512 it must "
        "hold"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float, 2, 1>(t.dst, t.dst, dst, col16); },
        "Broadcast: dstLocal (UB bytes"));
  }
  {
    Tensors<int16_t> i16(64, 256);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Broadcast<int16_t, 2, 1>(i16.dst, i16.src, dst, col16);
        },
        "Broadcast: T is int16_t, which profile a2 (Atlas A2/A3) does not "
        "take: "
        "Broadcast takes int8_t, uint8_t, half, float there"));
  }
  {
    const ProfileScope p310(Profile::k310P);
    Tensors<half> h(64, 256);
    const uint32_t col5[2] = {5, 1};
    const uint32_t out5[2] = {5, 16};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<half, 2, 1>(h.dst, h.src, out5, col5); },
        "Broadcast: srcShape[0] is 5 halves (10 bytes), not a multiple of 32 "
        "bytes; with dim = 2 and axis = 1 it must be 32-byte aligned on "
        "profile 310p"));
  }
  const platform_ascendc::PlatformAscendC platform(nullptr);
  uint32_t max_value = 0, min_value = 0;
  EXPECT_NE(StderrOf([&] {
              AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape({4, 2}),
                                                 ge::Shape({4, 16}), 2, false,
                                                 max_value, min_value);
            })
                .find("GetBroadCastMaxMinTmpSize: srcShape [4, 2] does not "
                      "broadcast to [4, 16] at dimension 1"),
            std::string::npos);
  EXPECT_NE(StderrOf([&] {
              AscendC::GetBroadCastMaxMinTmpSize(platform, ge::Shape({4, 1}),
                                                 ge::Shape({4, 16}), 3, false,
                                                 max_value, min_value);
            }).find("typeSize 3 is not supported: it must be 1, 2, 4 or 8"),
            std::string::npos);
}

template <typename T>
void CheckDynamicBroadcast(std::vector<uint32_t> dst_shape,
                           std::vector<uint32_t> src_shape) {
  const uint32_t rank = static_cast<uint32_t>(dst_shape.size());
  uint64_t src_n = 1, dst_n = 1;
  for (uint32_t d = 0; d < rank; ++d) {
    src_n *= src_shape[d];
    dst_n *= dst_shape[d];
  }
  AscendC::BroadcastTiling tiling;
  AscendC::GetBroadcastTilingInfo<T>(rank, dst_shape.data(), src_shape.data(),
                                     false, tiling);
  std::vector<T> src(src_n);
  for (uint64_t i = 0; i < src_n; ++i) src[i] = Pattern<T>(i);
  Tensors<T> t(src_n, dst_n);
  std::memcpy(t.Src(), src.data(), src_n * sizeof(T));
  AscendC::Broadcast<T>(t.dst, t.src, dst_shape.data(), src_shape.data(),
                        &tiling);
  ExpectBits(
      t.Dst(), BroadcastReference(dst_shape, src_shape, src),
      std::string("dynamic Broadcast ") + normgrad_ascendc::TypeName<T>());
}

TEST(Broadcast, DynamicShapeOn950) {
  const ProfileScope scope(Profile::k950);
  CheckDynamicBroadcast<int64_t>({2, 4, 3}, {2, 1, 3});
  CheckDynamicBroadcast<half>({5, 3, 7}, {1, 3, 1});
  CheckDynamicBroadcast<int8_t>({9}, {1});
  CheckDynamicBroadcast<float>({2, 1, 2, 1, 2, 1, 2, 1, 3},
                               {1, 1, 2, 1, 1, 1, 2, 1, 1});
  const uint32_t dst[3] = {2, 4, 3};
  const uint32_t src[3] = {2, 1, 3};
  AscendC::BroadcastTiling tiling;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GetBroadcastTilingInfo<float>(10, dst, src, false, tiling);
      },
      "GetBroadcastTilingInfo: rank is 10; it must be in [1, 9]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GetBroadcastTilingInfo<float>(3, dst, src, true, tiling);
      },
      "GetBroadcastTilingInfo: srcInnerPad is true; only false is supported"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GetBroadcastTilingInfo<float, 2>(3, dst, src, false, tiling);
      },
      "GetBroadcastTilingInfo: constRank is 2 but rank is 3"));
  AscendC::GetBroadcastTilingInfo<float>(3, dst, src, false, tiling);
  {
    Tensors<float> t(64, 64);
    const uint32_t other[3] = {2, 5, 3};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float>(t.dst, t.src, other, src, &tiling); },
        "Broadcast: dimension 1 is dstShape 5, srcShape 1, but the tiling has "
        "4 "
        "and 1"));
    AscendC::BroadcastTiling empty;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float>(t.dst, t.src, dst, src, &empty); },
        "Broadcast: tiling.rank is 0: the tiling is empty"));
  }
  {
    const ProfileScope a2(Profile::kA2);
    Tensors<float> u(64, 64);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Broadcast<float>(u.dst, u.src, dst, src, &tiling); },
        "Broadcast: the dynamic-shape form (BroadcastTiling) is available on "
        "profile 950 only, not on profile a2 (Atlas A2/A3)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::GetBroadcastTilingInfo<float>(3, dst, src, false, tiling);
        },
        "GetBroadcastTilingInfo: the dynamic-shape Broadcast is available on "
        "profile 950 only"));
  }
}

// ---- TransData ----------------------------------------------------------

// The page's layout of a shape: MakeLayout(MakeShape(dims...), MakeStride()).
template <typename... Ts>
auto LayoutOf(Ts... dims) {
  return AscendC::MakeLayout(AscendC::MakeShape(dims...),
                             AscendC::MakeStride());
}

using AscendC::DataFormat;
constexpr AscendC::TransDataConfig kToNdc1hwc0 = {DataFormat::NCDHW,
                                                  DataFormat::NDC1HWC0};
constexpr AscendC::TransDataConfig kFromNdc1hwc0 = {DataFormat::NDC1HWC0,
                                                    DataFormat::NCDHW};
constexpr AscendC::TransDataConfig kToFractalZ3d = {DataFormat::NCDHW,
                                                    DataFormat::FRACTAL_Z_3D};
constexpr AscendC::TransDataConfig kFromFractalZ3d = {DataFormat::FRACTAL_Z_3D,
                                                      DataFormat::NCDHW};

uint32_t Up16(uint32_t n) { return (n + 15) / 16 * 16; }

TEST(TransData, PageExampleNcdhwToNdc1hwc0) {
  // The page's data: 32 channels of one 2 x 8 plane holding 0..511; its
  // result rows are (hw, 16 + hw, 32 + hw, ...) per block of 16 channels.
  const ProfileScope scope(Profile::kA2);
  Tensors<half> t(512, 512);
  for (int i = 0; i < 512; ++i) t.Src()[i] = half(static_cast<float>(i));
  // Built as the page builds its layouts (C0 as a constant here).
  const int n = 1, c = 32, d = 1, h = 2, w = 8, blocks = 2;
  AscendC::Layout ncdhwLayout = AscendC::MakeLayout(
      AscendC::MakeShape(n, c, d, h, w), AscendC::MakeStride());
  AscendC::Layout ndc1hwc0Layout = AscendC::MakeLayout(
      AscendC::MakeShape(n, d, blocks, h, w, AscendC::Std::Int<16>{}),
      AscendC::MakeStride());
  static_assert(AscendC::is_layout<decltype(ncdhwLayout)>::value);
  AscendC::TransDataParams<decltype(ncdhwLayout), decltype(ndc1hwc0Layout)>
      params = {ncdhwLayout, ndc1hwc0Layout};
  AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, t.tmp, params);
  for (int c1 = 0; c1 < 2; ++c1) {
    for (int hw = 0; hw < 16; ++hw) {
      for (int c0 = 0; c0 < 16; ++c0) {
        EXPECT_EQ(static_cast<float>(t.Dst()[(c1 * 16 + hw) * 16 + c0]),
                  256 * c1 + 16 * c0 + hw);
      }
    }
  }
}

// Runs one conversion on T for NCDHW [n, c, d, h, w] and checks it against
// a reference that walks the destination's layout.
template <typename T>
void CheckTransData(bool to_blocked, bool fractal, uint32_t n, uint32_t c,
                    uint32_t d, uint32_t h, uint32_t w, bool shared) {
  const uint32_t c1 = Up16(c) / 16, n1 = Up16(n) / 16, hw = h * w;
  const uint32_t hwp = Up16(hw);
  const uint64_t ncdhw = uint64_t{n} * c * d * hwp;
  const uint64_t blocked = fractal ? uint64_t{d} * c1 * hw * n1 * 256
                                   : uint64_t{n} * d * c1 * hw * 16;
  // The element (n, c, d, hw) of NCDHW's storage, and of the blocked one.
  auto nd_at = [&](uint64_t ni, uint64_t ci, uint64_t di, uint64_t hwi) {
    return ((ni * c + ci) * d + di) * hwp + hwi;
  };
  auto blocked_at = [&](uint64_t ni, uint64_t ci, uint64_t di, uint64_t hwi) {
    if (fractal) {
      return ((((di * c1 + ci / 16) * hw + hwi) * n1 + ni / 16) * 16 +
              ni % 16) *
                 16 +
             ci % 16;
    }
    return (((ni * d + di) * c1 + ci / 16) * hw + hwi) * 16 + ci % 16;
  };
  const uint64_t src_n = to_blocked ? ncdhw : blocked;
  const uint64_t dst_n = to_blocked ? blocked : ncdhw;
  std::vector<T> src(src_n);
  for (uint64_t i = 0; i < src_n; ++i) src[i] = Pattern<T>(i);
  std::vector<T> expected(dst_n, to_blocked ? T{} : Marker<T>());
  if (to_blocked) {
    std::memset(static_cast<void*>(expected.data()), 0, dst_n * sizeof(T));
  }
  for (uint64_t ni = 0; ni < n; ++ni)
    for (uint64_t ci = 0; ci < c; ++ci)
      for (uint64_t di = 0; di < d; ++di)
        for (uint64_t hwi = 0; hwi < hw; ++hwi) {
          if (to_blocked) {
            expected[blocked_at(ni, ci, di, hwi)] = src[nd_at(ni, ci, di, hwi)];
          } else {
            expected[nd_at(ni, ci, di, hwi)] = src[blocked_at(ni, ci, di, hwi)];
          }
        }
  Tensors<T> t(src_n, dst_n);
  std::memcpy(static_cast<void*>(t.Src()), src.data(), src_n * sizeof(T));
  for (uint64_t i = 0; i < dst_n; ++i) t.Dst()[i] = Marker<T>();
  const auto nd = LayoutOf(n, c, d, h, w);
  const auto ndc = LayoutOf(n, d, c1, h, w, 16u);
  const auto fz = LayoutOf(d, c1, h, w, n1, 16u, 16u);
  if (!fractal && to_blocked) {
    const AscendC::TransDataParams<decltype(nd), decltype(ndc)> p{nd, ndc};
    shared ? AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, t.tmp, p)
           : AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, p);
  } else if (!fractal) {
    const AscendC::TransDataParams<decltype(ndc), decltype(nd)> p{ndc, nd};
    shared ? AscendC::TransData<kFromNdc1hwc0>(t.dst, t.src, t.tmp, p)
           : AscendC::TransData<kFromNdc1hwc0>(t.dst, t.src, p);
  } else if (to_blocked) {
    const AscendC::TransDataParams<decltype(nd), decltype(fz)> p{nd, fz};
    shared ? AscendC::TransData<kToFractalZ3d>(t.dst, t.src, t.tmp, p)
           : AscendC::TransData<kToFractalZ3d>(t.dst, t.src, p);
  } else {
    const AscendC::TransDataParams<decltype(fz), decltype(nd)> p{fz, nd};
    shared ? AscendC::TransData<kFromFractalZ3d>(t.dst, t.src, t.tmp, p)
           : AscendC::TransData<kFromFractalZ3d>(t.dst, t.src, p);
  }
  ExpectBits(t.Dst(), expected,
             std::string("TransData ") + (to_blocked ? "from" : "to") +
                 " NCDHW " + (fractal ? "FRACTAL_Z_3D " : "NDC1HWC0 ") +
                 normgrad_ascendc::TypeName<T>());
}

template <typename T>
void TransDataEveryConversion() {
  for (bool fractal : {false, true}) {
    for (bool to_blocked : {true, false}) {
      CheckTransData<T>(to_blocked, fractal, 1, 32, 2, 2, 8, true);
      CheckTransData<T>(to_blocked, fractal, 2, 5, 3, 3, 5, false);
      CheckTransData<T>(to_blocked, fractal, 17, 20, 1, 1, 16, true);
      // HW of 35: whole tiles of 16 and a tail of 3.
      CheckTransData<T>(to_blocked, fractal, 3, 19, 2, 5, 7, false);
    }
  }
}

TEST(TransData, EveryConversionAndType) {
  for (Profile p : {Profile::kA2, Profile::k950}) {
    const ProfileScope scope(p);
    TransDataEveryConversion<half>();
    TransDataEveryConversion<bfloat16_t>();
    TransDataEveryConversion<int16_t>();
    TransDataEveryConversion<uint16_t>();
  }
}

TEST(TransData, ChecksEveryRule) {
  const auto nd = LayoutOf(1, 16, 2, 4, 4);
  const auto ndc = LayoutOf(1, 2, 1, 4, 4, 16);
  const auto wrong = LayoutOf(1, 2, 2, 4, 4, 16);
  {
    const ProfileScope scope(Profile::k310P);
    Tensors<half> t(512, 512);
    const AscendC::TransDataParams<decltype(nd), decltype(ndc)> p{nd, ndc};
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, p); },
        "TransData: not available on profile 310p (Atlas inference series)"));
  }
  const ProfileScope scope(Profile::kA2);
  Tensors<half> t(512, 512);
  const AscendC::TransDataParams<decltype(nd), decltype(wrong)> bad{nd, wrong};
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, bad); },
      "TransData: params.dstLayout's shape [1, 2, 2, 4, 4, 16] (NDC1HWC0) does "
      "not match params.srcLayout's shape [1, 16, 2, 4, 4] (NCDHW): it must "
      "be [1, 2, 1, 4, 4, 16]"));
  const auto big = LayoutOf(1, 16, 4, 4, 4);
  const auto big_ndc = LayoutOf(1, 4, 1, 4, 4, 16);
  const AscendC::TransDataParams<decltype(big), decltype(big_ndc)> large{
      big, big_ndc};
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::TransData<kToNdc1hwc0>(t.dst, t.src, large); },
      "TransData: srcTensor holds 512 halves, fewer than the 1024 it must "
      "hold"));
  const AscendC::TransDataParams<decltype(nd), decltype(ndc)> p{nd, ndc};
  EXPECT_TRUE(
      FailsWith([&] { AscendC::TransData<kToNdc1hwc0>(t.dst, t.dst, p); },
                "TransData: dstTensor (UB bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TransData<kToNdc1hwc0>(t.dst, t.src,
                                        t.src.ReinterpretCast<uint8_t>(), p);
      },
      "TransData: srcTensor (UB bytes"));
}

TEST(TransData, TmpSizeQuery) {
  // The page's example: (1, 16, 2, 4, 4) NCDHW to (1, 2, 1, 4, 4, 16).
  const platform_ascendc::PlatformAscendC plat(nullptr);
  uint32_t max_value = 9, min_value = 9;
  EXPECT_TRUE(AscendC::GetTransDataMaxMinTmpSize(
      plat, ge::Shape({1, 16, 2, 4, 4}), ge::Shape({1, 2, 1, 4, 4, 16}),
      ge::DT_FLOAT16, kToNdc1hwc0, max_value, min_value));
  EXPECT_EQ(max_value + min_value, 0u);
  EXPECT_TRUE(AscendC::GetTransDataMaxMinTmpSize(
      plat, ge::Shape({2, 1, 4, 4, 2, 16, 16}), ge::Shape({20, 5, 2, 4, 4}),
      ge::DT_INT16, kFromFractalZ3d, max_value, min_value));
  bool ok = true;
  EXPECT_NE(StderrOf([&] {
              ok = AscendC::GetTransDataMaxMinTmpSize(
                  plat, ge::Shape({1, 16, 2, 4, 4}),
                  ge::Shape({1, 2, 1, 4, 4, 16}), ge::DT_FLOAT, kToNdc1hwc0,
                  max_value, min_value);
            })
                .find("GetTransDataMaxMinTmpSize: dataType 0 is not supported: "
                      "TransData takes int16_t, uint16_t, half and bfloat16_t"),
            std::string::npos);
  EXPECT_FALSE(ok);
  const AscendC::TransDataConfig nz = {DataFormat::ND, DataFormat::NZ};
  EXPECT_NE(StderrOf([&] {
              ok = AscendC::GetTransDataMaxMinTmpSize(
                  plat, ge::Shape({16, 16}), ge::Shape({16, 16}),
                  ge::DT_FLOAT16, nz, max_value, min_value);
            }).find("config {0, 1} is not supported"),
            std::string::npos);
  EXPECT_FALSE(ok);
  EXPECT_NE(StderrOf([&] {
              ok = AscendC::GetTransDataMaxMinTmpSize(
                  plat, ge::Shape({1, 16, 2, 4, 4}),
                  ge::Shape({1, 2, 1, 4, 4, 8}), ge::DT_FLOAT16, kToNdc1hwc0,
                  max_value, min_value);
            })
                .find("dstShape [1, 2, 1, 4, 4, 8] (NDC1HWC0) does not match "
                      "srcShape [1, 16, 2, 4, 4] (NCDHW)"),
            std::string::npos);
  EXPECT_FALSE(ok);
}

// ---- Fill ---------------------------------------------------------------

TEST(Fill, SetsEveryElementAndNoMore) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    std::vector<float> gm(70000, -1.0f);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(gm.data(), 65536);
    AscendC::Fill(g, 65536, 3.5f);
    for (size_t i = 0; i < 65536; ++i) ASSERT_EQ(gm[i], 3.5f) << i;
    EXPECT_EQ(gm[65536], -1.0f);
    std::vector<int16_t> small(40, 0);
    AscendC::GlobalTensor<int16_t> s;
    s.SetGlobalBuffer(small.data() + 3, 30);
    AscendC::Fill(s, 29, static_cast<int16_t>(-9));
    for (int i = 0; i < 40; ++i) {
      EXPECT_EQ(small[i], (i >= 3 && i < 32) ? -9 : 0) << i;
    }
  }
  const ProfileScope scope(Profile::k950);
  std::vector<uint64_t> wide(9, 0);
  AscendC::GlobalTensor<uint64_t> w;
  w.SetGlobalBuffer(wide.data(), 9);
  AscendC::Fill(w, 9, uint64_t{0x0123456789ABCDEF});
  for (uint64_t v : wide) EXPECT_EQ(v, 0x0123456789ABCDEFu);
}

TEST(Fill, ChecksEveryRule) {
  const ProfileScope scope(Profile::kA2);
  std::vector<int64_t> wide(8, 0);
  AscendC::GlobalTensor<int64_t> w;
  w.SetGlobalBuffer(wide.data(), 8);
  EXPECT_TRUE(FailsWith([&] { AscendC::Fill(w, 8, int64_t{1}); },
                        "Fill: T is int64_t, which profile a2 (Atlas A2/A3) "
                        "does not take: Fill takes int16_t, uint16_t, half, "
                        "int32_t, uint32_t, float there"));
  std::vector<float> gm(16, 0.0f);
  AscendC::GlobalTensor<float> g;
  EXPECT_TRUE(FailsWith([&] { AscendC::Fill(g, 4, 1.0f); },
                        "Fill: gmWorkspaceAddr has no buffer"));
  g.SetGlobalBuffer(gm.data(), 16);
  EXPECT_TRUE(FailsWith([&] { AscendC::Fill(g, 17, 1.0f); },
                        "Fill: size is 17 elements, more than the 16 of "
                        "gmWorkspaceAddr"));
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  EXPECT_TRUE(FailsWith([&] { AscendC::Fill(g, 16, 1.0f); },
                        "Fill: the pipe has already given out 64 bytes of the "
                        "unified buffer (InitBuffer); Fill may be called only "
                        "before the first InitBuffer"));
}

}  // namespace

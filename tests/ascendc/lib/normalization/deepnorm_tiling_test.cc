// deepnorm_tiling_test.cc — GetDeepNormMaxMinTmpSize and both overloads of
// GetDeepNormTilingInfo against the rules of docs/deepnorm.md ("Host
// tiling"), including the page's own example shape [2, 16, 64] half, and bad
// input (one message on stderr, false, the tiling zeroed). Every expected
// number is a literal derived by hand in the comment beside it.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::DeepNormTiling;
using Words = std::array<uint32_t, 25>;  // the uint32 fields, struct order
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

Words WordsOf(const KernelTiling& t) {
  Words w;
  std::memcpy(w.data(), &t, sizeof w);
  return w;
}

struct TilingCase {
  std::vector<int64_t> shape, origin;
  uint32_t bytes, type_size;
  bool reuse, basic;
  Words words;
  float last_dim_value_back;
};

const TilingCase kTilingCases[] = {
    // The page's example: [2, 16, 64] half at the minimum 1024 bytes =
    // 256 floats; half's means and variances 2·roundup(32, 8) = 64; three
    // chunk buffers of (256 − 64) / 3 = 64 floats = one row; 32 chunks.
    {{2, 16, 64},
     {2, 16, 64},
     1024,
     2,
     false,
     false,
     {2,  16,  64,  64, 2048, 32, 3,    0, 32, 32, 32, 256, 64,
      64, 128, 192, 32, 64,   0,  2048, 1, 0,  32, 64, 1},
     1.0f / 64},
    // The same as a basic block (H = 64, B·S = 32): the same tiling.
    {{2, 16, 64},
     {2, 16, 64},
     1024,
     2,
     false,
     true,
     {2,  16,  64,  64, 2048, 32, 3,    0, 32, 32, 32, 256, 64,
      64, 128, 192, 32, 64,   0,  2048, 1, 0,  32, 64, 1},
     1.0f / 64},
    // float [1, 7, 16], 13 data columns, 600 bytes = 150 floats: 150 / 3 =
    // 50 → 48 = 3 rows a chunk; 112 = 2·48 + 16: a tail of one row at 96.
    {{1, 7, 16},
     {1, 7, 13},
     600,
     4,
     false,
     false,
     {1, 7,  16, 13, 112, 7,  3,  0, 8, 8, 8,  150, 48,
      0, 48, 96, 2,  48,  16, 96, 3, 1, 6, 48, 3},
     1.0f / 13},
    // float with isReuseSource, 400 bytes = 100 floats: two buffers of 50 →
    // 48; the third position is still listed.
    {{1, 7, 16},
     {1, 7, 16},
     400,
     4,
     true,
     false,
     {1, 7,  16, 16, 112, 7,  2,  0, 8, 8, 8,  100, 48,
      0, 48, 96, 2,  48,  16, 96, 3, 1, 6, 48, 3},
     1.0f / 16},
    // More scratch than the data: one chunk of all B·S·H = 64 elements.
    {{1, 8, 8},
     {1, 8, 8},
     4096,
     4,
     false,
     false,
     {1, 8,  8,   8, 64, 8, 3,  0, 8, 8, 8,  1024, 64,
      0, 64, 128, 1, 64, 0, 64, 8, 0, 8, 64, 8},
     1.0f / 8},
};

TEST(DeepNormTiling, DocumentedFieldsThroughBothOverloads) {
  for (const TilingCase& c : kTilingCases) {
    SCOPED_TRACE(testing::Message() << c.shape[2] << " " << c.bytes);
    KernelTiling kernel = Garbage<KernelTiling>();
    testing::internal::CaptureStderr();
    EXPECT_TRUE(AscendC::GetDeepNormTilingInfo(
        ge::Shape(c.shape), ge::Shape(c.origin), c.bytes, c.type_size, c.reuse,
        c.basic, kernel));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(WordsOf(kernel), c.words);
    EXPECT_EQ(kernel.lastDimValueBack, c.last_dim_value_back);

    optiling::DeepNormTiling host;
    EXPECT_TRUE(AscendC::GetDeepNormTilingInfo(
        ge::Shape(c.shape), ge::Shape(c.origin), c.bytes, c.type_size, c.reuse,
        c.basic, host));
    EXPECT_EQ(host.GetDataSize(), 104u);
    KernelTiling saved;
    host.SaveToBuffer(&saved, sizeof saved);
    EXPECT_EQ(std::memcmp(&saved, &kernel, sizeof saved), 0);
    const auto fields = normgrad_ascendc::DeepNormTilingFields(kernel);
    EXPECT_STREQ(fields[0].name, "bLength");
    EXPECT_STREQ(fields[25].name, "lastDimValueBack");
  }
}

TEST(DeepNormTiling, MaxMinTmpSize) {
  struct Case {
    std::vector<int64_t> shape;
    uint32_t type_size;
    bool reuse, basic;
    uint32_t max, min;
  } cases[] = {
      // half [2, 16, 64]: 3·roundup32(4·2048) + 2·roundup32(4·32) = 24576 +
      // 256; min 3·roundup32(4·64) + 256 = 1024.
      {{2, 16, 64}, 2, false, false, 24832, 1024},
      {{2, 16, 64}, 2, false, true, 24832, 1024},
      // half keeps three buffers with isReuseSource.
      {{2, 16, 64}, 2, true, false, 24832, 1024},
      // float [1, 7, 16]: 3·448 = 1344, 3·64 = 192; with reuse 896, 128.
      {{1, 7, 16}, 4, false, false, 1344, 192},
      {{1, 7, 16}, 4, true, false, 896, 128},
      // float [4, 2, 8] (the kernel page's example): 3·256, 3·32.
      {{4, 2, 8}, 4, false, false, 768, 96},
  };
  for (const Case& c : cases) {
    uint32_t max_value = 1, min_value = 1;
    EXPECT_TRUE(AscendC::GetDeepNormMaxMinTmpSize(ge::Shape(c.shape),
                                                  c.type_size, c.reuse, c.basic,
                                                  max_value, min_value));
    EXPECT_EQ(max_value, c.max);
    EXPECT_EQ(min_value, c.min);
  }
}

struct BadCase {
  std::vector<int64_t> shape, origin;
  uint32_t bytes, type_size;
  bool basic;
  std::vector<std::string> message;
};

const BadCase kBadCases[] = {
    {{1, 7, 16, 16},
     {1, 7, 16},
     4096,
     4,
     false,
     {"srcShape [1, 7, 16, 16] has 4 dimensions: it must have 3, {B, S, H}"}},
    {{1, 7, 16},
     {1, 7, 16},
     4096,
     8,
     false,
     {"typeSize 8 is not supported: it must be 2 (half) or 4 (float)"}},
    {{1, 2, 2048},
     {1, 2, 2048},
     65536,
     2,
     false,
     {"srcShape [1, 2, 2048] has H = 2048: H must be at most 2040"}},
    {{1, 2, 12},
     {1, 2, 12},
     4096,
     4,
     false,
     {"srcShape [1, 2, 12] has H = 12: H * typeSize 4 must be a multiple of "
      "32 bytes"}},
    {{1, 8, 16},
     {1, 8, 16},
     4096,
     4,
     true,
     {"srcShape [1, 8, 16] is not a basic block (isBasicBlock is true): H = "
      "16 must be a multiple of 64 and B*S = 8 a multiple of 8"}},
    {{1, 7, 64},
     {1, 7, 64},
     4096,
     4,
     true,
     {"H = 64 must be a multiple of 64 and B*S = 7 a multiple of 8"}},
    {{1, 7, 16},
     {1, 7, 17},
     4096,
     4,
     false,
     {"originSrcShape [1, 7, 17] has originH = 17: originH must be in [1, H] "
      "with H = 16"}},
    {{1, 8, 64},
     {1, 8, 60},
     4096,
     4,
     true,
     {"originSrcShape [1, 8, 60] has originH = 60: with isBasicBlock originH "
      "must equal H = 64"}},
    {{1, 7, 16},
     {2, 7, 16},
     4096,
     4,
     false,
     {"originSrcShape [2, 7, 16] must be {B, S, originH} with the B and S of "
      "srcShape [1, 7, 16]"}},
    {{1, 7, 16},
     {1, 7, 16},
     160,
     4,
     false,
     {"stackBufferSize 160 bytes (40 floats) is too small: it must hold 3 "
      "chunk buffers of at least one row of H = 16 floats; call "
      "GetDeepNormMaxMinTmpSize for the minimum (192 bytes here)"}},
    {{1, 7, 16},
     {1, 7, 16},
     200,
     2,
     false,
     {"stackBufferSize 200 bytes (50 floats) is too small: it must hold 16 "
      "floats of half's means and variances and 3 chunk buffers"}},
};

TEST(DeepNormTiling, BadInputZeroesTheTilingWithOneMessage) {
  for (const BadCase& c : kBadCases) {
    SCOPED_TRACE(c.message[0]);
    KernelTiling kernel = Garbage<KernelTiling>();
    testing::internal::CaptureStderr();
    EXPECT_FALSE(AscendC::GetDeepNormTilingInfo(
        ge::Shape(c.shape), ge::Shape(c.origin), c.bytes, c.type_size, false,
        c.basic, kernel));
    ExpectOneMessage(testing::internal::GetCapturedStderr(),
                     "GetDeepNormTilingInfo: ", c.message);
    const KernelTiling zero{};
    EXPECT_EQ(std::memcmp(&kernel, &zero, sizeof zero), 0);
  }
}

TEST(DeepNormTiling, BadInputToTheSizeQuery) {
  uint32_t max_value = 1, min_value = 1;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(AscendC::GetDeepNormMaxMinTmpSize(
      ge::Shape({1, 2, 2048}), 2, false, false, max_value, min_value));
  ExpectOneMessage(
      testing::internal::GetCapturedStderr(), "GetDeepNormMaxMinTmpSize: ",
      {"H must be at most 2040", "maxValue and minValue are set to 0"});
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

}  // namespace

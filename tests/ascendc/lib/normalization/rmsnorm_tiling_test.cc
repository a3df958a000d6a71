// rmsnorm_tiling_test.cc — GetRmsNormMaxMinTmpSize and both overloads of
// GetRmsNormTilingInfo against the rules of docs/rmsnorm.md ("Host tiling"),
// and the host class optiling::RmsNormTiling (its saved bytes are the kernel
// struct's). Every expected number is a literal derived by hand in the
// comment beside it: a chunk of r rows of H needs n·r·H + roundup(r, 8)
// floats (n = 1 float, 2 half); the tiling takes the most rows the scratch
// holds, at most B·S (a multiple of 8 with isBasicBlock).
//
// To extend: a row of kSizeCases, kTilingCases, or kBadTilingCases with the
// substrings its stderr message must contain.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::RmsNormTiling;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

// The eleven uint32_t fields in struct order (reciprocalOfHLength apart).
using Words = std::array<uint32_t, 11>;

Words WordsOf(const KernelTiling& t) {
  return {t.bLength,           t.sLength,       t.hLength,
          t.originalHLength,   t.mainBshLength, t.mainBsLength,
          t.mainBsLengthAlign, t.loopRound,     t.inputTailPos,
          t.tailBshLength,     t.tailBsLength};
}

struct SizeCase {
  std::vector<int64_t> shape;
  uint32_t type_size;
  bool basic;
  uint32_t max, min;
};

const SizeCase kSizeCases[] = {
    // The tiling page's [2, 16, 64]: B·S·H = 2048, roundup(32, 8) = 32.
    {{2, 16, 64}, 4, false, 4 * (2048 + 32), 4 * (64 + 8)},
    {{2, 16, 64}, 2, false, 4 * (2 * 2048 + 32), 4 * (2 * 64 + 8)},
    // Basic blocks: the minimum is 8 rows, 4·(8·64 + 8) = 2080.
    {{2, 16, 64}, 4, true, 4 * (2048 + 32), 4 * (8 * 64 + 8)},
    {{2, 16, 64}, 2, true, 4 * (2 * 2048 + 32), 4 * (2 * 8 * 64 + 8)},
    // [1, 1, 16]: one row; roundup(1, 8) = 8.
    {{1, 1, 16}, 4, false, 4 * (16 + 8), 4 * (16 + 8)},
    // B·S·H = 2^30 floats: max = 4·(2^30 + 2^16) overflows, saturates.
    {{1, 65536, 16384}, 4, false, 4294967295u, 4 * (16384 + 8)},
};

TEST(RmsNormTiling, ScratchSizes) {
  for (const SizeCase& c : kSizeCases) {
    uint32_t max = 1, min = 1;
    testing::internal::CaptureStderr();
    EXPECT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(
        ge::Shape(c.shape), c.type_size, max, min, c.basic));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(max, c.max) << c.shape[2] << " " << c.type_size;
    EXPECT_EQ(min, c.min) << c.shape[2] << " " << c.type_size;
  }
}

struct TilingCase {
  std::vector<int64_t> shape, origin;
  uint32_t stack, type_size;
  bool basic;
  Words words;  // bLength … tailBsLength without reciprocalOfHLength
  float reciprocal;
};

const TilingCase kTilingCases[] = {
    // The page's example at the minimum: 72 floats hold one row (64 + 8);
    // 32 chunks of 1 row.
    {{2, 16, 64},
     {2, 16, 64},
     288,
     4,
     false,
     {2, 16, 64, 64, 64, 1, 8, 32, 2048, 0, 0},
     1.0f / 64},
    // 200 floats: 3 rows (3·64 + 8); 10 rows = 3 chunks + a tail of 1.
    {{1, 10, 64},
     {1, 10, 64},
     800,
     4,
     false,
     {1, 10, 64, 64, 192, 3, 8, 3, 576, 64, 1},
     1.0f / 64},
    // half, padded 45 → 48: 200 floats hold 2 rows (2·2·48 + 8); 6 rows in
    // 3 chunks; the mean over 45 columns.
    {{2, 3, 48},
     {2, 3, 45},
     800,
     2,
     false,
     {2, 3, 48, 45, 96, 2, 8, 3, 288, 0, 0},
     1.0f / 45},
    // Basic blocks: 1040 floats hold 16 rows (16·64 + 16): 2 chunks.
    {{2, 16, 64},
     {2, 16, 64},
     4160,
     4,
     true,
     {2, 16, 64, 64, 1024, 16, 16, 2, 2048, 0, 0},
     1.0f / 64},
    // 784 floats hold 12 rows (12·64 + 16), cut to the basic block's 8:
    // 4 chunks.
    {{2, 16, 64},
     {2, 16, 64},
     3136,
     4,
     true,
     {2, 16, 64, 64, 512, 8, 8, 4, 2048, 0, 0},
     1.0f / 64},
    // Without isBasicBlock the same scratch takes 12 rows: 2 chunks + 8.
    {{2, 16, 64},
     {2, 16, 64},
     3136,
     4,
     false,
     {2, 16, 64, 64, 768, 12, 16, 2, 1536, 512, 8},
     1.0f / 64},
    // More scratch than all rows need: every row in one chunk.
    {{1, 3, 8},
     {1, 3, 5},
     100000,
     4,
     false,
     {1, 3, 8, 5, 24, 3, 8, 1, 24, 0, 0},
     1.0f / 5},
};

TEST(RmsNormTiling, DocumentedFields) {
  for (const TilingCase& c : kTilingCases) {
    SCOPED_TRACE("H " + std::to_string(c.shape[2]) + " stack " +
                 std::to_string(c.stack));
    KernelTiling kernel = Garbage<KernelTiling>();
    optiling::RmsNormTiling host;
    testing::internal::CaptureStderr();
    EXPECT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape(c.shape),
                                              ge::Shape(c.origin), c.stack,
                                              c.type_size, kernel, c.basic));
    EXPECT_TRUE(AscendC::GetRmsNormTilingInfo(ge::Shape(c.shape),
                                              ge::Shape(c.origin), c.stack,
                                              c.type_size, host, c.basic));
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(WordsOf(kernel), c.words);
    EXPECT_EQ(kernel.reciprocalOfHLength, c.reciprocal);
    KernelTiling saved;
    ASSERT_EQ(host.GetDataSize(), sizeof(saved));
    host.SaveToBuffer(&saved, sizeof(saved));
    EXPECT_EQ(std::memcmp(&saved, &kernel, sizeof(saved)), 0);
  }
}

TEST(RmsNormTiling, FieldListNamesTheStructMembers) {
  KernelTiling t;
  t.mainBsLength = 7;
  t.reciprocalOfHLength = 0.25f;
  const auto fields = normgrad_ascendc::RmsNormTilingFields(t);
  ASSERT_EQ(fields.size(), 12u);
  EXPECT_STREQ(fields[4].name, "reciprocalOfHLength");
  EXPECT_EQ(fields[4].float_value, 0.25f);
  EXPECT_STREQ(fields[6].name, "mainBsLength");
  EXPECT_EQ(fields[6].value, 7u);
  EXPECT_STREQ(fields[11].name, "tailBsLength");
}

struct BadCase {
  std::vector<int64_t> shape, origin;
  uint32_t stack, type_size;
  bool basic;
  std::vector<std::string> message;
};

const BadCase kBadCases[] = {
    {{1, 1, 16},
     {1, 1, 16},
     4096,
     3,
     false,
     {"typeSize 3 is not supported: it must be 2 (half) or 4 (float)"}},
    {{1, 1, 1, 16},
     {1, 1, 16},
     4096,
     4,
     false,
     {"srcShape [1, 1, 1, 16] has rank 4: it must be [B, S, H]"}},
    {{1, 0, 16},
     {1, 0, 16},
     4096,
     4,
     false,
     {"srcShape [1, 0, 16] has S = 0: every dimension must be in [1, "
      "4294967295]"}},
    {{1, 1, 12},
     {1, 1, 12},
     4096,
     4,
     false,
     {"srcShape [1, 1, 12] has H = 12, 48 bytes: H must be 32-byte aligned "
      "(a multiple of 8)"}},
    {{65536, 65536, 8},
     {65536, 65536, 8},
     4096,
     4,
     false,
     {"has more than 4294967295 rows or elements (B*S*H)"}},
    {{2, 16, 96},
     {2, 16, 96},
     1 << 20,
     4,
     true,
     {"srcShape [2, 16, 96] has H = 96: with isBasicBlock H must be a "
      "multiple of 64 below 2048"}},
    {{1, 8, 2048},
     {1, 8, 2048},
     1 << 20,
     4,
     true,
     {"has H = 2048: with isBasicBlock H must be a multiple of 64 below 2048"}},
    {{3, 4, 64},
     {3, 4, 64},
     1 << 20,
     4,
     true,
     {"has B*S = 12: with isBasicBlock B*S must be a multiple of 8"}},
    {{2, 16, 64},
     {1, 32, 64},
     4096,
     4,
     false,
     {"originSrcShape [1, 32, 64] must be [B, S, originalH] with the B and S "
      "of srcShape [2, 16, 64]"}},
    {{2, 16, 64},
     {2, 16, 40},
     4096,
     4,
     false,
     {"originSrcShape [2, 16, 40] has originalH = 40: it must be at least 1 "
      "and H = 64 must be originalH rounded up to a multiple of 8 (32 "
      "bytes)"}},
    {{2, 16, 64},
     {2, 16, 60},
     1 << 20,
     4,
     true,
     {"originSrcShape [2, 16, 60] has originalH = 60: with isBasicBlock the "
      "rows must not be padded (originalH == H = 64)"}},
    {{2, 16, 64},
     {2, 16, 64},
     287,
     4,
     false,
     {"stackBufferByteSize 287 bytes is less than the minimum 288 (call "
      "GetRmsNormMaxMinTmpSize)"}},
    {{2, 16, 64},
     {2, 16, 64},
     2079,
     4,
     true,
     {"stackBufferByteSize 2079 bytes is less than the minimum 2080"}},
};

TEST(RmsNormTiling, BadInputZeroesAndSaysWhy) {
  for (const BadCase& c : kBadCases) {
    SCOPED_TRACE(c.message[0]);
    KernelTiling kernel = Garbage<KernelTiling>();
    testing::internal::CaptureStderr();
    EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape(c.shape),
                                               ge::Shape(c.origin), c.stack,
                                               c.type_size, kernel, c.basic));
    const std::string err = testing::internal::GetCapturedStderr();
    ExpectOneMessage(err, "GetRmsNormTilingInfo: ", c.message);
    EXPECT_NE(err.find("; the tiling is zeroed.\n"), std::string::npos) << err;
    const KernelTiling zero{};
    EXPECT_EQ(std::memcmp(&kernel, &zero, sizeof zero), 0);
  }
}

TEST(RmsNormTiling, BadSizeQueryReturnsZeros) {
  uint32_t max = 1, min = 1;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({3, 4, 64}), 4, max,
                                                min, true));
  const std::string err = testing::internal::GetCapturedStderr();
  ExpectOneMessage(err, "GetRmsNormMaxMinTmpSize: ",
                   {"has B*S = 12: with isBasicBlock B*S must be a multiple "
                    "of 8; maxValue and minValue are set to 0."});
  EXPECT_EQ(max, 0u);
  EXPECT_EQ(min, 0u);
}

}  // namespace

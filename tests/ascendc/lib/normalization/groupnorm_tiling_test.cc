// groupnorm_tiling_test.cc — GetGroupNormMaxMinTmpSize and both overloads of
// GetGroupNormNDTilingInfo against the rules of docs/groupnorm.md ("Host
// tiling"), the host class optiling::GroupNormTiling (same fields, same
// bytes as the kernel struct) and the bad-input policy (one message on
// stderr, zeros). Every expected number is a literal derived by hand in the
// comment beside it; nothing here calls src/ to compute an expectation.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::GroupNormTiling;
using HostTiling = optiling::GroupNormTiling;
using Words = std::array<uint32_t, 28>;  // the uint32 fields, struct order
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

struct TilingCase {
  const char* name;
  std::vector<int64_t> dims;  // N, C, H, W
  uint32_t type_size;
  bool reuse;
  uint32_t group_num;
  uint32_t min_bytes, max_bytes;  // GetGroupNormMaxMinTmpSize
  uint32_t stack_bytes;           // the tiling's scratch
  Words words;
  float factor;
  bool small_shape;
};

const TilingCase kCases[] = {
    // The tiling page's example: [2, 16, 8, 8] half, groupNum 4, maxValue.
    // D = 4, hw = 64, a group is 256 elements, N·G = 8, 2048 elements.
    // mv = 2·roundup(8, 8) = 16 floats (64 bytes);
    // min = 3·roundup32(4·256) + 64 = 3136, max = 3·roundup32(4·2048) + 64
    // = 24640. At max: 6160 floats, (6160 − 16) / 3 = 2048: one chunk.
    {"page_example_half_max",
     {2, 16, 8, 8},
     2,
     false,
     4,
     3136,
     24640,
     24640,
     {2,    16,   64, 4,    4,    64, 256,  2048, 8,    3, 0, 8, 8,    8,
      6160, 2048, 16, 2064, 4112, 1,  2048, 0,    2048, 8, 0, 8, 2048, 8},
     1.0f / 256,
     true},
    // The kernel page's example: [2, 8, 4, 2] float, groupNum 4, minValue.
    // D = 2, hw = 8, a group is 16 elements, 8 groups, 128 elements; no mv.
    // min = 3·roundup32(64) = 192, max = 3·roundup32(512) = 1536.
    // At min: 48 floats, 16 per buffer: one group per chunk, 8 chunks.
    {"kernel_example_float_min",
     {2, 8, 4, 2},
     4,
     false,
     4,
     192,
     1536,
     192,
     {2,  8,  8, 4,  2,  8, 16, 128, 8,   3, 0, 8, 8,  8,
      48, 16, 0, 16, 32, 8, 16, 0,   128, 1, 0, 8, 16, 1},
     1.0f / 16,
     false},
    // Float with isReuseSource and a tail: [3, 10, 7, 3], groupNum 5.
    // D = 2, hw = 21 (hwAlignSize 24), groups of 42, 15 groups, 630 elements.
    // min = 2·roundup32(168) = 384, max = 2·roundup32(2520) = 5056.
    // At 1400 bytes: 350 floats, 175 per buffer → 4 groups = 168;
    // 630 = 3·168 + 126: a tail of 3 groups at element 504 (group 12).
    {"float_reuse_tail",
     {3, 10, 7, 3},
     4,
     true,
     5,
     384,
     5056,
     1400,
     {3,   10,  21, 5,   2,   24, 48,  630, 15,  2, 0, 16, 16,  16,
      350, 168, 0,  168, 336, 3,  168, 126, 504, 4, 3, 12, 168, 4},
     1.0f / 42,
     false},
    // Half with an odd hw: [1, 6, 5, 3], groupNum 3. D = 2, hw = 15
    // (hwAlignSize 16), groups of 30, 3 groups, 90 elements; mv = 16 floats.
    // min = 3·roundup32(120) + 64 = 448, max = 3·roundup32(360) + 64 = 1216.
    // At min: 112 floats, (112 − 16) / 3 = 32 → one group of 30 per chunk.
    {"half_odd_hw_min",
     {1, 6, 5, 3},
     2,
     false,
     3,
     448,
     1216,
     448,
     {1,   6,  15, 3,  2,  16, 32, 90, 3,  3, 0, 8, 8,  8,
      112, 30, 16, 46, 76, 3,  30, 0,  90, 1, 0, 3, 30, 1},
     1.0f / 30,
     false},
};

Words WordsOf(const KernelTiling& t) {
  Words w;
  std::memcpy(w.data(), &t, sizeof w);
  return w;
}

class GroupNormTilingCases : public testing::TestWithParam<TilingCase> {};

TEST_P(GroupNormTilingCases, SizesAndBothOverloads) {
  const TilingCase& c = GetParam();
  const ge::Shape shape(c.dims);
  uint32_t max_value = 1, min_value = 1;
  AscendC::GetGroupNormMaxMinTmpSize(shape, c.type_size, c.reuse, c.group_num,
                                     max_value, min_value);
  EXPECT_EQ(min_value, c.min_bytes);
  EXPECT_EQ(max_value, c.max_bytes);

  KernelTiling kernel = Garbage<KernelTiling>();
  AscendC::GetGroupNormNDTilingInfo(shape, c.stack_bytes, c.type_size, c.reuse,
                                    c.group_num, kernel);
  EXPECT_EQ(WordsOf(kernel), c.words);
  EXPECT_EQ(kernel.factor, c.factor);
  EXPECT_EQ(kernel.smallShape, c.small_shape);

  HostTiling host;
  AscendC::GetGroupNormNDTilingInfo(shape, c.stack_bytes, c.type_size, c.reuse,
                                    c.group_num, host);
  ASSERT_EQ(host.GetDataSize(), sizeof(KernelTiling));
  std::vector<uint8_t> saved(host.GetDataSize());
  host.SaveToBuffer(saved.data(), saved.size());
  KernelTiling loaded;
  std::memcpy(&loaded, saved.data(), sizeof loaded);
  EXPECT_EQ(WordsOf(loaded), c.words);
  EXPECT_EQ(loaded.factor, c.factor);
  EXPECT_EQ(loaded.smallShape, c.small_shape);
  EXPECT_EQ(host.get_oneTmpSize(), c.words[15]);
}

INSTANTIATE_TEST_SUITE_P(Documented, GroupNormTilingCases,
                         testing::ValuesIn(kCases),
                         tiling_test::CaseName<TilingCase>);

TEST(GroupNormTiling, FieldListNamesEveryMemberInOrder) {
  KernelTiling t;
  AscendC::GetGroupNormNDTilingInfo(ge::Shape({2, 8, 4, 2}), 192, 4, false, 4,
                                    t);
  const auto fields = normgrad_ascendc::GroupNormTilingFields(t);
  ASSERT_EQ(fields.size(), 30u);
  EXPECT_STREQ(fields[0].name, "n");
  EXPECT_STREQ(fields[15].name, "oneTmpSize");
  EXPECT_EQ(fields[15].value, 16u);
  EXPECT_STREQ(fields[28].name, "factor");
  EXPECT_EQ(fields[28].float_value, 1.0f / 16);
  EXPECT_STREQ(fields[29].name, "smallShape");
  EXPECT_EQ(fields[29].value, 0u);
}

TEST(GroupNormTiling, MaxValueSaturatesAt32Bits) {
  // [1024, 1, 1024, 1024] float, groupNum 1: 2^30 elements in 1024 groups
  // of 2^20. min = 3·4·2^20 = 12582912; max = 3·2^32 saturates.
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetGroupNormMaxMinTmpSize(ge::Shape({1024, 1, 1024, 1024}), 4, false,
                                     1, max_value, min_value);
  EXPECT_EQ(min_value, 12582912u);
  EXPECT_EQ(max_value, 4294967295u);
}

struct BadCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  uint32_t group_num;
  uint32_t stack_bytes;
  std::vector<std::string> tiling_message;  // empty: the sizes are valid
  std::vector<std::string> sizes_message;
};

const BadCase kBadCases[] = {
    {"type_size_3",
     {2, 8, 4, 2},
     3,
     4,
     4096,
     {"typeSize 3 is not supported: it must be 2 (half) or 4 (float)"},
     {"typeSize 3 is not supported"}},
    {"rank_3",
     {2, 8, 8},
     4,
     4,
     4096,
     {"srcShape [2, 8, 8] has 3 dimensions: it must have 4, {N, C, H, W}"},
     {"has 3 dimensions"}},
    {"w_0",
     {2, 8, 4, 0},
     4,
     4,
     4096,
     {"srcShape [2, 8, 4, 0] has W = 0: every dimension must be in [1, "
      "4294967295]"},
     {"has W = 0"}},
    {"group_num_0",
     {2, 8, 4, 2},
     4,
     0,
     4096,
     {"groupNum 0 does not divide C = 8 of srcShape [2, 8, 4, 2]: the "
      "channels must split into groupNum equal groups"},
     {"groupNum 0 does not divide C = 8"}},
    {"group_num_3_of_8",
     {2, 8, 4, 2},
     4,
     3,
     4096,
     {"groupNum 3 does not divide C = 8"},
     {"groupNum 3 does not divide C = 8"}},
    {"beyond_32_bits",
     {2, 2, 65536, 16384},
     4,
     1,
     4096,
     {"srcShape [2, 2, 65536, 16384] has more than 4294967295 elements: "
      "N*C*H*W must fit in 32 bits"},
     {"N*C*H*W must fit in 32 bits"}},
    {"scratch_below_one_group",
     {2, 8, 4, 2},
     2,
     4,
     255,
     {"stackBufferSize 255 bytes is too small for one group of D*H*W = 16 "
      "elements in each of the 3 chunk buffers after half's 16 floats of "
      "means and variances: call GetGroupNormMaxMinTmpSize for the minimum "
      "(256 bytes here)"},
     {}},
};

class GroupNormBadInput : public testing::TestWithParam<BadCase> {};

TEST_P(GroupNormBadInput, OneMessageAndZeros) {
  const BadCase& c = GetParam();
  const ge::Shape shape(c.dims);
  KernelTiling kernel = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::GetGroupNormNDTilingInfo(shape, c.stack_bytes, c.type_size, false,
                                    c.group_num, kernel);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetGroupNormNDTilingInfo: ", c.tiling_message);
  const KernelTiling zero{};
  EXPECT_EQ(std::memcmp(&kernel, &zero, sizeof zero), 0);

  uint32_t max_value = 1, min_value = 1;
  testing::internal::CaptureStderr();
  AscendC::GetGroupNormMaxMinTmpSize(shape, c.type_size, false, c.group_num,
                                     max_value, min_value);
  const std::string err = testing::internal::GetCapturedStderr();
  if (c.sizes_message.empty()) {
    EXPECT_EQ(err, "");
    EXPECT_NE(min_value, 0u);
  } else {
    ExpectOneMessage(err, "GetGroupNormMaxMinTmpSize: ", c.sizes_message);
    EXPECT_EQ(max_value, 0u);
    EXPECT_EQ(min_value, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, GroupNormBadInput, testing::ValuesIn(kBadCases),
                         tiling_test::CaseName<BadCase>);

}  // namespace

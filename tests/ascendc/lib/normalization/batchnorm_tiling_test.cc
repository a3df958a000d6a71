// batchnorm_tiling_test.cc — GetBatchNormMaxMinTmpSize and both overloads of
// GetBatchNormNDTilingInfo against the rules of docs/batchnorm.md ("Host
// tiling"), the host class optiling::BatchNormTiling (same bytes as the
// kernel struct) and the bad-input policy (one message on stderr, zeros,
// false). Every expected number is a literal derived by hand in the comment
// beside it; nothing here calls src/ to compute an expectation.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::BatchNormTiling;
using HostTiling = optiling::BatchNormTiling;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

// The 20 fields in struct order, firstDimValueBack as its float's bits.
using Words = std::array<uint32_t, 20>;

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

struct TilingCase {
  const char* name;
  std::vector<int64_t> src, origin;
  uint32_t type_size;
  bool basic;
  uint32_t min_bytes, max_bytes;
  uint32_t stack_bytes;
  Words words;
};

const TilingCase kCases[] = {
    // The tiling page's example: [16, 16, 16] half, originB 15, at min.
    // S·H = 256, u = 16 columns, 3·15 + 2 = 47 floats a column:
    // min = 4·47·16 = 3008, max = 4·47·256 = 48128. At min: 752 floats,
    // 16 columns a chunk (one = 240), 16 chunks; half's means at 0,
    // variances at 16, buffers at 32, 272, 512.
    {"page_example_half_min",
     {16, 16, 16},
     {15, 16, 16},
     2,
     false,
     3008,
     48128,
     3008,
     {15,
      256,
      0,
      16,
      752,
      240,
      32,
      272,
      512,
      16,
      0,
      256,
      0,
      256,
      240,
      16,
      Bits(1.0f / 15),
      2,
      1,
      1}},
    // The kernel page's example: [8, 4, 2] float. S·H = 8, u = 8, 24 floats
    // a column: min = max = 768; one chunk of 8 columns (one = 64).
    {"kernel_example_float",
     {8, 4, 2},
     {8, 4, 2},
     4,
     false,
     768,
     768,
     768,
     {8, 8, 0, 0,  192, 64,           0, 64, 128, 1, 0,
      8, 0, 8, 64, 8,   Bits(0.125f), 0, 1,  0}},
    // Float with a tail: [5, 3, 40]. S·H = 120, 15 floats a column:
    // min = 4·15·8 = 480, max = 4·15·120 = 7200. At 2880 bytes: 720 floats,
    // 48 columns (one = 240); 120 = 2·48 + 24 at column 96 (120 elements).
    {"float_tail",
     {5, 3, 40},
     {5, 3, 40},
     4,
     false,
     480,
     7200,
     2880,
     {5,   120, 0,  0,  720, 240, 0,          240, 480, 2,
      120, 96,  24, 96, 240, 48,  Bits(0.2f), 0,   6,   0}},
    // isBasicBlock: [8, 4, 16] float, S·H = 64, u = 64: min = max = 4·24·64.
    {"basic_block",
     {8, 4, 16},
     {8, 4, 16},
     4,
     true,
     6144,
     6144,
     6144,
     {8,  64, 0,  0,   1536, 512,          0, 512, 1024, 1, 0,
      64, 0,  64, 512, 64,   Bits(0.125f), 0, 8,   0}},
};

Words WordsOf(const KernelTiling& t) {
  Words w;
  std::memcpy(w.data(), &t, sizeof w);
  return w;
}

class BatchNormTilingCases : public testing::TestWithParam<TilingCase> {};

TEST_P(BatchNormTilingCases, SizesAndBothOverloads) {
  const TilingCase& c = GetParam();
  const ge::Shape src(c.src), origin(c.origin);
  uint32_t max_value = 1, min_value = 1;
  EXPECT_TRUE(AscendC::GetBatchNormMaxMinTmpSize(
      src, origin, c.type_size, false, max_value, min_value, c.basic));
  EXPECT_EQ(min_value, c.min_bytes);
  EXPECT_EQ(max_value, c.max_bytes);
  KernelTiling kernel = Garbage<KernelTiling>();
  EXPECT_TRUE(AscendC::GetBatchNormNDTilingInfo(
      src, origin, c.stack_bytes, c.type_size, false, kernel, c.basic));
  EXPECT_EQ(WordsOf(kernel), c.words);
  HostTiling host;
  EXPECT_TRUE(AscendC::GetBatchNormNDTilingInfo(
      src, origin, c.stack_bytes, c.type_size, false, host, c.basic));
  ASSERT_EQ(host.GetDataSize(), sizeof(KernelTiling));
  KernelTiling loaded;
  host.SaveToBuffer(&loaded, sizeof loaded);
  EXPECT_EQ(WordsOf(loaded), c.words);
}

INSTANTIATE_TEST_SUITE_P(Documented, BatchNormTilingCases,
                         testing::ValuesIn(kCases),
                         tiling_test::CaseName<TilingCase>);

TEST(BatchNormTiling, FieldListNamesEveryMemberInOrder) {
  KernelTiling t;
  ASSERT_TRUE(AscendC::GetBatchNormNDTilingInfo(
      ge::Shape({8, 4, 2}), ge::Shape({8, 4, 2}), 768, 4, false, t));
  const auto fields = normgrad_ascendc::BatchNormTilingFields(t);
  ASSERT_EQ(fields.size(), 20u);
  EXPECT_STREQ(fields[0].name, "originalBLength");
  EXPECT_STREQ(fields[16].name, "firstDimValueBack");
  EXPECT_EQ(fields[16].float_value, 0.125f);
  EXPECT_STREQ(fields[19].name, "castHalfOutRepStride");
}

struct BadCase {
  const char* name;
  std::vector<int64_t> src, origin;
  uint32_t type_size;
  bool basic;
  uint32_t stack_bytes;
  std::vector<std::string> message;
  bool sizes_valid;  // GetBatchNormMaxMinTmpSize accepts the input
};

const BadCase kBadCases[] = {
    {"type_size_8",
     {8, 4, 2},
     {8, 4, 2},
     8,
     false,
     4096,
     {"typeSize 8 is not supported: it must be 2 (half) or 4 (float)"},
     false},
    {"rank_4",
     {8, 4, 2, 1},
     {8, 4, 2},
     4,
     false,
     4096,
     {"srcShape [8, 4, 2, 1] has 4 dimensions: it must have 3, {B, S, H}"},
     false},
    {"origin_h_0",
     {8, 4, 2},
     {8, 4, 0},
     4,
     false,
     4096,
     {"originSrcShape [8, 4, 0] has H = 0: every dimension must be in [1, "
      "4294967295]"},
     false},
    {"origin_b_above_b",
     {8, 4, 2},
     {9, 4, 2},
     4,
     false,
     4096,
     {"originSrcShape [9, 4, 2] has originB = 9 above B = 8 of srcShape [8, 4, "
      "2]: the "
      "original shape must fit in the stored one"},
     false},
    {"sh_unaligned",
     {8, 3, 3},
     {8, 3, 3},
     4,
     false,
     4096,
     {"srcShape [8, 3, 3] has S*H = 9 elements of 4 bytes = 36 bytes: S*H must "
      "be 32-byte "
      "aligned (a multiple of 8)"},
     false},
    {"basic_block_origin_b",
     {8, 4, 16},
     {7, 4, 16},
     4,
     true,
     8192,
     {"isBasicBlock needs originB a multiple of 8 and S*H a multiple of 64 "
      "below 2048, but "
      "originB = 7 and S*H = 64"},
     false},
    {"scratch_below_one_chunk",
     {8, 4, 2},
     {8, 4, 2},
     4,
     false,
     767,
     {"stackBufferByteSize 767 bytes is too small for one chunk of 8 columns "
      "(24 floats a "
      "column): call GetBatchNormMaxMinTmpSize for the minimum (768 bytes "
      "here)"},
     true},
};

class BatchNormBadInput : public testing::TestWithParam<BadCase> {};

TEST_P(BatchNormBadInput, OneMessageZerosAndFalse) {
  const BadCase& c = GetParam();
  KernelTiling kernel = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  EXPECT_FALSE(AscendC::GetBatchNormNDTilingInfo(
      ge::Shape(c.src), ge::Shape(c.origin), c.stack_bytes, c.type_size, false,
      kernel, c.basic));
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetBatchNormNDTilingInfo: ", c.message);
  const KernelTiling zero{};
  EXPECT_EQ(std::memcmp(&kernel, &zero, sizeof zero), 0);
  uint32_t max_value = 1, min_value = 1;
  testing::internal::CaptureStderr();
  const bool ok = AscendC::GetBatchNormMaxMinTmpSize(
      ge::Shape(c.src), ge::Shape(c.origin), c.type_size, false, max_value,
      min_value, c.basic);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(ok, c.sizes_valid);
  if (c.sizes_valid) {
    EXPECT_EQ(err, "");
  } else {
    ExpectOneMessage(err, "GetBatchNormMaxMinTmpSize: ", c.message);
    EXPECT_EQ(max_value, 0u);
    EXPECT_EQ(min_value, 0u);
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, BatchNormBadInput, testing::ValuesIn(kBadCases),
                         tiling_test::CaseName<BadCase>);

}  // namespace

// softmax_tiling_test.cc — the SoftMax family's host tiling against the rules
// of docs/softmax.md ("Host tiling"): GetSoftMaxMax/MinTmpSize,
// SoftMaxTilingFunc, IsBasicBlockInSoftMax, GetSoftMaxFlashV2Max/MinTmpSize,
// SoftMaxFlashV2TilingFunc (host and kernel-side), the host class
// optiling::SoftMaxTiling (its saved bytes are the kernel struct's), and
// every bad input's message. Every expected number is a literal derived by
// hand in the comment beside it: a chunk of r rows of srcK elements needs
// r·(srcK + 8) floats; the tiling takes the most rows the scratch holds, at
// most srcM (a multiple of 8 with isBasicBlock).
//
// To extend: a row of kSizeCases or kTilings, or a bad input with the
// substrings its stderr message must contain.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../normalization/tiling_test_util.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using KernelTiling = AscendC::tiling::SoftMaxTiling;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

using Words = std::array<uint32_t, 16>;

Words WordsOf(const KernelTiling& t) {
  return {t.srcM,      t.srcK,       t.srcSize,       t.outMaxM,
          t.outMaxK,   t.outMaxSize, t.splitM,        t.splitK,
          t.splitSize, t.reduceM,    t.reduceK,       t.reduceSize,
          t.rangeM,    t.tailM,      t.tailSplitSize, t.tailReduceSize};
}

struct SizeCase {
  std::vector<int64_t> shape;
  uint32_t type_size;
  uint32_t max, min;
};

const SizeCase kSizeCases[] = {
    // The tiling page's [320, 64]: a row is 64 + 8 = 72 floats.
    {{320, 64}, 2, 4 * 320 * 72, 4 * 72},
    {{320, 64}, 4, 4 * 320 * 72, 4 * 72},
    // [2, 3, 16]: srcM = 6 rows of 16 + 8 = 24 floats.
    {{2, 3, 16}, 2, 4 * 6 * 24, 4 * 24},
    // 65536 rows of 16384 floats: 4·65536·16392 bytes overflow 32 bits and
    // the maximum saturates.
    {{65536, 16384}, 4, 4294967295u, 4 * 16392},
};

TEST(SoftMaxTiling, ScratchSizes) {
  for (const SizeCase& c : kSizeCases) {
    const ge::Shape shape(c.shape);
    EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(shape, c.type_size, false), c.max);
    EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(shape, c.type_size, true), c.min);
    EXPECT_EQ(
        AscendC::GetSoftMaxFlashMaxTmpSize(shape, c.type_size, true, false),
        c.max);
    EXPECT_EQ(
        AscendC::GetSoftMaxFlashMinTmpSize(shape, c.type_size, false, false),
        c.min);
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(shape, c.type_size,
                                                   c.type_size, true),
              c.max);
    EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(shape, c.type_size,
                                                   c.type_size, false),
              c.min);
  }
  // Basic blocks: the minimum is eight rows, 4·8·(128 + 8) = 4352.
  const ge::Shape basic({64, 128});
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(basic, 2, 4, true, true),
            4352u);
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MaxTmpSize(basic, 2, 4, true, true),
            4u * 64 * 136);
}

struct TilingCase {
  std::vector<int64_t> shape;
  uint32_t type_size;
  uint32_t work;
  Words want;
};

const TilingCase kTilings[] = {
    // [320, 64] half with the minimum 288 bytes: one row a chunk, 320 chunks;
    // max/sum 16 halves a row.
    {{320, 64},
     2,
     288,
     {320, 64, 20480, 320, 16, 5120, 1, 64, 64, 1, 8, 8, 320, 0, 0, 0}},
    // The same in float with 10000 bytes: 10000 / 4 / 72 = 34 rows, 9
    // chunks (306 rows) and a tail of 14; max/sum 8 floats a row.
    {{320, 64},
     4,
     10000,
     {320, 64, 20480, 320, 8, 2560, 34, 64, 2176, 34, 8, 272, 9, 14, 896, 112}},
    // [2, 4, 32] (srcM 8) with room for everything: one chunk of 8 rows.
    {{2, 4, 32},
     4,
     100000,
     {8, 32, 256, 8, 8, 64, 8, 32, 256, 8, 8, 64, 1, 0, 0, 0}},
};

TEST(SoftMaxTiling, SoftMaxTilingFuncFillsTheDocumentedFields) {
  for (const TilingCase& c : kTilings) {
    KernelTiling t = Garbage<KernelTiling>();
    AscendC::SoftMaxTilingFunc(ge::Shape(c.shape), c.type_size, c.work, t);
    EXPECT_EQ(WordsOf(t), c.want);
    // The host class saves the same 64 bytes.
    optiling::SoftMaxTiling host;
    AscendC::SoftMaxTilingFunc(ge::Shape(c.shape), c.type_size, c.work, host);
    ASSERT_EQ(host.GetDataSize(), sizeof(KernelTiling));
    std::vector<uint8_t> saved(host.GetDataSize());
    host.SaveToBuffer(saved.data(), saved.size());
    EXPECT_EQ(std::memcmp(saved.data(), &t, sizeof t), 0);
  }
}

TEST(SoftMaxTiling, FlashV2TilingOnHostAndKernelAgree) {
  // [64, 128] half, float max/sum, 5000 bytes: 5000 / 4 / 136 = 9 rows,
  // 8 with basic blocks (8 chunks, no tail).
  KernelTiling host = Garbage<KernelTiling>();
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({64, 128}), 2, 4, 5000, host,
                                    true, true);
  const Words want{64,   128, 8192, 64, 8, 512, 8, 128,
                   1024, 8,   8,    64, 8, 0,   0, 0};
  EXPECT_EQ(WordsOf(host), want);
  constexpr KernelTiling kKernel = AscendC::SoftMaxFlashV2TilingFunc(
      AscendC::SoftMaxShapeInfo{64, 128, 64, 128}, 2, 4, 5000, true, true);
  static_assert(kKernel.splitM == 8, "computed at compile time");
  EXPECT_EQ(WordsOf(kKernel), want);
  EXPECT_TRUE(AscendC::IsBasicBlockInSoftMax(host, 2));
  // Without basic blocks, 9 rows: 7 chunks and a tail of 1; isFlashOutputBrc
  // makes max/sum one element a row.
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({64, 128}), 2, 4, 5000, host,
                                    false, false, true);
  EXPECT_EQ(WordsOf(host), (Words{64, 128, 8192, 64, 1, 64, 9, 128, 1152, 9, 8,
                                  72, 7, 1, 128, 8}));
  EXPECT_FALSE(AscendC::IsBasicBlockInSoftMax(host, 2));  // splitM 9
  // The kernel-side function gives the empty tiling where it cannot tile.
  constexpr KernelTiling kTooSmall = AscendC::SoftMaxFlashV2TilingFunc(
      AscendC::SoftMaxShapeInfo{64, 128, 64, 128}, 2, 4, 100);
  static_assert(kTooSmall.splitM == 0, "100 bytes hold no row");
  constexpr KernelTiling kUnaligned = AscendC::SoftMaxFlashV2TilingFunc(
      AscendC::SoftMaxShapeInfo{4, 12, 4, 12}, 2, 2, 100000);
  static_assert(kUnaligned.splitM == 0, "12 halves are not 32 bytes");
}

TEST(SoftMaxTiling, IsBasicBlockInSoftMax) {
  struct Case {
    std::vector<int64_t> shape;
    uint32_t type_size;
    uint32_t work;
    bool basic;
  };
  const Case cases[] = {
      // [16, 128] half, room for all 16 rows: basic.
      {{16, 128}, 2, 100000, true},
      // srcK 64 is below 256 / 2 = 128 for half, but enough for float.
      {{16, 64}, 2, 100000, false},
      {{16, 64}, 4, 100000, true},
      // srcK 2048 is not below 2048; srcK 96 is no multiple of 64.
      {{8, 2048}, 4, 1000000, false},
      {{8, 96}, 4, 100000, false},
      // srcM 12 is no multiple of 8.
      {{12, 128}, 4, 100000, false},
      // 4·3·136 bytes: chunks of 3 rows.
      {{16, 128}, 4, 4 * 3 * 136, false},
  };
  for (const Case& c : cases) {
    KernelTiling t;
    AscendC::SoftMaxTilingFunc(ge::Shape(c.shape), c.type_size, c.work, t);
    EXPECT_EQ(AscendC::IsBasicBlockInSoftMax(t, c.type_size), c.basic)
        << c.shape[0] << " x " << c.shape[1];
    optiling::SoftMaxTiling host;
    AscendC::SoftMaxTilingFunc(ge::Shape(c.shape), c.type_size, c.work, host);
    EXPECT_EQ(AscendC::IsBasicBlockInSoftMax(host, c.type_size), c.basic);
  }
  KernelTiling empty;
  EXPECT_FALSE(AscendC::IsBasicBlockInSoftMax(empty));
}

TEST(SoftMaxTiling, FieldListing) {
  KernelTiling t;
  AscendC::SoftMaxTilingFunc(ge::Shape({320, 64}), 2, 288, t);
  const auto fields = normgrad_ascendc::SoftMaxTilingFields(t);
  ASSERT_EQ(fields.size(), 16u);
  EXPECT_STREQ(fields[0].name, "srcM");
  EXPECT_EQ(fields[0].value, 320u);
  EXPECT_STREQ(fields[15].name, "tailReduceSize");
}

TEST(SoftMaxTiling, FlashGradAndLogSoftMaxFollowTheSameRule) {
  // [2, 3, 16] half: 6 rows of 16 + 8 floats.
  const ge::Shape shape({2, 3, 16});
  EXPECT_EQ(AscendC::GetSoftMaxGradMaxTmpSize(shape, 2, true, false),
            4u * 6 * 24);
  EXPECT_EQ(AscendC::GetSoftMaxGradMinTmpSize(shape, 2, false, false), 96u);
  EXPECT_EQ(AscendC::GetLogSoftMaxMaxTmpSize(shape, 2, false), 4u * 6 * 24);
  EXPECT_EQ(AscendC::GetLogSoftMaxMinTmpSize(shape, 2, false), 96u);
  // 300 bytes: 300 / 4 / 24 = 3 rows a chunk, two chunks.
  const Words want{6, 16, 96, 6, 16, 96, 3, 16, 48, 3, 8, 24, 2, 0, 0, 0};
  KernelTiling flash = Garbage<KernelTiling>();
  AscendC::SoftMaxFlashTilingFunc(shape, 2, 300, flash, true);
  EXPECT_EQ(WordsOf(flash), want);
  optiling::SoftMaxTiling flash_host;
  AscendC::SoftMaxFlashTilingFunc(shape, 2, 300, flash_host);
  EXPECT_EQ(flash_host.get_rangeM(), 2u);
  KernelTiling grad = Garbage<KernelTiling>();
  AscendC::SoftMaxGradTilingFunc(shape, 2, 300, grad, true);
  EXPECT_EQ(WordsOf(grad), want);
  optiling::SoftMaxTiling grad_host;
  AscendC::SoftMaxGradTilingFunc(shape, 2, 300, grad_host);
  EXPECT_EQ(grad_host.get_splitM(), 3u);
  AscendC::tiling::LogSoftMaxTiling log;
  AscendC::LogSoftMaxTilingFunc(shape, 2, 300, log);
  EXPECT_EQ(WordsOf(normgrad_ascendc::AsSoftMaxTiling(log)), want);
  optiling::LogSoftMaxTiling log_host;
  AscendC::LogSoftMaxTilingFunc(shape, 2, 300, log_host);
  ASSERT_EQ(log_host.GetDataSize(), sizeof(log));
  std::vector<uint8_t> saved(log_host.GetDataSize());
  log_host.SaveToBuffer(saved.data(), saved.size());
  EXPECT_EQ(std::memcmp(saved.data(), &log, sizeof log), 0);
  testing::internal::CaptureStderr();
  AscendC::LogSoftMaxTilingFunc(shape, 2, 95, log);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "LogSoftMaxTilingFunc",
                   {"localWorkSpaceSize 95 bytes is less than the minimum 96"});
  EXPECT_EQ(log.splitM, 0u);
}

// ---- bad input --------------------------------------------------------------

struct BadTiling {
  std::vector<int64_t> shape;
  uint32_t type_size;
  uint32_t work;
  std::vector<std::string> message;
};

const BadTiling kBadTilings[] = {
    {{320, 64}, 3, 100000, {"dataTypeSize 3 is not supported", "2 (half)"}},
    {{320}, 2, 100000, {"srcShape [320] has 1 dimensions", "at least two"}},
    {{0, 64}, 2, 100000, {"dimension 0 = 0", "[1, 4294967295]"}},
    {{4, 20},
     2,
     100000,
     {"last dimension of 20 (40 bytes)", "a multiple of 16"}},
    {{65536, 65536, 16}, 4, 100000, {"more than 4294967295 rows"}},
    {{320, 64},
     2,
     287,
     {"localWorkSpaceSize 287 bytes is less than the minimum 288"}},
};

TEST(SoftMaxTiling, BadInputZeroesTheTilingWithOneMessage) {
  for (const BadTiling& c : kBadTilings) {
    KernelTiling t = Garbage<KernelTiling>();
    testing::internal::CaptureStderr();
    AscendC::SoftMaxTilingFunc(ge::Shape(c.shape), c.type_size, c.work, t);
    ExpectOneMessage(testing::internal::GetCapturedStderr(),
                     "SoftMaxTilingFunc", c.message);
    EXPECT_EQ(WordsOf(t), Words{});
  }
}

TEST(SoftMaxTiling, BadInputGivesSizeZeroWithOneMessage) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({4, 20}), 2, false), 0u);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetSoftMaxMinTmpSize", {"32-byte aligned"});
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSoftMaxMaxTmpSize(ge::Shape({4, 16}), 8, false), 0u);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetSoftMaxMaxTmpSize", {"dataTypeSize 8 is not supported"});
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSoftMaxFlashV2MinTmpSize(ge::Shape({12, 128}), 2, 2,
                                                 true, true),
            0u);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetSoftMaxFlashV2MinTmpSize",
                   {"with isBasicBlock", "the rows a multiple of 8"});
  testing::internal::CaptureStderr();
  EXPECT_EQ(
      AscendC::GetSoftMaxFlashV2MaxTmpSize(ge::Shape({4, 16}), 2, 1, false),
      0u);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetSoftMaxFlashV2MaxTmpSize",
                   {"dataTypeSize2 1 is not supported"});
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::GetSoftMaxMinTmpSize(ge::Shape({1, 1073741824}), 4, false),
            0u);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetSoftMaxMinTmpSize",
                   {"needs at least 4294967328 bytes of scratch"});
  KernelTiling t = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({16, 128}), 2, 2, 1000, t, true,
                                    true);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "SoftMaxFlashV2TilingFunc",
                   {"localWorkSpaceSize 1000 bytes is less than the minimum "
                    "4352"});
  EXPECT_EQ(WordsOf(t), Words{});
}

}  // namespace

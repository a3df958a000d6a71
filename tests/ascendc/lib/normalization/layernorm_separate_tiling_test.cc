// layernorm_separate_tiling_test.cc — the [A, R] form's overloads of
// GetLayerNormMaxMinTmpSize and GetLayerNormNDTilingInfo against the rules of
// docs/layernorm.md ("The [A, R] form", "Host tiling"), including the tiling
// page's [2, 64] half example, and bad input (one message, zeros). Every
// expected number is a literal derived by hand beside it.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::LayerNormSeparateTiling;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

TEST(LayerNormSeparateTiling, TheDocumentedExample) {
  // [2, 64] half: min = 2·roundup32(4·64) = 512, max = 2·roundup32(4·128) =
  // 1024. At the minimum: 128 floats, two buffers of 64 = one row, 2 chunks.
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({2, 64}), 2, false, true, false,
                                     max_value, min_value);
  EXPECT_EQ(min_value, 512u);
  EXPECT_EQ(max_value, 1024u);
  KernelTiling t = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 64}), min_value, 2, false,
                                    true, t);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(t.aLength, 2u);
  EXPECT_EQ(t.rLength, 64u);
  EXPECT_EQ(t.halfAddRepeatTimes, 0u);  // 64 lanes already
  EXPECT_EQ(t.rHeadLength, 64u);
  EXPECT_EQ(t.k2Rec, 1.0f / 64);
  EXPECT_EQ(t.k2RRec, 1.0f);
  EXPECT_EQ(t.inputXSize, 128u);
  EXPECT_EQ(t.meanVarSize, 2u);
  EXPECT_EQ(t.numberOfTmpBuf, 2u);
  EXPECT_EQ(t.varianceTmpTensorPos, 0u);
  EXPECT_EQ(t.varianceTmpTensorSize, 0u);
  EXPECT_EQ(t.tmpBufSize, 128u);
  EXPECT_EQ(t.oneTmpSize, 64u);
  EXPECT_EQ(t.firstTmpStartPos, 0u);
  EXPECT_EQ(t.secondTmpStartPos, 64u);
  EXPECT_EQ(t.thirdTmpStartPos, 128u);
  EXPECT_EQ(t.loopRound, 2u);
  EXPECT_EQ(t.inputRoundSize, 64u);
  EXPECT_EQ(t.inputTailSize, 0u);
  EXPECT_EQ(t.inputTailPos, 128u);
  EXPECT_EQ(t.meanVarRoundSize, 1u);
  EXPECT_EQ(t.meanVarTailSize, 0u);
  EXPECT_EQ(t.meanVarTailPos, 2u);
  EXPECT_EQ(t.arCurLength, 64u);
  EXPECT_EQ(t.aCurLength, 1u);
  EXPECT_EQ(t.rValueBack, 1.0f / 64);

  optiling::LayerNormSeparateTiling host;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 64}), min_value, 2, false,
                                    true, host);
  EXPECT_EQ(host.GetDataSize(), 104u);
  KernelTiling saved;
  host.SaveToBuffer(&saved, sizeof saved);
  EXPECT_EQ(std::memcmp(&saved, &t, sizeof saved), 0);
  const auto fields = normgrad_ascendc::LayerNormSeparateTilingFields(t);
  EXPECT_STREQ(fields[4].name, "k2Rec");
  EXPECT_STREQ(fields[25].name, "rValueBack");
}

TEST(LayerNormSeparateTiling, HeadTailAndChunks) {
  // [5, 1000] float, 12000 bytes = 3000 floats: buffers of 1500 → 1000 = one
  // row; head 512 (three halvings to 64), k2RRec = 512/1000.
  KernelTiling t;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({5, 1000}), 12000, 4, false, true,
                                    t);
  EXPECT_EQ(t.rHeadLength, 512u);
  EXPECT_EQ(t.halfAddRepeatTimes, 3u);
  EXPECT_EQ(t.k2RRec, 512.0f / 1000.0f);
  EXPECT_EQ(t.oneTmpSize, 1000u);
  EXPECT_EQ(t.loopRound, 5u);
  // [5, 16] float, 200 bytes = 50 floats: buffers of 25 → 16 = one row.
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({5, 16}), 200, 4, false, false,
                                    t);
  EXPECT_EQ(t.oneTmpSize, 16u);
  EXPECT_EQ(t.tmpBufSize, 50u);
  // The whole input fits: one chunk of 80.
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({5, 16}), 4096, 4, false, true,
                                    t);
  EXPECT_EQ(t.oneTmpSize, 80u);
  EXPECT_EQ(t.loopRound, 1u);
  EXPECT_EQ(t.aCurLength, 5u);
}

TEST(LayerNormSeparateTiling, BadInput) {
  struct Case {
    std::vector<int64_t> shape;
    uint32_t bytes, type_size;
    std::string message;
  } cases[] = {
      {{2, 64, 1},
       4096,
       4,
       "srcShape [2, 64, 1] has 3 dimensions: the [A, R] form takes 2"},
      {{2, 60},
       4096,
       2,
       "srcShape [2, 60] has R = 60: R * typeSize 2 must be a multiple of 32"},
      {{0, 64},
       4096,
       4,
       "srcShape [0, 64]: A and R must be in [1, 4294967295]"},
      {{2, 64}, 4096, 8, "typeSize 8 is not supported"},
      {{2, 64},
       256,
       4,
       "stackBufferSize 256 bytes (64 floats) is less than the two rows of R = "
       "64 floats"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.message);
    KernelTiling t = Garbage<KernelTiling>();
    testing::internal::CaptureStderr();
    AscendC::GetLayerNormNDTilingInfo(ge::Shape(c.shape), c.bytes, c.type_size,
                                      false, true, t);
    ExpectOneMessage(
        testing::internal::GetCapturedStderr(),
        "GetLayerNormNDTilingInfo: ", {c.message, "the tiling is zeroed"});
    const KernelTiling zero{};
    EXPECT_EQ(std::memcmp(&t, &zero, sizeof zero), 0);
  }
  uint32_t max_value = 1, min_value = 1;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({2, 64}), 4, false, true, true,
                                     max_value, min_value);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormMaxMinTmpSize: ",
                   {"isOnlyOutput is true: only false is supported"});
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

}  // namespace

// transcendental_tiling_test.cc — the scratch-size queries of the
// transcendental Math APIs through tiling/tiling_api.h: the family's rule
// (docs/math.md, "Scratch sizes") worked out by hand, SinCos's two floats
// per element and its platform argument, Exp's boolean answer, the config
// forms of Sin and Cos, and the bad inputs' messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "compat_test.h"
#include "tiling/tiling_api.h"

namespace {

using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

using MaxMinFn = void (*)(const ge::Shape&, uint32_t, bool, uint32_t&,
                          uint32_t&);
using FactorFn = void (*)(uint32_t, uint32_t&, uint32_t&);

struct Queries {
  const char* api;
  MaxMinFn max_min;
  FactorFn factor;
};

#define QUERIES(Api)                           \
  {                                            \
#Api, AscendC::Get##Api##MaxMinTmpSize,    \
        AscendC::Get##Api##TmpBufferFactorSize \
  }

const Queries kQueries[] = {
    QUERIES(Log),   QUERIES(Log2),    QUERIES(Log10),  QUERIES(Tanh),
    QUERIES(Sin),   QUERIES(Cos),     QUERIES(Erf),    QUERIES(Erfc),
    QUERIES(Sinh),  QUERIES(Cosh),    QUERIES(Tan),    QUERIES(Asin),
    QUERIES(Acos),  QUERIES(Atan),    QUERIES(Asinh),  QUERIES(Acosh),
    QUERIES(Atanh), QUERIES(Digamma), QUERIES(Lgamma),
};

#undef QUERIES

// One float per element of a pass, a pass of at least 256 bytes of input:
// half 128 elements (512 bytes), float 64 (256).
TEST(MathTranscendentalTmpSizes, ByTheFamilysRule) {
  for (const Queries& q : kQueries) {
    uint32_t max_value = 7, min_value = 7;
    q.max_min(ge::Shape({1024}), 2, false, max_value, min_value);
    EXPECT_EQ(max_value, 4096u) << q.api;
    EXPECT_EQ(min_value, 512u) << q.api;
    q.max_min(ge::Shape({8, 4}), 4, false, max_value, min_value);
    EXPECT_EQ(max_value, 256u) << q.api;  // 32 floats: the minimum pass
    EXPECT_EQ(min_value, 256u) << q.api;
    uint32_t live = 7, extra = 7;
    q.factor(2, live, extra);
    EXPECT_EQ(live, 2u) << q.api;
    EXPECT_EQ(extra, 0u) << q.api;
    q.factor(4, live, extra);
    EXPECT_EQ(live, 1u) << q.api;
  }
}

TEST(MathTranscendentalTmpSizes, ExpAnswersWhetherItCould) {
  uint32_t max_value = 7, min_value = 7;
  EXPECT_TRUE(AscendC::GetExpMaxMinTmpSize(ge::Shape({1024}), 2, false,
                                           max_value, min_value));
  EXPECT_EQ(max_value, 4096u);
  EXPECT_EQ(min_value, 512u);
  testing::internal::CaptureStderr();
  EXPECT_FALSE(AscendC::GetExpMaxMinTmpSize(ge::Shape({1024}), 8, false,
                                            max_value, min_value));
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "GetExpMaxMinTmpSize: typeSize 8 is not supported: it must be 2 "
            "(half) or 4 (float); maxValue and minValue are 0.\n");
  EXPECT_EQ(max_value, 0u);
  uint32_t live = 7, extra = 7;
  AscendC::GetExpTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
}

TEST(MathTranscendentalTmpSizes, SinAndCosWithTheirConfig) {
  uint32_t max_value = 7, min_value = 7;
  constexpr AscendC::SinConfig kSin = {AscendC::SinAlgo::RADIAN_REDUCTION};
  AscendC::GetSinMaxMinTmpSize(kSin, ge::Shape({100}), 4, false, max_value,
                               min_value);
  EXPECT_EQ(max_value, 400u);
  EXPECT_EQ(min_value, 256u);
  AscendC::GetCosMaxMinTmpSize(AscendC::defaultCosConfig, ge::Shape({100}), 2,
                               false, max_value, min_value);
  EXPECT_EQ(max_value, 512u);  // 100 halves: below the minimum pass of 128
  uint32_t live = 7, extra = 7;
  AscendC::GetSinTmpBufferFactorSize(kSin, 2, live, extra);
  EXPECT_EQ(live, 2u);
  AscendC::GetCosTmpBufferFactorSize(AscendC::defaultCosConfig, 4, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
}

// Two floats per element (sin and cos of a pass), on Ascend 950 only.
TEST(MathTranscendentalTmpSizes, SinCosKeepsTwoFloatsOnAscend950) {
  {
    const ProfileScope scope(Profile::k950);
    const platform_ascendc::PlatformAscendC platform(nullptr);
    uint32_t max_value = 7, min_value = 7;
    AscendC::GetSinCosMaxMinTmpSize(platform, ge::Shape({1024}), 2, false,
                                    max_value, min_value);
    EXPECT_EQ(max_value, 8192u);
    EXPECT_EQ(min_value, 1024u);
    uint32_t live = 7, extra = 7;
    AscendC::GetSinCosTmpBufferFactorSize(platform, 2, live, extra);
    EXPECT_EQ(live, 4u);
    AscendC::GetSinCosTmpBufferFactorSize(platform, 4, live, extra);
    EXPECT_EQ(live, 2u);
    EXPECT_EQ(extra, 0u);
  }
  const ProfileScope scope(Profile::kA2);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  uint32_t max_value = 7, min_value = 7;
  testing::internal::CaptureStderr();
  AscendC::GetSinCosMaxMinTmpSize(platform, ge::Shape({1024}), 2, false,
                                  max_value, min_value);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "GetSinCosMaxMinTmpSize: ascendcPlatform is architecture 2201: "
            "SinCos exists on Ascend 950 (3510) only; maxValue and minValue "
            "are 0.\n");
  EXPECT_EQ(max_value, 0u);
}

TEST(MathTranscendentalTmpSizes, BadInputIsReported) {
  uint32_t max_value = 7, min_value = 7;
  testing::internal::CaptureStderr();
  AscendC::GetLgammaMaxMinTmpSize(ge::Shape({2, -1}), 4, false, max_value,
                                  min_value);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "GetLgammaMaxMinTmpSize: srcShape [2, -1] has dimension 1 = -1: "
            "every dimension must be at least 1 and the elements at most "
            "4294967295 (calCount is 32 bits); maxValue and minValue are "
            "0.\n");
  uint32_t live = 7, extra = 7;
  testing::internal::CaptureStderr();
  AscendC::GetLog10TmpBufferFactorSize(1, live, extra);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "GetLog10TmpBufferFactorSize: typeSize 1 is not supported: it "
            "must be 2 (half) or 4 (float); maxLiveNodeCount and extraBuf "
            "are 0.\n");
  EXPECT_EQ(live, 0u);
}

}  // namespace

// math_tiling_test.cc — the scratch-size queries of the elementwise Math
// APIs (Get<Api>MaxMinTmpSize, Get<Api>TmpBufferFactorSize) through
// tiling/tiling_api.h: the sizes of the rule in docs/math.md ("Scratch
// sizes"), worked out here by hand for each type, the page's own calls, the
// platform argument of Round and Rint, and every bad input's message.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "compat_test.h"
#include "tiling/tiling_api.h"

namespace {

using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

struct Sizes {
  uint32_t max_value = 7;
  uint32_t min_value = 7;
};

// The queries without a platform argument, by name.
using MaxMinFn = void (*)(const ge::Shape&, uint32_t, bool, uint32_t&,
                          uint32_t&);
using FactorFn = void (*)(uint32_t, uint32_t&, uint32_t&);

struct Queries {
  const char* api;
  MaxMinFn max_min;
  FactorFn factor;
  bool takes_int64;
};

const Queries kQueries[] = {
    {"Ceil", AscendC::GetCeilMaxMinTmpSize, AscendC::GetCeilTmpBufferFactorSize,
     false},
    {"Floor", AscendC::GetFloorMaxMinTmpSize,
     AscendC::GetFloorTmpBufferFactorSize, false},
    {"Trunc", AscendC::GetTruncMaxMinTmpSize,
     AscendC::GetTruncTmpBufferFactorSize, false},
    {"Frac", AscendC::GetFracMaxMinTmpSize, AscendC::GetFracTmpBufferFactorSize,
     false},
    {"Sign", AscendC::GetSignMaxMinTmpSize, AscendC::GetSignTmpBufferFactorSize,
     true},
};

// One float (int64_t for int64_t) per element of a pass; a pass holds at
// least 256 bytes of input: half 128 elements (512 bytes), float 64 (256),
// int64_t 32 (256).
TEST(MathTmpSizes, MaxMinByTheRule) {
  for (const Queries& q : kQueries) {
    Sizes s;
    q.max_min(ge::Shape({1024}), 2, false, s.max_value, s.min_value);
    EXPECT_EQ(s.max_value, 4096u) << q.api;  // the page's call: 1024 halves
    EXPECT_EQ(s.min_value, 512u) << q.api;
    q.max_min(ge::Shape({16, 64}), 4, true, s.max_value, s.min_value);
    EXPECT_EQ(s.max_value, 4096u) << q.api;
    EXPECT_EQ(s.min_value, 256u) << q.api;
    q.max_min(ge::Shape({8}), 4, false, s.max_value, s.min_value);
    EXPECT_EQ(s.max_value, 256u) << q.api;  // never below minValue
    EXPECT_EQ(s.min_value, 256u) << q.api;
  }
  Sizes s;
  AscendC::GetSignMaxMinTmpSize(ge::Shape({100}), 8, false, s.max_value,
                                s.min_value);
  EXPECT_EQ(s.max_value, 800u);
  EXPECT_EQ(s.min_value, 256u);
  AscendC::GetCeilMaxMinTmpSize(ge::Shape({65536, 65536}), 2, false,
                                s.max_value, s.min_value);
  EXPECT_EQ(s.max_value, 0u);  // 2^32 elements: beyond calCount
}

TEST(MathTmpSizes, FactorByTheRule) {
  for (const Queries& q : kQueries) {
    uint32_t live = 7, extra = 7;
    q.factor(2, live, extra);
    EXPECT_EQ(live, 2u) << q.api;
    EXPECT_EQ(extra, 0u) << q.api;
    q.factor(4, live, extra);
    EXPECT_EQ(live, 1u) << q.api;
    EXPECT_EQ(extra, 0u) << q.api;
    // The page's derivation: (currBuff - extraBuf) / maxLiveNodeCount /
    // typeSize elements fit a scratch of currBuff bytes.
    q.factor(2, live, extra);
    EXPECT_EQ((4096 - extra) / live / 2, 1024u) << q.api;
  }
  uint32_t live = 0, extra = 7;
  AscendC::GetSignTmpBufferFactorSize(8, live, extra);
  EXPECT_EQ(live, 1u);
  EXPECT_EQ(extra, 0u);
}

TEST(MathTmpSizes, RoundOnEveryPlatformRintOnAscend950) {
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    const platform_ascendc::PlatformAscendC platform(nullptr);
    Sizes s;
    AscendC::GetRoundMaxMinTmpSize(platform, ge::Shape({1024}), 2, false,
                                   s.max_value, s.min_value);
    EXPECT_EQ(s.max_value, 4096u);
    EXPECT_EQ(s.min_value, 512u);
    uint32_t live = 0, extra = 7;
    AscendC::GetRoundTmpBufferFactorSize(platform, 4, live, extra);
    EXPECT_EQ(live, 1u);
    EXPECT_EQ(extra, 0u);
  }
  const ProfileScope scope(Profile::k950);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  Sizes s;
  AscendC::GetRintMaxMinTmpSize(platform, ge::Shape({1024}), 2, false,
                                s.max_value, s.min_value);
  EXPECT_EQ(s.max_value, 4096u);
  EXPECT_EQ(s.min_value, 512u);
  uint32_t live = 0, extra = 7;
  AscendC::GetRintTmpBufferFactorSize(platform, 2, live, extra);
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(extra, 0u);
}

// Runs f with stderr captured; returns what it printed.
template <typename F>
std::string Stderr(F&& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

TEST(MathTmpSizes, BadInputIsReportedAndGivesZero) {
  Sizes s;
  EXPECT_EQ(Stderr([&] {
              AscendC::GetCeilMaxMinTmpSize(ge::Shape({1024}), 8, false,
                                            s.max_value, s.min_value);
            }),
            "GetCeilMaxMinTmpSize: typeSize 8 is not supported: it must be 2 "
            "(half) or 4 (float); maxValue and minValue are 0.\n");
  EXPECT_EQ(s.max_value, 0u);
  EXPECT_EQ(s.min_value, 0u);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetSignMaxMinTmpSize(ge::Shape({1024}), 1, false,
                                            s.max_value, s.min_value);
            }),
            "GetSignMaxMinTmpSize: typeSize 1 is not supported: it must be 2 "
            "(half), 4 (float) or 8 (int64_t, Ascend 950); maxValue and "
            "minValue are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetFracMaxMinTmpSize(ge::Shape({4, 0}), 4, false,
                                            s.max_value, s.min_value);
            }),
            "GetFracMaxMinTmpSize: srcShape [4, 0] has dimension 1 = 0: every "
            "dimension must be at least 1 and the elements at most 4294967295 "
            "(calCount is 32 bits); maxValue and minValue are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetTruncMaxMinTmpSize(ge::Shape(std::vector<int64_t>{}),
                                             4, false, s.max_value,
                                             s.min_value);
            }),
            "GetTruncMaxMinTmpSize: srcShape [] has no dimension: it must "
            "have at least one; maxValue and minValue are 0.\n");
  uint32_t live = 7, extra = 7;
  EXPECT_EQ(
      Stderr([&] { AscendC::GetFloorTmpBufferFactorSize(3, live, extra); }),
      "GetFloorTmpBufferFactorSize: typeSize 3 is not supported: it "
      "must be 2 (half) or 4 (float); maxLiveNodeCount and extraBuf "
      "are 0.\n");
  EXPECT_EQ(live, 0u);
  EXPECT_EQ(extra, 0u);
}

TEST(MathTmpSizes, RintOffAscend950IsReported) {
  const ProfileScope scope(Profile::kA2);
  const platform_ascendc::PlatformAscendC platform(nullptr);
  Sizes s;
  EXPECT_EQ(Stderr([&] {
              AscendC::GetRintMaxMinTmpSize(platform, ge::Shape({1024}), 2,
                                            false, s.max_value, s.min_value);
            }),
            "GetRintMaxMinTmpSize: ascendcPlatform is architecture 2201: Rint "
            "exists on Ascend 950 (3510) only; maxValue and minValue are "
            "0.\n");
  EXPECT_EQ(s.max_value, 0u);
  uint32_t live = 7, extra = 7;
  EXPECT_EQ(Stderr([&] {
              AscendC::GetRintTmpBufferFactorSize(platform, 2, live, extra);
            }),
            "GetRintTmpBufferFactorSize: ascendcPlatform is architecture "
            "2201: Rint exists on Ascend 950 (3510) only; maxLivedNodeCount "
            "and extraBuf are 0.\n");
  EXPECT_EQ(live, 0u);
}

}  // namespace

// elementwise_activation_tiling_test.cc — the scratch-size queries of the
// elementwise activation APIs through tiling/tiling_api.h: the sizes of the
// rule in docs/activation.md ("Scratch sizes"), worked out here by hand for
// each type and each page's own call, and every bad input's message. To add
// a query of the same shape: a row in kOneSource or kTwoSources.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "tiling/tiling_api.h"

namespace {

// The MaxMin queries as (shape, typeSize, isReuseSource, max, min).
using MaxMinFn = void (*)(const ge::Shape&, uint32_t, bool, uint32_t&,
                          uint32_t&);

void GeluMaxMin(const ge::Shape& shape, uint32_t type_size, bool,
                uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetGeluMaxMinTmpSize(shape, type_size, max_value, min_value);
}

void SwiGluMaxMin(const ge::Shape& shape, uint32_t type_size, bool reuse,
                  uint32_t& max_value, uint32_t& min_value) {
  AscendC::GetSwiGLUMaxMinTmpSize(shape, type_size, max_value, min_value,
                                  reuse);
}

struct Query {
  const char* name;
  MaxMinFn max_min;
};

const Query kOneSource[] = {
    {"GetSigmoidMaxMinTmpSize", AscendC::GetSigmoidMaxMinTmpSize},
    {"GetSiluTmpSize", AscendC::GetSiluTmpSize},
    {"GetSwishTmpSize", AscendC::GetSwishTmpSize},
    {"GetGeluMaxMinTmpSize", GeluMaxMin},
};

const Query kTwoSources[] = {
    {"GetSwiGLUMaxMinTmpSize", SwiGluMaxMin},
    {"GetGeGLUMaxMinTmpSize", AscendC::GetGeGLUMaxMinTmpSize},
    {"GetReGluMaxMinTmpSize", AscendC::GetReGluMaxMinTmpSize},
};

struct Sizes {
  uint32_t max_value = 7;
  uint32_t min_value = 7;
};

Sizes Ask(const Query& q, const ge::Shape& shape, uint32_t type_size) {
  Sizes s;
  q.max_min(shape, type_size, false, s.max_value, s.min_value);
  return s;
}

// One float per input per element; a pass holds at least 256 bytes of
// input: 128 halves or 64 floats.
TEST(ActivationTmpSizes, OneSourceByTheRule) {
  for (const Query& q : kOneSource) {
    Sizes s = Ask(q, ge::Shape({1024}), 2);  // the pages' call: 1024 halves
    EXPECT_EQ(s.max_value, 4096u) << q.name;
    EXPECT_EQ(s.min_value, 512u) << q.name;
    s = Ask(q, ge::Shape({16, 64}), 4);
    EXPECT_EQ(s.max_value, 4096u) << q.name;
    EXPECT_EQ(s.min_value, 256u) << q.name;
    s = Ask(q, ge::Shape({8}), 4);
    EXPECT_EQ(s.max_value, 256u) << q.name;  // never below minValue
    EXPECT_EQ(s.min_value, 256u) << q.name;
  }
}

TEST(ActivationTmpSizes, TwoSourcesByTheRule) {
  for (const Query& q : kTwoSources) {
    Sizes s = Ask(q, ge::Shape({1024}), 2);
    EXPECT_EQ(s.max_value, 8192u) << q.name;
    EXPECT_EQ(s.min_value, 1024u) << q.name;
    s = Ask(q, ge::Shape({8, 128}), 4);  // ReGlu's page's shape
    EXPECT_EQ(s.max_value, 8192u) << q.name;
    EXPECT_EQ(s.min_value, 512u) << q.name;
    // 65536 · 65535 floats: 8 bytes each is beyond 32 bits; saturates.
    s = Ask(q, ge::Shape({65536, 65535}), 4);
    EXPECT_EQ(s.max_value, 4294967295u) << q.name;
  }
}

TEST(ActivationTmpSizes, GeluMaxAndMinAlone) {
  EXPECT_EQ(AscendC::GetGeluMaxTmpSize(ge::Shape({1024}), 2), 4096u);
  EXPECT_EQ(AscendC::GetGeluMinTmpSize(ge::Shape({1024}), 2), 512u);
  EXPECT_EQ(AscendC::GetGeluMaxTmpSize(ge::Shape({3, 100}), 4), 1200u);
  EXPECT_EQ(AscendC::GetGeluMinTmpSize(ge::Shape({3, 100}), 4), 256u);
}

// maxLiveNodeCount = two floats per element over typeSize; extra 0. The
// page's rule then gives a pass of (currBuff - extra) / live / typeSize.
TEST(ActivationTmpSizes, FactorByTheRule) {
  using FactorFn = void (*)(uint32_t, uint32_t&, uint32_t&);
  for (const FactorFn f : {FactorFn{AscendC::GetSwiGLUTmpBufferFactorSize},
                           FactorFn{AscendC::GetGeGLUTmpBufferFactorSize}}) {
    uint32_t live = 7, extra = 7;
    f(2, live, extra);
    EXPECT_EQ(live, 4u);
    EXPECT_EQ(extra, 0u);
    f(4, live, extra);
    EXPECT_EQ(live, 2u);
    EXPECT_EQ(extra, 0u);
  }
}

template <typename F>
std::string Stderr(F&& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

TEST(ActivationTmpSizes, BadInputIsReportedAndGivesZero) {
  Sizes s;
  EXPECT_EQ(
      Stderr([&] {
        AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({64}), 8, false, s.max_value,
                                         s.min_value);
      }),
      "GetSigmoidMaxMinTmpSize: typeSize 8 is not supported: it must be 2 "
      "(half, bfloat16_t) or 4 (float); maxValue and minValue are 0.\n");
  EXPECT_EQ(s.max_value, 0u);
  EXPECT_EQ(s.min_value, 0u);

  s = Sizes{};
  EXPECT_EQ(Stderr([&] {
              AscendC::GetReGluMaxMinTmpSize(ge::Shape({4, 0}), 2, false,
                                             s.max_value, s.min_value);
            }),
            "GetReGluMaxMinTmpSize: srcShape [4, 0] has dimension 1 = 0: "
            "every dimension must be at least 1 and the elements at most "
            "4294967295 (the count is 32 bits); maxValue and minValue are "
            "0.\n");
  EXPECT_EQ(s.max_value, 0u);

  EXPECT_EQ(Stderr([&] {
              AscendC::GetSwishTmpSize(ge::Shape(), 4, false, s.max_value,
                                       s.min_value);
            }),
            "GetSwishTmpSize: srcShape [] has no dimension: it must have at "
            "least one; maxValue and minValue are 0.\n");

  uint32_t max_value = 1;
  EXPECT_NE(
      Stderr([&] {
        max_value = AscendC::GetGeluMaxTmpSize(ge::Shape({65536, 65536}), 2);
      })
          .find("GetGeluMaxTmpSize: srcShape [65536, 65536] has "
                "dimension 1 = 65536"),
      std::string::npos);
  EXPECT_EQ(max_value, 0u);

  uint32_t live = 7, extra = 7;
  EXPECT_EQ(
      Stderr([&] { AscendC::GetGeGLUTmpBufferFactorSize(1, live, extra); }),
      "GetGeGLUTmpBufferFactorSize: typeSize 1 is not supported: it "
      "must be 2 (half, bfloat16_t) or 4 (float); maxLiveNodeCount and "
      "extraBuf are 0.\n");
  EXPECT_EQ(live, 0u);
  EXPECT_EQ(extra, 0u);
}

}  // namespace

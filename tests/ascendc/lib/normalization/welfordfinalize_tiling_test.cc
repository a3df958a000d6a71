// welfordfinalize_tiling_test.cc — GetWelfordFinalizeMaxMinTmpSize against the
// rule of docs/welfordfinalize.md, "Host tiling": maxValue = 4·abLength,
// minValue = 4·min(abLength, 64), isReuseSource reserved. Every expected
// number is a literal derived by hand beside it; bad input gives one stderr
// line and 0, 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using tiling_test::ExpectOneMessage;

TEST(WelfordFinalizeTmpSize, DocumentedSizes) {
  const struct {
    int64_t ab;
    uint32_t max_value, min_value;
  } cases[] = {
      {8, 32, 32},        // 4·8 both
      {32, 128, 128},     // the documented example's abLength
      {64, 256, 256},     // one repeat
      {1000, 4000, 256},  // 4·1000, 4·64
  };
  for (const auto& c : cases) {
    for (bool reuse : {false, true}) {
      uint32_t max_value = 1, min_value = 1;
      testing::internal::CaptureStderr();
      AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({c.ab}), 4, reuse,
                                               max_value, min_value);
      EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
      EXPECT_EQ(max_value, c.max_value) << c.ab;
      EXPECT_EQ(min_value, c.min_value) << c.ab;
    }
  }
}

TEST(WelfordFinalizeTmpSize, BadInput) {
  const struct {
    std::vector<int64_t> dims;
    uint32_t type_size;
    std::string message;
  } cases[] = {
      {{32},
       2,
       "typeSize 2 is not supported: the means and variances are float (4)"},
      {{1, 32},
       4,
       "srcShape [1, 32] has 2 dimensions: it must have 1, {abLength}"},
      {{12},
       4,
       "srcShape [12] has abLength = 12: it must be a multiple of 32 / "
       "typeSize = 8 in [8, "
       "4294967288]"},
      {{0}, 4, "srcShape [0] has abLength = 0"},
  };
  for (const auto& c : cases) {
    uint32_t max_value = 7, min_value = 7;
    testing::internal::CaptureStderr();
    AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape(c.dims), c.type_size,
                                             false, max_value, min_value);
    ExpectOneMessage(testing::internal::GetCapturedStderr(),
                     "GetWelfordFinalizeMaxMinTmpSize",
                     {c.message, "maxValue and minValue are 0"});
    EXPECT_EQ(max_value, 0u);
    EXPECT_EQ(min_value, 0u);
  }
}

}  // namespace

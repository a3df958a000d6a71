// welfordupdate_tiling_test.cc — GetWelfordUpdateMaxMinTmpSize against the
// rule of docs/welfordupdate.md, "Host tiling": per element f floats (2 for
// half and bfloat16_t, 1 for float, 0 for float with isReuseSource except on
// the Atlas inference series), maxValue = 4·f·rnLength·abLength and
// minValue = 4·f·min(abLength, 64). Every expected number is a literal
// derived by hand beside it; bad input gives one stderr line and 0, 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compat_test.h"
#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using compat_test::ProfileScope;
using normgrad_ascendc::Profile;
using tiling_test::ExpectOneMessage;

struct SizeCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size_t;
  bool reuse;
  Profile profile;
  uint32_t max_value;
  uint32_t min_value;
};

const SizeCase kSizeCases[] = {
    // float [1, 64]: 1 float per element: max 4·64 = 256, min 4·64 = 256.
    {"float_64", {1, 64}, 4, false, Profile::kA2, 256, 256},
    // float [1, 8]: max = min = 4·8 = 32.
    {"float_8", {1, 8}, 4, false, Profile::kA2, 32, 32},
    // float [1, 1000]: max 4·1000 = 4000, min 4·64 = 256.
    {"float_1000", {1, 1000}, 4, false, Profile::k950, 4000, 256},
    // half [1, 16]: 2 floats per element: max = min = 8·16 = 128.
    {"half_16", {1, 16}, 2, false, Profile::kA2, 128, 128},
    // half [1, 4096]: max 8·4096 = 32768, min 8·64 = 512.
    {"half_4096", {1, 4096}, 2, true, Profile::kA2, 32768, 512},
    // half [3, 32]: max 8·3·32 = 768, min 8·32 = 256.
    {"half_rows", {3, 32}, 2, false, Profile::kA2, 768, 256},
    // float with isReuseSource: no scratch.
    {"float_reuse", {1, 256}, 4, true, Profile::kA2, 0, 0},
    // … except on the inference series, which ignores isReuseSource: 1024, 256.
    {"float_reuse_310p", {1, 256}, 4, true, Profile::k310P, 1024, 256},
    // max saturates: 8·2^31·2^31 > 2^32 − 1; min 8·64 = 512.
    {"saturated",
     {2147483648, 2147483648},
     2,
     false,
     Profile::kA2,
     4294967295u,
     512},
};

class WelfordUpdateTmpSize : public testing::TestWithParam<SizeCase> {};

TEST_P(WelfordUpdateTmpSize, DocumentedSizes) {
  const SizeCase& c = GetParam();
  ProfileScope scope(c.profile);
  for (bool inplace : {false, true}) {  // isInplace does not change the sizes
    uint32_t max_value = 1, min_value = 1;
    testing::internal::CaptureStderr();
    AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape(c.dims), c.type_size_t, 4,
                                           c.reuse, inplace, max_value,
                                           min_value);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(max_value, c.max_value);
    EXPECT_EQ(min_value, c.min_value);
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, WelfordUpdateTmpSize,
                         testing::ValuesIn(kSizeCases),
                         tiling_test::CaseName<SizeCase>);

struct BadCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size_t;
  uint32_t type_size_u;
  std::vector<std::string> message;
};

const BadCase kBadCases[] = {
    {"type_t",
     {1, 64},
     8,
     4,
     {"typeSizeT 8 is not supported: it must be 2 (half, bfloat16_t) or 4 "
      "(float)",
      "maxValue and minValue are 0"}},
    {"type_u",
     {1, 64},
     4,
     2,
     {"typeSizeU 2 is not supported: the mean and variance are float (4)"}},
    {"rank",
     {64},
     4,
     4,
     {"srcShape [64] has 1 dimensions: it must have 2, {rnLength, abLength}"}},
    {"zero",
     {0, 64},
     4,
     4,
     {"srcShape [0, 64] has rnLength = 0: every dimension must be in [1, "
      "4294967295]"}},
    {"unaligned_float",
     {1, 12},
     4,
     4,
     {"srcShape [1, 12] has abLength = 12: it must be a multiple of 32 / "
      "typeSizeT = 8"}},
    {"unaligned_half",
     {1, 24},
     2,
     4,
     {"srcShape [1, 24] has abLength = 24: it must be a multiple of 32 / "
      "typeSizeT = 16"}},
};

class WelfordUpdateBadInput : public testing::TestWithParam<BadCase> {};

TEST_P(WelfordUpdateBadInput, MessageAndZeros) {
  const BadCase& c = GetParam();
  uint32_t max_value = 7, min_value = 7;
  testing::internal::CaptureStderr();
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape(c.dims), c.type_size_t,
                                         c.type_size_u, false, false, max_value,
                                         min_value);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetWelfordUpdateMaxMinTmpSize", c.message);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

INSTANTIATE_TEST_SUITE_P(Cases, WelfordUpdateBadInput,
                         testing::ValuesIn(kBadCases),
                         tiling_test::CaseName<BadCase>);

// The documented tiling example's call: float, float, no reuse, no in-place.
TEST(WelfordUpdateTmpSizeExample, DocumentedCall) {
  ProfileScope scope(Profile::kA2);
  std::vector<int64_t> src_dims = {1, 128};
  ge::Shape src_shape(src_dims);
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetWelfordUpdateMaxMinTmpSize(src_shape, 4, 4, false, false, max_tmp,
                                         min_tmp);
  EXPECT_EQ(max_tmp, 512u);  // 4·128
  EXPECT_EQ(min_tmp, 256u);  // 4·64
}

}  // namespace

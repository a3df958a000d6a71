// layernormgrad_tiling_test.cc — GetLayerNormGradMaxMinTmpSize, both
// overloads of GetLayerNormGradNDTilingInfo and the host class
// optiling::LayerNormGradTiling against the documented rules and worked
// example and normgrad's rule that the layout never exceeds the scratch
// (docs/decisions.md): every expected number is a literal derived by hand in
// the comment beside it; nothing here calls src/ to compute an expectation.
//
// To extend:
//  - a tiling: add a row to kTilingCases (name, dims, typeSize,
//    isReuseSource, profile, scratch bytes, the 30 fields in struct order)
//    with its derivation; every row is checked through both overloads and
//    SaveToBuffer.
//  - scratch sizes: add a row to kTmpSizeCases.
//  - bad input: add a row to kBadTilingCases / kBadTmpSizeCases with the
//    substrings the stderr message must contain.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "compat_test.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::LayerNormGradTiling;
using HostTiling = optiling::LayerNormGradTiling;
using Words = std::array<uint32_t, 30>;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;
using tiling_test::CaseName;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;
constexpr uint32_t kU32Max = 4294967295u;

// The documented field order.
constexpr const char* kFieldNames[30] = {
    "stackBufferSize",  "bLength",          "sLength",
    "hLength",          "originalHLength",  "oneCalSize",
    "nohCalSize",       "loopNum",          "tailSize",
    "nohTailSize",      "tmpTensorBSHPos",  "tmpTensorBSHSize",
    "pdVarTensorPos",   "pdVarTensorSize",  "pdMeanTensorPos",
    "pdMeanTensorSize", "x1TensorPos",      "x1TensorSize",
    "x2TensorPos",      "x2TensorSize",     "x3TensorPos",
    "x3TensorSize",     "tmpTensorPos",     "tmpTensorSize",
    "tmpTensor1Pos",    "tmpTensor1Size",   "tmpTensor2Pos",
    "tmpTensor2Size",   "lastDimValueBack", "lastDimValueBackMulTwo"};

// Float bits of 1.0f/H and 2.0f/H (numpy: np.float32(1) / np.float32(H)).
constexpr uint32_t kInv16 = 0x3D800000, kTwoInv16 = 0x3E000000;
constexpr uint32_t kInv32 = 0x3D000000, kTwoInv32 = 0x3D800000;
constexpr uint32_t kInv48 = 0x3CAAAAAB, kTwoInv48 = 0x3D2AAAAB;

// The 120 bytes of a kernel struct as its 30 words (independent of src/).
Words WordsOf(const KernelTiling& t) {
  Words w;
  std::memcpy(w.data(), &t, sizeof(w));
  return w;
}

Words WordsOf(const HostTiling& t) {
  Words w;
  w.fill(0xEEEEEEEEu);
  t.SaveToBuffer(w.data(), sizeof(w));
  return w;
}

bool AllZero(const Words& w) {
  return std::all_of(w.begin(), w.end(), [](uint32_t v) { return v == 0; });
}

void ExpectFields(const Words& got, const Words& expected,
                  const std::string& what) {
  for (size_t i = 0; i < 30; ++i) {
    EXPECT_EQ(got[i], expected[i]) << what << ": field " << kFieldNames[i];
  }
}

// ---------------------------------------------------------------------------
// Tilings. Rules (documented, plus normgrad's clamp): nbuf = 9 half, 4
// float+reuse, 6 float; rows = stack/4/nbuf/H (>= 1); noh = roundup(rows, 8 |
// 16), clamped to B·S; if noh > rows (nbuf regions would not fit):
// rounddown(rows, 8 | 16), or rows when that is 0. one = noh·H; loopNum =
// n/one; tail = n%one; nohTail = tail/H. Positions: BSH 0, pdVar one, pdMean
// 2one; x1 3one, x2 4one, x3 5one (float+reuse: x1 = x2 = 0, x3 3one); half tmp
// 6one, tmp1 7one, tmp2 8one (float: 0). Sizes all one. Ascend 950: one = noh
// = 1.
struct TilingCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  bool reuse;
  Profile profile;
  uint32_t stack_bytes;
  Words expected;
};

void PrintTo(const TilingCase& c, std::ostream* os) { *os << c.name; }

const TilingCase kTilingCases[] = {
    // The worked example: [2,32,16] float, no reuse, 6144 bytes = its min
    // (6·min(1024,
    // 256)·4): 1536/6 = 256 floats = 16 rows, roundup(16, 8) = 16 <= 64;
    // one 256, 1024/256 = 4 loops.
    {"WorkedExample_worked_example",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     6144,
     {6144, 2,   32,  16,  16,  256, 16,  4,   0,      0,
      0,    256, 256, 256, 512, 256, 768, 256, 1024,   256,
      1280, 256, 0,   256, 0,   256, 0,   256, kInv16, kTwoInv16}},
    // Same shape on the 310P profile: the same numbers.
    {"WorkedExample_on_310p",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::k310P,
     6144,
     {6144, 2,   32,  16,  16,  256, 16,  4,   0,      0,
      0,    256, 256, 256, 512, 256, 768, 256, 1024,   256,
      1280, 256, 0,   256, 0,   256, 0,   256, kInv16, kTwoInv16}},
    // float max 6·1024·4 = 24576: 6144/6 = 1024 floats = 64 rows = B·S:
    // one chunk.
    {"WorkedExample_float_max",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     24576,
     {24576, 2,    32,   16,   16,   1024, 64,   1,    0,      0,
      0,     1024, 1024, 1024, 2048, 1024, 3072, 1024, 4096,   1024,
      5120,  1024, 0,    1024, 0,    1024, 0,    1024, kInv16, kTwoInv16}},
    // float, reuse, its min 4·256·4 = 4096: 1024/4 = 256 = 16 rows; x1 = x2
    // = 0, x3 at 3·256.
    {"float_reuse_min",
     {2, 32, 16, 16},
     kFloat,
     true,
     Profile::kA2,
     4096,
     {4096, 2,   32,  16,  16,  256, 16, 4,   0,      0,
      0,    256, 256, 256, 512, 256, 0,  256, 0,      256,
      768,  256, 0,   256, 0,   256, 0,  256, kInv16, kTwoInv16}},
    // half, its min 9·256·2 = 4608: 1152/9 = 128 floats = 8 rows; roundup(8,
    // 16) = 16 <= 64 but 9 regions of 16 rows need 9216 bytes: rounddown(8,
    // 16) = 0, so 8 rows. one 128, 8 loops.
    {"half_min_falls_back_to_rows_that_fit",
     {2, 32, 16, 16},
     kHalf,
     false,
     Profile::kA2,
     4608,
     {4608, 2,   32,  16,  16,  128, 8,    8,   0,      0,
      0,    128, 128, 128, 256, 128, 384,  128, 512,    128,
      640,  128, 768, 128, 896, 128, 1024, 128, kInv16, kTwoInv16}},
    // half, max 9·1024·2 = 18432: 4608/9 = 512 = 32 rows = roundup(32, 16);
    // fits; one 512, 2 loops. isReuseSource changes nothing for half.
    {"half_max_reuse_ignored",
     {2, 32, 16, 16},
     kHalf,
     true,
     Profile::kA2,
     18432,
     {18432, 2,   32,   16,  16,   512, 32,   2,   0,      0,
      0,     512, 512,  512, 1024, 512, 1536, 512, 2048,   512,
      2560,  512, 3072, 512, 3584, 512, 4096, 512, kInv16, kTwoInv16}},
    // The clamp cases. [1,1,48] float: n 48, H·H 2304; min 6·48·4 = 1152:
    // 288/6 = 48 floats = 1 row; roundup(1, 8) = 8 (the vendor's: regions of
    // 8 rows need 9216 bytes), clamped to B·S = 1. one 48, 1 loop.
    {"clamp_rows1_H48_float_min",
     {1, 1, 48, 48},
     kFloat,
     false,
     Profile::kA2,
     1152,
     {1152, 1,  1,   48, 48,  48, 1, 1,  0, 0,  0, 48, 48,     48,       96, 48,
      144,  48, 192, 48, 240, 48, 0, 48, 0, 48, 0, 48, kInv48, kTwoInv48}},
    // max 6·2304·4 = 55296: 13824/6 = 2304 = 48 rows = roundup(48, 8) (the
    // vendor's: one 2304, loopNum 0, a tail of 48), clamped to 1 row.
    {"clamp_rows1_H48_float_max",
     {1, 1, 48, 48},
     kFloat,
     false,
     Profile::kA2,
     55296,
     {55296, 1,  1,  48, 48, 48, 1,   1,  0,      0,
      0,     48, 48, 48, 96, 48, 144, 48, 192,    48,
      240,   48, 0,  48, 0,  48, 0,   48, kInv48, kTwoInv48}},
    // [1,3,48] float at its min 6·144·4 = 3456: 864/6 = 144 = 3 rows; 8
    // clamped to 3.
    {"clamp_rows3_H48_float_min",
     {1, 3, 48, 48},
     kFloat,
     false,
     Profile::kA2,
     3456,
     {3456, 1,   3,   48,  48,  144, 3,   1,   0,      0,
      0,    144, 144, 144, 288, 144, 432, 144, 576,    144,
      720,  144, 0,   144, 0,   144, 0,   144, kInv48, kTwoInv48}},
    // [1,100,16] float, 4608 bytes: 1152/6 = 192 = 12 rows; roundup 16 <=
    // 100 but needs 6·256 floats > 1152: rounddown(12, 8) = 8. one 128, n
    // 1600 = 12·128 + 64: tail 64 = 4 rows.
    {"rounddown_float_with_tail",
     {1, 100, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     4608,
     {4608, 1,   100, 16,  16,  128, 8,   12,  64,     4,
      0,    128, 128, 128, 256, 128, 384, 128, 512,    128,
      640,  128, 0,   128, 0,   128, 0,   128, kInv16, kTwoInv16}},
    // 1920 bytes: 480/6 = 80 = 5 rows; roundup 8 does not fit, rounddown is
    // 0: 5 rows. one 80, 1600/80 = 20 loops.
    {"rows_that_fit_when_rounddown_is_zero",
     {1, 100, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     1920,
     {1920, 1,  100, 16, 16,  80, 5,   20, 0,      0,
      0,    80, 80,  80, 160, 80, 240, 80, 320,    80,
      400,  80, 0,   80, 0,   80, 0,   80, kInv16, kTwoInv16}},
    // 6144 bytes: 1536/6 = 256 = 16 rows = roundup(16, 8): the vendor's
    // numbers. 1600 = 6·256 + 64: tail 64 = 4 rows.
    {"vendor_numbers_when_they_fit",
     {1, 100, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     6144,
     {6144, 1,   100, 16,  16,  256, 16,  6,   64,     4,
      0,    256, 256, 256, 512, 256, 768, 256, 1024,   256,
      1280, 256, 0,   256, 0,   256, 0,   256, kInv16, kTwoInv16}},
    // [1,50,32] half, 23043 bytes: 5760/9 = 640 floats = 20 rows; roundup 32
    // <= 50 does not fit: rounddown(20, 16) = 16. one 512; 1600 = 3·512 +
    // 64: tail 2 rows. (23043 is not a multiple of 4: 23043/4 = 5760.)
    {"rounddown_half_unaligned_bytes",
     {1, 50, 32, 32},
     kHalf,
     false,
     Profile::kA2,
     23043,
     {23043, 1,   50,   32,  32,   512, 16,   3,   64,     2,
      0,     512, 512,  512, 1024, 512, 1536, 512, 2048,   512,
      2560,  512, 3072, 512, 3584, 512, 4096, 512, kInv32, kTwoInv32}},
    // half, one row, at its min 576 (raised from 288): 144/9 = 16 floats =
    // 1 row; roundup 16 clamped to 1.
    {"half_one_row_at_min",
     {1, 1, 16, 16},
     kHalf,
     false,
     Profile::kA2,
     576,
     {576, 1,  1,  16, 16,  16, 1,   1,  0,      0,
      0,   16, 16, 16, 32,  16, 48,  16, 64,     16,
      80,  16, 96, 16, 112, 16, 128, 16, kInv16, kTwoInv16}},
    // Ascend 950: one = noh = 1, so loopNum = n = 1024; positions from one =
    // 1; stackBufferSize as given (its size 2·16·4 = 128).
    {"ascend950_float",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::k950,
     128,
     {128, 2, 32, 16, 16, 1, 1, 1024, 0, 0, 0, 1, 1, 1,      2,
      1,   3, 1,  4,  1,  5, 1, 0,    1, 0, 1, 0, 1, kInv16, kTwoInv16}},
    // 950, float with reuse: size 0; x1 = x2 = 0, x3 at 3.
    {"ascend950_float_reuse_no_scratch",
     {2, 32, 16, 16},
     kFloat,
     true,
     Profile::k950,
     0,
     {0, 2, 32, 16, 16, 1, 1, 1024, 0, 0, 0, 1, 1, 1,      2,
      1, 0, 1,  0,  1,  3, 1, 0,    1, 0, 1, 0, 1, kInv16, kTwoInv16}},
    // 950 half: tmp, tmp1, tmp2 at 6, 7, 8.
    {"ascend950_half",
     {1, 3, 32, 32},
     kHalf,
     false,
     Profile::k950,
     256,
     {256, 1, 3, 32, 32, 1, 1, 96, 0, 0, 0, 1, 1, 1,      2,
      1,   3, 1, 4,  1,  5, 1, 6,  1, 7, 1, 8, 1, kInv32, kTwoInv32}},
};

class LayerNormGradTilingTable : public testing::TestWithParam<TilingCase> {};

TEST_P(LayerNormGradTilingTable, BothOverloadsGiveTheExpectedFields) {
  const TilingCase& c = GetParam();
  ProfileScope profile(c.profile);
  const ge::Shape shape(c.dims);
  KernelTiling kernel = Garbage<KernelTiling>();
  HostTiling host;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradNDTilingInfo(shape, c.stack_bytes, c.type_size,
                                        c.reuse, kernel);
  AscendC::GetLayerNormGradNDTilingInfo(shape, c.stack_bytes, c.type_size,
                                        c.reuse, host);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "")
      << "a valid tiling prints nothing";
  ExpectFields(WordsOf(kernel), c.expected, "kernel overload");
  ExpectFields(WordsOf(host), c.expected, "host overload");
  // The host class's saved bytes are the kernel struct's bytes.
  KernelTiling saved;
  host.SaveToBuffer(&saved, sizeof(saved));
  EXPECT_EQ(std::memcmp(&saved, &kernel, sizeof(saved)), 0);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradTilingTable,
                         testing::ValuesIn(kTilingCases), CaseName<TilingCase>);

// normgrad's rule: on A2/A3, for many shapes and every size from the min to
// the max in steps, the nbuf regions never exceed the scratch, and the
// chunks cover the rows exactly.
TEST(LayerNormGradTilingRule, RegionsNeverExceedTheScratch) {
  ProfileScope profile(Profile::kA2);
  for (uint32_t type_size : {kFloat, kHalf}) {
    for (bool reuse : {false, true}) {
      const uint32_t nbuf = type_size == kHalf ? 9 : (reuse ? 4 : 6);
      for (int64_t rows : {1, 2, 3, 7, 8, 9, 15, 16, 17, 100}) {
        for (int64_t h : {16, 32, 48, 64, 80}) {
          const ge::Shape shape({1, rows, h, h});
          uint32_t max_value = 0;
          uint32_t min_value = 0;
          AscendC::GetLayerNormGradMaxMinTmpSize(shape, type_size, reuse,
                                                 max_value, min_value);
          const uint32_t step = std::max(1u, (max_value - min_value) / 7);
          for (uint64_t bytes = min_value; bytes <= max_value; bytes += step) {
            KernelTiling t;
            AscendC::GetLayerNormGradNDTilingInfo(
                shape, static_cast<uint32_t>(bytes), type_size, reuse, t);
            SCOPED_TRACE(testing::Message()
                         << "rows " << rows << " H " << h << " typeSize "
                         << type_size << " reuse " << reuse << " bytes "
                         << bytes);
            ASSERT_GT(t.nohCalSize, 0u);
            EXPECT_LE(uint64_t{nbuf} * t.oneCalSize * 4, bytes);
            EXPECT_LE(t.nohCalSize, static_cast<uint32_t>(rows));
            EXPECT_EQ(t.loopNum * t.nohCalSize + t.nohTailSize,
                      static_cast<uint32_t>(rows));
          }
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// Scratch sizes: n = B·S·H; half 18·max(n, H·H) and 18·min(n, H·H); float
// with reuse 16·, without 24·; max saturates at 2^32 − 1. Ascend 950: float
// with reuse 0; otherwise both 8·roundup(H, 8).
struct TmpSizeCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  bool reuse;
  Profile profile;
  uint32_t max_value;
  uint32_t min_value;
};

void PrintTo(const TmpSizeCase& c, std::ostream* os) { *os << c.name; }

const TmpSizeCase kTmpSizeCases[] = {
    // The worked example: n 1024, H·H 256: 24·1024, 24·256.
    {"WorkedExample_float",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::kA2,
     24576,
     6144},
    {"WorkedExample_float_reuse",
     {2, 32, 16, 16},
     kFloat,
     true,
     Profile::kA2,
     16384,
     4096},
    {"WorkedExample_half",
     {2, 32, 16, 16},
     kHalf,
     false,
     Profile::kA2,
     18432,
     4608},
    {"WorkedExample_half_reuse_same",
     {2, 32, 16, 16},
     kHalf,
     true,
     Profile::kA2,
     18432,
     4608},
    {"WorkedExample_310p_same",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::k310P,
     24576,
     6144},
    // n 48 < H·H 2304: 24·2304 = 55296, 24·48 = 1152.
    {"rows1_H48_float",
     {1, 1, 48, 48},
     kFloat,
     false,
     Profile::kA2,
     55296,
     1152},
    // n = H·H = 1024: max = min = 18·1024.
    {"n_equals_HH_half",
     {1, 32, 32, 32},
     kHalf,
     false,
     Profile::kA2,
     18432,
     18432},
    // H 65536: H·H = 2^32, n = 2^19: max 24·2^32 saturates, min 24·2^19.
    {"max_saturates",
     {1, 8, 65536, 65536},
     kFloat,
     false,
     Profile::kA2,
     kU32Max,
     12582912},
    // half, B·S = 1: 18·min(16, 256) = 288 would leave each of the 9 float
    // regions 8 floats, half a row: raised to one row, 9·16·4 = 576.
    {"half_one_row_raised_to_a_row",
     {1, 1, 16, 16},
     kHalf,
     false,
     Profile::kA2,
     4608,
     576},
    // H = 1: max 18·1 is raised to the same 36.
    {"half_H1_both_raised", {1, 1, 1, 1}, kHalf, false, Profile::kA2, 36, 36},
    // Ascend 950: 2·roundup(H, 8)·4.
    {"ascend950_float",
     {2, 32, 16, 16},
     kFloat,
     false,
     Profile::k950,
     128,
     128},
    {"ascend950_float_reuse_zero",
     {2, 32, 16, 16},
     kFloat,
     true,
     Profile::k950,
     0,
     0},
    {"ascend950_half", {2, 32, 16, 16}, kHalf, true, Profile::k950, 128, 128},
    {"ascend950_H20_rounds_up",
     {1, 1, 20, 20},
     kFloat,
     false,
     Profile::k950,
     192,
     192},
};

class LayerNormGradTmpSizeTable : public testing::TestWithParam<TmpSizeCase> {};

TEST_P(LayerNormGradTmpSizeTable, MaxAndMin) {
  const TmpSizeCase& c = GetParam();
  ProfileScope profile(c.profile);
  uint32_t max_value = 1;
  uint32_t min_value = 1;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradMaxMinTmpSize(ge::Shape(c.dims), c.type_size,
                                         c.reuse, max_value, min_value);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(max_value, c.max_value);
  EXPECT_EQ(min_value, c.min_value);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradTmpSizeTable,
                         testing::ValuesIn(kTmpSizeCases),
                         CaseName<TmpSizeCase>);

// ---------------------------------------------------------------------------
// Bad input: one stderr line naming the function and the value; the whole
// tiling zeroed (also over an earlier valid one); sizes 0 and 0.
struct BadCase {
  const char* name;
  ge::Shape shape;
  uint32_t type_size;
  bool reuse;
  uint32_t stack_bytes;
  std::vector<std::string> must_contain;
};

void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const BadCase kBadTilingCases[] = {
    {"typeSize1", ge::Shape({2, 32, 16, 16}), 1, false, 6144, {"typeSize 1"}},
    {"typeSize8", ge::Shape({2, 32, 16, 16}), 8, false, 6144, {"typeSize 8"}},
    {"rank3", ge::Shape({2, 32, 16}), kFloat, false, 6144, {"3 dim"}},
    {"B_zero", ge::Shape({0, 32, 16, 16}), kFloat, false, 6144, {"B = 0"}},
    {"H_zero", ge::Shape({2, 32, 0, 0}), kHalf, false, 6144, {"H = 0"}},
    {"S_negative", ge::Shape({2, -3, 16, 16}), kFloat, false, 6144, {"S = -3"}},
    {"originalH_differs",
     ge::Shape({2, 32, 32, 30}),
     kFloat,
     false,
     6144,
     {"originalH = 30", "H = 32"}},
    {"BSH_overflow",
     ge::Shape({1, 65536, 65536, 65536}),
     kFloat,
     false,
     6144,
     {"B*S*H = 4294967296"}},
    // The worked example's shape, 383 bytes: 383/4 = 95, 95/6 = 15 floats < H =
    // 16; the minimum is 6144.
    {"float_scratch_below_one_row",
     ge::Shape({2, 32, 16, 16}),
     kFloat,
     false,
     383,
     {"stackBufferSize 383 bytes", "383/4/6 = 15 floats", "6 scratch regions",
      "H = 16", "at least 6*H*4 = 384 bytes", "minimum here: 6144 bytes"}},
    // float reuse: 255/4 = 63, 63/4 = 15 < 16; minimum 4096.
    {"float_reuse_scratch_below_one_row",
     ge::Shape({2, 32, 16, 16}),
     kFloat,
     true,
     255,
     {"255/4/4 = 15 floats", "4 scratch regions", "4*H*4 = 256 bytes",
      "4096 bytes"}},
    // half: 575/4 = 143, 143/9 = 15 < 16; minimum 4608.
    {"half_scratch_below_one_row",
     ge::Shape({2, 32, 16, 16}),
     kHalf,
     false,
     575,
     {"575/4/9 = 15 floats", "9 scratch regions", "9*H*4 = 576 bytes",
      "4608 bytes"}},
    {"no_scratch",
     ge::Shape({2, 32, 16, 16}),
     kFloat,
     false,
     0,
     {"stackBufferSize 0 bytes"}},
};

class LayerNormGradBadTiling : public testing::TestWithParam<BadCase> {};

TEST_P(LayerNormGradBadTiling, KernelOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  ProfileScope profile(Profile::kA2);
  KernelTiling t = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradNDTilingInfo(c.shape, c.stack_bytes, c.type_size,
                                        c.reuse, t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(WordsOf(t)));
}

TEST_P(LayerNormGradBadTiling, HostOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  ProfileScope profile(Profile::kA2);
  HostTiling t;
  AscendC::GetLayerNormGradNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144,
                                        kFloat, false, t);
  ASSERT_NE(t.get_oneCalSize(), 0u);
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradNDTilingInfo(c.shape, c.stack_bytes, c.type_size,
                                        c.reuse, t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(WordsOf(t)));
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradBadTiling,
                         testing::ValuesIn(kBadTilingCases), CaseName<BadCase>);

const BadCase kBadTmpSizeCases[] = {
    {"typeSize3", ge::Shape({2, 32, 16, 16}), 3, false, 0, {"typeSize 3"}},
    {"rank5", ge::Shape({1, 2, 32, 16, 16}), kFloat, false, 0, {"5 dim"}},
    {"originalH_differs",
     ge::Shape({2, 32, 32, 16}),
     kHalf,
     false,
     0,
     {"originalH = 16", "H = 32"}},
    // n = 65535·65536 = 4294901760 < H·H = 2^32: half min 18·n does not fit.
    {"min_over_u32",
     ge::Shape({1, 65535, 65536, 65536}),
     kHalf,
     false,
     0,
     {"77308231680 bytes"}},
};

class LayerNormGradBadTmpSize : public testing::TestWithParam<BadCase> {};

TEST_P(LayerNormGradBadTmpSize, MessageAndZeroes) {
  const BadCase& c = GetParam();
  ProfileScope profile(Profile::kA2);
  uint32_t max_value = 123;
  uint32_t min_value = 456;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradMaxMinTmpSize(c.shape, c.type_size, c.reuse,
                                         max_value, min_value);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradMaxMinTmpSize", c.must_contain);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormGradBadTmpSize,
                         testing::ValuesIn(kBadTmpSizeCases),
                         CaseName<BadCase>);

// ---------------------------------------------------------------------------
// The host class.

// Field i gets the distinct value 0x01000000·(i+1) + i + 1.
uint32_t Pattern(uint32_t i) { return 0x01000000u * (i + 1) + i + 1; }

TEST(LayerNormGradHostTiling, SizeAndDefault) {
  EXPECT_GE(sizeof(HostTiling), 512u);
  EXPECT_EQ(sizeof(KernelTiling), 120u);
  const HostTiling t;
  EXPECT_EQ(t.GetDataSize(), 120u);
  EXPECT_TRUE(AllZero(WordsOf(t)));
  EXPECT_TRUE(AllZero(WordsOf(KernelTiling())));
}

TEST(LayerNormGradHostTiling, SettersWriteTheKernelStructWordsInOrder) {
  HostTiling t;
  t.set_stackBufferSize(Pattern(0));
  t.set_bLength(Pattern(1));
  t.set_sLength(Pattern(2));
  t.set_hLength(Pattern(3));
  t.set_originalHLength(Pattern(4));
  t.set_oneCalSize(Pattern(5));
  t.set_nohCalSize(Pattern(6));
  t.set_loopNum(Pattern(7));
  t.set_tailSize(Pattern(8));
  t.set_nohTailSize(Pattern(9));
  t.set_tmpTensorBSHPos(Pattern(10));
  t.set_tmpTensorBSHSize(Pattern(11));
  t.set_pdVarTensorPos(Pattern(12));
  t.set_pdVarTensorSize(Pattern(13));
  t.set_pdMeanTensorPos(Pattern(14));
  t.set_pdMeanTensorSize(Pattern(15));
  t.set_x1TensorPos(Pattern(16));
  t.set_x1TensorSize(Pattern(17));
  t.set_x2TensorPos(Pattern(18));
  t.set_x2TensorSize(Pattern(19));
  t.set_x3TensorPos(Pattern(20));
  t.set_x3TensorSize(Pattern(21));
  t.set_tmpTensorPos(Pattern(22));
  t.set_tmpTensorSize(Pattern(23));
  t.set_tmpTensor1Pos(Pattern(24));
  t.set_tmpTensor1Size(Pattern(25));
  t.set_tmpTensor2Pos(Pattern(26));
  t.set_tmpTensor2Size(Pattern(27));
  t.set_lastDimValueBack(Pattern(28));
  t.set_lastDimValueBackMulTwo(Pattern(29));

  KernelTiling k;  // the same values, member by member
  k.stackBufferSize = Pattern(0);
  k.bLength = Pattern(1);
  k.sLength = Pattern(2);
  k.hLength = Pattern(3);
  k.originalHLength = Pattern(4);
  k.oneCalSize = Pattern(5);
  k.nohCalSize = Pattern(6);
  k.loopNum = Pattern(7);
  k.tailSize = Pattern(8);
  k.nohTailSize = Pattern(9);
  k.tmpTensorBSHPos = Pattern(10);
  k.tmpTensorBSHSize = Pattern(11);
  k.pdVarTensorPos = Pattern(12);
  k.pdVarTensorSize = Pattern(13);
  k.pdMeanTensorPos = Pattern(14);
  k.pdMeanTensorSize = Pattern(15);
  k.x1TensorPos = Pattern(16);
  k.x1TensorSize = Pattern(17);
  k.x2TensorPos = Pattern(18);
  k.x2TensorSize = Pattern(19);
  k.x3TensorPos = Pattern(20);
  k.x3TensorSize = Pattern(21);
  k.tmpTensorPos = Pattern(22);
  k.tmpTensorSize = Pattern(23);
  k.tmpTensor1Pos = Pattern(24);
  k.tmpTensor1Size = Pattern(25);
  k.tmpTensor2Pos = Pattern(26);
  k.tmpTensor2Size = Pattern(27);
  k.lastDimValueBack = Pattern(28);
  k.lastDimValueBackMulTwo = Pattern(29);

  const Words saved = WordsOf(t);
  for (uint32_t i = 0; i < 30; ++i) {
    EXPECT_EQ(saved[i], Pattern(i)) << kFieldNames[i];
  }
  EXPECT_EQ(WordsOf(k), saved);
  EXPECT_EQ(t.get_nohCalSize(), Pattern(6));
  EXPECT_EQ(t.get_lastDimValueBackMulTwo(), Pattern(29));
}

TEST(LayerNormGradHostTiling, FieldListingNamesEveryFieldInOrder) {
  Words words;
  for (uint32_t i = 0; i < 30; ++i) words[i] = Pattern(i);
  KernelTiling k;
  std::memcpy(static_cast<void*>(&k), words.data(), sizeof(k));
  const auto fields = normgrad_ascendc::LayerNormGradTilingFields(k);
  for (uint32_t i = 0; i < 30; ++i) {
    EXPECT_STREQ(fields[i].name, kFieldNames[i]);
    EXPECT_EQ(fields[i].value, Pattern(i)) << kFieldNames[i];
  }
}

}  // namespace

// A program's own tiling data nesting the LayerNormGrad and LayerNormGradBeta
// classes, and the kernel-side struct it copies the bytes into.
namespace optiling {
BEGIN_TILING_DATA_DEF(LayerNormGradProgramTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradTiling, lng);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, lngb);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormGradProgramOp, LayerNormGradProgramTiling)
}  // namespace optiling

namespace {

struct LayerNormGradProgramKernelTiling {
  uint32_t totalLength;
  alignas(8) LayerNormGradTiling lng;
  alignas(8) LayerNormGradBetaTiling lngb;
};

TEST(LayerNormGradHostTiling, NestedInAProgramsTilingData) {
  ProfileScope profile(Profile::kA2);
  const ge::Shape shape({2, 32, 16, 16});
  optiling::LayerNormGradProgramTiling host;
  host.set_totalLength(2048);
  AscendC::GetLayerNormGradNDTilingInfo(shape, 6144, kFloat, false, host.lng);
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 6144, kFloat, false,
                                            host.lngb);
  ASSERT_EQ(host.GetDataSize(),
            sizeof(LayerNormGradProgramKernelTiling));  // 8+120+80

  LayerNormGradProgramKernelTiling expected;
  std::memset(static_cast<void*>(&expected), 0, sizeof(expected));
  expected.totalLength = 2048;
  AscendC::GetLayerNormGradNDTilingInfo(shape, 6144, kFloat, false,
                                        expected.lng);
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 6144, kFloat, false,
                                            expected.lngb);
  LayerNormGradProgramKernelTiling saved;
  std::memset(static_cast<void*>(&saved), 0xEE, sizeof(saved));
  host.SaveToBuffer(&saved, sizeof(saved));
  EXPECT_EQ(std::memcmp(&saved, &expected, sizeof(saved)), 0);
  EXPECT_EQ(saved.lng.oneCalSize, 256u);  // the worked example's
  EXPECT_EQ(saved.lngb.stackBufferSize, 1536u);
}

}  // namespace

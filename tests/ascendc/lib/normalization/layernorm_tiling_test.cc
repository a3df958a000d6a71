// layernorm_tiling_test.cc — GetLayerNormMaxMinTmpSize and both overloads of
// GetLayerNormNDTilingInfo against the documented rules, and the host class
// optiling::LayerNormTiling (its saved bytes are the kernel struct's words,
// also when nested in a program's own tiling data). Every expected number is
// a literal derived by hand from those rules in the comment beside it;
// nothing here calls src/ to compute an expectation.
//
// To extend:
//  - a tiling: add a row to kTilingCases (name, dims, typeSize, reuse,
//    scratch bytes, the 25 uint32 fields in struct order, lastDimValueBack)
//    with its derivation; every row is checked through both overloads.
//  - scratch sizes: add a row to kTmpSizeCases.
//  - bad input: add a row to kBadTilingCases / kBadTmpSizeCases with the
//    substrings the stderr message must contain (function name added
//    automatically).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <ostream>
#include <string>
#include <vector>

#include "tiling/tiling_api.h"
#include "tiling_test_util.h"

namespace {

using KernelTiling = AscendC::tiling::LayerNormTiling;
using HostTiling = optiling::LayerNormTiling;
using Words = std::array<uint32_t, 25>;  // the uint32 fields, struct order
using tiling_test::CaseName;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;
constexpr uint32_t kU32Max = 4294967295u;

constexpr const char* kFieldNames[25] = {"bLength",
                                         "sLength",
                                         "hLength",
                                         "originalHLength",
                                         "inputXSize",
                                         "meanVarSize",
                                         "numberOfTmpBuf",
                                         "meanTmpTensorPos",
                                         "meanTmpTensorSize",
                                         "varianceTmpTensorPos",
                                         "varianceTmpTensorSize",
                                         "tmpBufSize",
                                         "oneTmpSize",
                                         "firstTmpStartPos",
                                         "secondTmpStartPos",
                                         "thirdTmpStartPos",
                                         "loopRound",
                                         "inputRoundSize",
                                         "inputTailSize",
                                         "inputTailPos",
                                         "meanVarRoundSize",
                                         "meanVarTailSize",
                                         "meanVarTailPos",
                                         "bshCurLength",
                                         "bsCurLength"};

// The 104 bytes of a tiling: 25 words, then the float's bits.
struct Saved {
  Words words;
  uint32_t last_dim_value_back_bits;
};
static_assert(sizeof(Saved) == 104, "25 words and a float");

uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

Saved SavedOf(const KernelTiling& t) {
  Saved s;
  std::memcpy(&s, &t, sizeof s);
  return s;
}

Saved SavedOf(const HostTiling& t) {
  Saved s;
  std::memset(&s, 0xEE, sizeof s);
  t.SaveToBuffer(&s, sizeof s);
  return s;
}

bool AllZero(const Saved& s) {
  return s.last_dim_value_back_bits == 0 &&
         std::all_of(s.words.begin(), s.words.end(),
                     [](uint32_t v) { return v == 0; });
}

// ---------------------------------------------------------------------------
// Tilings. Field order:
//  B S H Ho  bsh bs nbuf  meanPos meanSize varPos varSize  tmpBuf one
//  first second third  loop round tail tailPos  mvRound mvTail mvTailPos
//  bshCur bsCur, then lastDimValueBack = 1.0f / Ho.
// Rules: tmpBuf = bytes/4; nbuf = 2 for float with reuse, else 3;
// meanSize = roundup(bs, 8); mvTotal = 2·meanSize for half, 0 for float;
// one = ⌊(tmpBuf − mvTotal)/nbuf⌋ rounded down to a multiple of H, capped at
// bsh; first/second/third = mvTotal + 0/1/2·one; loop = bsh/one;
// tail = bsh%one; tailPos = bsh − tail; mvRound = one/H; mvTail = tail/H;
// mvTailPos = bs − mvTail; bshCur = one; bsCur = one/H.
struct TilingCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  bool reuse;
  uint32_t stack_bytes;
  Words expected;
  float last_dim_value_back;
};

// gtest prints a row by its name.
void PrintTo(const TilingCase& c, std::ostream* os) { *os << c.name; }

// clang-format off
const TilingCase kTilingCases[] = {
    // The documented worked example: [2,32,16,16] float, 6144 bytes. bs 64,
    // bsh 1024, meanSize 64; tmpBuf 1536, one 1536/3 = 512 (32 rows),
    // loop 2, no tail.
    {"Example_float", {2, 32, 16, 16}, kFloat, false, 6144,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 1536, 512, 0, 512, 1024,
      2, 512, 0, 1024, 32, 0, 64, 512, 32}, 0.0625f},
    // float with reuse: nbuf 2, one 1536/2 = 768 (48 rows); loop 1, tail
    // 1024 − 768 = 256 (16 rows) at 768, mvTailPos 64 − 16 = 48; third
    // 2·768.
    {"Example_float_reuse", {2, 32, 16, 16}, kFloat, true, 6144,
     {2, 32, 16, 16, 1024, 64, 2, 0, 64, 64, 64, 1536, 768, 0, 768, 1536,
      1, 768, 256, 768, 48, 16, 48, 768, 48}, 0.0625f},
    // half: mvTotal 128; (1536 − 128)/3 = 469 → 464 (29 rows); loop
    // 1024/464 = 2 (928), tail 96 (6 rows) at 928, mvTailPos 58; first 128,
    // second 592, third 1056.
    {"Example_half", {2, 32, 16, 16}, kHalf, false, 6144,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 1536, 464, 128, 592, 1056,
      2, 464, 96, 928, 29, 6, 58, 464, 29}, 0.0625f},
    // half ignores isReuseSource: the same tiling.
    {"Example_half_reuse", {2, 32, 16, 16}, kHalf, true, 6144,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 1536, 464, 128, 592, 1056,
      2, 464, 96, 928, 29, 6, 58, 464, 29}, 0.0625f},
    // The example's min scratch, 704 bytes: tmpBuf 176, 176/3 = 58 → 48
    // (3 rows); loop 1024/48 = 21 (1008), tail 16 (1 row) at 1008,
    // mvTailPos 63.
    {"Example_float_min", {2, 32, 16, 16}, kFloat, false, 704,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 176, 48, 0, 48, 96,
      21, 48, 16, 1008, 3, 1, 63, 48, 3}, 0.0625f},
    // Its max, 12800 bytes: tmpBuf 3200, 1066 → 1056 → capped at 1024: one
    // chunk; positions 0, 1024, 2048.
    {"Example_float_max", {2, 32, 16, 16}, kFloat, false, 12800,
     {2, 32, 16, 16, 1024, 64, 3, 0, 64, 64, 64, 3200, 1024, 0, 1024, 2048,
      1, 1024, 0, 1024, 64, 0, 64, 1024, 64}, 0.0625f},
    // [3,1,200,200] half, 4000 bytes: bs 3, meanSize 8, mvTotal 16; tmpBuf
    // 1000, (1000 − 16)/3 = 328 → 200 (1 row); bsh 600, loop 3, no tail;
    // first 16, second 216, third 416.
    {"H200_half", {3, 1, 200, 200}, kHalf, false, 4000,
     {3, 1, 200, 200, 600, 3, 3, 0, 8, 8, 8, 1000, 200, 16, 216, 416,
      3, 200, 0, 600, 1, 0, 3, 200, 1}, 1.0f / 200},
    // [1,5,72,72] float with reuse, 2000 bytes: tmpBuf 500, 250 → 216
    // (3 rows); bsh 360, loop 1, tail 144 (2 rows) at 216, mvTailPos 3.
    {"H72_float_reuse", {1, 5, 72, 72}, kFloat, true, 2000,
     {1, 5, 72, 72, 360, 5, 2, 0, 8, 8, 8, 500, 216, 0, 216, 432,
      1, 216, 144, 216, 3, 2, 3, 216, 3}, 1.0f / 72},
    // 2003 bytes (not a multiple of 4): tmpBuf ⌊2003/4⌋ = 500, same tiling.
    {"H72_float_reuse_odd_bytes", {1, 5, 72, 72}, kFloat, true, 2003,
     {1, 5, 72, 72, 360, 5, 2, 0, 8, 8, 8, 500, 216, 0, 216, 432,
      1, 216, 144, 216, 3, 2, 3, 216, 3}, 1.0f / 72},
    // [4,2048,1024,1024] float, 64 KiB: bs 8192, bsh 2^23; tmpBuf 16384,
    // 5461 → 5120 (5 rows); loop 1638 (8386560), tail 2048 (2 rows) at
    // 8386560, mvTailPos 8190.
    {"Large_float_64KiB", {4, 2048, 1024, 1024}, kFloat, false, 65536,
     {4, 2048, 1024, 1024, 8388608, 8192, 3, 0, 8192, 8192, 8192, 16384,
      5120, 0, 5120, 10240, 1638, 5120, 2048, 8386560, 5, 2, 8190, 5120, 5},
     1.0f / 1024},
    // half, 128 KiB: tmpBuf 32768, mvTotal 16384; 16384/3 = 5461 → 5120;
    // the same chunks, positions 16384 + 0/5120/10240.
    {"Large_half_128KiB", {4, 2048, 1024, 1024}, kHalf, false, 131072,
     {4, 2048, 1024, 1024, 8388608, 8192, 3, 0, 8192, 8192, 8192, 32768,
      5120, 16384, 21504, 26624, 1638, 5120, 2048, 8386560, 5, 2, 8190, 5120,
      5}, 1.0f / 1024},
    // [1,1,16,16] half at its min 3·64 + 2·32 = 256 bytes: tmpBuf 64,
    // meanSize 8, mvTotal 16; 48/3 = 16 (the one row).
    {"OneRow_half_min", {1, 1, 16, 16}, kHalf, false, 256,
     {1, 1, 16, 16, 16, 1, 3, 0, 8, 8, 8, 64, 16, 16, 32, 48,
      1, 16, 0, 16, 1, 0, 1, 16, 1}, 0.0625f},
    // H = 3 (the tiling does not need 32-byte rows) and 1/3 not exact in
    // float: [1,2,3,3] float 36 bytes: tmpBuf 9, one 3, loop 2.
    {"H3_float", {1, 2, 3, 3}, kFloat, false, 36,
     {1, 2, 3, 3, 6, 2, 3, 0, 8, 8, 8, 9, 3, 0, 3, 6,
      2, 3, 0, 6, 1, 0, 2, 3, 1}, 1.0f / 3},
};
// clang-format on

class LayerNormTilingTable : public testing::TestWithParam<TilingCase> {};

void ExpectFields(const Saved& got, const TilingCase& c,
                  const std::string& what) {
  for (size_t i = 0; i < 25; ++i) {
    EXPECT_EQ(got.words[i], c.expected[i])
        << what << ": field " << kFieldNames[i];
  }
  EXPECT_EQ(got.last_dim_value_back_bits, FloatBits(c.last_dim_value_back))
      << what << ": field lastDimValueBack";
}

TEST_P(LayerNormTilingTable, BothOverloadsGiveTheExpectedFields) {
  const TilingCase& c = GetParam();
  const ge::Shape shape(c.dims);
  KernelTiling kernel = Garbage<KernelTiling>();
  HostTiling host;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(shape, c.stack_bytes, c.type_size, c.reuse,
                                    kernel);
  AscendC::GetLayerNormNDTilingInfo(shape, c.stack_bytes, c.type_size, c.reuse,
                                    host);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "")
      << "a valid tiling prints nothing";
  ExpectFields(SavedOf(kernel), c, "kernel overload");
  ExpectFields(SavedOf(host), c, "host overload");
  // The host class's saved bytes are the kernel struct's bytes, and its
  // getters read the same values.
  KernelTiling saved;
  host.SaveToBuffer(&saved, sizeof(saved));
  EXPECT_EQ(std::memcmp(&saved, &kernel, sizeof(saved)), 0);
  EXPECT_EQ(host.get_oneTmpSize(), kernel.oneTmpSize);
  EXPECT_EQ(host.get_lastDimValueBack(), kernel.lastDimValueBack);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormTilingTable,
                         testing::ValuesIn(kTilingCases), CaseName<TilingCase>);

// ---------------------------------------------------------------------------
// Scratch sizes: mv = roundup32(4·B·S), in = roundup32(4·B·S·H),
// hd = roundup32(4·H); max = n·in + 2·mv, min = n·hd + 2·mv with n = 2 for
// float with reuse, else 3; max saturates at 2^32 − 1.
struct TmpSizeCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  bool reuse;
  uint32_t max_value;
  uint32_t min_value;
};

// gtest prints a row by its name.
void PrintTo(const TmpSizeCase& c, std::ostream* os) { *os << c.name; }

const TmpSizeCase kTmpSizeCases[] = {
    // The worked example: mv 256, in 4096, hd 64.
    {"Example_float", {2, 32, 16, 16}, kFloat, false, 12800, 704},
    {"Example_float_reuse", {2, 32, 16, 16}, kFloat, true, 8704, 640},
    {"Example_half", {2, 32, 16, 16}, kHalf, false, 12800, 704},
    {"Example_half_reuse", {2, 32, 16, 16}, kHalf, true, 12800, 704},
    // [3,1,200,200]: mv roundup32(12) = 32, in 2400, hd 800.
    {"H200_half", {3, 1, 200, 200}, kHalf, false, 7264, 2464},
    {"H200_float_reuse", {3, 1, 200, 200}, kFloat, true, 4864, 1664},
    // [1,5,72,72]: mv roundup32(20) = 32, in 1440, hd 288.
    {"H72_float", {1, 5, 72, 72}, kFloat, false, 4384, 928},
    {"H72_float_reuse", {1, 5, 72, 72}, kFloat, true, 2944, 640},
    // [1,1,3,3]: mv 32, in 32, hd 32: max = min = 3·32 + 64.
    {"H3_float", {1, 1, 3, 3}, kFloat, false, 160, 160},
    // bsh 2^28: in 2^30, mv 2^18: 3·2^30 + 2^19 = 3221749760 and min
    // 3·16384 + 2^19 = 573440; with reuse 2·2^30 + 2^19 = 2148007936.
    {"Huge_float", {1, 65536, 4096, 4096}, kFloat, false, 3221749760u, 573440},
    {"Huge_float_reuse",
     {1, 65536, 4096, 4096},
     kFloat,
     true,
     2148007936u,
     557056},
    // bsh 2^29: in 2^31, mv 2^19: 3·2^31 + 2^20 saturates (also 2·2^31 +
    // 2^20, half with reuse being no reuse); min 3·16384 + 2^20 = 1097728.
    {"Huger_float_saturates",
     {1, 131072, 4096, 4096},
     kFloat,
     false,
     kU32Max,
     1097728},
    {"Huger_half_saturates",
     {1, 131072, 4096, 4096},
     kHalf,
     true,
     kU32Max,
     1097728},
    // H = 2^28 with reuse: hd = in = 2^30, mv 32: 2·2^30 + 64 for both.
    {"H2p28_float_reuse",
     {1, 1, 268435456, 268435456},
     kFloat,
     true,
     2147483712u,
     2147483712u},
};

class LayerNormTmpSizeTable : public testing::TestWithParam<TmpSizeCase> {};

TEST_P(LayerNormTmpSizeTable, MaxAndMin) {
  const TmpSizeCase& c = GetParam();
  uint32_t max_value = 1;
  uint32_t min_value = 1;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape(c.dims), c.type_size, c.reuse,
                                     max_value, min_value);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(max_value, c.max_value);
  EXPECT_EQ(min_value, c.min_value);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormTmpSizeTable,
                         testing::ValuesIn(kTmpSizeCases),
                         CaseName<TmpSizeCase>);

// ---------------------------------------------------------------------------
// At the min scratch the tiling exists (at least one row per chunk buffer);
// at the max it is one chunk (loopRound 1, no tail).
TEST(LayerNormTilingConsequences, MinAndMaxScratch) {
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 32, 16, 16},  {1, 7, 8, 8},       {3, 5, 72, 72},
      {1, 3, 200, 200}, {2, 9, 1024, 1024}, {1, 1, 3, 3}};
  for (const auto& dims : shapes) {
    const ge::Shape shape(dims);
    const uint32_t bsh = static_cast<uint32_t>(dims[0] * dims[1] * dims[2]);
    for (uint32_t type_size : {kFloat, kHalf}) {
      for (bool reuse : {false, true}) {
        SCOPED_TRACE(testing::Message()
                     << "shape " << testing::PrintToString(dims) << " typeSize "
                     << type_size << " reuse " << reuse);
        uint32_t max_value = 0;
        uint32_t min_value = 0;
        AscendC::GetLayerNormMaxMinTmpSize(shape, type_size, reuse, max_value,
                                           min_value);
        KernelTiling at_min;
        testing::internal::CaptureStderr();
        AscendC::GetLayerNormNDTilingInfo(shape, min_value, type_size, reuse,
                                          at_min);
        EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
        EXPECT_GE(at_min.oneTmpSize, static_cast<uint32_t>(dims[2]));
        KernelTiling at_max;
        AscendC::GetLayerNormNDTilingInfo(shape, max_value, type_size, reuse,
                                          at_max);
        EXPECT_EQ(at_max.loopRound, 1u);
        EXPECT_EQ(at_max.inputTailSize, 0u);
        EXPECT_EQ(at_max.oneTmpSize, bsh);
      }
    }
  }
}

// ---------------------------------------------------------------------------
// The host class: 104 saved bytes, sizeof ≥ 512, nested in a program's own
// tiling data at an 8-byte aligned offset, read back word by word by the
// equivalent kernel struct.
}  // namespace

namespace optiling {
// clang-format off
BEGIN_TILING_DATA_DEF(LayerNormUserTiling)
  TILING_DATA_FIELD_DEF(uint32_t, totalLength);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, layernormTiling);
  TILING_DATA_FIELD_DEF(uint32_t, tileNum);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LayerNormUserOp, LayerNormUserTiling)
// clang-format on
}  // namespace optiling

namespace {

// What the kernel side of such a program declares.
struct LayerNormUserKernelTiling {
  uint32_t totalLength;
  alignas(8) LayerNormTiling layernormTiling;
  uint32_t tileNum;
};

TEST(LayerNormHostClass, SizesAndSaveToBuffer) {
  HostTiling host;
  EXPECT_EQ(host.GetDataSize(), 104u);
  EXPECT_GE(sizeof(HostTiling), 512u);
  EXPECT_EQ(sizeof(KernelTiling), 104u);
  KernelTiling zero;
  EXPECT_TRUE(AllZero(SavedOf(zero))) << "every kernel field defaults to 0";
  EXPECT_TRUE(AllZero(SavedOf(host))) << "every host field starts at 0";
}

TEST(LayerNormHostClass, NestedInAProgramsTilingData) {
  optiling::LayerNormUserTiling user;
  user.set_totalLength(12345);
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, kFloat,
                                    false, user.layernormTiling);
  user.set_tileNum(7);
  ASSERT_EQ(user.GetDataSize(), sizeof(LayerNormUserKernelTiling));
  std::vector<uint8_t> bytes(sizeof(optiling::LayerNormUserTiling), 0xCD);
  user.SaveToBuffer(bytes.data(), bytes.size());
  LayerNormUserKernelTiling kernel;
  std::memcpy(&kernel, bytes.data(), sizeof kernel);  // as programs do
  EXPECT_EQ(kernel.totalLength, 12345u);
  EXPECT_EQ(kernel.tileNum, 7u);
  KernelTiling expected;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, kFloat,
                                    false, expected);
  EXPECT_EQ(std::memcmp(&kernel.layernormTiling, &expected, sizeof expected),
            0);
  EXPECT_EQ(kernel.layernormTiling.oneTmpSize, 512u);
  EXPECT_EQ(kernel.layernormTiling.lastDimValueBack, 0.0625f);
}

TEST(LayerNormTilingFields, NamesAndValuesInStructOrder) {
  KernelTiling t;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, kFloat,
                                    false, t);
  const auto fields = normgrad_ascendc::LayerNormTilingFields(t);
  const Saved saved = SavedOf(t);
  using Type = normgrad_ascendc::TilingField::Type;
  ASSERT_EQ(fields.size(), 26u);
  for (size_t i = 0; i < 25; ++i) {
    EXPECT_STREQ(fields[i].name, kFieldNames[i]);
    EXPECT_EQ(fields[i].type, Type::kUint32) << kFieldNames[i];
    EXPECT_EQ(fields[i].value, saved.words[i]) << kFieldNames[i];
  }
  // The 26th, the float 1/H = 1/16, listed as a float.
  EXPECT_STREQ(fields[25].name, "lastDimValueBack");
  EXPECT_EQ(fields[25].type, Type::kFloat);
  EXPECT_EQ(fields[25].float_value, 0.0625f);
}

// ---------------------------------------------------------------------------
// Bad input to the tiling function: one stderr line naming the function and
// the value, and the whole struct zeroed even over an earlier valid tiling.
struct BadCase {
  const char* name;
  ge::Shape shape;
  uint32_t type_size;
  uint32_t stack_bytes;
  std::vector<std::string> must_contain;
};

// gtest prints a row by its name.
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.name; }

const BadCase kBadTilingCases[] = {
    {"typeSize0", ge::Shape({2, 32, 16, 16}), 0, 6144, {"typeSize 0"}},
    {"typeSize8", ge::Shape({2, 32, 16, 16}), 8, 6144, {"typeSize 8"}},
    {"rank3", ge::Shape({2, 32, 16}), kFloat, 6144, {"[2, 32, 16]", "3 dim"}},
    {"rank5", ge::Shape({1, 2, 32, 16, 16}), kHalf, 6144, {"5 dim"}},
    {"B_zero", ge::Shape({0, 32, 16, 16}), kFloat, 6144, {"B = 0"}},
    {"H_zero", ge::Shape({2, 32, 0, 0}), kFloat, 6144, {"H = 0"}},
    {"S_negative", ge::Shape({2, -1, 16, 16}), kHalf, 6144, {"S = -1"}},
    {"originalH_differs",
     ge::Shape({2, 32, 16, 12}),
     kFloat,
     6144,
     {"originalH = 12", "H = 16", "padding columns would change the mean"}},
    {"originalH_zero",
     ge::Shape({2, 32, 16, 0}),
     kFloat,
     6144,
     {"originalH = 0"}},
    {"BS_overflow",
     ge::Shape({65536, 65536, 1, 1}),
     kFloat,
     6144,
     {"B*S = 4294967296"}},
    {"BSH_overflow",
     ge::Shape({1, 65536, 65536, 65536}),
     kFloat,
     6144,
     {"B*S*H = 4294967296"}},
    // B·S = 2^32 − 1 fits, but roundup(B·S, 8) = 2^32 does not.
    {"meanSize_overflow",
     ge::Shape({65535, 65537, 1, 1}),
     kFloat,
     6144,
     {"B*S = 4294967295", "4294967296", "roundup(B*S, 8)"}},
    // float [2,32,16,16], 180 bytes: 45 floats, 45/3 = 15 < H = 16 (min 704).
    {"float_one_rounds_to_zero",
     ge::Shape({2, 32, 16, 16}),
     kFloat,
     180,
     {"stackBufferSize 180 bytes (45 floats)", "15 floats for each of the 3",
      "H = 16", "704 bytes"}},
    {"float_scratch_zero",
     ge::Shape({2, 32, 16, 16}),
     kFloat,
     0,
     {"stackBufferSize 0 bytes (0 floats)"}},
    // half [2,32,16,16], 256 bytes: 64 floats < mvTotal 2·64 = 128.
    {"half_below_mean_variance",
     ge::Shape({2, 32, 16, 16}),
     kHalf,
     256,
     {"stackBufferSize 256 bytes (64 floats)", "2*roundup(B*S, 8) = 128",
      "704 bytes"}},
    // half, exactly mvTotal: 512 bytes = 128 floats leave 0 per buffer.
    {"half_only_mean_variance",
     ge::Shape({2, 32, 16, 16}),
     kHalf,
     512,
     {"leaves 0 floats for each of the 3 chunk buffers",
      "(tmpBufSize - 128) / 3"}},
};

class LayerNormBadTiling : public testing::TestWithParam<BadCase> {};

TEST_P(LayerNormBadTiling, KernelOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  KernelTiling t = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(c.shape, c.stack_bytes, c.type_size, false,
                                    t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(SavedOf(t)));
}

TEST_P(LayerNormBadTiling, HostOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  HostTiling t;
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({2, 32, 16, 16}), 6144, kFloat,
                                    false, t);
  ASSERT_NE(t.get_oneTmpSize(), 0u);
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(c.shape, c.stack_bytes, c.type_size, false,
                                    t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(SavedOf(t)));
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormBadTiling,
                         testing::ValuesIn(kBadTilingCases), CaseName<BadCase>);

// Bad input to the scratch-size query: one message, max = min = 0.
const BadCase kBadTmpSizeCases[] = {
    {"typeSize3", ge::Shape({2, 32, 16, 16}), 3, 0, {"typeSize 3"}},
    {"rank3", ge::Shape({2, 32, 16}), kFloat, 0, {"3 dim"}},
    {"H_zero", ge::Shape({2, 32, 0, 0}), kHalf, 0, {"H = 0"}},
    {"originalH_differs",
     ge::Shape({2, 32, 16, 12}),
     kHalf,
     0,
     {"originalH = 12", "H = 16"}},
    {"BSH_overflow",
     ge::Shape({1, 65536, 65536, 65536}),
     kHalf,
     0,
     {"B*S*H = 4294967296"}},
    // H = 2^29 without reuse: 3·2^31 + 64 does not fit in 32 bits.
    {"min_over_u32",
     ge::Shape({1, 1, 536870912, 536870912}),
     kFloat,
     0,
     {"3*roundup32(4*H) + 2*roundup32(4*B*S) = 6442451008"}},
};

class LayerNormBadTmpSize : public testing::TestWithParam<BadCase> {};

TEST_P(LayerNormBadTmpSize, MessageAndZeroes) {
  const BadCase& c = GetParam();
  uint32_t max_value = 123;
  uint32_t min_value = 456;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormMaxMinTmpSize(c.shape, c.type_size, false, max_value,
                                     min_value);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormMaxMinTmpSize", c.must_contain);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

INSTANTIATE_TEST_SUITE_P(Spec, LayerNormBadTmpSize,
                         testing::ValuesIn(kBadTmpSizeCases),
                         CaseName<BadCase>);

}  // namespace

// layernormgradbeta_tiling_test.cc — GetLayerNormGradBetaMaxMinTmpSize and
// both overloads of GetLayerNormGradBetaNDTilingInfo against the documented
// rules: every expected number is a literal derived by hand from those rules
// in the comment beside it; nothing here calls src/ to
// compute an expectation.
//
// To extend:
//  - a tiling: add a row to kTilingCases (name, dims, typeSize, scratch bytes,
//    the 20 fields in struct order) with its derivation; every row is checked
//    through both overloads, with isReuseSource false and true.
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

using KernelTiling = AscendC::tiling::LayerNormGradBetaTiling;
using HostTiling = optiling::LayerNormGradBetaTiling;
using Words = std::array<uint32_t, 20>;
using tiling_test::CaseName;
using tiling_test::ExpectOneMessage;
using tiling_test::Garbage;

constexpr uint32_t kHalf = 2;
constexpr uint32_t kFloat = 4;
constexpr uint32_t kU32Max = 4294967295u;

constexpr const char* kFieldNames[20] = {"stackBufferSize",
                                         "bLength",
                                         "sLength",
                                         "hLength",
                                         "originalHLength",
                                         "bshLength",
                                         "bsLength",
                                         "oneCalSize",
                                         "numberOfTmpBuf",
                                         "loopRound",
                                         "inputTailSize",
                                         "inputTailPos",
                                         "bsTailSize",
                                         "bshCurLength",
                                         "bsCurLength",
                                         "gammaTempTensorPos",
                                         "betaTempTensorPos",
                                         "inputDyTmpTensorPos",
                                         "resForGammaTmpTensorPos",
                                         "reserved"};

// The 80 bytes of a kernel struct as its 20 words (independent of src/).
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

// A host tiling holding the valid tiling of [2,4,16,16] float, min scratch.
HostTiling ValidHost() {
  HostTiling t;
  AscendC::GetLayerNormGradBetaNDTilingInfo(ge::Shape({2, 4, 16, 16}), 128,
                                            kFloat, false, t);
  return t;
}

bool AllZero(const Words& w) {
  return std::all_of(w.begin(), w.end(), [](uint32_t v) { return v == 0; });
}

// ---------------------------------------------------------------------------
// Tilings. Field order:
//  sb  B  S  H  Ho  bsh  bs  one  nbuf  loop  tail  tailPos  bsTail  bshCur
//  bsCur  gPos  bPos  dyPos  resPos  reserved
// Rules: sb = bytes/4; float: one = sb; half: one = (sb − 2H)/2; then
// one = ⌊one/H⌋·H, clamped to bsh; loop = bsh/one; tail = bsh%one;
// tailPos = bsh − tail; bsTail = tail/H; bshCur = one; bsCur = one/H;
// positions: float all 0, half 0, H, 2H, 2H + one.
struct TilingCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  uint32_t stack_bytes;
  Words expected;
};

// gtest prints a row by its name.
void PrintTo(const TilingCase& c, std::ostream* os) { *os << c.name; }

const TilingCase kTilingCases[] = {
    // [2,4,16,16]: bs = 8, bsh = 128. float min 8·16 = 128 B, max 8·128 =
    // 1024 B; half min 16·16 = 256 B, max 16·128 = 2048 B.
    // float min: sb 32, one 32 (2 rows), loop 128/32 = 4, no tail.
    {"A_float_min", {2, 4, 16, 16}, kFloat, 128, {32, 2, 4, 16, 16,  128, 8,
                                                  32, 1, 4, 0,  128, 0,   32,
                                                  2,  0, 0, 0,  0,   0}},
    // float between: sb 200/4 = 50, one ⌊50/16⌋·16 = 48 (3 rows), loop
    // 128/48 = 2, tail 128 − 96 = 32, tailPos 96, bsTail 2.
    {"A_float_between", {2, 4, 16, 16}, kFloat, 200, {50, 2, 4, 16, 16, 128, 8,
                                                      48, 1, 2, 32, 96, 2,   48,
                                                      3,  0, 0, 0,  0,  0}},
    // float max: sb 256 ≥ bsh → one 128, one chunk.
    {"A_float_max", {2, 4, 16, 16}, kFloat, 1024, {256, 2, 4, 16, 16,  128, 8,
                                                   128, 1, 1, 0,  128, 0,   128,
                                                   8,   0, 0, 0,  0,   0}},
    // half min: sb 64, one (64 − 32)/2 = 16 (1 row), loop 8; positions 0, 16,
    // 32, 32 + 16 = 48.
    {"A_half_min", {2, 4, 16, 16}, kHalf, 256, {64, 2, 4,  16, 16,  128, 8,
                                                16, 2, 8,  0,  128, 0,   16,
                                                1,  0, 16, 32, 48,  0}},
    // half between: sb 600/4 = 150, one (150 − 32)/2 = 59 → 48, loop 2, tail
    // 32 at 96, bsTail 2; res at 32 + 48 = 80.
    {"A_half_between", {2, 4, 16, 16}, kHalf, 600, {150, 2, 4,  16, 16, 128, 8,
                                                    48,  2, 2,  32, 96, 2,   48,
                                                    3,   0, 16, 32, 80, 0}},
    // half max: sb 512, one (512 − 32)/2 = 240 → 240 ≥ 128 → 128; res at
    // 32 + 128 = 160.
    {"A_half_max", {2, 4, 16, 16}, kHalf, 2048, {512, 2, 4,  16, 16,  128, 8,
                                                 128, 2, 1,  0,  128, 0,   128,
                                                 8,   0, 16, 32, 160, 0}},

    // [1,7,8,8]: bs = 7, bsh = 56. Scratch for 3 rows (one = 24): float 100 B
    // → sb 25 → one 24; loop 56/24 = 2, tail 8 (one row) at 48.
    {"B_float_3rows_tail", {1, 7, 8, 8}, kFloat, 100, {25, 1, 7, 8, 8,  56, 7,
                                                       24, 1, 2, 8, 48, 1,  24,
                                                       3,  0, 0, 0, 0,  0}},
    // half 256 B → sb 64, one (64 − 16)/2 = 24; same chunks; res at 16 + 24.
    {"B_half_3rows_tail", {1, 7, 8, 8}, kHalf, 256, {64, 1, 7, 8,  8,  56, 7,
                                                     24, 2, 2, 8,  48, 1,  24,
                                                     3,  0, 8, 16, 40, 0}},
    // float min 8·8 = 64 B: sb 16, one 16 (2 rows), loop 3, tail 8 at 48.
    {"B_float_min_tail", {1, 7, 8, 8}, kFloat, 64, {16, 1, 7, 8, 8,  56, 7,
                                                    16, 1, 3, 8, 48, 1,  16,
                                                    2,  0, 0, 0, 0,  0}},
    // half min 16·8 = 128 B: sb 32, one (32 − 16)/2 = 8 (1 row), loop 7.
    {"B_half_min", {1, 7, 8, 8}, kHalf, 128, {32, 1, 7, 8,  8,  56, 7,
                                              8,  2, 7, 0,  56, 0,  8,
                                              1,  0, 8, 16, 24, 0}},

    // [3,5,32,32]: bs = 15, bsh = 480. float min 256 B: sb 64, one 64,
    // loop 480/64 = 7, tail 32 at 448, bsTail 1.
    {"C_float_min", {3, 5, 32, 32}, kFloat, 256, {64, 3, 5, 32, 32,  480, 15,
                                                  64, 1, 7, 32, 448, 1,   64,
                                                  2,  0, 0, 0,  0,   0}},
    // 259 B is not a multiple of 4: sb = ⌊259/4⌋ = 64, same tiling.
    {"C_float_unaligned_bytes",
     {3, 5, 32, 32},
     kFloat,
     259,
     {64, 3, 5, 32, 32, 480, 15, 64, 1, 7, 32, 448, 1, 64, 2, 0, 0, 0, 0, 0}},
    // half min 512 B: sb 128, one (128 − 64)/2 = 32, loop 15; res at 96.
    {"C_half_min", {3, 5, 32, 32}, kHalf, 512, {128, 3, 5,  32, 32,  480, 15,
                                                32,  2, 15, 0,  480, 0,   32,
                                                1,   0, 32, 64, 96,  0}},
    // float far above max (1 MiB): sb 262144, one clamped to 480.
    {"C_float_above_max",
     {3, 5, 32, 32},
     kFloat,
     1048576,
     {262144, 3,   5, 32,  32, 480, 15, 480, 1, 1,
      0,      480, 0, 480, 15, 0,   0,  0,   0, 0}},
    // half max 16·480 = 7680 B: sb 1920, one (1920 − 64)/2 = 928 → 928 → 480;
    // res at 64 + 480 = 544.
    {"C_half_max", {3, 5, 32, 32}, kHalf, 7680, {1920, 3, 5,  32, 32,  480, 15,
                                                 480,  2, 1,  0,  480, 0,   480,
                                                 15,   0, 32, 64, 544, 0}},

    // [1,1,16,16]: one row, bsh 16. float min 128 B: sb 32, one 32 → 16.
    {"D_float_one_row", {1, 1, 16, 16}, kFloat, 128, {32, 1, 1, 16, 16, 16, 1,
                                                      16, 1, 1, 0,  16, 0,  16,
                                                      1,  0, 0, 0,  0,  0}},
    // half min 256 B: sb 64, one (64 − 32)/2 = 16; res at 32 + 16 = 48.
    {"D_half_one_row", {1, 1, 16, 16}, kHalf, 256, {64, 1, 1,  16, 16, 16, 1,
                                                    16, 2, 1,  0,  16, 0,  16,
                                                    1,  0, 16, 32, 48, 0}},

    // [2,3,24,24] (H need not be aligned for the tiling): bs 6, bsh 144.
    // float min 192 B: sb 48, one 48, loop 3.
    {"E_float_min", {2, 3, 24, 24}, kFloat, 192, {48, 2, 3, 24, 24,  144, 6,
                                                  48, 1, 3, 0,  144, 0,   48,
                                                  2,  0, 0, 0,  0,   0}},
    // float 300 B: sb 75, one ⌊75/24⌋·24 = 72, loop 2, no tail.
    {"E_float_between", {2, 3, 24, 24}, kFloat, 300, {75,  2,   3,  24, 24,
                                                      144, 6,   72, 1,  2,
                                                      0,   144, 0,  72, 3,
                                                      0,   0,   0,  0,  0}},
    // half 500 B: sb 125, one (125 − 48)/2 = 38 → 24, loop 6; res at 72.
    {"E_half_between", {2, 3, 24, 24}, kHalf, 500, {125, 2,   3,  24, 24,
                                                    144, 6,   24, 2,  6,
                                                    0,   144, 0,  24, 1,
                                                    0,   24,  48, 72, 0}},

    // [4,2048,1024,1024]: bs 8192, bsh 8388608 = 2^23. With 64 KiB:
    // float sb 16384, one 16384 (16 rows), loop 2^23/2^14 = 512.
    {"F_float_64KiB",
     {4, 2048, 1024, 1024},
     kFloat,
     65536,
     {16384, 4,       2048, 1024,  1024, 8388608, 8192, 16384, 1, 512,
      0,     8388608, 0,    16384, 16,   0,       0,    0,     0, 0}},
    // half sb 16384, one (16384 − 2048)/2 = 7168 (7 rows); loop ⌊8388608/7168⌋
    // = 1170, 1170·7168 = 8386560, tail 2048 at 8386560, bsTail 2; res at
    // 2048 + 7168 = 9216.
    {"F_half_64KiB",
     {4, 2048, 1024, 1024},
     kHalf,
     65536,
     {16384, 4,       2048, 1024, 1024, 8388608, 8192, 7168, 2,    1170,
      2048,  8386560, 2,    7168, 7,    0,       1024, 2048, 9216, 0}},
    // half max 16·2^23 = 134217728 B: sb 33554432, one (33554432 − 2048)/2 =
    // 16776192 → clamped to 8388608; res at 2048 + 8388608 = 8390656.
    {"F_half_max",
     {4, 2048, 1024, 1024},
     kHalf,
     134217728,
     {33554432, 4, 2048,    1024, 1024, 8388608, 8192, 8388608, 2, 1, 0,
      8388608,  0, 8388608, 8192, 0,    1024,    2048, 8390656, 0}},

    // [1,65536,4096,4096]: bs 65536, bsh 2^28 = 268435456; the largest
    // scratch 2^32 − 1 B: sb 1073741823.
    // float: one ⌊1073741823/4096⌋·4096 = 1073737728 → clamped to 2^28.
    {"G_float_u32max_scratch",
     {1, 65536, 4096, 4096},
     kFloat,
     kU32Max,
     {1073741823, 1, 65536, 4096, 4096,      268435456, 65536,
      268435456,  1, 1,     0,    268435456, 0,         268435456,
      65536,      0, 0,     0,    0,         0}},
    // half: one (1073741823 − 8192)/2 = 536866815 → 536862720 → clamped to
    // 2^28; res at 8192 + 268435456 = 268443648.
    {"G_half_u32max_scratch",
     {1, 65536, 4096, 4096},
     kHalf,
     kU32Max,
     {1073741823, 1, 65536, 4096, 4096,      268435456, 65536,
      268435456,  2, 1,     0,    268435456, 0,         268435456,
      65536,      0, 4096,  8192, 268443648, 0}},
};

class TilingTable : public testing::TestWithParam<TilingCase> {};

void ExpectFields(const Words& got, const Words& expected,
                  const std::string& what) {
  for (size_t i = 0; i < 20; ++i) {
    EXPECT_EQ(got[i], expected[i]) << what << ": field " << kFieldNames[i];
  }
}

TEST_P(TilingTable, BothOverloadsGiveTheExpectedFields) {
  const TilingCase& c = GetParam();
  const ge::Shape shape(c.dims);
  for (bool reuse : {false, true}) {  // isReuseSource never changes a tiling
    KernelTiling kernel = Garbage<KernelTiling>();
    HostTiling host;
    testing::internal::CaptureStderr();
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, c.stack_bytes, c.type_size,
                                              reuse, kernel);
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, c.stack_bytes, c.type_size,
                                              reuse, host);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "")
        << "a valid tiling prints nothing";
    const std::string tag =
        reuse ? "isReuseSource=true" : "isReuseSource=false";
    ExpectFields(WordsOf(kernel), c.expected, "kernel overload, " + tag);
    ExpectFields(WordsOf(host), c.expected, "host overload, " + tag);
    // The host class's saved bytes are the kernel struct's bytes.
    KernelTiling saved;
    host.SaveToBuffer(&saved, sizeof(saved));
    EXPECT_EQ(std::memcmp(&saved, &kernel, sizeof(saved)), 0) << tag;
  }
}

INSTANTIATE_TEST_SUITE_P(Spec, TilingTable, testing::ValuesIn(kTilingCases),
                         CaseName<TilingCase>);

// ---------------------------------------------------------------------------
// Scratch sizes: half max 16·B·S·H, min 16·H; float max 8·B·S·H, min 8·H;
// max saturates at 2^32 − 1.
struct TmpSizeCase {
  const char* name;
  std::vector<int64_t> dims;
  uint32_t type_size;
  uint32_t max_value;
  uint32_t min_value;
};

// gtest prints a row by its name.
void PrintTo(const TmpSizeCase& c, std::ostream* os) { *os << c.name; }

const TmpSizeCase kTmpSizeCases[] = {
    {"A_float", {2, 4, 16, 16}, kFloat, 1024, 128},  // 8·128, 8·16
    {"A_half", {2, 4, 16, 16}, kHalf, 2048, 256},    // 16·128, 16·16
    {"B_float", {1, 7, 8, 8}, kFloat, 448, 64},      // 8·56, 8·8
    {"B_half", {1, 7, 8, 8}, kHalf, 896, 128},       // 16·56, 16·8
    {"C_float", {3, 5, 32, 32}, kFloat, 3840, 256},  // 8·480, 8·32
    {"C_half", {3, 5, 32, 32}, kHalf, 7680, 512},    // 16·480, 16·32
    // bsh = 2^23: 8·2^23 = 67108864, 8·1024; 16·2^23, 16·1024.
    {"F_float", {4, 2048, 1024, 1024}, kFloat, 67108864, 8192},
    {"F_half", {4, 2048, 1024, 1024}, kHalf, 134217728, 16384},
    // bsh = 2^28: float 8·2^28 = 2^31 fits; half 16·2^28 = 2^32 saturates.
    {"G_float", {1, 65536, 4096, 4096}, kFloat, 2147483648u, 32768},
    {"G_half_saturates", {1, 65536, 4096, 4096}, kHalf, kU32Max, 65536},
    // One row under: bsh = 65535·4096 = 268431360, 16·bsh = 4294901760 fits.
    {"G_half_just_fits", {1, 65535, 4096, 4096}, kHalf, 4294901760u, 65536},
    // bsh = 65535·65537 = 2^32 − 1 (largest allowed): both saturate.
    {"bsh_u32max_float", {65535, 65537, 1, 1}, kFloat, kU32Max, 8},
    {"bsh_u32max_half", {65535, 65537, 1, 1}, kHalf, kU32Max, 16},
    // H = 2^28 − 1: half min 16·H = 4294967280 still fits (and max = min).
    {"H_largest_half",
     {1, 1, 268435455, 268435455},
     kHalf,
     4294967280u,
     4294967280u},
    // H = 2^28: float min 8·2^28 = 2^31 fits (half does not: see bad cases).
    {"H_2p28_float",
     {1, 1, 268435456, 268435456},
     kFloat,
     2147483648u,
     2147483648u},
};

class TmpSizeTable : public testing::TestWithParam<TmpSizeCase> {};

TEST_P(TmpSizeTable, MaxAndMin) {
  const TmpSizeCase& c = GetParam();
  for (bool reuse : {false, true}) {  // isReuseSource is ignored
    uint32_t max_value = 1;
    uint32_t min_value = 1;
    testing::internal::CaptureStderr();
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(ge::Shape(c.dims), c.type_size,
                                               reuse, max_value, min_value);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(max_value, c.max_value) << "isReuseSource=" << reuse;
    EXPECT_EQ(min_value, c.min_value) << "isReuseSource=" << reuse;
  }
}

INSTANTIATE_TEST_SUITE_P(Spec, TmpSizeTable, testing::ValuesIn(kTmpSizeCases),
                         CaseName<TmpSizeCase>);

// ---------------------------------------------------------------------------
// The documented consequences: float at min scratch → 2 rows per chunk;
// half at min → 1 row; at max → one chunk (loopRound 1, no tail).
TEST(TilingConsequences, MinAndMaxScratch) {
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 4, 16, 16}, {1, 7, 8, 8}, {3, 5, 32, 32}, {4, 2048, 1024, 1024}};
  for (const auto& dims : shapes) {
    const ge::Shape shape(dims);
    const uint32_t bsh = static_cast<uint32_t>(dims[0] * dims[1] * dims[2]);
    for (uint32_t type_size : {kFloat, kHalf}) {
      SCOPED_TRACE(testing::Message()
                   << "shape " << testing::PrintToString(dims) << " typeSize "
                   << type_size);
      uint32_t max_value = 0;
      uint32_t min_value = 0;
      AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, type_size, false,
                                                 max_value, min_value);
      KernelTiling at_min;
      AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_value, type_size,
                                                false, at_min);
      EXPECT_EQ(at_min.bsCurLength, type_size == kFloat ? 2u : 1u);
      KernelTiling at_max;
      AscendC::GetLayerNormGradBetaNDTilingInfo(shape, max_value, type_size,
                                                false, at_max);
      EXPECT_EQ(at_max.loopRound, 1u);
      EXPECT_EQ(at_max.inputTailSize, 0u);
      EXPECT_EQ(at_max.oneCalSize, bsh);
      // One byte (rounded: 4 bytes, one float) less than min is too little.
      KernelTiling below_min;
      testing::internal::CaptureStderr();
      AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_value - 1, type_size,
                                                false, below_min);
      EXPECT_NE(testing::internal::GetCapturedStderr(), "");
      EXPECT_EQ(below_min.oneCalSize, 0u);
    }
  }
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
    {"typeSize0", ge::Shape({2, 4, 16, 16}), 0, 1024, {"typeSize 0"}},
    {"typeSize1", ge::Shape({2, 4, 16, 16}), 1, 1024, {"typeSize 1"}},
    {"typeSize3", ge::Shape({2, 4, 16, 16}), 3, 1024, {"typeSize 3"}},
    {"typeSize8", ge::Shape({2, 4, 16, 16}), 8, 1024, {"typeSize 8"}},
    {"rank0", ge::Shape(), kFloat, 1024, {"0 dimensions"}},
    {"rank3", ge::Shape({2, 4, 16}), kFloat, 1024, {"[2, 4, 16]", "3 dim"}},
    {"rank5", ge::Shape({1, 2, 4, 16, 16}), kHalf, 1024, {"5 dim"}},
    {"B_zero", ge::Shape({0, 4, 16, 16}), kFloat, 1024, {"B = 0"}},
    {"S_zero", ge::Shape({2, 0, 16, 16}), kHalf, 1024, {"S = 0"}},
    {"H_zero", ge::Shape({2, 4, 0, 0}), kFloat, 1024, {"H = 0"}},
    {"originalH_zero",
     ge::Shape({2, 4, 16, 0}),
     kFloat,
     1024,
     {"originalH = 0"}},
    {"S_negative", ge::Shape({2, -1, 16, 16}), kFloat, 1024, {"S = -1"}},
    {"B_over_u32",
     ge::Shape({4294967296, 1, 16, 16}),
     kFloat,
     1024,
     {"B = 4294967296"}},
    {"originalH_differs",
     ge::Shape({2, 4, 32, 30}),
     kFloat,
     1024,
     {"originalH = 30", "H = 32"}},
    // 65536·65536 = 2^32 = 4294967296 > 2^32 − 1.
    {"BS_overflow",
     ge::Shape({65536, 65536, 1, 1}),
     kFloat,
     1024,
     {"B*S = 4294967296"}},
    // B·S = 65536 fits; ·65536 = 2^32 does not.
    {"BSH_overflow",
     ge::Shape({1, 65536, 65536, 65536}),
     kFloat,
     1024,
     {"B*S*H = 4294967296"}},
    // [2,4,16,16] float: 124 B → 31 floats < 2·16 = 32.
    {"float_scratch_below_2H",
     ge::Shape({2, 4, 16, 16}),
     kFloat,
     124,
     {"stackBufferSize 124 bytes (31 floats)", "2*H = 32", "128 bytes"}},
    {"float_scratch_zero",
     ge::Shape({2, 4, 16, 16}),
     kFloat,
     0,
     {"stackBufferSize 0 bytes"}},
    // half: 124 B → 31 floats < 32.
    {"half_scratch_below_2H",
     ge::Shape({2, 4, 16, 16}),
     kHalf,
     124,
     {"stackBufferSize 124 bytes (31 floats)", "2*H = 32", "256 bytes"}},
    // half [2,3,24,24]: 383 B → 95 floats ≥ 48 but (95 − 48)/2 = 23 < H = 24.
    {"half_one_rounds_to_zero",
     ge::Shape({2, 3, 24, 24}),
     kHalf,
     383,
     {"stackBufferSize 383 bytes (95 floats)", "= 23", "H = 24", "384 bytes"}},
    // H = 2^32 − 1: 2·H = 8589934590 must not wrap to a small number.
    {"H_u32max_2H_no_wrap",
     ge::Shape({1, 1, 4294967295, 4294967295}),
     kFloat,
     kU32Max,
     {"2*H = 8589934590"}},
};

class BadTiling : public testing::TestWithParam<BadCase> {};

TEST_P(BadTiling, KernelOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  KernelTiling t = Garbage<KernelTiling>();
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradBetaNDTilingInfo(c.shape, c.stack_bytes, c.type_size,
                                            false, t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradBetaNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(WordsOf(t)));
}

TEST_P(BadTiling, HostOverloadMessageAndZeroedStruct) {
  const BadCase& c = GetParam();
  HostTiling t = ValidHost();
  t.set_reserved(7);  // every field non-zero or not, all must become 0
  ASSERT_NE(t.get_oneCalSize(), 0u);
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradBetaNDTilingInfo(c.shape, c.stack_bytes, c.type_size,
                                            true, t);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradBetaNDTilingInfo", c.must_contain);
  EXPECT_TRUE(AllZero(WordsOf(t)));
}

INSTANTIATE_TEST_SUITE_P(Spec, BadTiling, testing::ValuesIn(kBadTilingCases),
                         CaseName<BadCase>);

// Bad input to the scratch-size query: one message, max = min = 0. Scratch
// size rules do not apply (the argument does not exist).
const BadCase kBadTmpSizeCases[] = {
    {"typeSize3", ge::Shape({2, 4, 16, 16}), 3, 0, {"typeSize 3"}},
    {"rank3", ge::Shape({2, 4, 16}), kFloat, 0, {"3 dim"}},
    {"H_zero", ge::Shape({2, 4, 0, 0}), kHalf, 0, {"H = 0"}},
    {"S_negative", ge::Shape({2, -5, 16, 16}), kFloat, 0, {"S = -5"}},
    {"originalH_differs",
     ge::Shape({2, 4, 32, 30}),
     kFloat,
     0,
     {"originalH = 30", "H = 32"}},
    {"BSH_overflow",
     ge::Shape({1, 65536, 65536, 65536}),
     kHalf,
     0,
     {"B*S*H = 4294967296"}},
    // half min 16·2^28 = 2^32 does not fit in 32 bits: no scratch is enough.
    {"half_min_over_u32",
     ge::Shape({1, 1, 268435456, 268435456}),
     kHalf,
     0,
     {"16*H = 4294967296"}},
};

class BadTmpSize : public testing::TestWithParam<BadCase> {};

TEST_P(BadTmpSize, MessageAndZeroes) {
  const BadCase& c = GetParam();
  uint32_t max_value = 123;
  uint32_t min_value = 456;
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(c.shape, c.type_size, false,
                                             max_value, min_value);
  ExpectOneMessage(testing::internal::GetCapturedStderr(),
                   "GetLayerNormGradBetaMaxMinTmpSize", c.must_contain);
  EXPECT_EQ(max_value, 0u);
  EXPECT_EQ(min_value, 0u);
}

INSTANTIATE_TEST_SUITE_P(Spec, BadTmpSize, testing::ValuesIn(kBadTmpSizeCases),
                         CaseName<BadCase>);

}  // namespace

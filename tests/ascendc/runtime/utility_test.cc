// utility_test.cc — the utilities' long tail (docs/runtime.md, "Scalar
// functions", "Numeric limits", "System queries", "Debugging"): the scalar
// bit functions and bfloat16_t casts, NumericLimits, the system queries and
// special registers, Async, the platform's workspace and bandwidth queries,
// DataCachePreload, the sync odds, REGISTER_NONE_TILING, and the debugging
// output (asc_dump, time stamps, profiling marks and traces, ASC_CPU_LOG,
// LocalTensor::Print/ToFile).
//
// This file is built with ASCENDC_TRACE_ON and ASCENDC_TIME_STAMP_ON, so the
// switched output is on; every reference is computed here from the pages.
#define ASCENDC_TRACE_ON
#define ASCENDC_TIME_STAMP_ON

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/platform/platform_ascendc.h"
#include "utils/debug/asc_dump.h"
#include "utils/log/asc_cpu_log.h"

// ---- Tiling template programming: the parameters and combinations a
// program's tiling-key header declares (the guide's add example) ----------

ASCENDC_TPL_ARGS_DECL(
    AddCustomTemplate,
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT),
    ASCENDC_TPL_DATATYPE_DECL(D_T_Y, C_DT_FLOAT16, C_DT_FLOAT),
    ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_8_BW, ASCENDC_TPL_UI_MIX, 2, 0,
                          2, 3, 5, 10, 12, 13, 9, 8),
    ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1), );
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT16),
                         ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_FLOAT16),
                         ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1,
                                              8),
                         ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT),
                         ASCENDC_TPL_DATATYPE_SEL(D_T_Y, C_DT_FLOAT),
                         ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_RANGE, 1,
                                              3, 5),
                         ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                         ASCENDC_TPL_TILING_STRUCT_SEL(SomeTiling)), );

// The kernel template of those parameters: it finds the launch's key to be
// the one its own parameters encode, and reports them.
template <uint32_t D_T_X, uint32_t D_T_Y, uint32_t TILE_NUM, uint32_t IS_SPLIT>
void TemplateKernel(GM_ADDR out) {
  auto* slots = reinterpret_cast<uint64_t*>(out);
  slots[0] =
      TILING_KEY_IS(GET_TPL_TILING_KEY(D_T_X, D_T_Y, TILE_NUM, IS_SPLIT));
  slots[1] = TILE_NUM;
  if constexpr (IS_SPLIT == 1) slots[2] = 1;
}

// ---- REGISTER_NONE_TILING (a kernel at namespace scope, as programs write
// them) --------------------------------------------------------------------

struct NoneTilingStruct {
  uint32_t length;
  float scale;
};

void NoneTilingKernel(GM_ADDR out, GM_ADDR tiling) {
  REGISTER_NONE_TILING;
  GET_TILING_DATA_WITH_STRUCT(NoneTilingStruct, data, tiling);
  reinterpret_cast<float*>(out)[0] = data.scale * data.length;
}

namespace {

using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::LaunchKernel;
using normgrad_ascendc::Profile;

// A few thousand 64-bit values: every single bit and bit run, and a
// deterministic pseudo-random spread.
std::vector<uint64_t> SweepValues() {
  std::vector<uint64_t> v = {0, ~uint64_t{0}, 0x8000000000000000ULL,
                             0x7FFFFFFFFFFFFFFFULL};
  for (int i = 0; i < 64; ++i) {
    v.push_back(uint64_t{1} << i);
    v.push_back(~(uint64_t{1} << i));
    v.push_back((uint64_t{1} << i) - 1);
    v.push_back(~((uint64_t{1} << i) - 1));
  }
  uint64_t x = 0x9E3779B97F4A7C15ULL;
  for (int i = 0; i < 4000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    v.push_back(x);
    v.push_back(x >> (i % 64));
  }
  return v;
}

uint64_t Bit(uint64_t v, int i) { return (v >> i) & 1; }

// ---- Scalar bit functions ---------------------------------------------------

static_assert(AscendC::GetBitCount<1>(0xFFFF) == 16);
static_assert(AscendC::CountLeadingZero(0) == 64);
static_assert(AscendC::GetSFFValue<1>(0x1000000000000100ULL) == 8);

TEST(ScalarBits, EveryFunctionMatchesABitByBitReference) {
  for (const uint64_t v : SweepValues()) {
    int64_t ones = 0;
    for (int i = 0; i < 64; ++i) ones += Bit(v, i);
    ASSERT_EQ(AscendC::GetBitCount<1>(v), ones) << v;
    ASSERT_EQ(AscendC::GetBitCount<0>(v), 64 - ones) << v;

    int64_t leading = 0;
    while (leading < 64 && Bit(v, 63 - leading) == 0) ++leading;
    ASSERT_EQ(AscendC::CountLeadingZero(v), leading) << v;

    const int64_t s = static_cast<int64_t>(v);
    int64_t same = 0;
    while (same < 63 && Bit(v, 62 - same) == Bit(v, 63)) ++same;
    ASSERT_EQ(AscendC::CountBitsCntSameAsSignBit(s), same == 63 ? -1 : same)
        << v;

    int64_t first1 = -1, first0 = -1;
    for (int i = 63; i >= 0; --i) {
      if (Bit(v, i) == 1) first1 = i;
      if (Bit(v, i) == 0) first0 = i;
    }
    ASSERT_EQ(AscendC::GetSFFValue<1>(v), first1) << v;
    ASSERT_EQ(AscendC::GetSFFValue<0>(v), first0) << v;
  }
}

TEST(ScalarBits, DocumentedExamples) {
  EXPECT_EQ(AscendC::GetBitCount<0>(0xFFFF), 48);
  EXPECT_EQ(AscendC::CountLeadingZero(0x0100000000000020ULL), 7);
  EXPECT_EQ(AscendC::CountLeadingZero(0xFFFFULL), 48);
  EXPECT_EQ(AscendC::CountLeadingZero(~uint64_t{0}), 0);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0x0100000000000020LL), 6);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0), -1);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(-1), -1);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(INT64_MAX), 0);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(INT64_MIN), 0);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(1), 62);
  EXPECT_EQ(AscendC::CountBitsCntSameAsSignBit(0x00F0000000000000LL), 7);
  EXPECT_EQ(AscendC::GetSFFValue<0>(~uint64_t{0}), -1);
  EXPECT_EQ(AscendC::GetSFFValue<1>(0), -1);
  EXPECT_EQ(AscendC::GetSFFValue<0>(0xFF00), 0);
  EXPECT_EQ(AscendC::GetSFFValue<1>(0xFF00), 8);
  EXPECT_EQ(AscendC::GetSFFValue<0>(0x00FF), 8);
  EXPECT_EQ(AscendC::GetSFFValue<1>(0x00FF), 0);
}

TEST(Nop, ExistsOnThe950Only) {
  {
    ProfileScope on(Profile::k950);
    AscendC::Nop<10>();
    AscendC::Nop();
  }
  ProfileScope on(Profile::kA2);
  EXPECT_TRUE(FailsWith([] { AscendC::Nop<10>(); },
                        "Nop: not supported on Atlas A2/A3 (it exists on "
                        "the 950)"));
}

// ---- Scalar Cast between float and bfloat16_t -------------------------------

uint32_t FloatToBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint16_t Bf16Bits(bfloat16_t b) {
  uint16_t u;
  std::memcpy(&u, &b, 2);
  return u;
}

// float → bfloat16_t to nearest even, written from the bits: keep the top 16
// bits, add the dropped half plus the kept lowest bit's tie-break.
uint16_t RefFloatToBf16(uint32_t bits) {
  const uint32_t lsb = (bits >> 16) & 1;
  return static_cast<uint16_t>((bits + 0x7FFF + lsb) >> 16);
}

TEST(ScalarCastBf16, FloatToBfloat16RoundsToNearestEvenOverADenseSweep) {
  std::vector<uint32_t> inputs;
  for (uint64_t b = 0; b <= 0xFFFFFFFFu; b += 65521) {
    inputs.push_back(static_cast<uint32_t>(b));
  }
  for (uint32_t hi = 0; hi < 0x10000; hi += 97) {  // ties and their neighbours
    for (const uint32_t lo : {0x7FFFu, 0x8000u, 0x8001u, 0xFFFFu}) {
      inputs.push_back(hi << 16 | lo);
    }
  }
  for (const float f : {0.0f, -0.0f, 3.14159f, 1e-45f, -1e-45f, 3.4e38f,
                        -3.4e38f, INFINITY, -INFINITY}) {
    inputs.push_back(FloatToBits(f));
  }
  for (const uint32_t bits : inputs) {
    const float f = BitsToFloat(bits);
    const uint16_t got = Bf16Bits(AscendC::Cast(f));
    if (std::isnan(f)) {
      ASSERT_EQ(got & 0x7FC0u, 0x7FC0u) << "NaN stays a quiet NaN: " << bits;
      continue;
    }
    ASSERT_EQ(got, RefFloatToBf16(bits)) << "float bits " << bits;
  }
  // The page's example.
  EXPECT_EQ(static_cast<float>(AscendC::Cast(3.14159f)), 3.140625f);
}

TEST(ScalarCastBf16, Bfloat16ToFloatIsExactForEveryValue) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const bfloat16_t v = bfloat16_t::FromBits(static_cast<uint16_t>(b));
    const float got = AscendC::Cast(v);
    const float want = BitsToFloat(b << 16);
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << b;
    } else {
      ASSERT_EQ(FloatToBits(got), b << 16) << b;
    }
    ASSERT_EQ(FloatToBits(AscendC::Cast<bfloat16_t>(v)), FloatToBits(got));
  }
}

TEST(ScalarCastBf16, NotOnTheInferenceSeries) {
  ProfileScope on(Profile::k310P);
  EXPECT_TRUE(FailsWith([] { AscendC::Cast(1.0f); },
                        "Cast (float to bfloat16_t): not supported on Atlas "
                        "inference series (it exists on Atlas A2/A3 and the "
                        "950)"));
  EXPECT_TRUE(FailsWith([] { AscendC::Cast(bfloat16_t(1.0f)); },
                        "Cast (bfloat16_t to float): not supported on Atlas "
                        "inference series"));
}

// ---- NumericLimits ----------------------------------------------------------

template <typename T>
uint32_t BitsOf(T v) {
  uint32_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}

// The pages' bit tables, per float type: {Max, Lowest, Min, Infinity,
// NegativeInfinity, QuietNaN, SignalingNaN, DeNormMin}.
template <typename T>
void ExpectFloatLimits(const uint32_t (&want)[8]) {
  using L = AscendC::NumericLimits<T>;
  EXPECT_EQ(BitsOf(L::Max()), want[0]);
  EXPECT_EQ(BitsOf(L::Lowest()), want[1]);
  EXPECT_EQ(BitsOf(L::Min()), want[2]);
  EXPECT_EQ(BitsOf(L::Infinity()), want[3]);
  EXPECT_EQ(BitsOf(L::NegativeInfinity()), want[4]);
  EXPECT_EQ(BitsOf(L::QuietNaN()), want[5]);
  EXPECT_EQ(BitsOf(L::SignalingNaN()), want[6]);
  EXPECT_EQ(BitsOf(L::DeNormMin()), want[7]);
}

// Usable in constant expressions.
static_assert(AscendC::NumericLimits<int32_t>::Max() == 2147483647);
static_assert(AscendC::NumericLimits<float>::DeNormMin() > 0.0f);
constexpr half kHalfMax = AscendC::NumericLimits<half>::Max();

TEST(NumericLimits, FloatTypesHaveTheDocumentedBits) {
  ExpectFloatLimits<half>(
      {0x7BFF, 0xFBFF, 0x0400, 0x7C00, 0xFC00, 0x7E00, 0x7D00, 0x0001});
  ExpectFloatLimits<bfloat16_t>(
      {0x7F7F, 0xFF7F, 0x0080, 0x7F80, 0xFF80, 0x7FC0, 0x7FA0, 0x0001});
  ExpectFloatLimits<float>({0x7F7FFFFF, 0xFF7FFFFF, 0x00800000, 0x7F800000,
                            0xFF800000, 0x7FC00000, 0x7FA00000, 0x00000001});
  EXPECT_EQ(static_cast<float>(kHalfMax), 65504.0f);
  EXPECT_EQ(AscendC::NumericLimits<float>::Max(),
            std::numeric_limits<float>::max());
  EXPECT_EQ(AscendC::NumericLimits<float>::Min(),
            std::numeric_limits<float>::min());
  EXPECT_EQ(AscendC::NumericLimits<float>::DeNormMin(),
            std::numeric_limits<float>::denorm_min());
}

template <typename T>
void ExpectIntegerLimits(int64_t max, int64_t lowest) {
  using L = AscendC::NumericLimits<T>;
  EXPECT_EQ(static_cast<int64_t>(L::Max()), max);
  EXPECT_EQ(static_cast<int64_t>(L::Lowest()), lowest);
  EXPECT_EQ(static_cast<int64_t>(L::Min()), lowest);  // as the page's table
}

TEST(NumericLimits, IntegerTypesHaveTheDocumentedValues) {
  ExpectIntegerLimits<uint8_t>(255, 0);
  ExpectIntegerLimits<int8_t>(127, -128);
  ExpectIntegerLimits<uint16_t>(65535, 0);
  ExpectIntegerLimits<int16_t>(32767, -32768);
  ExpectIntegerLimits<uint32_t>(4294967295LL, 0);
  ExpectIntegerLimits<int32_t>(2147483647, -2147483648LL);
}

// A 950 core's UB as tensors of T, through a TBuf.
template <typename T>
struct LimitsUb {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<T> t;
  LimitsUb() {
    pipe.InitBuffer(buf, 1024);
    t = buf.Get<T>();
  }
};

TEST(NumericLimits, TensorFormsFillTheFirstCountElementsOnThe950) {
  ProfileScope on(Profile::k950);
  {
    LimitsUb<float> ub;
    for (uint32_t i = 0; i < 256; ++i) ub.t.SetValue(i, 7.0f);
    AscendC::NumericLimits<float>::SignalingNaN(ub.t, 100);
    for (uint32_t i = 0; i < 256; ++i) {
      ASSERT_EQ(BitsOf(ub.t.GetValue(i)), i < 100 ? 0x7FA00000u : 0x40E00000u)
          << i;
    }
    AscendC::NumericLimits<float>::Lowest(ub.t, 8);
    EXPECT_EQ(BitsOf(ub.t.GetValue(7)), 0xFF7FFFFFu);
  }
  {
    LimitsUb<int8_t> ub;
    AscendC::NumericLimits<int8_t>::Min(ub.t, 64);
    for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(ub.t.GetValue(i), -128);
  }
  {
    LimitsUb<half> ub;
    AscendC::NumericLimits<half>::Max(ub.t, 16);
    AscendC::NumericLimits<half>::DeNormMin(ub.t[16], 16);
    EXPECT_EQ(BitsOf(ub.t.GetValue(15)), 0x7BFFu);
    EXPECT_EQ(BitsOf(ub.t.GetValue(16)), 0x0001u);
  }
}

TEST(NumericLimits, TensorFormsExistOnThe950Only) {
  ProfileScope on(Profile::kA2);
  LimitsUb<float> ub;
  EXPECT_TRUE(FailsWith([&] { AscendC::NumericLimits<float>::Max(ub.t, 8); },
                        "NumericLimits::Max: not supported on Atlas A2/A3 "
                        "(it exists on the 950)"));
}

// ---- System queries ---------------------------------------------------------

static_assert(AscendC::GetVecLen() == 256);
static_assert(AscendC::GetDataBlockSizeInBytes() == 32);

TEST(SystemQueries, ArchVersionIsTheArchNumberInHexPerProfile) {
  const struct {
    Profile profile;
    uint32_t version;
  } kRows[] = {{Profile::kA2, 0x2201},
               {Profile::k310P, 0x2002},
               {Profile::k950, 0x3510}};
  for (const auto& row : kRows) {
    ProfileScope on(row.profile);
    uint32_t version = 0;
    AscendC::GetArchVersion(version);
    EXPECT_EQ(version, row.version);
    char text[16];
    std::snprintf(text, sizeof text, "%x", version);
    EXPECT_EQ(
        std::to_string(normgrad_ascendc::GetProfileInfo(row.profile).arch),
        text);
  }
}

// Two call sites in functions of their own: not inlined, not folded into one
// (their bodies differ), and not tail calls (the empty asm after the call),
// so each call returns into its own function.
__attribute__((noinline)) int64_t FirstSite() {
  const int64_t pc = AscendC::GetProgramCounter();
  asm volatile("" ::: "memory");
  return pc;
}
__attribute__((noinline)) int64_t SecondSite(volatile int* touched) {
  const int64_t pc = AscendC::GetProgramCounter();
  *touched = 1;
  asm volatile("" ::: "memory");
  return pc;
}

TEST(SystemQueries, ProgramCounterNamesTheCallSite) {
  volatile int touched = 0;
  const int64_t a = FirstSite();
  const int64_t b = SecondSite(&touched);
  EXPECT_NE(a, 0);
  EXPECT_NE(a, b);
  EXPECT_EQ(FirstSite(), a);
  EXPECT_EQ(SecondSite(&touched), b);
  ProfileScope on(Profile::k950);
  EXPECT_EQ(FirstSite(), a);
}

TEST(SystemQueries, SystemCycleIsMonotonic) {
  int64_t last = AscendC::GetSystemCycle();
  for (int i = 0; i < 1000; ++i) {
    const int64_t now = AscendC::GetSystemCycle();
    ASSERT_GE(now, last);
    last = now;
  }
}

void WriteSsbuf(GM_ADDR out) {
  auto* ssbuf = static_cast<uint8_t*>(AscendC::GetSsbufBaseAddr());
  reinterpret_cast<uint64_t*>(out)[AscendC::GetBlockIdx()] =
      reinterpret_cast<uintptr_t>(ssbuf);
  for (uint32_t i = 0; i < 1024; ++i) ssbuf[i] = static_cast<uint8_t>(i);
}

TEST(SystemQueries, SsbufIsAnAlignedKilobyteOfTheCoreOnThe950) {
  ProfileScope on(Profile::k950);
  std::vector<uint64_t> addr(2, 0);
  LaunchKernel("WriteSsbuf", 2, 0, nullptr, WriteSsbuf,
               reinterpret_cast<GM_ADDR>(addr.data()));
  EXPECT_NE(addr[0], 0u);
  EXPECT_EQ(addr[0] % 32, 0u);
  EXPECT_EQ(addr[1] % 32, 0u);
  ProfileScope a2(Profile::kA2);
  EXPECT_TRUE(FailsWith([] { AscendC::GetSsbufBaseAddr(); },
                        "GetSsbufBaseAddr: not supported on Atlas A2/A3 (it "
                        "exists on the 950)"));
}

TEST(SpecialRegisters, ArReadsClearsAndStartsEachBlockAtZero) {
  ProfileScope on(Profile::k950);
  normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
  core.SetBlock(0, 1);
  EXPECT_EQ(AscendC::GetSpr<AscendC::SpecialPurposeReg::AR>(), 0);
  core.spr_ar() = 256;  // what the register model's Squeeze would leave
  EXPECT_EQ(AscendC::GetSpr<AscendC::SpecialPurposeReg::AR>(), 256);
  AscendC::ClearSpr<AscendC::SpecialPurposeReg::AR>();
  EXPECT_EQ(AscendC::GetSpr<AscendC::SpecialPurposeReg::AR>(), 0);
  core.spr_ar() = 5;
  core.SetBlock(0, 1);
  EXPECT_EQ(AscendC::GetSpr<AscendC::SpecialPurposeReg::AR>(), 0);
  ProfileScope a2(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [] { AscendC::ClearSpr<AscendC::SpecialPurposeReg::AR>(); },
      "ClearSpr: not supported on Atlas A2/A3 (it exists on the 950)"));
  EXPECT_TRUE(
      FailsWith([] { AscendC::GetSpr<AscendC::SpecialPurposeReg::AR>(); },
                "GetSpr: not supported on Atlas A2/A3"));
}

void AddTo(int* total, int amount) { *total += amount; }

TEST(Async, RunsTheVectorFunctionAndSkipsTheCubeOne) {
  int total = 0;
  AscendC::Async<AscendC::EngineType::AIV, AddTo>(&total, 5);
  AscendC::Async<AscendC::EngineType::AIC, AddTo>(&total, 100);
  EXPECT_EQ(total, 5);
  ProfileScope on(Profile::k310P);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Async<AscendC::EngineType::AIV, AddTo>(&total, 1); },
      "Async: not supported on Atlas inference series (it exists on Atlas "
      "A2/A3 and the 950)"));
  EXPECT_EQ(total, 5);
}

// ---- The reductions' registers ----------------------------------------------

// Three float tensors of 256 elements on one TBuf: src, dst, tmp.
struct ReduceUb {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<float> src, dst, tmp;
  ReduceUb() {
    pipe.InitBuffer(buf, 3 * 1024);
    AscendC::LocalTensor<float> all = buf.Get<float>();
    src = all;
    dst = all[256];
    tmp = all[512];
  }
};

TEST(ReduceSpr, SumIsWhatTheLastReduceSumLeft) {
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  ReduceUb ub;
  EXPECT_EQ(AscendC::GetReduceRepeatSumSpr<float>(), 0.0f);
  for (uint32_t i = 0; i < 256; ++i) ub.src.SetValue(i, float(i + 1));
  AscendC::ReduceSum(ub.dst, ub.src, ub.tmp, 100);  // one repeat and a half
  EXPECT_EQ(AscendC::GetReduceRepeatSumSpr<float>(), 5050.0f);
  AscendC::ReduceSum(ub.dst, ub.src, ub.tmp, 256);
  EXPECT_EQ(AscendC::GetReduceRepeatSumSpr<float>(), 256.0f * 257 / 2);
  AscendC::ReduceSum(ub.dst, ub.src, ub.tmp, 10);
  EXPECT_EQ(AscendC::GetReduceRepeatSumSpr<float>(), 55.0f);
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  EXPECT_EQ(AscendC::GetReduceRepeatSumSpr<float>(), 0.0f);
}

TEST(ReduceSpr, HalfSumReadsAsHalf) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  AscendC::LocalTensor<half> all = buf.Get<half>();
  for (uint32_t i = 0; i < 16; ++i) all.SetValue(i, half(0.5f));
  AscendC::ReduceSum(all[128], all, all[256], 16);
  EXPECT_EQ(static_cast<float>(AscendC::GetReduceRepeatSumSpr<half>()), 8.0f);
}

uint32_t FloatIndex(float f) { return FloatToBits(f); }

TEST(ReduceSpr, MaxMinOfReduceMaxAndReduceMin) {
  ReduceUb ub;
  for (uint32_t i = 0; i < 256; ++i) ub.src.SetValue(i, float(i % 50));
  ub.src.SetValue(137, 99.0f);
  ub.src.SetValue(201, -7.0f);
  float value = 0, index = 0;
  AscendC::ReduceMax(ub.dst, ub.src, ub.tmp, 256, true);
  AscendC::GetReduceRepeatMaxMinSpr(value, index);
  EXPECT_EQ(value, 99.0f);
  EXPECT_EQ(FloatIndex(index), 137u);
  AscendC::ReduceMin(ub.dst, ub.src, ub.tmp, 256, false);
  AscendC::GetReduceRepeatMaxMinSpr(value, index);
  EXPECT_EQ(value, -7.0f);
  EXPECT_EQ(FloatIndex(index), 0u);  // no index asked for
}

TEST(ReduceSpr, ReduceRepeatLeavesTheExtremeOfItsRepeats) {
  ReduceUb ub;
  for (uint32_t i = 0; i < 256; ++i) ub.src.SetValue(i, 1.0f);
  ub.src.SetValue(22, 5.0f);        // repeat 0, lane 22
  ub.src.SetValue(64 + 3, 8.0f);    // repeat 1, lane 3
  ub.src.SetValue(128 + 40, 8.0f);  // repeat 2, lane 40: equal, later
  ub.src.SetValue(192 + 9, -3.0f);  // repeat 3, lane 9
  float value = 0, index = 0;
  AscendC::ReduceRepeat<AscendC::ReduceType::MAX>(ub.dst, ub.src, 64, 4, 1, 1,
                                                  8);
  AscendC::GetReduceRepeatMaxMinSpr(value, index);
  EXPECT_EQ(value, 8.0f);
  EXPECT_EQ(FloatIndex(index), 67u);
  AscendC::ReduceRepeat<AscendC::ReduceType::MIN>(ub.dst, ub.src, 64, 4, 1, 1,
                                                  8);
  AscendC::GetReduceRepeatMaxMinSpr(value, index);
  EXPECT_EQ(value, -3.0f);
  EXPECT_EQ(FloatIndex(index), 201u);
  AscendC::ReduceRepeat<AscendC::ReduceType::MAX>(
      ub.dst, ub.src, 64, 3, 1, 1, 8, AscendC::ReduceOrder::ORDER_INDEX_VALUE);
  AscendC::GetReduceRepeatMaxMinSpr(value, index);
  EXPECT_EQ(value, 8.0f);
  EXPECT_EQ(FloatIndex(index), 67u);
}

TEST(ReduceSpr, FormsPerProfile) {
  {
    ProfileScope on(Profile::k310P);
    ReduceUb ub;
    for (uint32_t i = 0; i < 128; ++i) ub.src.SetValue(i, float(i));
    AscendC::ReduceRepeat<AscendC::ReduceType::MAX>(ub.dst, ub.src, 64, 2, 1, 1,
                                                    8);
    float value = 0, index = 0;
    AscendC::GetReduceRepeatMaxMinSpr(value);
    EXPECT_EQ(value, 127.0f);
    EXPECT_TRUE(
        FailsWith([&] { AscendC::GetReduceRepeatMaxMinSpr(value, index); },
                  "GetReduceRepeatMaxMinSpr (value and index): not "
                  "supported on Atlas inference series (it exists on "
                  "Atlas A2/A3)"));
    EXPECT_TRUE(FailsWith([] { AscendC::GetReduceRepeatSumSpr<float>(); },
                          "GetReduceRepeatSumSpr: not supported on Atlas "
                          "inference series"));
  }
  float value = 0;
  EXPECT_TRUE(FailsWith([&] { AscendC::GetReduceRepeatMaxMinSpr(value); },
                        "GetReduceRepeatMaxMinSpr (value only): not supported "
                        "on Atlas A2/A3 (it exists on the Atlas inference "
                        "series)"));
}

// ---- BilinearInterpolation --------------------------------------------------

// The operands of one BilinearInterpolation call and of the reference, each
// on a TBuf of its own.
struct BilinearUb {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b_src0, b_off, b_src1, b_tmp,
      b_dst, b_gathered, b_weights, b_ref;
  AscendC::LocalTensor<half> src0, src1, dst, gathered, weights, ref;
  AscendC::LocalTensor<uint32_t> offsets;
  AscendC::LocalTensor<uint8_t> tmp;
  BilinearUb() {
    pipe.InitBuffer(b_src0, 1024);
    pipe.InitBuffer(b_off, 256);
    pipe.InitBuffer(b_src1, 128);
    pipe.InitBuffer(b_tmp, 512 * 32 + 64 * 32);
    pipe.InitBuffer(b_dst, 2048);
    pipe.InitBuffer(b_gathered, 8 * 256);
    pipe.InitBuffer(b_weights, 64 * 32);
    pipe.InitBuffer(b_ref, 2048);
    src0 = b_src0.Get<half>();
    offsets = b_off.Get<uint32_t>();
    src1 = b_src1.Get<half>();
    tmp = b_tmp.Get<uint8_t>();
    dst = b_dst.Get<half>();
    gathered = b_gathered.Get<half>();
    weights = b_weights.Get<half>();
    ref = b_ref.Get<half>();
  }
};

// Deterministic halves in [-4, 4) with fractions, so products and sums round.
half TestHalf(uint32_t i) {
  const uint32_t x = (i * 2654435761u) >> 20;
  return half(static_cast<float>(x % 2048) / 256.0f - 4.0f);
}

// The page's four steps with the vector unit's own Gatherb, Brcb, Mul and
// Add: the reference for every form below.
template <typename Mask>
void BilinearByTheSteps(BilinearUb& ub, Mask mask, uint8_t h, bool mode,
                        uint16_t dst_blk, uint16_t v_off, uint8_t v) {
  const uint8_t n = h * v;
  // Gatherb moves 16-bit elements as uint16_t on this profile: the bits.
  AscendC::Gatherb(ub.gathered.ReinterpretCast<uint16_t>(),
                   ub.src0.ReinterpretCast<uint16_t>(), ub.offsets, n, {1, 8});
  const uint32_t w = mode ? n * 8u : n;
  AscendC::Brcb(ub.weights, ub.src1, static_cast<uint8_t>((w + 7) / 8), {1, 8});
  AscendC::BinaryRepeatParams mul(1, 1, mode ? 1 : 0, 8, 8, mode ? 8 : 1);
  AscendC::Mul(ub.gathered, ub.gathered, ub.weights, mask, n, mul);
  AscendC::BinaryRepeatParams add(static_cast<uint8_t>(dst_blk), 1, 1, 8, 8, 8);
  for (uint8_t row = 0; row < v; ++row) {
    AscendC::LocalTensor<half> out = ub.ref[row * v_off];
    AscendC::LocalTensor<half> first = ub.gathered[row * h * 128];
    if (h == 1) {
      AscendC::Muls(out, first, half(1.0f), mask, 1, {dst_blk, 1, 8, 8});
      continue;
    }
    AscendC::Add(out, first, ub.gathered[(row * h + 1) * 128], mask, 1, add);
    for (uint8_t k = 2; k < h; ++k) {
      AscendC::Add(out, out, ub.gathered[(row * h + k) * 128], mask, 1, add);
    }
  }
}

void FillBilinear(BilinearUb& ub, uint32_t seed) {
  for (uint32_t i = 0; i < 512; ++i) ub.src0.SetValue(i, TestHalf(i + seed));
  for (uint32_t i = 0; i < 64; ++i) {
    ub.offsets.SetValue(i, ((i * 7 + seed) % 32) * 32);
    ub.src1.SetValue(i, TestHalf(1000 + i + seed));
  }
  for (uint32_t i = 0; i < 1024; ++i) {
    ub.dst.SetValue(i, half(-9.0f));
    ub.ref.SetValue(i, half(-9.0f));
  }
}

uint16_t HalfBits(half h) { return static_cast<uint16_t>(BitsOf(h)); }

TEST(BilinearInterpolation, MatchesThePagesStepsBitForBit) {
  const struct {
    uint8_t h;
    bool mode;
    uint16_t dst_blk;
    uint16_t v_off;
    uint8_t v;
    uint64_t mask;
  } kCases[] = {{2, false, 1, 128, 2, 128},
                {3, true, 1, 256, 2, 100},
                {2, true, 2, 256, 1, 128},
                {1, false, 1, 128, 3, 17},
                {4, false, 1, 384, 2, 64}};
  uint32_t seed = 0;
  for (const auto& c : kCases) {
    BilinearUb ub;
    FillBilinear(ub, ++seed);
    AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1, c.mask,
                                   c.h, c.mode, c.dst_blk, c.v_off, c.v,
                                   ub.tmp);
    BilinearByTheSteps(ub, c.mask, c.h, c.mode, c.dst_blk, c.v_off, c.v);
    for (uint32_t i = 0; i < 1024; ++i) {
      ASSERT_EQ(HalfBits(ub.dst.GetValue(i)), HalfBits(ub.ref.GetValue(i)))
          << "case h=" << int(c.h) << " mode=" << c.mode << " element " << i;
    }
  }
  // The bit-mask form: every other lane.
  BilinearUb ub;
  FillBilinear(ub, 99);
  uint64_t bits[2] = {0x5555555555555555ULL, 0xAAAAAAAAAAAAAAAAULL};
  AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1, bits, 2,
                                 false, 1, 128, 2, ub.tmp);
  BilinearByTheSteps(ub, bits, 2, false, 1, 128, 2);
  for (uint32_t i = 0; i < 1024; ++i) {
    ASSERT_EQ(HalfBits(ub.dst.GetValue(i)), HalfBits(ub.ref.GetValue(i))) << i;
  }
}

TEST(BilinearInterpolation, ThePagesExample) {
  // src0 = 1..512, offsets 0, 32, ..., src1 = 2..33, hRepeat = vRepeat = 2,
  // mask 128, vROffset 128, repeatMode false: dst[0:127] = 2·x + 3·(x+128).
  BilinearUb ub;
  for (uint32_t i = 0; i < 512; ++i) ub.src0.SetValue(i, half(float(i + 1)));
  for (uint32_t i = 0; i < 32; ++i) {
    ub.offsets.SetValue(i, i * 32);
    ub.src1.SetValue(i, half(float(i + 2)));
  }
  AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1,
                                 uint64_t{128}, 2, false, 1, 128, 2, ub.tmp);
  for (uint32_t e = 0; e < 128; ++e) {
    const float top =
        float(half(2.0f * (e + 1))) + float(half(3.0f * (e + 129)));
    const float bottom =
        float(half(4.0f * (e + 257))) + float(half(5.0f * (e + 385)));
    ASSERT_EQ(float(ub.dst.GetValue(e)), float(half(top))) << e;
    ASSERT_EQ(float(ub.dst.GetValue(128 + e)), float(half(bottom))) << e;
  }
}

TEST(BilinearInterpolation, BadArgumentsNameTheRule) {
  BilinearUb ub;
  FillBilinear(ub, 1);
  const auto call = [&](uint64_t mask, uint8_t h, uint16_t v_off, uint8_t v) {
    AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1, mask,
                                   h, false, 1, v_off, v, ub.tmp);
  };
  EXPECT_TRUE(FailsWith([&] { call(128, 0, 128, 1); },
                        "BilinearInterpolation: hRepeat 0 is out of range "
                        "1..255"));
  EXPECT_TRUE(FailsWith([&] { call(128, 1, 100, 1); },
                        "BilinearInterpolation: vROffset 100 is out of range "
                        "128..65534"));
  EXPECT_TRUE(FailsWith([&] { call(128, 1, 136, 1); },
                        "vROffset 136 halves (272 bytes) is not a multiple of "
                        "32 bytes"));
  EXPECT_TRUE(FailsWith([&] { call(129, 1, 128, 1); },
                        "BilinearInterpolation: mask 129 is out of range "
                        "1..128"));
  EXPECT_TRUE(FailsWith([&] { call(128, 9, 128, 1); },
                        "src0Offset holds 64 offsets; 9 iterations read 72"));
  EXPECT_TRUE(FailsWith([&] { call(128, 1, 1024, 2); },
                        "dst holds 1024 halves; vertical iteration 1 writes "
                        "element 1024"));
  ub.offsets.SetValue(3, 40);
  EXPECT_TRUE(FailsWith([&] { call(128, 1, 128, 1); },
                        "src0Offset[3] is 40 bytes; an offset must be a "
                        "multiple of 32 with its data block inside src0 "
                        "(1024 bytes)"));
  ub.offsets.SetValue(3, 0);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1,
                                       uint64_t{128}, 1, false, 1, 128, 1,
                                       ub.gathered.ReinterpretCast<uint8_t>());
      },
      "BilinearInterpolation: sharedTmpBuffer has 2048 bytes; Atlas A2/A3 "
      "needs at least 18432"));
}

TEST(BilinearInterpolation, TheScratchEachProfileNeeds) {
  {
    ProfileScope on(Profile::k950);  // none
    BilinearUb ub;
    FillBilinear(ub, 3);
    AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1,
                                   uint64_t{128}, 1, false, 1, 128, 1,
                                   AscendC::LocalTensor<uint8_t>());
  }
  ProfileScope on(Profile::k310P);  // src0Offset.GetSize() * 4 bytes
  BilinearUb ub;
  FillBilinear(ub, 4);
  AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1,
                                 uint64_t{128}, 1, false, 1, 128, 1,
                                 ub.tmp[ub.tmp.GetSize() - 256]);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::BilinearInterpolation(ub.dst, ub.src0, ub.offsets, ub.src1,
                                       uint64_t{128}, 1, false, 1, 128, 1,
                                       ub.tmp[ub.tmp.GetSize() - 224]);
      },
      "sharedTmpBuffer has 224 bytes; Atlas inference series needs at least "
      "256"));
}

// ---- VectorPadding ----------------------------------------------------------

// The padding the page draws beside a block: the values met going outward
// from the block's edge (a, b, c … leftward from a; p, o, n … rightward from
// p), then laid in memory order.
template <typename T>
std::vector<T> PagePadding(const std::vector<T>& block, int mode, bool right) {
  const int n = static_cast<int>(block.size());
  std::vector<T> outward;
  for (int k = 0; k < n; ++k) {
    const int from_edge = mode == 0 ? 0 : mode == 1 ? k : k + 1;
    if (from_edge >= n) {
      outward.push_back(T(0));
    } else {
      outward.push_back(block[right ? n - 1 - from_edge : from_edge]);
    }
  }
  if (!right) std::reverse(outward.begin(), outward.end());
  return outward;
}

template <typename T>
struct PaddingUb {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> b_src, b_dst;
  AscendC::LocalTensor<T> src, dst;
  PaddingUb() {
    pipe.InitBuffer(b_src, 1024);
    pipe.InitBuffer(b_dst, 1024);
    src = b_src.Get<T>();
    dst = b_dst.Get<T>();
    for (uint32_t i = 0; i < src.GetSize(); ++i) {
      src.SetValue(i, T(static_cast<float>((i * 37) % 101) - 50.0f));
      dst.SetValue(i, T(99));
    }
  }
  std::vector<T> SrcBlock(uint32_t first, uint32_t n) const {
    std::vector<T> b;
    for (uint32_t i = 0; i < n; ++i) b.push_back(src.GetValue(first + i));
    return b;
  }
};

template <typename T>
void CheckCountForm() {
  const uint32_t per_block = 32 / sizeof(T);
  for (int mode = 0; mode <= 2; ++mode) {
    for (const bool right : {false, true}) {
      PaddingUb<T> ub;
      const uint32_t count = 3 * per_block + 5;  // a partial last block
      AscendC::VectorPadding(ub.dst, ub.src, static_cast<uint8_t>(mode), right,
                             count);
      for (uint32_t k = 0; k < 4; ++k) {
        const std::vector<T> want =
            PagePadding(ub.SrcBlock(k * per_block, per_block), mode, right);
        for (uint32_t j = 0; j < per_block; ++j) {
          const uint32_t at = k * per_block + j;
          const T expect = at < count ? want[j] : T(99);
          ASSERT_EQ(BitsOf(ub.dst.GetValue(at)), BitsOf(expect))
              << "mode " << mode << " right " << right << " element " << at;
        }
      }
    }
  }
}

TEST(VectorPadding, CountFormPadsEachBlockAsThePageDraws) {
  ProfileScope on(Profile::k310P);
  CheckCountForm<half>();
  CheckCountForm<float>();
  CheckCountForm<int16_t>();
  CheckCountForm<uint32_t>();
}

TEST(VectorPadding, ThePagesExampleAndInPlace) {
  ProfileScope on(Profile::k310P);
  PaddingUb<half> ub;
  ub.src.SetValue(0, half(6.938f));
  AscendC::VectorPadding(ub.dst, ub.src, 0, false, 512);
  for (uint32_t j = 0; j < 16; ++j) {
    EXPECT_EQ(BitsOf(ub.dst.GetValue(j)), BitsOf(half(6.938f)));
  }
  const std::vector<half> block = ub.SrcBlock(16, 16);
  AscendC::VectorPadding(ub.src, ub.src, 2, true, 32);  // dst is src
  const std::vector<half> want = PagePadding(block, 2, true);
  for (uint32_t j = 0; j < 16; ++j) {
    EXPECT_EQ(BitsOf(ub.src.GetValue(16 + j)), BitsOf(want[j])) << j;
  }
}

TEST(VectorPadding, Level0FormsWriteTheMaskedLanesOfEachRepeat) {
  ProfileScope on(Profile::k310P);
  {
    PaddingUb<half> ub;
    // 2 repeats, the first 40 lanes each: blocks 0, 1 and half of block 2;
    // dst blocks two apart, repeats 16 blocks apart.
    AscendC::VectorPadding(ub.dst, ub.src, 1, false, uint64_t{40}, 2,
                           {2, 1, 16, 8});
    for (uint32_t r = 0; r < 2; ++r) {
      for (uint32_t b = 0; b < 8; ++b) {
        const std::vector<half> want =
            PagePadding(ub.SrcBlock((r * 8 + b) * 16, 16), 1, false);
        for (uint32_t j = 0; j < 16; ++j) {
          const uint32_t at = (r * 16 + b * 2) * 16 + j;
          const bool written = b * 16 + j < 40;
          ASSERT_EQ(BitsOf(ub.dst.GetValue(at)),
                    BitsOf(written ? want[j] : half(99.0f)))
              << r << " " << b << " " << j;
        }
      }
    }
  }
  PaddingUb<float> f;
  uint64_t bits[2] = {0xF0F0F0F0F0F0F0F0ULL, 0};
  AscendC::VectorPadding(f.dst, f.src, 2, false, bits, 1, {1, 1, 8, 8});
  for (uint32_t b = 0; b < 8; ++b) {
    const std::vector<float> want = PagePadding(f.SrcBlock(b * 8, 8), 2, false);
    for (uint32_t j = 0; j < 8; ++j) {
      ASSERT_EQ(f.dst.GetValue(b * 8 + j), j >= 4 ? want[j] : 99.0f) << b;
    }
  }
}

TEST(VectorPadding, ChecksProfileModeAndExtents) {
  {
    PaddingUb<half> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::VectorPadding(ub.dst, ub.src, 0, false, 16); },
        "VectorPadding: not supported on Atlas A2/A3 (it exists on the Atlas "
        "inference series)"));
  }
  ProfileScope on(Profile::k310P);
  PaddingUb<half> ub;
  EXPECT_TRUE(
      FailsWith([&] { AscendC::VectorPadding(ub.dst, ub.src, 3, false, 16); },
                "VectorPadding<half>: padMode 3 is out of range 0..2"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::VectorPadding(ub.dst[496], ub.src, 0, false, 32); },
      "VectorPadding<half>: element 16 is past the end of dst (16 elements)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::VectorPadding(ub.dst, ub.src[496], 0, false, 32); },
      "VectorPadding<half>: the source block at element 16 is past the end of "
      "src (16 elements)"));
}

// ---- Platform queries -------------------------------------------------------

TEST(Platform, WorkspaceBandwidthAndRegisterQueries) {
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ProfileScope on(p);
    platform_ascendc::PlatformAscendC platform(nullptr);
    uint64_t bw = 7;
    platform.GetCoreMemBw(platform_ascendc::CoreMemType::L2, bw);
    EXPECT_EQ(bw, 0u);
    bw = 7;
    platform.GetCoreMemBw(platform_ascendc::CoreMemType::HBM, bw);
    EXPECT_EQ(bw, 0u);
    EXPECT_EQ(platform.GetResGroupBarrierWorkSpaceSize(),
              512 * platform.GetCoreNumAiv());
    EXPECT_EQ(platform.GetResCubeGroupWorkSpaceSize(),
              512 * platform.GetCoreNumAic());
    EXPECT_EQ(platform.GetVecRegLen(), p == Profile::k950 ? 256u : 0u);
  }
}

TEST(Platform, GroupBarrierWorkspaceCoversABarrierOfEveryVectorCore) {
  platform_ascendc::PlatformAscendC platform(nullptr);
  const uint32_t cores = platform.GetCoreNumAiv();
  std::vector<uint8_t> workspace(platform.GetResGroupBarrierWorkSpaceSize() +
                                 512);
  GM_ADDR aligned = reinterpret_cast<GM_ADDR>(
      (reinterpret_cast<uintptr_t>(workspace.data()) + 511) / 512 * 512);
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> barrier(aligned, cores,
                                                              cores);
  EXPECT_EQ(barrier.GetWorkspaceLen(),
            platform.GetResGroupBarrierWorkSpaceSize());
}

// ---- Caches and synchronization ---------------------------------------------

TEST(DataCachePreload, ChecksThatTheTensorHasMemory) {
  std::vector<uint64_t> data(16, 0);
  AscendC::GlobalTensor<uint64_t> gm;
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCachePreload(gm, int64_t{0}); },
                        "DataCachePreload: src has no memory"));
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(data.data()), 16);
  AscendC::DataCachePreload(gm, int64_t{64});
  AscendC::DataCachePreload(gm, int16_t{0});
  EXPECT_EQ(data[0], 0u);  // a preload reads nothing into the tensor
}

// Programs call these where the device must order its pipes or tasks; the
// emulated core runs in program order, so they only have to be callable.
TEST(SyncOdds, BarriersQueueSyncsAndTaskOrderAreCallable) {
  AscendC::DataSyncBarrier<AscendC::MemDsbT::ALL>();
  AscendC::DataSyncBarrier<AscendC::MemDsbT::UB>();
  AscendC::TQueSync<PIPE_MTE2, PIPE_V> sync;
  sync.SetFlag(0);
  sync.WaitFlag(0);
  AscendC::SetNextTaskStart();
  AscendC::WaitPreTaskEnd();
  AscendC::SetNextTaskStart<PIPE_MTE3, PIPE_FIX, true>();
  AscendC::WaitPreTaskEnd<true>();
}

TEST(RegisterNoneTiling, TheWithStructFormsReadTheTiling) {
  const NoneTilingStruct tiling{3, 1.5f};
  float out = 0;
  LaunchKernel(
      "NoneTilingKernel", 1, 0, nullptr, NoneTilingKernel,
      reinterpret_cast<GM_ADDR>(&out),
      reinterpret_cast<GM_ADDR>(const_cast<NoneTilingStruct*>(&tiling)));
  EXPECT_EQ(out, 4.5f);
}

// ---- Tiling template programming --------------------------------------------

// Packs (value, bits) pairs from bit 0 up: the documented encoding, written
// independently of the library.
uint64_t Pack(std::initializer_list<std::pair<uint64_t, int>> fields) {
  uint64_t key = 0;
  int shift = 0;
  for (const auto& f : fields) {
    key |= f.first << shift;
    shift += f.second;
  }
  return key;
}

struct FakeTilingContext {
  uint64_t key = 0;
  void SetTilingKey(uint64_t k) { key = k; }
};

TEST(TemplateTiling, KeysPackTheValuesByTheirWidthsInDeclarationOrder) {
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, C_DT_FLOAT16, 8, 1),
            Pack({{1, 8}, {1, 8}, {8, 8}, {1, 1}}));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, C_DT_FLOAT16, 1, 0),
            Pack({{1, 8}, {1, 8}, {1, 8}, {0, 1}}));
  // The second combination: TILE_NUM from its range 1..3; IS_SPLIT unnamed.
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, C_DT_FLOAT, 3, 1),
            Pack({{0, 8}, {0, 8}, {3, 8}, {1, 1}}));
  FakeTilingContext context;
  ASCENDC_TPL_SEL_PARAM(&context, ge::DT_FLOAT16, ge::DT_FLOAT16, 8, 0);
  EXPECT_EQ(context.key, Pack({{1, 8}, {1, 8}, {8, 8}, {0, 1}}));
}

TEST(TemplateTiling, ValuesOutsideTheDeclarationsOrSelectionsAreReported) {
  const struct {
    std::vector<uint64_t> values;
    const char* message;
  } kRows[] = {
      {{1, 1, 7, 0},
       "parameter TILE_NUM: value 7 is not one its declaration lists"},
      {{1, 1, 2, 2},
       "parameter IS_SPLIT: value 2 is not one its declaration lists"},
      {{1, 0, 8, 0},
       "the values (D_T_X=1, D_T_Y=0, TILE_NUM=8, IS_SPLIT=0) match no "
       "ASCENDC_TPL_ARGS_SEL of ASCENDC_TPL_SEL"},
      {{0, 0, 8, 0}, "match no ASCENDC_TPL_ARGS_SEL"},
      {{1, 1, 8},
       "3 values given; ASCENDC_TPL_ARGS_DECL declares 4 "
       "parameters"},
  };
  for (const auto& row : kRows) {
    testing::internal::CaptureStderr();
    const uint64_t key = AscendC::EncodeTilingKey(
        g_tilingDeclareParams, g_tilingSelectParams, row.values);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(key, ~uint64_t{0}) << row.message;
    EXPECT_EQ(err.rfind("normgrad: GET_TPL_TILING_KEY: ", 0), 0u) << err;
    EXPECT_NE(err.find(row.message), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << "one line: " << err;
  }
}

TEST(TemplateTiling, TheHostKeySelectsTheKernelInstantiation) {
  const uint64_t key = GET_TPL_TILING_KEY(C_DT_FLOAT16, C_DT_FLOAT16, 8, 1);
  ICPU_SET_TILING_KEY(key);
  std::vector<uint64_t> out(3, 0);
  LaunchKernel("TemplateKernel", 1, 0, nullptr,
               TemplateKernel<ge::DT_FLOAT16, ge::DT_FLOAT16, 8, 1>,
               reinterpret_cast<GM_ADDR>(out.data()));
  EXPECT_EQ(out, (std::vector<uint64_t>{1, 8, 1}));
  ICPU_SET_TILING_KEY(0);
}

// ---- Debugging output -------------------------------------------------------

std::string RunCapturing(void (*kernel)()) {
  testing::internal::CaptureStdout();
  LaunchKernel("debug", 1, 0, nullptr, kernel);
  return testing::internal::GetCapturedStdout();
}

void MarkKernel() {
  AscendC::MetricsProfStart();
  AscendC::MarkStamp<PIPE_V, 3>();
  AscendC::MarkStamp<PIPE_MTE2>(255);
  asc_mark_stamp<PIPE_V>(4095);
  asc_mark_stamp(7);
  TRACE_START(0x2);
  TRACE_STOP(PIPE_V, USER_DEFINE_9);
  asc_prof_start();
  asc_prof_stop();
  AscendC::MetricsProfStop();
}

// `out` with the digits after each "timeStamp is " replaced by '#' (the
// cycle counter's values differ from run to run); checked against the
// lines with '#' in their place.
std::string MaskTimeStamps(std::string out) {
  const std::string key = "timeStamp is ";
  for (size_t at = out.find(key); at != std::string::npos;
       at = out.find(key, at)) {
    at += key.size();
    size_t end = at;
    while (end < out.size() && out[end] >= '0' && out[end] <= '9') ++end;
    if (end == at) continue;
    out.replace(at, end - at, "#");
  }
  return out;
}

TEST(ProfilingMarks, EachPrintsItsLineWithTheCycleCounter) {
  const std::string out = RunCapturing(MarkKernel);
  EXPECT_EQ(MaskTimeStamps(out),
            "[block 0/1] MetricsProfStart, timeStamp is #.\n"
            "[block 0/1] MarkStamp index 3 (PIPE_V), timeStamp is #.\n"
            "[block 0/1] MarkStamp index 255 (PIPE_MTE2), timeStamp is #.\n"
            "[block 0/1] asc_mark_stamp index 4095 (PIPE_V), timeStamp is #.\n"
            "[block 0/1] asc_mark_stamp index 7 (PIPE_S), timeStamp is #.\n"
            "[block 0/1] TRACE_START apid 0x2 (PIPE_S), timeStamp is #.\n"
            "[block 0/1] TRACE_STOP apid 0x9 (PIPE_V), timeStamp is #.\n"
            "[block 0/1] MetricsProfStart, timeStamp is #.\n"
            "[block 0/1] MetricsProfStop, timeStamp is #.\n"
            "[block 0/1] MetricsProfStop, timeStamp is #.\n");
}

TEST(ProfilingMarks, IndexAndTraceIdRanges) {
  EXPECT_TRUE(FailsWith([] { AscendC::MarkStamp<PIPE_V>(256); },
                        "MarkStamp: index 256 is out of range 0..255"));
  EXPECT_TRUE(FailsWith([] { asc_mark_stamp(4096); },
                        "asc_mark_stamp: index 4096 is out of range 0..4095"));
  EXPECT_TRUE(FailsWith([] { TRACE_START(12); },
                        "TRACE_START: apid 0xc is not a user trace id "
                        "(0x0 ... 0x9)"));
}

void TimeStampKernel() {
  AscendC::PrintTimeStamp(11);
  asc_time_stamp(0x10000);
}

TEST(TimeStamps, PrintTheDocumentedLine) {
  const std::string out = RunCapturing(TimeStampKernel);
  EXPECT_EQ(MaskTimeStamps(out),
            "[block 0/1] descId is 11, rsv is 0, timeStamp is #, pcPtr is 0, "
            "entry is 0.\n"
            "[block 0/1] descId is 65536, rsv is 0, timeStamp is #, pcPtr is "
            "0, entry is 0.\n");
}

// The UB of the kernel below: half values 0.5, 1.5, ... and int32_t 0, -1, ...
void DumpKernel(GM_ADDR gm) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
  for (int32_t i = 0; i < 16; ++i) t.SetValue(i, -i);
  asc_dump(t.GetPhyAddr(), 5, 4);
  asc_dump_ubuf(t.GetPhyAddr() + 2, 6, 2);
  asc_dump_gm(reinterpret_cast<__gm__ float*>(gm), 7, 3);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(gm), 3);
  AscendC::DumpAccChkPoint(g, 8, 1, 2);
  AscendC::DumpAccChkPoint(t, 9, 14, 4);
}

TEST(AscDump, PrintsUbAndGlobalMemoryAsDumpTensorDoes) {
  float* gm = static_cast<float*>(AscendC::GmAlloc(3 * sizeof(float)));
  gm[0] = 1.5f;
  gm[1] = -2.0f;
  gm[2] = 0.25f;
  testing::internal::CaptureStdout();
  LaunchKernel("DumpKernel", 1, 0, nullptr, DumpKernel,
               reinterpret_cast<GM_ADDR>(gm));
  const std::string out = testing::internal::GetCapturedStdout();
  const std::string addr = std::to_string(reinterpret_cast<uintptr_t>(gm));
  const std::string addr1 = std::to_string(reinterpret_cast<uintptr_t>(gm + 1));
  EXPECT_EQ(out,
            "[block 0/1] asc_dump: desc=5, addr=0, data_type=int32, "
            "position=UB, dump_size=4\n"
            "[block 0/1] [0, -1, -2, -3]\n"
            "[block 0/1] asc_dump_ubuf: desc=6, addr=8, data_type=int32, "
            "position=UB, dump_size=2\n"
            "[block 0/1] [-2, -3]\n"
            "[block 0/1] asc_dump_gm: desc=7, addr=" +
                addr +
                ", data_type=float32, position=GM, dump_size=3\n"
                "[block 0/1] [1.500000, -2.000000, 0.250000]\n"
                "[block 0/1] DumpAccChkPoint: index=8, addr=" +
                addr1 +
                ", data_type=float32, position=GM, offset=1, dump_size=2\n"
                "[block 0/1] [-2.000000, 0.250000]\n"
                "[block 0/1] DumpAccChkPoint: index=9, addr=56, "
                "data_type=int32, position=UB, offset=14, dump_size=4 (the "
                "tensor has 2 elements there; printing those)\n"
                "[block 0/1] [-14, -15]\n");
  AscendC::GmFree(gm);
}

TEST(AscDump, TheMemoryFormsCheckWhereTheInputIs) {
  std::vector<float> host(8, 0.0f);
  EXPECT_TRUE(FailsWith([&] { asc_dump_ubuf(host.data(), 1, 1); },
                        "asc_dump_ubuf: input"));
  EXPECT_TRUE(FailsWith([&] { asc_dump_ubuf(host.data(), 1, 1); },
                        "is not in this core's unified buffer"));
  const float* ub =
      reinterpret_cast<const float*>(normgrad_ascendc::CurrentCore().ub());
  EXPECT_TRUE(FailsWith([&] { asc_dump_gm(ub, 1, 1); },
                        "is in the unified buffer, not in global memory"));
  EXPECT_TRUE(
      FailsWith([] { asc_dump(static_cast<const float*>(nullptr), 1, 1); },
                "asc_dump: input is null"));
}

void PrintKernel() {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
  for (int32_t i = 0; i < 16; ++i) t.SetValue(i, i);
  t.Print();
  AscendC::LocalTensor<half> h = buf.Get<half>();
  h.Print(3);
  t.Print(20);
}

TEST(LocalTensorPrint, OneDataBlockALine) {
  const std::string out = RunCapturing(PrintKernel);
  EXPECT_EQ(out,
            "[block 0/1] LocalTensor::Print: addr=0, data_type=int32, len=16\n"
            "[block 0/1] [0, 1, 2, 3, 4, 5, 6, 7]\n"
            "[block 0/1] [8, 9, 10, 11, 12, 13, 14, 15]\n"
            "[block 0/1] LocalTensor::Print: addr=0, data_type=float16, len=3\n"
            "[block 0/1] [0.000000, 0.000000, 0.000000]\n"
            "[block 0/1] LocalTensor::Print: addr=0, data_type=int32, len=20 "
            "(the tensor has 16 elements; printing those)\n"
            "[block 0/1] [0, 1, 2, 3, 4, 5, 6, 7]\n"
            "[block 0/1] [8, 9, 10, 11, 12, 13, 14, 15]\n");
}

TEST(LocalTensorToFile, WritesTheBytesAndReportsFailure) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<float> t = buf.Get<float>();
  for (uint32_t i = 0; i < 8; ++i) t.SetValue(i, 0.5f * i);
  const std::string name = testing::TempDir() + "utility_test_tensor.bin";
  ASSERT_EQ(t.ToFile(name), 0);
  std::FILE* f = std::fopen(name.c_str(), "rb");
  ASSERT_NE(f, nullptr);
  float back[9] = {};
  EXPECT_EQ(std::fread(back, sizeof(float), 9, f), 8u);
  std::fclose(f);
  std::remove(name.c_str());
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(back[i], 0.5f * i);

  testing::internal::CaptureStderr();
  EXPECT_EQ(t.ToFile("/nonexistent-dir/x.bin"), -1);
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "LocalTensor::ToFile: cannot open \"/nonexistent-dir/x.bin\""),
            std::string::npos);
}

TEST(AscCpuLog, PrintsLevelFileFunctionAndMessage) {
  unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
  testing::internal::CaptureStderr();
  const int line = __LINE__ + 1;
  ASC_CPU_LOG_ERROR("I am ERROR log: %d\n", 0x123);
  ASC_CPU_LOG_DEBUG("debug %s", "text");
  const std::string out = testing::internal::GetCapturedStderr();
  const std::string where =
      std::string("[") + __FILE__ + ":" + std::to_string(line);
  EXPECT_EQ(out, "[ERROR] ASCENDCKERNEL " + where +
                     "][TestBody] I am ERROR "
                     "log: 291\n[DEBUG] ASCENDCKERNEL " +
                     std::string("[") + __FILE__ + ":" +
                     std::to_string(line + 1) + "][TestBody] debug text\n");

  setenv("ASCEND_GLOBAL_LOG_LEVEL", "2", 1);
  testing::internal::CaptureStderr();
  ASC_CPU_LOG_INFO("dropped");
  ASC_CPU_LOG_WARNING("kept %d", 1);
  const std::string filtered = testing::internal::GetCapturedStderr();
  unsetenv("ASCEND_GLOBAL_LOG_LEVEL");
  EXPECT_EQ(filtered.find("dropped"), std::string::npos);
  EXPECT_NE(filtered.find("[WARNING] ASCENDCKERNEL ["), std::string::npos);
  EXPECT_NE(filtered.find("] kept 1\n"), std::string::npos);
}

}  // namespace

// ---- Saturation flags: SetSaturationFlag / GetSaturationFlag (Atlas A2/A3)
// and their effect, each value from the boundary-value appendix's tables
// (Memory vector compute and Cast). A block starts in the INF/NAN mode with
// conversions saturating (docs/decisions.md, "Saturation flags").

namespace {

constexpr uint16_t kBitsMax = 0x7BFF;
constexpr uint16_t kBitsLowest = 0xFBFF;  // -65504
constexpr uint16_t kBitsInf = 0x7C00;
constexpr uint16_t kBitsNegInf = 0xFC00;
constexpr uint16_t kBitsNan = 0x7E00;
constexpr uint16_t kBitsZero = 0x0000;
constexpr uint16_t kBitsNegZero = 0x8000;
constexpr uint16_t kBitsOne = 0x3C00;

bool IsHalfNan(uint16_t bits) {
  return (bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu) != 0;
}

// Starts a block on the A2 profile (CTRL at its default) and starts the next
// test's block the same way, whatever this one set.
struct SaturationBlock {
  SaturationBlock() : profile(Profile::kA2) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  }
  ~SaturationBlock() { normgrad_ascendc::CurrentCore().SetBlock(0, 1); }
  ProfileScope profile;
};

// Three 16-half (32-byte) tensors of one TBuf: dst, src0, src1.
struct HalfUb {
  HalfUb() {
    pipe.InitBuffer(buf, 3 * 32);
    dst = buf.Get<half>(16);
    src0 = buf.Get<half>()[16];
    src1 = buf.Get<half>()[32];
  }
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::LocalTensor<half> dst, src0, src1;
};

struct Case {
  const char* api;
  uint16_t a, b;       // inputs (b unused by the one-source instructions)
  uint16_t inf_nan;    // the INF/NAN mode's result
  uint16_t saturated;  // the saturation mode's result
};

// The instruction `api` on lane 0 of dst from lane 0 of the sources.
void RunHalf(HalfUb& ub, const char* api) {
  const std::string name = api;
  if (name == "Exp") AscendC::Exp(ub.dst, ub.src0, 16);
  if (name == "Ln") AscendC::Ln(ub.dst, ub.src0, 16);
  if (name == "Sqrt") AscendC::Sqrt(ub.dst, ub.src0, 16);
  if (name == "Reciprocal") AscendC::Reciprocal(ub.dst, ub.src0, 16);
  if (name == "Abs") AscendC::Abs(ub.dst, ub.src0, 16);
  if (name == "Add") AscendC::Add(ub.dst, ub.src0, ub.src1, 16);
  if (name == "Sub") AscendC::Sub(ub.dst, ub.src0, ub.src1, 16);
  if (name == "Mul") AscendC::Mul(ub.dst, ub.src0, ub.src1, 16);
  if (name == "Div") AscendC::Div(ub.dst, ub.src0, ub.src1, 16);
  if (name == "Add (mask 1)") {  // the executor's walk of repeats
    AscendC::Add(ub.dst, ub.src0, ub.src1, uint64_t{1}, 1,
                 AscendC::BinaryRepeatParams());
  }
}

constexpr Case kHalfCases[] = {
    {"Exp", kBitsMax, 0, kBitsInf, kBitsMax},
    {"Exp", kBitsNan, 0, kBitsNan, kBitsZero},
    {"Exp", kBitsInf, 0, kBitsInf, kBitsMax},
    {"Exp", kBitsNegInf, 0, kBitsZero, kBitsZero},
    {"Exp", kBitsNegZero, 0, kBitsOne, kBitsOne},
    {"Ln", kBitsZero, 0, kBitsNegInf, kBitsLowest},
    {"Ln", kBitsLowest, 0, kBitsNan, kBitsZero},
    {"Ln", kBitsNegInf, 0, kBitsNan, kBitsZero},
    {"Sqrt", kBitsInf, 0, kBitsInf, kBitsMax},
    {"Sqrt", kBitsLowest, 0, kBitsNan, kBitsZero},
    {"Sqrt", kBitsNegZero, 0, kBitsNegZero, kBitsNegZero},
    {"Reciprocal", kBitsNegZero, 0, kBitsNegInf, kBitsLowest},
    {"Abs", kBitsNegInf, 0, kBitsInf, kBitsMax},
    {"Add", kBitsMax, kBitsMax, kBitsInf, kBitsMax},
    {"Add", kBitsLowest, kBitsNegInf, kBitsNegInf, kBitsLowest},
    {"Add", kBitsInf, kBitsNegInf, kBitsNan, kBitsZero},
    {"Add", kBitsNegZero, kBitsNegZero, kBitsNegZero, kBitsNegZero},
    {"Sub", kBitsLowest, kBitsMax, kBitsNegInf, kBitsLowest},
    {"Mul", kBitsLowest, kBitsLowest, kBitsInf, kBitsMax},
    {"Mul", kBitsZero, kBitsInf, kBitsNan, kBitsZero},
    {"Mul", kBitsLowest, kBitsZero, kBitsNegZero, kBitsNegZero},
    {"Div", kBitsMax, kBitsNegZero, kBitsNegInf, kBitsLowest},
    {"Div", kBitsZero, kBitsZero, kBitsNan, kBitsZero},
    {"Div", kBitsLowest, kBitsLowest, kBitsOne, kBitsOne},
    {"Add (mask 1)", kBitsMax, kBitsInf, kBitsInf, kBitsMax},
    {"Add (mask 1)", kBitsNan, kBitsOne, kBitsNan, kBitsZero},
};

uint16_t HalfBits(const AscendC::LocalTensor<half>& t, uint32_t i) {
  const half h = t.GetValue(i);
  uint16_t bits;
  std::memcpy(&bits, &h, 2);
  return bits;
}
half HalfOf(uint16_t bits) {
  half h;
  std::memcpy(static_cast<void*>(&h), &bits, 2);
  return h;
}

}  // namespace

TEST(SaturationFlag, ABlockStartsInTheInfNanModeWithCastsSaturating) {
  const SaturationBlock block;
  EXPECT_FALSE(AscendC::GetSaturationFlag<AscendC::SaturationMode::FLOAT>());
  EXPECT_TRUE(AscendC::GetSaturationFlag<AscendC::SaturationMode::CAST>());
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  EXPECT_EQ((AscendC::GetCtrlSpr<59, 59>()), 0);
}

TEST(SaturationFlag, TheFlagsAreCtrlBits48And59AndEachBlockResetsThem) {
  const SaturationBlock block;
  using AscendC::SaturationMode;
  AscendC::SetSaturationFlag<SaturationMode::FLOAT>(true);
  EXPECT_TRUE(AscendC::GetSaturationFlag<SaturationMode::FLOAT>());
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 0);
  AscendC::SetCtrlSpr<48, 48>(1);  // the non-saturating mode, by the register
  EXPECT_FALSE(AscendC::GetSaturationFlag<SaturationMode::FLOAT>());
  AscendC::SetCtrlSpr<48, 48>(0);
  EXPECT_TRUE(AscendC::GetSaturationFlag<SaturationMode::FLOAT>());
  AscendC::ResetCtrlSpr<48, 48>();
  EXPECT_FALSE(AscendC::GetSaturationFlag<SaturationMode::FLOAT>());

  AscendC::SetSaturationFlag<SaturationMode::CAST>(false);
  EXPECT_FALSE(AscendC::GetSaturationFlag<SaturationMode::CAST>());
  EXPECT_EQ((AscendC::GetCtrlSpr<59, 59>()), 1);
  AscendC::SetSaturationFlag<SaturationMode::CAST>(true);
  EXPECT_TRUE(AscendC::GetSaturationFlag<SaturationMode::CAST>());

  AscendC::SetSaturationFlag<SaturationMode::FLOAT>(true);
  AscendC::SetSaturationFlag<SaturationMode::CAST>(false);
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  EXPECT_FALSE(AscendC::GetSaturationFlag<SaturationMode::FLOAT>());
  EXPECT_TRUE(AscendC::GetSaturationFlag<SaturationMode::CAST>());
}

TEST(SaturationFlag, HalfResultsFollowTheAppendixInBothModes) {
  const SaturationBlock block;
  HalfUb ub;
  for (const bool saturate : {false, true}) {
    AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(saturate);
    for (const Case& c : kHalfCases) {
      for (uint32_t i = 0; i < 16; ++i) {
        ub.src0.SetValue(i, HalfOf(c.a));
        ub.src1.SetValue(i, HalfOf(c.b));
        ub.dst.SetValue(i, HalfOf(0x1234));
      }
      RunHalf(ub, c.api);
      const uint16_t want = saturate ? c.saturated : c.inf_nan;
      const uint16_t got = HalfBits(ub.dst, 0);
      SCOPED_TRACE(std::string(c.api) + (saturate ? " saturated" : " inf/nan"));
      if (IsHalfNan(want)) {
        EXPECT_TRUE(IsHalfNan(got))
            << std::hex << c.a << " " << c.b << ": " << got;
      } else {
        EXPECT_EQ(got, want) << std::hex << c.a << " " << c.b;
      }
    }
  }
}

TEST(SaturationFlag, FloatResultsAndOtherLanesAreUnaffected) {
  const SaturationBlock block;
  AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(true);
  {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalTensor<float> dst = buf.Get<float>(8);
    AscendC::LocalTensor<float> src = buf.Get<float>()[8];
    const float max = std::numeric_limits<float>::max();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (uint32_t i = 0; i < 8; ++i) src.SetValue(i, i % 2 == 0 ? max : nan);
    AscendC::Exp(dst, src, 8);
    EXPECT_EQ(dst.GetValue(0), std::numeric_limits<float>::infinity());
    EXPECT_TRUE(std::isnan(dst.GetValue(1)));
  }
  // A half lane the mask leaves out keeps its bits, even an infinity.
  HalfUb ub;
  for (uint32_t i = 0; i < 16; ++i) {
    ub.src0.SetValue(i, HalfOf(kBitsOne));
    ub.src1.SetValue(i, HalfOf(kBitsOne));
    ub.dst.SetValue(i, HalfOf(kBitsInf));
  }
  AscendC::Add(ub.dst, ub.src0, ub.src1, uint64_t{1}, 1,
               AscendC::BinaryRepeatParams());
  EXPECT_EQ(HalfBits(ub.dst, 0), 0x4000);  // 2.0
  EXPECT_EQ(HalfBits(ub.dst, 1), kBitsInf);
}

TEST(SaturationFlag, ReduceRepeatSumSaturatesItsResult) {
  const SaturationBlock block;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 512);
  AscendC::LocalTensor<half> src = buf.Get<half>(128);
  AscendC::LocalTensor<half> dst = buf.Get<half>()[128];
  // All MAX: inf, or MAX; all NaN: NaN, or 0 (the appendix's
  // ReduceRepeat<SUM>).
  for (const bool saturate : {false, true}) {
    AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(saturate);
    for (const uint16_t in : {kBitsMax, kBitsNan, kBitsNegInf}) {
      for (uint32_t i = 0; i < 128; ++i) src.SetValue(i, HalfOf(in));
      AscendC::WholeReduceSum(dst, src, 128, 1, 1, 1, 8);
      const uint16_t got = HalfBits(dst, 0);
      if (in == kBitsNan) {
        EXPECT_TRUE(saturate ? got == kBitsZero : IsHalfNan(got)) << got;
      } else if (in == kBitsMax) {
        EXPECT_EQ(got, saturate ? kBitsMax : kBitsInf);
      } else {
        EXPECT_EQ(got, saturate ? kBitsLowest : kBitsNegInf);
      }
    }
  }
}

TEST(SaturationFlag, CastSaturatesOrKeepsTheLowBits) {
  const SaturationBlock block;
  using AscendC::RoundMode;
  using AscendC::SaturationMode;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  auto f32 = buf.Get<float>()[0];
  auto i32 = buf.Get<int32_t>()[64];
  auto f16 = buf.Get<half>()[256];
  auto i16 = buf.Get<int16_t>()[384];
  auto i8 = buf.Get<int8_t>()[896];
  for (const bool saturate : {true, false}) {
    AscendC::SetSaturationFlag<SaturationMode::CAST>(saturate);
    // float → int16_t: 70000 is 0x11170; the appendix's ±inf go to the ends.
    f32.SetValue(0, 70000.0f);
    f32.SetValue(1, -70000.0f);
    f32.SetValue(2, std::numeric_limits<float>::infinity());
    f32.SetValue(3, std::numeric_limits<float>::quiet_NaN());
    f32.SetValue(4, 1234.5f);  // in range: nearest even either way
    f32.SetValue(5, std::numeric_limits<float>::max());  // a multiple of 2^104
    for (uint32_t i = 6; i < 8; ++i) f32.SetValue(i, 0.0f);
    AscendC::Cast(i16, f32, RoundMode::CAST_RINT, 8);
    EXPECT_EQ(i16.GetValue(0), saturate ? 32767 : 0x1170);
    EXPECT_EQ(i16.GetValue(1), saturate ? -32768 : -0x1170);
    EXPECT_EQ(i16.GetValue(2), 32767);
    EXPECT_EQ(i16.GetValue(3), 0);
    EXPECT_EQ(i16.GetValue(4), 1234);
    EXPECT_EQ(i16.GetValue(5), saturate ? 32767 : 0);
    // int32_t → int16_t: 100000 is 0x186A0.
    for (uint32_t i = 0; i < 8; ++i) i32.SetValue(i, 0);
    i32.SetValue(0, 100000);
    i32.SetValue(1, INT32_MIN);
    i32.SetValue(2, -5);
    AscendC::Cast(i16, i32, RoundMode::CAST_NONE, 8);
    EXPECT_EQ(i16.GetValue(0), saturate ? 32767 : int16_t(0x86A0 - 0x10000));
    EXPECT_EQ(i16.GetValue(1), saturate ? -32768 : 0);
    EXPECT_EQ(i16.GetValue(2), -5);
    // half → int8_t: 300 is 0x12C; the appendix's +inf gives 127.
    for (uint32_t i = 0; i < 32; ++i) f16.SetValue(i, half(0.0f));
    f16.SetValue(0, half(300.0f));
    f16.SetValue(1, half(-300.0f));
    f16.SetValue(2, HalfOf(kBitsInf));
    AscendC::Cast(i8, f16, RoundMode::CAST_NONE, 32);
    EXPECT_EQ(i8.GetValue(0), saturate ? 127 : 0x2C);
    EXPECT_EQ(i8.GetValue(1), saturate ? -128 : -0x2C);
    EXPECT_EQ(i8.GetValue(2), 127);
  }
}

TEST(SaturationFlag, FloatToHalfAndBfloat16FollowTheFloatMode) {
  const SaturationBlock block;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  auto f32 = buf.Get<float>()[0];
  auto f16 = buf.Get<half>()[64];
  auto bf16 = buf.Get<bfloat16_t>()[96];
  const float max = std::numeric_limits<float>::max();
  for (uint32_t i = 0; i < 16; ++i) f32.SetValue(i, 1.0f);
  f32.SetValue(0, max);
  f32.SetValue(1, -std::numeric_limits<float>::infinity());
  f32.SetValue(2, std::numeric_limits<float>::quiet_NaN());
  for (const bool saturate : {false, true}) {
    AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(saturate);
    AscendC::Cast(f16, f32, AscendC::RoundMode::CAST_RINT, 16);
    AscendC::Cast(bf16, f32, AscendC::RoundMode::CAST_RINT, 16);
    const auto bits16 = [&](auto t, uint32_t i) {
      uint16_t b;
      const auto v = t.GetValue(i);
      std::memcpy(&b, &v, 2);
      return b;
    };
    EXPECT_EQ(bits16(f16, 0), saturate ? kBitsMax : kBitsInf);
    EXPECT_EQ(bits16(f16, 1), saturate ? kBitsLowest : kBitsNegInf);
    EXPECT_TRUE(saturate ? bits16(f16, 2) == 0 : IsHalfNan(bits16(f16, 2)));
    EXPECT_EQ(bits16(f16, 3), kBitsOne);
    EXPECT_EQ(bits16(bf16, 0), saturate ? 0x7F7F : 0x7F80);
    EXPECT_EQ(bits16(bf16, 1), saturate ? 0xFF7F : 0xFF80);
    EXPECT_EQ(bits16(bf16, 3), 0x3F80);
  }
}

TEST(SaturationFlag, OtherProfilesDoNotHaveIt) {
  for (const Profile p : {Profile::k950, Profile::k310P}) {
    const ProfileScope scope(p);
    const char* name = normgrad_ascendc::GetProfileInfo(p).name;
    EXPECT_TRUE(FailsWith(
        [] {
          AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(true);
        },
        std::string("SetSaturationFlag<FLOAT>: not supported on ") + name));
    EXPECT_TRUE(FailsWith(
        [] { AscendC::GetSaturationFlag<AscendC::SaturationMode::CAST>(); },
        std::string("GetSaturationFlag<CAST>: not supported on ") + name +
            " (the saturation flags exist on Atlas A2/A3 only)"));
  }
}

namespace {

// Block 0 adds its 16 halves into `dst` under SetAtomicAdd<half>, block 1
// adds zeros; both in the FLOAT saturation mode `saturate`.
void SaturatingAtomicAdd(GM_ADDR src, GM_ADDR dst, uint32_t saturate) {
  AscendC::SetSaturationFlag<AscendC::SaturationMode::FLOAT>(saturate != 0);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  AscendC::LocalTensor<half> t = buf.Get<half>();
  AscendC::GlobalTensor<half> in;
  AscendC::GlobalTensor<half> out;
  in.SetGlobalBuffer(
      reinterpret_cast<__gm__ half*>(src) + 16 * AscendC::GetBlockIdx(), 16);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dst), 16);
  AscendC::DataCopy(t, in, 16);
  AscendC::SetAtomicAdd<half>();
  AscendC::DataCopy(out, t, 16);
  AscendC::DisableDmaAtomic();
}

}  // namespace

TEST(SaturationFlag, AtomicAddFollowsTheAtomicsAppendix) {
  const ProfileScope a2(Profile::kA2);
  // {value in global memory, value added, INF/NAN result, saturated result}
  const uint16_t rows[][4] = {
      {kBitsLowest, kBitsLowest, kBitsNegInf, kBitsLowest},
      {kBitsMax, kBitsInf, kBitsInf, kBitsMax},
      {kBitsLowest, kBitsNan, kBitsNan, kBitsZero},
      {kBitsInf, kBitsNegInf, kBitsNan, kBitsZero},
      {kBitsLowest, kBitsMax, kBitsZero, kBitsZero},
      {kBitsZero, kBitsNegInf, kBitsNegInf, kBitsLowest},
  };
  for (const uint32_t saturate : {0u, 1u}) {
    std::vector<uint16_t> src(32, kBitsZero);
    std::vector<uint16_t> dst(16, kBitsOne);
    for (uint32_t i = 6; i < 16; ++i) src[i] = kBitsOne;
    for (uint32_t i = 0; i < 6; ++i) {
      dst[i] = rows[i][0];
      src[i] = rows[i][1];
    }
    LaunchKernel("SaturatingAtomicAdd", 2, 0, nullptr, SaturatingAtomicAdd,
                 src.data(), dst.data(), saturate);
    for (uint32_t i = 0; i < 6; ++i) {
      const uint16_t want = rows[i][saturate != 0 ? 3 : 2];
      if (IsHalfNan(want)) {
        EXPECT_TRUE(IsHalfNan(dst[i])) << i << ": " << std::hex << dst[i];
      } else {
        EXPECT_EQ(dst[i], want) << i << (saturate ? " saturated" : "");
      }
    }
    for (uint32_t i = 6; i < 16; ++i) EXPECT_EQ(dst[i], 0x4000) << i;  // 2.0
  }
}

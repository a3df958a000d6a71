// frame_test.cc — the long tail of the program frame (docs/program-surface.md,
// "More facts from programs that run on the device"): block_idx/block_num and
// the built-in constants, GetTPipePtr unqualified, DivCeil and AscendCUtils,
// the CTRL register, DataCacheCleanAndInvalid, SetL2CacheHint, K_MAX_DIM,
// the AscendC::Std traits, TBufPool<VECCALC> members and a second TPipe
// after Destroy, GroupBarrier, the soft SyncAll and DataCopy on the 950
// profile, cube kernels, and constant halves.
//
// Extending: one TEST per behaviour; every error gets a FailsWith line (or,
// for a launch, the stderr line) with the message it must produce.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

// ---- GetTPipePtr without `using namespace AscendC` --------------------------

// A program's class template calls GetTPipePtr() unqualified.
template <typename T>
class PipeUser {
 public:
  AscendC::TPipe* Pipe() const { return GetTPipePtr(); }
};

namespace {

using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;
using normgrad_ascendc::Profile;

// Launches return instead of exiting; the pending error is dropped after.
class PolicyScope {
 public:
  PolicyScope() : previous_(normgrad_ascendc::GetKernelErrorPolicy()) {
    normgrad_ascendc::SetKernelErrorPolicy(KernelErrorPolicy::kReturn);
  }
  ~PolicyScope() {
    normgrad_ascendc::SetKernelErrorPolicy(previous_);
    normgrad_ascendc::TakeLaunchError();
  }
  PolicyScope(const PolicyScope&) = delete;
  PolicyScope& operator=(const PolicyScope&) = delete;

 private:
  KernelErrorPolicy previous_;
};

TEST(GetTPipePtr, IsReachableUnqualifiedFromAClassTemplate) {
  EXPECT_EQ(PipeUser<float>().Pipe(), nullptr);
  AscendC::TPipe pipe;
  EXPECT_EQ(PipeUser<float>().Pipe(), &pipe);
}

// ---- System variables -------------------------------------------------------

int64_t Twice(int64_t v) { return 2 * v; }

// Each block writes block_idx, block_num, an expression of them and a call
// taking one as an argument into its 4 slots.
void WriteSystemVariables(GM_ADDR out) {
  int64_t* slots = reinterpret_cast<int64_t*>(out) + block_idx * 4;
  const uint32_t x = 10;
  slots[0] = block_idx;
  slots[1] = block_num;
  slots[2] = x * block_idx + block_num;
  slots[3] = Twice(block_idx);
}

TEST(SystemVariables, EachBlockReadsItsOwnIndexAndTheCount) {
  const int64_t blocks = 5;
  std::vector<int64_t> out(blocks * 4, -1);
  ASSERT_EQ(LaunchKernel("WriteSystemVariables", blocks, 0, nullptr,
                         WriteSystemVariables,
                         reinterpret_cast<uint8_t*>(out.data())),
            0);
  for (int64_t b = 0; b < blocks; ++b) {
    EXPECT_EQ(out[b * 4 + 0], b);
    EXPECT_EQ(out[b * 4 + 1], blocks);
    EXPECT_EQ(out[b * 4 + 2], 10 * b + blocks);
    EXPECT_EQ(out[b * 4 + 3], 2 * b);
  }
  // Back on the host thread: its own core, block 0 of 1.
  EXPECT_EQ(block_idx, 0);
  EXPECT_EQ(block_num, 1);
}

TEST(SystemVariables, FollowTheCurrentCore) {
  normgrad_ascendc::Core core;
  core.SetBlock(3, 7);
  {
    const normgrad_ascendc::ScopedCore scope(core);
    EXPECT_EQ(block_idx, 3);
    EXPECT_EQ(block_num, 7);
    EXPECT_EQ(block_idx, AscendC::GetBlockIdx());
    EXPECT_EQ(block_num, AscendC::GetBlockNum());
    core.SetBlock(4, 7);
    EXPECT_EQ(block_idx, 4);
  }
  EXPECT_EQ(block_idx, 0);
  EXPECT_EQ(block_num, 1);
}

TEST(SystemVariables, CoreTypeAndUbSize) {
  // Outside a cube or mixed kernel the code runs on a vector core.
  EXPECT_EQ(g_coreType, AscendC::AIV);
  EXPECT_EQ(AscendC::g_coreType, AscendC::AIV);
  EXPECT_TRUE(ASCEND_IS_AIV && !ASCEND_IS_AIC);
  // These tests are compiled without __NPU_ARCH__: the a2 profile's 192 KiB.
  static_assert(ASC_UB_SIZE == 192 * 1024);
  // And its cube memories (docs/cube.md, "Memories").
  static_assert(ASC_L1_SIZE == 512 * 1024);
  static_assert(ASC_L0A_SIZE == 64 * 1024 && ASC_L0B_SIZE == 64 * 1024);
  static_assert(ASC_L0C_SIZE == 128 * 1024);
  static_assert(ASC_BT_SIZE == 1024);
  {
    const ProfileScope a2(Profile::kA2);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    EXPECT_EQ(AscendC::GetRuntimeUBSize(), 192u * 1024);
  }
  {
    const ProfileScope p950(Profile::k950);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    EXPECT_EQ(AscendC::GetRuntimeUBSize(), 248u * 1024);  // documented
  }
}

// ---- DivCeil and AscendCUtils -----------------------------------------------

TEST(DivCeil, RoundsTheQuotientUp) {
  static_assert(AscendC::DivCeil(7, 2) == 4);
  static_assert(AscendC::DivCeil(8, 2) == 4);
  static_assert(AscendC::DivCeil(0, 5) == 0);
  static_assert(AscendC::DivCeil(1, 32) == 1);
  static_assert(AscendC::DivCeil(33u, 32u) == 2u);
  static_assert(AscendC::DivCeil(5, 0) == 0);
  for (uint32_t a = 0; a < 300; ++a) {
    for (uint32_t b = 1; b < 40; ++b) {
      const uint32_t expected = a / b + (a % b != 0 ? 1 : 0);
      ASSERT_EQ(AscendC::DivCeil(a, b), expected) << a << " / " << b;
    }
  }
}

TEST(AscendCUtils, SetMaskSetsTheMaskRegisterOnlyWhenAsked) {
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  AscendC::AscendCUtils::SetOverflow(0);
  AscendC::AscendCUtils::SetOverflow(1);
  AscendC::AscendCUtils::SetMask<half, false>(0x1, 0x2);
  EXPECT_EQ(core.vector_mask().low, ~uint64_t{0});
  EXPECT_EQ(core.vector_mask().high, ~uint64_t{0});
  AscendC::AscendCUtils::SetMask<half, true>(0x1, 0x2);
  EXPECT_EQ(core.vector_mask().high, 0x1u);
  EXPECT_EQ(core.vector_mask().low, 0x2u);
}

// ---- The CTRL register ------------------------------------------------------

TEST(CtrlSpr, A2HasBit48StoredAndReset) {
  const ProfileScope a2(Profile::kA2);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  // A block starts with CTRL[48] = 1, the INF/NAN mode (ctrl_spr.h).
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 63>()), int64_t{1} << 48);
  AscendC::SetCtrlSpr<48, 48>(0);
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 0);
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 63>()), 0);
  AscendC::ResetCtrlSpr<48, 48>();
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  EXPECT_TRUE(FailsWith([] { AscendC::SetCtrlSpr<6, 8>(1); },
                        "SetCtrlSpr: CTRL[8:6] is not a field it accepts on "
                        "Atlas A2/A3; it accepts CTRL[48]"));
  EXPECT_TRUE(FailsWith([] { AscendC::SetCtrlSpr<48, 48>(2); },
                        "SetCtrlSpr: value 2 does not fit CTRL[48:48] (1 "
                        "bits: 0 to 1)"));
  EXPECT_TRUE(FailsWith([] { AscendC::SetCtrlSpr<48, 48>(-1); },
                        "SetCtrlSpr: value -1 does not fit"));
}

TEST(CtrlSpr, On950TheFieldsAreStoredAndResetToTheirDefaults) {
  const ProfileScope p950(Profile::k950);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  core.SetBlock(0, 1);
  // Defaults: CTRL[60] is 1, every other documented field 0.
  EXPECT_EQ((AscendC::GetCtrlSpr<60, 60>()), 1);
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 59>()), 0);
  AscendC::SetCtrlSpr<6, 8>(5);  // 3'b101
  EXPECT_EQ((AscendC::GetCtrlSpr<6, 8>()), 5);
  EXPECT_EQ((AscendC::GetCtrlSpr<6, 6>()), 1);
  EXPECT_EQ((AscendC::GetCtrlSpr<7, 7>()), 0);
  EXPECT_EQ((AscendC::GetCtrlSpr<8, 8>()), 1);
  AscendC::SetCtrlSpr<60, 60>(0);
  AscendC::SetCtrlSpr<45, 45>(1);
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 63>()),
            (int64_t{1} << 45) | (int64_t{5} << 6));
  AscendC::ResetCtrlSpr<6, 8>();
  AscendC::ResetCtrlSpr<60, 60>();
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 63>()),
            (int64_t{1} << 45) | (int64_t{1} << 60));
  EXPECT_TRUE(FailsWith([] { AscendC::ResetCtrlSpr<45, 45>(); },
                        "ResetCtrlSpr: CTRL[45:45] is not a field it accepts "
                        "on Ascend 950"));
  EXPECT_TRUE(FailsWith([] { AscendC::SetCtrlSpr<9, 10>(4); },
                        "SetCtrlSpr: value 4 does not fit CTRL[10:9] (2 "
                        "bits: 0 to 3)"));
  // A new block starts from the defaults.
  core.SetBlock(0, 1);
  EXPECT_EQ((AscendC::GetCtrlSpr<0, 63>()), int64_t{1} << 60);
}

TEST(CtrlSpr, TheInferenceSeriesHasNone) {
  const ProfileScope p310(Profile::k310P);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  EXPECT_TRUE(FailsWith([] { AscendC::SetCtrlSpr<48, 48>(1); },
                        "SetCtrlSpr: not supported on Atlas inference"));
}

// ---- Caches -----------------------------------------------------------------

TEST(DataCacheCleanAndInvalid, ChecksItsFormsPerProduct) {
  using AscendC::CacheLine;
  using AscendC::DcciDst;
  std::vector<uint64_t> data(16, 7);
  AscendC::GlobalTensor<uint64_t> gm;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::DataCacheCleanAndInvalid<
            uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(gm);
      },
      "DataCacheCleanAndInvalid: dst has no memory"));
  gm.SetGlobalBuffer(data.data(), data.size());
  {
    const ProfileScope a2(Profile::kA2);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    gm.SetValue(0, 9);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE,
                                      DcciDst::CACHELINE_OUT>(gm);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE,
                                      DcciDst::CACHELINE_ALL>(gm[4]);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::ENTIRE_DATA_CACHE>(
        gm);
    EXPECT_EQ(data[0], 9u);  // the write is in memory, as before the call
    EXPECT_EQ(data[1], 7u);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::DataCacheCleanAndInvalid<uint64_t,
                                            CacheLine::SINGLE_CACHE_LINE,
                                            DcciDst::CACHELINE_ATOMIC>(gm);
        },
        "DataCacheCleanAndInvalid: dcciDst CACHELINE_ATOMIC is available on "
        "the 950 only, not on Atlas A2/A3"));
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE,
                                      DcciDst::CACHELINE_UB>(
        buf.Get<uint64_t>());
  }
  {
    const ProfileScope p950(Profile::k950);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE,
                                      DcciDst::CACHELINE_ATOMIC>(gm);
  }
  {
    const ProfileScope p310(Profile::k310P);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    AscendC::DataCacheCleanAndInvalid<uint64_t, CacheLine::SINGLE_CACHE_LINE>(
        gm);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::DataCacheCleanAndInvalid<
              uint64_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(
              gm);
        },
        "DataCacheCleanAndInvalid: the forms with dcciDst are not available "
        "on Atlas inference"));
  }
}

TEST(SetL2CacheHint, RecordsTheModeAndRefusesThePersistentOne) {
  std::vector<int32_t> data(8, 0);
  AscendC::GlobalTensor<int32_t> gm;
  gm.SetGlobalBuffer(data.data(), data.size());
  EXPECT_EQ(gm.l2_cache_mode(), AscendC::CacheMode::CACHE_MODE_NORMAL);
  gm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
  EXPECT_EQ(gm.l2_cache_mode(), AscendC::CacheMode::CACHE_MODE_DISABLE);
  gm.SetL2CacheHint<AscendC::CacheRwMode::READ>(
      AscendC::CacheMode::CACHE_MODE_NORMAL);
  EXPECT_EQ(gm.l2_cache_mode(), AscendC::CacheMode::CACHE_MODE_NORMAL);
  EXPECT_TRUE(FailsWith(
      [&] { gm.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_PERSISTENT); },
      "GlobalTensor<int32_t>::SetL2CacheHint: mode 4 is not available"));
}

// ---- K_MAX_DIM and the stack-buffer constants ------------------------------

TEST(Constants, KMaxDimSizesShapesAndSlices) {
  static_assert(AscendC::K_MAX_DIM == 8);
  static_assert(AscendC::TWO_OF_STACK_BUFFER == 2);
  static_assert(AscendC::THREE_OF_STACK_BUFFER == 3);
  AscendC::ShapeInfo shape;
  static_assert(sizeof(shape.shape) / sizeof(shape.shape[0]) ==
                AscendC::K_MAX_DIM);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> buf;
  pipe.InitBuffer(buf, 256);
  std::vector<float> src(64, 1.0f);
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(src.data(), src.size());
  AscendC::SliceInfo slices[AscendC::K_MAX_DIM + 1] = {};
  for (AscendC::SliceInfo& s : slices) s = {0, 7, 0, 1, 8};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::DataCopy(buf.Get<float>(), gm, slices, slices,
                          AscendC::K_MAX_DIM + 1);
      },
      "dimValue 9 is out of range: it must be 1 to K_MAX_DIM (8)"));
}

// ---- AscendC::Std and Conditional -------------------------------------------

namespace Std = AscendC::Std;
struct Base {};
struct Derived : Base {};
using Function = int(int);

static_assert(Std::is_same_v<int, int> && !Std::is_same<int, float>::value);
static_assert(
    Std::is_same_v<Std::conditional_t<true, int, float>, int> &&
    Std::is_same_v<typename Std::conditional<false, int, float>::type, float>);
static_assert(Std::is_same_v<Std::enable_if_t<true, int>, int>);
static_assert(Std::is_integral_v<bool> && Std::is_integral_v<const int> &&
              Std::is_integral_v<volatile long> && !Std::is_integral_v<float> &&
              !Std::is_integral_v<int*> && !Std::is_integral_v<int&> &&
              !Std::is_integral_v<int[5]> && !Std::is_integral_v<Function> &&
              !Std::is_integral_v<void>);
static_assert(Std::is_floating_point_v<long double> &&
              Std::is_floating_point_v<const float> &&
              !Std::is_floating_point_v<float&> &&
              !Std::is_floating_point_v<half>);
static_assert(Std::is_pointer_v<int*> && !Std::is_pointer_v<int>);
static_assert(Std::is_array_v<int[5]> && Std::is_const_v<const int> &&
              Std::is_reference_v<int&> && Std::is_void_v<void>);
static_assert(Std::is_base_of_v<Base, Derived> &&
              !Std::is_base_of_v<Derived, Base>);
static_assert(Std::is_convertible_v<int, double> &&
              Std::is_convertible_v<Derived, Base> &&
              !Std::is_convertible_v<Base, Derived>);
static_assert(Std::is_same_v<Std::add_const_t<int>, const int> &&
              Std::is_same_v<Std::add_cv<int>::type, const volatile int> &&
              Std::is_same_v<Std::add_volatile_t<int>, volatile int> &&
              Std::is_same_v<Std::add_pointer<int&>::type, int*> &&
              Std::is_same_v<Std::add_lvalue_reference_t<int>, int&> &&
              Std::is_same_v<Std::add_rvalue_reference_t<int&>, int&>);
static_assert(Std::is_same_v<Std::remove_const_t<const int>, int> &&
              Std::is_same_v<Std::remove_cv<const volatile int>::type, int> &&
              Std::is_same_v<Std::remove_volatile_t<volatile int>, int> &&
              Std::is_same_v<Std::remove_pointer_t<double*>, double> &&
              Std::is_same_v<Std::remove_reference_t<int&&>, int>);
static_assert(Std::integral_constant<int, 42>::value == 42 &&
              Std::integral_constant<int, 42>()() == 42 &&
              Std::true_type::value && !Std::false_type() &&
              Std::Int<7>::value == 7 &&
              Std::is_same_v<Std::Int<7>::value_type, size_t>);
static_assert(
    Std::is_same_v<AscendC::Conditional<true, half, float>::type, half> &&
    Std::is_same_v<AscendC::Conditional<false, half, float>::type, float>);
static_assert(AscendC::IsSameType<int8_t, int8_t>::value &&
              !AscendC::IsSameType<int8_t, uint8_t>::value);

// ---- Constant halves
// ---------------------------------------------------------

TEST(Half, ConvertsInConstantExpressions) {
  // 99 = 1.546875 · 2^6: exponent 6 + 15, fraction 0.546875 · 1024 = 560.
  constexpr half x = (half)99.0;
  static_assert(x.Bits() == ((21 << 10) | 560));
  static_assert(static_cast<float>(x) == 99.0f);
  // 1/3 rounds to the nearest half: 0x3555 (0.333251953125).
  constexpr half third = half(1.0f / 3.0f);
  static_assert(third.Bits() == 0x3555);
  constexpr bfloat16_t b = (bfloat16_t)1.5f;  // 0x3FC00000 → 0x3FC0
  static_assert(b.Bits() == 0x3FC0);
  EXPECT_EQ(x.Bits(), half(99.0f).Bits());  // the same bits at run time
}

// ---- TBufPool<VECCALC> as a member; a TPipe after Destroy -------------------

// As programs write it: the pool's position as a template argument, the pool
// a member, initialised through TPipe::InitBufPool.
class PoolKernel {
 public:
  void Init(AscendC::TPipe* pipe) {
    pipe->InitBufPool(pool_, 512);
    pool_.InitBuffer(buf_, 256);
  }
  AscendC::LocalTensor<float> Tensor() { return buf_.Get<float>(); }

 private:
  AscendC::TBufPool<AscendC::TPosition::VECCALC> pool_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
};

TEST(TBufPool, VecCalcPoolMemberCarvesBuffers) {
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  AscendC::TPipe pipe;
  PoolKernel kernel;
  kernel.Init(&pipe);
  AscendC::LocalTensor<float> t = kernel.Tensor();
  EXPECT_EQ(t.GetSize(), 64u);
  t.SetValue(3, 2.5f);
  EXPECT_EQ(t.GetValue(3), 2.5f);
  EXPECT_EQ(pipe.used_bytes(), 512u);
}

TEST(TPipe, ASecondPipeAfterDestroyIsLegal) {
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  AscendC::TPipe first;
  AscendC::TBuf<AscendC::TPosition::VECCALC> a;
  first.InitBuffer(a, 64);
  first.Destroy();
  EXPECT_EQ(AscendC::GetTPipePtr(), nullptr);
  AscendC::TPipe second;
  EXPECT_EQ(AscendC::GetTPipePtr(), &second);
  AscendC::TBuf<AscendC::TPosition::VECCALC> b;
  second.InitBuffer(b, 128);
  AscendC::LocalTensor<float> t = b.Get<float>();
  t.SetValue(0, 4.0f);
  EXPECT_EQ(t.GetValue(0), 4.0f);
  EXPECT_EQ(second.used_bytes(), 128u);
  EXPECT_TRUE(FailsWith([&] { first.InitBuffer(a, 64); },
                        "TPipe::InitBuffer: TBuf<VECCALC> #1: its TPipe was "
                        "destroyed (TPipe::Destroy); call Init() on it before "
                        "giving out memory again"));
  EXPECT_TRUE(FailsWith([&] { first.Init(); },
                        "TPipe: a second TPipe was created on the core of "
                        "block 0 while one exists; call Destroy() on the "
                        "first TPipe before creating another"));
  second.Destroy();
  first.Init();  // the first one again, as Init's page shows
  first.InitBuffer(a, 64);
  EXPECT_EQ(AscendC::GetTPipePtr(), &first);
  EXPECT_EQ(first.used_bytes(), 64u);
}

// ---- GroupBarrier
// -------------------------------------------------------------

constexpr uint32_t kArrive = 2;
constexpr uint32_t kWait = 3;
constexpr uint32_t kRounds = 3;

// Blocks 0..1 arrive after writing their round's value; blocks 2..4 wait and
// then read the arrive group's values of that round.
void BarrierRounds(GM_ADDR workspace, GM_ADDR values, GM_ADDR seen) {
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(workspace, kArrive,
                                                          kWait);
  int32_t* value = reinterpret_cast<int32_t*>(values);
  int32_t* out = reinterpret_cast<int32_t*>(seen);
  const uint32_t id = static_cast<uint32_t>(AscendC::GetBlockIdx());
  for (uint32_t r = 0; r < kRounds; ++r) {
    if (id < kArrive) {
      value[r * kArrive + id] = static_cast<int32_t>(100 * (r + 1) + id);
      bar.Arrive(id);
    } else {
      bar.Wait(id - kArrive);
      const uint32_t w = id - kArrive;
      out[(r * kWait + w) * 2 + 0] = value[r * kArrive + 0];
      out[(r * kWait + w) * 2 + 1] = value[r * kArrive + 1];
    }
  }
}

struct AlignedFree {
  void operator()(void* p) const { std::free(p); }
};
using Workspace = std::unique_ptr<uint8_t, AlignedFree>;

Workspace NewWorkspace(size_t bytes) {
  void* p = std::aligned_alloc(512, bytes);
  std::memset(p, 0, bytes);
  return Workspace(static_cast<uint8_t*>(p));
}

TEST(GroupBarrier, TheWaitGroupSeesEveryArrivalOfItsRound) {
  Workspace workspace = NewWorkspace(512 * kWait);
  std::vector<int32_t> values(kRounds * kArrive, 0);
  std::vector<int32_t> seen(kRounds * kWait * 2, -1);
  ASSERT_EQ(
      LaunchKernel("BarrierRounds", kArrive + kWait, 0, nullptr, BarrierRounds,
                   workspace.get(), reinterpret_cast<uint8_t*>(values.data()),
                   reinterpret_cast<uint8_t*>(seen.data())),
      0);
  for (uint32_t r = 0; r < kRounds; ++r) {
    for (uint32_t w = 0; w < kWait; ++w) {
      EXPECT_EQ(seen[(r * kWait + w) * 2 + 0], static_cast<int>(100 * (r + 1)));
      EXPECT_EQ(seen[(r * kWait + w) * 2 + 1],
                static_cast<int>(100 * (r + 1) + 1));
    }
  }
}

TEST(GroupBarrier, WorkspaceLengthAndArgumentChecks) {
  Workspace workspace = NewWorkspace(4096);
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(workspace.get(), 3,
                                                          6);
  EXPECT_EQ(bar.GetWorkspaceLen(), 3072u);  // the documented 6 · 512 bytes
  EXPECT_TRUE(FailsWith([&] { bar.Arrive(3); },
                        "GroupBarrier::Arrive: arriveIndex 3 is out of range "
                        "0..2 (arriveSize - 1)"));
  EXPECT_TRUE(FailsWith([&] { bar.Wait(6); },
                        "GroupBarrier::Wait: waitIndex 6 is out of range 0..5 "
                        "(waitSize - 1)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bad(
            workspace.get() + 32, 1, 1);
      },
      "is not 512-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bad(workspace.get(),
                                                                0, 1);
      },
      "GroupBarrier: arriveSizeIn 0 and waitSizeIn 1 must both be at least 1"));
  const ProfileScope p310(Profile::k310P);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bad(workspace.get(),
                                                                1, 1);
      },
      "GroupBarrier: not available on Atlas inference"));
}

// Block 0 waits for an arrive group nobody serves.
void BarrierNobodyArrives(GM_ADDR workspace) {
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(workspace, 1, 2);
  bar.Wait(static_cast<uint32_t>(AscendC::GetBlockIdx()));
}

TEST(GroupBarrier, AWaitNoArrivalCanEndIsADeadlock) {
  PolicyScope policy;
  Workspace workspace = NewWorkspace(1024);
  testing::internal::CaptureStderr();
  const int rc = LaunchKernel("BarrierNobodyArrives", 2, 0, nullptr,
                              BarrierNobodyArrives, workspace.get());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(rc, 0);
  EXPECT_NE(err.find("kernel BarrierNobodyArrives block 0/2: "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("GroupBarrier::Wait(waitIndex 0, its 1st wait)"),
            std::string::npos)
      << err;
}

// Blocks disagree on the sizes of the barrier at one workspace: block 1
// uses it with other sizes after block 0 did.
void BarrierSizesDiffer(GM_ADDR workspace) {
  const uint32_t id = static_cast<uint32_t>(AscendC::GetBlockIdx());
  if (id == 1) AscendC::SyncAll();
  AscendC::GroupBarrier<AscendC::PipeMode::MTE3_MODE> bar(workspace, 1 + id, 1);
  bar.Arrive(0);
  if (id == 0) AscendC::SyncAll();
}

TEST(GroupBarrier, BlocksMustAgreeOnTheSizes) {
  PolicyScope policy;
  Workspace workspace = NewWorkspace(1024);
  testing::internal::CaptureStderr();
  const int rc = LaunchKernel("BarrierSizesDiffer", 2, 0, nullptr,
                              BarrierSizesDiffer, workspace.get());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(rc, 0);
  EXPECT_NE(err.find("kernel BarrierSizesDiffer block 1/2: "),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("GroupBarrier::Arrive: arriveSize 2 and waitSize 1 "
                     "differ from the 1 and 1 another block created the "
                     "barrier at the same workspace with"),
            std::string::npos)
      << err;
}

// ---- The 950 profile: soft SyncAll and unaligned DataCopy -------------------

// Every block adds its index to GM after a soft SyncAll over 32-byte
// workspaces.
void SyncWithSmallWorkspace(GM_ADDR sync, GM_ADDR out) {
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  AscendC::GlobalTensor<int32_t> gm;
  gm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync), 8);
  int32_t* slots = reinterpret_cast<int32_t*>(out);
  slots[AscendC::GetBlockIdx()] = 1;
  AscendC::SyncAll(gm, buf.Get<int32_t>());
  int32_t sum = 0;
  for (int64_t b = 0; b < AscendC::GetBlockNum(); ++b) sum += slots[b];
  slots[8 + AscendC::GetBlockIdx()] = sum;
}

TEST(SyncAll, The950AcceptsA32ByteWorkspaceForEightBlocks) {
  std::vector<int32_t> sync(8, 0);
  std::vector<int32_t> out(16, 0);
  {
    const ProfileScope p950(Profile::k950);
    ASSERT_EQ(LaunchKernel("SyncWithSmallWorkspace", 8, 0, nullptr,
                           SyncWithSmallWorkspace,
                           reinterpret_cast<uint8_t*>(sync.data()),
                           reinterpret_cast<uint8_t*>(out.data())),
              0);
  }
  for (int b = 0; b < 8; ++b) EXPECT_EQ(out[8 + b], 8) << b;
  // The a2 profile keeps the documented GetBlockNum()·32 bytes.
  PolicyScope policy;
  const ProfileScope a2(Profile::kA2);
  testing::internal::CaptureStderr();
  const int rc = LaunchKernel("SyncWithSmallWorkspace", 8, 0, nullptr,
                              SyncWithSmallWorkspace,
                              reinterpret_cast<uint8_t*>(sync.data()),
                              reinterpret_cast<uint8_t*>(out.data()));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(rc, 0);
  EXPECT_NE(err.find("SyncAll: gmWorkspace holds 32 bytes, fewer than the "
                     "256 it needs"),
            std::string::npos)
      << err;
}

TEST(DataCopy, The950RoundsAnUnalignedCountDownAsItsPageSays) {
  std::vector<float> src(12);
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(i + 1);
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(src.data(), src.size());
  {
    const ProfileScope p950(Profile::k950);
    normgrad_ascendc::Core core;
    const normgrad_ascendc::ScopedCore scope(core);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, gm, 12);  // 48 bytes: the first 32 move
    for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(t.GetValue(i), i + 1.0f);
    for (uint32_t i = 8; i < 12; ++i) EXPECT_EQ(t.GetValue(i), 0.0f);
    AscendC::DataCopy(t, gm, 4);  // 16 bytes: nothing moves, no error
  }
  const ProfileScope a2(Profile::kA2);
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECIN> buf;
  pipe.InitBuffer(buf, 64);
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(buf.Get<float>(), gm, 4); },
                        "count 4 (16 bytes) is not a multiple of 32 bytes"));
}

// ---- Cube kernels
// ------------------------------------------------------------

extern "C" __global__ __cube__ void frame_test_cube(GM_ADDR out) {
  reinterpret_cast<int32_t*>(out)[0] = 1;
}

TEST(CubeKernel, ALaunchRunsOnACubeCore) {
  int32_t out = 0;
  const int rc = LaunchKernel("frame_test_cube", 1, 0, nullptr, frame_test_cube,
                              reinterpret_cast<uint8_t*>(&out));
  EXPECT_EQ(rc, 0);
  EXPECT_EQ(out, 1);  // it ran (the cube path itself: tests/ascendc/cube)
  EXPECT_TRUE(normgrad_ascendc::IsCubeKernel(
      reinterpret_cast<const void*>(&frame_test_cube)));
  EXPECT_FALSE(normgrad_ascendc::IsCubeKernel(
      reinterpret_cast<const void*>(&WriteSystemVariables)));
}

}  // namespace

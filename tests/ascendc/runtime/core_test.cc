// core_test.cc — the emulated AI core through the Ascend C kernel header
// (kernel_operator.h): product profiles, the per-thread core, TPipe carving
// and UB overflow, TQue and TBuf misuse, PopStackBuffer bounds per profile,
// LocalTensor views and index errors, ShapeInfo, qualifiers and constants.
//
// Extending: one TEST per behaviour. Expected numbers are literals derived in
// a comment from docs/runtime.md. Errors are asserted with FailsWith (message
// substring); tests that depend on the profile set it with ProfileScope.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <type_traits>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::PopStackBuffer;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::TQue;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::CurrentCore;
using normgrad_ascendc::Profile;

// ---- Qualifiers, constants, types ------------------------------------------

// A kernel as Ascend C programs declare it must compile as plain C++.
extern "C" __global__ __aicore__ void EmptyKernel(GM_ADDR x) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  static_cast<void>(x);
}

TEST(Qualifiers, KernelDeclarationCompilesAndRuns) {
  uint8_t byte = 0;
  EmptyKernel(&byte);
  static_assert(std::is_same_v<GM_ADDR, uint8_t*>);
  static_assert(KERNEL_TYPE_AIV_ONLY == 0 && KERNEL_TYPE_MIX_AIC_1_2 == 5 &&
                KERNEL_TYPE_MAX == 10);
  static_assert(sizeof(KernelMetaType) == 1);
}

TEST(Qualifiers, ConstantsAndPositions) {
  static_assert(AscendC::B16_BYTE_SIZE == 2 &&
                AscendC::TWO_OF_STACK_BUFFER == 2);
  static_assert(AscendC::ONE_BLK_SIZE == 32 &&
                AscendC::ONE_REPEAT_BYTE_SIZE == 256);
  static_assert(AscendC::DEFAULT_REPEAT_STRIDE == 8 &&
                AscendC::MAX_REPEAT_TIMES == 255);
  static_assert(static_cast<int>(TPosition::GM) == 0 &&
                static_cast<int>(TPosition::VECIN) == 9 &&
                static_cast<int>(TPosition::MAX) == 16);
  static_assert(TPosition::LCM == TPosition::VECCALC &&
                TPosition::SHM == TPosition::SPM);
  static_assert(std::is_same_v<AscendC::QuePosition, TPosition>);
  static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2);
  EXPECT_EQ(float(half(1.5f) + half(2.25f)), 3.75f);
}

// ---- Profiles
// ----------------------------------------------------------------

TEST(Profile, Table) {
  // docs/runtime.md, "Product profiles": 192 KiB with the scratch ending 128
  // bytes early; 256 KiB; 248 KiB usable.
  const auto& a2 = normgrad_ascendc::GetProfileInfo(Profile::kA2);
  EXPECT_EQ(a2.ub_bytes, 196608u);
  EXPECT_EQ(a2.scratch_end, 196480u);
  EXPECT_EQ(a2.arch, 2201u);
  const auto& p310 = normgrad_ascendc::GetProfileInfo(Profile::k310P);
  EXPECT_EQ(p310.ub_bytes, 262144u);
  EXPECT_EQ(p310.scratch_end, 262144u);
  EXPECT_EQ(p310.arch, 2002u);
  const auto& p950 = normgrad_ascendc::GetProfileInfo(Profile::k950);
  EXPECT_EQ(p950.ub_bytes, 253952u);
  EXPECT_EQ(p950.scratch_end, 253952u);
  EXPECT_EQ(p950.arch, 3510u);
}

TEST(Profile, Parse) {
  Profile p = Profile::kA2;
  EXPECT_TRUE(normgrad_ascendc::ParseProfile("310P", &p));
  EXPECT_EQ(p, Profile::k310P);
  EXPECT_TRUE(normgrad_ascendc::ParseProfile("950", &p));
  EXPECT_EQ(p, Profile::k950);
  EXPECT_TRUE(normgrad_ascendc::ParseProfile("a2", &p));
  EXPECT_EQ(p, Profile::kA2);
  EXPECT_FALSE(normgrad_ascendc::ParseProfile("a3", &p));
  EXPECT_FALSE(normgrad_ascendc::ParseProfile("95", &p));
  EXPECT_FALSE(normgrad_ascendc::ParseProfile("9500", &p));
  EXPECT_FALSE(normgrad_ascendc::ParseProfile("", &p));
}

// The environment is read once per process, so these run in a fresh child.
TEST(ProfileDeathTest, EnvironmentSelectsAndVerboseReports) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("NORMGRAD_PROFILE", "310P", 1);
        setenv("NORMGRAD_VERBOSE", "1", 1);
        std::exit(normgrad_ascendc::CurrentProfile() == Profile::k310P &&
                          CurrentCore().ub_size() == 262144u
                      ? 0
                      : 1);
      },
      ::testing::ExitedWithCode(0),
      "normgrad: profile 310p: Atlas inference series \\(arch 2002\\), "
      "unified buffer 262144 bytes, framework scratch ends at 262144");
}

TEST(ProfileDeathTest, UnknownEnvironmentValueIsAnError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        setenv("NORMGRAD_PROFILE", "910b", 1);
        try {
          normgrad_ascendc::CurrentProfile();
        } catch (const normgrad_ascendc::KernelError& e) {
          std::fprintf(stderr, "%s\n", e.what());
          std::exit(3);
        }
        std::exit(0);
      },
      ::testing::ExitedWithCode(3),
      "NORMGRAD_PROFILE: unknown profile \"910b\"; valid: a2");
}

TEST(Profile, PipeCreationPicksUpTheProfile) {
  {
    ProfileScope profile(Profile::k310P);
    TPipe pipe;
    EXPECT_EQ(CurrentCore().ub_size(), 262144u);
  }
  ProfileScope profile(Profile::kA2);
  TPipe pipe;
  EXPECT_EQ(CurrentCore().ub_size(), 196608u);
  EXPECT_EQ(CurrentCore().scratch_end(), 196480u);
}

// ---- Cores
// -------------------------------------------------------------------

TEST(Core, DefaultCoreIsBlockZeroOfOne) {
  EXPECT_EQ(AscendC::GetBlockIdx(), 0);
  EXPECT_EQ(AscendC::GetBlockNum(), 1);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(CurrentCore().ub()) % 32, 0u);
}

TEST(Core, ScopedCoreSwitchesTheCurrentCore) {
  normgrad_ascendc::Core& default_core = CurrentCore();
  normgrad_ascendc::Core core;
  core.SetBlock(3, 8);
  {
    normgrad_ascendc::ScopedCore scope(core);
    EXPECT_EQ(&CurrentCore(), &core);
    EXPECT_EQ(AscendC::GetBlockIdx(), 3);
    EXPECT_EQ(AscendC::GetBlockNum(), 8);
    TPipe pipe;  // on `core`, independent of the default core's
    EXPECT_EQ(AscendC::GetTPipePtr(), &pipe);
  }
  EXPECT_EQ(&CurrentCore(), &default_core);
  EXPECT_EQ(AscendC::GetTPipePtr(), nullptr);
  EXPECT_TRUE(FailsWith([&] { core.SetBlock(8, 8); },
                        "Core::SetBlock: block 8 of 8 is out of range"));
}

TEST(Core, OneTPipePerCore) {
  TPipe pipe;
  EXPECT_EQ(AscendC::GetTPipePtr(), &pipe);
  EXPECT_TRUE(
      FailsWith([] { TPipe second; },
                "TPipe: a second TPipe was created on the core of block 0 "
                "while one exists"));
  EXPECT_EQ(AscendC::GetTPipePtr(), &pipe);
}

// ---- TPipe::InitBuffer
// ---------------------------------------------------------

// An API taking a CallSite as kernel APIs do; it calls a second one, as an
// API built on others does.
void InnerApi(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Fail("InnerApi: argument x is 3; it must be 0");
}
void OuterApi(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  InnerApi();
}

TEST(Core, ErrorsNameTheOutermostCallersFileAndLine) {
  const unsigned line = __LINE__ + 2;
  try {
    OuterApi();
    FAIL() << "OuterApi did not fail";
  } catch (const normgrad_ascendc::KernelError& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string(__FILE__) + ":" + std::to_string(line) +
                  ": InnerApi: argument x is 3; it must be 0");
  }
  EXPECT_EQ(normgrad_ascendc::CurrentCallSite(), nullptr);
  // Outside any API call, the message has no prefix.
  EXPECT_THROW(
      {
        try {
          normgrad_ascendc::Fail("plain");
        } catch (const normgrad_ascendc::KernelError& e) {
          EXPECT_STREQ(e.what(), "plain");
          throw;
        }
      },
      normgrad_ascendc::KernelError);
}

TEST(TPipe, CarvesConsecutivelyFromZeroRoundingUpTo32) {
  ProfileScope profile(Profile::kA2);
  TPipe pipe;
  TQue<TPosition::VECIN, 2> in;
  TBuf<TPosition::VECCALC> calc;
  TQue<TPosition::VECOUT, 1> out;
  pipe.InitBuffer(in, 2, 1000);  // 2 x 1024 at 0 and 1024
  pipe.InitBuffer(calc, 64);     // 64 at 2048
  pipe.InitBuffer(out, 1, 33);   // 64 at 2112
  EXPECT_EQ(pipe.used_bytes(), 2176u);

  LocalTensor<float> a = in.AllocTensor<float>();
  LocalTensor<float> b = in.AllocTensor<float>();
  EXPECT_EQ(a.view().offset, 0u);
  EXPECT_EQ(b.view().offset, 1024u);
  EXPECT_EQ(a.GetSize(), 250u);  // the requested 1000 bytes, not the rounding
  EXPECT_EQ(a.GetPosition(), TPosition::VECIN);
  EXPECT_EQ(calc.Get<float>().view().offset, 2048u);
  EXPECT_EQ(calc.Get<float>().GetSize(), 16u);
  EXPECT_EQ(calc.Get<half>(10).GetSize(), 10u);
  EXPECT_EQ(calc.Get<half>().GetPosition(), TPosition::VECCALC);
  LocalTensor<uint8_t> o = out.AllocTensor<uint8_t>();
  EXPECT_EQ(o.view().offset, 2112u);
  EXPECT_EQ(o.GetSize(), 33u);
  EXPECT_EQ(o.GetPhyAddr(), CurrentCore().ub() + 2112);
}

TEST(TPipe, OverflowNamesTheQueueTheRequestAndWhatIsLeft) {
  ProfileScope profile(Profile::kA2);
  TPipe pipe;
  TBuf<TPosition::VECCALC> first;
  TQue<TPosition::VECIN, 2> second;
  pipe.InitBuffer(first, 135040);  // leaves 196480 - 135040 = 61440
  EXPECT_TRUE(FailsWith(
      [&] { pipe.InitBuffer(second, 2, 65536); },
      "TPipe::InitBuffer: TQue<VECIN, 2> #2 requests 2 x 65536 bytes, which "
      "exceeds the unified buffer: 61440 of 196480 bytes left (profile Atlas "
      "A2/A3)"));
  EXPECT_TRUE(
      FailsWith([&] { pipe.InitBuffer(second, 2, 30721); },
                "requests 2 x 30752 bytes (len rounded up to a multiple "
                "of 32), which exceeds the unified buffer: 61440 of"));
  pipe.InitBuffer(second, 2, 30720);  // exactly fills the pool
  EXPECT_EQ(pipe.used_bytes(), 196480u);
}

TEST(TPipe, PoolEndsAtTheProfilesScratchEnd) {
  // 310P and 950: the scratch ends at the UB end; one byte more fails.
  for (Profile p : {Profile::k310P, Profile::k950}) {
    ProfileScope profile(p);
    TPipe pipe;
    TBuf<TPosition::VECCALC> all;
    TBuf<TPosition::VECCALC> more;
    const uint32_t end = normgrad_ascendc::GetProfileInfo(p).ub_bytes;
    pipe.InitBuffer(all, end);
    EXPECT_TRUE(FailsWith([&] { pipe.InitBuffer(more, 1); },
                          "TBuf<VECCALC> #2 requests 1 x 32 bytes (len rounded "
                          "up to a multiple of 32), which exceeds the unified "
                          "buffer: 0 of " +
                              std::to_string(end) + " bytes left"));
  }
}

TEST(TPipe, AtMost64Buffers) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> many;
  TBuf<TPosition::VECCALC> one_more;
  pipe.InitBuffer(many, 64, 32);
  EXPECT_TRUE(
      FailsWith([&] { pipe.InitBuffer(one_more, 32); },
                "TPipe::InitBuffer: TBuf<VECCALC> #2: 1 more buffers would "
                "make 65; a TPipe holds at most 64"));
}

TEST(TPipe, RejectsBadRequests) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> que;
  TQue<TPosition::A1, 1> l1;
  TBuf<TPosition::VECCALC> buf;
  EXPECT_TRUE(FailsWith([&] { pipe.InitBuffer(que, 0, 32); },
                        "TPipe::InitBuffer: TQue<VECIN, 1> #1: num is 0"));
  EXPECT_TRUE(
      FailsWith([&] { pipe.InitBuffer(l1, 1, 32); },
                "TQue<A1, 1> #1: position A1 is in the cube core's L1; this "
                "kernel runs on a vector core"));
  pipe.InitBuffer(que, 1, 32);
  pipe.InitBuffer(buf, 32);
  EXPECT_TRUE(
      FailsWith([&] { pipe.InitBuffer(que, 1, 32); },
                "TPipe::InitBuffer: TQue<VECIN, 1> #1 already has buffers"));
  EXPECT_TRUE(
      FailsWith([&] { pipe.InitBuffer(buf, 32); },
                "TPipe::InitBuffer: TBuf<VECCALC> #2 already has memory"));
}

// ---- TQue
// --------------------------------------------------------------------

TEST(TQue, FifoOrderRoundRobinAndQueuedLength) {
  TPipe pipe;
  TQue<TPosition::VECIN, 2> que;
  pipe.InitBuffer(que, 2, 64);
  LocalTensor<float> a = que.AllocTensor<float>();
  LocalTensor<float> b = que.AllocTensor<float>();
  b.SetSize(8);
  que.EnQue(b);
  que.EnQue<float>(a);
  LocalTensor<float> first = que.DeQue<float>();
  LocalTensor<float> second = que.DeQue<float>();
  EXPECT_EQ(first.view().offset, b.view().offset);
  EXPECT_EQ(first.GetSize(), 8u);  // as it was queued
  EXPECT_EQ(second.view().offset, a.view().offset);
  EXPECT_EQ(second.GetSize(), 16u);
  que.FreeTensor(first);
  que.FreeTensor(second);
  // Round robin: the buffer after the last one allocated (b, #1) is #0.
  EXPECT_EQ(que.AllocTensor<float>().view().offset, 0u);
  EXPECT_EQ(que.AllocTensor<float>().view().offset, 64u);
}

TEST(TQue, MisuseIsAnError) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> que;
  TQue<TPosition::VECOUT, 1> other;
  EXPECT_TRUE(FailsWith([&] { que.AllocTensor<float>(); },
                        "TQue<VECIN, 1>::AllocTensor: the queue has no buffers "
                        "(TPipe::InitBuffer was not called for it)"));
  pipe.InitBuffer(que, 1, 256);
  pipe.InitBuffer(other, 1, 256);
  EXPECT_TRUE(FailsWith([&] { que.DeQue<float>(); },
                        "TQue<VECIN, 1> #1::DeQue: the queue is empty"));
  LocalTensor<float> t = que.AllocTensor<float>();
  EXPECT_TRUE(FailsWith([&] { que.AllocTensor<float>(); },
                        "TQue<VECIN, 1> #1::AllocTensor: no free buffer: all 1 "
                        "buffers are allocated or queued"));
  LocalTensor<float> foreign = other.AllocTensor<float>();
  EXPECT_TRUE(
      FailsWith([&] { que.FreeTensor(foreign); },
                "TQue<VECIN, 1> #1::FreeTensor: the tensor at UB offset "
                "256 (256 bytes) is not a buffer of this queue"));
  EXPECT_TRUE(FailsWith([&] { que.EnQue(t[8]); },
                        "TQue<VECIN, 1> #1::EnQue: the tensor at UB offset 32 "
                        "(224 bytes) is not a buffer of this queue"));
  que.EnQue(t);
  EXPECT_TRUE(FailsWith([&] { que.EnQue(t); },
                        "EnQue: the buffer at UB offset 0 is already queued"));
  EXPECT_TRUE(
      FailsWith([&] { que.FreeTensor(t); },
                "FreeTensor: the buffer at UB offset 0 is still queued"));
  que.FreeTensor(que.DeQue<float>());
  EXPECT_TRUE(
      FailsWith([&] { que.FreeTensor(t); },
                "TQue<VECIN, 1> #1::FreeTensor: the buffer at UB offset 0 "
                "is already free (freed twice?)"));
  EXPECT_TRUE(
      FailsWith([&] { que.EnQue(t); },
                "EnQue: the buffer at UB offset 0 is free (AllocTensor it "
                "first)"));
  EXPECT_TRUE(FailsWith([&] { que.FreeTensor(LocalTensor<float>()); },
                        "is not a buffer of this queue"));
}

// ---- TBuf
// --------------------------------------------------------------------

TEST(TBuf, GetChecksTheLength) {
  TPipe pipe;
  TBuf<> buf;  // LCM by default
  EXPECT_TRUE(FailsWith([&] { buf.Get<float>(); },
                        "TBuf<VECCALC>::Get: the buffer has no memory"));
  pipe.InitBuffer(buf, 100);
  EXPECT_EQ(buf.Get<float>().GetSize(), 25u);
  EXPECT_EQ(buf.Get<float>(25).GetSize(), 25u);
  EXPECT_TRUE(FailsWith([&] { buf.Get<float>(26); },
                        "TBuf<VECCALC> #1::Get<float>: 26 elements (104 bytes) "
                        "exceed the buffer's 100 bytes"));
}

// ---- PopStackBuffer
// ----------------------------------------------------------

TEST(PopStackBuffer, RegionFromThePipesEndToTheScratchEndPerProfile) {
  // After 1000 bytes (rounded to 1024) of buffers, the scratch is
  // [1024, scratch end): A2 196480 - 1024 = 195456 bytes = 48864 floats;
  // 310P 262144 - 1024 = 261120 bytes = 65280 floats; 950 253952 - 1024 =
  // 252928 bytes = 63232 floats.
  const struct {
    Profile profile;
    uint32_t floats;
  } cases[] = {
      {Profile::kA2, 48864}, {Profile::k310P, 65280}, {Profile::k950, 63232}};
  for (const auto& c : cases) {
    ProfileScope profile(c.profile);
    TPipe pipe;
    TBuf<TPosition::VECIN> buf;
    pipe.InitBuffer(buf, 1000);
    LocalTensor<float> scratch;
    ASSERT_TRUE((PopStackBuffer<float, TPosition::LCM>(scratch)));
    EXPECT_EQ(scratch.view().offset, 1024u);
    EXPECT_EQ(scratch.GetSize(), c.floats);
    EXPECT_EQ(scratch.GetPosition(), TPosition::VECCALC);
    EXPECT_EQ(scratch.GetPhyAddr(),
              reinterpret_cast<float*>(CurrentCore().ub() + 1024));
    LocalTensor<uint8_t> again;  // nothing is consumed
    ASSERT_TRUE((PopStackBuffer<uint8_t, TPosition::LCM>(again)));
    EXPECT_EQ(again.view().offset, 1024u);
    EXPECT_EQ(again.GetSize(), c.floats * 4);
  }
}

TEST(PopStackBuffer, WithoutAPipeTheWholePoolAndWhenFullNothing) {
  ProfileScope profile(Profile::kA2);
  LocalTensor<uint8_t> scratch;
  ASSERT_TRUE((PopStackBuffer<uint8_t, TPosition::LCM>(scratch)));
  EXPECT_EQ(scratch.view().offset, 0u);
  EXPECT_EQ(scratch.GetSize(), 196480u);

  TPipe pipe;
  TBuf<TPosition::VECCALC> all;
  pipe.InitBuffer(all, 196480);
  EXPECT_FALSE((PopStackBuffer<uint8_t, TPosition::LCM>(scratch)));
  EXPECT_EQ(scratch.GetSize(), 0u);
  EXPECT_TRUE(
      FailsWith([&] { PopStackBuffer<uint8_t, TPosition::GM>(scratch); },
                "PopStackBuffer: position GM is not in the unified buffer"));
}

// ---- LocalTensor
// ---------------------------------------------------------------

TEST(LocalTensor, DefaultIsEmpty) {
  LocalTensor<float> t;
  EXPECT_EQ(t.GetSize(), 0u);
  EXPECT_EQ(t.GetPhyAddr(), nullptr);
  EXPECT_TRUE(
      FailsWith([&] { t.GetValue(0); },
                "LocalTensor<float>::GetValue: index 0 is past the end of "
                "a tensor of 0 elements"));
  EXPECT_TRUE(FailsWith([&] { t.SetSize(4); },
                        "LocalTensor<float>::SetSize: the tensor is empty"));
}

TEST(LocalTensor, ViewsCopiesAndCasts) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<float> t = buf.Get<float>();
  for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, 0.5f * i);
  LocalTensor<float> copy = t;  // a view of the same memory
  copy.SetValue(3, 42.0f);
  EXPECT_EQ(t.GetValue(3), 42.0f);

  LocalTensor<float> tail = t[10];
  EXPECT_EQ(tail.GetSize(), 6u);
  EXPECT_EQ(tail.view().offset, t.view().offset + 40);
  EXPECT_EQ(tail.GetValue(0), 5.0f);
  EXPECT_EQ(t[16].GetSize(), 0u);  // the end itself is an empty view

  LocalTensor<uint8_t> bytes = t.ReinterpretCast<uint8_t>();
  EXPECT_EQ(bytes.GetSize(), 64u);
  EXPECT_EQ(static_cast<void*>(bytes.GetPhyAddr()),
            static_cast<void*>(t.GetPhyAddr()));
  LocalTensor<half> halves = t.ReinterpretCast<half>();
  EXPECT_EQ(halves.GetSize(), 32u);
  halves.SetValue(31, half(-2.0f));
  EXPECT_EQ(float(halves.GetValue(31)), -2.0f);

  t.SetSize(4);
  EXPECT_EQ(t.GetSize(), 4u);
  t.SetSize(1000);  // may grow past its buffer, not past the UB
  EXPECT_EQ(t.GetSize(), 1000u);
}

TEST(LocalTensor, IndexAndLengthErrors) {
  ProfileScope profile(Profile::kA2);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<float> t = buf.Get<float>();
  EXPECT_TRUE(
      FailsWith([&] { t.GetValue(16); },
                "LocalTensor<float>::GetValue: index 16 is past the end "
                "of a tensor of 16 elements"));
  EXPECT_TRUE(
      FailsWith([&] { t.SetValue(99, 1.0f); },
                "LocalTensor<float>::SetValue: index 99 is past the end "
                "of a tensor of 16 elements"));
  EXPECT_TRUE(FailsWith([&] { t[17]; },
                        "LocalTensor<float>::operator[]: offset 17 is past the "
                        "end of a tensor of 16 elements"));
  EXPECT_TRUE(FailsWith([&] { t[8].GetValue(8); },
                        "index 8 is past the end of a tensor of 8 elements"));
  // 49153 floats = 196612 bytes > 196608.
  EXPECT_TRUE(FailsWith([&] { t.SetSize(49153); },
                        "LocalTensor<float>::SetSize: 49153 elements (196612 "
                        "bytes) at UB offset 0 run past the end of the unified "
                        "buffer (196608 bytes, profile Atlas A2/A3)"));
  EXPECT_TRUE(FailsWith([&] { t.ReinterpretCast<half>().GetValue(32); },
                        "LocalTensor<half>::GetValue: index 32"));
}

// ---- ShapeInfo
// ---------------------------------------------------------------

TEST(ShapeInfo, Constructors) {
  const uint32_t shape[] = {2, 3, 16};
  const uint32_t original[] = {2, 3, 13};
  AscendC::ShapeInfo empty;
  EXPECT_EQ(empty.shapeDim, 0);
  EXPECT_EQ(empty.dataFormat, AscendC::DataFormat::ND);
  AscendC::ShapeInfo nd(3, shape);
  EXPECT_EQ(nd.shapeDim, 3);
  EXPECT_EQ(nd.originalShapeDim, 3);
  EXPECT_EQ(nd.shape[2], 16u);
  EXPECT_EQ(nd.originalShape[2], 16u);
  EXPECT_EQ(nd.shape[3], 0u);
  AscendC::ShapeInfo nz(3, shape, AscendC::DataFormat::NZ);
  EXPECT_EQ(nz.dataFormat, AscendC::DataFormat::NZ);
  AscendC::ShapeInfo both(3, shape, 3, original, AscendC::DataFormat::ND);
  EXPECT_EQ(both.shape[2], 16u);
  EXPECT_EQ(both.originalShape[2], 13u);
  static_assert(static_cast<int>(AscendC::DataFormat::FRACTAL_Z_3D) == 7);
  const uint32_t nine[9] = {};
  EXPECT_TRUE(
      FailsWith([&] { AscendC::ShapeInfo bad(9, nine); },
                "ShapeInfo: shapeDim 9 exceeds the maximum of 8 dimensions"));
}

}  // namespace

// cube_mix_test.cc — mixed cube-and-vector kernels (docs/cube.md, "Cube
// cores"): the cores a KERNEL_TYPE_MIX_AIC_1_1 / _1_2 launch starts and what
// GetBlockIdx, GetBlockNum, GetSubBlockIdx, GetSubBlockNum, GetTaskRatio and
// g_coreType tell each of them (the pages' tables), CrossCoreSetFlag /
// CrossCoreWaitFlag in modes 0, 1 and 2 between them, and each rule's
// message: flag and mode ranges, a mode on a kind of core or kernel without
// it, a flag counted past 15, a wait that can never end, a mixed launch the
// profile cannot start. Part of compat_cube_test.
//
// Extending: kernels are written as Ascend C programs write them and
// launched as normgrad-cc's rewrite of `k<<<n, 0, nullptr>>>(args)` would;
// a launch expected to fail runs under the return policy (Failing) and its
// stderr is matched.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;
using normgrad_ascendc::Profile;

uint8_t* Bytes(std::vector<int32_t>& v) {
  return reinterpret_cast<uint8_t*>(v.data());
}

// Runs launch() under the return policy; returns what it printed on stderr,
// and its code in *rc.
template <typename Launch>
std::string Failing(Launch launch, int* rc) {
  const KernelErrorPolicy previous = normgrad_ascendc::GetKernelErrorPolicy();
  normgrad_ascendc::SetKernelErrorPolicy(KernelErrorPolicy::kReturn);
  testing::internal::CaptureStderr();
  *rc = launch();
  std::string text = testing::internal::GetCapturedStderr();
  normgrad_ascendc::SetKernelErrorPolicy(previous);
  normgrad_ascendc::TakeLaunchError();
  return text;
}

bool Has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  ADD_FAILURE() << "missing \"" << part << "\" in:\n" << text;
  return false;
}

// ---- Which cores run, and what each is told --------------------------------

// Each core writes (g_coreType, GetBlockIdx, GetBlockNum, GetSubBlockIdx,
// GetSubBlockNum, GetTaskRatio) at its GetBlockIdx() in the table of its
// kind.
constexpr int kFields = 6;

void RecordCore(GM_ADDR cubes, GM_ADDR vectors) {
  int32_t* row = reinterpret_cast<int32_t*>(ASCEND_IS_AIC ? cubes : vectors) +
                 GetBlockIdx() * kFields;
  row[0] = g_coreType;
  row[1] = static_cast<int32_t>(GetBlockIdx());
  row[2] = static_cast<int32_t>(GetBlockNum());
  row[3] = static_cast<int32_t>(GetSubBlockIdx());
  row[4] = static_cast<int32_t>(GetSubBlockNum());
  row[5] = static_cast<int32_t>(GetTaskRatio());
}

extern "C" __global__ __mix__(1, 2) void mix12_record(GM_ADDR cubes,
                                                      GM_ADDR vectors) {
  RecordCore(cubes, vectors);
}

extern "C" __global__ __mix__(1, 1) void mix11_record(GM_ADDR cubes,
                                                      GM_ADDR vectors) {
  RecordCore(cubes, vectors);
}

// The same through the kernel type instead of the qualifier.
void declared_mix12_record(GM_ADDR cubes, GM_ADDR vectors) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  RecordCore(cubes, vectors);
}

// The table the pages give for numBlocks AI Cores of `ratio` vector cores:
// cube core c is index c of numBlocks, sub-block 0 of 1, ratio 1; vector
// core v is index v of numBlocks (v < ratio · numBlocks), sub-block v %
// ratio of ratio, task ratio `ratio`. -1 where no core wrote.
std::vector<int32_t> Expected(bool cube, int32_t blocks, int32_t ratio,
                              int32_t rows) {
  std::vector<int32_t> want(rows * kFields, -1);
  const int32_t cores = cube ? blocks : blocks * ratio;
  for (int32_t i = 0; i < cores; ++i) {
    const std::vector<int32_t> row =
        cube ? std::vector<int32_t>{AIC, i, blocks, 0, 1, 1}
             : std::vector<int32_t>{AIV, i, blocks, i % ratio, ratio, ratio};
    std::copy(row.begin(), row.end(), want.begin() + i * kFields);
  }
  return want;
}

TEST(MixedKernel, OneToTwoStartsACubeCoreAndTwoVectorCoresPerBlock) {
  const int32_t blocks = 3;
  std::vector<int32_t> cubes(8 * kFields, -1), vectors(8 * kFields, -1);
  ASSERT_EQ(LaunchKernel("mix12_record", blocks, 0, nullptr, mix12_record,
                         Bytes(cubes), Bytes(vectors)),
            0);
  EXPECT_EQ(cubes, Expected(true, blocks, 2, 8));
  EXPECT_EQ(vectors, Expected(false, blocks, 2, 8));
  // Stating the type in the kernel starts the same cores.
  std::vector<int32_t> cubes2(8 * kFields, -1), vectors2(8 * kFields, -1);
  ASSERT_EQ(LaunchKernel("declared_mix12_record", blocks, 0, nullptr,
                         declared_mix12_record, Bytes(cubes2), Bytes(vectors2)),
            0);
  EXPECT_EQ(cubes2, cubes);
  EXPECT_EQ(vectors2, vectors);
}

TEST(MixedKernel, OneToOneStartsACubeCoreAndAVectorCorePerBlock) {
  const int32_t blocks = 2;
  std::vector<int32_t> cubes(4 * kFields, -1), vectors(4 * kFields, -1);
  ASSERT_EQ(LaunchKernel("mix11_record", blocks, 0, nullptr, mix11_record,
                         Bytes(cubes), Bytes(vectors)),
            0);
  EXPECT_EQ(cubes, Expected(true, blocks, 1, 4));
  EXPECT_EQ(vectors, Expected(false, blocks, 1, 4));
}

extern "C" __global__ __mix__(1, 2) void mix12_print(GM_ADDR) {
  AscendC::printf("sub-block %d\n", static_cast<int>(GetSubBlockIdx()));
}

TEST(MixedKernel, OutputNamesEachCoreByItsKind) {
  std::vector<int32_t> unused(1);
  testing::internal::CaptureStdout();
  ASSERT_EQ(
      LaunchKernel("mix12_print", 1, 0, nullptr, mix12_print, Bytes(unused)),
      0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "[AIC 0/1] sub-block 0\n[AIV 0/2] sub-block 0\n"
            "[AIV 1/2] sub-block 1\n");
}

TEST(MixedKernel, OutsideMixedKernelsEveryBlockIsACoreOfItsOwn) {
  EXPECT_EQ(g_coreType, AIV);
  EXPECT_EQ(GetSubBlockIdx(), 0);
  EXPECT_EQ(GetSubBlockNum(), 1);
  EXPECT_EQ(GetTaskRatio(), 1);
}

TEST(MixedKernel, ALaunchTheProfileCannotStartIsRefused) {
  std::vector<int32_t> cubes(kFields), vectors(kFields);
  int rc = 0;
  // Atlas A2/A3: 24 cube cores, 48 vector cores.
  std::string text = Failing(
      [&] {
        return LaunchKernel("mix12_record", 25, 0, nullptr, mix12_record,
                            Bytes(cubes), Bytes(vectors));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kInvalidLaunchCode);
  Has(text,
      "normgrad: kernel mix12_record: numBlocks 25 of a "
      "KERNEL_TYPE_MIX_AIC_1_2 kernel starts 25 cube cores and 50 vector "
      "cores, more than the 24 cube and 48 vector cores of the a2 profile "
      "(Atlas A2/A3)");
  text = Failing(
      [&] {
        return LaunchKernel("declared_mix12_record", 25, 0, nullptr,
                            declared_mix12_record, Bytes(cubes),
                            Bytes(vectors));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kInvalidLaunchCode);
  Has(text, "numBlocks 25 of a KERNEL_TYPE_MIX_AIC_1_2 kernel starts 25 cube");
  const ProfileScope p310(Profile::k310P);
  text = Failing(
      [&] {
        return LaunchKernel("mix11_record", 1, 0, nullptr, mix11_record,
                            Bytes(cubes), Bytes(vectors));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kInvalidLaunchCode);
  Has(text,
      "normgrad: kernel mix11_record: KERNEL_TYPE_MIX_AIC_1_1 starts cube "
      "and vector cores together, but the 310p profile (Atlas inference "
      "series) has AI Cores that hold both units");
}

void declared_other_ratio(GM_ADDR, GM_ADDR) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
}

TEST(MixedKernel, AKernelStatesOneMixedType) {
  std::vector<int32_t> unused(1);
  int rc = 0;
  const std::string text = Failing(
      [&] {
        return LaunchKernel("declared_other_ratio", 1, 0, nullptr,
                            declared_other_ratio, Bytes(unused), Bytes(unused));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text,
      "normgrad: kernel declared_other_ratio AIC 0/1: "
      "KERNEL_TASK_TYPE_DEFAULT: KERNEL_TYPE_MIX_AIC_1_1 differs from the "
      "KERNEL_TYPE_MIX_AIC_1_2 the kernel runs as");
  Has(text, "declared_other_ratio AIV 1/2: KERNEL_TASK_TYPE_DEFAULT");
}

// ---- Cross-core flags
// --------------------------------------------------------

constexpr int kRounds = 3;

// Mode 2 both ways, kRounds times: the cube core of AI Core c publishes
// 100·c + r and sets flag 5; each of its vector cores waits, answers
// 2·value + its sub-block and sets flag 6; the cube core waits for both and
// records the sum of the answers.
extern "C" __global__ __mix__(1, 2) void mix12_ping_pong(GM_ADDR work,
                                                         GM_ADDR sums) {
  int32_t* w = reinterpret_cast<int32_t*>(work);
  if ASCEND_IS_AIC {
    const int64_t c = GetBlockIdx();
    for (int r = 0; r < kRounds; ++r) {
      w[c * 4] = static_cast<int32_t>(100 * c + r);
      CrossCoreSetFlag<2, PIPE_FIX>(5);
      CrossCoreWaitFlag<2, PIPE_FIX>(6);
      reinterpret_cast<int32_t*>(sums)[c * kRounds + r] =
          w[c * 4 + 1] + w[c * 4 + 2];
    }
  } else {
    const int64_t c = GetBlockIdx() / GetTaskRatio();
    const int64_t s = GetSubBlockIdx();
    for (int r = 0; r < kRounds; ++r) {
      CrossCoreWaitFlag<2, PIPE_MTE2>(5);
      w[c * 4 + 1 + s] = 2 * w[c * 4] + static_cast<int32_t>(s);
      CrossCoreSetFlag<2, PIPE_MTE3>(6);
    }
  }
}

TEST(CrossCoreFlags, ModeTwoPairsACubeCoreWithItsVectorCores) {
  const int32_t blocks = 2;
  std::vector<int32_t> work(blocks * 4, 0), sums(blocks * kRounds, -1);
  ASSERT_EQ(LaunchKernel("mix12_ping_pong", blocks, 0, nullptr, mix12_ping_pong,
                         Bytes(work), Bytes(sums)),
            0);
  for (int32_t c = 0; c < blocks; ++c) {
    for (int32_t r = 0; r < kRounds; ++r) {
      const int32_t value = 100 * c + r;
      EXPECT_EQ(sums[c * kRounds + r], (2 * value + 0) + (2 * value + 1))
          << c << " " << r;
    }
  }
}

// Mode 0 among the cube cores and among the vector cores (the same flagId
// on the two kinds, as the page allows), mode 1 between the two vector
// cores of each AI Core. Each core writes its mark, meets the others and
// reads theirs back.
extern "C" __global__ __mix__(1, 2) void mix12_groups(GM_ADDR marks,
                                                      GM_ADDR seen) {
  int32_t* m = reinterpret_cast<int32_t*>(marks);
  int32_t* out = reinterpret_cast<int32_t*>(seen);
  const int64_t n = GetBlockNum();
  if ASCEND_IS_AIC {
    const int64_t c = GetBlockIdx();
    m[c] = static_cast<int32_t>(c + 1);
    CrossCoreSetFlag<0, PIPE_FIX>(1);
    CrossCoreWaitFlag<0, PIPE_FIX>(1);
    int32_t sum = 0;
    for (int64_t i = 0; i < n; ++i) sum += m[i];
    out[c] = sum;
  } else {
    const int64_t v = GetBlockIdx();
    m[n + v] = static_cast<int32_t>(10 * (v + 1));
    CrossCoreSetFlag<1, PIPE_MTE3>(1);
    CrossCoreWaitFlag<1, PIPE_MTE3>(1);
    out[n + v] = m[n + (v ^ 1)];  // the other vector core of the AI Core
    CrossCoreSetFlag<0, PIPE_MTE3>(2);
    CrossCoreWaitFlag<0, PIPE_MTE3>(2);
    int32_t sum = 0;
    for (int64_t i = 0; i < 2 * n; ++i) sum += m[n + i];
    out[3 * n + v] = sum;
  }
}

TEST(CrossCoreFlags, ModesZeroAndOneSynchronizeGroupsOfOneKind) {
  const int32_t n = 3;
  std::vector<int32_t> marks(3 * n, 0), seen(5 * n, -1);
  ASSERT_EQ(LaunchKernel("mix12_groups", n, 0, nullptr, mix12_groups,
                         Bytes(marks), Bytes(seen)),
            0);
  for (int32_t c = 0; c < n; ++c) EXPECT_EQ(seen[c], 1 + 2 + 3);
  int32_t all = 0;
  for (int32_t v = 0; v < 2 * n; ++v) all += 10 * (v + 1);
  for (int32_t v = 0; v < 2 * n; ++v) {
    EXPECT_EQ(seen[n + v], 10 * ((v ^ 1) + 1)) << v;
    EXPECT_EQ(seen[3 * n + v], all) << v;
  }
}

TEST(CrossCoreFlags, FlagIdsAndModesOutOfRange) {
  EXPECT_TRUE(FailsWith([] { CrossCoreSetFlag<0, PIPE_MTE3>(16); },
                        "CrossCoreSetFlag: flagId 16 is out of range; modes "
                        "0, 1 and 2 have flags 0..15"));
  EXPECT_TRUE(FailsWith([] { CrossCoreWaitFlag<2, PIPE_MTE3>(31); },
                        "CrossCoreWaitFlag: flagId 31 is out of range"));
  EXPECT_TRUE(FailsWith([] { CrossCoreSetFlag<3, PIPE_MTE3>(0); },
                        "CrossCoreSetFlag: modeId 3 is not a synchronization "
                        "mode; use 0, 1 or 2"));
  EXPECT_TRUE(FailsWith([] { CrossCoreWaitFlag<4, PIPE_S>(0); },
                        "CrossCoreWaitFlag: modeId 4 (a cube core with one "
                        "of its vector cores) exists on the Ascend 950 "
                        "only"));
  // Modes 1 and 2 need the cube and vector cores of a mixed kernel.
  EXPECT_TRUE(FailsWith([] { CrossCoreSetFlag<2, PIPE_MTE3>(0); },
                        "CrossCoreSetFlag: modeId 2 synchronizes the cores "
                        "of one AI Core in a mixed kernel "
                        "(KERNEL_TYPE_MIX_AIC_1_1 or _1_2, __mix__(1, 1) or "
                        "(1, 2)); this kernel runs on vector cores only"));
  EXPECT_TRUE(FailsWith([] { CrossCoreWaitFlag<1, PIPE_MTE3>(0); },
                        "CrossCoreWaitFlag: modeId 1 synchronizes the cores "
                        "of one AI Core in a mixed kernel"));
}

int mode1_line = 0;  // the line of the call below
extern "C" __global__ __mix__(1, 2) void mix12_mode1_on_cube(GM_ADDR) {
  if ASCEND_IS_AIC {
    mode1_line = __LINE__ + 1;
    CrossCoreSetFlag<1, PIPE_FIX>(0);
  }
}

// The cube core sets flag 0 sixteen times; its vector cores never wait.
extern "C" __global__ __mix__(1, 2) void mix12_overflow(GM_ADDR) {
  if ASCEND_IS_AIC {
    for (int i = 0; i < 16; ++i) CrossCoreSetFlag<2, PIPE_FIX>(0);
  }
}

// The vector cores wait for a flag their cube core never sets.
extern "C" __global__ __mix__(1, 2) void mix12_never_set(GM_ADDR) {
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag<2, PIPE_MTE2>(3);
  }
}

// A mixed kernel synchronizes its cores with the flags.
extern "C" __global__ __mix__(1, 1) void mix11_sync_all(GM_ADDR) { SyncAll(); }

TEST(CrossCoreFlags, BadUsesInMixedKernels) {
  std::vector<int32_t> unused(1);
  int rc = 0;
  std::string text = Failing(
      [&] {
        return LaunchKernel("mix12_mode1_on_cube", 1, 0, nullptr,
                            mix12_mode1_on_cube, Bytes(unused));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text, "normgrad: kernel mix12_mode1_on_cube AIC 0/1: ");
  Has(text, "cube_mix_test.cc:" + std::to_string(mode1_line) +
                ": CrossCoreSetFlag: modeId 1 synchronizes the vector cores of "
                "one AI Core; a cube core "
                "takes no part (modeId 2 pairs it with its vector cores)");

  text = Failing(
      [&] {
        return LaunchKernel("mix12_overflow", 1, 0, nullptr, mix12_overflow,
                            Bytes(unused));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text, "normgrad: kernel mix12_overflow AIC 0/1: ");
  Has(text,
      "CrossCoreSetFlag: flagId 0 "
      "(modeId 2) would count 16 on AIV 0, which has not waited for them; a "
      "flag counts at most 15 (pair each CrossCoreSetFlag with a "
      "CrossCoreWaitFlag)");

  text = Failing(
      [&] {
        return LaunchKernel("mix12_never_set", 1, 0, nullptr, mix12_never_set,
                            Bytes(unused));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text, "normgrad: kernel mix12_never_set AIV 0/2: ");
  Has(text,
      ": deadlock: every block still "
      "running waits and none can proceed; this block waits in "
      "CrossCoreWaitFlag(flagId 3, modeId 2, its 1st wait)");
  Has(text,
      "(AIC 0 ended; AIV 1 waits in CrossCoreWaitFlag(flagId 3, modeId "
      "2, its 1st wait)");

  text = Failing(
      [&] {
        return LaunchKernel("mix11_sync_all", 1, 0, nullptr, mix11_sync_all,
                            Bytes(unused));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text, "normgrad: kernel mix11_sync_all AIC 0/1: ");
  Has(text,
      ": SyncAll: not emulated in a "
      "mixed cube-and-vector kernel yet (1:1); synchronize its cores with "
      "CrossCoreSetFlag/CrossCoreWaitFlag");
}

}  // namespace

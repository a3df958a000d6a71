// cube_res_group_test.cc — cube resource groups (docs/cube.md, "Cube resource
// groups"): KfcWorkspace, CreateCubeResGroup and the CubeResGroupHandle
// members in mixed kernels — messages from vector cores run by the callback
// of the cube core that serves their queue, on one and several cube cores;
// queues deeper than four messages; two groups sharing the vector cores;
// fake messages, merged ones with SetSkipMsg; Wait without waiting; the UB
// a group keeps; and each rule's message, with the
// deadlock reports of a loop no queue quits and of a cube core that never
// serves. Part of compat_cube_test.
//
// Extending: kernels are written as Ascend C programs write them and
// launched as normgrad-cc's rewrite of `k<<<n, 0, nullptr>>>(args)` would;
// a launch expected to fail runs under the return policy (Failing) and its
// stderr is matched. Every result a callback writes is an exact integer.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;

// ---- The program's pieces ---------------------------------------------------

// A job: the callback writes value · factor and the cube core's index at
// `out`; skipCnt > 0 makes it stand for the FAKE messages of the next
// skipCnt queues.
struct Job {
  CubeGroupMsgHead head;
  uint8_t skipCnt;
  uint8_t unused;
  int32_t value;
  uint64_t out;
  uint8_t rest[48];
};
static_assert(sizeof(Job) == 64, "a message is whole 64-byte blocks");

// The cube core's compute object (what Matmul<> is in real programs).
struct Scaler {
  int32_t factor = 0;
  int32_t* calls = nullptr;  // a count in GM, for the tests
};

template <class Obj, class Msg>
struct ScaleJobs {
  // The tiling holds the factor and then the count of Calls.
  static void Init(ScaleJobs& funcs, Obj& obj, GM_ADDR tiling) {
    ++funcs.inits;
    obj.factor = reinterpret_cast<int32_t*>(tiling)[0];
    obj.calls = reinterpret_cast<int32_t*>(tiling) + 1;
  }
  static void Call(Obj& obj, __gm__ Msg* msg, CubeResGroupHandle<Msg>& handle) {
    int32_t* out = reinterpret_cast<int32_t*>(msg->out);
    out[0] = msg->value * obj.factor;
    out[1] = static_cast<int32_t>(GetBlockIdx());
    __atomic_add_fetch(obj.calls, 1, __ATOMIC_RELAXED);
    const uint8_t skip = msg->skipCnt;
    handle.FreeMessage(msg, CubeMsgState::VALID);
    for (uint8_t i = 1; i <= skip; ++i) {
      handle.FreeMessage(msg + i, CubeMsgState::FAKE);
    }
    if (skip > 0) handle.SetSkipMsg(skip);
  }
  int inits = 0;
};

// A 64-byte aligned, zeroed GM area (the KfcWorkspace).
struct Workspace {
  explicit Workspace(size_t bytes)
      : data(static_cast<uint8_t*>(std::aligned_alloc(512, bytes)), std::free) {
    std::fill(data.get(), data.get() + bytes, uint8_t{0});
  }
  std::unique_ptr<uint8_t, decltype(&std::free)> data;
};

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

uint8_t* Bytes(std::vector<int32_t>& v) {
  return reinterpret_cast<uint8_t*>(v.data());
}

// ---- The message flow -----------------------------------------------------

// Vector core v (v < queues) binds queue v and posts `jobs` jobs (value v ·
// 100 + j, results at results[(v · jobs + j) · 2 ..]), waiting for every
// third and the last; then quits. Cube cores serve their queues.
extern "C" __global__ __mix__(1, 2) void group_jobs(
    GM_ADDR workspace, GM_ADDR tiling, GM_ADDR results, int32_t blockStart,
    int32_t blockSize, int32_t queues, int32_t jobs) {
  KfcWorkspace desc(workspace);
  auto handle = CreateCubeResGroup<1, Scaler, ScaleJobs, Job>(
      desc, blockStart, blockSize, queues, tiling);
  if ASCEND_IS_AIC {
    return;
  }
  const int32_t v = static_cast<int32_t>(GetBlockIdx());
  if (v >= queues) return;
  handle.AssignQueue(v);
  int32_t* out = reinterpret_cast<int32_t*>(results) + v * jobs * 2;
  uint16_t offset = 0;
  for (int32_t j = 0; j < jobs; ++j) {
    auto* msg = handle.AllocMessage();
    Job job{};
    job.head = {CubeMsgState::VALID, static_cast<uint8_t>(v)};
    job.value = v * 100 + j;
    job.out = reinterpret_cast<uint64_t>(out + 2 * j);
    offset = handle.PostMessage(msg, job);
    if (j % 3 == 2) handle.Wait(offset);
  }
  handle.Wait(offset);
  handle.SetQuit(handle.AllocMessage());
}

// What group_jobs leaves: per vector core and job, value · factor and the
// cube core that ran it (queue v on cube core first + v / perCore); -1
// elsewhere.
std::vector<int32_t> ExpectedJobs(int32_t cores, int32_t queues, int32_t jobs,
                                  int32_t factor, int32_t firstCube,
                                  int32_t perCore) {
  std::vector<int32_t> want(cores * jobs * 2, -1);
  for (int32_t v = 0; v < queues; ++v) {
    for (int32_t j = 0; j < jobs; ++j) {
      want[(v * jobs + j) * 2] = (v * 100 + j) * factor;
      want[(v * jobs + j) * 2 + 1] = firstCube + v / perCore;
    }
  }
  return want;
}

TEST(CubeResGroup, OneCubeCoreRunsEveryMessageOfItsTwoQueues) {
  const int32_t jobs = 9;  // more than a queue's four places
  Workspace ws(64 * 1024);
  std::vector<int32_t> tiling = {3, 0};
  std::vector<int32_t> results(2 * jobs * 2, -1);
  ASSERT_EQ(LaunchKernel("group_jobs", 1, 0, nullptr, group_jobs, ws.data.get(),
                         Bytes(tiling), Bytes(results), 0, 2, 2, jobs),
            0);
  EXPECT_EQ(results, ExpectedJobs(2, 2, jobs, 3, 0, 2));
  EXPECT_EQ(tiling[1], 2 * jobs);
}

TEST(CubeResGroup, EachCubeCoreServesItsShareOfTheQueues) {
  const int32_t jobs = 5;
  {
    // Three cube cores, six queues: two each.
    Workspace ws(64 * 1024);
    std::vector<int32_t> tiling = {7, 0};
    std::vector<int32_t> results(6 * jobs * 2, -1);
    ASSERT_EQ(
        LaunchKernel("group_jobs", 3, 0, nullptr, group_jobs, ws.data.get(),
                     Bytes(tiling), Bytes(results), 0, 6, 6, jobs),
        0);
    EXPECT_EQ(results, ExpectedJobs(6, 6, jobs, 7, 0, 2));
    EXPECT_EQ(tiling[1], 6 * jobs);
  }
  {
    // Cube cores 1 and 2 (blockStart 2, blockSize 4), five queues: ceil(5 /
    // 2) = 3 on AIC 1 and 2 on AIC 2; AIC 0 is in no group, AIV 5 posts
    // nothing.
    Workspace ws(64 * 1024);
    std::vector<int32_t> tiling = {-2, 0};
    std::vector<int32_t> results(6 * jobs * 2, -1);
    ASSERT_EQ(
        LaunchKernel("group_jobs", 3, 0, nullptr, group_jobs, ws.data.get(),
                     Bytes(tiling), Bytes(results), 2, 4, 5, jobs),
        0);
    EXPECT_EQ(results, ExpectedJobs(6, 5, jobs, -2, 1, 3));
    EXPECT_EQ(tiling[1], 5 * jobs);
  }
}

// The same in a 1:1 kernel: blockStart and blockSize still count two per
// cube core; one vector core per cube core, one queue each.
extern "C" __global__ __mix__(1,
                              1) void group_jobs_one_to_one(GM_ADDR workspace,
                                                            GM_ADDR tiling,
                                                            GM_ADDR results) {
  KfcWorkspace desc(workspace);
  const uint8_t cores = static_cast<uint8_t>(GetBlockNum());
  auto handle = CreateCubeResGroup<1, Scaler, ScaleJobs, Job>(
      desc, 0, 2 * cores, cores, tiling);
  if ASCEND_IS_AIC {
    return;
  }
  const int32_t v = static_cast<int32_t>(GetBlockIdx());
  handle.AssignQueue(v);
  Job job{};
  job.head = {CubeMsgState::VALID, static_cast<uint8_t>(v)};
  job.value = v * 100;
  job.out =
      reinterpret_cast<uint64_t>(reinterpret_cast<int32_t*>(results) + 2 * v);
  handle.Wait(handle.PostMessage(handle.AllocMessage(), job));
  handle.SetQuit(handle.AllocMessage());
}

TEST(CubeResGroup, AOneToOneKernelHasAQueuePerCubeCore) {
  Workspace ws(64 * 1024);
  std::vector<int32_t> tiling = {5, 0};
  std::vector<int32_t> results(6, -1);
  ASSERT_EQ(LaunchKernel("group_jobs_one_to_one", 3, 0, nullptr,
                         group_jobs_one_to_one, ws.data.get(), Bytes(tiling),
                         Bytes(results)),
            0);
  EXPECT_EQ(results, ExpectedJobs(3, 3, 1, 5, 0, 1));
}

// Vector cores 0..3 on one cube core's four queues: vector core 0's job
// stands for the FAKE messages of 1..3 (SetSkipMsg 3); then each posts a
// FAKE message alone, which the loop frees without a Call; Wait<false>
// reports whether a message was freed, without waiting.
extern "C" __global__ __mix__(1, 2) void group_fakes(GM_ADDR workspace,
                                                     GM_ADDR tiling,
                                                     GM_ADDR results) {
  KfcWorkspace desc(workspace);
  auto handle =
      CreateCubeResGroup<2, Scaler, ScaleJobs, Job>(desc, 0, 2, 4, tiling);
  if ASCEND_IS_AIC {
    return;
  }
  const int32_t v = static_cast<int32_t>(GetBlockIdx());
  int32_t* out = reinterpret_cast<int32_t*>(results);
  handle.AssignQueue(v);
  auto* msg = handle.AllocMessage();
  uint16_t offset = 0;
  if (v == 0) {
    Job job{};
    job.head = {CubeMsgState::VALID, 0};
    job.skipCnt = 3;
    job.value = 5;
    job.out = reinterpret_cast<uint64_t>(out);
    offset = handle.PostMessage(msg, job);
  } else {
    offset = handle.PostFakeMsg(msg);
  }
  handle.Wait(offset);
  out[2 + v] = handle.Wait<false>(offset) ? 1 : 0;
  offset = handle.PostFakeMsg(handle.AllocMessage());
  handle.Wait(offset);
  handle.SetQuit(handle.AllocMessage());
}

TEST(CubeResGroup, FakeMessagesAreFreedWithoutACall) {
  Workspace ws(64 * 1024);
  std::vector<int32_t> tiling = {4, 0};
  std::vector<int32_t> results(6, -1);
  ASSERT_EQ(LaunchKernel("group_fakes", 2, 0, nullptr, group_fakes,
                         ws.data.get(), Bytes(tiling), Bytes(results)),
            0);
  EXPECT_EQ(results, (std::vector<int32_t>{20, 0, 1, 1, 1, 1}));
  EXPECT_EQ(tiling[1], 1);  // one Call: the merged job
}

// Two groups from one KfcWorkspace: AIC 0 serves group 1, AIC 1 group 2,
// and every vector core binds a queue of each (a vector core may belong to
// several groups). Vector core v's job in group g writes results[(v · 2 +
// g − 1) · 2 ..].
extern "C" __global__ __mix__(1, 2) void group_two(GM_ADDR workspace,
                                                   GM_ADDR tiling,
                                                   GM_ADDR results) {
  KfcWorkspace desc(workspace);
  auto first =
      CreateCubeResGroup<1, Scaler, ScaleJobs, Job>(desc, 0, 2, 4, tiling);
  auto second =
      CreateCubeResGroup<2, Scaler, ScaleJobs, Job>(desc, 2, 2, 4, tiling);
  if ASCEND_IS_AIC {
    return;
  }
  const int32_t v = static_cast<int32_t>(GetBlockIdx());
  int32_t* out = reinterpret_cast<int32_t*>(results) + v * 4;
  CubeResGroupHandle<Job>* handles[2] = {&first, &second};
  uint16_t offsets[2] = {0, 0};
  for (int32_t g = 0; g < 2; ++g) {
    handles[g]->AssignQueue(v);
    Job job{};
    job.head = {CubeMsgState::VALID, static_cast<uint8_t>(v)};
    job.value = v + 10 * g;
    job.out = reinterpret_cast<uint64_t>(out + 2 * g);
    offsets[g] = handles[g]->PostMessage(handles[g]->AllocMessage(), job);
  }
  for (int32_t g = 0; g < 2; ++g) {
    handles[g]->Wait(offsets[g]);
    handles[g]->SetQuit(handles[g]->AllocMessage());
  }
}

TEST(CubeResGroup, TwoGroupsShareTheVectorCores) {
  Workspace ws(64 * 1024);
  std::vector<int32_t> tiling = {3, 0};
  std::vector<int32_t> results(16, -1);
  ASSERT_EQ(LaunchKernel("group_two", 2, 0, nullptr, group_two, ws.data.get(),
                         Bytes(tiling), Bytes(results)),
            0);
  std::vector<int32_t> want;
  for (int32_t v = 0; v < 4; ++v) {
    for (int32_t g = 0; g < 2; ++g) {
      want.push_back((v + 10 * g) * 3);
      want.push_back(g);  // group 1 on AIC 0, group 2 on AIC 1
    }
  }
  EXPECT_EQ(results, want);
  EXPECT_EQ(tiling[1], 8);
}

TEST(CubeResGroup, AMessageIsWholeBlocksOf64BytesInFourPlacesPerQueue) {
  EXPECT_EQ(normgrad_ascendc::CubeResGroupAreaBytes(48, 64), 4u * 48 * 64);
  // A message's first byte is its state as the pages number it.
  EXPECT_EQ(static_cast<int>(CubeMsgState::FREE), 0);
  EXPECT_EQ(sizeof(CubeGroupMsgHead), 2u);
}

// ---- KfcWorkspace -----------------------------------------------------------

TEST(CubeResGroup, KfcWorkspaceMovesItsStartOn) {
  Workspace ws(4096);
  KfcWorkspace desc(ws.data.get());
  EXPECT_EQ(desc.GetKfcWorkspace(), ws.data.get());
  desc.UpdateKfcWorkspace(1024);
  EXPECT_EQ(desc.GetKfcWorkspace(), ws.data.get() + 1024);
}

// ---- The rules ------------------------------------------------------------

// `mode` picks the broken rule; each kernel is otherwise group_jobs's.
enum Broken : int32_t {
  kOddStart,
  kPastVectorCores,
  kQueueLeftNone,
  kQueueOutOfRange,
  kQueueTwice,
  kOverlap,
  kManualDesc,
  kSkipValid,
  kNoQuit,
  kNoServer,
  kPostForeign,
  kBadOffset,
  kFreeOnVector,
  kUbPastTail,
  kUbBeforeGroup,
  kMte3Fake,
  kAllocAfterQuit,
};

// The a2 profile's UB as a pipe hands it out, and what a group keeps at its
// end: 1600 bytes and one message.
constexpr uint32_t kUbForPipe = 192 * 1024 - 128;
constexpr uint32_t kGroupTail = 1600 + sizeof(Job);

// A message of 48 bytes.
struct ShortJob {
  CubeGroupMsgHead head;
  uint8_t rest[46];
};

template <class Obj, class Msg>
struct Ignore {
  static void Init(Ignore&, Obj&, GM_ADDR) {}
  static void Call(Obj&, __gm__ Msg* msg, CubeResGroupHandle<Msg>& handle) {
    handle.FreeMessage(msg);
  }
};

// Skips the next queue's message, which is VALID.
template <class Obj, class Msg>
struct SkipNext {
  static void Init(SkipNext&, Obj&, GM_ADDR) {}
  static void Call(Obj&, __gm__ Msg* msg, CubeResGroupHandle<Msg>& handle) {
    handle.FreeMessage(msg);
    handle.SetSkipMsg(1);
  }
};

extern "C" __global__ __mix__(1, 2) void group_broken(GM_ADDR workspace,
                                                      GM_ADDR tiling,
                                                      int32_t mode) {
  KfcWorkspace desc(workspace);
  if (mode == kOddStart) {
    CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 1, 2, 2, tiling);
  }
  if (mode == kPastVectorCores) {
    CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 40, 8, 2, tiling);
  }
  if (mode == kQueueLeftNone) {
    CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 4, 1, tiling);
  }
  if (mode == kOverlap) {
    CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 4, 4, tiling);
    CreateCubeResGroup<2, Scaler, Ignore, Job>(desc, 2, 2, 2, tiling);
  }
  if (mode == kManualDesc) {
    desc.UpdateKfcWorkspace(512);
    CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
  }
  if (mode == kSkipValid) {
    auto handle =
        CreateCubeResGroup<1, Scaler, SkipNext, Job>(desc, 0, 2, 2, tiling);
    if ASCEND_IS_AIV {
      // Vector core 1 posts first: its VALID message is there when the
      // Call of vector core 0's skips it.
      handle.AssignQueue(GetBlockIdx());
      Job job{};
      auto* msg = handle.AllocMessage();
      if (GetBlockIdx() == 1) handle.PostMessage(msg, job);
      CrossCoreSetFlag<1, PIPE_S>(0);
      CrossCoreWaitFlag<1, PIPE_S>(0);
      if (GetBlockIdx() == 0) handle.Wait(handle.PostMessage(msg, job));
    }
  }
  if (mode == kNoQuit) {
    auto handle =
        CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
    if ASCEND_IS_AIV {
      handle.AssignQueue(GetBlockIdx());
      Job job{};
      handle.Wait(handle.PostMessage(handle.AllocMessage(), job));
    }
  }
  if (mode == kNoServer) {
    if ASCEND_IS_AIV {
      auto handle =
          CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
      handle.AssignQueue(GetBlockIdx());
      Job job{};
      const uint16_t offset = handle.PostMessage(handle.AllocMessage(), job);
      handle.Wait(offset);  // line:no_server
    }
  }
  if (mode == kUbPastTail || mode == kUbBeforeGroup) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> upToTail, past;
    if (mode == kUbBeforeGroup && ASCEND_IS_AIV) {
      pipe.InitBuffer(upToTail, kUbForPipe - kGroupTail + 32);
    }
    auto handle =
        CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
    if ASCEND_IS_AIC {
      return;
    }
    handle.AssignQueue(GetBlockIdx());
    handle.SetQuit(handle.AllocMessage());
    pipe.InitBuffer(upToTail, kUbForPipe - kGroupTail);  // fits
    pipe.InitBuffer(past, 32);
  }
  if (mode == kQueueOutOfRange || mode == kQueueTwice || mode == kPostForeign ||
      mode == kBadOffset || mode == kFreeOnVector || mode == kMte3Fake ||
      mode == kAllocAfterQuit) {
    auto handle =
        CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
    if ASCEND_IS_AIC {
      return;
    }
    if (mode == kQueueOutOfRange) handle.AssignQueue(2);
    if (mode == kQueueTwice) handle.AssignQueue(0);  // both vector cores
    handle.AssignQueue(GetBlockIdx());
    auto* msg = handle.AllocMessage();
    Job job{};
    if (mode == kPostForeign) handle.PostMessage(msg + 1, job);
    if (mode == kBadOffset) handle.Wait(3);
    if (mode == kFreeOnVector) handle.FreeMessage(msg);
    if (mode == kMte3Fake) {
      handle.PostFakeMsg(handle.AllocMessage<PipeMode::MTE3_MODE>());
    }
    if (mode == kAllocAfterQuit) {
      handle.SetQuit(msg);
      handle.AllocMessage();
    }
  }
}

extern "C" __global__ __mix__(1, 2) void group_short_message(GM_ADDR workspace,
                                                             GM_ADDR tiling) {
  KfcWorkspace desc(workspace);
  CreateCubeResGroup<1, Scaler, Ignore, ShortJob>(desc, 0, 2, 2, tiling);
}

extern "C" __global__ __aicore__ void group_vector_only(GM_ADDR workspace,
                                                        GM_ADDR tiling) {
  KfcWorkspace desc(workspace);
  CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
}

// The framework's Matmul objects (REGIST_MATMUL_OBJ) beside a group: the
// cube core ends at REGIST_MATMUL_OBJ to serve them.
extern "C" __global__ __mix__(1, 2) void group_with_regist(GM_ADDR workspace,
                                                           GM_ADDR tiling) {
  using HalfGm = MatmulType<TPosition::GM, CubeFormat::ND, half>;
  using FloatGm = MatmulType<TPosition::GM, CubeFormat::ND, float>;
  Matmul<HalfGm, HalfGm, FloatGm, FloatGm> mm;
  TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm);
  KfcWorkspace desc(workspace);
  auto handle =
      CreateCubeResGroup<1, Scaler, Ignore, Job>(desc, 0, 2, 2, tiling);
  handle.AssignQueue(GetBlockIdx());
  Job job{};
  handle.Wait(handle.PostMessage(handle.AllocMessage(), job));
}

class CubeResGroupRules : public testing::Test {
 protected:
  // Launches group_broken in `mode` on `blocks` AI Cores; returns stderr.
  std::string Broken(int32_t mode, uint32_t blocks = 1) {
    int rc = 0;
    std::string text = Failing(
        [&] {
          return LaunchKernel("group_broken", blocks, 0, nullptr, group_broken,
                              ws_.data.get(), Bytes(tiling_), mode);
        },
        &rc);
    EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
    return text;
  }
  Workspace ws_{64 * 1024};
  std::vector<int32_t> tiling_ = {1, 0};
};

TEST_F(CubeResGroupRules, TheGroupsShapeFollowsThePages) {
  Has(Broken(kOddStart),
      "CreateCubeResGroup: blockStart 1 and blockSize 2 must both be even "
      "(they count vector cores, two per cube core)");
  Has(Broken(kPastVectorCores),
      "CreateCubeResGroup: blockStart 40 + blockSize 8 = 48 is more than 47; "
      "the sum may be at most the a2 profile's 48 vector cores - 1");
  Has(Broken(kQueueLeftNone, 2),
      "CreateCubeResGroup: msgQueueSize 1 over 2 cube cores gives each "
      "ceil(1 / 2) = 1 queues, which leaves AIC 1 none; each cube core of a "
      "group serves at least one queue");
  Has(Broken(kOverlap, 2),
      "CreateCubeResGroup: the group's cube cores 1..1 overlap cube cores "
      "0..1 of the group at ");
  Has(Broken(kOverlap, 2), "; a cube core belongs to one group");
  Has(Broken(kManualDesc),
      "CreateCubeResGroup: desc was used through GetKfcWorkspace or "
      "UpdateKfcWorkspace, which cannot be used together with "
      "CreateCubeResGroup");
}

TEST_F(CubeResGroupRules, TheGroupsCubeCoresAreInTheLaunch) {
  // blockStart 0, blockSize 4: cube cores 0 and 1, but one AI Core runs.
  Has(Broken(kQueueLeftNone),
      "CreateCubeResGroup: the group's cube cores 0..1 (blockStart / 2 = 0, "
      "blockSize / 2 = 2 of them) are not all in this launch, which runs "
      "cube cores 0..0");
}

TEST_F(CubeResGroupRules, QueuesAndMessagesAreTheHandles) {
  std::string text = Broken(kQueueOutOfRange);
  Has(text, "normgrad: kernel group_broken AIV 0/2: ");
  Has(text,
      "CubeResGroupHandle::AssignQueue: queueIdIn 2 is out of range 0..1 "
      "(msgQueueSize - 1)");
  Has(Broken(kQueueTwice),
      "CubeResGroupHandle::AssignQueue: queue 0 is bound to AIV ");
  Has(Broken(kQueueTwice), " already; each queue has one vector core");
  Has(Broken(kPostForeign), "CubeResGroupHandle::PostMessage: msg 0x");
  Has(Broken(kPostForeign), ", not a message of the bound queue");
  Has(Broken(kBadOffset),
      "CubeResGroupHandle::Wait: offset 3 is not one that PostMessage "
      "returns for queue ");
  Has(Broken(kMte3Fake),
      "CubeResGroupHandle::PostFakeMsg: the message was taken with "
      "AllocMessage<PipeMode::MTE3_MODE>; after "
      "AllocMessage<PipeMode::MTE3_MODE> only PostMessage sends it");
  Has(Broken(kAllocAfterQuit), "CubeResGroupHandle::AllocMessage: queue ");
  Has(Broken(kAllocAfterQuit),
      " has quit (SetQuit); it takes no more messages");
  Has(Broken(kFreeOnVector),
      "CubeResGroupHandle::FreeMessage: a cube core's call, made in the "
      "CallBack's Call; this is a vector core");
}

TEST_F(CubeResGroupRules, AGroupKeepsTheEndOfEachVectorCoresUb) {
  std::string text = Broken(kUbPastTail);
  Has(text, "normgrad: kernel group_broken AIV 0/2: ");
  Has(text,
      "TPipe::InitBuffer: TBuf<VECCALC> #2 requests 1 x 32 bytes, which "
      "exceeds the unified buffer: 0 of 194816 bytes left (profile Atlas "
      "A2/A3; its last 1664 bytes are kept by CreateCubeResGroup)");
  EXPECT_EQ(text.find("AIC 0/1"), std::string::npos) << text;
  text = Broken(kUbBeforeGroup);
  Has(text,
      "CreateCubeResGroup: keeps the last 1664 bytes of the unified buffer "
      "(from byte 194816), but the core's TPipe has handed out bytes up to "
      "194848 already; make the group before the buffers, or leave its bytes "
      "free");
}

TEST_F(CubeResGroupRules, SetSkipMsgPassesOverFakeMessagesOnly) {
  const std::string text = Broken(kSkipValid);
  Has(text, "normgrad: kernel group_broken AIC 0/1: ");
  Has(text,
      "CubeResGroupHandle::SetSkipMsg: queue 1's message at place 0 is "
      "VALID; only FAKE messages (PostFakeMsg) are passed over");
}

TEST_F(CubeResGroupRules, ALoopNoQueueQuitsIsADeadlock) {
  const std::string text = Broken(kNoQuit);
  Has(text, "normgrad: kernel group_broken AIC 0/1: ");
  Has(text,
      "deadlock: every block still running waits and none can proceed; this "
      "block waits in CreateCubeResGroup's message loop (queue 0's next "
      "message, at place 1; it serves queues 0..1 in turn until each has "
      "quit with SetQuit)");
  Has(text, "(AIV 0 ended; AIV 1 ended)");
}

TEST_F(CubeResGroupRules, AMessageNoCubeCoreServesIsReported) {
  const std::string text = Broken(kNoServer);
  Has(text, "normgrad: kernel group_broken AIV 0/2: ");
  Has(text,
      "CubeResGroupHandle::Wait: queue 0's message at place 0 is never "
      "freed: AIC 0, which serves the queue, ended without running "
      "CreateCubeResGroup's message loop (call CreateCubeResGroup on the "
      "group's cube cores too)");
}

TEST_F(CubeResGroupRules, AMessageIsWholeBlocksOf64Bytes) {
  int rc = 0;
  const std::string text = Failing(
      [&] {
        return LaunchKernel("group_short_message", 1, 0, nullptr,
                            group_short_message, ws_.data.get(),
                            Bytes(tiling_));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text, "cube_res_group_test.cc:");
  Has(text,
      "CreateCubeResGroup: the message type CubeMsgType is 48 bytes, not a "
      "multiple of 64; a message is whole 64-byte blocks");
}

TEST_F(CubeResGroupRules, AGroupDoesNotGoWithRegistMatmulObj) {
  int rc = 0;
  const std::string text = Failing(
      [&] {
        return LaunchKernel("group_with_regist", 1, 0, nullptr,
                            group_with_regist, ws_.data.get(), Bytes(tiling_));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  // Whether the vector core finds the cube core ended when it makes the
  // group or when it waits, the message names the combination.
  Has(text, "normgrad: kernel group_with_regist AIV 0/2: ");
  Has(text, "cannot be used together with REGIST_MATMUL_OBJ");
}

TEST_F(CubeResGroupRules, TheMessagesFitTheWorkspace) {
  // Two queues of four 64-byte messages need 512 bytes.
  void* small = nullptr;
  ASSERT_EQ(aclrtMalloc(&small, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<int32_t> results(8, -1);
  int rc = 0;
  const std::string text = Failing(
      [&] {
        return LaunchKernel("group_jobs", 1, 0, nullptr, group_jobs,
                            static_cast<uint8_t*>(small), Bytes(tiling_),
                            Bytes(results), 0, 2, 2, 1);
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text,
      "CreateCubeResGroup: the group's 2 queues of four 64-byte messages "
      "take bytes [0, 512) of the 256-byte aclrtMalloc block at ");
  Has(text,
      ", past its end; the workspace needs room for every group's messages");
  EXPECT_EQ(aclrtFree(small), ACL_SUCCESS);
}

TEST_F(CubeResGroupRules, AGroupNeedsAMixedKernel) {
  int rc = 0;
  const std::string text = Failing(
      [&] {
        return LaunchKernel("group_vector_only", 1, 0, nullptr,
                            group_vector_only, ws_.data.get(), Bytes(tiling_));
      },
      &rc);
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  Has(text,
      "CreateCubeResGroup: a cube resource group joins cube cores and vector "
      "cores; this kernel runs vector cores only (declare it "
      "KERNEL_TYPE_MIX_AIC_1_2 or __mix__(1, 2))");
}

TEST(CubeResGroup, ADefaultHandleAndANullWorkspaceAreRefused) {
  CubeResGroupHandle<Job> handle;
  EXPECT_THROW(handle.AssignQueue(0), normgrad_ascendc::KernelError);
  EXPECT_THROW(KfcWorkspace{nullptr}, normgrad_ascendc::KernelError);
}

}  // namespace

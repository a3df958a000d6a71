// launch_test.cc — the launcher (docs/runtime.md, "Blocks and launch") through
// kernel_operator.h: block index and count, per-block cores with their own
// zeroed UB and pipe, tiles through TQue double buffering, results independent
// of the host thread count, kernel errors (message naming the block; exit
// status 1 by default, an error code with the return policy), the dynamic-UB
// and stream arguments, templated kernels, argument conversion, the CPU-debug
// launch (ICPU_RUN_KF, GmAlloc, GmFree) and LayerNormGradBeta per block against
// the engine.
//
// Extending: kernels are written as Ascend C programs write them (extern "C"
// __global__ __aicore__ functions taking GM_ADDR), launched as normgrad-cc's
// rewrite of `k<<<n, ub, stream>>>(args)` would. Tests that need the return
// policy or a thread count use PolicyScope / ThreadsScope.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::DataCopy;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::TQue;
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;

// Sets the kernel-error policy for the scope's lifetime, then restores it.
class PolicyScope {
 public:
  explicit PolicyScope(KernelErrorPolicy policy)
      : previous_(normgrad_ascendc::GetKernelErrorPolicy()) {
    normgrad_ascendc::SetKernelErrorPolicy(policy);
  }
  ~PolicyScope() { normgrad_ascendc::SetKernelErrorPolicy(previous_); }
  PolicyScope(const PolicyScope&) = delete;
  PolicyScope& operator=(const PolicyScope&) = delete;

 private:
  KernelErrorPolicy previous_;
};

// Sets the launcher's thread count for the scope's lifetime (0 afterwards).
class ThreadsScope {
 public:
  explicit ThreadsScope(unsigned threads) {
    normgrad_ascendc::SetLaunchThreads(threads);
  }
  ~ThreadsScope() { normgrad_ascendc::SetLaunchThreads(0); }
  ThreadsScope(const ThreadsScope&) = delete;
  ThreadsScope& operator=(const ThreadsScope&) = delete;
};

// ---- Kernels ----------------------------------------------------------------

// Each block writes {GetBlockIdx(), GetBlockNum()} into its 32-byte slot.
extern "C" __global__ __aicore__ void WriteBlockIdx(GM_ADDR out) {
  GlobalTensor<int64_t> slot;
  slot.SetGlobalBuffer(
      reinterpret_cast<__gm__ int64_t*>(out) + 4 * AscendC::GetBlockIdx(), 4);
  slot.SetValue(0, AscendC::GetBlockIdx());
  slot.SetValue(1, AscendC::GetBlockNum());
}

// y = 2·x + blockIdx over the block's share of `total` floats, in tiles of
// kTile through double-buffered queues, as Ascend C samples are written.
constexpr uint32_t kTile = 256;
constexpr int32_t kBufferNum = 2;

class ScaleKernel {
 public:
  __aicore__ void Init(GM_ADDR x, GM_ADDR y, uint32_t total) {
    block_len_ = total / AscendC::GetBlockNum();
    const uint64_t start = block_len_ * AscendC::GetBlockIdx();
    x_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x) + start,
                          block_len_);
    y_gm_.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y) + start,
                          block_len_);
    pipe_.InitBuffer(in_queue_, kBufferNum, kTile * sizeof(float));
    pipe_.InitBuffer(out_queue_, kBufferNum, kTile * sizeof(float));
  }
  __aicore__ void Process() {
    const uint32_t tiles = block_len_ / kTile;
    for (uint32_t i = 0; i < tiles; ++i) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ void CopyIn(uint32_t i) {
    LocalTensor<float> x = in_queue_.AllocTensor<float>();
    DataCopy(x, x_gm_[i * kTile], kTile);
    in_queue_.EnQue(x);
  }
  __aicore__ void Compute() {
    LocalTensor<float> x = in_queue_.DeQue<float>();
    LocalTensor<float> y = out_queue_.AllocTensor<float>();
    AscendC::Muls(y, x, 2.0f, kTile);
    AscendC::Adds(y, y, static_cast<float>(AscendC::GetBlockIdx()), kTile);
    out_queue_.EnQue<float>(y);
    in_queue_.FreeTensor(x);
  }
  __aicore__ void CopyOut(uint32_t i) {
    LocalTensor<float> y = out_queue_.DeQue<float>();
    DataCopy(y_gm_[i * kTile], y, kTile);
    out_queue_.FreeTensor(y);
  }

  TPipe pipe_;
  TQue<TPosition::VECIN, kBufferNum> in_queue_;
  TQue<TPosition::VECOUT, kBufferNum> out_queue_;
  GlobalTensor<float> x_gm_, y_gm_;
  uint32_t block_len_ = 0;
};

extern "C" __global__ __aicore__ void Scale(GM_ADDR x, GM_ADDR y,
                                            uint32_t total) {
  ScaleKernel op;
  op.Init(x, y, total);
  op.Process();
}

// Block 3 copies 100 floats (400 bytes, not a multiple of 32); the others
// write their index.
extern "C" __global__ __aicore__ void FailInBlock3(GM_ADDR x, GM_ADDR out) {
  TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  GlobalTensor<float> src;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(x), 256);
  const uint32_t count = AscendC::GetBlockIdx() == 3 ? 100 : 64;
  DataCopy(buf.Get<float>(), src, count);
  reinterpret_cast<int32_t*>(out)[AscendC::GetBlockIdx()] =
      static_cast<int32_t>(AscendC::GetBlockIdx()) + 1;
}

// Checks that the block's whole UB is zero on entry (writing 1 to its flag
// when so), then dirties all of it.
extern "C" __global__ __aicore__ void CheckUbZero(GM_ADDR flags) {
  TPipe pipe;
  LocalTensor<uint8_t> ub;
  AscendC::PopStackBuffer<uint8_t, TPosition::LCM>(ub);
  bool zero = true;
  for (uint32_t i = 0; i < ub.GetSize(); ++i)
    zero = zero && ub.GetValue(i) == 0;
  std::memset(ub.GetPhyAddr(), 0xA5, ub.GetSize());
  flags[AscendC::GetBlockIdx()] = zero ? 1 : 0;
}

template <typename T, int kFactor>
__global__ __aicore__ void TimesFactor(GM_ADDR x, uint32_t per_block) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(
      reinterpret_cast<__gm__ T*>(x) + per_block * AscendC::GetBlockIdx(),
      per_block);
  for (uint32_t i = 0; i < per_block; ++i) {
    g.SetValue(i, static_cast<T>(g.GetValue(i) * kFactor));
  }
}

std::vector<int64_t> RunWriteBlockIdx(uint32_t blocks) {
  std::vector<int64_t> out(4 * blocks, -1);
  EXPECT_EQ(LaunchKernel("WriteBlockIdx", blocks, 0, nullptr, WriteBlockIdx,
                         reinterpret_cast<uint8_t*>(out.data())),
            0);
  return out;
}

// ---- Blocks -----------------------------------------------------------------

TEST(Launch, EveryBlockRunsOnceWithItsIndex) {
  for (uint32_t blocks : {1u, 2u, 8u, 33u}) {
    const std::vector<int64_t> out = RunWriteBlockIdx(blocks);
    for (uint32_t b = 0; b < blocks; ++b) {
      EXPECT_EQ(out[4 * b], b) << blocks;
      EXPECT_EQ(out[4 * b + 1], blocks) << blocks;
    }
  }
}

TEST(Launch, TilesThroughDoubleBufferedQueues) {
  const uint32_t blocks = 8;
  const uint32_t total = blocks * 4 * kTile;
  std::vector<float> x(total), y(total, -1.0f);
  for (uint32_t i = 0; i < total; ++i) x[i] = static_cast<float>(i % 1000);
  ASSERT_EQ(LaunchKernel("Scale", blocks, nullptr, nullptr, Scale,
                         reinterpret_cast<uint8_t*>(x.data()),
                         reinterpret_cast<uint8_t*>(y.data()), total),
            0);
  for (uint32_t i = 0; i < total; ++i) {
    const float block = static_cast<float>(i / (total / blocks));
    ASSERT_EQ(y[i], 2.0f * x[i] + block) << i;
  }
}

TEST(Launch, ResultsDoNotDependOnTheThreadCount) {
  const uint32_t blocks = 16;
  const uint32_t total = blocks * 2 * kTile;
  std::vector<float> x(total);
  for (uint32_t i = 0; i < total; ++i) x[i] = static_cast<float>(i) * 0.125f;
  std::vector<std::vector<float>> results;
  for (unsigned threads : {1u, 2u, 5u, 0u}) {
    const ThreadsScope scope(threads);
    std::vector<float> y(total);
    ASSERT_EQ(LaunchKernel("Scale", blocks, 0, nullptr, Scale, x.data(),
                           y.data(), total),
              0);
    results.push_back(y);
  }
  for (const std::vector<float>& r : results) EXPECT_EQ(r, results[0]);
}

TEST(Launch, EachBlockStartsWithAZeroedUnifiedBuffer) {
  // One thread: every block after the first reuses the thread's core.
  const ThreadsScope scope(1);
  std::vector<uint8_t> flags(6, 9);
  ASSERT_EQ(
      LaunchKernel("CheckUbZero", 6, 0, nullptr, CheckUbZero, flags.data()), 0);
  EXPECT_EQ(flags, std::vector<uint8_t>(6, 1));
}

// Dirties a 4 KiB TBuf of the pipe (not the framework scratch).
extern "C" __global__ __aicore__ void DirtyPipeBuffer() {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  std::memset(buf.Get<uint8_t>().GetPhyAddr(), 0x5A, 4096);
}

TEST(Launch, CoresReusedAcrossLaunchesStartZeroed) {
  // The thread's core outlives a launch: what one launch wrote through the
  // pipe's buffers or the framework scratch is gone in the next.
  const ThreadsScope scope(1);
  for (int round = 0; round < 2; ++round) {
    ASSERT_EQ(LaunchKernel("DirtyPipeBuffer", 3, 0, nullptr, DirtyPipeBuffer),
              0);
    std::vector<uint8_t> flags(3, 9);
    ASSERT_EQ(
        LaunchKernel("CheckUbZero", 3, 0, nullptr, CheckUbZero, flags.data()),
        0);
    EXPECT_EQ(flags, std::vector<uint8_t>(3, 1)) << round;
  }
}

TEST(Launch, BlockIndexOutsideALaunchIsZeroOfOne) {
  RunWriteBlockIdx(4);
  EXPECT_EQ(AscendC::GetBlockIdx(), 0);
  EXPECT_EQ(AscendC::GetBlockNum(), 1);
}

// ---- Arguments --------------------------------------------------------------

TEST(Launch, DynamicUbAndStreamArguments) {
  std::vector<int64_t> out(4 * 3);
  int stream_object = 0;
  void* stream = &stream_object;  // aclrtStream is void*
  auto* p = reinterpret_cast<uint8_t*>(out.data());
  EXPECT_EQ(LaunchKernel("WriteBlockIdx", 3, nullptr, stream, WriteBlockIdx, p),
            0);
  EXPECT_EQ(LaunchKernel("WriteBlockIdx", 3, 0, nullptr, WriteBlockIdx, p), 0);
  EXPECT_EQ(LaunchKernel("WriteBlockIdx", 3, 4096u, stream, WriteBlockIdx, p),
            0);
  EXPECT_EQ(out[8], 2);
}

TEST(Launch, TemplatedKernel) {
  std::vector<float> x(4 * 8, 1.5f);
  ASSERT_EQ(LaunchKernel("TimesFactor<float, 3>", 4, nullptr, nullptr,
                         TimesFactor<float, 3>,
                         reinterpret_cast<uint8_t*>(x.data()), 8u),
            0);
  EXPECT_EQ(x, std::vector<float>(32, 4.5f));
}

TEST(Launch, PointerArgumentsConvertToGmAddr) {
  std::vector<int64_t> out(4 * 2, -1);
  void* as_void = out.data();
  ASSERT_EQ(
      LaunchKernel("WriteBlockIdx", 2, 0, nullptr, WriteBlockIdx, as_void), 0);
  EXPECT_EQ(out[4], 1);
  int64_t* as_typed = out.data();
  ASSERT_EQ(
      LaunchKernel("WriteBlockIdx", 2, 0, nullptr, &WriteBlockIdx, as_typed),
      0);
}

TEST(Launch, CallableKernel) {
  std::vector<int64_t> seen(5, -1);
  auto kernel = [&seen](int64_t offset) {
    seen[AscendC::GetBlockIdx()] = AscendC::GetBlockIdx() + offset;
  };
  ASSERT_EQ(LaunchKernel("lambda", 5, 0, nullptr, kernel, int64_t{10}), 0);
  EXPECT_EQ(seen, (std::vector<int64_t>{10, 11, 12, 13, 14}));
}

// ---- Errors -----------------------------------------------------------------

TEST(LaunchErrors, ErrorInBlock3Of8ReturnsACodeWithReturnPolicy) {
  const PolicyScope policy(KernelErrorPolicy::kReturn);
  std::vector<float> x(256, 1.0f);
  std::vector<int32_t> out(8, 0);
  testing::internal::CaptureStderr();
  const int rc = LaunchKernel("FailInBlock3", 8, 0, nullptr, FailInBlock3,
                              x.data(), out.data());
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, normgrad_ascendc::kKernelErrorCode);
  EXPECT_EQ(rc, 507015);
  EXPECT_EQ(err, "normgrad: kernel FailInBlock3 block 3/8: " __FILE__
                 ":145: DataCopy<float> GM->UB: count 100 (400 bytes) is not a "
                 "multiple of 32 bytes; the device would silently drop the "
                 "last 16 bytes (NORMGRAD_DATACOPY=truncate mimics that)\n");
  // The other blocks ran to their end.
  EXPECT_EQ(out, (std::vector<int32_t>{1, 2, 3, 0, 5, 6, 7, 8}));
  EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 507015);
  EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 0);
}

TEST(LaunchErrors, ManyFailingBlocksAreReportedInOrderAndCounted) {
  const PolicyScope policy(KernelErrorPolicy::kReturn);
  auto fail = [] {
    normgrad_ascendc::Fail("boom %lld",
                           static_cast<long long>(AscendC::GetBlockIdx()));
  };
  testing::internal::CaptureStderr();
  EXPECT_EQ(LaunchKernel("fail", 20, 0, nullptr, fail), 507015);
  const std::string err = testing::internal::GetCapturedStderr();
  std::string expected;
  for (int b = 0; b < 8; ++b) {
    expected += "normgrad: kernel fail block " + std::to_string(b) +
                "/20: boom " + std::to_string(b) + "\n";
  }
  expected += "normgrad: kernel fail: 12 more blocks failed\n";
  EXPECT_EQ(err, expected);
  EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 507015);
}

TEST(LaunchErrors, OtherExceptionsAreKernelErrorsToo) {
  const PolicyScope policy(KernelErrorPolicy::kReturn);
  auto kernel = [] {
    if (AscendC::GetBlockIdx() == 1) throw std::out_of_range("vector::at");
  };
  testing::internal::CaptureStderr();
  EXPECT_EQ(LaunchKernel("k", 2, 0, nullptr, kernel), 507015);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "normgrad: kernel k block 1/2: unexpected C++ exception: "
            "vector::at\n");
  EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 507015);
}

TEST(LaunchErrors, NumBlocksOutOfRange) {
  const PolicyScope policy(KernelErrorPolicy::kReturn);
  std::vector<int64_t> out(4);
  for (uint32_t blocks : {0u, 65536u}) {
    testing::internal::CaptureStderr();
    EXPECT_EQ(LaunchKernel("WriteBlockIdx", blocks, 0, nullptr, WriteBlockIdx,
                           reinterpret_cast<uint8_t*>(out.data())),
              normgrad_ascendc::kInvalidLaunchCode);
    EXPECT_EQ(testing::internal::GetCapturedStderr(),
              "normgrad: kernel WriteBlockIdx: numBlocks " +
                  std::to_string(blocks) + " is out of range (1..65535)\n");
    EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 100000);
  }
}

TEST(LaunchErrorsDeathTest, ErrorInBlock3Of8ExitsWithStatus1ByDefault) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::vector<float> x(256, 1.0f);
  std::vector<int32_t> out(8, 0);
  EXPECT_EXIT(
      {
        normgrad_ascendc::SetKernelErrorPolicy(KernelErrorPolicy::kExit);
        LaunchKernel("FailInBlock3", 8, 0, nullptr, FailInBlock3, x.data(),
                     out.data());
      },
      testing::ExitedWithCode(1),
      "normgrad: kernel FailInBlock3 block 3/8: .*launch_test.cc:145: "
      "DataCopy<float> GM->UB: count 100");
}

// Runs twice: in the default environment, and from ctest's
// runtime:environment with NORMGRAD_KERNEL_ERRORS=return and
// NORMGRAD_DATACOPY=truncate, where a failing launch returns its code.
TEST(LaunchEnvironment, PolicyAndModeFollowTheEnvironment) {
  const auto env_is = [](const char* name, const char* value) {
    const char* set = std::getenv(name);
    return set != nullptr && std::string(set) == value;
  };
  const bool ret = env_is("NORMGRAD_KERNEL_ERRORS", "return");
  const bool truncate = env_is("NORMGRAD_DATACOPY", "truncate");
  EXPECT_EQ(normgrad_ascendc::GetKernelErrorPolicy(),
            ret ? KernelErrorPolicy::kReturn : KernelErrorPolicy::kExit);
  EXPECT_EQ(normgrad_ascendc::GetDataCopyMode(),
            truncate ? normgrad_ascendc::DataCopyMode::kTruncate
                     : normgrad_ascendc::DataCopyMode::kCheck);
  // runtime:environment also sets this, lest its variables get lost.
  if (env_is("NORMGRAD_TEST_ENVIRONMENT", "1")) {
    EXPECT_TRUE(ret && truncate);
  }
  if (!ret) return;
  auto fail = [] { normgrad_ascendc::Fail("boom"); };
  testing::internal::CaptureStderr();
  EXPECT_EQ(LaunchKernel("fail", 2, 0, nullptr, fail), 507015);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(normgrad_ascendc::TakeLaunchError(), 507015);
}

// ---- CPU-debug launch -------------------------------------------------------

TEST(CpuDebug, IcpuRunKfWithGmAlloc) {
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  auto* out = static_cast<uint8_t*>(AscendC::GmAlloc(8 * 32));
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(out) % 64, 0u);
  for (int i = 0; i < 8 * 32; ++i) ASSERT_EQ(out[i], 0) << i;
  EXPECT_EQ(ICPU_RUN_KF(WriteBlockIdx, 8, out), 0);
  const auto* slots = reinterpret_cast<const int64_t*>(out);
  for (int b = 0; b < 8; ++b) EXPECT_EQ(slots[4 * b], b);
  AscendC::GmFree(out);
  AscendC::GmFree(AscendC::GmAlloc(0));
  AscendC::GmFree(nullptr);
}

// ---- LayerNormGradBeta per block --------------------------------------------

// Each block reduces its own rows × h of dy/res: DataCopy into UB,
// LayerNormGradBeta with the framework scratch, DataCopy of its pd_gamma and
// pd_beta rows out. The tiling comes in global memory, copied word by word.
template <typename T>
__global__ __aicore__ void GradBetaPerBlock(GM_ADDR dy, GM_ADDR res,
                                            GM_ADDR gamma, GM_ADDR beta,
                                            GM_ADDR tiling_gm) {
  AscendC::LayerNormGradBetaTiling tiling;
  std::memcpy(&tiling, tiling_gm, sizeof tiling);
  const uint32_t rows_h = tiling.bshLength;
  const uint32_t h = tiling.hLength;
  const int64_t b = AscendC::GetBlockIdx();
  GlobalTensor<T> dy_gm, res_gm, gamma_gm, beta_gm;
  dy_gm.SetGlobalBuffer(reinterpret_cast<T*>(dy) + b * rows_h, rows_h);
  res_gm.SetGlobalBuffer(reinterpret_cast<T*>(res) + b * rows_h, rows_h);
  gamma_gm.SetGlobalBuffer(reinterpret_cast<T*>(gamma) + b * h, h);
  beta_gm.SetGlobalBuffer(reinterpret_cast<T*>(beta) + b * h, h);
  TPipe pipe;
  AscendC::TBuf<TPosition::VECIN> dy_buf, res_buf;
  AscendC::TBuf<TPosition::VECOUT> gamma_buf, beta_buf;
  pipe.InitBuffer(dy_buf, rows_h * sizeof(T));
  pipe.InitBuffer(res_buf, rows_h * sizeof(T));
  pipe.InitBuffer(gamma_buf, h * sizeof(T));
  pipe.InitBuffer(beta_buf, h * sizeof(T));
  DataCopy(dy_buf.Get<T>(), dy_gm, rows_h);
  DataCopy(res_buf.Get<T>(), res_gm, rows_h);
  AscendC::PipeBarrier<PIPE_ALL>();
  AscendC::LayerNormGradBeta<T, false>(gamma_buf.Get<T>(), beta_buf.Get<T>(),
                                       res_buf.Get<T>(), dy_buf.Get<T>(),
                                       tiling);
  DataCopy(gamma_gm, gamma_buf.Get<T>(), h);
  DataCopy(beta_gm, beta_buf.Get<T>(), h);
}

template <typename T>
void CheckGradBetaAgainstEngine(normgrad::DType dtype) {
  constexpr uint32_t kBlocks = 8, kB = 2, kS = 24, kH = 64;
  constexpr uint32_t kRowsH = kB * kS * kH;
  // 4 KiB of scratch: float chunks of 16 rows (3 per block), so the running
  // sums carry across chunks; half (1024 − 2·64) / 2 = 448 elements: chunks
  // of 7 rows and a tail of 6.
  AscendC::LayerNormGradBetaTiling tiling;
  AscendC::GetLayerNormGradBetaNDTilingInfo(ge::Shape({kB, kS, kH, kH}), 4096,
                                            sizeof(T), false, tiling);
  ASSERT_EQ(tiling.bsCurLength, sizeof(T) == 4 ? 16u : 7u);
  std::vector<T> dy(kBlocks * kRowsH), res(kBlocks * kRowsH);
  uint32_t state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / 16777216.0f * 4.0f - 2.0f;
  };
  for (size_t i = 0; i < dy.size(); ++i) {
    dy[i] = static_cast<T>(next());
    res[i] = static_cast<T>(next());
  }
  std::vector<T> gamma(kBlocks * kH), beta(kBlocks * kH);
  ASSERT_EQ(LaunchKernel("GradBetaPerBlock", kBlocks, nullptr, nullptr,
                         GradBetaPerBlock<T>, dy.data(), res.data(),
                         gamma.data(), beta.data(), &tiling),
            0);
  std::vector<T> want_gamma(kBlocks * kH), want_beta(kBlocks * kH);
  for (uint32_t b = 0; b < kBlocks; ++b) {
    normgrad::GradBetaProblem p;
    p.dtype = dtype;
    p.rows = kB * kS;
    p.cols = kH;
    p.dy = dy.data() + b * kRowsH;
    p.res = res.data() + b * kRowsH;
    p.pd_gamma = want_gamma.data() + b * kH;
    p.pd_beta = want_beta.data() + b * kH;
    p.order = normgrad::Order::kSequential;
    p.threads = 1;
    ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  }
  EXPECT_EQ(
      std::memcmp(gamma.data(), want_gamma.data(), gamma.size() * sizeof(T)),
      0);
  EXPECT_EQ(std::memcmp(beta.data(), want_beta.data(), beta.size() * sizeof(T)),
            0);
}

TEST(LaunchLayerNormGradBeta, EightBlocksEqualEngineCallsPerBlockFloat) {
  CheckGradBetaAgainstEngine<float>(normgrad::DType::kF32);
}

TEST(LaunchLayerNormGradBeta, EightBlocksEqualEngineCallsPerBlockHalf) {
  CheckGradBetaAgainstEngine<half>(normgrad::DType::kF16);
}

}  // namespace

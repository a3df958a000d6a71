// block_sync_test.cc — synchronization between blocks, atomics and the debug
// printer through kernel_operator.h (docs/runtime.md, "Synchronization",
// "Atomics", "Debugging"): the combine rules of each atomic type, deferred
// atomics and the guard against reading them back early, SyncAll rounds,
// deadlock messages, the core mutex, and block-ordered output.
//
// Extending: write kernels as Ascend C programs do and launch them as
// normgrad-cc's rewrite of `k<<<n, 0, nullptr>>>(args)` would, with the
// return policy (PolicyScope) when the test expects a failure.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/runtime/gm_store.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way
using normgrad_ascendc::KernelErrorPolicy;
using normgrad_ascendc::LaunchKernel;

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

// Each block adds its 8 values into GM under the atomic mode of `T`.
template <typename T>
void AddEight(GM_ADDR src, GM_ADDR dst, uint32_t op) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  LocalTensor<T> t = buf.Get<T>();
  GlobalTensor<T> in;
  GlobalTensor<T> out;
  const uint32_t n = 32 / sizeof(T);
  in.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(src) + GetBlockIdx() * n, n);
  out.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(dst), n);
  DataCopy(t, in, n);
  if (op == 0) SetAtomicAdd<T>();
  if (op == 1) SetAtomicMax<T>();
  if (op == 2) SetAtomicMin<T>();
  DataCopy(out, t, n);
  DisableDmaAtomic();
}

TEST(Atomics, HalfAddRoundsInHalfAfterEachWrite) {
  // 2048 + 1 + 1: in half each add rounds back to 2048 (the ulp is 2 there,
  // ties to even), while a sum kept in float and rounded once would give
  // 2050.
  std::vector<half> src(32, half(1.0f));
  std::vector<half> dst(16, half(2048.0f));
  LaunchKernel("AddEight", 2, 0, nullptr, AddEight<half>, src.data(),
               dst.data(), 0u);
  for (const half& h : dst) EXPECT_EQ(static_cast<float>(h), 2048.0f);
}

TEST(Atomics, IntegerMaxMinAndBfloat16Add) {
  std::vector<int32_t> src(16);
  for (int i = 0; i < 16; ++i)
    src[i] = (i % 8) * (i < 8 ? 1 : -1) + 100000001 * (i / 8);
  std::vector<int32_t> mx(8, 5);
  LaunchKernel("AddEight", 2, 0, nullptr, AddEight<int32_t>, src.data(),
               mx.data(), 1u);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(mx[j], 100000001 - j) << j;
  std::vector<int32_t> mn(8, 5);
  LaunchKernel("AddEight", 2, 0, nullptr, AddEight<int32_t>, src.data(),
               mn.data(), 2u);
  for (int j = 0; j < 8; ++j) EXPECT_EQ(mn[j], std::min(j, 5)) << j;

  std::vector<bfloat16_t> bsrc(32, bfloat16_t(1.0f));
  std::vector<bfloat16_t> bdst(16, bfloat16_t(256.0f));
  LaunchKernel("AddEight", 2, 0, nullptr, AddEight<bfloat16_t>, bsrc.data(),
               bdst.data(), 0u);
  // 256 + 1 rounds back to 256 in bfloat16 (8 bits of mantissa), twice.
  for (const bfloat16_t& b : bdst) EXPECT_EQ(static_cast<float>(b), 256.0f);
}

TEST(Atomics, StoreAtomicConfigReportsTheMode) {
  uint16_t type = 9;
  uint16_t op = 9;
  SetStoreAtomicConfig<AtomicDtype::ATOMIC_F16, AtomicOp::ATOMIC_SUM>();
  GetStoreAtomicConfig(type, op);
  EXPECT_EQ(type, 2);
  EXPECT_EQ(op, 0);
  SetAtomicAdd<int8_t>();
  GetStoreAtomicConfig(type, op);
  EXPECT_EQ(type, 5);
  SetAtomicType<bfloat16_t>();
  GetStoreAtomicConfig(type, op);
  EXPECT_EQ(type, 6);
  DisableDmaAtomic();
  GetStoreAtomicConfig(type, op);
  EXPECT_EQ(type, 0);
}

// Each block adds 1 to every element under SetAtomicAdd; block 0 then reads
// an element back without a SyncAll, through GetValue and through DataCopy.
void ReadBackEarly(GM_ADDR dst, int32_t by_copy) {
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(dst), 8);
  SetAtomicAdd<float>();
  for (uint32_t i = 0; i < 8; ++i) g.SetValue(i, 1.0f);
  DisableDmaAtomic();
  if (GetBlockIdx() != 0) return;
  if (by_copy == 0) {
    static_cast<void>(g.GetValue(4));
  } else {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    AscendC::DataCopy(buf.Get<float>(), g, 8);
  }
}

TEST(Atomics, ReadingDeferredAtomicWritesBackIsAnError) {
  for (const int32_t by_copy : {0, 1}) {
    PolicyScope policy;
    std::vector<float> dst(8, 0.0f);
    testing::internal::CaptureStderr();
    const int rc =
        LaunchKernel("ReadBackEarly", 2, 0, nullptr, ReadBackEarly,
                     reinterpret_cast<uint8_t*>(dst.data()), by_copy);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(rc, 0);
    EXPECT_NE(err.find("block 0/2: "), std::string::npos) << err;
    EXPECT_NE(
        err.find(by_copy
                     ? "DataCopy<float> GM->UB: reads global memory"
                     : "GlobalTensor<float>::GetValue: reads global memory"),
        std::string::npos)
        << err;
    EXPECT_NE(err.find("wrote under SetAtomicAdd<float> at "),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("visible at the next SyncAll"), std::string::npos)
        << err;
    // The deferred writes still land at the launch's end.
    for (const float v : dst) EXPECT_EQ(v, 2.0f);
  }
}

// Each block adds 1 under SetAtomicAdd, then SyncAll; every block then sees
// the total.
void SumThenSync(GM_ADDR cell, GM_ADDR seen) {
  const std::vector<int32_t> one(8, 1);
  SetAtomicAdd<int32_t>();
  normgrad_ascendc::StoreToGm("SumThenSync", cell,
                              reinterpret_cast<const uint8_t*>(one.data()), 32);
  DisableDmaAtomic();
  SyncAll();
  reinterpret_cast<int32_t*>(seen)[GetBlockIdx()] =
      reinterpret_cast<int32_t*>(cell)[0];
  SyncAll();
}

TEST(BlockSync, SyncAllMakesAtomicsVisibleToEveryBlock) {
  std::vector<int32_t> cell(8, 0);
  std::vector<int32_t> seen(16, -1);
  EXPECT_EQ(LaunchKernel("SumThenSync", 16, 0, nullptr, SumThenSync,
                         reinterpret_cast<uint8_t*>(cell.data()),
                         reinterpret_cast<uint8_t*>(seen.data())),
            0);
  for (const int32_t s : seen) EXPECT_EQ(s, 16);
}

void SyncAllOnce() { SyncAll(); }

TEST(BlockSync, SyncAllOnOneBlockOutsideALaunchReturns) {
  SyncAll();  // the thread's own one-block launch
  EXPECT_EQ(LaunchKernel("SyncAllOnce", 1, 0, nullptr, SyncAllOnce), 0);
}

void WaitOwnFlag(GM_ADDR sync) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(sync), 8);
  IBWait(g, buf.Get<int32_t>(), 0, 0);
}

TEST(BlockSync, ASingleBlockWaitingForItselfIsADeadlock) {
  PolicyScope policy;
  std::vector<int32_t> sync(8, 0);
  testing::internal::CaptureStderr();
  const int rc = LaunchKernel("WaitOwnFlag", 1, 0, nullptr, WaitOwnFlag,
                              reinterpret_cast<uint8_t*>(sync.data()));
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(rc, 0);
  EXPECT_NE(err.find("kernel WaitOwnFlag block 0/1: "), std::string::npos)
      << err;
  EXPECT_NE(err.find("block_sync_test.cc:"), std::string::npos) << err;
  EXPECT_NE(err.find("waits in IBWait(blockIdx 0, eventID 0)"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("is the only block"), std::string::npos) << err;
}

TEST(Mutex, LockAndUnlockMustAlternate) {
  const MutexID id = AllocMutexID();
  Mutex::Lock<PIPE_V>(id);
  EXPECT_THROW(Mutex::Lock<PIPE_V>(id), normgrad_ascendc::KernelError);
  Mutex::Unlock<PIPE_V>(id);
  try {
    Mutex::Unlock<PIPE_V>(id);
    FAIL() << "no error";
  } catch (const normgrad_ascendc::KernelError& e) {
    EXPECT_NE(std::string(e.what()).find("block_sync_test.cc:"),
              std::string::npos);
    EXPECT_NE(std::string(e.what()).find("is not locked"), std::string::npos);
  }
  ReleaseMutexID(id);
  EXPECT_THROW(ReleaseMutexID(id), normgrad_ascendc::KernelError);
}

void PrintTwoLines() {
  printf("a %d\n", static_cast<int>(GetBlockIdx()));
  printf("no newline");
}

TEST(Debug, OutputIsPrefixedAndInBlockOrder) {
  testing::internal::CaptureStdout();
  LaunchKernel("PrintTwoLines", 3, 0, nullptr, PrintTwoLines);
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_EQ(out,
            "[block 0/3] a 0\n[block 0/3] no newline\n"
            "[block 1/3] a 1\n[block 1/3] no newline\n"
            "[block 2/3] a 2\n[block 2/3] no newline\n");
}

void PrintTyped() {
  printf("%d %f %x %u %s %5.2f|%-4d|%c %%\n", int64_t{-3}, half(1.5f),
         int32_t{-1}, uint8_t{200}, "str", bfloat16_t(2.0f), 7, 'k');
}

TEST(Debug, PrintfIsTypedAsOnTheDevice) {
  testing::internal::CaptureStdout();
  LaunchKernel("PrintTyped", 1, 0, nullptr, PrintTyped);
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "[block 0/1] -3 1.500000 ffffffff 200 str  2.00|7   |k %\n");
}

TEST(Debug, PrintfOutsideALaunchIsPlainPrintf) {
  testing::internal::CaptureStdout();
  const int n = printf("x=%d\n", 5);
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "x=5\n");
  EXPECT_EQ(n, 4);
}

TEST(Debug, AssertNamesConditionFileAndLine) {
  const int line = __LINE__ + 2;
  try {
    ascendc_assert(1 + 1 == 3, "sum %d", 2);
    FAIL() << "no error";
  } catch (const normgrad_ascendc::KernelError& e) {
    EXPECT_EQ(std::string(e.what()),
              std::string(__FILE__) + ":" + std::to_string(line) +
                  ": assertion failed: 1 + 1 == 3: sum 2");
  }
}

}  // namespace

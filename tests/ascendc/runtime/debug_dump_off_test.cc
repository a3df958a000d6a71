// debug_dump_off_test.cc — a kernel built with ASCENDC_DUMP=0 (docs/runtime.md,
// "Debugging"): printf and DumpTensor print nothing from kernels, assert and
// ascendc_assert check nothing, while host printf and ASSERT still work.
// The macro must come before the first include, as programs write it.
#define ASCENDC_DUMP 0

#include <gtest/gtest.h>

#include <string>

#include "kernel_operator.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way

void QuietKernel(GM_ADDR flag) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 32);
  printf("not printed %d\n", 1);
  DumpTensor(buf.Get<int32_t>(), 1, 8);
  assert(GetBlockIdx() < 0, "not checked");
  ascendc_assert(false);
  *flag = 1;
}

TEST(DebugDumpOff, KernelOutputAndAssertsAreOff) {
  uint8_t flag = 0;
  testing::internal::CaptureStdout();
  printf("host %d\n", 2);
  EXPECT_EQ(normgrad_ascendc::LaunchKernel("QuietKernel", 2, 0, nullptr,
                                           QuietKernel, &flag),
            0);
  std::fflush(stdout);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "host 2\n");
  EXPECT_EQ(flag, 1);
  EXPECT_THROW(ASSERT(flag == 0), normgrad_ascendc::KernelError);
}

}  // namespace

// cube_core_test.h — the fixture the cube instruction tests share: each test
// runs as block 0 of 1 of an AIC-only kernel would, on a cube core whose
// registers (img2col, Mmad modes) start unset, and gives the vector task
// type back afterwards.
#pragma once

#include <gtest/gtest.h>

#include "kernel_operator.h"
#include "normgrad_ascendc/runtime/core.h"

class CubeCoreTest : public testing::Test {
 protected:
  void SetUp() override {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  }
  void TearDown() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
};

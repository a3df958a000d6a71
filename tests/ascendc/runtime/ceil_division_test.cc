// ceil_division_test.cc — AscendC::CeilDivision as documented: rounding up
// for positive arguments, 0 for a zero divisor, usable in constant
// expressions.
#include <gtest/gtest.h>

#include "kernel_operator.h"

namespace {

static_assert(AscendC::CeilDivision(64, 32) == 2,
              "usable in constant expressions");

TEST(CeilDivision, RoundsUp) {
  EXPECT_EQ(AscendC::CeilDivision(1, 8), 1);
  EXPECT_EQ(AscendC::CeilDivision(8, 8), 1);
  EXPECT_EQ(AscendC::CeilDivision(9, 8), 2);
  EXPECT_EQ(AscendC::CeilDivision(1000, 7), 143);
}

TEST(CeilDivision, ZeroDivisorGivesZero) {
  EXPECT_EQ(AscendC::CeilDivision(5, 0), 0);
}

}  // namespace

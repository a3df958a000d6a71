// platform_test.cc — platform_ascendc::PlatformAscendC and its manager
// (tiling/platform/platform_ascendc.h) on each product profile: the core
// counts, SoC family, architecture, UB size and system workspace of the
// product each profile stands for (docs/decisions.md, "The program model and
// the toolchain"), the NORMGRAD_CORE_NUM_AIC/AIV overrides, ReserveLocalMemory
// and CalcTschNumBlocks. To extend: add a row to kProducts when a profile is
// added.
#include <gtest/gtest.h>

#include <cstdlib>

#include "normgrad_ascendc/runtime/profile.h"
#include "tiling/platform/platform_ascendc.h"

namespace {

using normgrad_ascendc::Profile;
using platform_ascendc::CoreMemType;
using platform_ascendc::PlatformAscendC;
using platform_ascendc::PlatformAscendCManager;
using platform_ascendc::SocVersion;

struct Product {
  Profile profile;
  uint32_t aic, aiv, vector;
  SocVersion soc;
  NpuArch arch;
  uint64_t ub;
};

constexpr Product kProducts[] = {
    {Profile::kA2, 24, 48, 0, SocVersion::ASCEND910B, NpuArch::DAV_2201,
     196608},
    {Profile::k310P, 8, 8, 7, SocVersion::ASCEND310P, NpuArch::DAV_2002,
     262144},
    {Profile::k950, 36, 72, 0, SocVersion::ASCEND950, NpuArch::DAV_3510,
     253952},
};

class PlatformTest : public testing::Test {
 protected:
  void TearDown() override {
    normgrad_ascendc::SetProfile(Profile::kA2);
    unsetenv("NORMGRAD_CORE_NUM_AIC");
    unsetenv("NORMGRAD_CORE_NUM_AIV");
  }
};

TEST_F(PlatformTest, EachProfileReportsItsProduct) {
  for (const Product& p : kProducts) {
    normgrad_ascendc::SetProfile(p.profile);
    const PlatformAscendC platform(nullptr);
    SCOPED_TRACE(normgrad_ascendc::GetProfileInfo(p.profile).key);
    EXPECT_EQ(platform.GetCoreNumAic(), p.aic);
    EXPECT_EQ(platform.GetCoreNumAiv(), p.aiv);
    EXPECT_EQ(platform.GetCoreNum(), p.aiv);
    EXPECT_EQ(platform.GetCoreNumVector(), p.vector);
    EXPECT_EQ(platform.GetSocVersion(), p.soc);
    EXPECT_EQ(platform.GetCurNpuArch(), p.arch);
    uint64_t ub = 0;
    platform.GetCoreMemSize(CoreMemType::UB, ub);
    EXPECT_EQ(ub, p.ub);
    EXPECT_EQ(platform.GetLibApiWorkSpaceSize(), 16u * 1024 * 1024);
  }
}

TEST_F(PlatformTest, ManagerAnswersForTheCurrentProfile) {
  PlatformAscendC* platform =
      PlatformAscendCManager::GetInstance("Ascend310P3");
  EXPECT_EQ(platform, PlatformAscendCManager::GetInstance());
  normgrad_ascendc::SetProfile(Profile::k950);
  EXPECT_EQ(platform->GetCoreNumAiv(), 72u);
  normgrad_ascendc::SetProfile(Profile::kA2);
  EXPECT_EQ(platform->GetCoreNumAiv(), 48u);
}

TEST_F(PlatformTest, EnvironmentOverridesTheCoreCounts) {
  setenv("NORMGRAD_CORE_NUM_AIC", "3", 1);
  setenv("NORMGRAD_CORE_NUM_AIV", "6", 1);
  const PlatformAscendC platform(nullptr);
  EXPECT_EQ(platform.GetCoreNumAic(), 3u);
  EXPECT_EQ(platform.GetCoreNumAiv(), 6u);
  EXPECT_EQ(platform.GetCoreNum(), 6u);
  setenv("NORMGRAD_CORE_NUM_AIV", "zero", 1);  // not a count: the product's
  testing::internal::CaptureStderr();
  EXPECT_EQ(platform.GetCoreNumAiv(), 48u);
  EXPECT_NE(testing::internal::GetCapturedStderr().find(
                "NORMGRAD_CORE_NUM_AIV \"zero\" is not a core count "
                "(1..65535); using 48"),
            std::string::npos);
}

TEST_F(PlatformTest, ReservedLocalMemoryComesOffTheUnifiedBuffer) {
  PlatformAscendC platform(nullptr);
  platform.ReserveLocalMemory(
      platform_ascendc::ReservedSize::RESERVED_SIZE_32K);
  platform.ReserveLocalMemory(
      platform_ascendc::ReservedSize::RESERVED_SIZE_8K);  // last wins
  uint64_t ub = 0;
  platform.GetCoreMemSize(CoreMemType::UB, ub);
  EXPECT_EQ(ub, 196608u - 8192u);
  uint64_t l1 = 1;
  platform.GetCoreMemSize(CoreMemType::L1, l1);
  EXPECT_EQ(l1, 512u * 1024u);  // the cube core's L1: no reservation
}

TEST_F(PlatformTest, CalcTschNumBlocks) {
  const PlatformAscendC platform(nullptr);
  EXPECT_EQ(platform.CalcTschNumBlocks(100, 0, 48),
            48u);  // vector only: capped
  EXPECT_EQ(platform.CalcTschNumBlocks(10, 0, 48), 10u);
  EXPECT_EQ(platform.CalcTschNumBlocks(40, 20, 40),
            20u);  // 1 cube + 2 vector per block
  EXPECT_EQ(platform.CalcTschNumBlocks(7, 20, 40), 4u);
  EXPECT_EQ(platform.CalcTschNumBlocks(0, 20, 40), 1u);
}

}  // namespace

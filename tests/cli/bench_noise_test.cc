// bench_noise_test.cc — the rules by which `normgrad bench` marks a row
// noisy (tools/normgrad/bench_noise.h), each on its own and at its limit.
#include "bench_noise.h"

#include <gtest/gtest.h>

namespace normgrad::cli {
namespace {

TEST(BenchNoise, QuietSignsGiveNoReason) {
  NoiseSigns s;
  s.others_cpu = kMaxOthersCpu;
  s.spread = kMaxSpread;
  s.baseline_spread = kMaxSpread;
  s.baseline_start_gbs = 40;
  s.baseline_end_gbs = 40 * kMinBaselineKept;
  EXPECT_EQ(NoisyReason(s), "");
}

TEST(BenchNoise, UnmeasuredSignsGiveNoReason) {
  EXPECT_EQ(NoisyReason(NoiseSigns{}), "");
  NoiseSigns s;
  s.baseline_start_gbs = 40;  // the end not measured yet
  EXPECT_EQ(NoisyReason(s), "");
}

TEST(BenchNoise, OtherProcessesTakingCpuTime) {
  NoiseSigns s;
  s.others_cpu = 0.5;
  EXPECT_EQ(NoisyReason(s), "other processes took 50% of the CPU time > 10%");
  s.others_cpu = 0;
  EXPECT_EQ(NoisyReason(s), "");
}

TEST(BenchNoise, RoundsOfTheRowOrOfItsBaselineSpreading) {
  NoiseSigns s;
  s.spread = 0.4;
  EXPECT_EQ(NoisyReason(s), "rounds spread 40% > 25%");
  s.spread = -1;
  s.baseline_spread = 0.3;
  EXPECT_EQ(NoisyReason(s), "baseline's rounds spread 30% > 25%");
}

TEST(BenchNoise, BaselineFallingDuringTheRun) {
  NoiseSigns s;
  s.baseline_start_gbs = 40;
  s.baseline_end_gbs = 20;
  EXPECT_EQ(NoisyReason(s),
            "read baseline fell from 40.0 GB/s at the start to 20.0 at the end (< 70%)");
  s.baseline_end_gbs = 80;  // rising is no sign of a busy machine
  EXPECT_EQ(NoisyReason(s), "");
}

TEST(BenchNoise, EveryReasonIsGiven) {
  NoiseSigns s;
  s.others_cpu = 1;
  s.spread = 1;
  s.baseline_start_gbs = 10;
  s.baseline_end_gbs = 1;
  EXPECT_EQ(NoisyReason(s),
            "other processes took 100% of the CPU time > 10%; rounds spread 100% > 25%; read "
            "baseline fell from "
            "10.0 GB/s at the start to 1.0 at the end (< 70%)");
}

TEST(BenchNoise, OthersShareLeavesOutTheBenchsOwnTime) {
  // 2 CPUs for 100 ticks each: 200 ticks; the bench busy on both all along.
  EXPECT_DOUBLE_EQ(OthersCpuShare(200, 200, 200), 0.0);
  EXPECT_DOUBLE_EQ(OthersCpuShare(150, 100, 200), 0.25);
  EXPECT_DOUBLE_EQ(OthersCpuShare(190, 200, 200), 0.0);  // counts read a tick apart
  EXPECT_EQ(OthersCpuShare(0, 0, 0), -1);
}

TEST(BenchNoise, ShortGroupsAreJudgedWithTheGroupsBeforeThem) {
  const std::vector<double> starts = {0, 150, 180, 195};
  EXPECT_EQ(WindowStart(starts, 400, 100), 3u);  // the last group alone is long enough
  EXPECT_EQ(WindowStart(starts, 260, 100), 1u);  // 65 and 80 ticks are not; 110 are
  EXPECT_EQ(WindowStart(starts, 198, 100), 0u);  // nothing is: from the first reading
  EXPECT_EQ(WindowStart({5}, 6, 100), 0u);
}

TEST(BenchNoise, SpreadIsTheRangeOverTheMedian) {
  EXPECT_DOUBLE_EQ(Spread({1.0, 2.0, 1.5}), (2.0 - 1.0) / 1.5);
  EXPECT_DOUBLE_EQ(Spread({3.0, 3.0, 3.0}), 0.0);
  EXPECT_EQ(Spread({1.0}), -1);  // one round: nothing to compare
  EXPECT_EQ(Spread({0.0, 0.0}), -1);
}

}  // namespace
}  // namespace normgrad::cli

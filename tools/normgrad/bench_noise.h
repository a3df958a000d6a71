// tools/normgrad/bench_noise.h — whether a row of `normgrad bench` was timed
// on a busy or unstable machine, and why. The rules are one pure function of
// what the bench observed, so tests can check them without loading a machine.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace normgrad::cli {

/// The most the rounds of one row may spread, as a fraction of their median
/// ((slowest − fastest) / median). On a quiet machine the rounds of a row
/// agree within a few percent; the table is read for differences of 0.05–0.1
/// in ratios, and a spread above a quarter means the median itself may be off
/// by more than that.
constexpr double kMaxSpread = 0.25;

/// The most of the machine's CPU time that other processes may take while a
/// group of rows is timed (steal time, the hypervisor giving the CPUs to
/// other machines, counts as theirs). A quiet machine's daemons take about 1%;
/// one compiler process takes half of a 2-core machine. The bench's own
/// threads are not counted: a 2-thread row keeps a 2-core machine's load
/// average at its core count by itself.
constexpr double kMaxOthersCpu = 0.10;

/// The least CPU time (all cores together, in seconds) over which other
/// processes' share is judged: the kernel counts CPU time in ticks of 10 ms,
/// so a shorter window would turn one tick of a daemon into a large share.
/// A group shorter than this is judged with the groups before it.
constexpr double kOthersWindowSeconds = 1.0;

/// The read baseline re-measured at the end of a run may fall to this
/// fraction of the one measured at its start. Memory bandwidth does not drift
/// by itself; a drop of more than 30% means other work took the memory bus or
/// the cores during the run, and so possibly during any of its rows.
constexpr double kMinBaselineKept = 0.7;

/// What the bench observed around one row. Values not measured are negative.
struct NoiseSigns {
  double others_cpu = -1;          ///< other processes' share of the CPU time, 0–1
  double spread = -1;              ///< the row's own rounds
  double baseline_spread = -1;     ///< the rounds of the baseline its ratio divides by
  double baseline_start_gbs = -1;  ///< the check baseline at the start of the run
  double baseline_end_gbs = -1;    ///< and at its end
};

/// Other processes' share of the machine's CPU time over an interval, from
/// its clock-tick counts: the machine's busy ticks, this process's own busy
/// ticks, and all ticks of every CPU (busy and idle); -1 for an interval
/// without ticks. The counts are sampled separately, so the difference is
/// kept within 0 and 1.
inline double OthersCpuShare(double busy, double own, double total) {
  if (total <= 0) return -1;
  return std::clamp((busy - own) / total, 0.0, 1.0);
}

/// Which of the readings taken at the start of each group (their total
/// ticks, oldest first, at least one) opens the window that ends at
/// `now_total`: the latest with at least `window_ticks` before `now_total`,
/// else the first.
inline size_t WindowStart(const std::vector<double>& start_totals, double now_total,
                          double window_ticks) {
  size_t i = start_totals.size() - 1;
  while (i > 0 && now_total - start_totals[i] < window_ticks) --i;
  return i;
}

/// (slowest − fastest) / median of a row's per-round times; -1 for fewer than
/// two rounds or a zero median.
inline double Spread(std::vector<double> samples) {
  if (samples.size() < 2) return -1;
  std::sort(samples.begin(), samples.end());
  const double median = samples[samples.size() / 2];
  return median > 0 ? (samples.back() - samples.front()) / median : -1;
}

/// Empty when nothing observed casts doubt on the row's figures; otherwise
/// each reason, separated by "; ". Spreads are in percent of the median.
inline std::string NoisyReason(const NoiseSigns& s) {
  std::string reasons;
  char buf[160];
  const auto add = [&](const char* text) {
    if (!reasons.empty()) reasons += "; ";
    reasons += text;
  };
  if (s.others_cpu > kMaxOthersCpu) {
    std::snprintf(buf, sizeof buf, "other processes took %.0f%% of the CPU time > %.0f%%",
                  100 * s.others_cpu, 100 * kMaxOthersCpu);
    add(buf);
  }
  if (s.spread > kMaxSpread) {
    std::snprintf(buf, sizeof buf, "rounds spread %.0f%% > %.0f%%", 100 * s.spread,
                  100 * kMaxSpread);
    add(buf);
  }
  if (s.baseline_spread > kMaxSpread) {
    std::snprintf(buf, sizeof buf, "baseline's rounds spread %.0f%% > %.0f%%",
                  100 * s.baseline_spread, 100 * kMaxSpread);
    add(buf);
  }
  if (s.baseline_start_gbs > 0 && s.baseline_end_gbs >= 0 &&
      s.baseline_end_gbs < kMinBaselineKept * s.baseline_start_gbs) {
    std::snprintf(buf, sizeof buf,
                  "read baseline fell from %.1f GB/s at the start to %.1f at the end (< %.0f%%)",
                  s.baseline_start_gbs, s.baseline_end_gbs, 100 * kMinBaselineKept);
    add(buf);
  }
  return reasons;
}

}  // namespace normgrad::cli

// tools/normgrad/demo.cc — `normgrad demo`: the built-in problem of `make
// run`. pd_gamma/pd_beta of [4, 2048, 1024] standard-normal dy and
// resForGamma (fixed printed seed, NORMGRAD_SEED overrides it), in float and
// half, in both orders, each checked against the double-precision reference
// within a derived rounding-error bound, timed (median of a few runs).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "bounds.h"
#include "commands.h"
#include "dims.h"
#include "normgrad/convert.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "reference.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "demo";
constexpr size_t kRows = 4 * 2048, kCols = 1024;
constexpr uint64_t kDefaultSeed = 2024;
constexpr int kTimedRuns = 5;

// Rounding-error bound for one output column (bounds.h): a column sums
// n = rows terms, each through at most k roundings:
//   sequential: one running sum over all rows: k = n.
//   blocked: 256-row blocks summed from zero (256 additions), a pairwise tree
//     of depth d = ⌈log2 ⌈n / 256⌉⌉, one rounding of each product:
//     k = 256 + d + 1.
// A 16-bit output is rounded once more (2^-11 half, 2^-8 bf16).
double ErrorBound(Order order, DType dtype, size_t rows, double abs_sum, double ref) {
  double k = static_cast<double>(rows);
  if (order == Order::kBlocked) {
    const double blocks = std::ceil(static_cast<double>(rows) / 256.0);
    k = 256.0 + std::ceil(std::log2(blocks)) + 1.0;
  }
  const double bound = SumBound(k, rows, abs_sum);
  if (dtype == DType::kF32) return bound;
  return RoundedBound(bound, std::ldexp(1.0, dtype == DType::kF16 ? -11 : -8), ref);
}

// The seed: NORMGRAD_SEED if set (a decimal number), else the default.
bool Seed(uint64_t* seed) {
  const char* text = std::getenv("NORMGRAD_SEED");
  if (text == nullptr) {
    *seed = kDefaultSeed;
    return true;
  }
  return IsDimList(text, 1, 1) &&
         ParseNumber(text, std::numeric_limits<uint64_t>::max(), "NORMGRAD_SEED", seed).ok();
}

struct Row {
  std::string impl;
  int threads = 0;
  double seconds = 0;
  double error = 0;        // normwise, the worse of pd_gamma and pd_beta
  double worst_ratio = 0;  // max over columns of |err| / bound
};

// One (dtype, order) case: timed runs, then the check against the reference.
Status RunCase(DType dtype, Order order, const void* dy, const void* res,
               const std::vector<double> ref[2], const std::vector<double> abs_sum[2], Row* row) {
  std::vector<unsigned char> outputs[2];
  for (auto& o : outputs) o.resize(kCols * SizeOf(dtype));
  GradBetaProblem p;
  p.dtype = dtype;
  p.rows = kRows;
  p.cols = kCols;
  p.dy = dy;
  p.res = res;
  p.pd_gamma = outputs[0].data();
  p.pd_beta = outputs[1].data();
  p.order = order;
  std::vector<double> times;
  for (int i = 0; i < kTimedRuns; ++i) {
    const auto start = std::chrono::steady_clock::now();
    Status s = LayerNormGradBeta(p);
    times.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!s.ok()) return s;
  }
  std::sort(times.begin(), times.end());
  row->seconds = times[kTimedRuns / 2];
  const RunInfo info = LastRunInfo();
  row->impl = info.impl;
  row->threads = info.threads;
  for (int k = 0; k < 2; ++k) {
    std::vector<double> got(kCols);
    for (size_t c = 0; c < kCols; ++c) {
      got[c] = reference::Decode(dtype, outputs[k].data(), c);
      const double bound = ErrorBound(order, dtype, kRows, abs_sum[k][c], ref[k][c]);
      row->worst_ratio = std::max(row->worst_ratio, std::fabs(got[c] - ref[k][c]) / bound);
    }
    row->error = std::max(row->error, reference::NormwiseError(got, ref[k]));
  }
  return Status::Ok();
}

}  // namespace

int RunDemo() {
  uint64_t seed = 0;
  if (!Seed(&seed)) {
    return Fail(kCommand, std::string("NORMGRAD_SEED=") + std::getenv("NORMGRAD_SEED") +
                              " is not a decimal number of at most 64 bits");
  }
  std::printf(
      "normgrad demo: pd_gamma, pd_beta of dy, resForGamma %s (rows %zu, H %zu), "
      "standard normal, seed %llu (set NORMGRAD_SEED to change it)\n",
      FormatDims({4, 2048, 1024}).c_str(), kRows, kCols, static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> normal;
  std::vector<float> dy32(kRows * kCols), res32(kRows * kCols);
  for (float& x : dy32) x = normal(rng);
  for (float& x : res32) x = normal(rng);
  std::vector<float16> dy16(dy32.size()), res16(res32.size());
  Narrow(dy32.data(), dy16.data(), dy32.size());
  Narrow(res32.data(), res16.data(), res32.size());

  std::printf(
      "time: median of %d runs; GB/s: (2 inputs + 2 outputs) bytes / time; error: "
      "max|err| / max|ref|, worst: max |err| / bound per column (pass: <= 1)\n",
      kTimedRuns);
  std::printf("%-6s %-11s %-18s %7s %9s %7s %10s %8s  %s\n", "dtype", "order", "impl", "threads",
              "time ms", "GB/s", "error", "worst", "check");
  bool all_pass = true;
  for (DType dtype : {DType::kF32, DType::kF16}) {
    const void* dy = dtype == DType::kF32 ? static_cast<const void*>(dy32.data()) : dy16.data();
    const void* res = dtype == DType::kF32 ? static_cast<const void*>(res32.data()) : res16.data();
    std::vector<double> ref[2], abs_sum[2];
    for (int k = 0; k < 2; ++k) {
      ref[k].resize(kCols);
      abs_sum[k].resize(kCols);
    }
    reference::GradBeta(dtype, dy, res, kRows, kCols, kCols, ref[0].data(), ref[1].data());
    reference::GradBetaAbsSums(dtype, dy, res, kRows, kCols, kCols, abs_sum[0].data(),
                               abs_sum[1].data());
    for (Order order : {Order::kSequential, Order::kBlocked}) {
      Row row;
      Status s = RunCase(dtype, order, dy, res, ref, abs_sum, &row);
      if (!s.ok()) return Fail(kCommand, s.message());
      const bool pass = row.worst_ratio <= 1.0;
      all_pass = all_pass && pass;
      const double bytes = 2.0 * kRows * kCols * SizeOf(dtype) + 2.0 * kCols * SizeOf(dtype);
      std::printf("%-6s %-11s %-18s %7d %9.3f %7.1f %10.2e %8.4f  %s\n", DTypeName(dtype),
                  OrderName(order), row.impl.c_str(), row.threads, row.seconds * 1e3,
                  bytes / row.seconds / 1e9, row.error, row.worst_ratio, pass ? "pass" : "FAIL");
    }
  }
  std::printf(all_pass ? "OK: every result is within its bound\n"
                       : "FAILED: a result is outside its bound\n");
  return all_pass ? 0 : 1;
}

}  // namespace normgrad::cli

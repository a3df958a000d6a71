// tools/normgrad/example_welford.cc — `normgrad example --op welford-update`
// and `--op welford-finalize`.
//
// welford-update: the documented WelfordUpdate example (docs/welfordupdate.md, "Worked
// example") through the Ascend C API, as a kernel would run it: a TPipe on the
// current emulated core, the tensors and a scratch buffer of the minimum size
// (GetWelfordUpdateMaxMinTmpSize) in its unified buffer, and
// AscendC::WelfordUpdate<float, float, false, isInplace = true> on a row of 64
// with abComputeLength 35: inputX = 1, inputMean = inputVariance = 0..63,
// nRec = 0.125. Every output is compared with the documented values.
//
// welford-finalize: the documented WelfordFinalize example (docs/
// welfordfinalize.md, "Worked example"), the form with counts and a
// sharedTmpBuffer of the minimum size: inputMean = inputVariance = 0..31,
// counts 4, rRec = 1/4096. The mean is compared with the documented 0.484375
// exactly; the documentation prints the variance to 7 digits (9.831062), so
// the variance must print the same at 7 digits and be within the bound of
// docs/numerics.md of the float64 value 40268.03125 / 4096.
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kLength = 64;
constexpr uint32_t kComputed = 35;
constexpr float kNRec = 0.125f;
constexpr AscendC::WelfordUpdateConfig kInplace = {true};

// The documented outputs: elements 0–34 updated, 35–63 copied from the inputs.
constexpr double kMean[kLength] = {
    0.125,  1,      1.875,  2.75,   3.625,  4.5,    5.375,  6.25,   7.125,  8,      8.875,
    9.75,   10.625, 11.5,   12.375, 13.25,  14.125, 15,     15.875, 16.75,  17.625, 18.5,
    19.375, 20.25,  21.125, 22,     22.875, 23.75,  24.625, 25.5,   26.375, 27.25,  28.125,
    29,     29.875, 35,     36,     37,     38,     39,     40,     41,     42,     43,
    44,     45,     46,     47,     48,     49,     50,     51,     52,     53,     54,
    55,     56,     57,     58,     59,     60,     61,     62,     63};
constexpr double kVariance[kLength] = {
    0.875,   1,   2.875,   6.5,   11.875,  19,  27.875,  38.5,  50.875,  65,  80.875,  98.5,
    117.875, 139, 161.875, 186.5, 212.875, 241, 270.875, 302.5, 335.875, 371, 407.875, 446.5,
    486.875, 529, 572.875, 618.5, 665.875, 715, 765.875, 818.5, 872.875, 929, 986.875, 35,
    36,      37,  38,      39,    40,      41,  42,      43,    44,      45,  46,      47,
    48,      49,  50,      51,    52,      53,  54,      55,    56,      57,  58,      59,
    60,      61,  62,      63};

void PrintValues(const char* name, const std::vector<double>& values) {
  std::printf("  %s:", name);
  for (size_t i = 0; i < values.size(); ++i) {
    std::printf("%s%.9g", i % 16 == 0 ? "\n   " : " ", values[i]);
  }
  std::printf("\n");
}

bool RunWelfordUpdateExample() {
  using AscendC::TPosition;
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, kLength}), 4, 4, false, true, max_tmp,
                                         min_tmp);
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECIN> x_buf, mean_in_buf, var_in_buf;
  AscendC::TBuf<TPosition::VECOUT> mean_buf, var_buf;
  AscendC::TBuf<TPosition::VECCALC> tmp_buf;
  for (auto* buf : {&x_buf, &mean_in_buf, &var_in_buf}) pipe.InitBuffer(*buf, kLength * 4);
  for (auto* buf : {&mean_buf, &var_buf}) pipe.InitBuffer(*buf, kLength * 4);
  pipe.InitBuffer(tmp_buf, min_tmp);
  AscendC::LocalTensor<float> x = x_buf.Get<float>();
  AscendC::LocalTensor<float> mean_in = mean_in_buf.Get<float>();
  AscendC::LocalTensor<float> var_in = var_in_buf.Get<float>();
  AscendC::LocalTensor<float> mean = mean_buf.Get<float>();
  AscendC::LocalTensor<float> variance = var_buf.Get<float>();
  for (uint32_t j = 0; j < kLength; ++j) {
    x.SetValue(j, 1.0f);
    mean_in.SetValue(j, static_cast<float>(j));
    var_in.SetValue(j, static_cast<float>(j));
  }
  const AscendC::WelfordUpdateParam para = {1, kLength, kComputed, kNRec};
  AscendC::WelfordUpdate<float, float, false, kInplace>(mean, variance, mean_in, var_in, x,
                                                        tmp_buf.Get<uint8_t>(), para);

  std::printf(
      "float [1, %u]: WelfordUpdate<float, float, false, {isInplace = true}>, "
      "abComputeLength %u, nRec %g, scratch %u bytes (the minimum); inputX = 1, "
      "inputMean = inputVariance = 0..63\n",
      kLength, kComputed, static_cast<double>(kNRec), min_tmp);
  std::vector<double> got_mean, got_variance;
  for (uint32_t j = 0; j < kLength; ++j) {
    got_mean.push_back(mean.GetValue(j));
    got_variance.push_back(variance.GetValue(j));
  }
  PrintValues("outputMean", got_mean);
  PrintValues("outputVariance", got_variance);
  bool match = true;
  for (uint32_t j = 0; j < kLength; ++j) {
    if (got_mean[j] != kMean[j] || got_variance[j] != kVariance[j]) {
      std::printf("  MISMATCH element %u: mean %.9g variance %.9g, documented %.9g and %.9g\n", j,
                  got_mean[j], got_variance[j], kMean[j], kVariance[j]);
      match = false;
    }
  }
  std::printf("  %s\n", match ? "OK: equal to the documented values" : "FAILED");
  return match;
}

bool RunWelfordFinalizeExample() {
  using AscendC::TPosition;
  constexpr uint32_t kAb = 32;
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({kAb}), 4, false, max_tmp, min_tmp);
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECIN> mean_in_buf, var_in_buf, counts_buf;
  AscendC::TBuf<TPosition::VECOUT> mean_buf, var_buf;
  AscendC::TBuf<TPosition::VECCALC> tmp_buf;
  for (auto* buf : {&mean_in_buf, &var_in_buf, &counts_buf}) pipe.InitBuffer(*buf, kAb * 4);
  for (auto* buf : {&mean_buf, &var_buf}) pipe.InitBuffer(*buf, 32);  // one float, 32-byte aligned
  pipe.InitBuffer(tmp_buf, min_tmp);
  AscendC::LocalTensor<float> mean_in = mean_in_buf.Get<float>();
  AscendC::LocalTensor<float> var_in = var_in_buf.Get<float>();
  AscendC::LocalTensor<int32_t> counts = counts_buf.Get<int32_t>();
  AscendC::LocalTensor<float> mean = mean_buf.Get<float>();
  AscendC::LocalTensor<float> variance = var_buf.Get<float>();
  for (uint32_t i = 0; i < kAb; ++i) {
    mean_in.SetValue(i, static_cast<float>(i));
    var_in.SetValue(i, static_cast<float>(i));
    counts.SetValue(i, 4);
  }
  AscendC::WelfordFinalizePara para = {1, kAb, 4, kAb, 0, 0, 1.0f / kAb, 1.0f / 4096, 0.0f};
  AscendC::WelfordFinalize<false>(mean, variance, mean_in, var_in, counts, tmp_buf.Get<uint8_t>(),
                                  para);
  const float got_mean = mean.GetValue(0);
  const float got_var = variance.GetValue(0);
  std::printf(
      "float [%u]: WelfordFinalize<false> with counts (all 4), rRec 1/4096, scratch %u "
      "bytes (the minimum); inputMean = inputVariance = 0..31\n",
      kAb, min_tmp);
  std::printf(
      "  outputMean: %.9g\n  outputVariance: %.9g (%.7g at the documentation's 7 "
      "digits)\n",
      static_cast<double>(got_mean), static_cast<double>(got_var), static_cast<double>(got_var));
  // Float64: mean = 4·496/4096; var = (Σ i + 4·Σ (i − mean)²)/4096 = 40268.03125/4096.
  // docs/numerics.md, "WelfordFinalize": within γ(L + 5)·var + …, L = 6, well
  // under 2^-20 relative here.
  const double exact_var = 40268.03125 / 4096;
  char printed[32];
  std::snprintf(printed, sizeof printed, "%.7g", static_cast<double>(got_var));
  const bool mean_ok = got_mean == 0.484375f;
  const bool var_ok = std::string(printed) == "9.831062" &&
                      std::fabs(got_var - exact_var) <= std::ldexp(exact_var, -20);
  if (!mean_ok) std::printf("  MISMATCH outputMean: documented 0.484375\n");
  if (!var_ok)
    std::printf("  MISMATCH outputVariance: documented 9.831062 (float64 %.9g)\n", exact_var);
  std::printf("  %s\n", mean_ok && var_ok ? "OK: equal to the documented values" : "FAILED");
  return mean_ok && var_ok;
}

}  // namespace

std::vector<ExampleOp> WelfordExampleOps() {
  return {{"welford-update", "WelfordUpdate", RunWelfordUpdateExample},
          {"welford-finalize", "WelfordFinalize", RunWelfordFinalizeExample}};
}

}  // namespace normgrad::cli

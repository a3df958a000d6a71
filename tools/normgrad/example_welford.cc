// tools/normgrad/example_welford.cc — `normgrad example --op welford-update`:
// the documented WelfordUpdate example (docs/welfordupdate.md, "Worked
// example") through the Ascend C API, as a kernel would run it: a TPipe on the
// current emulated core, the tensors and a scratch buffer of the minimum size
// (GetWelfordUpdateMaxMinTmpSize) in its unified buffer, and
// AscendC::WelfordUpdate<float, float, false, isInplace = true> on a row of 64
// with abComputeLength 35: inputX = 1, inputMean = inputVariance = 0..63,
// nRec = 0.125. Every output is compared with the documented values.
#include <cstdio>
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
    0.875,   1,       2.875,   6.5,     11.875,  19,      27.875,  38.5,    50.875,  65,
    80.875,  98.5,    117.875, 139,     161.875, 186.5,   212.875, 241,     270.875, 302.5,
    335.875, 371,     407.875, 446.5,   486.875, 529,     572.875, 618.5,   665.875, 715,
    765.875, 818.5,   872.875, 929,     986.875, 35,      36,      37,      38,      39,
    40,      41,      42,      43,      44,      45,      46,      47,      48,      49,
    50,      51,      52,      53,      54,      55,      56,      57,      58,      59,
    60,      61,      62,      63};

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

  std::printf("float [1, %u]: WelfordUpdate<float, float, false, {isInplace = true}>, "
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

}  // namespace

std::vector<ExampleOp> WelfordExampleOps() {
  return {{"welford-update", "WelfordUpdate", RunWelfordUpdateExample}};
}

}  // namespace normgrad::cli

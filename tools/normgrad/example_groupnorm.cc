// tools/normgrad/example_groupnorm.cc — `normgrad example --op groupnorm`:
// the documented GroupNorm example (docs/groupnorm.md, "Worked example")
// through the Ascend C API as a kernel would run it: a TPipe on the current
// emulated core, queues and a scratch buffer in its unified buffer, the
// tiling from GetGroupNormNDTilingInfo at the minimum scratch size (one
// group per chunk), and AscendC::GroupNorm. Float [2, 8, 4, 2] with
// x = 0..127, gamma = beta = 0..7, groupNum 4; the output, the means and the
// variances are compared with the documented values.
#include <cmath>
#include <cstdio>
#include <vector>

#include "dims.h"
#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kN = 2, kC = 8, kH = 4, kW = 2, kGroups = 4;
constexpr uint32_t kElements = kN * kC * kH * kW;
constexpr uint32_t kStats = kN * kGroups;
constexpr float kEpsilon = 1e-5f;

// The documented output of one sample, channel by channel (both samples
// print the same values: each group is 16 consecutive integers).
constexpr double kSampleOutput[kC][kH * kW] = {
    {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
    {1.1084652, 1.3253956, 1.542326, 1.7592564, 1.9761869, 2.1931171, 2.4100475, 2.6269782},
    {-1.2539563, -0.8200953, -0.38623452, 0.047626257, 0.48148715, 0.91534793, 1.3492088,
     1.7830696},
    {3.3253956, 3.9761868, 4.626978, 5.277769, 5.9285607, 6.579352, 7.230143, 7.8809347},
    {-2.5079126, -1.6401906, -0.77246904, 0.095252514, 0.9629743, 1.8306959, 2.6984177, 3.5661392},
    {5.542326, 6.626978, 7.71163, 8.796282, 9.880934, 10.965586, 12.050238, 13.134891},
    {-3.7618694, -2.4602861, -1.1587038, 0.14287853, 1.4444613, 2.7460437, 4.0476265, 5.349209},
    {7.7592564, 9.277769, 10.796282, 12.314795, 13.833308, 15.351821, 16.870335, 18.388847},
};
constexpr double kMean[kStats] = {7.5, 23.5, 39.5, 55.5, 71.5, 87.5, 103.5, 119.5};
constexpr double kVariance = 21.25;

// The page prints eight significant digits: a value matches when it is
// within 5e-7 relative (or absolute, near 0) of the printed one.
bool Matches(double got, double documented) {
  return std::fabs(got - documented) <= 5e-7 * std::fmax(1.0, std::fabs(documented));
}

void PrintRow(const char* name, const std::vector<double>& values, size_t first, size_t count) {
  std::printf("  %-10s", name);
  for (size_t i = first; i < first + count; ++i) std::printf(" %.8g", values[i]);
  std::printf("\n");
}

bool RunGroupNormExample() {
  using AscendC::TPosition;
  const ge::Shape shape({kN, kC, kH, kW});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetGroupNormMaxMinTmpSize(shape, sizeof(float), false, kGroups, max_tmp, min_tmp);
  AscendC::tiling::GroupNormTiling tiling;
  AscendC::GetGroupNormNDTilingInfo(shape, min_tmp, sizeof(float), false, kGroups, tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> x_queue, gamma_queue, beta_queue;
  AscendC::TQue<TPosition::VECOUT, 1> y_queue, mean_queue, variance_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch_buffer;
  pipe.InitBuffer(x_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(gamma_queue, 1, kC * sizeof(float));
  pipe.InitBuffer(beta_queue, 1, kC * sizeof(float));
  pipe.InitBuffer(y_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(mean_queue, 1, kStats * sizeof(float));
  pipe.InitBuffer(variance_queue, 1, kStats * sizeof(float));
  pipe.InitBuffer(scratch_buffer, min_tmp);

  AscendC::LocalTensor<float> x = x_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> beta = beta_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kElements; ++i) x.SetValue(i, static_cast<float>(i));
  for (uint32_t c = 0; c < kC; ++c) {
    gamma.SetValue(c, static_cast<float>(c));
    beta.SetValue(c, static_cast<float>(c));
  }
  AscendC::LocalTensor<float> y = y_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> mean = mean_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> variance = variance_queue.AllocTensor<float>();
  AscendC::GroupNorm<float, false>(y, mean, variance, x, gamma, beta, scratch_buffer.Get<uint8_t>(),
                                   kEpsilon, tiling);

  std::printf(
      "float [%u, %u, %u, %u], groupNum %u, x = 0..%u, gamma = beta = 0..%u, "
      "epsilon %g: GroupNorm<float, false>, scratch %u bytes (the minimum): %s of %s\n",
      kN, kC, kH, kW, kGroups, kElements - 1, kC - 1, static_cast<double>(kEpsilon), min_tmp,
      FormatCount(tiling.loopRound, "chunk").c_str(),
      FormatCount(tiling.meanVarRoundSize, "group").c_str());
  std::vector<double> got_y, got_mean, got_variance;
  for (uint32_t i = 0; i < kElements; ++i) got_y.push_back(y.GetValue(i));
  for (uint32_t k = 0; k < kStats; ++k) {
    got_mean.push_back(mean.GetValue(k));
    got_variance.push_back(variance.GetValue(k));
  }
  x_queue.FreeTensor(x);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);
  y_queue.FreeTensor(y);
  mean_queue.FreeTensor(mean);
  variance_queue.FreeTensor(variance);

  for (uint32_t row = 0; row < kN * kC; ++row) {
    PrintRow(row == 0 ? "output" : "", got_y, size_t{row} * kH * kW, kH * kW);
  }
  PrintRow("mean", got_mean, 0, kStats);
  PrintRow("variance", got_variance, 0, kStats);
  bool match = true;
  auto check = [&](const char* name, uint32_t i, double got, double want) {
    if (!Matches(got, want)) {
      std::printf("  MISMATCH %s[%u]: got %.9g, documented %.9g\n", name, i, got, want);
      match = false;
    }
  };
  for (uint32_t i = 0; i < kElements; ++i) {
    const uint32_t in_sample = i % (kC * kH * kW);
    check("output", i, got_y[i], kSampleOutput[in_sample / (kH * kW)][in_sample % (kH * kW)]);
  }
  for (uint32_t k = 0; k < kStats; ++k) {
    check("mean", k, got_mean[k], kMean[k]);
    check("variance", k, got_variance[k], kVariance);
  }
  std::printf("  %s\n",
              match ? "OK: equal to the documented values (to the 8 digits printed)" : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> GroupNormExampleOps() {
  return {{"groupnorm", "GroupNorm", RunGroupNormExample}};
}

}  // namespace normgrad::cli

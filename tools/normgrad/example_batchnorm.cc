// tools/normgrad/example_batchnorm.cc — `normgrad example --op batchnorm`:
// the documented BatchNorm example (docs/batchnorm.md, "Worked example")
// through the Ascend C API as a kernel would run it: a TPipe on the current
// emulated core, queues and a scratch buffer in its unified buffer, the
// tiling from GetBatchNormNDTilingInfo at the minimum scratch size, and
// AscendC::BatchNorm. Float [8, 4, 2] with x = 0..63, gamma = beta = 0..7;
// the page does not give epsilon and its printed values are those of
// epsilon = 0.01, which the example uses. The output, the means and the
// variances are compared with the documented values.
#include <cmath>
#include <cstdio>
#include <vector>

#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kB = 8, kS = 4, kH = 2, kFeatures = kS * kH, kElements = kB * kFeatures;
constexpr float kEpsilon = 0.01f;

// The documented output: every feature of row b holds the same value.
constexpr double kRowOutput[kB] = {0.0,       -0.091073155, 0.6907122, 2.345356,
                                   4.8728585, 8.27322,      12.546439, 17.692516};
constexpr double kMeanBase = 28;  // mean[j] = 28 + j
constexpr double kVariance = 336;

// The page prints eight significant digits.
bool Matches(double got, double documented) {
  return std::fabs(got - documented) <= 5e-7 * std::fmax(1.0, std::fabs(documented));
}

void PrintRow(const char* name, const std::vector<double>& values, size_t first, size_t count) {
  std::printf("  %-10s", name);
  for (size_t i = first; i < first + count; ++i) std::printf(" %.8g", values[i]);
  std::printf("\n");
}

bool RunBatchNormExample() {
  using AscendC::TPosition;
  const ge::Shape shape({kB, kS, kH});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetBatchNormMaxMinTmpSize(shape, shape, sizeof(float), false, max_tmp, min_tmp);
  AscendC::tiling::BatchNormTiling tiling;
  AscendC::GetBatchNormNDTilingInfo(shape, shape, min_tmp, sizeof(float), false, tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> x_queue, gamma_queue, beta_queue;
  AscendC::TQue<TPosition::VECOUT, 1> y_queue, mean_queue, variance_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch_buffer;
  pipe.InitBuffer(x_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(gamma_queue, 1, kB * sizeof(float));
  pipe.InitBuffer(beta_queue, 1, kB * sizeof(float));
  pipe.InitBuffer(y_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(mean_queue, 1, kFeatures * sizeof(float));
  pipe.InitBuffer(variance_queue, 1, kFeatures * sizeof(float));
  pipe.InitBuffer(scratch_buffer, min_tmp);

  AscendC::LocalTensor<float> x = x_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> beta = beta_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kElements; ++i) x.SetValue(i, static_cast<float>(i));
  for (uint32_t b = 0; b < kB; ++b) {
    gamma.SetValue(b, static_cast<float>(b));
    beta.SetValue(b, static_cast<float>(b));
  }
  AscendC::LocalTensor<float> y = y_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> mean = mean_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> variance = variance_queue.AllocTensor<float>();
  AscendC::BatchNorm<float, false, false>(y, mean, variance, x, gamma, beta,
                                          scratch_buffer.Get<uint8_t>(), kEpsilon, tiling);

  std::printf(
      "float [%u, %u, %u], x = 0..%u, gamma = beta = 0..%u, epsilon %g: "
      "BatchNorm<float, false, false>, scratch %u bytes (the minimum): %u chunk(s) of "
      "%u columns\n",
      kB, kS, kH, kElements - 1, kB - 1, static_cast<double>(kEpsilon), min_tmp, tiling.loopRound,
      tiling.shCurLength);
  std::vector<double> got_y, got_mean, got_variance;
  for (uint32_t i = 0; i < kElements; ++i) got_y.push_back(y.GetValue(i));
  for (uint32_t j = 0; j < kFeatures; ++j) {
    got_mean.push_back(mean.GetValue(j));
    got_variance.push_back(variance.GetValue(j));
  }
  x_queue.FreeTensor(x);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);
  y_queue.FreeTensor(y);
  mean_queue.FreeTensor(mean);
  variance_queue.FreeTensor(variance);

  for (uint32_t b = 0; b < kB; ++b) {
    PrintRow(b == 0 ? "output" : "", got_y, size_t{b} * kFeatures, kFeatures);
  }
  PrintRow("mean", got_mean, 0, kFeatures);
  PrintRow("variance", got_variance, 0, kFeatures);
  bool match = true;
  auto check = [&](const char* name, uint32_t i, double got, double want) {
    if (!Matches(got, want)) {
      std::printf("  MISMATCH %s[%u]: got %.9g, documented %.9g\n", name, i, got, want);
      match = false;
    }
  };
  for (uint32_t i = 0; i < kElements; ++i) check("output", i, got_y[i], kRowOutput[i / kFeatures]);
  for (uint32_t j = 0; j < kFeatures; ++j) {
    check("mean", j, got_mean[j], kMeanBase + j);
    check("variance", j, got_variance[j], kVariance);
  }
  std::printf("  %s\n",
              match ? "OK: equal to the documented values (to the 8 digits printed)" : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> BatchNormExampleOps() {
  return {{"batchnorm", "BatchNorm", RunBatchNormExample}};
}

}  // namespace normgrad::cli

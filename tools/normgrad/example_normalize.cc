// tools/normgrad/example_normalize.cc — `normgrad example --op normalize`:
// the documented Normalize example (docs/normalize.md, "Documented example")
// through the Ascend C API as a kernel runs it: float [8, 8] with inputX =
// 0..63, inputMean = inputVariance = 0..7, gamma = beta = 1, epsilon 0.001
// (the value the printed rstd[0] = 31.622774 = 1/sqrt(0.001) shows),
// NLCFG_NORM, a sharedTmpBuffer of GetNormalizeMaxMinTmpSize's minimum.
// Every output is compared bit for bit with the page's printed values.
#include <cstdint>
#include <cstdio>

#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kA = 8;
constexpr uint32_t kR = 8;
// The documented yLocal and rstdLocal.
constexpr float kY[kA * kR] = {
    1.0f,        32.622772f, 64.245544f, 95.868324f, 127.4911f,  159.11388f, 190.73665f,
    222.35942f,  7.996503f,  8.996003f,  9.995503f,  10.995004f, 11.994504f, 12.994005f,
    13.9935055f, 14.993006f, 10.897021f, 11.603951f, 12.310882f, 13.017812f, 13.724742f,
    14.431672f,  15.138602f, 15.845532f, 13.122336f, 13.699591f, 14.276845f, 14.854099f,
    15.431353f,  16.008606f, 16.585861f, 17.163115f, 14.998251f, 15.498188f, 15.998126f,
    16.498064f,  16.998001f, 17.497938f, 17.997875f, 18.497814f, 16.65091f,  17.09808f,
    17.545248f,  17.992416f, 18.439585f, 18.886755f, 19.333923f, 19.781092f, 18.144999f,
    18.553213f,  18.961428f, 19.369642f, 19.777857f, 20.186071f, 20.594284f, 21.002499f,
    19.518936f,  19.896873f, 20.27481f,  20.652748f, 21.030685f, 21.408623f, 21.78656f,
    22.164497f};
constexpr float kRstd[kA] = {31.622774f,  0.9995004f,  0.7069301f,  0.5772541f,
                             0.49993753f, 0.44716886f, 0.40821427f, 0.37793747f};

bool RunNormalizeExample() {
  using AscendC::TPosition;
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({kA, kR}), sizeof(float), sizeof(float), false, true,
                                     false, max_tmp, min_tmp);
  const AscendC::NormalizePara para(kA, kR, kR);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> x_queue, mean_queue, variance_queue, gamma_queue, beta_queue;
  AscendC::TQue<TPosition::VECOUT, 1> y_queue, rstd_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch;
  pipe.InitBuffer(x_queue, 1, kA * kR * sizeof(float));
  pipe.InitBuffer(y_queue, 1, kA * kR * sizeof(float));
  for (auto* q : {&mean_queue, &variance_queue, &gamma_queue, &beta_queue}) {
    pipe.InitBuffer(*q, 1, 8 * sizeof(float));
  }
  pipe.InitBuffer(rstd_queue, 1, kA * sizeof(float));
  pipe.InitBuffer(scratch, min_tmp);
  AscendC::LocalTensor<float> x = x_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> mean = mean_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> variance = variance_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> beta = beta_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> y = y_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> rstd = rstd_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kA * kR; ++i) x.SetValue(i, static_cast<float>(i));
  for (uint32_t i = 0; i < kA; ++i) {
    mean.SetValue(i, static_cast<float>(i));
    variance.SetValue(i, static_cast<float>(i));
  }
  for (uint32_t j = 0; j < kR; ++j) {
    gamma.SetValue(j, 1.0f);
    beta.SetValue(j, 1.0f);
  }
  AscendC::Normalize<float, float, false, AscendC::NLCFG_NORM>(
      y, rstd, mean, variance, x, gamma, beta, scratch.Get<uint8_t>(), 0.001f, para);

  std::printf(
      "float [8, 8]: Normalize<float, float, false, NLCFG_NORM>, inputX = 0..63, "
      "inputMean = inputVariance = 0..7, gamma = beta = 1, epsilon 0.001, scratch %u "
      "bytes (the minimum)\n",
      min_tmp);
  bool match = true;
  for (uint32_t i = 0; i < kA; ++i) {
    std::printf("  y[%u]", i);
    for (uint32_t j = 0; j < kR; ++j) std::printf(" %.9g", y.GetValue(i * kR + j));
    std::printf("\n");
  }
  std::printf("  rstd");
  for (uint32_t i = 0; i < kA; ++i) std::printf(" %.9g", rstd.GetValue(i));
  std::printf("\n");
  for (uint32_t i = 0; i < kA * kR; ++i) {
    if (y.GetValue(i) != kY[i]) {
      std::printf("  MISMATCH y[%u]: got %.9g, documented %.9g\n", i, y.GetValue(i), kY[i]);
      match = false;
    }
  }
  for (uint32_t i = 0; i < kA; ++i) {
    if (rstd.GetValue(i) != kRstd[i]) {
      std::printf("  MISMATCH rstd[%u]: got %.9g, documented %.9g\n", i, rstd.GetValue(i),
                  kRstd[i]);
      match = false;
    }
  }
  x_queue.FreeTensor(x);
  mean_queue.FreeTensor(mean);
  variance_queue.FreeTensor(variance);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);
  y_queue.FreeTensor(y);
  rstd_queue.FreeTensor(rstd);
  std::printf("  %s\n", match ? "OK: equal to the documented values" : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> NormalizeExampleOps() {
  return {{"normalize", "Normalize", RunNormalizeExample}};
}

}  // namespace normgrad::cli

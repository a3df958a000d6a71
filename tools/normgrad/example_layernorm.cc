// tools/normgrad/example_layernorm.cc — `normgrad example --op
// layernorm-grad-beta` (the default): the documented LayerNormGradBeta example
// (docs/layernormgradbeta.md, "Worked example") through the Ascend C API, as a kernel would run it:
// a TPipe on the current emulated core, queues and a scratch buffer in its unified buffer, the
// tiling from GetLayerNormGradBetaNDTilingInfo at the minimum scratch size (so the rows are
// processed in several chunks), and AscendC::LayerNormGradBeta. Float [1, 8, 8] with dy =
// resForGamma = 0..63, and the half variant [1, 8, 16] (the same values in columns 0–7, zeros in
// columns 8–15); every result is compared with the documented values.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "dims.h"
#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kRows = 8;      // B·S = 1·8
constexpr uint32_t kDataCols = 8;  // columns holding 0..63
// The documented results for columns 0–7.
constexpr double kPdGamma[kDataCols] = {8960, 9416, 9888, 10376, 10880, 11400, 11936, 12488};
constexpr double kPdBeta[kDataCols] = {224, 232, 240, 248, 256, 264, 272, 280};

void PrintValues(const char* name, const std::vector<double>& values) {
  std::printf("  %-8s", name);
  for (double v : values) std::printf(" %.9g", v);
  std::printf("\n");
}

// Runs the example for element type T on [1, 8, cols]; returns false after
// printing the differences when a result is not the documented one.
template <typename T>
bool RunCase(uint32_t cols) {
  using AscendC::TPosition;
  const uint32_t elements = kRows * cols;
  const ge::Shape shape({1, kRows, cols, cols});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, sizeof(T), false, max_tmp, min_tmp);
  AscendC::tiling::LayerNormGradBetaTiling tiling;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_tmp, sizeof(T), false, tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> dy_queue, res_queue;
  AscendC::TQue<TPosition::VECOUT, 1> gamma_queue, beta_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch_buffer;
  pipe.InitBuffer(dy_queue, 1, elements * sizeof(T));
  pipe.InitBuffer(res_queue, 1, elements * sizeof(T));
  pipe.InitBuffer(gamma_queue, 1, cols * sizeof(T));
  pipe.InitBuffer(beta_queue, 1, cols * sizeof(T));
  pipe.InitBuffer(scratch_buffer, min_tmp);

  AscendC::LocalTensor<T> dy = dy_queue.AllocTensor<T>();
  AscendC::LocalTensor<T> res = res_queue.AllocTensor<T>();
  for (uint32_t r = 0; r < kRows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const T value = static_cast<T>(c < kDataCols ? static_cast<float>(r * kDataCols + c) : 0);
      dy.SetValue(r * cols + c, value);
      res.SetValue(r * cols + c, value);
    }
  }
  AscendC::LocalTensor<T> gamma = gamma_queue.AllocTensor<T>();
  AscendC::LocalTensor<T> beta = beta_queue.AllocTensor<T>();
  AscendC::LayerNormGradBeta<T, false>(gamma, beta, res, dy, scratch_buffer.Get<uint8_t>(), tiling);

  std::printf(
      "%s [1, %u, %u]: LayerNormGradBeta<%s, false>, scratch %u bytes (the minimum): "
      "%s of %s\n",
      normgrad_ascendc::TypeName<T>(), kRows, cols, normgrad_ascendc::TypeName<T>(), min_tmp,
      FormatCount(tiling.loopRound, "chunk").c_str(),
      FormatCount(tiling.bsCurLength, "row").c_str());
  std::vector<double> got[2], want[2];
  for (uint32_t c = 0; c < cols; ++c) {
    got[0].push_back(static_cast<float>(gamma.GetValue(c)));
    got[1].push_back(static_cast<float>(beta.GetValue(c)));
    want[0].push_back(c < kDataCols ? kPdGamma[c] : 0);
    want[1].push_back(c < kDataCols ? kPdBeta[c] : 0);
  }
  dy_queue.FreeTensor(dy);
  res_queue.FreeTensor(res);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);

  PrintValues("pdGamma", got[0]);
  PrintValues("pdBeta", got[1]);
  bool match = true;
  for (int k = 0; k < 2; ++k) {
    for (uint32_t c = 0; c < cols; ++c) {
      if (got[k][c] != want[k][c]) {
        std::printf("  MISMATCH %s[%u]: got %.9g, documented %.9g\n", k == 0 ? "pdGamma" : "pdBeta",
                    c, got[k][c], want[k][c]);
        match = false;
      }
    }
  }
  std::printf("  %s\n", match ? "OK: equal to the documented values" : "FAILED");
  return match;
}

// Both element types: float [1, 8, 8] and half [1, 8, 16].
bool RunLayerNormGradBetaExample() {
  const bool float_ok = RunCase<float>(kDataCols);
  const bool half_ok = RunCase<half>(2 * kDataCols);  // a half row of 8 is not 32-byte aligned
  return float_ok && half_ok;
}

// LayerNorm's [A, R] form (`--op layernorm-separate`). Its page gives the
// call but no data or results, so the example runs the first form's
// documented data — 8 rows of 0..63, gamma = beta = 0..7 — as [A, R] =
// [8, 8] float with epsilon 1e-5, checks the means against the documented
// 3.5 + 8a exactly, and rstd and the output against a float64 reference
// within the bound of docs/numerics.md ("LayerNorm's [A, R] form").
bool RunLayerNormSeparateExample() {
  using AscendC::TPosition;
  constexpr uint32_t kA = 8, kR = 8;
  constexpr float kEps = 1e-5f;
  const ge::Shape shape({kA, kR});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetLayerNormMaxMinTmpSize(shape, sizeof(float), false, true, false, max_tmp, min_tmp);
  AscendC::tiling::LayerNormSeparateTiling tiling;
  AscendC::GetLayerNormNDTilingInfo(shape, min_tmp, sizeof(float), false, true, tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> x_queue, gamma_queue, beta_queue;
  AscendC::TQue<TPosition::VECOUT, 1> y_queue, mean_queue, rstd_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch;
  pipe.InitBuffer(x_queue, 1, kA * kR * sizeof(float));
  pipe.InitBuffer(gamma_queue, 1, kR * sizeof(float));
  pipe.InitBuffer(beta_queue, 1, kR * sizeof(float));
  pipe.InitBuffer(y_queue, 1, kA * kR * sizeof(float));
  pipe.InitBuffer(mean_queue, 1, kA * sizeof(float));
  pipe.InitBuffer(rstd_queue, 1, kA * sizeof(float));
  pipe.InitBuffer(scratch, min_tmp);
  AscendC::LocalTensor<float> x = x_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> beta = beta_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kA * kR; ++i) x.SetValue(i, static_cast<float>(i));
  for (uint32_t i = 0; i < kR; ++i) {
    gamma.SetValue(i, static_cast<float>(i));
    beta.SetValue(i, static_cast<float>(i));
  }
  AscendC::LocalTensor<float> y = y_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> mean = mean_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> rstd = rstd_queue.AllocTensor<float>();
  const AscendC::LayerNormPara para = {kA, kR, kR};
  AscendC::LayerNorm<float, float, false, AscendC::LNCFG_NORM>(
      y, mean, rstd, x, gamma, beta, kEps, scratch.Get<uint8_t>(), para, tiling);

  std::printf(
      "float [8, 8]: LayerNorm<float, float, false, LNCFG_NORM>, epsilon 1e-05, "
      "scratch %u bytes (the minimum)\n",
      min_tmp);
  std::vector<double> got_y, got_mean, got_rstd;
  for (uint32_t i = 0; i < kR; ++i) got_y.push_back(y.GetValue(i));
  for (uint32_t a = 0; a < kA; ++a) {
    got_mean.push_back(mean.GetValue(a));
    got_rstd.push_back(rstd.GetValue(a));
  }
  PrintValues("output", got_y);
  std::printf("  (rows 1 to 7: compared too)\n");
  PrintValues("mean", got_mean);
  PrintValues("rstd", got_rstd);
  // float64: every row has variance 5.25 and xhat = (r − 3.5)/sqrt(5.25 + eps).
  const double s = std::sqrt(5.25 + double{kEps});
  const double u = std::ldexp(1.0, -24), bound_c = 4 * (6 + 2) + 32;  // k = max(log2 R, 6) + 2
  bool match = true;
  for (uint32_t a = 0; a < kA; ++a) {
    const double want_mean = 3.5 + 8.0 * a;
    if (mean.GetValue(a) != want_mean) {
      std::printf("  MISMATCH mean[%u]: got %.9g, documented %.9g\n", a,
                  static_cast<double>(mean.GetValue(a)), want_mean);
      match = false;
    }
    if (std::fabs(rstd.GetValue(a) - 1.0 / s) > 4 * u / s) {
      std::printf("  MISMATCH rstd[%u]: got %.9g, float64 %.9g\n", a,
                  static_cast<double>(rstd.GetValue(a)), 1.0 / s);
      match = false;
    }
    const double kappa = std::max((8.0 * a + 7) / s, 1.0);
    for (uint32_t r = 0; r < kR; ++r) {
      const double xhat = (r - 3.5) / s, ref = xhat * r + r;
      const double bound = r * bound_c * u * kappa * (1 + std::fabs(xhat)) + 2 * u * std::fabs(ref);
      const double got = y.GetValue(a * kR + r);
      if (std::fabs(got - ref) > bound) {
        std::printf("  MISMATCH output[%u, %u]: got %.9g, float64 %.9g\n", a, r, got, ref);
        match = false;
      }
    }
  }
  x_queue.FreeTensor(x);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);
  y_queue.FreeTensor(y);
  mean_queue.FreeTensor(mean);
  rstd_queue.FreeTensor(rstd);
  std::printf("  %s\n", match ? "OK: the documented means, and rstd and output within the bound "
                                "of the float64 reference"
                              : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> LayerNormExampleOps() {
  return {{"layernorm-grad-beta", "LayerNormGradBeta", RunLayerNormGradBetaExample},
          {"layernorm-separate", "LayerNorm ([A, R] form)", RunLayerNormSeparateExample}};
}

}  // namespace normgrad::cli

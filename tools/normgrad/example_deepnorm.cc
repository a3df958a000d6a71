// tools/normgrad/example_deepnorm.cc — `normgrad example --op deepnorm`: the
// documented DeepNorm example (docs/deepnorm.md, "Worked example") through
// the Ascend C API as a kernel runs it: a TPipe on the current emulated core,
// queues and a scratch buffer in its unified buffer, the tiling from
// GetDeepNormTilingInfo at the minimum scratch size (one row per chunk), and
// AscendC::DeepNorm. float [4, 2, 8] with srcLocal = gxLocal = 0..63 and
// gammaLocal = betaLocal = 0..7; the page prints only the results, and
// alpha = -5.5, epsilon = 65504 are the values that give them. Every result
// is compared with the documented values.
#include <cstdio>
#include <vector>

#include "dims.h"
#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kRows = 8;  // B·S = 4·2
constexpr uint32_t kH = 8;
constexpr float kAlpha = -5.5f;
constexpr float kEpsilon = 65504.0f;
// The documented results: every row of dstLocal, and meanLocal, rstdLocal.
constexpr float kDstRow[kH] = {0.0f,       1.0439204f, 2.0527046f, 3.0263522f,
                               3.9648638f, 4.868239f,  5.7364774f, 6.56958f};
constexpr float kMean[kRows] = {-15.75f,  -51.75f,  -87.75f,  -123.75f,
                                -159.75f, -195.75f, -231.75f, -267.75f};
constexpr float kRstd = 106.3125f;  // the variance, see docs/deepnorm.md

void PrintValues(const char* name, const std::vector<float>& values) {
  std::printf("  %-9s", name);
  for (float v : values) std::printf(" %.9g", static_cast<double>(v));
  std::printf("\n");
}

// Compares got with want element by element; prints each difference.
bool Matches(const char* name, const std::vector<float>& got, const std::vector<float>& want) {
  bool match = true;
  for (size_t i = 0; i < got.size(); ++i) {
    if (got[i] != want[i]) {
      std::printf("  MISMATCH %s[%zu]: got %.9g, documented %.9g\n", name, i,
                  static_cast<double>(got[i]), static_cast<double>(want[i]));
      match = false;
    }
  }
  return match;
}

bool RunDeepNormExample() {
  using AscendC::TPosition;
  constexpr uint32_t kElements = kRows * kH;
  const ge::Shape shape({4, 2, kH});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetDeepNormMaxMinTmpSize(shape, sizeof(float), false, false, max_tmp, min_tmp);
  AscendC::tiling::DeepNormTiling tiling;
  AscendC::GetDeepNormTilingInfo(shape, shape, min_tmp, sizeof(float), false, false, tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> src_queue, gx_queue, gamma_queue, beta_queue;
  AscendC::TQue<TPosition::VECOUT, 1> dst_queue, mean_queue, rstd_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch;
  pipe.InitBuffer(src_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(gx_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(gamma_queue, 1, kH * sizeof(float));
  pipe.InitBuffer(beta_queue, 1, kH * sizeof(float));
  pipe.InitBuffer(dst_queue, 1, kElements * sizeof(float));
  pipe.InitBuffer(mean_queue, 1, kRows * sizeof(float));
  pipe.InitBuffer(rstd_queue, 1, kRows * sizeof(float));
  pipe.InitBuffer(scratch, min_tmp);

  AscendC::LocalTensor<float> src = src_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gx = gx_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> beta = beta_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kElements; ++i) {
    src.SetValue(i, static_cast<float>(i));
    gx.SetValue(i, static_cast<float>(i));
  }
  for (uint32_t i = 0; i < kH; ++i) {
    gamma.SetValue(i, static_cast<float>(i));
    beta.SetValue(i, static_cast<float>(i));
  }
  AscendC::LocalTensor<float> dst = dst_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> mean = mean_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> rstd = rstd_queue.AllocTensor<float>();
  AscendC::DeepNorm<float, false, false>(dst, mean, rstd, src, gx, beta, gamma,
                                         scratch.Get<uint8_t>(), kAlpha, kEpsilon, tiling);

  std::printf(
      "float [4, 2, 8]: DeepNorm<float, false, false>, alpha %g, epsilon %g, "
      "scratch %u bytes (the minimum): %s of %s\n",
      static_cast<double>(kAlpha), static_cast<double>(kEpsilon), min_tmp,
      FormatCount(tiling.loopRound, "chunk").c_str(),
      FormatCount(tiling.bsCurLength, "row").c_str());
  std::printf("  srcLocal = gxLocal = 0..63, gammaLocal = betaLocal = 0..7\n");
  std::vector<float> got_dst, want_dst, got_mean, want_mean, got_rstd, want_rstd;
  for (uint32_t i = 0; i < kElements; ++i) {
    got_dst.push_back(dst.GetValue(i));
    want_dst.push_back(kDstRow[i % kH]);
  }
  for (uint32_t r = 0; r < kRows; ++r) {
    got_mean.push_back(mean.GetValue(r));
    want_mean.push_back(kMean[r]);
    got_rstd.push_back(rstd.GetValue(r));
    want_rstd.push_back(kRstd);
  }
  src_queue.FreeTensor(src);
  gx_queue.FreeTensor(gx);
  gamma_queue.FreeTensor(gamma);
  beta_queue.FreeTensor(beta);
  dst_queue.FreeTensor(dst);
  mean_queue.FreeTensor(mean);
  rstd_queue.FreeTensor(rstd);

  PrintValues("dstLocal", std::vector<float>(got_dst.begin(), got_dst.begin() + kH));
  std::printf("  (rows 1 to 7 of dstLocal: compared too, documented equal to row 0)\n");
  PrintValues("meanLocal", got_mean);
  PrintValues("rstdLocal", got_rstd);
  const bool match = Matches("dstLocal", got_dst, want_dst) &
                     Matches("meanLocal", got_mean, want_mean) &
                     Matches("rstdLocal", got_rstd, want_rstd);
  std::printf("  %s\n", match ? "OK: equal to the documented values" : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> DeepNormExampleOps() {
  return {{"deepnorm", "DeepNorm", RunDeepNormExample}};
}

}  // namespace normgrad::cli

// tools/normgrad/example_rmsnorm.cc — `normgrad example --op rmsnorm`: the
// documented RmsNorm example (docs/rmsnorm.md, "Worked example") through the
// Ascend C API as a kernel runs it: float [1, 1, 16] with srcLocal =
// gammaLocal = 0..15, the tiling from GetRmsNormTilingInfo at
// GetRmsNormMaxMinTmpSize's minimum, and AscendC::RmsNorm with a
// sharedTmpBuffer. The page does not give epsilon; the example passes 1e-5
// (any epsilon up to about 1e-5 prints the same float results).
//
// Two checks: every result within the bound of docs/numerics.md ("RmsNorm")
// of a float64 evaluation of the formula, and within 16u relative (u =
// 2^-24) of the page's printed values. The printed values are the device's
// own, which differ from the correctly rounded formula by a few ulps (its
// reciprocal square root is not correctly rounded); 16u covers both the
// device's deviation and ours.
#include <cmath>
#include <cstdio>
#include <vector>

#include "examples.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr uint32_t kH = 16;
constexpr float kEpsilon = 1e-5f;
// The documented dstLocal.
constexpr double kDocumented[kH] = {
    0.,       0.11359233, 0.4543693, 1.022331,  1.8174772, 2.8398082, 4.089324,  5.566024,
    7.269909, 9.200979,   11.359233, 13.744672, 16.357296, 19.197104, 22.264095, 25.558275};

bool RunRmsNormExample() {
  using AscendC::TPosition;
  const ge::Shape shape({1, 1, kH});
  uint32_t max_tmp = 0, min_tmp = 0;
  AscendC::GetRmsNormMaxMinTmpSize(shape, sizeof(float), max_tmp, min_tmp);
  AscendC::tiling::RmsNormTiling tiling;
  AscendC::GetRmsNormTilingInfo(shape, shape, min_tmp, sizeof(float), tiling);

  AscendC::TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> src_queue, gamma_queue;
  AscendC::TQue<TPosition::VECOUT, 1> dst_queue;
  AscendC::TBuf<TPosition::VECCALC> scratch;
  pipe.InitBuffer(src_queue, 1, kH * sizeof(float));
  pipe.InitBuffer(gamma_queue, 1, kH * sizeof(float));
  pipe.InitBuffer(dst_queue, 1, kH * sizeof(float));
  pipe.InitBuffer(scratch, min_tmp);
  AscendC::LocalTensor<float> src = src_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> gamma = gamma_queue.AllocTensor<float>();
  AscendC::LocalTensor<float> dst = dst_queue.AllocTensor<float>();
  for (uint32_t i = 0; i < kH; ++i) {
    src.SetValue(i, static_cast<float>(i));
    gamma.SetValue(i, static_cast<float>(i));
  }
  AscendC::RmsNorm<float, false>(dst, src, gamma, scratch.Get<uint8_t>(), kEpsilon, tiling);

  std::printf(
      "float [1, 1, 16]: RmsNorm<float, false>, srcLocal = gammaLocal = 0..15, "
      "epsilon 1e-5, scratch %u bytes (the minimum)\n",
      min_tmp);
  // The float64 formula: x / sqrt(mean(x²) + eps) · gamma.
  double sum = 0;
  for (uint32_t i = 0; i < kH; ++i) sum += static_cast<double>(i) * i;
  const double rstd = 1.0 / std::sqrt(sum / kH + double{kEpsilon});
  const double u = std::ldexp(1.0, -24);
  const double bound = (std::ceil(kH / 64.0) / 2 + 9) * u;  // docs/numerics.md, RmsNorm
  std::printf("  dstLocal");
  for (uint32_t i = 0; i < kH; ++i) std::printf(" %.8g", static_cast<double>(dst.GetValue(i)));
  std::printf("\n");
  bool match = true;
  for (uint32_t i = 0; i < kH; ++i) {
    const double got = dst.GetValue(i);
    const double exact = static_cast<double>(i) * rstd * i;
    if (std::fabs(got - exact) > bound * exact) {
      std::printf("  MISMATCH dstLocal[%u]: got %.9g, float64 %.9g, beyond the bound %.3g\n", i,
                  got, exact, bound * exact);
      match = false;
    }
    if (std::fabs(got - kDocumented[i]) > 16 * u * kDocumented[i]) {
      std::printf("  MISMATCH dstLocal[%u]: got %.9g, documented %.9g\n", i, got, kDocumented[i]);
      match = false;
    }
  }
  src_queue.FreeTensor(src);
  gamma_queue.FreeTensor(gamma);
  dst_queue.FreeTensor(dst);
  std::printf("  %s\n", match ? "OK: within 16u of the documented values and within the "
                                "derived bound of the float64 formula"
                              : "FAILED");
  return match;
}

}  // namespace

std::vector<ExampleOp> RmsNormExampleOps() { return {{"rmsnorm", "RmsNorm", RunRmsNormExample}}; }

}  // namespace normgrad::cli

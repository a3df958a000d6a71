// main.cc — a consumer of the installed normgrad: the documented [1,8,8]
// example through the engine and through the Ascend C API must agree.
#include <cstdio>
#include <vector>

#include "kernel_operator.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "tiling/tiling_api.h"

int main() {
  std::vector<float> x(64);
  for (int i = 0; i < 64; ++i) x[i] = static_cast<float>(i);

  std::vector<float> gamma(8), beta(8);
  normgrad::GradBetaProblem p;
  p.rows = 8;
  p.cols = 8;
  p.dy = x.data();
  p.res = x.data();
  p.pd_gamma = gamma.data();
  p.pd_beta = beta.data();
  p.order = normgrad::Order::kSequential;
  const normgrad::Status s = normgrad::LayerNormGradBeta(p);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 1;
  }

  // The same through the Ascend C surface: tiling from the host API, tensors
  // in the emulated unified buffer, framework scratch.
  uint32_t max_tmp = 0, min_tmp = 0;
  const ge::Shape shape({1, 8, 8, 8});
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, max_tmp, min_tmp);
  LayerNormGradBetaTiling tiling;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, min_tmp, 4, false, tiling);

  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, (64 + 64 + 8 + 8) * sizeof(float));
  AscendC::LocalTensor<float> all = buf.Get<float>();
  AscendC::LocalTensor<float> dy = all[0], res = all[64], g = all[128], b = all[136];
  g.SetSize(8);
  for (uint32_t i = 0; i < 64; ++i) {
    dy.SetValue(i, static_cast<float>(i));
    res.SetValue(i, static_cast<float>(i));
  }
  AscendC::LayerNormGradBeta<float, false>(g, b, res, dy, tiling);

  for (uint32_t h = 0; h < 8; ++h) {
    if (g.GetValue(h) != gamma[h] || b.GetValue(h) != beta[h] || gamma[0] != 8960.0f) {
      std::printf("consumer: mismatch at %u\n", h);
      return 1;
    }
  }
  std::printf("consumer: engine and Ascend C results agree (pdGamma[0] = %.0f)\n", gamma[0]);
  return 0;
}

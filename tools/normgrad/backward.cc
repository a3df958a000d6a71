// tools/normgrad/backward.cc — `normgrad backward`: the fused layer-norm
// backward of x, dy and gamma given as .npy or raw .bin files. Each row's
// mean and population variance come from x itself (LayerNormForward, as the
// Ascend C API computes them), then LayerNormBackward gives dx, pd_gamma and
// pd_beta in one pass, written in the input type.
//
// Every input is checked before any output is written; the three outputs
// are written to temporary files and renamed into place together, so an
// error leaves no new or partial output file.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "dims.h"
#include "inputs.h"
#include "normgrad/layer_norm.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "backward";
constexpr int kTimedRuns = 3;

}  // namespace

int RunBackward(const BackwardOptions& o) {
  Inputs in;
  Status s = ReadInputs({{"x", o.x, true}, {"dy", o.dy, true}, {"gamma", o.gamma, false}},
                        o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (!s.ok()) return Fail(kCommand, s.message());

  // The rows' statistics, from x.
  const float eps = static_cast<float>(o.eps);
  std::vector<float> mean(in.rows), variance(in.rows);
  LayerNormForwardProblem f;
  f.dtype = in.dtype;
  f.rows = in.rows;
  f.cols = in.cols;
  f.x = in.data[0].data();
  f.gamma = in.data[2].data();
  f.beta = in.data[2].data();  // not read: no y is asked for
  f.eps = eps;
  f.mean = mean.data();
  f.variance = variance.data();
  f.threads = o.threads;
  s = LayerNormForward(f);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t size = SizeOf(in.dtype);
  std::vector<unsigned char> dx(in.rows * in.cols * size);
  std::vector<unsigned char> pd_gamma(in.cols * size), pd_beta(in.cols * size);
  LayerNormBackwardProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.x = in.data[0].data();
  p.dy = in.data[1].data();
  p.gamma = in.data[2].data();
  p.mean = mean.data();
  p.variance = variance.data();
  p.eps = eps;
  p.dx = dx.data();
  p.pd_gamma = pd_gamma.data();
  p.pd_beta = pd_beta.data();
  p.order = o.order == "sequential" ? Order::kSequential : Order::kBlocked;
  p.threads = o.threads;
  // Timed as the median of a few runs: the first also starts the threads.
  // The results are the same bits every time.
  double seconds = 0;
  s = TimeMedian(kTimedRuns, [&] { return LayerNormBackward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastLayerNormRunInfo();

  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"dx", in.shape, dx.data(), dx.size()},
                    {"pd_gamma", {in.cols}, pd_gamma.data(), pd_gamma.size()},
                    {"pd_beta", {in.cols}, pd_beta.data(), pd_beta.size()}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  const double moved = static_cast<double>((3 * in.rows * in.cols + 3 * in.cols) * size);
  std::printf("normgrad backward: %s, %s, %s\n", o.x.c_str(), o.dy.c_str(), o.gamma.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(eps));
  std::printf("  order      %s\n", OrderName(p.order));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  std::printf("  time       %.3f ms (fused backward, median of %d runs)\n", seconds * 1e3,
              kTimedRuns);
  std::printf("  bandwidth  %.1f GB/s (x, dy, gamma read; dx, pd_gamma, pd_beta written)\n",
              seconds > 0 ? moved / seconds / 1e9 : 0.0);
  std::printf("  wrote      %s, %s, %s\n", paths[0].c_str(), paths[1].c_str(),
              paths[2].c_str());
  return 0;
}

}  // namespace normgrad::cli

// tools/normgrad/backward.cc — `normgrad backward`: the fused layer-norm
// backward of x, dy and gamma given as .npy or raw .bin files. Each row's
// mean and population variance come from x itself (LayerNormForward, as the
// Ascend C API computes them), then LayerNormBackward gives dx, pd_gamma and
// pd_beta in one pass, written in the input type.
//
// Every input is checked before any output is written, and the three
// outputs replace the old ones as a set (outputs.h): an error leaves the
// output folder as it was.
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.h"
#include "commands.h"
#include "inputs.h"
#include "normgrad/layer_norm.h"
#include "outputs.h"
#include "report.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "backward";

}  // namespace

int RunBackward(const BackwardOptions& o) {
  const std::vector<InputSpec> specs = {
      {"x", o.x, true}, {"dy", o.dy, true}, {"gamma", o.gamma, false}};
  Inputs in;
  Status s = CheckInputs(specs, o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (s.ok()) s = ReadInputData(specs, &in);
  if (!s.ok()) return Fail(kCommand, s.message());

  // The rows' statistics, from x.
  const float eps = static_cast<float>(o.eps);
  std::vector<float> mean, variance;
  s = Allocate("the row means", in.rows, &mean);
  if (s.ok()) s = Allocate("the row variances", in.rows, &variance);
  if (!s.ok()) return Fail(kCommand, s.message());
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
  std::vector<unsigned char> dx, pd_gamma, pd_beta;
  s = Allocate("dx", in.rows * in.cols * size, &dx);
  if (s.ok()) s = Allocate("pd_gamma", in.cols * size, &pd_gamma);
  if (s.ok()) s = Allocate("pd_beta", in.cols * size, &pd_beta);
  if (!s.ok()) return Fail(kCommand, s.message());
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
  double seconds = 0;
  s = Compute(
      o.time, [&] { return LayerNormBackward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastLayerNormRunInfo();

  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"dx", in.shape, dx.data(), dx.size()},
                    {"pd_gamma", {in.cols}, pd_gamma.data(), pd_gamma.size()},
                    {"pd_beta", {in.cols}, pd_beta.data(), pd_beta.size()}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  std::printf("normgrad backward: %s, %s, %s\n", o.x.c_str(), o.dy.c_str(), o.gamma.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(eps));
  std::printf("  order      %s\n", OrderName(p.order));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  if (o.time) {
    PrintTime(seconds, "fused backward, ",
              static_cast<double>((3 * in.rows * in.cols + 3 * in.cols) * size),
              "x, dy, gamma read; dx, pd_gamma, pd_beta written");
  }
  std::printf("  wrote      %s, %s, %s\n", paths[0].c_str(), paths[1].c_str(), paths[2].c_str());
  return 0;
}

}  // namespace normgrad::cli

// tools/normgrad/forward.cc — `normgrad forward`: the layer-norm forward of
// x, gamma and beta given as .npy or raw .bin files: y (the shape of x),
// and each row's mean and population variance (the leading dimensions of
// x), all in the input type.
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

constexpr const char* kCommand = "forward";

}  // namespace

int RunForward(const ForwardOptions& o) {
  const std::vector<InputSpec> specs = {
      {"x", o.x, true}, {"gamma", o.gamma, false}, {"beta", o.beta, false}};
  Inputs in;
  Status s = CheckInputs(specs, o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (s.ok()) s = ReadInputData(specs, &in);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t size = SizeOf(in.dtype);
  std::vector<unsigned char> y;
  std::vector<float> mean, variance;
  s = Allocate("y", in.rows * in.cols * size, &y);
  if (s.ok()) s = Allocate("the row means", in.rows, &mean);
  if (s.ok()) s = Allocate("the row variances", in.rows, &variance);
  if (!s.ok()) return Fail(kCommand, s.message());
  LayerNormForwardProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.x = in.data[0].data();
  p.gamma = in.data[1].data();
  p.beta = in.data[2].data();
  p.eps = static_cast<float>(o.eps);
  p.y = y.data();
  p.mean = mean.data();
  p.variance = variance.data();
  p.threads = o.threads;
  double seconds = 0;
  s = Compute(
      o.time, [&] { return LayerNormForward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastLayerNormRunInfo();

  const std::vector<uint64_t> stats_shape(in.shape.begin(), in.shape.end() - 1);
  std::vector<unsigned char> mean_out, variance_out;
  s = InType(in.dtype, mean, "mean", &mean_out);
  if (s.ok()) s = InType(in.dtype, variance, "variance", &variance_out);
  if (!s.ok()) return Fail(kCommand, s.message());
  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"y", in.shape, y.data(), y.size()},
                    {"mean", stats_shape, mean_out.data(), mean_out.size()},
                    {"variance", stats_shape, variance_out.data(), variance_out.size()}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  std::printf("normgrad forward: %s, %s, %s\n", o.x.c_str(), o.gamma.c_str(), o.beta.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(p.eps));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  if (o.time) {
    PrintTime(seconds, "", static_cast<double>((2 * in.rows * in.cols + 2 * in.cols) * size),
              "x, gamma, beta read; y written");
  }
  std::printf("  wrote      %s, %s, %s\n", paths[0].c_str(), paths[1].c_str(), paths[2].c_str());
  return 0;
}

}  // namespace normgrad::cli

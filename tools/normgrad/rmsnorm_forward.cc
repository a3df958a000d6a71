// tools/normgrad/rmsnorm_forward.cc — `normgrad rmsnorm-forward`: the
// RMS-norm forward of x and gamma given as .npy or raw .bin files: y (the
// shape of x) and each row's rstd = 1/sqrt(mean(x²) + eps) (the leading
// dimensions of x), both in the input type.
//
// Every input is checked before any output is written, and the outputs
// replace the old ones as a set (outputs.h): an error leaves the output
// folder as it was.
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.h"
#include "commands.h"
#include "inputs.h"
#include "normgrad/rms_norm.h"
#include "outputs.h"
#include "report.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "rmsnorm-forward";

}  // namespace

int RunRmsNormForward(const RmsNormForwardOptions& o) {
  const std::vector<InputSpec> specs = {{"x", o.x, true}, {"gamma", o.gamma, false}};
  Inputs in;
  Status s = CheckInputs(specs, o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (s.ok()) s = ReadInputData(specs, &in);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t size = SizeOf(in.dtype);
  std::vector<unsigned char> y;
  std::vector<float> rstd;
  s = Allocate("y", in.rows * in.cols * size, &y);
  if (s.ok()) s = Allocate("the row rstd", in.rows, &rstd);
  if (!s.ok()) return Fail(kCommand, s.message());
  RmsNormForwardProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.x = in.data[0].data();
  p.gamma = in.data[1].data();
  p.eps = static_cast<float>(o.eps);
  p.y = y.data();
  p.rstd = rstd.data();
  p.threads = o.threads;
  double seconds = 0;
  s = Compute(
      o.time, [&] { return RmsNormForward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastRmsNormRunInfo();

  const std::vector<uint64_t> stats_shape(in.shape.begin(), in.shape.end() - 1);
  std::vector<unsigned char> rstd_out;
  s = InType(in.dtype, rstd, "rstd", &rstd_out);
  if (!s.ok()) return Fail(kCommand, s.message());
  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"y", in.shape, y.data(), y.size()},
                    {"rstd", stats_shape, rstd_out.data(), rstd_out.size()}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  std::printf("normgrad rmsnorm-forward: %s, %s\n", o.x.c_str(), o.gamma.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(p.eps));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  if (o.time) {
    PrintTime(seconds, "", static_cast<double>((2 * in.rows * in.cols + in.cols) * size),
              "x, gamma read; y written");
  }
  std::printf("  wrote      %s, %s\n", paths[0].c_str(), paths[1].c_str());
  return 0;
}

}  // namespace normgrad::cli

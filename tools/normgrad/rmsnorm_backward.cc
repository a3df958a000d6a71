// tools/normgrad/rmsnorm_backward.cc — `normgrad rmsnorm-backward`: the
// fused RMS-norm backward of x, dy and gamma given as .npy or raw .bin
// files. Each row's rstd comes from x itself (RmsNormForward), then
// RmsNormBackward gives dx and dgamma in one pass, written in the input type.
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

constexpr const char* kCommand = "rmsnorm-backward";

}  // namespace

int RunRmsNormBackward(const RmsNormBackwardOptions& o) {
  const std::vector<InputSpec> specs = {
      {"x", o.x, true}, {"dy", o.dy, true}, {"gamma", o.gamma, false}};
  Inputs in;
  Status s = CheckInputs(specs, o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (s.ok()) s = ReadInputData(specs, &in);
  if (!s.ok()) return Fail(kCommand, s.message());

  // The rows' rstd, from x.
  std::vector<float> rstd;
  s = Allocate("the row rstd", in.rows, &rstd);
  if (!s.ok()) return Fail(kCommand, s.message());
  RmsNormForwardProblem f;
  f.dtype = in.dtype;
  f.rows = in.rows;
  f.cols = in.cols;
  f.x = in.data[0].data();
  f.gamma = in.data[2].data();
  f.eps = static_cast<float>(o.eps);
  f.rstd = rstd.data();
  f.threads = o.threads;
  s = RmsNormForward(f);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t size = SizeOf(in.dtype);
  std::vector<unsigned char> dx, dgamma;
  s = Allocate("dx", in.rows * in.cols * size, &dx);
  if (s.ok()) s = Allocate("dgamma", in.cols * size, &dgamma);
  if (!s.ok()) return Fail(kCommand, s.message());
  RmsNormBackwardProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.x = in.data[0].data();
  p.dy = in.data[1].data();
  p.gamma = in.data[2].data();
  p.rstd = rstd.data();
  p.dx = dx.data();
  p.dgamma = dgamma.data();
  p.order = o.order == "sequential" ? Order::kSequential : Order::kBlocked;
  p.threads = o.threads;
  double seconds = 0;
  s = Compute(
      o.time, [&] { return RmsNormBackward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastRmsNormRunInfo();

  std::vector<std::string> paths;
  s = WriteOutputs(
      o.out, in.npy, in.dtype,
      {{"dx", in.shape, dx.data(), dx.size()}, {"dgamma", {in.cols}, dgamma.data(), dgamma.size()}},
      &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  std::printf("normgrad rmsnorm-backward: %s, %s, %s\n", o.x.c_str(), o.dy.c_str(),
              o.gamma.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(f.eps));
  std::printf("  order      %s\n", OrderName(p.order));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  if (o.time) {
    PrintTime(seconds, "fused backward, ",
              static_cast<double>((3 * in.rows * in.cols + 2 * in.cols) * size),
              "x, dy, gamma read; dx, dgamma written");
  }
  std::printf("  wrote      %s, %s\n", paths[0].c_str(), paths[1].c_str());
  return 0;
}

}  // namespace normgrad::cli

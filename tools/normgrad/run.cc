// tools/normgrad/run.cc — `normgrad run`: pd_gamma and pd_beta of dy and
// resForGamma given as .npy files (shape and dtype from the header) or raw
// little-endian .bin files (shape and dtype from --shape and --dtype).
//
// Every input is checked before any output is written, and the two outputs
// replace the old ones as a set (outputs.h): an error leaves the output
// folder as it was.
#include <cstdio>
#include <string>
#include <vector>

#include "buffers.h"
#include "commands.h"
#include "inputs.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "outputs.h"
#include "report.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "run";

// Ascend C's rule for the kernel this command reproduces: a row of H
// elements is a whole number of 32-byte blocks.
Status CheckAligned(DType dtype, uint64_t cols) {
  const uint64_t row_bytes = cols * SizeOf(dtype);
  if (row_bytes % 32 == 0) return Status::Ok();
  return Status::Error("H = " + std::to_string(cols) + " is not 32-byte aligned for " +
                       DTypeName(dtype) + ": a row is " + std::to_string(row_bytes) +
                       " bytes, and Ascend C requires H·sizeof(T) % 32 == 0 (H a multiple of " +
                       std::to_string(32 / SizeOf(dtype)) + "); pad each row with zeros");
}

}  // namespace

int RunRun(const RunOptions& o) {
  const std::vector<InputSpec> specs = {{"dy", o.dy, true}, {"res", o.res, true}};
  Inputs in;
  Status s = CheckInputs(specs, o.shape, o.dtype, &in);
  if (s.ok()) s = CheckAligned(in.dtype, in.cols);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (s.ok()) s = ReadInputData(specs, &in);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t output_bytes = in.cols * SizeOf(in.dtype);
  std::vector<unsigned char> pd_gamma, pd_beta;
  s = Allocate("pd_gamma", output_bytes, &pd_gamma);
  if (s.ok()) s = Allocate("pd_beta", output_bytes, &pd_beta);
  if (!s.ok()) return Fail(kCommand, s.message());
  GradBetaProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.dy = in.data[0].data();
  p.res = in.data[1].data();
  p.pd_gamma = pd_gamma.data();
  p.pd_beta = pd_beta.data();
  p.order = o.order == "blocked" ? Order::kBlocked : Order::kSequential;
  p.threads = o.threads;
  double seconds = 0;
  s = Compute(
      o.time, [&] { return LayerNormGradBeta(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastRunInfo();

  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"pd_gamma", {in.cols}, pd_gamma.data(), output_bytes},
                    {"pd_beta", {in.cols}, pd_beta.data(), output_bytes}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  std::printf("normgrad run: %s, %s\n", o.dy.c_str(), o.res.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  order      %s\n", OrderName(p.order));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  if (o.time) {
    const double input_bytes = static_cast<double>(in.data[0].size());
    PrintTime(seconds, "", 2.0 * (input_bytes + static_cast<double>(output_bytes)),
              "2 inputs + 2 outputs");
  }
  std::printf("  wrote      %s, %s\n", paths[0].c_str(), paths[1].c_str());
  return 0;
}

}  // namespace normgrad::cli

// tools/normgrad/forward.cc — `normgrad forward`: the layer-norm forward of
// x, gamma and beta given as .npy or raw .bin files: y (the shape of x),
// and each row's mean and population variance (the leading dimensions of
// x), all in the input type.
//
// Every input is checked before any output is written; the outputs are
// written to temporary files and renamed into place together, so an error
// leaves no new or partial output file.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"
#include "dims.h"
#include "inputs.h"
#include "normgrad/convert.h"
#include "normgrad/layer_norm.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "forward";
constexpr int kTimedRuns = 3;

// Float statistics in the output type, as bytes.
std::vector<unsigned char> InType(DType dtype, const std::vector<float>& values) {
  std::vector<unsigned char> bytes(values.size() * SizeOf(dtype));
  switch (dtype) {
    case DType::kF32:
      std::memcpy(bytes.data(), values.data(), bytes.size());
      break;
    case DType::kF16:
      Narrow(values.data(), reinterpret_cast<float16*>(bytes.data()), values.size());
      break;
    case DType::kBF16:
      Narrow(values.data(), reinterpret_cast<bfloat16*>(bytes.data()), values.size());
      break;
  }
  return bytes;
}

}  // namespace

int RunForward(const ForwardOptions& o) {
  Inputs in;
  Status s = ReadInputs({{"x", o.x, true}, {"gamma", o.gamma, false}, {"beta", o.beta, false}},
                        o.shape, o.dtype, &in);
  if (s.ok()) s = CheckOutputDirectory(o.out);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t size = SizeOf(in.dtype);
  std::vector<unsigned char> y(in.rows * in.cols * size);
  std::vector<float> mean(in.rows), variance(in.rows);
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
  // Timed as the median of a few runs: the first also starts the threads.
  double seconds = 0;
  s = TimeMedian(kTimedRuns, [&] { return LayerNormForward(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastLayerNormRunInfo();

  const std::vector<uint64_t> stats_shape(in.shape.begin(), in.shape.end() - 1);
  const std::vector<unsigned char> mean_out = InType(in.dtype, mean);
  const std::vector<unsigned char> variance_out = InType(in.dtype, variance);
  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"y", in.shape, y.data(), y.size()},
                    {"mean", stats_shape, mean_out.data(), mean_out.size()},
                    {"variance", stats_shape, variance_out.data(), variance_out.size()}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  const double moved = static_cast<double>((2 * in.rows * in.cols + 2 * in.cols) * size);
  std::printf("normgrad forward: %s, %s, %s\n", o.x.c_str(), o.gamma.c_str(), o.beta.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  eps        %g\n", static_cast<double>(p.eps));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  std::printf("  time       %.3f ms (median of %d runs)\n", seconds * 1e3, kTimedRuns);
  std::printf("  bandwidth  %.1f GB/s (x, gamma, beta read; y written)\n",
              seconds > 0 ? moved / seconds / 1e9 : 0.0);
  std::printf("  wrote      %s, %s, %s\n", paths[0].c_str(), paths[1].c_str(),
              paths[2].c_str());
  return 0;
}

}  // namespace normgrad::cli

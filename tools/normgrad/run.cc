// tools/normgrad/run.cc — `normgrad run`: pd_gamma and pd_beta of dy and
// resForGamma given as .npy files (shape and dtype from the header) or raw
// little-endian .bin files (shape and dtype from --shape and --dtype).
//
// Every input is checked before any output is written; the two outputs are
// written to temporary files and renamed into place together, so an error
// leaves no new or partial output file.
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "commands.h"
#include "dims.h"
#include "inputs.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "npy.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "run";
constexpr int kTimedRuns = 3;

// The problem as the inputs describe it, checked.
struct RunInputs {
  bool npy = false;
  DType dtype = DType::kF32;
  std::vector<uint64_t> shape;  // as given: the .npy shape or --shape
  uint64_t rows = 0;            // product of the leading dimensions
  uint64_t cols = 0;            // the last dimension, H
  uint64_t dy_offset = 0;       // where the data starts in each file
  uint64_t res_offset = 0;
};

Status CheckNpyInputs(const RunOptions& o, const std::vector<uint64_t>& shape_arg,
                      RunInputs* in) {
  NpyHeader dy, res;
  Status s = ReadNpyHeader(o.dy, &dy);
  if (!s.ok()) return s;
  s = ReadNpyHeader(o.res, &res);
  if (!s.ok()) return s;
  DType res_dtype;
  s = NpyDType(o.dy, dy, o.dtype, &in->dtype);
  if (!s.ok()) return s;
  s = NpyDType(o.res, res, o.dtype, &res_dtype);
  if (!s.ok()) return s;
  if (res_dtype != in->dtype || dy.shape != res.shape) {
    return Status::Error("dy and res differ: " + o.dy + " is " + FormatDims(dy.shape) + " '" +
                         dy.descr + "', " + o.res + " is " + FormatDims(res.shape) + " '" +
                         res.descr + "'");
  }
  if (dy.shape.empty()) {
    return Status::Error(o.dy + " holds a scalar (shape ()); the inputs need a shape "
                         "[..., H]");
  }
  for (uint64_t dim : dy.shape) {
    if (dim == 0) {
      return Status::Error(o.dy + " has shape " + FormatDims(dy.shape) +
                           ", with a zero dimension; every dimension must be at least 1");
    }
  }
  in->shape = dy.shape;
  in->cols = dy.shape.back();
  in->rows = 1;  // the product fits: the file holds rows · H elements
  for (size_t i = 0; i + 1 < dy.shape.size(); ++i) in->rows *= dy.shape[i];
  in->dy_offset = dy.data_offset;
  in->res_offset = res.data_offset;
  if (!shape_arg.empty() &&
      (shape_arg[0] * shape_arg[1] != in->rows || shape_arg[2] != in->cols)) {
    return Status::Error("--shape " + FormatDims(shape_arg) + " does not agree with " + o.dy +
                         " of shape " + FormatDims(dy.shape) + " (rows " +
                         std::to_string(in->rows) + ", H " + std::to_string(in->cols) + ")");
  }
  return Status::Ok();
}

Status CheckBinInputs(const RunOptions& o, const std::vector<uint64_t>& shape_arg,
                      RunInputs* in) {
  Status s = BinProblem(shape_arg, o.dtype, &in->dtype, &in->rows, &in->cols);
  if (!s.ok()) return s;
  in->shape = shape_arg;
  const uint64_t bytes = in->rows * in->cols * SizeOf(in->dtype);
  for (const std::string& path : {o.dy, o.res}) {
    uint64_t size = 0;
    s = RegularFileSize(path, &size);
    if (!s.ok()) return s;
    if (size != bytes) {
      return Status::Error(path + " has " + std::to_string(size) + " bytes, but --shape " +
                           FormatDims(shape_arg) + " of " + o.dtype + " needs " +
                           std::to_string(bytes));
    }
  }
  return Status::Ok();
}

Status CheckInputs(const RunOptions& o, RunInputs* in) {
  for (const std::string& path : {o.dy, o.res}) {
    if (!EndsWith(path, ".npy") && !EndsWith(path, ".bin")) {
      return Status::Error(path + ": unknown file type; inputs are .npy or raw .bin files");
    }
  }
  const bool dy_npy = EndsWith(o.dy, ".npy");
  if (dy_npy != EndsWith(o.res, ".npy")) {
    return Status::Error("mixed inputs (" + o.dy + ", " + o.res + "): dy and res must both "
                         "be .npy or both be .bin");
  }
  std::vector<uint64_t> shape_arg;
  if (!o.shape.empty()) {
    Status s = ParseDims(o.shape, std::numeric_limits<uint64_t>::max(), &shape_arg);
    if (!s.ok()) return Status::Error("--shape: " + s.message());
  }
  in->npy = dy_npy;
  Status s = in->npy ? CheckNpyInputs(o, shape_arg, in) : CheckBinInputs(o, shape_arg, in);
  if (!s.ok()) return s;
  const uint64_t row_bytes = in->cols * SizeOf(in->dtype);
  if (row_bytes % 32 != 0) {
    return Status::Error("H = " + std::to_string(in->cols) + " is not 32-byte aligned for " +
                         DTypeName(in->dtype) + ": a row is " + std::to_string(row_bytes) +
                         " bytes, and Ascend C requires H·sizeof(T) % 32 == 0 (H a multiple "
                         "of " + std::to_string(32 / SizeOf(in->dtype)) +
                         "); pad each row with zeros");
  }
  return Status::Ok();
}

}  // namespace

int RunRun(const RunOptions& o) {
  RunInputs in;
  Status s = CheckInputs(o, &in);
  if (!s.ok()) return Fail(kCommand, s.message());
  s = CheckOutputDirectory(o.out);
  if (!s.ok()) return Fail(kCommand, s.message());

  const uint64_t input_bytes = in.rows * in.cols * SizeOf(in.dtype);
  std::vector<unsigned char> dy, res;
  s = ReadBytes(o.dy, in.dy_offset, input_bytes, &dy);
  if (s.ok()) s = ReadBytes(o.res, in.res_offset, input_bytes, &res);
  if (!s.ok()) return Fail(kCommand, s.message());

  const size_t output_bytes = in.cols * SizeOf(in.dtype);
  std::vector<unsigned char> pd_gamma(output_bytes), pd_beta(output_bytes);
  GradBetaProblem p;
  p.dtype = in.dtype;
  p.rows = in.rows;
  p.cols = in.cols;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = pd_gamma.data();
  p.pd_beta = pd_beta.data();
  p.order = o.order == "blocked" ? Order::kBlocked : Order::kSequential;
  p.threads = o.threads;
  // Timed as the median of a few runs: the first also starts the threads.
  // The results are the same bits every time.
  double seconds = 0;
  s = TimeMedian(kTimedRuns, [&] { return LayerNormGradBeta(p); }, &seconds);
  if (!s.ok()) return Fail(kCommand, s.message());
  const RunInfo info = LastRunInfo();

  std::vector<std::string> paths;
  s = WriteOutputs(o.out, in.npy, in.dtype,
                   {{"pd_gamma", {in.cols}, pd_gamma.data(), output_bytes},
                    {"pd_beta", {in.cols}, pd_beta.data(), output_bytes}},
                   &paths);
  if (!s.ok()) return Fail(kCommand, s.message());

  const double moved = 2.0 * static_cast<double>(input_bytes + output_bytes);
  std::printf("normgrad run: %s, %s\n", o.dy.c_str(), o.res.c_str());
  PrintShape(in.shape, in.rows, in.cols);
  std::printf("  dtype      %s\n", DTypeName(in.dtype));
  std::printf("  order      %s\n", OrderName(p.order));
  std::printf("  impl       %s, %d thread%s\n", info.impl.c_str(), info.threads,
              info.threads == 1 ? "" : "s");
  std::printf("  time       %.3f ms (median of %d runs)\n", seconds * 1e3, kTimedRuns);
  std::printf("  bandwidth  %.1f GB/s (2 inputs + 2 outputs)\n",
              seconds > 0 ? moved / seconds / 1e9 : 0.0);
  std::printf("  wrote      %s, %s\n", paths[0].c_str(), paths[1].c_str());
  return 0;
}

}  // namespace normgrad::cli

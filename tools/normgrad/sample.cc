// tools/normgrad/sample.cc — `normgrad sample` and the Ascend C row of
// `normgrad bench`: the operator sample of
// examples/layernormgradbeta/layernormgradbeta.asc for real — its kernel on
// emulated cores (blocks, unified buffer, queues, DataCopy), its host code
// with the ACL runtime — compiled into the CLI through normgrad-cc's launch
// rewrite (tools/CMakeLists.txt). `normgrad sample` runs it on generated
// standard-normal data (fixed, printed seed), checks it against the
// double-precision reference and times it. The timing is this harness's: it
// drives the sample's host class (Init, a warm-up Launch, timed Launch calls,
// Result); the sample itself launches once.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bounds.h"
#include "commands.h"
#include "dims.h"
#include "normgrad/convert.h"
#include "reference.h"

// The rewritten sample source, its main() renamed: the CLI has its own.
int LayerNormGradBetaSampleMain(int argc, char** argv);
#define main LayerNormGradBetaSampleMain
#include "layernormgradbeta_sample.cpp"
#undef main

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "sample";

struct Outcome {
  std::vector<float> gamma, beta;
  LayerNormGradBetaSampleTiling tiling;
  uint32_t scratch_bytes = 0;
  std::vector<double> seconds;  // one per timed launch, to the end of its synchronize
};

// The sample's operator on `rows` × `h` elements of T: set up and copy the
// inputs in, launch once untimed (a warm-up: the inputs were just copied in),
// then `launches` times, timed; the float sums and the timings in `out`.
// False after the sample printed what failed.
template <typename T>
bool RunTimed(uint32_t rows, uint32_t h, uint32_t blocks, const void* dy, const void* res,
              uint32_t launches, Outcome* out) {
  LayerNormGradBetaSample<T> op;
  if (!op.Init(1, rows, h, blocks, dy, res) || !op.Launch()) return false;
  out->seconds.clear();
  for (uint32_t i = 0; i < launches; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!op.Launch()) return false;
    out->seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  out->gamma.resize(h);
  out->beta.resize(h);
  if (!op.Result(out->gamma.data(), out->beta.data())) return false;
  out->tiling = op.tiling();
  out->scratch_bytes = op.scratchBytes();
  return true;
}

bool RunTimed(DType dtype, uint32_t rows, uint32_t h, uint32_t blocks, const void* dy,
              const void* res, uint32_t launches, Outcome* out) {
  return dtype == DType::kF16 ? RunTimed<::half>(rows, h, blocks, dy, res, launches, out)
                              : RunTimed<float>(rows, h, blocks, dy, res, launches, out);
}

}  // namespace

std::string RunSampleKernel(DType dtype, size_t rows, size_t cols, uint32_t blocks, const void* dy,
                            const void* res, float* pd_gamma, float* pd_beta, uint32_t launches,
                            double* seconds) {
  if (dtype != DType::kF32 && dtype != DType::kF16) {
    return "Ascend C's LayerNormGradBeta takes half or float";
  }
  const size_t size = SizeOf(dtype);
  if (rows > 0xffffffffull || cols > 0xffffffffull / size) return "rows or H over 32 bits";
  if (cols * size % 32 != 0) return "H is not 32-byte aligned";
  const auto r = static_cast<uint32_t>(rows), h = static_cast<uint32_t>(cols);
  uint32_t scratch = 0;
  if (ChooseTileRows(h, static_cast<uint32_t>(size), (r + blocks - 1) / blocks, &scratch) == 0) {
    return "a row does not fit the unified buffer";
  }
  Outcome out;
  if (!RunTimed(dtype, r, h, blocks, dy, res, launches, &out)) {
    return "the sample failed (see above)";
  }
  std::copy(out.gamma.begin(), out.gamma.end(), pd_gamma);
  std::copy(out.beta.begin(), out.beta.end(), pd_beta);
  *seconds = 0;
  for (const double t : out.seconds) *seconds += t;
  return "";
}

int RunSample(const SampleOptions& o) {
  std::vector<uint64_t> dims;
  Status st = ParseDims(o.shape, 0xffffffffull, &dims);
  if (!st.ok()) return Fail(kCommand, st.message());
  if (dims[0] * dims[1] > 0xffffffffull) {
    return Fail(kCommand, "--shape " + o.shape + ": B·S must fit in 32 bits");
  }
  const uint32_t b = static_cast<uint32_t>(dims[0]), s = static_cast<uint32_t>(dims[1]),
                 h = static_cast<uint32_t>(dims[2]);
  const bool half = o.dtype == "half";
  const DType dtype = half ? DType::kF16 : DType::kF32;
  const size_t rows = size_t{b} * s, n = rows * h;
  if ((h * SizeOf(dtype)) % 32 != 0) {
    return Fail(kCommand, "H " + std::to_string(h) + " " + o.dtype + " is " +
                              std::to_string(h * SizeOf(dtype)) +
                              " bytes, not a multiple of 32 (the Ascend C rule)");
  }
  if (!o.profile.empty()) {
    normgrad_ascendc::Profile profile;
    normgrad_ascendc::ParseProfile(o.profile.c_str(), &profile);  // checked by the parser
    normgrad_ascendc::SetProfile(profile);
  }
  normgrad_ascendc::Profile current;
  try {
    current = normgrad_ascendc::CurrentProfile();  // an unknown NORMGRAD_PROFILE throws
  } catch (const normgrad_ascendc::KernelError& e) {
    return Fail(kCommand, e.what());
  }
  const auto& profile = normgrad_ascendc::GetProfileInfo(current);
  std::printf(
      "normgrad sample: examples/layernormgradbeta/layernormgradbeta.asc on %u emulated "
      "cores (profile %s, %s), dy and resForGamma %s %s, standard normal, seed %llu\n",
      o.blocks, profile.key, profile.name, FormatDims(dims).c_str(), o.dtype.c_str(),
      static_cast<unsigned long long>(o.seed));
  std::mt19937_64 rng(o.seed);
  std::normal_distribution<float> normal;
  std::vector<float> dy32(n), res32(n);
  for (float& x : dy32) x = normal(rng);
  for (float& x : res32) x = normal(rng);
  std::vector<float16> dy16, res16;
  const void* dy = dy32.data();
  const void* res = res32.data();
  if (half) {
    dy16.resize(n);
    res16.resize(n);
    Narrow(dy32.data(), dy16.data(), n);
    Narrow(res32.data(), res16.data(), n);
    dy = dy16.data();
    res = res16.data();
  }
  Outcome out;
  if (!RunTimed(dtype, static_cast<uint32_t>(rows), h, o.blocks, dy, res, o.launches, &out)) {
    return Fail(kCommand, "the sample failed (see above)");
  }
  std::sort(out.seconds.begin(), out.seconds.end());
  const double seconds = out.seconds[out.seconds.size() / 2];  // the median launch

  // The sample adds tile sums, block partials and rows in float: at most
  // `rows` roundings per term (bounds.h). In half, LayerNormGradBeta also
  // rounds every tile's sum to half (at most 2^-11 of it, and the tile sums'
  // magnitudes add up to at most Σ|terms|), and the final result is rounded
  // to half once more.
  std::vector<double> ref[2], abs_sum[2];
  for (int k = 0; k < 2; ++k) {
    ref[k].resize(h);
    abs_sum[k].resize(h);
  }
  reference::GradBeta(dtype, dy, res, rows, h, h, ref[0].data(), ref[1].data());
  reference::GradBetaAbsSums(dtype, dy, res, rows, h, h, abs_sum[0].data(), abs_sum[1].data());
  const double u16 = std::ldexp(1.0, -11);
  double worst = 0, error = 0;
  for (int which = 0; which < 2; ++which) {
    const std::vector<float>& got = which == 0 ? out.gamma : out.beta;
    std::vector<double> final_values(h);
    for (uint32_t c = 0; c < h; ++c) {
      const double value = half ? static_cast<double>(float(float16(got[c]))) : got[c];
      final_values[c] = value;
      double bound = SumBound(static_cast<double>(rows), rows, abs_sum[which][c]);
      if (half) bound = RoundedBound(bound + u16 * abs_sum[which][c], u16, ref[which][c]);
      worst = std::max(worst, std::fabs(value - ref[which][c]) / bound);
    }
    error = std::max(error, reference::NormwiseError(final_values, ref[which]));
  }
  const LayerNormGradBetaSampleTiling& sample_tiling = out.tiling;
  const LayerNormGradBetaTiling& t = sample_tiling.lngb;
  const uint32_t tiles_per_block =
      (sample_tiling.rowsPerBlock + sample_tiling.tileRows - 1) / sample_tiling.tileRows;
  std::printf(
      "tiles: %u rows per tile, %u tiles per block, framework scratch %u bytes; "
      "LayerNormGradBeta tiling: oneCalSize %u, loopRound %u, bsCurLength %u, "
      "inputTailSize %u, stackBufferSize %u floats\n",
      sample_tiling.tileRows, tiles_per_block, out.scratch_bytes, t.oneCalSize, t.loopRound,
      t.bsCurLength, t.inputTailSize, t.stackBufferSize);
  // H is at least 8 (the 32-byte rule), so the first four columns exist.
  const auto print_first4 = [](const char* name, const std::vector<float>& v, const char* end) {
    std::printf("%s[0..3] %.6g %.6g %.6g %.6g%s", name, v[0], v[1], v[2], v[3], end);
  };
  print_first4("pdGamma", out.gamma, "; ");
  print_first4("pdBeta", out.beta, "\n");
  const double bytes = 2.0 * static_cast<double>(n) * SizeOf(dtype);
  std::printf(
      "kernel time %.3f ms (median of %u launches after a warm-up), %.1f GB/s (inputs "
      "read / time); "
      "error vs double reference %.2e normwise, worst column %.4f of its bound\n",
      seconds * 1e3, o.launches, bytes / seconds / 1e9, error, worst);
  if (worst > 1.0) {
    std::printf("FAILED: a result is outside its bound\n");
    return 1;
  }
  std::printf("OK: every result is within its bound\n");
  return 0;
}

}  // namespace normgrad::cli

// tools/normgrad/commands.h — the subcommands of the normgrad command line.
// main.cc parses the arguments into these options (a malformed command line
// exits 2 there); each command returns the process exit status: 0 on
// success, 1 on an error, which it has reported on stderr.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "normgrad/types.h"

namespace normgrad::cli {

/// Reports an error of `command` on stderr ("normgrad run: <message>") and
/// returns the exit status for it, 1.
inline int Fail(const char* command, const std::string& message) {
  std::fprintf(stderr, "normgrad %s: %s\n", command, message.c_str());
  return 1;
}

/// `normgrad example`: one normalization API's documented example through
/// the Ascend C kernel API (examples.h lists them).
struct ExampleOptions {
  std::string op = "layernorm-grad-beta";
};
int RunExample(const ExampleOptions& options);

/// `normgrad run`: pd_gamma/pd_beta of .npy or .bin files.
struct RunOptions {
  std::string dy;     ///< path of dy
  std::string res;    ///< path of resForGamma
  std::string shape;  ///< "B,S,H" or empty
  std::string dtype;  ///< "float", "half", "bfloat16" or empty
  std::string order = "sequential";
  int threads = 0;        ///< 0: the engine's default
  std::string out = ".";  ///< output directory
  bool time = false;      ///< also time the computation
};
int RunRun(const RunOptions& options);

/// `normgrad backward`: the fused layer-norm backward (dx, pd_gamma,
/// pd_beta) of .npy or .bin files; mean and variance come from x.
struct BackwardOptions {
  std::string x, dy, gamma;  ///< input paths
  std::string shape;         ///< "B,S,H" or empty
  std::string dtype;         ///< "float", "half", "bfloat16" or empty
  double eps = 1e-5;
  std::string order = "blocked";
  int threads = 0;        ///< 0: the engine's default
  std::string out = ".";  ///< output directory
  bool time = false;      ///< also time the computation
};
int RunBackward(const BackwardOptions& options);

/// `normgrad forward`: the layer-norm forward (y, mean, variance) of .npy
/// or .bin files.
struct ForwardOptions {
  std::string x, gamma, beta;  ///< input paths
  std::string shape;           ///< "B,S,H" or empty
  std::string dtype;           ///< "float", "half", "bfloat16" or empty
  double eps = 1e-5;
  int threads = 0;        ///< 0: the engine's default
  std::string out = ".";  ///< output directory
  bool time = false;      ///< also time the computation
};
int RunForward(const ForwardOptions& options);

/// `normgrad rmsnorm-forward`: the RMS-norm forward (y, rstd) of .npy or
/// .bin files.
struct RmsNormForwardOptions {
  std::string x, gamma;  ///< input paths
  std::string shape;     ///< "B,S,H" or empty
  std::string dtype;     ///< "float", "half", "bfloat16" or empty
  double eps = 1e-6;
  int threads = 0;        ///< 0: the engine's default
  std::string out = ".";  ///< output directory
  bool time = false;      ///< also time the computation
};
int RunRmsNormForward(const RmsNormForwardOptions& options);

/// `normgrad rmsnorm-backward`: the fused RMS-norm backward (dx, dgamma) of
/// .npy or .bin files; rstd comes from x.
struct RmsNormBackwardOptions {
  std::string x, dy, gamma;  ///< input paths
  std::string shape;         ///< "B,S,H" or empty
  std::string dtype;         ///< "float", "half", "bfloat16" or empty
  double eps = 1e-6;
  std::string order = "blocked";
  int threads = 0;        ///< 0: the engine's default
  std::string out = ".";  ///< output directory
  bool time = false;      ///< also time the computation
};
int RunRmsNormBackward(const RmsNormBackwardOptions& options);

/// `normgrad tiling`: scratch sizes and the tiling of one normalization API
/// for a shape.
struct TilingOptions {
  std::string shape;        ///< "B,S,H" or "B,S,H,Ho"
  std::string dtype;        ///< "half" or "float"
  std::string tmp = "min";  ///< "min", "max" or a byte count
  std::string profile = "a2";
  std::string op = "layernorm-grad-beta";  ///< or "layernorm-grad", "layernorm"
  bool reuse = false;                      ///< isReuseSource
  uint32_t group_num = 0;                  ///< groupNum (groupnorm)
  bool basic_block = false;                ///< isBasicBlock (batchnorm, rmsnorm, deepnorm)
  std::string gamma_dtype;                 ///< gamma/beta type (normalize); empty: dtype
  bool inplace = false;                    ///< WelfordUpdateConfig::isInplace (welford-update)
  bool json = false;
};
int RunTiling(const TilingOptions& options);

/// `normgrad demo`: the built-in problem of `make run`.
int RunDemo();

/// `normgrad sample`: the operator sample of examples/layernormgradbeta run
/// on emulated cores on generated data, checked and timed.
struct SampleOptions {
  std::string shape = "8,4096,1024";  ///< "B,S,H"
  std::string dtype = "float";        ///< "float" or "half"
  uint32_t blocks = 8;
  std::string profile;  ///< "a2", "310p", "950"; empty: NORMGRAD_PROFILE or a2
  uint64_t seed = 2024;
  uint32_t launches = 3;  ///< timed launches after the warm-up
};
int RunSample(const SampleOptions& options);

/// The operator sample's kernel for `normgrad bench`: rows × cols of float
/// or half dy and res on `blocks` emulated cores, copied to device memory,
/// launched once untimed and then `launches` times; the float sums in
/// pd_gamma/pd_beta (cols each) and the timed launches' total time (each
/// launch to synchronize) in *seconds. Returns why it cannot run, or empty.
std::string RunSampleKernel(DType dtype, size_t rows, size_t cols, uint32_t blocks, const void* dy,
                            const void* res, float* pd_gamma, float* pd_beta, uint32_t launches,
                            double* seconds);

/// The vector unit's kernels of `normgrad bench` (tools/normgrad/vector_bench.asc).
enum class VectorKernel {
  kAdd,     ///< out = x + y, rows × cols
  kRowSum,  ///< out[r] = Σ_c x[r][c], one per row (y unused)
};

/// Kernel `kind` on rows × cols float or half inputs on `blocks` emulated
/// cores, copied to device memory, launched once untimed and then
/// `launches` times; its output of `dtype` in `out` and the timed launches'
/// total time (each launch to synchronize) in *seconds. Returns why it
/// cannot run, or empty.
std::string RunVectorKernel(VectorKernel kind, DType dtype, size_t rows, size_t cols,
                            uint32_t blocks, const void* x, const void* y, void* out,
                            uint32_t launches, double* seconds);

/// The same operation as a plain loop a user would write, OpenMP over
/// `threads` (half through float in short pieces).
void VectorLoop(VectorKernel kind, DType dtype, size_t rows, size_t cols, const void* x,
                const void* y, void* out, int threads);

/// `normgrad bench`: normgrad against the read-bandwidth baseline and the
/// peer libraries, interleaved on the same inputs (docs in bench.cc).
struct BenchOptions {
  bool quick = false;  ///< the dispatched kernels only, fewer rounds
  bool json = false;   ///< one JSON object on stdout instead of the table
  std::string plot;    ///< PNG path for a bar chart, or empty
  std::string shapes;  ///< a file of "ROWSxCOLS dtype" lines, or empty
};
int RunBench(const BenchOptions& options);

/// `normgrad check`: runs a program built with normgrad-cc under
/// NORMGRAD_CHECK (docs/checks.md).
struct CheckOptions {
  std::string tool = "all";          ///< race, sync or all
  std::vector<std::string> command;  ///< the program and its arguments
};
int RunCheck(const CheckOptions& options);

}  // namespace normgrad::cli

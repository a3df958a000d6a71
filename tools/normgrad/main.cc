// tools/normgrad/main.cc — the normgrad command line: argument parsing
// (CLI11) and dispatch to the subcommands of commands.h.
//
// Exit status: 0 success; 1 an error in the input (reported by the command);
// 2 a malformed command line (CLI11's own errors, whatever code CLI11 gives).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <new>
#include <string>

#include "commands.h"
#include "dims.h"
#include "examples.h"
#include "tiling_ops.h"

namespace {

// CLI11 validators for the shape and scratch-size arguments. They check the
// form only; the values (zero, too large) are checked by the commands.
CLI::Validator DimList(size_t min_rank, size_t max_rank, const std::string& form) {
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (normgrad::cli::IsDimList(text, min_rank, max_rank)) return "";
        return "'" + text + "' is not of the form " + form;
      },
      form);
}

constexpr const char* kTimeHelp =
    "also time the computation: run it 3 times, print the median time and bandwidth";

CLI::Validator TmpSize() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        if (text == "min" || text == "max" || normgrad::cli::IsDimList(text, 1, 1)) return "";
        return "'" + text + "' is not min, max or a number of bytes";
      },
      "min|max|BYTES");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"normgrad — Ascend C LayerNormGradBeta on the CPU, bit-exact, and a fast engine"};
  app.set_version_flag("--version", std::string("normgrad ") + NORMGRAD_VERSION);
  app.require_subcommand(1);

  app.footer(
      "Exit status: 0 success; 1 an error in the input (a message on stderr, no output "
      "written); 2 a malformed command line.");

  normgrad::cli::ExampleOptions example;
  CLI::App* example_cmd = app.add_subcommand(
      "example",
      "A normalization API's documented example through the Ascend C API, checked "
      "against the documented results");
  example_cmd->add_option("--op", example.op, "the API whose example to run")
      ->check(CLI::IsMember(normgrad::cli::ExampleOpKeys()))
      ->capture_default_str();

  normgrad::cli::RunOptions run;
  CLI::App* run_cmd =
      app.add_subcommand("run", "pd_gamma and pd_beta of dy and resForGamma in .npy or .bin files");
  run_cmd->footer(
      "Writes DIR/pd_gamma.npy and DIR/pd_beta.npy (.bin for .bin inputs), shape [H], in the "
      "input's dtype; the outputs replace old ones as a set, all or nothing (see the README). "
      ".npy inputs: rows = the product of the "
      "leading dimensions, H = the last; bfloat16 travels as '<u2' bits with --dtype bfloat16. "
      "H * sizeof(dtype) must be a multiple of 32 bytes (the Ascend C rule).");
  run_cmd->add_option("--dy", run.dy, "dy: .npy, or raw little-endian .bin")->required();
  run_cmd->add_option("--res", run.res, "resForGamma, the same shape and type as dy")->required();
  run_cmd
      ->add_option("--shape", run.shape,
                   "B,S,H: required for .bin inputs; must agree with .npy inputs")
      ->check(DimList(3, 3, "B,S,H"));
  run_cmd
      ->add_option("--dtype", run.dtype,
                   "element type: required for .bin inputs; bfloat16 for .npy inputs of "
                   "raw bf16 bits ('<u2')")
      ->check(CLI::IsMember({"float", "half", "bfloat16"}));
  run_cmd
      ->add_option("--order", run.order,
                   "summation order: sequential (the device's bits) or blocked")
      ->check(CLI::IsMember({"sequential", "blocked"}))
      ->capture_default_str();
  run_cmd
      ->add_option("--threads", run.threads,
                   "worker threads (default: the engine's choice, one for small problems)")
      ->check(CLI::Range(1, 1024));
  run_cmd->add_option("--out", run.out, "output directory, created if missing")
      ->capture_default_str();
  run_cmd->add_flag("--time", run.time, kTimeHelp);

  // The options of the engine's norms on files (backward, forward and the
  // rmsnorm commands); eps_help says what eps is added to.
  auto add_norm_inputs = [](CLI::App* cmd, std::string& shape, std::string& dtype, double& eps,
                            int& threads, std::string& out, bool& time,
                            const char* eps_help = "added to the variance") {
    cmd->add_option("--shape", shape,
                    "B,S,H: required for .bin inputs; must agree with .npy "
                    "inputs")
        ->check(DimList(3, 3, "B,S,H"));
    cmd->add_option("--dtype", dtype,
                    "element type: required for .bin inputs; bfloat16 for "
                    ".npy inputs of raw bf16 bits ('<u2')")
        ->check(CLI::IsMember({"float", "half", "bfloat16"}));
    cmd->add_option("--eps", eps, eps_help)->check(CLI::NonNegativeNumber)->capture_default_str();
    cmd->add_option("--threads", threads,
                    "worker threads (default: the engine's choice, one for small problems)")
        ->check(CLI::Range(1, 1024));
    cmd->add_option("--out", out, "output directory, created if missing")->capture_default_str();
    cmd->add_flag("--time", time, kTimeHelp);
  };

  // backward and forward: the engine's layer norm on files.
  normgrad::cli::BackwardOptions backward;
  CLI::App* backward_cmd = app.add_subcommand(
      "backward",
      "Fused layer-norm backward: dx, pd_gamma and pd_beta of x, dy and gamma in "
      ".npy or .bin files");
  backward_cmd->footer(
      "Writes DIR/dx.npy (the shape of x), DIR/pd_gamma.npy and DIR/pd_beta.npy ([H]) (.bin for "
      ".bin inputs) in the input's dtype; the outputs replace old ones as a set, all or "
      "nothing. Each row's mean and population variance are computed from x; rstd = "
      "1/sqrt(variance + eps). Order: blocked "
      "(default) sums pd_gamma/pd_beta in fixed 256-row blocks combined by a pairwise tree; "
      "sequential adds the rows one after another (one thread). Any H.");
  backward_cmd->add_option("--x", backward.x, "x: .npy, or raw little-endian .bin")->required();
  backward_cmd->add_option("--dy", backward.dy, "dy, the same shape and type as x")->required();
  backward_cmd->add_option("--gamma", backward.gamma, "gamma, [H]")->required();
  backward_cmd
      ->add_option("--order", backward.order,
                   "pd_gamma/pd_beta summation order: blocked or sequential")
      ->check(CLI::IsMember({"sequential", "blocked"}))
      ->capture_default_str();
  add_norm_inputs(backward_cmd, backward.shape, backward.dtype, backward.eps, backward.threads,
                  backward.out, backward.time);

  normgrad::cli::ForwardOptions forward;
  CLI::App* forward_cmd =
      app.add_subcommand("forward",
                         "Layer-norm forward: y, mean and variance of x, gamma and beta in .npy or "
                         ".bin files");
  forward_cmd->footer(
      "Writes DIR/y.npy (the shape of x), DIR/mean.npy and DIR/variance.npy (the leading "
      "dimensions of x) (.bin for .bin inputs) in the input's dtype; the outputs replace old "
      "ones as a set, all or nothing. variance is the population variance (divided by H). Any H.");
  forward_cmd->add_option("--x", forward.x, "x: .npy, or raw little-endian .bin")->required();
  forward_cmd->add_option("--gamma", forward.gamma, "gamma, [H]")->required();
  forward_cmd->add_option("--beta", forward.beta, "beta, [H]")->required();
  add_norm_inputs(forward_cmd, forward.shape, forward.dtype, forward.eps, forward.threads,
                  forward.out, forward.time);

  // rmsnorm-forward and rmsnorm-backward: the engine's RMS norm on files.
  normgrad::cli::RmsNormForwardOptions rms_forward;
  CLI::App* rms_forward_cmd = app.add_subcommand(
      "rmsnorm-forward", "RMS-norm forward: y and rstd of x and gamma in .npy or .bin files");
  rms_forward_cmd->footer(
      "Writes DIR/y.npy (the shape of x) and DIR/rstd.npy (the leading dimensions of x) (.bin "
      "for .bin inputs) in the input's dtype; the outputs replace old ones as a set, all or "
      "nothing. rstd = 1/sqrt(mean(x^2) + eps), y = x * rstd * gamma. Any H.");
  rms_forward_cmd->add_option("--x", rms_forward.x, "x: .npy, or raw little-endian .bin")
      ->required();
  rms_forward_cmd->add_option("--gamma", rms_forward.gamma, "gamma, [H]")->required();
  add_norm_inputs(rms_forward_cmd, rms_forward.shape, rms_forward.dtype, rms_forward.eps,
                  rms_forward.threads, rms_forward.out, rms_forward.time,
                  "added to the mean square");

  normgrad::cli::RmsNormBackwardOptions rms_backward;
  CLI::App* rms_backward_cmd = app.add_subcommand(
      "rmsnorm-backward",
      "Fused RMS-norm backward: dx and dgamma of x, dy and gamma in .npy or .bin files");
  rms_backward_cmd->footer(
      "Writes DIR/dx.npy (the shape of x) and DIR/dgamma.npy ([H]) (.bin for .bin inputs) in "
      "the input's dtype; the outputs replace old ones as a set, all or nothing. Each row's "
      "rstd = 1/sqrt(mean(x^2) + eps) is computed from x. Order: blocked (default) sums dgamma "
      "in fixed 256-row blocks combined by a pairwise tree; sequential adds the rows one after "
      "another (one thread). Any H.");
  rms_backward_cmd->add_option("--x", rms_backward.x, "x: .npy, or raw little-endian .bin")
      ->required();
  rms_backward_cmd->add_option("--dy", rms_backward.dy, "dy, the same shape and type as x")
      ->required();
  rms_backward_cmd->add_option("--gamma", rms_backward.gamma, "gamma, [H]")->required();
  rms_backward_cmd
      ->add_option("--order", rms_backward.order, "dgamma summation order: blocked or sequential")
      ->check(CLI::IsMember({"sequential", "blocked"}))
      ->capture_default_str();
  add_norm_inputs(rms_backward_cmd, rms_backward.shape, rms_backward.dtype, rms_backward.eps,
                  rms_backward.threads, rms_backward.out, rms_backward.time,
                  "added to the mean square");

  normgrad::cli::TilingOptions tiling;
  CLI::App* tiling_cmd = app.add_subcommand(
      "tiling", "Scratch-size range and tiling of a normalization API (--op) for a shape");
  tiling_cmd->add_option("--op", tiling.op, "the API whose tiling to compute")
      ->check(CLI::IsMember(normgrad::cli::TilingOpKeys()))
      ->capture_default_str();
  tiling_cmd
      ->add_option("--shape", tiling.shape,
                   "the op's shape: B,S,H or B,S,H,originalH for the layer-norm APIs")
      ->required()
      ->check(DimList(1, 8, "D1,D2,..."));
  tiling_cmd->add_option("--dtype", tiling.dtype, "element type")
      ->required()
      ->check(CLI::IsMember({"half", "float"}));
  tiling_cmd->add_option("--tmp", tiling.tmp, "scratch size: min, max or a number of bytes")
      ->check(TmpSize())
      ->capture_default_str();
  tiling_cmd->add_option("--profile", tiling.profile, "product profile, as the kernel API")
      ->check(CLI::IsMember({"a2", "310p", "950"}))
      ->capture_default_str();
  tiling_cmd->add_flag("--reuse", tiling.reuse,
                       "isReuseSource = true (changes layernorm-grad's and layernorm's "
                       "sizes and tiling)");
  tiling_cmd->add_option("--group-num", tiling.group_num,
                         "groupNum, the groups over C (read by --op groupnorm, which needs it)");
  tiling_cmd->add_flag("--basic-block", tiling.basic_block,
                       "isBasicBlock = true (read by --op batchnorm, rmsnorm and deepnorm)");
  tiling_cmd
      ->add_option("--gamma-dtype", tiling.gamma_dtype,
                   "gamma and beta element type (read by normalize; default --dtype)")
      ->check(CLI::IsMember({"half", "float"}));
  tiling_cmd->add_flag("--inplace", tiling.inplace,
                       "isInplace = true (welford-update; does not change its sizes)");
  tiling_cmd->add_flag("--json", tiling.json,
                       "print one JSON object: minValue, maxValue and the tiling's fields");

  CLI::App* demo_cmd = app.add_subcommand(
      "demo", "The built-in [4,2048,1024] float and half problem, both orders: checked, timed");

  normgrad::cli::SampleOptions sample;
  CLI::App* sample_cmd = app.add_subcommand(
      "sample",
      "The Ascend C operator sample (examples/layernormgradbeta) on emulated cores: "
      "generated data, checked against the double reference, timed");
  sample_cmd->add_option("--shape", sample.shape, "B,S,H")
      ->check(DimList(3, 3, "B,S,H"))
      ->capture_default_str();
  sample_cmd->add_option("--dtype", sample.dtype, "element type")
      ->check(CLI::IsMember({"half", "float"}))
      ->capture_default_str();
  sample_cmd->add_option("--blocks", sample.blocks, "emulated cores the rows are split over")
      ->check(CLI::Range(1, 65535))
      ->capture_default_str();
  sample_cmd
      ->add_option("--profile", sample.profile,
                   "product profile of the emulated cores (default: NORMGRAD_PROFILE, "
                   "else a2)")
      ->check(CLI::IsMember({"a2", "310p", "950"}));
  sample_cmd->add_option("--seed", sample.seed, "seed of the generated data")
      ->capture_default_str();
  sample_cmd
      ->add_option("--launches", sample.launches,
                   "timed launches after the warm-up (more: a longer run to profile)")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();

  normgrad::cli::BenchOptions bench;
  CLI::App* bench_cmd = app.add_subcommand(
      "bench",
      "normgrad next to the read bandwidth and the peer libraries (PyTorch, oneDNN, a "
      "plain loop) on the same inputs: time, GB/s, ratios, error");
  bench_cmd->add_flag("--quick", bench.quick,
                      "the dispatched kernels only and fewer rounds (under a minute)");
  bench_cmd->add_flag("--json", bench.json, "print one JSON object instead of the table");
  bench_cmd->add_option("--plot", bench.plot, "write a bar chart (PNG) to this file");
  bench_cmd->add_option("--shapes", bench.shapes,
                        "a file of 'ROWSxCOLS dtype' lines (dtype float, half or bfloat16) "
                        "instead of the built-in shapes");

  normgrad::cli::CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand(
      "check",
      "Run a program built with normgrad-cc under the checks (docs/checks.md): "
      "normgrad check [--tool race|sync|init|all] -- PROGRAM [ARGS]; exits with the program's "
      "status, or 1 when a check reported");
  check_cmd->add_option("--tool", check.tool, "the checks to run")
      ->check(CLI::IsMember({"race", "sync", "init", "all"}))
      ->capture_default_str();
  check_cmd->add_option("command", check.command, "the program and its arguments, after --")
      ->required();

  // CLI11 reports an unknown command as a missing one; name it instead.
  const CLI::App* commands[] = {example_cmd,      run_cmd,      tiling_cmd,  demo_cmd,
                                sample_cmd,       backward_cmd, forward_cmd, rms_forward_cmd,
                                rms_backward_cmd, bench_cmd,    check_cmd};
  if (argc > 1 && argv[1][0] != '-' &&
      std::none_of(std::begin(commands), std::end(commands),
                   [&](const CLI::App* c) { return c->get_name() == argv[1]; })) {
    std::fprintf(stderr,
                 "normgrad: unknown command '%s'; the commands are example, run, "
                 "tiling, demo, sample, backward, forward, rmsnorm-forward, rmsnorm-backward, "
                 "bench and check\nRun with --help for more information.\n",
                 argv[1]);
    return 2;
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // help and version exit 0
  }
  // The commands report the buffers they cannot allocate themselves; this
  // catches what runs out of memory inside the libraries they call.
  const CLI::App* command = app.get_subcommands().front();
  try {
    if (command == example_cmd) return normgrad::cli::RunExample(example);
    if (command == run_cmd) return normgrad::cli::RunRun(run);
    if (command == backward_cmd) return normgrad::cli::RunBackward(backward);
    if (command == forward_cmd) return normgrad::cli::RunForward(forward);
    if (command == rms_forward_cmd) return normgrad::cli::RunRmsNormForward(rms_forward);
    if (command == rms_backward_cmd) return normgrad::cli::RunRmsNormBackward(rms_backward);
    if (command == tiling_cmd) return normgrad::cli::RunTiling(tiling);
    if (command == sample_cmd) return normgrad::cli::RunSample(sample);
    if (command == bench_cmd) return normgrad::cli::RunBench(bench);
    if (command == check_cmd) return normgrad::cli::RunCheck(check);
    return normgrad::cli::RunDemo();  // require_subcommand(1): demo_cmd
  } catch (const std::bad_alloc&) {
    return normgrad::cli::Fail(command->get_name().c_str(),
                               "not enough memory for the working buffers of this problem "
                               "(an allocation inside the library failed)");
  }
}

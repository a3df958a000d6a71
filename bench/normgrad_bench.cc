// normgrad_bench.cc — pd_gamma/pd_beta and fused layer-norm backward
// throughput (`make bench`).
//
// For each shape, element type and thread count it first measures a
// read-bandwidth baseline in this same run — the sum of two arrays as large
// as dy and res, vectorized, on the same threads — and the same reads split
// by columns as the sequential order splits them (baseline_columns), then
// the engine in both orders. Counters: GB/s = (bytes read + bytes written) /
// time, and x_baseline = GB/s ÷ the baseline's median GB/s for the same
// type, shape and threads, over the baseline's reported repetitions only
// (RatioReporter: Google Benchmark's calls that choose the iteration count
// are never reported and time something else — a few iterations, on cold
// caches — so they must not count). A row whose baseline was filtered out
// has no x_baseline. Run with
// --benchmark_repetitions=N to get medians on a noisy machine.
// ascendc_sample: the operator sample through the emulated Ascend C API, next
// to the engine's blocked order on the same data (x_blocked).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "bench_stats.h"
#include "normgrad/float16.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "read_baseline.h"

#if defined(NORMGRAD_BENCH_SAMPLE)
// The operator sample, launches rewritten, its main() renamed: this program
// has its own.
int LayerNormGradBetaSampleMain(int argc, char** argv);
#define main LayerNormGradBetaSampleMain
#include "layernormgradbeta_sample.cpp"
#undef main
#endif

namespace {

using normgrad::DType;

struct Inputs {
  std::vector<uint8_t> dy, res;
  std::vector<uint8_t> gamma, beta;
};

// Standard normal inputs, converted to the element type; cached per shape.
const Inputs& InputsFor(DType t, size_t rows, size_t cols) {
  static std::map<std::tuple<int, size_t, size_t>, Inputs> cache;
  const auto key = std::make_tuple(static_cast<int>(t), rows, cols);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  if (cache.size() > 2) cache.clear();  // keep memory bounded
  Inputs in;
  const size_t n = rows * cols, size = normgrad::SizeOf(t);
  in.dy.resize(n * size);
  in.res.resize(n * size);
  in.gamma.resize(cols * 4);
  in.beta.resize(cols * 4);
  std::mt19937 rng(42);
  std::normal_distribution<float> dist;
  for (std::vector<uint8_t>* v : {&in.dy, &in.res}) {
    for (size_t i = 0; i < n; ++i) {
      const float x = dist(rng);
      if (t == DType::kF32) {
        std::memcpy(v->data() + 4 * i, &x, 4);
      } else {
        const uint16_t b = normgrad::float16(x).Bits();
        std::memcpy(v->data() + 2 * i, &b, 2);
      }
    }
  }
  return cache.emplace(key, std::move(in)).first->second;
}

using normgrad::bench::SumTwoArrays;

using bench::Median;

void SetRate(benchmark::State& state, double bytes, double seconds) {
  state.counters["GB/s"] = bytes / seconds / 1e9;
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * static_cast<int64_t>(state.iterations()));
}

void Baseline(benchmark::State& state, DType t) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const size_t cols = static_cast<size_t>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  const Inputs& in = InputsFor(t, rows, cols);
  const size_t floats = in.dy.size() / 4;
  const auto* a = reinterpret_cast<const float*>(in.dy.data());
  const auto* b = reinterpret_cast<const float*>(in.res.data());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(SumTwoArrays(a, b, floats, threads));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations());
  SetRate(state, 2.0 * static_cast<double>(in.dy.size()), seconds);
}

// The read baseline split by columns as the sequential order splits its
// work (each thread a range of every row): what this memory system gives
// that access pattern. x_baseline against the ordinary baseline.
void BaselineColumns(benchmark::State& state, DType t) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const size_t cols = static_cast<size_t>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  const Inputs& in = InputsFor(t, rows, cols);
  const size_t row_floats = cols * normgrad::SizeOf(t) / 4;
  const auto* a = reinterpret_cast<const float*>(in.dy.data());
  const auto* b = reinterpret_cast<const float*>(in.res.data());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    benchmark::DoNotOptimize(
        normgrad::bench::SumTwoArraysByColumns(a, b, rows, row_floats, threads));
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations());
  SetRate(state, 2.0 * static_cast<double>(in.dy.size()), seconds);
}

void GradBeta(benchmark::State& state, DType t, normgrad::Order order) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const size_t cols = static_cast<size_t>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  Inputs& in = const_cast<Inputs&>(InputsFor(t, rows, cols));
  normgrad::GradBetaProblem p;
  p.dtype = t;
  p.rows = rows;
  p.cols = cols;
  p.dy = in.dy.data();
  p.res = in.res.data();
  p.pd_gamma = in.gamma.data();
  p.pd_beta = in.beta.data();
  p.order = order;
  p.threads = threads;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!normgrad::LayerNormGradBeta(p).ok()) {
      state.SkipWithError("LayerNormGradBeta failed");
      return;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations());
  const double bytes = static_cast<double>((2 * rows * cols + 2 * cols) * normgrad::SizeOf(t));
  SetRate(state, bytes, seconds);
  state.SetLabel(normgrad::LastRunInfo().impl +
                 " threads=" + std::to_string(normgrad::LastRunInfo().threads));
}

// rows × cols of every benchmarked shape: a tiny one, squares, transformer
// widths (768, 12288) and a narrow one (64).
const std::vector<std::pair<int64_t, int64_t>> kShapes = {{64, 64},     {1024, 1024},  {4096, 4096},
                                                          {16384, 768}, {2048, 12288}, {65536, 64}};

void Register() {
  for (DType t : {DType::kF32, DType::kF16}) {
    const std::string type = normgrad::DTypeName(t);
    for (const auto& [rows, cols] : kShapes) {
      for (int64_t threads : {1, 2}) {
        const std::vector<int64_t> args = {rows, cols, threads};
        benchmark::RegisterBenchmark(("baseline/" + type).c_str(), Baseline, t)
            ->Args(args)
            ->ArgNames({"rows", "cols", "threads"})
            ->UseRealTime();
        benchmark::RegisterBenchmark(("baseline_columns/" + type).c_str(), BaselineColumns, t)
            ->Args(args)
            ->ArgNames({"rows", "cols", "threads"})
            ->UseRealTime();
        for (auto order : {normgrad::Order::kSequential, normgrad::Order::kBlocked}) {
          benchmark::RegisterBenchmark(
              (std::string(normgrad::OrderName(order)) + "/" + type).c_str(), GradBeta, t, order)
              ->Args(args)
              ->ArgNames({"rows", "cols", "threads"})
              ->UseRealTime();
        }
      }
    }
  }
}

// The fused layer-norm backward (normgrad/layer_norm.h): dx, pd_gamma and
// pd_beta from x, dy, gamma and the rows' mean and rstd. Bytes = read x, dy
// and gamma + write dx; x_baseline against the same run's baseline of the
// same shape, type and threads. layer_norm_backward stores dx as
// Stores::kAuto chooses (streaming from 8 MiB with rows of at least 1 KiB);
// layer_norm_backward_plain always with plain stores, for comparison.
void LayerNormBackward(benchmark::State& state, DType t, normgrad::Stores stores) {
  const size_t rows = static_cast<size_t>(state.range(0));
  const size_t cols = static_cast<size_t>(state.range(1));
  const int threads = static_cast<int>(state.range(2));
  const Inputs& in = InputsFor(t, rows, cols);
  const size_t size = normgrad::SizeOf(t);
  std::vector<uint8_t> gamma(cols * size), beta(cols * size), dx(rows * cols * size);
  std::vector<uint8_t> pd_gamma(cols * size), pd_beta(cols * size);
  std::vector<float> mean(rows), rstd(rows);
  for (size_t c = 0; c < cols; ++c) {  // gamma = 1 + c/cols, beta = 0
    const float g = 1.0f + static_cast<float>(c) / static_cast<float>(cols);
    if (t == DType::kF32) {
      std::memcpy(gamma.data() + 4 * c, &g, 4);
    } else {
      const uint16_t b = normgrad::float16(g).Bits();
      std::memcpy(gamma.data() + 2 * c, &b, 2);
    }
  }
  normgrad::LayerNormForwardProblem f;
  f.dtype = t;
  f.rows = rows;
  f.cols = cols;
  f.x = in.res.data();
  f.gamma = gamma.data();
  f.beta = beta.data();
  f.mean = mean.data();
  f.rstd = rstd.data();
  normgrad::LayerNormBackwardProblem p;
  p.dtype = t;
  p.rows = rows;
  p.cols = cols;
  p.x = in.res.data();
  p.dy = in.dy.data();
  p.gamma = gamma.data();
  p.mean = mean.data();
  p.rstd = rstd.data();
  p.dx = dx.data();
  p.pd_gamma = pd_gamma.data();
  p.pd_beta = pd_beta.data();
  p.stores = stores;
  p.threads = threads;
  if (!normgrad::LayerNormForward(f).ok() || !normgrad::LayerNormBackward(p).ok()) {
    state.SkipWithError("LayerNormForward/LayerNormBackward failed");
    return;
  }
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) benchmark::DoNotOptimize(normgrad::LayerNormBackward(p).ok());
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() /
      static_cast<double>(state.iterations());
  const double bytes = static_cast<double>((3 * rows * cols + cols) * size);
  SetRate(state, bytes, seconds);
  const normgrad::RunInfo info = normgrad::LastLayerNormRunInfo();
  state.SetLabel(info.impl + " threads=" + std::to_string(info.threads));
}

void RegisterLayerNormBackward() {
  for (DType t : {DType::kF32, DType::kF16}) {
    const std::string type = normgrad::DTypeName(t);
    for (const auto& [rows, cols] : kShapes) {
      for (int64_t threads : {1, 2}) {
        for (auto [name, stores] : {std::pair{"", normgrad::Stores::kAuto},
                                    std::pair{"_plain", normgrad::Stores::kPlain}}) {
          benchmark::RegisterBenchmark(
              ("layer_norm_backward" + std::string(name) + "/" + type).c_str(), LayerNormBackward,
              t, stores)
              ->Args({rows, cols, threads})
              ->ArgNames({"rows", "cols", "threads"})
              ->UseRealTime();
        }
      }
    }
  }
}

#if defined(NORMGRAD_BENCH_SAMPLE)
// The emulated Ascend C path: the operator sample of examples/layernormgradbeta
// — its kernel on emulated cores, its host code — as `normgrad sample` runs it
// on [8, 4096, 1024] float on 8 blocks, timed as it reports it (the launch to
// the end of aclrtSynchronizeStream; its copies to and from device memory are
// not timed). Next to it, the engine's blocked order on the same inputs on as
// many threads as the launch uses, in this benchmark's run: blocked_GB/s (the
// median of 5 calls after a first), and x_blocked = GB/s ÷ blocked_GB/s.
double BlockedGbs(const normgrad::GradBetaProblem& p, double bytes) {
  std::vector<double> runs;
  for (int i = 0; i < 6; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!normgrad::LayerNormGradBeta(p).ok()) return 0;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (i > 0) runs.push_back(bytes / seconds / 1e9);
  }
  return Median(runs);
}

void AscendcSample(benchmark::State& state) {
  const auto b = static_cast<uint32_t>(state.range(0));
  const auto s = static_cast<uint32_t>(state.range(1));
  const auto h = static_cast<uint32_t>(state.range(2));
  const auto blocks = static_cast<uint32_t>(state.range(3));
  const size_t rows = size_t{b} * s;
  const Inputs& in = InputsFor(DType::kF32, rows, h);
  std::vector<float> gamma(h), beta(h);
  normgrad::GradBetaProblem p;
  p.dtype = DType::kF32;
  p.rows = rows;
  p.cols = h;
  p.dy = in.dy.data();
  p.res = in.res.data();
  p.pd_gamma = gamma.data();
  p.pd_beta = beta.data();
  p.order = normgrad::Order::kBlocked;
  p.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const double bytes = static_cast<double>((2 * rows * h + 2 * h) * sizeof(float));
  const double blocked = BlockedGbs(p, bytes);
  if (blocked == 0) {
    state.SkipWithError("LayerNormGradBeta failed");
    return;
  }
  // The inputs copied to device memory once and one untimed launch, then
  // one timed launch (to the end of its synchronize) per iteration.
  LayerNormGradBetaSample<float> op;
  if (!op.Init(b, s, h, blocks, in.dy.data(), in.res.data()) || !op.Launch()) {
    state.SkipWithError("the sample failed");
    return;
  }
  double seconds = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    if (!op.Launch()) {
      state.SkipWithError("the sample failed");
      return;
    }
    const double launch =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    state.SetIterationTime(launch);
    seconds += launch;
  }
  if (!op.Result(gamma.data(), beta.data())) {
    state.SkipWithError("the sample failed");
    return;
  }
  SetRate(state, bytes, seconds / static_cast<double>(state.iterations()));
  state.counters["blocked_GB/s"] = blocked;
  state.counters["x_blocked"] = state.counters["GB/s"] / blocked;
  state.SetLabel("threads=" + std::to_string(p.threads));
}

void RegisterAscendcSample() {
  benchmark::RegisterBenchmark("ascendc_sample/float", AscendcSample)
      ->Args({8, 4096, 1024, 8})
      ->ArgNames({"B", "S", "H", "blocks"})
      ->UseManualTime();
}
#endif  // NORMGRAD_BENCH_SAMPLE

// Passes every report on to `inner` with x_baseline added: a run's GB/s ÷
// the median GB/s of the reported repetitions of "baseline/<type>" with the
// same arguments (rows, cols, threads). Google Benchmark reports a
// benchmark's repetitions together after its last one (then, separately,
// their aggregates), and never reports the runs that chose its iteration
// count; the baselines are registered before the benchmarks they divide.
class RatioReporter : public benchmark::BenchmarkReporter {
 public:
  explicit RatioReporter(benchmark::BenchmarkReporter* inner) : inner_(inner) {}

  bool ReportContext(const Context& context) override {
    inner_->SetOutputStream(&GetOutputStream());
    inner_->SetErrorStream(&GetErrorStream());
    return inner_->ReportContext(context);
  }

  void ReportRuns(const std::vector<Run>& report) override {
    std::vector<Run> runs = report;
    if (!runs.empty() && runs[0].run_name.function_name.rfind("baseline/", 0) == 0) {
      std::vector<double> gbs;
      for (const Run& run : runs) {
        const auto it = run.counters.find("GB/s");
        if (run.run_type == Run::RT_Iteration && it != run.counters.end()) {
          gbs.push_back(it->second.value);
        }
      }
      if (!gbs.empty()) baselines()[Key(runs[0])] = Median(gbs);
    } else {
      for (Run& run : runs) AddRatio(&run);
    }
    inner_->ReportRuns(runs);
  }

  void Finalize() override { inner_->Finalize(); }

 private:
  // "float/rows:64/cols:64/threads:1" for "<name>/float" with those arguments.
  static std::string Key(const Run& run) {
    const std::string& name = run.run_name.function_name;
    return name.substr(name.rfind('/') + 1) + "/" + run.run_name.args;
  }

  // Shared by the display and the file reporter: both see the same runs.
  static std::map<std::string, double>& baselines() {
    static std::map<std::string, double> medians;
    return medians;
  }

  static void AddRatio(Run* run) {
    const auto base = baselines().find(Key(*run));
    const auto gbs = run->counters.find("GB/s");
    if (base == baselines().end() || gbs == run->counters.end()) return;
    // A coefficient of variation is the same for the ratio as for GB/s.
    run->counters["x_baseline"] =
        run->aggregate_name == "cv" ? gbs->second.value : gbs->second.value / base->second;
  }

  benchmark::BenchmarkReporter* inner_;  // not owned
};

// The reporter --benchmark_out writes with (--benchmark_out_format: json,
// the default, or console), or null without --benchmark_out or with the
// deprecated csv format, which Google Benchmark then writes itself, without
// x_baseline. Read from the command line before Google Benchmark consumes
// its flags.
std::unique_ptr<benchmark::BenchmarkReporter> FileReporter(int argc, char** argv) {
  bool out = false;
  std::string format = "json";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--benchmark_out=", 0) == 0) out = true;
    if (arg.rfind("--benchmark_out_format=", 0) == 0) format = arg.substr(arg.find('=') + 1);
  }
  if (!out || format == "csv") return nullptr;
  if (format == "console") {
    return std::make_unique<benchmark::ConsoleReporter>(benchmark::ConsoleReporter::OO_None);
  }
  return std::make_unique<benchmark::JSONReporter>();
}

}  // namespace

int main(int argc, char** argv) {
  Register();
#if defined(NORMGRAD_BENCH_SAMPLE)
  RegisterAscendcSample();
#endif
  RegisterLayerNormBackward();
  std::unique_ptr<benchmark::BenchmarkReporter> file = FileReporter(argc, argv);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  // Google Benchmark keeps the default display reporter for the program's life.
  RatioReporter display(benchmark::CreateDefaultDisplayReporter());
  RatioReporter file_ratios(file.get());
  benchmark::RunSpecifiedBenchmarks(&display, file ? &file_ratios : nullptr);
  benchmark::Shutdown();
  return 0;
}

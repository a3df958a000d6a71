// python/bench/call_times.cc — normgrad_call_times: the time of one engine
// call made from C++, the side of call_overhead.py (beside this file) that
// the Python package's calls are compared with. It times the calls the
// package makes (LayerNormGradBeta, LayerNormForward, LayerNormBackward,
// RmsNormForward, RmsNormBackward),
// writing into output buffers allocated once (as a C++ program calling the
// engine in a loop does) or new ones each call (as the Python functions,
// which return new arrays, must), and measures them as call_overhead.py
// measures Python calls: batches of calls, each batch long enough for the
// clock, the time of one call per batch as a sample.
//
//   normgrad_call_times API DTYPE ROWS COLS THREADS ORDER SAMPLES BATCH_US CLOCK OUTPUTS
//     API       grad_beta | forward | backward | rms_forward | rms_backward
//     DTYPE     float32 | float16 | bfloat16
//     THREADS   the engine's thread count (0: OpenMP's default)
//     ORDER     blocked | sequential (grad_beta and the backward passes)
//     SAMPLES   how many batches are timed
//     BATCH_US  the shortest batch, in microseconds (calls per batch follow)
//     CLOCK     wall (elapsed time) | thread (the calling thread's CPU time,
//               which leaves out the time other processes of a shared
//               machine take; for calls that run on the calling thread only)
//     OUTPUTS   reuse | fresh (new buffers from operator new each call,
//               their pages first touched by the engine)
//
// Prints one JSON object: the per-call times in microseconds of every
// sample ("us", in order), the calls per batch, and the engine's code path
// and thread count of the last call.
#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "normgrad/float16.h"
#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"
#include "normgrad/rms_norm.h"

namespace {

using normgrad::DType;

[[noreturn]] void Fail(const std::string& message) {
  std::fprintf(stderr, "normgrad_call_times: %s\n", message.c_str());
  std::exit(2);
}

DType DTypeOf(const std::string& name) {
  if (name == "float32") return DType::kF32;
  if (name == "float16") return DType::kF16;
  if (name == "bfloat16") return DType::kBF16;
  Fail("DTYPE \"" + name + "\" is not known; it must be float32, float16 or bfloat16");
}

size_t SizeArg(const char* text, const char* name) {
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0') {
    Fail(std::string(name) + " \"" + text + "\" is not a non-negative integer");
  }
  return static_cast<size_t>(value);
}

// `n` elements of type `t` holding small multiples of 1/64, exact in every
// type (the times do not depend on the values; no subnormals).
std::vector<uint8_t> Filled(DType t, size_t n, size_t seed) {
  std::vector<uint8_t> bytes(n * normgrad::SizeOf(t));
  for (size_t i = 0; i < n; ++i) {
    const float x = static_cast<float>(static_cast<int>((i * 7 + seed) % 251) - 125) / 64.0f;
    if (t == DType::kF32) {
      std::memcpy(bytes.data() + 4 * i, &x, 4);
    } else {
      const uint16_t b =
          t == DType::kF16 ? normgrad::float16(x).Bits() : normgrad::bfloat16(x).Bits();
      std::memcpy(bytes.data() + 2 * i, &b, 2);
    }
  }
  return bytes;
}

void Check(const normgrad::Status& s) {
  if (!s.ok()) Fail(s.message());
}

// Microseconds on `clock` (CLOCK_MONOTONIC or CLOCK_THREAD_CPUTIME_ID).
double NowUs(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) * 1e6 + static_cast<double>(t.tv_nsec) * 1e-3;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 11) {
    Fail(
        "usage: normgrad_call_times API DTYPE ROWS COLS THREADS ORDER SAMPLES BATCH_US CLOCK "
        "OUTPUTS");
  }
  const std::string api = argv[1];
  const DType t = DTypeOf(argv[2]);
  const size_t rows = SizeArg(argv[3], "ROWS"), cols = SizeArg(argv[4], "COLS");
  const int threads = static_cast<int>(SizeArg(argv[5], "THREADS"));
  const std::string order_name = argv[6];
  const size_t samples = SizeArg(argv[7], "SAMPLES");
  const double batch_us = static_cast<double>(SizeArg(argv[8], "BATCH_US"));
  const std::string clock_name = argv[9];
  if (clock_name != "wall" && clock_name != "thread") {
    Fail("CLOCK \"" + clock_name + "\" is not known; it must be wall or thread");
  }
  const clockid_t clock = clock_name == "wall" ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
  const std::string outputs = argv[10];
  if (outputs != "reuse" && outputs != "fresh") {
    Fail("OUTPUTS \"" + outputs + "\" is not known; it must be reuse or fresh");
  }
  if (order_name != "blocked" && order_name != "sequential") {
    Fail("ORDER \"" + order_name + "\" is not known; it must be blocked or sequential");
  }
  const normgrad::Order order =
      order_name == "blocked" ? normgrad::Order::kBlocked : normgrad::Order::kSequential;

  const std::vector<uint8_t> x = Filled(t, rows * cols, 0), dy = Filled(t, rows * cols, 3);
  const std::vector<uint8_t> gamma = Filled(t, cols, 5), beta = Filled(t, cols, 9);
  std::vector<uint8_t> y(x.size()), pd_gamma(gamma.size()), pd_beta(gamma.size());
  std::vector<float> mean(rows), rstd(rows);

  normgrad::LayerNormForwardProblem f;
  f.dtype = t;
  f.rows = rows;
  f.cols = cols;
  f.x = x.data();
  f.gamma = gamma.data();
  f.beta = beta.data();
  f.y = y.data();
  f.mean = mean.data();
  f.rstd = rstd.data();
  f.threads = threads;
  Check(normgrad::LayerNormForward(f));  // the statistics the backward pass reads

  std::function<void()> call;
  std::function<normgrad::RunInfo()> run_info = normgrad::LastLayerNormRunInfo;
  normgrad::GradBetaProblem g;
  normgrad::LayerNormBackwardProblem b;
  normgrad::RmsNormForwardProblem rf;
  normgrad::RmsNormBackwardProblem rb;
  if (api == "grad_beta") {
    g.dtype = t;
    g.rows = rows;
    g.cols = cols;
    g.dy = dy.data();
    g.res = x.data();
    g.pd_gamma = pd_gamma.data();
    g.pd_beta = pd_beta.data();
    g.order = order;
    g.threads = threads;
    call = [&] { Check(normgrad::LayerNormGradBeta(g)); };
    run_info = normgrad::LastRunInfo;
  } else if (api == "forward") {
    call = [&] { Check(normgrad::LayerNormForward(f)); };
  } else if (api == "backward") {
    b.dtype = t;
    b.rows = rows;
    b.cols = cols;
    b.x = x.data();
    b.dy = dy.data();
    b.gamma = gamma.data();
    b.mean = mean.data();
    b.rstd = rstd.data();
    b.dx = y.data();
    b.pd_gamma = pd_gamma.data();
    b.pd_beta = pd_beta.data();
    b.order = order;
    b.threads = threads;
    call = [&] { Check(normgrad::LayerNormBackward(b)); };
  } else if (api == "rms_forward") {
    rf.dtype = t;
    rf.rows = rows;
    rf.cols = cols;
    rf.x = x.data();
    rf.gamma = gamma.data();
    rf.y = y.data();
    rf.rstd = rstd.data();
    rf.threads = threads;
    call = [&] { Check(normgrad::RmsNormForward(rf)); };
    run_info = normgrad::LastRmsNormRunInfo;
  } else if (api == "rms_backward") {
    // Any float per-row values serve as rstd: the layer norm's, as
    // call_overhead.py gives the Python call.
    rb.dtype = t;
    rb.rows = rows;
    rb.cols = cols;
    rb.x = x.data();
    rb.dy = dy.data();
    rb.gamma = gamma.data();
    rb.rstd = rstd.data();
    rb.dx = y.data();
    rb.dgamma = pd_gamma.data();
    rb.order = order;
    rb.threads = threads;
    call = [&] { Check(normgrad::RmsNormBackward(rb)); };
    run_info = normgrad::LastRmsNormRunInfo;
  } else {
    Fail("API \"" + api +
         "\" is not known; it must be grad_beta, forward, backward, "
         "rms_forward or rms_backward");
  }
  if (outputs == "fresh") {  // every output of every API; each call uses its own
    call = [&, engine = call] {
      std::unique_ptr<uint8_t[]> rows_out(new uint8_t[x.size()]);
      std::unique_ptr<uint8_t[]> gamma_out(new uint8_t[gamma.size()]);
      std::unique_ptr<uint8_t[]> beta_out(new uint8_t[gamma.size()]);
      std::unique_ptr<float[]> mean_out(new float[rows]), rstd_out(new float[rows]);
      f.y = b.dx = rf.y = rb.dx = rows_out.get();
      g.pd_gamma = b.pd_gamma = rb.dgamma = gamma_out.get();
      g.pd_beta = b.pd_beta = beta_out.get();
      f.mean = mean_out.get();
      f.rstd = rf.rstd = rstd_out.get();
      engine();
    };
  }

  // Calls per batch: enough for batch_us, from the fastest of a few calls.
  double one_us = 1e30;
  for (int i = 0; i < 5; ++i) {
    const double start = NowUs(clock);
    call();
    one_us = std::min(one_us, NowUs(clock) - start);
  }
  const size_t batch = std::max<size_t>(1, static_cast<size_t>(batch_us / one_us));

  std::printf("{\"batch\": %zu, \"us\": [", batch);
  for (size_t s = 0; s < samples; ++s) {
    const double start = NowUs(clock);
    for (size_t i = 0; i < batch; ++i) call();
    const double us = NowUs(clock) - start;
    std::printf("%s%.4f", s > 0 ? ", " : "", us / static_cast<double>(batch));
  }
  const normgrad::RunInfo info = run_info();
  std::printf("], \"impl\": \"%s\", \"threads\": %d}\n", info.impl.c_str(), info.threads);
  return 0;
}

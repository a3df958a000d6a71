// bench/normgrad_flush.cc — what a "from memory" row of `normgrad bench`
// measures: the read baseline and the fused RMS-norm backward at 4096 x 4096
// in each element type, timed (a) as the bench timed a group without a peer
// before samples started flushed (each sample right after the other
// implementation's call on the same arrays) and (b) with every sample started from arrays
// flushed out of every cache level (cache_flush.h, over inputs and outputs;
// not timed), as `normgrad bench` now times its "memory" rows. Both ways interleaved, round by
// round, one call per sample, 2 threads. Prints each series' median and range in GB/s
// (build/bin/normgrad_flush [rounds]).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "cache_flush.h"
#include "normgrad/convert.h"
#include "normgrad/rms_norm.h"
#include "read_baseline.h"

namespace {

using normgrad::DType;

template <typename F>
double Seconds(F f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Series {
  const char* name;
  double bytes;
  std::vector<double> gbs;
};

void Print(const Series& s) {
  std::vector<double> v = s.gbs;
  std::sort(v.begin(), v.end());
  std::printf("%-34s median %6.1f GB/s  range %6.1f-%6.1f  (%zu samples)\n", s.name,
              v[v.size() / 2], v.front(), v.back(), v.size());
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 21;
  const size_t rows = 4096, cols = 4096, n = rows * cols;
  const int threads = 2;
  const DType types[] = {DType::kF32, DType::kF16, DType::kBF16};
  const char* names[] = {"float", "half", "bfloat16"};

  std::mt19937_64 rng(1);
  std::normal_distribution<float> normal;
  std::vector<float> values(n), gamma32(cols);
  for (float& v : values) v = normal(rng);
  for (float& v : gamma32) v = normal(rng);

  struct Arrays {
    std::vector<unsigned char> dy, x, gamma, dx, dgamma;
    std::vector<float> rstd;
  } a[3];
  std::vector<Series> series;
  for (int t = 0; t < 3; ++t) {
    const size_t size = normgrad::SizeOf(types[t]);
    Arrays& s = a[t];
    s.dy.resize(n * size);
    s.x.resize(n * size);
    s.dx.resize(n * size);
    s.gamma.resize(cols * size);
    s.dgamma.resize(cols * size);
    s.rstd.resize(rows);
    auto encode = [&](const float* src, unsigned char* dst, size_t count) {
      if (types[t] == DType::kF32) std::copy_n(src, count, reinterpret_cast<float*>(dst));
      if (types[t] == DType::kF16)
        normgrad::Narrow(src, reinterpret_cast<normgrad::float16*>(dst), count);
      if (types[t] == DType::kBF16)
        normgrad::Narrow(src, reinterpret_cast<normgrad::bfloat16*>(dst), count);
    };
    encode(values.data(), s.dy.data(), n);
    std::reverse(values.begin(), values.end());
    encode(values.data(), s.x.data(), n);
    encode(gamma32.data(), s.gamma.data(), cols);
  }
  for (const char* mode : {"unflushed", "flushed"}) {
    for (int t = 0; t < 3; ++t) {
      const double size = static_cast<double>(normgrad::SizeOf(types[t]));
      static char label[12][64];
      std::snprintf(label[series.size()], 64, "baseline %s, %s", names[t], mode);
      series.push_back({label[series.size()], 2 * n * size, {}});
      std::snprintf(label[series.size()], 64, "rms_bwd  %s, %s", names[t], mode);
      series.push_back({label[series.size()], 3 * n * size + 2 * cols * size + 4.0 * rows, {}});
    }
  }

  for (int round = 0; round < rounds; ++round) {
    for (int flushed = 0; flushed < 2; ++flushed) {
      for (int t = 0; t < 3; ++t) {
        Arrays& s = a[t];
        normgrad::RmsNormForwardProblem f;
        f.dtype = types[t];
        f.rows = rows;
        f.cols = cols;
        f.x = s.x.data();
        f.gamma = s.gamma.data();
        f.y = s.dx.data();
        f.rstd = s.rstd.data();
        f.threads = threads;
        if (round == 0 && flushed == 0 && !normgrad::RmsNormForward(f).ok()) return 1;
        normgrad::RmsNormBackwardProblem b;
        b.dtype = types[t];
        b.rows = rows;
        b.cols = cols;
        b.x = s.x.data();
        b.dy = s.dy.data();
        b.gamma = s.gamma.data();
        b.rstd = s.rstd.data();
        b.dx = s.dx.data();
        b.dgamma = s.dgamma.data();
        b.threads = threads;
        auto flush_all = [&] {
          if (!flushed) return;
          for (const auto* v : {&s.dy, &s.x, &s.dx, &s.gamma, &s.dgamma}) {
            normgrad::bench::FlushFromCaches(v->data(), v->size());
          }
          normgrad::bench::FlushFromCaches(s.rstd.data(), s.rstd.size() * sizeof(float));
          normgrad::bench::FlushFence();
        };
        Series& base = series[6 * flushed + 2 * t];
        Series& bwd = series[6 * flushed + 2 * t + 1];
        volatile float sink = 0;
        // Unflushed, the baseline's sample follows the backward's, as in the
        // bench's round robin of a group with no peer (half).
        if (!flushed && !normgrad::RmsNormBackward(b).ok()) return 1;
        // The baseline reads dy and x, as float arrays of the same bytes.
        flush_all();
        base.gbs.push_back(base.bytes / Seconds([&] {
                             sink = sink + normgrad::bench::SumTwoArrays(
                                               reinterpret_cast<const float*>(s.dy.data()),
                                               reinterpret_cast<const float*>(s.x.data()),
                                               s.dy.size() / 4, threads);
                           }) /
                           1e9);
        flush_all();
        bwd.gbs.push_back(bwd.bytes / Seconds([&] {
                            if (!normgrad::RmsNormBackward(b).ok()) std::exit(1);
                          }) /
                          1e9);
      }
    }
  }
  for (const Series& s : series) Print(s);
  return 0;
}

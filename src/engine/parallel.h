// engine/parallel.h — running a loop's iterations on OpenMP threads.
#pragma once

#include <omp.h>

#include <cstddef>

namespace normgrad::engine {

/// Runs body(i, worker) for i in [0, n) on up to `threads` threads (inline
/// when 1), in contiguous runs of i per thread; worker in [0, threads) names
/// the thread, for scratch of its own. Nothing in body may throw.
template <typename Body>
void ParallelForWorkers(int threads, size_t n, const Body& body) {
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) body(i, size_t{0});
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const auto worker = static_cast<size_t>(omp_get_thread_num());
#pragma omp for schedule(static)
    for (long long i = 0; i < static_cast<long long>(n); ++i) {
      body(static_cast<size_t>(i), worker);
    }
  }
}

/// Runs body(i) for i in [0, n) on up to `threads` threads (inline when 1).
template <typename Body>
void ParallelFor(int threads, size_t n, const Body& body) {
  ParallelForWorkers(threads, n, [&](size_t i, size_t) { body(i); });
}

}  // namespace normgrad::engine

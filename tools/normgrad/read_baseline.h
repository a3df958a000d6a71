// read_baseline.h — the read-bandwidth baseline every benchmark compares
// against: the sum of two float arrays, read once, vectorized (AVX2 where
// the CPU has it, eight independent sums) and split over threads. Shared by
// `normgrad bench` and the Google Benchmark suite (bench/normgrad_bench.cc).
#pragma once

#include <immintrin.h>
#include <omp.h>

#include <cstddef>

namespace normgrad::bench {

/// Σ a[i] + b[i] over [begin, end): eight independent vector sums.
__attribute__((target("avx2"))) inline float SumRangeAvx2(const float* a, const float* b,
                                                          size_t begin, size_t end) {
  __m256 s[8];
  for (__m256& v : s) v = _mm256_setzero_ps();
  size_t i = begin;
  for (; i + 32 <= end; i += 32) {
    for (int k = 0; k < 4; ++k) {
      s[k] = _mm256_add_ps(s[k], _mm256_loadu_ps(a + i + 8 * k));
      s[4 + k] = _mm256_add_ps(s[4 + k], _mm256_loadu_ps(b + i + 8 * k));
    }
  }
  float lanes[8];
  __m256 total = s[0];
  for (int k = 1; k < 8; ++k) total = _mm256_add_ps(total, s[k]);
  _mm256_storeu_ps(lanes, total);
  float sum = 0.0f;
  for (float v : lanes) sum += v;
  for (; i < end; ++i) sum += a[i] + b[i];
  return sum;
}

/// The same sum in portable C++ (sixteen independent sums).
inline float SumRangePortable(const float* a, const float* b, size_t begin, size_t end) {
  float s[16] = {};
  size_t i = begin;
  for (; i + 16 <= end; i += 16) {
    for (int k = 0; k < 16; ++k) s[k] += a[i + k] + b[i + k];
  }
  for (; i < end; ++i) s[0] += a[i] + b[i];
  float sum = 0.0f;
  for (float v : s) sum += v;
  return sum;
}

/// Reads both arrays once: `rows` rows of `row_floats` floats each, every
/// row split over `threads` threads (thread t reads its own range of every
/// row, ranges cut at multiples of `grain` floats); returns the sum so the
/// reads cannot be optimized away.
inline float SumRowPieces(const float* a, const float* b, size_t rows, size_t row_floats,
                          int threads, size_t grain) {
  static const bool avx2 = __builtin_cpu_supports("avx2");
  float total = 0.0f;
#pragma omp parallel num_threads(threads) reduction(+ : total)
  {
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = static_cast<size_t>(omp_get_num_threads());
    const size_t begin = row_floats * t / nt / grain * grain;
    const size_t end = t + 1 == nt ? row_floats : row_floats * (t + 1) / nt / grain * grain;
    for (size_t r = 0; r < rows; ++r) {
      const float* ra = a + r * row_floats;
      const float* rb = b + r * row_floats;
      total += avx2 ? SumRangeAvx2(ra, rb, begin, end) : SumRangePortable(ra, rb, begin, end);
    }
  }
  return total;
}

/// The baseline: both arrays of n floats read once, split over `threads`
/// threads in 64-float pieces.
inline float SumTwoArrays(const float* a, const float* b, size_t n, int threads) {
  return SumRowPieces(a, b, 1, n, threads, 64);
}

/// The same reads split the way the sequential order must split them: by
/// columns. Both arrays are `rows` rows of `row_floats` floats; each thread
/// reads its own range of every row (cut at 64-byte multiples), so each row
/// is read in `threads` pieces by different cores. Measures what the memory
/// system gives a column split.
inline float SumTwoArraysByColumns(const float* a, const float* b, size_t rows, size_t row_floats,
                                   int threads) {
  return SumRowPieces(a, b, rows, row_floats, threads, 16);
}

}  // namespace normgrad::bench

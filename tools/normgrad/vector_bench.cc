// tools/normgrad/vector_bench.cc — the vector unit rows of `normgrad bench`:
// the kernels of tools/normgrad/vector_bench.asc (compiled into the CLI
// through normgrad-cc's launch rewrite, tools/CMakeLists.txt) on emulated
// cores, and the plain loops they are compared with.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>

#include "commands.h"
#include "normgrad/convert.h"

#include "vector_bench_kernels.cpp"

namespace normgrad::cli {
namespace {

template <typename T>
std::string RunTimed(VectorKernel kind, uint32_t rows, uint32_t cols, uint32_t blocks,
                     const void* x, const void* y, void* out, uint32_t launches, double* seconds) {
  VectorBench<T> bench;
  if (!bench.Init(kind == VectorKernel::kRowSum, rows, cols, blocks, x, y) || !bench.Launch()) {
    return "the kernel failed (see above)";
  }
  *seconds = 0;
  for (uint32_t i = 0; i < launches; ++i) {
    const auto start = std::chrono::steady_clock::now();
    if (!bench.Launch()) return "the kernel failed (see above)";
    *seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  if (!bench.Result(out)) return "copying the result back failed";
  return "";
}

// Half steps through float: widened, computed, narrowed.
constexpr size_t kHalfPiece = 1024;

void AddLoop(DType dtype, size_t n, const void* x, const void* y, void* out, int threads) {
  if (dtype == DType::kF32) {
    const auto* a = static_cast<const float*>(x);
    const auto* b = static_cast<const float*>(y);
    auto* z = static_cast<float*>(out);
#pragma omp parallel for simd num_threads(threads) schedule(static)
    for (size_t i = 0; i < n; ++i) z[i] = a[i] + b[i];
    return;
  }
  const auto* a = static_cast<const float16*>(x);
  const auto* b = static_cast<const float16*>(y);
  auto* z = static_cast<float16*>(out);
  const size_t pieces = (n + kHalfPiece - 1) / kHalfPiece;
#pragma omp parallel for num_threads(threads) schedule(static)
  for (size_t p = 0; p < pieces; ++p) {
    float wa[kHalfPiece], wb[kHalfPiece];
    const size_t at = p * kHalfPiece, m = std::min(kHalfPiece, n - at);
    Widen(a + at, wa, m);
    Widen(b + at, wb, m);
    for (size_t i = 0; i < m; ++i) wa[i] += wb[i];
    Narrow(wa, z + at, m);
  }
}

void RowSumLoop(DType dtype, size_t rows, size_t cols, const void* x, void* out, int threads) {
#pragma omp parallel for num_threads(threads) schedule(static)
  for (size_t r = 0; r < rows; ++r) {
    float sum = 0.0f;
    if (dtype == DType::kF32) {
      const float* row = static_cast<const float*>(x) + r * cols;
#pragma omp simd reduction(+ : sum)
      for (size_t c = 0; c < cols; ++c) sum += row[c];
      static_cast<float*>(out)[r] = sum;
    } else {
      const float16* row = static_cast<const float16*>(x) + r * cols;
      float wide[kHalfPiece];
      for (size_t at = 0; at < cols; at += kHalfPiece) {
        const size_t m = std::min(kHalfPiece, cols - at);
        Widen(row + at, wide, m);
#pragma omp simd reduction(+ : sum)
        for (size_t c = 0; c < m; ++c) sum += wide[c];
      }
      Narrow(&sum, static_cast<float16*>(out) + r, 1);
    }
  }
}

}  // namespace

std::string RunVectorKernel(VectorKernel kind, DType dtype, size_t rows, size_t cols,
                            uint32_t blocks, const void* x, const void* y, void* out,
                            uint32_t launches, double* seconds) {
  if (dtype != DType::kF32 && dtype != DType::kF16) return "Add and ReduceSum take half or float";
  const size_t size = SizeOf(dtype);
  if (rows > 0xffffffffull || cols > 0xffffffffull / size) return "rows or cols over 32 bits";
  if (cols * size % 32 != 0) return "a row is not 32-byte aligned";
  const auto r = static_cast<uint32_t>(rows), c = static_cast<uint32_t>(cols);
  return dtype == DType::kF16 ? RunTimed<::half>(kind, r, c, blocks, x, y, out, launches, seconds)
                              : RunTimed<float>(kind, r, c, blocks, x, y, out, launches, seconds);
}

void VectorLoop(VectorKernel kind, DType dtype, size_t rows, size_t cols, const void* x,
                const void* y, void* out, int threads) {
  if (kind == VectorKernel::kAdd) {
    AddLoop(dtype, rows * cols, x, y, out, threads);
  } else {
    RowSumLoop(dtype, rows, cols, x, out, threads);
  }
}

}  // namespace normgrad::cli

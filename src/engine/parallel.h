// engine/parallel.h — pieces shared by the engine's drivers
// (layer_norm_grad_beta.cc, layer_norm.cc): running a loop's iterations on
// threads, and writing a float result in the output type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// Runs body(i) for i in [0, n) on `threads` threads (inline when 1).
template <typename Body>
void ParallelFor(int threads, size_t n, const Body& body) {
  if (threads <= 1 || n <= 1) {
    for (size_t i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(static)
  for (long long i = 0; i < static_cast<long long>(n); ++i) {
    body(static_cast<size_t>(i));
  }
}

/// Writes the `cols` floats of `acc` to `dst` as `out` (narrowed with the
/// instruction set's conversions, round half to even).
inline void WriteOutput(const kernels::Isa& isa, DType out, const float* acc, size_t cols,
                        void* dst) {
  switch (out) {
    case DType::kF32:
      std::memcpy(dst, acc, cols * sizeof(float));
      break;
    case DType::kF16:
      isa.narrow_f16(acc, static_cast<uint16_t*>(dst), cols);
      break;
    case DType::kBF16:
      isa.narrow_bf16(acc, static_cast<uint16_t*>(dst), cols);
      break;
  }
}

}  // namespace normgrad::engine

// kernels/kernels.h — the kernel registry: one entry per instruction set,
// fastest first, each with the primitives the engine's drivers are built
// from. Adding an instruction set means adding one source file and one line
// to Isas(); tests, benchmarks and NORMGRAD_IMPL all read this list.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace normgrad::kernels {

/// Adds rows [0, rows) of dy and res into the float accumulators, row after
/// row, for every column c in [0, cols):
///   acc_gamma[c] = fl(acc_gamma[c] + fl(dy[r][c] · res[r][c]))
///   acc_beta[c]  = fl(acc_beta[c] + dy[r][c])
/// with separate roundings (no fused multiply-add) — the device order of
/// spec §3. Row r starts `stride` elements after row r−1. 16-bit inputs are
/// widened to float exactly first.
template <typename In>
using AccumulateFn = void (*)(const In* dy, const In* res, size_t stride,
                              size_t rows, size_t cols, float* acc_gamma,
                              float* acc_beta);

/// The primitives of one instruction set.
struct Isa {
  const char* name;  ///< "avx2", "scalar"
  bool (*available)();
  AccumulateFn<float> accumulate_f32;
  AccumulateFn<uint16_t> accumulate_f16;   ///< binary16 bits
  AccumulateFn<uint16_t> accumulate_bf16;  ///< bfloat16 bits
  void (*add)(float* dst, const float* src, size_t n);  ///< dst[i] += src[i]
  void (*widen_f16)(const uint16_t* src, float* dst, size_t n);
  void (*narrow_f16)(const float* src, uint16_t* dst, size_t n);
  void (*widen_bf16)(const uint16_t* src, float* dst, size_t n);
  void (*narrow_bf16)(const float* src, uint16_t* dst, size_t n);
};

/// Every instruction set compiled in, fastest first; the last is "scalar"
/// (portable C++, always available).
const std::vector<Isa>& Isas();

/// The entry points of each instruction set's source file.
const Isa& ScalarIsa();
#if defined(NORMGRAD_HAVE_AVX2)
const Isa& Avx2Isa();
#endif

}  // namespace normgrad::kernels

// kernels/scalar.cc — the portable instruction set "scalar": plain C++ for
// any CPU (the compiler may still use the baseline vector unit, which keeps
// the bits: no contraction, IEEE float). Always available; the fallback that
// NORMGRAD_IMPL=scalar forces.
#include <cstdint>

#include "kernels/accumulate_inl.h"
#include "kernels/kernels.h"
#include "kernels/scalar_ops_inl.h"
#include "normgrad/float16.h"

namespace normgrad::kernels {
namespace {

void Add(float* dst, const float* src, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = dst[i] + src[i];
}

void WidenF16(const uint16_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = bits::HalfToFloat(src[i]);
}
void NarrowF16(const float* src, uint16_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = bits::FloatToHalf(src[i]);
}
void WidenBF16(const uint16_t* src, float* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = bits::Bfloat16ToFloat(src[i]);
}
void NarrowBF16(const float* src, uint16_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = bits::FloatToBfloat16(src[i]);
}

bool Always() { return true; }

}  // namespace

const Isa& ScalarIsa() {
  static const Isa isa = {"scalar",
                          Always,
                          AccumulateRows<ScalarF32>,
                          AccumulateRows<ScalarF16>,
                          AccumulateRows<ScalarBF16>,
                          Add,
                          WidenF16,
                          NarrowF16,
                          WidenBF16,
                          NarrowBF16,
                          ScalarLayerNormKernels()};
  return isa;
}

}  // namespace normgrad::kernels

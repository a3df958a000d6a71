// engine/convert.cc — bulk float ↔ 16-bit conversions through the dispatched
// instruction set (F16C on x86 when available).
#include "normgrad/convert.h"

#include "engine/dispatch.h"

namespace normgrad {
namespace {

const uint16_t* Raw(const float16* p) { return reinterpret_cast<const uint16_t*>(p); }
const uint16_t* Raw(const bfloat16* p) { return reinterpret_cast<const uint16_t*>(p); }
uint16_t* Raw(float16* p) { return reinterpret_cast<uint16_t*>(p); }
uint16_t* Raw(bfloat16* p) { return reinterpret_cast<uint16_t*>(p); }

}  // namespace

void Widen(const float16* src, float* dst, size_t n) noexcept {
  engine::ElementwiseIsa().widen_f16(Raw(src), dst, n);
}
void Widen(const bfloat16* src, float* dst, size_t n) noexcept {
  engine::ElementwiseIsa().widen_bf16(Raw(src), dst, n);
}
void Narrow(const float* src, float16* dst, size_t n) noexcept {
  engine::ElementwiseIsa().narrow_f16(src, Raw(dst), n);
}
void Narrow(const float* src, bfloat16* dst, size_t n) noexcept {
  engine::ElementwiseIsa().narrow_bf16(src, Raw(dst), n);
}

}  // namespace normgrad

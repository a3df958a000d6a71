// kernels/isa/neon_ops_inl.h — the "Ops" policies of the instruction set "neon"
// (64-bit Arm Advanced SIMD, 4 floats per vector, the base architecture's
// half conversions) for accumulate_inl.h and row_norms_inl.h, and the vector
// float → half / bfloat16 narrowing. Shared by neon.cc and
// layer_norm_neon.cc; everything here has internal linkage.
//
// Every aarch64 CPU has these instructions, so no run-time check and no
// target switch. Multiplies and adds stay separate (-ffp-contract=off on the
// engine's files) except in MulAdd, MulSub and NegMulAdd, fused as the
// scalar fallback's std::fma: the bits equal the scalar fallback's. There are no
// non-temporal store intrinsics; streaming stores are plain stores.
#pragma once

#include <arm_neon.h>

#include <cstddef>
#include <cstdint>

#include "normgrad/float16.h"

namespace normgrad::kernels {
namespace {

struct NeonF32 {
  using In = float;
  using Vec = float32x4_t;
  static constexpr size_t kLanes = 4;
  static Vec Zero() { return vdupq_n_f32(0.0f); }
  static Vec Set1(float v) { return vdupq_n_f32(v); }
  static float ToFloat(float v) { return v; }
  static float FromFloat(float v) { return v; }
  static Vec Load(const float* p) { return vld1q_f32(p); }
  static Vec LoadF32(const float* p) { return vld1q_f32(p); }
  static void StoreF32(float* p, Vec v) { vst1q_f32(p, v); }
  static void StreamF32(float* p, Vec v) { vst1q_f32(p, v); }
  static void Store(float* p, Vec v) { vst1q_f32(p, v); }
  static void Stream(float* p, Vec v) { vst1q_f32(p, v); }
  static void Fence() {}
  // TreeSum16 with the same pairs: adjacent lanes (vpaddq), then pairs of
  // those, …
  static float Sum16(float* lanes) {
    const float32x4_t low = vpaddq_f32(vld1q_f32(lanes), vld1q_f32(lanes + 4));
    const float32x4_t high = vpaddq_f32(vld1q_f32(lanes + 8), vld1q_f32(lanes + 12));
    const float32x4_t quads = vpaddq_f32(low, high);      // l0–3, l4–7, l8–11, l12–15
    const float32x4_t octets = vpaddq_f32(quads, quads);  // l0–7, l8–15, …
    return vgetq_lane_f32(octets, 0) + vgetq_lane_f32(octets, 1);
  }
  static Vec Add(Vec a, Vec b) { return vaddq_f32(a, b); }
  static Vec Sub(Vec a, Vec b) { return vsubq_f32(a, b); }
  static Vec Mul(Vec a, Vec b) { return vmulq_f32(a, b); }
  // Fused, one rounding: a·b + c, a·b − c (= −c + a·b), c − a·b.
  static Vec MulAdd(Vec a, Vec b, Vec c) { return vfmaq_f32(c, a, b); }
  static Vec MulSub(Vec a, Vec b, Vec c) { return vfmaq_f32(vnegq_f32(c), a, b); }
  static Vec NegMulAdd(Vec a, Vec b, Vec c) { return vfmsq_f32(c, a, b); }
};

// 16-bit inputs: four elements are one 64-bit load or store.
template <typename Convert>
struct NeonHalf16 : NeonF32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return Convert::ToFloat(v); }
  static uint16_t FromFloat(float v) { return Convert::FromFloat(v); }
  static Vec Load(const uint16_t* p) { return Convert::Widen(vld1_u16(p)); }
  static void Store(uint16_t* p, Vec v) { vst1_u16(p, Convert::Narrow(v)); }
  static void Stream(uint16_t* p, Vec v) { vst1_u16(p, Convert::Narrow(v)); }
};

// FCVT rounds to nearest even (the default rounding mode), keeps subnormals
// (flush-to-zero is off by default) and quiets a NaN keeping its top payload
// bits, as bits::FloatToHalf does.
struct F16ConvertNeon {
  static float ToFloat(uint16_t v) { return bits::HalfToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToHalf(v); }
  static float32x4_t Widen(uint16x4_t h) { return vcvt_f32_f16(vreinterpret_f16_u16(h)); }
  static uint16x4_t Narrow(float32x4_t v) { return vreinterpret_u16_f16(vcvt_f16_f32(v)); }
};

struct BF16ConvertNeon {
  static float ToFloat(uint16_t v) { return bits::Bfloat16ToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToBfloat16(v); }
  static float32x4_t Widen(uint16x4_t b) { return vreinterpretq_f32_u32(vshll_n_u16(b, 16)); }
  // Round half to even as bits::FloatToBfloat16: add 0x7fff plus the lowest
  // kept bit and keep the top 16 bits; a NaN becomes quiet (| 0x40 in the
  // kept half).
  static uint16x4_t Narrow(float32x4_t v) {
    const uint32x4_t x = vreinterpretq_u32_f32(v);
    const uint32x4_t high = vshrq_n_u32(x, 16);
    const uint32x4_t lsb = vandq_u32(high, vdupq_n_u32(1));
    const uint32x4_t rounded = vshrq_n_u32(vaddq_u32(vaddq_u32(x, vdupq_n_u32(0x7fff)), lsb), 16);
    const uint32x4_t quiet_nan = vorrq_u32(high, vdupq_n_u32(0x40));
    const uint32x4_t is_number = vceqq_f32(v, v);
    return vmovn_u32(vbslq_u32(is_number, rounded, quiet_nan));
  }
};

using NeonF16 = NeonHalf16<F16ConvertNeon>;
using NeonBF16 = NeonHalf16<BF16ConvertNeon>;

}  // namespace
}  // namespace normgrad::kernels

// kernels/isa/scalar_ops_inl.h — the "Ops" policies of the portable instruction
// set "scalar" (plain C++ floats, one lane; streaming stores are plain
// stores) for accumulate_inl.h and row_norms_inl.h. Shared by scalar.cc and
// layer_norm_scalar.cc; everything here has internal linkage.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/isa/row_norms_inl.h"  // TreeSum16, FusedMulAdd, …
#include "normgrad/float16.h"

namespace normgrad::kernels {
namespace {

struct ScalarF32 {
  using In = float;
  using Vec = float;
  static constexpr size_t kLanes = 1;
  static Vec Zero() { return 0.0f; }
  static Vec Set1(float v) { return v; }
  static float ToFloat(float v) { return v; }
  static float FromFloat(float v) { return v; }
  static Vec Load(const float* p) { return *p; }
  static Vec LoadF32(const float* p) { return *p; }
  static void StoreF32(float* p, Vec v) { *p = v; }
  static void StreamF32(float* p, Vec v) { *p = v; }
  static void Store(float* p, Vec v) { *p = v; }
  static void Stream(float* p, Vec v) { *p = v; }
  static void Fence() {}
  static float Sum16(float* lanes) { return TreeSum16(lanes); }
  static Vec Add(Vec a, Vec b) { return a + b; }
  static Vec Sub(Vec a, Vec b) { return a - b; }
  static Vec Mul(Vec a, Vec b) { return a * b; }
  static Vec MulAdd(Vec a, Vec b, Vec c) { return FusedMulAdd(a, b, c); }
  static Vec MulSub(Vec a, Vec b, Vec c) { return FusedMulSub(a, b, c); }
  static Vec NegMulAdd(Vec a, Vec b, Vec c) { return FusedNegMulAdd(a, b, c); }
};

struct ScalarF16 : ScalarF32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return bits::HalfToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToHalf(v); }
  static Vec Load(const uint16_t* p) { return ToFloat(*p); }
  static void Store(uint16_t* p, Vec v) { *p = FromFloat(v); }
  static void Stream(uint16_t* p, Vec v) { *p = FromFloat(v); }
};

struct ScalarBF16 : ScalarF32 {
  using In = uint16_t;
  static float ToFloat(uint16_t v) { return bits::Bfloat16ToFloat(v); }
  static uint16_t FromFloat(float v) { return bits::FloatToBfloat16(v); }
  static Vec Load(const uint16_t* p) { return ToFloat(*p); }
  static void Store(uint16_t* p, Vec v) { *p = FromFloat(v); }
  static void Stream(uint16_t* p, Vec v) { *p = FromFloat(v); }
};

}  // namespace
}  // namespace normgrad::kernels

// vector_ops.cc — the basic vector operations
// (normgrad_ascendc/vector/vector_ops.h): the per-profile element type check,
// the half, float and integer elementwise loops (the engine's, for the
// instruction set it picks at run time, NORMGRAD_IMPL included) and Div with
// subnormals flushed.
#include "normgrad_ascendc/vector/vector_ops.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

#include "ascendc/vector/vector_loops.h"
#include "engine/dispatch.h"
#include "kernels/kernels.h"
#include "normgrad/convert.h"

namespace normgrad_ascendc {

namespace {

double Load(CastType type, const void* src, uint32_t i) {
  switch (type) {
    case CastType::kHalf: {
      uint16_t h;
      std::memcpy(&h, static_cast<const uint16_t*>(src) + i, sizeof h);
      return normgrad::bits::HalfToFloat(h);
    }
    case CastType::kFloat: {
      float f;
      std::memcpy(&f, static_cast<const float*>(src) + i, sizeof f);
      return f;
    }
  }
  return 0;
}

int LoopIndex(ElementOp op) {
  using normgrad::kernels::VectorOp;
  switch (op) {
    case ElementOp::kAdd:
      return static_cast<int>(VectorOp::kAdd);
    case ElementOp::kSub:
      return static_cast<int>(VectorOp::kSub);
    case ElementOp::kMul:
      return static_cast<int>(VectorOp::kMul);
    case ElementOp::kDiv:
      return static_cast<int>(VectorOp::kDiv);
    case ElementOp::kMax:
      return static_cast<int>(VectorOp::kMax);
    case ElementOp::kMin:
      return static_cast<int>(VectorOp::kMin);
  }
  return 0;
}

// The float loop of `op` on the elementwise instruction set (b null: the
// scalar form).
void Floats(ElementOp op, float* d, const float* a, const float* b,
            float scalar, uint32_t n) {
  const normgrad::kernels::VectorKernels& k = VectorLoops().vector;
  const int i = LoopIndex(op);
  if (b != nullptr) {
    k.binary_f32[i](d, a, b, n);
  } else {
    k.scalar_f32[i](d, a, scalar, n);
  }
}

// half: steps of kHalfStep elements widened to float, computed, narrowed.
constexpr uint32_t kHalfStep = 256;

void Halves(ElementOp op, normgrad::float16* d, const normgrad::float16* a,
            const normgrad::float16* b, float scalar, uint32_t count) {
  const normgrad::kernels::Isa& isa = VectorLoops();
  const auto* a16 = reinterpret_cast<const uint16_t*>(a);
  const auto* b16 = reinterpret_cast<const uint16_t*>(b);
  auto* d16 = reinterpret_cast<uint16_t*>(d);
  float wa[kHalfStep], wb[kHalfStep];
  for (uint32_t at = 0; at < count; at += kHalfStep) {
    const uint32_t n = std::min(kHalfStep, count - at);
    isa.widen_f16(a16 + at, wa, n);
    if (b != nullptr) isa.widen_f16(b16 + at, wb, n);
    Floats(op, wa, wa, b != nullptr ? wb : nullptr, scalar, n);
    isa.narrow_f16(wa, d16 + at, n);
  }
}

// BinaryImpl (src1 set) and WithScalarImpl (src1 null).
void Elementwise(ElementOp op, CastType type, void* dst, const void* src0,
                 const void* src1, float scalar, uint32_t count) {
  if (type == CastType::kFloat) {
    Floats(op, static_cast<float*>(dst), static_cast<const float*>(src0),
           static_cast<const float*>(src1), scalar, count);
  } else {
    Halves(op, static_cast<normgrad::float16*>(dst),
           static_cast<const normgrad::float16*>(src0),
           static_cast<const normgrad::float16*>(src1), scalar, count);
  }
}

}  // namespace

namespace {

// "int16_t, half, float": the types of `bits`, in TypeBit order.
void TypeList(uint32_t bits, char (&out)[160]) {
  static constexpr const char* kNames[] = {
      "int8_t",  "uint8_t",  "int16_t", "uint16_t",   "int32_t", "uint32_t",
      "int64_t", "uint64_t", "half",    "bfloat16_t", "float"};
  out[0] = '\0';
  size_t at = 0;
  for (uint32_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    if ((bits >> i & 1) == 0) continue;
    const int n = std::snprintf(out + at, sizeof out - at, "%s%s",
                                at == 0 ? "" : ", ", kNames[i]);
    if (n < 0 || static_cast<size_t>(n) >= sizeof out - at) break;
    at += static_cast<size_t>(n);
  }
}

}  // namespace

const normgrad::kernels::Isa& VectorLoops() {
  static const normgrad::kernels::Isa& isa = normgrad::engine::ElementwiseIsa();
  return isa;
}

void CheckTypeRule(const char* api, const char* type, uint32_t bit,
                   const TypeRule& rule, bool count_form) {
  const ProfileInfo& profile = CurrentCore().profile();
  uint32_t every = 0, count_only = 0;
  switch (profile.profile) {
    case Profile::kA2:
      every = rule.a2;
      break;
    case Profile::k310P:
      every = rule.p310;
      break;
    case Profile::k950:
      every = rule.p950;
      count_only = rule.p950_count;
      break;
  }
  if ((every & bit) != 0 || (count_form && (count_only & bit) != 0)) return;
  if ((every | count_only) == 0) {
    Fail("%s<%s>: %s is not available on profile %s", api, type, api,
         profile.name);
  }
  char types[160];
  TypeList(every, types);
  if ((count_only & bit) != 0) {
    Fail(
        "%s<%s>: element type %s takes only the count form on profile %s "
        "(the mask forms of %s take %s there)",
        api, type, type, profile.name, api, types);
  }
  TypeList(every | count_only, types);
  Fail(
      "%s<%s>: element type %s is not supported on profile %s (%s takes %s "
      "there)",
      api, type, type, profile.name, api, types);
}

float FlushSubnormal(CastType type, float x) {
  const float smallest_normal =
      type == CastType::kHalf ? 0x1p-14f : std::numeric_limits<float>::min();
  return std::fabs(x) < smallest_normal ? std::copysign(0.0f, x) : x;
}

void DivFlushImpl(CastType type, void* dst, const void* src0, const void* src1,
                  uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const float x =
        FlushSubnormal(type, static_cast<float>(Load(type, src0, i)));
    const float y =
        FlushSubnormal(type, static_cast<float>(Load(type, src1, i)));
    if (type == CastType::kFloat) {
      const float r = FlushSubnormal(type, x / y);
      std::memcpy(static_cast<float*>(dst) + i, &r, sizeof r);
    } else {
      // Rounded to half once, then flushed if subnormal there.
      const float r =
          normgrad::bits::HalfToFloat(normgrad::bits::FloatToHalf(x / y));
      const uint16_t h = normgrad::bits::FloatToHalf(FlushSubnormal(type, r));
      std::memcpy(static_cast<uint16_t*>(dst) + i, &h, sizeof h);
    }
  }
}

void BinaryImpl(ElementOp op, CastType type, void* dst, const void* src0,
                const void* src1, uint32_t count) {
  Elementwise(op, type, dst, src0, src1, 0.0f, count);
}

void IntegerImpl(ElementOp op, uint32_t bytes, bool is_signed, void* dst,
                 const void* src0, const void* src1, uint64_t scalar,
                 uint32_t count) {
  // ElementOp and kernels::VectorOp list the operations in the same order.
  const int size_log2 = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 3;
  VectorLoops()
      .vector.int_ops[size_log2][is_signed ? 1 : 0][static_cast<int>(op)](
          dst, src0, src1, scalar, count);
}

void WithScalarImpl(ElementOp op, CastType type, void* dst, const void* src,
                    float scalar, uint32_t count) {
  Elementwise(op, type, dst, src, nullptr, scalar, count);
}

}  // namespace normgrad_ascendc

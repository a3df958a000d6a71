// vector_math.cc — the vector unit's Exp, Ln, Sqrt, Rsqrt and Reciprocal on
// half and float with their configurations' subnormal handling, Abs, Relu
// and LeakyRelu of half and float, the shifts of 16- and 32-bit integers,
// And, Or, Not (and Ands, Ors) of every element type, and the checks of
// configurations and shift counts (normgrad_ascendc/vector/vector_math.h). All
// but Exp and Ln (and the configurations that flush subnormals or limit the
// range) run the engine's loops for the instruction set it picks
// (kernels::VectorKernels; half through float where the instruction
// computes in float), with the bits of the element functions.
#include "normgrad_ascendc/vector/vector_math.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "ascendc/vector/vector_loops.h"
#include "kernels/kernels.h"
#include "normgrad/convert.h"

namespace normgrad_ascendc {

namespace {

// The float result of `op`: computed in double and rounded once.
float MathFloat(MathOp op, bool fast_inverse, float x) {
  const double v = x;
  // FAST_INVERSE is defined on [0, 2^126]; above it Sqrt gives 0 and Rsqrt
  // gives +inf.
  if (fast_inverse && x > 0x1p126f) {
    return op == MathOp::kSqrt ? 0.0f : std::numeric_limits<float>::infinity();
  }
  switch (op) {
    case MathOp::kExp:
      return static_cast<float>(std::exp(v));
    case MathOp::kLn:
      return static_cast<float>(std::log(v));
    case MathOp::kSqrt:
      return static_cast<float>(std::sqrt(v));
    case MathOp::kRsqrt:
      return static_cast<float>(1.0 / std::sqrt(v));
    case MathOp::kReciprocal:
      return static_cast<float>(1.0 / v);
  }
  return x;
}

const normgrad::kernels::VectorKernels& Loops() { return VectorLoops().vector; }

// half: steps of kHalfStep elements widened to float, `run` over the floats
// in place, narrowed (one rounding: the float result is what the element
// function rounds to half).
constexpr uint32_t kHalfStep = 256;

template <typename Run>
void ThroughFloat(void* dst, const void* src, uint32_t count, Run run) {
  auto* d = static_cast<normgrad::float16*>(dst);
  const auto* s = static_cast<const normgrad::float16*>(src);
  float w[kHalfStep];
  for (uint32_t at = 0; at < count; at += kHalfStep) {
    const uint32_t n = std::min(kHalfStep, count - at);
    normgrad::Widen(s + at, w, n);
    run(w, n);
    normgrad::Narrow(w, d + at, n);
  }
}

// The loop of Sqrt, Rsqrt and Reciprocal when it gives MathFloat's bits:
// float √x and 1/x are correctly rounded, as is the double result rounded
// once to float (a double holds more than twice float's digits plus two, so
// the second rounding never changes the first's result); Rsqrt's loop
// computes in double as MathFloat does. The configurations that flush
// subnormals or limit the range keep the element loop.
using FloatLoop = void (*)(float* d, const float* a, size_t n);
FloatLoop FastMath(const MathParams& p) {
  using normgrad::kernels::UnaryOp;
  if (p.flush || p.fast_inverse) return nullptr;
  if (p.op == MathOp::kSqrt)
    return Loops().unary_f32[static_cast<int>(UnaryOp::kSqrt)];
  if (p.op == MathOp::kRsqrt)
    return Loops().unary_f32[static_cast<int>(UnaryOp::kRsqrt)];
  if (p.op == MathOp::kReciprocal) {
    return Loops().unary_f32[static_cast<int>(UnaryOp::kReciprocal)];
  }
  return nullptr;
}

}  // namespace

void UnaryBitsImpl(BitOp op, CastType type, void* dst, const void* src,
                   uint32_t count) {
  using normgrad::kernels::UnaryOp;
  const normgrad::kernels::VectorKernels& k = Loops();
  if (type == CastType::kFloat) {
    const UnaryOp u = op == BitOp::kAbs ? UnaryOp::kAbs : UnaryOp::kRelu;
    k.unary_f32[static_cast<int>(u)](static_cast<float*>(dst),
                                     static_cast<const float*>(src), count);
  } else {
    (op == BitOp::kAbs ? k.abs_f16 : k.relu_f16)(
        static_cast<uint16_t*>(dst), static_cast<const uint16_t*>(src), count);
  }
}

void LogicImpl(BitOp op, uint32_t bytes, void* dst, const void* src0,
               const void* src1, uint64_t scalar, uint32_t count) {
  using normgrad::kernels::LogicOp;
  const LogicOp l = op == BitOp::kAnd  ? LogicOp::kAnd
                    : op == BitOp::kOr ? LogicOp::kOr
                                       : LogicOp::kNot;
  Loops().logic[static_cast<int>(l)](dst, src0, src1, scalar, bytes, count);
}

void ShiftImpl(uint32_t bytes, bool is_signed, const ShiftParams& p, void* dst,
               const void* src, uint32_t count) {
  // roundEn adds the last bit shifted out (ShiftValue).
  const int round_bit =
      p.round && p.count >= 1 ? static_cast<int>(p.count - 1) : -1;
  const auto shift = static_cast<uint32_t>(p.count);
  const normgrad::kernels::VectorKernels& k = Loops();
  if (bytes == 2) {
    k.shift16[is_signed][!p.left](static_cast<uint16_t*>(dst),
                                  static_cast<const uint16_t*>(src), shift,
                                  round_bit, count);
  } else {
    k.shift32[is_signed][!p.left](static_cast<uint32_t*>(dst),
                                  static_cast<const uint32_t*>(src), shift,
                                  round_bit, count);
  }
}

void LeakyReluImpl(CastType type, void* dst, const void* src, float slope,
                   uint32_t count) {
  const auto loop = Loops().leaky_relu_f32;
  if (type == CastType::kFloat) {
    loop(static_cast<float*>(dst), static_cast<const float*>(src), slope,
         count);
    return;
  }
  // x ≥ 0 gives x back (widened and narrowed exactly); a half times a half
  // is exact in float, so the product is rounded once, to half.
  ThroughFloat(dst, src, count,
               [&](float* w, uint32_t n) { loop(w, w, slope, n); });
}

void MathImpl(CastType type, const MathParams& p, void* dst, const void* src,
              uint32_t count) {
  const auto flush = [&](float v) {
    return p.flush ? FlushSubnormal(type, v) : v;
  };
  if (const auto fast = FastMath(p)) {
    if (type == CastType::kFloat) {
      fast(static_cast<float*>(dst), static_cast<const float*>(src), count);
    } else {
      ThroughFloat(dst, src, count,
                   [&](float* w, uint32_t n) { fast(w, w, n); });
    }
    return;
  }
  if (type == CastType::kFloat) {
    float* d = static_cast<float*>(dst);
    const float* s = static_cast<const float*>(src);
    for (uint32_t i = 0; i < count; ++i) {
      d[i] = flush(MathFloat(p.op, p.fast_inverse, flush(s[i])));
    }
    return;
  }
  // half: widened, computed as float, rounded once to half.
  normgrad::float16* d = static_cast<normgrad::float16*>(dst);
  const normgrad::float16* s = static_cast<const normgrad::float16*>(src);
  for (uint32_t i = 0; i < count; ++i) {
    const normgrad::float16 r(
        MathFloat(p.op, false, flush(static_cast<float>(s[i]))));
    d[i] = normgrad::float16(flush(static_cast<float>(r)));
  }
}

MathParams MathParamsOf(const char* api, const char* type, MathOp op, int algo,
                        bool flushes, bool fast_inverse, bool float_only,
                        bool is_float) {
  const bool on950 = OnProfile950();
  if (algo != 0 && !on950) {
    Fail(
        "%s<%s>: config.algo %d is available on profile Ascend 950 only; "
        "use the default configuration elsewhere",
        api, type, algo);
  }
  if (float_only && !is_float) {
    Fail("%s<%s>: config.algo %d takes float only", api, type, algo);
  }
  MathParams p{op};
  p.flush = on950 && flushes;
  p.fast_inverse = fast_inverse;
  return p;
}

void CheckShiftCount(const char* api, const char* type, int64_t count,
                     uint32_t bits) {
  const ProfileInfo& profile = CurrentCore().profile();
  if (count < 0) {
    Fail("%s<%s>: scalarValue %lld is negative; a shift count is at least 0",
         api, type, static_cast<long long>(count));
  }
  if (profile.profile != Profile::k950 && count > bits) {
    Fail(
        "%s<%s>: scalarValue %lld is out of range (0..%u for %u-bit elements "
        "on profile %s)",
        api, type, static_cast<long long>(count), bits, bits, profile.name);
  }
}

void FailNegativeShift(const TensorShiftParams& p, long long count) {
  Fail("%s<%s>: src1 holds the shift count %lld; shift counts are at least 0",
       p.api, p.type, count);
}

void CheckMullDestinations(const char* type, const TensorView& dst0,
                           const TensorView& dst1, uint64_t bytes) {
  // Operands that are not UB tensors are reported by the executor.
  if (bytes == 0 || !dst0.IsUbOperand() || !dst1.IsUbOperand() ||
      dst0.core != dst1.core) {
    return;
  }
  const uint64_t a = dst0.offset, b = dst1.offset;
  if (a < b + bytes && b < a + bytes) {
    Fail(
        "Mull<%s>: dst0 (UB bytes %llu..%llu) overlaps dst1 (UB bytes "
        "%llu..%llu); the low and high words go to separate destinations",
        type, static_cast<unsigned long long>(a),
        static_cast<unsigned long long>(a + bytes - 1),
        static_cast<unsigned long long>(b),
        static_cast<unsigned long long>(b + bytes - 1));
  }
}

}  // namespace normgrad_ascendc

// vector_math.cc — the vector unit's Exp, Ln, Sqrt, Rsqrt and Reciprocal on
// half and float with their configurations' subnormal handling, and the
// checks of configurations and shift counts (normgrad_ascendc/vector_math.h).
#include "normgrad_ascendc/vector_math.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

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

}  // namespace

void MathImpl(CastType type, const MathParams& p, void* dst, const void* src,
              uint32_t count) {
  const auto flush = [&](float v) {
    return p.flush ? FlushSubnormal(type, v) : v;
  };
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

}  // namespace normgrad_ascendc

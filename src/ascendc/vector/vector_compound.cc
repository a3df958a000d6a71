// vector_compound.cc — the element functions of the compound instructions,
// the type pairs each takes per profile, and their checks
// (normgrad_ascendc/vector/vector_compound.h). The float and half forms of
// Axpy, FusedMulAdd, MulAddDst, AddRelu, SubRelu and MulAddRelu (and Axpy and
// MulAddDst from half into float), and the narrowing AddReluCast,
// SubReluCast and MulCast of half, int16_t and float sources, run the
// engine's loops for the instruction set it picks (kernels::VectorKernels),
// half through float, with the element functions' bits.
#include "normgrad_ascendc/vector/vector_compound.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

#include "ascendc/vector/vector_loops.h"
#include "kernels/kernels.h"
#include "normgrad/convert.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/vector/vector_math.h"

namespace normgrad_ascendc {

namespace {

// ---- Element functions ----

// x in the destination's type: half widens exactly to float.
template <typename D, typename S>
D Widen(S x) {
  if constexpr (std::is_same_v<D, S>) {
    return x;
  } else {
    return static_cast<D>(static_cast<float>(x));
  }
}

template <typename T>
T Relu(T x) {
  return ExactUnary<BitOp::kRelu>(x);
}

template <typename I, typename W>
I SaturateInteger(W x) {
  if (x < static_cast<W>(std::numeric_limits<I>::min())) {
    return std::numeric_limits<I>::min();
  }
  if (x > static_cast<W>(std::numeric_limits<I>::max())) {
    return std::numeric_limits<I>::max();
  }
  return static_cast<I>(x);
}

constexpr float kHalfMax = 65504.0f;

// float → half, rounded to nearest with ties away from zero; a finite
// value beyond half's range becomes ±65504, ±inf and NaN stay.
half HalfRoundSaturated(float x) {
  if (!std::isfinite(x)) return half(x);
  const double a = std::fabs(static_cast<double>(x));
  if (a >= kHalfMax) return half(std::copysign(kHalfMax, x));
  // The spacing of halves at a: 2^-24 below 2^-14, else 2^(e - 10).
  const double ulp =
      a < 0x1p-14 ? 0x1p-24 : std::ldexp(1.0, std::ilogb(a) - 10);
  const double rounded = std::floor(a / ulp + 0.5) * ulp;
  return half(static_cast<float>(std::copysign(
      rounded > kHalfMax ? static_cast<double>(kHalfMax) : rounded,
      static_cast<double>(x))));
}

// The documented narrowing conversions of the compound instructions (the
// pairs of kNarrowingLoops narrow in NarrowingSpan).
template <typename D, typename S>
D Narrow(S x) {
  if constexpr (std::is_same_v<D, float>) {
    return static_cast<float>(x);  // from int64_t, to nearest even
  } else {
    return SaturateInteger<D>(x);  // int64_t → int32_t
  }
}

template <ElementOp kOp, typename T>
T Op(T a, T b) {
  return ElementValue<kOp>(a, b);
}

// One element: `old` the destination's value (read only where the
// instruction reads dst), a and b the sources (b: the scalar of Axpy and
// MulsCast).
template <Compound kOp, typename D, typename S>
D Element([[maybe_unused]] D old, S a, S b) {
  if constexpr (kOp == Compound::kAxpy || kOp == Compound::kMulAddDst) {
    return Op<ElementOp::kAdd>(Op<ElementOp::kMul>(Widen<D>(a), Widen<D>(b)),
                               old);
  } else if constexpr (kOp == Compound::kFusedMulAdd) {
    return Op<ElementOp::kAdd>(Op<ElementOp::kMul>(a, old), b);
  } else if constexpr (kOp == Compound::kMulAddRelu) {
    return Relu(Op<ElementOp::kAdd>(Op<ElementOp::kMul>(a, old), b));
  } else if constexpr (kOp == Compound::kAddRelu) {
    return Relu(Op<ElementOp::kAdd>(a, b));
  } else if constexpr (kOp == Compound::kSubRelu) {
    return Relu(Op<ElementOp::kSub>(a, b));
  } else if constexpr (kOp == Compound::kAddReluCast) {
    return Narrow<D>(Relu(Op<ElementOp::kAdd>(a, b)));
  } else if constexpr (kOp == Compound::kSubReluCast) {
    return Narrow<D>(Relu(Op<ElementOp::kSub>(a, b)));
  } else if constexpr (kOp == Compound::kMulCast) {
    return Narrow<D>(Op<ElementOp::kMul>(a, b));
  } else if constexpr (kOp == Compound::kAbsSub) {
    return ExactUnary<BitOp::kAbs>(Op<ElementOp::kSub>(a, b));
  } else if constexpr (kOp == Compound::kExpSub) {
    const float x = static_cast<float>(a) - static_cast<float>(b);
    return static_cast<D>(static_cast<float>(std::exp(static_cast<double>(x))));
  } else {
    static_assert(kOp == Compound::kMulsCast);
    return HalfRoundSaturated(a * b);
  }
}

template <Compound kOp>
constexpr bool kReadsDst =
    kOp == Compound::kAxpy || kOp == Compound::kFusedMulAdd ||
    kOp == Compound::kMulAddDst || kOp == Compound::kMulAddRelu;
template <Compound kOp>
constexpr bool kScalarSource =
    kOp == Compound::kAxpy || kOp == Compound::kMulsCast;

// Elements of half sources widened to float at a time.
constexpr uint32_t kStep = 256;

// The engine's loop of a float compound, or -1 where there is none.
template <Compound kOp>
constexpr int kFloatLoop = [] {
  using normgrad::kernels::CompoundOp;
  switch (kOp) {
    case Compound::kAxpy:
      return static_cast<int>(CompoundOp::kAxpy);
    case Compound::kFusedMulAdd:
      return static_cast<int>(CompoundOp::kFusedMulAdd);
    case Compound::kMulAddDst:
      return static_cast<int>(CompoundOp::kMulAddDst);
    case Compound::kAddRelu:
      return static_cast<int>(CompoundOp::kAddRelu);
    case Compound::kSubRelu:
      return static_cast<int>(CompoundOp::kSubRelu);
    case Compound::kMulAddRelu:
      return static_cast<int>(CompoundOp::kMulAddRelu);
    default:
      return -1;
  }
}();

template <Compound kOp, typename D, typename S>
void SpanElements(const SpanArgs& args) {
  D* d = static_cast<D*>(args.operand[0]);
  const S* a = static_cast<const S*>(args.operand[1]);
  if constexpr (kScalarSource<kOp>) {
    S scalar;
    std::memcpy(static_cast<void*>(&scalar), args.params, sizeof scalar);
    for (uint32_t i = 0; i < args.n; ++i) {
      d[i] = Element<kOp, D, S>(d[i], a[i], scalar);
    }
  } else {
    const S* b = static_cast<const S*>(args.operand[2]);
    for (uint32_t i = 0; i < args.n; ++i) {
      d[i] = Element<kOp, D, S>(kReadsDst<kOp> ? d[i] : D{}, a[i], b[i]);
    }
  }
}

const normgrad::kernels::VectorKernels& Loops() { return VectorLoops().vector; }

// A compound of half sources on the engine's loops: into half, every step
// rounded to half (kernels::VectorKernels::compound_f16); into float (Axpy
// and MulAddDst from half), the sources widened kStep elements at a time
// and one float step (the product of widened halves is exact).
template <Compound kOp, typename D>
void HalfSpan(const SpanArgs& args, int loop) {
  const normgrad::kernels::VectorKernels& k = Loops();
  const half* a = static_cast<const half*>(args.operand[1]);
  const half* b =
      kScalarSource<kOp> ? nullptr : static_cast<const half*>(args.operand[2]);
  float scalar = 0.0f;
  if constexpr (kScalarSource<kOp>) {
    half s;
    std::memcpy(static_cast<void*>(&s), args.params, sizeof s);
    scalar = static_cast<float>(s);
  }
  if constexpr (std::is_same_v<D, half>) {
    k.compound_f16[loop](static_cast<uint16_t*>(args.operand[0]),
                         reinterpret_cast<const uint16_t*>(a),
                         reinterpret_cast<const uint16_t*>(b), scalar, args.n);
  } else {
    static_assert(kOp == Compound::kAxpy || kOp == Compound::kMulAddDst);
    D* d = static_cast<D*>(args.operand[0]);
    float x[kStep], y[kStep];
    for (uint32_t at = 0; at < args.n; at += kStep) {
      const uint32_t n = std::min(kStep, args.n - at);
      normgrad::Widen(a + at, x, n);
      if (b != nullptr) normgrad::Widen(b + at, y, n);
      k.compound_f32[loop](d + at, x, y, scalar, n);
    }
  }
}

// The narrowing compounds whose pairs run the engine's loops: AddReluCast
// and SubReluCast of half into int8_t, of int16_t into int8_t and of float
// into half; MulCast of half into int8_t and uint8_t.
template <Compound kOp, typename D, typename S>
constexpr bool kNarrowingLoops =
    (kOp == Compound::kAddReluCast || kOp == Compound::kSubReluCast ||
     kOp == Compound::kMulCast) &&
    ((std::is_same_v<S, half> &&
      (std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t>)) ||
     (std::is_same_v<S, int16_t> && std::is_same_v<D, int8_t>) ||
     (std::is_same_v<S, float> && std::is_same_v<D, half>));

// A narrowing compound with the element function's bits: of int16_t
// sources one loop; of half and float ones kStep elements at a time, the
// step (Relu after it but for MulCast) in float, then the narrowing. Of
// half sources the step is rounded to half before the narrowing to an
// integer (Relu before that rounding gives the same: both keep the sign,
// and −0 and +0 give 0); of float sources a finite result past half's
// largest is that largest (relu_step_f32).
template <Compound kOp, typename D, typename S>
void NarrowingSpan(const SpanArgs& args) {
  using normgrad::kernels::CastRound;
  using normgrad::kernels::CastType;
  using normgrad::kernels::UnaryOp;
  using normgrad::kernels::VectorOp;
  const normgrad::kernels::VectorKernels& k = Loops();
  constexpr bool kRelu = kOp != Compound::kMulCast;
  constexpr VectorOp kStepOp = kOp == Compound::kAddReluCast   ? VectorOp::kAdd
                               : kOp == Compound::kSubReluCast ? VectorOp::kSub
                                                               : VectorOp::kMul;
  D* d = static_cast<D*>(args.operand[0]);
  const S* a = static_cast<const S*>(args.operand[1]);
  const S* b = static_cast<const S*>(args.operand[2]);
  if constexpr (std::is_same_v<S, int16_t>) {
    k.relu_cast_i16_i8[kStepOp == VectorOp::kSub](d, a, b, args.n);
    return;
  }
  for (uint32_t at = 0; at < args.n; at += kStep) {
    const uint32_t n = std::min(kStep, args.n - at);
    if constexpr (std::is_same_v<S, float>) {
      float x[kStep];
      k.relu_step_f32[kStepOp == VectorOp::kSub](x, a + at, b + at, n);
      normgrad::Narrow(x, d + at, n);
    } else if constexpr (std::is_same_v<S, half>) {
      float x[kStep], y[kStep];
      normgrad::Widen(a + at, x, n);
      normgrad::Widen(b + at, y, n);
      k.binary_f32[static_cast<int>(kStepOp)](x, x, y, n);
      if (kRelu) k.unary_f32[static_cast<int>(UnaryOp::kRelu)](x, x, n);
      half h[kStep];
      normgrad::Narrow(x, h, n);
      constexpr CastType kTo =
          std::is_same_v<D, int8_t> ? CastType::kI8 : CastType::kU8;
      k.cast[static_cast<int>(CastType::kF16)][static_cast<int>(kTo)]
            [static_cast<int>(CastRound::kRint)](d + at, h, n);
    }
  }
}

template <Compound kOp, typename D, typename S>
void Span(const SpanArgs& args) {
  constexpr int kLoop = kFloatLoop<kOp>;
  if constexpr (kLoop >= 0 && std::is_same_v<D, float> &&
                std::is_same_v<S, float>) {
    float scalar = 0.0f;
    if constexpr (kScalarSource<kOp>)
      std::memcpy(&scalar, args.params, sizeof scalar);
    Loops().compound_f32[kLoop](
        static_cast<float*>(args.operand[0]),
        static_cast<const float*>(args.operand[1]),
        kScalarSource<kOp> ? nullptr
                           : static_cast<const float*>(args.operand[2]),
        scalar, args.n);
  } else if constexpr (kLoop >= 0 && std::is_same_v<S, half> &&
                       (std::is_same_v<D, half> || std::is_same_v<D, float>)) {
    HalfSpan<kOp, D>(args, kLoop);
  } else if constexpr (kNarrowingLoops<kOp, D, S>) {
    NarrowingSpan<kOp, D, S>(args);
  } else {
    SpanElements<kOp, D, S>(args);
  }
}

// ---- Types per profile ----

constexpr uint8_t kA2 = 1u << static_cast<int>(Profile::kA2);
constexpr uint8_t k310 = 1u << static_cast<int>(Profile::k310P);
constexpr uint8_t k950 = 1u << static_cast<int>(Profile::k950);
constexpr uint8_t kAll = kA2 | k310 | k950;

// A pair an instruction takes: the profiles with every form, and those
// with the count form only.
struct Pair {
  Compound op;
  uint32_t dst;
  uint32_t src;
  uint8_t every;
  uint8_t count_only;
  SpanFn span;
};

template <Compound kOp, typename D, typename S>
constexpr Pair Takes(uint8_t every, uint8_t count_only = 0) {
  return {kOp,   TypeBitOf<D>(), TypeBitOf<S>(),
          every, count_only,     &Span<kOp, D, S>};
}

// The instructions whose 950 profile adds int64_t and uint64_t in the count
// form.
#define NORMGRAD_COUNT_INT64(kOp) \
  Takes<kOp, int64_t, int64_t>(0, k950), Takes<kOp, uint64_t, uint64_t>(0, k950)

constexpr Pair kPairs[] = {
    Takes<Compound::kAxpy, half, half>(kAll),
    Takes<Compound::kAxpy, float, float>(kAll),
    Takes<Compound::kAxpy, float, half>(kAll),
    Takes<Compound::kAxpy, bfloat16_t, bfloat16_t>(k950),
    NORMGRAD_COUNT_INT64(Compound::kAxpy),
    Takes<Compound::kFusedMulAdd, half, half>(kAll),
    Takes<Compound::kFusedMulAdd, float, float>(kAll),
    Takes<Compound::kFusedMulAdd, bfloat16_t, bfloat16_t>(k950),
    NORMGRAD_COUNT_INT64(Compound::kFusedMulAdd),
    Takes<Compound::kMulAddDst, half, half>(kAll),
    Takes<Compound::kMulAddDst, float, float>(kAll),
    Takes<Compound::kMulAddDst, float, half>(kAll),
    NORMGRAD_COUNT_INT64(Compound::kMulAddDst),
    Takes<Compound::kMulAddRelu, half, half>(kAll),
    Takes<Compound::kMulAddRelu, float, float>(kAll),
    NORMGRAD_COUNT_INT64(Compound::kMulAddRelu),
    Takes<Compound::kAddRelu, int16_t, int16_t>(kAll),
    Takes<Compound::kAddRelu, half, half>(kAll),
    Takes<Compound::kAddRelu, float, float>(kAll),
    NORMGRAD_COUNT_INT64(Compound::kAddRelu),
    Takes<Compound::kSubRelu, int16_t, int16_t>(kAll),
    Takes<Compound::kSubRelu, half, half>(kAll),
    Takes<Compound::kSubRelu, float, float>(kAll),
    NORMGRAD_COUNT_INT64(Compound::kSubRelu),
    Takes<Compound::kAddReluCast, int8_t, half>(kAll),
    Takes<Compound::kAddReluCast, int8_t, int16_t>(kAll),
    Takes<Compound::kAddReluCast, half, float>(kAll),
    Takes<Compound::kAddReluCast, float, int64_t>(k950),
    Takes<Compound::kAddReluCast, int32_t, int64_t>(0, k950),
    Takes<Compound::kSubReluCast, int8_t, half>(kAll),
    Takes<Compound::kSubReluCast, int8_t, int16_t>(kAll),
    Takes<Compound::kSubReluCast, half, float>(kAll),
    Takes<Compound::kSubReluCast, float, int64_t>(0, k950),
    Takes<Compound::kSubReluCast, int32_t, int64_t>(0, k950),
    Takes<Compound::kMulCast, int8_t, half>(kAll),
    Takes<Compound::kMulCast, uint8_t, half>(kAll),
    Takes<Compound::kMulCast, float, int64_t>(0, k950),
    Takes<Compound::kMulCast, int32_t, int64_t>(0, k950),
    Takes<Compound::kAbsSub, half, half>(0, k950),
    Takes<Compound::kAbsSub, float, float>(0, k950),
    Takes<Compound::kExpSub, half, half>(0, k950),
    Takes<Compound::kExpSub, float, float>(0, k950),
    Takes<Compound::kExpSub, float, half>(0, k950),
    Takes<Compound::kExpSub, half, float>(0, k950),
    Takes<Compound::kMulsCast, half, float>(0, k950),
};

#undef NORMGRAD_COUNT_INT64

const char* BitName(uint32_t bit) {
  static constexpr const char* kNames[] = {
      "int8_t",  "uint8_t",  "int16_t", "uint16_t",   "int32_t", "uint32_t",
      "int64_t", "uint64_t", "half",    "bfloat16_t", "float"};
  for (uint32_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    if (bit == 1u << i) return kNames[i];
  }
  return "?";
}

// "element type half" or "dst float with src half".
void Describe(uint32_t dst_bit, uint32_t src_bit, char (&out)[64]) {
  if (dst_bit == src_bit) {
    std::snprintf(out, sizeof out, "element type %s", BitName(dst_bit));
  } else {
    std::snprintf(out, sizeof out, "dst %s with src %s", BitName(dst_bit),
                  BitName(src_bit));
  }
}

// "half, float, dst float with src half": the pairs of `op` whose profile
// bits in `every` or `count_only` (as `all_forms` says) include `profile`.
void PairList(Compound op, uint8_t profile, bool all_forms, char (&out)[256]) {
  out[0] = '\0';
  size_t at = 0;
  for (const Pair& p : kPairs) {
    const uint8_t on = all_forms ? p.every : (p.every | p.count_only);
    if (p.op != op || (on & profile) == 0) continue;
    int n;
    if (p.dst == p.src) {
      n = std::snprintf(out + at, sizeof out - at, "%s%s", at == 0 ? "" : ", ",
                        BitName(p.dst));
    } else {
      n = std::snprintf(out + at, sizeof out - at, "%sdst %s with src %s",
                        at == 0 ? "" : ", ", BitName(p.dst), BitName(p.src));
    }
    if (n < 0 || static_cast<size_t>(n) >= sizeof out - at) break;
    at += static_cast<size_t>(n);
  }
}

}  // namespace

SpanFn CompoundSpan(Compound op, const char* api, const char* type,
                    uint32_t dst_bit, uint32_t src_bit, bool count_form) {
  const ProfileInfo& profile = CurrentCore().profile();
  const uint8_t mine =
      static_cast<uint8_t>(1u << static_cast<int>(profile.profile));
  bool available = false;
  for (const Pair& p : kPairs) {
    if (p.op != op) continue;
    available = available || ((p.every | p.count_only) & mine) != 0;
    if (p.dst != dst_bit || p.src != src_bit) continue;
    if ((p.every & mine) != 0 || (count_form && (p.count_only & mine) != 0)) {
      return p.span;
    }
    if ((p.count_only & mine) != 0) {
      char pairs[256];
      PairList(op, mine, true, pairs);
      char what[64];
      Describe(dst_bit, src_bit, what);
      Fail(
          "%s<%s>: %s takes only the count form on profile %s (the mask "
          "forms of %s take %s there)",
          api, type, what, profile.name, api, pairs);
    }
  }
  if (!available) {
    Fail("%s<%s>: %s is not available on profile %s", api, type, api,
         profile.name);
  }
  char pairs[256];
  PairList(op, mine, false, pairs);
  char what[64];
  Describe(dst_bit, src_bit, what);
  Fail("%s<%s>: %s is not supported on profile %s (%s takes %s there)", api,
       type, what, profile.name, api, pairs);
}

SpanFn CompoundSpanEverywhere(Compound op, uint32_t dst_bit, uint32_t src_bit) {
  for (const Pair& p : kPairs) {
    if (p.op == op && p.dst == dst_bit && p.src == src_bit &&
        ((p.every | p.count_only) & kAll) == kAll) {
      return p.span;
    }
  }
  return nullptr;
}

void CheckWideningDisjoint(const char* api, const char* type,
                           const TensorView& dst, const TensorView& src,
                           const char* src_name) {
  if (dst.core == nullptr || dst.core != src.core) return;
  const uint64_t dst_end = uint64_t{dst.offset} + dst.bytes;
  const uint64_t src_end = uint64_t{src.offset} + src.bytes;
  if (dst.offset < src_end && src.offset < dst_end) {
    Fail(
        "%s<%s>: dst (UB bytes %u..%llu) and %s (UB bytes %u..%llu) "
        "overlap; from half into float the operands may not overlap",
        api, type, dst.offset, static_cast<unsigned long long>(dst_end),
        src_name, src.offset, static_cast<unsigned long long>(src_end));
  }
}

float MulsCastScalar(const AscendC::LocalTensor<float>& point,
                     const char* name) {
  const TensorView& v = point.view();
  v.Check("MulsCast");
  if (v.core == nullptr || v.bytes < sizeof(float)) {
    Fail(
        "MulsCast<half, float>: %s, the tensor standing for the scalar, "
        "has no element",
        name);
  }
  float value;
  std::memcpy(&value, v.data(), sizeof value);
  return value;
}

}  // namespace normgrad_ascendc

// kernels/vector/vector_cast_inl.h — the conversion loops of the emulated vector
// unit (VectorKernels' to_int32_f32, from_int32_f32, cast, dequant_f16,
// quant_i16_b8, relu_step_f32, relu_cast_i16_i8) and Duplicate's fill:
// written once, compiled per instruction set. A part of vector_inl.h, which
// includes it inside its namespace (after its includes and with its
// NORMGRAD_SAME_INDEX); not included on its own.

// Floor, ceil and trunc of float with AVX-512 (NORMGRAD_VECTOR_MASKED, set
// by vector_avx512.cc) as the nearest integral value moved one toward the
// mode where it went the wrong way, the sign x's (a zero result keeps it):
// exact (|x| ≥ 2^23 is integral already), and its masked operations let GCC
// vectorize it, where it calls floorf, ceilf and truncf per element while
// floating-point exceptions are kept. On the other x86 sets the step is not
// if-converted (and the baseline's nearest rounding is a slower call), and
// on Arm GCC inlines the C functions: they keep them.
#if defined(NORMGRAD_VECTOR_MASKED)
constexpr bool kIntegralFromNearest = true;
#else
constexpr bool kIntegralFromNearest = false;
#endif

// x rounded to an integral value of its type F (float or double).
template <typename F, CastRound kRound>
inline F RoundToIntegral(F x) {
  if constexpr (std::is_same_v<F, float> && kIntegralFromNearest &&
                (kRound == CastRound::kFloor || kRound == CastRound::kCeil ||
                 kRound == CastRound::kTrunc)) {
    const float r = __builtin_nearbyintf(x);
    const float moved = kRound == CastRound::kFloor               ? (r > x ? r - 1.0f : r)
                        : kRound == CastRound::kCeil              ? (r < x ? r + 1.0f : r)
                        : __builtin_fabsf(r) > __builtin_fabsf(x) ? r - __builtin_copysignf(1.0f, x)
                                                                  : r;
    return __builtin_copysignf(moved, x);
  } else if constexpr (std::is_same_v<F, float>) {
    switch (kRound) {
      case CastRound::kFloor:
        return __builtin_floorf(x);
      case CastRound::kCeil:
        return __builtin_ceilf(x);
      case CastRound::kTrunc:
        return __builtin_truncf(x);
      case CastRound::kRound: {
        // x − trunc(x) is exact; a half or more away moves one further out.
        const float t = kIntegralFromNearest ? RoundToIntegral<float, CastRound::kTrunc>(x)
                                             : __builtin_truncf(x);
        return __builtin_fabsf(x - t) >= 0.5f ? t + __builtin_copysignf(1.0f, x) : t;
      }
      default:  // kRint (kOdd never reaches here)
        return __builtin_nearbyintf(x);
    }
  } else {
    switch (kRound) {
      case CastRound::kFloor:
        return __builtin_floor(x);
      case CastRound::kCeil:
        return __builtin_ceil(x);
      case CastRound::kTrunc:
        return __builtin_trunc(x);
      case CastRound::kRound: {
        const double t = __builtin_trunc(x);
        return __builtin_fabs(x - t) >= 0.5 ? t + __builtin_copysign(1.0, x) : t;
      }
      default:
        return __builtin_nearbyint(x);
    }
  }
}

template <CastRound kRound>
void ToInt32(int32_t* d, const float* a, size_t n) {
  NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const float r = RoundToIntegral<float, kRound>(a[i]);
    d[i] = r != r         ? 0
           : r >= 0x1p31f ? INT32_MAX
           : r < -0x1p31f ? INT32_MIN
                          : static_cast<int32_t>(r);
  }
}

void FromInt32(float* d, const int32_t* a, size_t n) {
  NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(a[i]);
}

// ---- The generic conversions (VectorKernels::cast) -------------------------
//
// An integer into an integer is saturated in int64_t. Every other source
// but 32-bit integers is exact in float, 32-bit integers in double, so each
// element goes through that value: into an integer it is rounded to an
// integral value (exact) and saturated; into float it is the value (NaN
// the quiet NaN); into half or bfloat16 RoundToBinary rounds its bits
// once. These are the rules of the element conversion (sign · m · 2^e
// rounded once, vector_convert.cc), computed on the intermediate's bits.

// The storage of each CastType (half and bfloat16 as their bits).
template <CastType kT>
struct CastStorage;
template <>
struct CastStorage<CastType::kI8> {
  using type = int8_t;
};
template <>
struct CastStorage<CastType::kU8> {
  using type = uint8_t;
};
template <>
struct CastStorage<CastType::kI16> {
  using type = int16_t;
};
template <>
struct CastStorage<CastType::kU16> {
  using type = uint16_t;
};
template <>
struct CastStorage<CastType::kI32> {
  using type = int32_t;
};
template <>
struct CastStorage<CastType::kU32> {
  using type = uint32_t;
};
template <>
struct CastStorage<CastType::kI64> {
  using type = int64_t;
};
template <>
struct CastStorage<CastType::kF16> {
  using type = uint16_t;
};
template <>
struct CastStorage<CastType::kBf16> {
  using type = uint16_t;
};
template <>
struct CastStorage<CastType::kF32> {
  using type = uint32_t;
};

constexpr bool IsFloatType(CastType t) {
  return t == CastType::kF16 || t == CastType::kBf16 || t == CastType::kF32;
}

inline float FloatFromBits(uint32_t b) { return __builtin_bit_cast(float, b); }

// A half's value: its magnitude bits shifted into a float's place read as
// a float are the value · 2^−112 (subnormals too), so one exact
// multiplication scales them; exponent all ones is infinity or NaN.
inline float HalfValue(uint16_t h) {
  const uint32_t mag = static_cast<uint32_t>(h & 0x7fffu) << 13;
  uint32_t bits = __builtin_bit_cast(uint32_t, FloatFromBits(mag) * 0x1p112f);
  bits = mag >= 0x0f800000u ? mag | 0x7f800000u : bits;
  return FloatFromBits(bits | static_cast<uint32_t>(h & 0x8000u) << 16);
}

// The exact value of a source element: float, or double for 32-bit integers.
template <CastType kS>
inline auto CastSourceValue(typename CastStorage<kS>::type v) {
  if constexpr (kS == CastType::kF16) {
    return HalfValue(v);
  } else if constexpr (kS == CastType::kBf16) {
    return FloatFromBits(static_cast<uint32_t>(v) << 16);
  } else if constexpr (kS == CastType::kF32) {
    return FloatFromBits(v);
  } else if constexpr (kS == CastType::kI32 || kS == CastType::kU32) {
    return static_cast<double>(v);
  } else {
    return static_cast<float>(v);
  }
}

// The bits b of a float or double F rounded once into the binary format of
// kP significand bits (the leading one included; fewer than x's), normal
// exponents kEmin..kEmax, kBits wide. The significand m is shifted right
// to the format's last place (below kEmin the subnormal one; past the
// point where nothing is left the shift stops, as what is dropped is then
// below one half); the dropped bits against one half decide the rounding;
// exponent and significand are added as one integer, so a carry out of the
// significand moves into the exponent and one past the largest exponent
// reaches infinity's bits.
template <typename F>
using BitsOf = std::conditional_t<std::is_same_v<F, float>, uint32_t, uint64_t>;

// The magnitude q, whose dropped bits are rem (half: the value of half a
// unit of q), rounded by kRound; neg: the value is negative.
template <CastRound kRound, typename U>
inline U RoundMagnitude(U q, U rem, U half, bool neg) {
  switch (kRound) {
    case CastRound::kRint:
      return q + (rem > half || (rem == half && (q & 1u) != 0));
    case CastRound::kFloor:
      return q + (rem != 0 && neg);
    case CastRound::kCeil:
      return q + (rem != 0 && !neg);
    case CastRound::kTrunc:
      return q;
    case CastRound::kRound:
      return q + (rem >= half);
    case CastRound::kOdd:
      return q | (rem != 0);
  }
  return q;
}

template <int kP, int kEmin, int kEmax, int kBits, CastRound kRound, typename F>
inline uint32_t RoundToBinary(BitsOf<F> b) {
  using U = BitsOf<F>;
  using I = std::make_signed_t<U>;
  constexpr int kFrac = std::numeric_limits<F>::digits - 1;  // 23, 52
  constexpr I kBias = std::numeric_limits<F>::max_exponent - 1;
  constexpr int kWidth = static_cast<int>(sizeof(U)) * 8;
  const bool neg = (b >> (kWidth - 1)) != 0;
  const U abs = b & ~(U{1} << (kWidth - 1));
  constexpr U kSourceInf = ((U{1} << (kWidth - 1 - kFrac)) - 1) << kFrac;
  if constexpr (kEmin == 1 - kBias && kEmax == kBias) {
    // The source's exponents (float into bfloat16): the format is the
    // source's leading bits, so rounding is on the dropped bits alone, and
    // a carry past the largest finite value reaches infinity exactly when
    // the rounding goes up.
    constexpr int kDrop = kFrac + 1 - kP;
    const U q = abs >> kDrop;
    const U rem = abs & ((U{1} << kDrop) - 1);
    constexpr U kHalf = U{1} << (kDrop - 1);
    const U r = RoundMagnitude<kRound>(q, rem, kHalf, neg);
    const U sign = neg ? U{1} << (kBits - 1) : 0;
    constexpr U kQuietNan = (kSourceInf >> kDrop) | U{1} << (kP - 2);
    return static_cast<uint32_t>(abs > kSourceInf ? kQuietNan : sign | r);
  }
  const U biased = abs >> kFrac;
  const U frac = abs & ((U{1} << kFrac) - 1);
  // A subnormal x has the smallest normal exponent and no leading one.
  const I top = biased == 0 ? 1 - kBias : static_cast<I>(biased) - kBias;
  const U m = biased == 0 ? frac : frac | U{1} << kFrac;
  const I below = kEmin - top;  // > 0: subnormal in the format
  I shift = (kFrac + 1 - kP) + (below > 0 ? below : 0);
  shift = shift > kFrac + 2 ? kFrac + 2 : shift;
  const U q = m >> shift;
  const U rem = m & ((U{1} << shift) - 1);
  const U half = U{1} << (shift - 1);
  const U r = RoundMagnitude<kRound>(q, rem, half, neg);
  constexpr U kInf = ((U{1} << (kBits - kP)) - 1) << (kP - 1);
  const U exponent = below > 0 ? 0 : static_cast<U>(top + kEmax - 1);
  U mag = (exponent << (kP - 1)) + r;
  const bool to_inf = kRound == CastRound::kRint || kRound == CastRound::kRound ||
                      (kRound == CastRound::kFloor && neg) || (kRound == CastRound::kCeil && !neg);
  mag = mag >= kInf ? (to_inf ? kInf : kInf - 1) : mag;
  mag = abs == 0 ? 0 : abs == kSourceInf ? kInf : mag;
  const U sign = neg ? U{1} << (kBits - 1) : 0;
  return static_cast<uint32_t>(abs > kSourceInf ? kInf | U{1} << (kP - 2) : sign | mag);
}

// x rounded to an integer of D and saturated; NaN gives 0.
template <typename D, CastRound kRound, typename F>
inline D ToInteger(F x) {
  constexpr F kLow = static_cast<F>(std::numeric_limits<D>::min());
  // 2^digits: one past the largest, exact where the largest is not.
  constexpr F kPastHigh = F(2) * static_cast<F>(std::numeric_limits<D>::max() / 2 + 1);
  const F r = RoundToIntegral<F, kRound>(x);
  return r != r           ? D{0}
         : r >= kPastHigh ? std::numeric_limits<D>::max()
         : r < kLow       ? std::numeric_limits<D>::min()
                          : static_cast<D>(r);
}

// An integer into float, from the magnitude's bits mag of the value rounded
// to nearest even (not zero where the value is not): moves mag one place
// where kRound rounds otherwise — toward zero where that float's magnitude
// passes the exact one m, away where it falls short and the rounding is
// upward for the sign (neg), or (kRound) where m lies halfway to the next
// float. U is uint32_t, W an integer type exact for m and every float
// compared, neg a bool; or each a vector of them (neg a comparison's
// lanes). to_w(bits, w): the float of those bits as W.
template <CastRound kRound, typename U, typename W, typename B, typename ToW>
inline void MoveNearestInto(U& mag, const W& m, const B& neg, ToW to_w) {
  if constexpr (kRound != CastRound::kRint) {
    W f;
    to_w(mag, f);
    switch (kRound) {
      case CastRound::kFloor:
        mag = mag - ((U)(f > m && !neg) & 1u) + ((U)(f < m && neg) & 1u);
        break;
      case CastRound::kCeil:
        mag = mag - ((U)(f > m && neg) & 1u) + ((U)(f < m && !neg) & 1u);
        break;
      case CastRound::kTrunc:
        mag = mag - ((U)(f > m) & 1u);
        break;
      default: {  // kRound: ties away from zero
        W g;
        to_w(mag + 1u, g);
        mag = mag + ((U)(f < m && m - f == g - m) & 1u);
        break;
      }
    }
  }
}

// ---- Conversions by blocks ----------------------------------------------------
//
// The pairs whose element loop GCC does not vectorize well (the bit work
// between integers and floats, the narrowing stores) are written on GCC
// vectors of 16 lanes: one source for every set, which each set's compiler
// lowers to its registers (16 floats are one AVX-512 register, two AVX2 or
// four NEON ones). They compute the element rules above on every lane.

// 16 elements of T as a GCC vector (an attribute on a dependent type is
// ignored, so each type is spelled out).
template <typename T>
struct Lanes16;
template <>
struct Lanes16<int8_t> {
  typedef int8_t type __attribute__((vector_size(16)));
};
template <>
struct Lanes16<uint8_t> {
  typedef uint8_t type __attribute__((vector_size(16)));
};
template <>
struct Lanes16<int16_t> {
  typedef int16_t type __attribute__((vector_size(32)));
};
template <>
struct Lanes16<uint16_t> {
  typedef uint16_t type __attribute__((vector_size(32)));
};
template <>
struct Lanes16<int32_t> {
  typedef int32_t type __attribute__((vector_size(64)));
};
template <>
struct Lanes16<uint32_t> {
  typedef uint32_t type __attribute__((vector_size(64)));
};
template <>
struct Lanes16<float> {
  typedef float type __attribute__((vector_size(64)));
};
template <typename T>
using V16 = typename Lanes16<T>::type;
// 32 halves or bfloat16s (64 bytes).
typedef uint16_t V32u16 __attribute__((vector_size(64)));
// 8 elements of T (int64_t sources: 64 bytes).
template <typename T>
struct Lanes8;
template <>
struct Lanes8<int8_t> {
  typedef int8_t type __attribute__((vector_size(8)));
};
template <>
struct Lanes8<uint8_t> {
  typedef uint8_t type __attribute__((vector_size(8)));
};
template <>
struct Lanes8<int16_t> {
  typedef int16_t type __attribute__((vector_size(16)));
};
template <>
struct Lanes8<uint16_t> {
  typedef uint16_t type __attribute__((vector_size(16)));
};
template <>
struct Lanes8<int32_t> {
  typedef int32_t type __attribute__((vector_size(32)));
};
template <>
struct Lanes8<uint32_t> {
  typedef uint32_t type __attribute__((vector_size(32)));
};
template <>
struct Lanes8<int64_t> {
  typedef int64_t type __attribute__((vector_size(64)));
};
template <>
struct Lanes8<uint64_t> {
  typedef uint64_t type __attribute__((vector_size(64)));
};
template <>
struct Lanes8<float> {
  typedef float type __attribute__((vector_size(32)));
};
template <>
struct Lanes8<double> {
  typedef double type __attribute__((vector_size(64)));
};
template <typename T>
using V8 = typename Lanes8<T>::type;

// The pairs converted by blocks: integers into integers compared in
// int32_t, 16 at a time, and int64_t into integers and float, 8 at a time
// (the other integer pairs would take 128-byte vectors, whose selections
// GCC splits element by element); float into bfloat16 and int32_t into
// float.
template <CastType kS, CastType kD>
constexpr bool kCastsByBlocks = (!IsFloatType(kS) && !IsFloatType(kD) && kS != CastType::kU32 &&
                                 kD != CastType::kU32 && kD != CastType::kI64) ||
                                (kS == CastType::kI64 &&
                                 (kD == CastType::kU32 || kD == CastType::kF32)) ||
                                (kS == CastType::kF32 && kD == CastType::kBf16) ||
                                (kS == CastType::kI32 && kD == CastType::kF32);
// Elements per block: float into bfloat16 packs two vectors into one.
template <CastType kS, CastType kD>
constexpr size_t kCastBlock = kS == CastType::kI64                           ? 8
                              : kS == CastType::kF32&& kD == CastType::kBf16 ? 32
                                                                             : 16;

// An integer into an integer, saturated in W (int32_t for 16 lanes,
// int64_t for 8).
template <template <typename> class V, typename W, typename S, typename D>
inline void SaturateBlock(D* d, const S* a) {
  using VW = V<W>;
  V<S> x;
  std::memcpy(&x, a, sizeof x);
  VW v = __builtin_convertvector(x, VW);
  const VW low = VW{} + static_cast<W>(std::numeric_limits<D>::min());
  const VW high = VW{} + static_cast<W>(std::numeric_limits<D>::max());
  v = v < low ? low : v;
  v = v > high ? high : v;
  const V<D> r = __builtin_convertvector(v, V<D>);
  std::memcpy(d, &r, sizeof r);
}

// 16 floats into bfloat16 (into the 32-bit lanes' high halves): the
// rounding of RoundToBinary for the source's exponents as one addition
// (a carry moves into the exponent, past the largest finite value into
// infinity; the sign bit takes no carry), NaN the quiet NaN. NaN is the
// lanes' own floating-point test: one comparison, where the bits' would
// take a mask and a comparison.
template <CastRound kRound>
inline void FloatToBf16Lanes(const uint32_t* a, V16<uint32_t>& bits) {
  using VU = V16<uint32_t>;
  VU u;
  std::memcpy(&u, a, sizeof u);
  VU add;
  switch (kRound) {
    case CastRound::kRint:
      add = 0x7fffu + ((u >> 16) & 1u);
      break;
    case CastRound::kFloor:  // negative: up in magnitude where inexact
      add = (VU)((V16<int32_t>)u >> 31) & 0xffffu;
      break;
    case CastRound::kCeil:
      add = (VU) ~((V16<int32_t>)u >> 31) & 0xffffu;
      break;
    case CastRound::kTrunc:
      add = VU{};
      break;
    default:  // kRound (kOdd is float → half's only)
      add = VU{} + 0x8000u;
      break;
  }
  const V16<float> x = (V16<float>)u;
  bits = x != x ? VU{} + 0x7fc00000u : u + add;
}

// The high halves of two such vectors are the 32 bfloat16s (little endian:
// the odd 16-bit words).
template <CastRound kRound>
inline void FloatToBf16Block(uint16_t* d, const uint32_t* a) {
  V16<uint32_t> low, high;
  FloatToBf16Lanes<kRound>(a, low);
  FloatToBf16Lanes<kRound>(a + 16, high);
  const V32u16 out = __builtin_shufflevector((V32u16)low, (V32u16)high, 1, 3, 5, 7, 9, 11, 13, 15,
                                             17, 19, 21, 23, 25, 27, 29, 31, 33, 35, 37, 39, 41, 43,
                                             45, 47, 49, 51, 53, 55, 57, 59, 61, 63);
  std::memcpy(d, &out, sizeof out);
}

// int32_t into float: the conversion to nearest even, moved by
// MoveNearestInto on magnitudes in uint32_t (2^31 at most, and the float
// after it).
template <CastRound kRound>
inline void Int32ToFloatBlock(uint32_t* d, const int32_t* a) {
  using VU = V16<uint32_t>;
  using VM = V16<int32_t>;
  VM x;
  std::memcpy(&x, a, sizeof x);
  const VM neg = x < 0;
  VU mag = (VU) __builtin_convertvector(x, V16<float>) & 0x7fffffffu;
  const VU m = neg ? 0u - (VU)x : (VU)x;
  MoveNearestInto<kRound>(mag, m, neg, [](const VU& bits, VU& w) {
    w = __builtin_convertvector((V16<float>)bits, VU);
  });
  const VU out = mag | ((VU)neg & 0x80000000u);
  std::memcpy(d, &out, sizeof out);
}

// int64_t into float: the conversion to nearest even (one correctly
// rounded conversion per lane on every set), moved by MoveNearestInto on
// magnitudes in uint64_t, the float bits in 64-bit lanes meanwhile.
template <CastRound kRound>
inline void Int64ToFloatBlock(uint32_t* d, const int64_t* a) {
  using VL = V8<uint64_t>;
  using VI = V8<int64_t>;
  VI x;
  std::memcpy(&x, a, sizeof x);
  V8<uint32_t> out = (V8<uint32_t>)__builtin_convertvector(x, V8<float>);
  if constexpr (kRound != CastRound::kRint) {
    const VI neg = x < 0;
    const VL m = neg ? 0 - (VL)x : (VL)x;
    VL mag = __builtin_convertvector(out & 0x7fffffffu, VL);
    MoveNearestInto<kRound>(mag, m, neg, [](const VL& bits, VL& w) {
      w = __builtin_convertvector((V8<float>)__builtin_convertvector(bits, V8<uint32_t>), VL);
    });
    out = __builtin_convertvector(mag, V8<uint32_t>) | (out & 0x80000000u);
  }
  std::memcpy(d, &out, sizeof out);
}

// kCastBlock elements of a pair of kCastsByBlocks.
template <CastType kS, CastType kD, CastRound kRound>
inline void CastBlock(typename CastStorage<kD>::type* d, const typename CastStorage<kS>::type* a) {
  if constexpr (kS == CastType::kI64 && kD == CastType::kF32) {
    Int64ToFloatBlock<kRound>(d, a);
  } else if constexpr (kS == CastType::kI64) {
    SaturateBlock<V8, int64_t>(d, a);
  } else if constexpr (!IsFloatType(kS) && !IsFloatType(kD)) {
    SaturateBlock<V16, int32_t>(d, a);
  } else if constexpr (kD == CastType::kBf16) {
    FloatToBf16Block<kRound>(d, a);
  } else {
    Int32ToFloatBlock<kRound>(d, a);
  }
}

template <CastType kS, CastType kD, CastRound kRound>
void CastLoop(void* dv, const void* av, size_t n) {
  using S = typename CastStorage<kS>::type;
  using D = typename CastStorage<kD>::type;
  D* d = static_cast<D*>(dv);
  const S* a = static_cast<const S*>(av);
  if constexpr (kCastsByBlocks<kS, kD>) {
    // Each block is read whole before it is written: a destination that is
    // the source, of elements no wider, reads no result.
    constexpr size_t kBlock = kCastBlock<kS, kD>;
    size_t i = 0;
    for (; i + kBlock <= n; i += kBlock) CastBlock<kS, kD, kRound>(d + i, a + i);
    if (i < n) {  // the rest through one block of zeros
      S in[kBlock] = {};
      D out[kBlock];
      std::memcpy(in, a + i, (n - i) * sizeof(S));
      CastBlock<kS, kD, kRound>(out, in);
      std::memcpy(d + i, out, (n - i) * sizeof(D));
    }
  } else if constexpr ((kS == CastType::kF16 || kS == CastType::kBf16) && !IsFloatType(kD)) {
    // Widened in chunks first: GCC does not vectorize the bit cast of
    // 16-bit loads into float feeding an integer conversion in one loop.
    constexpr size_t kChunk = 256;
    float x[kChunk];
    for (size_t at = 0; at < n; at += kChunk) {
      const size_t m = n - at < kChunk ? n - at : kChunk;
      for (size_t i = 0; i < m; ++i) x[i] = CastSourceValue<kS>(a[at + i]);
      NORMGRAD_SAME_INDEX
      for (size_t i = 0; i < m; ++i) d[at + i] = ToInteger<D, kRound>(x[i]);
    }
  } else {
    NORMGRAD_SAME_INDEX
    for (size_t i = 0; i < n; ++i) {
      if constexpr (!IsFloatType(kS) && !IsFloatType(kD)) {
        // Saturated in int64_t, which holds every source and bound.
        const int64_t v = a[i];
        constexpr int64_t kLow = std::numeric_limits<D>::min();
        constexpr int64_t kHigh = std::numeric_limits<D>::max();
        d[i] = static_cast<D>(v < kLow ? kLow : v > kHigh ? kHigh : v);
      } else if constexpr (!IsFloatType(kD)) {
        d[i] = ToInteger<D, kRound>(CastSourceValue<kS>(a[i]));
      } else if constexpr (kD == CastType::kF32 && kS != CastType::kI32 && kS != CastType::kU32) {
        // Exact in float: the value itself, or for float the integral
        // value (Truncate).
        float x = CastSourceValue<kS>(a[i]);
        if constexpr (kS == CastType::kF32) x = RoundToIntegral<float, kRound>(x);
        d[i] = x != x ? 0x7fc00000u : __builtin_bit_cast(uint32_t, x);
      } else {
        // The intermediate's bits (a float source's own: no round trip).
        using F = decltype(CastSourceValue<kS>(a[i]));
        BitsOf<F> bits;
        if constexpr (kS == CastType::kF32) {
          bits = a[i];
        } else {
          bits = __builtin_bit_cast(BitsOf<F>, CastSourceValue<kS>(a[i]));
        }
        if constexpr (kD == CastType::kF16) {
          d[i] = static_cast<D>(RoundToBinary<11, -14, 15, 16, kRound, F>(bits));
        } else if constexpr (kD == CastType::kBf16) {
          d[i] = static_cast<D>(RoundToBinary<8, -126, 127, 16, kRound, F>(bits));
        } else {
          d[i] = RoundToBinary<24, -126, 127, 32, kRound, F>(bits);
        }
      }
    }
  }
}

// n copies of value's low sizeof(T) bytes.
template <typename T>
void Fill(void* dv, uint32_t value, size_t n) {
  T* __restrict d = static_cast<T*>(dv);
  const T v = static_cast<T>(value);
  for (size_t i = 0; i < n; ++i) d[i] = v;
}

// ---- Cast's deq and AddDeqRelu: v · s rounded once to half -----------------
//
// v is an int32_t (or the sum of two, modulo 2^32), s a finite half's value,
// P = v · s exactly. Each float written rounds to half (nearest even) as P
// does, which is what the narrowing after this loop needs:
//
// Exact path. P is exact in double (31 bits times 11); rounded to odd at
// float's last place (toward zero, that place set where any dropped bit
// was) it keeps its side of every half and of every midpoint between two
// halves (a float has 13 places more than half, and P ≥ 2^-24 is normal in
// float), so one rounding to half after it gives P rounded once.
//
// Fast path, where |s| ≥ 2^-14 or s = 0: y = fl(fl(v) · s), two roundings to
// nearest, so |y − P| ≤ (2^-23 + 2^-48)|P| < 2.0001 ulp(y) (|y| < 2^24 ulp(y)).
// Half rounds y and P alike unless a midpoint between two halves lies
// between them, i.e. within 2 ulp(y) of y; every other float is ≥ 3 ulps
// away. For 2^-14 ≤ |y| < 2^16 a midpoint is a float whose low 13 fraction
// bits are 0x1000 (half has 10 fraction bits; 65520, past which half
// rounds to infinity, is one), and powers of two, where ulp changes, are
// halves 2^12 float places from any midpoint. With |s| ≥ 2^-14, |y| ≥ 2^-14
// unless v = 0 or s = 0, where y = P = ±0 with double's sign. So only a
// lane whose low 13 bits lie in 0x0ffe..0x1002 may round differently: the
// block holding one is redone by the exact path (about 1 block of 64 lanes
// in 25 on uniform bits).
//
// Relu: +0 for a negative product or −0 (y's sign is P's: y = 0 only
// where P = 0).
template <bool kSum, bool kRelu>
void DequantExact(float* d, const int32_t* a, const int32_t* b, double scale, size_t n) {
  NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const int32_t v =
        kSum ? static_cast<int32_t>(static_cast<uint32_t>(a[i]) + static_cast<uint32_t>(b[i]))
             : a[i];
    // Rounded to odd at float's last place (bit 29 of the double, whose
    // exponent float holds: 2^-24 ≤ |x| < 2^47): the bits below dropped,
    // that place set where any was; then exact in float.
    const double x = static_cast<double>(v) * scale;
    uint64_t u = __builtin_bit_cast(uint64_t, x);
    // Relu: +0 for a set sign bit (x is not NaN).
    if constexpr (kRelu) u &= ~static_cast<uint64_t>(static_cast<int64_t>(u) >> 63);
    u = (u & ~uint64_t{0x1fffffff}) | uint64_t{(u & 0x1fffffffu) != 0} << 29;
    d[i] = static_cast<float>(__builtin_bit_cast(double, u));
  }
}

// Whether any lane of a comparison's result m is set (its lanes narrowed
// to bytes: one test of 16 bytes on every set).
inline bool AnyLane(const V16<int32_t>& m) {
  const V16<uint8_t> z = __builtin_convertvector(m, V16<uint8_t>);
  uint64_t w[2];
  std::memcpy(w, &z, sizeof w);
  return (w[0] | w[1]) != 0;
}

// A block of 64 lanes at a time: the fast path's 64 halves kept until its
// check passes, else the block redone by the exact path through a float
// buffer; the exact path alone for a subnormal scale and the last lanes.
// Each block is read whole before its halves are written, so d may be a's
// first bytes.
template <typename F16, bool kSum, bool kRelu>
void DequantLoop(uint16_t* d, const int32_t* a, const int32_t* b, float scale, size_t n) {
  using VU = V16<uint32_t>;
  using VI = V16<int32_t>;
  constexpr size_t kBlock = 64;
  const bool fast = __builtin_fabsf(scale) >= 0x1p-14f || scale == 0.0f;
  size_t i = 0;
  for (; fast && i + kBlock <= n; i += kBlock) {
    const int32_t* bi = kSum ? b + i : b;
    // The least over the block of each lane's low 13 bits' distance above
    // 0x0ffe (modulo 2^13): below 5 where one is near a midpoint.
    VU nearest = VU{} + 0xffffffffu;
    uint16_t h[kBlock];
    for (size_t j = 0; j < kBlock; j += 16) {
      VU v;
      std::memcpy(&v, a + i + j, sizeof v);
      if constexpr (kSum) {
        VU w;
        std::memcpy(&w, bi + j, sizeof w);
        v += w;  // modulo 2^32
      }
      VI y = (VI)(__builtin_convertvector((VI)v, V16<float>) * scale);
      const VU distance = ((VU)y - 0xffeu) & 0x1fffu;
      nearest = distance < nearest ? distance : nearest;
      if constexpr (kRelu) y = y > 0 ? y : 0;  // on the bits: negative floats and −0
      float x[16];
      std::memcpy(x, &y, sizeof y);
      NarrowArray<F16>(x, h + j, 16);
    }
    if (AnyLane(nearest < 5u)) {
      float x[kBlock];
      DequantExact<kSum, kRelu>(x, a + i, bi, scale, kBlock);
      NarrowArray<F16>(x, h, kBlock);
    }
    // Copied in the pieces the set's conversion stored (a wider load of
    // two narrower stores would wait for them to leave the store buffer).
    for (size_t j = 0; j < kBlock; j += F16::kLanes) {
      std::memcpy(d + i + j, h + j, F16::kLanes * sizeof(uint16_t));
    }
  }
  for (; i < n; i += kBlock) {
    const size_t m = n - i < kBlock ? n - i : kBlock;
    float x[kBlock];
    DequantExact<kSum, kRelu>(x, a + i, kSum ? b + i : b, scale, m);
    NarrowArray<F16>(x, d + i, m);
  }
}

template <typename F16>
void Dequant(uint16_t* d, const int32_t* a, const int32_t* b, float scale, bool relu, size_t n) {
  if (b == nullptr) {
    DequantLoop<F16, false, false>(d, a, b, scale, n);
  } else if (relu) {
    DequantLoop<F16, true, true>(d, a, b, scale, n);
  } else {
    DequantLoop<F16, true, false>(d, a, b, scale, n);
  }
}

// ---- CastDequant int16_t → 8 bits ------------------------------------------
//
// The element rule (vector_convert.cc): rint(a · scale + offset) in double
// (the product exact: 15 bits times 11), NaN 0, saturated into [lo, hi].
// On 16 lanes in double: clamped first (rint keeps the integer bounds),
// then rounded to nearest even by adding and subtracting 1.5 · 2^52.
// scale and offset: the 16 sets' values, lanes 0–7 and 8–15.
template <bool kSigned>
inline void QuantExactLanes(V16<uint8_t>& out, const int16_t* a, const V8<double>* scale,
                            const V8<double>* offset) {
  using VD = V8<double>;
  constexpr double kLo = kSigned ? -128.0 : 0.0, kHi = kSigned ? 127.0 : 255.0;
  V16<int16_t> x;
  std::memcpy(&x, a, sizeof x);
  const V16<int32_t> w = __builtin_convertvector(x, V16<int32_t>);
  const V8<int32_t> half[2] = {__builtin_shufflevector(w, w, 0, 1, 2, 3, 4, 5, 6, 7),
                               __builtin_shufflevector(w, w, 8, 9, 10, 11, 12, 13, 14, 15)};
  V8<int32_t> r[2];
  for (int h = 0; h < 2; ++h) {
    VD v = __builtin_convertvector(half[h], VD) * scale[h] + offset[h];
    v = v == v ? v : 0.0;
    v = v < kLo ? kLo : v;
    v = v > kHi ? kHi : v;
    v = (v + 0x1.8p52) - 0x1.8p52;
    r[h] = __builtin_convertvector(v, V8<int32_t>);
  }
  out = __builtin_convertvector(
      __builtin_shufflevector(r[0], r[1], 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      V16<uint8_t>);
}

// Fast path, every scale finite: in float, y = fl(fl(a · scale) + offset),
// c = y clamped into [lo, hi], rounded by adding and subtracting 1.5 · 2^23.
// Two roundings to nearest give |y − X| ≤ 2^-24 (|a · scale| + |y|) for
// the exact X = a · scale + offset. Where |y| > 512, X > 511 in magnitude
// too, with y's sign: both saturate alike. Otherwise |a · scale| < 769 and
// |y − X| < 2^-13; the double sum rounds X by at most 2^-44. So rint(c) =
// clamp(rint(y)) is the element rule's result unless a tie k + 1/2 lies
// within 2^-13 of y; a tie outside (lo, hi) rounds to the bound either
// way, so only |c − rint(c)| ≥ 1/2 − 2^-12 may differ, and the 64 lanes
// holding one are redone by the element rule. Where set j's scale has at
// most 9 significant bits, the last of weight 2^-14 or more (or is 0),
// nothing is redone: a · scale fits float's 24 bits (15 times 9), and so
// does a multiple of 2^-14 below 2^10 in magnitude, so y = X exactly
// wherever it does not saturate (a tie then rounds to even in both).
inline bool QuantExactInFloat(float scale) {
  const uint32_t bits = __builtin_bit_cast(uint32_t, scale) & 0x7fffffffu;
  if (bits == 0) return true;
  const int biased = static_cast<int>(bits >> 23);
  if (biased == 0 || biased == 0xff) return false;    // subnormal, or not finite
  const uint32_t m = (bits & 0x7fffffu) | 0x800000u;  // 24 bits, weight 2^(biased − 150)
  const int zeros = __builtin_ctz(m);
  return 24 - zeros <= 9 && biased - 150 + zeros >= -14;
}

template <bool kSigned>
void QuantLoop(uint8_t* d, const int16_t* a, const float* scale, const int32_t* offset, bool upper,
               size_t n) {
  using VF = V16<float>;
  using VD = V8<double>;
  constexpr float kLo = kSigned ? -128.0f : 0.0f, kHi = kSigned ? 127.0f : 255.0f;
  constexpr size_t kBlock = 64;  // four destination blocks of 32 bytes
  d += upper ? 16 : 0;
  bool finite = true;
  VF s, of, redo_from;  // redo_from: the least |c − rint(c)| to redo
  VD sd[2], od[2];
  for (size_t j = 0; j < 16; ++j) {
    finite = finite && __builtin_isfinite(scale[j]);
    s[j] = scale[j];
    of[j] = static_cast<float>(offset[j]);
    redo_from[j] = QuantExactInFloat(scale[j]) ? 1.0f : 0.5f - 0x1p-12f;
    sd[j / 8][j % 8] = scale[j];
    od[j / 8][j % 8] = offset[j];
  }
  size_t k = 0;
  for (; k + kBlock <= n; k += kBlock) {
    V16<uint8_t> out[kBlock / 16];
    bool redo = !finite;
    if (finite) {
      VF widest = {};  // the largest |c − rint(c)|
      for (size_t b = 0; b < kBlock / 16; ++b) {
        V16<int16_t> x;
        std::memcpy(&x, a + k + 16 * b, sizeof x);
        VF c = __builtin_convertvector(x, VF) * s + of;
        c = c < kLo ? kLo : c;
        c = c > kHi ? kHi : c;
        const VF r = (c + 0x1.8p23f) - 0x1.8p23f;
        VF t = c - r;
        t = t < 0.0f ? -t : t;
        widest = t > widest ? t : widest;
        out[b] = __builtin_convertvector(__builtin_convertvector(r, V16<int32_t>), V16<uint8_t>);
      }
      redo = AnyLane(widest >= redo_from);
    }
    if (redo) {
      for (size_t b = 0; b < kBlock / 16; ++b) {
        QuantExactLanes<kSigned>(out[b], a + k + 16 * b, sd, od);
      }
    }
    // Written after the 64 lanes are read: d may be a.
    for (size_t b = 0; b < kBlock / 16; ++b) std::memcpy(d + 2 * (k + 16 * b), &out[b], 16);
  }
  if (k < n) {  // the rest by the element rule, through blocks of zeros
    int16_t rest[kBlock] = {};
    std::memcpy(rest, a + k, (n - k) * sizeof(int16_t));
    for (size_t b = 0; k + 16 * b < n; ++b) {
      V16<uint8_t> out;
      QuantExactLanes<kSigned>(out, rest + 16 * b, sd, od);
      const size_t m = n - k - 16 * b;
      std::memcpy(d + 2 * (k + 16 * b), &out, m < 16 ? m : 16);
    }
  }
}

// AddReluCast's and SubReluCast's steps before their narrowing (kernels.h):
// Relu (NaN kept, −0 made +0), then a finite value past half's largest made
// that largest. On the bits as int32_t, which takes two comparisons where
// the float tests take four: every negative value but a NaN (−0 and −inf
// too) is at most −inf's bits; the finite values past 65504 are the bits
// after its own below infinity's.
template <bool kSub>
void ReluStepF32(float* d, const float* a, const float* b, size_t n) {
  constexpr uint32_t kLargestHalf = 0x477fe000u, kInf = 0x7f800000u;
  NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const float s = kSub ? a[i] - b[i] : a[i] + b[i];
    const int32_t u = __builtin_bit_cast(int32_t, s);
    const uint32_t r = u <= static_cast<int32_t>(0xff800000u) ? 0u : static_cast<uint32_t>(u);
    d[i] = __builtin_bit_cast(
        float, r - (kLargestHalf + 1) < kInf - (kLargestHalf + 1) ? kLargestHalf : r);
  }
}
template <bool kSub>
void ReluCastI16I8(int8_t* d, const int16_t* a, const int16_t* b, size_t n) {
  NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    const int16_t s = static_cast<int16_t>(kSub ? static_cast<uint32_t>(a[i]) - b[i]
                                                : static_cast<uint32_t>(a[i]) + b[i]);
    d[i] = static_cast<int8_t>(s < 0 ? 0 : s > 127 ? 127 : s);
  }
}

// kernels/vector_cast_inl.h — the conversion loops of the emulated vector
// unit (VectorKernels' to_int32_f32, from_int32_f32 and cast): written
// once, compiled per instruction set. A part of vector_inl.h, which
// includes it inside its namespace (after its includes and with its
// NORMGRAD_SAME_INDEX); not included on its own.

// x rounded to an integral value of its type F (float or double).
template <typename F, CastRound kRound>
inline F RoundToIntegral(F x) {
  if constexpr (std::is_same_v<F, float>) {
    switch (kRound) {
      case CastRound::kFloor:
        return __builtin_floorf(x);
      case CastRound::kCeil:
        return __builtin_ceilf(x);
      case CastRound::kTrunc:
        return __builtin_truncf(x);
      case CastRound::kRound: {
        // x − trunc(x) is exact; a half or more away moves one further out.
        const float t = __builtin_truncf(x);
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
    d[i] = r != r                ? 0
           : r >= 0x1p31f       ? INT32_MAX
           : r < -0x1p31f       ? INT32_MIN
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
template <> struct CastStorage<CastType::kI8> { using type = int8_t; };
template <> struct CastStorage<CastType::kU8> { using type = uint8_t; };
template <> struct CastStorage<CastType::kI16> { using type = int16_t; };
template <> struct CastStorage<CastType::kU16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kI32> { using type = int32_t; };
template <> struct CastStorage<CastType::kU32> { using type = uint32_t; };
template <> struct CastStorage<CastType::kI64> { using type = int64_t; };
template <> struct CastStorage<CastType::kF16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kBf16> { using type = uint16_t; };
template <> struct CastStorage<CastType::kF32> { using type = uint32_t; };

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
                      (kRound == CastRound::kFloor && neg) ||
                      (kRound == CastRound::kCeil && !neg);
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
  return r != r               ? D{0}
         : r >= kPastHigh     ? std::numeric_limits<D>::max()
         : r < kLow           ? std::numeric_limits<D>::min()
                              : static_cast<D>(r);
}

template <CastType kS, CastType kD, CastRound kRound>
void CastLoop(void* dv, const void* av, size_t n) {
  using S = typename CastStorage<kS>::type;
  using D = typename CastStorage<kD>::type;
  D* d = static_cast<D*>(dv);
  const S* a = static_cast<const S*>(av);
  if constexpr ((kS == CastType::kF16 || kS == CastType::kBf16) && !IsFloatType(kD)) {
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
    return;
  }
NORMGRAD_SAME_INDEX
  for (size_t i = 0; i < n; ++i) {
    if constexpr (!IsFloatType(kS) && !IsFloatType(kD)) {
      // Compared in int32_t where it holds the source and the bounds.
      using W = std::conditional_t<kS == CastType::kU32 || kD == CastType::kU32 ||
                                       kD == CastType::kI64,
                                   int64_t, int32_t>;
      const W v = a[i];
      constexpr W kLow = std::numeric_limits<D>::min();
      constexpr W kHigh = std::numeric_limits<D>::max();
      d[i] = static_cast<D>(v < kLow ? kLow : v > kHigh ? kHigh : v);
    } else if constexpr (!IsFloatType(kD)) {
      d[i] = ToInteger<D, kRound>(CastSourceValue<kS>(a[i]));
    } else if constexpr (kD == CastType::kF32 && kS != CastType::kI32 &&
                         kS != CastType::kU32) {
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

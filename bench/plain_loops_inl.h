// plain_loops_inl.h — the plain loops of plain_loops.h, written once and
// included by plain_loops.cc per instruction set (no include guard: each
// inclusion sits in its own namespace). Each is the obvious loop a compiler
// vectorizes; half is _Float16, converted to float in chunks as the
// unit converts it.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

using H = _Float16;

// The scalars of the unit calls in vector_families.cc.
constexpr float kSlope = 0.125f;  // LeakyRelu
constexpr float kAlpha = 0.5f;    // Axpy
constexpr float kFill = 1.5f;     // Duplicate

template <typename T>
T* Out(void* p) {
  return static_cast<T*>(p);
}
template <typename T>
const T* In(const void* p) {
  return static_cast<const T*>(p);
}

#define PLAIN_LOOP(name, D, S, body)                              \
  void name(void* dv, const void* av, const void* bv, size_t n) { \
    D* __restrict d = Out<D>(dv);                                 \
    const S* __restrict a = In<S>(av);                            \
    const S* __restrict b = In<S>(bv);                            \
    (void)a;                                                      \
    (void)b;                                                      \
    for (size_t i = 0; i < n; ++i) body;                          \
  }

PLAIN_LOOP(AbsF32, float, float, d[i] = std::fabs(a[i]))
PLAIN_LOOP(AbsF16, uint16_t, uint16_t, d[i] = a[i] & 0x7fffu)
PLAIN_LOOP(ReluF32, float, float, d[i] = a[i] > 0.0f ? a[i] : 0.0f)
PLAIN_LOOP(LeakyReluF32, float, float, d[i] = a[i] >= 0.0f ? a[i] : a[i] * kSlope)
PLAIN_LOOP(ExpF32, float, float, d[i] = float(std::exp(double(a[i]))))
PLAIN_LOOP(LnF32, float, float, d[i] = float(std::log(double(a[i]))))
PLAIN_LOOP(SqrtF32, float, float, d[i] = std::sqrt(a[i]))
PLAIN_LOOP(RsqrtF32, float, float, d[i] = float(1.0 / std::sqrt(double(a[i]))))
PLAIN_LOOP(ReciprocalF32, float, float, d[i] = 1.0f / a[i])
PLAIN_LOOP(AddI16, int16_t, int16_t, d[i] = int16_t(a[i] + b[i]))
PLAIN_LOOP(AddI32, int32_t, int32_t, d[i] = int32_t(uint32_t(a[i]) + uint32_t(b[i])))
PLAIN_LOOP(AndU16, uint16_t, uint16_t, d[i] = a[i] & b[i])
PLAIN_LOOP(NotU16, uint16_t, uint16_t, d[i] = uint16_t(~a[i]))
// The unit's signed left shift keeps the sign bit.
PLAIN_LOOP(ShiftLeftI32, uint32_t, uint32_t,
           d[i] = (a[i] & 0x80000000u) | ((a[i] << 3) & 0x7fffffffu))
PLAIN_LOOP(ShiftRightI16, int16_t, int16_t, d[i] = int16_t(a[i] >> 3))
PLAIN_LOOP(AxpyF32, float, float, d[i] = a[i] * kAlpha + d[i])
PLAIN_LOOP(FusedMulAddF32, float, float, d[i] = a[i] * d[i] + b[i])
PLAIN_LOOP(MulAddDstF32, float, float, d[i] = a[i] * b[i] + d[i])
PLAIN_LOOP(AddReluF32, float, float, {
  const float s = a[i] + b[i];
  d[i] = s > 0.0f ? s : 0.0f;
})
PLAIN_LOOP(MulAddReluF32, float, float, {
  const float s = a[i] * d[i] + b[i];
  d[i] = s > 0.0f ? s : 0.0f;
})
PLAIN_LOOP(CastF32I32, int32_t, float, {
  const float r = std::nearbyint(a[i]);
  d[i] = r != r ? 0 : r >= 0x1p31f ? INT32_MAX : r < -0x1p31f ? INT32_MIN : int32_t(r);
})
PLAIN_LOOP(CastI32F32, float, int32_t, d[i] = float(a[i]))
// The casts without one instruction of their own: the obvious loop of
// what they compute (saturation where the unit saturates, a directed
// rounding as the nearest one corrected by a step).
PLAIN_LOOP(CastF32Bf16, uint16_t, float, {
  uint32_t u;
  std::memcpy(&u, &a[i], 4);
  d[i] = uint16_t((u + 0x7fffu + (u >> 16 & 1u)) >> 16);
})
PLAIN_LOOP(CastBf16F32, float, uint16_t, {
  const uint32_t u = uint32_t(a[i]) << 16;
  std::memcpy(&d[i], &u, 4);
})
PLAIN_LOOP(CastBf16I32Ceil, int32_t, uint16_t, {
  const uint32_t u = uint32_t(a[i]) << 16;
  float x;
  std::memcpy(&x, &u, 4);
  const float r = std::ceil(x);
  d[i] = r != r ? 0 : r >= 0x1p31f ? INT32_MAX : r < -0x1p31f ? INT32_MIN : int32_t(r);
})
PLAIN_LOOP(CastF32I16Round, int16_t, float, {
  const float r = std::round(a[i]);
  d[i] = r != r ? 0 : r >= 32767.0f ? INT16_MAX : r <= -32768.0f ? INT16_MIN : int16_t(r);
})
PLAIN_LOOP(CastF32F32Trunc, float, float, d[i] = std::trunc(a[i]))
PLAIN_LOOP(CastI32F32Floor, float, int32_t, {
  const float r = float(a[i]);
  d[i] = double(r) > double(a[i]) ? std::nextafter(r, -INFINITY) : r;
})
PLAIN_LOOP(CastI32I16, int16_t, int32_t,
           d[i] = int16_t(a[i] > INT16_MAX   ? INT16_MAX
                          : a[i] < INT16_MIN ? INT16_MIN
                                             : a[i]))
PLAIN_LOOP(CastI16F16, H, int16_t, d[i] = H(a[i]))
PLAIN_LOOP(CastI8F16, H, int8_t, d[i] = H(a[i]))
PLAIN_LOOP(DuplicateF32, float, float, d[i] = kFill)
PLAIN_LOOP(DuplicateF16, H, H, d[i] = H(kFill))
PLAIN_LOOP(AddF32, float, float, d[i] = a[i] + b[i])
// The scalar of Ands/Ors and of the integer Adds..Mins rows.
constexpr int kIntScalar = 3;
PLAIN_LOOP(AndI16, int16_t, int16_t, d[i] = int16_t(a[i] & b[i]))
PLAIN_LOOP(OrU16, uint16_t, uint16_t, d[i] = uint16_t(a[i] | b[i]))
PLAIN_LOOP(AndU32, uint32_t, uint32_t, d[i] = a[i] & b[i])
PLAIN_LOOP(OrI32, int32_t, int32_t, d[i] = a[i] | b[i])
PLAIN_LOOP(AndU8, uint8_t, uint8_t, d[i] = uint8_t(a[i] & b[i]))
PLAIN_LOOP(OrI64, int64_t, int64_t, d[i] = a[i] | b[i])
PLAIN_LOOP(NotI16, int16_t, int16_t, d[i] = int16_t(~a[i]))
PLAIN_LOOP(NotU32, uint32_t, uint32_t, d[i] = ~a[i])
PLAIN_LOOP(NotF32, uint32_t, uint32_t, d[i] = ~a[i])
PLAIN_LOOP(NotF16, uint16_t, uint16_t, d[i] = uint16_t(~a[i]))
PLAIN_LOOP(NotI8, int8_t, int8_t, d[i] = int8_t(~a[i]))
PLAIN_LOOP(NotU64, uint64_t, uint64_t, d[i] = ~a[i])
PLAIN_LOOP(AndsU16, uint16_t, uint16_t, d[i] = uint16_t(a[i] & kIntScalar))
PLAIN_LOOP(OrsI16, int16_t, int16_t, d[i] = int16_t(a[i] | kIntScalar))
PLAIN_LOOP(AndsI64, int64_t, int64_t, d[i] = a[i] & kIntScalar)
PLAIN_LOOP(AddsI16, int16_t, int16_t, d[i] = int16_t(a[i] + kIntScalar))
PLAIN_LOOP(MulsI16, int16_t, int16_t, d[i] = int16_t(a[i] * kIntScalar))
PLAIN_LOOP(MaxsI16, int16_t, int16_t, d[i] = a[i] > kIntScalar ? a[i] : int16_t(kIntScalar))
PLAIN_LOOP(MinsI16, int16_t, int16_t, d[i] = a[i] < kIntScalar ? a[i] : int16_t(kIntScalar))
PLAIN_LOOP(AddsI32, int32_t, int32_t, d[i] = int32_t(uint32_t(a[i]) + kIntScalar))
PLAIN_LOOP(MulsI32, int32_t, int32_t, d[i] = int32_t(uint32_t(a[i]) * kIntScalar))
PLAIN_LOOP(MaxsI32, int32_t, int32_t, d[i] = a[i] > kIntScalar ? a[i] : kIntScalar)
PLAIN_LOOP(MinsI32, int32_t, int32_t, d[i] = a[i] < kIntScalar ? a[i] : kIntScalar)
PLAIN_LOOP(AddI8, int8_t, int8_t, d[i] = int8_t(a[i] + b[i]))
PLAIN_LOOP(SubU8, uint8_t, uint8_t, d[i] = uint8_t(a[i] - b[i]))
PLAIN_LOOP(MaxI8, int8_t, int8_t, d[i] = a[i] > b[i] ? a[i] : b[i])
PLAIN_LOOP(AddI64, int64_t, int64_t, d[i] = int64_t(uint64_t(a[i]) + uint64_t(b[i])))
PLAIN_LOOP(MulI64, int64_t, int64_t, d[i] = int64_t(uint64_t(a[i]) * uint64_t(b[i])))
PLAIN_LOOP(MinU64, uint64_t, uint64_t, d[i] = a[i] < b[i] ? a[i] : b[i])
PLAIN_LOOP(AddsI8, int8_t, int8_t, d[i] = int8_t(a[i] + kIntScalar))
PLAIN_LOOP(MulsI64, int64_t, int64_t, d[i] = int64_t(uint64_t(a[i]) * kIntScalar))
PLAIN_LOOP(SubReluF32, float, float, {
  const float s = a[i] - b[i];
  d[i] = s > 0.0f ? s : 0.0f;
})
PLAIN_LOOP(DivF32, float, float, d[i] = a[i] / b[i])

#undef PLAIN_LOOP

// Half converted to and from float 16 lanes at a time where the set has
// F16C (PLAIN_F16C), else one at a time.
void ToFloat(const H* s, float* d, size_t n) {
  size_t i = 0;
#if PLAIN_F16C
  for (; i + 16 <= n; i += 16) {
    _mm512_storeu_ps(d + i,
                     _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + i))));
  }
#endif
  for (; i < n; ++i) d[i] = float(s[i]);
}
void ToHalf(const float* s, H* d, size_t n) {
  size_t i = 0;
#if PLAIN_F16C
  for (; i + 16 <= n; i += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(s + i), _MM_FROUND_TO_NEAREST_INT));
  }
#endif
  for (; i < n; ++i) d[i] = H(s[i]);
}

// A half loop: chunks of 256 widened (a, b and the old d), `body` over the
// floats (x, y, w: a, b, d; the result into w), narrowed.
template <typename Body>
void HalfLoop(void* dv, const void* av, const void* bv, size_t n, Body body) {
  constexpr size_t kChunk = 256;
  float x[kChunk], y[kChunk], w[kChunk];
  H* d = Out<H>(dv);
  for (size_t at = 0; at < n; at += kChunk) {
    const size_t m = n - at < kChunk ? n - at : kChunk;
    if (av != nullptr) ToFloat(In<H>(av) + at, x, m);
    if (bv != nullptr) ToFloat(In<H>(bv) + at, y, m);
    ToFloat(d + at, w, m);
    body(x, y, w, m);
    ToHalf(w, d + at, m);
  }
}

#define HALF_LOOP(name, uses_b, loop)                                                      \
  void name(void* dv, const void* av, const void* bv, size_t n) {                          \
    HalfLoop(dv, av, uses_b ? bv : nullptr, n,                                             \
             [](float* __restrict x, float* __restrict y, float* __restrict w, size_t m) { \
               (void)x;                                                                    \
               (void)y;                                                                    \
               for (size_t i = 0; i < m; ++i) loop;                                        \
             });                                                                           \
  }

HALF_LOOP(ReluF16, false, w[i] = x[i] > 0.0f ? x[i] : 0.0f)
HALF_LOOP(LeakyReluF16, false, w[i] = x[i] >= 0.0f ? x[i] : x[i] * kSlope)
HALF_LOOP(SqrtF16, false, w[i] = std::sqrt(x[i]))
HALF_LOOP(ReciprocalF16, false, w[i] = 1.0f / x[i])
HALF_LOOP(AddReluF16, true, {
  const float s = x[i] + y[i];
  w[i] = s > 0.0f ? s : 0.0f;
})
HALF_LOOP(SubReluF16, true, {
  const float s = x[i] - y[i];
  w[i] = s > 0.0f ? s : 0.0f;
})
HALF_LOOP(DivF16, true, w[i] = x[i] / y[i])
HALF_LOOP(MaxF16, true, w[i] = x[i] > y[i] ? x[i] : y[i])
HALF_LOOP(MinF16, true, w[i] = x[i] < y[i] ? x[i] : y[i])
#undef HALF_LOOP

// Axpy in half rounds the product to half before the addition.
void AxpyF16(void* dv, const void* av, const void*, size_t n) {
  HalfLoop(dv, av, nullptr, n, [](float* __restrict x, float*, float* __restrict w, size_t m) {
    for (size_t i = 0; i < m; ++i) x[i] *= kAlpha;
    H t[256];
    ToHalf(x, t, m);
    ToFloat(t, x, m);
    for (size_t i = 0; i < m; ++i) w[i] += x[i];
  });
}
void AxpyF32F16(void* dv, const void* av, const void*, size_t n) {
  float x[256];
  float* __restrict d = Out<float>(dv);
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    ToFloat(In<H>(av) + at, x, m);
    for (size_t i = 0; i < m; ++i) d[at + i] = x[i] * kAlpha + d[at + i];
  }
}
void CastF16F32(void* dv, const void* av, const void*, size_t n) {
  ToFloat(In<H>(av), Out<float>(dv), n);
}
void CastF32F16(void* dv, const void* av, const void*, size_t n) {
  ToHalf(In<float>(av), Out<H>(dv), n);
}
// Half through float in chunks, then `body` per element (x the float).
template <typename D, typename Body>
void FromHalf(void* dv, const void* av, size_t n, Body body) {
  float x[256];
  D* __restrict d = Out<D>(dv);
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    ToFloat(In<H>(av) + at, x, m);
    for (size_t i = 0; i < m; ++i) d[at + i] = body(x[i]);
  }
}
void CastF16I32Floor(void* dv, const void* av, const void*, size_t n) {
  FromHalf<int32_t>(dv, av, n, [](float x) {
    const float r = std::floor(x);
    return r != r ? 0 : r >= 0x1p31f ? INT32_MAX : r < -0x1p31f ? INT32_MIN : int32_t(r);
  });
}
void CastF16I16(void* dv, const void* av, const void*, size_t n) {
  FromHalf<int16_t>(dv, av, n, [](float x) {
    const float r = std::nearbyint(x);
    return int16_t(r != r ? 0 : r >= 32767.0f ? INT16_MAX : r <= -32768.0f ? INT16_MIN : int(r));
  });
}
void CastF16I8Trunc(void* dv, const void* av, const void*, size_t n) {
  FromHalf<int8_t>(dv, av, n, [](float x) {
    const float r = std::trunc(x);
    return int8_t(r != r ? 0 : r >= 127.0f ? 127 : r <= -128.0f ? -128 : int(r));
  });
}
// Truncated, then the last bit set where inexact.
void CastF32F16Odd(void* dv, const void* av, const void*, size_t n) {
  ToHalf(In<float>(av), Out<H>(dv), n);
  H* __restrict d = Out<H>(dv);
  const float* __restrict a = In<float>(av);
  for (size_t i = 0; i < n; ++i) {
    uint16_t u;
    std::memcpy(&u, &d[i], 2);
    const float r = float(d[i]);
    const bool away = r > a[i] ? a[i] >= 0.0f : r < a[i] && a[i] < 0.0f;
    u = uint16_t(away ? u - 1 : u);
    u = uint16_t(float(d[i]) != a[i] ? u | 1u : u);
    std::memcpy(&d[i], &u, 2);
  }
}
void CastF32I64(void* dv, const void* av, const void*, size_t n) {
  int64_t* __restrict d = Out<int64_t>(dv);
  const float* __restrict a = In<float>(av);
  for (size_t i = 0; i < n; ++i) {
    const float r = std::nearbyint(a[i]);
    d[i] = r != r ? 0 : r >= 0x1p63f ? INT64_MAX : r < -0x1p63f ? INT64_MIN : int64_t(r);
  }
}

// d's bits: bit j of byte i set when a[8i+j] < b[8i+j].
void CompareF32(void* dv, const void* av, const void* bv, size_t n) {
  uint8_t* __restrict d = Out<uint8_t>(dv);
  const float* __restrict a = In<float>(av);
  const float* __restrict b = In<float>(bv);
  for (size_t i = 0; i < n / 8; ++i) {
    unsigned byte = 0;
    for (unsigned j = 0; j < 8; ++j) byte |= unsigned(a[8 * i + j] < b[8 * i + j]) << j;
    d[i] = uint8_t(byte);
  }
}

// d[k] = bit k of the selection b ? a[k] : c[k], c the n floats after a
// (vector_families.cc places Select's second source there).
void SelectF32(void* dv, const void* av, const void* bv, size_t n) {
  float* __restrict d = Out<float>(dv);
  const float* __restrict a = In<float>(av);
  const float* __restrict c = In<float>(av) + n;
  const uint8_t* __restrict bits = In<uint8_t>(bv);
  for (size_t k = 0; k < n; ++k) d[k] = (bits[k / 8] >> (k % 8) & 1) ? a[k] : c[k];
}

void SelectScalarF32(void* dv, const void* av, const void* bv, size_t n) {
  float* __restrict d = Out<float>(dv);
  const float* __restrict a = In<float>(av);
  const uint8_t* __restrict bits = In<uint8_t>(bv);
  for (size_t k = 0; k < n; ++k) d[k] = (bits[k / 8] >> (k % 8) & 1) ? a[k] : 2.0f;
}
void SelectF16(void* dv, const void* av, const void* bv, size_t n) {
  uint16_t* __restrict d = Out<uint16_t>(dv);
  const uint16_t* __restrict a = In<uint16_t>(av);
  const uint16_t* __restrict c = In<uint16_t>(av) + n;
  const uint8_t* __restrict bits = In<uint8_t>(bv);
  for (size_t k = 0; k < n; ++k) d[k] = (bits[k / 8] >> (k % 8) & 1) ? a[k] : c[k];
}

// The reductions into d[0] (the index, for the Index rows, into d[1]):
// sums and extremes kept in 16 lanes (whole vectors), then combined.
constexpr size_t kLanes = 16;
float SumOf(const float* __restrict a, size_t n) {
  float acc[kLanes] = {};
  for (size_t i = 0; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) acc[j] += a[i + j];
  }
  float s = 0.0f;
  for (size_t j = 0; j < kLanes; ++j) s += acc[j];
  return s;
}
template <bool kMax>
float ExtremeOf(const float* __restrict a, size_t n) {
  float acc[kLanes];
  for (size_t j = 0; j < kLanes; ++j) acc[j] = a[j];
  for (size_t i = kLanes; i + kLanes <= n; i += kLanes) {
    for (size_t j = 0; j < kLanes; ++j) {
      acc[j] =
          kMax ? (a[i + j] > acc[j] ? a[i + j] : acc[j]) : (a[i + j] < acc[j] ? a[i + j] : acc[j]);
    }
  }
  float r = acc[0];
  for (size_t j = 1; j < kLanes; ++j)
    r = kMax ? (acc[j] > r ? acc[j] : r) : (acc[j] < r ? acc[j] : r);
  return r;
}
size_t IndexOf(const float* a, size_t n, float v) {
  size_t i = 0;
  while (i + 1 < n && a[i] != v) ++i;
  return i;
}
// A half source widened whole (at most 4096 elements), then `body`.
template <typename Body>
void OnHalves(const void* av, size_t n, Body body) {
  float x[4096];
  ToFloat(In<H>(av), x, n);
  body(x);
}
void ReduceSumF32(void* dv, const void* av, const void*, size_t n) {
  Out<float>(dv)[0] = SumOf(In<float>(av), n);
}
void ReduceSumF16(void* dv, const void* av, const void*, size_t n) {
  OnHalves(av, n, [&](const float* x) { Out<H>(dv)[0] = H(SumOf(x, n)); });
}
void ReduceMaxF32(void* dv, const void* av, const void*, size_t n) {
  Out<float>(dv)[0] = ExtremeOf<true>(In<float>(av), n);
}
void ReduceMaxIndexF32(void* dv, const void* av, const void*, size_t n) {
  const float v = ExtremeOf<true>(In<float>(av), n);
  Out<float>(dv)[0] = v;
  Out<uint32_t>(dv)[1] = uint32_t(IndexOf(In<float>(av), n, v));
}
void ReduceMinF16(void* dv, const void* av, const void*, size_t n) {
  OnHalves(av, n, [&](const float* x) { Out<H>(dv)[0] = H(ExtremeOf<false>(x, n)); });
}
void ReduceMinIndexF16(void* dv, const void* av, const void*, size_t n) {
  OnHalves(av, n, [&](const float* x) {
    const float v = ExtremeOf<false>(x, n);
    Out<H>(dv)[0] = H(v);
    Out<uint16_t>(dv)[1] = uint16_t(IndexOf(x, n, v));
  });
}

// The rows of every Cast pair and mode a kernel uses. A float rounded
// to an integral value by a mode (the five of the unit; FE-independent).
enum Mode { kRint, kFloor, kCeil, kTrunc, kRound };
template <Mode kM>
float Integral(float x) {
  switch (kM) {
    case kFloor:
      return std::floor(x);
    case kCeil:
      return std::ceil(x);
    case kTrunc:
      return std::trunc(x);
    case kRound:
      return std::round(x);
    default:
      return std::nearbyint(x);
  }
}
// x rounded by kM and saturated into D (NaN gives 0).
template <typename D, Mode kM>
D ToInt(float x) {
  const float r = Integral<kM>(x);
  constexpr float kLow = float(std::numeric_limits<D>::min());
  constexpr float kPast = 2.0f * float(std::numeric_limits<D>::max() / 2 + 1);
  return r != r       ? D(0)
         : r >= kPast ? std::numeric_limits<D>::max()
         : r < kLow   ? std::numeric_limits<D>::min()
                      : D(r);
}
template <typename D, Mode kM>
void HalfToInt(void* dv, const void* av, const void*, size_t n) {
  FromHalf<D>(dv, av, n, [](float x) { return ToInt<D, kM>(x); });
}
template <Mode kM>
void F32ToF32(void* dv, const void* av, const void*, size_t n) {
  float* __restrict d = Out<float>(dv);
  const float* __restrict a = In<float>(av);
  for (size_t i = 0; i < n; ++i) d[i] = Integral<kM>(a[i]);
}
template <typename S, typename D>
void Convert(void* dv, const void* av, const void*, size_t n) {
  D* __restrict d = Out<D>(dv);
  const S* __restrict a = In<S>(av);
  for (size_t i = 0; i < n; ++i) d[i] = D(a[i]);
}
template <typename S, typename D>
void Saturate(void* dv, const void* av, const void*, size_t n) {
  D* __restrict d = Out<D>(dv);
  const S* __restrict a = In<S>(av);
  for (size_t i = 0; i < n; ++i) {
    d[i] = D(a[i] > std::numeric_limits<D>::max()   ? std::numeric_limits<D>::max()
             : a[i] < std::numeric_limits<D>::min() ? std::numeric_limits<D>::min()
                                                    : a[i]);
  }
}
void F32ToI16(void* dv, const void* av, const void*, size_t n) {
  int16_t* __restrict d = Out<int16_t>(dv);
  const float* __restrict a = In<float>(av);
  for (size_t i = 0; i < n; ++i) d[i] = ToInt<int16_t, kRint>(a[i]);
}
// float into bfloat16 by a mode: the bias added before the 16-bit shift.
template <Mode kM>
void F32ToBf16(void* dv, const void* av, const void*, size_t n) {
  uint16_t* __restrict d = Out<uint16_t>(dv);
  const uint32_t* __restrict a = In<uint32_t>(av);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t u = a[i], neg = u >> 31;
    const uint32_t bias = kM == kFloor   ? (neg ? 0xffffu : 0u)
                          : kM == kCeil  ? (neg ? 0u : 0xffffu)
                          : kM == kRound ? 0x8000u
                                         : 0u;
    d[i] = uint16_t((u + bias) >> 16);
  }
}
// Half by a directed mode: to nearest, then one step where that went the
// wrong way for the mode (down for floor, up for ceil, toward zero).
template <Mode kM>
void F32ToF16Directed(void* dv, const void* av, const void*, size_t n) {
  ToHalf(In<float>(av), Out<H>(dv), n);
  H* __restrict d = Out<H>(dv);
  const float* __restrict a = In<float>(av);
  for (size_t i = 0; i < n; ++i) {
    uint16_t u;
    std::memcpy(&u, &d[i], 2);
    const float r = float(d[i]);
    const bool step = kM == kFloor  ? r > a[i]
                      : kM == kCeil ? r < a[i]
                                    : std::fabs(r) > std::fabs(a[i]);
    const bool negative = (u & 0x8000u) != 0;
    const bool toward_zero = kM == kTrunc || (kM == kFloor ? !negative : negative);
    u = uint16_t(step ? (toward_zero ? u - 1 : u + 1) : u);
    std::memcpy(&d[i], &u, 2);
  }
}
// An integer into float by a directed mode: to nearest, then the next
// float toward the mode where that went the wrong way.
template <typename S, Mode kM>
void IntToF32Directed(void* dv, const void* av, const void*, size_t n) {
  float* __restrict d = Out<float>(dv);
  const S* __restrict a = In<S>(av);
  for (size_t i = 0; i < n; ++i) {
    const float r = float(a[i]);
    const bool above = r >= 0x1p63f || (r > -0x1p63f && int64_t(r) > int64_t(a[i]));
    const bool below = !above && int64_t(r) < int64_t(a[i]);
    d[i] = kM == kFloor                             ? (above ? std::nextafter(r, -INFINITY) : r)
           : kM == kCeil                            ? (below ? std::nextafter(r, INFINITY) : r)
           : ((r > 0 && above) || (r < 0 && below)) ? std::nextafter(r, 0.0f)
                                                    : r;
  }
}
void DuplicateU16(void* dv, const void*, const void*, size_t n) {
  uint16_t* __restrict d = Out<uint16_t>(dv);
  for (size_t i = 0; i < n; ++i) d[i] = 0x3e00u;  // half 1.5
}

// The narrowing compounds: the step in float (of half sources, rounded
// to half), Relu, the narrowing of the unit (saturated).
int8_t RintInt8(float x) {
  const float r = std::nearbyint(x);
  return int8_t(r != r ? 0 : r >= 127.0f ? 127 : r <= -128.0f ? -128 : int(r));
}
template <bool kMul>
void HalfStepToInt8(void* dv, const void* av, const void* bv, size_t n) {
  float x[256], y[256];
  int8_t* __restrict d = Out<int8_t>(dv);
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    ToFloat(In<H>(av) + at, x, m);
    ToFloat(In<H>(bv) + at, y, m);
    for (size_t i = 0; i < m; ++i) x[i] = kMul ? x[i] * y[i] : x[i] + y[i];
    H t[256];
    ToHalf(x, t, m);
    ToFloat(t, x, m);
    for (size_t i = 0; i < m; ++i) {
      d[at + i] = RintInt8(kMul ? x[i] : x[i] > 0.0f ? x[i] : 0.0f);
    }
  }
}
void AddReluCastI16I8(void* dv, const void* av, const void* bv, size_t n) {
  int8_t* __restrict d = Out<int8_t>(dv);
  const int16_t* __restrict a = In<int16_t>(av);
  const int16_t* __restrict b = In<int16_t>(bv);
  for (size_t i = 0; i < n; ++i) {
    const int16_t s = int16_t(a[i] + b[i]);
    d[i] = int8_t(s < 0 ? 0 : s > 127 ? 127 : s);
  }
}
template <bool kSub>
void ReluCastF32F16(void* dv, const void* av, const void* bv, size_t n) {
  float x[256];
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    const float* __restrict a = In<float>(av) + at;
    const float* __restrict b = In<float>(bv) + at;
    for (size_t i = 0; i < m; ++i) {
      const float s = kSub ? a[i] - b[i] : a[i] + b[i];
      x[i] = s > 65504.0f && s < INFINITY ? 65504.0f : s > 0.0f ? s : 0.0f;
    }
    ToHalf(x, Out<H>(dv) + at, m);
  }
}
// The sum in float scaled by 0.5 (the row's DEQSCALE), to half, Relu.
void AddDeqReluI32F16(void* dv, const void* av, const void* bv, size_t n) {
  float x[256];
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    const int32_t* __restrict a = In<int32_t>(av) + at;
    const int32_t* __restrict b = In<int32_t>(bv) + at;
    for (size_t i = 0; i < m; ++i) {
      const float s = float(int32_t(uint32_t(a[i]) + uint32_t(b[i]))) * 0.5f;
      x[i] = s > 0.0f ? s : 0.0f;
    }
    ToHalf(x, Out<H>(dv) + at, m);
  }
}

// Cast deq: the value in float scaled by 0.5 (the row's DEQSCALE), to half.
void CastDeqI32F16(void* dv, const void* av, const void*, size_t n) {
  float x[256];
  for (size_t at = 0; at < n; at += 256) {
    const size_t m = n - at < 256 ? n - at : 256;
    const int32_t* __restrict a = In<int32_t>(av) + at;
    for (size_t i = 0; i < m; ++i) x[i] = float(a[i]) * 0.5f;
    ToHalf(x, Out<H>(dv) + at, m);
  }
}
// CastDequant int16_t → 8 bits, in float: lane j of each 16 by set j
// (kQuantSets: the vdeq row's 16 sets, scale 1/64 + j/1024, offset j − 8;
// 1: the one set of the register row, scale 0.0123, offset 3), results into
// the upper (kUpper) or lower 16 bytes of each 32-byte block.
template <typename D, int kQuantSets, bool kUpper>
void QuantI16(void* dv, const void* av, const void*, size_t n) {
  D* __restrict d = Out<D>(dv);
  const int16_t* __restrict a = In<int16_t>(av);
  constexpr int32_t kLo = std::numeric_limits<D>::min(), kHi = std::numeric_limits<D>::max();
  float scale[16], offset[16];
  for (int j = 0; j < 16; ++j) {
    scale[j] = kQuantSets == 16 ? 0.015625f + float(j) * 0x1p-10f : 0.0123f;
    offset[j] = kQuantSets == 16 ? float(j - 8) : 3.0f;
  }
  for (size_t k = 0; k < n; k += 16) {
    D out[16];
    for (size_t j = 0; j < 16; ++j) {
      // The row's scales keep |a · scale| within int32_t.
      const int32_t r = int32_t(std::nearbyint(float(a[k + j]) * scale[j] + offset[j]));
      out[j] = D(r < kLo ? kLo : r > kHi ? kHi : r);
    }
    std::memcpy(d + 2 * k + (kUpper ? 16 : 0), out, 16);
  }
}

plain_loops::Fn kTable[plain_loops::kLoops] = {
    AbsF32,
    AbsF16,
    ReluF32,
    ReluF16,
    LeakyReluF32,
    LeakyReluF16,
    ExpF32,
    LnF32,
    SqrtF32,
    SqrtF16,
    RsqrtF32,
    ReciprocalF32,
    ReciprocalF16,
    AddI16,
    AddI32,
    AndU16,
    NotU16,
    ShiftLeftI32,
    ShiftRightI16,
    AxpyF32,
    AxpyF16,
    AxpyF32F16,
    FusedMulAddF32,
    MulAddDstF32,
    AddReluF32,
    AddReluF16,
    MulAddReluF32,
    CompareF32,
    SelectF32,
    SelectScalarF32,
    SelectF16,
    CastF16F32,
    CastF32F16,
    CastF32I32,
    CastI32F32,
    F32ToF16Directed<kFloor>,
    CastF32F16Odd,
    CastF32Bf16,
    CastBf16F32,
    CastBf16I32Ceil,
    CastF16I32Floor,
    CastF16I16,
    CastF16I8Trunc,
    CastF32I16Round,
    CastF32I64,
    CastF32F32Trunc,
    CastI32F32Floor,
    CastI32I16,
    CastI16F16,
    CastI8F16,
    DuplicateF32,
    DuplicateF16,
    AddF32,
    AndI16,
    OrU16,
    AndU32,
    OrI32,
    AndU8,
    OrI64,
    NotI16,
    NotU32,
    NotF32,
    NotF16,
    NotI8,
    NotU64,
    AndsU16,
    OrsI16,
    AndsI64,
    AddsI16,
    MulsI16,
    MaxsI16,
    MinsI16,
    AddsI32,
    MulsI32,
    MaxsI32,
    MinsI32,
    AddI8,
    SubU8,
    MaxI8,
    AddI64,
    MulI64,
    MinU64,
    AddsI8,
    MulsI64,
    SubReluF32,
    SubReluF16,
    DivF32,
    DivF16,
    MaxF16,
    MinF16,
    ReduceSumF32,
    ReduceSumF16,
    ReduceMaxF32,
    ReduceMaxIndexF32,
    ReduceMinF16,
    ReduceMinIndexF16,
    F32ToF16Directed<kCeil>,
    F32ToF16Directed<kTrunc>,
    HalfToInt<int32_t, kRint>,
    HalfToInt<int32_t, kRound>,
    HalfToInt<uint8_t, kRint>,
    HalfToInt<int16_t, kFloor>,
    HalfToInt<int8_t, kRint>,
    Convert<int16_t, float>,
    F32ToI16,
    Convert<uint8_t, H>,
    F32ToBf16<kFloor>,
    F32ToBf16<kTrunc>,
    F32ToBf16<kRound>,
    IntToF32Directed<int32_t, kCeil>,
    IntToF32Directed<int32_t, kTrunc>,
    Convert<int32_t, int64_t>,
    Saturate<int64_t, int32_t>,
    Convert<int64_t, float>,
    IntToF32Directed<int64_t, kFloor>,
    F32ToF32<kFloor>,
    F32ToF32<kRint>,
    F32ToF32<kRound>,
    DuplicateU16,
    HalfStepToInt8<false>,
    AddReluCastI16I8,
    ReluCastF32F16<false>,
    ReluCastF32F16<true>,
    HalfStepToInt8<true>,
    AddDeqReluI32F16,
    CastDeqI32F16,
    QuantI16<int8_t, 16, true>,
    QuantI16<uint8_t, 1, false>,
};

// vector_convert_test.cc — the conversion instructions
// (normgrad_ascendc/vector/vector_convert.h): Cast for every documented type
// pair of each profile in every rounding mode, against a reference written here
// (long double arithmetic, the neighbours of the exact value in the
// destination type picked by the mode), over every input of 8- and 16-bit
// sources and a dense sweep of float and 32/64-bit ones; modes and pairs a
// profile does not list fail with messages naming them; the level-0 forms
// (bit mask, continuous mask, counter mode set outside the call) with the
// lanes of the wider type and strides; Truncate; the DEQSCALE register
// (per core, reset per block) and Cast int32_t → half, CastDequant and
// AddDeqRelu, which read it. int4b_t (runtime/int4.h): the scalar type, its
// LocalTensor and GlobalTensor (packed two a byte, element 2i in the low
// nibble), DataCopy's count rules for it, and Cast half ↔ int4b_t over every
// half in every mode against a reference written here (double rounding by
// the C library, clamped to [-8, 7]), in the count and level-0 forms.
//
// Lane k of repeat r of an operand with e-byte elements lies at byte
//   r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e
// and a repeat has 256 / (the wider element size) lanes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::BinaryRepeatParams;
using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::UnaryRepeatParams;
using compat_test::FailsWith;
using compat_test::kFloatLike;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

constexpr uint32_t kBufferBytes = 32768;

template <typename T>
using Bits = std::conditional_t<
    sizeof(T) == 1, uint8_t,
    std::conditional_t<sizeof(T) == 2, uint16_t,
                       std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;

template <typename T>
Bits<T> BitsOf(T v) {
  Bits<T> b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}
template <typename T>
T FromBits(Bits<T> b) {
  T v;
  std::memcpy(static_cast<void*>(&v), &b, sizeof v);
  return v;
}

template <typename T>
long double Value(T v) {
  if constexpr (kFloatLike<T>) {
    return static_cast<long double>(static_cast<float>(v));
  } else {
    return static_cast<long double>(v);
  }
}

const RoundMode kModes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT,
                            RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                            RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                            RoundMode::CAST_ODD};

// ---- The reference ----------------------------------------------------------

// An integer by mode (CAST_NONE: nearest even).
long double RoundInteger(long double x, RoundMode mode) {
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return std::floor(x);
    case RoundMode::CAST_CEIL:
      return std::ceil(x);
    case RoundMode::CAST_TRUNC:
      return std::trunc(x);
    case RoundMode::CAST_ROUND:
      return std::round(x);
    default:
      return std::nearbyint(x);
  }
}

// The finite values of a 16-bit float type, ascending, with their bits.
template <typename T>
const std::vector<std::pair<long double, uint16_t>>& Ladder() {
  static const auto ladder = [] {
    std::vector<std::pair<long double, uint16_t>> v;
    for (uint32_t b = 0; b < 65536; ++b) {
      const long double x = Value(FromBits<T>(static_cast<uint16_t>(b)));
      if (std::isfinite(x) && b != 0x8000u) v.push_back({x, uint16_t(b)});
    }
    std::sort(v.begin(), v.end());
    return v;
  }();
  return ladder;
}

// x (finite, not representable) between neighbours lo < x < hi of T, by
// mode; `hi_over`/`lo_over` mark a neighbour beyond the largest finite value
// (it stands for ±inf, the next power of two by value).
template <typename T>
T Pick(long double x, long double lo, T lo_v, long double hi, T hi_v,
       RoundMode mode) {
  const bool lo_odd = (BitsOf(lo_v) & 1u) != 0;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return lo_v;
    case RoundMode::CAST_CEIL:
      return hi_v;
    case RoundMode::CAST_TRUNC:
      return x > 0 ? lo_v : hi_v;
    case RoundMode::CAST_ODD:
      return lo_odd ? lo_v : hi_v;
    case RoundMode::CAST_ROUND:
      if (x - lo == hi - x) return x > 0 ? hi_v : lo_v;
      return x - lo < hi - x ? lo_v : hi_v;
    default:
      if (x - lo == hi - x) return lo_odd ? hi_v : lo_v;
      return x - lo < hi - x ? lo_v : hi_v;
  }
}

template <typename T>
T RefFloat(long double x, RoundMode mode) {
  if (std::isnan(x)) return FromBits<T>(BitsOf(static_cast<T>(NAN)));
  if (std::isinf(x)) return static_cast<T>(static_cast<float>(x));
  const T inf = static_cast<T>(std::numeric_limits<float>::infinity());
  const T ninf = static_cast<T>(-std::numeric_limits<float>::infinity());
  long double lo, hi;
  T lo_v, hi_v;
  if constexpr (std::is_same_v<T, float>) {
    const float f = static_cast<float>(x);
    if (static_cast<long double>(f) == x) return f;
    if (std::isinf(f)) {  // beyond max + half an ulp
      const float max = std::numeric_limits<float>::max();
      lo = x > 0 ? max : -std::ldexp(1.0L, 128);
      hi = x > 0 ? std::ldexp(1.0L, 128) : -max;
      lo_v = x > 0 ? max : ninf;
      hi_v = x > 0 ? inf : -max;
    } else {
      lo_v = static_cast<long double>(f) < x ? f : std::nextafter(f, -INFINITY);
      hi_v = static_cast<long double>(f) > x ? f : std::nextafter(f, INFINITY);
      lo = std::isinf(lo_v) ? -std::ldexp(1.0L, 128) : lo_v;
      hi = std::isinf(hi_v) ? std::ldexp(1.0L, 128) : hi_v;
    }
  } else {
    const auto& l = Ladder<T>();
    auto it =
        std::lower_bound(l.begin(), l.end(), std::make_pair(x, uint16_t{0}));
    if (it != l.end() && it->first == x) {
      const T v = FromBits<T>(it->second);
      return x == 0 && std::signbit(x) ? -v : v;
    }
    // Beyond the ends: the next power of two, standing for inf.
    const long double top =
        2 * l.back().first -
        Value(FromBits<T>(static_cast<uint16_t>(l.back().second - 1)));
    if (it == l.end()) {
      lo = l.back().first, lo_v = FromBits<T>(l.back().second);
      hi = top, hi_v = inf;
    } else if (it == l.begin()) {
      lo = -top, lo_v = ninf;
      hi = it->first, hi_v = FromBits<T>(it->second);
    } else {
      lo = (it - 1)->first, lo_v = FromBits<T>((it - 1)->second);
      hi = it->first, hi_v = FromBits<T>(it->second);
    }
  }
  T r = Pick(x, lo, lo_v, hi, hi_v, mode);
  if (Value(r) == 0) {  // a zero result keeps x's sign
    const Bits<T> sign = Bits<T>{1} << (8 * sizeof(T) - 1);
    r = FromBits<T>(
        static_cast<Bits<T>>(x < 0 ? BitsOf(r) | sign : BitsOf(r) & ~sign));
  }
  return r;
}

template <typename D>
D RefInteger(long double x, RoundMode mode) {
  if (std::isnan(x)) return 0;
  const long double r = std::isinf(x) ? x : RoundInteger(x, mode);
  if (r <= static_cast<long double>(std::numeric_limits<D>::min())) {
    return std::numeric_limits<D>::min();
  }
  if (r >= static_cast<long double>(std::numeric_limits<D>::max())) {
    return std::numeric_limits<D>::max();
  }
  return static_cast<D>(r);
}

template <typename D, typename S>
D RefCast(S s, RoundMode mode) {
  long double x = Value(s);
  if constexpr (std::is_same_v<D, S>) {  // to an integral value
    if (std::isfinite(x)) {
      const long double r = RoundInteger(x, mode);
      x = r == 0 ? std::copysign(0.0L, x) : r;
    }
  }
  if constexpr (kFloatLike<D>) {
    return RefFloat<D>(x, mode);
  } else {
    return RefInteger<D>(x, mode);
  }
}

// ---- Inputs -----------------------------------------------------------------

template <typename S>
std::vector<S> Inputs() {
  std::vector<S> v;
  if constexpr (sizeof(S) <= 2) {
    for (uint32_t b = 0; b < (1u << (8 * sizeof(S))); ++b) {
      v.push_back(FromBits<S>(static_cast<Bits<S>>(b)));
    }
  } else if constexpr (std::is_same_v<S, float>) {
    // Every 16-bit top with low halves at the ties and next to them of
    // half (bit 12), bfloat16 (bit 15) and integers near 2^k.
    const uint32_t lows[] = {0,      1,      0x0FFF, 0x1000, 0x1001,
                             0x7FFF, 0x8000, 0x8001, 0xFFFF};
    for (uint32_t top = 0; top < 65536; ++top) {
      for (uint32_t low : lows) v.push_back(FromBits<float>(top << 16 | low));
    }
    for (float f = -300.0f; f <= 300.0f; f += 0.25f) v.push_back(f);
  } else {
    std::mt19937_64 gen(7);
    using L = std::numeric_limits<S>;
    const S edges[] = {L::min(), L::max(), 0, 1, static_cast<S>(-1)};
    for (S e : edges) v.push_back(e);
    for (int k = 0; k < 8 * static_cast<int>(sizeof(S)) - 1; ++k) {
      const auto p = static_cast<S>(uint64_t{1} << k);
      for (int d = -3; d <= 3; ++d) {
        v.push_back(static_cast<S>(p + d));
        v.push_back(static_cast<S>(-p + d));
      }
    }
    for (int i = 0; i < 40000; ++i) {
      const int shift = static_cast<int>(gen() % (8 * sizeof(S)));
      v.push_back(static_cast<S>(gen() >> shift));
    }
  }
  return v;
}

// ---- The UB -----------------------------------------------------------------

struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].template Get<T>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

template <typename T>
bool Same(T a, T b) {
  if constexpr (kFloatLike<T>) {
    if (std::isnan(static_cast<float>(a)))
      return std::isnan(static_cast<float>(b));
  }
  return BitsOf(a) == BitsOf(b);
}

std::string ModeText(RoundMode m) {
  static const char* kNames[] = {"CAST_NONE", "CAST_RINT",  "CAST_FLOOR",
                                 "CAST_CEIL", "CAST_ROUND", "CAST_TRUNC",
                                 "CAST_ODD",  "CAST_HYBRID"};
  return kNames[static_cast<int>(m)];
}

// Every input through the count form, compared with the reference.
template <typename D, typename S>
void CheckAllInputs(RoundMode mode) {
  Ub ub;
  const std::vector<S> in = Inputs<S>();
  const uint32_t chunk = kBufferBytes / 8;
  LocalTensor<S> src = ub.Get<S>(0);
  LocalTensor<D> dst = ub.Get<D>(1);
  for (size_t at = 0; at < in.size(); at += chunk) {
    const uint32_t n =
        static_cast<uint32_t>(std::min<size_t>(chunk, in.size() - at));
    for (uint32_t i = 0; i < n; ++i) src.SetValue(i, in[at + i]);
    AscendC::Cast(dst, src, mode, n);
    for (uint32_t i = 0; i < n; ++i) {
      const D want = RefCast<D>(in[at + i], mode);
      const D got = dst.GetValue(i);
      ASSERT_TRUE(Same(got, want))
          << normgrad_ascendc::TypeName<S>() << " → "
          << normgrad_ascendc::TypeName<D>() << " " << ModeText(mode)
          << ": input bits 0x" << std::hex << uint64_t(BitsOf(in[at + i]))
          << " got 0x" << uint64_t(BitsOf(got)) << " want 0x"
          << uint64_t(BitsOf(want));
    }
  }
}

// ---- The documented pairs ---------------------------------------------------

enum : uint8_t {
  N = 1 << 0,  // CAST_NONE
  R = 1 << 1,
  F = 1 << 2,
  C = 1 << 3,
  O = 1 << 4,  // CAST_ROUND
  T = 1 << 5,
  D = 1 << 6,  // CAST_ODD
  kFive = R | F | C | O | T,
};

// Modes per profile: a2, 310p, 950 (0: not listed).
struct Listed {
  uint8_t a2, p310, p950;
  uint8_t On(Profile p) const {
    return p == Profile::kA2 ? a2 : p == Profile::k310P ? p310 : p950;
  }
};

template <typename Dst, typename Src>
void CheckPair(Listed listed) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope on(p);
    const uint8_t modes = listed.On(p);
    for (RoundMode m : kModes) {
      const bool ok = modes != 0 && (m == RoundMode::CAST_NONE ||
                                     (modes >> static_cast<int>(m) & 1) != 0);
      SCOPED_TRACE(std::string(normgrad_ascendc::TypeName<Src>()) + " → " +
                   normgrad_ascendc::TypeName<Dst>() + " " + ModeText(m) +
                   " on " + normgrad_ascendc::GetProfileInfo(p).key);
      if (ok) {
        CheckAllInputs<Dst, Src>(m);
        continue;
      }
      Ub ub;
      const std::string expected =
          modes == 0
              ? std::string("converting ") + normgrad_ascendc::TypeName<Src>() +
                    " to " + normgrad_ascendc::TypeName<Dst>() +
                    " is not supported on profile " +
                    normgrad_ascendc::GetProfileInfo(p).name
              : "roundMode " + ModeText(m) + " is not supported for ";
      EXPECT_TRUE(FailsWith(
          [&] { AscendC::Cast(ub.Get<Dst>(1), ub.Get<Src>(0), m, 64); },
          expected));
    }
  }
}

TEST(Cast, WideningFromEightAndSixteenBits) {
  CheckPair<half, int8_t>({N, N, N});
  CheckPair<int16_t, int8_t>({0, 0, N});
  CheckPair<int32_t, int8_t>({0, 0, N});
  CheckPair<half, uint8_t>({N, N, N});
  CheckPair<uint16_t, uint8_t>({0, 0, N});
  CheckPair<uint32_t, uint8_t>({0, 0, N});
  CheckPair<half, int16_t>({kFive | N, N, kFive});
  CheckPair<float, int16_t>({N, 0, N});
  CheckPair<int32_t, int16_t>({0, 0, N});
  CheckPair<uint32_t, int16_t>({0, 0, N});
  CheckPair<uint8_t, int16_t>({0, 0, N});
  CheckPair<uint8_t, uint16_t>({0, 0, N});
  CheckPair<uint32_t, uint16_t>({0, 0, N});
}

TEST(Cast, FromHalf) {
  CheckPair<int8_t, half>({kFive | N, F | C | O | T | N, kFive});
  CheckPair<uint8_t, half>({kFive | N, F | C | O | T | N, kFive});
  CheckPair<int16_t, half>({kFive, R, kFive});
  CheckPair<int32_t, half>({kFive, kFive, kFive});
  CheckPair<float, half>({N, N, N});
  CheckPair<bfloat16_t, half>({0, 0, kFive});
}

TEST(Cast, FromBfloat16) {
  CheckPair<int32_t, bfloat16_t>({kFive, 0, kFive});
  CheckPair<float, bfloat16_t>({N, 0, N});
  CheckPair<half, bfloat16_t>({0, 0, kFive});
}

TEST(Cast, FromFloat) {
  CheckPair<int16_t, float>({kFive, 0, kFive});
  CheckPair<half, float>({kFive | D | N, D | N, kFive | D | N});
  CheckPair<bfloat16_t, float>({kFive, 0, kFive});
  CheckPair<int32_t, float>({kFive, 0, kFive});
  CheckPair<float, float>({kFive, 0, kFive});
  CheckPair<int64_t, float>({kFive, kFive, kFive});
}

TEST(Cast, FromThirtyTwoAndSixtyFourBitIntegers) {
  CheckPair<int16_t, int32_t>({N, N, N});
  CheckPair<uint8_t, int32_t>({0, 0, N});
  CheckPair<uint16_t, int32_t>({0, 0, N});
  CheckPair<float, int32_t>({kFive | N, N, kFive});
  CheckPair<int64_t, int32_t>({N, 0, N});
  CheckPair<uint8_t, uint32_t>({0, 0, N});
  CheckPair<int16_t, uint32_t>({0, 0, N});
  CheckPair<uint16_t, uint32_t>({0, 0, N});
  CheckPair<int32_t, int64_t>({N, 0, N});
  CheckPair<float, int64_t>({kFive, 0, kFive});
}

// The page's examples, as written there.
TEST(Cast, DocumentedExamples) {
  Ub ub;
  auto h = ub.Get<half>(0);
  auto i32 = ub.Get<int32_t>(1);
  const float in[] = {1.4f, 1.5f, 1.6f, 2.4f, 2.5f, 2.6f, -1.5f};
  for (int k = 0; k < 7; ++k) h.SetValue(k, half(in[k]));
  struct Case {
    RoundMode mode;
    std::vector<int32_t> want;
  };
  const Case cases[] = {{RoundMode::CAST_CEIL, {2, 2, 2, 3, 3, 3, -1}},
                        {RoundMode::CAST_RINT, {1, 2, 2, 2, 2, 3, -2}},
                        {RoundMode::CAST_FLOOR, {1, 1, 1, 2, 2, 2, -2}},
                        {RoundMode::CAST_ROUND, {1, 2, 2, 2, 3, 3, -2}},
                        {RoundMode::CAST_TRUNC, {1, 1, 1, 2, 2, 2, -1}}};
  for (const Case& c : cases) {
    AscendC::Cast(i32, h, c.mode, 7);
    for (int k = 0; k < 7; ++k) EXPECT_EQ(i32.GetValue(k), c.want[k]) << k;
  }
  // float → half, CAST_ODD: 0.5 + 2^-12 → 0.5 + 2^-11.
  auto f = ub.Get<float>(2);
  f.SetValue(0, 0.5f + std::ldexp(1.0f, -12));
  AscendC::Cast(h, f, RoundMode::CAST_ODD, 1);
  EXPECT_EQ(static_cast<float>(h.GetValue(0)), 0.5f + std::ldexp(1.0f, -11));
  // int32 → int16 saturates: 2^31 − 1 → 2^15 − 1.
  i32.SetValue(0, INT32_MAX);
  auto i16 = ub.Get<int16_t>(2);
  AscendC::Cast(i16, i32, RoundMode::CAST_NONE, 1);
  EXPECT_EQ(i16.GetValue(0), INT16_MAX);
}

// ---- Level-0 forms ----------------------------------------------------------

struct Stride {
  uint32_t block;
  uint32_t repeat;
};

uint32_t LaneIndex(uint32_t e, Stride s, uint32_t r, uint32_t k) {
  const uint32_t per_block = 32 / e;
  return (r * s.repeat * 32 + (k / per_block) * s.block * 32 +
          (k % per_block) * e) /
         e;
}

bool Selected(const uint64_t mask[2], uint32_t k) {
  return k < 64 ? (mask[0] >> k & 1) != 0 : (mask[1] >> (k - 64) & 1) != 0;
}

enum class Form { kBits, kContinuous, kCounter };

template <typename Dst, typename Src>
void CheckRepeatForm(Form form, uint64_t seed) {
  Ub ub;
  std::mt19937_64 gen(seed);
  constexpr uint32_t lanes = 256 / std::max(sizeof(Dst), sizeof(Src));
  LocalTensor<Src> src = ub.Get<Src>(0);
  LocalTensor<Dst> dst = ub.Get<Dst>(1);
  const std::vector<Src> pool = Inputs<Src>();
  for (uint32_t i = 0; i < src.GetSize(); ++i)
    src.SetValue(i, pool[gen() % pool.size()]);
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    dst.SetValue(i, FromBits<Dst>(static_cast<Bits<Dst>>(gen())));
  }
  const Stride ss{1 + static_cast<uint32_t>(gen() % 3), 0};
  const Stride ds{1 + static_cast<uint32_t>(gen() % 3), 0};
  // Repeat strides past a repeat's blocks, so repeats do not overlap.
  const Stride s{ss.block, 8 * ss.block * uint32_t(sizeof(Src)) * lanes / 256 +
                               uint32_t(gen() % 3)};
  const Stride d{ds.block, 8 * ds.block * uint32_t(sizeof(Dst)) * lanes / 256 +
                               uint32_t(gen() % 3)};
  const uint32_t repeats = 1 + static_cast<uint32_t>(gen() % 4);
  uint64_t mask[2] = {gen(), lanes > 64 ? gen() : 0};
  const uint64_t len = 1 + gen() % lanes;
  const uint64_t count = 1 + gen() % (repeats * lanes);
  std::vector<Dst> want(dst.GetSize());
  for (uint32_t i = 0; i < dst.GetSize(); ++i) want[i] = dst.GetValue(i);
  const RoundMode mode = std::is_same_v<Dst, int32_t> ? RoundMode::CAST_FLOOR
                                                      : RoundMode::CAST_NONE;
  uint32_t seen = 0;
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint32_t k = 0; k < lanes; ++k) {
      const bool on = form == Form::kBits         ? Selected(mask, k)
                      : form == Form::kContinuous ? k < len
                                                  : seen++ < count;
      if (!on) continue;
      want[LaneIndex(sizeof(Dst), d, r, k)] =
          RefCast<Dst>(src.GetValue(LaneIndex(sizeof(Src), s, r, k)), mode);
    }
  }
  const UnaryRepeatParams params(
      static_cast<uint16_t>(d.block), static_cast<uint16_t>(s.block),
      static_cast<uint8_t>(d.repeat), static_cast<uint8_t>(s.repeat));
  switch (form) {
    case Form::kBits:
      AscendC::Cast(dst, src, mode, mask, static_cast<uint8_t>(repeats),
                    params);
      break;
    case Form::kContinuous:
      AscendC::Cast(dst, src, mode, len, static_cast<uint8_t>(repeats), params);
      break;
    case Form::kCounter:
      AscendC::SetMaskCount();
      AscendC::SetVectorMask<Dst, AscendC::MaskMode::COUNTER>(0, count);
      AscendC::Cast<Dst, Src, false>(dst, src, mode, AscendC::MASK_PLACEHOLDER,
                                     1, params);
      AscendC::SetMaskNorm();
      AscendC::ResetMask();
      break;
  }
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    ASSERT_TRUE(Same(dst.GetValue(i), want[i]))
        << normgrad_ascendc::TypeName<Src>() << " → "
        << normgrad_ascendc::TypeName<Dst>() << " form "
        << static_cast<int>(form) << " element " << i;
  }
}

TEST(Cast, RepeatFormsUseTheWiderTypesLanes) {
  for (Form form : {Form::kBits, Form::kContinuous, Form::kCounter}) {
    for (uint64_t seed = 1; seed <= 6; ++seed) {
      CheckRepeatForm<int32_t, half>(form, seed);
      CheckRepeatForm<half, float>(form, seed);
      CheckRepeatForm<int16_t, int32_t>(form, seed);
      CheckRepeatForm<half, uint8_t>(form, seed);
      CheckRepeatForm<int64_t, int32_t>(form, seed);
      CheckRepeatForm<float, bfloat16_t>(form, seed);
    }
  }
}

// The page's example: half → int32_t, 64 lanes a repeat, dstRepStride 8,
// srcRepStride 4: 512 contiguous elements in 8 repeats.
TEST(Cast, DocumentedRepeatExample) {
  Ub ub;
  auto h = ub.Get<half>(0);
  auto d = ub.Get<int32_t>(1);
  for (uint32_t i = 0; i < 512; ++i) h.SetValue(i, half(1.4f + (i % 3)));
  AscendC::Cast(d, h, RoundMode::CAST_CEIL, uint64_t{64}, 8, {1, 1, 8, 4});
  for (uint32_t i = 0; i < 512; ++i)
    ASSERT_EQ(d.GetValue(i), 2 + int(i % 3)) << i;
}

// ---- Truncate ---------------------------------------------------------------

template <typename Tp, RoundMode kMode>
void CheckTruncate() {
  Ub ub;
  const std::vector<Tp> in = Inputs<Tp>();
  auto src = ub.Get<Tp>(0);
  auto dst = ub.Get<Tp>(1);
  const uint32_t chunk = kBufferBytes / sizeof(Tp);
  for (size_t at = 0; at < in.size(); at += chunk) {
    const uint32_t n =
        static_cast<uint32_t>(std::min<size_t>(chunk, in.size() - at));
    for (uint32_t i = 0; i < n; ++i) src.SetValue(i, in[at + i]);
    AscendC::Truncate<Tp, kMode>(dst, src, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_TRUE(Same(dst.GetValue(i), RefCast<Tp>(in[at + i], kMode)))
          << ModeText(kMode) << " input " << uint64_t(BitsOf(in[at + i]));
    }
  }
}

template <typename Tp>
void CheckTruncateModes() {
  CheckTruncate<Tp, RoundMode::CAST_RINT>();
  CheckTruncate<Tp, RoundMode::CAST_ROUND>();
  CheckTruncate<Tp, RoundMode::CAST_FLOOR>();
  CheckTruncate<Tp, RoundMode::CAST_CEIL>();
  CheckTruncate<Tp, RoundMode::CAST_TRUNC>();
}

// ---- The scalar Cast and ScalarCast -----------------------------------------

template <RoundMode kMode, typename U>
void CheckScalarCast(const std::vector<float>& inputs) {
  for (float x : inputs) {
    const U want = RefCast<U, float>(x, kMode);
    const U got = AscendC::Cast<float, U, kMode>(x);
    ASSERT_EQ(BitsOf(got), BitsOf(want)) << "x bits " << BitsOf(x);
    ASSERT_EQ(BitsOf(AscendC::ScalarCast<float, U, kMode>(x)), BitsOf(want))
        << "ScalarCast, x bits " << BitsOf(x);
  }
}

TEST(ScalarCast, EveryDocumentedCombinationBitForBit) {
  const std::vector<float> inputs = Inputs<float>();
  CheckScalarCast<RoundMode::CAST_ODD, half>(inputs);
  CheckScalarCast<RoundMode::CAST_ROUND, int32_t>(inputs);
  CheckScalarCast<RoundMode::CAST_CEIL, int32_t>(inputs);
  CheckScalarCast<RoundMode::CAST_FLOOR, int32_t>(inputs);
  CheckScalarCast<RoundMode::CAST_RINT, int32_t>(inputs);
}

TEST(ScalarCast, DocumentedExample) {
  // 3.14159 to half by round-to-odd: 3.142578125 (0x4249).
  EXPECT_EQ(BitsOf(AscendC::Cast<float, half, RoundMode::CAST_ODD>(3.14159f)),
            0x4249u);
  EXPECT_EQ(
      static_cast<float>(
          AscendC::ScalarCast<float, half, RoundMode::CAST_ODD>(3.14159f)),
      3.142578125f);
  const struct {
    float x;
    int32_t round, ceil, floor, rint;
  } kRows[] = {{1.5f, 2, 2, 1, 2}, {2.5f, 3, 3, 2, 2}};
  for (const auto& r : kRows) {
    EXPECT_EQ((AscendC::Cast<float, int32_t, RoundMode::CAST_ROUND>(r.x)),
              r.round);
    EXPECT_EQ((AscendC::Cast<float, int32_t, RoundMode::CAST_CEIL>(r.x)),
              r.ceil);
    EXPECT_EQ((AscendC::Cast<float, int32_t, RoundMode::CAST_FLOOR>(r.x)),
              r.floor);
    EXPECT_EQ((AscendC::ScalarCast<float, int32_t, RoundMode::CAST_RINT>(r.x)),
              r.rint);
  }
}

TEST(Truncate, EveryModeOnThe950) {
  const ProfileScope on(Profile::k950);
  CheckTruncateModes<half>();
  CheckTruncateModes<bfloat16_t>();
  CheckTruncateModes<float>();
  Ub ub;
  auto f = ub.Get<float>(0);
  f.SetValue(0, -37.063736f);
  f.SetValue(1, 64.17277f);
  AscendC::Truncate<float, RoundMode::CAST_FLOOR>(f, f, 2);
  EXPECT_EQ(f.GetValue(0), -38.0f);
  EXPECT_EQ(f.GetValue(1), 64.0f);
}

TEST(Truncate, OnlyOnThe950) {
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Truncate<float, RoundMode::CAST_RINT>(ub.Get<float>(1),
                                                       ub.Get<float>(0), 8);
      },
      "Truncate<float>: Truncate is not available on profile Atlas A2/A3"));
}

// ---- DEQSCALE ---------------------------------------------------------------

uint16_t HalfBits(float f) { return BitsOf(half(f)); }

// src · scale rounded to half, nearest even.
half RefDequant(int64_t src, half scale) {
  return RefFloat<half>(static_cast<long double>(src) * Value(scale),
                        RoundMode::CAST_RINT);
}

std::vector<int32_t> Int32Inputs() {
  std::vector<int32_t> v = Inputs<int32_t>();
  for (int32_t x = -70000; x <= 70000; x += 7) v.push_back(x);
  return v;
}

TEST(DeqScale, CastInt32ToHalfMultipliesByTheScale) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope on(p);
    Ub ub;
    const std::vector<int32_t> in = Int32Inputs();
    auto src = ub.Get<int32_t>(0);
    auto dst = ub.Get<half>(1);
    for (float scale : {1.0f, 0.1f, -3.5f, 1e-7f, 60000.0f}) {
      AscendC::SetDeqScale(half(scale));
      for (size_t at = 0; at < in.size(); at += 4096) {
        const uint32_t n =
            static_cast<uint32_t>(std::min<size_t>(4096, in.size() - at));
        for (uint32_t i = 0; i < n; ++i) src.SetValue(i, in[at + i]);
        // The mode is not read.
        AscendC::Cast(dst, src, RoundMode::CAST_FLOOR, n);
        for (uint32_t i = 0; i < n; ++i) {
          ASSERT_TRUE(
              Same(dst.GetValue(i), RefDequant(in[at + i], half(scale))))
              << "scale " << scale << " input " << in[at + i];
        }
        if (p == Profile::k310P) continue;  // no CastDequant there
        AscendC::CastDequant<half, int32_t>(dst, src, n);
        for (uint32_t i = 0; i < n; ++i) {
          ASSERT_TRUE(
              Same(dst.GetValue(i), RefDequant(in[at + i], half(scale))))
              << "CastDequant scale " << scale << " input " << in[at + i];
        }
      }
    }
  }
}

TEST(DeqScale, IsPerCoreAndResetWhenABlockStarts) {
  normgrad_ascendc::Core other;
  AscendC::SetDeqScale(half(2.0f));
  {
    const normgrad_ascendc::ScopedCore scope(other);
    EXPECT_EQ(normgrad_ascendc::DeqScaleRegister(), HalfBits(1.0f));
    AscendC::SetDeqScale(half(4.0f));
  }
  EXPECT_EQ(normgrad_ascendc::DeqScaleRegister(), HalfBits(2.0f));
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  EXPECT_EQ(normgrad_ascendc::DeqScaleRegister(), HalfBits(1.0f));
  // The quantization form: scale bits 0..31, 9-bit offset at 37, sign at 46.
  AscendC::SetDeqScale(1.5f, int16_t{-3}, true);
  uint32_t scale_bits;
  const float scale = 1.5f;
  std::memcpy(&scale_bits, &scale, 4);
  EXPECT_EQ(normgrad_ascendc::DeqScaleRegister(),
            uint64_t{scale_bits} | uint64_t{0x1FD} << 37 | uint64_t{1} << 46);
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
}

TEST(DeqScale, CastDequantForms) {
  Ub ub;
  std::mt19937 gen(3);
  auto src = ub.Get<int32_t>(0);
  auto dst = ub.Get<half>(1);
  for (uint32_t i = 0; i < src.GetSize(); ++i) {
    src.SetValue(i, static_cast<int32_t>(gen() % 200001) - 100000);
  }
  for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.SetValue(i, half(-7.0f));
  AscendC::SetDeqScale(half(0.1f));
  const uint64_t mask[2] = {0xF0F0F0F00F0F0F0Full, 0};
  std::vector<half> want(dst.GetSize());
  for (uint32_t i = 0; i < dst.GetSize(); ++i) want[i] = dst.GetValue(i);
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t k = 0; k < 64; ++k) {
      if (!Selected(mask, k)) continue;
      want[LaneIndex(2, {2, 9}, r, k)] =
          RefDequant(src.GetValue(LaneIndex(4, {1, 8}, r, k)), half(0.1f));
    }
  }
  AscendC::CastDequant<half, int32_t>(dst, src, mask, 3, {2, 1, 9, 8});
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    ASSERT_TRUE(Same(dst.GetValue(i), want[i])) << i;
  }
  AscendC::CastDequant<half, int32_t>(dst, src, 64, 2, {1, 1, 4, 8});
  for (uint32_t i = 0; i < 128; ++i) {
    ASSERT_TRUE(Same(dst.GetValue(i), RefDequant(src.GetValue(i), half(0.1f))))
        << i;
  }
  AscendC::SetDeqScale(half(1.0f));
}

half RefAddDeqRelu(int32_t a, int32_t b, half scale) {
  const auto sum =
      static_cast<int32_t>(static_cast<uint32_t>(a) + static_cast<uint32_t>(b));
  const half h = RefDequant(sum, scale);
  return static_cast<float>(h) > 0 ? h : half(0.0f);
}

TEST(DeqScale, AddDeqRelu) {
  Ub ub;
  std::mt19937 gen(5);
  auto a = ub.Get<int32_t>(0);
  auto b = ub.Get<int32_t>(1);
  auto dst = ub.Get<half>(2);
  for (uint32_t i = 0; i < a.GetSize(); ++i) {
    a.SetValue(i, static_cast<int32_t>(gen()));
    b.SetValue(i, static_cast<int32_t>(gen() % 2001) - 1000);
  }
  a.SetValue(0, INT32_MAX);  // wraps: INT32_MAX + 1 is INT32_MIN
  b.SetValue(0, 1);
  a.SetValue(1, 70);  // the page's example: (70 + 19) · 0.1 = 8.9
  b.SetValue(1, 19);
  for (float scale : {0.1f, 1e-5f, -2.0f}) {
    AscendC::SetDeqScale(half(scale));
    AscendC::AddDeqRelu(dst, a, b, 4096);
    for (uint32_t i = 0; i < 4096; ++i) {
      ASSERT_TRUE(
          Same(dst.GetValue(i),
               RefAddDeqRelu(a.GetValue(i), b.GetValue(i), half(scale))))
          << "scale " << scale << " element " << i;
    }
  }
  AscendC::SetDeqScale(half(0.1f));
  AscendC::AddDeqRelu(dst, a, b, 2);
  EXPECT_EQ(static_cast<float>(dst.GetValue(1)),
            static_cast<float>(half(8.9f)));
  // Level 0: 64 lanes, dst repeats of 4 blocks.
  for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.SetValue(i, half(-1.0f));
  AscendC::AddDeqRelu(dst, a, b, uint64_t{40}, 4, {1, 1, 1, 4, 8, 8});
  for (uint32_t i = 0; i < 256; ++i) {
    const uint32_t k = i % 64;
    const half want =
        k < 40 ? RefAddDeqRelu(a.GetValue(i), b.GetValue(i), half(0.1f))
               : half(-1.0f);
    ASSERT_TRUE(Same(dst.GetValue(i), want)) << i;
  }
  uint64_t mask[2] = {0x5555555555555555ull, 0};
  AscendC::AddDeqRelu(dst, a, b, mask, 1, {1, 1, 1, 4, 8, 8});
  EXPECT_TRUE(Same(dst.GetValue(0),
                   RefAddDeqRelu(a.GetValue(0), b.GetValue(0), half(0.1f))));
  AscendC::SetDeqScale(half(1.0f));
}

// ---- CastDequant int16_t → 8 bits ------------------------------------------

// One quantization set, as the page lays it out.
struct Set {
  float scale;
  int16_t offset;
  bool sign;
};

// saturate(rint(src · scale + offset)), the scale read with 10 mantissa
// bits (the rest dropped), offset a 9-bit signed value.
int32_t RefQuant(int16_t src, Set q) {
  uint32_t b;
  std::memcpy(&b, &q.scale, 4);
  b &= 0xFFFFE000u;
  float scale;
  std::memcpy(&scale, &b, 4);
  int32_t offset = q.offset & 0x1FF;
  if (offset >= 256) offset -= 512;
  const long double v =
      std::nearbyint(static_cast<long double>(src) * scale + offset);
  const long double lo = q.sign ? -128 : 0, hi = q.sign ? 127 : 255;
  if (std::isnan(v)) return 0;
  return static_cast<int32_t>(std::min(hi, std::max(lo, v)));
}

// The page's example: every set scale 1, offset 0, unsigned; with halfBlock
// each block's 16 results fill its upper 16 bytes.
TEST(CastDequant, DocumentedExample) {
  Ub ub;
  auto src = ub.Get<int16_t>(0);
  auto dst = ub.Get<uint8_t>(1);
  auto vdeq = ub.Get<uint64_t>(2);
  for (uint32_t i = 0; i < 256; ++i) src.SetValue(i, int16_t(i % 100));
  for (uint32_t i = 0; i < 512; ++i) dst.SetValue(i, uint8_t{0});
  float scale[16];
  int16_t offset[16];
  bool sign[16];
  for (int j = 0; j < 16; ++j) scale[j] = 1.0f, offset[j] = 0, sign[j] = false;
  AscendC::SetDeqScale<uint64_t>(vdeq, AscendC::VdeqInfo(scale, offset, sign));
  AscendC::CastDequant<uint8_t, int16_t, true, true>(dst, src, 256);
  for (uint32_t b = 0; b < 16; ++b) {
    for (uint32_t j = 0; j < 32; ++j) {
      const int want = j < 16 ? 0 : static_cast<int>((b * 16 + j - 16) % 100);
      ASSERT_EQ(dst.GetValue(b * 32 + j), want) << b << " " << j;
    }
  }
  AscendC::SetDeqScale(half(1.0f));
}

template <typename Dst>
void CheckQuantEveryInput(Set q, bool half_block) {
  Ub ub;
  auto src = ub.Get<int16_t>(0);
  auto dst = ub.Get<Dst>(1);
  AscendC::SetDeqScale(q.scale, q.offset, q.sign);
  const uint32_t chunk = 4096;
  for (uint32_t at = 0; at < 65536; at += chunk) {
    for (uint32_t i = 0; i < chunk; ++i) src.SetValue(i, int16_t(at + i));
    for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.SetValue(i, Dst(0x5A));
    if (half_block) {
      AscendC::CastDequant<Dst, int16_t, false, true>(dst, src, chunk);
    } else {
      AscendC::CastDequant<Dst, int16_t, false, false>(dst, src, chunk);
    }
    for (uint32_t i = 0; i < chunk; ++i) {
      const uint32_t byte = (i / 16) * 32 + (half_block ? 16 : 0) + i % 16;
      ASSERT_EQ(static_cast<int32_t>(dst.GetValue(byte)),
                RefQuant(int16_t(at + i), q))
          << "scale " << q.scale << " offset " << q.offset << " input "
          << int16_t(at + i);
      const uint32_t other = (i / 16) * 32 + (half_block ? 0 : 16) + i % 16;
      ASSERT_EQ(dst.GetValue(other), Dst(0x5A))
          << "the other half, byte " << other;
    }
  }
}

TEST(CastDequant, EveryInt16PerTensor) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope on(p);
    for (bool half_block : {false, true}) {
      CheckQuantEveryInput<int8_t>({0.01f, 3, true}, half_block);
      CheckQuantEveryInput<int8_t>({-1.0f / 3, -256, true}, half_block);
      CheckQuantEveryInput<uint8_t>({1.0f, 0, false}, half_block);
      CheckQuantEveryInput<uint8_t>({0.5f, 255, false}, half_block);  // −1
      CheckQuantEveryInput<uint8_t>({0.003f, 17, false}, half_block);
    }
  }
  AscendC::SetDeqScale(half(1.0f));
}

// Vector quantization: lane j of each block uses set j; level-0 forms with
// strides, the full mask and a mask selecting lanes 0..7 of each block.
TEST(CastDequant, VectorQuantizationAndRepeatForms) {
  Ub ub;
  std::mt19937 gen(11);
  auto src = ub.Get<int16_t>(0);
  auto dst = ub.Get<int8_t>(1);
  auto vdeq = ub.Get<uint64_t>(2);
  for (uint32_t i = 0; i < src.GetSize(); ++i) src.SetValue(i, int16_t(gen()));
  Set sets[16];
  float scale[16];
  int16_t offset[16];
  bool sign[16];
  for (int j = 0; j < 16; ++j) {
    sets[j] = {std::ldexp(1.0f + j / 16.0f, -int(j % 9)),
               int16_t(int(gen() % 512) - 256), true};
    scale[j] = sets[j].scale, offset[j] = sets[j].offset, sign[j] = true;
  }
  AscendC::SetDeqScale(vdeq, AscendC::VdeqInfo(scale, offset, sign));
  for (uint32_t i = 0; i < dst.GetSize(); ++i) dst.SetValue(i, int8_t(gen()));
  std::vector<int8_t> want(dst.GetSize());
  for (uint32_t i = 0; i < dst.GetSize(); ++i) want[i] = dst.GetValue(i);
  const uint64_t mask[2] = {0x00FF00FF00FF00FFull, 0x00FF00FF00FF00FFull};
  // dst blocks 2 apart, repeats 20 blocks apart; src blocks contiguous.
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t k = 0; k < 128; ++k) {
      if (!Selected(mask, k)) continue;
      const uint32_t byte = r * 20 * 32 + (k / 16) * 2 * 32 + k % 16;
      want[byte] = static_cast<int8_t>(
          RefQuant(src.GetValue(r * 128 + k), sets[k % 16]));
    }
  }
  AscendC::CastDequant<int8_t, int16_t, true, true, false>(dst, src, mask, 3,
                                                           {2, 1, 20, 8});
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    ASSERT_EQ(dst.GetValue(i), want[i]) << "byte " << i;
  }
  AscendC::CastDequant<int8_t, int16_t, true, true, true>(dst, src, 128, 2,
                                                          {1, 1, 8, 8});
  for (uint32_t k = 0; k < 256; ++k) {
    const uint32_t byte = (k / 16) * 32 + 16 + k % 16;
    ASSERT_EQ(dst.GetValue(byte),
              static_cast<int8_t>(RefQuant(src.GetValue(k), sets[k % 16])))
        << k;
  }
  // Lanes 0..7 selected and halfBlock: their bytes 16..23 are slot lanes
  // 8..11, which the mask leaves out.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CastDequant<int8_t, int16_t, true, true, true>(dst, src, mask,
                                                                1, {});
      },
      "CastDequant: lane 0 of a repeat is selected but lane 8"));
  AscendC::SetDeqScale(half(1.0f));
}

TEST(CastDequant, BadUse) {
  Ub ub;
  AscendC::SetDeqScale(1.0f, 0, false);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CastDequant<int8_t, int16_t, false>(ub.Get<int8_t>(1),
                                                     ub.Get<int16_t>(0), 64);
      },
      "CastDequant<int8_t, int16_t>: signMode 0 does not match the "
      "destination type (int8_t takes signMode true, uint8_t false)"));
  AscendC::VdeqInfo info;
  LocalTensor<uint64_t> small = ub.Get<uint64_t>(2);
  small.SetSize(8);
  EXPECT_TRUE(FailsWith([&] { AscendC::SetDeqScale(small, info); },
                        "SetDeqScale: vdeq has 64 bytes, fewer than the 128 "
                        "its 16 sets take"));
  AscendC::SetDeqScale(half(1.0f));
}

// ---- Bad use ----------------------------------------------------------------

TEST(Cast, BadUseMessages) {
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub.Get<bfloat16_t>(1), ub.Get<half>(0),
                      RoundMode::CAST_RINT, 64);
      },
      "Cast<bfloat16_t, half>: converting half to bfloat16_t is not "
      "supported on profile Atlas A2/A3 (Cast converts half to: int8_t, "
      "uint8_t, int16_t, int32_t, float there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub.Get<int32_t>(1), ub.Get<float>(0), RoundMode::CAST_ODD,
                      64);
      },
      "Cast<int32_t, float>: roundMode CAST_ODD is not supported for float → "
      "int32_t on profile Atlas A2/A3 (it takes CAST_RINT, CAST_FLOOR, "
      "CAST_CEIL, CAST_ROUND, CAST_TRUNC there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub.Get<half>(1), ub.Get<float>(0), RoundMode::CAST_RINT,
                      9000);
      },
      "Cast<half, float>: src has 8192 elements, fewer than count 9000"));
}

TEST(Cast, BadUseMessagesOn310P) {
  const ProfileScope on(Profile::k310P);
  Ub ub310;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub310.Get<half>(1), ub310.Get<float>(0),
                      RoundMode::CAST_RINT, 64);
      },
      "roundMode CAST_RINT is not supported for float → half on profile "
      "Atlas inference series (it takes CAST_NONE, CAST_ODD there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CastDequant<half, int32_t>(ub310.Get<half>(1),
                                            ub310.Get<int32_t>(0), 64);
      },
      "CastDequant<half, int32_t>: this type pair is not available on "
      "profile Atlas inference series"));
}

// ---- int4b_t ----------------------------------------------------------------

using AscendC::int4b_t;

// The value the Cast page gives half → int4b_t: the half rounded by the mode,
// NaN 0, saturated to [-8, 7].
int RefInt4(uint16_t bits, RoundMode mode) {
  const double x = compat_test::HalfBitsToFloat(bits);
  if (std::isnan(x)) return 0;
  double r;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      r = std::floor(x);
      break;
    case RoundMode::CAST_CEIL:
      r = std::ceil(x);
      break;
    case RoundMode::CAST_TRUNC:
      r = std::trunc(x);
      break;
    case RoundMode::CAST_ROUND:
      r = std::round(x);  // ties away from zero
      break;
    default:
      r = std::nearbyint(x);  // ties to even
  }
  return static_cast<int>(std::clamp(r, -8.0, 7.0));
}

// Element i of packed bytes, written from the layout rule, not the library's.
int NibbleOf(const uint8_t* bytes, uint32_t i) {
  const int n = i % 2 == 0 ? bytes[i / 2] & 0xF : bytes[i / 2] >> 4;
  return n >= 8 ? n - 16 : n;
}

TEST(Int4, ScalarKeepsTheLowFourBits) {
  EXPECT_EQ(int(int4b_t(7)), 7);
  EXPECT_EQ(int(int4b_t(-8)), -8);
  EXPECT_EQ(int(int4b_t(8)), -8);
  EXPECT_EQ(int(int4b_t(9)), -7);
  EXPECT_EQ(int(int4b_t(-9)), 7);
  EXPECT_EQ(sizeof(int4b_t), 1u);
}

TEST(Int4, LocalTensorCountsElementsTwoAByte) {
  Ub ub;
  LocalTensor<uint8_t> bytes = ub.Get<uint8_t>(0);
  bytes.SetSize(64);
  LocalTensor<int4b_t> t = bytes.ReinterpretCast<int4b_t>();
  EXPECT_EQ(t.GetSize(), 128u);
  EXPECT_EQ(t.GetLength(), 64u);
  t.SetValue(0, 3);
  t.SetValue(1, -2);
  t.SetValue(127, -8);
  EXPECT_EQ(bytes.GetValue(0), 0xE3);  // element 0 low, element 1 high
  EXPECT_EQ(bytes.GetValue(63) >> 4, 0x8);
  EXPECT_EQ(int(t.GetValue(1)), -2);
  t.SetValue(0, 7);  // the byte's other element keeps its value
  EXPECT_EQ(bytes.GetValue(0), 0xE7);
  const LocalTensor<int4b_t> tail = t[2];
  EXPECT_EQ(tail.GetSize(), 126u);
  EXPECT_EQ(tail.view().offset, t.view().offset + 1);
  EXPECT_EQ(int(tail.GetValue(125)), -8);
  t.SetSize(5);
  EXPECT_EQ(t.GetSize(), 5u);
  EXPECT_EQ(t.GetLength(), 3u);
  EXPECT_EQ(t.ReinterpretCast<uint8_t>().GetSize(), 3u);
  EXPECT_TRUE(FailsWith([&] { t[3]; },
                        "LocalTensor<int4b_t>::operator[]: offset 3 is odd; "
                        "an int4b_t view starts on a whole byte"));
  EXPECT_TRUE(FailsWith([&] { t[6]; },
                        "LocalTensor<int4b_t>::operator[]: offset 6 is past "
                        "the end of a tensor of 5 elements"));
  EXPECT_TRUE(FailsWith([&] { t.GetValue(5); },
                        "LocalTensor<int4b_t>::GetValue: index 5 is past the "
                        "end of a tensor of 5 elements"));
}

TEST(Int4, GlobalTensorCountsElementsTwoAByte) {
  std::vector<uint8_t> host = {0x21, 0x8F, 0x70, 0x00};
  AscendC::GlobalTensor<int4b_t> g;
  g.SetGlobalBuffer(reinterpret_cast<int4b_t*>(host.data()), 8);
  EXPECT_EQ(g.GetSize(), 8u);
  const int want[] = {1, 2, -1, -8, 0, 7, 0, 0};
  for (uint32_t i = 0; i < 8; ++i) EXPECT_EQ(int(g.GetValue(i)), want[i]) << i;
  g.SetValue(3, 5);
  EXPECT_EQ(host[1], 0x5F);
  const auto moved = g[4];
  EXPECT_EQ(moved.GetSize(), 4u);
  EXPECT_EQ(int(moved.GetValue(1)), 7);
  EXPECT_EQ(static_cast<void*>(moved.GetPhyAddr()),
            static_cast<void*>(host.data() + 2));
  EXPECT_TRUE(FailsWith([&] { g[1]; },
                        "GlobalTensor<int4b_t>::operator[]: offset 1 is odd"));
  EXPECT_TRUE(FailsWith([&] { g.GetValue(8); },
                        "GlobalTensor<int4b_t>::GetValue: index 8 is past the "
                        "end of a tensor of 8 elements"));
}

TEST(Int4, DataCopyMovesEvenCountsOfWholeBlocks) {
  Ub ub;
  std::vector<uint8_t> in(96), out(96, 0);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37);
  AscendC::GlobalTensor<int4b_t> gin, gout;
  gin.SetGlobalBuffer(reinterpret_cast<int4b_t*>(in.data()), 192);
  gout.SetGlobalBuffer(reinterpret_cast<int4b_t*>(out.data()), 192);
  LocalTensor<int4b_t> t = ub.Get<int4b_t>(0);
  AscendC::DataCopy(t, gin[64], 128);  // bytes 32..95
  for (uint32_t i = 0; i < 128; ++i)
    ASSERT_EQ(int(t.GetValue(i)), NibbleOf(in.data() + 32, i)) << i;
  AscendC::DataCopy(gout, t, 128);
  for (uint32_t i = 0; i < 64; ++i) ASSERT_EQ(out[i], in[32 + i]) << i;
  // The block form counts 32-byte blocks, as for every type.
  AscendC::DataCopy(t, gin, AscendC::DataCopyParams{1, 3, 0, 0});
  EXPECT_EQ(int(t.GetValue(191)), NibbleOf(in.data(), 191));
  LocalTensor<int4b_t> other = ub.Get<int4b_t>(1);
  AscendC::Copy(other, t, 6);
  EXPECT_EQ(int(other.GetValue(5)), NibbleOf(in.data(), 5));

  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(t, gin, 63); },
                        "DataCopy<int4b_t> GM->UB: count 63 is odd; int4b_t "
                        "elements move two a byte, so the count must be even"));
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(gout, t, 100); },
                        "DataCopy<int4b_t> UB->GM: count 100 (50 bytes) is "
                        "not a multiple of 32 bytes (64 elements)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(t, gin, 256); },
                        "DataCopy<int4b_t> GM->UB: count 256 exceeds the src "
                        "GlobalTensor of 192 elements"));
  AscendC::SliceInfo slice[1];
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(t, gin, slice, slice); },
                        "the slice form (SliceInfo) is not modelled for "
                        "int4b_t"));
}

// Every half through half → int4b_t in `mode`, and the results back.
void CheckInt4AllHalves(RoundMode mode) {
  Ub ub;
  auto src = ub.Get<half>(0);
  auto packed = ub.Get<int4b_t>(1);
  auto back = ub.Get<half>(2);
  constexpr uint32_t kChunk = kBufferBytes / 2;
  for (uint32_t at = 0; at < 65536; at += kChunk) {
    for (uint32_t i = 0; i < kChunk; ++i)
      src.SetValue(i, FromBits<half>(static_cast<uint16_t>(at + i)));
    AscendC::Cast(packed, src, mode, kChunk);
    AscendC::Cast(back, packed, RoundMode::CAST_NONE, kChunk);
    const auto* bytes = reinterpret_cast<const uint8_t*>(packed.GetPhyAddr());
    for (uint32_t i = 0; i < kChunk; ++i) {
      const int want = RefInt4(static_cast<uint16_t>(at + i), mode);
      ASSERT_EQ(NibbleOf(bytes, i), want)
          << ModeText(mode) << " half bits 0x" << std::hex << at + i;
      ASSERT_EQ(static_cast<float>(back.GetValue(i)), float(want))
          << "int4b_t → half of " << want;
    }
  }
}

TEST(Int4, CastEveryHalfInEveryMode) {
  for (RoundMode mode :
       {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
        RoundMode::CAST_CEIL, RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    CheckInt4AllHalves(mode);
  }
}

TEST(Int4, CastDocumentedValues) {
  Ub ub;
  auto h = ub.Get<half>(0);
  auto q = ub.Get<int4b_t>(1);
  // The precision-conversion page's example (1.5) and the boundary table:
  // ±inf to the ends, NaN to 0, out of range saturated.
  const float in[] = {1.5f, -1.5f, INFINITY, -INFINITY, NAN, 100.0f, -9.0f, 0};
  for (uint32_t i = 0; i < 8; ++i) h.SetValue(i, half(in[i]));
  const struct {
    RoundMode mode;
    int first_two[2];
  } cases[] = {{RoundMode::CAST_RINT, {2, -2}},
               {RoundMode::CAST_FLOOR, {1, -2}},
               {RoundMode::CAST_CEIL, {2, -1}},
               {RoundMode::CAST_ROUND, {2, -2}},
               {RoundMode::CAST_TRUNC, {1, -1}}};
  for (const auto& c : cases) {
    AscendC::Cast(q, h, c.mode, 8);
    EXPECT_EQ(int(q.GetValue(0)), c.first_two[0]) << ModeText(c.mode);
    EXPECT_EQ(int(q.GetValue(1)), c.first_two[1]) << ModeText(c.mode);
    const int rest[] = {7, -8, 0, 7, -8, 0};
    for (uint32_t i = 2; i < 8; ++i)
      EXPECT_EQ(int(q.GetValue(i)), rest[i - 2]) << ModeText(c.mode) << i;
  }
}

// The page's repeat example: 128 lanes, dstRepStride 2 (64 bytes of
// int4b_t), srcRepStride 8; then a bit mask of byte pairs and counter mode.
TEST(Int4, CastRepeatForms) {
  Ub ub;
  auto h = ub.Get<half>(0);
  auto bytes = ub.Get<uint8_t>(1);
  auto q = bytes.ReinterpretCast<int4b_t>();
  for (uint32_t i = 0; i < 512; ++i) h.SetValue(i, half(float(i % 15) - 7.3f));
  AscendC::Cast<int4b_t, half>(q, h, RoundMode::CAST_CEIL, uint64_t{128}, 4,
                               {1, 1, 2, 8});
  for (uint32_t i = 0; i < 512; ++i)
    ASSERT_EQ(int(q.GetValue(i)), int(std::ceil(float(i % 15) - 7.3f))) << i;

  // Pairs of lanes 0-1 and 64-65 of each repeat; the others keep their bytes.
  for (uint32_t i = 0; i < 256; ++i) bytes.SetValue(i, 0x55);
  uint64_t mask[2] = {0x3, 0x3};
  AscendC::Cast<int4b_t, half>(q, h, RoundMode::CAST_TRUNC, mask, 2,
                               {1, 1, 2, 8});
  for (uint32_t i = 0; i < 256; ++i) {
    const bool picked = i % 64 < 2;
    const int want = picked ? int(std::trunc(float(i % 15) - 7.3f)) : 5;
    ASSERT_EQ(int(q.GetValue(i)), want) << i;
  }
  // The register is left as the mask argument set it (half's lanes).
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().low, 0x3u);
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().high, 0x3u);

  // int4b_t → half, counter mode: 200 elements over two repeats.
  auto back = ub.Get<half>(2);
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(0, 200);
  AscendC::Cast<half, int4b_t, false>(back, q, RoundMode::CAST_NONE,
                                      AscendC::MASK_PLACEHOLDER, 1,
                                      {1, 1, 8, 2});
  for (uint32_t i = 0; i < 200; ++i)
    ASSERT_EQ(float(back.GetValue(i)), float(int(q.GetValue(i)))) << i;
  AscendC::SetVectorMask<half, AscendC::MaskMode::COUNTER>(0, 201);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast<half, int4b_t, false>(back, q, RoundMode::CAST_NONE,
                                            AscendC::MASK_PLACEHOLDER, 1,
                                            {1, 1, 8, 2});
      },
      "Cast<half, int4b_t>: the mask register's count 201 (counter mode) is "
      "odd"));
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
}

TEST(Int4, CastBadUse) {
  {
    Ub ub;
    auto h = ub.Get<half>(0);
    auto q = ub.Get<int4b_t>(1);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Cast(q, h, RoundMode::CAST_RINT, 127); },
        "Cast<int4b_t, half>: count 127 is odd; int4b_t elements go two a "
        "byte, so the count must be even"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Cast(h, q, RoundMode::CAST_NONE, 16386); },
        "Cast<half, int4b_t>: dst has 16384 elements, fewer than count 16386"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Cast(h, q, RoundMode::CAST_FLOOR, 64); },
        "Cast<half, int4b_t>: roundMode CAST_FLOOR is not supported for "
        "int4b_t → half on profile Atlas A2/A3 (it takes CAST_NONE there)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Cast<int4b_t, half>(q, h, RoundMode::CAST_RINT,
                                       uint64_t{127}, 1, {1, 1, 2, 8});
        },
        "Cast<int4b_t, half>: the mask selects lane 126 but not lane 127; "
        "int4b_t elements go two a byte"));
    uint64_t mask[2] = {0x2, 0};
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Cast<int4b_t, half>(q, h, RoundMode::CAST_RINT, mask, 1,
                                       {1, 1, 2, 8});
        },
        "the mask selects lane 1 but not lane 0"));
    AscendC::ResetMask();
  }
  const ProfileScope on(Profile::k310P);
  Ub ub310;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub310.Get<half>(0), ub310.Get<int4b_t>(1),
                      RoundMode::CAST_NONE, 64);
      },
      "Cast<half, int4b_t>: converting int4b_t to half is not supported on "
      "profile Atlas inference series"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Cast(ub310.Get<int4b_t>(1), ub310.Get<half>(0),
                      RoundMode::CAST_RINT, 64);
      },
      "roundMode CAST_RINT is not supported for half → int4b_t on profile "
      "Atlas inference series (it takes CAST_NONE there)"));
}

}  // namespace

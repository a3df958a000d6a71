// vector_convert.cc — the conversion instructions
// (normgrad_ascendc/vector/vector_convert.h): the per-profile table of Cast's
// type pairs and rounding modes, the element conversion (every value decoded
// exactly as sign · m · 2^e and rounded once into the destination), the
// DEQSCALE register and the dequantizing spans. half ↔ float and
// float ↔ int32_t in the modes a loop computes exactly run the engine's
// loops for the instruction set it picks, and every other pair but those
// from int64_t the engine's generic conversion loops.
#include "normgrad_ascendc/vector/vector_convert.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc/vector/vector_loops.h"
#include "kernels/kernels.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"

namespace normgrad_ascendc {

using AscendC::RoundMode;

namespace {

// ---- The documented pairs ---------------------------------------------------

constexpr uint8_t Mode(RoundMode m) {
  return static_cast<uint8_t>(1u << static_cast<unsigned>(m));
}
constexpr uint8_t kNone = Mode(RoundMode::CAST_NONE);
constexpr uint8_t kFive =
    Mode(RoundMode::CAST_RINT) | Mode(RoundMode::CAST_FLOOR) |
    Mode(RoundMode::CAST_CEIL) | Mode(RoundMode::CAST_ROUND) |
    Mode(RoundMode::CAST_TRUNC);
constexpr uint8_t kFourNoRint =
    static_cast<uint8_t>(kFive & ~Mode(RoundMode::CAST_RINT));
constexpr uint8_t kOdd = Mode(RoundMode::CAST_ODD);
// The DEQSCALE pair (int32_t → half): its mode is not read.
constexpr uint8_t kDeq = 0xFF;

struct CastPair {
  uint32_t src;
  uint32_t dst;
  uint8_t modes;
};

constexpr CastPair kA2Pairs[] = {
    {kTypeInt8, kTypeHalf, kNone},
    {kTypeUint8, kTypeHalf, kNone},
    {kTypeInt16, kTypeHalf, kFive | kNone},
    {kTypeInt16, kTypeFloat, kNone},
    {kTypeHalf, kTypeInt8, kFive | kNone},
    {kTypeHalf, kTypeUint8, kFive | kNone},
    {kTypeHalf, kTypeInt16, kFive},
    {kTypeHalf, kTypeInt32, kFive},
    {kTypeHalf, kTypeFloat, kNone},
    {kTypeBfloat16, kTypeInt32, kFive},
    {kTypeBfloat16, kTypeFloat, kNone},
    {kTypeInt32, kTypeInt16, kNone},
    {kTypeInt32, kTypeHalf, kDeq},
    {kTypeInt32, kTypeFloat, kFive | kNone},
    {kTypeInt32, kTypeInt64, kNone},
    {kTypeFloat, kTypeInt16, kFive},
    {kTypeFloat, kTypeHalf, kFive | kOdd | kNone},
    {kTypeFloat, kTypeBfloat16, kFive},
    {kTypeFloat, kTypeInt32, kFive},
    {kTypeFloat, kTypeFloat, kFive},
    {kTypeFloat, kTypeInt64, kFive},
    {kTypeInt64, kTypeInt32, kNone},
    {kTypeInt64, kTypeFloat, kFive},
};

constexpr CastPair k310PPairs[] = {
    {kTypeInt8, kTypeHalf, kNone},
    {kTypeUint8, kTypeHalf, kNone},
    {kTypeInt16, kTypeHalf, kNone},
    {kTypeHalf, kTypeInt8, kFourNoRint | kNone},
    {kTypeHalf, kTypeUint8, kFourNoRint | kNone},
    {kTypeHalf, kTypeInt16, Mode(RoundMode::CAST_RINT)},
    {kTypeHalf, kTypeInt32, kFive},
    {kTypeHalf, kTypeFloat, kNone},
    {kTypeInt32, kTypeInt16, kNone},
    {kTypeInt32, kTypeHalf, kDeq},
    {kTypeInt32, kTypeFloat, kNone},
    {kTypeFloat, kTypeHalf, kOdd | kNone},
    {kTypeFloat, kTypeInt64, kFive},
};

constexpr CastPair k950Pairs[] = {
    {kTypeInt8, kTypeInt16, kNone},
    {kTypeInt8, kTypeHalf, kNone},
    {kTypeInt8, kTypeInt32, kNone},
    {kTypeUint8, kTypeUint16, kNone},
    {kTypeUint8, kTypeHalf, kNone},
    {kTypeUint8, kTypeUint32, kNone},
    {kTypeInt16, kTypeUint8, kNone},
    {kTypeInt16, kTypeHalf, kFive},
    {kTypeInt16, kTypeInt32, kNone},
    {kTypeInt16, kTypeUint32, kNone},
    {kTypeInt16, kTypeFloat, kNone},
    {kTypeUint16, kTypeUint8, kNone},
    {kTypeUint16, kTypeUint32, kNone},
    {kTypeHalf, kTypeInt8, kFive},
    {kTypeHalf, kTypeUint8, kFive},
    {kTypeHalf, kTypeInt16, kFive},
    {kTypeHalf, kTypeBfloat16, kFive},
    {kTypeHalf, kTypeInt32, kFive},
    {kTypeHalf, kTypeFloat, kNone},
    {kTypeBfloat16, kTypeHalf, kFive},
    {kTypeBfloat16, kTypeInt32, kFive},
    {kTypeBfloat16, kTypeFloat, kNone},
    {kTypeInt32, kTypeUint8, kNone},
    {kTypeInt32, kTypeInt16, kNone},
    {kTypeInt32, kTypeUint16, kNone},
    {kTypeInt32, kTypeHalf, kDeq},
    {kTypeInt32, kTypeFloat, kFive},
    {kTypeInt32, kTypeInt64, kNone},
    {kTypeUint32, kTypeUint8, kNone},
    {kTypeUint32, kTypeInt16, kNone},
    {kTypeUint32, kTypeUint16, kNone},
    {kTypeFloat, kTypeInt16, kFive},
    {kTypeFloat, kTypeHalf, kFive | kOdd | kNone},
    {kTypeFloat, kTypeBfloat16, kFive},
    {kTypeFloat, kTypeInt32, kFive},
    {kTypeFloat, kTypeFloat, kFive},
    {kTypeFloat, kTypeInt64, kFive},
    {kTypeInt64, kTypeInt32, kNone},
    {kTypeInt64, kTypeFloat, kFive},
};

struct PairTable {
  const CastPair* pairs;
  size_t size;
};

PairTable PairsOf(Profile profile) {
  switch (profile) {
    case Profile::k310P:
      return {k310PPairs, sizeof k310PPairs / sizeof k310PPairs[0]};
    case Profile::k950:
      return {k950Pairs, sizeof k950Pairs / sizeof k950Pairs[0]};
    case Profile::kA2:
      break;
  }
  return {kA2Pairs, sizeof kA2Pairs / sizeof kA2Pairs[0]};
}

// The modes of a profile's pair (0: not a pair), looked up by the source's
// and destination's type bits: the tables indexed once, as Cast checks its
// pair at every call.
uint8_t PairModes(Profile profile, uint32_t src_bit, uint32_t dst_bit) {
  constexpr int kBits = 11;  // kTypeInt8 (bit 0) .. kTypeFloat (bit 10)
  struct Index {
    uint8_t modes[3][kBits][kBits];
  };
  static const Index index = [] {
    Index x{};
    for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
      const PairTable table = PairsOf(p);
      for (size_t i = 0; i < table.size; ++i) {
        const CastPair& pair = table.pairs[i];
        x.modes[static_cast<int>(p)][__builtin_ctz(pair.src)]
               [__builtin_ctz(pair.dst)] = pair.modes;
      }
    }
    return x;
  }();
  if (__builtin_popcount(src_bit) != 1 || __builtin_popcount(dst_bit) != 1 ||
      (src_bit | dst_bit) >= 1u << kBits) {
    return 0;  // not one type of the tables
  }
  return index.modes[static_cast<int>(profile)][__builtin_ctz(src_bit)]
                    [__builtin_ctz(dst_bit)];
}

const char* BitName(uint32_t bit) {
  static constexpr const char* kNames[] = {
      "int8_t",  "uint8_t",  "int16_t", "uint16_t",   "int32_t", "uint32_t",
      "int64_t", "uint64_t", "half",    "bfloat16_t", "float"};
  for (uint32_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    if (bit == 1u << i) return kNames[i];
  }
  return "?";
}

const char* ModeName(RoundMode m) {
  static constexpr const char* kNames[] = {
      "CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
      "CAST_ROUND", "CAST_TRUNC", "CAST_ODD",   "CAST_HYBRID"};
  const auto i = static_cast<unsigned>(m);
  return i < sizeof kNames / sizeof kNames[0] ? kNames[i] : "?";
}

// Appends "a, b" items to a message buffer.
class List {
 public:
  void Add(const char* item) {
    const int n = std::snprintf(text_ + at_, sizeof text_ - at_, "%s%s",
                                at_ == 0 ? "" : ", ", item);
    if (n > 0 && static_cast<size_t>(n) < sizeof text_ - at_) at_ += n;
  }
  const char* text() const { return at_ == 0 ? "nothing" : text_; }

 private:
  char text_[400] = {};
  size_t at_ = 0;
};

// ---- Exact values -----------------------------------------------------------

// A value as sign · m · 2^e, or an infinity or NaN.
struct Exact {
  bool neg = false;
  uint64_t m = 0;
  int e = 0;
  enum Kind : uint8_t { kFinite, kInf, kNan } kind = kFinite;
};

// An IEEE binary format: p significand bits (the leading one included),
// normal exponents emin..emax (the bias is emax).
struct Format {
  int p;
  int emin;
  int emax;
  int bits;
};
constexpr Format kHalfFormat{11, -14, 15, 16};
constexpr Format kBfloat16Format{8, -126, 127, 16};
constexpr Format kFloatFormat{24, -126, 127, 32};

const Format* FormatOf(uint32_t bit) {
  switch (bit) {
    case kTypeHalf:
      return &kHalfFormat;
    case kTypeBfloat16:
      return &kBfloat16Format;
    case kTypeFloat:
      return &kFloatFormat;
    default:
      return nullptr;
  }
}

int BitLength(uint64_t x) {
  int n = 0;
  while (x != 0) {
    ++n;
    x >>= 1;
  }
  return n;
}

Exact DecodeFloat(uint32_t bits, const Format& f) {
  const int frac_bits = f.p - 1;
  const int exp_bits = f.bits - 1 - frac_bits;
  const uint32_t exp_all = (1u << exp_bits) - 1;
  Exact x;
  x.neg = (bits >> (f.bits - 1) & 1u) != 0;
  const uint32_t biased = bits >> frac_bits & exp_all;
  const uint64_t frac = bits & ((1u << frac_bits) - 1);
  if (biased == exp_all) {
    x.kind = frac == 0 ? Exact::kInf : Exact::kNan;
  } else if (biased == 0) {
    x.m = frac;
    x.e = f.emin - frac_bits;
  } else {
    x.m = frac | uint64_t{1} << frac_bits;
    x.e = static_cast<int>(biased) - f.emax - frac_bits;
  }
  return x;
}

Exact DecodeInteger(int64_t v) {
  Exact x;
  x.neg = v < 0;
  x.m =
      x.neg ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return x;
}

// Element i of type T at b.
template <typename T>
T LoadAt(const uint8_t* b, uint32_t i) {
  T v;
  std::memcpy(&v, b + sizeof(T) * uint64_t{i}, sizeof(T));
  return v;
}

Exact Decode(uint32_t bit, const void* p, uint32_t i) {
  const auto* b = static_cast<const uint8_t*>(p);
  switch (bit) {
    case kTypeInt8:
      return DecodeInteger(LoadAt<int8_t>(b, i));
    case kTypeUint8:
      return DecodeInteger(LoadAt<uint8_t>(b, i));
    case kTypeInt16:
      return DecodeInteger(LoadAt<int16_t>(b, i));
    case kTypeUint16:
      return DecodeInteger(LoadAt<uint16_t>(b, i));
    case kTypeInt32:
      return DecodeInteger(LoadAt<int32_t>(b, i));
    case kTypeUint32:
      return DecodeInteger(LoadAt<uint32_t>(b, i));
    case kTypeInt64:
      return DecodeInteger(LoadAt<int64_t>(b, i));
    case kTypeHalf:
    case kTypeBfloat16:
      return DecodeFloat(LoadAt<uint16_t>(b, i), *FormatOf(bit));
    default:
      return DecodeFloat(LoadAt<uint32_t>(b, i), kFloatFormat);
  }
}

// m / 2^shift rounded to an integer by `mode`, for a value of sign `neg`.
uint64_t RoundShift(uint64_t m, int shift, bool neg, RoundMode mode) {
  if (shift <= 0) return m;
  uint64_t q;
  bool inexact;
  int half_cmp;  // the discarded part against one half: −1, 0, +1
  if (shift >= 64) {
    q = 0;
    inexact = m != 0;
    const uint64_t half = uint64_t{1} << 63;
    half_cmp = shift > 64 || m < half ? -1 : (m > half ? 1 : 0);
  } else {
    q = m >> shift;
    const uint64_t rem = m & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    inexact = rem != 0;
    half_cmp = rem < half ? -1 : (rem > half ? 1 : 0);
  }
  if (!inexact) return q;
  switch (mode) {
    case RoundMode::CAST_TRUNC:
      return q;
    case RoundMode::CAST_FLOOR:
      return neg ? q + 1 : q;
    case RoundMode::CAST_CEIL:
      return neg ? q : q + 1;
    case RoundMode::CAST_ROUND:
      return half_cmp >= 0 ? q + 1 : q;
    case RoundMode::CAST_ODD:
      return q | 1u;
    default:  // CAST_NONE, CAST_RINT
      return half_cmp > 0 || (half_cmp == 0 && (q & 1u) != 0) ? q + 1 : q;
  }
}

uint32_t EncodeFloat(const Exact& x, const Format& f, RoundMode mode) {
  const int frac_bits = f.p - 1;
  const uint32_t sign = x.neg ? 1u << (f.bits - 1) : 0u;
  const uint32_t inf = ((1u << (f.bits - 1 - frac_bits)) - 1) << frac_bits;
  const uint32_t max_finite = inf - 1;
  if (x.kind == Exact::kNan) return inf | 1u << (frac_bits - 1);
  if (x.kind == Exact::kInf) return sign | inf;
  if (x.m == 0) return sign;
  const int top = x.e + BitLength(x.m) - 1;  // exponent of the leading bit
  const int lsb = (top > f.emin ? top : f.emin) - frac_bits;
  uint64_t q =
      lsb <= x.e ? x.m << (x.e - lsb) : RoundShift(x.m, lsb - x.e, x.neg, mode);
  if (q == 0) return sign;
  int q_lsb = lsb;
  if (BitLength(q) > f.p) {  // rounding carried into a new leading bit
    q >>= 1;
    ++q_lsb;
  }
  const int q_top = q_lsb + BitLength(q) - 1;
  if (q_top > f.emax) {
    bool to_inf = false;
    switch (mode) {
      case RoundMode::CAST_TRUNC:
      case RoundMode::CAST_ODD:
        break;
      case RoundMode::CAST_FLOOR:
        to_inf = x.neg;
        break;
      case RoundMode::CAST_CEIL:
        to_inf = !x.neg;
        break;
      default:
        to_inf = true;
    }
    return sign | (to_inf ? inf : max_finite);
  }
  if (q_top < f.emin) return sign | static_cast<uint32_t>(q);  // subnormal
  const uint32_t biased = static_cast<uint32_t>(q_top + f.emax);
  return sign | biased << frac_bits |
         (static_cast<uint32_t>(q) & ((1u << frac_bits) - 1));
}

// The integer nearest by `mode`, saturated to [lo, hi]; NaN gives 0.
int64_t EncodeInteger(const Exact& x, RoundMode mode, int64_t lo, uint64_t hi) {
  if (x.kind == Exact::kNan) return 0;
  if (x.kind == Exact::kInf) return x.neg ? lo : static_cast<int64_t>(hi);
  uint64_t q;
  if (x.e >= 0) {
    if (x.m != 0 && BitLength(x.m) + x.e > 64) {
      return x.neg ? lo : static_cast<int64_t>(hi);
    }
    q = x.m << x.e;
  } else {
    q = RoundShift(x.m, -x.e, x.neg, mode);
  }
  if (x.neg) {
    if (lo == 0 || q > uint64_t{0} - static_cast<uint64_t>(lo)) {
      return q == 0 ? 0 : lo;
    }
    return static_cast<int64_t>(uint64_t{0} - q);
  }
  return static_cast<int64_t>(q > hi ? hi : q);
}

// x rounded to an integral value by `mode`, in the same exact form.
Exact RoundIntegral(Exact x, RoundMode mode) {
  if (x.kind != Exact::kFinite || x.e >= 0) return x;
  x.m = RoundShift(x.m, -x.e, x.neg, mode);
  x.e = 0;
  return x;
}

void Store(uint32_t bit, void* p, uint32_t i, const Exact& x, RoundMode mode) {
  auto* b = static_cast<uint8_t*>(p);
  auto put = [&](auto v) {
    std::memcpy(b + sizeof v * uint64_t{i}, &v, sizeof v);
  };
  switch (bit) {
    case kTypeInt8:
      put(static_cast<int8_t>(EncodeInteger(x, mode, INT8_MIN, INT8_MAX)));
      break;
    case kTypeUint8:
      put(static_cast<uint8_t>(EncodeInteger(x, mode, 0, UINT8_MAX)));
      break;
    case kTypeInt16:
      put(static_cast<int16_t>(EncodeInteger(x, mode, INT16_MIN, INT16_MAX)));
      break;
    case kTypeUint16:
      put(static_cast<uint16_t>(EncodeInteger(x, mode, 0, UINT16_MAX)));
      break;
    case kTypeInt32:
      put(static_cast<int32_t>(EncodeInteger(x, mode, INT32_MIN, INT32_MAX)));
      break;
    case kTypeUint32:
      put(static_cast<uint32_t>(EncodeInteger(x, mode, 0, UINT32_MAX)));
      break;
    case kTypeInt64:
      put(EncodeInteger(x, mode, INT64_MIN, INT64_MAX));
      break;
    case kTypeHalf:
    case kTypeBfloat16:
      put(static_cast<uint16_t>(EncodeFloat(x, *FormatOf(bit), mode)));
      break;
    default:
      put(EncodeFloat(x, kFloatFormat, mode));
      break;
  }
}

// src · scale, exactly.
Exact Scaled(int64_t src, uint16_t scale) {
  const Exact s = DecodeFloat(scale, kHalfFormat);
  Exact x = DecodeInteger(src);
  if (s.kind == Exact::kNan || (s.kind == Exact::kInf && x.m == 0)) {
    x.kind = Exact::kNan;
    return x;
  }
  x.neg = x.neg != s.neg;
  if (s.kind == Exact::kInf) {
    x.kind = Exact::kInf;
    return x;
  }
  x.m *= s.m;  // < 2^32 · 2^11
  x.e = s.e;
  return x;
}

uint16_t DequantOne(int64_t src, uint16_t scale) {
  return static_cast<uint16_t>(
      EncodeFloat(Scaled(src, scale), kHalfFormat, RoundMode::CAST_RINT));
}

// The engine's index of a type (kernels::CastType), or −1 (uint64_t).
int CastTypeOf(uint32_t bit) {
  using normgrad::kernels::CastType;
  switch (bit) {
    case kTypeInt8:
      return static_cast<int>(CastType::kI8);
    case kTypeUint8:
      return static_cast<int>(CastType::kU8);
    case kTypeInt16:
      return static_cast<int>(CastType::kI16);
    case kTypeUint16:
      return static_cast<int>(CastType::kU16);
    case kTypeInt32:
      return static_cast<int>(CastType::kI32);
    case kTypeUint32:
      return static_cast<int>(CastType::kU32);
    case kTypeInt64:
      return static_cast<int>(CastType::kI64);
    case kTypeHalf:
      return static_cast<int>(CastType::kF16);
    case kTypeBfloat16:
      return static_cast<int>(CastType::kBf16);
    case kTypeFloat:
      return static_cast<int>(CastType::kF32);
    default:
      return -1;
  }
}

bool IsFloatBit(uint32_t bit) { return FormatOf(bit) != nullptr; }

// The engine's index of a rounding (kernels::CastRound); the others round
// as CAST_RINT, as RoundShift does.
int RoundOf(RoundMode mode) {
  using normgrad::kernels::CastRound;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      return static_cast<int>(CastRound::kFloor);
    case RoundMode::CAST_CEIL:
      return static_cast<int>(CastRound::kCeil);
    case RoundMode::CAST_TRUNC:
      return static_cast<int>(CastRound::kTrunc);
    case RoundMode::CAST_ROUND:
      return static_cast<int>(CastRound::kRound);
    case RoundMode::CAST_ODD:
      return static_cast<int>(CastRound::kOdd);
    default:
      return static_cast<int>(CastRound::kRint);
  }
}

}  // namespace

bool CheckCastPair(const char* type, uint32_t dst_bit, uint32_t src_bit,
                   RoundMode mode) {
  const ProfileInfo& profile = CurrentCore().profile();
  const uint8_t pair_modes = PairModes(profile.profile, src_bit, dst_bit);
  if (pair_modes == kDeq) return true;
  if (pair_modes != 0) {
    if (mode == RoundMode::CAST_NONE || (pair_modes & Mode(mode)) != 0)
      return false;
    List modes;
    for (unsigned m = 0; m < 8; ++m) {
      if ((pair_modes >> m & 1u) != 0) modes.Add(ModeName(RoundMode(m)));
    }
    Fail(
        "Cast<%s>: roundMode %s is not supported for %s → %s on profile %s "
        "(it takes %s there)",
        type, ModeName(mode), BitName(src_bit), BitName(dst_bit), profile.name,
        modes.text());
  }
  const PairTable table = PairsOf(profile.profile);
  List targets;
  for (size_t i = 0; i < table.size; ++i) {
    if (table.pairs[i].src == src_bit) targets.Add(BitName(table.pairs[i].dst));
  }
  Fail(
      "Cast<%s>: converting %s to %s is not supported on profile %s (Cast "
      "converts %s to: %s there)",
      type, BitName(src_bit), BitName(dst_bit), profile.name, BitName(src_bit),
      targets.text());
}

// ---- int4b_t
// -----------------------------------------------------------------

void CheckInt4CastPair(const char* type, bool to_int4, RoundMode mode) {
  const ProfileInfo& profile = CurrentCore().profile();
  // The Cast page's tables: half → int4b_t by the five modes on A2/A3 and
  // the 950, by CAST_NONE on the 310P; int4b_t → half by CAST_NONE, not on
  // the 310P.
  uint8_t modes = to_int4 ? kFive | kNone : kNone;
  if (profile.profile == Profile::k310P) modes = to_int4 ? kNone : 0;
  if (modes == 0) {
    Fail(
        "Cast<%s>: converting int4b_t to half is not supported on profile %s "
        "(Cast converts half to int4b_t there, not back)",
        type, profile.name);
  }
  if (mode == RoundMode::CAST_NONE || (modes & Mode(mode)) != 0) return;
  List names;
  for (unsigned m = 0; m < 8; ++m) {
    if ((modes >> m & 1u) != 0) names.Add(ModeName(RoundMode(m)));
  }
  Fail(
      "Cast<%s>: roundMode %s is not supported for %s on profile %s (it takes "
      "%s there)",
      type, ModeName(mode), to_int4 ? "half → int4b_t" : "int4b_t → half",
      profile.name, names.text());
}

namespace {
constexpr uint32_t kPairChunk = 128;  // lane pairs converted at a time
int Int4Saturate(int16_t v) { return v < -8 ? -8 : v > 7 ? 7 : v; }
}  // namespace

// Each half rounded to an integer by the mode as Cast half → int16_t rounds
// it (NaN 0, ±inf the ends), then saturated to [-8, 7]: clamping after the
// int16_t saturation is clamping the rounded value, as [-8, 7] lies inside.
void Int4FromHalfSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const ConvertParams*>(a.params);
  const auto* src = static_cast<const uint16_t*>(a.operand[1]);
  auto* dst = static_cast<uint8_t*>(a.operand[0]);
  int16_t rounded[2 * kPairChunk];
  for (uint32_t done = 0; done < a.n;) {
    const uint32_t pairs = std::min(a.n - done, kPairChunk);
    ConvertImpl(kTypeInt16, rounded, kTypeHalf, src + 2 * uint64_t{done},
                p.mode, 2 * pairs);
    for (uint32_t k = 0; k < pairs; ++k) {
      const int even = Int4Saturate(rounded[2 * k]);
      const int odd = Int4Saturate(rounded[2 * k + 1]);
      dst[done + k] = static_cast<uint8_t>((even & 0xF) | (odd & 0xF) << 4);
    }
    done += pairs;
  }
}

// Each element sign-extended to int8_t, then converted as Cast int8_t →
// half (exact).
void HalfFromInt4Span(const SpanArgs& a) {
  const auto* src = static_cast<const uint8_t*>(a.operand[1]);
  auto* dst = static_cast<uint16_t*>(a.operand[0]);
  int8_t wide[2 * kPairChunk];
  for (uint32_t done = 0; done < a.n;) {
    const uint32_t pairs = std::min(a.n - done, kPairChunk);
    for (uint32_t i = 0; i < 2 * pairs; ++i) {
      wide[i] = static_cast<int8_t>(Int4At(src + done, i));
    }
    ConvertImpl(kTypeHalf, dst + 2 * uint64_t{done}, kTypeInt8, wide,
                RoundMode::CAST_NONE, 2 * pairs);
    done += pairs;
  }
}

void CheckInt4Count(const VecInstruction& in, int64_t count, uint64_t dst_elems,
                    uint64_t src_elems) {
  if (count < 0) {
    Fail("%s<%s>: count %lld is negative", in.api, in.type,
         static_cast<long long>(count));
  }
  if (count % 2 != 0) {
    Fail(
        "%s<%s>: count %lld is odd; int4b_t elements go two a byte, so the "
        "count must be even",
        in.api, in.type, static_cast<long long>(count));
  }
  const struct {
    const char* name;
    uint64_t elems;
  } operands[] = {{"dst", dst_elems}, {"src", src_elems}};
  for (const auto& o : operands) {
    if (static_cast<uint64_t>(count) > o.elems) {
      Fail("%s<%s>: %s has %llu elements, fewer than count %lld", in.api,
           in.type, o.name, static_cast<unsigned long long>(o.elems),
           static_cast<long long>(count));
    }
  }
}

void ExecuteInt4Repeats(const VecInstruction& in, int64_t repeat_time) {
  VectorMask& reg = CurrentCore().vector_mask();
  const VectorMask saved = reg;
  VectorMask pairs = saved;
  if (saved.mode == AscendC::MaskMode::COUNTER) {
    if (saved.low % 2 != 0) {
      Fail(
          "%s<%s>: the mask register's count %llu (counter mode) is odd; "
          "int4b_t elements go two a byte, so it must be even",
          in.api, in.type, static_cast<unsigned long long>(saved.low));
    }
    pairs.low = saved.low / 2;
  } else {
    pairs.low = 0;
    pairs.high = 0;
    for (uint32_t k = 0; k < 64; ++k) {
      const uint32_t lane = 2 * k;
      const uint64_t word = lane < 64 ? saved.low : saved.high;
      const bool first = (word >> (lane % 64) & 1u) != 0;
      const bool second = (word >> (lane % 64 + 1) & 1u) != 0;
      if (first != second) {
        Fail(
            "%s<%s>: the mask selects lane %u but not lane %u; int4b_t "
            "elements go two a byte, so the mask selects both lanes of a "
            "byte or neither",
            in.api, in.type, first ? lane : lane + 1, first ? lane + 1 : lane);
      }
      if (first) pairs.low |= uint64_t{1} << k;
    }
  }
  // The register holds the pairs for the run only, whatever happens in it.
  struct Restore {
    VectorMask& reg;
    VectorMask value;
    ~Restore() { reg = value; }
  } restore{reg, saved};
  reg = pairs;
  ExecuteRepeats(in, repeat_time);
}

void CheckDeqProfile(const char* api, const char* type, bool on_310p) {
  const ProfileInfo& profile = CurrentCore().profile();
  if (profile.profile == Profile::k310P && !on_310p) {
    Fail("%s<%s>: this type pair is not available on profile %s", api, type,
         profile.name);
  }
}

uint64_t& DeqScaleRegister() { return CurrentCore().deq_scale(); }

uint64_t QuantSet(float scale, int16_t offset, bool sign_mode) {
  uint32_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  const uint64_t offset9 = static_cast<uint16_t>(offset) & 0x1FFu;
  return uint64_t{bits} | offset9 << 37 | uint64_t{sign_mode ? 1u : 0u} << 46;
}

void SetVdeq(const TensorView& vdeq, uint32_t bytes,
             const AscendC::VdeqInfo& info) {
  vdeq.CheckUbOperand("SetDeqScale", "vdeq");
  if (bytes < 16 * sizeof(uint64_t)) {
    Fail("SetDeqScale: vdeq has %u bytes, fewer than the 128 its 16 sets take",
         bytes);
  }
  for (int i = 0; i < 16; ++i) {
    const uint64_t set =
        QuantSet(info.vdeqScale[i], info.vdeqOffset[i], info.vdeqSignMode[i]);
    std::memcpy(vdeq.data() + 8 * i, &set, sizeof set);
  }
  DeqScaleRegister() = vdeq.offset / 32;
}

void LoadQuantParams(const char* type, bool is_signed, bool vec_deq,
                     bool upper_half, QuantParams& params) {
  const uint64_t reg = DeqScaleRegister();
  if (vec_deq) {
    Core& core = CurrentCore();
    const uint64_t at = (reg & 0x3FFFu) * 32;
    if (at + sizeof params.entry > core.ub_size()) {
      Fail(
          "CastDequant<%s>: DEQSCALE points at UB offset %llu, where the 16 "
          "sets of 8 bytes do not fit (SetDeqScale with a vdeq tensor sets it)",
          type, static_cast<unsigned long long>(at));
    }
    std::memcpy(params.entry, core.ub() + at, sizeof params.entry);
  } else {
    for (uint64_t& e : params.entry) e = reg;
  }
  for (int j = 0; j < 16; ++j) {
    const bool sign_mode = (params.entry[j] >> 46 & 1u) != 0;
    if (sign_mode != is_signed) {
      Fail(
          "CastDequant<%s>: signMode %d%s does not match the destination type "
          "(int8_t takes signMode true, uint8_t false)",
          type, sign_mode ? 1 : 0, vec_deq ? " of a vdeq set" : "");
    }
  }
  params.upper_half = upper_half;
  params.is_signed = is_signed;
}

namespace {
// A set's scale (its low 13 mantissa bits are not read: it has 10) and
// its 9-bit signed offset.
float QuantScale(uint64_t set) {
  const uint32_t scale_bits = static_cast<uint32_t>(set) & ~uint32_t{0x1FFF};
  float scale;
  std::memcpy(&scale, &scale_bits, sizeof scale);
  return scale;
}
int32_t QuantOffset(uint64_t set) {
  const auto offset = static_cast<int32_t>(set >> 37 & 0x1FFu);
  return offset >= 256 ? offset - 512 : offset;
}
}  // namespace

// Every lane of the span through the engine's loop (the element rule:
// rint(src · scale + offset) in double, NaN 0, saturated); under a mask
// (one repeat), the lanes up to the last selected one's 32-byte block into
// a buffer, of which the selected lanes' bytes are then written.
void QuantSpan(const SpanArgs& a) {
  const auto& p = *static_cast<const QuantParams*>(a.params);
  const auto* src = static_cast<const int16_t*>(a.operand[1]);
  auto* dst = static_cast<uint8_t*>(a.operand[0]);
  float scale[16];
  int32_t offset[16];
  for (int j = 0; j < 16; ++j) {
    scale[j] = QuantScale(p.entry[j]);
    offset[j] = QuantOffset(p.entry[j]);
  }
  const auto quant = VectorLoops().vector.quant_i16_b8[p.is_signed ? 1 : 0];
  if (a.every_lane) {  // the count form
    quant(dst, src, scale, offset, p.upper_half, a.n);
    return;
  }
  constexpr uint32_t kRepeatLanes = 128;  // int16_t lanes in a repeat
  uint32_t end = 0;                       // past the last selected lane's block
  for (uint32_t k = 0; k < a.n; ++k) {
    if (a.Selected(k)) end = (k / 16 + 1) * 16;
  }
  uint8_t out[2 * kRepeatLanes];
  quant(out, src, scale, offset, p.upper_half, std::min(end, a.n));
  for (uint32_t k = 0; k < a.n; ++k) {
    if (!a.Selected(k)) continue;
    const uint32_t byte = (k / 16) * 32 + (p.upper_half ? 16 : 0) + k % 16;
    // The destination slot holding this byte must be written back too.
    if (!a.Selected(byte / 2 % 128)) {
      Fail(
          "CastDequant: lane %u of a repeat is selected but lane %u, whose "
          "2-byte slot receives its result byte, is not; normgrad models "
          "masks that select the slot lanes of every selected result",
          k % 128, byte / 2 % 128);
    }
    dst[byte] = out[byte];
  }
}

namespace {
// Bytes of an integer TypeBit.
uint32_t IntegerBytes(uint32_t bit) {
  switch (bit) {
    case kTypeInt8:
    case kTypeUint8:
      return 1;
    case kTypeInt16:
    case kTypeUint16:
      return 2;
    case kTypeInt32:
    case kTypeUint32:
      return 4;
    default:
      return 8;
  }
}

// An integer destination with the CAST saturation mode off (ctrl_spr.h):
// the value rounded by `mode` keeps its low bits, as two's complement. A
// finite value of 2^64 or more has none set that fit (a float that large is
// a multiple of 2^41); NaN gives 0 and ±inf the ends, as when saturating
// (docs/decisions.md, "Saturation flags").
void ConvertKeepingLowBits(uint32_t dst_bit, void* dst, uint32_t src_bit,
                           const void* src, RoundMode mode, uint32_t n) {
  const uint32_t bytes = IntegerBytes(dst_bit);
  auto* out = static_cast<uint8_t*>(dst);
  for (uint32_t i = 0; i < n; ++i) {
    const Exact x = RoundIntegral(Decode(src_bit, src, i), mode);
    if (x.kind != Exact::kFinite) {
      Store(dst_bit, dst, i, x, mode);
      continue;
    }
    const uint64_t magnitude = x.e >= 64 ? 0 : x.m << x.e;
    const uint64_t bits = x.neg ? ~magnitude + 1 : magnitude;
    std::memcpy(out + uint64_t{i} * bytes, &bits, bytes);  // little-endian
  }
}
}  // namespace

void ConvertImpl(uint32_t dst_bit, void* dst, uint32_t src_bit, const void* src,
                 RoundMode mode, uint32_t n) {
  if (!IsFloatBit(dst_bit) && CastTruncates()) {
    ConvertKeepingLowBits(dst_bit, dst, src_bit, src, mode, n);
    return;
  }
  // The two casts kernels make most, through the engine's vectorized
  // conversions: half → float (exact) and float → half to nearest even.
  if (src_bit == kTypeHalf && dst_bit == kTypeFloat) {
    normgrad::Widen(static_cast<const normgrad::float16*>(src),
                    static_cast<float*>(dst), n);
    return;
  }
  if (src_bit == kTypeFloat && dst_bit == kTypeHalf &&
      (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT)) {
    normgrad::Narrow(static_cast<const float*>(src),
                     static_cast<normgrad::float16*>(dst), n);
    return;
  }
  const normgrad::kernels::VectorKernels& k = VectorLoops().vector;
  if (src_bit == kTypeFloat && dst_bit == kTypeInt32 &&
      mode != RoundMode::CAST_ODD) {
    k.to_int32_f32[RoundOf(mode)](static_cast<int32_t*>(dst),
                                  static_cast<const float*>(src), n);
    return;
  }
  if (src_bit == kTypeInt32 && dst_bit == kTypeFloat &&
      (mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT)) {
    k.from_int32_f32(static_cast<float*>(dst), static_cast<const int32_t*>(src),
                     n);
    return;
  }
  const int s = CastTypeOf(src_bit), d = CastTypeOf(dst_bit);
  if (s >= 0 && d >= 0) {
    // An integer into an integer is exact or saturated: no rounding.
    const bool integers = !IsFloatBit(src_bit) && !IsFloatBit(dst_bit);
    const normgrad::kernels::CastFn loop =
        k.cast[s][d][integers ? 0 : RoundOf(mode)];
    if (loop != nullptr) {
      loop(dst, src, n);
      return;
    }
  }
  ConvertElements(dst_bit, dst, src_bit, src, mode, n);
}

void ConvertElements(uint32_t dst_bit, void* dst, uint32_t src_bit,
                     const void* src, RoundMode mode, uint32_t n) {
  const bool integral = src_bit == dst_bit;  // float → float, Truncate
  for (uint32_t i = 0; i < n; ++i) {
    const Exact x = Decode(src_bit, src, i);
    Store(dst_bit, dst, i, integral ? RoundIntegral(x, mode) : x, mode);
  }
}

namespace {
// A finite scale runs the engine's loop (infinite and NaN scales take the
// element rule).
bool FiniteHalf(uint16_t h) { return (h & 0x7c00u) != 0x7c00u; }

void DequantLoops(uint16_t* dst, const int32_t* src0, const int32_t* src1,
                  uint16_t scale, bool relu, uint32_t n) {
  VectorLoops().vector.dequant_f16(dst, src0, src1,
                                   normgrad::bits::HalfToFloat(scale), relu, n);
}
}  // namespace

void DequantImpl(uint16_t* dst, const int32_t* src, uint16_t scale,
                 uint32_t n) {
  if (FiniteHalf(scale)) {
    DequantLoops(dst, src, nullptr, scale, false, n);
    return;
  }
  for (uint32_t i = 0; i < n; ++i) dst[i] = DequantOne(src[i], scale);
}

void AddDeqReluImpl(uint16_t* dst, const int32_t* src0, const int32_t* src1,
                    uint16_t scale, uint32_t n) {
  if (FiniteHalf(scale)) {
    DequantLoops(dst, src0, src1, scale, true, n);
    return;
  }
  for (uint32_t i = 0; i < n; ++i) {
    const auto sum = static_cast<int32_t>(static_cast<uint32_t>(src0[i]) +
                                          static_cast<uint32_t>(src1[i]));
    const uint16_t h = DequantOne(sum, scale);
    const bool keep = (h & 0x8000u) == 0 && h != 0;  // positive or NaN
    dst[i] = keep ? h : uint16_t{0};
  }
}

}  // namespace normgrad_ascendc

namespace AscendC {

void SetDeqScale(half scale, normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  uint16_t bits;
  std::memcpy(&bits, &scale, sizeof bits);
  normgrad_ascendc::DeqScaleRegister() = bits;
}

void SetDeqScale(float scale, int16_t offset, bool signMode,
                 normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::DeqScaleRegister() =
      normgrad_ascendc::QuantSet(scale, offset, signMode);
}

}  // namespace AscendC

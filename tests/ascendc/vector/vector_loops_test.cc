// vector_loops_test.cc — the instructions whose count form runs the engine's
// per-instruction-set loops (kernels::VectorKernels): Abs, Relu, LeakyRelu,
// Sqrt, Rsqrt, Reciprocal of half and float; Axpy, FusedMulAdd, MulAddDst,
// AddRelu, SubRelu, MulAddRelu of half and float (Axpy and MulAddDst also
// from half into float); ShiftLeft and ShiftRight of 16- and 32-bit
// integers; Compare and Compares of float in every mode; Cast
// float → int32_t in every mode and int32_t → float; every other Cast pair
// and rounding mode against the element conversion; Add, Sub, Mul, Max, Min
// (and Adds, Muls, Maxs, Mins) of every integer type; And, Or, Not, Ands,
// Ors of every element type; ReduceMax and ReduceMin of half and float and
// ReduceSum of float over many repeats (count form); Select of tensors and
// of a scalar, of every element size. On special values (zeros, infinities,
// NaNs with payloads, subnormals, ties, the ends of int32_t), every half input
// and random bit patterns, each gives bit for bit the element function written
// here from the documented rules. ctest runs this once per instruction set
// (NORMGRAD_IMPL), so every set's loops are held to the same bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

// Not a multiple of any vector width: every loop's tail runs too.
constexpr uint32_t kN = 1000;
constexpr uint32_t kBufferBytes = 4096;  // kN floats

float FromBits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}
uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}
uint16_t Bits(half h) {
  uint16_t b;
  std::memcpy(&b, &h, sizeof b);
  return b;
}
half HalfFromBits(uint16_t b) {
  half h;
  std::memcpy(static_cast<void*>(&h), &b, sizeof b);
  return h;
}

// Special values first, then random floats in [-100, 100) and random bit
// patterns, alternately; `seed` varies the random part.
std::vector<float> FloatInputs(uint32_t seed) {
  std::vector<float> v = {
      0.0f,
      -0.0f,
      1.0f,
      -1.0f,
      0.5f,
      -0.5f,
      1.5f,
      2.5f,
      -2.5f,
      3.5f,
      0.49999997f,
      -0.49999997f,
      8388607.5f,
      -8388607.5f,
      1e-8f,
      65504.0f,
      65520.0f,
      -65520.0f,
      INFINITY,
      -INFINITY,
      FromBits(0x7fc00000u),
      FromBits(0x7fc12345u),
      FromBits(0x7f800001u),
      FromBits(0xffc00001u),
      FromBits(0xff812345u),
      FromBits(0x00800000u),
      FromBits(0x80800000u),  // ±smallest normal
      FromBits(0x00000001u),
      FromBits(0x80000001u),  // ±smallest subnormal
      FromBits(0x007fffffu),
      FromBits(0x807fffffu),  // ±largest subnormal
      FromBits(0x7f7fffffu),
      FromBits(0xff7fffffu),  // ±largest finite
      0x1p31f,
      -0x1p31f,
      2147483520.0f,
      -2147483520.0f,
      0x1p31f + 256.0f,
      0x1p126f,
      0x1p127f,
  };
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> real(-100.0f, 100.0f);
  for (uint32_t i = 0; v.size() < kN; ++i) {
    v.push_back(i % 2 == 0 ? real(gen) : FromBits(gen()));
  }
  return v;
}

std::vector<half> HalfInputs(uint32_t seed) {
  const std::vector<uint16_t> specials = {
      0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00,
      0x7e55, 0x7c01, 0xfe01, 0x0001, 0x8001, 0x03ff, 0x83ff,
      0x0400, 0x8400, 0x7bff, 0xfbff, 0x3555, 0x4100};
  std::vector<half> v;
  for (uint16_t b : specials) v.push_back(HalfFromBits(b));
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> real(-30.0f, 30.0f);
  for (uint32_t i = 0; v.size() < kN; ++i) {
    v.push_back(i % 2 == 0 ? half(real(gen))
                           : HalfFromBits(static_cast<uint16_t>(gen())));
  }
  return v;
}

// Four buffers of kBufferBytes on the thread's core.
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].template Get<T>();
  }
  template <typename T>
  LocalTensor<T> Put(int i, const std::vector<T>& v) {
    const LocalTensor<T> t = Get<T>(i);
    std::memcpy(static_cast<void*>(t.GetPhyAddr()), v.data(),
                v.size() * sizeof(T));
    return t;
  }
  template <typename T>
  std::vector<T> Read(int i, size_t n) {
    std::vector<T> v(n);
    std::memcpy(static_cast<void*>(v.data()), Get<T>(i).GetPhyAddr(),
                n * sizeof(T));
    return v;
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[4];
};

// Equal bits. With `any_nan`, for results of two operands: any NaN for a
// NaN (which operand's payload a NaN result carries when both are NaN is
// not specified — C++ compilers may swap the operands of + and ·).
template <typename T>
void ExpectBits(const std::vector<T>& got, const std::vector<T>& want,
                const char* what, bool any_nan = false) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const bool nans = std::isnan(static_cast<float>(got[i])) &&
                      std::isnan(static_cast<float>(want[i]));
    if (any_nan && nans) continue;
    ASSERT_EQ(Bits(got[i]), Bits(want[i]))
        << what << ": element " << i << ": got " << static_cast<double>(got[i])
        << ", want " << static_cast<double>(want[i]);
  }
}
void ExpectInts(const std::vector<int32_t>& got,
                const std::vector<int32_t>& want, const std::vector<float>& in,
                const char* what) {
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << what << ": element " << i << " from " << in[i]
                               << " (bits " << std::hex << Bits(in[i]) << ")";
  }
}

float Relu(float x) { return std::isnan(x) || x > 0.0f ? x : 0.0f; }
half Relu(half x) {
  const float f = static_cast<float>(x);
  return std::isnan(f) || f > 0.0f ? x : HalfFromBits(0);
}
// A float rounded to half, nearest even.
half H(float x) { return half(x); }
float F(half x) { return static_cast<float>(x); }

template <typename T, typename Ref>
auto Map(const std::vector<T>& a, Ref ref) {
  std::vector<decltype(ref(a[0]))> out;
  for (const T& x : a) out.push_back(ref(x));
  return out;
}

// ---- Integers of every size, the logic instructions, ReduceMax/ReduceMin ----

// Sets the process profile for a scope; cores take it when a TPipe is
// made, so the scope comes before the test's Ub.
using OnProfile = compat_test::ProfileScope;

// Elements of T in a buffer, less 3: no multiple of a vector's lanes, so
// every loop's tail runs.
template <typename T>
constexpr uint32_t kCountOf = kBufferBytes / sizeof(T) - 3;

// The ends of T's range pairwise, then random bits.
template <typename T>
void IntegerInputs(uint32_t seed, std::vector<T>& a, std::vector<T>& b) {
  std::mt19937_64 gen(seed);
  const T ends[] = {T{0},
                    T{1},
                    static_cast<T>(-1),
                    static_cast<T>(2),
                    std::numeric_limits<T>::max(),
                    std::numeric_limits<T>::min()};
  for (const T v : ends) {
    for (const T w : ends) {
      a.push_back(v);
      b.push_back(w);
    }
  }
  while (a.size() < kCountOf<T>) {
    a.push_back(static_cast<T>(gen()));
    b.push_back(static_cast<T>(gen()));
  }
}

template <typename T>
void ExpectElements(const std::vector<T>& got, const std::vector<T>& want,
                    const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_EQ(got[i], want[i]) << what << " of " << sizeof(T) << "-byte "
                               << (std::is_signed_v<T> ? "signed" : "unsigned")
                               << " elements: element " << i;
  }
}

// +, −, × modulo 2^bits, Max, Min of two elements (op as VectorOp).
template <typename T>
T IntegerRef(int op, T x, T y) {
  const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
  switch (op) {
    case 0:
      return static_cast<T>(ux + uy);
    case 1:
      return static_cast<T>(ux - uy);
    case 2:
      return static_cast<T>(ux * uy);
    case 3:
      return std::max(x, y);
    default:
      return std::min(x, y);
  }
}

// Add, Sub, Mul, Max, Min of two tensors (apart, into the first, into the
// second) and Adds, Muls, Maxs, Mins (apart, in place) on the 950 profile,
// which takes every integer type in their count forms (except 8-bit Mul and
// Muls and 16- and 32-bit unsigned scalars, not listed).
template <typename T>
void ExpectIntegerLoops(uint32_t seed) {
  const OnProfile on(normgrad_ascendc::Profile::k950);
  Ub ub;
  std::vector<T> a, b;
  IntegerInputs(seed, a, b);
  constexpr int32_t n = kCountOf<T>;
  constexpr bool kMul = sizeof(T) != 1;
  constexpr bool kScalars =
      std::is_signed_v<T> || sizeof(T) == 1 || sizeof(T) == 8;
  for (int op = 0; op < 5; ++op) {
    if (op == 2 && !kMul) continue;
    std::vector<T> want(n);
    for (int32_t i = 0; i < n; ++i) want[i] = IntegerRef<T>(op, a[i], b[i]);
    for (int into = 0; into < 3; ++into) {  // apart, into src0, into src1
      const LocalTensor<T> x = ub.Put(0, a), y = ub.Put(1, b);
      const LocalTensor<T> d = into == 0 ? ub.Get<T>(2) : into == 1 ? x : y;
      switch (op) {
        case 0:
          AscendC::Add(d, x, y, n);
          break;
        case 1:
          AscendC::Sub(d, x, y, n);
          break;
        case 2:
          AscendC::Mul(d, x, y, n);
          break;
        case 3:
          AscendC::Max(d, x, y, n);
          break;
        default:
          AscendC::Min(d, x, y, n);
          break;
      }
      ExpectElements(ub.Read<T>(into == 0 ? 2 : into - 1, n), want, "binary");
    }
  }
  if constexpr (kScalars) {
    for (const T s :
         {static_cast<T>(-3), std::numeric_limits<T>::max(), T{5}}) {
      for (int op = 0; op < 4; ++op) {
        if (op == 1 && !kMul) continue;
        std::vector<T> want(n);
        const int ref = op == 0 ? 0 : op + 1;  // Add, Mul, Max, Min
        for (int32_t i = 0; i < n; ++i) want[i] = IntegerRef<T>(ref, a[i], s);
        for (const bool in_place : {false, true}) {
          const LocalTensor<T> x = ub.Put(0, a),
                               d = in_place ? x : ub.Get<T>(2);
          switch (op) {
            case 0:
              AscendC::Adds(d, x, s, n);
              break;
            case 1:
              AscendC::Muls(d, x, s, n);
              break;
            case 2:
              AscendC::Maxs(d, x, s, n);
              break;
            default:
              AscendC::Mins(d, x, s, n);
              break;
          }
          ExpectElements(ub.Read<T>(in_place ? 0 : 2, n), want,
                         "with a scalar");
        }
      }
    }
  }
}

TEST(VectorLoops, IntegersOfEverySizeAndSign) {
  ExpectIntegerLoops<int8_t>(31);
  ExpectIntegerLoops<uint8_t>(32);
  ExpectIntegerLoops<int16_t>(33);
  ExpectIntegerLoops<uint16_t>(34);
  ExpectIntegerLoops<int32_t>(35);
  ExpectIntegerLoops<uint32_t>(36);
  ExpectIntegerLoops<int64_t>(37);
  ExpectIntegerLoops<uint64_t>(38);
}

// And, Or, Not (apart and in place) and, for 16- and 64-bit elements,
// Ands and Ors with scalars whose every byte differs, on the 950 profile.
template <typename T>
void ExpectLogicLoops(uint32_t seed) {
  const OnProfile on(normgrad_ascendc::Profile::k950);
  Ub ub;
  std::vector<T> a, b;
  IntegerInputs(seed, a, b);
  constexpr int32_t n = kCountOf<T>;
  for (int op = 0; op < 3; ++op) {
    std::vector<T> want(n);
    for (int32_t i = 0; i < n; ++i) {
      want[i] = static_cast<T>(op == 0   ? a[i] & b[i]
                               : op == 1 ? a[i] | b[i]
                                         : ~a[i]);
    }
    for (const bool in_place : {false, true}) {
      const LocalTensor<T> x = ub.Put(0, a), y = ub.Put(1, b),
                           d = in_place ? x : ub.Get<T>(2);
      switch (op) {
        case 0:
          AscendC::And(d, x, y, n);
          break;
        case 1:
          AscendC::Or(d, x, y, n);
          break;
        default:
          AscendC::Not(d, x, n);
          break;
      }
      ExpectElements(ub.Read<T>(in_place ? 0 : 2, n), want,
                     op == 0   ? "And"
                     : op == 1 ? "Or"
                               : "Not");
    }
  }
  if constexpr (sizeof(T) == 2 || sizeof(T) == 8) {
    const T s = static_cast<T>(0x8070605040302010ull);
    for (const bool is_and : {true, false}) {
      std::vector<T> want(n);
      for (int32_t i = 0; i < n; ++i)
        want[i] = static_cast<T>(is_and ? a[i] & s : a[i] | s);
      for (const bool in_place : {false, true}) {
        const LocalTensor<T> x = ub.Put(0, a), d = in_place ? x : ub.Get<T>(2);
        if (is_and) {
          AscendC::Ands(d, x, s, n);
        } else {
          AscendC::Ors(d, s, x, n);  // the scalar first
        }
        ExpectElements(ub.Read<T>(in_place ? 0 : 2, n), want,
                       is_and ? "Ands" : "Ors");
      }
    }
  }
}

TEST(VectorLoops, LogicOfEveryElementType) {
  ExpectLogicLoops<int8_t>(41);
  ExpectLogicLoops<uint8_t>(42);
  ExpectLogicLoops<int16_t>(43);
  ExpectLogicLoops<uint16_t>(44);
  ExpectLogicLoops<int32_t>(45);
  ExpectLogicLoops<uint32_t>(46);
  ExpectLogicLoops<int64_t>(47);
  ExpectLogicLoops<uint64_t>(48);
}

TEST(VectorLoops, NotOfFloatAndHalfIsTheirBits) {
  const OnProfile on(normgrad_ascendc::Profile::k950);
  Ub ub;
  const std::vector<float> f = FloatInputs(49);
  AscendC::Not(ub.Get<float>(1), ub.Put(0, f), kN);
  ExpectBits(ub.Read<float>(1, kN),
             Map(f, [](float x) { return FromBits(~Bits(x)); }), "Not float");
  const std::vector<half> h = HalfInputs(50);
  const LocalTensor<half> x = ub.Put(0, h);
  AscendC::Not(x, x, kN);
  ExpectBits(
      ub.Read<half>(0, kN),
      Map(h,
          [](half v) { return HalfFromBits(static_cast<uint16_t>(~Bits(v))); }),
      "Not half in place");
}

// ReduceMax / ReduceMin by the documented rule: the first NaN, else the
// first greatest (least) value, −0 equal to +0.
template <typename T>
size_t ExtremeRef(const std::vector<T>& v, bool least) {
  size_t best = 0;
  for (size_t i = 0; i < v.size(); ++i) {
    const float x = static_cast<float>(v[i]), b = static_cast<float>(v[best]);
    if (std::isnan(b)) break;
    if (std::isnan(x) || (least ? x < b : x > b)) best = i;
  }
  return best;
}

// The count form of ReduceMax and ReduceMin, with and without the index,
// over the first n elements of `v`, against ExtremeRef.
template <typename T>
void ExpectExtremes(Ub& ub, const std::vector<T>& v, const char* what) {
  using Index = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
  const LocalTensor<T> src = ub.Put(0, v), dst = ub.Get<T>(1),
                       tmp = ub.Get<T>(2);
  const auto n = static_cast<int32_t>(v.size());
  for (const bool least : {false, true}) {
    const size_t want = ExtremeRef(v, least);
    for (const bool index : {false, true}) {
      ub.Put(1, std::vector<T>(2, T(7.0f)));
      if (least) {
        AscendC::ReduceMin(dst, src, tmp, n, index);
      } else {
        AscendC::ReduceMax(dst, src, tmp, n, index);
      }
      const std::vector<T> got = ub.Read<T>(1, 2);
      ASSERT_EQ(Bits(got[0]), Bits(v[want]))
          << what << (least ? ": ReduceMin" : ": ReduceMax") << " of " << n
          << " elements";
      Index at;
      std::memcpy(&at, &got[1], sizeof at);
      if (index) {
        ASSERT_EQ(at, want)
            << what << (least ? ": ReduceMin" : ": ReduceMax") << " index";
      } else {
        ASSERT_EQ(Bits(got[1]), Bits(T(7.0f)))
            << what << ": no index, yet the next is written";
      }
    }
  }
}

template <typename T>
void ExpectExtremesOnEveryShape(const std::vector<T>& inputs) {
  const T nan = std::is_same_v<T, float> ? T(FromBits(0x7fc12345u))
                                         : T(HalfFromBits(0x7e55));
  const T neg_nan = std::is_same_v<T, float> ? T(FromBits(0xff812345u))
                                             : T(HalfFromBits(0xfe01));
  for (const auto profile :
       {normgrad_ascendc::Profile::kA2, normgrad_ascendc::Profile::k950}) {
    const OnProfile on(profile);
    Ub ub;
    const uint32_t most =
        std::min<uint32_t>(kBufferBytes / sizeof(T), inputs.size());
    for (const uint32_t n : {1u, 5u, 31u, 33u, 64u, 200u, most - 1, most}) {
      std::vector<T> v(inputs.end() - n, inputs.end());  // no NaN
      for (T& x : v) {
        if (std::isnan(static_cast<float>(x))) x = T(1.0f);
      }
      ExpectExtremes(ub, v, "finite");
      // Ties: the extremes several times, in different lanes, and ±0.
      std::vector<T> t(n, T(0.0f));
      for (uint32_t i = 0; i < n; ++i) {
        t[i] = i % 3 == 0    ? T(-0.0f)
               : i % 7 == 0  ? T(2.0f)
               : i % 11 == 0 ? T(-2.0f)
                             : T(0.0f);
      }
      ExpectExtremes(ub, t, "ties");
      // A NaN (then a second, of the other sign) late in the input.
      v[n - 1 - n / 3] = neg_nan;
      ExpectExtremes(ub, v, "one NaN");
      v[n - 1] = nan;
      ExpectExtremes(ub, v, "two NaNs");
      std::vector<T> inf(n, T(-INFINITY));
      ExpectExtremes(ub, inf, "all -inf");
    }
  }
}

TEST(VectorLoops, ReduceMaxAndMinCountForm) {
  std::vector<float> f = FloatInputs(51);
  std::mt19937 gen(52);
  std::shuffle(f.begin(), f.end(), gen);
  ExpectExtremesOnEveryShape(f);
  std::vector<half> h = HalfInputs(53);
  std::vector<half> more = HalfInputs(54);
  h.insert(h.end(), more.begin(), more.end());
  std::shuffle(h.begin(), h.end(), gen);
  ExpectExtremesOnEveryShape(h);
}

// ReduceSum's count form of float on the A2 profile over more whole
// repeats than the loop takes at once (32) and a partial one: each repeat's
// tree (neighbours added level by level), the repeats' sums added one
// after another.
TEST(VectorLoops, ReduceSumFloatOverManyRepeats) {
  const OnProfile on(normgrad_ascendc::Profile::kA2);
  constexpr uint32_t kLanes = 64, kCount = 70 * kLanes + 37;
  TPipe pipe;
  TBuf<TPosition::VECCALC> src_buf, dst_buf, tmp_buf;
  pipe.InitBuffer(src_buf, kCount * sizeof(float) + 64);
  pipe.InitBuffer(dst_buf, 32);
  pipe.InitBuffer(tmp_buf, 1024);
  std::mt19937 gen(55);
  std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
  std::vector<float> v(kCount);
  for (float& x : v) x = real(gen);
  const LocalTensor<float> src = src_buf.Get<float>();
  std::memcpy(src.GetPhyAddr(), v.data(), kCount * sizeof(float));
  float want = 0.0f;
  for (uint32_t at = 0; at < kCount; at += kLanes) {
    std::vector<float> level(kLanes, -0.0f);  // -0 takes no part in a sum
    std::copy(v.begin() + at, v.begin() + std::min(at + kLanes, kCount),
              level.begin());
    while (level.size() > 1) {
      std::vector<float> next(level.size() / 2);
      for (size_t i = 0; i < next.size(); ++i)
        next[i] = level[2 * i] + level[2 * i + 1];
      level = next;
    }
    want = at == 0 ? level[0] : want + level[0];
  }
  AscendC::ReduceSum(dst_buf.Get<float>(), src, tmp_buf.Get<float>(), kCount);
  EXPECT_EQ(Bits(dst_buf.Get<float>().GetPhyAddr()[0]), Bits(want));
}

TEST(VectorLoops, FloatOneSourceInstructions) {
  Ub ub;
  const std::vector<float> a = FloatInputs(1);
  const LocalTensor<float> src = ub.Put(0, a), dst = ub.Get<float>(1);
  AscendC::Abs(dst, src, kN);
  ExpectBits(ub.Read<float>(1, kN),
             Map(a, [](float x) { return FromBits(Bits(x) & 0x7fffffffu); }),
             "Abs");
  AscendC::Relu(dst, src, kN);
  ExpectBits(ub.Read<float>(1, kN), Map(a, [](float x) { return Relu(x); }),
             "Relu");
  AscendC::Sqrt(dst, src, kN);
  ExpectBits(ub.Read<float>(1, kN),
             Map(a,
                 [](float x) {
                   return static_cast<float>(std::sqrt(static_cast<double>(x)));
                 }),
             "Sqrt");
  AscendC::Rsqrt(dst, src, kN);
  ExpectBits(
      ub.Read<float>(1, kN),
      Map(a,
          [](float x) {
            return static_cast<float>(1.0 / std::sqrt(static_cast<double>(x)));
          }),
      "Rsqrt");
  AscendC::Reciprocal(dst, src, kN);
  ExpectBits(ub.Read<float>(1, kN),
             Map(a,
                 [](float x) {
                   return static_cast<float>(1.0 / static_cast<double>(x));
                 }),
             "Reciprocal");
  for (const float slope : {0.125f, -3.0f, 1e30f}) {
    AscendC::LeakyRelu(dst, src, slope, kN);
    ExpectBits(ub.Read<float>(1, kN),
               Map(a, [&](float x) { return x >= 0.0f ? x : x * slope; }),
               "LeakyRelu");
  }
  // In place: the destination is the source.
  AscendC::Sqrt(src, src, kN);
  ExpectBits(ub.Read<float>(0, kN),
             Map(a,
                 [](float x) {
                   return static_cast<float>(std::sqrt(static_cast<double>(x)));
                 }),
             "Sqrt in place");
}

TEST(VectorLoops, HalfOneSourceInstructionsOnEveryInput) {
  Ub ub;
  constexpr uint32_t kChunk = kBufferBytes / sizeof(half);
  const auto math = [](double (*f)(double)) {
    return [f](half x) {
      return H(static_cast<float>(f(static_cast<double>(F(x)))));
    };
  };
  const auto sqrt = math([](double x) { return std::sqrt(x); });
  const auto rsqrt = math([](double x) { return 1.0 / std::sqrt(x); });
  const auto recip = math([](double x) { return 1.0 / x; });
  for (uint32_t first = 0; first < 65536; first += kChunk) {
    std::vector<half> a;
    for (uint32_t b = first; b < first + kChunk; ++b)
      a.push_back(HalfFromBits(static_cast<uint16_t>(b)));
    const LocalTensor<half> src = ub.Put(0, a), dst = ub.Get<half>(1);
    AscendC::Abs(dst, src, kChunk);
    ExpectBits(ub.Read<half>(1, kChunk),
               Map(a, [](half x) { return HalfFromBits(Bits(x) & 0x7fffu); }),
               "Abs");
    AscendC::Relu(dst, src, kChunk);
    ExpectBits(ub.Read<half>(1, kChunk), Map(a, [](half x) { return Relu(x); }),
               "Relu");
    AscendC::Sqrt(dst, src, kChunk);
    ExpectBits(ub.Read<half>(1, kChunk), Map(a, sqrt), "Sqrt");
    AscendC::Rsqrt(dst, src, kChunk);
    ExpectBits(ub.Read<half>(1, kChunk), Map(a, rsqrt), "Rsqrt");
    AscendC::Reciprocal(dst, src, kChunk);
    ExpectBits(ub.Read<half>(1, kChunk), Map(a, recip), "Reciprocal");
    AscendC::LeakyRelu(dst, src, half(-0.375f), kChunk);
    ExpectBits(
        ub.Read<half>(1, kChunk),
        Map(a, [](half x) { return F(x) >= 0.0f ? x : H(F(x) * -0.375f); }),
        "LeakyRelu");
  }
}

// d = op(a, b, d) element by element.
template <typename T, typename D = T>
std::vector<D> Zip(const std::vector<T>& a, const std::vector<T>& b,
                   const std::vector<D>& d,
                   const std::function<D(T, T, D)>& f) {
  std::vector<D> out;
  for (size_t i = 0; i < a.size(); ++i) out.push_back(f(a[i], b[i], d[i]));
  return out;
}

TEST(VectorLoops, FloatCompoundInstructions) {
  Ub ub;
  const std::vector<float> a = FloatInputs(2), b = FloatInputs(3),
                           d0 = FloatInputs(4);
  const LocalTensor<float> x = ub.Put(0, a), y = ub.Put(1, b);
  const auto run =
      [&](const char* what,
          const std::function<void(const LocalTensor<float>&)>& call,
          const std::function<float(float, float, float)>& f) {
        const LocalTensor<float> d = ub.Put(2, d0);
        call(d);
        ExpectBits(ub.Read<float>(2, kN), Zip<float>(a, b, d0, f), what, true);
      };
  run(
      "Axpy", [&](const auto& d) { AscendC::Axpy(d, x, 1.5f, kN); },
      [](float p, float, float o) { return p * 1.5f + o; });
  run(
      "FusedMulAdd", [&](const auto& d) { AscendC::FusedMulAdd(d, x, y, kN); },
      [](float p, float q, float o) { return p * o + q; });
  run(
      "MulAddDst", [&](const auto& d) { AscendC::MulAddDst(d, x, y, kN); },
      [](float p, float q, float o) { return p * q + o; });
  run(
      "AddRelu", [&](const auto& d) { AscendC::AddRelu(d, x, y, kN); },
      [](float p, float q, float) { return Relu(p + q); });
  run(
      "SubRelu", [&](const auto& d) { AscendC::SubRelu(d, x, y, kN); },
      [](float p, float q, float) { return Relu(p - q); });
  run(
      "MulAddRelu", [&](const auto& d) { AscendC::MulAddRelu(d, x, y, kN); },
      [](float p, float q, float o) { return Relu(p * o + q); });
  // The destination as a source: d = d·d + b.
  run(
      "FusedMulAdd in place",
      [&](const auto& d) { AscendC::FusedMulAdd(d, d, y, kN); },
      [](float, float q, float o) { return o * o + q; });
}

TEST(VectorLoops, HalfCompoundInstructionsRoundEveryStep) {
  Ub ub;
  const std::vector<half> a = HalfInputs(5), b = HalfInputs(6),
                          d0 = HalfInputs(7);
  const LocalTensor<half> x = ub.Put(0, a), y = ub.Put(1, b);
  const auto run =
      [&](const char* what,
          const std::function<void(const LocalTensor<half>&)>& call,
          const std::function<half(half, half, half)>& f) {
        const LocalTensor<half> d = ub.Put(2, d0);
        call(d);
        ExpectBits(ub.Read<half>(2, kN), Zip<half>(a, b, d0, f), what, true);
      };
  const half s(-2.5f);
  run(
      "Axpy", [&](const auto& d) { AscendC::Axpy(d, x, s, kN); },
      [&](half p, half, half o) { return H(F(H(F(p) * F(s))) + F(o)); });
  run(
      "FusedMulAdd", [&](const auto& d) { AscendC::FusedMulAdd(d, x, y, kN); },
      [](half p, half q, half o) { return H(F(H(F(p) * F(o))) + F(q)); });
  run(
      "MulAddDst", [&](const auto& d) { AscendC::MulAddDst(d, x, y, kN); },
      [](half p, half q, half o) { return H(F(H(F(p) * F(q))) + F(o)); });
  run(
      "AddRelu", [&](const auto& d) { AscendC::AddRelu(d, x, y, kN); },
      [](half p, half q, half) { return Relu(H(F(p) + F(q))); });
  run(
      "SubRelu", [&](const auto& d) { AscendC::SubRelu(d, x, y, kN); },
      [](half p, half q, half) { return Relu(H(F(p) - F(q))); });
  run(
      "MulAddRelu", [&](const auto& d) { AscendC::MulAddRelu(d, x, y, kN); },
      [](half p, half q, half o) { return Relu(H(F(H(F(p) * F(o))) + F(q))); });
  run(
      "FusedMulAdd in place",
      [&](const auto& d) { AscendC::FusedMulAdd(d, d, y, kN); },
      [](half, half q, half o) { return H(F(H(F(o) * F(o))) + F(q)); });

  // From half into float: the product of widened halves is exact.
  const std::vector<float> w0 = FloatInputs(8);
  const auto widening =
      [&](const char* what,
          const std::function<void(const LocalTensor<float>&)>& call,
          const std::function<float(half, half, float)>& f) {
        const LocalTensor<float> d = ub.Put(2, w0);
        call(d);
        ExpectBits(ub.Read<float>(2, kN), Zip<half, float>(a, b, w0, f), what,
                   true);
      };
  widening(
      "Axpy float, half", [&](const auto& d) { AscendC::Axpy(d, x, s, kN); },
      [&](half p, half, float o) { return F(p) * F(s) + o; });
  widening(
      "MulAddDst float, half",
      [&](const auto& d) { AscendC::MulAddDst(d, x, y, kN); },
      [](half p, half q, float o) { return F(p) * F(q) + o; });
}

// The documented shift: unsigned logical, signed arithmetic, a signed left
// shift keeps the sign bit; a count of the width or more gives 0 (−1 for a
// negative value shifted right); roundEn adds the last bit shifted out.
template <typename T>
T ShiftRef(T v, uint32_t c, bool left, bool round) {
  using U = std::make_unsigned_t<T>;
  constexpr uint32_t kBits = sizeof(T) * 8;
  constexpr U kSign =
      std::is_signed_v<T> ? static_cast<U>(U{1} << (kBits - 1)) : U{0};
  const U x = static_cast<U>(v);
  U r;
  if (left) {
    r = c >= kBits ? U{0}
                   : static_cast<U>((x & kSign) | (static_cast<U>(x << c) &
                                                   static_cast<U>(~kSign)));
  } else if (c >= kBits) {
    r = v < 0 ? static_cast<U>(~U{0}) : U{0};
  } else {
    r = static_cast<U>(static_cast<T>(v >> c));
  }
  if (round && c >= 1)
    r = static_cast<U>(r + ((x >> std::min(c - 1, kBits - 1)) & 1));
  return static_cast<T>(r);
}

template <typename T>
void CheckShifts(Ub& ub, const std::vector<T>& a) {
  constexpr uint32_t kBits = sizeof(T) * 8;
  const auto n = static_cast<uint32_t>(a.size());
  const LocalTensor<T> src = ub.Put(0, a), dst = ub.Get<T>(1);
  const auto expect = [&](const char* what, uint32_t c, bool left, bool round) {
    const std::vector<T> got = ub.Read<T>(1, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(got[i], ShiftRef(a[i], c, left, round))
          << what << " by " << c << ": element " << i << " from "
          << static_cast<int64_t>(a[i]);
    }
  };
  for (const uint32_t c : {0u, 1u, 5u, kBits - 1, kBits}) {
    AscendC::ShiftLeft(dst, src, static_cast<T>(c), static_cast<int32_t>(n));
    expect("ShiftLeft", c, true, false);
    AscendC::ShiftRight(dst, src, static_cast<T>(c), static_cast<int32_t>(n));
    expect("ShiftRight", c, false, false);
    if (std::is_signed_v<T>) {
      // roundEn: the repeat form, every lane of n / lanes repeats.
      constexpr uint32_t kLanes = 256 / sizeof(T);
      AscendC::ShiftRight(dst, src, static_cast<T>(c), uint64_t{kLanes},
                          static_cast<uint8_t>(n / kLanes),
                          AscendC::UnaryRepeatParams(), true);
      expect("ShiftRight with roundEn", c, false, true);
    }
  }
}

TEST(VectorLoops, ShiftsOfEverySixteenBitInput) {
  Ub ub;
  constexpr uint32_t kChunk = kBufferBytes / sizeof(int16_t);
  for (uint32_t first = 0; first < 65536; first += kChunk) {
    std::vector<int16_t> s;
    std::vector<uint16_t> u;
    for (uint32_t b = first; b < first + kChunk; ++b) {
      s.push_back(static_cast<int16_t>(b));
      u.push_back(static_cast<uint16_t>(b));
    }
    CheckShifts(ub, s);
    CheckShifts(ub, u);
  }
}

TEST(VectorLoops, ShiftsOfThirtyTwoBitIntegers) {
  Ub ub;
  std::vector<int32_t> s = {0,          1,           -1, INT32_MAX, INT32_MIN,
                            0x40000000, -0x40000000, 3,  -3};
  std::mt19937 gen(13);
  while (s.size() < kBufferBytes / sizeof(int32_t))
    s.push_back(static_cast<int32_t>(gen()));
  CheckShifts(ub, s);
  std::vector<uint32_t> u;
  for (int32_t v : s) u.push_back(static_cast<uint32_t>(v));
  CheckShifts(ub, u);
}

bool Holds(AscendC::CMPMODE mode, float x, float y) {
  switch (mode) {
    case AscendC::CMPMODE::LT:
      return x < y;
    case AscendC::CMPMODE::GT:
      return x > y;
    case AscendC::CMPMODE::EQ:
      return x == y;
    case AscendC::CMPMODE::LE:
      return x <= y;
    case AscendC::CMPMODE::GE:
      return x >= y;
    default:  // NE: true when either is NaN
      return !(x == y);
  }
}

TEST(VectorLoops, FloatCompareInEveryMode) {
  Ub ub;
  std::vector<float> a = FloatInputs(11), b = FloatInputs(12);
  // Equal pairs, so that ==, <= and >= hold somewhere.
  for (uint32_t i = 0; i < kN; i += 3) b[i] = a[i];
  const LocalTensor<float> x = ub.Put(0, a), y = ub.Put(1, b);
  const LocalTensor<uint8_t> bits = ub.Get<uint8_t>(2);
  using AscendC::CMPMODE;
  for (const CMPMODE mode : {CMPMODE::LT, CMPMODE::GT, CMPMODE::EQ, CMPMODE::LE,
                             CMPMODE::GE, CMPMODE::NE}) {
    for (const bool scalar : {false, true}) {
      const float s = a[5];
      // The results are the whole repeats' bytes, nothing past them.
      ub.Put(2, std::vector<uint8_t>(kN / 8 + 8, 0xa5));
      if (scalar) {
        AscendC::Compares(bits, x, s, mode, kN);
      } else {
        AscendC::Compare(bits, x, y, mode, kN);
      }
      // The count form compares the whole 256-byte repeats within kN.
      const uint32_t lanes = kN / 64 * 64;
      const std::vector<uint8_t> got = ub.Read<uint8_t>(2, lanes / 8);
      for (uint32_t i = 0; i < lanes; ++i) {
        const bool want = Holds(mode, a[i], scalar ? s : b[i]);
        ASSERT_EQ((got[i / 8] >> (i % 8) & 1) != 0, want)
            << (scalar ? "Compares" : "Compare") << " mode "
            << static_cast<int>(mode) << ": lane " << i << ": " << a[i]
            << " against " << (scalar ? s : b[i]);
      }
      const std::vector<uint8_t> after = ub.Read<uint8_t>(2, kN / 8 + 8);
      for (uint32_t i = lanes / 8; i < after.size(); ++i)
        ASSERT_EQ(after[i], 0xa5) << "byte " << i;
    }
  }
}

// The mode's rounding of x to an integer, then saturated; NaN gives 0.
int32_t ToInt32(float x, RoundMode mode) {
  if (std::isnan(x)) return 0;
  const double v = x;
  double r;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      r = std::floor(v);
      break;
    case RoundMode::CAST_CEIL:
      r = std::ceil(v);
      break;
    case RoundMode::CAST_TRUNC:
      r = std::trunc(v);
      break;
    case RoundMode::CAST_ROUND:
      r = std::round(v);  // ties away from zero
      break;
    default:
      r = std::nearbyint(v);  // ties to even
      break;
  }
  if (r >= 2147483648.0) return INT32_MAX;
  if (r < -2147483648.0) return INT32_MIN;
  return static_cast<int32_t>(r);
}

TEST(VectorLoops, CastBetweenFloatAndInt32) {
  Ub ub;
  std::vector<float> a = FloatInputs(9);
  // Ties at every scale up to where floats are integers.
  for (uint32_t i = 0; i < 200; ++i)
    a[kN - 1 - i] = static_cast<float>(i) * 0.5f - 50.0f;
  const LocalTensor<float> src = ub.Put(0, a);
  const LocalTensor<int32_t> dst = ub.Get<int32_t>(1);
  for (const RoundMode mode :
       {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
        RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_ROUND}) {
    AscendC::Cast(dst, src, mode, kN);
    ExpectInts(ub.Read<int32_t>(1, kN),
               Map(a, [&](float x) { return ToInt32(x, mode); }), a,
               "Cast float > int32_t");
  }
  std::vector<int32_t> v;
  std::mt19937 gen(10);
  for (int32_t s :
       {0, 1, -1, INT32_MAX, INT32_MIN, 16777217, -16777217, 33554435})
    v.push_back(s);
  while (v.size() < kN) v.push_back(static_cast<int32_t>(gen()));
  const LocalTensor<int32_t> ints = ub.Put(2, v);
  const LocalTensor<float> out = ub.Get<float>(3);
  for (const RoundMode mode : {RoundMode::CAST_NONE, RoundMode::CAST_RINT}) {
    AscendC::Cast(out, ints, mode, kN);
    std::vector<float> want;
    for (int32_t s : v)
      want.push_back(static_cast<float>(static_cast<double>(s)));
    ExpectBits(ub.Read<float>(3, kN), want, "Cast int32_t > float");
  }
}

// The types of Cast (their TypeBits and sizes), in kernels::CastType's order.
struct CastTypeInfo {
  uint32_t bit;
  uint32_t size;
  bool is_float;
  const char* name;
};
constexpr CastTypeInfo kCastTypeInfos[] = {
    {normgrad_ascendc::kTypeInt8, 1, false, "int8_t"},
    {normgrad_ascendc::kTypeUint8, 1, false, "uint8_t"},
    {normgrad_ascendc::kTypeInt16, 2, false, "int16_t"},
    {normgrad_ascendc::kTypeUint16, 2, false, "uint16_t"},
    {normgrad_ascendc::kTypeInt32, 4, false, "int32_t"},
    {normgrad_ascendc::kTypeUint32, 4, false, "uint32_t"},
    {normgrad_ascendc::kTypeInt64, 8, false, "int64_t"},
    {normgrad_ascendc::kTypeHalf, 2, true, "half"},
    {normgrad_ascendc::kTypeBfloat16, 2, true, "bfloat16_t"},
    {normgrad_ascendc::kTypeFloat, 4, true, "float"},
};

// The inputs of a source type, as bytes: every 16-bit pattern; for 8 bits
// every pattern; for float FloatInputs' specials and ties at every scale
// (x.5 up to 2^24, halfway points between halves and bfloat16s) before
// random bits; for 32- and 64-bit integers the ends, the neighbours of
// powers of two (where float's and half's places change) and random bits.
std::vector<uint8_t> CastInputs(const CastTypeInfo& t) {
  std::vector<uint8_t> bytes;
  const auto add = [&bytes](const auto v) {
    const auto* p = reinterpret_cast<const uint8_t*>(&v);
    bytes.insert(bytes.end(), p, p + sizeof v);
  };
  std::mt19937_64 gen(t.bit);
  if (t.size <= 2) {
    for (uint32_t b = 0; b < (t.size == 1 ? 256u : 65536u); ++b) {
      if (t.size == 1)
        add(static_cast<uint8_t>(b));
      else
        add(static_cast<uint16_t>(b));
    }
  } else if (t.is_float) {
    for (const float x : FloatInputs(11)) add(x);
    for (int e = -30; e < 25; ++e) {
      for (const float f :
           {0.5f, 1.5f, 1.0f + 0x1p-11f, 1.0f + 0x1p-8f, 1.0f + 0x1p-9f,
            1.0f + 3 * 0x1p-12f, 1.0f + 0x1p-23f}) {
        add(std::ldexp(f, e));
        add(-std::ldexp(f, e));
      }
    }
    for (const uint32_t b :
         {0x477fe000u, 0x477ff000u, 0x477fefffu, 0x477ff001u, 0x33000000u,
          0x33000001u, 0x32ffffffu, 0x387fc000u, 0x387fe000u}) {
      add(FromBits(b));
      add(FromBits(b | 0x80000000u));
    }
    while (bytes.size() < 4 * 20000) add(static_cast<uint32_t>(gen()));
  } else {
    for (int p = 0; p < 8 * static_cast<int>(t.size); ++p) {
      const uint64_t b = uint64_t{1} << p;
      for (const uint64_t v : {b, b - 1, b + 1, ~b, ~b + 1, ~b + 2}) {
        if (t.size == 4)
          add(static_cast<uint32_t>(v));
        else
          add(v);
      }
    }
    while (bytes.size() < t.size * 20000) {
      const uint64_t v = gen();
      // Half the values small, where half and bfloat16 round.
      const uint64_t w =
          bytes.size() / t.size % 2 == 0
              ? v
              : static_cast<uint64_t>(static_cast<int64_t>(v) >> 40);
      if (t.size == 4)
        add(static_cast<uint32_t>(w));
      else
        add(w);
    }
  }
  return bytes;
}

bool IsNan(const uint8_t* p, const CastTypeInfo& t) {
  if (t.bit == normgrad_ascendc::kTypeFloat) {
    uint32_t b;
    std::memcpy(&b, p, 4);
    return (b & 0x7fffffffu) > 0x7f800000u;
  }
  uint16_t b;
  std::memcpy(&b, p, 2);
  return t.bit == normgrad_ascendc::kTypeHalf && (b & 0x7fffu) > 0x7c00u;
}

// Every pair and rounding mode of Cast that runs a conversion loop (the
// profiles' pairs among them) gives the bits of the element conversion,
// which computes each value exactly as sign · m · 2^e and rounds it once.
TEST(VectorLoops, EveryCastLoopMatchesTheElementConversion) {
  const RoundMode modes[] = {RoundMode::CAST_NONE,  RoundMode::CAST_RINT,
                             RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
                             RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC,
                             RoundMode::CAST_ODD};
  int loops = 0;
  for (const CastTypeInfo& s : kCastTypeInfos) {
    const std::vector<uint8_t> in = CastInputs(s);
    const uint32_t n = static_cast<uint32_t>(in.size() / s.size);
    for (const CastTypeInfo& d : kCastTypeInfos) {
      if (s.bit == d.bit && !s.is_float) continue;
      for (const RoundMode mode : modes) {
        // ODD rounds into floats only; a float of one type into itself
        // rounds to an integral value (Truncate), in the five modes.
        if (mode == RoundMode::CAST_ODD && (!d.is_float || s.bit == d.bit))
          continue;
        std::vector<uint8_t> got(n * d.size), want(n * d.size);
        normgrad_ascendc::ConvertImpl(d.bit, got.data(), s.bit, in.data(), mode,
                                      n);
        normgrad_ascendc::ConvertElements(d.bit, want.data(), s.bit, in.data(),
                                          mode, n);
        // half ↔ float run the engine's widening and narrowing, which
        // keep a NaN's sign and payload (the loops give the quiet NaN).
        const bool any_nan = (s.bit == normgrad_ascendc::kTypeHalf &&
                              d.bit == normgrad_ascendc::kTypeFloat) ||
                             (s.bit == normgrad_ascendc::kTypeFloat &&
                              d.bit == normgrad_ascendc::kTypeHalf);
        for (uint32_t i = 0; i < n; ++i) {
          if (any_nan && IsNan(&got[i * d.size], d) &&
              IsNan(&want[i * d.size], d))
            continue;
          ASSERT_EQ(0, std::memcmp(&got[i * d.size], &want[i * d.size], d.size))
              << s.name << " > " << d.name << " mode " << static_cast<int>(mode)
              << ": element " << i;
        }
        ++loops;
      }
    }
  }
  EXPECT_GT(loops, 300);
}

// Through the API, and in place: a bfloat16 → float cast into the bytes
// it reads from is refused by the unit's operand rules, so half → int16_t.
TEST(VectorLoops, CastHalfToInt16InPlace) {
  Ub ub;
  const std::vector<half> a = HalfInputs(12);
  const LocalTensor<half> src = ub.Put(0, a);
  for (const RoundMode mode : {RoundMode::CAST_FLOOR, RoundMode::CAST_ROUND}) {
    ub.Put(0, a);
    AscendC::Cast(src.ReinterpretCast<int16_t>(), src, mode, kN);
    std::vector<int16_t> want(kN);
    normgrad_ascendc::ConvertElements(normgrad_ascendc::kTypeInt16, want.data(),
                                      normgrad_ascendc::kTypeHalf, a.data(),
                                      mode, kN);
    const std::vector<int16_t> got = ub.Read<int16_t>(0, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      ASSERT_EQ(got[i], want[i]) << "element " << i << " from " << F(a[i]);
    }
  }
}

// Select's count form, of a tensor and of the scalar, float and half, in
// place too: each element is the one its selection bit names, bit for bit.
TEST(VectorLoops, SelectEveryElementByItsBit) {
  Ub ub;
  const std::vector<float> a = FloatInputs(13), b = FloatInputs(14);
  std::vector<uint8_t> bits(kN / 8 + 1);
  std::mt19937 gen(15);
  for (uint8_t& x : bits) x = static_cast<uint8_t>(gen());
  const auto bit = [&bits](uint32_t k) {
    return (bits[k / 8] >> (k % 8) & 1) != 0;
  };
  const LocalTensor<uint8_t> mask = ub.Put(3, bits);
  const LocalTensor<float> x = ub.Put(0, a), y = ub.Put(1, b);
  const LocalTensor<float> d = ub.Get<float>(2);
  AscendC::Select(d, mask, x, y, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, kN);
  std::vector<float> want(kN);
  for (uint32_t k = 0; k < kN; ++k) want[k] = bit(k) ? a[k] : b[k];
  ExpectBits(ub.Read<float>(2, kN), want, "Select float mode 2");
  const float s = FromBits(0x7fc12345u);  // a NaN's payload kept
  AscendC::Select(x, mask, x, s, AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE, kN);
  for (uint32_t k = 0; k < kN; ++k) want[k] = bit(k) ? a[k] : s;
  ExpectBits(ub.Read<float>(0, kN), want, "Select float mode 1 in place");
  const std::vector<half> h = HalfInputs(16), g = HalfInputs(17);
  const LocalTensor<half> hx = ub.Put(0, h), hy = ub.Put(1, g);
  AscendC::Select(hy, mask, hx, hy, AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE,
                  kN);
  std::vector<half> hwant(kN);
  for (uint32_t k = 0; k < kN; ++k) hwant[k] = bit(k) ? h[k] : g[k];
  ExpectBits(ub.Read<half>(1, kN), hwant, "Select half mode 2 into src1");
}

// The loop of each element size (int8_t and int64_t are the 950 profile's),
// the selection inverted as the scalar-first form inverts it.
TEST(VectorLoops, SelectLoopOfEveryElementSize) {
  std::mt19937_64 gen(18);
  std::vector<uint8_t> bits(kN / 8 + 1);
  for (uint8_t& x : bits) x = static_cast<uint8_t>(gen());
  std::vector<uint64_t> a(kN), b(kN), d(kN);
  for (uint32_t k = 0; k < kN; ++k) a[k] = gen(), b[k] = gen();
  for (const uint32_t bytes : {1u, 2u, 4u, 8u}) {
    for (const bool invert : {false, true}) {
      for (const bool scalar : {false, true}) {
        const uint64_t s = 0x0123456789abcdefull;
        normgrad_ascendc::SelectLoop(bytes, d.data(), a.data(),
                                     scalar ? nullptr : b.data(), s, invert,
                                     bits.data(), kN);
        for (uint32_t k = 0; k < kN; ++k) {
          const bool on = ((bits[k / 8] >> (k % 8) & 1) != 0) != invert;
          uint64_t want = 0, got = 0;
          const auto* from =
              reinterpret_cast<const uint8_t*>(on ? a.data() : b.data());
          const uint8_t* pick = scalar && !on
                                    ? reinterpret_cast<const uint8_t*>(&s)
                                    : from + k * bytes;
          std::memcpy(&want, pick, bytes);
          std::memcpy(&got,
                      reinterpret_cast<const uint8_t*>(d.data()) + k * bytes,
                      bytes);
          ASSERT_EQ(got, want) << bytes << " bytes, invert " << invert
                               << ", scalar " << scalar << ": element " << k;
        }
      }
    }
  }
}

// Add, Sub, Mul (modulo 2^bits), Max and Min of int16_t and int32_t, apart
// and in place, on the ends of the range and random values.
template <typename T>
void ExpectIntegerBinaries(uint32_t seed) {
  Ub ub;
  std::mt19937 gen(seed);
  std::vector<T> a, b;
  const T ends[] = {T{0}, T{1}, T(-1), std::numeric_limits<T>::max(),
                    std::numeric_limits<T>::min()};
  for (const T v : ends) {
    for (const T w : ends) {
      a.push_back(v);
      b.push_back(w);
    }
  }
  while (a.size() < kN) {
    a.push_back(static_cast<T>(gen()));
    b.push_back(static_cast<T>(gen()));
  }
  using W = int64_t;
  const auto wrap = [](W v) {
    return static_cast<T>(static_cast<uint64_t>(v));
  };
  const std::function<T(T, T)> refs[] = {
      [&](T x, T y) { return wrap(W{x} + W{y}); },
      [&](T x, T y) { return wrap(W{x} - W{y}); },
      [&](T x, T y) { return wrap(W{x} * W{y}); },
      [](T x, T y) { return std::max(x, y); },
      [](T x, T y) { return std::min(x, y); }};
  for (int op = 0; op < 5; ++op) {
    for (const bool in_place : {false, true}) {
      const LocalTensor<T> x = ub.Put(0, a), y = ub.Put(1, b);
      const LocalTensor<T> d = in_place ? x : ub.Get<T>(2);
      switch (op) {
        case 0:
          AscendC::Add(d, x, y, kN);
          break;
        case 1:
          AscendC::Sub(d, x, y, kN);
          break;
        case 2:
          AscendC::Mul(d, x, y, kN);
          break;
        case 3:
          AscendC::Max(d, x, y, kN);
          break;
        default:
          AscendC::Min(d, x, y, kN);
          break;
      }
      const std::vector<T> got = ub.Read<T>(in_place ? 0 : 2, kN);
      for (uint32_t i = 0; i < kN; ++i) {
        ASSERT_EQ(got[i], refs[op](a[i], b[i]))
            << "op " << op << ", in place " << in_place << ": element " << i
            << ": " << W{a[i]} << ", " << W{b[i]};
      }
    }
  }
}

TEST(VectorLoops, IntegerBinaries) {
  ExpectIntegerBinaries<int16_t>(19);
  ExpectIntegerBinaries<int32_t>(20);
}

// ---- Conversions by blocks of lanes; Duplicate's fill ----------------------

// A sign and an integer magnitude rounded to float by `mode`: the 24
// leading bits kept, the rest against one half of their last place.
float IntegerToFloat(bool neg, uint64_t m, RoundMode mode) {
  int shift = 0;
  while ((m >> shift) >= (uint64_t{1} << 24)) ++shift;
  const uint64_t q = m >> shift;
  const uint64_t rem = m - (q << shift);
  const uint64_t half_unit = shift == 0 ? 1 : uint64_t{1} << (shift - 1);
  bool up;
  switch (mode) {
    case RoundMode::CAST_FLOOR:
      up = rem != 0 && neg;
      break;
    case RoundMode::CAST_CEIL:
      up = rem != 0 && !neg;
      break;
    case RoundMode::CAST_TRUNC:
      up = false;
      break;
    case RoundMode::CAST_ROUND:
      up = rem >= half_unit;
      break;
    default:  // nearest, ties to even
      up = rem > half_unit || (rem == half_unit && (q & 1u) != 0);
      break;
  }
  const float f = std::ldexp(static_cast<float>(q + (up ? 1 : 0)), shift);
  return neg ? -f : f;
}

// Integers about every power of two: the power, its neighbours, the ties
// between floats near it and their neighbours, and values whose only bits
// past a float's are far below its last place; both signs, the ends.
template <typename T>
std::vector<T> IntegersAboutPowers() {
  std::vector<T> v = {std::numeric_limits<T>::min(),
                      std::numeric_limits<T>::max(),
                      std::numeric_limits<T>::min() + 1,
                      0,
                      1,
                      -1};
  constexpr int kBits = 8 * static_cast<int>(sizeof(T)) - 1;
  for (int p = 0; p < kBits; ++p) {
    const uint64_t b = uint64_t{1} << p;
    // Halfway from b to the next float, and from that one to the next.
    const uint64_t half_unit = p > 23 ? uint64_t{1} << (p - 24) : 0;
    const uint64_t tie = b + half_unit;
    for (const uint64_t m :
         {b, b - 1, b + 1, tie, tie - 1, tie + 1, tie + 2 * half_unit, b | 1u,
          b | 0x800u, b | 0x7ffu, b | 0x1000u}) {
      if (m > static_cast<uint64_t>(std::numeric_limits<T>::max())) continue;
      v.push_back(static_cast<T>(m));
      v.push_back(static_cast<T>(-static_cast<T>(m)));
    }
  }
  std::mt19937_64 gen(21);
  while (v.size() % 64 != 37)
    v.push_back(static_cast<T>(gen() >> (gen() % 64)));
  return v;
}

// int32_t and int64_t into float in every mode: the loops against the
// rounding of the bits above.
TEST(VectorLoops, IntegersIntoFloatInEveryMode) {
  const auto check = [](const auto& in, uint32_t src_bit, const char* name) {
    for (const RoundMode mode :
         {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR,
          RoundMode::CAST_CEIL, RoundMode::CAST_TRUNC, RoundMode::CAST_ROUND}) {
      std::vector<float> got(in.size());
      normgrad_ascendc::ConvertImpl(normgrad_ascendc::kTypeFloat, got.data(),
                                    src_bit, in.data(), mode,
                                    static_cast<uint32_t>(in.size()));
      for (size_t i = 0; i < in.size(); ++i) {
        const int64_t x = in[i];
        const uint64_t m =
            x < 0 ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
        ASSERT_EQ(Bits(got[i]), Bits(IntegerToFloat(x < 0, m, mode)))
            << name << " > float mode " << static_cast<int>(mode)
            << ": element " << i << " from " << x;
      }
    }
  };
  check(IntegersAboutPowers<int32_t>(), normgrad_ascendc::kTypeInt32,
        "int32_t");
  check(IntegersAboutPowers<int64_t>(), normgrad_ascendc::kTypeInt64,
        "int64_t");
}

// The pairs converted by blocks, at every length to three blocks and from
// unaligned starts (each tail), and in place where the destination's
// elements are no wider: the element conversion's bits, the bytes after
// the destination untouched.
TEST(VectorLoops, CastsByBlocksAtEveryLengthAndInPlace) {
  struct Pair {
    uint32_t src_bit, src_size, dst_bit, dst_size;
  };
  using normgrad_ascendc::kTypeBfloat16, normgrad_ascendc::kTypeFloat,
      normgrad_ascendc::kTypeInt16, normgrad_ascendc::kTypeInt32,
      normgrad_ascendc::kTypeInt64, normgrad_ascendc::kTypeInt8,
      normgrad_ascendc::kTypeUint8;
  const Pair pairs[] = {
      {kTypeFloat, 4, kTypeBfloat16, 2}, {kTypeInt32, 4, kTypeFloat, 4},
      {kTypeInt32, 4, kTypeInt16, 2},    {kTypeInt16, 2, kTypeInt8, 1},
      {kTypeInt16, 2, kTypeUint8, 1},    {kTypeUint8, 1, kTypeInt16, 2},
      {kTypeInt64, 8, kTypeInt32, 4},    {kTypeInt64, 8, kTypeFloat, 4}};
  std::mt19937 gen(22);
  std::vector<uint8_t> in(8 * 100);
  for (uint8_t& b : in) b = static_cast<uint8_t>(gen());
  // Specials where floats go: NaNs, infinities, the largest finite, ties.
  const std::vector<float> specials = FloatInputs(23);
  std::memcpy(in.data(), specials.data(), 4 * 40);
  for (const Pair& p : pairs) {
    for (const RoundMode mode :
         {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
          RoundMode::CAST_TRUNC, RoundMode::CAST_ROUND}) {
      for (uint32_t start = 0; start < 3; ++start) {
        for (uint32_t n = 0; n <= 96; ++n) {
          const uint8_t* src = in.data() + start * p.src_size;
          std::vector<uint8_t> want(n * p.dst_size + 8, 0xa5), got = want;
          normgrad_ascendc::ConvertElements(p.dst_bit, want.data(), p.src_bit,
                                            src, mode, n);
          normgrad_ascendc::ConvertImpl(p.dst_bit, got.data(), p.src_bit, src,
                                        mode, n);
          ASSERT_EQ(got, want)
              << "type bits " << p.src_bit << " > " << p.dst_bit << " mode "
              << static_cast<int>(mode) << ", start " << start << ", n " << n;
          if (p.dst_size > p.src_size) continue;
          std::vector<uint8_t> same(src, src + n * p.src_size);
          normgrad_ascendc::ConvertImpl(p.dst_bit, same.data(), p.src_bit,
                                        same.data(), mode, n);
          ASSERT_TRUE(std::equal(same.begin(), same.begin() + n * p.dst_size,
                                 want.begin()))
              << "in place: type bits " << p.src_bit << " > " << p.dst_bit
              << " mode " << static_cast<int>(mode) << ", start " << start
              << ", n " << n;
        }
      }
    }
  }
}

// Duplicate's count form of every type it takes with elements of 2 and 4
// bytes: every element of count the scalar's bits, those after untouched.
template <typename T>
void ExpectDuplicate(const T& value, uint32_t count) {
  Ub ub;
  const std::vector<uint8_t> fill(kBufferBytes, 0x5a);
  const LocalTensor<uint8_t> raw = ub.Put(0, fill);
  AscendC::Duplicate(raw.ReinterpretCast<T>(), value,
                     static_cast<int32_t>(count));
  const std::vector<uint8_t> got = ub.Read<uint8_t>(0, kBufferBytes);
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(0, std::memcmp(&got[i * sizeof(T)], &value, sizeof(T)))
        << sizeof(T) << "-byte element " << i << " of " << count;
  }
  for (size_t b = count * sizeof(T); b < got.size(); ++b) {
    ASSERT_EQ(got[b], 0x5a)
        << "byte " << b << " after " << count << " elements";
  }
}

TEST(VectorLoops, DuplicateOfEveryTypeFillsCountElements) {
  for (const uint32_t count : {1u, 15u, 64u, 333u, 1000u}) {
    ExpectDuplicate<int16_t>(-12345, count);
    ExpectDuplicate<uint16_t>(0xbeef, count);
    ExpectDuplicate<int32_t>(-123456789, count);
    ExpectDuplicate<uint32_t>(0xdeadbeefu, count);
    ExpectDuplicate<half>(HalfFromBits(0xfbff), count);
    ExpectDuplicate<float>(FromBits(0xff812345u),
                           count);  // a NaN's payload too
    bfloat16_t b;
    const uint16_t bits = 0xc2f7;
    std::memcpy(static_cast<void*>(&b), &bits, sizeof bits);
    ExpectDuplicate<bfloat16_t>(b, count);
  }
}

// An exact value rounded once to half, nearest even (past the largest
// finite value: infinity), as bits.
uint16_t HalfOfExact(double p) {
  if (p == 0) return std::signbit(p) ? 0x8000 : 0;
  const double a = std::fabs(p);
  const double unit = std::ldexp(1.0, std::max(std::ilogb(a) - 10, -24));
  const double r = std::nearbyint(a / unit) * unit;  // a / unit: exact
  const uint16_t mag =
      r >= 65520.0 ? 0x7c00 : Bits(half(static_cast<float>(r)));
  return static_cast<uint16_t>(mag | (p < 0 ? 0x8000 : 0));
}

// Cast's deq and AddDeqRelu: v · scale rounded once to half (and for
// AddDeqRelu +0 where not positive), v the int32_t (or the sum of two,
// modulo 2^32), for scales of every kind but infinity and NaN; among the
// values those one rounding to float first would put on a tie.
TEST(VectorLoops, DequantRoundsTheExactProductOnce) {
  std::vector<int32_t> v = {0,
                            1,
                            -1,
                            2049,
                            -2049,
                            2051,
                            16785409,
                            -16785409,
                            16785407,
                            (1 << 30) + (1 << 19),
                            (1 << 30) + (1 << 19) + 1,
                            INT32_MAX,
                            INT32_MIN,
                            65519,
                            65520,
                            -65520};
  std::mt19937 gen(24);
  while (v.size() < 301)
    v.push_back(static_cast<int32_t>(gen()) >> (gen() % 32));
  std::vector<int32_t> w(v.size());
  for (int32_t& x : w) x = static_cast<int32_t>(gen());
  for (const float scale :
       {1.0f, 0.5f, 0.375f, 0x1p-14f, 0x1p-24f, 0x1.ffcp-15f, 65504.0f, -1.0f,
        -0x1p-14f, 3 * 0x1p-20f, 0.0f, -0.0f}) {
    const uint16_t scale_bits = Bits(half(scale));
    const double s = static_cast<double>(static_cast<float>(half(scale)));
    std::vector<uint16_t> got(v.size()), sum(v.size());
    normgrad_ascendc::DequantImpl(got.data(), v.data(), scale_bits,
                                  static_cast<uint32_t>(v.size()));
    normgrad_ascendc::AddDeqReluImpl(sum.data(), v.data(), w.data(), scale_bits,
                                     static_cast<uint32_t>(v.size()));
    for (size_t i = 0; i < v.size(); ++i) {
      ASSERT_EQ(got[i], HalfOfExact(static_cast<double>(v[i]) * s))
          << "Cast deq of " << v[i] << " scale " << scale;
      const auto t = static_cast<int32_t>(static_cast<uint32_t>(v[i]) +
                                          static_cast<uint32_t>(w[i]));
      const uint16_t h = HalfOfExact(static_cast<double>(t) * s);
      ASSERT_EQ(sum[i], h < 0x8000 && h != 0 ? h : 0)
          << "AddDeqRelu of " << v[i] << " + " << w[i] << " scale " << scale;
    }
  }
}

// AddReluCast and SubReluCast from float into half, and from int16_t into
// int8_t (the unit refuses these in place): Relu, then half's rounding with
// a finite value past the largest made the largest (infinity and NaN
// kept), or the saturation.
TEST(VectorLoops, ReluCastsNarrowAtTheEdges) {
  Ub ub;
  std::vector<float> a = FloatInputs(25), b = FloatInputs(26);
  // Also the bits where the step's Relu and its limit to half's largest
  // change.
  std::vector<float> edges = {65504.0f,
                              65519.99f,
                              65520.0f,
                              1e30f,
                              INFINITY,
                              -INFINITY,
                              FromBits(0x7fc12345u),
                              FromBits(0xffc00001u),
                              -0.0f,
                              0x1p-25f};
  for (const uint32_t bits :
       {0x00000001u, 0x80000001u, 0x477fe000u, 0x477fe001u, 0x477fefffu,
        0x477ff000u, 0x7f7fffffu, 0x7f800001u, 0x7fffffffu, 0xff7fffffu,
        0xff800001u, 0xffffffffu, 0xc77fe001u}) {
    edges.push_back(FromBits(bits));
  }
  const size_t m = edges.size();
  for (size_t i = 0; i < m; ++i) {
    a[i] = edges[i];
    b[i] = 0.0f;
    a[m + i] = 0.0f;
    b[m + i] = edges[i];
  }
  for (const bool sub : {false, true}) {
    const LocalTensor<float> x = ub.Put(0, a), y = ub.Put(1, b);
    const LocalTensor<half> d = ub.Get<half>(2);
    if (sub) {
      AscendC::SubReluCast(d, x, y, kN);
    } else {
      AscendC::AddReluCast(d, x, y, kN);
    }
    const std::vector<half> got = ub.Read<half>(2, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      const float r = Relu(sub ? a[i] - b[i] : a[i] + b[i]);
      const half want =
          std::isfinite(r) && r > 65504.0f ? half(65504.0f) : half(r);
      ASSERT_EQ(Bits(got[i]), Bits(want))
          << (sub ? "SubReluCast" : "AddReluCast") << " float > half: element "
          << i << ": " << a[i] << ", " << b[i];
    }
  }
  std::vector<int16_t> p(kN), q(kN);
  std::mt19937 gen(27);
  for (uint32_t i = 0; i < kN; ++i) {
    p[i] = static_cast<int16_t>(gen());
    q[i] = static_cast<int16_t>(i < 64 ? 32767 - i : gen() % 512);
  }
  for (const bool sub : {false, true}) {
    const LocalTensor<int16_t> x = ub.Put(0, p), y = ub.Put(1, q);
    const LocalTensor<int8_t> d = ub.Get<int8_t>(2);
    if (sub) {
      AscendC::SubReluCast(d, x, y, kN);
    } else {
      AscendC::AddReluCast(d, x, y, kN);
    }
    const std::vector<int8_t> got = ub.Read<int8_t>(2, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      const auto s =
          static_cast<int16_t>(sub ? p[i] - q[i] : p[i] + q[i]);  // modulo 2^16
      ASSERT_EQ(got[i], static_cast<int8_t>(std::clamp<int>(s, 0, 127)))
          << "int16_t > int8_t, sub " << sub << ": element " << i << ": "
          << p[i] << ", " << q[i];
    }
  }
}

// ---- Cast's deq, AddDeqRelu and CastDequant int16_t → 8 bits: the loops'
// fast paths against their element rules, on the inputs where a plain
// rounding goes wrong --------------------------------------------------------

// Products v · s (s a half's value) whose rounding to half a plain path
// gets wrong: through float rounded to nearest (what a rounding to odd
// replaced by a plain rounding gives), or through fl(fl(v) · s) (the fast
// path without its check); `count` of each at most, from v = from on.
std::vector<int32_t> DequantHardCases(double s, int32_t from, size_t count) {
  std::vector<int32_t> odd, fast;
  for (int64_t v = from; v < int64_t{from} + (1 << 20) &&
                         (odd.size() < count || fast.size() < count);
       ++v) {
    const double p = static_cast<double>(v) * s;  // exact
    const uint16_t want = HalfOfExact(p);
    if (odd.size() < count && HalfOfExact(static_cast<float>(p)) != want) {
      odd.push_back(static_cast<int32_t>(v));
    }
    const float fast_p = static_cast<float>(v) * static_cast<float>(s);
    if (fast.size() < count && HalfOfExact(fast_p) != want) {
      fast.push_back(static_cast<int32_t>(v));
    }
  }
  odd.insert(odd.end(), fast.begin(), fast.end());
  return odd;
}

// Cast's deq and AddDeqRelu over 64-lane blocks and a tail: v · scale
// rounded once to half, for sums that wrap, |v| about 2^24 and at the
// int32_t bounds, ties at half's last place, overflow, exact products, and
// the products a plain rounding to float or the float product gets wrong,
// on scales normal, subnormal, ±0 and negative.
TEST(VectorLoops, DequantLoopsMatchTheExactRoundingOnHardCases) {
  constexpr uint32_t kLen = 64 * 20 + 37;
  const uint16_t scales[] = {0x0401, 0x1555, 0x2e66, 0x3c01, 0x3555,
                             0x0400, 0x7bff, 0x0001, 0x03ff, 0x0000,
                             0x8000, 0xbc01, 0x8401, 0xc248};
  size_t odd_cases = 0;
  std::mt19937 gen(31);
  for (const uint16_t scale_bits : scales) {
    const double s = static_cast<double>(F(HalfFromBits(scale_bits)));
    std::vector<int32_t> v = {0,
                              1,
                              -1,
                              INT32_MAX,
                              INT32_MIN,
                              INT32_MIN + 1,
                              (1 << 24) - 1,
                              1 << 24,
                              (1 << 24) + 1,
                              (1 << 24) + 3,
                              -(1 << 24) - 3,
                              2049,
                              16392,
                              16393,
                              65519,
                              65520,
                              65521,
                              1 << 30,
                              -(1 << 30)};
    if ((scale_bits & 0x7fff) != 0) {
      // Ties at half's last place: v · s = 1 + 2^-11 · (2k + 1).
      for (int k = 0; k < 8; ++k) {
        const double tie = 1.0 + std::ldexp(2.0 * k + 1, -11);
        const double q = tie / std::fabs(s);
        if (q == std::nearbyint(q) && q < 0x1p31)
          v.push_back(static_cast<int32_t>(q));
      }
      const std::vector<int32_t> hard = DequantHardCases(
          s, static_cast<int32_t>(std::min(0x1p26, 4096.0 / std::fabs(s))), 60);
      odd_cases += hard.size();
      v.insert(v.end(), hard.begin(), hard.end());
    }
    while (v.size() < kLen) {
      v.push_back(gen() % 4 == 0 ? static_cast<int32_t>(gen())
                                 : static_cast<int32_t>(gen() % 65536) - 32768);
    }
    v.resize(kLen);
    std::shuffle(v.begin() + 20, v.end(), gen);
    // AddDeqRelu's operands: w random, u = v − w modulo 2^32 (the sum wraps
    // where w is large).
    std::vector<int32_t> u(kLen), w(kLen);
    for (uint32_t i = 0; i < kLen; ++i) {
      w[i] = static_cast<int32_t>(gen());
      u[i] = static_cast<int32_t>(static_cast<uint32_t>(v[i]) -
                                  static_cast<uint32_t>(w[i]));
    }
    std::vector<uint16_t> got(kLen), relu(kLen);
    normgrad_ascendc::DequantImpl(got.data(), v.data(), scale_bits, kLen);
    normgrad_ascendc::AddDeqReluImpl(relu.data(), u.data(), w.data(),
                                     scale_bits, kLen);
    for (uint32_t i = 0; i < kLen; ++i) {
      const uint16_t want = HalfOfExact(static_cast<double>(v[i]) * s);
      ASSERT_EQ(got[i], want)
          << "Cast deq of " << v[i] << " scale bits " << std::hex << scale_bits
          << ", element " << std::dec << i;
      ASSERT_EQ(relu[i], want < 0x8000 && want != 0 ? want : 0)
          << "AddDeqRelu of " << u[i] << " + " << w[i] << " scale bits "
          << std::hex << scale_bits << ", element " << std::dec << i;
    }
  }
  // The hard cases exist: a loop rounding plainly would fail above.
  EXPECT_GT(odd_cases, 200u);
}

// CastDequant int16_t → 8 bits by the element rule, rint(src · scale +
// offset) in double, NaN 0, saturated (the scale read with 10 fraction
// bits, the offset 9-bit signed).
uint8_t QuantRef(int16_t src, float scale, int16_t offset, bool is_signed) {
  const uint32_t bits = Bits(scale) & 0xFFFFE000u;
  const double v = std::nearbyint(static_cast<double>(src) * FromBits(bits) +
                                  ((offset & 0x1FF) ^ 0x100) - 256);
  const double lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  const double r = std::isnan(v) ? 0 : std::min(hi, std::max(lo, v));
  return static_cast<uint8_t>(static_cast<int32_t>(r));
}

// The sources whose result the float path (fl(fl(src · scale) + offset)
// clamped and rounded) gets wrong, over every int16_t.
std::vector<int16_t> QuantHardCases(float scale, int16_t offset,
                                    bool is_signed) {
  std::vector<int16_t> hard;
  const float s = FromBits(Bits(scale) & 0xFFFFE000u);
  const float o = static_cast<float>(((offset & 0x1FF) ^ 0x100) - 256);
  const float lo = is_signed ? -128.0f : 0.0f, hi = is_signed ? 127.0f : 255.0f;
  for (int32_t a = -32768; a < 32768; ++a) {
    const float y = std::min(hi, std::max(lo, static_cast<float>(a) * s + o));
    const auto fast =
        static_cast<uint8_t>(static_cast<int32_t>(std::nearbyint(y)));
    if (fast != QuantRef(static_cast<int16_t>(a), scale, offset, is_signed)) {
      hard.push_back(static_cast<int16_t>(a));
    }
  }
  return hard;
}

// CastDequant int16_t → int8_t / uint8_t, count form, 16 sets of a vdeq
// tensor (or the register's one set), into the upper or lower halves, in
// place and apart: every result byte by the element rule, every other byte
// kept. Two tables of sets: finite scales each with a source the float
// path gets wrong (found by a search over scales of 11 bits with offset
// −256), and 0.5 (exact ties); then scales inexact, huge, tiny, negative,
// zero, infinite and NaN.
TEST(VectorLoops, CastDequantCountFormMatchesTheElementRule) {
  Ub ub;
  constexpr uint32_t kLanes =
      64 * 30 + 23;  // 2 · kLanes destination bytes fit a buffer
  const uint32_t kHardScales[15] = {
      0x3c0e6000u, 0x3c136000u, 0x3c182000u, 0x3c18e000u, 0x3c1be000u,
      0x3c1d6000u, 0x3c1e6000u, 0x3c21e000u, 0x3c226000u, 0x3c242000u,
      0x3c24a000u, 0x3c256000u, 0x3c276000u, 0x3c2ae000u, 0x3c2ce000u};
  const float kOtherScales[16] = {
      0.5f,        0.0123f,        1.0f / 3,   0.99951172f, 1e30f, 1e-30f,
      -0.0217f,    INFINITY,       NAN,        2.5f,        0.0f,  -1.5f,
      0.00390625f, 3.0517578e-05f, 1.0009766f, -0.0625f};
  std::mt19937 gen(32);
  for (const bool hard_table : {true, false}) {
    float scale[16];
    int16_t offset[16];
    for (int j = 0; j < 16; ++j) {
      scale[j] = !hard_table ? kOtherScales[j]
                 : j < 15    ? FromBits(kHardScales[j])
                             : 0.5f;
      offset[j] = static_cast<int16_t>(!hard_table ? j * 37 % 512 - 256
                                       : j < 15    ? -256
                                                   : 3);
    }
    for (const bool is_signed : {true, false}) {
      bool sign[16];
      std::fill(sign, sign + 16, is_signed);
      std::vector<int16_t> src = {0,   1,    -1,   32767, -32768, 255,
                                  256, -128, -129, 127,   128};
      size_t hard_cases = 0;
      for (int j = 0; j < 16; ++j) {
        // Set j's hard sources, in lane j of their blocks.
        const std::vector<int16_t> hard =
            QuantHardCases(scale[j], offset[j], is_signed);
        for (size_t h = 0; h < hard.size() && h < 4; ++h, ++hard_cases) {
          while (src.size() % 16 != static_cast<size_t>(j)) {
            src.push_back(static_cast<int16_t>(gen()));
          }
          src.push_back(hard[h]);
        }
      }
      // A loop without the float path's check fails on these.
      if (hard_table) {
        EXPECT_GE(hard_cases, 15u);
      }
      ASSERT_LE(src.size(), kLanes);
      while (src.size() < kLanes)
        src.push_back(static_cast<int16_t>(gen() >> (gen() % 16)));
      for (const bool vec_deq : {true, false}) {
        for (const bool upper : {true, false}) {
          for (const bool in_place : {false, true}) {
            std::vector<uint8_t> before(kBufferBytes);
            for (uint8_t& b : before) b = static_cast<uint8_t>(gen());
            const LocalTensor<int16_t> s = ub.Put(0, src);
            const int d_buf = in_place ? 0 : 1;
            if (!in_place) ub.Put(1, before);
            before = ub.Read<uint8_t>(d_buf, kBufferBytes);
            if (vec_deq) {
              AscendC::SetDeqScale<uint64_t>(
                  ub.Get<uint64_t>(2), AscendC::VdeqInfo(scale, offset, sign));
            } else {
              AscendC::SetDeqScale(scale[1], offset[1], is_signed);
            }
            if (is_signed) {
              const LocalTensor<int8_t> d = ub.Get<int8_t>(d_buf);
              if (vec_deq && upper)
                AscendC::CastDequant<int8_t, int16_t, true, true>(d, s, kLanes);
              if (vec_deq && !upper)
                AscendC::CastDequant<int8_t, int16_t, true, false>(d, s,
                                                                   kLanes);
              if (!vec_deq && upper)
                AscendC::CastDequant<int8_t, int16_t, false, true>(d, s,
                                                                   kLanes);
              if (!vec_deq && !upper)
                AscendC::CastDequant<int8_t, int16_t, false, false>(d, s,
                                                                    kLanes);
            } else {
              const LocalTensor<uint8_t> d = ub.Get<uint8_t>(d_buf);
              if (vec_deq && upper)
                AscendC::CastDequant<uint8_t, int16_t, true, true>(d, s,
                                                                   kLanes);
              if (vec_deq && !upper)
                AscendC::CastDequant<uint8_t, int16_t, true, false>(d, s,
                                                                    kLanes);
              if (!vec_deq && upper)
                AscendC::CastDequant<uint8_t, int16_t, false, true>(d, s,
                                                                    kLanes);
              if (!vec_deq && !upper)
                AscendC::CastDequant<uint8_t, int16_t, false, false>(d, s,
                                                                     kLanes);
            }
            std::vector<uint8_t> want = before;
            for (uint32_t k = 0; k < kLanes; ++k) {
              const int j = vec_deq ? static_cast<int>(k % 16) : 1;
              want[k / 16 * 32 + (upper ? 16 : 0) + k % 16] =
                  QuantRef(src[k], scale[j], offset[j], is_signed);
            }
            const std::vector<uint8_t> got =
                ub.Read<uint8_t>(d_buf, kBufferBytes);
            for (uint32_t i = 0; i < kBufferBytes; ++i) {
              ASSERT_EQ(got[i], want[i])
                  << "byte " << i << " (lane " << i / 32 * 16 + i % 16
                  << "), hard table " << hard_table << ", signed " << is_signed
                  << ", vdeq " << vec_deq << ", upper " << upper
                  << ", in place " << in_place;
            }
          }
        }
      }
    }
  }
}

}  // namespace

namespace {

// float bits into bfloat16 by a rounding mode, from the rule: the high 16
// bits, one more (a carry moves into the exponent) where the dropped low
// 16 bits round away from zero in that mode; every NaN the quiet NaN.
uint16_t Bf16Of(uint32_t u, RoundMode mode) {
  if ((u & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  const uint32_t high = u >> 16, low = u & 0xffffu;
  const bool neg = (u >> 31) != 0;
  bool away = false;
  switch (mode) {
    case RoundMode::CAST_RINT:
      away = low > 0x8000u || (low == 0x8000u && (high & 1u) != 0);
      break;
    case RoundMode::CAST_FLOOR:
      away = low != 0 && neg;
      break;
    case RoundMode::CAST_CEIL:
      away = low != 0 && !neg;
      break;
    case RoundMode::CAST_ROUND:
      away = low >= 0x8000u;
      break;
    default:
      break;  // CAST_TRUNC
  }
  return static_cast<uint16_t>(high + (away ? 1u : 0u));
}

std::vector<float> Bf16EdgeInputs() {
  std::vector<uint32_t> bits = {
      0x7f800001u, 0x7f80ffffu, 0x7fbfffffu, 0x7fc00000u,
      0x7fffffffu,  // NaNs
      0xff800001u, 0xffc12345u, 0xffffffffu, 0x7f800000u,
      0xff800000u, 0x00000000u, 0x80000000u,  // ±inf, ±0
      0x00000001u, 0x80000001u, 0x00008000u, 0x00018000u,
      0x80018000u,  // subnormals
      0x007fffffu, 0x807fffffu, 0x007f8000u, 0x00008001u,
      0x3f808000u, 0x3f818000u, 0xbf808000u, 0xbf818000u,  // ties
      0x3f807fffu, 0x3f808001u, 0xbf80ffffu, 0x7f7fffffu,
      0xff7fffffu, 0x7f7f8000u, 0x7f7f7fffu, 0xff7f8000u,  // near the largest
  };
  std::mt19937 gen(41);
  while (bits.size() < kN) bits.push_back(gen());
  std::vector<float> v;
  for (const uint32_t b : bits) v.push_back(FromBits(b));
  return v;
}

}  // namespace

// Cast float → bfloat16 in each of its five modes, through the count form
// (kN is not a multiple of a block: the tail runs too), bit for bit.
TEST(VectorLoops, CastFloatToBfloat16EveryModeByTheBits) {
  Ub ub;
  const std::vector<float> a = Bf16EdgeInputs();
  for (const RoundMode mode :
       {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    AscendC::Cast(ub.Get<bfloat16_t>(2), ub.Put(0, a), mode, kN);
    const std::vector<uint16_t> got = ub.Read<uint16_t>(2, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      ASSERT_EQ(got[i], Bf16Of(Bits(a[i]), mode))
          << "mode " << static_cast<int>(mode) << ": element " << i << " bits "
          << std::hex << Bits(a[i]);
    }
  }
}

// Cast bfloat16 → float of every bfloat16 (1000 at a time): the bits
// shifted into the high half, every NaN the quiet NaN.
TEST(VectorLoops, CastEveryBfloat16ToFloat) {
  Ub ub;
  for (uint32_t first = 0; first < 0x10000u; first += kN) {
    const uint32_t n = std::min(kN, 0x10000u - first);
    std::vector<uint16_t> a(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = static_cast<uint16_t>(first + i);
    const LocalTensor<uint16_t> src = ub.Put(0, a);
    AscendC::Cast(ub.Get<float>(2), src.ReinterpretCast<bfloat16_t>(),
                  RoundMode::CAST_NONE, n);
    const std::vector<uint32_t> got = ub.Read<uint32_t>(2, n);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t want =
          (a[i] & 0x7fffu) > 0x7f80u ? 0x7fc00000u : uint32_t{a[i]} << 16;
      ASSERT_EQ(got[i], want) << "bfloat16 " << std::hex << a[i];
    }
  }
}

// Cast float → float rounds to an integral value: each mode against the C
// library's function of it (floor, ceil, trunc, round: ties away from zero,
// nearbyint: ties to even), every NaN the quiet NaN.
TEST(VectorLoops, CastFloatToFloatEveryModeAsTheLibrary) {
  Ub ub;
  std::vector<float> a = FloatInputs(42);
  const float more[] = {
      0.7f,        -0.7f,      0.3f,        -0.3f,          1.0000001f,
      -1.0000001f, 0x1p23f,    -0x1p23f,    0x1p23f + 1.0f, -0x1p23f - 1.0f,
      0x1p24f,     8388606.5f, -8388606.5f, 4194303.75f,    -4194303.75f,
      1e-40f,      -1e-40f};
  std::copy(std::begin(more), std::end(more), a.begin() + 50);
  for (const RoundMode mode :
       {RoundMode::CAST_RINT, RoundMode::CAST_FLOOR, RoundMode::CAST_CEIL,
        RoundMode::CAST_ROUND, RoundMode::CAST_TRUNC}) {
    AscendC::Cast(ub.Get<float>(2), ub.Put(0, a), mode, kN);
    const std::vector<uint32_t> got = ub.Read<uint32_t>(2, kN);
    for (uint32_t i = 0; i < kN; ++i) {
      const float x = a[i];
      const float r = mode == RoundMode::CAST_FLOOR   ? std::floor(x)
                      : mode == RoundMode::CAST_CEIL  ? std::ceil(x)
                      : mode == RoundMode::CAST_ROUND ? std::round(x)
                      : mode == RoundMode::CAST_TRUNC ? std::trunc(x)
                                                      : std::nearbyint(x);
      ASSERT_EQ(got[i], std::isnan(x) ? 0x7fc00000u : Bits(r))
          << "mode " << static_cast<int>(mode) << ": element " << i << " " << x;
    }
  }
}

// And, Or and Not of 1 to 300 elements of 4 and 1 bytes (on the 950
// profile), apart and in place: every split of the count into the loop's
// 128- and 64-byte steps and its tail, bit for bit.
TEST(VectorLoops, LogicOfEveryShortCount) {
  const OnProfile on(normgrad_ascendc::Profile::k950);
  Ub ub;
  const auto run = [&ub](auto zero) {
    using T = decltype(zero);
    std::vector<T> a(300), b(300);
    std::mt19937 gen(43);
    for (size_t i = 0; i < a.size(); ++i) {
      a[i] = static_cast<T>(gen());
      b[i] = static_cast<T>(gen());
    }
    for (int32_t n = 1; n <= 300; ++n) {
      for (int op = 0; op < 3; ++op) {
        for (const bool in_place : {false, true}) {
          const std::vector<T> old(300, static_cast<T>(0x5a5a5a5a));
          ub.Put(2, old);
          const LocalTensor<T> x = ub.Put(0, a), y = ub.Put(1, b),
                               d = in_place ? x : ub.Get<T>(2);
          switch (op) {
            case 0:
              AscendC::And(d, x, y, n);
              break;
            case 1:
              AscendC::Or(d, x, y, n);
              break;
            default:
              AscendC::Not(d, x, n);
              break;
          }
          const std::vector<T> got = ub.Read<T>(in_place ? 0 : 2, 300);
          for (int32_t i = 0; i < 300; ++i) {
            const T want = i >= n ? (in_place ? a[i] : old[i])
                                  : static_cast<T>(op == 0   ? a[i] & b[i]
                                                   : op == 1 ? a[i] | b[i]
                                                             : ~a[i]);
            ASSERT_EQ(got[i], want)
                << "op " << op << " of " << sizeof(T) << "-byte, count " << n
                << ", in place " << in_place << ": element " << i;
          }
        }
      }
    }
  };
  run(uint32_t{0});
  run(int8_t{0});
}

// The count form's flat run takes only operands the executor would run
// flat: a bfloat16 → float cast into bytes it reads, from the same start
// or shifted by a block, is still refused; apart it runs.
TEST(VectorLoops, CastFlatRunKeepsTheOverlapRule) {
  Ub ub;
  const std::vector<uint16_t> a(kN, 0x3fc0);  // 1.5
  const LocalTensor<bfloat16_t> src =
      ub.Put(0, a).ReinterpretCast<bfloat16_t>();
  EXPECT_THROW(AscendC::Cast(src.ReinterpretCast<float>(), src,
                             RoundMode::CAST_NONE, 256),
               normgrad_ascendc::KernelError);
  EXPECT_THROW(AscendC::Cast(src.ReinterpretCast<float>()[8], src,
                             RoundMode::CAST_NONE, 256),
               normgrad_ascendc::KernelError);
  AscendC::Cast(ub.Get<float>(2), src, RoundMode::CAST_NONE, 256);
  EXPECT_EQ(ub.Read<float>(2, 256), std::vector<float>(256, 1.5f));
}

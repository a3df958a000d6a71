// vector_math_test.cc — the vector unit's arithmetic and logic instructions
// (normgrad_ascendc/vector/vector_ops.h, vector_math.h) on every documented
// element type: Add Sub Mul Div Max Min Adds Muls Maxs Mins Subs Divs (the
// scalar after or before the tensor), Abs Relu Neg Not Exp Ln Sqrt Rsqrt
// Reciprocal LeakyRelu, And Or Ands Ors ShiftLeft ShiftRight; in the count form
// and the level-0 forms (bit mask, continuous mask, counter mode with the mask
// set outside the call) with random repeats and strides; the per-profile type
// rules, the configurations and the checks; and the accuracy of Exp, Ln, Sqrt,
// Rsqrt and Reciprocal (every half input and a dense float sweep, against
// double) that docs/numerics.md states.
//
// The reference is written here, element by element, from the documented
// rules: lane k of repeat r of an operand with e-byte elements lies at byte
//   r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e
// of its tensor; a repeat reads its sources before it writes; lanes the
// mask leaves out keep their values. Integers wrap modulo 2^bits; half,
// bfloat16_t and float results are the exact result (computed in double)
// rounded once.
//
// Extending: a new instruction gets an API struct (how to call its forms), a
// reference lambda and one Check* line per type it documents; a new check
// gets a FailsWith line with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::BinaryRepeatParams;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::UnaryRepeatParams;
using compat_test::FailsWith;
using compat_test::kFloatLike;
using compat_test::ProfileScope;
using compat_test::RoundTo;
using compat_test::Same;
using compat_test::ToDouble;
using normgrad_ascendc::Profile;

constexpr uint32_t kBufferBytes = 8192;

template <typename T>
T RandomValue(std::mt19937& gen, bool small) {
  if constexpr (kFloatLike<T>) {
    // Quarters in [-16, 16]: exact in every float type.
    std::uniform_int_distribution<int> q(-64, 64);
    return static_cast<T>(static_cast<float>(q(gen)) / 4.0f);
  } else {
    uint64_t bits = (uint64_t{gen()} << 32) | gen();
    if (small) bits %= 7;  // zeros and small values (Div, shifts)
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

// Three buffers of kBufferBytes in the UB holding T.
template <typename T>
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  LocalTensor<T> Get(int i) { return buf[i].template Get<T>(); }
  void Randomize(std::mt19937& gen, bool small) {
    for (int b = 0; b < 3; ++b) {
      const LocalTensor<T> t = Get(b);
      for (uint32_t i = 0; i < t.GetSize(); ++i) {
        t.SetValue(i, RandomValue<T>(gen, small && b == 1));
      }
    }
  }
  std::vector<std::vector<T>> Snapshot() {
    std::vector<std::vector<T>> s(3);
    for (int b = 0; b < 3; ++b) {
      const LocalTensor<T> t = Get(b);
      for (uint32_t i = 0; i < t.GetSize(); ++i) s[b].push_back(t.GetValue(i));
    }
    return s;
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

template <typename T>
void ExpectBuffers(Ub<T>& ub, const std::vector<std::vector<T>>& want,
                   const std::string& what) {
  const auto got = ub.Snapshot();
  for (int b = 0; b < 3; ++b) {
    for (size_t i = 0; i < want[b].size(); ++i) {
      ASSERT_TRUE(Same(got[b][i], want[b][i]))
          << what << ": buffer " << b << " element " << i << ": got "
          << ToDouble(got[b][i]) << ", want " << ToDouble(want[b][i]);
    }
  }
}

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

// The level-0 reference: buffer 2 = f(buffer 0, buffer 1 or the scalar).
template <typename T, typename F>
void Reference(std::vector<std::vector<T>>& mem, const uint64_t mask[2],
               uint32_t repeats, const Stride s[3], bool two_sources, F f) {
  constexpr uint32_t e = sizeof(T), lanes = 256 / e;
  for (uint32_t r = 0; r < repeats; ++r) {
    const auto before = mem;
    for (uint32_t k = 0; k < lanes; ++k) {
      if (!Selected(mask, k)) continue;
      const T a = before[0][LaneIndex(e, s[1], r, k)];
      const T b = two_sources ? before[1][LaneIndex(e, s[2], r, k)] : T{};
      mem[2][LaneIndex(e, s[0], r, k)] = f(a, b);
    }
  }
}

// Which forms a type takes on the profile it is tested on.
enum class Forms { kAll, kCountOnly };

// Runs one instruction, described by Api (Count and Level0 calls; kSources
// 1 or 2; a scalar taken from `scalar`), on T against `ref`: the count form
// with random counts, and unless count-only, 40 random level-0 calls with a
// bit mask, a continuous mask, and counter mode set outside the call.
template <typename Api, typename T, typename F>
void CheckInstruction(Profile profile, Forms forms, F ref, bool small = false,
                      T scalar = T{}) {
  SCOPED_TRACE(std::string(Api::kName) + "<" + normgrad_ascendc::TypeName<T>() +
               ">");
  const ProfileScope on(profile);
  std::mt19937 gen(1234);
  constexpr uint32_t e = sizeof(T);
  const auto f = [&](T a, T b) {
    return Api::kSources == 2 ? ref(a, b) : ref(a, scalar);
  };
  for (int trial = 0; trial < 8; ++trial) {
    Ub<T> ub;
    ub.Randomize(gen, small);
    auto want = ub.Snapshot();
    const int32_t count = static_cast<int32_t>(gen() % (kBufferBytes / e + 1));
    for (int32_t i = 0; i < count; ++i) want[2][i] = f(want[0][i], want[1][i]);
    Api::Count(ub.Get(2), ub.Get(0), ub.Get(1), scalar, count);
    ExpectBuffers(ub, want, "count " + std::to_string(count));
    if (::testing::Test::HasFatalFailure()) return;
  }
  if (forms == Forms::kCountOnly) return;
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 40; ++trial) {
    Ub<T> ub;
    ub.Randomize(gen, small);
    auto want = ub.Snapshot();
    uint64_t mask[2] = {(uint64_t{gen()} << 32) | gen(),
                        lanes > 64 ? (uint64_t{gen()} << 32) | gen() : 0};
    const uint32_t repeats = gen() % 4;
    std::uniform_int_distribution<uint32_t> block(1, 3), repeat(0, 24);
    Stride s[3];
    for (auto& st : s) st = {block(gen), repeat(gen)};
    if (Api::kSources == 1) s[2] = {1, 8};
    const BinaryRepeatParams bp(
        static_cast<uint8_t>(s[0].block), static_cast<uint8_t>(s[1].block),
        static_cast<uint8_t>(s[2].block), static_cast<uint8_t>(s[0].repeat),
        static_cast<uint8_t>(s[1].repeat), static_cast<uint8_t>(s[2].repeat));
    const UnaryRepeatParams up(
        static_cast<uint16_t>(s[0].block), static_cast<uint16_t>(s[1].block),
        static_cast<uint8_t>(s[0].repeat), static_cast<uint8_t>(s[1].repeat));
    std::string what;
    switch (trial % 3) {
      case 0:
        what = "bit mask";
        Reference(want, mask, repeats, s, Api::kSources == 2, f);
        Api::template Level0<T, true>(ub.Get(2), ub.Get(0), ub.Get(1), scalar,
                                      static_cast<const uint64_t*>(mask),
                                      static_cast<uint8_t>(repeats), bp, up);
        break;
      case 1: {
        const uint64_t len = 1 + gen() % lanes;
        what = "continuous mask " + std::to_string(len);
        const uint64_t first[2] = {
            len >= 64 ? ~uint64_t{0} : (uint64_t{1} << len) - 1,
            len <= 64    ? 0
            : len >= 128 ? ~uint64_t{0}
                         : (uint64_t{1} << (len - 64)) - 1};
        Reference(want, first, repeats, s, Api::kSources == 2, f);
        Api::template Level0<T, true>(ub.Get(2), ub.Get(0), ub.Get(1), scalar,
                                      len, static_cast<uint8_t>(repeats), bp,
                                      up);
        break;
      }
      default: {
        // Counter mode: every lane of full repeats, then a partial one.
        const uint32_t n = 1 + gen() % (3 * lanes);
        what = "counter mode " + std::to_string(n);
        const uint64_t all[2] = {~uint64_t{0}, ~uint64_t{0}};
        Reference(want, all, n / lanes, s, Api::kSources == 2, f);
        if (n % lanes != 0) {
          // The partial last repeat, as its own one-repeat reference.
          std::vector<std::vector<T>> tail = want;
          const uint32_t r = n / lanes, k_end = n % lanes;
          for (uint32_t k = 0; k < k_end; ++k) {
            const T a = tail[0][LaneIndex(e, s[1], r, k)];
            const T b =
                Api::kSources == 2 ? tail[1][LaneIndex(e, s[2], r, k)] : T{};
            want[2][LaneIndex(e, s[0], r, k)] = f(a, b);
          }
        }
        AscendC::SetMaskCount();
        AscendC::SetVectorMask<T, AscendC::MaskMode::COUNTER>(0, n);
        Api::template Level0<T, false>(ub.Get(2), ub.Get(0), ub.Get(1), scalar,
                                       AscendC::MASK_PLACEHOLDER, 1, bp, up);
        AscendC::SetMaskNorm();
        AscendC::ResetMask();
        break;
      }
    }
    ExpectBuffers(ub, want, what + ", " + std::to_string(repeats) + " repeats");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// How each instruction is called: Count(dst, src0, src1, scalar, n) and
// Level0<T, isSetMask>(dst, src0, src1, scalar, mask, repeats, binary
// params, unary params).
#define BINARY_API(Api, Fn)                                                    \
  struct Api {                                                                 \
    static constexpr const char* kName = #Fn;                                  \
    static constexpr int kSources = 2;                                         \
    template <typename T>                                                      \
    static void Count(const LocalTensor<T>& d, const LocalTensor<T>& a,        \
                      const LocalTensor<T>& b, T, int32_t n) {                 \
      AscendC::Fn(d, a, b, n);                                                 \
    }                                                                          \
    template <typename T, bool kSet, typename M>                               \
    static void Level0(const LocalTensor<T>& d, const LocalTensor<T>& a,       \
                       const LocalTensor<T>& b, T, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams& bp,                           \
                       const UnaryRepeatParams&) {                             \
      AscendC::Fn<T, kSet>(d, a, b, mask, rep, bp);                            \
    }                                                                          \
  };
#define SCALAR_API(Api, Fn)                                                    \
  struct Api {                                                                 \
    static constexpr const char* kName = #Fn;                                  \
    static constexpr int kSources = 1;                                         \
    template <typename T>                                                      \
    static void Count(const LocalTensor<T>& d, const LocalTensor<T>& a,        \
                      const LocalTensor<T>&, T s, int32_t n) {                 \
      AscendC::Fn(d, a, s, n);                                                 \
    }                                                                          \
    template <typename T, bool kSet, typename M>                               \
    static void Level0(const LocalTensor<T>& d, const LocalTensor<T>& a,       \
                       const LocalTensor<T>&, T s, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams&,                              \
                       const UnaryRepeatParams& up) {                          \
      AscendC::Fn<T, kSet>(d, a, s, mask, rep, up);                            \
    }                                                                          \
  };
#define UNARY_API(Api, Fn)                                                   \
  struct Api {                                                               \
    static constexpr const char* kName = #Fn;                                \
    static constexpr int kSources = 1;                                       \
    template <typename T>                                                    \
    static void Count(const LocalTensor<T>& d, const LocalTensor<T>& a,      \
                      const LocalTensor<T>&, T, int32_t n) {                 \
      AscendC::Fn(d, a, n);                                                  \
    }                                                                        \
    template <typename T, bool kSet, typename M>                             \
    static void Level0(const LocalTensor<T>& d, const LocalTensor<T>& a,     \
                       const LocalTensor<T>&, T, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams&,                            \
                       const UnaryRepeatParams& up) {                        \
      AscendC::Fn<T, kSet>(d, a, mask, rep, up);                             \
    }                                                                        \
  };

#define SCALAR_FIRST_API(Api, Fn)                                              \
  struct Api {                                                                 \
    static constexpr const char* kName = #Fn " (scalar first)";                \
    static constexpr int kSources = 1;                                         \
    template <typename T>                                                      \
    static void Count(const LocalTensor<T>& d, const LocalTensor<T>& a,        \
                      const LocalTensor<T>&, T s, int32_t n) {                 \
      AscendC::Fn(d, s, a, n);                                                 \
    }                                                                          \
    template <typename T, bool kSet, typename M>                               \
    static void Level0(const LocalTensor<T>& d, const LocalTensor<T>& a,       \
                       const LocalTensor<T>&, T s, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams&,                              \
                       const UnaryRepeatParams& up) {                          \
      AscendC::Fn<T, kSet>(d, s, a, mask, rep, up);                            \
    }                                                                          \
  };

BINARY_API(AddApi, Add)
BINARY_API(SubApi, Sub)
BINARY_API(MulApi, Mul)
BINARY_API(DivApi, Div)
BINARY_API(MaxApi, Max)
BINARY_API(MinApi, Min)
BINARY_API(AndApi, And)
BINARY_API(OrApi, Or)
SCALAR_API(AddsApi, Adds)
SCALAR_API(MulsApi, Muls)
SCALAR_API(MaxsApi, Maxs)
SCALAR_API(MinsApi, Mins)
SCALAR_API(SubsApi, Subs)
SCALAR_API(DivsApi, Divs)
SCALAR_FIRST_API(AddsFirstApi, Adds)
SCALAR_FIRST_API(SubsFirstApi, Subs)
SCALAR_FIRST_API(MulsFirstApi, Muls)
SCALAR_FIRST_API(DivsFirstApi, Divs)
SCALAR_FIRST_API(MaxsFirstApi, Maxs)
SCALAR_FIRST_API(MinsFirstApi, Mins)
SCALAR_API(AndsApi, Ands)
SCALAR_API(OrsApi, Ors)
SCALAR_API(LeakyReluApi, LeakyRelu)
SCALAR_API(ShiftLeftApi, ShiftLeft)
SCALAR_API(ShiftRightApi, ShiftRight)
UNARY_API(AbsApi, Abs)
UNARY_API(ReluApi, Relu)
UNARY_API(NotApi, Not)
UNARY_API(ExpApi, Exp)
UNARY_API(LnApi, Ln)
UNARY_API(SqrtApi, Sqrt)
UNARY_API(RsqrtApi, Rsqrt)
UNARY_API(ReciprocalApi, Reciprocal)

// ---- The element references
// --------------------------------------------------

// Integers modulo 2^bits; floats exact in double, rounded once.
enum class Arith { kAdd, kSub, kMul, kDiv, kMax, kMin };

template <typename T>
T ArithRef(Arith op, T a, T b) {
  if constexpr (kFloatLike<T>) {
    const double x = ToDouble(a), y = ToDouble(b);
    switch (op) {
      case Arith::kAdd:
        return RoundTo<T>(x + y);
      case Arith::kSub:
        return RoundTo<T>(x - y);
      case Arith::kMul:
        return RoundTo<T>(x * y);
      case Arith::kDiv:
        return RoundTo<T>(x / y);
      case Arith::kMax:
        return x > y ? a : b;
      case Arith::kMin:
        return x < y ? a : b;
    }
  } else {
    const uint64_t x = static_cast<uint64_t>(a), y = static_cast<uint64_t>(b);
    switch (op) {
      case Arith::kAdd:
        return static_cast<T>(x + y);
      case Arith::kSub:
        return static_cast<T>(x - y);
      case Arith::kMul:
        return static_cast<T>(x * y);
      case Arith::kDiv:
        if (b == 0) return static_cast<T>(~uint64_t{0});
        if (std::is_signed_v<T> && a == std::numeric_limits<T>::min() &&
            b == static_cast<T>(-1)) {
          return a;
        }
        return static_cast<T>(a / b);
      case Arith::kMax:
        return a > b ? a : b;
      case Arith::kMin:
        return a < b ? a : b;
    }
  }
  return a;
}

template <Arith kOp>
struct ArithOf {
  template <typename T>
  T operator()(T a, T b) const {
    return ArithRef(kOp, a, b);
  }
};

// Each type of `Types...` on the profile and forms given.
template <typename Api, typename Ref, typename T>
void On(Profile p, Forms f, bool small = false, T scalar = T{}) {
  CheckInstruction<Api, T>(p, f, Ref{}, small, scalar);
}

constexpr Profile kA2 = Profile::kA2;
constexpr Profile k950 = Profile::k950;
constexpr Forms kAll = Forms::kAll;
constexpr Forms kCount = Forms::kCountOnly;

// The types every profile documents for Add, Sub, Max, Min (checked on a2),
// and those only the 950 has, in all forms or the count form only.
template <typename Api, typename Ref>
void CheckAddLike() {
  On<Api, Ref, int16_t>(kA2, kAll);
  On<Api, Ref, int32_t>(kA2, kAll);
  On<Api, Ref, half>(kA2, kAll);
  On<Api, Ref, float>(kA2, kAll);
  On<Api, Ref, uint16_t>(k950, kAll);
  On<Api, Ref, uint32_t>(k950, kAll);
  On<Api, Ref, bfloat16_t>(k950, kAll);
  On<Api, Ref, int8_t>(k950, kCount);
  On<Api, Ref, uint8_t>(k950, kCount);
  On<Api, Ref, int64_t>(k950, kCount);
  On<Api, Ref, uint64_t>(k950, kCount);
}

TEST(VectorArith, AddEveryType) {
  CheckAddLike<AddApi, ArithOf<Arith::kAdd>>();
}
TEST(VectorArith, SubEveryType) {
  CheckAddLike<SubApi, ArithOf<Arith::kSub>>();
}
TEST(VectorArith, MaxEveryType) {
  CheckAddLike<MaxApi, ArithOf<Arith::kMax>>();
}
TEST(VectorArith, MinEveryType) {
  CheckAddLike<MinApi, ArithOf<Arith::kMin>>();
}

TEST(VectorArith, MulEveryType) {
  using R = ArithOf<Arith::kMul>;
  On<MulApi, R, int16_t>(kA2, kAll);
  On<MulApi, R, int32_t>(kA2, kAll);
  On<MulApi, R, half>(kA2, kAll);
  On<MulApi, R, float>(kA2, kAll);
  On<MulApi, R, uint16_t>(k950, kAll);
  On<MulApi, R, uint32_t>(k950, kAll);
  On<MulApi, R, bfloat16_t>(k950, kAll);
  On<MulApi, R, int64_t>(k950, kCount);
  On<MulApi, R, uint64_t>(k950, kCount);
}

// Div's divisors include zeros (x / 0 has all bits set) and, for the
// floats, quotients that round.
TEST(VectorArith, DivEveryType) {
  using R = ArithOf<Arith::kDiv>;
  On<DivApi, R, half>(kA2, kAll, true);
  On<DivApi, R, float>(kA2, kAll, true);
  On<DivApi, R, int16_t>(k950, kAll, true);
  On<DivApi, R, uint16_t>(k950, kAll, true);
  On<DivApi, R, int32_t>(k950, kAll, true);
  On<DivApi, R, uint32_t>(k950, kAll, true);
  On<DivApi, R, int64_t>(k950, kCount, true);
  On<DivApi, R, uint64_t>(k950, kCount, true);
}

TEST(VectorArith, IntegerDivEdges) {
  EXPECT_EQ(ArithRef<int16_t>(Arith::kDiv, -32768, -1), -32768);
  const ProfileScope on(k950);
  Ub<int32_t> ub;
  const int32_t a[4] = {7, -7, INT32_MIN, 5};
  const int32_t b[4] = {2, 2, -1, 0};
  for (uint32_t i = 0; i < 4; ++i) {
    ub.Get(0).SetValue(i, a[i]);
    ub.Get(1).SetValue(i, b[i]);
  }
  AscendC::Div(ub.Get(2), ub.Get(0), ub.Get(1), 4);
  EXPECT_EQ(ub.Get(2).GetValue(0), 3);
  EXPECT_EQ(ub.Get(2).GetValue(1), -3);  // truncates toward zero
  EXPECT_EQ(ub.Get(2).GetValue(2), INT32_MIN);
  EXPECT_EQ(ub.Get(2).GetValue(3), -1);  // x / 0: all bits set
}

template <typename Api, Arith kOp>
void CheckScalarLike(bool with_8bit) {
  using R = ArithOf<kOp>;
  On<Api, R, int16_t>(kA2, kAll, false, int16_t{-1234});
  On<Api, R, int32_t>(kA2, kAll, false, int32_t{70000});
  On<Api, R, half>(kA2, kAll, false, half(2.5f));
  On<Api, R, float>(kA2, kAll, false, -0.75f);
  On<Api, R, bfloat16_t>(k950, kAll, false, bfloat16_t(3.0f));
  if (with_8bit) {
    On<Api, R, int8_t>(k950, kCount, false, int8_t{-3});
    On<Api, R, uint8_t>(k950, kCount, false, uint8_t{200});
  }
  On<Api, R, int64_t>(k950, kCount, false, int64_t{-5000000000});
  On<Api, R, uint64_t>(k950, kCount, false, uint64_t{3});
}

TEST(VectorArith, AddsEveryType) {
  CheckScalarLike<AddsApi, Arith::kAdd>(true);
}
TEST(VectorArith, MulsEveryType) {
  CheckScalarLike<MulsApi, Arith::kMul>(false);
}
TEST(VectorArith, MaxsEveryType) {
  CheckScalarLike<MaxsApi, Arith::kMax>(true);
}
TEST(VectorArith, MinsEveryType) {
  CheckScalarLike<MinsApi, Arith::kMin>(true);
}

// The flexible scalar position (950): Subs and Divs with the scalar on
// either side, Adds, Muls, Maxs and Mins with the scalar first.
template <Arith kOp>
struct ScalarFirstOf {
  template <typename T>
  T operator()(T a, T s) const {
    return ArithRef(kOp, s, a);
  }
};

template <typename Api, typename Ref, bool k8Bit>
void CheckFlexible() {
  On<Api, Ref, int16_t>(k950, kAll, false, int16_t{-1234});
  On<Api, Ref, int32_t>(k950, kAll, false, int32_t{70000});
  On<Api, Ref, half>(k950, kAll, false, half(2.5f));
  On<Api, Ref, float>(k950, kAll, false, -0.75f);
  On<Api, Ref, bfloat16_t>(k950, kAll, false, bfloat16_t(3.0f));
  if (k8Bit) {
    On<Api, Ref, int8_t>(k950, kCount, false, int8_t{-3});
    On<Api, Ref, uint8_t>(k950, kCount, false, uint8_t{200});
  }
  On<Api, Ref, int64_t>(k950, kCount, false, int64_t{-5000000000});
  On<Api, Ref, uint64_t>(k950, kCount, false, uint64_t{3});
}

template <typename Api, typename Ref>
void CheckFlexibleDiv() {
  On<Api, Ref, half>(k950, kAll, false, half(2.5f));
  On<Api, Ref, float>(k950, kAll, false, -0.75f);
  On<Api, Ref, int64_t>(k950, kCount, true, int64_t{-7});
  On<Api, Ref, uint64_t>(k950, kCount, true, uint64_t{3});
}

TEST(VectorArith, FlexibleScalarPosition) {
  CheckFlexible<SubsApi, ArithOf<Arith::kSub>, false>();
  CheckFlexible<SubsFirstApi, ScalarFirstOf<Arith::kSub>, false>();
  CheckFlexible<MulsFirstApi, ScalarFirstOf<Arith::kMul>, false>();
  CheckFlexible<AddsFirstApi, ScalarFirstOf<Arith::kAdd>, true>();
  CheckFlexible<MaxsFirstApi, ScalarFirstOf<Arith::kMax>, true>();
  CheckFlexible<MinsFirstApi, ScalarFirstOf<Arith::kMin>, true>();
  CheckFlexibleDiv<DivsApi, ArithOf<Arith::kDiv>>();
  CheckFlexibleDiv<DivsFirstApi, ScalarFirstOf<Arith::kDiv>>();
}

// ---- One-source instructions
// -------------------------------------------------

struct AbsRef {
  template <typename T>
  T operator()(T a, T) const {
    if constexpr (kFloatLike<T>) {
      return static_cast<T>(std::fabs(static_cast<float>(a)));
    } else {
      return static_cast<T>(a < 0 ? T(0 - static_cast<uint64_t>(a)) : a);
    }
  }
};
struct ReluRef {
  template <typename T>
  T operator()(T a, T) const {
    return ToDouble(a) > 0 ? a : T{};
  }
};
struct NotRef {
  template <typename T>
  T operator()(T a, T) const {
    uint64_t bits = 0;
    std::memcpy(&bits, &a, sizeof a);
    bits = ~bits;
    T out;
    std::memcpy(static_cast<void*>(&out), &bits, sizeof out);
    return out;
  }
};
struct NegRef {
  template <typename T>
  T operator()(T a, T) const {
    if constexpr (kFloatLike<T>) {
      return static_cast<T>(-static_cast<float>(a));
    } else {
      return static_cast<T>(0 - static_cast<uint64_t>(a));
    }
  }
};

TEST(VectorMath, AbsEveryType) {
  On<AbsApi, AbsRef, half>(kA2, kAll);
  On<AbsApi, AbsRef, float>(kA2, kAll);
  On<AbsApi, AbsRef, int16_t>(k950, kAll);
  On<AbsApi, AbsRef, int32_t>(k950, kAll);
  On<AbsApi, AbsRef, int8_t>(k950, kCount);
  On<AbsApi, AbsRef, int64_t>(k950, kCount);
}

TEST(VectorMath, ReluEveryType) {
  On<ReluApi, ReluRef, half>(kA2, kAll);
  On<ReluApi, ReluRef, float>(kA2, kAll);
  On<ReluApi, ReluRef, int32_t>(kA2, kAll);
  On<ReluApi, ReluRef, int64_t>(k950, kCount);
}

TEST(VectorMath, NotEveryType) {
  On<NotApi, NotRef, int16_t>(kA2, kAll);
  On<NotApi, NotRef, uint16_t>(kA2, kAll);
  On<NotApi, NotRef, int32_t>(k950, kAll);
  On<NotApi, NotRef, uint32_t>(k950, kAll);
  On<NotApi, NotRef, half>(k950, kAll);
  On<NotApi, NotRef, float>(k950, kAll);
  On<NotApi, NotRef, int8_t>(k950, kCount);
  On<NotApi, NotRef, uint8_t>(k950, kCount);
  On<NotApi, NotRef, int64_t>(k950, kCount);
  On<NotApi, NotRef, uint64_t>(k950, kCount);
}

struct NegApi {
  static constexpr const char* kName = "Neg";
  static constexpr int kSources = 1;
  template <typename T>
  static void Count(const LocalTensor<T>& d, const LocalTensor<T>& a,
                    const LocalTensor<T>&, T, int32_t n) {
    AscendC::Neg(d, a, static_cast<uint32_t>(n));
  }
  template <typename T, bool, typename M>
  static void Level0(const LocalTensor<T>&, const LocalTensor<T>&,
                     const LocalTensor<T>&, T, const M&, uint8_t,
                     const BinaryRepeatParams&, const UnaryRepeatParams&) {}
};

TEST(VectorMath, NegEveryType) {
  On<NegApi, NegRef, int8_t>(k950, kCount);
  On<NegApi, NegRef, int16_t>(k950, kCount);
  On<NegApi, NegRef, int32_t>(k950, kCount);
  On<NegApi, NegRef, int64_t>(k950, kCount);
  On<NegApi, NegRef, half>(k950, kCount);
  On<NegApi, NegRef, float>(k950, kCount);
}

// Exp, Ln, ... on random quarters (and their lanes); the accuracy over
// every half and a float sweep is checked further below.
template <double (*kFn)(double)>
struct MathRef {
  template <typename T>
  T operator()(T a, T) const {
    if constexpr (std::is_same_v<T, half>) {
      // half: through float, rounded once to half.
      return static_cast<T>(static_cast<float>(kFn(ToDouble(a))));
    } else if constexpr (std::is_same_v<T, float>) {
      return static_cast<T>(kFn(ToDouble(a)));
    } else {
      return a == 0 ? static_cast<T>(~uint64_t{0}) : static_cast<T>(T{1} / a);
    }
  }
};
double Exp(double x) { return std::exp(x); }
double Ln(double x) { return std::log(x); }
double Sqrt(double x) { return std::sqrt(x); }
double Rsqrt(double x) { return 1.0 / std::sqrt(x); }
double Recip(double x) { return 1.0 / x; }

TEST(VectorMath, ExpLnSqrtRsqrtReciprocalForms) {
  On<ExpApi, MathRef<Exp>, half>(kA2, kAll);
  On<ExpApi, MathRef<Exp>, float>(kA2, kAll);
  On<LnApi, MathRef<Ln>, half>(kA2, kAll);
  On<LnApi, MathRef<Ln>, float>(kA2, kAll);
  On<SqrtApi, MathRef<Sqrt>, half>(kA2, kAll);
  On<SqrtApi, MathRef<Sqrt>, float>(kA2, kAll);
  On<RsqrtApi, MathRef<Rsqrt>, half>(kA2, kAll);
  On<RsqrtApi, MathRef<Rsqrt>, float>(kA2, kAll);
  On<ReciprocalApi, MathRef<Recip>, half>(kA2, kAll);
  On<ReciprocalApi, MathRef<Recip>, float>(kA2, kAll);
  On<ReciprocalApi, MathRef<Recip>, int64_t>(k950, kCount, true);
  On<ReciprocalApi, MathRef<Recip>, uint64_t>(k950, kCount, true);
}

struct LeakyReluRef {
  template <typename T>
  T operator()(T a, T slope) const {
    return ToDouble(a) >= 0 ? a : RoundTo<T>(ToDouble(a) * ToDouble(slope));
  }
};

TEST(VectorMath, LeakyRelu) {
  On<LeakyReluApi, LeakyReluRef, half>(kA2, kAll, false, half(0.1f));
  On<LeakyReluApi, LeakyReluRef, float>(kA2, kAll, false, 0.1f);
  On<LeakyReluApi, LeakyReluRef, half>(k950, kAll, false, half(-3.0f));
}

// ---- Logic
// ---------------------------------------------------------------------

struct AndRef {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};
struct OrRef {
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

template <typename Api, typename Ref>
void CheckAndOr() {
  On<Api, Ref, int16_t>(kA2, kAll);
  On<Api, Ref, uint16_t>(kA2, kAll);
  On<Api, Ref, int32_t>(k950, kAll);
  On<Api, Ref, uint32_t>(k950, kAll);
  On<Api, Ref, int8_t>(k950, kCount);
  On<Api, Ref, uint8_t>(k950, kCount);
  On<Api, Ref, int64_t>(k950, kCount);
  On<Api, Ref, uint64_t>(k950, kCount);
}

TEST(VectorLogic, AndEveryType) { CheckAndOr<AndApi, AndRef>(); }
TEST(VectorLogic, OrEveryType) { CheckAndOr<OrApi, OrRef>(); }

template <typename Api, typename Ref>
void CheckAndsOrs() {
  On<Api, Ref, int16_t>(k950, kAll, false, int16_t{0x0F0F});
  On<Api, Ref, uint16_t>(k950, kAll, false, uint16_t{0xF00F});
  On<Api, Ref, int64_t>(k950, kCount, false, int64_t{0x123456789});
  On<Api, Ref, uint64_t>(k950, kCount, false, ~uint64_t{0} << 7);
}

TEST(VectorLogic, AndsOrsEveryType) {
  CheckAndsOrs<AndsApi, AndRef>();
  CheckAndsOrs<OrsApi, OrRef>();
}

TEST(VectorLogic, AndsOrsTakeTheScalarInEitherPosition) {
  const ProfileScope on(k950);
  Ub<uint16_t> ub;
  for (uint32_t i = 0; i < 16; ++i)
    ub.Get(0).SetValue(i, static_cast<uint16_t>(0x1234 * i));
  AscendC::Ands(ub.Get(1), uint16_t{0x00FF}, ub.Get(0), 16);
  AscendC::Ors(ub.Get(2), uint16_t{0x8000}, ub.Get(0), 16);
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(ub.Get(1).GetValue(i),
              static_cast<uint16_t>(0x1234 * i & 0x00FF));
    EXPECT_EQ(ub.Get(2).GetValue(i),
              static_cast<uint16_t>(0x1234 * i | 0x8000));
  }
}

// Shifts: unsigned logical, signed arithmetic (the sign bit stays on the
// left shift); a count of the width or more gives 0 (or −1 for a negative
// element shifted right).
struct ShiftLeftRef {
  template <typename T>
  T operator()(T a, T n) const {
    // Signed: sign · (|bits below the sign| << c, cut to bits − 1 bits),
    // e.g. 0b1010101010101010 << 1 = 0b1101010101010100 for int16_t.
    const uint64_t c = static_cast<uint64_t>(n);
    const uint64_t w = sizeof(T) * 8;
    if (c >= w) return T{0};
    const uint64_t bits = static_cast<uint64_t>(a) & (~uint64_t{0} >> (64 - w));
    const uint64_t sign = std::is_signed_v<T> ? bits >> (w - 1) << (w - 1) : 0;
    const uint64_t low_bits = std::is_signed_v<T> ? w - 1 : w;
    const uint64_t low_mask = ~uint64_t{0} >> (64 - low_bits);
    return static_cast<T>(sign | ((bits << c) & low_mask));
  }
};
struct ShiftRightRef {
  template <typename T>
  T operator()(T a, T n) const {
    const uint64_t c = static_cast<uint64_t>(n);
    if (c >= sizeof(T) * 8) return a < 0 ? static_cast<T>(-1) : T{0};
    if constexpr (std::is_signed_v<T>) {
      // Arithmetic: floor(a / 2^c).
      return static_cast<T>(std::floor(static_cast<long double>(a) /
                                       std::ldexp(1.0L, static_cast<int>(c))));
    } else {
      return static_cast<T>(a >> c);
    }
  }
};

template <typename Api, typename Ref>
void CheckShift() {
  for (int n : {0, 1, 5, 15, 16}) {
    On<Api, Ref, int16_t>(kA2, kAll, false, static_cast<int16_t>(n));
    On<Api, Ref, uint16_t>(kA2, kAll, false, static_cast<uint16_t>(n));
  }
  for (int n : {3, 31, 32}) {
    On<Api, Ref, int32_t>(kA2, kAll, false, n);
    On<Api, Ref, uint32_t>(kA2, kAll, false, static_cast<uint32_t>(n));
  }
  On<Api, Ref, int16_t>(k950, kAll, false, int16_t{40});
  On<Api, Ref, int8_t>(k950, kCount, false, int8_t{3});
  On<Api, Ref, uint8_t>(k950, kCount, false, uint8_t{9});
  On<Api, Ref, int64_t>(k950, kCount, false, int64_t{40});
  On<Api, Ref, uint64_t>(k950, kCount, false, uint64_t{63});
}

TEST(VectorLogic, ShiftLeftEveryType) {
  CheckShift<ShiftLeftApi, ShiftLeftRef>();
}
TEST(VectorLogic, ShiftRightEveryType) {
  CheckShift<ShiftRightApi, ShiftRightRef>();
}

// Shifts by a tensor of counts (950, count form): counts 0 to width + 3.
template <typename T, typename U>
void CheckTensorShift() {
  SCOPED_TRACE(normgrad_ascendc::TypeName<T>());
  const ProfileScope on(k950);
  std::mt19937 gen(77);
  Ub<T> ub;
  TBuf<TPosition::VECCALC> counts_buf;
  ub.pipe.InitBuffer(counts_buf, kBufferBytes);
  const LocalTensor<U> counts = counts_buf.Get<U>();
  const uint32_t n = kBufferBytes / sizeof(T);
  for (uint32_t i = 0; i < n; ++i) {
    ub.Get(0).SetValue(i, RandomValue<T>(gen, false));
    counts.SetValue(i, static_cast<U>(gen() % (sizeof(T) * 8 + 4)));
  }
  AscendC::ShiftLeft(ub.Get(1), ub.Get(0), counts, static_cast<int32_t>(n));
  AscendC::ShiftRight(ub.Get(2), ub.Get(0), counts, static_cast<int32_t>(n));
  for (uint32_t i = 0; i < n; ++i) {
    const T x = ub.Get(0).GetValue(i);
    const T c = static_cast<T>(counts.GetValue(i));
    ASSERT_EQ(ub.Get(1).GetValue(i), ShiftLeftRef{}(x, c)) << i;
    ASSERT_EQ(ub.Get(2).GetValue(i), ShiftRightRef{}(x, c)) << i;
  }
}

TEST(VectorLogic, ShiftByATensorOfCounts) {
  CheckTensorShift<int8_t, int8_t>();
  CheckTensorShift<uint8_t, int8_t>();
  CheckTensorShift<int16_t, int16_t>();
  CheckTensorShift<uint16_t, int16_t>();
  CheckTensorShift<int32_t, int32_t>();
  CheckTensorShift<uint32_t, int32_t>();
  CheckTensorShift<int64_t, int64_t>();
  CheckTensorShift<uint64_t, int64_t>();
  {
    const ProfileScope on(k950);
    Ub<int16_t> ub;
    for (uint32_t i = 0; i < 16; ++i) ub.Get(1).SetValue(i, int16_t{1});
    ub.Get(1).SetValue(3, int16_t{-2});
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::ShiftLeft(ub.Get(2), ub.Get(0), ub.Get(1), 16); },
        "ShiftLeft<int16_t, int16_t>: src1 holds the shift count -2; shift "
        "counts are at least 0"));
  }
  Ub<int16_t> ub;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ShiftRight(ub.Get(2), ub.Get(0), ub.Get(1), 16); },
      "ShiftRight<int16_t, int16_t>: ShiftRight is not available on profile "
      "Atlas A2/A3"));
}

// The documented examples of the arithmetic left shift.
TEST(VectorLogic, SignedShiftLeftKeepsTheSign) {
  Ub<int16_t> ub;
  ub.Get(0).SetValue(0, static_cast<int16_t>(0b1010101010101010));
  AscendC::ShiftLeft(ub.Get(1), ub.Get(0), int16_t{1}, 16);
  AscendC::ShiftLeft(ub.Get(2), ub.Get(0), int16_t{3}, 16);
  EXPECT_EQ(static_cast<uint16_t>(ub.Get(1).GetValue(0)), 0b1101010101010100);
  EXPECT_EQ(static_cast<uint16_t>(ub.Get(2).GetValue(0)), 0b1101010101010000);
}

TEST(VectorLogic, ShiftRightRoundsWithRoundEn) {
  Ub<int16_t> ub;
  const int16_t src[4] = {17, 15, -17, 16};
  for (uint32_t i = 0; i < 4; ++i) ub.Get(0).SetValue(i, src[i]);
  AscendC::ShiftRight(ub.Get(1), ub.Get(0), int16_t{5}, uint64_t{4}, 1,
                      UnaryRepeatParams(), true);
  // 17 = 0b10001: bit 4 set, so 0 + 1; 15: bit 4 clear; -17 >> 5 = -1 and
  // bit 4 of -17 (…1101111) is clear; 16: bit 4 set.
  EXPECT_EQ(ub.Get(1).GetValue(0), 1);
  EXPECT_EQ(ub.Get(1).GetValue(1), 0);
  EXPECT_EQ(ub.Get(1).GetValue(2), -1);
  EXPECT_EQ(ub.Get(1).GetValue(3), 1);
}

// ---- Type rules and checks
// -----------------------------------------------------

TEST(VectorChecks, TypesFollowTheProfile) {
  {
    Ub<int8_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Add(ub.Get(2), ub.Get(0), ub.Get(1), 32); },
        "Add<int8_t>: element type int8_t is not supported on profile "
        "Atlas A2/A3 (Add takes int16_t, int32_t, half, float there)"));
  }
  {
    Ub<int32_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Div(ub.Get(2), ub.Get(0), ub.Get(1), 8); },
        "Div<int32_t>: element type int32_t is not supported on profile "
        "Atlas A2/A3 (Div takes half, float there)"));
  }
  {
    const ProfileScope on(k950);
    Ub<int64_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Max(ub.Get(2), ub.Get(0), ub.Get(1), uint64_t{32}, 1,
                       BinaryRepeatParams());
        },
        "Max<int64_t>: element type int64_t takes only the count form on "
        "profile Ascend 950 (the mask forms of Max take int16_t, uint16_t, "
        "int32_t, uint32_t, half, bfloat16_t, float there)"));
  }
  {
    const ProfileScope on(Profile::k310P);
    Ub<int16_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::ShiftLeft(ub.Get(2), ub.Get(0), int16_t{1}, 16); },
        "ShiftLeft<int16_t>: ShiftLeft is not available on profile Atlas "
        "inference series"));
  }
  {
    Ub<float> ub;
    EXPECT_TRUE(
        FailsWith([&] { AscendC::Subs(ub.Get(2), 1.0f, ub.Get(0), 8); },
                  "Subs<float>: Subs is not available on profile Atlas A2/A3"));
    EXPECT_TRUE(
        FailsWith([&] { AscendC::Adds(ub.Get(2), 1.0f, ub.Get(0), 8); },
                  "Adds<float>: Adds is not available on profile Atlas A2/A3"));
    EXPECT_TRUE(
        FailsWith([&] { AscendC::Neg(ub.Get(2), ub.Get(0), 8u); },
                  "Neg<float>: Neg is not available on profile Atlas A2/A3"));
  }
}

TEST(VectorChecks, ShiftCounts) {
  Ub<int16_t> ub;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ShiftLeft(ub.Get(2), ub.Get(0), int16_t{17}, 16); },
      "ShiftLeft<int16_t>: scalarValue 17 is out of range (0..16 for 16-bit "
      "elements on profile Atlas A2/A3)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ShiftRight(ub.Get(2), ub.Get(0), int16_t{-1}, 16); },
      "ShiftRight<int16_t>: scalarValue -1 is negative"));
}

TEST(VectorChecks, ConfigurationsBelongToThe950) {
  static constexpr AscendC::ExpConfig kKeep = {
      AscendC::ExpAlgo::PRECISION_1ULP_FTZ_FALSE};
  static constexpr AscendC::SqrtConfig kFast = {
      AscendC::SqrtAlgo::FAST_INVERSE};
  static constexpr AscendC::DivConfig kComp = {
      AscendC::DivAlgo::DIFF_COMPENSATION};
  {
    Ub<float> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Exp<float, kKeep>(ub.Get(2), ub.Get(0), 8); },
        "Exp<float>: config.algo 2 is available on profile Ascend 950 only"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Div<float, kComp>(ub.Get(2), ub.Get(0), ub.Get(1), 8); },
        "Div<float>: config.algo 1 is available on profile Ascend 950 only"));
  }
  const ProfileScope on(k950);
  Ub<half> ub;
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sqrt<half, kFast>(ub.Get(2), ub.Get(0), 8); },
                "Sqrt<half>: config.algo 1 takes float only"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Div<half, kComp>(ub.Get(2), ub.Get(0), ub.Get(1), 8); },
      "Div<half>: config.algo 1 takes float only"));
}

// ---- Subnormals
// ------------------------------------------------------------------

// Elsewhere than the 950 subnormals are kept; on the 950 the default
// algorithms flush subnormal inputs and results to zero, FTZ_FALSE keeps them.
TEST(VectorMath, SubnormalsPerProfileAndConfiguration) {
  const float tiny = 0x1p-140f;  // a float subnormal
  const auto run = [&](auto call) {
    Ub<float> ub;
    ub.Get(0).SetValue(0, tiny);
    ub.Get(0).SetValue(1, -100.0f);  // e^-100 is subnormal: 3.7e-44
    ub.Get(1).SetValue(0, 4.0f);
    ub.Get(1).SetValue(1, 1.0f);
    call(ub);
    return std::vector<float>{ub.Get(2).GetValue(0), ub.Get(2).GetValue(1)};
  };
  const auto div = [](Ub<float>& ub) {
    AscendC::Div(ub.Get(2), ub.Get(0), ub.Get(1), 2);
  };
  const auto exp = [](Ub<float>& ub) { AscendC::Exp(ub.Get(2), ub.Get(0), 2); };
  static constexpr AscendC::ExpConfig kKeep = {
      AscendC::ExpAlgo::PRECISION_1ULP_FTZ_FALSE};
  static constexpr AscendC::DivConfig kKeepDiv = {
      AscendC::DivAlgo::PRECISION_1ULP_FTZ_FALSE};
  const auto exp_keep = [](Ub<float>& ub) {
    AscendC::Exp<float, kKeep>(ub.Get(2), ub.Get(0), 2);
  };
  const auto div_keep = [](Ub<float>& ub) {
    AscendC::Div<float, kKeepDiv>(ub.Get(2), ub.Get(0), ub.Get(1), 2);
  };
  EXPECT_EQ(run(div)[0], tiny / 4.0f);
  EXPECT_EQ(run(exp)[1], static_cast<float>(std::exp(-100.0)));
  EXPECT_GT(run(exp)[1], 0.0f);
  const ProfileScope on(k950);
  EXPECT_EQ(run(div)[0], 0.0f);
  EXPECT_EQ(run(div)[1], -100.0f);
  EXPECT_EQ(run(exp)[1], 0.0f);
  EXPECT_EQ(run(exp)[0], 1.0f);
  EXPECT_EQ(run(div_keep)[0], tiny / 4.0f);
  EXPECT_EQ(run(exp_keep)[1], static_cast<float>(std::exp(-100.0)));
}

// half flushes its own subnormals (below 2^-14) on the 950: 2^-14 / 4 is a
// half subnormal, and so is the input 2^-16.
TEST(VectorMath, HalfSubnormalsOnThe950) {
  const ProfileScope on(k950);
  Ub<half> ub;
  ub.Get(0).SetValue(0, half(0x1p-14f));
  ub.Get(0).SetValue(1, half(0x1p-16f));
  ub.Get(0).SetValue(2, half(1.0f));
  for (uint32_t i = 0; i < 3; ++i) ub.Get(1).SetValue(i, half(4.0f));
  AscendC::Div(ub.Get(2), ub.Get(0), ub.Get(1), 3);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(0)), 0.0f);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(1)), 0.0f);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(2)), 0.25f);
  AscendC::Reciprocal(ub.Get(2), ub.Get(0), 3);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(0)), 16384.0f);
  EXPECT_TRUE(std::isinf(static_cast<float>(ub.Get(2).GetValue(1))));
  AscendC::Sqrt(ub.Get(2), ub.Get(0), 2);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(0)), 0x1p-7f);
  EXPECT_EQ(static_cast<float>(ub.Get(2).GetValue(1)), 0.0f);
}

TEST(VectorMath, FastInverseRange) {
  const ProfileScope on(k950);
  static constexpr AscendC::SqrtConfig kFast = {
      AscendC::SqrtAlgo::FAST_INVERSE};
  static constexpr AscendC::RsqrtConfig kFastR = {
      AscendC::RsqrtAlgo::FAST_INVERSE};
  Ub<float> ub;
  ub.Get(0).SetValue(0, 0x1p127f);
  ub.Get(0).SetValue(1, 0x1p-140f);
  ub.Get(0).SetValue(2, 4.0f);
  AscendC::Sqrt<float, kFast>(ub.Get(1), ub.Get(0), 3);
  AscendC::Rsqrt<float, kFastR>(ub.Get(2), ub.Get(0), 3);
  EXPECT_EQ(ub.Get(1).GetValue(0), 0.0f);
  EXPECT_EQ(ub.Get(1).GetValue(1), 0x1p-70f);  // subnormal input kept
  EXPECT_EQ(ub.Get(1).GetValue(2), 2.0f);
  EXPECT_EQ(ub.Get(2).GetValue(0), std::numeric_limits<float>::infinity());
  EXPECT_EQ(ub.Get(2).GetValue(2), 0.5f);
}

// ---- Accuracy: every half input and a float sweep
// ----------------------------

// |got − exact| in units of the last place of T at `exact` (subnormal
// spacing below the smallest normal); infinities and NaN must match where
// the exact value rounds to them.
template <typename T>
long double UlpError(T got, long double exact) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  const int mant = kHalf ? 10 : 23;
  const int emin = kHalf ? -14 : -126;
  const long double g = ToDouble(got);
  if (std::isnan(exact)) return std::isnan(g) ? 0 : INFINITY;
  // Beyond the largest finite value plus half its ulp, the result is inf.
  const long double overflow =
      kHalf ? 65520.0L : std::ldexp(2.0L - std::ldexp(1.0L, -24), 127);
  if (std::fabs(exact) >= overflow) {
    return std::isinf(g) && (g > 0) == (exact > 0) ? 0 : INFINITY;
  }
  if (std::isinf(g) || std::isnan(g)) return INFINITY;
  int e = 0;
  std::frexp(exact, &e);
  const int exp = std::max(e - 1, emin);
  return std::fabs(g - exact) / std::ldexp(1.0L, exp - mant);
}

struct Measured {
  long double max_ulp = 0;
  double at = 0;
};
using Exact = long double (*)(long double);

// The bounds docs/numerics.md states for Exp, Ln, Sqrt, Rsqrt, Reciprocal,
// derived: float is the double result (within 1 ulp of double, 2^-29 of a
// float ulp) rounded once; half adds to its half-ulp rounding the float
// result's error, at most half a float ulp and 2^-29 float ulp, or
// 2^-14 + 2^-42 of a half ulp.
constexpr double kHalfUlpBound = 0.5 + 0x1p-14 + 0x1p-42;
constexpr double kFloatUlpBound = 0.5 + 0x1p-29;

template <typename Api>
Measured MeasureHalf(Exact fn) {
  Measured m;
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  pipe.InitBuffer(in_buf, 32768 * 2);
  pipe.InitBuffer(out_buf, 32768 * 2);
  const LocalTensor<half> in = in_buf.Get<half>(), out = out_buf.Get<half>();
  for (uint32_t base = 0; base < 65536; base += 32768) {
    for (uint32_t i = 0; i < 32768; ++i) {
      const uint16_t bits = static_cast<uint16_t>(base + i);
      half h;
      std::memcpy(static_cast<void*>(&h), &bits, sizeof h);
      in.SetValue(i, h);
    }
    Api::Count(out, in, in, half(), 32768);
    for (uint32_t i = 0; i < 32768; ++i) {
      const double x = ToDouble(in.GetValue(i));
      const long double err = UlpError(out.GetValue(i), fn(x));
      if (err > m.max_ulp) m = {err, x};
    }
  }
  return m;
}

template <typename Api>
Measured MeasureFloat(Exact fn) {
  // Every 1021st float bit pattern (4.2 million values of both signs).
  Measured m;
  TPipe pipe;
  TBuf<TPosition::VECCALC> in_buf, out_buf;
  constexpr uint32_t kChunk = 16384;
  pipe.InitBuffer(in_buf, kChunk * 4);
  pipe.InitBuffer(out_buf, kChunk * 4);
  const LocalTensor<float> in = in_buf.Get<float>(), out = out_buf.Get<float>();
  float* src = reinterpret_cast<float*>(in.GetPhyAddr());
  const float* dst = reinterpret_cast<const float*>(out.GetPhyAddr());
  uint64_t bits = 0;
  while (bits <= 0xFFFFFFFFull) {
    uint32_t n = 0;
    for (; n < kChunk && bits <= 0xFFFFFFFFull; ++n, bits += 1021) {
      const uint32_t b = static_cast<uint32_t>(bits);
      std::memcpy(&src[n], &b, sizeof b);
    }
    Api::Count(out, in, in, 0.0f, static_cast<int32_t>(n));
    for (uint32_t i = 0; i < n; ++i) {
      const long double err = UlpError(dst[i], fn(src[i]));
      if (err > m.max_ulp) m = {err, src[i]};
    }
  }
  return m;
}

template <typename Api>
void CheckAccuracy(Exact fn) {
  const Measured h = MeasureHalf<Api>(fn);
  const Measured f = MeasureFloat<Api>(fn);
  std::printf(
      "%-10s half: max %.6Lf ulp (at %.9g); float: max %.9Lf ulp (at %.9g)\n",
      Api::kName, h.max_ulp, h.at, f.max_ulp, f.at);
  EXPECT_LE(h.max_ulp, kHalfUlpBound) << Api::kName << " half at " << h.at;
  EXPECT_LE(f.max_ulp, kFloatUlpBound) << Api::kName << " float at " << f.at;
}

// The exact values, in long double (64-bit significand on x86).
long double ExpL(long double x) { return std::exp(x); }
long double LnL(long double x) { return std::log(x); }
long double SqrtL(long double x) { return std::sqrt(x); }
long double RsqrtL(long double x) { return 1.0L / std::sqrt(x); }
long double RecipL(long double x) { return 1.0L / x; }

TEST(VectorAccuracy, Exp) { CheckAccuracy<ExpApi>(ExpL); }
TEST(VectorAccuracy, Ln) { CheckAccuracy<LnApi>(LnL); }
TEST(VectorAccuracy, Sqrt) { CheckAccuracy<SqrtApi>(SqrtL); }
TEST(VectorAccuracy, Rsqrt) { CheckAccuracy<RsqrtApi>(RsqrtL); }
TEST(VectorAccuracy, Reciprocal) { CheckAccuracy<ReciprocalApi>(RecipL); }

}  // namespace

// ---- Prelu and Mull (the 950 profile's count form) ----

template <typename T>
void CheckPrelu(std::mt19937& gen) {
  Ub<T> ub;
  ub.Randomize(gen, false);
  const LocalTensor<T> x = ub.Get(0), y = ub.Get(1), d = ub.Get(2);
  x.SetValue(0, static_cast<T>(-0.0f));
  x.SetValue(1, static_cast<T>(NAN));
  x.SetValue(2, static_cast<T>(-3.0f));
  y.SetValue(2, static_cast<T>(-0.1f));  // rounded product
  const auto before = ub.Snapshot();
  constexpr uint32_t kCount = 300;
  AscendC::Prelu(d, x, y, kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    const double a = ToDouble(before[0][i]), b = ToDouble(before[1][i]);
    const T want = a >= 0 ? before[0][i] : RoundTo<T>(a * b);
    ASSERT_TRUE(Same(d.GetValue(i), want))
        << normgrad_ascendc::TypeName<T>() << " lane " << i << ": got "
        << ToDouble(d.GetValue(i)) << ", want " << ToDouble(want);
  }
  EXPECT_TRUE(std::signbit(ToDouble(d.GetValue(0))));  // -0 kept
  EXPECT_TRUE(std::isnan(ToDouble(d.GetValue(1))));
  EXPECT_TRUE(Same(d.GetValue(kCount), before[2][kCount]));  // past count
}

TEST(Prelu, CountFormOn950) {
  ProfileScope scope(Profile::k950);
  std::mt19937 gen(90);
  CheckPrelu<half>(gen);
  CheckPrelu<float>(gen);
  // The documented example's first three lanes (the page prints 1, 1028
  // and -1045; -3 · 515 is -1545).
  Ub<float> ub;
  const float a[] = {1, -2, -3}, b[] = {513, -514, 515};
  for (uint32_t i = 0; i < 3; ++i) {
    ub.Get(0).SetValue(i, a[i]);
    ub.Get(1).SetValue(i, b[i]);
  }
  AscendC::Prelu(ub.Get(2), ub.Get(0), ub.Get(1), 3);
  EXPECT_EQ(ub.Get(2).GetValue(0), 1.0f);
  EXPECT_EQ(ub.Get(2).GetValue(1), 1028.0f);
  EXPECT_EQ(ub.Get(2).GetValue(2), -1545.0f);
}

TEST(Prelu, OnlyOn950AndOnlyHalfOrFloat) {
  for (Profile p : {Profile::kA2, Profile::k310P}) {
    ProfileScope scope(p);
    Ub<float> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Prelu(ub.Get(2), ub.Get(0), ub.Get(1), 64); },
        std::string("Prelu<float>: Prelu is not available on profile ") +
            normgrad_ascendc::GetProfileInfo(p).name));
  }
  ProfileScope scope(Profile::k950);
  {
    Ub<int32_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Prelu(ub.Get(2), ub.Get(0), ub.Get(1), 64); },
        "Prelu<int32_t>: element type int32_t is not supported on profile "
        "Ascend 950 (Prelu takes half, float there)"));
  }
  Ub<float> f;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Prelu(f.Get(2), f.Get(0), f.Get(1), kBufferBytes / 4 + 8);
      },
      "Prelu<float>: dst has"));
}

// The 64-bit product by 16-bit limbs, schoolbook: the low and high words.
template <typename T>
std::pair<uint32_t, uint32_t> LimbProduct(T x, T y) {
  const bool negative =
      std::is_signed_v<T> && ((x < 0) != (y < 0)) && x != 0 && y != 0;
  auto magnitude = [](T v) {
    return std::is_signed_v<T> && v < 0
               ? static_cast<uint32_t>(0u - static_cast<uint32_t>(v))
               : static_cast<uint32_t>(v);
  };
  const uint32_t a = magnitude(x), b = magnitude(y);
  const uint32_t al = a & 0xFFFF, ah = a >> 16, bl = b & 0xFFFF, bh = b >> 16;
  uint32_t limbs[4] = {0, 0, 0, 0};  // 16-bit limbs, carries propagated
  auto add = [&](int at, uint32_t v) {
    uint64_t carry = v;
    for (int k = at; k < 4 && carry != 0; ++k) {
      carry += limbs[k];
      limbs[k] = static_cast<uint32_t>(carry & 0xFFFF);
      carry >>= 16;
    }
  };
  add(0, al * bl & 0xFFFF), add(1, al * bl >> 16);
  add(1, al * bh & 0xFFFF), add(2, al * bh >> 16);
  add(1, ah * bl & 0xFFFF), add(2, ah * bl >> 16);
  add(2, ah * bh & 0xFFFF), add(3, ah * bh >> 16);
  uint32_t low = limbs[0] | limbs[1] << 16, high = limbs[2] | limbs[3] << 16;
  if (negative) {  // two's complement of the 64 bits
    low = ~low + 1;
    high = ~high + (low == 0 ? 1 : 0);
  }
  return {low, high};
}

template <typename T>
void CheckMull(std::mt19937& gen, bool in_place) {
  Ub<T> ub;
  ub.Randomize(gen, false);
  TPipe& pipe = ub.pipe;
  TBuf<TPosition::VECCALC> extra;
  pipe.InitBuffer(extra, kBufferBytes);
  const LocalTensor<T> x = ub.Get(0), y = ub.Get(1);
  x.SetValue(0, std::numeric_limits<T>::min());
  y.SetValue(0, std::numeric_limits<T>::min());
  x.SetValue(1, std::numeric_limits<T>::max());
  y.SetValue(1, std::numeric_limits<T>::max());
  const auto before = ub.Snapshot();
  const LocalTensor<T> d0 = in_place ? x : ub.Get(2);
  const LocalTensor<T> d1 = extra.Get<T>();
  constexpr uint32_t kCount = 200;
  AscendC::Mull(d0, d1, x, y, kCount);
  for (uint32_t i = 0; i < kCount; ++i) {
    const auto want = LimbProduct<T>(before[0][i], before[1][i]);
    ASSERT_EQ(static_cast<uint32_t>(d0.GetValue(i)), want.first) << i;
    ASSERT_EQ(static_cast<uint32_t>(d1.GetValue(i)), want.second) << i;
  }
}

TEST(Mull, LowAndHighWordsOn950) {
  ProfileScope scope(Profile::k950);
  std::mt19937 gen(91);
  for (bool in_place : {false, true}) {
    CheckMull<int32_t>(gen, in_place);
    CheckMull<uint32_t>(gen, in_place);
  }
  // The documented example's first three lanes.
  Ub<int32_t> ub;
  TBuf<TPosition::VECCALC> extra;
  ub.pipe.InitBuffer(extra, kBufferBytes);
  const int32_t a[] = {-2039520159, 95829766, -1522913829};
  const int32_t b[] = {-1791575569, -291976917, -1973597151};
  const int32_t low[] = {-1560359025, 212356098, 1219226939};
  const int32_t high[] = {850752575, -6514620, 699800065};
  for (uint32_t i = 0; i < 3; ++i) {
    ub.Get(0).SetValue(i, a[i]);
    ub.Get(1).SetValue(i, b[i]);
  }
  AscendC::Mull(ub.Get(2), extra.Get<int32_t>(), ub.Get(0), ub.Get(1), 8);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ub.Get(2).GetValue(i), low[i]) << i;
    EXPECT_EQ(extra.Get<int32_t>().GetValue(i), high[i]) << i;
  }
}

TEST(Mull, BadUse) {
  {
    ProfileScope scope(Profile::kA2);
    Ub<int32_t> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Mull(ub.Get(2), ub.Get(1), ub.Get(0), ub.Get(1), 64); },
        "Mull<int32_t>: Mull is not available on profile Atlas A2/A3"));
  }
  ProfileScope scope(Profile::k950);
  {
    Ub<int16_t> i16;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Mull(i16.Get(2), i16.Get(1), i16.Get(0), i16.Get(1), 64);
        },
        "Mull<int16_t>: element type int16_t is not supported on profile "
        "Ascend 950 (Mull takes int32_t, uint32_t there)"));
  }
  Ub<int32_t> ub;
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Mull(ub.Get(2), ub.Get(2)[8], ub.Get(0), ub.Get(1), 64); },
      "Mull<int32_t>: dst0 (UB bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Mull(ub.Get(2), ub.Get(2)[8], ub.Get(0), ub.Get(1), 64); },
      "overlaps dst1"));
  TBuf<TPosition::VECCALC> small;
  ub.pipe.InitBuffer(small, 64);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Mull(ub.Get(2), small.Get<int32_t>(), ub.Get(0), ub.Get(1),
                      64);
      },
      "Mull<int32_t>: dst1 has 16 elements, fewer than count 64"));
}

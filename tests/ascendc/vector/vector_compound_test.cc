// vector_compound_test.cc — the compound instructions of the vector unit
// (normgrad_ascendc/vector/vector_compound.h): Axpy FusedMulAdd MulAddDst
// MulAddRelu AddRelu SubRelu AddReluCast SubReluCast MulCast AbsSub ExpSub
// MulsCast, on every documented type or type pair per profile, in the count
// form and the level-0 forms (bit mask, continuous mask, counter mode with the
// mask set outside the call) with random repeats and strides; the two roundings
// of the multiply-adds, the exact widening product, the narrowing conversions'
// rounding and saturation, the documented overlaps and the checks.
//
// The reference is written here, element by element, from the documented
// rules: a repeat covers 256 bytes of the widest operand; lane k of repeat r
// of an operand with e-byte elements lies at byte
//   r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e
// of its tensor; a repeat reads its sources (and dst) before it writes;
// lanes the mask leaves out keep their values. Integers wrap modulo 2^bits;
// each float step is the exact result (computed in double) rounded once.
#include <gtest/gtest.h>

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
T RandomValue(std::mt19937& gen) {
  if constexpr (kFloatLike<T>) {
    // Quarters in [-16, 16]: exact in every float type; their products
    // need up to 12 bits, so half and bfloat16_t products round.
    std::uniform_int_distribution<int> q(-64, 64);
    return static_cast<T>(static_cast<float>(q(gen)) / 4.0f);
  } else {
    const uint64_t bits = (uint64_t{gen()} << 32) | gen();
    T v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
}

// ---- Element references ----

template <typename T>
T Add(T a, T b) {
  if constexpr (kFloatLike<T>) {
    return RoundTo<T>(ToDouble(a) + ToDouble(b));
  } else {
    return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  }
}
template <typename T>
T Sub(T a, T b) {
  if constexpr (kFloatLike<T>) {
    return RoundTo<T>(ToDouble(a) - ToDouble(b));
  } else {
    return static_cast<T>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  }
}
template <typename T>
T Mul(T a, T b) {
  if constexpr (kFloatLike<T>) {
    return RoundTo<T>(ToDouble(a) * ToDouble(b));
  } else {
    return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  }
}
template <typename T>
T Relu(T x) {
  if constexpr (kFloatLike<T>) {
    const double v = ToDouble(x);
    return v != v || v > 0 ? x : T(0.0f);
  } else {
    return x > 0 ? x : T{0};
  }
}
// half widened exactly to float; other pairs are the same type.
template <typename D, typename S>
D Widen(S x) {
  if constexpr (std::is_same_v<D, S>) {
    return x;
  } else {
    return static_cast<D>(static_cast<float>(x));
  }
}

template <typename I>
I ClampTo(double v) {
  if (v != v) return I{0};
  if (v <= static_cast<double>(std::numeric_limits<I>::min())) {
    return std::numeric_limits<I>::min();
  }
  if (v >= static_cast<double>(std::numeric_limits<I>::max())) {
    return std::numeric_limits<I>::max();
  }
  return static_cast<I>(v);
}

// The narrowing conversions as the compound pages state them: to nearest
// even, saturating.
template <typename D, typename S>
D NarrowRef(S x) {
  if constexpr (std::is_same_v<S, half>) {
    return ClampTo<D>(std::nearbyint(ToDouble(x)));
  } else if constexpr (std::is_same_v<D, half>) {
    const half h = static_cast<half>(x);
    if (std::isinf(static_cast<float>(h)) && std::isfinite(x)) {
      return half(x > 0 ? 65504.0f : -65504.0f);
    }
    return h;
  } else if constexpr (std::is_same_v<D, float>) {
    return static_cast<float>(x);
  } else if constexpr (std::is_same_v<S, int64_t>) {
    return x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : D(x);
  } else {
    return ClampTo<D>(static_cast<double>(x));
  }
}

// ---- Buffers and the level-0 reference ----

// Three buffers of kBufferBytes: src0 and src1 holding S, dst holding D.
template <typename D, typename S>
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  LocalTensor<S> Src0() { return buf[0].template Get<S>(); }
  LocalTensor<S> Src1() { return buf[1].template Get<S>(); }
  LocalTensor<D> Dst() { return buf[2].template Get<D>(); }
  struct Mem {
    std::vector<S> a, b;
    std::vector<D> d;
  };
  void Randomize(std::mt19937& gen) {
    for (const auto& t : {Src0(), Src1()}) {
      for (uint32_t i = 0; i < t.GetSize(); ++i) {
        t.SetValue(i, RandomValue<S>(gen));
      }
    }
    const LocalTensor<D> d = Dst();
    for (uint32_t i = 0; i < d.GetSize(); ++i) {
      d.SetValue(i, RandomValue<D>(gen));
    }
  }
  Mem Snapshot() {
    Mem m;
    for (uint32_t i = 0; i < Src0().GetSize(); ++i) {
      m.a.push_back(Src0().GetValue(i));
      m.b.push_back(Src1().GetValue(i));
    }
    for (uint32_t i = 0; i < Dst().GetSize(); ++i) {
      m.d.push_back(Dst().GetValue(i));
    }
    return m;
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

template <typename D, typename S>
void ExpectMemory(Ub<D, S>& ub, const typename Ub<D, S>::Mem& want,
                  const std::string& what) {
  const auto got = ub.Snapshot();
  for (size_t i = 0; i < want.d.size(); ++i) {
    ASSERT_TRUE(Same(got.d[i], want.d[i]))
        << what << ": dst element " << i << ": got " << ToDouble(got.d[i])
        << ", want " << ToDouble(want.d[i]);
  }
  for (size_t i = 0; i < want.a.size(); ++i) {
    ASSERT_TRUE(Same(got.a[i], want.a[i]) && Same(got.b[i], want.b[i]))
        << what << ": a source changed at element " << i;
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

// Repeats 0 .. repeats-1 under `mask`, then, when tail > 0, one more repeat
// with its first `tail` lanes: dst = f(dst, src0, src1).
template <typename D, typename S, typename F>
void Reference(typename Ub<D, S>::Mem& mem, const uint64_t mask[2],
               uint32_t repeats, uint32_t tail, const Stride s[3], F f) {
  constexpr uint32_t eD = sizeof(D), eS = sizeof(S);
  constexpr uint32_t lanes = 256 / (eD > eS ? eD : eS);
  for (uint32_t r = 0; r < repeats + (tail > 0 ? 1 : 0); ++r) {
    const auto before = mem;
    for (uint32_t k = 0; k < lanes; ++k) {
      if (r < repeats ? !Selected(mask, k) : k >= tail) continue;
      const uint32_t di = LaneIndex(eD, s[0], r, k);
      mem.d[di] = f(before.d[di], before.a[LaneIndex(eS, s[1], r, k)],
                    before.b[LaneIndex(eS, s[2], r, k)]);
    }
  }
}

enum class Forms { kAll, kCountOnly };

template <typename Api, typename D, typename S, typename F>
void CheckLevel0(const F& f, S scalar);

// Runs one instruction (Api: Count and Level0 calls) on dst type D and
// source type S against `ref`: random counts in the count form, and unless
// count-only, 40 random level-0 calls with a bit mask, a continuous mask,
// and counter mode set outside the call.
template <typename Api, typename D, typename S, typename F>
void Check(Profile profile, Forms forms, F ref, S scalar = S{}) {
  SCOPED_TRACE(std::string(Api::kName) + "<" + normgrad_ascendc::TypeName<D>() +
               ", " + normgrad_ascendc::TypeName<S>() + "> on profile " +
               std::to_string(static_cast<int>(profile)));
  const ProfileScope on(profile);
  std::mt19937 gen(4321);
  constexpr uint32_t eD = sizeof(D), eS = sizeof(S);
  constexpr uint32_t wide = eD > eS ? eD : eS;
  const auto f = [&](D old, S a, S b) {
    return Api::kOneSource ? ref(old, a, scalar) : ref(old, a, b);
  };
  for (int trial = 0; trial < 8; ++trial) {
    Ub<D, S> ub;
    ub.Randomize(gen);
    if constexpr (Api::kScalarInSrc1) ub.Src1().SetValue(0, scalar);
    auto want = ub.Snapshot();
    const uint32_t count = gen() % (kBufferBytes / wide + 1);
    for (uint32_t i = 0; i < count; ++i) {
      want.d[i] = f(want.d[i], want.a[i], want.b[i]);
    }
    Api::Count(ub.Dst(), ub.Src0(), ub.Src1(), scalar, count);
    ExpectMemory(ub, want, "count " + std::to_string(count));
    if (::testing::Test::HasFatalFailure()) return;
  }
  if constexpr (Api::kLevel0) {
    if (forms == Forms::kAll) CheckLevel0<Api, D, S>(f, scalar);
  }
}

// The level-0 half of Check.
template <typename Api, typename D, typename S, typename F>
void CheckLevel0(const F& f, S scalar) {
  std::mt19937 gen(5678);
  constexpr uint32_t eD = sizeof(D), eS = sizeof(S);
  constexpr uint32_t wide = eD > eS ? eD : eS;
  constexpr uint32_t lanes = 256 / wide;
  for (int trial = 0; trial < 40; ++trial) {
    Ub<D, S> ub;
    ub.Randomize(gen);
    auto want = ub.Snapshot();
    uint64_t mask[2] = {(uint64_t{gen()} << 32) | gen(),
                        lanes > 64 ? (uint64_t{gen()} << 32) | gen() : 0};
    const uint32_t repeats = gen() % 4;
    std::uniform_int_distribution<uint32_t> block(1, 3), repeat(0, 24);
    Stride s[3];
    for (auto& st : s) st = {block(gen), repeat(gen)};
    if (Api::kOneSource) s[2] = {1, 8};
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
        Reference<D, S>(want, mask, repeats, 0, s, f);
        Api::template Level0<D, S, true>(ub.Dst(), ub.Src0(), ub.Src1(), scalar,
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
        Reference<D, S>(want, first, repeats, 0, s, f);
        Api::template Level0<D, S, true>(ub.Dst(), ub.Src0(), ub.Src1(), scalar,
                                         len, static_cast<uint8_t>(repeats), bp,
                                         up);
        break;
      }
      default: {
        const uint32_t n = 1 + gen() % (3 * lanes);
        what = "counter mode " + std::to_string(n);
        const uint64_t all[2] = {~uint64_t{0}, ~uint64_t{0}};
        Reference<D, S>(want, all, n / lanes, n % lanes, s, f);
        AscendC::SetMaskCount();
        AscendC::SetVectorMask<S, AscendC::MaskMode::COUNTER>(0, n);
        Api::template Level0<D, S, false>(ub.Dst(), ub.Src0(), ub.Src1(),
                                          scalar, AscendC::MASK_PLACEHOLDER, 1,
                                          bp, up);
        AscendC::SetMaskNorm();
        AscendC::ResetMask();
        break;
      }
    }
    ExpectMemory(ub, want, what + ", " + std::to_string(repeats) + " repeats");
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// How each instruction is called: Count(dst, src0, src1, scalar, n) and
// Level0<D, S, isSetMask>(dst, src0, src1, scalar, mask, repeats, binary
// params, unary params).
#define SAME_TYPE_API(Api, Fn)                                                 \
  struct Api {                                                                 \
    static constexpr const char* kName = #Fn;                                  \
    static constexpr bool kOneSource = false;                                  \
    static constexpr bool kLevel0 = true;                                      \
    static constexpr bool kScalarInSrc1 = false;                               \
    template <typename D, typename S>                                          \
    static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,        \
                      const LocalTensor<S>& b, S, uint32_t n) {                \
      AscendC::Fn(d, a, b, static_cast<int32_t>(n));                           \
    }                                                                          \
    template <typename D, typename S, bool kSet, typename M>                   \
    static void Level0(const LocalTensor<D>& d, const LocalTensor<S>& a,       \
                       const LocalTensor<S>& b, S, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams& bp,                           \
                       const UnaryRepeatParams&) {                             \
      AscendC::Fn<D, kSet>(d, a, b, mask, rep, bp);                            \
    }                                                                          \
  };
#define PAIR_API(Api, Fn)                                                      \
  struct Api {                                                                 \
    static constexpr const char* kName = #Fn;                                  \
    static constexpr bool kOneSource = false;                                  \
    static constexpr bool kLevel0 = true;                                      \
    static constexpr bool kScalarInSrc1 = false;                               \
    template <typename D, typename S>                                          \
    static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,        \
                      const LocalTensor<S>& b, S, uint32_t n) {                \
      AscendC::Fn(d, a, b, n);                                                 \
    }                                                                          \
    template <typename D, typename S, bool kSet, typename M>                   \
    static void Level0(const LocalTensor<D>& d, const LocalTensor<S>& a,       \
                       const LocalTensor<S>& b, S, const M& mask, uint8_t rep, \
                       const BinaryRepeatParams& bp,                           \
                       const UnaryRepeatParams&) {                             \
      AscendC::Fn<D, S, kSet>(d, a, b, mask, rep, bp);                         \
    }                                                                          \
  };

SAME_TYPE_API(FusedMulAddApi, FusedMulAdd)
SAME_TYPE_API(MulAddReluApi, MulAddRelu)
SAME_TYPE_API(AddReluApi, AddRelu)
SAME_TYPE_API(SubReluApi, SubRelu)
PAIR_API(MulAddDstApi, MulAddDst)
PAIR_API(AddReluCastApi, AddReluCast)
PAIR_API(SubReluCastApi, SubReluCast)
PAIR_API(MulCastApi, MulCast)

struct AxpyApi {
  static constexpr const char* kName = "Axpy";
  static constexpr bool kOneSource = true;
  static constexpr bool kLevel0 = true;
  static constexpr bool kScalarInSrc1 = false;
  template <typename D, typename S>
  static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,
                    const LocalTensor<S>&, S scalar, uint32_t n) {
    AscendC::Axpy(d, a, scalar, static_cast<int32_t>(n));
  }
  template <typename D, typename S, bool kSet, typename M>
  static void Level0(const LocalTensor<D>& d, const LocalTensor<S>& a,
                     const LocalTensor<S>&, S scalar, const M& mask,
                     uint8_t rep, const BinaryRepeatParams&,
                     const UnaryRepeatParams& up) {
    AscendC::Axpy<D, S, kSet>(d, a, scalar, mask, rep, up);
  }
};

struct AbsSubApi {
  static constexpr const char* kName = "AbsSub";
  static constexpr bool kOneSource = false;
  static constexpr bool kLevel0 = false;
  static constexpr bool kScalarInSrc1 = false;
  template <typename D, typename S>
  static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,
                    const LocalTensor<S>& b, S, uint32_t n) {
    AscendC::AbsSub(d, a, b, n);
  }
};
struct ExpSubApi {
  static constexpr const char* kName = "ExpSub";
  static constexpr bool kOneSource = false;
  static constexpr bool kLevel0 = false;
  static constexpr bool kScalarInSrc1 = false;
  template <typename D, typename S>
  static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,
                    const LocalTensor<S>& b, S, uint32_t n) {
    AscendC::ExpSub(d, a, b, n);
  }
};
// MulsCast with the scalar after the tensor, before it, or as one element
// of a tensor in either position.
enum class ScalarAt { kAfter, kBefore, kTensorRight, kTensorLeft };
template <ScalarAt kAt>
struct MulsCastApi {
  static constexpr const char* kName = "MulsCast";
  static constexpr bool kOneSource = true;
  static constexpr bool kLevel0 = false;
  // The tensor forms read the scalar from src1's first element.
  static constexpr bool kScalarInSrc1 =
      kAt == ScalarAt::kTensorRight || kAt == ScalarAt::kTensorLeft;
  template <typename D, typename S>
  static void Count(const LocalTensor<D>& d, const LocalTensor<S>& a,
                    const LocalTensor<S>& b, S scalar, uint32_t n) {
    static constexpr AscendC::BinaryConfig kLeft = {0};
    switch (kAt) {
      case ScalarAt::kAfter:
        AscendC::MulsCast(d, a, scalar, n);
        break;
      case ScalarAt::kBefore:
        AscendC::MulsCast(d, scalar, a, n);
        break;
      case ScalarAt::kTensorRight:
        AscendC::MulsCast(d, a, b, n);
        break;
      case ScalarAt::kTensorLeft:
        AscendC::MulsCast<AscendC::BinaryDefaultType,
                          AscendC::BinaryDefaultType, kLeft>(d, b, a, n);
        break;
    }
  }
};

// ---- The references of each instruction ----

template <typename D, typename S>
D MulAdd(D old, S a, S b) {  // a · b + old, the product rounded first
  return Add(Mul(Widen<D>(a), Widen<D>(b)), old);
}

// ---- Tests ----

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};

template <typename T>
void CheckSameTypeArithmetic(Profile p, Forms forms) {
  Check<FusedMulAddApi, T, T>(
      p, forms, [](T old, T a, T b) { return Add(Mul(a, old), b); });
  Check<MulAddDstApi, T, T>(p, forms, MulAdd<T, T>);
  Check<AxpyApi, T, T>(p, forms, MulAdd<T, T>, static_cast<T>(3.0f));
}

TEST(VectorCompound, MultiplyAddsOnEveryDocumentedType) {
  for (Profile p : kProfiles) {
    CheckSameTypeArithmetic<half>(p, Forms::kAll);
    CheckSameTypeArithmetic<float>(p, Forms::kAll);
    Check<MulAddDstApi, float, half>(p, Forms::kAll, MulAdd<float, half>);
    Check<AxpyApi, float, half>(p, Forms::kAll, MulAdd<float, half>,
                                half(-2.5f));
  }
  Check<FusedMulAddApi, bfloat16_t, bfloat16_t>(
      Profile::k950, Forms::kAll,
      [](bfloat16_t old, bfloat16_t a, bfloat16_t b) {
        return Add(Mul(a, old), b);
      });
  Check<AxpyApi, bfloat16_t, bfloat16_t>(Profile::k950, Forms::kAll,
                                         MulAdd<bfloat16_t, bfloat16_t>,
                                         bfloat16_t(1.5f));
  CheckSameTypeArithmetic<int64_t>(Profile::k950, Forms::kCountOnly);
  CheckSameTypeArithmetic<uint64_t>(Profile::k950, Forms::kCountOnly);
}

template <typename T>
void CheckRelus(Profile p, Forms forms, bool mul_add) {
  Check<AddReluApi, T, T>(p, forms,
                          [](T, T a, T b) { return Relu(Add(a, b)); });
  Check<SubReluApi, T, T>(p, forms,
                          [](T, T a, T b) { return Relu(Sub(a, b)); });
  if (mul_add) {
    Check<MulAddReluApi, T, T>(
        p, forms, [](T old, T a, T b) { return Relu(Add(Mul(a, old), b)); });
  }
}

TEST(VectorCompound, RelusOnEveryDocumentedType) {
  for (Profile p : kProfiles) {
    CheckRelus<half>(p, Forms::kAll, true);
    CheckRelus<float>(p, Forms::kAll, true);
    CheckRelus<int16_t>(p, Forms::kAll, false);
  }
  CheckRelus<int64_t>(Profile::k950, Forms::kCountOnly, true);
  CheckRelus<uint64_t>(Profile::k950, Forms::kCountOnly, true);
}

template <typename D, typename S>
void CheckReluCasts(Profile p, Forms add_forms, Forms sub_forms) {
  Check<AddReluCastApi, D, S>(
      p, add_forms, [](D, S a, S b) { return NarrowRef<D>(Relu(Add(a, b))); });
  Check<SubReluCastApi, D, S>(
      p, sub_forms, [](D, S a, S b) { return NarrowRef<D>(Relu(Sub(a, b))); });
}

TEST(VectorCompound, NarrowingCastsOnEveryDocumentedPair) {
  for (Profile p : kProfiles) {
    CheckReluCasts<int8_t, half>(p, Forms::kAll, Forms::kAll);
    CheckReluCasts<int8_t, int16_t>(p, Forms::kAll, Forms::kAll);
    CheckReluCasts<half, float>(p, Forms::kAll, Forms::kAll);
    Check<MulCastApi, int8_t, half>(p, Forms::kAll, [](int8_t, half a, half b) {
      return NarrowRef<int8_t>(Mul(a, b));
    });
    Check<MulCastApi, uint8_t, half>(
        p, Forms::kAll,
        [](uint8_t, half a, half b) { return NarrowRef<uint8_t>(Mul(a, b)); });
  }
  CheckReluCasts<float, int64_t>(Profile::k950, Forms::kAll, Forms::kCountOnly);
  CheckReluCasts<int32_t, int64_t>(Profile::k950, Forms::kCountOnly,
                                   Forms::kCountOnly);
  Check<MulCastApi, float, int64_t>(
      Profile::k950, Forms::kCountOnly,
      [](float, int64_t a, int64_t b) { return NarrowRef<float>(Mul(a, b)); });
  Check<MulCastApi, int32_t, int64_t>(Profile::k950, Forms::kCountOnly,
                                      [](int32_t, int64_t a, int64_t b) {
                                        return NarrowRef<int32_t>(Mul(a, b));
                                      });
}

template <typename D, typename S>
void CheckExpSub() {
  Check<ExpSubApi, D, S>(Profile::k950, Forms::kCountOnly, [](D, S a, S b) {
    const float x = static_cast<float>(a) - static_cast<float>(b);
    return static_cast<D>(static_cast<float>(std::exp(static_cast<double>(x))));
  });
}

// The half result of MulsCast: to nearest, ties away from zero, saturated.
half RoundAwayToHalf(float x) {
  const half even = half(x);
  const float e = static_cast<float>(even);
  if (std::isfinite(x) && std::isinf(e))
    return half(x > 0 ? 65504.0f : -65504.0f);
  if (!std::isfinite(x) || e == x) return even;
  // The other neighbour of x; a tie goes to the one farther from zero.
  const half other = half::FromBits(static_cast<uint16_t>(
      even.Bits() + ((std::fabs(e) < std::fabs(x)) ? 1 : -1)));
  const float o = static_cast<float>(other);
  if (std::fabs(o - x) == std::fabs(e - x)) {
    return std::fabs(o) > std::fabs(e) ? other : even;
  }
  return even;
}

TEST(VectorCompound, TheIsasiInstructionsOnThe950) {
  for (auto run : {&CheckExpSub<half, half>, &CheckExpSub<float, float>,
                   &CheckExpSub<float, half>, &CheckExpSub<half, float>}) {
    run();
  }
  Check<AbsSubApi, half, half>(Profile::k950, Forms::kCountOnly,
                               [](half, half a, half b) {
                                 const half d = Sub(a, b);
                                 return half(std::fabs(static_cast<float>(d)));
                               });
  Check<AbsSubApi, float, float>(
      Profile::k950, Forms::kCountOnly,
      [](float, float a, float b) { return std::fabs(Sub(a, b)); });
  const auto muls = [](half, float a, float s) {
    return RoundAwayToHalf(a * s);
  };
  Check<MulsCastApi<ScalarAt::kAfter>, half, float>(
      Profile::k950, Forms::kCountOnly, muls, 0.3f);
  Check<MulsCastApi<ScalarAt::kBefore>, half, float>(
      Profile::k950, Forms::kCountOnly, muls, -1.7f);
  Check<MulsCastApi<ScalarAt::kTensorRight>, half, float>(
      Profile::k950, Forms::kCountOnly, muls, 2.5f);
  Check<MulsCastApi<ScalarAt::kTensorLeft>, half, float>(
      Profile::k950, Forms::kCountOnly, muls, -0.75f);
}

// ---- Numbers at the edges ----

// Writes `values` to the start of a tensor.
template <typename T>
void Fill(const LocalTensor<T>& t, std::initializer_list<T> values) {
  uint32_t i = 0;
  for (T v : values) t.SetValue(i++, v);
}

template <typename T>
std::vector<T> Read(const LocalTensor<T>& t, uint32_t n) {
  std::vector<T> out;
  for (uint32_t i = 0; i < n; ++i) out.push_back(t.GetValue(i));
  return out;
}

TEST(VectorCompound, MultiplyAddsRoundTheProductFirst) {
  // (1 + 2^-23)^2 = 1 + 2^-22 + 2^-46: rounded, 1 + 2^-22, and adding
  // −(1 + 2^-22) gives 0; one rounding would give 2^-46.
  const float x = 1.0f + 0x1p-23f, c = -(1.0f + 0x1p-22f);
  Ub<float, float> ub;
  Fill(ub.Src0(), {x});
  Fill(ub.Src1(), {c});
  Fill(ub.Dst(), {x});
  AscendC::FusedMulAdd(ub.Dst(), ub.Src0(), ub.Src1(), 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 0.0f);
  Fill(ub.Dst(), {x});
  AscendC::MulAddRelu(ub.Dst(), ub.Src0(), ub.Src1(), 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 0.0f);
  Fill(ub.Src1(), {x});
  Fill(ub.Dst(), {c});
  AscendC::MulAddDst(ub.Dst(), ub.Src0(), ub.Src1(), 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 0.0f);
  Fill(ub.Dst(), {c});
  AscendC::Axpy(ub.Dst(), ub.Src0(), x, 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 0.0f);
}

TEST(VectorCompound, WideningMultiplyAddsKeepTheExactProduct) {
  // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 is exact in float, not in half.
  const half x = half(1.0f + 0x1p-10f);
  Ub<float, half> ub;
  Fill(ub.Src0(), {x});
  Fill(ub.Src1(), {x});
  Fill(ub.Dst(), {0.0f});
  AscendC::MulAddDst(ub.Dst(), ub.Src0(), ub.Src1(), 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 1.0f + 0x1p-9f + 0x1p-20f);
  Fill(ub.Dst(), {0.0f});
  AscendC::Axpy(ub.Dst(), ub.Src0(), x, 1);
  EXPECT_EQ(ub.Dst().GetValue(0), 1.0f + 0x1p-9f + 0x1p-20f);
}

TEST(VectorCompound, NarrowingCastsRoundToEvenAndSaturate) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  {
    Ub<int8_t, half> ub;
    Fill<half>(ub.Src0(), {1, 1, 3, 127, 200, 2.5f, 3.5f, nan, -5});
    Fill<half>(ub.Src1(), {0, 0.5f, -4, 0.5f, 0, 0, 0, 0, 0});
    AscendC::AddReluCast(ub.Dst(), ub.Src0(), ub.Src1(), 9);
    EXPECT_EQ(Read(ub.Dst(), 9),
              (std::vector<int8_t>{1, 2, 0, 127, 127, 2, 4, 0, 0}));
    Fill<half>(ub.Src0(), {-100, 2.5f, -2.5f, nan});
    Fill<half>(ub.Src1(), {2, 1, 1, 1});
    AscendC::MulCast(ub.Dst(), ub.Src0(), ub.Src1(), 4);
    EXPECT_EQ(Read(ub.Dst(), 4), (std::vector<int8_t>{-128, 2, -2, 0}));
  }
  {
    Ub<uint8_t, half> ub;
    Fill<half>(ub.Src0(), {-3, 255.5f, 2.5f, 300, nan});
    Fill<half>(ub.Src1(), {1, 1, 1, 1, 1});
    AscendC::MulCast(ub.Dst(), ub.Src0(), ub.Src1(), 5);
    EXPECT_EQ(Read(ub.Dst(), 5), (std::vector<uint8_t>{0, 255, 2, 255, 0}));
  }
  {
    Ub<int8_t, int16_t> ub;
    Fill<int16_t>(ub.Src0(), {300, 32767, 5, -7});
    Fill<int16_t>(ub.Src1(), {0, 1, -3, 9});
    AscendC::AddReluCast(ub.Dst(), ub.Src0(), ub.Src1(), 4);
    // 32767 + 1 wraps to −32768, which Relu makes 0.
    EXPECT_EQ(Read(ub.Dst(), 4), (std::vector<int8_t>{127, 0, 2, 2}));
    AscendC::SubReluCast(ub.Dst(), ub.Src0(), ub.Src1(), 4);
    EXPECT_EQ(Read(ub.Dst(), 4), (std::vector<int8_t>{127, 127, 8, 0}));
  }
  {
    Ub<half, float> ub;
    Fill<float>(ub.Src0(), {70000, 65519, 65520, inf, nan, 1, 0.5f});
    Fill<float>(ub.Src1(), {0, 0, 0, 0, 0, 3, 0x1p-12f});
    AscendC::AddReluCast(ub.Dst(), ub.Src0(), ub.Src1(), 7);
    const auto got = Read(ub.Dst(), 7);
    EXPECT_EQ(static_cast<float>(got[0]), 65504.0f);
    EXPECT_EQ(static_cast<float>(got[1]), 65504.0f);
    EXPECT_EQ(static_cast<float>(got[2]), 65504.0f);
    EXPECT_EQ(static_cast<float>(got[3]), inf);
    EXPECT_TRUE(std::isnan(static_cast<float>(got[4])));
    EXPECT_EQ(static_cast<float>(got[5]), 4.0f);
    EXPECT_EQ(static_cast<float>(got[6]), 0.5f);  // the tie goes to even
  }
  {
    const ProfileScope on(Profile::k950);
    Ub<float, int64_t> ub;
    const int64_t big = (int64_t{1} << 35) + (1 << 12) + (1 << 11);
    Fill<int64_t>(ub.Src0(), {big});
    Fill<int64_t>(ub.Src1(), {0});
    AscendC::AddReluCast(ub.Dst(), ub.Src0(), ub.Src1(), 1);
    EXPECT_EQ(ub.Dst().GetValue(0), 0x1p35f + 0x1p13f);
  }
  {
    const ProfileScope on(Profile::k950);
    Ub<int32_t, int64_t> ub;
    Fill<int64_t>(ub.Src0(), {int64_t{1} << 31, -(int64_t{1} << 40), 7});
    Fill<int64_t>(ub.Src1(), {1, 1, 1});
    AscendC::MulCast(ub.Dst(), ub.Src0(), ub.Src1(), 3);
    EXPECT_EQ(Read(ub.Dst(), 3),
              (std::vector<int32_t>{INT32_MAX, INT32_MIN, 7}));
  }
}

TEST(VectorCompound, MulsCastRoundsTiesAwayAndSaturates) {
  const ProfileScope on(Profile::k950);
  const float inf = std::numeric_limits<float>::infinity();
  Ub<half, float> ub;
  Fill<float>(ub.Src0(), {0.5f + 0x1p-12f, -(0.5f + 0x1p-12f), 1e6f, -1e6f, inf,
                          1.0f + 0x1p-12f});
  AscendC::MulsCast(ub.Dst(), ub.Src0(), 1.0f, 6);
  const auto got = Read(ub.Dst(), 6);
  EXPECT_EQ(static_cast<float>(got[0]), 0.5f + 0x1p-11f);
  EXPECT_EQ(static_cast<float>(got[1]), -(0.5f + 0x1p-11f));
  EXPECT_EQ(static_cast<float>(got[2]), 65504.0f);
  EXPECT_EQ(static_cast<float>(got[3]), -65504.0f);
  EXPECT_EQ(static_cast<float>(got[4]), inf);
  EXPECT_EQ(static_cast<float>(got[5]), 1.0f);  // below the tie
}

// ---- The pages' calls ----

TEST(VectorCompound, ThePagesCallsRunOnContiguousOperands) {
  std::mt19937 gen(9);
  {
    // Axpy from half into float: 64 lanes a repeat, src repeat stride 4.
    Ub<float, half> ub;
    ub.Randomize(gen);
    auto want = ub.Snapshot();
    for (uint32_t i = 0; i < 512; ++i) {
      want.d[i] = MulAdd<float, half>(want.d[i], want.a[i], half(2.0f));
    }
    AscendC::Axpy(ub.Dst(), ub.Src0(), (half)2.0, 64, 8, {1, 1, 8, 4});
    ExpectMemory(ub, want, "Axpy half to float");
  }
  {
    // MulAddDst from half into float with the bit mask of 64 lanes.
    Ub<float, half> ub;
    ub.Randomize(gen);
    auto want = ub.Snapshot();
    for (uint32_t i = 0; i < 256; ++i) {
      want.d[i] = MulAdd<float, half>(want.d[i], want.a[i], want.b[i]);
    }
    uint64_t mask[2] = {UINT64_MAX, 0};
    AscendC::MulAddDst(ub.Dst(), ub.Src0(), ub.Src1(), mask, 4,
                       {1, 1, 1, 8, 4, 4});
    ExpectMemory(ub, want, "MulAddDst half to float");
  }
  {
    // AddReluCast and MulCast from half into int8_t: dst repeat stride 4.
    Ub<int8_t, half> ub;
    ub.Randomize(gen);
    auto want = ub.Snapshot();
    for (uint32_t i = 0; i < 512; ++i) {
      want.d[i] = NarrowRef<int8_t>(Relu(Add(want.a[i], want.b[i])));
    }
    const uint64_t mask = 256 / sizeof(half);
    AscendC::AddReluCast(ub.Dst(), ub.Src0(), ub.Src1(), mask, 4,
                         {1, 1, 1, 4, 8, 8});
    ExpectMemory(ub, want, "AddReluCast half to int8_t");
    for (uint32_t i = 0; i < 512; ++i) {
      want.d[i] = NarrowRef<int8_t>(Mul(want.a[i], want.b[i]));
    }
    AscendC::MulCast(ub.Dst(), ub.Src0(), ub.Src1(), 128, 4,
                     {1, 1, 1, 4, 8, 8});
    ExpectMemory(ub, want, "MulCast half to int8_t");
  }
  {
    const ProfileScope on(Profile::k950);
    Ub<half, float> ub;
    ub.Randomize(gen);
    ub.Src1().SetValue(0, 2.0f);
    auto want = ub.Snapshot();
    for (uint32_t i = 0; i < 512; ++i) {
      want.d[i] = RoundAwayToHalf(want.a[i] * 2.0f);
    }
    AscendC::MulsCast(ub.Dst(), ub.Src0(), ub.Src1()[0], 512);
    ExpectMemory(ub, want, "MulsCast with src1[0]");
  }
}

// ---- Overlapping operands ----

TEST(VectorCompound, SourcesMayBeTheDestination) {
  std::mt19937 gen(7);
  Ub<half, half> ub;
  ub.Randomize(gen);
  auto want = ub.Snapshot();
  for (uint32_t i = 0; i < 300; ++i) {
    want.d[i] = Add(Mul(want.d[i], want.d[i]), want.b[i]);
  }
  AscendC::FusedMulAdd(ub.Dst(), ub.Dst(), ub.Src1(), 300);
  ExpectMemory(ub, want, "FusedMulAdd(dst, dst, src1)");
  for (uint32_t i = 0; i < 300; ++i) {
    want.d[i] = Add(Mul(want.d[i], want.a[i]), want.d[i]);
  }
  AscendC::MulAddDst(ub.Dst(), ub.Dst(), ub.Src0(), 300);
  ExpectMemory(ub, want, "MulAddDst(dst, dst, src0)");
}

TEST(VectorCompound, AddReluAccumulatesWithARepeatStrideOfZero) {
  // dst = Relu(src0 repeat r + dst), repeat after repeat, dst and src1 the
  // same lanes with a repeat stride of 0.
  std::mt19937 gen(8);
  Ub<float, float> ub;
  ub.Randomize(gen);
  auto want = ub.Snapshot();
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t k = 0; k < 64; ++k) {
      want.d[k] = Relu(Add(want.a[r * 64 + k], want.d[k]));
    }
  }
  AscendC::AddRelu(ub.Dst(), ub.Src0(), ub.Dst(), 64, 4,
                   BinaryRepeatParams(1, 1, 1, 0, 8, 0));
  ExpectMemory(ub, want, "accumulating AddRelu");
}

// ---- Checks ----

TEST(VectorCompound, TypesAProfileDoesNotListAreErrors) {
  {
    Ub<int16_t, int16_t> i16;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::FusedMulAdd(i16.Dst(), i16.Src0(), i16.Src1(), 16); },
        "FusedMulAdd<int16_t>: element type int16_t is not supported on "
        "profile Atlas A2/A3 (FusedMulAdd takes half, float there)"));
  }
  {
    Ub<int8_t, float> i8f;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::AddReluCast(i8f.Dst(), i8f.Src0(), i8f.Src1(), 16); },
        "AddReluCast<int8_t, float>: dst int8_t with src float is not "
        "supported on profile Atlas A2/A3 (AddReluCast takes dst int8_t with "
        "src half, dst int8_t with src int16_t, dst half with src float "
        "there)"));
  }
  {
    Ub<half, half> h;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::AbsSub(h.Dst(), h.Src0(), h.Src1(), 16); },
        "AbsSub<half>: AbsSub is not available on profile Atlas A2/A3"));
  }
  {
    Ub<bfloat16_t, bfloat16_t> bf;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Axpy(bf.Dst(), bf.Src0(), 1.0f, 16); },
        "Axpy<bfloat16_t>: element type bfloat16_t is not supported on "
        "profile Atlas A2/A3 (Axpy takes half, float, dst float with src half "
        "there)"));
  }
}

TEST(VectorCompound, CountOnlyTypesRefuseTheMaskForms) {
  const ProfileScope on(Profile::k950);
  {
    Ub<int64_t, int64_t> i64;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Axpy(i64.Dst(), i64.Src0(), int64_t{2}, uint64_t{32}, 1,
                        UnaryRepeatParams());
        },
        "Axpy<int64_t>: element type int64_t takes only the count form on "
        "profile Ascend 950"));
  }
  {
    Ub<int32_t, int64_t> i32;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::SubReluCast(i32.Dst(), i32.Src0(), i32.Src1(), uint64_t{32},
                               1, BinaryRepeatParams());
        },
        "SubReluCast<int32_t, int64_t>: dst int32_t with src int64_t takes "
        "only the count form on profile"));
  }
}

TEST(VectorCompound, WideningOperandsMayNotOverlap) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 4096);
  const LocalTensor<float> dst = buf.Get<float>();
  const LocalTensor<half> src = buf.Get<half>()[1024];  // inside dst
  EXPECT_TRUE(FailsWith([&] { AscendC::Axpy(dst, src, 2.0f, 64); },
                        "Axpy<float, half>: dst (UB bytes "));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Axpy(dst, src, 2.0f, 64); },
                "overlap; from half into float the operands may not overlap"));
  EXPECT_TRUE(FailsWith([&] { AscendC::MulAddDst(dst, src, src, 64); },
                        "MulAddDst<float, half>: dst (UB bytes "));
}

TEST(VectorCompound, OperandChecksNameTheInstruction) {
  {
    Ub<int8_t, half> ub;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::MulCast(ub.Dst(), ub.Src0(), ub.Src1(), 5000u); },
        "MulCast<int8_t, half>: src0 has 4096 elements, fewer than count "
        "5000"));
  }
  {
    Ub<half, half> h;
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::FusedMulAdd(h.Dst()[1], h.Src0(), h.Src1(), 16); },
        "FusedMulAdd<half>: dst LocalTensor starts at UB offset"));
  }
  {
    Ub<float, float> f;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::AddRelu(f.Dst(), f.Src0(), f.Src1(), uint64_t{64}, 200,
                           BinaryRepeatParams());
        },
        "AddRelu<float>: dst has 2048 elements (8192 bytes); 200 repeats "
        "with block stride 1 and repeat stride 8 reach byte"));
  }
}

}  // namespace

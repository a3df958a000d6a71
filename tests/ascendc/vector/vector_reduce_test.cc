// vector_reduce_test.cc — the reduction instructions (normgrad_ascendc/
// vector_reduce.h) through kernel_operator.h: ReduceRepeat, ReduceDataBlock
// and ReducePairElem in both mask forms and counter mode, with repeats and
// strides, every order of a max/min result, the profiles' handling of a
// group that selects no lane; ReduceSum, ReduceMax and ReduceMin in their
// count and level-0 forms with each profile's order of additions; the
// earlier names; ties, NaN; and the checks.
//
// The reference is written here from the documented semantics, sharing no
// code with src/: lane k of repeat r of the source lies at element
//   (r·srcRepStride·32 + (k / (32/e))·srcBlkStride·32 + (k % (32/e))·e) / e;
// a group's lanes are reduced by a binary tree (recursively: the left half's
// result combined with the right half's), every addition rounded to the
// element type; a lane the mask leaves out takes no part; max/min keep the
// earliest of equal values and let a NaN win; results of repeat r are packed
// from byte r·dstRepStride·unit of dst.
//
// Extending: a new form gets a call in Level0 (or its own test) and the
// reference decides; a new check gets a FailsWith line with its message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::ReduceOrder;
using AscendC::ReduceType;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

constexpr uint32_t kBufferBytes = 8192;

// ---- values and their bits, written from the formats ----

// The bits of a half value (x must be representable; NaN: 0x7E00).
uint16_t HalfBits(double x) {
  if (std::isnan(x)) return 0x7E00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (std::isinf(a)) return sign | 0x7C00;
  if (a < std::ldexp(1.0, -14)) {
    return sign | static_cast<uint16_t>(a / std::ldexp(1.0, -24));
  }
  int e2 = 0;
  std::frexp(a, &e2);
  const int exponent = e2 - 1;
  const double mantissa = (a / std::ldexp(1.0, exponent) - 1.0) * 1024.0;
  return sign | static_cast<uint16_t>((exponent + 15) << 10) |
         static_cast<uint16_t>(mantissa);
}

template <typename T>
struct Type;
template <>
struct Type<half> {
  using Bits = uint16_t;
  static double Round(double x) {
    return compat_test::RoundToHalf(static_cast<float>(x), false);
  }
  static Bits ToBits(double x) { return HalfBits(x); }
  static double FromBits(Bits b) { return compat_test::HalfBitsToFloat(b); }
};
template <>
struct Type<float> {
  using Bits = uint32_t;
  static double Round(double x) { return static_cast<float>(x); }
  static Bits ToBits(double x) {
    return compat_test::FloatBits(std::isnan(x) ? NAN : static_cast<float>(x));
  }
  static double FromBits(Bits b) { return compat_test::BitsFloat(b); }
};

// ---- the UB ----

// Three buffers of kBufferBytes.
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kBufferBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].Get<T>();
  }
  template <typename Bits>
  std::vector<Bits> Read(int i) {
    std::vector<Bits> v(kBufferBytes / sizeof(Bits));
    std::memcpy(v.data(),
                static_cast<const void*>(buf[i].Get<uint8_t>().GetPhyAddr()),
                kBufferBytes);
    return v;
  }
  template <typename Bits>
  void Write(int i, const std::vector<Bits>& v) {
    std::memcpy(static_cast<void*>(buf[i].Get<uint8_t>().GetPhyAddr()),
                v.data(), kBufferBytes);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

// Random quarters in [-16, 16] (any sum of two is exact in float; half
// rounds large sums), as bits of T, into buffer i; returns the values.
template <typename T>
std::vector<double> Fill(Ub& ub, int i, std::mt19937& gen) {
  std::uniform_int_distribution<int> q(-64, 64);
  std::vector<typename Type<T>::Bits> bits(kBufferBytes / sizeof(T));
  std::vector<double> values(bits.size());
  for (size_t k = 0; k < bits.size(); ++k) {
    values[k] = q(gen) / 4.0;
    bits[k] = Type<T>::ToBits(values[k]);
  }
  ub.Write(i, bits);
  return values;
}

// ---- the reference ----

struct Result {
  bool has;
  double value;
  uint32_t index;
};

// The binary tree over lanes [lo, lo + n) of one group (n a power of two).
template <typename T>
Result RefTree(ReduceType op, const std::vector<double>& v,
               const std::vector<bool>& present, uint32_t lo, uint32_t n,
               uint32_t first) {
  if (n == 1) return {present[lo], v[lo], lo - first};
  const Result l = RefTree<T>(op, v, present, lo, n / 2, first);
  const Result r = RefTree<T>(op, v, present, lo + n / 2, n / 2, first);
  if (!r.has) return l;
  if (!l.has) return r;
  if (op == ReduceType::SUM) {
    return {true, Type<T>::Round(l.value + r.value), l.index};
  }
  if (std::isnan(l.value)) return l;
  if (std::isnan(r.value)) return r;
  const bool right =
      op == ReduceType::MAX ? r.value > l.value : r.value < l.value;
  return right ? r : l;
}

enum class Group { kRepeat, kBlock, kPair };

uint32_t SrcIndex(uint32_t e, uint32_t blk, uint32_t rep, uint32_t r,
                  uint32_t k) {
  const uint32_t per_block = 32 / e;
  return (r * rep * 32 + (k / per_block) * blk * 32 + (k % per_block) * e) / e;
}

bool Selected(const uint64_t mask[2], uint32_t k) {
  return k < 64 ? (mask[0] >> k & 1) != 0 : (mask[1] >> (k - 64) & 1) != 0;
}

struct Level0 {
  ReduceType op;
  Group group;
  ReduceOrder order;
  uint64_t mask[2];
  uint32_t repeats;
  uint32_t dst_rep, src_blk, src_rep;
  bool fill_empty;  // the profile writes a group that selects no lane
};

// The expected dst (as bits of T) after the call.
template <typename T>
void Reference(const Level0& c, const std::vector<double>& src,
               std::vector<typename Type<T>::Bits>& dst) {
  using Bits = typename Type<T>::Bits;
  constexpr uint32_t e = sizeof(T);
  constexpr uint32_t lanes = 256 / e;
  const uint32_t group = c.group == Group::kRepeat  ? lanes
                         : c.group == Group::kBlock ? 32 / e
                                                    : 2;
  const bool pair =
      c.op != ReduceType::SUM && (c.order == ReduceOrder::ORDER_VALUE_INDEX ||
                                  c.order == ReduceOrder::ORDER_INDEX_VALUE);
  const bool only_index =
      c.op != ReduceType::SUM && c.order == ReduceOrder::ORDER_ONLY_INDEX;
  // Result size and the repeat unit, in elements of T (bytes / e).
  const uint32_t result_elems = pair ? 2 : only_index ? 4 / e : 1;
  const uint32_t unit = c.group == Group::kRepeat  ? result_elems
                        : c.group == Group::kBlock ? 8
                                                   : 128 / e;
  if (c.mask[0] == 0 && c.mask[1] == 0) return;  // a NOP on every profile
  for (uint32_t r = 0; r < c.repeats; ++r) {
    std::vector<double> v(lanes);
    std::vector<bool> present(lanes);
    for (uint32_t k = 0; k < lanes; ++k) {
      v[k] = src[SrcIndex(e, c.src_blk, c.src_rep, r, k)];
      present[k] = Selected(c.mask, k);
    }
    for (uint32_t g = 0; g < lanes / group; ++g) {
      Result res = RefTree<T>(c.op, v, present, g * group, group, g * group);
      if (!res.has && !c.fill_empty) continue;
      if (!res.has) {
        res.value = c.op == ReduceType::SUM   ? 0.0
                    : c.op == ReduceType::MAX ? -INFINITY
                                              : INFINITY;
        res.index = 0;
      }
      const uint32_t at = r * c.dst_rep * unit + g * result_elems;
      const Bits value = Type<T>::ToBits(res.value);
      if (!pair && !only_index) {
        dst[at] = value;
      } else if (only_index) {
        const uint32_t index = res.index;
        std::memcpy(&dst[at], &index, 4);
      } else {
        const bool value_first = c.order == ReduceOrder::ORDER_VALUE_INDEX;
        dst[at + (value_first ? 0 : 1)] = value;
        dst[at + (value_first ? 1 : 0)] = static_cast<Bits>(res.index);
      }
    }
  }
}

// The call of c through the bit-mask form (bits) or the continuous form.
template <typename T, ReduceType kOp>
void CallWith(const Level0& c, const LocalTensor<T>& dst,
              const LocalTensor<T>& src, bool bits, uint32_t first) {
  const int32_t n = static_cast<int32_t>(c.repeats);
  const int32_t d = c.dst_rep, b = c.src_blk, r = c.src_rep;
  switch (c.group) {
    case Group::kRepeat:
      if (bits) {
        AscendC::ReduceRepeat<kOp>(dst, src, c.mask, n, d, b, r, c.order);
      } else {
        AscendC::ReduceRepeat<kOp>(dst, src, static_cast<int32_t>(first), n, d,
                                   b, r, c.order);
      }
      break;
    case Group::kBlock:
      if (bits) {
        AscendC::ReduceDataBlock<kOp>(dst, src, c.mask, n, d, b, r);
      } else {
        AscendC::ReduceDataBlock<kOp>(dst, src, static_cast<int32_t>(first), n,
                                      d, b, r);
      }
      break;
    case Group::kPair:
      if constexpr (kOp == ReduceType::SUM) {
        if (bits) {
          AscendC::ReducePairElem<kOp>(dst, src, c.mask, n, d, b, r);
        } else {
          AscendC::ReducePairElem<kOp>(dst, src, static_cast<int32_t>(first), n,
                                       d, b, r);
        }
      }
      break;
  }
}

template <typename T>
void Call(const Level0& c, const LocalTensor<T>& dst, const LocalTensor<T>& src,
          bool bits, uint32_t first) {
  switch (c.op) {
    case ReduceType::SUM:
      return CallWith<T, ReduceType::SUM>(c, dst, src, bits, first);
    case ReduceType::MAX:
      return CallWith<T, ReduceType::MAX>(c, dst, src, bits, first);
    case ReduceType::MIN:
      return CallWith<T, ReduceType::MIN>(c, dst, src, bits, first);
  }
}

template <typename Bits>
bool SameBits(Bits a, Bits b, double va, double vb) {
  return a == b || (std::isnan(va) && std::isnan(vb));
}

// Compares dst with the expectation element by element (NaN equals NaN).
template <typename T>
::testing::AssertionResult SameDst(
    const std::vector<typename Type<T>::Bits>& got,
    const std::vector<typename Type<T>::Bits>& want) {
  for (size_t i = 0; i < want.size(); ++i) {
    if (!SameBits(got[i], want[i], Type<T>::FromBits(got[i]),
                  Type<T>::FromBits(want[i]))) {
      return ::testing::AssertionFailure()
             << "dst element " << i << ": got bits 0x" << std::hex
             << uint64_t{got[i]} << " (" << Type<T>::FromBits(got[i])
             << "), want 0x" << uint64_t{want[i]} << " ("
             << Type<T>::FromBits(want[i]) << ")";
    }
  }
  return ::testing::AssertionSuccess();
}

// Random masks (both forms), repeats and strides for one instruction.
template <typename T>
void CheckRandom(ReduceType op, Group group, ReduceOrder order, bool fill_empty,
                 uint32_t seed) {
  std::mt19937 gen(seed);
  constexpr uint32_t lanes = 256 / sizeof(T);
  for (int trial = 0; trial < 60; ++trial) {
    Ub ub;
    const std::vector<double> src = Fill<T>(ub, 0, gen);
    Fill<T>(ub, 1, gen);
    const auto pick = [&](uint32_t n) {
      return static_cast<uint32_t>(gen() % n);
    };
    Level0 c{op, group, order, {}, pick(4), 0, pick(4), pick(25), fill_empty};
    c.dst_rep = pick(5);
    const bool bits = trial % 2 == 0;
    const uint32_t first = pick(lanes + 8);
    if (bits) {
      c.mask[0] = (uint64_t{gen()} << 32) | gen();
      c.mask[1] = lanes > 64 ? (uint64_t{gen()} << 32) | gen() : 0;
      if (trial % 6 == 0) c.mask[0] &= 0xFFFF0000FFFF0000ull;  // empty blocks
    } else {
      for (uint32_t k = 0; k < lanes; ++k) {
        if (k < first) c.mask[k / 64] |= uint64_t{1} << (k % 64);
      }
    }
    auto want = ub.Read<typename Type<T>::Bits>(1);
    Reference<T>(c, src, want);
    Call<T>(c, ub.Get<T>(1), ub.Get<T>(0), bits, first);
    const auto got = ub.Read<typename Type<T>::Bits>(1);
    ASSERT_TRUE(SameDst<T>(got, want))
        << "trial " << trial << ", mask " << std::hex << c.mask[1] << ":"
        << c.mask[0] << std::dec << ", repeats " << c.repeats << ", dstRep "
        << c.dst_rep << ", srcBlk " << c.src_blk << ", srcRep " << c.src_rep;
  }
}

// ---- ReduceRepeat, ReduceDataBlock, ReducePairElem ----

TEST(VectorReduce, ReduceRepeatSumHalfAndFloat) {
  CheckRandom<half>(ReduceType::SUM, Group::kRepeat,
                    ReduceOrder::ORDER_VALUE_INDEX, false, 1);
  CheckRandom<float>(ReduceType::SUM, Group::kRepeat,
                     ReduceOrder::ORDER_VALUE_INDEX, false, 2);
}

TEST(VectorReduce, ReduceRepeatMaxMinInEveryOrder) {
  uint32_t seed = 10;
  for (ReduceType op : {ReduceType::MAX, ReduceType::MIN}) {
    for (ReduceOrder order :
         {ReduceOrder::ORDER_VALUE_INDEX, ReduceOrder::ORDER_INDEX_VALUE,
          ReduceOrder::ORDER_ONLY_VALUE, ReduceOrder::ORDER_ONLY_INDEX}) {
      CheckRandom<half>(op, Group::kRepeat, order, false, ++seed);
      CheckRandom<float>(op, Group::kRepeat, order, false, ++seed);
    }
  }
}

TEST(VectorReduce, ReduceDataBlockKeepsEmptyBlocksOnA2) {
  uint32_t seed = 30;
  for (ReduceType op : {ReduceType::SUM, ReduceType::MAX, ReduceType::MIN}) {
    CheckRandom<half>(op, Group::kBlock, ReduceOrder::ORDER_ONLY_VALUE, false,
                      ++seed);
    CheckRandom<float>(op, Group::kBlock, ReduceOrder::ORDER_ONLY_VALUE, false,
                       ++seed);
  }
}

TEST(VectorReduce, ReduceDataBlockFillsEmptyBlocksOn950) {
  ProfileScope profile(Profile::k950);
  uint32_t seed = 40;
  for (ReduceType op : {ReduceType::SUM, ReduceType::MAX, ReduceType::MIN}) {
    CheckRandom<half>(op, Group::kBlock, ReduceOrder::ORDER_ONLY_VALUE, true,
                      ++seed);
    CheckRandom<float>(op, Group::kBlock, ReduceOrder::ORDER_ONLY_VALUE, true,
                       ++seed);
  }
}

TEST(VectorReduce, ReducePairElem) {
  CheckRandom<half>(ReduceType::SUM, Group::kPair,
                    ReduceOrder::ORDER_ONLY_VALUE, false, 50);
  CheckRandom<float>(ReduceType::SUM, Group::kPair,
                     ReduceOrder::ORDER_ONLY_VALUE, false, 51);
  {
    ProfileScope profile(Profile::k310P);
    CheckRandom<half>(ReduceType::SUM, Group::kPair,
                      ReduceOrder::ORDER_ONLY_VALUE, false, 52);
  }
  ProfileScope profile(Profile::k950);
  CheckRandom<float>(ReduceType::SUM, Group::kPair,
                     ReduceOrder::ORDER_ONLY_VALUE, true, 53);
}

// The documented example: 512 halves, repeat r holding r+1 everywhere but
// one larger value; the max and its lane per repeat, value first.
TEST(VectorReduce, ReduceRepeatMaxDocumentedExample) {
  Ub ub;
  const LocalTensor<half> src = ub.Get<half>(0), dst = ub.Get<half>(1);
  const uint32_t at[4] = {52, 100, 7, 19};
  for (uint32_t i = 0; i < 512; ++i) {
    src.SetValue(i, half(static_cast<float>(i / 128 + 1)));
  }
  for (uint32_t r = 0; r < 4; ++r) {
    src.SetValue(r * 128 + at[r], half(static_cast<float>(11 + r)));
  }
  AscendC::ReduceRepeat<ReduceType::MAX, half>(dst, src, 128, 4, 1, 1, 8);
  const auto bits = compat_test::TensorBits<half>::Read(dst, 8);
  for (uint32_t r = 0; r < 4; ++r) {
    EXPECT_EQ(compat_test::HalfBitsToFloat(bits[2 * r]), 11.0f + r);
    EXPECT_EQ(bits[2 * r + 1], at[r]);  // 52 is 0x0034: 3.09944e-06 as half
  }
}

// Ties keep the first lane; a NaN wins over every number, the first NaN
// over later ones.
TEST(VectorReduce, TiesAndNaN) {
  Ub ub;
  const LocalTensor<float> src = ub.Get<float>(0), dst = ub.Get<float>(1);
  for (uint32_t i = 0; i < 128; ++i) src.SetValue(i, 1.0f);
  src.SetValue(9, 5.0f);
  src.SetValue(40, 5.0f);  // a tie later: lane 9 wins
  src.SetValue(64 + 20, NAN);
  src.SetValue(64 + 50, NAN);
  src.SetValue(64 + 3, -0.0f);
  AscendC::ReduceRepeat<ReduceType::MAX>(dst, src, 64, 2, 1, 1, 8);
  EXPECT_EQ(dst.GetValue(0), 5.0f);
  uint32_t index = 0;
  std::memcpy(&index, reinterpret_cast<const uint8_t*>(dst.GetPhyAddr()) + 4,
              4);
  EXPECT_EQ(index, 9u);
  EXPECT_TRUE(std::isnan(dst.GetValue(2)));
  std::memcpy(&index, reinterpret_cast<const uint8_t*>(dst.GetPhyAddr()) + 12,
              4);
  EXPECT_EQ(index, 20u);
  // Min over +0 and -0 (equal): the first, lane 0 of a block of zeros.
  for (uint32_t i = 0; i < 64; ++i)
    src.SetValue(i, i == 0 ? 0.0f : (i == 1 ? -0.0f : 3.0f));
  AscendC::ReduceRepeat<ReduceType::MIN>(dst, src, 64, 1, 1, 1, 8,
                                         ReduceOrder::ORDER_ONLY_INDEX);
  std::memcpy(&index, reinterpret_cast<const uint8_t*>(dst.GetPhyAddr()), 4);
  EXPECT_EQ(index, 0u);
}

// The tree's order shows in half: 2048 + 1 rounds back to 2048, but
// (1 + 1) = 2 added to 2048 is exact.
TEST(VectorReduce, SumsAddInATree) {
  Ub ub;
  const LocalTensor<half> src = ub.Get<half>(0), dst = ub.Get<half>(1);
  for (uint32_t i = 0; i < 128; ++i)
    src.SetValue(i, half(i == 0 ? 2048.0f : 1.0f));
  AscendC::ReduceDataBlock<ReduceType::SUM>(dst, src, 16, 1, 1, 1, 8);
  // Block 0: ((2048+1)+(1+1)) + ((1+1)+(1+1)) + ... = 2048+2+4+8 = 2062.
  EXPECT_EQ(static_cast<float>(dst.GetValue(0)), 2062.0f);
  AscendC::ReduceRepeat<ReduceType::SUM>(dst, src, 128, 1, 1, 1, 8);
  // 2062 + 16 + 32 + 64 = 2174 (exact: even numbers below 4096).
  EXPECT_EQ(static_cast<float>(dst.GetValue(0)), 2174.0f);
}

TEST(VectorReduce, CounterModeCountsElements) {
  Ub ub;
  std::mt19937 gen(60);
  const std::vector<double> src = Fill<float>(ub, 0, gen);
  Fill<float>(ub, 1, gen);
  auto want = ub.Read<uint32_t>(1);
  // 150 floats: repeats of 64, 64 and 22 lanes, one sum each.
  for (uint32_t r = 0; r < 3; ++r) {
    std::vector<double> v(64);
    std::vector<bool> present(64);
    for (uint32_t k = 0; k < 64; ++k) {
      v[k] = src[r * 64 + k];
      present[k] = r * 64 + k < 150;
    }
    want[r] = Type<float>::ToBits(
        RefTree<float>(ReduceType::SUM, v, present, 0, 64, 0).value);
  }
  AscendC::SetMaskCount();
  AscendC::ReduceRepeat<ReduceType::SUM>(ub.Get<float>(1), ub.Get<float>(0),
                                         150, 1, 1, 1, 8);
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  EXPECT_TRUE(SameDst<float>(ub.Read<uint32_t>(1), want));
}

TEST(VectorReduce, MaskSetOutsideTheCall) {
  Ub ub;
  std::mt19937 gen(61);
  const std::vector<double> src = Fill<half>(ub, 0, gen);
  auto want = ub.Read<uint16_t>(1);
  Level0 c{ReduceType::MAX,
           Group::kBlock,
           ReduceOrder::ORDER_ONLY_VALUE,
           {0x00FF00FF00FF00FFull, 0xFFFF000000000000ull},
           2,
           1,
           1,
           8,
           false};
  Reference<half>(c, src, want);
  AscendC::SetVectorMask<half>(c.mask[1], c.mask[0]);
  AscendC::ReduceDataBlock<ReduceType::MAX, half, half, false>(
      ub.Get<half>(1), ub.Get<half>(0), AscendC::MASK_PLACEHOLDER, 2, 1, 1, 8);
  AscendC::ResetMask();
  EXPECT_TRUE(SameDst<half>(ub.Read<uint16_t>(1), want));
}

// Ascend 950: integer ReduceRepeat, SUM widening int16_t into int32_t.
TEST(VectorReduce, IntegerReduceRepeatOn950) {
  ProfileScope profile(Profile::k950);
  Ub ub;
  const LocalTensor<int16_t> src = ub.Get<int16_t>(0);
  const LocalTensor<int32_t> dst = ub.Get<int32_t>(1);
  int64_t sums[2] = {0, 0};
  for (uint32_t i = 0; i < 256; ++i) {
    const int16_t v = static_cast<int16_t>(i * 251 % 30000 - 15000);
    src.SetValue(i, v);
    sums[i / 128] += v;
  }
  AscendC::ReduceRepeat<ReduceType::SUM>(dst, src, 128, 2, 1, 1, 8);
  EXPECT_EQ(dst.GetValue(0), sums[0]);
  EXPECT_EQ(dst.GetValue(1), sums[1]);
  const LocalTensor<int32_t> big = ub.Get<int32_t>(2);
  for (uint32_t i = 0; i < 64; ++i)
    big.SetValue(i, i == 17 || i == 30 ? 99 : -4);
  AscendC::ReduceRepeat<ReduceType::MAX>(dst, big, 64, 1, 1, 1, 8);
  EXPECT_EQ(dst.GetValue(0), 99);
  EXPECT_EQ(dst.GetValue(1), 17);
  // Unsigned: uint32_t sums of uint16_t wrap modulo 2^32 only beyond it;
  // uint32_t max with the index first.
  const LocalTensor<uint16_t> u16 = ub.Get<uint16_t>(0);
  const LocalTensor<uint32_t> u32 = ub.Get<uint32_t>(1);
  uint64_t usum = 0;
  for (uint32_t i = 0; i < 128; ++i) {
    u16.SetValue(i, static_cast<uint16_t>(65535 - i));
    usum += 65535 - i;
  }
  AscendC::ReduceRepeat<ReduceType::SUM>(u32, u16, 128, 1, 1, 1, 8);
  EXPECT_EQ(u32.GetValue(0), usum);
  const LocalTensor<uint32_t> w32 = ub.Get<uint32_t>(2);
  for (uint32_t i = 0; i < 64; ++i) w32.SetValue(i, i == 5 ? 0xFFFFFFF0u : i);
  AscendC::ReduceRepeat<ReduceType::MAX>(u32, w32, 64, 1, 1, 1, 8,
                                         ReduceOrder::ORDER_INDEX_VALUE);
  EXPECT_EQ(u32.GetValue(0), 5u);
  EXPECT_EQ(u32.GetValue(1), 0xFFFFFFF0u);
}

TEST(VectorReduce, IntegerTypesAreRefusedOnA2) {
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceRepeat<ReduceType::SUM>(
            ub.Get<int32_t>(1), ub.Get<int16_t>(0), 128, 1, 1, 1, 8);
      },
      "ReduceRepeat<SUM, int32_t, int16_t>: this type is not supported on "
      "Atlas A2/A3 (dst and src both half or both float)"));
}

// ---- the earlier names ----

TEST(VectorReduce, EarlierNamesAreTheNewInstructions) {
  Ub ub;
  std::mt19937 gen(70);
  Fill<half>(ub, 0, gen);
  const LocalTensor<half> src = ub.Get<half>(0), a = ub.Get<half>(1),
                          b = ub.Get<half>(2);
  const uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0x0123456789ABCDEFull};
  ub.Write(1, std::vector<uint16_t>(kBufferBytes / 2, 0));
  ub.Write(2, std::vector<uint16_t>(kBufferBytes / 2, 0));
  auto same = [&](const char* what) {
    EXPECT_TRUE(SameDst<half>(ub.Read<uint16_t>(1), ub.Read<uint16_t>(2)))
        << what;
  };
  AscendC::WholeReduceSum(a, src, mask, 3, 1, 2, 9);
  AscendC::ReduceRepeat<ReduceType::SUM>(b, src, mask, 3, 1, 2, 9);
  same("WholeReduceSum");
  AscendC::WholeReduceMax(a, src, 100, 3, 1, 1, 8,
                          ReduceOrder::ORDER_INDEX_VALUE);
  AscendC::ReduceRepeat<ReduceType::MAX>(b, src, 100, 3, 1, 1, 8,
                                         ReduceOrder::ORDER_INDEX_VALUE);
  same("WholeReduceMax");
  AscendC::WholeReduceMin(a, src, mask, 2, 2, 1, 8);
  AscendC::ReduceRepeat<ReduceType::MIN>(b, src, mask, 2, 2, 1, 8);
  same("WholeReduceMin");
  AscendC::BlockReduceSum(a, src, 3, mask, 1, 1, 8);
  AscendC::ReduceDataBlock<ReduceType::SUM>(b, src, mask, 3, 1, 1, 8);
  same("BlockReduceSum");
  AscendC::BlockReduceMax(a, src, 2, 77, 2, 3, 8);
  AscendC::ReduceDataBlock<ReduceType::MAX>(b, src, 77, 2, 2, 3, 8);
  same("BlockReduceMax");
  AscendC::BlockReduceMin(a, src, 2, mask, 1, 1, 16);
  AscendC::ReduceDataBlock<ReduceType::MIN>(b, src, mask, 2, 1, 1, 16);
  same("BlockReduceMin");
  AscendC::PairReduceSum(a, src, 2, mask, 1, 1, 8);
  AscendC::ReducePairElem<ReduceType::SUM>(b, src, mask, 2, 1, 1, 8);
  same("PairReduceSum");
}

// RepeatReduceSum(dst, src, repeatTime, mask, dstBlkStride, srcBlkStride,
// dstRepStride, srcRepStride): small integers, so every tree sum is exact
// and the reference is the plain sum of the selected lanes; dstBlkStride is
// not read; the same results as ReduceRepeat<SUM> with the strides moved.
TEST(VectorReduce, RepeatReduceSumIsReduceRepeatSum) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ProfileScope scope(p);
    Ub ub;
    const LocalTensor<half> src = ub.Get<half>(0), a = ub.Get<half>(1),
                            b = ub.Get<half>(2);
    std::vector<uint16_t> zeros(kBufferBytes / 2, 0);
    for (uint32_t i = 0; i < kBufferBytes / 2; ++i) {
      src.SetValue(i, half(static_cast<float>(i % 7)));
    }
    ub.Write(1, zeros);
    // 3 repeats, 100 lanes each, 8 blocks apart; results 1 apart.
    for (int32_t dst_blk : {0, 1, 9}) {
      AscendC::RepeatReduceSum(a, src, 3, 100, dst_blk, 1, 1, 8);
      for (uint32_t r = 0; r < 3; ++r) {
        float want = 0;
        for (uint32_t k = 0; k < 100; ++k)
          want += static_cast<float>((r * 128 + k) % 7);
        EXPECT_EQ(static_cast<float>(a.GetValue(r)), want)
            << "repeat " << r << " dstBlkStride " << dst_blk;
      }
    }
    const uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0x0123456789ABCDEFull};
    ub.Write(1, zeros);
    ub.Write(2, zeros);
    AscendC::RepeatReduceSum(a, src, 2, mask, 1, 2, 3, 16);
    AscendC::ReduceRepeat<ReduceType::SUM>(b, src, mask, 2, 3, 2, 16);
    EXPECT_TRUE(SameDst<half>(ub.Read<uint16_t>(1), ub.Read<uint16_t>(2)));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::RepeatReduceSum(a, src, 256, 128, 1, 1, 1, 8); },
        "RepeatReduceSum<half>: repeatTime 256"));
  }
}

// ---- ReduceSum, ReduceMax, ReduceMin ----

// Sums of the repeats of `count` contiguous elements, each a tree.
template <typename T>
std::vector<double> RepeatSums(const std::vector<double>& src, uint32_t count) {
  constexpr uint32_t lanes = 256 / sizeof(T);
  std::vector<double> sums;
  for (uint32_t at = 0; at < count; at += lanes) {
    std::vector<double> v(lanes, 0.0);
    std::vector<bool> present(lanes, false);
    for (uint32_t k = 0; k < lanes && at + k < count; ++k) {
      v[k] = src[at + k];
      present[k] = true;
    }
    sums.push_back(RefTree<T>(ReduceType::SUM, v, present, 0, lanes, 0).value);
  }
  return sums;
}

template <typename T>
double Sequential(const std::vector<double>& sums) {
  double acc = sums[0];
  for (size_t i = 1; i < sums.size(); ++i) acc = Type<T>::Round(acc + sums[i]);
  return acc;
}

template <typename T>
double TreeRounds(std::vector<double> v) {
  constexpr uint32_t lanes = 256 / sizeof(T);
  while (v.size() > 1) {
    v = RepeatSums<T>(v, static_cast<uint32_t>(v.size()));
  }
  (void)lanes;
  return v[0];
}

template <typename T>
double LanesFirst(const std::vector<double>& src, uint32_t count) {
  constexpr uint32_t lanes = 256 / sizeof(T);
  std::vector<double> acc(lanes, 0.0);
  std::vector<bool> present(lanes, false);
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t k = i % lanes;
    acc[k] = present[k] ? Type<T>::Round(acc[k] + src[i]) : src[i];
    present[k] = true;
  }
  return RefTree<T>(ReduceType::SUM, acc, present, 0, lanes, 0).value;
}

// Values whose sums round in half: large and small quarters.
template <typename T>
std::vector<double> RoughFill(Ub& ub, int i, std::mt19937& gen) {
  std::uniform_int_distribution<int> big(-4000, 4000), small(-8, 8);
  std::vector<typename Type<T>::Bits> bits(kBufferBytes / sizeof(T));
  std::vector<double> values(bits.size());
  for (size_t k = 0; k < bits.size(); ++k) {
    values[k] = Type<T>::Round(k % 7 == 0 ? big(gen) / 2.0 : small(gen) / 4.0);
    bits[k] = Type<T>::ToBits(values[k]);
  }
  ub.Write(i, bits);
  return values;
}

template <typename T>
double SumOf(Ub& ub, uint32_t count) {
  AscendC::ReduceSum(ub.Get<T>(1), ub.Get<T>(0), ub.Get<T>(2),
                     static_cast<int32_t>(count));
  return Type<T>::FromBits(ub.Read<typename Type<T>::Bits>(1)[0]);
}

// Each profile's documented order of the count form: A2 adds the repeats'
// sums one after another; 310P reduces them again a repeat at a time; 950
// adds 256 to 1024 bytes lane by lane first, larger inputs as 310P.
TEST(VectorReduce, ReduceSumCountFormPerProfile) {
  // The orders must differ on some of these inputs, or the test proves less.
  bool sequential_differs = false, lanes_first_differs = false;
  for (uint32_t count : {1u, 100u, 128u, 300u, 511u, 1000u, 2100u, 4096u}) {
    for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
      ProfileScope profile(p);
      Ub ub;
      std::mt19937 gen(80 + count);
      const std::vector<double> src = RoughFill<half>(ub, 0, gen);
      const std::vector<double> sums = RepeatSums<half>(src, count);
      const bool lanes_first = count * 2 >= 256 && count * 2 <= 1024;
      const double want = p == Profile::kA2 ? Sequential<half>(sums)
                          : p == Profile::k950 && lanes_first
                              ? LanesFirst<half>(src, count)
                              : TreeRounds<half>(sums);
      EXPECT_EQ(SumOf<half>(ub, count), want)
          << count << " on " << normgrad_ascendc::GetProfileInfo(p).key;
      sequential_differs |= Sequential<half>(sums) != TreeRounds<half>(sums);
      lanes_first_differs |=
          lanes_first && LanesFirst<half>(src, count) != TreeRounds<half>(sums);
    }
  }
  EXPECT_TRUE(sequential_differs);
  EXPECT_TRUE(lanes_first_differs);
  Ub ub;
  std::mt19937 gen(89);
  const std::vector<double> src = RoughFill<float>(ub, 0, gen);
  EXPECT_EQ(SumOf<float>(ub, 1000),
            Sequential<float>(RepeatSums<float>(src, 1000)));
}

// A count form's last, partial repeat: its first lanes, summed as the tree
// with the other lanes empty, for every length of it (alone and after a
// whole repeat).
template <typename T>
void CheckEveryPartialRepeat() {
  constexpr uint32_t lanes = 256 / sizeof(T);
  ProfileScope profile(Profile::kA2);
  for (uint32_t count = 1; count < 2 * lanes; ++count) {
    if (count == lanes) continue;
    Ub ub;
    std::mt19937 gen(300 + count);
    const std::vector<double> src = RoughFill<T>(ub, 0, gen);
    ASSERT_EQ(SumOf<T>(ub, count), Sequential<T>(RepeatSums<T>(src, count)))
        << count << " elements";
  }
}

TEST(VectorReduce, ReduceSumEveryPartialRepeatHalf) {
  CheckEveryPartialRepeat<half>();
}

TEST(VectorReduce, ReduceSumEveryPartialRepeatFloat) {
  CheckEveryPartialRepeat<float>();
}

// The count form over one repeat or less takes its own path (the repeat's
// tree in place, half rounded level by level without leaving float); the
// level-0 form over one repeat under a continuous mask of count lanes, and
// WholeReduceSum's one repeat, take the executor. All give the model tree's
// bits on every profile, for every count, on values whose sums overflow
// half, fall into its subnormals, cancel to -0 or +0, or hold an infinity
// (and the same bits as each other, NaN included).
template <typename T>
void CheckOneRepeatAgainstLevel0() {
  using Bits = typename Type<T>::Bits;
  constexpr uint32_t lanes = 256 / sizeof(T);
  const double tiny = std::ldexp(1.0, -24), big = 30000.0;
  const std::vector<std::vector<double>> pools = {
      {big, 2 * big, -0.5, 0.25},                  // overflows half
      {32752.0, 32768.0, -16384.0},                // 65520: a tie, to infinity
      {tiny, -tiny, 3 * tiny, 1023 * tiny, -0.0},  // subnormal sums
      {-0.0, -0.0, -0.0, 0.0},                     // signed zeros
      {1.0, -1.0, 0.5, 65504.0, -65504.0, -0.0},   // cancellations to ±0
      {1.0, std::numeric_limits<double>::infinity(), -2.5, 0.125}};
  bool overflowed = false, subnormal = false, negative_zero = false;
  std::mt19937 gen(17);
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ProfileScope profile(p);
    for (const auto& pool : pools) {
      for (uint32_t count = 1; count <= lanes; ++count) {
        Ub ub;
        std::vector<Bits> bits(kBufferBytes / sizeof(T));
        std::vector<double> values(lanes, 0.0);
        std::vector<bool> present(lanes, false);
        std::uniform_int_distribution<size_t> pick(0, pool.size() - 1);
        for (size_t k = 0; k < bits.size(); ++k) {
          const double x = Type<T>::Round(pool[pick(gen)]);
          bits[k] = Type<T>::ToBits(x);
          if (k < count) {
            values[k] = x;
            present[k] = true;
          }
        }
        ub.Write(0, bits);
        const double model =
            RefTree<T>(ReduceType::SUM, values, present, 0, lanes, 0).value;
        AscendC::ReduceSum(ub.Get<T>(1), ub.Get<T>(0), ub.Get<T>(2),
                           static_cast<int32_t>(count));
        const Bits got = ub.Read<Bits>(1)[0];
        if (std::isnan(model)) {  // +inf + -inf: a NaN, its bits unspecified
          ASSERT_TRUE(std::isnan(Type<T>::FromBits(got)))
              << count << " elements";
        } else {
          ASSERT_EQ(got, Type<T>::ToBits(model))
              << count << " elements on "
              << normgrad_ascendc::GetProfileInfo(p).key;
        }
        AscendC::ReduceSum(ub.Get<T>(1), ub.Get<T>(0), ub.Get<T>(2),
                           static_cast<int32_t>(count), 1, 8);
        const Bits want = ub.Read<Bits>(1)[0];
        ASSERT_EQ(got, want) << count << " elements on "
                             << normgrad_ascendc::GetProfileInfo(p).key;
        // The same tree as one repeat of WholeReduceSum under the same mask
        // (how row_sum of `normgrad bench` sums a row of one repeat).
        AscendC::WholeReduceSum(ub.Get<T>(1), ub.Get<T>(0),
                                static_cast<int32_t>(count), 1, 1, 1, 8);
        ASSERT_EQ(ub.Read<Bits>(1)[0], want)
            << count << " elements, WholeReduceSum";
        const double v = Type<T>::FromBits(got);
        overflowed |= std::isinf(v) && pool[0] == 32752.0 && count == 2;
        subnormal |=
            v != 0 &&
            std::fabs(v) < std::ldexp(1.0, sizeof(T) == 2 ? -14 : -126) * 16;
        negative_zero |= v == 0 && std::signbit(v);
      }
    }
  }
  if (sizeof(T) == 2) {
    EXPECT_TRUE(overflowed);
  }
  EXPECT_TRUE(subnormal || sizeof(T) == 4);
  EXPECT_TRUE(negative_zero);
}

TEST(VectorReduce, ReduceSumOneRepeatIsTheLevel0TreeHalf) {
  CheckOneRepeatAgainstLevel0<half>();
}

TEST(VectorReduce, ReduceSumOneRepeatIsTheLevel0TreeFloat) {
  CheckOneRepeatAgainstLevel0<float>();
}

// The level-0 form reduces the repeats' sums in tree rounds (A2), under the
// mask and with a repeat stride.
TEST(VectorReduce, ReduceSumLevel0) {
  {
    std::mt19937 gen(81);
    Ub ub;
    const std::vector<double> src = RoughFill<half>(ub, 0, gen);
    const uint64_t mask[2] = {0xFFFF0000FFFF00FFull, 0x00000000FFFFFFFFull};
    std::vector<double> sums;
    for (uint32_t r = 0; r < 20; ++r) {
      std::vector<double> v(128);
      std::vector<bool> present(128);
      for (uint32_t k = 0; k < 128; ++k) {
        v[k] = src[r * 160 + k];  // srcRepStride 10 blocks = 160 halves
        present[k] = Selected(mask, k);
      }
      sums.push_back(
          RefTree<half>(ReduceType::SUM, v, present, 0, 128, 0).value);
    }
    AscendC::ReduceSum(ub.Get<half>(1), ub.Get<half>(0), ub.Get<half>(2), mask,
                       20, 10);
    EXPECT_EQ(compat_test::HalfBitsToFloat(ub.Read<uint16_t>(1)[0]),
              TreeRounds<half>(sums));
  }
  // The documented example's shape: ones, a full repeat at a time.
  Ub ones;
  const LocalTensor<half> x = ones.Get<half>(0);
  for (uint32_t i = 0; i < 4096; ++i) x.SetValue(i, half(1.0f));
  AscendC::ReduceSum<half>(ones.Get<half>(1), x, ones.Get<half>(2), 128, 32, 8);
  EXPECT_EQ(static_cast<float>(ones.Get<half>(1).GetValue(0)), 4096.0f);
}

// ReduceMax / ReduceMin: the value and, for calIndex, the position among
// all elements (repeat · lanes + lane); ties keep the first.
TEST(VectorReduce, ReduceMaxMinWithIndex) {
  Ub ub;
  const LocalTensor<float> src = ub.Get<float>(0), dst = ub.Get<float>(1),
                           tmp = ub.Get<float>(2);
  for (uint32_t i = 0; i < 2000; ++i) {
    src.SetValue(i, static_cast<float>(static_cast<int>(i * 37 % 1001) - 500));
  }
  // 500 is at i * 37 % 1001 == 1000: i = 514 and 1515 (ties: 514 wins);
  // -500 at i * 37 % 1001 == 0: i = 0 and 1001.
  auto index = [&] {
    uint32_t k;
    std::memcpy(&k, reinterpret_cast<const uint8_t*>(dst.GetPhyAddr()) + 4, 4);
    return k;
  };
  AscendC::ReduceMax(dst, src, tmp, 2000, true);
  EXPECT_EQ(dst.GetValue(0), 500.0f);
  EXPECT_EQ(index(), 514u);
  AscendC::ReduceMin(dst, src, tmp, 2000, true);
  EXPECT_EQ(dst.GetValue(0), -500.0f);
  EXPECT_EQ(index(), 0u);
  // Level 0: 10 repeats 16 blocks apart, lanes 0..31 of each.
  AscendC::ReduceMax(dst, src, tmp, 32, 10, 16, true);
  float best = -1e9f;
  uint32_t at = 0;
  for (uint32_t r = 0; r < 10; ++r) {
    for (uint32_t k = 0; k < 32; ++k) {
      const float v = src.GetValue(r * 128 + k);
      if (v > best) {
        best = v;
        at = r * 64 + k;
      }
    }
  }
  EXPECT_EQ(dst.GetValue(0), best);
  EXPECT_EQ(index(), at);
  // Without calIndex only the value is written.
  dst.SetValue(1, 7.0f);
  AscendC::ReduceMin(dst, src, tmp, 100);
  EXPECT_EQ(dst.GetValue(1), 7.0f);
  // half: the index in a half's bits.
  const LocalTensor<half> h = ub.Get<half>(0), hd = ub.Get<half>(1),
                          ht = ub.Get<half>(2);
  for (uint32_t i = 0; i < 300; ++i)
    h.SetValue(i, half(i == 232 ? 9.0f : 0.5f));
  AscendC::ReduceMax(hd, h, ht, 300, true);
  EXPECT_EQ(compat_test::TensorBits<half>::Read(hd, 2)[1], 232u);
}

TEST(VectorReduce, CountZeroAndMaskZeroWriteNothing) {
  Ub ub;
  const LocalTensor<float> src = ub.Get<float>(0), dst = ub.Get<float>(1);
  dst.SetValue(0, 42.0f);
  AscendC::ReduceSum(dst, src, ub.Get<float>(2), 0);
  AscendC::ReduceMax(dst, src, ub.Get<float>(2), 0, 4, 8, true);
  AscendC::ReduceRepeat<ReduceType::SUM>(dst, src, 64, 0, 1, 1, 8);
  EXPECT_EQ(dst.GetValue(0), 42.0f);
}

// ---- the checks ----

TEST(VectorReduce, Checks) {
  Ub ub;
  const LocalTensor<float> x = ub.Get<float>(0), y = ub.Get<float>(1),
                           t = ub.Get<float>(2);
  const LocalTensor<half> hx = ub.Get<half>(0), hy = ub.Get<half>(1);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceRepeat<ReduceType::SUM>(y, x, 64, 1, 70000, 1, 8); },
      "ReduceRepeat<SUM, float>: dstRepStride 70000 is out of range "
      "(0..65535)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceRepeat<ReduceType::SUM>(y, x, 64, 256, 1, 1, 8); },
      "ReduceRepeat<SUM, float>: repeatTime 256 is out of range (0..255)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceRepeat<ReduceType::MAX>(y[1], x, 64, 1, 1, 1, 8); },
      "ReduceRepeat<MAX, float>: dst LocalTensor starts at UB offset 8196, "
      "which is not 8-byte aligned"));
  // A half sum needs only 2-byte alignment.
  AscendC::ReduceRepeat<ReduceType::SUM>(hy[1], hx, 128, 1, 1, 1, 8);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceDataBlock<ReduceType::SUM>(hy[4], hx, 128, 1, 1, 1, 8);
      },
      "ReduceDataBlock<SUM, half>: dst LocalTensor starts at UB offset 8200, "
      "which is not 16-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceRepeat<ReduceType::SUM>(y[2047], x, 64, 2, 1, 1, 8);
      },
      "ReduceRepeat<SUM, float>: dst has 4 bytes; 2 repeats of 4-byte "
      "results, 4 bytes from one repeat's results to the next, reach byte 8, "
      "past its end"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceRepeat<ReduceType::SUM>(x[8], x, 64, 1, 1, 1, 8); },
      "ReduceRepeat<SUM, float>: in repeat 0, dst and src share a block"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReducePairElem<ReduceType::SUM>(x[64], x, 64, 2, 1, 1, 8);
      },
      "ReducePairElem<SUM, float>: repeat 1 reads src from a block an earlier "
      "repeat wrote to dst"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceRepeat<ReduceType::SUM>(y, x, -1, 1, 1, 1, 8); },
      "ReduceRepeat<SUM, float>: mask -1 is negative"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceSum(y, x, t[2040], 64, 100, 8); },
      "ReduceSum<float>: sharedTmpBuffer has 8 elements; 100 repeats need at "
      "least 104"));
  // ReduceMax's documented example: 65 half repeats with calIndex need 176.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceMax(hy, hx, ub.Get<half>(2)[4096 - 160], 128, 65, 1,
                           true);
      },
      "ReduceMax<half>: sharedTmpBuffer has 160 elements; 65 repeats with "
      "calIndex need at least 176"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceSum(y, x, t, 3000); },
      "ReduceSum<float>: src has 2048 elements, fewer than count 3000"));
  EXPECT_TRUE(FailsWith(  // count · 4 bytes past 32 bits
      [&] { AscendC::ReduceSum(y, x, t, 1 << 30); },
      "ReduceSum<float>: src has 2048 elements, fewer than count 1073741824"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceMax(y[1], x, t, 64, true); },
      "ReduceMax<float>: dst LocalTensor starts at UB offset 8196, which is "
      "not 8-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ReduceMax(hy, hx, hx, 128, 600, 0, true); },
      "ReduceMax<half>: calIndex over 76800 elements: a half result holds "
      "indices up to 65535"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::SetMaskNorm();
        AscendC::ReduceSum<float, false>(y, x, t, 1);
      },
      "ReduceSum<float>: isSetMask = false takes the count from the mask "
      "register, which is in normal mode"));
}

TEST(VectorReduce, ChecksOf310P) {
  ProfileScope profile(Profile::k310P);
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceRepeat<ReduceType::MAX>(ub.Get<float>(1),
                                               ub.Get<float>(0), 64, 1, 1, 1, 8,
                                               ReduceOrder::ORDER_ONLY_INDEX);
      },
      "ReduceRepeat<MAX, float>: order ORDER_ONLY_INDEX is not supported on "));
}

// Ascend 950: 64-bit integer sums and maxima in the count form.
TEST(VectorReduce, Int64CountFormOn950) {
  ProfileScope profile(Profile::k950);
  Ub ub;
  const LocalTensor<int64_t> src = ub.Get<int64_t>(0), dst = ub.Get<int64_t>(1);
  int64_t sum = 0;
  for (uint32_t i = 0; i < 100; ++i) {
    const int64_t v = (int64_t{1} << 40) * (i % 5) - 3 * i;
    src.SetValue(i, v);
    sum += v;
  }
  AscendC::ReduceSum(dst, src, ub.Get<int64_t>(2), 100);
  EXPECT_EQ(dst.GetValue(0), sum);
  AscendC::ReduceMax(dst, src, src, 100, true);
  EXPECT_EQ(dst.GetValue(0), (int64_t{1} << 42) - 3 * 4);
  EXPECT_EQ(dst.GetValue(1), 4);
  AscendC::ReduceMin(dst, src, src, 100, true);
  EXPECT_EQ(dst.GetValue(0), -3 * 95);
  EXPECT_EQ(dst.GetValue(1), 95);
  // int16_t: the level-0 form, the index in the result's 16 bits.
  const LocalTensor<int16_t> s16 = ub.Get<int16_t>(0), d16 = ub.Get<int16_t>(1);
  for (uint32_t i = 0; i < 256; ++i) {
    s16.SetValue(i, static_cast<int16_t>(i == 200 || i == 230 ? -9 : i % 50));
  }
  AscendC::ReduceMin(d16, s16, s16, 128, 2, 8, true);
  EXPECT_EQ(d16.GetValue(0), -9);
  EXPECT_EQ(d16.GetValue(1), 200);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceSum(ub.Get<int64_t>(1), src, ub.Get<int64_t>(2), 32, 1,
                           4);
      },
      "ReduceSum<int64_t>: this type is not supported on "));
}

}  // namespace

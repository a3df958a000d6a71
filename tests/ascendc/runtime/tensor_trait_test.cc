// tensor_trait_test.cc — tensors over a TensorTrait (docs/runtime.md,
// "Layout, Coordinate and TensorTrait"), from the TensorTrait page's
// constraints and its table of the APIs that take them: the tensors'
// members, the queue operations, GlobalTensor<TensorTrait<T>> with DataCopy
// both ways, the refused copies, and one API of each header (each path from
// a public API to its body) run on trait tensors and on plain tensors over
// the same bytes, the two results compared byte for byte.
//
// Extending: an API whose header has no case yet gets one in
// TensorTraitApis (Run on the two halves, then ExpectSameBytes).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TensorTrait;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

// ---- The tensors themselves ------------------------------------------------

template <typename T, typename = void>
struct HasSetShapeInfo : std::false_type {};
template <typename T>
struct HasSetShapeInfo<T, std::void_t<decltype(std::declval<T&>().SetShapeInfo(
                              std::declval<const AscendC::ShapeInfo&>()))>>
    : std::true_type {};
template <typename T, typename = void>
struct HasGetShapeInfo : std::false_type {};
template <typename T>
struct HasGetShapeInfo<T,
                       std::void_t<decltype(std::declval<T&>().GetShapeInfo())>>
    : std::true_type {};

// The page: no ShapeInfo, and no copy or assignment between trait and plain
// tensors (either way). tensor_trait_rejects_copy.cc checks the message.
using TraitLocal = LocalTensor<TensorTrait<float>>;
using TraitGlobal = GlobalTensor<TensorTrait<float>>;
static_assert(!HasSetShapeInfo<TraitLocal>::value);
static_assert(!HasGetShapeInfo<TraitLocal>::value);
static_assert(!HasSetShapeInfo<TraitGlobal>::value);
static_assert(!HasGetShapeInfo<TraitGlobal>::value);
static_assert(HasSetShapeInfo<LocalTensor<float>>::value);
static_assert(HasGetShapeInfo<GlobalTensor<float>>::value);
static_assert(!std::is_constructible_v<LocalTensor<float>, const TraitLocal&>);
static_assert(!std::is_assignable_v<LocalTensor<float>&, const TraitLocal&>);
static_assert(!std::is_constructible_v<TraitLocal, const LocalTensor<float>&>);
static_assert(!std::is_assignable_v<TraitLocal&, const LocalTensor<float>&>);
static_assert(
    !std::is_constructible_v<GlobalTensor<float>, const TraitGlobal&>);
static_assert(!std::is_assignable_v<GlobalTensor<float>&, const TraitGlobal&>);
static_assert(
    !std::is_constructible_v<TraitGlobal, const GlobalTensor<float>&>);
static_assert(std::is_trivially_copyable_v<TraitLocal>);
static_assert(std::is_trivially_copyable_v<TraitGlobal>);
static_assert(
    std::is_same_v<decltype(std::declval<TraitLocal&>()[1]), TraitLocal>);
static_assert(
    std::is_same_v<decltype(std::declval<TraitGlobal&>()[1]), TraitGlobal>);

// GetSize, GetValue, SetValue and operator[] count elements of the trait's
// type; operator[] keeps the trait type.
TEST(TensorTraitTensors, LocalTensorCountsElementsOfTheTraitsType) {
  TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<TensorTrait<int16_t>> t = buf.Get<TensorTrait<int16_t>>();
  EXPECT_EQ(t.GetSize(), 128u);
  for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, int16_t(3 * i));
  EXPECT_EQ(t.GetValue(7), 21);
  LocalTensor<TensorTrait<int16_t>> tail = t[16];
  EXPECT_EQ(tail.GetSize(), 112u);
  EXPECT_EQ(tail.GetValue(0), 48);
  EXPECT_EQ(tail[16].GetValue(1), 99);
  // The same bytes as a plain tensor of the buffer.
  EXPECT_EQ(buf.Get<int16_t>().GetValue(17), 51);
  LocalTensor<TensorTrait<int16_t>> first = buf.Get<TensorTrait<int16_t>>(8);
  EXPECT_EQ(first.GetSize(), 8u);
  EXPECT_TRUE(FailsWith([&] { first.GetValue(8); },
                        "LocalTensor<int16_t>::GetValue: index 8 is past the "
                        "end of a tensor of 8 elements"));
}

TEST(TensorTraitTensors, GlobalTensorCountsElementsOfTheTraitsType) {
  std::vector<float> gm = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f};
  GlobalTensor<TensorTrait<float>> g;
  g.SetGlobalBuffer(gm.data(), gm.size());
  EXPECT_EQ(g.GetSize(), 5u);
  EXPECT_EQ(g.GetValue(3), 3.5f);
  GlobalTensor<TensorTrait<float>> tail = g[2];
  EXPECT_EQ(tail.GetSize(), 3u);
  EXPECT_EQ(tail.GetValue(0), 2.5f);
  tail.SetValue(2, -1.0f);
  EXPECT_EQ(gm[4], -1.0f);
  EXPECT_EQ(tail.GetPhyAddr(), gm.data() + 2);
  EXPECT_TRUE(FailsWith([&] { g.GetValue(5); },
                        "GlobalTensor<float>::GetValue: index 5 is past the "
                        "end of a tensor of 5 elements"));
}

// The queue operations of the page's vector example, with DataCopy GM → UB
// → GM through trait tensors.
TEST(TensorTraitTensors, QueuesAndDataCopyBothWays) {
  std::vector<int16_t> in(512), out(512, 0);
  for (uint32_t i = 0; i < 512; ++i) in[i] = static_cast<int16_t>(i * 7 - 900);
  GlobalTensor<TensorTrait<int16_t>> src, dst;
  src.SetGlobalBuffer(in.data(), in.size());
  dst.SetGlobalBuffer(out.data(), out.size());
  TPipe pipe;
  AscendC::TQue<TPosition::VECIN, 1> queue;
  pipe.InitBuffer(queue, 1, 512 * sizeof(int16_t));
  LocalTensor<TensorTrait<int16_t>> local =
      queue.AllocTensor<TensorTrait<int16_t>>();
  EXPECT_EQ(local.GetSize(), 512u);
  AscendC::DataCopy(local, src, 512);
  queue.EnQue(local);
  LocalTensor<TensorTrait<int16_t>> back = queue.DeQue<TensorTrait<int16_t>>();
  EXPECT_EQ(back.GetValue(511), in[511]);
  AscendC::DataCopy(dst, back, 512);
  queue.FreeTensor(back);
  EXPECT_EQ(out, in);
  // FreeTensor ended the tensor, as it ends a plain one.
  EXPECT_TRUE(
      FailsWith([&] { back.GetValue(0); }, "LocalTensor<int16_t>::GetValue"));
}

// ---- The APIs --------------------------------------------------------------

// A unified buffer split in two halves of kHalf bytes: plain tensors in the
// first, trait tensors at the same offsets in the second, both halves
// starting from the same bytes. An API run once on each half must leave the
// halves equal.
class TwoHalves {
 public:
  static constexpr uint32_t kHalf = 32768;

  TwoHalves() {
    pipe_.InitBuffer(buf_, 2 * kHalf);
    bytes_ = buf_.Get<uint8_t>();
    uint8_t* p = bytes_.GetPhyAddr();
    for (uint32_t i = 0; i < kHalf; ++i) {
      // Small, varied values: no lane of any type is a NaN by accident.
      p[i] = p[kHalf + i] = static_cast<uint8_t>((i * 37 + i / 7) % 61);
    }
  }
  /// `count` elements of T from byte `offset` of the first half.
  template <typename T>
  LocalTensor<T> Plain(uint32_t offset, uint32_t count) {
    LocalTensor<T> t = bytes_[offset].template ReinterpretCast<T>();
    t.SetSize(count);
    return t;
  }
  /// The same in the second half, as a trait tensor.
  template <typename T>
  LocalTensor<TensorTrait<T>> Trait(uint32_t offset, uint32_t count) {
    LocalTensor<TensorTrait<T>> t =
        buf_.Get<TensorTrait<T>>()[(kHalf + offset) / sizeof(T)];
    t.SetSize(count);
    return t;
  }
  /// Writes `value` as element i of both halves' tensor at `offset`.
  template <typename T>
  void Set(uint32_t offset, uint32_t i, T value) {
    Plain<T>(offset, i + 1).SetValue(i, value);
    Trait<T>(offset, i + 1).SetValue(i, value);
  }
  /// Whether the halves hold the same bytes (the first difference if not).
  ::testing::AssertionResult SameBytes() {
    const uint8_t* p = bytes_.GetPhyAddr();
    for (uint32_t i = 0; i < kHalf; ++i) {
      if (p[i] != p[kHalf + i]) {
        return ::testing::AssertionFailure()
               << "byte " << i << ": plain " << int(p[i]) << ", trait "
               << int(p[kHalf + i]);
      }
    }
    return ::testing::AssertionSuccess();
  }

 private:
  TPipe pipe_;
  AscendC::TBuf<TPosition::VECCALC> buf_;
  LocalTensor<uint8_t> bytes_;
};

// Runs `api` on the plain half and on the trait half (it takes a tag:
// Plain() or Trait() picks the half), then checks the halves agree.
#define EXPECT_SAME_ON_BOTH(h, ...)        \
  do {                                     \
    {                                      \
      auto T_ = [&](auto tag) __VA_ARGS__; \
      T_(std::false_type{});               \
      T_(std::true_type{});                \
    }                                      \
    EXPECT_TRUE((h).SameBytes());          \
  } while (0)

// The tensor of `count` T at `offset` in the half `trait` chooses.
#define OPERAND(h, T, offset, count)               \
  [&] {                                            \
    if constexpr (decltype(tag)::value)            \
      return (h).template Trait<T>(offset, count); \
    else                                           \
      return (h).template Plain<T>(offset, count); \
  }()

// vector_ops.h: the two-source macro, the scalar macro in the page's level-0
// form, Div and Copy.
TEST(TensorTraitApis, ArithmeticOfVectorOps) {
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::Add(OPERAND(h, float, 0, 64), OPERAND(h, float, 256, 64),
                 OPERAND(h, float, 512, 64), 64);
    AscendC::Adds(OPERAND(h, int16_t, 1024, 512),
                  OPERAND(h, int16_t, 2048, 512), int16_t(2), uint64_t{128}, 4,
                  {1, 1, 8, 8});
    AscendC::Div(OPERAND(h, float, 3072, 64), OPERAND(h, float, 256, 64),
                 OPERAND(h, float, 512, 64), 64);
    AscendC::Copy(OPERAND(h, float, 3584, 64), OPERAND(h, float, 512, 64),
                  uint64_t{64}, 1, {1, 1, 8, 8});
  });
  // The page's example adds 2 to each of 512 int16_t.
  LocalTensor<int16_t> src = h.Plain<int16_t>(2048, 512);
  for (uint32_t i : {0u, 200u, 511u}) {
    EXPECT_EQ(h.Trait<int16_t>(1024, 512).GetValue(i), src.GetValue(i) + 2);
  }
}

// vector_math.h: the unary and math macros, LeakyRelu, the logic macro and
// the shifts.
TEST(TensorTraitApis, VectorMath) {
  TwoHalves h;
  uint64_t bits[2] = {0x00FF00FF00FF00FFull, 0};
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::Abs(OPERAND(h, half, 0, 128), OPERAND(h, half, 512, 128), bits, 1,
                 {1, 1, 8, 8});
    AscendC::Exp(OPERAND(h, float, 1024, 64), OPERAND(h, float, 512, 64), 64);
    AscendC::LeakyRelu(OPERAND(h, float, 1536, 64), OPERAND(h, float, 512, 64),
                       0.25f, 64);
    AscendC::And(OPERAND(h, uint16_t, 2048, 128),
                 OPERAND(h, uint16_t, 512, 128), OPERAND(h, uint16_t, 0, 128),
                 128);
    AscendC::ShiftRight(OPERAND(h, uint32_t, 2560, 64),
                        OPERAND(h, uint32_t, 512, 64), 3u, 64);
  });
}

// The 950 profile's APIs of the table: Prelu, Mull (vector_math.h), AbsSub
// (vector_compound.h), Truncate (vector_convert.h), Interleave
// (vector_layout.h).
TEST(TensorTraitApis, Profile950) {
  const ProfileScope on950(Profile::k950);
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::Prelu(OPERAND(h, float, 4096, 64), OPERAND(h, float, 512, 64),
                   OPERAND(h, float, 0, 64), 64);
    AscendC::Mull(OPERAND(h, int32_t, 4608, 64), OPERAND(h, int32_t, 5120, 64),
                  OPERAND(h, int32_t, 512, 64), OPERAND(h, int32_t, 0, 64), 64);
  });
}

// vector_compound.h (one type and two types) and vector_convert.h (Cast).
TEST(TensorTraitApis, CompoundConvertAndPadding) {
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::AddRelu(OPERAND(h, half, 0, 128), OPERAND(h, half, 512, 128),
                     OPERAND(h, half, 1024, 128), 128);
    AscendC::MulAddDst(OPERAND(h, float, 1536, 64), OPERAND(h, half, 512, 64),
                       OPERAND(h, half, 1024, 64), 64);
    AscendC::Cast(OPERAND(h, half, 2560, 64), OPERAND(h, float, 512, 64),
                  AscendC::RoundMode::CAST_ROUND, 64);
  });
}

TEST(TensorTraitApis, Profile950Convert) {
  const ProfileScope on950(Profile::k950);
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::AbsSub(OPERAND(h, float, 2048, 64), OPERAND(h, float, 512, 64),
                    OPERAND(h, float, 1024, 64), 64);
    AscendC::Truncate<
        std::conditional_t<decltype(tag)::value, TensorTrait<float>, float>,
        AscendC::RoundMode::CAST_FLOOR>(OPERAND(h, float, 4096, 64),
                                        OPERAND(h, float, 512, 64), 64);
  });
}

// vector_layout.h: Duplicate, Brcb, Gather, Transpose; Interleave on the 950
// profile.
TEST(TensorTraitApis, Layout) {
  TwoHalves h;
  for (uint32_t i = 0; i < 64; ++i) {
    h.Set<uint32_t>(4096, i, (63 - i) * 4);  // byte offsets into src
  }
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::Duplicate(OPERAND(h, float, 0, 64), 1.5f, 64);
    AscendC::Brcb(OPERAND(h, float, 512, 64), OPERAND(h, float, 1024, 8), 1,
                  AscendC::BrcbRepeatParams(1, 8));
    AscendC::Gather(OPERAND(h, float, 1536, 64), OPERAND(h, float, 2048, 64),
                    OPERAND(h, uint32_t, 4096, 64), 0, 64);
    AscendC::Transpose(OPERAND(h, half, 2560, 256),
                       OPERAND(h, half, 5120, 256));
  });
  EXPECT_EQ(h.Trait<float>(0, 64).GetValue(63), 1.5f);
}

TEST(TensorTraitApis, Profile950Layout) {
  const ProfileScope on950(Profile::k950);
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::Interleave(OPERAND(h, half, 6144, 64), OPERAND(h, half, 6400, 64),
                        OPERAND(h, half, 512, 64), OPERAND(h, half, 1024, 64),
                        64);
  });
}

// vector_reduce.h (the whole-tensor and the per-repeat forms) and
// vector_select.h (Compare, Select, GatherMask, GetCmpMask).
TEST(TensorTraitApis, ReduceAndSelect) {
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::ReduceSum(OPERAND(h, float, 0, 8), OPERAND(h, float, 512, 64),
                       OPERAND(h, float, 1024, 64), 64);
    AscendC::ReduceMax(OPERAND(h, half, 1536, 16), OPERAND(h, half, 512, 128),
                       OPERAND(h, half, 2048, 128), 128, true);
    AscendC::Compare(OPERAND(h, uint8_t, 2560, 32), OPERAND(h, float, 512, 64),
                     OPERAND(h, float, 1024, 64), AscendC::CMPMODE::LT, 64);
    AscendC::Select(OPERAND(h, float, 3072, 64), OPERAND(h, uint8_t, 2560, 32),
                    OPERAND(h, float, 512, 64), OPERAND(h, float, 1024, 64),
                    AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    uint64_t kept = 0;
    AscendC::GatherMask(OPERAND(h, float, 3584, 64), OPERAND(h, float, 512, 64),
                        uint8_t{1}, false, 0, {1, 1, 8, 0}, kept);
    AscendC::Compare(OPERAND(h, float, 512, 64), OPERAND(h, float, 1024, 64),
                     AscendC::CMPMODE::GE, uint64_t{64}, {1, 1, 1, 8, 8, 8});
    AscendC::GetCmpMask(OPERAND(h, uint8_t, 4096, 128));
  });
}

// vector_sort.h: Sort32; on the inference profile, which has them,
// ProposalConcat and vector_padding.h's VectorPadding.
TEST(TensorTraitApis, Sort) {
  {
    TwoHalves h;
    for (uint32_t i = 0; i < 32; ++i) h.Set<uint32_t>(1024, i, i);
    EXPECT_SAME_ON_BOTH(h, {
      AscendC::Sort32(OPERAND(h, float, 2048, 64), OPERAND(h, float, 512, 32),
                      OPERAND(h, uint32_t, 1024, 32), 1);
    });
  }
  const ProfileScope on310p(Profile::k310P);
  TwoHalves h;
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::ProposalConcat(OPERAND(h, half, 4096, 128),
                            OPERAND(h, half, 512, 16), 1, 4);
    AscendC::VectorPadding(OPERAND(h, half, 3584, 64),
                           OPERAND(h, half, 512, 64), 1, true, 64);
  });
}

// vector_bilinear.h.
TEST(TensorTraitApis, BilinearInterpolation) {
  TwoHalves h;
  for (uint32_t i = 0; i < 32; ++i) h.Set<uint32_t>(4096, i, i * 32);
  EXPECT_SAME_ON_BOTH(h, {
    AscendC::BilinearInterpolation(
        OPERAND(h, half, 0, 1024), OPERAND(h, half, 5120, 512),
        OPERAND(h, uint32_t, 4096, 32), OPERAND(h, half, 2048, 32),
        uint64_t{128}, 2, false, 1, 128, 2, OPERAND(h, uint8_t, 8192, 17408));
  });
}

// Every API of the page's table that normgrad has compiles on trait tensors
// (the cases above run one of each header; this function is compiled, not
// run).
using F = TensorTrait<float>;
using H = TensorTrait<half>;
using I32 = TensorTrait<int32_t>;
using U16 = TensorTrait<uint16_t>;
using U32 = TensorTrait<uint32_t>;
using U8 = TensorTrait<uint8_t>;
[[maybe_unused]] void EveryTableApiTakesTraitTensors(
    const LocalTensor<F>& f, const LocalTensor<H>& h, const LocalTensor<I32>& i,
    const LocalTensor<U16>& u16, const LocalTensor<U32>& u32,
    const LocalTensor<U8>& u8, const GlobalTensor<F>& g) {
  using namespace AscendC;
  Exp(f, f, 1);
  Ln(f, f, 1);
  Abs(f, f, 1);
  Reciprocal(f, f, 1);
  Sqrt(f, f, 1);
  Rsqrt(f, f, 1);
  Relu(f, f, 1);
  Add(f, f, f, 1);
  Sub(f, f, f, 1);
  Mul(f, f, f, 1);
  Div(f, f, f, 1);
  Max(f, f, f, 1);
  Min(f, f, f, 1);
  Adds(f, f, 1.0f, 1);
  Muls(f, f, 1.0f, 1);
  Maxs(f, f, 1.0f, 1);
  Mins(f, f, 1.0f, 1);
  VectorPadding(h, h, 0, false, 1);
  uint64_t bits[2] = {1, 0};
  BilinearInterpolation(h, h, u32, h, bits, 1, false, 1, 128, 1,
                        u8.ReinterpretCast<uint8_t>());
  Prelu(f, f, f, 1);
  Mull(i, i, i, i, 1);
  LeakyRelu(f, f, 0.5f, 1);
  And(u16, u16, u16, 1);
  Or(u16, u16, u16, 1);
  ShiftRight(u16, u16, uint16_t{1}, 1);
  ShiftLeft(u16, u16, uint16_t{1}, 1);
  CastDequant(h, i, 1);
  AddRelu(f, f, f, 1);
  AddDeqRelu(h, i, i, 1);
  SubRelu(f, f, f, 1);
  MulAddDst(f, h, h, 1);
  FusedMulAdd(f, f, f, 1);
  MulAddRelu(f, f, f, 1);
  AddReluCast(h, f, f, 1u);
  ExpSub(f, h, h, 1u);
  AbsSub(f, f, f, 1);
  SubReluCast(h, f, f, 1u);
  MulCast(h, f, f, 1u);
  DataCopy(f, g, 8);
  DataCopy(g, f, 8);
  DataCopy(f, f, 8);
  DataCopy(f, g, DataCopyParams{1, 1, 0, 0});
  DataCopy(g, f, DataCopyParams{1, 1, 0, 0});
  DataCopy(f, f, DataCopyParams{1, 1, 0, 0});
  Copy(f, f, uint64_t{64}, 1, CopyRepeatParams{});
  Compare(u8, f, f, CMPMODE::LT, 64);
  Compare(f, f, CMPMODE::LT, uint64_t{64}, BinaryRepeatParams{});
  GetCmpMask(u8);
  SetCmpMask(u8);
  Select(f, u8, f, f, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
  uint64_t kept = 0;
  GatherMask(f, f, u32, false, 0, {1, 1, 8, 0}, kept);
  Cast(h, f, RoundMode::CAST_ROUND, 1);
  Truncate<F, RoundMode::CAST_FLOOR>(f, f, 1);
  ReduceMax(f, f, f, 1);
  ReduceMin(f, f, f, 1);
  ReduceSum(f, f, f, 1);
  ReduceDataBlock<ReduceType::SUM>(f, f, 64, 1, 1, 1, 8);
  ReduceRepeat<ReduceType::SUM>(f, f, 64, 1, 1, 1, 8);
  ReducePairElem<ReduceType::SUM>(f, f, 64, 1, 1, 1, 8);
  Transpose(h, h);
  LocalTensor<H> list[NCHW_CONV_ADDR_LIST_SIZE];
  TransDataTo5HD<H>(list, list, TransDataTo5HDParams{});
  Brcb(f, f, 1, BrcbRepeatParams(1, 8));
  Duplicate(f, f, 1);
  Gather(f, f, u32, 0, 1);
  Gatherb(u32, u32, u32, 1, GatherRepeatParams{});
  Scatter(f, f, u32, 0, 1);
  Interleave(f, f, f, f, 2);
  DeInterleave(f, f, f, f, 2);
  ProposalConcat(h, h, 1, 0);
  ProposalExtract(h, h, 1, 0);
  RpSort16(h, h, 1);
  MrgSort4(h, MrgSortSrcList<H>(h, h, h, h), MrgSort4Info{});
  Sort32(f, f, u32, 1);
  // The cube's forms (tensor positions do not matter to compile them).
  const LocalTensor<TensorTrait<uint64_t>> params;
  Fixpipe(g, f, params, FixpipeParamsV220{});
  Fixpipe(h, f, FixpipeParamsV220{});
  Fixpipe(h, f, params, FixpipeParamsV220{});
  Fill(h, {1, 2, 0, 1});
  DataCopy(f, h, DataCopyParams{});
  DataCopy(g, f, DataCopyCO12DstParams{});
}

// An API call that mixes trait and plain tensors does not deduce (the page:
// one call takes one kind).
template <typename D, typename S, typename = void>
struct AddCompiles : std::false_type {};
template <typename D, typename S>
struct AddCompiles<D, S,
                   std::void_t<decltype(AscendC::Add(
                       std::declval<const D&>(), std::declval<const S&>(),
                       std::declval<const S&>(), 1))>> : std::true_type {};
static_assert(AddCompiles<TraitLocal, TraitLocal>::value);
static_assert(AddCompiles<LocalTensor<float>, LocalTensor<float>>::value);
static_assert(!AddCompiles<TraitLocal, LocalTensor<float>>::value);

}  // namespace

// structures_test.cc — the data structures' long tail (docs/runtime.md,
// "Layout, Coordinate and TensorTrait" and "Pipe members"), each from its
// page: Layout, Shape, Stride, Coord, Crd2Idx, is_layout; TensorTrait,
// MakeTensorTrait, is_tensorTrait; LocalTensor and GlobalTensor operator();
// GlobalTensor::ReinterpretCast; TensorDesc::GetDataObj.
//
// Extending: one TEST per behaviour; values against a reference computed
// here from the page's formula; every error a FailsWith line with its message.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "kernel_operator_layout.h"
#include "kernel_operator_list_tensor_intf.h"
#include "kernel_operator_tensor_trait.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
namespace Std = AscendC::Std;

// ---- Layout -----------------------------------------------------------------

TEST(Layout, PageExampleShapeAndStride) {
  AscendC::Shape<int, int, int> shape = AscendC::MakeShape(10, 20, 30);
  AscendC::Stride<int, int, int> stride = AscendC::MakeStride(1, 100, 200);
  auto made = AscendC::MakeLayout(shape, stride);
  AscendC::Layout<AscendC::Shape<int, int, int>, AscendC::Stride<int, int, int>>
      init(shape, stride);
  EXPECT_EQ(Std::get<0>(made.GetShape()), 10);
  EXPECT_EQ(Std::get<1>(made.GetShape()), 20);
  EXPECT_EQ(Std::get<2>(made.GetShape()), 30);
  EXPECT_EQ(Std::get<0>(init.GetStride()), 1);
  EXPECT_EQ(Std::get<1>(init.GetStride()), 100);
  EXPECT_EQ(Std::get<2>(init.GetStride()), 200);
  // layout() is the object itself; GetShape gives the stored shape to change.
  EXPECT_EQ(&init.layout(), &init);
  Std::get<1>(init.GetShape()) = 21;
  EXPECT_EQ(Std::get<1>(init.layout().GetShape()), 21);
  static_assert(std::is_same_v<decltype(made), decltype(init)>);
}

TEST(Layout, IsLayout) {
  auto shape = AscendC::MakeShape(10, 20, 30);
  auto stride = AscendC::MakeStride(1, 100, 200);
  auto layout = AscendC::MakeLayout(shape, stride);
  EXPECT_FALSE(AscendC::is_layout<decltype(shape)>::value);
  EXPECT_FALSE(AscendC::is_layout<decltype(stride)>::value);
  EXPECT_TRUE(AscendC::is_layout<decltype(layout)>::value);
  EXPECT_FALSE(AscendC::is_layout<int>::value);
}

// The page's formula: the sum of c_i * s_i.
TEST(Crd2Idx, TupleCoordinateIsTheDotProductWithTheStride) {
  auto layout = AscendC::MakeLayout(AscendC::MakeShape(3, 4, 5),
                                    AscendC::MakeStride(20, 5, 1));
  EXPECT_EQ(AscendC::Crd2Idx(AscendC::MakeCoord(1, 2, 3), layout), 33u);
  for (size_t a = 0; a < 3; ++a) {
    for (size_t b = 0; b < 4; ++b) {
      for (size_t c = 0; c < 5; ++c) {
        const auto coord = AscendC::MakeCoord(a, b, c);
        EXPECT_EQ(layout(coord), a * 20 + b * 5 + c);
        EXPECT_EQ(
            AscendC::Crd2Idx(coord, layout.GetShape(), layout.GetStride()),
            a * 20 + b * 5 + c);
      }
    }
  }
}

// An integer coordinate splits over the shape, first mode fastest; the last
// mode takes what is left.
TEST(Crd2Idx, IntegerCoordinateSplitsOverTheShape) {
  auto layout = AscendC::MakeLayout(AscendC::MakeShape(3, 4, 5),
                                    AscendC::MakeStride(7, 100, 1000));
  for (size_t c = 0; c < 70; ++c) {
    const size_t want = (c % 3) * 7 + (c / 3 % 4) * 100 + (c / 12) * 1000;
    EXPECT_EQ(AscendC::Crd2Idx(c, layout), want) << c;
  }
}

// The page's hierarchical example: ((2, 4), (3, 5)) : ((3, 6), (1, 24)) at
// (11, 12) is 129.
TEST(Crd2Idx, PageHierarchicalExample) {
  auto layout = AscendC::MakeLayout(
      AscendC::MakeShape(AscendC::MakeShape(2, 4), AscendC::MakeShape(3, 5)),
      AscendC::MakeStride(AscendC::MakeStride(3, 6),
                          AscendC::MakeStride(1, 24)));
  EXPECT_EQ(layout(AscendC::MakeCoord(11, 12)), 129u);
}

// The page's constant examples: every input a Std::Int, so the index is a
// constant (590 and 192).
TEST(Crd2Idx, PageConstantExamples) {
  constexpr int M = 11, N = 12, blockM = 13, blockN = 14;
  auto coord = AscendC::MakeCoord(Std::Int<20>{}, Std::Int<30>{});
  auto shape = AscendC::MakeShape(
      AscendC::MakeShape(Std::Int<blockM>{}, Std::Int<M / blockM>{}),
      AscendC::MakeShape(Std::Int<blockN>{}, Std::Int<N / blockN>{}));
  auto stride = AscendC::MakeStride(
      AscendC::MakeStride(Std::Int<blockN>{}, Std::Int<blockM * blockN>{}),
      AscendC::MakeStride(Std::Int<1>{}, Std::Int<M * blockN>{}));
  auto layout = AscendC::MakeLayout(shape, stride);
  auto index = layout(coord);
  static_assert(decltype(index)::value == 590);
  static_assert(decltype(AscendC::Crd2Idx(coord, layout))::value == 590);
  // 20 = 7 + 1 * 13 and 30 = 2 + 2 * 14: 7*14 + 1*182 + 2*1 + 2*154.
  EXPECT_EQ(size_t{index}, 7u * 14 + 1 * 182 + 2 * 1 + 2 * 154);

  auto m = Std::Int<13>{};
  auto n = Std::Int<14>{};
  auto sm = Std::Int<15>{};
  auto sn = Std::Int<16>{};
  auto coord2 = AscendC::MakeCoord(Std::Int<0>{}, Std::Int<12>{});
  auto index2 = AscendC::Crd2Idx(
      coord2,
      AscendC::MakeShape(AscendC::MakeShape(m, m), AscendC::MakeShape(n, n)),
      AscendC::MakeStride(AscendC::MakeStride(sm, sm),
                          AscendC::MakeStride(sn, sn)));
  static_assert(decltype(index2)::value == 192);
  // A run-time coordinate gives a run-time index of the same value.
  EXPECT_EQ(AscendC::Crd2Idx(AscendC::MakeCoord(size_t{0}, size_t{12}),
                             AscendC::MakeShape(AscendC::MakeShape(m, m),
                                                AscendC::MakeShape(n, n)),
                             AscendC::MakeStride(AscendC::MakeStride(sm, sm),
                                                 AscendC::MakeStride(sn, sn))),
            192u);
}

TEST(Crd2Idx, AModeOfSizeZeroBeforeTheLastCannotSplit) {
  auto layout =
      AscendC::MakeLayout(AscendC::MakeShape(0, 4), AscendC::MakeStride(1, 8));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Crd2Idx(5, layout); },
      "Crd2Idx: shape mode 0 has size 0; a mode before the last one must "
      "have a size to split an integer coordinate"));
}

// ---- TensorTrait
// --------------------------------------------------------------

TEST(TensorTrait, PageExample) {
  auto layout = AscendC::MakeLayout(AscendC::MakeShape(10, 20, 30),
                                    AscendC::MakeStride(1, 100, 200));
  auto made = AscendC::MakeTensorTrait<float, TPosition::VECIN>(layout);
  EXPECT_EQ(Std::get<0>(made.GetLayout().GetShape()), 10);
  EXPECT_EQ(Std::get<2>(made.GetLayout().GetShape()), 30);
  EXPECT_EQ(Std::get<1>(made.GetLayout().GetStride()), 100);
  static_assert(decltype(made)::tPos == TPosition::VECIN);
  static_assert(std::is_same_v<decltype(made)::LiteType, float>);
  static_assert(
      std::is_same_v<decltype(made)::LiteLayoutType, decltype(layout)>);

  using Trait = AscendC::TensorTrait<float, TPosition::GM, decltype(layout)>;
  Trait init(layout);
  EXPECT_EQ(Std::get<1>(init.GetShape()), 20);
  EXPECT_EQ(Std::get<2>(init.GetStride()), 200);
  Trait set;
  EXPECT_EQ(Std::get<0>(set.GetShape()), 0);
  set.SetLayout(layout);
  EXPECT_EQ(Std::get<0>(set.GetLayout().GetShape()), 10);
  EXPECT_EQ(Std::get<0>(set.GetLayout().GetStride()), 1);
  // The default trait: position GM, an empty layout.
  using Plain = AscendC::TensorTrait<half>;
  static_assert(Plain::tPos == TPosition::GM);
  static_assert(std::tuple_size_v<
                    std::decay_t<decltype(std::declval<Plain>().GetShape())>> ==
                0);
}

TEST(TensorTrait, IsTensorTraitAndPrimT) {
  auto shape = AscendC::MakeShape(10, 20, 30);
  auto layout = AscendC::MakeLayout(shape, AscendC::MakeStride(1, 100, 200));
  auto trait = AscendC::MakeTensorTrait<float, TPosition::VECIN>(layout);
  EXPECT_FALSE(AscendC::is_tensorTrait<decltype(shape)>::value);
  EXPECT_FALSE(AscendC::is_tensorTrait<decltype(layout)>::value);
  EXPECT_TRUE(AscendC::is_tensorTrait<decltype(trait)>::value);
  static_assert(std::is_same_v<AscendC::PrimT<decltype(trait)>, float>);
  static_assert(std::is_same_v<AscendC::PrimT<int16_t>, int16_t>);
}

// ---- operator() -------------------------------------------------------------

// The page's example: 100 everywhere, (2) = 200, then read back.
TEST(LocalTensorCall, AssignsAndReadsOneElement) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<int16_t> t = buf.Get<int16_t>();
  for (uint32_t i = 0; i < t.GetSize(); ++i) t.SetValue(i, 100);
  t(2) = 200;
  EXPECT_EQ(t.GetValue(2), 200);
  EXPECT_EQ(t.GetValue(1), 100);
  EXPECT_EQ(t.GetValue(3), 100);
  int16_t x = t(2);
  EXPECT_EQ(x, 200);
  EXPECT_TRUE(FailsWith([&] { t(32); },
                        "LocalTensor<int16_t>::operator(): index 32 is past "
                        "the end of a tensor of 32 elements"));
}

TEST(GlobalTensorCall, AssignsAndReadsOneElement) {
  std::vector<float> gm = {1.5f, 2.5f, 3.5f, 4.5f};
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(gm.data(), gm.size());
  EXPECT_EQ(g(1), 2.5f);
  g(3) = -7.0f;
  EXPECT_EQ(gm[3], -7.0f);
  EXPECT_EQ(g[1](1), 3.5f);
  EXPECT_TRUE(FailsWith([&] { g(4); },
                        "GlobalTensor<float>::operator(): index 4 is past the "
                        "end of a tensor of 4 elements"));
}

// ---- GlobalTensor::ReinterpretCast
// --------------------------------------------

// The page's example: 16 int32 values 0..15 seen as 32 int16 values
// 0 0 1 0 2 0 ... (little-endian).
TEST(GlobalTensorReinterpretCast, PageExample) {
  std::vector<int32_t> gm(16);
  for (int32_t i = 0; i < 16; ++i) gm[i] = i;
  AscendC::GlobalTensor<int32_t> input;
  input.SetGlobalBuffer(gm.data(), gm.size());
  AscendC::GlobalTensor<int16_t> cast =
      input.template ReinterpretCast<int16_t>();
  EXPECT_EQ(cast.GetSize(), 32u);
  EXPECT_EQ(static_cast<void*>(cast.GetPhyAddr()),
            static_cast<void*>(input.GetPhyAddr()));
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(cast.GetValue(i), i % 2 == 0 ? static_cast<int16_t>(i / 2) : 0)
        << i;
  }
  // Back again: the same 16 values.
  AscendC::GlobalTensor<int32_t> back = cast.ReinterpretCast<int32_t>();
  EXPECT_EQ(back.GetSize(), 16u);
  EXPECT_EQ(back.GetValue(15), 15);
}

TEST(GlobalTensorReinterpretCast, PartialElementsRoundDownWithAWarning) {
  std::vector<uint8_t> gm(7, 0);
  AscendC::GlobalTensor<uint8_t> bytes;
  bytes.SetGlobalBuffer(gm.data(), gm.size());
  testing::internal::CaptureStderr();
  AscendC::GlobalTensor<uint32_t> words = bytes.ReinterpretCast<uint32_t>();
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(words.GetSize(), 1u);
  EXPECT_NE(err.find("GlobalTensor<uint8_t>::ReinterpretCast<uint32_t>: 7 "
                     "bytes are not a whole number of uint32_t elements; the "
                     "size is rounded down to 1"),
            std::string::npos)
      << err;
  EXPECT_TRUE(FailsWith([&] { words.GetValue(1); },
                        "GlobalTensor<uint32_t>::GetValue: index 1 is past"));
}

// ---- TensorDesc::GetDataObj
// ---------------------------------------------------

TEST(TensorDesc, GetDataObjViewsTheDataPointer) {
  std::vector<float> x(4), y = {0.25f, 0.5f, 0.75f};
  // A list of two one-dimensional tensors (ListTensorDesc's layout: the
  // pointers' offset, each tensor's dim | index << 32 and shape, pointers).
  const uint64_t words[] = {(1 + 2 * 2) * 8,
                            1,
                            4,
                            1 | (uint64_t{1} << 32),
                            3,
                            reinterpret_cast<uintptr_t>(x.data()),
                            reinterpret_cast<uintptr_t>(y.data())};
  AscendC::ListTensorDesc list(const_cast<uint64_t*>(words), sizeof words, 2);
  uint64_t shape[1] = {};
  AscendC::TensorDesc<float> desc;
  desc.SetShapeAddr(shape);
  list.GetDesc(desc, 1);
  AscendC::GlobalTensor<float> g = desc.GetDataObj();
  EXPECT_EQ(g.GetPhyAddr(), y.data());
  EXPECT_EQ(g.GetValue(2), 0.75f);
  g.SetValue(0, 8.0f);
  EXPECT_EQ(y[0], 8.0f);
}

}  // namespace

// structures_test.cc — the data structures' long tail (docs/runtime.md,
// "Layout, Coordinate and TensorTrait" and "Memory and queues"), each from its
// page: Layout, Shape, Stride, Coord, Crd2Idx, is_layout; TensorTrait,
// MakeTensorTrait, is_tensorTrait; LocalTensor and GlobalTensor operator();
// GlobalTensor::ReinterpretCast; TensorDesc::GetDataObj; TPipe's
// DestroyWithoutPipeAll and GetBaseAddr, TQueBind::FreeAllEvent; the SPM
// buffer; a custom TBufPool (EXTERN_IMPL_BUFPOOL, InitStartBufHandle,
// InitBufHandle); SetSysWorkSpace.
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

// ---- TPipe and TQueBind members
// ------------------------------------------------

// DestroyWithoutPipeAll ends the pipe as Destroy does, and names itself.
TEST(TPipeMembers, DestroyWithoutPipeAllReleasesTheBuffers) {
  TPipe pipe;
  AscendC::TQue<TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 2, 128);
  LocalTensor<float> t = que.AllocTensor<float>();
  pipe.DestroyWithoutPipeAll();
  EXPECT_TRUE(
      FailsWith([&] { t.GetValue(0); }, "TPipe::DestroyWithoutPipeAll"));
  // The core is free for another pipe (or this one after Init).
  TPipe second;
  TBuf<TPosition::VECCALC> buf;
  EXPECT_TRUE(second.InitBuffer(buf, 64));
}

TEST(TPipeMembers, GetBaseAddrIsTheUnifiedBuffersStart) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 100);
  pipe.InitBuffer(b, 64);
  // b is carved after a's 100 bytes rounded up to 32: offset 128.
  uint8_t* base = pipe.GetBaseAddr(static_cast<int8_t>(TPosition::VECIN));
  EXPECT_EQ(b.Get<uint8_t>().GetPhyAddr() - base, 128);
  EXPECT_EQ(AscendC::GetTPipePtr()->GetBaseAddr(
                static_cast<int8_t>(TPosition::VECCALC)),
            base);
  EXPECT_TRUE(
      FailsWith([&] { pipe.GetBaseAddr(static_cast<int8_t>(TPosition::A1)); },
                "TPipe::GetBaseAddr: logicPos 1 (A1) has no emulated memory"));
  EXPECT_TRUE(FailsWith([&] { pipe.GetBaseAddr(40); },
                        "TPipe::GetBaseAddr: logicPos 40 is not a TPosition"));
}

// The page's example: after FreeAllEvent the queue is used as before.
TEST(TQueBindMembers, FreeAllEventKeepsTheQueueUsable) {
  TPipe pipe;
  AscendC::TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
  pipe.InitBuffer(que, 4, 1024);
  LocalTensor<half> t = que.AllocTensor<half>();
  que.EnQue(t);
  t = que.DeQue<half>();
  que.FreeTensor(t);
  que.FreeAllEvent();
  for (int i = 0; i < 4; ++i) que.AllocTensor<half>();
  EXPECT_FALSE(que.HasIdleBuffer());
}

// ---- SPM buffer
// ----------------------------------------------------------------

// The page's DataCopyParams example {2, 2, 1, 1} at offset 32: two blocks of
// 64 bytes, a 32-byte gap after each in the UB and in the SPM.
TEST(SpmBuffer, BlocksGoOutAndComeBackWithTheirGaps) {
  std::vector<uint8_t> workspace(1024, 0xEE);
  AscendC::GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(workspace.data(), workspace.size());
  TPipe pipe;
  pipe.InitSpmBuffer(gm, 512);
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<half> local = buf.Get<half>();
  for (uint32_t i = 0; i < 128; ++i) local.SetValue(i, half(float(i)));
  AscendC::DataCopyParams params{2, 2, 1, 1};
  pipe.WriteSpmBuffer(local, params, 32);
  // SPM bytes 32..95 are UB bytes 0..63; SPM 128..191 are UB 96..159.
  const auto* ub = reinterpret_cast<const uint8_t*>(local.GetPhyAddr());
  for (uint32_t k = 0; k < 256; ++k) {
    uint8_t want = 0xEE;
    if (k >= 32 && k < 96) want = ub[k - 32];
    if (k >= 128 && k < 192) want = ub[k - 128 + 96];
    EXPECT_EQ(workspace[k], want) << k;
  }
  for (uint32_t i = 0; i < 128; ++i) local.SetValue(i, half(-1.0f));
  pipe.ReadSpmBuffer(local, params, 32);
  for (uint32_t i = 0; i < 128; ++i) {
    const bool copied = i < 32 || (i >= 48 && i < 80);
    EXPECT_EQ(float(local.GetValue(i)), copied ? float(i) : -1.0f) << i;
  }
}

TEST(SpmBuffer, ContiguousElementsAtAByteOffset) {
  std::vector<float> workspace(64, 0.0f);
  AscendC::GlobalTensor<float> gm;
  gm.SetGlobalBuffer(workspace.data(), workspace.size());
  TPipe pipe;
  pipe.InitSpmBuffer(gm, 64 * sizeof(float));
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 128);
  LocalTensor<float> local = buf.Get<float>();
  for (uint32_t i = 0; i < 32; ++i) local.SetValue(i, 0.5f * i);
  pipe.WriteSpmBuffer(local, 5, 32);
  for (uint32_t i = 0; i < 64; ++i) {
    EXPECT_EQ(workspace[i], i >= 8 && i < 13 ? 0.5f * (i - 8) : 0.0f) << i;
  }
  workspace[8] = 42.0f;
  pipe.ReadSpmBuffer(local[16], 3, 32);
  EXPECT_EQ(local.GetValue(16), 42.0f);
  EXPECT_EQ(local.GetValue(18), 1.0f);
  EXPECT_EQ(local.GetValue(19), 9.5f);
}

TEST(SpmBuffer, CopiesStayInsideTheBufferAndTheTensor) {
  std::vector<uint8_t> workspace(256);
  AscendC::GlobalTensor<uint8_t> gm;
  gm.SetGlobalBuffer(workspace.data(), workspace.size());
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 128);
  LocalTensor<int16_t> local = buf.Get<int16_t>();
  EXPECT_TRUE(FailsWith(
      [&] { pipe.WriteSpmBuffer(local, 4); },
      "TPipe::WriteSpmBuffer<int16_t>: the pipe has no SPM buffer (call "
      "InitSpmBuffer first)"));
  EXPECT_TRUE(FailsWith([&] { pipe.InitSpmBuffer(gm, 300); },
                        "TPipe::InitSpmBuffer: bufferSize 300 bytes is more "
                        "than workspace's 256 bytes"));
  EXPECT_TRUE(FailsWith([&] { pipe.InitSpmBuffer(gm, 0); },
                        "TPipe::InitSpmBuffer: bufferSize 0 is not positive"));
  pipe.InitSpmBuffer(gm, 128);
  EXPECT_TRUE(FailsWith([&] { pipe.WriteSpmBuffer(local, 64, 32); },
                        "TPipe::WriteSpmBuffer<int16_t>: writeSize 64 at "
                        "offset 32 runs past the SPM buffer of 128 bytes"));
  EXPECT_TRUE(FailsWith([&] { pipe.ReadSpmBuffer(local, 65); },
                        "TPipe::ReadSpmBuffer<int16_t>: readSize 65 is more "
                        "than readBuffer's 64 elements"));
  AscendC::DataCopyParams three{3, 1, 1, 0};
  EXPECT_TRUE(FailsWith([&] { pipe.WriteSpmBuffer(local, three); },
                        "TPipe::WriteSpmBuffer<int16_t>: the blocks span 160 "
                        "bytes of writeBuffer, which has 128"));
  AscendC::DataCopyParams none{0, 1, 0, 0};
  EXPECT_TRUE(FailsWith([&] { pipe.ReadSpmBuffer(local, none); },
                        "TPipe::ReadSpmBuffer<int16_t>: blockCount 0 is out "
                        "of range (1..4095)"));
  AscendC::DataCopyParams far{2, 1, 0, 3};
  EXPECT_TRUE(FailsWith([&] { pipe.WriteSpmBuffer(local, far, 32); },
                        "TPipe::WriteSpmBuffer<int16_t>: the blocks span SPM "
                        "bytes 32..191, past the SPM buffer of 128 bytes"));
  // The buffer ends with the pipe.
  pipe.Destroy();
  pipe.Init();
  TBuf<TPosition::VECCALC> again;
  pipe.InitBuffer(again, 64);
  EXPECT_TRUE(FailsWith([&] { pipe.WriteSpmBuffer(again.Get<int16_t>(), 4); },
                        "the pipe has no SPM buffer"));
}

// The L1 form exists only on the Atlas inference series (and training
// products) and moves whole 32-byte blocks there.
TEST(SpmBuffer, TheL1FormOnlyWhereThePageHasIt) {
  {
    compat_test::ProfileScope scope(normgrad_ascendc::Profile::kA2);
    TPipe pipe;
    EXPECT_TRUE(FailsWith([&] { pipe.InitSpmBuffer(1024); },
                          "TPipe::InitSpmBuffer(bufferSize): the SPM buffer "
                          "in L1 is not available on profile Atlas A2/A3"));
  }
  compat_test::ProfileScope scope(normgrad_ascendc::Profile::k310P);
  TPipe pipe;
  pipe.InitSpmBuffer(1024);
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  LocalTensor<int32_t> local = buf.Get<int32_t>();
  for (uint32_t i = 0; i < 16; ++i) local.SetValue(i, int32_t(i * 3));
  pipe.WriteSpmBuffer(local, 8, 64);
  for (uint32_t i = 0; i < 16; ++i) local.SetValue(i, -1);
  pipe.ReadSpmBuffer(local[8], 8, 64);
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(local.GetValue(i), i < 8 ? -1 : int32_t((i - 8) * 3)) << i;
  }
  EXPECT_TRUE(FailsWith([&] { pipe.WriteSpmBuffer(local, 4, 64); },
                        "TPipe::WriteSpmBuffer<int32_t>: writeSize 4 (16 "
                        "bytes) and offset 64 must be multiples of 32 bytes "
                        "for an SPM buffer in L1"));
}

// ---- A custom TBufPool (EXTERN_IMPL_BUFPOOL)
// --------------------------------------

// The page's MyBufPool: its InitBuffer functions place each queue's and
// TBuf's buffers one after another from the pool's current address, one
// buffer handle each.
class MyBufPool {
 public:
  MyBufPool() { Init(); }

  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    AscendC::TBufHandle handle = GetBufHandle(GetCurBufSize());
    que.InitStartBufHandle(handle, num, len);
    uint32_t addr = GetCurAddr();
    for (uint8_t i = 0; i < num; ++i) {
      que.InitBufHandle(this, i, handle, addr + i * len, len);
    }
    SetCurAddr(addr + num * len);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + num));
    return true;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    AscendC::TBufHandle handle = GetBufHandle(GetCurBufSize());
    buf.InitStartBufHandle(handle, 1, len);
    buf.InitBufHandle(this, 0, handle, GetCurAddr(), len);
    SetCurAddr(GetCurAddr() + len);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + 1));
    return true;
  }

  EXTERN_IMPL_BUFPOOL(MyBufPool, TPosition::VECCALC, 16);
};

TEST(CustomTBufPool, PlacesQueuesAndBuffersWhereItsInitBufferSays) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> before;
  pipe.InitBuffer(before, 64);  // the pool starts at UB offset 64
  AscendC::TQue<TPosition::VECIN, 1> que;
  TBuf<TPosition::VECIN> buf;
  MyBufPool pool;
  pipe.InitBufPool(pool, 1024 * 3);
  EXPECT_EQ(pool.GetCurAddr(), 0u);
  pool.InitBuffer(que, 2, 1024);
  pool.InitBuffer(buf, 1024);
  EXPECT_EQ(pool.GetCurAddr(), 3072u);
  EXPECT_EQ(pool.GetCurBufSize(), 3);
  uint8_t* base = pipe.GetBaseAddr(static_cast<int8_t>(TPosition::VECIN));
  LocalTensor<float> a = que.AllocTensor<float>();
  EXPECT_EQ(reinterpret_cast<uint8_t*>(a.GetPhyAddr()) - base, 64);
  EXPECT_EQ(a.GetSize(), 256u);
  LocalTensor<float> b = que.AllocTensor<float>();
  EXPECT_EQ(reinterpret_cast<uint8_t*>(b.GetPhyAddr()) - base, 64 + 1024);
  LocalTensor<float> c = buf.Get<float>();
  EXPECT_EQ(reinterpret_cast<uint8_t*>(c.GetPhyAddr()) - base, 64 + 2048);
  a.SetValue(3, 1.5f);
  que.EnQue(a);
  LocalTensor<float> d = que.DeQue<float>();
  EXPECT_EQ(d.GetValue(3), 1.5f);
  que.FreeTensor(d);
  // Reset ends the pool's tensors; Init sets its counters back.
  pool.Reset();
  EXPECT_TRUE(FailsWith([&] { c.GetValue(0); }, "TBufPool::Reset"));
  pool.Init();
  EXPECT_EQ(pool.GetCurAddr(), 0u);
  EXPECT_EQ(pool.GetCurBufSize(), 0);
}

TEST(CustomTBufPool, Errors) {
  TPipe pipe;
  MyBufPool pool;
  pipe.InitBufPool(pool, 2048);
  EXPECT_TRUE(FailsWith([&] { pool.GetBufHandle(16); },
                        "GetBufHandle: offset 16 is past the custom "
                        "TBufPool's 16 buffer handles (BUFID_SIZE)"));
  AscendC::TQue<TPosition::VECOUT, 1> que;
  AscendC::TBufHandle h = pool.GetBufHandle(0);
  EXPECT_TRUE(FailsWith([&] { que.InitBufHandle(&pool, 0, h, 0, 64); },
                        "InitBufHandle: TQue<VECOUT, 1> has no buffers yet "
                        "(call InitStartBufHandle first)"));
  que.InitStartBufHandle(h, 2, 1024);
  que.InitBufHandle(&pool, 0, h, 0, 1024);
  EXPECT_TRUE(FailsWith([&] { que.InitBufHandle(&pool, 1, h, 1056, 1024); },
                        "1024 bytes at curPoolAddr 1056 run past"));
  EXPECT_TRUE(FailsWith([&] { que.InitBufHandle(&pool, 1, h, 1000, 1024); },
                        "curPoolAddr 1000 is not a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith([&] { que.InitBufHandle(&pool, 2, h, 0, 1024); },
                        "index 2 is past its 2 buffers"));
  que.AllocTensor<half>();
  EXPECT_TRUE(FailsWith([&] { que.AllocTensor<half>(); },
                        "AllocTensor: buffer 1 has no memory (a custom "
                        "TBufPool gives each buffer memory with "
                        "InitBufHandle)"));
  TBuf<TPosition::VECCALC> buf;
  EXPECT_TRUE(FailsWith(
      [&] { buf.InitStartBufHandle(pool.GetBufHandle(4), 2, 64); },
      "InitStartBufHandle: TBuf<VECCALC>: num 2; a TBuf takes exactly 1 "
      "buffer"));
  buf.InitStartBufHandle(pool.GetBufHandle(4), 1, 64);
  EXPECT_TRUE(FailsWith([&] { buf.Get<float>(); },
                        "the buffer has no memory yet (a custom TBufPool "
                        "gives it with InitBufHandle)"));
}

// ---- SetSysWorkSpace
// -------------------------------------------------------------

// The page's spelling: the workspace argument is accepted as the system
// workspace (GetSysWorkSpacePtr keeps normgrad's); null is refused.
TEST(SetSysWorkSpace, AcceptsTheWorkspaceAndRefusesNull) {
  std::vector<uint8_t> workspace(1024);
  GM_ADDR before = AscendC::GetSysWorkSpacePtr();
  AscendC::SetSysWorkSpace(workspace.data());
  EXPECT_NE(AscendC::GetSysWorkSpacePtr(), nullptr);
  EXPECT_EQ(AscendC::GetSysWorkSpacePtr(), before);
  EXPECT_TRUE(FailsWith([&] { AscendC::SetSysWorkSpace(nullptr); },
                        "SetSysWorkspace: workspace is null"));
}

}  // namespace

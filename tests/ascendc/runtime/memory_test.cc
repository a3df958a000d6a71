// memory_test.cc — the UB's owners and the lifetimes of what they hand out
// (docs/runtime.md, "Memory and queues"), through kernel_operator.h: queue
// depth and the queue queries, TQueBind, TBuf::GetWithOffset, TBufPool
// (carved, shared, Reset), TPipe::Reset/Destroy/Init, tensors used after
// FreeTensor or after their pipe ended, LocalMemAllocator and the
// LocalTensor(pos, addr, len) constructor, Set/GetShapeInfo,
// GetUBSizeInBytes, ListTensorDesc.
//
// Extending: one TEST per behaviour; every error gets a FailsWith line with
// the message it must produce (the API, the value, the rule).
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::TQue;
using compat_test::FailsWith;

// ---- Queues -----------------------------------------------------------------

TEST(Queue, DepthLimitsEnQueInARowAndTheQueriesFollow) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 2> que;
  pipe.InitBuffer(que, 4, 256);
  EXPECT_TRUE(que.HasIdleBuffer());
  EXPECT_FALSE(que.HasTensorInQue());
  EXPECT_TRUE(que.VacantInQue());
  LocalTensor<float> a = que.AllocTensor<float>();
  LocalTensor<float> b = que.AllocTensor<float>();
  LocalTensor<float> c = que.AllocTensor<float>();
  LocalTensor<float> d = que.AllocTensor<float>();
  EXPECT_FALSE(que.HasIdleBuffer());
  que.EnQue(a);
  que.EnQue(b);
  EXPECT_EQ(que.GetTensorCountInQue(), 2);
  EXPECT_TRUE(que.HasTensorInQue());
  EXPECT_FALSE(que.VacantInQue());
  EXPECT_TRUE(FailsWith(
      [&] { que.EnQue(c); },
      "TQue<VECOUT, 2> #1::EnQue: the queue is full (2 queued, depth 2); "
      "DeQue one first"));
  que.FreeTensor(que.DeQue<float>());
  que.EnQue(c);
  EXPECT_EQ(que.GetTensorCountInQue(), 2);
  static_cast<void>(d);
}

TEST(Queue, DepthZeroIsNotLimited) {
  TPipe pipe;
  TQue<TPosition::VECIN, 0> que;
  pipe.InitBuffer(que, 3, 64);
  for (int i = 0; i < 3; ++i) que.EnQue(que.AllocTensor<float>());
  EXPECT_EQ(que.GetTensorCountInQue(), 3);
}

TEST(Queue, TQueBindLivesInItsUbPositionAndIsNamedSo) {
  TPipe pipe;
  AscendC::TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bind;
  pipe.InitBuffer(bind, 1, 64);
  LocalTensor<float> t = bind.AllocTensor<float>();
  EXPECT_EQ(t.GetPosition(), TPosition::VECIN);
  bind.EnQue(t);
  EXPECT_TRUE(FailsWith([&] { bind.AllocTensor<float>(); },
                        "TQueBind<VECIN, VECOUT, 1> #1::AllocTensor: no free "
                        "buffer"));
}

// ---- Lifetimes --------------------------------------------------------------

// TBuf's AllocTensor is its whole buffer, as Get; FreeTensor takes nothing
// back but still refuses a tensor whose pipe ended.
TEST(TBufAlloc, AllocTensorIsTheWholeBuffer) {
  AscendC::TBuf<TPosition::VECCALC> buf;
  LocalTensor<float> t;
  {
    TPipe pipe;
    pipe.InitBuffer(buf, 256);
    t = buf.AllocTensor<float>();
    EXPECT_EQ(t.GetSize(), 64u);
    EXPECT_EQ(t.GetPhyAddr(), buf.Get<float>().GetPhyAddr());
    buf.FreeTensor(t);
  }
  EXPECT_TRUE(FailsWith([&] { buf.FreeTensor(t); },
                        "TBuf::FreeTensor: the LocalTensor"));
}

TEST(Lifetime, ATensorAfterFreeTensorIsAnError) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 128);
  LocalTensor<float> t = que.AllocTensor<float>();
  t.SetValue(0, 1.0f);
  que.FreeTensor(t);
  const std::string rule =
      "(buffer 0 of TQue<VECIN, 1> #1) was released by FreeTensor; a tensor "
      "must not be used after its buffer is freed or its TPipe ends";
  EXPECT_TRUE(FailsWith([&] { t.GetValue(0); },
                        "LocalTensor<float>::GetValue: the LocalTensor at UB "
                        "offset 0 " +
                            rule));
  EXPECT_TRUE(
      FailsWith([&] { t.GetPhyAddr(); }, "LocalTensor<float>::GetPhyAddr"));
  std::vector<float> gm(32);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(gm.data(), 32);
  EXPECT_TRUE(FailsWith([&] { AscendC::DataCopy(g, t, 32); },
                        "DataCopy<float> UB->GM: the LocalTensor at UB "
                        "offset 0 " +
                            rule));
  // Vector instructions and the normalization APIs check it too.
  EXPECT_TRUE(FailsWith([&] { AscendC::Adds(t, t, 1.0f, 32); },
                        "Adds<float>: the LocalTensor at UB offset 0 " + rule));
  AscendC::LayerNormGradBetaTiling tiling{};
  EXPECT_TRUE(
      FailsWith([&] { AscendC::LayerNormGradBeta<float>(t, t, t, t, tiling); },
                "LayerNormGradBeta: the LocalTensor at UB offset 0 " + rule));
  // A view of it ends too; freeing it again is a double free.
  EXPECT_TRUE(
      FailsWith([&] { t[8].GetValue(0); }, "the LocalTensor at UB offset 32"));
  EXPECT_TRUE(FailsWith([&] { que.FreeTensor(t); },
                        "TQue<VECIN, 1> #1::FreeTensor: the buffer at UB "
                        "offset 0 is already free (freed twice?)"));
  // Once the buffer is allocated again, the old tensor is still ended.
  LocalTensor<float> again = que.AllocTensor<float>();
  EXPECT_TRUE(FailsWith([&] { que.EnQue(t); },
                        "TQue<VECIN, 1> #1::EnQue: the LocalTensor at UB "
                        "offset 0"));
  EXPECT_TRUE(FailsWith([&] { que.FreeTensor(t); },
                        "TQue<VECIN, 1> #1::FreeTensor: the LocalTensor at "
                        "UB offset 0"));
  again.SetValue(0, 2.0f);  // the new tensor is fine
  EXPECT_EQ(again.GetValue(0), 2.0f);
}

TEST(Lifetime, ATensorAfterTPipeDestroyIsAnErrorAndTheQueueMayBeReinitialized) {
  TPipe pipe;
  TQue<TPosition::VECOUT, 1> que;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(que, 1, 64);
  pipe.InitBuffer(buf, 64);
  LocalTensor<float> q = que.AllocTensor<float>();
  LocalTensor<float> b = buf.Get<float>();
  pipe.Destroy();
  EXPECT_TRUE(FailsWith([&] { q.SetValue(0, 1.0f); },
                        "LocalTensor<float>::SetValue: the LocalTensor at UB "
                        "offset 0 (buffer 0 of TQue<VECOUT, 1> #1) was "
                        "released by TPipe::Destroy"));
  EXPECT_TRUE(FailsWith([&] { b.GetValue(0); },
                        "(buffer 0 of TBuf<VECCALC> #2) was released by "
                        "TPipe::Destroy"));
  EXPECT_TRUE(FailsWith([&] { que.AllocTensor<float>(); },
                        "TQue<VECOUT, 1> #1::AllocTensor: the queue's buffers "
                        "ended with its TPipe (TPipe::Destroy)"));
  pipe.Init();
  pipe.InitBuffer(que, 1, 64);  // again, as the Reset page's loop does
  LocalTensor<float> fresh = que.AllocTensor<float>();
  fresh.SetValue(0, 3.0f);
  EXPECT_EQ(fresh.GetValue(0), 3.0f);
  EXPECT_EQ(pipe.used_bytes(), 64u);
}

TEST(Lifetime, ATensorAfterItsPipesDestructorIsAnError) {
  LocalTensor<float> kept;
  {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    kept = buf.Get<float>();
  }
  EXPECT_TRUE(FailsWith([&] { kept.GetValue(0); },
                        "was released by the end of its TPipe"));
}

// ---- TBuf, TBufPool ---------------------------------------------------------

TEST(TBufGet, GetWithOffset) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<int32_t> t = buf.GetWithOffset<int32_t>(128, 64);
  EXPECT_EQ(t.view().offset, 64u);
  EXPECT_EQ(t.GetSize(), 128u);
  EXPECT_TRUE(FailsWith([&] { buf.GetWithOffset<int32_t>(8, 48); },
                        "TBuf<VECCALC> #1::GetWithOffset<int32_t>: bufOffset "
                        "48 is not a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith([&] { buf.GetWithOffset<int32_t>(250, 64); },
                        "250 elements (1000 bytes) from byte 64 exceed the "
                        "buffer's 1024 bytes"));
}

TEST(BufPool, CarvedSharedAndReset) {
  TPipe pipe;
  AscendC::TBufPool<TPosition::VECCALC> pool0, pool1, pool2;
  TQue<TPosition::VECIN, 1> in0, in1, in2;
  TQue<TPosition::VECOUT, 1> out1;
  pipe.InitBufPool(pool0, 4096);
  EXPECT_EQ(pipe.used_bytes(), 4096u);
  pool0.InitBufPool(pool1, 2048);
  pool0.InitBuffer(in0, 1, 1024);
  pool0.InitBufPool(pool2, 2048, pool1);  // over pool1's memory
  pool1.InitBuffer(in1, 1, 1024);
  pool1.InitBuffer(out1, 1, 1024);
  LocalTensor<float> a = in0.AllocTensor<float>();
  LocalTensor<float> b = in1.AllocTensor<float>();
  LocalTensor<float> c = out1.AllocTensor<float>();
  EXPECT_EQ(a.view().offset, 2048u);
  EXPECT_EQ(b.view().offset, 0u);
  EXPECT_EQ(c.view().offset, 1024u);
  EXPECT_TRUE(FailsWith([&] { pool1.InitBuffer(in2, 1, 32); },
                        "TBufPool::InitBuffer: TQue<VECIN, 1> #7 requests 1 x "
                        "32 bytes, which exceeds TBufPool<VECCALC> #2: 0 of "
                        "2048 bytes left"));
  pool1.Reset();
  EXPECT_TRUE(
      FailsWith([&] { b.GetValue(0); }, "was released by TBufPool::Reset"));
  a.SetValue(0, 1.0f);  // pool0's own buffer stays
  TQue<TPosition::VECIN, 1> in3;
  pool2.InitBuffer(in3, 1, 1024);
  EXPECT_EQ(in3.AllocTensor<float>().view().offset, 0u);
}

// ---- Static tensors
// -----------------------------------------------------------

TEST(StaticTensors, LocalMemAllocatorAndTheAddressConstructor) {
  AscendC::LocalMemAllocator<AscendC::Hardware::UB> allocator;
  EXPECT_EQ(allocator.GetCurAddr(), 0u);
  LocalTensor<float> x = allocator.Alloc<float>(100);  // 400 -> 416 bytes
  LocalTensor<half> y = allocator.Alloc<TPosition::VECIN, half, 16>();
  EXPECT_EQ(x.view().offset, 0u);
  EXPECT_EQ(x.GetSize(), 100u);
  EXPECT_EQ(y.view().offset, 416u);
  EXPECT_EQ(y.GetPosition(), TPosition::VECIN);
  EXPECT_EQ(allocator.GetCurAddr(), 448u);
  const uint32_t ub = AscendC::GetUBSizeInBytes();
  EXPECT_EQ(ub, normgrad_ascendc::CurrentCore().ub_size());
  EXPECT_TRUE(
      FailsWith([&] { allocator.Alloc<float>(ub / 4); },
                "LocalMemAllocator::Alloc<float>: " + std::to_string(ub) +
                    " bytes at address 448 exceed the unified buffer"));
  LocalTensor<float> z(TPosition::VECCALC, 512, 8);
  z.SetValue(7, 5.0f);
  const LocalTensor<float> whole(TPosition::VECCALC, 0, 256);
  EXPECT_EQ(whole.GetValue(128 + 7), 5.0f);
  EXPECT_TRUE(FailsWith([] { LocalTensor<float>(TPosition::VECCALC, 16, 8); },
                        "LocalTensor<float>(pos, addr, tileSize): addr 16 is "
                        "not a multiple of 32 bytes"));
  TPipe pipe;
  EXPECT_TRUE(FailsWith([&] { allocator.Alloc<float>(8); },
                        "static allocation and a TPipe must not be mixed"));
}

TEST(ShapeInfoOnTensors, SetAndGet) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 256);
  LocalTensor<float> t = buf.Get<float>();
  EXPECT_EQ(t.GetShapeInfo().shapeDim, 0);
  const uint32_t shape[] = {4, 16};
  t.SetShapeInfo(AscendC::ShapeInfo(2, shape));
  const LocalTensor<float> copy = t;
  EXPECT_EQ(copy.GetShapeInfo().shapeDim, 2);
  EXPECT_EQ(copy.GetShapeInfo().shape[1], 16u);
  AscendC::GlobalTensor<float> g;
  g.SetShapeInfo(AscendC::ShapeInfo(2, shape, AscendC::DataFormat::NCHW));
  EXPECT_EQ(g.GetShapeInfo().dataFormat, AscendC::DataFormat::NCHW);
}

TEST(LocalTensorExtras, BufferLenAddrWithOffsetAndUserTag) {
  TPipe pipe;
  TQue<TPosition::VECIN, 1> que;
  pipe.InitBuffer(que, 1, 256);
  LocalTensor<float> t = que.AllocTensor<float>();
  LocalTensor<half> h;
  h.SetAddrWithOffset(t, 16);  // 16 floats = 64 bytes on
  EXPECT_EQ(h.view().offset, t.view().offset + 64);
  EXPECT_EQ(h.GetSize(), (256u - 64u) / 2);
  h.SetBufferLen(8);
  EXPECT_EQ(h.GetLength(), 16u);
  h.SetUserTag(7);
  const LocalTensor<half> copy = h;
  EXPECT_EQ(copy.GetUserTag(), 7);
  que.FreeTensor(t);
  EXPECT_TRUE(
      FailsWith([&] { copy.GetValue(0); }, "was released by FreeTensor"));
}

// ---- ListTensorDesc
// -----------------------------------------------------------

TEST(ListTensorDescLayout, TheGuidesTwoTensorExample) {
  std::vector<float> x(16), y(16);
  // ptrOffset, {dim 2 | index 0 << 32, 8, 2048}, {dim 2 | 1 << 32, 8, 2048},
  // then the two pointers.
  const uint64_t words[] = {(1 + 3 * 2) * 8,
                            2,
                            8,
                            2048,
                            2 | (uint64_t{1} << 32),
                            8,
                            2048,
                            reinterpret_cast<uintptr_t>(x.data()),
                            reinterpret_cast<uintptr_t>(y.data())};
  AscendC::ListTensorDesc list(const_cast<uint64_t*>(words), sizeof words, 2);
  EXPECT_EQ(list.GetSize(), 2u);
  EXPECT_EQ(list.GetDataPtr<float>(1), y.data());
  uint64_t shape[8] = {};
  AscendC::TensorDesc<float> desc;
  desc.SetShapeAddr(shape);
  list.GetDesc(desc, 1);
  EXPECT_EQ(desc.GetDim(), 2u);
  EXPECT_EQ(desc.GetIndex(), 1u);
  EXPECT_EQ(desc.GetShape(1), 2048u);
  EXPECT_EQ(desc.GetDataPtr(), y.data());
  EXPECT_TRUE(FailsWith([&] { list.GetDataPtr<float>(2); },
                        "ListTensorDesc::GetDataPtr: index 2 is past the list "
                        "of 2 tensors"));
}

}  // namespace

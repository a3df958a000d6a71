// data_copy_test.cc — GlobalTensor and DataCopy (docs/runtime.md) through
// kernel_operator.h: round trips GM → UB → UB → GM, every check with its
// message, and the truncate mode that mimics the device.
//
// Extending: one TEST per behaviour; a new check gets a FailsWith line with
// the message it must produce. Tests that change the DataCopy mode use
// ModeScope so the others keep the default.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using normgrad_ascendc::DataCopyMode;

// Sets the DataCopy mode for the scope's lifetime, then restores it.
class ModeScope {
 public:
  explicit ModeScope(DataCopyMode mode)
      : previous_(normgrad_ascendc::GetDataCopyMode()) {
    normgrad_ascendc::SetDataCopyMode(mode);
  }
  ~ModeScope() { normgrad_ascendc::SetDataCopyMode(previous_); }
  ModeScope(const ModeScope&) = delete;
  ModeScope& operator=(const ModeScope&) = delete;

 private:
  DataCopyMode previous_;
};

// A pipe with two UB buffers of 256 floats (1 KiB each).
struct Ub {
  Ub() {
    pipe.InitBuffer(a_buf, 1024);
    pipe.InitBuffer(b_buf, 1024);
    a = a_buf.Get<float>();
    b = b_buf.Get<float>();
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> a_buf;
  TBuf<TPosition::VECOUT> b_buf;
  LocalTensor<float> a, b;
};

std::vector<float> Iota(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) + 0.5f;
  return v;
}

// ---- GlobalTensor -----------------------------------------------------------

TEST(GlobalTensor, ViewSizeIndexAndValues) {
  std::vector<float> host = Iota(100);
  GlobalTensor<float> g;
  EXPECT_EQ(g.GetSize(), 0u);
  g.SetGlobalBuffer(host.data(), 100);
  EXPECT_EQ(g.GetSize(), 100u);
  EXPECT_EQ(g.GetPhyAddr(), host.data());
  EXPECT_EQ(g.GetValue(7), 7.5f);
  GlobalTensor<float> tail = g[90];
  EXPECT_EQ(tail.GetSize(), 10u);
  EXPECT_EQ(tail.GetValue(0), 90.5f);
  tail.SetValue(9, -1.0f);
  EXPECT_EQ(host[99], -1.0f);
  EXPECT_EQ(g[100].GetSize(), 0u);
}

TEST(GlobalTensor, IndexErrors) {
  std::vector<float> host(100);
  GlobalTensor<float> g;
  EXPECT_TRUE(FailsWith([&] { g.GetValue(0); },
                        "GlobalTensor<float>::GetValue: the tensor has no "
                        "buffer (call SetGlobalBuffer first)"));
  g.SetGlobalBuffer(host.data(), 100);
  EXPECT_TRUE(FailsWith([&] { g.GetValue(100); },
                        "GlobalTensor<float>::GetValue: index 100 is past the "
                        "end of a tensor of 100 elements"));
  EXPECT_TRUE(FailsWith([&] { g.SetValue(100, 1.0f); },
                        "GlobalTensor<float>::SetValue: index 100"));
  EXPECT_TRUE(FailsWith([&] { g[101]; },
                        "GlobalTensor<float>::operator[]: offset 101 is past "
                        "the end of a tensor of 100 elements"));
}

TEST(GlobalTensor, WithoutSizeNothingIsChecked) {
  std::vector<float> host = Iota(100);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(host.data());
  EXPECT_EQ(g.GetSize(), 0u);
  EXPECT_EQ(g[50].GetValue(49), 99.5f);
}

// ---- Round trips ------------------------------------------------------------

TEST(DataCopy, RoundTripGmUbUbGm) {
  Ub ub;
  std::vector<float> in = Iota(256);
  std::vector<float> out(256, 0.0f);
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(in.data(), 256);
  gout.SetGlobalBuffer(out.data(), 256);
  DataCopy(ub.a, gin, 256);
  DataCopy(ub.b, ub.a, 256);
  DataCopy(gout, ub.b, 256);
  EXPECT_EQ(out, in);
}

TEST(DataCopy, PartialCopiesAtOffsets) {
  Ub ub;
  std::vector<float> in = Iota(256);
  std::vector<float> out(256, 0.0f);
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(in.data(), 256);
  gout.SetGlobalBuffer(out.data(), 256);
  // 8 floats = 32 bytes: the smallest aligned copy; UB offset 8 floats.
  DataCopy(ub.a[8], gin[16], 8);
  DataCopy(gout[40], ub.a[8], 8);
  for (size_t i = 0; i < 256; ++i) {
    const float expected = i >= 40 && i < 48 ? in[i - 24] : 0.0f;
    ASSERT_EQ(out[i], expected) << i;
  }
}

TEST(DataCopy, HalfAndBytes) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 64);
  std::vector<half> in(16), out(16);
  for (int i = 0; i < 16; ++i) in[i] = half(static_cast<float>(i) * 0.25f);
  GlobalTensor<half> gin, gout;
  gin.SetGlobalBuffer(in.data(), 16);
  gout.SetGlobalBuffer(out.data(), 16);
  DataCopy(buf.Get<half>(), gin, 16);  // 16 halves = 32 bytes
  DataCopy(gout, buf.Get<half>(), 16);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(float(out[i]), float(in[i])) << i;
}

TEST(DataCopy, UbToUbMayOverlap) {
  Ub ub;
  for (uint32_t i = 0; i < 32; ++i) ub.a.SetValue(i, static_cast<float>(i));
  DataCopy(ub.a[8], ub.a, 16);  // memmove semantics
  for (uint32_t i = 0; i < 16; ++i) {
    EXPECT_EQ(ub.a.GetValue(8 + i), static_cast<float>(i));
  }
}

// ---- Checks -----------------------------------------------------------------

TEST(DataCopy, CountNotAMultipleOf32BytesIsAnError) {
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 256);
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, g, 100); },
                        "DataCopy<float> GM->UB: count 100 (400 bytes) is not "
                        "a multiple of 32 bytes; the device would silently "
                        "drop the last 16 bytes (NORMGRAD_DATACOPY=truncate "
                        "mimics that)"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.a, 1); },
                        "DataCopy<float> UB->GM: count 1 (4 bytes)"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.b, ub.a, 7); },
                        "DataCopy<float> UB->UB: count 7 (28 bytes)"));
}

TEST(DataCopy, PastTheEndOfAGlobalTensorIsAnError) {
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 200);
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, g, 208); },
                        "DataCopy<float> GM->UB: count 208 exceeds the src "
                        "GlobalTensor of 200 elements"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(g[192], ub.a, 16); },
                        "DataCopy<float> UB->GM: count 16 exceeds the dst "
                        "GlobalTensor of 8 elements"));
}

TEST(DataCopy, PastTheEndOfALocalTensorIsAnError) {
  Ub ub;
  std::vector<float> in = Iota(512);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 512);
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, g, 264); },
                        "DataCopy<float> GM->UB: count 264 exceeds the dst "
                        "LocalTensor of 256 elements"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.a[128], 136); },
                        "DataCopy<float> UB->GM: count 136 exceeds the src "
                        "LocalTensor of 128 elements"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.b[248], ub.a, 16); },
                        "DataCopy<float> UB->UB: count 16 exceeds the dst "
                        "LocalTensor of 8 elements"));
}

TEST(DataCopy, UnalignedUbAddressIsAnError) {
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 256);
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a[1], g, 8); },
                        "DataCopy<float> GM->UB: dst LocalTensor starts at UB "
                        "offset 4, which is not 32-byte aligned"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.b[3], 8); },
                        "DataCopy<float> UB->GM: src LocalTensor starts at UB "
                        "offset 1036, which is not 32-byte aligned"));
}

TEST(DataCopy, EmptyTensorsAreErrors) {
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g, unset;
  g.SetGlobalBuffer(in.data(), 256);
  LocalTensor<float> empty;
  EXPECT_TRUE(FailsWith([&] { DataCopy(empty, g, 8); },
                        "DataCopy<float> GM->UB: dst LocalTensor is empty"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, unset, 8); },
                        "DataCopy<float> GM->UB: src GlobalTensor has no "
                        "buffer (call SetGlobalBuffer first)"));
}

TEST(DataCopy, GlobalTensorWithoutSizeIsNotRangeChecked) {
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data());
  DataCopy(ub.a, g, 256);
  EXPECT_EQ(ub.a.GetValue(255), 255.5f);
}

// ---- Truncate mode ----------------------------------------------------------

TEST(DataCopyTruncate, RoundsTheCountDownLikeTheDevice) {
  const ModeScope mode(DataCopyMode::kTruncate);
  Ub ub;
  std::vector<float> in = Iota(256);
  std::vector<float> out(256, -7.0f);
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(in.data(), 256);
  gout.SetGlobalBuffer(out.data(), 256);
  DataCopy(ub.a, gin, 256);
  DataCopy(gout, ub.a, 21);  // 84 bytes → 64 bytes: 16 floats
  for (size_t i = 0; i < 256; ++i) {
    ASSERT_EQ(out[i], i < 16 ? in[i] : -7.0f) << i;
  }
  DataCopy(gout, ub.a, 7);  // 28 bytes → nothing
  EXPECT_EQ(out[16], -7.0f);
}

TEST(DataCopyTruncate, OutOfRangeIsStillAnError) {
  const ModeScope mode(DataCopyMode::kTruncate);
  Ub ub;
  std::vector<float> in = Iota(256);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(in.data(), 20);
  // 30 floats round down to 24, still more than the tensor's 20.
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.a, g, 30); },
                        "DataCopy<float> GM->UB: count 24 (30 rounded down to "
                        "24) exceeds the src GlobalTensor of 20 elements"));
  // 23 floats round down to 16, which fits: copied without a message.
  DataCopy(ub.a, g, 23);
  EXPECT_EQ(ub.a.GetValue(15), 15.5f);
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(ub.a[1], g, 8); }, "not 32-byte aligned"));
}

}  // namespace

// data_copy_long_test.cc — DataCopy of tile-sized lengths (docs/runtime.md):
// copies of 16 KiB and more take data_copy.cc's streamed path (four
// interleaved parts, then what they leave), so every length around that
// split, every direction, unaligned GM addresses and overlapping UB → UB
// copies are checked element by element, with the bytes after the copy
// untouched.
//
// Extending: a new copy path gets a TEST here that crosses its thresholds
// by 32-byte steps.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "kernel_operator.h"

namespace {

using AscendC::DataCopy;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

constexpr uint32_t kBufferFloats = 20 * 1024;  // 80 KiB each
constexpr float kUntouched = -7.0f;

// Float counts from 16 KiB − 64 bytes to 16 KiB + 1 KiB by 32 bytes, then
// tile sizes with and without a remainder after four parts of 64 bytes.
std::vector<uint32_t> Counts() {
  std::vector<uint32_t> counts;
  for (uint32_t bytes = 16 * 1024 - 64; bytes <= 17 * 1024; bytes += 32) {
    counts.push_back(bytes / 4);
  }
  for (uint32_t bytes : {40 * 1024, 40 * 1024 + 224, 80 * 1024})
    counts.push_back(bytes / 4);
  return counts;
}

float Value(size_t i) { return static_cast<float>(i % 100003) + 0.25f; }

// A pipe with two UB buffers of kBufferFloats floats.
struct Ub {
  Ub() {
    pipe.InitBuffer(a_buf, kBufferFloats * 4);
    pipe.InitBuffer(b_buf, kBufferFloats * 4);
    a = a_buf.Get<float>();
    b = b_buf.Get<float>();
  }
  void Fill(LocalTensor<float>& t, float value) {
    for (uint32_t i = 0; i < kBufferFloats; ++i) t.SetValue(i, value);
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> a_buf;
  TBuf<TPosition::VECOUT> b_buf;
  LocalTensor<float> a, b;
};

TEST(DataCopyLong, EveryLengthAroundTheSplitInEveryDirection) {
  Ub ub;
  // The GM view starts one float into its vector: not 32-byte aligned.
  std::vector<float> in(kBufferFloats + 1), out(kBufferFloats + 1);
  for (size_t i = 0; i < in.size(); ++i) in[i] = Value(i);
  GlobalTensor<float> gin, gout;
  gin.SetGlobalBuffer(in.data() + 1, kBufferFloats);
  gout.SetGlobalBuffer(out.data() + 1, kBufferFloats);
  for (uint32_t count : Counts()) {
    SCOPED_TRACE(testing::Message() << "count " << count);
    ub.Fill(ub.a, kUntouched);
    ub.Fill(ub.b, kUntouched);
    out.assign(out.size(), kUntouched);
    DataCopy(ub.a, gin, count);
    DataCopy(ub.b, ub.a, count);
    DataCopy(gout, ub.b, count);
    for (uint32_t i = 0; i < count; ++i) {
      ASSERT_EQ(ub.a.GetValue(i), Value(i + 1)) << "GM->UB at " << i;
      ASSERT_EQ(ub.b.GetValue(i), Value(i + 1)) << "UB->UB at " << i;
      ASSERT_EQ(out[i + 1], Value(i + 1)) << "UB->GM at " << i;
    }
    if (count < kBufferFloats) {
      EXPECT_EQ(ub.a.GetValue(count), kUntouched);
      EXPECT_EQ(ub.b.GetValue(count), kUntouched);
      EXPECT_EQ(out[count + 1], kUntouched);
    }
    EXPECT_EQ(out[0], kUntouched);
  }
}

TEST(DataCopyLong, OverlappingUbToUbCopiesMoveLikeMemmove) {
  Ub ub;
  const uint32_t count = 16 * 1024;  // 64 KiB
  for (uint32_t shift : {8u, 64u, 4096u}) {
    SCOPED_TRACE(testing::Message() << "shift " << shift);
    for (uint32_t i = 0; i < kBufferFloats; ++i) ub.a.SetValue(i, Value(i));
    DataCopy(ub.a[shift], ub.a, count);  // forwards: destination after source
    for (uint32_t i = 0; i < count; ++i)
      ASSERT_EQ(ub.a.GetValue(shift + i), Value(i)) << i;
    for (uint32_t i = 0; i < kBufferFloats; ++i) ub.a.SetValue(i, Value(i));
    DataCopy(ub.a, ub.a[shift], count);  // backwards: destination before source
    for (uint32_t i = 0; i < count; ++i)
      ASSERT_EQ(ub.a.GetValue(i), Value(shift + i)) << i;
  }
}

TEST(DataCopyLong, HalfTilesFromOddGmAddresses) {
  TPipe pipe;
  TBuf<TPosition::VECIN> buf;
  pipe.InitBuffer(buf, 48 * 1024);
  LocalTensor<half> local = buf.Get<half>();
  const uint32_t count = 20 * 1024 + 16;  // 40 KiB + 32 bytes
  std::vector<half> in(count + 3);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 2048);
  GlobalTensor<half> gin;
  gin.SetGlobalBuffer(in.data() + 3, count);  // 6 bytes in: not 32-byte aligned
  DataCopy(local, gin, count);
  for (uint32_t i = 0; i < count; ++i) {
    ASSERT_EQ(static_cast<float>(local.GetValue(i)),
              static_cast<float>((i + 3) % 2048))
        << i;
  }
}

}  // namespace

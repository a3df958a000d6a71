// acl_test.cc — the ACL runtime subset normgrad provides (acl/acl.h): error
// code and enum values, session rules (aclInit optional, repeat aclInit,
// aclFinalize without a session), devices,
// contexts and streams, and the checked memory calls — aclrtMemcpy bounds
// (count > destMax, ranges past the end of a block, the sides a kind needs),
// double frees, unknown and interior pointers, freed blocks readable until
// aclFinalize, aclrtMemset — each error with its code and its message.
// To extend: one TEST_F per rule in AclTest (a session is open in each);
// assert the code, that nothing changed, and the message's key words.
#include "acl/acl.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace {

// Runs `call` and returns what it printed on stderr.
template <typename Call>
std::string StderrOf(Call call) {
  testing::internal::CaptureStderr();
  call();
  return testing::internal::GetCapturedStderr();
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// Every test runs in its own ACL session.
class AclTest : public testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS); }
  void TearDown() override { ASSERT_EQ(aclFinalize(), ACL_SUCCESS); }

  void* Device(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    return p;
  }
  void* Host(size_t size) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMallocHost(&p, size), ACL_SUCCESS);
    return p;
  }
};

TEST(AclConstants, ErrorCodesAndEnumsHaveTheDocumentedValues) {
  EXPECT_EQ(ACL_SUCCESS, 0);
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, 100000);
  EXPECT_EQ(ACL_ERROR_UNINITIALIZE, 100001);
  EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
  EXPECT_EQ(ACL_ERROR_BAD_ALLOC, 200000);
  EXPECT_EQ(ACL_ERROR_API_NOT_SUPPORT, 200001);
  EXPECT_EQ(ACL_ERROR_INVALID_DEVICE, 200002);
  EXPECT_EQ(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED, 200003);
  EXPECT_EQ(ACL_ERROR_STORAGE_OVER_LIMIT, 300000);
  EXPECT_EQ(ACL_ERROR_INTERNAL_ERROR, 500000);
  EXPECT_EQ(ACL_ERROR_FAILURE, 500001);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
  EXPECT_EQ(ACL_MEM_MALLOC_HUGE_ONLY, 1);
  EXPECT_EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
  EXPECT_EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
  EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
  EXPECT_EQ(ACL_MEMCPY_DEFAULT, 4);
  static_assert(std::is_same<aclError, int>::value, "aclError is int");
  static_assert(std::is_same<aclrtStream, void*>::value, "void*");
  static_assert(std::is_same<aclrtContext, void*>::value, "void*");
}

TEST(AclSession, CallsWithoutAclInitOpenTheSession) {
  // A program that never calls aclInit: set the device, allocate, copy,
  // free, and finalize (or not).
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_NE(p, nullptr);
  const std::array<uint8_t, 64> in{1, 2, 3};
  std::array<uint8_t, 64> out{};
  EXPECT_EQ(aclrtMemcpy(p, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(out.data(), 64, p, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(out, in);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  // After aclFinalize the next call opens a new session.
  void* q = nullptr;
  EXPECT_EQ(aclrtMalloc(&q, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(q), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclSession, AclInitAfterFirstCallsKeepsTheirSession) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(p, 64, 7, 64), ACL_SUCCESS);  // still a known block
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST(AclSession, FinalizeWithoutARunningSessionIsUninitialized) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  const std::string err =
      StderrOf([] { EXPECT_EQ(aclFinalize(), ACL_ERROR_UNINITIALIZE); });
  EXPECT_TRUE(Contains(err, "aclFinalize")) << err;
  EXPECT_TRUE(Contains(err, "no ACL session is running")) << err;
}

TEST(AclSession, RepeatInitIsAnErrorAndANewSessionMayFollowFinalize) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  const std::string err = StderrOf(
      [] { EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE); });
  EXPECT_TRUE(Contains(err, "aclInit")) << err;
  EXPECT_TRUE(Contains(err, "already initialized")) << err;
  ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit("unused.json"), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

TEST_F(AclTest, OneDeviceContextsAndStreams) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  std::string err =
      StderrOf([] { EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_INVALID_DEVICE); });
  EXPECT_TRUE(Contains(err, "deviceId 1")) << err;

  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  EXPECT_NE(context, nullptr);
  aclrtStream stream = nullptr;
  aclrtStream other = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
  EXPECT_NE(stream, nullptr);
  EXPECT_NE(stream, other);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // default stream
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  err = StderrOf(
      [&] { EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "aclrtDestroyStream")) << err;
  err = StderrOf([&] {
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "unknown")) << err;
  EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  StderrOf([&] {
    EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST_F(AclTest, MemcpyRoundTripThroughDeviceMemory) {
  std::array<float, 16> in;
  for (size_t i = 0; i < in.size(); ++i) in[i] = 0.5f * static_cast<float>(i);
  std::array<float, 16> out{};
  void* dev = Device(sizeof(in));
  void* dev2 = Device(sizeof(in));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(dev) % 32, 0u);
  EXPECT_EQ(aclrtMemcpy(dev, sizeof(in), in.data(), sizeof(in),
                        ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(dev2, sizeof(in), dev, sizeof(in),
                        ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(out.data(), sizeof(out), dev2, sizeof(in),
                        ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(out, in);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev2), ACL_SUCCESS);
}

TEST_F(AclTest, MemcpyCountGreaterThanDestMaxIsAnError) {
  std::array<uint8_t, 65> src;
  src.fill(1);
  std::array<uint8_t, 65> dst;
  dst.fill(0xCD);
  const std::string err = StderrOf([&] {
    EXPECT_EQ(
        aclrtMemcpy(dst.data(), 64, src.data(), 65, ACL_MEMCPY_HOST_TO_HOST),
        ACL_ERROR_INVALID_PARAM);
  });
  for (uint8_t b : dst) ASSERT_EQ(b, 0xCD);
  EXPECT_TRUE(Contains(err, "aclrtMemcpy")) << err;
  EXPECT_TRUE(Contains(err, "count 65")) << err;
  EXPECT_TRUE(Contains(err, "destMax 64")) << err;
  EXPECT_TRUE(Contains(err, "must not exceed")) << err;
  EXPECT_TRUE(Contains(err, "nothing copied")) << err;
}

TEST_F(AclTest, MemcpyPastTheEndOfADeviceBlockIsAnError) {
  std::array<uint8_t, 64> host;
  host.fill(7);
  auto* dev = static_cast<uint8_t*>(Device(64));
  ASSERT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_SUCCESS);
  // dst: destMax claims 64 bytes, but only 32 remain in the block.
  std::string err = StderrOf([&] {
    EXPECT_EQ(
        aclrtMemcpy(dev + 32, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
        ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "offset 32 of a 64-byte aclrtMalloc block")) << err;
  EXPECT_TRUE(Contains(err, "32 bytes past its end")) << err;
  for (int i = 0; i < 64; ++i) ASSERT_EQ(dev[i], 0) << i;
  // src: reading 65 bytes from a 64-byte block.
  std::array<uint8_t, 65> out;
  out.fill(0xCD);
  err = StderrOf([&] {
    EXPECT_EQ(
        aclrtMemcpy(out.data(), out.size(), dev, 65, ACL_MEMCPY_DEVICE_TO_HOST),
        ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "src")) << err;
  EXPECT_TRUE(Contains(err, "1 bytes past its end")) << err;
  for (uint8_t b : out) ASSERT_EQ(b, 0xCD);
  // Exactly to the end is fine.
  EXPECT_EQ(
      aclrtMemcpy(dev + 32, 32, host.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  EXPECT_EQ(dev[63], 7);
}

TEST_F(AclTest, MemcpyPastTheEndOfAHostBlockIsAnError) {
  auto* host = static_cast<uint8_t*>(Host(16));
  std::array<uint8_t, 32> src{};
  const std::string err = StderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(host, 32, src.data(), 32, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "16-byte aclrtMallocHost block")) << err;
}

TEST_F(AclTest, MemcpyKindMustMatchTheSides) {
  std::array<uint8_t, 16> host{};
  void* dev = Device(16);
  std::string err = StderrOf([&] {
    // Arguments swapped: the device pointer is passed as the source.
    EXPECT_EQ(aclrtMemcpy(host.data(), 16, dev, 16, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "ACL_MEMCPY_HOST_TO_DEVICE")) << err;
  EXPECT_TRUE(Contains(err, "dst")) << err;
  err = StderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(dev, 16, host.data(), 16, ACL_MEMCPY_HOST_TO_HOST),
              ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "device memory")) << err;
  // DEFAULT accepts both; pinned host memory is host memory.
  EXPECT_EQ(aclrtMemcpy(dev, 16, host.data(), 16, ACL_MEMCPY_DEFAULT),
            ACL_SUCCESS);
  void* pinned = Host(16);
  EXPECT_EQ(aclrtMemcpy(pinned, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  StderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(pinned, 16, dev, 16, static_cast<aclrtMemcpyKind>(9)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpy(nullptr, 16, dev, 16, ACL_MEMCPY_DEFAULT),
              ACL_ERROR_INVALID_PARAM);
  });
}

TEST_F(AclTest, DoubleFreeIsAnErrorNotACrash) {
  void* dev = Device(128);
  void* host = Host(128);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  std::string err =
      StderrOf([&] { EXPECT_EQ(aclrtFree(dev), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "aclrtFree:")) << err;
  EXPECT_TRUE(Contains(err, "double free")) << err;
  err = StderrOf(
      [&] { EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "aclrtFreeHost")) << err;
  EXPECT_TRUE(Contains(err, "double free")) << err;
}

TEST_F(AclTest, UnknownInteriorAndMismatchedPointersAreErrors) {
  int on_stack = 0;
  std::string err = StderrOf(
      [&] { EXPECT_EQ(aclrtFree(&on_stack), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "unknown")) << err;
  err = StderrOf(
      [&] { EXPECT_EQ(aclrtFreeHost(&on_stack), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "unknown")) << err;
  StderrOf([] { EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM); });

  auto* dev = static_cast<uint8_t*>(Device(64));
  err =
      StderrOf([&] { EXPECT_EQ(aclrtFree(dev + 8), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "8 bytes into a 64-byte aclrtMalloc block")) << err;
  err =
      StderrOf([&] { EXPECT_EQ(aclrtFreeHost(dev), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "release it with aclrtFree")) << err;
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);  // the refusals released nothing
}

TEST_F(AclTest, FreedBlocksStayReadableUntilFinalize) {
  auto* host = static_cast<uint32_t*>(Host(256 * sizeof(uint32_t)));
  for (uint32_t i = 0; i < 256; ++i) host[i] = i * 3;
  auto* dev = static_cast<uint8_t*>(Device(64));
  ASSERT_EQ(aclrtMemset(dev, 64, 0x5A, 64), ACL_SUCCESS);
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
  // New allocations do not reuse released blocks before aclFinalize.
  auto* fresh = static_cast<uint32_t*>(Host(256 * sizeof(uint32_t)));
  std::memset(fresh, 0xFF, 256 * sizeof(uint32_t));
  for (uint32_t i = 0; i < 256; ++i) ASSERT_EQ(host[i], i * 3) << i;
  // Copies may read a freed block, but not write it.
  std::array<uint8_t, 64> out{};
  EXPECT_EQ(aclrtMemcpy(out.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  for (uint8_t b : out) ASSERT_EQ(b, 0x5A);
  const std::string err = StderrOf([&] {
    EXPECT_EQ(aclrtMemcpy(dev, 64, out.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "already released")) << err;
}

TEST_F(AclTest, MemsetFillsAndChecksItsBounds) {
  auto* dev = static_cast<uint8_t*>(Device(32));
  EXPECT_EQ(aclrtMemset(dev, 32, 0x1AB, 32), ACL_SUCCESS);  // low byte
  for (int i = 0; i < 32; ++i) ASSERT_EQ(dev[i], 0xAB) << i;
  std::string err = StderrOf(
      [&] { EXPECT_EQ(aclrtMemset(dev, 16, 0, 17), ACL_ERROR_INVALID_PARAM); });
  EXPECT_TRUE(Contains(err, "aclrtMemset")) << err;
  EXPECT_TRUE(Contains(err, "count 17")) << err;
  EXPECT_TRUE(Contains(err, "maxCount 16")) << err;
  err = StderrOf([&] {
    EXPECT_EQ(aclrtMemset(dev + 16, 64, 0, 17), ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "past its end")) << err;
  for (int i = 0; i < 32; ++i) ASSERT_EQ(dev[i], 0xAB) << i;
  std::array<uint8_t, 8> host;
  EXPECT_EQ(aclrtMemset(host.data(), 8, 3, 8), ACL_SUCCESS);
  EXPECT_EQ(host[7], 3);
}

TEST_F(AclTest, AllocationArgumentsAreChecked) {
  void* p = nullptr;
  std::string err = StderrOf([&] {
    EXPECT_EQ(aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_TRUE(Contains(err, "size 0")) << err;
  StderrOf([&] {
    EXPECT_EQ(aclrtMalloc(nullptr, 8, ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMalloc(&p, 8, static_cast<aclrtMemMallocPolicy>(7)),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMallocHost(&p, 0), ACL_ERROR_INVALID_PARAM);
  });
  EXPECT_EQ(p, nullptr);
}

TEST_F(AclTest, ConcurrentAllocationsAndCopiesAreSafe) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([t, &failures] {
      for (int i = 0; i < 200; ++i) {
        void* dev = nullptr;
        uint64_t value = static_cast<uint64_t>(t) * 1000 + i;
        uint64_t back = 0;
        if (aclrtMalloc(&dev, 8, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMemcpy(dev, 8, &value, 8, ACL_MEMCPY_HOST_TO_DEVICE) !=
                ACL_SUCCESS ||
            aclrtMemcpy(&back, 8, dev, 8, ACL_MEMCPY_DEVICE_TO_HOST) !=
                ACL_SUCCESS ||
            back != value || aclrtFree(dev) != ACL_SUCCESS) {
          ++failures[t];
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int f : failures) EXPECT_EQ(f, 0);
}

}  // namespace

// gm_check_test.cc — kernels' global-memory accesses checked against the
// allocation they fall in (docs/runtime.md, "Global memory checks"): blocks
// from aclrtMalloc and GmAlloc, every access path (DataCopy both ways, the
// strided form, DataCopyPad, GlobalTensor::GetValue/SetValue without a size,
// the dcache-bypass accesses), released blocks, and host memory the registry
// does not know, which stays unchecked.
//
// Extending: one TEST per access path or rule; GlobalTensors are set up
// without a size (SetGlobalBuffer(p)) so that only the allocation check can
// catch the access.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
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

struct Ub {
  Ub() {
    pipe.InitBuffer(buf, 1024);
    t = buf.Get<float>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  LocalTensor<float> t;
};

// A device block of `bytes` from aclrtMalloc (no aclInit: the runtime opens
// its session itself), freed at the end of the test.
class DeviceBlock {
 public:
  explicit DeviceBlock(size_t bytes) {
    EXPECT_EQ(aclrtMalloc(&p_, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  ~DeviceBlock() {
    if (!released_) aclrtFree(p_);
  }
  DeviceBlock(const DeviceBlock&) = delete;
  DeviceBlock& operator=(const DeviceBlock&) = delete;
  float* floats() const { return static_cast<float*>(p_); }
  void Release() {
    EXPECT_EQ(aclrtFree(p_), ACL_SUCCESS);
    released_ = true;
  }

 private:
  void* p_ = nullptr;
  bool released_ = false;
};

GlobalTensor<float> Unsized(float* p) {
  GlobalTensor<float> g;
  g.SetGlobalBuffer(p);
  return g;
}

TEST(GmCheck, DataCopyPastAnAclrtMallocBlockIsAnError) {
  Ub ub;
  DeviceBlock block(100);  // 25 floats; checked up to 128 bytes (32 floats)
  GlobalTensor<float> g = Unsized(block.floats());
  DataCopy(g, ub.t, 32);  // the whole rounded block: fine
  DataCopy(ub.t, g, 32);
  const std::string message = "DataCopy<float> UB->GM: writes GM bytes [";
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.t, 40); }, message));
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.t, 40); },
                        "(160 bytes at offset 0), which run past the end of "
                        "the 100-byte aclrtMalloc block at"));
  EXPECT_TRUE(FailsWith([&] { DataCopy(ub.t, g[8], 32); },
                        "DataCopy<float> GM->UB: reads GM bytes"));
}

TEST(GmCheck, TheMessageNamesTheCallersLine) {
  Ub ub;
  DeviceBlock block(64);
  GlobalTensor<float> g = Unsized(block.floats());
  const auto copy = [&] { DataCopy(g, ub.t, 24); };
  const std::string site = std::string(__FILE__) + ":" +
                           std::to_string(__LINE__ - 2) + ": DataCopy<float>";
  EXPECT_TRUE(FailsWith(copy, site));
}

TEST(GmCheck, StridedAndPaddedCopiesAndScalars) {
  Ub ub;
  DeviceBlock block(256);  // 64 floats
  GlobalTensor<float> g = Unsized(block.floats());
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(g, ub.t, AscendC::DataCopyParams(3, 2, 0, 2)); },
                "DataCopy<float> UB->GM: writes GM bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::DataCopyPad(g[60], ub.t,
                             AscendC::DataCopyExtParams(1, 20, 0, 0, 0));
      },
      "DataCopyPad<float> UB->GM: writes GM bytes"));
  EXPECT_TRUE(FailsWith([&] { g.SetValue(64, 1.0f); },
                        "GlobalTensor<float>::SetValue: writes GM bytes"));
  EXPECT_TRUE(FailsWith([&] { g.GetValue(70); },
                        "GlobalTensor<float>::GetValue: reads GM bytes"));
  g.SetValue(63, 3.0f);
  EXPECT_EQ(AscendC::ReadGmByPassDCache(block.floats() + 63), 3.0f);
  // A raw address is judged by the block it is in: a released one.
  block.Release();
  EXPECT_EQ(AscendC::ReadGmByPassDCache(block.floats() + 63), 3.0f);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::WriteGmByPassDCache(block.floats() + 63, 2.0f); },
      "WriteGmByPassDCache<float>: writes GM at"));
}

TEST(GmCheck, GmAllocBlocksAreCheckedUntilGmFree) {
  Ub ub;
  float* p = static_cast<float*>(AscendC::GmAlloc(64 * sizeof(float)));
  GlobalTensor<float> g = Unsized(p);
  EXPECT_TRUE(FailsWith([&] { DataCopy(g[32], ub.t, 64); },
                        "the 256-byte GmAlloc block at"));
  AscendC::GmFree(p);
}

TEST(GmCheck, AReleasedBlockMayBeReadButNotWritten) {
  Ub ub;
  DeviceBlock block(128);
  GlobalTensor<float> g = Unsized(block.floats());
  DataCopy(g, ub.t, 32);
  block.Release();
  DataCopy(ub.t, g, 32);
  EXPECT_TRUE(FailsWith([&] { DataCopy(g, ub.t, 8); },
                        "that the program already released (aclrtFree); a "
                        "released block may be read but not written"));
}

// Accesses alternating between two blocks (a kernel's two inputs) are each
// judged by their own block, and a block released meanwhile is seen as
// released, whichever of the two was looked up last.
TEST(GmCheck, AlternatingBlocksAreEachCheckedAndTheirReleaseIsSeen) {
  Ub ub;
  DeviceBlock a(128), b(256);  // 32 and 64 floats
  GlobalTensor<float> ga = Unsized(a.floats()), gb = Unsized(b.floats());
  for (int i = 0; i < 3; ++i) {
    DataCopy(ub.t, ga, 32);
    DataCopy(ub.t, gb, 64);
  }
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(ub.t, ga, 40); },
                "which run past the end of the 128-byte aclrtMalloc block at"));
  DataCopy(ub.t, gb, 64);  // b looked up last, a the one before
  a.Release();
  EXPECT_TRUE(FailsWith([&] { DataCopy(ga, ub.t, 8); },
                        "that the program already released (aclrtFree)"));
  DataCopy(gb, ub.t, 64);
  EXPECT_TRUE(
      FailsWith([&] { DataCopy(gb, ub.t, 72); },
                "which run past the end of the 256-byte aclrtMalloc block at"));
}

TEST(GmCheck, HostMemoryTheRegistryDoesNotKnowIsNotChecked) {
  Ub ub;
  std::vector<float> host(64, 1.0f);
  GlobalTensor<float> g = Unsized(host.data());
  DataCopy(ub.t, g, 64);
  DataCopy(g, ub.t, 64);
  EXPECT_EQ(g.GetValue(63), 1.0f);
}

}  // namespace

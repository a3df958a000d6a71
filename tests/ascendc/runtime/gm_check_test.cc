// gm_check_test.cc — kernels' global-memory accesses checked against the
// allocation they fall in (docs/runtime.md, "Global memory checks"): blocks
// from aclrtMalloc and GmAlloc, every access path (DataCopy both ways, the
// strided form, DataCopyPad, GlobalTensor::GetValue/SetValue without a size,
// the dcache-bypass accesses), released blocks, and host memory the registry
// does not know, which stays unchecked.
//
// Also CheckLocalMemoryIA's UB exception registers (docs/checks.md): each
// access kind against a range, the range's ends, the four registers and
// their clearing, the message's call site, the argument rules and a
// block's fresh registers.
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

// ---- CheckLocalMemoryIA: the core's UB exception registers -----------------
//
// Tensors a and b of 256 floats each (a's 1024 bytes are 32 units of 32
// bytes), filled; `unit` is a's first unit (its UB offset / 32). Every test
// clears the four registers when it ends (they belong to the test thread's
// block outside a launch).

using normgrad_ascendc::IaKind;

class LocalMemoryIA : public ::testing::Test {
 protected:
  LocalMemoryIA() {
    pipe.InitBuffer(a_buf, 1024);
    pipe.InitBuffer(b_buf, 1024);
    a = a_buf.Get<float>();
    b = b_buf.Get<float>();
    unit =
        static_cast<uint32_t>(normgrad_ascendc::UbOffset(a.GetPhyAddr()) / 32);
    AscendC::Duplicate(a, 1.0f, 256);
    AscendC::Duplicate(b, 2.0f, 256);
    g = Unsized(gm.floats());
    DataCopy(g, b, 256);
  }
  ~LocalMemoryIA() override {
    for (uint32_t reg = 0; reg < 4; ++reg) {
      AscendC::CheckLocalMemoryIAParam clear;
      clear.enableBit = reg;
      AscendC::CheckLocalMemoryIA(clear);
    }
  }
  // Arms register `reg` over a's units (unit + from, unit + to] for the
  // kinds in `kinds` (IaKind bits).
  void Arm(uint32_t reg, uint32_t from, uint32_t to, uint8_t kinds) const {
    AscendC::CheckLocalMemoryIA(
        {reg, unit + from, unit + to,
         (kinds & normgrad_ascendc::kIaScalarRead) != 0,
         (kinds & normgrad_ascendc::kIaScalarWrite) != 0,
         (kinds & normgrad_ascendc::kIaVectorRead) != 0,
         (kinds & normgrad_ascendc::kIaVectorWrite) != 0,
         (kinds & normgrad_ascendc::kIaMteRead) != 0,
         (kinds & normgrad_ascendc::kIaMteWrite) != 0, true});
  }
  // a's UB bytes [first, last) in a message: "[96, 128)".
  std::string Bytes(uint64_t first, uint64_t last) const {
    const uint64_t base = uint64_t{unit} * 32;
    return "[" + std::to_string(base + first) + ", " +
           std::to_string(base + last) + ")";
  }

  TPipe pipe;
  TBuf<TPosition::VECCALC> a_buf, b_buf;
  LocalTensor<float> a, b;
  uint32_t unit = 0;
  DeviceBlock gm{1024};
  GlobalTensor<float> g;
};

// One access of each kind to a's bytes [32, 36) at least (a's unit + 1).
struct IaAccess {
  IaKind kind;
  const char* text;  ///< the message's start: "<api>: a <kind> (<field>)"
  void (*run)(const LocalTensor<float>& a, const LocalTensor<float>& b,
              const GlobalTensor<float>& g);
};

const IaAccess kIaAccesses[] = {
    {normgrad_ascendc::kIaScalarRead,
     "LocalTensor<float>::GetValue: a scalar read (isScalarRead)",
     [](const LocalTensor<float>& a, const LocalTensor<float>&,
        const GlobalTensor<float>&) { static_cast<void>(a.GetValue(8)); }},
    {normgrad_ascendc::kIaScalarWrite,
     "LocalTensor<float>::SetValue: a scalar write (isScalarWrite)",
     [](const LocalTensor<float>& a, const LocalTensor<float>&,
        const GlobalTensor<float>&) { a.SetValue(8, 3.0f); }},
    {normgrad_ascendc::kIaVectorRead,
     "Adds<float>: a vector read (isVectorRead)",
     [](const LocalTensor<float>& a, const LocalTensor<float>& b,
        const GlobalTensor<float>&) { AscendC::Adds(b, a, 1.0f, 256); }},
    {normgrad_ascendc::kIaVectorWrite,
     "Adds<float>: a vector write (isVectorWrite)",
     [](const LocalTensor<float>& a, const LocalTensor<float>& b,
        const GlobalTensor<float>&) { AscendC::Adds(a, b, 1.0f, 256); }},
    {normgrad_ascendc::kIaMteRead,
     "DataCopy<float> UB->GM: a MTE read (isMteRead)",
     [](const LocalTensor<float>& a, const LocalTensor<float>&,
        const GlobalTensor<float>& g) { DataCopy(g, a, 256); }},
    {normgrad_ascendc::kIaMteWrite,
     "DataCopy<float> GM->UB: a MTE write (isMteWrite)",
     [](const LocalTensor<float>& a, const LocalTensor<float>&,
        const GlobalTensor<float>& g) { DataCopy(a, g, 256); }},
};

TEST_F(LocalMemoryIA, EachKindStopsItsOwnAccessesOnly) {
  for (const IaAccess& armed : kIaAccesses) {
    Arm(0, 0, 1, armed.kind);
    for (const IaAccess& access : kIaAccesses) {
      SCOPED_TRACE(std::string(armed.text) + " armed; running " + access.text);
      if (access.kind != armed.kind) {
        access.run(a, b, g);
        continue;
      }
      // The access's bytes in the range (unit, unit + 1]: the unit after
      // the start, a's bytes [32, 64).
      EXPECT_TRUE(FailsWith(
          [&] { access.run(a, b, g); },
          std::string(access.text) + " of UB bytes " +
              (access.kind <= normgrad_ascendc::kIaScalarWrite
                   ? Bytes(32, 36)
                   : Bytes(32, 64)) +
              " falls in the range of CheckLocalMemoryIA's exception register "
              "0 (startAddr " +
              std::to_string(unit) + ", endAddr " + std::to_string(unit + 1) +
              ": UB bytes " + Bytes(32, 64) +
              "), armed for this kind of access"));
    }
  }
}

TEST_F(LocalMemoryIA, TheRangeLeavesOutItsStartUnitAndHoldsItsEndUnit) {
  Arm(2, 2, 4, normgrad_ascendc::kIaScalarRead);  // units 3 and 4 of a
  const auto read = [&](uint32_t i) {
    return [this, i] { static_cast<void>(a.GetValue(i)); };
  };
  for (uint32_t i : {0u, 16u, 23u, 40u, 255u}) {  // units 0, 2, 2, 5, 31
    EXPECT_NO_THROW(read(i)()) << "element " << i;
  }
  EXPECT_TRUE(FailsWith(read(24), "UB bytes " + Bytes(96, 100)));   // unit 3
  EXPECT_TRUE(FailsWith(read(39), "UB bytes " + Bytes(156, 160)));  // unit 4
  EXPECT_TRUE(FailsWith(read(24), "exception register 2 (startAddr " +
                                      std::to_string(unit + 2) + ", endAddr " +
                                      std::to_string(unit + 4)));
}

TEST_F(LocalMemoryIA, EveryRegisterChecksAndAClearedOneNoLonger) {
  for (uint32_t reg = 0; reg < 4; ++reg) {
    Arm(reg, 0, 32, normgrad_ascendc::kIaScalarWrite);
    EXPECT_TRUE(FailsWith([&] { a.SetValue(255, 1.0f); },
                          "exception register " + std::to_string(reg) + " "));
    AscendC::CheckLocalMemoryIA(
        {reg, unit, unit + 32, false, true, false, false, false, false, false});
    a.SetValue(255, 1.0f);
  }
  // An empty range (start = end) and a register armed for no kind check
  // nothing.
  Arm(1, 5, 5, normgrad_ascendc::kIaScalarWrite);
  Arm(3, 0, 32, 0);
  a.SetValue(0, 1.0f);
  a.SetValue(255, 1.0f);
}

TEST_F(LocalMemoryIA, TheMessageNamesTheCallersLine) {
  Arm(0, 0, 32, normgrad_ascendc::kIaVectorWrite);
  const auto write = [&] { AscendC::Adds(a, b, 1.0f, 64); };
  const std::string site = std::string(__FILE__) + ":" +
                           std::to_string(__LINE__ - 2) + ": Adds<float>: ";
  EXPECT_TRUE(FailsWith(write, site +
                                   "a vector write (isVectorWrite) of UB "
                                   "bytes " +
                                   Bytes(32, 256)));
}

TEST_F(LocalMemoryIA, BadArgumentsAreErrorsNamingTheRule) {
  const auto set = [](AscendC::CheckLocalMemoryIAParam p) {
    return [p] { AscendC::CheckLocalMemoryIA(p); };
  };
  EXPECT_TRUE(FailsWith(
      set({4, 0, 1, true, false, false, false, false, false, true}),
      "CheckLocalMemoryIA: checkParams.enableBit is 4; it names one of the "
      "exception registers 0 to 3"));
  EXPECT_TRUE(FailsWith(
      set({0, 65536, 65536, true, false, false, false, false, false, true}),
      "CheckLocalMemoryIA: checkParams.startAddr is 65536; it must be in [0, "
      "65535] (units of 32 bytes)"));
  EXPECT_TRUE(FailsWith(
      set({0, 0, 70000, true, false, false, false, false, false, true}),
      "CheckLocalMemoryIA: checkParams.endAddr is 70000; it must be in [0, "
      "65535]"));
  EXPECT_TRUE(FailsWith(
      set({1, 40, 8, true, false, false, false, false, false, true}),
      "CheckLocalMemoryIA: checkParams.startAddr 40 is greater than "
      "checkParams.endAddr 8; the range (startAddr, endAddr] needs startAddr "
      "<= endAddr"));
  const auto& profile = normgrad_ascendc::CurrentCore().profile();
  const uint32_t units = profile.ub_bytes / 32;
  set({0, 0, units, true, false, false, false, false, false, false})();
  EXPECT_TRUE(FailsWith(
      set({0, 0, units + 1, true, false, false, false, false, false, true}),
      "CheckLocalMemoryIA: checkParams.endAddr is " +
          std::to_string(units + 1) + " (UB byte " +
          std::to_string(uint64_t{units + 1} * 32) + "), past the " +
          std::to_string(profile.ub_bytes) +
          "-byte unified buffer of profile a2; it must be at most " +
          std::to_string(units)));
}

// The page gives the 950 no exception registers (a core without a TPipe
// takes the process profile).
TEST(LocalMemoryIAProfiles, TheAscend950HasNone) {
  compat_test::ProfileScope p950{normgrad_ascendc::Profile::k950};
  EXPECT_TRUE(FailsWith(
      [] {
        AscendC::CheckLocalMemoryIA(
            {0, 0, 1, true, false, false, false, false, false, true});
      },
      "CheckLocalMemoryIA: not available on profile 950 (Ascend 950"));
}

// A block arms register 0 over its tensor's units and ends without clearing
// it; a block writes its tensor.
__global__ __aicore__ void ArmOrWrite(GM_ADDR arm_flags) {
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  LocalTensor<float> t = buf.Get<float>();
  const auto unit =
      static_cast<uint32_t>(normgrad_ascendc::UbOffset(t.GetPhyAddr()) / 32);
  if (arm_flags[AscendC::GetBlockIdx()] != 0) {
    AscendC::CheckLocalMemoryIA(
        {0, unit, unit + 32, false, false, false, true, false, false, true});
  } else {
    AscendC::Duplicate(t, 1.0f, 256);
  }
}

TEST(LocalMemoryIABlocks, EachBlockStartsWithEveryRegisterClear) {
  using normgrad_ascendc::LaunchKernel;
  uint8_t arm[2] = {1, 0};
  uint8_t write[1] = {0};
  EXPECT_EQ(LaunchKernel("ArmOrWrite", 1, 0, nullptr, ArmOrWrite, arm), 0);
  EXPECT_EQ(LaunchKernel("ArmOrWrite", 1, 0, nullptr, ArmOrWrite, write), 0);
  EXPECT_EQ(LaunchKernel("ArmOrWrite", 2, 0, nullptr, ArmOrWrite, arm), 0);
}

}  // namespace

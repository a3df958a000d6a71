// securec_test.cc — memcpy_s and memset_s (securec.h), as host programs get
// them from acl/acl.h: success returns EOK and copies; every failure returns
// its error code and writes nothing outside [dest, dest + destMax).
// To extend: add a case with a guard byte after the destination and check
// both the code and the bytes.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>

#include "acl/acl.h"

namespace {

// A destination of 8 bytes followed by guard bytes that must never change.
struct Guarded {
  std::array<uint8_t, 8> dest;
  std::array<uint8_t, 8> guard;
  Guarded() {
    dest.fill(0xAA);
    guard.fill(0x5A);
  }
  bool GuardIntact() const {
    for (const uint8_t b : guard) {
      if (b != 0x5A) return false;
    }
    return true;
  }
};

TEST(Securec, MemcpySCopiesWhenCountFits) {
  Guarded g;
  const std::array<uint8_t, 8> src = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_EQ(memcpy_s(g.dest.data(), g.dest.size(), src.data(), 5), EOK);
  EXPECT_EQ(g.dest[4], 5);
  EXPECT_EQ(g.dest[5], 0xAA);
  EXPECT_TRUE(g.GuardIntact());
}

TEST(Securec, MemcpySRefusesACountAboveDestMax) {
  Guarded g;
  const std::array<uint8_t, 16> src = {};
  EXPECT_EQ(memcpy_s(g.dest.data(), g.dest.size(), src.data(), 16),
            ERANGE_AND_RESET);
  EXPECT_EQ(g.dest[0], 0);  // the destination is cleared, as securec does
  EXPECT_TRUE(g.GuardIntact());
}

TEST(Securec, MemcpySRefusesNullPointers) {
  Guarded g;
  const uint8_t src[4] = {};
  EXPECT_EQ(memcpy_s(nullptr, 8, src, 4), EINVAL);
  EXPECT_EQ(memcpy_s(g.dest.data(), g.dest.size(), nullptr, 4),
            EINVAL_AND_RESET);
  EXPECT_EQ(memcpy_s(g.dest.data(), 0, src, 0), EINVAL);
  EXPECT_TRUE(g.GuardIntact());
}

TEST(Securec, MemcpySRefusesOverlap) {
  std::array<uint8_t, 16> buffer = {};
  EXPECT_EQ(memcpy_s(buffer.data(), 8, buffer.data() + 4, 8),
            EOVERLAP_AND_RESET);
  EXPECT_EQ(memcpy_s(buffer.data(), 8, buffer.data() + 8, 8), EOK);
}

TEST(Securec, MemsetSSetsWhenCountFits) {
  Guarded g;
  EXPECT_EQ(memset_s(g.dest.data(), g.dest.size(), 7, 8), EOK);
  EXPECT_EQ(g.dest[7], 7);
  EXPECT_TRUE(g.GuardIntact());
}

TEST(Securec, MemsetSRefusesACountAboveDestMax) {
  Guarded g;
  EXPECT_EQ(memset_s(g.dest.data(), g.dest.size(), 7, 9), ERANGE_AND_RESET);
  EXPECT_TRUE(g.GuardIntact());
  EXPECT_EQ(memset_s(nullptr, 8, 0, 1), EINVAL);
}

}  // namespace

// host_tiling_test.cc — the host class optiling::LayerNormGradBetaTiling:
// size, setters/getters of all 20 fields, SaveToBuffer's
// bytes against the kernel-side struct, SaveToBuffer's refusal of a too-small
// buffer, and the by-name field listing used by the command line.
// To extend: a new field means a new entry in kFieldNames (struct order) and
// in SetAllFields/KernelWithPattern; a new host class gets its own TEST block.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "tiling/tiling_api.h"

namespace {

using KernelTiling = AscendC::tiling::LayerNormGradBetaTiling;
using HostTiling = optiling::LayerNormGradBetaTiling;

// The documented fields, in struct order.
constexpr const char* kFieldNames[20] = {"stackBufferSize",
                                         "bLength",
                                         "sLength",
                                         "hLength",
                                         "originalHLength",
                                         "bshLength",
                                         "bsLength",
                                         "oneCalSize",
                                         "numberOfTmpBuf",
                                         "loopRound",
                                         "inputTailSize",
                                         "inputTailPos",
                                         "bsTailSize",
                                         "bshCurLength",
                                         "bsCurLength",
                                         "gammaTempTensorPos",
                                         "betaTempTensorPos",
                                         "inputDyTmpTensorPos",
                                         "resForGammaTmpTensorPos",
                                         "reserved"};

// Field i gets the distinct value 0x01000000·(i+1) + i + 1.
uint32_t Pattern(uint32_t i) { return 0x01000000u * (i + 1) + i + 1; }

void SetAllFields(HostTiling& t) {
  t.set_stackBufferSize(Pattern(0));
  t.set_bLength(Pattern(1));
  t.set_sLength(Pattern(2));
  t.set_hLength(Pattern(3));
  t.set_originalHLength(Pattern(4));
  t.set_bshLength(Pattern(5));
  t.set_bsLength(Pattern(6));
  t.set_oneCalSize(Pattern(7));
  t.set_numberOfTmpBuf(Pattern(8));
  t.set_loopRound(Pattern(9));
  t.set_inputTailSize(Pattern(10));
  t.set_inputTailPos(Pattern(11));
  t.set_bsTailSize(Pattern(12));
  t.set_bshCurLength(Pattern(13));
  t.set_bsCurLength(Pattern(14));
  t.set_gammaTempTensorPos(Pattern(15));
  t.set_betaTempTensorPos(Pattern(16));
  t.set_inputDyTmpTensorPos(Pattern(17));
  t.set_resForGammaTmpTensorPos(Pattern(18));
  t.set_reserved(Pattern(19));
}

std::array<uint32_t, 20> Getters(const HostTiling& t) {
  return {t.get_stackBufferSize(),
          t.get_bLength(),
          t.get_sLength(),
          t.get_hLength(),
          t.get_originalHLength(),
          t.get_bshLength(),
          t.get_bsLength(),
          t.get_oneCalSize(),
          t.get_numberOfTmpBuf(),
          t.get_loopRound(),
          t.get_inputTailSize(),
          t.get_inputTailPos(),
          t.get_bsTailSize(),
          t.get_bshCurLength(),
          t.get_bsCurLength(),
          t.get_gammaTempTensorPos(),
          t.get_betaTempTensorPos(),
          t.get_inputDyTmpTensorPos(),
          t.get_resForGammaTmpTensorPos(),
          t.get_reserved()};
}

// The kernel struct with the same pattern, written member by member.
KernelTiling KernelWithPattern() {
  KernelTiling k;
  k.stackBufferSize = Pattern(0);
  k.bLength = Pattern(1);
  k.sLength = Pattern(2);
  k.hLength = Pattern(3);
  k.originalHLength = Pattern(4);
  k.bshLength = Pattern(5);
  k.bsLength = Pattern(6);
  k.oneCalSize = Pattern(7);
  k.numberOfTmpBuf = Pattern(8);
  k.loopRound = Pattern(9);
  k.inputTailSize = Pattern(10);
  k.inputTailPos = Pattern(11);
  k.bsTailSize = Pattern(12);
  k.bshCurLength = Pattern(13);
  k.bsCurLength = Pattern(14);
  k.gammaTempTensorPos = Pattern(15);
  k.betaTempTensorPos = Pattern(16);
  k.inputDyTmpTensorPos = Pattern(17);
  k.resForGammaTmpTensorPos = Pattern(18);
  k.reserved = Pattern(19);
  return k;
}

TEST(HostTiling, SizeIsLargeEnoughForFixedCopies) {
  // Programs copy a fixed amount (e.g. 400 bytes) out of a
  // malloc(sizeof(host class)) buffer.
  EXPECT_GE(sizeof(HostTiling), 512u);
  EXPECT_EQ(sizeof(KernelTiling), 80u);
  EXPECT_EQ(HostTiling().GetDataSize(), 80u);  // 20 × uint32_t
}

TEST(HostTiling, DefaultIsAllZero) {
  const HostTiling t;
  for (uint32_t i = 0; i < 20; ++i) {
    EXPECT_EQ(Getters(t)[i], 0u) << kFieldNames[i];
  }
  std::array<uint8_t, 80> bytes;
  bytes.fill(0xCD);
  t.SaveToBuffer(bytes.data(), bytes.size());
  for (uint8_t b : bytes) EXPECT_EQ(b, 0);
}

TEST(HostTiling, SettersAndGettersRoundTripEveryField) {
  HostTiling t;
  SetAllFields(t);
  const std::array<uint32_t, 20> got = Getters(t);
  for (uint32_t i = 0; i < 20; ++i) {
    EXPECT_EQ(got[i], Pattern(i)) << kFieldNames[i];
  }
}

TEST(HostTiling, SaveToBufferWritesTheKernelStructBytes) {
  HostTiling t;
  SetAllFields(t);
  const KernelTiling expected = KernelWithPattern();
  KernelTiling saved;
  t.SaveToBuffer(&saved, sizeof(saved));
  EXPECT_EQ(std::memcmp(&saved, &expected, sizeof(expected)), 0);
  // Field i is the i-th 32-bit word: the layout callers copy word by word.
  uint32_t words[20];
  std::memcpy(words, &saved, sizeof(words));
  for (uint32_t i = 0; i < 20; ++i) {
    EXPECT_EQ(words[i], Pattern(i)) << kFieldNames[i];
  }
}

TEST(HostTiling, SaveToBufferIntoLargerBufferWritesOnly80Bytes) {
  HostTiling t;
  SetAllFields(t);
  std::array<uint8_t, sizeof(HostTiling)> buffer;
  buffer.fill(0xCD);
  t.SaveToBuffer(buffer.data(), buffer.size());
  const KernelTiling expected = KernelWithPattern();
  EXPECT_EQ(std::memcmp(buffer.data(), &expected, 80), 0);
  for (size_t i = 80; i < buffer.size(); ++i) {
    ASSERT_EQ(buffer[i], 0xCD) << "byte " << i;
  }
}

TEST(HostTiling, SaveToBufferTooSmallCopiesNothingAndSaysSo) {
  HostTiling t;
  SetAllFields(t);
  std::array<uint8_t, 80> buffer;
  buffer.fill(0xCD);
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buffer.data(), 79);
  const std::string err = testing::internal::GetCapturedStderr();
  for (uint8_t b : buffer) ASSERT_EQ(b, 0xCD);
  EXPECT_NE(err.find("SaveToBuffer"), std::string::npos) << err;
  EXPECT_NE(err.find("capacity 79"), std::string::npos) << err;
  EXPECT_NE(err.find("80"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

TEST(HostTiling, SaveToBufferNullDestinationSaysSo) {
  HostTiling t;
  testing::internal::CaptureStderr();
  t.SaveToBuffer(nullptr, 80);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("SaveToBuffer"), std::string::npos) << err;
  EXPECT_NE(err.find("null"), std::string::npos) << err;
}

TEST(HostTiling, SaveToBufferSucceedsSilently) {
  HostTiling t;
  KernelTiling k;
  testing::internal::CaptureStderr();
  t.SaveToBuffer(&k, 80);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
}

TEST(TilingFields, NamesAndValuesInStructOrder) {
  const KernelTiling k = KernelWithPattern();
  const auto fields = normgrad_ascendc::LayerNormGradBetaTilingFields(k);
  ASSERT_EQ(fields.size(), 20u);
  for (uint32_t i = 0; i < 20; ++i) {
    EXPECT_STREQ(fields[i].name, kFieldNames[i]);
    EXPECT_EQ(fields[i].value, Pattern(i)) << kFieldNames[i];
  }
}

}  // namespace

// capi_vector_datamove_test.cc — the C API's data movement
// (c_api/vector_datamove/vector_datamove.h): asc_copy_gm2ub, asc_copy_ub2gm
// and asc_copy_ub2ub in the count, burst and _sync forms against DataCopy on
// the same data and against the bytes the page's burst layout gives, and
// the checks by their messages.
//
// Extending: a new form gets a comparison with DataCopy and a layout check.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using compat_test::FailsWith;

uint8_t* UbAt(uint32_t offset) {
  return reinterpret_cast<uint8_t*>(asc_get_phy_buf_addr(offset));
}

class CapiDataMove : public ::testing::Test {
 protected:
  CapiDataMove()
      : profile_(normgrad_ascendc::Profile::kA2),
        gm_(static_cast<uint8_t*>(AscendC::GmAlloc(kGmBytes))) {
    for (uint32_t i = 0; i < kGmBytes; ++i)
      gm_[i] = static_cast<uint8_t>(i * 7 + 3);
    std::memset(UbAt(0), 0xEE, 16384);
  }
  ~CapiDataMove() override { AscendC::GmFree(gm_); }

  static constexpr uint32_t kGmBytes = 4096;
  compat_test::ProfileScope profile_;
  uint8_t* gm_;
};

TEST_F(CapiDataMove, CountFormsMatchDataCopy) {
  asc_copy_gm2ub(UbAt(0), gm_, 1024);
  AscendC::GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(gm_, kGmBytes);
  AscendC::LocalTensor<uint8_t> t(AscendC::TPosition::VECIN, 4096, 1024);
  AscendC::DataCopy(t, g, 1024);
  EXPECT_EQ(std::memcmp(UbAt(0), UbAt(4096), 1024), 0);
  EXPECT_EQ(std::memcmp(UbAt(0), gm_, 1024), 0);
  EXPECT_EQ(UbAt(0)[1024], 0xEE);  // nothing past size

  asc_copy_ub2ub_sync(UbAt(8192), UbAt(0), 512);
  EXPECT_EQ(std::memcmp(UbAt(8192), gm_, 512), 0);

  std::vector<uint8_t> before(gm_, gm_ + kGmBytes);
  asc_copy_ub2gm(gm_ + 2048, UbAt(0), 256);
  asc_copy_ub2gm_sync(gm_ + 3072, UbAt(0), 32);
  for (uint32_t i = 0; i < kGmBytes; ++i) {
    uint8_t want = before[i];
    if (i >= 2048 && i < 2048 + 256) want = before[i - 2048];
    if (i >= 3072 && i < 3072 + 32) want = before[i - 3072];
    ASSERT_EQ(gm_[i], want) << i;
  }
}

// n_burst bursts of len_burst blocks; src_gap and dst_gap blocks from one
// burst's end to the next one's start.
TEST_F(CapiDataMove, BurstForms) {
  asc_copy_gm2ub(UbAt(0), gm_, 3, 2, 1, 3);  // 3 bursts of 64 bytes
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(std::memcmp(UbAt(k * (2 + 3) * 32), gm_ + k * (2 + 1) * 32, 64),
              0)
        << k;
    EXPECT_EQ(UbAt(k * 160 + 64)[0], 0xEE) << k;  // the gap is untouched
  }
  // The same as DataCopy with DataCopyParams.
  AscendC::GlobalTensor<uint8_t> g;
  g.SetGlobalBuffer(gm_, kGmBytes);
  AscendC::LocalTensor<uint8_t> t(AscendC::TPosition::VECIN, 8192, 1024);
  std::memset(UbAt(8192), 0xEE, 1024);
  AscendC::DataCopy(t, g, AscendC::DataCopyParams(3, 2, 1, 3));
  EXPECT_EQ(std::memcmp(UbAt(0), UbAt(8192), 1024), 0);

  asc_copy_ub2ub(UbAt(4096), UbAt(0), 3, 2, 3, 0);  // packs the bursts
  for (uint32_t k = 0; k < 3; ++k) {
    EXPECT_EQ(std::memcmp(UbAt(4096 + k * 64), gm_ + k * 96, 64), 0) << k;
  }
  std::vector<uint8_t> before(gm_, gm_ + kGmBytes);
  asc_copy_ub2gm(gm_ + 1024, UbAt(4096), 2, 1, 0, 2);  // 2 blocks, 2 apart
  for (uint32_t i = 1024; i < 1024 + 160; ++i) {
    const uint32_t at = i - 1024;
    const bool copied = at < 32 || (at >= 96 && at < 128);
    const uint8_t want =
        copied ? UbAt(4096)[at < 32 ? at : at - 64] : before[i];
    EXPECT_EQ(gm_[i], want) << at;
  }
}

TEST_F(CapiDataMove, Checks) {
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub(UbAt(0), gm_, 100); },
                        "asc_copy_gm2ub: size 100 bytes is not a multiple of "
                        "32 bytes"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub(UbAt(16), gm_, 64); },
                        "asc_copy_gm2ub: dst is at UB byte 16, which is not "
                        "32-byte aligned"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_ub2gm(gm_, gm_, 64); }, "asc_copy_ub2gm: src"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_ub2gm(gm_, gm_, 64); },
                        "(it points into global memory)"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_ub2gm(nullptr, UbAt(0), 64); },
                        "asc_copy_ub2gm: dst is a null pointer"));
  const uint32_t ub = normgrad_ascendc::CurrentCore().ub_size();
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub(UbAt(ub - 64), gm_, 96); },
                        "asc_copy_gm2ub: dst at UB byte 196544 with 96 bytes "
                        "runs past the end of the unified buffer (196608 "
                        "bytes)"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub(UbAt(0), gm_, 4128); },
                        "asc_copy_gm2ub GM->UB: reads GM bytes"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub(UbAt(0), gm_, 0, 1, 0, 0); },
                        "asc_copy_gm2ub: n_burst 0 is out of range [1, 4095]"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_ub2ub(UbAt(0), UbAt(64), 4096, 1, 0, 0); },
                "asc_copy_ub2ub: n_burst 4096 is out of range"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_ub2gm(gm_, UbAt(0), 1, 0, 0, 0); },
                        "asc_copy_ub2gm: len_burst 0 is out of range [1, "
                        "65535]"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_ub2gm(gm_, UbAt(0), 2, 64, 0, 1); },
                        "asc_copy_ub2gm UB->GM: "));
}

// The _align copies: the page's example, then DataCopyPad on the same data
// and the row layout written out here, in both directions.
TEST_F(CapiDataMove, AlignCopiesMatchDataCopyPadAndLayout) {
  // The page's example: 128 bytes there and back.
  asc_copy_gm2ub_align(UbAt(0), gm_, 128);
  EXPECT_EQ(std::memcmp(UbAt(0), gm_, 128), 0);
  asc_copy_ub2gm_align_sync(gm_ + 1024, UbAt(0), 128);
  EXPECT_EQ(std::memcmp(gm_ + 1024, gm_, 128), 0);

  AscendC::GlobalTensor<int16_t> g;
  g.SetGlobalBuffer(reinterpret_cast<int16_t*>(gm_), kGmBytes / 2);
  // 6 elements: a 12-byte row and its filler, against DataCopyPad.
  auto* gm16 = reinterpret_cast<int16_t*>(gm_);
  asc_copy_gm2ub_align_sync(reinterpret_cast<int16_t*>(UbAt(0)), gm16, 12);
  AscendC::LocalTensor<int16_t> t(AscendC::TPosition::VECIN, 4096, 512);
  AscendC::DataCopyPad(t, g, AscendC::DataCopyExtParams(1, 12, 0, 0, 0),
                       AscendC::DataCopyPadExtParams<int16_t>(false, 0, 0, 0));
  EXPECT_EQ(std::memcmp(UbAt(0), UbAt(4096), 32), 0);
  EXPECT_EQ(std::memcmp(UbAt(0), gm_, 12), 0);

  // Three bursts of 5 elements, 2 padding elements left and 3 right, one
  // block between bursts on both sides.
  std::memset(UbAt(0), 0xEE, 8192);
  asc_set_copy_pad_val(int16_t{-7});
  asc_copy_gm2ub_align(reinterpret_cast<int16_t*>(UbAt(0)), gm16, 3, 10, 2, 3,
                       1, 1);
  AscendC::DataCopyPad(t, g, AscendC::DataCopyExtParams(3, 10, 32, 1, 0),
                       AscendC::DataCopyPadExtParams<int16_t>(false, 2, 3, 0));
  EXPECT_EQ(std::memcmp(UbAt(0), UbAt(4096), 3 * 64), 0);
  const auto* ub16 = reinterpret_cast<const int16_t*>(UbAt(0));
  for (int k = 0; k < 3; ++k) {
    const int16_t* row = ub16 + k * 32;  // a 32-byte row, then a block gap
    for (int e = 0; e < 16; ++e) {
      const bool data = e >= 2 && e < 7;
      const int16_t want = data ? gm16[k * 21 + e - 2] : int16_t{-7};
      EXPECT_EQ(row[e], want) << k << " " << e;
    }
  }

  // UB → GM: two rows of 3 floats, one block apart in both memories.
  std::vector<uint8_t> before(gm_, gm_ + kGmBytes);
  auto* ubf = reinterpret_cast<float*>(UbAt(8192));
  for (int i = 0; i < 32; ++i) ubf[i] = 0.5f * static_cast<float>(i);
  auto* gmf = reinterpret_cast<float*>(gm_ + 2048);
  asc_copy_ub2gm_align(gmf, ubf, 2, 12, 0, 0, 1, 1);
  for (int i = 0; i < 32; ++i) {
    const bool first = i < 3, second = i >= 11 && i < 14;
    float want;
    std::memcpy(&want, before.data() + 2048 + 4 * i, 4);
    if (first) want = ubf[i];
    if (second) want = ubf[16 + i - 11];
    EXPECT_EQ(gmf[i], want) << i;
  }

  auto* h = reinterpret_cast<half*>(UbAt(0));
  auto* gh = reinterpret_cast<half*>(gm_);
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub_align(h, gh, 0, 2, 0, 0, 0, 0); },
                        "asc_copy_gm2ub_align<half>: n_burst 0 is out of "
                        "range [1, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2ub_align(h, gh, 1, 2097152, 0, 0, 0, 0); },
      "asc_copy_gm2ub_align<half>: len_burst 2097152 bytes is out of range "
      "[1, 2097151]"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2ub_align(h, gh, 3u); },
                        "asc_copy_gm2ub_align<half>: size 3 bytes is not a "
                        "whole number of 2-byte elements"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2ub_align(h, gh, 1, 2, 17, 0, 0, 0); },
      "asc_copy_gm2ub_align<half>: left_padding_num 17 elements (34 bytes) is "
      "over 32 bytes"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_ub2gm_align(gh, h, 1, 2, 0, 1, 0, 0); },
                        "asc_copy_ub2gm_align<half>: right_padding_num 1 is "
                        "not 0"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2ub_align(h, reinterpret_cast<half*>(gm_ + 1), 2u); },
      "is not aligned to its 2-byte elements"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_gm2ub_align(h, gh, 2, 4000, 0, 0, 0, 0); },
                "asc_copy_gm2ub_align<half>: reads GM bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        int host = 0;
        asc_copy_ub2gm_align(gh, reinterpret_cast<half*>(&host), 2u);
      },
      "asc_copy_ub2gm_align: src 0x"));
}

}  // namespace

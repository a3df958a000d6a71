// capi_cube_gm2l1_950_test.cc — the C API's Ascend 950 moves from GM into L1
// (c_api/cube_datamove/cube_datamove.h, asc_set_gm2l1_nz_para of
// c_api/sys_var/sys_var.h; docs/capi.md "The 950's moves into L1"): each
// function against the C++ instruction it maps onto (DataCopy with
// Dn2NzParams or Nd2NzParams), on the same GM data into two regions of the
// same L1, bit for bit; and its messages (the asc_* function, the argument,
// the value and the rule).
//
// Extending: a new function gets a comparison with its C++ instruction and
// its messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::Dn2NzParams;
using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::Nd2NzParams;
using AscendC::TPosition;
using compat_test::FailsWith;
using normgrad_ascendc::CubeMemory;
using normgrad_ascendc::Profile;

// A pointer to byte `offset` of L1, as a C API program makes it.
template <typename T>
T* At(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}

uint8_t* L1Bytes(uint32_t offset) {
  return normgrad_ascendc::CurrentCore().cube_memory(CubeMemory::kL1) + offset;
}

// MTE2_NZ_PARA from its four fields (bits 0, 16, 32 and 48).
uint64_t NzPara(uint64_t matrices, uint64_t n_stride, uint64_t c0_stride,
                uint64_t matrix_stride) {
  return matrices | n_stride << 16 | c0_stride << 32 | matrix_stride << 48;
}

// Where the C API writes, and where the C++ instruction writes.
constexpr uint32_t kCapiAt = 0;
constexpr uint32_t kCppAt = 64 * 1024;
constexpr uint32_t kCompared = 32 * 1024;

class CapiCubeGm2L1950 : public ::testing::Test {
 protected:
  CapiCubeGm2L1950()
      : profile_(Profile::k950),
        gm_(static_cast<uint8_t*>(AscendC::GmAlloc(kGmBytes))) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // registers reset
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    for (uint32_t i = 0; i < kGmBytes; ++i) {
      gm_[i] = static_cast<uint8_t>(i * 7 + 3);
    }
    std::memset(L1Bytes(0), 0xA5, 2 * kCppAt);
  }
  ~CapiCubeGm2L1950() override {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AscendC::GmFree(gm_);
  }

  template <typename T>
  GlobalTensor<T> Gm() {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<T*>(gm_), kGmBytes / sizeof(T));
    return g;
  }
  template <typename T>
  LocalTensor<T> CppL1() {
    return LocalTensor<T>(TPosition::A1, kCppAt, kCompared / sizeof(T));
  }
  void ExpectSameL1() {
    EXPECT_EQ(std::memcmp(L1Bytes(kCapiAt), L1Bytes(kCppAt), kCompared), 0);
    // And something was written.
    std::vector<uint8_t> untouched(kCompared, 0xA5);
    EXPECT_NE(std::memcmp(L1Bytes(kCapiAt), untouched.data(), kCompared), 0);
  }

  static constexpr uint32_t kGmBytes = 16384;
  compat_test::ProfileScope profile_;
  uint8_t* gm_;
};

TEST_F(CapiCubeGm2L1950, Dn2NzIsDataCopyWithDn2NzParams) {
  // Two half matrices of 8 columns and 23 lines: lines 32 bytes apart,
  // matrices 800 bytes apart; rows 2 blocks, C0 pieces 37 blocks and
  // matrices 320 elements apart in L1.
  asc_set_gm2l1_nz_para(NzPara(2, 2, 37, 320));
  asc_copy_gm2l1_dn2nz(At<half>(kCapiAt), reinterpret_cast<half*>(gm_), 32, 0,
                       8, 23, 800, false);
  AscendC::DataCopy(CppL1<half>(), Gm<half>(),
                    Dn2NzParams(2, 8, 23, 400, 16, 37, 2, 320));
  ExpectSameL1();
}

TEST_F(CapiCubeGm2L1950, Dn2NzSmallC0IsTheSmallC0DataCopy) {
  asc_set_gm2l1_nz_para(NzPara(3, 0, 0, 24));
  asc_copy_gm2l1_dn2nz_sync(At<float>(kCapiAt), reinterpret_cast<float*>(gm_),
                            28, 4, 6, 3, 256, true);
  AscendC::DataCopy<float, true>(CppL1<float>(), Gm<float>(),
                                 Dn2NzParams(3, 6, 3, 64, 7, 0, 0, 24));
  ExpectSameL1();
}

TEST_F(CapiCubeGm2L1950, Nd2NzIsDataCopyWithNd2NzParams) {
  // int8_t: 3 matrices of 20 rows and 40 columns, rows 48 bytes and
  // matrices 1000 bytes apart in GM.
  asc_set_gm2l1_nz_para(NzPara(3, 1, 20, 1280));
  asc_copy_gm2l1_nd2nz(At<int8_t>(kCapiAt), reinterpret_cast<int8_t*>(gm_), 48,
                       0, 20, 40, 1000, false);
  AscendC::DataCopy(CppL1<int8_t>(), Gm<int8_t>(),
                    Nd2NzParams(3, 20, 40, 1000, 48, 20, 1, 1280));
  ExpectSameL1();
  asc_copy_gm2l1_nd2nz_sync(At<int8_t>(kCapiAt), reinterpret_cast<int8_t*>(gm_),
                            48, 0, 20, 40, 1000, false);
  ExpectSameL1();
}

TEST_F(CapiCubeGm2L1950, TheMessagesNameTheFunctionAndTheArgument) {
  half* src = reinterpret_cast<half*>(gm_);
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1_dn2nz(At<half>(0), src, 32, 0, 16, 16, 0, false); },
      "asc_copy_gm2l1_dn2nz<half>: MTE2_NZ_PARA was not set in this block "
      "(call asc_set_gm2l1_nz_para first"));
  asc_set_gm2l1_nz_para(NzPara(1, 1, 16, 0));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1_dn2nz(At<half>(0), src, 33, 0, 16, 16, 0, false); },
      "asc_copy_gm2l1_dn2nz<half>: loop1_src_stride 33 bytes is not a whole "
      "number of 2-byte elements"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1_dn2nz(At<half>(0), src, 32, 3, 16, 16, 0, false); },
      "asc_copy_gm2l1_dn2nz<half>: l2_cache_ctl 3 is not 0, 1, 2 or 4"));
  // The C++ instruction's rules follow under the C API's name.
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1_dn2nz(At<half>(0), src, 32, 0, 16, 5, 0, true); },
      "asc_copy_gm2l1_dn2nz<half>: DataCopy<half> GM->L1 (Dn2NzParams): "
      "enableSmallC0 with intriParams.dValue 5"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1_nd2nz(At<half>(0), src, 32, 0, 16, 4, 0, true); },
      "asc_copy_gm2l1_nd2nz<half>: smallc0_en is true; SmallC0 is emulated "
      "for DN2NZ only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_nd2nz(At<half>(0), src, 32, 0, 16, 65536, 0, false);
      },
      "asc_copy_gm2l1_nd2nz<half>: d_value 65536 is out of range [0, "
      "65535]"));
}

TEST_F(CapiCubeGm2L1950, AlignIsDataCopyPadIntoL1) {
  // half: 2 blocks of 10 bytes, 4 bytes apart in GM; rows of 2 + 5 + 1
  // elements padded with 7, then filler to 32 bytes; 1 block between rows.
  half seven(7.0f);
  uint16_t bits = 0;
  std::memcpy(&bits, &seven, sizeof bits);
  asc_set_gm2l1_pad(bits);
  asc_copy_gm2l1_align(At<half>(kCapiAt), reinterpret_cast<half*>(gm_), 2, 10,
                       2, 1, false, 0, 4, 1);
  AscendC::DataCopyPad(CppL1<half>(), Gm<half>(),
                       AscendC::DataCopyExtParams(2, 10, 4, 1, 0),
                       AscendC::DataCopyPadExtParams<half>(true, 2, 1, seven));
  ExpectSameL1();
  // Without paddings no pad value is needed (the filler repeats the first
  // element).
  asc_copy_gm2l1_align_sync(At<float>(kCapiAt), reinterpret_cast<float*>(gm_),
                            3, 20, 0, 0, false, 4, 0, 0);
  AscendC::DataCopyPad(CppL1<float>(), Gm<float>(),
                       AscendC::DataCopyExtParams(3, 20, 0, 0, 0),
                       AscendC::DataCopyPadExtParams<float>(false, 0, 0, 0.0f));
  ExpectSameL1();
}

TEST_F(CapiCubeGm2L1950, AlignRepeatsOverTheLoops) {
  // The pages' example: 2 x 2 iterations, the inner one 96 bytes on in GM
  // and 128 in L1, the outer one 192 and 288; each a copy of 2 blocks of 64
  // bytes.
  asc_set_gm2l1_loop_size(2, 2);
  asc_set_gm2l1_loop1_stride(96, 128);
  asc_set_gm2l1_loop2_stride(192, 288);
  asc_copy_gm2l1_align(At<half>(kCapiAt), reinterpret_cast<half*>(gm_), 2, 64,
                       0, 0, false, 0, 0, 0);
  asc_set_gm2l1_loop_size(1, 1);
  for (uint32_t i2 = 0; i2 < 2; ++i2) {
    for (uint32_t i1 = 0; i1 < 2; ++i1) {
      GlobalTensor<half> g;
      g.SetGlobalBuffer(reinterpret_cast<half*>(gm_ + i1 * 96 + i2 * 192), 256);
      AscendC::DataCopyPad(
          LocalTensor<half>(TPosition::A1, kCppAt + i1 * 128 + i2 * 288, 256),
          g, AscendC::DataCopyExtParams(2, 64, 0, 0, 0),
          AscendC::DataCopyPadExtParams<half>(false, 0, 0, half(0.0f)));
    }
  }
  ExpectSameL1();
  // Sizes back to 1: one copy.
  std::memset(L1Bytes(kCapiAt), 0xA5, 1024);
  asc_copy_gm2l1_align(At<half>(kCapiAt), reinterpret_cast<half*>(gm_), 1, 64,
                       0, 0, false, 0, 0, 0);
  EXPECT_EQ(std::memcmp(L1Bytes(kCapiAt), gm_, 64), 0);
  EXPECT_EQ(*L1Bytes(kCapiAt + 64), 0xA5);
}

TEST_F(CapiCubeGm2L1950, AlignAndItsRegistersCheckTheirArguments) {
  half* src = reinterpret_cast<half*>(gm_);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_align(At<half>(0), src, 1, 32, 1, 0, false, 0, 0, 0);
      },
      "asc_copy_gm2l1_align<half>: left_padding_count 1, right_padding_count "
      "0, but the padding value was not set in this block (call "
      "asc_set_gm2l1_pad first)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_align(At<half>(0), src, 1, 32, 0, 0, true, 0, 0, 0);
      },
      "asc_copy_gm2l1_align<half>: data_select_bit is true; its page allows "
      "false only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_align(At<half>(0), src, 1, 3, 0, 0, false, 0, 0, 0);
      },
      "asc_copy_gm2l1_align<half>: bursts.blockLen 3 bytes is not a multiple "
      "of the element size 2"));
  EXPECT_TRUE(FailsWith([&] { asc_set_gm2l1_loop1_stride(0, 48); },
                        "asc_set_gm2l1_loop1_stride: loop1_dst_stride 48 "
                        "bytes is not a multiple of 32"));
  EXPECT_TRUE(FailsWith([&] { asc_set_gm2l1_loop2_stride(0, 1u << 22); },
                        "asc_set_gm2l1_loop2_stride: loop2_dst_stride 4194304 "
                        "is out of range [0, 2097152]"));
  EXPECT_TRUE(FailsWith([&] { asc_set_gm2l1_loop_size(1, (1u << 21) + 1); },
                        "asc_set_gm2l1_loop_size: loop2_size 2097153 is out "
                        "of range [0, 2097152]"));
}

TEST_F(CapiCubeGm2L1950, TheFunctionsAreTheAscend950s) {
  compat_test::ProfileScope a2(Profile::kA2);
  EXPECT_TRUE(FailsWith([&] { asc_set_gm2l1_nz_para(NzPara(1, 1, 1, 0)); },
                        "asc_set_gm2l1_nz_para: not available on profile "
                        "Atlas A2/A3: MTE2_NZ_PARA is the Ascend 950's"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_dn2nz(At<half>(0), reinterpret_cast<half*>(gm_), 32, 0,
                             16, 16, 0, false);
      },
      "asc_copy_gm2l1_dn2nz<half>: not available on profile Atlas A2/A3: "
      "DN2NZ is the Ascend 950's"));
  EXPECT_TRUE(FailsWith([&] { asc_set_gm2l1_pad(0); },
                        "asc_set_gm2l1_pad: not available on profile Atlas "
                        "A2/A3: the GM -> L1 loop and pad registers are the "
                        "Ascend 950's"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_align(At<half>(0), reinterpret_cast<half*>(gm_), 1, 32,
                             0, 0, false, 0, 0, 0);
      },
      "asc_copy_gm2l1_align<half>: not available on profile Atlas A2/A3"));
}

}  // namespace

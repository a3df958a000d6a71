// capi_cube_mx_test.cc — the C API's side of the 950's 8-bit floats and MX
// (docs/capi.md, "The 950's 8-bit floats and MX"), on the 950 profile:
// asc_copy_l12l0a_mx / asc_copy_l12l0b_mx and asc_mmad_mx against the C++
// scale move and MmadMx on the same bytes, bit for bit; asc_mmad's mixed FP8
// pair against Mmad; the HiF8 / FP8 mode (asc_enable_hif8, asc_enable_fp8);
// and the messages. Extending: a new function gets a comparison with its C++
// form on two regions of the same memories, and its messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TPosition;
using compat_test::FailsWith;
using normgrad_ascendc::CubeMemory;

template <typename T>
T* At(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}
uint8_t* Bytes(CubeMemory memory, uint32_t offset) {
  return normgrad_ascendc::CurrentCore().cube_memory(memory) + offset;
}
template <typename T>
LocalTensor<T> Tensor(TPosition pos, uint32_t offset, uint32_t bytes) {
  return LocalTensor<T>(pos, offset, bytes / uint32_t(sizeof(T)));
}

class CapiCubeMx : public ::testing::Test {
 protected:
  CapiCubeMx() : profile_(normgrad_ascendc::Profile::k950) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    for (CubeMemory m : {CubeMemory::kL1, CubeMemory::kL0A, CubeMemory::kL0B,
                         CubeMemory::kL0C}) {
      std::memset(Bytes(m, 0), 0,
                  normgrad_ascendc::CubeMemoryBytes(
                      normgrad_ascendc::Profile::k950, m));
    }
    // Small finite codes of every 8-bit float: no NaN, no infinity.
    for (uint32_t i = 0; i < 8192; ++i) {
      Bytes(CubeMemory::kL0A, i)[0] =
          uint8_t(((i * 37 + 5) & 0x3F) | 1 | (i & 0x80));
      Bytes(CubeMemory::kL0B, i)[0] =
          uint8_t(((i * 11 + 3) & 0x3F) | 1 | ((i & 0x40) << 1));
    }
    // Scales 2^-2 .. 2^2 in L1.
    for (uint32_t i = 0; i < 1024; ++i) {
      Bytes(CubeMemory::kL1, i)[0] = uint8_t(125 + i % 5);
    }
  }
  ~CapiCubeMx() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
  compat_test::ProfileScope profile_;
};

TEST_F(CapiCubeMx, MxScalesAndMmadMxMatchTheCxxForms) {
  // 32 x 128 x 32 fp8: A 8 KiB at L0A 0 (the C API) and a copy at 8192
  // (C++), B 8 KiB at L0B 0 and 8192; their scales at / 16.
  std::memcpy(Bytes(CubeMemory::kL0A, 8192), Bytes(CubeMemory::kL0A, 0), 8192);
  std::memcpy(Bytes(CubeMemory::kL0B, 8192), Bytes(CubeMemory::kL0B, 0), 8192);
  // 2 fractal rows of 2 scale fractals each for A and for B.
  asc_copy_l12l0a_mx(asc_get_phy_buf_addr(0) / 16, At<fp8_e8m0_t>(0), 0, 0, 2,
                     2, 2, 2);
  asc_copy_l12l0b_mx_sync(asc_get_phy_buf_addr(0) / 16, At<fp8_e8m0_t>(128), 0,
                          0, 2, 2, 2, 2);
  AscendC::LoadData2DMxParams p;
  p.xStep = 2;
  p.yStep = 2;
  p.srcStride = 2;
  p.dstStride = 2;
  normgrad_ascendc::RunLoadMxScales(
      "LoadData (MX)", normgrad_ascendc::MxSide::kA, 8192 / 16,
      Tensor<fp8_e8m0_t>(TPosition::A1, 0, 128).view(), p);
  normgrad_ascendc::RunLoadMxScales(
      "LoadData (MX)", normgrad_ascendc::MxSide::kB, 8192 / 16,
      Tensor<fp8_e8m0_t>(TPosition::B1, 128, 128).view(), p);
  normgrad_ascendc::MxScaleBuffers& mx =
      normgrad_ascendc::CurrentCore().mx_scales();
  EXPECT_EQ(std::memcmp(mx.buffer(0), mx.buffer(0) + 512, 128), 0);
  EXPECT_EQ(std::memcmp(mx.buffer(1), mx.buffer(1) + 512, 128), 0);

  asc_mmad_mx(At<float>(0), At<fp8_e4m3fn_t>(0), At<fp8_e5m2_t>(0), 32, 128, 32,
              0, false, false, true);
  AscendC::MmadParams mp;
  mp.m = 32;
  mp.k = 128;
  mp.n = 32;
  AscendC::MmadMx(Tensor<float>(TPosition::CO1, 8192, 4096),
                  Tensor<fp8_e4m3fn_t>(TPosition::A2, 8192, 8192),
                  Tensor<fp8_e5m2_t>(TPosition::B2, 8192, 8192), mp);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 4096),
            0);
  float first;
  std::memcpy(&first, Bytes(CubeMemory::kL0C, 0), 4);
  EXPECT_NE(first, 0.0f);  // the sums are not all zero
}

TEST_F(CapiCubeMx, MixedFp8MmadMatchesMmad) {
  std::memcpy(Bytes(CubeMemory::kL0A, 8192), Bytes(CubeMemory::kL0A, 0), 4096);
  std::memcpy(Bytes(CubeMemory::kL0B, 8192), Bytes(CubeMemory::kL0B, 0), 4096);
  asc_mmad(At<float>(0), At<fp8_e5m2_t>(0), At<fp8_e4m3fn_t>(0), 32, 64, 32, 0,
           false, false, true);
  AscendC::MmadParams mp;
  mp.m = 32;
  mp.k = 64;
  mp.n = 32;
  AscendC::Mmad(Tensor<float>(TPosition::CO1, 8192, 4096),
                Tensor<fp8_e5m2_t>(TPosition::A2, 8192, 4096),
                Tensor<fp8_e4m3fn_t>(TPosition::B2, 8192, 4096), mp);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 4096),
            0);
}

// On the 950 asc_mmad's tenth argument is disable_gemv: with m = 1 and it
// true, A is row 0 of its Nz fractals, as Mmad with disableGemv reads it.
TEST_F(CapiCubeMx, AscMmadTakesDisableGemvOnThe950) {
  asc_mmad(At<float>(0), At<fp8_e4m3fn_t>(0), At<fp8_e4m3fn_t>(0), 1, 64, 16, 0,
           true, false, true);
  asc_mmad(At<float>(4096), At<fp8_e4m3fn_t>(0), At<fp8_e4m3fn_t>(0), 1, 64, 16,
           0, false, false, true);
  AscendC::MmadParams mp;
  mp.m = 1;
  mp.k = 64;
  mp.n = 16;
  mp.disableGemv = true;
  AscendC::Mmad(Tensor<float>(TPosition::CO1, 8192, 1024),
                Tensor<fp8_e4m3fn_t>(TPosition::A2, 0, 2048),
                Tensor<fp8_e4m3fn_t>(TPosition::B2, 0, 2048), mp);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 64),
            0);
  EXPECT_NE(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 4096), 64),
            0);
}

TEST_F(CapiCubeMx, Hif8ModeReadsEightBitFloatsAsHifloat8) {
  // HiF8 mode: fp8_e4m3fn_t operands are read as hifloat8_t.
  asc_mmad(At<float>(0), At<hifloat8_t>(0), At<hifloat8_t>(0), 16, 64, 16, 0,
           false, false, true);
  asc_enable_hif8();
  asc_mmad_sync(At<float>(8192), At<fp8_e4m3fn_t>(0), At<fp8_e4m3fn_t>(0), 16,
                64, 16, 0, false, false, true);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 1024),
            0);
  // FP8 mode: read as their types again, and hifloat8_t refused.
  asc_enable_fp8();
  asc_mmad(At<float>(16384), At<fp8_e4m3fn_t>(0), At<fp8_e4m3fn_t>(0), 16, 64,
           16, 0, false, false, true);
  EXPECT_NE(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 16384), 1024),
            0);
  EXPECT_TRUE(FailsWith(
      [] {
        asc_mmad(At<float>(0), At<hifloat8_t>(0), At<hifloat8_t>(0), 16, 64, 16,
                 0, false, false, true);
      },
      "asc_mmad<float, hifloat8_t>: Mmad<float, hifloat8_t, hifloat8_t>: fm "
      "is hifloat8_t, but asc_enable_fp8 set the FP8 mode"));
  // A new block starts with neither mode: each operand as its type.
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  asc_mmad(At<float>(0), At<hifloat8_t>(0), At<hifloat8_t>(0), 16, 64, 16, 0,
           false, false, true);
}

TEST_F(CapiCubeMx, Messages) {
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0a_mx(asc_get_phy_buf_addr(0), At<fp8_e8m0_t>(0), 0, 0, 1,
                           1, 1, 1);
      },
      "asc_copy_l12l0a_mx: dst (x 16)"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0b_mx(asc_get_phy_buf_addr(0) / 16, At<fp8_e8m0_t>(0), 0,
                           0, 200, 1, 1, 32);
      },
      "asc_copy_l12l0b_mx: LoadData (MX): the scale fractals written (xStep "
      "200 rows 32 x 32 bytes apart"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_mmad_mx(At<float>(0), At<fp4x2_e2m1_t>(0), At<fp4x2_e2m1_t>(0), 16,
                    64, 16, 0, false, true, false);
      },
      "asc_mmad_mx: c_matrix_init_val false with c_matrix_source true"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_mmad_mx(At<float>(0), At<fp4x2_e2m1_t>(0), At<fp4x2_e1m2_t>(0), 16,
                    64, 16, 0, false, false, true);
      },
      "asc_mmad_mx: MmadMx<float, fp4x2_e2m1_t, fp4x2_e1m2_t>: fm's scale "
      "fractal at L0A_MX bytes 0..31 was not loaded in this block"));
  compat_test::ProfileScope a2(normgrad_ascendc::Profile::kA2);
  EXPECT_TRUE(FailsWith([] { asc_enable_hif8(); },
                        "asc_enable_hif8: not available on profile Atlas "
                        "A2/A3: the HiF8 / FP8 mode of Mmad exists on the "
                        "Ascend 950 only"));
}

}  // namespace

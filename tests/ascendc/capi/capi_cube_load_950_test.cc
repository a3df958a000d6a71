// capi_cube_load_950_test.cc — the C API's loads into L0A / L0B on the Ascend
// 950 (c_api/cube_datamove/cube_datamove.h, docs/capi.md "The 950's loads into
// L0A and L0B"): the 2D forms of asc_copy_l12l0a / asc_copy_l12l0b and
// their _transpose and _sync forms against LoadData with LoadData2DParamsV2
// on the same data, bit for bit (int4b_t, which has no C++ V2 form, against
// its transposed square element by element), and their messages. (The 950's
// asc_copy_l12l0b_trans is declared for programs compiled for the 950:
// tests/programs/cube950_basic.asc.)
//
// Extending: a new form gets a comparison with its C++ instruction (two
// regions of the same memories, one written by each API) and its messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LoadData2DParamsV2;
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

// A cube core on the 950 profile, its L1 holding a byte pattern and its L0A
// and L0B zeros.
class CapiCubeLoad950 : public ::testing::Test {
 protected:
  CapiCubeLoad950() : profile_(normgrad_ascendc::Profile::k950) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    for (uint32_t i = 0; i < 32768; ++i) {
      Bytes(CubeMemory::kL1, 0)[i] = static_cast<uint8_t>(i * 29 + 5);
    }
    std::memset(Bytes(CubeMemory::kL0A, 0), 0, 32768);
    std::memset(Bytes(CubeMemory::kL0B, 0), 0, 32768);
  }
  ~CapiCubeLoad950() override {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  }

  compat_test::ProfileScope profile_;
};

TEST_F(CapiCubeLoad950, TwoDFormsMatchLoadDataV2) {
  asc_copy_l12l0a(At<half>(0), At<half>(0), 2, 2, 2, 3, 5, 3);
  AscendC::LoadData(LocalTensor<half>(TPosition::A2, 16384, 8192),
                    LocalTensor<half>(TPosition::A1, 0, 16384),
                    LoadData2DParamsV2(2, 2, 2, 3, 5, 3, false, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 8 * 512),
            0);
  asc_copy_l12l0b_sync(At<int8_t>(0), At<int8_t>(0), 1, 0, 3, 2, 4, 3);
  AscendC::LoadData(LocalTensor<int8_t>(TPosition::B2, 16384, 8192),
                    LocalTensor<int8_t>(TPosition::A1, 0, 16384),
                    LoadData2DParamsV2(1, 0, 3, 2, 4, 3, false, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 6 * 512),
            0);
  // The moved block is not all zeros (the comparison compares data).
  EXPECT_NE(Bytes(CubeMemory::kL0B, 0)[1], 0);
}

TEST_F(CapiCubeLoad950, TransposeFormsMatchLoadDataV2) {
  asc_copy_l12l0a_transpose(At<float>(0), At<float>(0), 1, 0, 2, 4, 3, 2);
  AscendC::LoadData(LocalTensor<float>(TPosition::A2, 16384, 8192),
                    LocalTensor<float>(TPosition::A1, 0, 16384),
                    LoadData2DParamsV2(1, 0, 2, 4, 3, 2, true, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 8 * 512),
            0);
  asc_copy_l12l0b_transpose_sync(At<uint8_t>(0), At<uint8_t>(0), 0, 1, 4, 2, 6,
                                 4);
  AscendC::LoadData(LocalTensor<uint8_t>(TPosition::B2, 16384, 8192),
                    LocalTensor<uint8_t>(TPosition::A1, 0, 16384),
                    LoadData2DParamsV2(0, 1, 4, 2, 6, 4, true, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 8 * 512),
            0);
}

// int4b_t has no C++ V2 form: the square of four 16 x 64 fractals against
// its transpose, element by element (two elements a byte, the even one in
// the low nibble).
TEST_F(CapiCubeLoad950, Int4SquaresTranspose) {
  asc_copy_l12l0b_transpose(At<AscendC::int4b_t>(0), At<AscendC::int4b_t>(0), 0,
                            0, 4, 1, 4, 4);
  const auto nibble = [](const uint8_t* bytes, uint32_t i) {
    return (bytes[i / 2] >> (4 * (i % 2))) & 0xF;
  };
  // Square element (r, c): fractal r / 16, its row r % 16 of 64 elements.
  const auto at = [](uint32_t r, uint32_t c) { return r * 64 + c; };
  for (uint32_t r = 0; r < 64; ++r) {
    for (uint32_t c = 0; c < 64; ++c) {
      ASSERT_EQ(nibble(Bytes(CubeMemory::kL0B, 0), at(r, c)),
                nibble(Bytes(CubeMemory::kL1, 0), at(c, r)))
          << "element (" << r << ", " << c << ")";
    }
  }
}

TEST_F(CapiCubeLoad950, Messages) {
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0a_transpose(At<half>(0), At<half>(0), 0, 0, 1, 1, -1, 1);
      },
      "asc_copy_l12l0a_transpose<half>: LoadData<half>(LoadData2DParamsV2) "
      "L1->L0A: loadDataParams.srcStride -1 is negative"));
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0b(At<int32_t>(0), At<int32_t>(0), 0, 0, 1, 2, 1, 200);
      },
      "asc_copy_l12l0b<int32_t>: LoadData<int32_t>(LoadData2DParamsV2) "
      "L1->L0B: the fractals written reaches 102912 bytes into dst"));
  // int4b_t (the C API's b4): squares of four fractal rows.
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0b_transpose(At<AscendC::int4b_t>(0),
                                  At<AscendC::int4b_t>(0), 0, 0, 2, 1, 4, 4);
      },
      "asc_copy_l12l0b_transpose<int4b_t>: LoadData<int4b_t>"
      "(LoadData2DParamsV2) L1->L0B: loadDataParams.mStep 2 with ifTranspose; "
      "a 4-bit type transposes squares of 4 fractal rows, so mStep must be a "
      "multiple of 4"));
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [] { asc_copy_l12l0a(At<half>(0), At<half>(0), 0, 0, 1, 1, 1, 1); },
      "asc_copy_l12l0a<half>: LoadData<half>(LoadData2DParamsV2) L1->L0A: "
      "not available on profile Atlas A2/A3: LoadData2DParamsV2 is the "
      "950's"));
}

// ---- The 3D forms (img2col)
// ---------------------------------------------------

// The feature map's shape and padding, as asc_set_l13d_fmatrix takes them.
void SetMap(uint16_t h, uint16_t w, uint8_t pad) {
  asc_l13d_fmatrix_config map;
  map.l1_height = h;
  map.l1_width = w;
  map.padding_left_size = pad;
  map.padding_right_size = pad;
  map.padding_top_size = pad;
  map.padding_bottom_size = pad;
  asc_set_l13d_fmatrix(map);
}

// The same window by LoadData 3D v2 Pro, its columns of fractals
// `dst_stride` fractals apart.
template <typename T>
void LoadWindow(TPosition to, uint32_t dst_offset, uint16_t k_ext,
                uint16_t m_ext, uint8_t kernel, uint16_t channels,
                uint16_t dst_stride) {
  AscendC::SetLoadDataRepeat(AscendC::LoadDataRepeatParam{0, 1, 0, dst_stride});
  AscendC::LoadData3DParamsV2Pro p;
  p.channelSize = channels;
  p.extConfig = uint64_t{m_ext} << 16 | k_ext;
  p.filterConfig =
      0x10100000101ull | uint64_t{kernel} << 24 | uint64_t{kernel} << 16;
  AscendC::LoadData(
      LocalTensor<T>(TPosition::B2 == to ? TPosition::B2 : TPosition::A2,
                     dst_offset, 16384 / sizeof(T)),
      LocalTensor<T>(TPosition::A1, 0, 8192), p);
}

// With a 1 x 1 kernel the img2col matrix of a 4 x 8 map of 32 half
// channels is the map itself (row m: pixel m, column k: channel k), so its
// Nz (column blocks of 16 channels, each 32 rows) is L1's C1HWC0 byte for
// byte. A 3 x 3 kernel with padding 1, into L0A and L0B, matches LoadData
// 3D with the dense dstStride (the output's fractal rows), bit for bit.
TEST_F(CapiCubeLoad950, ThreeDFormsWriteDenseNz) {
  asc_set_l13d_padding(half(1.5f));
  SetMap(4, 8, 0);
  asc_copy_l12l0a(At<half>(0), At<half>(0), 32, 32, 0, 0, 1, 1, 1, 1, 1, 1,
                  false, false, false, false, 32);
  EXPECT_EQ(
      std::memcmp(Bytes(CubeMemory::kL0A, 0), Bytes(CubeMemory::kL1, 0), 2048),
      0);
  // 3 x 3, padding 1, 16 channels: 32 rows (2 fractal rows) x 144 columns
  // (9 fractal columns).
  SetMap(4, 8, 1);
  asc_copy_l12l0a_sync(At<half>(0), At<half>(0), 144, 32, 0, 0, 1, 1, 3, 3, 1,
                       1, false, false, false, false, 16);
  LoadWindow<half>(TPosition::A2, 16384, 144, 32, 3, 16, 2);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 18 * 512),
            0);
  // Into L0B (B = the window's transpose, Zn = its Nz), and int16_t, a type
  // the 950 adds, moving as the 16-bit types do.
  asc_copy_l12l0b(At<half>(0), At<half>(0), 144, 32, 0, 0, 1, 1, 3, 3, 1, 1,
                  false, false, false, false, 16);
  LoadWindow<half>(TPosition::B2, 16384, 144, 32, 3, 16, 2);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 18 * 512),
            0);
  asc_set_l13d_padding(int16_t(0x3E00));  // half(1.5f)'s bits
  asc_copy_l12l0b(At<int16_t>(32768), At<int16_t>(0), 144, 32, 0, 0, 1, 1, 3, 3,
                  1, 1, false, false, false, false, 16);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 32768), 18 * 512),
            0);
  // fp8_e4m3fn_t moves as int8_t: 32 channels, 9 fractal columns of 32.
  AscendC::SetLoadDataPaddingValue(int8_t(7));
  asc_copy_l12l0a(At<fp8_e4m3fn_t>(0), At<fp8_e4m3fn_t>(0), 288, 32, 0, 0, 1, 1,
                  3, 3, 1, 1, false, false, false, false, 32);
  LoadWindow<int8_t>(TPosition::A2, 16384, 288, 32, 3, 32, 2);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 18 * 512),
            0);
  EXPECT_NE(Bytes(CubeMemory::kL0A, 0)[600], 0);  // data, not zeros
}

TEST_F(CapiCubeLoad950, ThreeDFormsMessages) {
  SetMap(4, 8, 0);
  asc_set_l13d_padding(half(0.0f));
  // int4b_t is not among the 950's img2col types (its pages).
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0a(At<AscendC::int4b_t>(0), At<AscendC::int4b_t>(0), 64,
                        32, 0, 0, 1, 1, 1, 1, 1, 1, false, false, false, false,
                        64);
      },
      "asc_copy_l12l0a<int4b_t>: LoadData<int4b_t> L1->L0A "
      "(LoadData3DParamsV2): T is int4b_t, which the 950's img2col does "
      "not move"));
  // The C++ instruction's rules follow the C API's name.
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0a(At<half>(0), At<half>(0), 16, 32, 8, 0, 1, 1, 1, 1, 1,
                        1, false, false, false, false, 16);
      },
      "asc_copy_l12l0a<half>: LoadData<half> L1->L0A (LoadData3DParamsV2): "
      "loadDataParams.kStartPt 8 is not a multiple of 16"));
  // The setter of the L1 boundary is not the 950's (its page).
  EXPECT_TRUE(FailsWith([] { asc_set_l13d_size(0); },
                        "asc_set_l13d_size: not available on profile"));
  // The types the 950 adds are refused on Atlas A2/A3.
  normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [] {
        asc_copy_l12l0b(At<uint16_t>(0), At<uint16_t>(0), 16, 32, 0, 0, 1, 1, 1,
                        1, 1, 1, false, false, false, false, 16);
      },
      "asc_copy_l12l0b<uint16_t>: not available on profile Atlas A2/A3: its "
      "3D form takes this type on the Ascend 950 only"));
}

}  // namespace

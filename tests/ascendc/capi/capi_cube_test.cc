// capi_cube_test.cc — the C API's cube side (c_api/cube_datamove/,
// c_api/cube_compute/, docs/capi.md "The cube side"): each function against
// the C++ cube instruction it maps onto, on the same data in the same core,
// bit for bit; a C-API-only GM → L1 → L0A/L0B → Mmad → L0C → GM kernel
// against a float64 reference written here; the pointer mapping; and the
// messages (each names the asc_* function, the argument, the value and the
// rule).
//
// Extending: a new function gets a comparison with its C++ instruction (two
// regions of the same memories, one written by each API) and its messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::GlobalTensor;
using AscendC::LocalTensor;
using AscendC::TPosition;
using compat_test::FailsWith;
using normgrad_ascendc::CubeMemory;

// A pointer to byte `offset` of a cube memory, as a C API program makes it:
// asc_get_phy_buf_addr(offset) cast to the memory's pointer type.
template <typename T>
T* At(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}

// The emulated bytes of a cube memory, to compare.
uint8_t* Bytes(CubeMemory memory, uint32_t offset) {
  return normgrad_ascendc::CurrentCore().cube_memory(memory) + offset;
}

class CapiCube : public ::testing::Test {
 protected:
  CapiCube()
      : profile_(normgrad_ascendc::Profile::kA2),
        gm_(static_cast<uint8_t*>(AscendC::GmAlloc(kGmBytes))),
        out_(static_cast<uint8_t*>(AscendC::GmAlloc(kGmBytes))) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // registers reset
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    for (uint32_t i = 0; i < kGmBytes; ++i) {
      gm_[i] = static_cast<uint8_t>(i * 7 + 3);
    }
    std::memset(out_, 0, kGmBytes);
    // The memories keep what an earlier test wrote: start from zeros.
    for (CubeMemory m : {CubeMemory::kL1, CubeMemory::kL0A, CubeMemory::kL0B,
                         CubeMemory::kL0C}) {
      std::memset(
          Bytes(m, 0), 0,
          normgrad_ascendc::CubeMemoryBytes(normgrad_ascendc::Profile::kA2, m));
    }
  }
  ~CapiCube() override {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AscendC::GmFree(out_);
    AscendC::GmFree(gm_);
  }

  template <typename T>
  GlobalTensor<T> Gm(uint8_t* p) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<T*>(p), kGmBytes / sizeof(T));
    return g;
  }

  static constexpr uint32_t kGmBytes = 16384;
  compat_test::ProfileScope profile_;
  uint8_t* gm_;
  uint8_t* out_;
};

// ---- GM <-> L1 -------------------------------------------------------------

TEST_F(CapiCube, Gm2L1AndL12GmMatchDataCopy) {
  asc_copy_gm2l1(At<void>(0), gm_, 1024);
  LocalTensor<uint8_t> l1(TPosition::A1, 4096, 1024);
  AscendC::DataCopy(l1, Gm<uint8_t>(gm_), 1024);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 0), Bytes(CubeMemory::kL1, 4096),
                        1024),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 0), gm_, 1024), 0);

  // Bursts: 3 of 2 blocks, 1 block apart in GM, 3 blocks apart in L1.
  std::memset(Bytes(CubeMemory::kL1, 8192), 0xEE, 2048);
  asc_copy_gm2l1(At<void>(8192), gm_, 3, 2, 1, 3);
  LocalTensor<uint8_t> l1b(TPosition::A1, 9216, 1024);
  AscendC::DataCopy(l1b, Gm<uint8_t>(gm_), AscendC::DataCopyParams(3, 2, 1, 3));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 8192),
                        Bytes(CubeMemory::kL1, 9216), 1024),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 8192 + 160), gm_ + 96, 64), 0);

  asc_copy_gm2l1_sync(At<void>(12288), gm_ + 64, 256);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 12288), gm_ + 64, 256), 0);

  // L1 -> GM, bursts.
  asc_copy_l12gm(out_, At<void>(0), 2, 1, 1, 2);
  AscendC::DataCopy(Gm<uint8_t>(out_ + 4096), l1,
                    AscendC::DataCopyParams(2, 1, 1, 2));
  EXPECT_EQ(std::memcmp(out_, out_ + 4096, 160), 0);
  EXPECT_EQ(std::memcmp(out_ + 96, gm_ + 64, 32), 0);
  asc_copy_l12gm_sync(out_ + 8192, At<void>(0), 1, 4, 0, 0);
  EXPECT_EQ(std::memcmp(out_ + 8192, gm_, 128), 0);
}

TEST_F(CapiCube, Gm2L1FractalsMatchLoadData) {
  // Fractals 1 and 3 of src (src_stride 2) into L1 with one fractal between.
  asc_copy_gm2l1(At<half>(0), reinterpret_cast<half*>(gm_), 1, 2, 2, 1);
  asc_copy_gm2l1_sync(At<half>(4096), reinterpret_cast<half*>(gm_), 1, 2, 2, 1);
  LocalTensor<half> l1(TPosition::A1, 8192, 2048);
  AscendC::LoadData(l1, Gm<half>(gm_),
                    AscendC::LoadData2DParams(1, 2, 2, 0, 1, false, 0));
  for (uint32_t at : {0u, 4096u}) {
    EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, at),
                          Bytes(CubeMemory::kL1, 8192), 2048),
              0)
        << at;
  }
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 0), gm_ + 512, 512), 0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 1024), gm_ + 1536, 512), 0);
}

TEST_F(CapiCube, Nd2NzMatchesDataCopy) {
  // Two 20 x 40 half matrices, 900 elements apart, rows of 41.
  const AscendC::Nd2NzParams p(2, 20, 40, 900, 41, 32, 1, 2048);
  asc_copy_gm2l1_nd2nz(At<half>(0), reinterpret_cast<half*>(gm_), 2, 20, 40,
                       900, 41, 32, 1, 2048);
  LocalTensor<half> l1(TPosition::B1, 16384, 8192);
  AscendC::DataCopy(l1, Gm<half>(gm_), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 0),
                        Bytes(CubeMemory::kL1, 16384), 8192),
            0);
  // Row 1, columns 16..31 of the first matrix: column block 1, row 1.
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, (32 + 1) * 32),
                        gm_ + (41 + 16) * 2, 32),
            0);
  asc_copy_gm2l1_nd2nz_sync(At<int8_t>(32768), reinterpret_cast<int8_t*>(gm_),
                            1, 4, 64, 0, 64, 4, 1, 0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 32768 + 4 * 32), gm_ + 32, 32),
            0);
}

// ---- L1 -> bias table / fixpipe buffer -------------------------------------

// The C API counts bursts and gaps in 32-byte blocks (gaps end to start);
// DataCopy counts the bias table in 64 bytes and the fixpipe buffer in 128
// bytes (its gaps start to start): the same moves, in each page's units.
TEST_F(CapiCube, TableCopiesMatchDataCopy) {
  uint8_t* l1 = Bytes(CubeMemory::kL1, 0);
  std::memcpy(l1, gm_, 4096);
  const uint64_t bt0 = reinterpret_cast<uint64_t>(At<void>(0)) / 16;
  uint8_t* bt = Bytes(CubeMemory::kBiasTable, 0);
  uint8_t* fb = Bytes(CubeMemory::kFixpipe, 0);
  std::memset(bt, 0xEE, 1024);
  std::memset(fb, 0xEE, 2048);
  // size: 128 bytes.
  asc_copy_l12bt(bt0, At<void>(0), 128);
  AscendC::DataCopy(LocalTensor<float>(TPosition::C2, 512, 128),
                    LocalTensor<float>(TPosition::C1, 0, 1024), 32);
  EXPECT_EQ(std::memcmp(bt, bt + 512, 128), 0);
  EXPECT_EQ(std::memcmp(bt, gm_, 128), 0);
  // 2 bursts of 2 blocks (64 bytes), 1 block apart in L1, 2 in the table.
  std::memset(bt, 0xEE, 1024);
  asc_copy_l12bt(bt0, At<void>(0), 0, 2, 2, 1, 2);
  AscendC::DataCopy(LocalTensor<float>(TPosition::C2, 512, 128),
                    LocalTensor<float>(TPosition::C1, 0, 1024),
                    AscendC::DataCopyParams(2, 1, 1, 1));
  EXPECT_EQ(std::memcmp(bt, bt + 512, 256), 0);
  EXPECT_EQ(std::memcmp(bt + 128, gm_ + 96, 64), 0);
  // conv_control 1: half in L1 widened to float, len_burst counting the
  // table's side.
  std::memset(bt, 0xEE, 1024);
  for (uint32_t i = 0; i < 64; ++i) {
    const half v = static_cast<float>(static_cast<int>(i) - 20) * 0.25f;
    std::memcpy(l1 + 2048 + 2 * i, &v, 2);
  }
  asc_copy_l12bt_sync(bt0 + 4, At<void>(2048), 64);  // at byte 64, no widening
  asc_copy_l12bt(bt0, At<void>(2048), 1, 1, 2, 0, 0);
  AscendC::DataCopy(LocalTensor<float>(TPosition::C2, 512, 16),
                    LocalTensor<half>(TPosition::C1, 2048, 32),
                    AscendC::DataCopyParams(1, 1, 0, 0));
  EXPECT_EQ(std::memcmp(bt, bt + 512, 64), 0);
  EXPECT_EQ(reinterpret_cast<float*>(bt)[3], -4.25f);

  // The fixpipe buffer: size 256; 2 bursts of 4 blocks (128 bytes), 4
  // blocks apart in L1 and 4 in the buffer.
  asc_copy_l12fb(At<void>(0), At<void>(0), 256);
  AscendC::DataCopy(LocalTensor<uint64_t>(TPosition::C2PIPE2GM, 1024, 32),
                    LocalTensor<uint64_t>(TPosition::C1, 0, 128), 32);
  EXPECT_EQ(std::memcmp(fb, fb + 1024, 256), 0);
  std::memset(fb, 0xEE, 2048);
  asc_copy_l12fb(At<void>(0), At<void>(0), 2, 4, 4, 4);
  AscendC::DataCopy(LocalTensor<uint64_t>(TPosition::C2PIPE2GM, 1024, 64),
                    LocalTensor<uint64_t>(TPosition::C1, 0, 128),
                    AscendC::DataCopyParams(2, 1, 8, 2));
  EXPECT_EQ(std::memcmp(fb, fb + 1024, 512), 0);
  EXPECT_EQ(std::memcmp(fb + 256, gm_ + 256, 128), 0);
  asc_copy_l12fb_sync(At<void>(1536), At<void>(32), 32);
  EXPECT_EQ(std::memcmp(fb + 1536, gm_ + 32, 32), 0);

  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12bt(bt0, At<void>(0), 0, 1, 3, 0, 0); },
      "asc_copy_l12bt: len_burst 3 (x 32 bytes) is not a whole number of the "
      "bias table's 64-byte blocks up to 65535 (the unit of DataCopy L1 -> "
      "bias table on Atlas A2/A3)"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12bt(bt0, At<void>(0), 0, 2, 2, 0, 1); },
                "asc_copy_l12bt: dst_gap 1 (x 32 bytes) is not a whole number "
                "of the bias table's 64-byte blocks"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12bt(bt0, At<void>(0), 2, 1, 2, 0, 0); },
                "asc_copy_l12bt: conv_control 2 is not 0 (no conversion) or 1 "
                "(half to float)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12bt(bt0 + 2, At<void>(0), 64); },
      "asc_copy_l12bt: dst (x 16) is at bias table byte 32, which is not a "
      "multiple of 64 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12fb(At<void>(0), At<void>(0), 2, 4, 0, 2); },
      "asc_copy_l12fb: len_burst + dst_gap_size 6 (x 32 bytes) is not a whole "
      "number of the fixpipe buffer's 128-byte blocks"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12fb(At<void>(0), At<void>(0), 1, 80, 0, 0); },
      "asc_copy_l12fb: DataCopy<uint64_t> L1->FixpipeBuffer: the blocks "
      "written reaches 2560 bytes into dst"));
}

// ---- L1 -> L0A / L0B -------------------------------------------------------

TEST_F(CapiCube, L12L0MatchLoadData) {
  std::memcpy(Bytes(CubeMemory::kL1, 0), gm_, 8192);
  asc_copy_l12l0a(At<half>(0), At<half>(0), 2, 3, 2, 1);
  asc_copy_l12l0b_sync(At<float>(0), At<float>(0), 1, 4, 1, 0);
  LocalTensor<half> a(TPosition::A2, 8192, 4096);
  LocalTensor<float> b(TPosition::B2, 8192, 2048);
  LocalTensor<half> l1h(TPosition::A1, 0, 4096);
  LocalTensor<float> l1f(TPosition::A1, 0, 2048);
  AscendC::LoadData(a, l1h, AscendC::LoadData2DParams(2, 3, 2, 0, 1, false, 0));
  AscendC::LoadData(b, l1f, AscendC::LoadData2DParams(1, 4, 1, 0, 0, false, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 8192), 3 * 2 * 512),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 8192), 4 * 512),
            0);
  // Repeat 1 reads fractal 2 + 2 and writes fractal 2 (dst_gap 1).
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 1024), gm_ + 4 * 512, 512), 0);
  // int4b_t moves as bytes, as LoadData<int4b_t>.
  asc_copy_l12l0b(At<AscendC::int4b_t>(16384), At<AscendC::int4b_t>(512), 0, 2,
                  1, 0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 16384), gm_ + 512, 1024), 0);
}

// ---- Mmad and its modes ----------------------------------------------------

// Fills L0A and L0B with the same small values both APIs read.
void FillOperands(uint32_t a_bytes, uint32_t b_bytes) {
  uint8_t* a = Bytes(CubeMemory::kL0A, 0);
  uint8_t* b = Bytes(CubeMemory::kL0B, 0);
  for (uint32_t i = 0; i < a_bytes / 2; ++i) {
    const half v = static_cast<float>(static_cast<int>(i * 5 % 11) - 5);
    std::memcpy(a + 2 * i, &v, 2);
  }
  for (uint32_t i = 0; i < b_bytes / 2; ++i) {
    const half v = static_cast<float>(static_cast<int>(i * 3 % 7) - 3);
    std::memcpy(b + 2 * i, &v, 2);
  }
}

TEST_F(CapiCube, MmadMatchesMmad) {
  // M 32, K 48, N 32: 2 x 3 A fractals, 3 x 2 B fractals, half -> float.
  FillOperands(6 * 512, 6 * 512);
  asc_mmad(At<float>(0), At<half>(0), At<half>(0), 32, 48, 32, 0, false, false,
           true);
  LocalTensor<float> c(TPosition::CO1, 8192, 1024);
  LocalTensor<half> a(TPosition::A2, 0, 1536);
  LocalTensor<half> b(TPosition::B2, 0, 1536);
  AscendC::MmadParams p;
  p.m = 32;
  p.k = 48;
  p.n = 32;
  AscendC::Mmad(c, a, b, p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 4096),
            0);
  // c_matrix_init_val false, c_matrix_source false: C += A x B.
  asc_mmad_sync(At<float>(0), At<half>(0), At<half>(0), 32, 48, 32, 0, false,
                false, false);
  p.cmatrixInitVal = false;
  AscendC::Mmad(c, a, b, p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 4096),
            0);
  // The form with the reserved offsets computes the same.
  asc_mmad(At<float>(16384), At<half>(0), At<half>(0), 32, 48, 32, 0, 0, 0,
           false, false, false, true);
  p.cmatrixInitVal = true;
  AscendC::Mmad(c, a, b, p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 16384),
                        Bytes(CubeMemory::kL0C, 8192), 4096),
            0);
}

TEST_F(CapiCube, MmadInt8AndInt4MatchMmad) {
  for (uint32_t i = 0; i < 2048; ++i) {
    Bytes(CubeMemory::kL0A, 0)[i] = static_cast<uint8_t>(i * 13 + 5);
    Bytes(CubeMemory::kL0B, 0)[i] = static_cast<uint8_t>(i * 29 + 1);
  }
  asc_mmad(At<int32_t>(0), At<int8_t>(0), At<int8_t>(0), 16, 64, 32, 0, false,
           false, true);
  AscendC::MmadParams p;
  p.m = 16;
  p.k = 64;
  p.n = 32;
  AscendC::Mmad(LocalTensor<int32_t>(TPosition::CO1, 8192, 512),
                LocalTensor<int8_t>(TPosition::A2, 0, 2048),
                LocalTensor<int8_t>(TPosition::B2, 0, 2048), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 2048),
            0);
  asc_mmad_s4(At<int32_t>(0), At<AscendC::int4b_t>(0), At<AscendC::int4b_t>(0),
              16, 128, 16, 0, false, false, true);
  p.k = 128;
  p.n = 16;
  AscendC::Mmad(LocalTensor<int32_t>(TPosition::CO1, 8192, 256),
                LocalTensor<AscendC::int4b_t>(TPosition::A2, 0, 2048),
                LocalTensor<AscendC::int4b_t>(TPosition::B2, 0, 2048), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 1024),
            0);
}

// The 4:2 sparse path: the densified B and its indices into L0B, then the
// sparse Mmad, each against its C++ instruction on the same bytes.
TEST_F(CapiCube, SparseLoadAndMmadMatchLoadDataWithSparseAndMmadWithSparse) {
  // M 16, K 128, N 32: A 1 x 4 fractals; the dense B (64 x 32) 2 x 2.
  uint8_t* l1 = Bytes(CubeMemory::kL1, 0);
  for (uint32_t i = 0; i < 4 * 512; ++i) {
    l1[i] = static_cast<uint8_t>(static_cast<int>(i * 7 % 9) - 4);
    Bytes(CubeMemory::kL0A, 0)[i] = static_cast<uint8_t>(i * 13 + 5);
  }
  // Four 2-bit indices a byte, each 0, 1 or 2.
  for (uint32_t i = 0; i < 4 * 128; ++i) {
    uint8_t byte = 0;
    for (uint32_t f = 0; f < 4; ++f) byte |= ((i + f * 5) % 3) << (2 * f);
    l1[8192 + i] = byte;
  }
  asc_copy_l12l0b_sparse(At<int8_t>(0), At<int8_t>(0), At<int8_t>(8192), 0, 4);
  AscendC::LoadDataWithSparse(
      LocalTensor<int8_t>(TPosition::B2, 16384, 2048),
      LocalTensor<int8_t>(TPosition::B1, 0, 2048),
      LocalTensor<uint8_t>(TPosition::B1, 8192, 512),
      AscendC::LoadData2DParams(0, 4, 0, 0, 0, false, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 2048),
            0);
  asc_mmad_sparse(At<int32_t>(0), At<int8_t>(0), At<int8_t>(0), 16, 128, 32, 0,
                  false, true);
  AscendC::MmadParams p;
  p.m = 16;
  p.k = 128;
  p.n = 32;
  AscendC::MmadWithSparse(LocalTensor<int32_t>(TPosition::CO1, 8192, 512),
                          LocalTensor<int8_t>(TPosition::A2, 0, 2048),
                          LocalTensor<int8_t>(TPosition::B2, 16384, 2048), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 2048),
            0);
  // Accumulating onto L0C (c_matrix_init_val false), and the _sync forms
  // from fractal 2 on.
  asc_mmad_sparse_sync(At<int32_t>(0), At<int8_t>(0), At<int8_t>(0), 16, 128,
                       32, 0, false, false);
  p.cmatrixInitVal = false;
  AscendC::MmadWithSparse(LocalTensor<int32_t>(TPosition::CO1, 8192, 512),
                          LocalTensor<int8_t>(TPosition::A2, 0, 2048),
                          LocalTensor<int8_t>(TPosition::B2, 16384, 2048), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                        Bytes(CubeMemory::kL0C, 8192), 2048),
            0);
  asc_copy_l12l0b_sparse_sync(At<int8_t>(32768), At<int8_t>(0),
                              At<int8_t>(8192), 2, 2);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 32768), l1 + 1024, 1024), 0);
  asc_copy_l12l0b_sparse(At<int8_t>(49152), At<int8_t>(0), At<int8_t>(8192), 0,
                         0);  // repeat 0 moves nothing
  EXPECT_EQ(Bytes(CubeMemory::kL0B, 49152)[0], 0);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad_sparse(At<int32_t>(0), At<int8_t>(0), At<int8_t>(49152), 16,
                        128, 32, 0, false, true);
      },
      "asc_mmad_sparse: MmadWithSparse<int32_t, int8_t>: filter's L0B fractal "
      "96 (bytes 49152..49663 of L0B) has no index: no LoadDataWithSparse "
      "loaded it in this block"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad_sparse(At<int32_t>(0), At<int8_t>(0), At<int8_t>(0), 16, 128,
                        32, 0, true, false);
      },
      "asc_mmad_sparse: MmadWithSparse<int32_t, int8_t>: "
      "mmadParams.cmatrixSource is true, but MmadWithSparse has no bias "
      "tensor to start C from"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0b_sparse(At<int8_t>(0), At<int8_t>(16), At<int8_t>(8192),
                               0, 1);
      },
      "asc_copy_l12l0b_sparse: src is at L1 byte 16, which is not a multiple "
      "of 32 bytes"));
}

TEST_F(CapiCube, Hf32ModesMatchSetHF32Mode) {
  // Float inputs with bits below HF32's last place.
  for (uint32_t i = 0; i < 256; ++i) {
    const float a = 1.0f + static_cast<float>(i) / 4096.0f;
    const float b = 1.0f + static_cast<float>(i % 17) / 8192.0f;
    std::memcpy(Bytes(CubeMemory::kL0A, 4 * i), &a, 4);
    std::memcpy(Bytes(CubeMemory::kL0B, 4 * i), &b, 4);
  }
  LocalTensor<float> c(TPosition::CO1, 8192, 256);
  LocalTensor<float> a(TPosition::A2, 0, 256);
  LocalTensor<float> b(TPosition::B2, 0, 256);
  AscendC::MmadParams p;
  p.m = 16;
  p.k = 16;
  p.n = 16;
  const auto same = [&](const char* what) {
    asc_mmad(At<float>(0), At<float>(0), At<float>(0), 16, 16, 16, 0, false,
             false, true);
    AscendC::Mmad(c, a, b, p);
    EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0),
                          Bytes(CubeMemory::kL0C, 8192), 1024),
              0)
        << what;
  };
  same("off");
  std::vector<uint8_t> plain(Bytes(CubeMemory::kL0C, 0),
                             Bytes(CubeMemory::kL0C, 0) + 1024);
  asc_enable_hf32();
  same("hf32, ties to even");
  EXPECT_NE(std::memcmp(Bytes(CubeMemory::kL0C, 0), plain.data(), 1024), 0);
  asc_enable_hf32_trans(1);
  AscendC::SetHF32TransMode(AscendC::HF32TransMode::NEAREST_ZERO);
  same("hf32, ties away");
  asc_enable_hf32_trans(0);
  AscendC::SetHF32TransMode(AscendC::HF32TransMode::NEAREST_EVEN);
  asc_set_fp32_mode();
  same("fp32 again");
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0C, 0), plain.data(), 1024), 0);
  asc_set_mmad_direction_m();
  asc_set_mmad_direction_n();
  same("after the direction settings");
}

// ---- L0C -> GM -------------------------------------------------------------

TEST_F(CapiCube, L0c2GmMatchesDataCopy) {
  for (uint32_t i = 0; i < 1024; ++i) {
    const float v = static_cast<float>(static_cast<int>(i % 97) - 48) / 8.0f;
    std::memcpy(Bytes(CubeMemory::kL0C, 4 * i), &v, 4);
  }
  LocalTensor<float> c(TPosition::CO1, 0, 1024);
  // NZ2ND, float -> float, with ReLU: M 32, N 24 of a 32 x 32 Nz block.
  asc_set_l0c_copy_params(1, 1, 1);
  asc_copy_l0c2gm(reinterpret_cast<float*>(out_), At<float>(0), 24, 32, 24, 32,
                  0, 0, 1, false, true);
  AscendC::SetFixpipeNz2ndFlag(1, 1, 1);
  AscendC::DataCopyCO12DstParams p;
  p.nSize = 24;
  p.mSize = 32;
  p.dstStride = 24;
  p.srcStride = 32;
  p.reluPre = 1;
  p.nz2ndEn = true;
  AscendC::DataCopy(Gm<float>(out_ + 8192), c, p);
  EXPECT_EQ(std::memcmp(out_, out_ + 8192, 32 * 24 * 4), 0);
  // Row 1, column 17 is L0C element (17 / 16) * 32 * 16 + 1 * 16 + 1.
  float want;
  std::memcpy(&want, Bytes(CubeMemory::kL0C, 4 * (512 + 16 + 1)), 4);
  float got;
  std::memcpy(&got, out_ + 4 * (24 + 17), 4);
  EXPECT_EQ(got, want > 0 ? want : 0.0f);

  // NZ, float -> half (F322F16 = 1), the _sync form: the C API's stride is
  // 512 elements, 32 blocks of 32 bytes, the C++ instruction's unit.
  asc_copy_l0c2gm_sync(reinterpret_cast<half*>(out_), At<float>(0), 16, 32, 512,
                       32, 0, AscendC::F322F16, 0, false, false);
  p.nSize = 16;
  p.dstStride = 32;
  p.quantPre = AscendC::F322F16;
  p.reluPre = 0;
  p.nz2ndEn = false;
  AscendC::DataCopy(Gm<half>(out_ + 8192), c, p);
  EXPECT_EQ(std::memcmp(out_, out_ + 8192, 32 * 16 * 2), 0);

  // A scalar mode takes asc_set_l0c_copy_prequant's parameter: int32 -> half
  // by DEQF16 with scale 0.5.
  for (uint32_t i = 0; i < 256; ++i) {
    const int32_t v = static_cast<int32_t>(i) - 100;
    std::memcpy(Bytes(CubeMemory::kL0C, 8192 + 4 * i), &v, 4);
  }
  float scale = 0.5f;
  uint32_t scale_bits;
  std::memcpy(&scale_bits, &scale, 4);
  asc_set_l0c_copy_prequant(scale_bits);
  asc_copy_l0c2gm(reinterpret_cast<half*>(out_), At<int32_t>(8192), 16, 16, 16,
                  16, 0, AscendC::DEQF16, 0, false, true);
  for (uint32_t m = 0; m < 16; ++m) {
    for (uint32_t n = 0; n < 16; ++n) {
      half h;
      std::memcpy(&h, out_ + 2 * (m * 16 + n), 2);
      ASSERT_EQ(static_cast<float>(h),
                (static_cast<float>(m * 16 + n) - 100.0f) * 0.5f)
          << m << " " << n;
    }
  }
}

TEST_F(CapiCube, L0c2GmVectorModeMatchesDataCopy) {
  // int32 -> half by VDEQF16: one scale per column from the fixpipe buffer.
  for (uint32_t i = 0; i < 512; ++i) {
    const int32_t v = static_cast<int32_t>(i % 61) - 30;
    std::memcpy(Bytes(CubeMemory::kL0C, 4 * i), &v, 4);
  }
  uint8_t* fb = Bytes(CubeMemory::kFixpipe, 0);
  for (uint32_t n = 0; n < 32; ++n) {
    const float scale = 0.25f * static_cast<float>(n % 5 + 1);
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    const uint64_t param = bits;
    std::memcpy(fb + 8 * n, &param, 8);
  }
  EXPECT_EQ(asc_get_l0c2gm_prequant(), 0u);  // not set in this block
  asc_set_l0c2gm_config(0, asc_get_phy_buf_addr(0), true);
  EXPECT_EQ(asc_get_l0c2gm_prequant(), asc_get_phy_buf_addr(0));
  EXPECT_EQ(asc_get_l0c2gm_relu(), 0u);
  EXPECT_EQ(asc_get_l0c2gm_unitflag(), 1u);
  asc_set_l0c_copy_params(1, 1, 1);
  asc_copy_l0c2gm(reinterpret_cast<half*>(out_), At<int32_t>(0), 32, 16, 32, 16,
                  0, AscendC::VDEQF16, 0, false, true);
  AscendC::SetFixPipeConfig(LocalTensor<uint64_t>(TPosition::C2PIPE2GM, 0, 32));
  AscendC::SetFixpipeNz2ndFlag(1, 1, 1);
  AscendC::DataCopyCO12DstParams p;
  p.nSize = 32;
  p.mSize = 16;
  p.dstStride = 32;
  p.srcStride = 16;
  p.quantPre = AscendC::VDEQF16;
  p.nz2ndEn = true;
  AscendC::DataCopy(Gm<half>(out_ + 8192),
                    LocalTensor<int32_t>(TPosition::CO1, 0, 512), p);
  EXPECT_EQ(std::memcmp(out_, out_ + 8192, 16 * 32 * 2), 0);
  half h;
  std::memcpy(&h, out_ + 2 * (3 * 32 + 17), 2);  // row 3, column 17
  const int32_t v = static_cast<int32_t>((256 + 3 * 16 + 1) % 61) - 30;
  EXPECT_EQ(static_cast<float>(h), static_cast<float>(v) * 0.25f * 3);
}

TEST_F(CapiCube, L0c2L1MatchesFixpipe) {
  for (uint32_t i = 0; i < 1024; ++i) {
    const float v = static_cast<float>(static_cast<int>(i % 89) - 44) / 4.0f;
    std::memcpy(Bytes(CubeMemory::kL0C, 4 * i), &v, 4);
  }
  // NZ float -> bfloat16 with ReLU: 32 x 32, column blocks 32 rows (512
  // elements) apart.
  asc_copy_l0c2l1(At<bfloat16_t>(0), At<float>(0), 32, 32, 512, 32, 0,
                  AscendC::F322BF16, 1, false, false);
  AscendC::FixpipeParamsV220 p;
  p.nSize = 32;
  p.mSize = 32;
  p.srcStride = 32;
  p.dstStride = 32;
  p.quantPre = AscendC::F322BF16;
  p.reluEn = true;
  AscendC::Fixpipe<bfloat16_t, float, AscendC::CFG_NZ>(
      LocalTensor<bfloat16_t>(TPosition::A1, 8192, 1024),
      LocalTensor<float>(TPosition::CO1, 0, 1024), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 0), Bytes(CubeMemory::kL1, 8192),
                        2048),
            0);
  // A scalar mode takes asc_set_l0c_copy_prequant's parameter.
  const float scale = 2.0f;
  uint32_t bits;
  std::memcpy(&bits, &scale, 4);
  asc_set_l0c_copy_prequant(bits);
  asc_copy_l0c2l1_sync(At<half>(4096), At<int32_t>(0), 16, 16, 256, 16, 0,
                       AscendC::DEQF16, 0, false, false);
  p.nSize = 16;
  p.mSize = 16;
  p.srcStride = 16;
  p.dstStride = 16;
  p.quantPre = AscendC::DEQF16;
  p.deqScalar = bits;
  p.reluEn = false;
  AscendC::Fixpipe<half, int32_t, AscendC::CFG_NZ>(
      LocalTensor<half>(TPosition::A1, 12288, 256),
      LocalTensor<int32_t>(TPosition::CO1, 0, 256), p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 4096),
                        Bytes(CubeMemory::kL1, 12288), 512),
            0);
}

TEST_F(CapiCube, Gm2L0MatchesLoadData) {
  asc_copy_gm2l0a(At<float>(0), reinterpret_cast<float*>(gm_), 1, 3, 2, 1);
  asc_copy_gm2l0b_sync(At<int8_t>(0), reinterpret_cast<int8_t*>(gm_), 0, 2, 1,
                       0);
  AscendC::LoadData(LocalTensor<float>(TPosition::A2, 8192, 1280),
                    Gm<float>(gm_),
                    AscendC::LoadData2DParams(1, 3, 2, 0, 1, false, 0));
  AscendC::LoadData(LocalTensor<int8_t>(TPosition::B2, 8192, 1024),
                    Gm<int8_t>(gm_),
                    AscendC::LoadData2DParams(0, 2, 1, 0, 0, false, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 8192), 5 * 512),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 2048), gm_ + 5 * 512, 512), 0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0), gm_, 1024), 0);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l0a(At<half>(0), reinterpret_cast<half*>(gm_), 0, 0, 0, 0);
      },
      "asc_copy_gm2l0a<half>: repeat 0 is out of range [1, 255]"));
}

// ---- Img2col and transposed loads -----------------------------------------

// A 4 x 4 feature map of 16 half channels (C1HWC0: one block of 16 pixels
// of 32 bytes), a 3 x 3 kernel with padding 1: 16 windows of 144 columns.
void FillFeatureMap() {
  for (uint32_t i = 0; i < 256; ++i) {
    const half v = static_cast<float>(static_cast<int>(i % 19) - 9);
    std::memcpy(Bytes(CubeMemory::kL1, 2 * i), &v, 2);
  }
}

AscendC::LoadData3DParamsV2<half> WindowParams() {
  AscendC::LoadData3DParamsV2<half> p;
  for (uint8_t& pad : p.padList) pad = 1;
  p.l1H = 4;
  p.l1W = 4;
  p.channelSize = 16;
  p.kExtension = 144;
  p.mExtension = 16;
  p.filterW = 3;
  p.filterH = 3;
  p.padValue = half(2.0f);
  return p;
}

TEST_F(CapiCube, Img2colMatchesLoadData3D) {
  FillFeatureMap();
  asc_l13d_fmatrix_config fmatrix;
  fmatrix.l1_height = 4;
  fmatrix.l1_width = 4;
  fmatrix.padding_left_size = 1;
  fmatrix.padding_right_size = 1;
  fmatrix.padding_top_size = 1;
  fmatrix.padding_bottom_size = 1;
  EXPECT_EQ(fmatrix.config, 4u | (4u << 16) | (uint64_t{0x01010101} << 32));
  asc_set_l13d_fmatrix(fmatrix);
  asc_set_l13d_padding(half(2.0f));
  asc_copy_l12l0a(At<half>(0), At<half>(0), 144, 16, 0, 0, 1, 1, 3, 3, 1, 1,
                  false, false, false, false, 16);
  asc_copy_l12l0b_sync(At<half>(0), At<half>(0), 144, 16, 0, 0, 1, 1, 3, 3, 1,
                       1, false, false, false, false, 16);
  const AscendC::LoadData3DParamsV2<half> p = WindowParams();
  LocalTensor<half> l1(TPosition::A1, 0, 256);
  AscendC::LoadData(LocalTensor<half>(TPosition::A2, 16384, 2304), l1, p);
  AscendC::LoadData(LocalTensor<half>(TPosition::B2, 16384, 2304), l1, p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 4608),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 4608),
            0);
  // Row 0, column 0 is the top-left padding: the pad value.
  half corner;
  std::memcpy(&corner, Bytes(CubeMemory::kL0A, 0), 2);
  EXPECT_EQ(static_cast<float>(corner), 2.0f);

  // Two windows along the rows (asc_set_l13d_rpt), within an L1 boundary.
  asc_load3d_v2_config repeat;
  EXPECT_EQ(repeat.config, ASC_DEFAULT_LOAD3D_V2_CONFIG_VALUE);
  EXPECT_EQ(repeat.rpt_time, 1u);
  repeat.rpt_time = 2;
  repeat.rpt_stride = 0;
  asc_set_l13d_rpt(repeat);
  asc_set_l13d_size(2048);
  asc_copy_l12l0a(At<half>(0), At<half>(0), 144, 16, 0, 0, 1, 1, 3, 3, 1, 1,
                  false, false, false, false, 16);
  AscendC::LoadDataRepeatParam rp;
  rp.repeatTime = 2;
  AscendC::SetLoadDataRepeat(rp);
  AscendC::SetLoadDataBoundary(2048);
  AscendC::LoadData(LocalTensor<half>(TPosition::A2, 16384, 4608), l1, p);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 9216),
            0);
}

TEST_F(CapiCube, TransposedLoadsMatchLoadDataWithTranspose) {
  for (uint32_t i = 0; i < 8192; ++i) {
    Bytes(CubeMemory::kL1, 0)[i] = static_cast<uint8_t>(i * 31 + 7);
  }
  asc_copy_l12l0b_trans(At<half>(0), At<half>(0), 1, 3, 2, 1, false, 0);
  AscendC::LoadDataWithTranspose(
      LocalTensor<half>(TPosition::B2, 16384, 2560),
      LocalTensor<half>(TPosition::A1, 0, 4096),
      AscendC::LoadData2dTransposeParams(1, 3, 2, 1, 0, 0));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 16384), 5 * 512),
            0);
  // 32-bit squares (two 16 x 8 fractals), falling, one fractal between.
  asc_copy_l12l0a_trans_sync(At<float>(0), At<float>(0), 3, 2, 1, 0, true, 1);
  AscendC::LoadDataWithTranspose(
      LocalTensor<float>(TPosition::A2, 16384, 1024),
      LocalTensor<float>(TPosition::A1, 0, 2048),
      AscendC::LoadData2dTransposeParams(3, 2, 1, 0, 1, 1));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 16384), 4 * 512),
            0);
  // The first square's first fractal is the transpose of square 3's
  // first-fractal columns: element (0, 1) of dst is (1, 0) of the square.
  float got, want;
  std::memcpy(&got, Bytes(CubeMemory::kL0A, 4), 4);
  std::memcpy(&want, Bytes(CubeMemory::kL1, 3 * 1024 + 32), 4);
  EXPECT_EQ(std::memcmp(&got, &want, 4), 0);
}

TEST_F(CapiCube, Img2colMessages) {
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0a(At<half>(0), At<half>(0), 144, 16, 0, 0, 1, 1, 3, 3, 1,
                        1, false, false, false, false, 16);
      },
      "asc_copy_l12l0a<half>: LoadData"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0a(At<half>(0), At<half>(0), 144, 16, 0, 0, 1, 1, 3, 3, 1,
                        1, false, false, false, false, 16);
      },
      "SetFmatrix"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0a(At<half>(0), At<half>(0), 0, 16, 0, 0, 1, 1, 3, 3, 1, 1,
                        false, false, false, false, 16);
      },
      "asc_copy_l12l0a<half>: k_extension 0 is out of range [1, 65535]"));
  asc_l13d_fmatrix_config fmatrix;
  fmatrix.l1_height = 4;
  fmatrix.l1_width = 4;
  EXPECT_TRUE(FailsWith([&] { asc_set_l13d_fmatrix_b(fmatrix); },
                        "asc_set_l13d_fmatrix_b: SetFmatrix: fmatrixMode 1; "
                        "only FMATRIX_LEFT (0) is supported"));
  fmatrix.l1_height = 0;
  EXPECT_TRUE(FailsWith([&] { asc_set_l13d_fmatrix(fmatrix); },
                        "asc_set_l13d_fmatrix: SetFmatrix: l1H 0 is out of "
                        "range"));
  EXPECT_TRUE(FailsWith([&] { asc_set_l13d_size(100); },
                        "asc_set_l13d_size: SetLoadDataBoundary"));
  EXPECT_TRUE(FailsWith([&] { asc_set_l13d_padding(uint64_t{1} << 40); },
                        "asc_set_l13d_padding: config 0x10000000000 does not "
                        "fit 32 bits"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0a_trans(At<half>(0), At<half>(0), 0, 2, 1, 0, true, 0);
      },
      "asc_copy_l12l0a_trans<half>: LoadDataWithTranspose"));
}

// ---- Fill ------------------------------------------------------------------

TEST_F(CapiCube, FillsMatchFill) {
  asc_fill_value_config config;
  config.repeat = 2;
  config.blk_num = 1;
  config.dst_gap = 1;
  EXPECT_EQ(config.config, 2u | (1u << 16) | (uint64_t{1} << 32));
  // A float element from the bits of a uint32_t (1.0f).
  asc_fill_l0a(At<float>(0), uint32_t{0x3F800000}, config);
  AscendC::Fill(LocalTensor<float>(TPosition::A2, 8192, 512),
                AscendC::InitConstValueParams<float>(2, 1, 1, 1.0f));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0A, 0),
                        Bytes(CubeMemory::kL0A, 8192), 2048),
            0);
  float first;
  std::memcpy(&first, Bytes(CubeMemory::kL0A, 1024 + 508), 4);
  EXPECT_EQ(first, 1.0f);

  // half into half, and half's bits into int16_t: the same bytes.
  asc_fill_l0b(At<half>(0), half(2.5f), config);
  asc_fill_l0b_sync(At<int16_t>(4096), half(2.5f), config);
  AscendC::Fill(LocalTensor<half>(TPosition::B2, 8192, 1024),
                AscendC::InitConstValueParams<half>(2, 1, 1, half(2.5f)));
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 0),
                        Bytes(CubeMemory::kL0B, 8192), 2048),
            0);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL0B, 4096),
                        Bytes(CubeMemory::kL0B, 8192), 2048),
            0);

  // L1 blocks are 32 bytes; a uint32_t that fits 16 bits fills a uint16_t.
  config.repeat = 3;
  config.blk_num = 2;
  config.dst_gap = 1;
  asc_fill_l1(At<uint16_t>(0), uint32_t{0xBEEF}, config);
  asc_fill_l1_sync(At<uint16_t>(1024), uint32_t{0xBEEF}, config);
  AscendC::Fill(LocalTensor<uint16_t>(TPosition::A1, 2048, 512),
                AscendC::InitConstValueParams<uint16_t>(3, 2, 1, 0xBEEF));
  for (uint32_t at : {0u, 1024u}) {
    EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, at),
                          Bytes(CubeMemory::kL1, 2048), 256),
              0)
        << at;
  }
}

// ---- A C-API-only kernel ---------------------------------------------------

// C (M x N, float) = A (M x K, half) x B (K x N, half) from GM to GM: A by
// ND2NZ into L1 and row by row of fractals into L0A (Zz); B given as Bᵀ
// (N x K), whose Nz in L1 is B's Zn, moved whole into L0B; C out of L0C as
// ND. The reference sums in double.
TEST_F(CapiCube, KernelMatchesFloat64Reference) {
  constexpr uint32_t M = 48, K = 64, N = 32;
  constexpr uint32_t kM1 = M / 16, kK1 = K / 16, kN1 = N / 16;
  std::vector<double> a(M * K), bt(N * K);
  half* ga = reinterpret_cast<half*>(gm_);
  half* gbt = reinterpret_cast<half*>(gm_ + 8192);
  for (uint32_t i = 0; i < M * K; ++i) {
    a[i] = static_cast<double>(static_cast<int>(i * 37 % 29) - 14) / 4;
    ga[i] = static_cast<float>(a[i]);
  }
  for (uint32_t i = 0; i < N * K; ++i) {
    bt[i] = static_cast<double>(static_cast<int>(i * 11 % 23) - 11) / 2;
    gbt[i] = static_cast<float>(bt[i]);
  }
  __cbuf__ half* l1a = At<half>(0);
  __cbuf__ half* l1b = At<half>(M * K * 2);
  asc_copy_gm2l1_nd2nz(l1a, ga, 1, M, K, 0, K, M, 1, 0);
  asc_copy_gm2l1_nd2nz(l1b, gbt, 1, N, K, 0, K, N, 1, 0);
  __ca__ half* l0a = At<half>(0);
  for (uint32_t i = 0; i < kM1; ++i) {
    asc_copy_l12l0a(l0a + i * kK1 * 256, l1a, i, kK1, kM1, 0);
  }
  asc_copy_l12l0b(At<half>(0), l1b, 0, kK1 * kN1, 1, 0);
  asc_mmad(At<float>(0), l0a, At<half>(0), M, K, N, 0, false, false, true);
  asc_set_l0c_copy_params(1, 1, 1);
  float* gc = reinterpret_cast<float*>(out_);
  asc_copy_l0c2gm(gc, At<float>(0), N, M, N, M, 0, AscendC::NoQuant, 0, false,
                  true);
  for (uint32_t m = 0; m < M; ++m) {
    for (uint32_t n = 0; n < N; ++n) {
      double sum = 0;
      for (uint32_t k = 0; k < K; ++k) sum += a[m * K + k] * bt[n * K + k];
      // Quarter- and half-integers below 2^11 in magnitude: every partial
      // sum is exact in float.
      ASSERT_EQ(gc[m * N + n], sum) << m << " " << n;
    }
  }
}

// ---- Pointers and messages -------------------------------------------------

TEST_F(CapiCube, PointersFromGetPhyAddrAndOffsetsAgree) {
  // GetPhyAddr of a tensor at a cube position is the same byte.
  LocalTensor<half> l1(TPosition::A1, 1024, 256);
  asc_copy_gm2l1(l1.GetPhyAddr(), gm_, 512);
  EXPECT_EQ(std::memcmp(Bytes(CubeMemory::kL1, 1024), gm_, 512), 0);
  EXPECT_EQ(asc_get_phy_buf_addr(4096) - asc_get_phy_buf_addr(0), 4096u);
  EXPECT_NE(At<void>(0), nullptr);
  EXPECT_TRUE(FailsWith([&] { asc_get_phy_buf_addr(524289); },
                        "asc_get_phy_buf_addr: offset 524289 is past the cube "
                        "core's largest memory, the L1's 524288 bytes"));
}

// L1 -> L0C has no C++ instruction: against the page's burst walk written
// here (32-byte blocks of L0C, gaps from a burst's end to the next start).
TEST_F(CapiCube, L12L0cMovesBurstsAndNarrowsFloat) {
  uint8_t* l1 = Bytes(CubeMemory::kL1, 0);
  uint8_t* l0c = Bytes(CubeMemory::kL0C, 0);
  std::memcpy(l1, gm_, 4096);
  // half -> half: 3 bursts of 2 blocks, 1 block apart in L1, 2 in L0C.
  std::memset(l0c, 0xEE, 1024);
  asc_copy_l12l0c(At<half>(0), At<half>(0), 3, 2, 1, 2);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(std::memcmp(l0c + i * 128, gm_ + i * 96, 64), 0) << i;
    EXPECT_EQ(l0c[i * 128 + 64], 0xEE) << i;  // the gap is not written
  }
  asc_copy_l12l0c_sync(At<int32_t>(1024), At<int32_t>(64), 1, 4, 0, 0);
  EXPECT_EQ(std::memcmp(l0c + 1024, gm_ + 64, 128), 0);
  // float -> half: len_burst counts L0C's 32-byte blocks, so each burst
  // reads 64 bytes (16 floats) of L1; values exact in half, and two ties.
  float* f = reinterpret_cast<float*>(l1 + 2048);
  for (uint32_t i = 0; i < 32; ++i) f[i] = static_cast<float>(i) * 0.5f - 4.0f;
  f[1] = 1.0f + 0x1p-11f;      // a tie: to 1.0 (even)
  f[2] = 1.0f + 3 * 0x1p-11f;  // a tie: to 1 + 2^-9 (even)
  asc_copy_l12l0c(At<half>(2048), At<float>(2048), 2, 1, 0, 1);
  const uint16_t* h = reinterpret_cast<const uint16_t*>(l0c + 2048);
  EXPECT_EQ(h[0], 0xC400);  // -4.0
  EXPECT_EQ(h[1], 0x3C00);
  EXPECT_EQ(h[2], 0x3C02);
  EXPECT_EQ(h[3], 0xC100);   // -2.5
  EXPECT_EQ(h[32], 0x4400);  // the second burst, 64 bytes on: float 16, 4.0
  EXPECT_EQ(h[33], 0x4480);  // 4.5
  // float -> bfloat16_t keeps the top 16 bits when the rest is 0.
  asc_copy_l12l0c(At<bfloat16_t>(3072), At<float>(2048), 1, 1, 0, 0);
  const uint16_t* b = reinterpret_cast<const uint16_t*>(l0c + 3072);
  EXPECT_EQ(b[0], 0xC080);  // -4.0
  EXPECT_EQ(b[3], 0xC020);  // -2.5

  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12l0c(At<half>(0), At<half>(0), 0, 1, 0, 0); },
      "asc_copy_l12l0c<half, half>: n_burst 0 is out of range [1, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12l0c(At<float>(131008), At<float>(0), 3, 1, 0, 0); },
      "asc_copy_l12l0c<float, float>: the bursts reach 96 bytes into dst, "
      "past the end of L0C (64 bytes from dst)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12l0c(At<half>(32), At<half>(0), 1, 1, 0, 0); },
      "asc_copy_l12l0c<half, half>: dst is at L0C byte 32, which is not a "
      "multiple of 64 bytes"));
}

// unit_flag and unit_flag_mode are the C++ instructions' unitFlag: the
// handshake on L0C's blocks (docs/cube.md, "UnitFlag").
TEST_F(CapiCube, UnitFlagsTakePartInTheHandshake) {
  FillOperands(512, 512);
  asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 3, false, false,
           true);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 2, false,
                 false, true);
      },
      "asc_mmad<float, half>: Mmad<float, half, half>: mmadParams.unitFlag 2 "
      "waits for L0C block 0 (bytes 0..511) to have its unit flag 0, but it "
      "is 1"));
  asc_set_l0c_copy_params(1, 1, 1);
  asc_copy_l0c2gm(reinterpret_cast<float*>(out_), At<float>(0), 16, 16, 16, 16,
                  3, 0, 0, false, true);
  asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 3, false, false,
           true);  // the copy's 3 gave the blocks back
}

// No Atlas A2/A3 copy reads a Leaky ReLU alpha: setting one is refused.
TEST_F(CapiCube, LreluAlphaIsRefused) {
  half h = 0.5f;
  float f = 0.25f;
  EXPECT_TRUE(FailsWith(
      [&] { asc_set_l0c2gm_lrelu_alpha(h); },
      "asc_set_l0c2gm_lrelu_alpha: config 0.5: no Atlas A2/A3 copy out of L0C "
      "reads a Leaky ReLU alpha (asc_copy_l0c2gm and asc_copy_l0c2l1 take "
      "relu_pre 0, no ReLU, or 1, ReLU; Fixpipe's reluEn likewise), so the "
      "setting is not emulated"));
  EXPECT_TRUE(FailsWith([&] { asc_set_l0c2gm_lrelu_alpha(f); },
                        "asc_set_l0c2gm_lrelu_alpha: config 0.25"));
}

TEST_F(CapiCube, Messages) {
  half host[256];  // an array in the kernel: host memory
  EXPECT_TRUE(FailsWith([&] { asc_copy_l12l0a(At<half>(0), host, 0, 1, 0, 0); },
                        "asc_copy_l12l0a<half>: src"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12l0a(At<half>(0), host, 0, 1, 0, 0); },
                "is not an address of the L1; on a cube core take one from "
                "asc_get_phy_buf_addr(offset), offset 0 to 524287"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l12l0a(At<half>(0), static_cast<half*>(nullptr), 0, 1, 0, 0);
      },
      "asc_copy_l12l0a<half>: src (nil) is not an address of the L1"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12l0a(At<half>(256), At<half>(0), 0, 1, 0, 0); },
      "asc_copy_l12l0a<half>: dst is at L0A byte 256, which is not a multiple "
      "of 512 bytes"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12l0b(At<half>(0), At<half>(0), 0, 0, 0, 0); },
                "asc_copy_l12l0b<half>: repeat 0 is out of range [1, 255]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12l0b(At<half>(65024), At<half>(0), 0, 2, 0, 0); },
      "asc_copy_l12l0b<half>: LoadData<half> L1->L0B: the fractals written "
      "reaches 1024 bytes into dst"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_gm2l1_nd2nz(At<half>(0), reinterpret_cast<half*>(gm_), 1,
                             20000, 16, 0, 16, 1, 1, 0);
      },
      "asc_copy_gm2l1_nd2nz<half>: DataCopy<half> GM->L1 (Nd2NzParams): "
      "intriParams.nValue 20000 is out of range"));
  // The C++ instruction's message keeps one call site, the caller's.
  try {
    asc_mmad(At<float>(0), At<half>(0), At<half>(0), 5000, 16, 16, 0, false,
             false, true);
    ADD_FAILURE() << "no KernelError";
  } catch (const normgrad_ascendc::KernelError& e) {
    const std::string message = e.what();
    const std::string file = "capi_cube_test.cc:";
    EXPECT_EQ(message.find(file), message.rfind(file)) << message;
    EXPECT_NE(message.find(": asc_mmad<float, half>: Mmad"), std::string::npos)
        << message;
  }
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2l1(At<void>(0), gm_, 3, 0, 0, 0); },
                        "asc_copy_gm2l1: len_burst 0 is out of range [1, "
                        "65535]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_gm2l1(At<void>(0), gm_, 100); },
      "asc_copy_gm2l1: size 100 bytes is not a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2l1(At<void>(0), nullptr, 64); },
                        "asc_copy_gm2l1: src is a null pointer"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 0, false,
                 true, false);
      },
      "asc_mmad<float, half>: c_matrix_init_val false with c_matrix_source "
      "true starts C from the bias table"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 0, 0, 1,
                 false, true, false, true);
      },
      "asc_mmad<float, half>: is_weight_offset is true"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad(At<float>(0), At<half>(0), At<half>(0), 5000, 16, 16, 0, false,
                 false, true);
      },
      "asc_mmad<float, half>: Mmad"));
  EXPECT_TRUE(FailsWith([&] { asc_enable_hf32_trans(2); },
                        "asc_enable_hf32_trans: mode 2 is not 0"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2gm(reinterpret_cast<float*>(out_), At<float>(0), 16, 16,
                        16, 16, 0, 9, 0, false, false);
      },
      "asc_copy_l0c2gm<float, float>: quant_pre 9 is out of range [0, 8]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2gm(reinterpret_cast<float*>(out_), At<float>(0), 0, 16, 16,
                        16, 0, 0, 0, false, false);
      },
      "asc_copy_l0c2gm<float, float>: n_size 0 is out of range [1, 4095]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2gm(reinterpret_cast<float*>(out_), At<float>(0), 16, 16,
                        16, 16, 0, 0, 0, false, true);
      },
      "SetFixpipeNz2ndFlag was not called in this block"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2gm(reinterpret_cast<half*>(out_), At<float>(0), 16, 16, 24,
                        16, 0, AscendC::F322F16, 0, false, false);
      },
      "asc_copy_l0c2gm<half, float>: dst_stride_dst_d 24 elements (48 bytes) "
      "is not a multiple of 32 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2l1(At<half>(0), At<float>(0), 16, 16, 256, 16, 0,
                        AscendC::F322F16, 0, false, true);
      },
      "asc_copy_l0c2l1<half, float>: enable_nz2nd is true; the L0C -> L1 "
      "path writes NZ only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2l1(At<half>(0), At<int32_t>(0), 16, 16, 256, 16, 0,
                        AscendC::DEQF16, 0, false, false);
      },
      "asc_copy_l0c2l1<half, int32_t>: quant_pre 3 is a scalar mode, whose "
      "parameter asc_set_l0c_copy_prequant sets; it was not called"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2l1(At<half>(0), At<float>(0), 16, 16, 256, 16, 0,
                        AscendC::NoQuant, 0, false, false);
      },
      "asc_copy_l0c2l1<half, float>: Fixpipe"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2l1(At<void>(0), At<float>(0), 16, 16, 256, 16, 0,
                        AscendC::F322F16, 0, false, false);
      },
      "asc_copy_l0c2l1<void, float>: a void dst (the int4b_t outputs) is not "
      "emulated"));
  EXPECT_TRUE(FailsWith([&] { asc_set_l0c2gm_config(64, 0, false); },
                        "asc_set_l0c2gm_config: relu_pre 0x40 is not 0"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_set_l0c2gm_config(0, asc_get_phy_buf_addr(64), false); },
      "asc_set_l0c2gm_config: quant_pre is at fixpipe"));
  EXPECT_TRUE(FailsWith([&] { asc_set_l0c_copy_params(1, 600, 1); },
                        "asc_set_l0c_copy_params: src_nd_stride 600 is out of "
                        "range [1, 512]"));
  asc_fill_value_config config;
  config.repeat = 1;
  config.blk_num = 1;
  EXPECT_TRUE(FailsWith(
      [&] { asc_fill_l1(At<half>(0), uint32_t{0x12345}, config); },
      "asc_fill_l1<half, uint32_t>: value 0x12345 does not fit the 16 bits"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_fill_l0a(At<float>(0), half(1.0f), config); },
      "asc_fill_l0a<float, half>: a 16-bit value for a 32-bit float element"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_fill_l0b(At<float>(256), uint32_t{0}, config); },
      "asc_fill_l0b<float, uint32_t>: dst is at L0B byte 256, which is not "
      "a multiple of 512 bytes"));
}

TEST_F(CapiCube, RefusedOnAVectorCore) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_mmad(At<float>(0), At<half>(0), At<half>(0), 16, 16, 16, 0, false,
                 false, true);
      },
      "asc_mmad<float, half>: runs on the cube unit; this kernel runs on a "
      "vector core"));
  EXPECT_TRUE(FailsWith([&] { asc_enable_hf32(); },
                        "asc_enable_hf32: runs on the cube unit"));
  EXPECT_TRUE(FailsWith([&] { asc_copy_gm2l1(At<void>(0), gm_, 64); },
                        "asc_copy_gm2l1: runs on the cube unit"));
}

TEST_F(CapiCube, RefusedOnOtherProfiles) {
  compat_test::ProfileScope p310(normgrad_ascendc::Profile::k310P);
  EXPECT_TRUE(FailsWith([&] { asc_set_mmad_direction_m(); },
                        "asc_set_mmad_direction_m: not available on profile"));
}

}  // namespace

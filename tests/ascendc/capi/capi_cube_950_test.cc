// capi_cube_950_test.cc — the C API's Ascend 950 cube side (docs/capi.md,
// "The Ascend 950: the copies out of L0C" and "The 950's bias table,
// fixpipe buffer and NZ2ND register"): asc_copy_l0c2ub against the C++
// Fixpipe with FixpipeParamsArch3510 on the same L0C in one mixed kernel
// (vector core 0's UB written by the C API, vector core 1's by the C++ API,
// bit for bit and against the NZ2ND placement), the 3510 forms of
// asc_copy_l0c2gm (NZ2DN, NZ2ND with asc_set_l0c2gm_nz2nd's matrices, and
// the scalar quantization modes with asc_set_l0c_copy_prequant's parameter)
// and asc_copy_l0c2l1 (NZ, F322F16) against the C++ Fixpipe on the same L0C,
// asc_copy_l12bt / asc_copy_l12fb against the C++ DataCopy in the 950's
// units, and each message. Part of capi_cube_test.
//
// Extending: a new 950 C API function gets a comparison with its C++
// instruction (in the mixed kernel where it writes a vector core's UB) and
// its messages. The pointers come from LocalTensor::GetPhyAddr() or
// asc_get_phy_buf_addr (which runs on the 950 too).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using namespace AscendC;  // NOLINT: kernels are written this way
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::LaunchKernel;
using normgrad_ascendc::Profile;

constexpr uint32_t kM = 32, kN = 32, kUbFloats = kM * kN;
constexpr FixpipeConfig kToUbNd{CO2Layout::ROW_MAJOR, true};

float Value(uint32_t r, uint32_t c) { return float(r * 64 + c + 1); }

// L0C holding Value(r, c) in Nz (column blocks of kM rows).
LocalTensor<float> FillL0c(TPipe& pipe, TBuf<TPosition::CO1>& buf) {
  pipe.InitBuffer(buf, kM * kN * 4);
  LocalTensor<float> c = buf.Get<float>();
  for (uint32_t r = 0; r < kM; ++r) {
    for (uint32_t col = 0; col < kN; ++col)
      c.SetValue((col / 16) * kM * 16 + r * 16 + col % 16, Value(r, col));
  }
  return c;
}

// The calls under test, with only the layout, the destination and the
// vector core set.
template <typename D, typename S>
void CopyNd(D* dst, S* src, bool sub_block, uint64_t quant_post = 0,
            bool nz2dn = false) {
  asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, sub_block, 0, 0, 0, 0, false,
                  true, quant_post, 0, false, 0, false, false, false, nz2dn);
}

extern "C" __global__ __mix__(1, 2) void capi_l0c2ub(GM_ADDR out) {
  if (ASCEND_IS_AIC) {
    TPipe pipe;
    TBuf<TPosition::CO1> l0c;
    LocalTensor<float> c = FillL0c(pipe, l0c);
    LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
    CopyNd(reinterpret_cast<float*>(ub.GetPhyAddr()),
           reinterpret_cast<float*>(c.GetPhyAddr()), false);
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> p;
    p.mSize = kM;
    p.nSize = kN;
    p.srcStride = kM;
    p.dstStride = kN;
    p.subBlockId = 1;
    Fixpipe<float, float, kToUbNd>(ub, c, p);
    CrossCoreSetFlag<2, PIPE_FIX>(1);
  } else {
    CrossCoreWaitFlag<2, PIPE_MTE3>(1);
    LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(out) + GetBlockIdx() * kUbFloats,
        kUbFloats);
    DataCopy(g, ub, kUbFloats);
  }
}

TEST(CapiCube950Test, CopyL0cToUbMatchesFixpipe) {
  const ProfileScope profile(Profile::k950);
  std::vector<float> out(2 * kUbFloats, -1.0f);
  ASSERT_EQ(LaunchKernel("capi_l0c2ub", 1, 0, nullptr, capi_l0c2ub,
                         reinterpret_cast<uint8_t*>(out.data())),
            0);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(out[k], Value(k / kN, k % kN)) << k;
    ASSERT_EQ(out[k], out[kUbFloats + k]) << k;
  }
}

// asc_copy_l12ub into vector core 0's UB, DataCopyL1ToUB with the same
// bursts into vector core 1's, from L1 holding 0, 1, 2, ...
extern "C" __global__ __mix__(1, 2) void capi_l12ub(GM_ADDR out) {
  if (ASCEND_IS_AIC) {
    TPipe pipe;
    TBuf<TPosition::A1> l1;
    pipe.InitBuffer(l1, kUbFloats * 4);
    LocalTensor<float> src = l1.Get<float>();
    for (uint32_t k = 0; k < kUbFloats; ++k) src.SetValue(k, float(k));
    LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
    asc_copy_l12ub(reinterpret_cast<void*>(ub.GetPhyAddr()),
                   reinterpret_cast<void*>(src.GetPhyAddr()), false, 3, 2, 1,
                   4);
    DataCopyL1ToUB<float, 1>(ub, src, DataCopyParams(3, 2, 1, 4));
    CrossCoreSetFlag<2, PIPE_MTE1>(1);
  } else {
    CrossCoreWaitFlag<2, PIPE_MTE3>(1);
    LocalTensor<float> ub(TPosition::VECOUT, 0, kUbFloats);
    GlobalTensor<float> g;
    g.SetGlobalBuffer(
        reinterpret_cast<__gm__ float*>(out) + GetBlockIdx() * kUbFloats,
        kUbFloats);
    DataCopy(g, ub, kUbFloats);
  }
}

TEST(CapiCube950Test, CopyL1ToUbMatchesDataCopyL1ToUb) {
  const ProfileScope profile(Profile::k950);
  std::vector<float> out(2 * kUbFloats, -1.0f);
  ASSERT_EQ(LaunchKernel("capi_l12ub", 1, 0, nullptr, capi_l12ub,
                         reinterpret_cast<uint8_t*>(out.data())),
            0);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    // Burst b (16 floats) from L1 float b x 24 to UB float b x 48.
    const uint32_t b = k / 48, in = k % 48;
    const float want = b < 3 && in < 16 ? float(b * 24 + in) : 0.0f;
    ASSERT_EQ(out[k], want) << k;
    ASSERT_EQ(out[k], out[kUbFloats + k]) << k;
  }
}

// The 950's asc_copy_l0c2gm and asc_copy_l0c2l1 forms against the C++
// Fixpipe, from a cube core outside a mixed kernel; then each rule's
// message.
class CapiCube950RulesTest : public testing::Test {
 protected:
  void SetUp() override {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  }
  void TearDown() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
};

TEST_F(CapiCube950RulesTest, GmAndL1FormsMatchFixpipe) {
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  float* src = reinterpret_cast<float*>(c.GetPhyAddr());
  // NZ2DN into GM: row n of the output holds column n.
  alignas(32) static float by_capi[kUbFloats], by_sync[kUbFloats],
      by_fixpipe[kUbFloats];
  asc_copy_l0c2gm(by_capi, src, kN, kM, kM, kM, 0, 0, 0, 0, 0, false, false, 0,
                  0, false, 0, false, false, false, true);
  asc_copy_l0c2gm_sync(by_sync, src, kN, kM, kM, kM, 0, 0, 0, 0, 0, false,
                       false, 0, 0, false, 0, false, false, false, true);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(by_fixpipe, kUbFloats);
  FixpipeParamsArch3510<CO2Layout::COLUMN_MAJOR> dn;
  dn.mSize = kM;
  dn.nSize = kN;
  dn.srcStride = kM;
  dn.dstStride = kM;
  dn.params.srcNzC0Stride = 1;
  Fixpipe<float, float, CFG_COLUMN_MAJOR>(g, c, dn);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(by_capi[k], Value(k % kM, k / kM)) << k;
    ASSERT_EQ(by_capi[k], by_fixpipe[k]) << k;
    ASSERT_EQ(by_sync[k], by_fixpipe[k]) << k;
  }
  // NZ into L1 with F322F16: the two halves of one L1 buffer compared.
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 2 * kUbFloats * 2);
  LocalTensor<half> both = l1.Get<half>();
  asc_copy_l0c2l1(reinterpret_cast<half*>(both.GetPhyAddr()), src, kN, kM,
                  kM * 16, kM, 0, 0, AscendC::F322F16, 0, false, false, 0, 0,
                  false, 0, 0, false);
  FixpipeParamsArch3510<CO2Layout::NZ> nz;
  nz.mSize = kM;
  nz.nSize = kN;
  nz.srcStride = kM;
  nz.dstStride = kM * 16;
  nz.quantPre = AscendC::F322F16;
  Fixpipe<half, float, CFG_NZ>(both[kUbFloats], c, nz);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    const uint32_t r = k % (kM * 16) / 16, col = k / (kM * 16) * 16 + k % 16;
    ASSERT_EQ(static_cast<float>(both.GetValue(k)), Value(r, col)) << k;
    ASSERT_EQ(static_cast<float>(both.GetValue(k)),
              static_cast<float>(both.GetValue(kUbFloats + k)))
        << k;
  }
}

// The scalar quantization modes take asc_set_l0c_copy_prequant's parameter:
// QF322FP8_PRE with ReLU into GM (ND) and QS322BF16_PRE from int32_t, each
// bit for bit against the C++ Fixpipe with the same deqScalar.
TEST_F(CapiCube950RulesTest, ScalarQuantModesTakeThePrequantParameter) {
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  const uint64_t scale = 0x3D800000ull;  // 2^-4
  asc_set_l0c_copy_prequant(scale);
  alignas(32) static fp8_e4m3fn_t by_capi[kUbFloats], by_fixpipe[kUbFloats];
  asc_copy_l0c2gm(by_capi, reinterpret_cast<float*>(c.GetPhyAddr()), kN, kM, kN,
                  kM, 0, 0, 0, AscendC::QF322FP8_PRE, 1, false, true, 0, 0,
                  false, 0, false, false, false, false);
  GlobalTensor<fp8_e4m3fn_t> g;
  g.SetGlobalBuffer(by_fixpipe, kUbFloats);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> nd;
  nd.mSize = kM;
  nd.nSize = kN;
  nd.srcStride = kM;
  nd.dstStride = kN;
  nd.quantPre = AscendC::QF322FP8_PRE;
  nd.deqScalar = scale;
  nd.reluEn = true;
  Fixpipe<fp8_e4m3fn_t, float, CFG_ROW_MAJOR>(g, c, nd);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(by_capi[k].bits, by_fixpipe[k].bits) << k;
  }
  EXPECT_EQ(static_cast<float>(by_capi[0]), 0.0625f);  // Value(0, 0) / 16
  TBuf<TPosition::CO1> l0ci;
  pipe.InitBuffer(l0ci, kM * kN * 4);
  LocalTensor<int32_t> ci = l0ci.Get<int32_t>();
  for (uint32_t k = 0; k < kM * kN; ++k) ci.SetValue(k, int32_t(k) - 500);
  alignas(32) static bfloat16_t b_capi[kUbFloats], b_fixpipe[kUbFloats];
  asc_copy_l0c2gm(b_capi, reinterpret_cast<int32_t*>(ci.GetPhyAddr()), kN, kM,
                  kN, kM, 0, 0, 0, AscendC::QS322BF16_PRE, 0, false, true, 0, 0,
                  false, 0, false, false, false, false);
  GlobalTensor<bfloat16_t> gb;
  gb.SetGlobalBuffer(b_fixpipe, kUbFloats);
  nd.quantPre = AscendC::QS322BF16_PRE;
  nd.reluEn = false;
  Fixpipe<bfloat16_t, int32_t, CFG_ROW_MAJOR>(gb, ci, nd);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(static_cast<float>(b_capi[k]), static_cast<float>(b_fixpipe[k]))
        << k;
  }
  EXPECT_EQ(static_cast<float>(b_capi[0]), -500.0f / 16);
}

TEST_F(CapiCube950RulesTest, Messages) {
  {
    TPipe pipe;
    TBuf<TPosition::CO1> l0c;
    LocalTensor<float> c = FillL0c(pipe, l0c);
    float* src = reinterpret_cast<float*>(c.GetPhyAddr());
    float* dst = reinterpret_cast<float*>(
        LocalTensor<float>(TPosition::VECOUT, 0, kUbFloats).GetPhyAddr());
    EXPECT_TRUE(FailsWith([&] { CopyNd(dst, src, false); },
                          "asc_copy_l0c2ub<float>: not available on profile "
                          "Atlas A2/A3: this form is the Ascend 950's (arch "
                          "3510)"));
  }
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  float* src = reinterpret_cast<float*>(c.GetPhyAddr());
  float* dst = reinterpret_cast<float*>(
      LocalTensor<float>(TPosition::VECOUT, 0, kUbFloats).GetPhyAddr());
  EXPECT_TRUE(FailsWith(
      [&] { CopyNd(dst, src, false, 3); },
      "asc_copy_l0c2ub<float>: quant_post 3: the post-processing stage"));
  EXPECT_TRUE(FailsWith([&] { CopyNd(dst, src, false, 0, true); },
                        "asc_copy_l0c2ub<float>: nz2nd_en and nz2dn_en are "
                        "both true"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, false, 0, 0, 3, 0, false,
                        true, 0, 0, false, 0, false, false, false, false);
      },
      "asc_copy_l0c2ub<float>: quant_pre 3 (DEQF16) is a scalar mode, whose "
      "parameter asc_set_l0c_copy_prequant sets; it was not called in this "
      "block"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, false, 0, 0,
                        AscendC::VQF322FP8_PRE, 0, false, true, 0, 0, false, 0,
                        false, false, false, false);
      },
      "asc_copy_l0c2ub<float>: quant_pre 10 (VQF322FP8_PRE) is a vector "
      "mode, whose per-column parameters lie in the fixpipe buffer at the "
      "address asc_set_l0c2gm_config sets; it was not called in this "
      "block"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, false, 0, 0, 23, 0, false,
                        true, 0, 0, false, 0, false, false, false, false);
      },
      "asc_copy_l0c2ub<float>: quant_pre 23 is out of range [0, 22]"));
  // With the parameter set, the mode's type pair is the C++ Fixpipe's rule.
  asc_set_l0c_copy_prequant(0x3F800000ull);
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, false, 0, 0,
                        AscendC::QF322FP8_PRE, 0, false, true, 0, 0, false, 0,
                        false, false, false, false);
      },
      "asc_copy_l0c2ub<float>: Fixpipe<float, float> L0C->UB "
      "(FixpipeParamsArch3510): intriParams.quantPre QF322FP8_PRE does not "
      "turn float into float"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub(dst, src, kN, kM, kN, kM, 0, false, 0, 0, 0, 2, false,
                        true, 0, 0, false, 0, false, false, false, false);
      },
      "asc_copy_l0c2ub<float>: relu_pre 2 is out of range [0, 1]"));
  EXPECT_TRUE(
      FailsWith([&] { CopyNd(reinterpret_cast<float*>(&pipe), src, false); },
                "asc_copy_l0c2ub<float>: dst_addr"));
  // The C++ Fixpipe's rules follow the asc_* name.
  EXPECT_TRUE(FailsWith([&] { CopyNd(dst, src, false); },
                        "asc_copy_l0c2ub<float>: Fixpipe<float, float> "
                        "L0C->UB (FixpipeParamsArch3510): the destination "
                        "is the UB of a vector core of this AI Core, but "
                        "the kernel runs no vector cores"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_copy_l0c2ub_sync(dst, src, kN, kM, kN, kM, 0, false, 0, 0, 0, 0,
                             false, true, 0, 0, false, 0, false, false, false,
                             false);
      },
      "asc_copy_l0c2ub_sync<float>: Fixpipe<float, float> L0C->UB "
      "(FixpipeParamsArch3510): the destination is the UB of a vector core of "
      "this AI Core, but the kernel runs no vector cores"));
}

// ---- asc_set_l0c2gm_nz2nd ---------------------------------------------------

// Two 16-row matrices of the 32 x 32 L0C (the second from row 16, 16 rows of
// L0C further: src_nd_stride counts 16-value rows) into GM as ND, 520
// elements apart, by the C API and by the C++ Fixpipe with the same
// Nz2NdParams; and the ranges and the refusal on Atlas A2/A3.
TEST_F(CapiCube950RulesTest, Nz2ndRegisterMatchesFixpipe) {
  constexpr uint32_t kRows = 16, kDstNd = kRows * kN + 8, kOut = 2 * kDstNd;
  EXPECT_TRUE(FailsWith([] { asc_set_l0c2gm_nz2nd(2, 16, kDstNd); },
                        "asc_set_l0c2gm_nz2nd: not available on profile Atlas "
                        "A2/A3: its NZ2ND register is the Ascend 950's"));
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  float* src = reinterpret_cast<float*>(c.GetPhyAddr());
  static std::vector<float> by_capi, by_fixpipe;
  by_capi.assign(kOut, -1.0f);
  by_fixpipe.assign(kOut, -1.0f);
  asc_set_l0c2gm_nz2nd(2, kRows, kDstNd);
  asc_copy_l0c2gm(by_capi.data(), src, kN, kRows, kN, kM, 0, 0, 0, 0, 0, false,
                  true, 0, 0, false, 0, false, false, false, false);
  GlobalTensor<float> g;
  g.SetGlobalBuffer(by_fixpipe.data(), kOut);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> nd;
  nd.mSize = kRows;
  nd.nSize = kN;
  nd.srcStride = kM;
  nd.dstStride = kN;
  nd.params.ndNum = 2;
  nd.params.srcNdStride = kRows;
  nd.params.dstNdStride = kDstNd;
  Fixpipe<float, float, CFG_ROW_MAJOR>(g, c, nd);
  for (uint32_t k = 0; k < kOut; ++k) {
    const uint32_t i = k / kDstNd, in = k % kDstNd;
    const float want =
        in < kRows * kN ? Value(i * kRows + in / kN, in % kN) : -1.0f;
    ASSERT_EQ(by_capi[k], want) << k;
    ASSERT_EQ(by_capi[k], by_fixpipe[k]) << k;
  }
  EXPECT_TRUE(FailsWith([] { asc_set_l0c2gm_nz2nd(0, 16, kDstNd); },
                        "asc_set_l0c2gm_nz2nd: nd_num 0 is out of range [1, "
                        "65535]"));
  EXPECT_TRUE(FailsWith([] { asc_set_l0c2gm_nz2nd(2, 65536, kDstNd); },
                        "asc_set_l0c2gm_nz2nd: src_nd_stride 65536 is out of "
                        "range [0, 65535]"));
  EXPECT_TRUE(FailsWith([] { asc_set_l0c2gm_nz2nd(2, 16, 0); },
                        "asc_set_l0c2gm_nz2nd: dst_nd_stride 0 is out of "
                        "range [1, 4294967295]"));
}

// ---- L1 -> bias table / fixpipe buffer --------------------------------------

// A pointer to byte `offset` of a cube memory, as a C API program makes it.
template <typename T>
T* At(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}
uint8_t* Bytes(normgrad_ascendc::CubeMemory memory, uint32_t offset) {
  return normgrad_ascendc::CurrentCore().cube_memory(memory) + offset;
}

// L1 from byte 0: 64 halves (i - 20) / 4, 64 bfloat16_t (i - 30) / 2, 64
// int32_t i * 1000 - 7, then 512 pattern bytes at 1024.
void FillTableSources() {
  uint8_t* l1 = Bytes(normgrad_ascendc::CubeMemory::kL1, 0);
  for (int i = 0; i < 64; ++i) {
    const half h = float(i - 20) * 0.25f;
    const bfloat16_t b = float(i - 30) * 0.5f;
    const int32_t v = i * 1000 - 7;
    std::memcpy(l1 + 2 * i, &h, 2);
    std::memcpy(l1 + 256 + 2 * i, &b, 2);
    std::memcpy(l1 + 512 + 4 * i, &v, 4);
  }
  for (uint32_t i = 0; i < 512; ++i) l1[1024 + i] = uint8_t(i * 7 + 3);
}

float TableFloat(uint32_t byte) {
  float f;
  std::memcpy(&f, Bytes(normgrad_ascendc::CubeMemory::kBiasTable, byte), 4);
  return f;
}

// The 950's units: the C API's and DataCopy's bias-table bursts and gaps
// both count 32 bytes; the fixpipe buffer's C API bursts and dst gaps count
// 64 bytes, DataCopy's blockLen 64 and its gaps 32 / 128 start to start.
// Each C API call writes the lower half, the C++ one the upper half, and
// each is checked against the page's placement too.
TEST_F(CapiCube950RulesTest, TableCopiesMatchDataCopy) {
  using normgrad_ascendc::CubeMemory;
  const ProfileScope profile(Profile::k950);
  FillTableSources();
  uint8_t* bt = Bytes(CubeMemory::kBiasTable, 0);
  uint8_t* fb = Bytes(CubeMemory::kFixpipe, 0);
  uint8_t* l1 = Bytes(CubeMemory::kL1, 0);
  std::memset(bt, 0xEE, 4096);
  std::memset(fb, 0xEE, 4096);
  const uint64_t bt0 = reinterpret_cast<uint64_t>(At<void>(0)) / 16;
  // half widened: 2 bursts of 2 blocks (16 floats), 1 block apart in L1,
  // 2 in the table.
  asc_copy_l12bt(bt0, At<half>(0), 1, 2, 2, 1, 2);
  DataCopy<float, half>(LocalTensor<float>(TPosition::C2, 2048, 64),
                        LocalTensor<half>(TPosition::C1, 0, 64),
                        DataCopyParams(2, 2, 1, 2));
  for (uint32_t b = 0; b < 2; ++b) {
    for (uint32_t e = 0; e < 16; ++e) {
      ASSERT_EQ(TableFloat(128 * b + 4 * e), float(int(32 * b + e) - 20) / 4)
          << b << " " << e;
    }
  }
  EXPECT_EQ(bt[64], 0xEE);
  EXPECT_EQ(std::memcmp(bt, bt + 2048, 256), 0);
  // bfloat16_t widened: one burst of 4 blocks (32 floats).
  asc_copy_l12bt(bt0 + 16, At<bfloat16_t>(256), 1, 1, 4, 0, 0);
  DataCopy<float, bfloat16_t>(LocalTensor<float>(TPosition::C2, 2048 + 256, 32),
                              LocalTensor<bfloat16_t>(TPosition::C1, 256, 32),
                              DataCopyParams(1, 4, 0, 0));
  for (uint32_t e = 0; e < 32; ++e) {
    ASSERT_EQ(TableFloat(256 + 4 * e), float(int(e) - 30) / 2) << e;
  }
  EXPECT_EQ(std::memcmp(bt + 256, bt + 2048 + 256, 128), 0);
  // int32_t by count, and the _sync form of a float source.
  asc_copy_l12bt(bt0 + 32, At<int32_t>(512), 128);
  DataCopy(LocalTensor<int32_t>(TPosition::C2, 2048 + 512, 32),
           LocalTensor<int32_t>(TPosition::C1, 512, 32), 32);
  EXPECT_EQ(std::memcmp(bt + 512, l1 + 512, 128), 0);
  EXPECT_EQ(std::memcmp(bt + 512, bt + 2048 + 512, 128), 0);
  asc_copy_l12bt_sync(bt0 + 48, At<float>(512), 64);
  EXPECT_EQ(std::memcmp(bt + 768, l1 + 512, 64), 0);

  // The fixpipe buffer: 2 bursts of 2 x 64 bytes, src_gap_size 2 x 32,
  // dst_gap_size 2 x 64 (DataCopy: blockLen 2, srcGap 6, dstGap 2).
  asc_copy_l12fb(At<void>(0), At<void>(1024), 2, 2, 2, 2);
  DataCopy(LocalTensor<uint64_t>(TPosition::C2PIPE2GM, 2048, 64),
           LocalTensor<uint64_t>(TPosition::C1, 1024, 64),
           DataCopyParams(2, 2, 6, 2));
  EXPECT_EQ(std::memcmp(fb, l1 + 1024, 128), 0);
  EXPECT_EQ(std::memcmp(fb + 256, l1 + 1024 + 192, 128), 0);
  EXPECT_EQ(fb[128], 0xEE);
  EXPECT_EQ(std::memcmp(fb, fb + 2048, 384), 0);
  // One burst of 64 bytes has no gaps to place; and the count form's twin.
  asc_copy_l12fb(At<void>(512), At<void>(1024 + 64), 1, 1, 0, 0);
  EXPECT_EQ(std::memcmp(fb + 512, l1 + 1024 + 64, 64), 0);
  asc_copy_l12fb_sync(At<void>(1024), At<void>(1024), 96);
  EXPECT_EQ(std::memcmp(fb + 1024, l1 + 1024, 96), 0);
}

TEST_F(CapiCube950RulesTest, TableCopyMessages) {
  const uint64_t bt0 = reinterpret_cast<uint64_t>(At<void>(0)) / 16;
  {
    // Atlas A2/A3: a typed pointer is the untyped form (its page has only
    // that one), in 64-byte DataCopy units; bfloat16_t is no source there.
    using normgrad_ascendc::CubeMemory;
    FillTableSources();
    uint8_t* bt = Bytes(CubeMemory::kBiasTable, 0);
    asc_copy_l12bt(bt0, At<half>(0), 1, 1, 2, 0, 0);
    DataCopy<float, half>(LocalTensor<float>(TPosition::C2, 512, 16),
                          LocalTensor<half>(TPosition::C1, 0, 32),
                          DataCopyParams(1, 1, 0, 0));
    EXPECT_EQ(TableFloat(12), -4.25f);
    EXPECT_EQ(std::memcmp(bt, bt + 512, 64), 0);
    EXPECT_TRUE(FailsWith(
        [] {
          DataCopy<float, bfloat16_t>(
              LocalTensor<float>(TPosition::C2, 0, 16),
              LocalTensor<bfloat16_t>(TPosition::C1, 0, 32),
              DataCopyParams(1, 1, 0, 0));
        },
        "DataCopy<float, bfloat16_t> L1->BiasTable: the types (dst float, "
        "src bfloat16_t) are not documented for this path (bias table: "
        "float from float or half (bfloat16_t on the Ascend 950 only)"));
  }
  const ProfileScope profile(Profile::k950);
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12bt(bt0, At<half>(0), 0, 1, 2, 0, 0); },
                "asc_copy_l12bt<half>: conv_control 0 with a half source: "
                "the bias table holds float or int32_t, so a half or "
                "bfloat16_t source needs conv_control 1"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12bt(bt0, At<float>(0), 1, 1, 2, 0, 0); },
                "asc_copy_l12bt<float>: conv_control 1 with a float source"));
  EXPECT_TRUE(
      FailsWith([&] { asc_copy_l12bt(bt0, At<half>(0), 2, 1, 2, 0, 0); },
                "asc_copy_l12bt<half>: conv_control 2 is not 0 (no "
                "conversion) or 1 (half or bfloat16_t to float)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12bt(bt0, At<float>(0), 0, 1, 3, 0, 0); },
      "asc_copy_l12bt<float>: DataCopy<float> L1->BiasTable: "
      "repeatParams.blockLen 3 is odd; on the Ascend 950 the bias table's "
      "blockLen counts 32 bytes and must be even"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_copy_l12fb(At<void>(0), At<void>(1024), 2, 1, 0, 0); },
      "asc_copy_l12fb: len_burst + dst_gap_size 1 (x 64 bytes) is not a "
      "whole number of the fixpipe buffer's 128-byte blocks up to 65535 (the "
      "unit of DataCopy L1 -> fixpipe buffer on Ascend 950)"));
}

// ---- The V modes: per-column parameters in the fixpipe buffer ---------------

// One parameter per column, the scale 2^-(n % 4) in bits 0..31: every
// Value(m, n) times it is exact in half.
float ColumnScale(uint32_t n) { return 1.0f / float(1u << (n % 4)); }

// The parameters are written to L1, moved into the fixpipe buffer by
// asc_copy_l12fb and named by asc_set_l0c2gm_config; the C API's V mode
// then matches the C++ Fixpipe reading the same L1 values as its
// cbufWorkspace, bit for bit, and the page's formula (value x its column's
// scale): VQF322F16_PRE into GM (ND) and VQF322BF16_PRE into L1 (NZ).
TEST_F(CapiCube950RulesTest, VectorModesReadTheFixpipeBuffer) {
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  float* src = reinterpret_cast<float*>(c.GetPhyAddr());
  TBuf<TPosition::C1> ws_buf;
  pipe.InitBuffer(ws_buf, kN * 8);
  LocalTensor<uint64_t> ws = ws_buf.Get<uint64_t>();
  for (uint32_t n = 0; n < kN; ++n) {
    const float scale = ColumnScale(n);
    uint32_t bits;
    std::memcpy(&bits, &scale, 4);
    ws.SetValue(n, bits);
  }
  const uint64_t table = asc_get_phy_buf_addr(0);
  asc_copy_l12fb(reinterpret_cast<void*>(table),
                 reinterpret_cast<void*>(ws.GetPhyAddr()), kN * 8);
  asc_set_l0c2gm_config(0, table, false);

  alignas(32) static half by_capi[kUbFloats], by_fixpipe[kUbFloats];
  asc_copy_l0c2gm(by_capi, src, kN, kM, kN, kM, 0, 0, 0, AscendC::VQF322F16_PRE,
                  0, false, true, 0, 0, false, 0, false, false, false, false);
  GlobalTensor<half> g;
  g.SetGlobalBuffer(by_fixpipe, kUbFloats);
  FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> nd;
  nd.mSize = kM;
  nd.nSize = kN;
  nd.srcStride = kM;
  nd.dstStride = kN;
  nd.quantPre = AscendC::VQF322F16_PRE;
  Fixpipe<half, float, CFG_ROW_MAJOR>(g, c, ws, nd);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    const uint32_t r = k / kN, col = k % kN;
    ASSERT_EQ(static_cast<float>(by_capi[k]), Value(r, col) * ColumnScale(col))
        << k;
  }
  EXPECT_EQ(std::memcmp(by_capi, by_fixpipe, sizeof by_capi), 0);

  // NZ into L1: the two halves of one L1 buffer compared.
  TBuf<TPosition::A1> l1;
  pipe.InitBuffer(l1, 2 * kUbFloats * 2);
  LocalTensor<bfloat16_t> both = l1.Get<bfloat16_t>();
  asc_copy_l0c2l1(reinterpret_cast<bfloat16_t*>(both.GetPhyAddr()), src, kN, kM,
                  kM * 16, kM, 0, 0, AscendC::VQF322BF16_PRE, 0, false, false,
                  0, 0, false, 0, 0, false);
  FixpipeParamsArch3510<CO2Layout::NZ> nz;
  nz.mSize = kM;
  nz.nSize = kN;
  nz.srcStride = kM;
  nz.dstStride = kM * 16;
  nz.quantPre = AscendC::VQF322BF16_PRE;
  Fixpipe<bfloat16_t, float, CFG_NZ>(both[kUbFloats], c, ws, nz);
  for (uint32_t k = 0; k < kUbFloats; ++k) {
    ASSERT_EQ(static_cast<float>(both.GetValue(k)),
              static_cast<float>(both.GetValue(kUbFloats + k)))
        << k;
  }
  // Row 1, column 19 (column block 1): 83 x 2^-3 is exact in bfloat16_t.
  EXPECT_EQ(static_cast<float>(both.GetValue(kM * 16 + 16 + 3)),
            Value(1, 19) * ColumnScale(19));
}

TEST_F(CapiCube950RulesTest, VectorModeMessages) {
  const ProfileScope profile(Profile::k950);
  TPipe pipe;
  TBuf<TPosition::CO1> l0c;
  LocalTensor<float> c = FillL0c(pipe, l0c);
  float* src = reinterpret_cast<float*>(c.GetPhyAddr());
  alignas(32) static half out[kUbFloats];
  const auto copy = [&] {
    asc_copy_l0c2gm(out, src, kN, kM, kN, kM, 0, 0, 0, AscendC::VQF322F16_PRE,
                    0, false, true, 0, 0, false, 0, false, false, false, false);
  };
  EXPECT_TRUE(FailsWith(
      copy,
      "asc_copy_l0c2gm<half>: quant_pre 18 (VQF322F16_PRE) is a vector mode, "
      "whose per-column parameters lie in the fixpipe buffer at the address "
      "asc_set_l0c2gm_config sets; it was not called in this block"));
  // An infinite scale in column 2's parameter: the C++ Fixpipe's rule,
  // naming the table the parameter came from.
  uint8_t* fb = Bytes(normgrad_ascendc::CubeMemory::kFixpipe, 0);
  for (uint32_t n = 0; n < kN; ++n) {
    const uint64_t param = n == 2 ? 0x7F800000ull : 0x3F800000ull;
    std::memcpy(fb + 8 * n, &param, 8);
  }
  asc_set_l0c2gm_config(0, asc_get_phy_buf_addr(0), false);
  EXPECT_TRUE(FailsWith(copy,
                        "asc_copy_l0c2gm<half>: Fixpipe<half, float> L0C->GM "
                        "(FixpipeParamsArch3510): SetFixPipeConfig's tensor[2] "
                        "0x000000007f800000 has the scale inf in bits 0..31"));
  EXPECT_TRUE(FailsWith(
      [] { asc_set_l0c2gm_config(64, asc_get_phy_buf_addr(0), false); },
      "asc_set_l0c2gm_config: relu_pre 0x40 is not 0; no copy out of L0C "
      "reads per-column ReLU parameters"));
}

}  // namespace

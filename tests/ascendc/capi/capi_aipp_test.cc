// capi_aipp_test.cc — the C API's image load (asc_load_image_to_cbuf and its
// _sync form, c_api/cube_datamove/cube_datamove.h, docs/capi.md "The cube
// side") against LoadImageToLocal on the same image and registers, bit for
// bit, two regions of L1 apart; the C API page's own ranges; and the
// messages (each names the asc_* function, the argument, the value and the
// rule).
//
// Extending: a new form gets a comparison with LoadImageToLocal and its
// messages.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::AippInputFormat;
using AscendC::AippParams;
using AscendC::GlobalTensor;
using AscendC::LoadImageToLocalParams;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

constexpr uint32_t kCapiOffset = 64 * 1024;  // where the C API writes in L1

template <typename T>
T* At(uint32_t offset) {
  return reinterpret_cast<T*>(asc_get_phy_buf_addr(offset));
}

const uint8_t* L1(uint32_t offset) {
  return normgrad_ascendc::CurrentCore().cube_memory(
             normgrad_ascendc::CubeMemory::kL1) +
         offset;
}

class CapiAipp : public ::testing::Test {
 protected:
  CapiAipp() : profile_(normgrad_ascendc::Profile::kA2) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);  // registers reset
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    for (size_t i = 0; i < image_.size(); ++i) {
      image_[i] = static_cast<uint8_t>(i * 37 + 11);
    }
    y_.SetGlobalBuffer(image_.data(), 32 * 16);
    uv_.SetGlobalBuffer(image_.data() + 32 * 16, 32 * 8);
    rgb_.SetGlobalBuffer(image_.data(), image_.size());
  }
  ~CapiAipp() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }

  // LoadImageToLocal at L1 byte 0 and the C API call at kCapiOffset, then
  // the two regions compared over `bytes`.
  template <typename T, typename Capi>
  void ExpectSame(const LoadImageToLocalParams& p, uint32_t bytes, Capi capi) {
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    pipe.InitBuffer(a1, kCapiOffset);
    AscendC::LoadImageToLocal(a1.Get<T>(), p);
    capi(At<T>(kCapiOffset), p.horizSize, p.vertSize, p.horizStartPos,
         p.vertStartPos, p.srcHorizSize, p.topPadSize, p.botPadSize,
         p.leftPadSize, p.rightPadSize);
    EXPECT_EQ(std::memcmp(L1(0), L1(kCapiOffset), bytes), 0);
    uint32_t nonzero = 0;
    for (uint32_t i = 0; i < bytes; ++i) nonzero += L1(kCapiOffset)[i] != 0;
    EXPECT_GT(nonzero, bytes / 4);  // the load wrote something
  }

  compat_test::ProfileScope profile_;
  std::vector<uint8_t> image_ = std::vector<uint8_t>(32 * 16 * 3);
  GlobalTensor<uint8_t> y_, uv_, rgb_;
};

LoadImageToLocalParams Window(uint16_t w, uint16_t h, uint16_t x0, uint16_t y0,
                              uint16_t src_w) {
  LoadImageToLocalParams p;
  p.horizSize = w;
  p.vertSize = h;
  p.horizStartPos = x0;
  p.vertStartPos = y0;
  p.srcHorizSize = src_w;
  return p;
}

TEST_F(CapiAipp, Yuv420spIntoHalfMatchesLoadImageToLocal) {
  AippParams<half> cfg;
  cfg.cscParams.isEnableCsc = true;
  cfg.cscParams.cscMatrixR0C0 = 298;
  cfg.cscParams.cscMatrixR0C2 = 409;
  cfg.cscParams.cscMatrixR1C0 = 298;
  cfg.cscParams.cscMatrixR1C1 = -100;
  cfg.cscParams.cscMatrixR1C2 = -208;
  cfg.cscParams.cscMatrixR2C0 = 298;
  cfg.cscParams.cscMatrixR2C1 = 516;
  cfg.cscParams.cscBiasOut1 = 128;
  cfg.cscParams.cscBiasOut2 = 128;
  cfg.dtcParams.dtcVarCh0 = half(1.0f / 255);
  cfg.paddingParams.paddingMode = 3;
  cfg.cPaddingParams.cPaddingValue = half(2.0f);
  AscendC::SetAippFunctions(y_, uv_, AippInputFormat::YUV420SP_U8, cfg);
  LoadImageToLocalParams p = Window(20, 10, 4, 2, 32);
  p.topPadSize = 2;
  p.leftPadSize = 3;
  p.rightPadSize = 1;
  ExpectSame<half>(p, 24 * 12 * 32,
                   [](auto... a) { asc_load_image_to_cbuf(a...); });
  ExpectSame<half>(p, 24 * 12 * 32,
                   [](auto... a) { asc_load_image_to_cbuf_sync(a...); });
}

TEST_F(CapiAipp, Rgb888IntoInt8MatchesLoadImageToLocal) {
  AippParams<int8_t> cfg;
  cfg.swapParams.isSwapRB = true;
  cfg.dtcParams.dtcMeanCh1 = 100;
  cfg.paddingParams.paddingValueCh0 = int8_t{-9};
  cfg.cPaddingParams.cPaddingValue = int8_t{4};
  AscendC::SetAippFunctions(rgb_, AippInputFormat::RGB888_U8, cfg);
  LoadImageToLocalParams p = Window(12, 7, 6, 3, 32);
  p.leftPadSize = 2;
  p.rightPadSize = 5;
  ExpectSame<int8_t>(p, 19 * 7 * 32,
                     [](auto... a) { asc_load_image_to_cbuf(a...); });
}

TEST_F(CapiAipp, TheCApiPagesRangesAndMessages) {
  AippParams<int8_t> cfg;
  cfg.cPaddingParams.cPaddingMode = 1;
  int8_t* dst = At<int8_t>(0);
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(dst, 2, 2, 0, 0, 4, 0, 0, 0, 0); },
      "asc_load_image_to_cbuf<int8_t>: no image to load: SetAippFunctions "
      "was not called in this block"));
  AscendC::SetAippFunctions(rgb_, AippInputFormat::RGB888_U8, cfg);
  // Sizes of 1 are in the C API's range (LoadImageToLocal's starts at 2).
  asc_load_image_to_cbuf(dst, 1, 1, 0, 0, 1, 0, 0, 0, 0);
  EXPECT_EQ(static_cast<int8_t>(L1(0)[0]), static_cast<int8_t>(image_[0]));
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(dst, 0, 2, 0, 0, 4, 0, 0, 0, 0); },
      "asc_load_image_to_cbuf<int8_t>: hor_size 0 is out of range [1, "
      "4094]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(dst, 2, 4095, 0, 0, 4, 0, 0, 0, 0); },
      "asc_load_image_to_cbuf<int8_t>: ver_size 4095 is out of range [1, "
      "4094]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(dst, 2, 2, 0, 0, 4, 0, 0, 33, 0); },
      "asc_load_image_to_cbuf<int8_t>: left_pad_size 33 is out of range [0, "
      "32]"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(dst, 2, 2, 0, 0, 4, 1, 0, 0, 0); },
      "asc_load_image_to_cbuf<int8_t>: top_pad_size 1 and bot_pad_size 0 "
      "with padding mode 0 (constant)"));
  EXPECT_TRUE(FailsWith(
      [&] { asc_load_image_to_cbuf(At<half>(0), 2, 2, 0, 0, 4, 0, 0, 0, 0); },
      "asc_load_image_to_cbuf<half>: dst is of half, but SetAippFunctions "
      "set the output type U to int8_t"));
  EXPECT_TRUE(FailsWith(
      [&] {
        asc_load_image_to_cbuf(At<int8_t>(16), 2, 2, 0, 0, 4, 0, 0, 0, 0);
      },
      "asc_load_image_to_cbuf<int8_t>: dst is at L1 byte 16, which is not a "
      "multiple of 32 bytes"));
}

}  // namespace

// cube_load_transpose_test.cc — LoadDataWithTranspose (docs/cube.md,
// "LoadDataWithTranspose"): squares of L1 fractals transposed into L0A and
// L0B for 16-, 32- and 8-bit types, with startIndex, srcStride, addrMode,
// dstGap and dstFracGap, against a reference that builds each square as a
// matrix, and every rule's message.
//
// Extending: one TEST per behaviour; a new rule gets a FailsWith line.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "compat_test.h"
#include "cube_core_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LoadData2dTransposeParams;
using AscendC::LoadDataWithTranspose;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;

class LoadTransposeTest : public CubeCoreTest {};

// Square q of a run of squares as a side x side matrix: for 32-bit types two
// 16 x 8 fractals side by side, for 8-bit types two 16 x 32 fractals one
// above the other, for 16-bit types one 16 x 16 fractal (each row major).
template <typename T>
T SquareAt(const T* squares, uint32_t q, uint32_t r, uint32_t c) {
  const uint32_t c0 = 32 / sizeof(T);
  const uint32_t per = 512 / sizeof(T);  // elements of a fractal
  const uint32_t fractals = sizeof(T) == 2 ? 1 : 2;
  uint32_t fractal = 0, row = r, col = c;
  if (sizeof(T) == 4) {
    fractal = c / 8;
    col = c % 8;
  } else if (sizeof(T) == 1) {
    fractal = r / 16;
    row = r % 16;
  }
  return squares[(q * fractals + fractal) * per + row * c0 + col];
}

template <typename T>
void Check(uint32_t repeat, uint16_t start, uint16_t stride, uint8_t mode,
           uint16_t gap, uint16_t frac_gap, TPosition where) {
  const uint32_t side = sizeof(T) == 1 ? 32 : 16;
  const uint32_t fractals = sizeof(T) == 2 ? 1 : 2;
  const uint32_t per = 512 / sizeof(T);
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  TBuf<TPosition::B2> b2;
  pipe.InitBuffer(a1, 16 * 1024);
  pipe.InitBuffer(a2, 16 * 1024);
  pipe.InitBuffer(b2, 16 * 1024);
  LocalTensor<T> src = a1.Get<T>();
  std::vector<T> values(16 * 1024 / sizeof(T));
  for (size_t i = 0; i < values.size(); ++i) values[i] = T(int(i % 113) - 56);
  std::memcpy(static_cast<void*>(src.GetPhyAddr()), values.data(), 16 * 1024);
  LocalTensor<T> dst = where == TPosition::B2 ? b2.Get<T>() : a2.Get<T>();
  LoadDataWithTranspose(dst, src,
                        LoadData2dTransposeParams(start, uint8_t(repeat),
                                                  stride, gap, frac_gap, mode));
  for (uint32_t i = 0; i < repeat; ++i) {
    const uint32_t q = mode == 1 ? start - i * stride : start + i * stride;
    // The transposed square, split as the source was.
    std::vector<T> turned(fractals * per);
    for (uint32_t r = 0; r < side; ++r) {
      for (uint32_t c = 0; c < side; ++c) {
        const T v = SquareAt(values.data(), q, c, r);
        uint32_t fractal = 0, row = r, col = c;
        if (sizeof(T) == 4) {
          fractal = c / 8;
          col = c % 8;
        } else if (sizeof(T) == 1) {
          fractal = r / 16;
          row = r % 16;
        }
        turned[fractal * per + row * (32 / sizeof(T)) + col] = v;
      }
    }
    for (uint32_t j = 0; j < fractals; ++j) {
      const uint32_t at = i * (1 + gap) + j * (1 + frac_gap);
      for (uint32_t e = 0; e < per; ++e) {
        ASSERT_EQ(float(dst.GetValue(at * per + e)), float(turned[j * per + e]))
            << "iteration " << i << " fractal " << j << " element " << e;
      }
    }
  }
}

TEST_F(LoadTransposeTest, HalfFractalsTransposeOneByOne) {
  Check<half>(3, 1, 2, 0, 1, 0, TPosition::A2);
  Check<half>(3, 4, 2, 1, 0, 0, TPosition::B2);  // addrMode 1: 4, 2, 0
}

TEST_F(LoadTransposeTest, FloatPairsOfFractalsMakeA16x16Square) {
  Check<float>(3, 0, 1, 0, 1, 0, TPosition::A2);  // contiguous
  Check<float>(3, 1, 1, 0, 0, 2, TPosition::A2);  // fractals 3 apart
  Check<int32_t>(2, 3, 1, 1, 0, 1, TPosition::B2);
}

TEST_F(LoadTransposeTest, Int8PairsOfFractalsMakeA32x32Square) {
  Check<int8_t>(3, 0, 1, 0, 1, 0, TPosition::A2);
  Check<uint8_t>(2, 1, 2, 0, 0, 1, TPosition::B2);
}

TEST_F(LoadTransposeTest, Rules) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::A2> a2;
  pipe.InitBuffer(a1, 2048);
  pipe.InitBuffer(a2, 1024);
  const LocalTensor<float> src = a1.Get<float>();
  const LocalTensor<float> dst = a2.Get<float>();
  const char* api = "LoadDataWithTranspose<float> L1->L0A: ";
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(dst, src,
                              LoadData2dTransposeParams(0, 1, 0, 0, 0, 2));
      },
      std::string(api) + "loadDataParams.addrMode 2 is out of range [0, 1]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(dst, src,
                              LoadData2dTransposeParams(1, 3, 1, 0, 0, 1));
      },
      "loadDataParams.addrMode 1 from startIndex 1 steps 2 squares down "
      "(repeatTimes 3 x srcStride 1): below square 0"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(dst, src,
                              LoadData2dTransposeParams(1, 2, 1, 0, 0, 0));
      },
      "the squares read reaches 3072 bytes into src, past the end of its "
      "2048 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(dst, src,
                              LoadData2dTransposeParams(0, 1, 0, 0, 1, 0));
      },
      "the fractals written reaches 1536 bytes into dst, past the end of its "
      "1024 bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(src, src,
                              LoadData2dTransposeParams(0, 1, 0, 0, 0, 0));
      },
      "dst LocalTensor is at position A1; it must be at A2 (L0A) or B2 (L0B)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LoadDataWithTranspose(dst, src,
                              LoadData2dTransposeParams(0, 2, 0, 0, 0, 0));
      },
      "loadDataParams.dstFracGap 0 and dstGap 0 put fractal 1 of square 0 "
      "on fractal 0 of square 1; the transposed fractals must not overlap"));
  // repeatTimes 0 moves nothing.
  LoadDataWithTranspose(dst, src, LoadData2dTransposeParams(9, 0, 0, 0, 0, 0));
}

}  // namespace

namespace {

// LoadDataWithTranspose on tensors over a TensorTrait moves the same bytes.
TEST_F(LoadTransposeTest, TraitTensorsMoveTheSameBytes) {
  TPipe pipe;
  TBuf<TPosition::A1> a1;
  TBuf<TPosition::B2> plain;
  TBuf<TPosition::B2> trait;
  pipe.InitBuffer(a1, 2048);
  pipe.InitBuffer(plain, 2048);
  pipe.InitBuffer(trait, 2048);
  LocalTensor<float> src = a1.Get<float>();
  for (uint32_t i = 0; i < 512; ++i) src.SetValue(i, float(i));
  const LoadData2dTransposeParams p(0, 2, 1, 1, 0, 0);  // fractals 0..3
  LoadDataWithTranspose(plain.Get<float>(), src, p);
  LoadDataWithTranspose(trait.Get<AscendC::TensorTrait<float>>(),
                        a1.Get<AscendC::TensorTrait<float>>(), p);
  EXPECT_EQ(std::memcmp(plain.Get<float>().GetPhyAddr(),
                        trait.Get<float>().GetPhyAddr(), 2048),
            0);
  EXPECT_EQ(float(plain.Get<float>().GetValue(1)), 8.0f);  // (0, 1) <- (1, 0)
}

}  // namespace

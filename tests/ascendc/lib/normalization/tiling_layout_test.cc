// tiling_layout_test.cc — the byte layout of the kernel-side tiling structs,
// which kernels and host programs share: every member's name, type, offset
// and size, and each struct's size and alignment, written here by hand in the
// documented order so that a change to a field list shows up as a failure.
// The structs are made from one field list per op (tiling_fields.h); this
// file does not use those lists.
//
// To extend: a new tiling struct gets its own table of MEMBER rows in struct
// order and a TEST that checks the table against the expected offsets.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>

#include "kernel_operator.h"

namespace {

// One member as the compiler lays it out.
struct Member {
  const char* name;
  size_t offset;
  size_t size;
  bool is_uint32;
  bool is_float;
};

#define MEMBER(Struct, field)                                      \
  Member {                                                         \
#field, offsetof(Struct, field), sizeof(Struct::field),        \
        std::is_same < decltype(Struct::field), uint32_t> ::value, \
        std::is_same < decltype(Struct::field), float> ::value     \
  }

// Checks that the members are consecutive 4-byte words from offset 0: all
// uint32_t except the float at index float_index (-1: none).
template <size_t N>
void ExpectConsecutiveWords(const Member (&members)[N], int float_index) {
  for (size_t i = 0; i < N; ++i) {
    const Member& m = members[i];
    EXPECT_EQ(m.offset, 4 * i) << m.name;
    EXPECT_EQ(m.size, 4u) << m.name;
    if (static_cast<int>(i) == float_index) {
      EXPECT_TRUE(m.is_float) << m.name << " is a float";
    } else {
      EXPECT_TRUE(m.is_uint32) << m.name << " is a uint32_t";
    }
  }
}

using LngbTiling = AscendC::tiling::LayerNormGradBetaTiling;
using LngTiling = AscendC::tiling::LayerNormGradTiling;
using LnTiling = AscendC::tiling::LayerNormTiling;

TEST(TilingLayout, LayerNormGradBetaIs20WordsIn80Bytes) {
  const Member members[] = {
      MEMBER(LngbTiling, stackBufferSize),
      MEMBER(LngbTiling, bLength),
      MEMBER(LngbTiling, sLength),
      MEMBER(LngbTiling, hLength),
      MEMBER(LngbTiling, originalHLength),
      MEMBER(LngbTiling, bshLength),
      MEMBER(LngbTiling, bsLength),
      MEMBER(LngbTiling, oneCalSize),
      MEMBER(LngbTiling, numberOfTmpBuf),
      MEMBER(LngbTiling, loopRound),
      MEMBER(LngbTiling, inputTailSize),
      MEMBER(LngbTiling, inputTailPos),
      MEMBER(LngbTiling, bsTailSize),
      MEMBER(LngbTiling, bshCurLength),
      MEMBER(LngbTiling, bsCurLength),
      MEMBER(LngbTiling, gammaTempTensorPos),
      MEMBER(LngbTiling, betaTempTensorPos),
      MEMBER(LngbTiling, inputDyTmpTensorPos),
      MEMBER(LngbTiling, resForGammaTmpTensorPos),
      MEMBER(LngbTiling, reserved),
  };
  ExpectConsecutiveWords(members, -1);
  EXPECT_EQ(sizeof(LngbTiling), 80u);
  EXPECT_EQ(alignof(LngbTiling), 4u);
  EXPECT_TRUE(std::is_standard_layout<LngbTiling>::value);
  EXPECT_TRUE(std::is_trivially_copyable<LngbTiling>::value);
}

TEST(TilingLayout, LayerNormGradIs30WordsIn120Bytes) {
  const Member members[] = {
      MEMBER(LngTiling, stackBufferSize),
      MEMBER(LngTiling, bLength),
      MEMBER(LngTiling, sLength),
      MEMBER(LngTiling, hLength),
      MEMBER(LngTiling, originalHLength),
      MEMBER(LngTiling, oneCalSize),
      MEMBER(LngTiling, nohCalSize),
      MEMBER(LngTiling, loopNum),
      MEMBER(LngTiling, tailSize),
      MEMBER(LngTiling, nohTailSize),
      MEMBER(LngTiling, tmpTensorBSHPos),
      MEMBER(LngTiling, tmpTensorBSHSize),
      MEMBER(LngTiling, pdVarTensorPos),
      MEMBER(LngTiling, pdVarTensorSize),
      MEMBER(LngTiling, pdMeanTensorPos),
      MEMBER(LngTiling, pdMeanTensorSize),
      MEMBER(LngTiling, x1TensorPos),
      MEMBER(LngTiling, x1TensorSize),
      MEMBER(LngTiling, x2TensorPos),
      MEMBER(LngTiling, x2TensorSize),
      MEMBER(LngTiling, x3TensorPos),
      MEMBER(LngTiling, x3TensorSize),
      MEMBER(LngTiling, tmpTensorPos),
      MEMBER(LngTiling, tmpTensorSize),
      MEMBER(LngTiling, tmpTensor1Pos),
      MEMBER(LngTiling, tmpTensor1Size),
      MEMBER(LngTiling, tmpTensor2Pos),
      MEMBER(LngTiling, tmpTensor2Size),
      MEMBER(LngTiling, lastDimValueBack),
      MEMBER(LngTiling, lastDimValueBackMulTwo),
  };
  ExpectConsecutiveWords(members, -1);  // the two floats are stored as bits
  EXPECT_EQ(sizeof(LngTiling), 120u);
  EXPECT_EQ(alignof(LngTiling), 4u);
  EXPECT_TRUE(std::is_standard_layout<LngTiling>::value);
  EXPECT_TRUE(std::is_trivially_copyable<LngTiling>::value);
}

TEST(TilingLayout, LayerNormIs25WordsAndAFloatIn104Bytes) {
  const Member members[] = {
      MEMBER(LnTiling, bLength),
      MEMBER(LnTiling, sLength),
      MEMBER(LnTiling, hLength),
      MEMBER(LnTiling, originalHLength),
      MEMBER(LnTiling, inputXSize),
      MEMBER(LnTiling, meanVarSize),
      MEMBER(LnTiling, numberOfTmpBuf),
      MEMBER(LnTiling, meanTmpTensorPos),
      MEMBER(LnTiling, meanTmpTensorSize),
      MEMBER(LnTiling, varianceTmpTensorPos),
      MEMBER(LnTiling, varianceTmpTensorSize),
      MEMBER(LnTiling, tmpBufSize),
      MEMBER(LnTiling, oneTmpSize),
      MEMBER(LnTiling, firstTmpStartPos),
      MEMBER(LnTiling, secondTmpStartPos),
      MEMBER(LnTiling, thirdTmpStartPos),
      MEMBER(LnTiling, loopRound),
      MEMBER(LnTiling, inputRoundSize),
      MEMBER(LnTiling, inputTailSize),
      MEMBER(LnTiling, inputTailPos),
      MEMBER(LnTiling, meanVarRoundSize),
      MEMBER(LnTiling, meanVarTailSize),
      MEMBER(LnTiling, meanVarTailPos),
      MEMBER(LnTiling, bshCurLength),
      MEMBER(LnTiling, bsCurLength),
      MEMBER(LnTiling, lastDimValueBack),
  };
  ExpectConsecutiveWords(members, 25);
  EXPECT_EQ(sizeof(LnTiling), 104u);
  EXPECT_EQ(alignof(LnTiling), 4u);
  EXPECT_TRUE(std::is_standard_layout<LnTiling>::value);
  EXPECT_TRUE(std::is_trivially_copyable<LnTiling>::value);
}

// Every member is 0 in a default-constructed struct (kernels and host
// programs rely on it when they fill only some fields).
template <typename T>
bool AllBytesZero(const T& t) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&t);
  for (size_t i = 0; i < sizeof(T); ++i) {
    if (bytes[i] != 0) return false;
  }
  return true;
}

TEST(TilingLayout, DefaultConstructedStructsAreZero) {
  // Default-initialized over garbage, so that zeros come from the members'
  // initializers (value-initialization would zero the bytes anyway).
  alignas(8) unsigned char storage[128];
  std::memset(storage, 0xA5, sizeof storage);
  EXPECT_TRUE(AllBytesZero(*new (storage) LngbTiling));
  std::memset(storage, 0xA5, sizeof storage);
  EXPECT_TRUE(AllBytesZero(*new (storage) LngTiling));
  std::memset(storage, 0xA5, sizeof storage);
  EXPECT_TRUE(AllBytesZero(*new (storage) LnTiling));
}

}  // namespace

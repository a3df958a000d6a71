// shape_test.cc — ge::Shape / AscendC::TensorShape: the constructors
// programs use, the accessors, and that nothing converts to a ge::Shape
// implicitly (kernel code may declare its own ShapeInfo overloads of the
// tiling functions and must get them).
// To extend: add a TEST with the shape and its expected accessor values as
// literals.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "tiling/tiling_api.h"

namespace {

// A stand-in for the kernel-side AscendC::ShapeInfo: a struct
// with uint32_t dims and constructors that take arrays.
struct FakeShapeInfo {
  FakeShapeInfo() = default;
  FakeShapeInfo(uint8_t dim, const uint32_t* dims) : shapeDim(dim) {
    for (uint8_t i = 0; i < dim; ++i) shape[i] = dims[i];
  }
  uint8_t shapeDim = 0;
  uint32_t shape[8] = {};
};

static_assert(std::is_same_v<AscendC::TensorShape, ge::Shape>,
              "AscendC::TensorShape is ge::Shape");
static_assert(!std::is_convertible_v<FakeShapeInfo, ge::Shape>,
              "a ShapeInfo-like struct must not convert to ge::Shape");
static_assert(!std::is_constructible_v<ge::Shape, FakeShapeInfo>,
              "ge::Shape has no constructor from a ShapeInfo-like struct");
static_assert(!std::is_convertible_v<std::vector<int64_t>, ge::Shape>,
              "the vector constructor is explicit");
static_assert(std::is_default_constructible_v<ge::Shape>, "");

}  // namespace

// A program's own kernel-side overload, as Ascend C programs write them; it
// must be the one chosen for a ShapeInfo argument.
namespace AscendC {
int GetLayerNormGradBetaNDTilingInfo(const FakeShapeInfo shape, uint32_t,
                                     uint32_t, bool,
                                     tiling::LayerNormGradBetaTiling& t) {
  t.bLength = shape.shape[0];
  return 42;
}
}  // namespace AscendC

namespace {

TEST(Shape, FromUint32BracedListAsProgramsWriteIt) {
  const uint32_t b = 2, s = 3, h = 16;
  const ge::Shape shape({b, s, h, h});
  EXPECT_EQ(shape.GetDimNum(), 4u);
  EXPECT_EQ(shape.GetDims(), (std::vector<int64_t>{2, 3, 16, 16}));
  EXPECT_EQ(shape.GetDim(0), 2);
  EXPECT_EQ(shape.GetDim(1), 3);
  EXPECT_EQ(shape.GetDim(2), 16);
  EXPECT_EQ(shape.GetDim(3), 16);
  EXPECT_EQ(shape.GetShapeSize(), 2 * 3 * 16 * 16);  // 1536
}

TEST(Shape, FromVectorAndLiteralList) {
  const ge::Shape a(std::vector<int64_t>{1, 2, 3, 4});
  const ge::Shape b({1, 2, 3, 4});
  const AscendC::TensorShape c({1, 2, 3, 4});
  EXPECT_EQ(a.GetDims(), b.GetDims());
  EXPECT_EQ(a.GetDims(), c.GetDims());
  EXPECT_EQ(a.GetShapeSize(), 24);  // 1·2·3·4
}

TEST(Shape, DefaultIsRankZero) {
  const ge::Shape shape;
  EXPECT_EQ(shape.GetDimNum(), 0u);
  EXPECT_TRUE(shape.GetDims().empty());
  EXPECT_EQ(shape.GetShapeSize(), 0);  // documented: no dims → 0
  EXPECT_EQ(shape.GetDim(0), 0);
}

TEST(Shape, GetDimOutOfRangeIsZero) {
  const ge::Shape shape({5, 6});
  EXPECT_EQ(shape.GetDim(1), 6);
  EXPECT_EQ(shape.GetDim(2), 0);
  EXPECT_EQ(shape.GetDim(1000), 0);
}

TEST(Shape, ShapeSizeEdgeCases) {
  EXPECT_EQ(ge::Shape({7}).GetShapeSize(), 7);
  EXPECT_EQ(ge::Shape({4, 0, 9}).GetShapeSize(), 0);
  EXPECT_EQ(ge::Shape({4, -1, 9}).GetShapeSize(), -1);  // unknown dim
  // 2^32 · 2^32 = 2^64 overflows int64 → -1; 2^31 · 2^31 = 2^62 fits.
  EXPECT_EQ(ge::Shape({4294967296, 4294967296}).GetShapeSize(), -1);
  EXPECT_EQ(ge::Shape({2147483648, 2147483648}).GetShapeSize(),
            int64_t{4611686018427387904});
  // A zero dimension wins over a would-be overflow: the size is 0.
  EXPECT_EQ(ge::Shape({4294967296, 4294967296, 0}).GetShapeSize(), 0);
}

TEST(Shape, ProgramOwnShapeInfoOverloadIsChosen) {
  const uint32_t dims[4] = {9, 1, 16, 16};
  const FakeShapeInfo info(4, dims);
  AscendC::tiling::LayerNormGradBetaTiling t;
  EXPECT_EQ(AscendC::GetLayerNormGradBetaNDTilingInfo(info, 1024, 4, false, t),
            42);
  EXPECT_EQ(t.bLength, 9u);
}

}  // namespace

// normgrad_ascendc/tiling/shape.h — ge::Shape, the host-side shape type of the
// Ascend C tiling API (docs/runtime.md, "Shapes"), also spelled
// AscendC::TensorShape.
// A list of int64_t dimensions. Host programs write ge::Shape({b, s, h, h})
// with uint32_t values. The constructor is explicit, so nothing (in particular
// not a kernel-side ShapeInfo) converts to a ge::Shape by accident: programs
// that declare their own ShapeInfo overloads of the tiling functions get them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace ge {

class Shape {
 public:
  /// A shape with no dimensions (rank 0).
  Shape() = default;

  /// A shape with the given dimensions, outermost first.
  explicit Shape(std::vector<int64_t> dims) : dims_(std::move(dims)) {}

  /// All dimensions, outermost first.
  std::vector<int64_t> GetDims() const { return dims_; }

  /// The number of dimensions (the rank).
  size_t GetDimNum() const { return dims_.size(); }

  /// Dimension i; 0 (like an absent dimension) when i >= GetDimNum().
  int64_t GetDim(size_t i) const { return i < dims_.size() ? dims_[i] : 0; }

  /// The number of elements: the product of the dimensions. 0 for a shape
  /// with no dimensions or with a zero dimension; -1 when a dimension is
  /// negative (unknown) or the product does not fit in int64_t.
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    for (int64_t d : dims_) {
      if (d < 0) return -1;
    }
    for (int64_t d : dims_) {
      if (d == 0) return 0;
    }
    int64_t size = 1;
    for (int64_t d : dims_) {
      if (size > std::numeric_limits<int64_t>::max() / d) return -1;
      size *= d;
    }
    return size;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge

namespace AscendC {
using TensorShape = ge::Shape;
}  // namespace AscendC

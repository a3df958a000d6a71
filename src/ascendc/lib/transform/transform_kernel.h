// src/ascendc/lib/transform/transform_kernel.h — the kernel-side pieces the
// Tensor transform APIs share (internal, not installed), on lib/common's:
// the checks of the scratch argument and of the rule that what a call writes
// shares memory with no other operand (the pages refuse dst over src;
// normgrad applies it to every API of the family, docs/decisions.md); the
// moves as row copies: RepeatElement, and RunCopier, which moves an index
// map's elements as runs; and TransposeBlock, the true transposes' move on
// the instruction set's transpose loop.
#pragma once

#include <cstdint>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"

namespace normgrad_ascendc {

/// Checks the placement of a sharedTmpBuffer the call got (the APIs use no
/// scratch, so the framework scratch needs none), then that dst, `dst_bytes`
/// long, shares no memory with src (`src_bytes`) nor with the scratch.
inline void CheckTransformOperands(const char* api, const char* dst_name,
                                   const TensorView& dst, uint64_t dst_bytes,
                                   const char* src_name, const TensorView& src,
                                   uint64_t src_bytes,
                                   const TensorView* shared_tmp) {
  if (shared_tmp != nullptr) {
    CheckPlacement(api, "sharedTmpBuffer", *shared_tmp);
    const UbOperand ops[] = {
        {dst_name, &dst, dst_bytes, true},
        {src_name, &src, src_bytes, false},
        {"sharedTmpBuffer", shared_tmp, shared_tmp->bytes, true}};
    CheckOverlaps(api, ops, 3);
  } else {
    const UbOperand ops[] = {{dst_name, &dst, dst_bytes, true},
                             {src_name, &src, src_bytes, false}};
    CheckOverlaps(api, ops, 2);
  }
}

/// Fills `total` bytes at out (a whole number of elements) with the element
/// of `bytes` bytes at value, which lies apart from them: the element once,
/// then the filled part copied after itself, doubling each time.
inline void RepeatElement(uint8_t* out, const uint8_t* value, uint32_t bytes,
                          uint64_t total) {
  if (total == 0) return;
  std::memcpy(out, value, bytes);
  for (uint64_t done = bytes; done < total;) {
    const uint64_t n = done < total - done ? done : total - done;
    std::memcpy(out + done, out, n);
    done += n;
  }
}

/// Moves a rows × cols block of elements of `bytes` bytes (1, 2 or 4), whose
/// rows lie src_stride elements apart from src, to dst transposed: source
/// column c becomes destination row c, the rows dst_stride elements apart.
/// The instruction set's loop moves it in square tiles (advanced.h,
/// transpose_bits). dst and src do not overlap.
inline void TransposeBlock(uint8_t* dst, const uint8_t* src, uint64_t rows,
                           uint64_t cols, uint64_t src_stride,
                           uint64_t dst_stride, uint32_t bytes) {
  normgrad::kernels::AdvancedKernelsOf(VectorLoops())
      .transpose_bits(dst, src, rows, cols, src_stride, dst_stride, bytes);
}

/// Moves elements of `bytes` bytes from src index i to dst index o, in the
/// order an index map gives them, as one memcpy per run: a pair that
/// continues the current run on both sides (i and o each one past its end)
/// extends it, anything else copies the run and starts a new one. Flush()
/// copies the last run. Where the map walks contiguous rows (the NZ
/// scenarios' runs of 16 elements, whole ND rows) the copies are rows.
class RunCopier {
 public:
  RunCopier(const uint8_t* src, uint8_t* dst, uint32_t bytes)
      : src_(src), dst_(dst), bytes_(bytes) {}

  void operator()(uint64_t i, uint64_t o) {
    if (length_ != 0 && i == in_ + length_ && o == out_ + length_) {
      ++length_;
      return;
    }
    Flush();
    in_ = i;
    out_ = o;
    length_ = 1;
  }

  void Flush() {
    if (length_ != 0) {
      std::memcpy(dst_ + out_ * bytes_, src_ + in_ * bytes_, length_ * bytes_);
    }
    length_ = 0;
  }

 private:
  const uint8_t* src_;
  uint8_t* dst_;
  uint32_t bytes_;
  uint64_t in_ = 0;
  uint64_t out_ = 0;
  uint64_t length_ = 0;
};

}  // namespace normgrad_ascendc

// normgrad_ascendc/vector/vector_bilinear.h — BilinearInterpolation
// (docs/runtime.md, "Bilinear interpolation"): gathered data blocks times
// weights, summed over the horizontal iterations, for half.
//
// There are hRepeat · vRepeat iterations, iteration i = v · hRepeat + h.
// Iteration i takes the 8 data blocks of src0 (16 halves each) whose byte
// offsets are src0Offset[8i … 8i+7] and multiplies block b by src1[i]
// (repeatMode false) or src1[8i + b] (true), each product rounded to half.
// For each v, the products of its hRepeat iterations are added in h order
// (p0 + p1, then + p2, …, each sum rounded to half) into dst from element
// v · vROffset, block b at b · dstBlkStride blocks; hRepeat 1 writes the
// products. The mask (bits, or the first `mask` lanes; normal mode only)
// selects the lanes of an iteration's 128 that are computed and written;
// dst's other elements keep their values. The arithmetic is the vector
// unit's Mul and Add of half, so the bits are the page's steps' bits.
//
// Checks (KernelError naming BilinearInterpolation, the argument, the value
// and the rule): hRepeat and vRepeat 1..255; vROffset 128..65534 and a
// whole number of data blocks; a continuous mask 1..128, a bit mask not 0;
// the mask register not in counter mode; src0Offset holding 8 · iterations
// offsets, each a multiple of 32 inside src0; src1 holding the weights the
// iterations read; dst holding every element written; sharedTmpBuffer of at
// least the page's size (Atlas A2/A3: src0.GetSize() · 32 + src1.GetSize() ·
// 32 bytes; the inference series: src0Offset.GetSize() · 4; the 950 needs
// none).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The untyped call (vector_bilinear.cc); mask_bits is {low, high} of the
/// lanes, or null with mask_length the continuous mask.
struct BilinearArgs {
  const TensorView* dst;
  const TensorView* src0;
  const TensorView* src0_offset;
  const TensorView* src1;
  const TensorView* tmp;
  const uint64_t* mask_bits;
  uint64_t mask_length;
  uint32_t h_repeat;
  bool repeat_mode;
  uint32_t dst_blk_stride;
  uint32_t v_r_offset;
  uint32_t v_repeat;
};
void BilinearInterpolationImpl(const BilinearArgs& a);

}  // namespace normgrad_ascendc

namespace AscendC {

/// The bit-mask form (mask[0] lanes 0..63, mask[1] lanes 64..127).
template <typename T>
void BilinearInterpolation(const LocalTensor<T>& dst,
                           const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset,
                           const LocalTensor<T>& src1, uint64_t mask[],
                           uint8_t hRepeat, bool repeatMode,
                           uint16_t dstBlkStride, uint16_t vROffset,
                           uint8_t vRepeat,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<PrimT<T>, half>,
                "BilinearInterpolation: T must be half");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::BilinearInterpolationImpl(
      {&normgrad_ascendc::Plain(dst).view(),
       &normgrad_ascendc::Plain(src0).view(), &src0Offset.view(),
       &normgrad_ascendc::Plain(src1).view(), &sharedTmpBuffer.view(), mask, 0,
       hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat});
}

/// The continuous-mask form: the first `mask` lanes of each iteration.
template <typename T>
void BilinearInterpolation(const LocalTensor<T>& dst,
                           const LocalTensor<T>& src0,
                           const LocalTensor<uint32_t>& src0Offset,
                           const LocalTensor<T>& src1, uint64_t mask,
                           uint8_t hRepeat, bool repeatMode,
                           uint16_t dstBlkStride, uint16_t vROffset,
                           uint8_t vRepeat,
                           const LocalTensor<uint8_t>& sharedTmpBuffer,
                           normgrad_ascendc::CallSite site = {}) {
  static_assert(std::is_same_v<PrimT<T>, half>,
                "BilinearInterpolation: T must be half");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::BilinearInterpolationImpl(
      {&normgrad_ascendc::Plain(dst).view(),
       &normgrad_ascendc::Plain(src0).view(), &src0Offset.view(),
       &normgrad_ascendc::Plain(src1).view(), &sharedTmpBuffer.view(), nullptr,
       mask, hRepeat, repeatMode, dstBlkStride, vROffset, vRepeat});
}

}  // namespace AscendC

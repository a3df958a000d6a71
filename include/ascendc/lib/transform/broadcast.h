// lib/transform/broadcast.h — the kernel-side Broadcast API of Ascend C (the
// contract: docs/transform.md): a tensor repeated along its axes of length 1
// to the destination shape. Two forms: the dim/axis templates (1 or 2
// dimensions, one broadcast axis; sharedTmpBuffer or the framework scratch)
// and, on Ascend 950, the dynamic-shape form of up to 9 dimensions with the
// BroadcastTiling that GetBroadcastTilingInfo makes on the kernel side.
#pragma once

#include "normgrad_ascendc/lib/transform/transform_call.h"

namespace normgrad_ascendc {

/// The body of the dim/axis form's overloads.
template <typename T, int32_t dim, int32_t axis>
void BroadcastCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src,
                   const uint32_t dst_shape[], const uint32_t src_shape[],
                   const TensorView* shared_tmp) {
  static_assert(kIsTransformElement<T>,
                "Broadcast: T must be int8_t, uint8_t, int16_t, uint16_t, "
                "half, bfloat16_t, int32_t, uint32_t, float, int64_t or "
                "uint64_t");
  static_assert(dim == 1 || dim == 2, "Broadcast: dim must be 1 or 2");
  static_assert(axis == 0 || axis == 1, "Broadcast: axis must be 0 or 1");
  static_assert(axis < dim, "Broadcast: axis must be less than dim");
  const ApiCall call(site);
  BroadcastArgs a{};
  a.type = TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.dynamic = false;
  a.axis = axis;
  a.rank = dim;
  a.dst_shape = dst_shape;
  a.src_shape = src_shape;
  RunBroadcast(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal,
                                 const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim],
                                 LocalTensor<uint8_t>& sharedTmpBuffer,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::BroadcastCall<T, dim, axis>(
      site, dstLocal, srcLocal, dstShape, srcShape, &sharedTmpBuffer.view());
}

template <typename T, int32_t dim, int32_t axis, bool isReuseSource = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dstLocal,
                                 const LocalTensor<T>& srcLocal,
                                 const uint32_t dstShape[dim],
                                 const uint32_t srcShape[dim],
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::BroadcastCall<T, dim, axis>(site, dstLocal, srcLocal,
                                                dstShape, srcShape, nullptr);
}

/// The dynamic-shape form's tiling, computed on the kernel side (Ascend 950).
/// constDstShape and constSrcShape are reserved (nullptr); constRank, when
/// positive, must equal rank.
template <class T, int constRank = -1, uint32_t* constDstShape = nullptr,
          uint32_t* constSrcShape = nullptr>
__aicore__ inline void GetBroadcastTilingInfo(
    uint32_t rank, const uint32_t* dstShape, const uint32_t* srcShape,
    bool srcInnerPad, BroadcastTiling& tiling,
    normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsTransformElement<T>,
                "GetBroadcastTilingInfo: T must be a b8, b16, b32 or b64 type");
  static_assert(constDstShape == nullptr && constSrcShape == nullptr,
                "GetBroadcastTilingInfo: constDstShape and constSrcShape are "
                "reserved; pass nullptr");
  const normgrad_ascendc::ApiCall call(site);
  if (constRank > 0 && static_cast<uint32_t>(constRank) != rank) {
    normgrad_ascendc::Fail(
        "GetBroadcastTilingInfo: constRank is %d but rank is %u; a positive "
        "constRank must equal rank",
        constRank, rank);
  }
  normgrad_ascendc::MakeBroadcastTiling(normgrad_ascendc::TransformElemOf<T>(),
                                        rank, dstShape, srcShape, srcInnerPad,
                                        tiling);
}

/// The dynamic-shape form (Ascend 950): dst = src broadcast along every axis
/// where srcShape is 1 and dstShape is not.
template <class T, int constRank = -1, uint32_t* constDstShape = nullptr,
          uint32_t* constSrcShape = nullptr, bool constSrcInnerPad = false>
__aicore__ inline void Broadcast(const LocalTensor<T>& dst,
                                 const LocalTensor<T>& src,
                                 const uint32_t* dstShape,
                                 const uint32_t* srcShape,
                                 BroadcastTiling* tiling,
                                 normgrad_ascendc::CallSite site = {}) {
  static_assert(normgrad_ascendc::kIsTransformElement<T>,
                "Broadcast: T must be a b8, b16, b32 or b64 type");
  static_assert(
      constDstShape == nullptr && constSrcShape == nullptr && !constSrcInnerPad,
      "Broadcast: constDstShape, constSrcShape and constSrcInnerPad "
      "are reserved; pass the defaults");
  const normgrad_ascendc::ApiCall call(site);
  if (tiling == nullptr) {
    normgrad_ascendc::Fail(
        "Broadcast: tiling is null; pass the BroadcastTiling that "
        "GetBroadcastTilingInfo filled");
  }
  if (constRank > 0 && static_cast<uint32_t>(constRank) != tiling->rank) {
    normgrad_ascendc::Fail(
        "Broadcast: constRank is %d but tiling.rank is %u; a positive "
        "constRank must equal the rank GetBroadcastTilingInfo was given",
        constRank, tiling->rank);
  }
  normgrad_ascendc::BroadcastArgs a{};
  a.type = normgrad_ascendc::TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = nullptr;
  a.dynamic = true;
  a.rank = tiling->rank;
  a.dst_shape = dstShape;
  a.src_shape = srcShape;
  a.tiling = tiling;
  normgrad_ascendc::RunBroadcast(a);
}

}  // namespace AscendC

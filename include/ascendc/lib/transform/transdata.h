// lib/transform/transdata.h — the kernel-side TransData API of Ascend C (the
// contract: docs/transform.md, "TransData"): NCDHW <-> NDC1HWC0 and NCDHW <->
// FRACTAL_Z_3D for 16-bit types, with C (and N) split into blocks of 16. The
// overloads: sharedTmpBuffer or the framework scratch.
//
// The shapes come from params.srcLayout and params.dstLayout, each an
// AscendC::Layout (MakeLayout(MakeShape(...), MakeStride()), as the page
// builds them) whose shape has the format's dimensions, one integer each;
// anything else is a compile error naming the rule.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "normgrad_ascendc/lib/transform/transdata_config.h"
#include "normgrad_ascendc/lib/transform/transform_call.h"
#include "normgrad_ascendc/runtime/layout.h"

namespace AscendC {

/// The shapes of a TransData call: the source's and the destination's layout.
template <typename T, typename U>
struct TransDataParams {
  T srcLayout;
  U dstLayout;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// TransData with T and the layouts erased.
struct TransDataArgs {
  TransformElem type;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  AscendC::DataFormat src_format;
  AscendC::DataFormat dst_format;
  uint64_t src_dims[7];
  uint64_t dst_dims[7];
};

/// Checks and runs TransData (src/ascendc/lib/transform/transdata.cc).
void RunTransData(const TransDataArgs& args);

/// The number of modes of a Layout's shape.
template <typename Layout>
constexpr size_t LayoutRank() {
  return std::tuple_size_v<std::decay_t<
      decltype(std::declval<const std::remove_cv_t<Layout>&>().GetShape())>>;
}

/// The dimensions of a layout's shape, as integers.
template <size_t... I, typename Layout>
void LayoutDims(const Layout& layout, uint64_t* dims,
                std::index_sequence<I...>) {
  const auto& shape = layout.GetShape();
  ((dims[I] = static_cast<uint64_t>(std::get<I>(shape))), ...);
}

/// The body of TransData's overloads.
template <const AscendC::TransDataConfig& config, typename T, typename U,
          typename S>
void TransDataCall(const CallSite& site, const AscendC::LocalTensor<T>& dst,
                   const AscendC::LocalTensor<T>& src,
                   const TensorView* shared_tmp,
                   const AscendC::TransDataParams<U, S>& params) {
  static_assert(std::is_same_v<T, int16_t> || std::is_same_v<T, uint16_t> ||
                    std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>,
                "TransData: T must be int16_t, uint16_t, half or bfloat16_t");
  static_assert(IsTransDataConversion(config.srcFormat, config.dstFormat),
                "TransData: config must be NCDHW -> NDC1HWC0, NDC1HWC0 -> "
                "NCDHW, NCDHW -> FRACTAL_Z_3D or FRACTAL_Z_3D -> NCDHW");
  static_assert(AscendC::is_layout<std::remove_cv_t<U>>::value &&
                    AscendC::is_layout<std::remove_cv_t<S>>::value,
                "TransData: params.srcLayout and params.dstLayout must be "
                "AscendC::Layout (MakeLayout(MakeShape(...), MakeStride()))");
  static_assert(LayoutRank<U>() == TransDataRank(config.srcFormat),
                "TransData: params.srcLayout's shape must have as many "
                "dimensions as config.srcFormat (NCDHW 5, NDC1HWC0 6, "
                "FRACTAL_Z_3D 7)");
  static_assert(LayoutRank<S>() == TransDataRank(config.dstFormat),
                "TransData: params.dstLayout's shape must have as many "
                "dimensions as config.dstFormat (NCDHW 5, NDC1HWC0 6, "
                "FRACTAL_Z_3D 7)");
  const ApiCall call(site);
  TransDataArgs a{};
  a.type = TransformElemOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.src_format = config.srcFormat;
  a.dst_format = config.dstFormat;
  LayoutDims(params.srcLayout, a.src_dims,
             std::make_index_sequence<TransDataRank(config.srcFormat)>());
  LayoutDims(params.dstLayout, a.dst_dims,
             std::make_index_sequence<TransDataRank(config.dstFormat)>());
  RunTransData(a);
}

}  // namespace normgrad_ascendc

namespace AscendC {

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor,
                                 const LocalTensor<T>& srcTensor,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const TransDataParams<U, S>& params,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TransDataCall<config>(site, dstTensor, srcTensor,
                                          &sharedTmpBuffer.view(), params);
}

template <const TransDataConfig& config, typename T, typename U, typename S>
__aicore__ inline void TransData(const LocalTensor<T>& dstTensor,
                                 const LocalTensor<T>& srcTensor,
                                 const TransDataParams<U, S>& params,
                                 normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::TransDataCall<config>(site, dstTensor, srcTensor, nullptr,
                                          params);
}

}  // namespace AscendC

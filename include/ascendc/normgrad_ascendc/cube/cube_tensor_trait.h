// normgrad_ascendc/cube/cube_tensor_trait.h — the cube's basic data path
// (cube_api.h) on tensors over a TensorTrait (docs/runtime.md, "Layout,
// Coordinate and TensorTrait"): one overload per cube entry point, taking
// LocalTensor<TensorTrait<T>> / GlobalTensor<TensorTrait<T>> and calling the
// entry point on the plain tensors they are (normgrad_ascendc::Plain). Each is
// more specialized than the entry point's template (where the entry point
// takes one element type T for two tensors, so does its overload: one trait
// type), so it is the one chosen for trait tensors; a call mixing trait and
// plain tensors matches neither for every argument, or fails its element-type
// check: it does not compile, as the TensorTrait page says.
#pragma once

#include <type_traits>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace AscendC {

/// DataCopy (Nd2NzParams) on trait tensors.
template <typename T, TPosition pos, typename LayoutType>
void DataCopy(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
              const GlobalTensor<TensorTrait<T, pos, LayoutType>>& src,
              const Nd2NzParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  DataCopy(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
           intriParams, site);
}

/// LoadData L1 → L0A / L0B on trait tensors.
template <typename T, TPosition pos, typename LayoutType>
void LoadData(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
              const LocalTensor<TensorTrait<T, pos, LayoutType>>& src,
              const LoadData2DParams& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  LoadData(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
           loadDataParams, site);
}

/// LoadData GM → L0A / L0B on trait tensors.
template <typename T, TPosition pos, typename LayoutType>
void LoadData(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
              const GlobalTensor<TensorTrait<T, pos, LayoutType>>& src,
              const LoadData2DParams& loadDataParams,
              normgrad_ascendc::CallSite site = {}) {
  LoadData(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
           loadDataParams, site);
}

/// Mmad on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition fmPos, typename FmLayout, typename S, TPosition filterPos,
          typename FilterLayout>
void Mmad(const LocalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
          const LocalTensor<TensorTrait<U, fmPos, FmLayout>>& fm,
          const LocalTensor<TensorTrait<S, filterPos, FilterLayout>>& filter,
          const MmadParams& mmadParams, normgrad_ascendc::CallSite site = {}) {
  Mmad(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(fm),
       normgrad_ascendc::Plain(filter), mmadParams, site);
}

/// Mmad with a bias on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition fmPos, typename FmLayout, typename S, TPosition filterPos,
          typename FilterLayout, typename V, TPosition biasPos,
          typename BiasLayout>
void Mmad(const LocalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
          const LocalTensor<TensorTrait<U, fmPos, FmLayout>>& fm,
          const LocalTensor<TensorTrait<S, filterPos, FilterLayout>>& filter,
          const LocalTensor<TensorTrait<V, biasPos, BiasLayout>>& bias,
          const MmadParams& mmadParams, normgrad_ascendc::CallSite site = {}) {
  Mmad(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(fm),
       normgrad_ascendc::Plain(filter), normgrad_ascendc::Plain(bias),
       mmadParams, site);
}

/// Fixpipe L0C → GM on trait tensors (T: the GM type, U: the L0C type).
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout,
          const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
             const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  Fixpipe<T, U, config>(normgrad_ascendc::Plain(dst),
                        normgrad_ascendc::Plain(src), intriParams, site);
}

/// Fixpipe L0C → GM with per-channel parameters on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout, TPosition wsPos,
          typename WsLayout, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(
    const GlobalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
    const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
    const LocalTensor<TensorTrait<uint64_t, wsPos, WsLayout>>& cbufWorkspace,
    const FixpipeParamsV220& intriParams,
    normgrad_ascendc::CallSite site = {}) {
  Fixpipe<T, U, config>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
      normgrad_ascendc::Plain(cbufWorkspace), intriParams, site);
}

/// Fixpipe L0C → L1 on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout,
          const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
             const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
             const FixpipeParamsV220& intriParams,
             normgrad_ascendc::CallSite site = {}) {
  Fixpipe<T, U, config>(normgrad_ascendc::Plain(dst),
                        normgrad_ascendc::Plain(src), intriParams, site);
}

/// Fixpipe L0C → L1 with per-channel parameters on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout, TPosition wsPos,
          typename WsLayout, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(
    const LocalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
    const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
    const LocalTensor<TensorTrait<uint64_t, wsPos, WsLayout>>& cbufWorkspace,
    const FixpipeParamsV220& intriParams,
    normgrad_ascendc::CallSite site = {}) {
  Fixpipe<T, U, config>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
      normgrad_ascendc::Plain(cbufWorkspace), intriParams, site);
}

/// DataCopy L1 → bias table with a conversion on trait tensors (two element
/// types; the same-type form is data_copy.h's).
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout,
          typename = std::enable_if_t<!std::is_same_v<T, U>>>
void DataCopy(const LocalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
              const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
              const DataCopyParams& repeatParams,
              normgrad_ascendc::CallSite site = {}) {
  DataCopy(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
           repeatParams, site);
}

/// DataCopy L0C → GM (the fixpipe registers' path) on trait tensors.
template <typename T, TPosition dstPos, typename DstLayout, typename U,
          TPosition srcPos, typename SrcLayout>
void DataCopy(const GlobalTensor<TensorTrait<T, dstPos, DstLayout>>& dst,
              const LocalTensor<TensorTrait<U, srcPos, SrcLayout>>& src,
              const DataCopyCO12DstParams& intriParams,
              normgrad_ascendc::CallSite site = {}) {
  DataCopy(normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src),
           intriParams, site);
}

/// Fill of an L1, L0A or L0B trait tensor (the value's type defaults to the
/// element type, so the page's braced parameters convert).
template <typename T, TPosition pos, typename LayoutType, typename U = T>
void Fill(const LocalTensor<TensorTrait<T, pos, LayoutType>>& dst,
          const InitConstValueParams<U>& initConstValueParams,
          normgrad_ascendc::CallSite site = {}) {
  Fill<T, U>(normgrad_ascendc::Plain(dst), initConstValueParams, site);
}

}  // namespace AscendC

// normgrad_ascendc/lib/reduce/reduce_call.h — the call shape the Reduce
// family shares (the contract: docs/reduce.md). Every API of the family
// reduces a row-major matrix of `rows` rows of `cols` elements, each row
// padded to a whole number of 32-byte blocks, along one axis: the last
// (pattern AR, Sum, Mean) or the first (pattern RA); ReduceXorSum is the
// one-row case over two inputs. ReduceArgs is such a call with T erased;
// RunReduce (src/ascendc/lib/reduce/) checks and runs it by the API's rule.
// SumParams and MeanParams are the documented shape arguments of Sum and
// Mean. NORMGRAD_REDUCE_PATTERN_FORMS writes the two documented overloads of
// a pattern API, so each public header is a few lines.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/lib/common/reduce_pattern.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// Sum's shape: outter rows of n elements, each padded to inner elements
/// (inner * sizeof(T) a multiple of 32 bytes).
struct SumParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};

/// Mean's shape, as SumParams.
struct MeanParams {
  uint32_t outter = 1;
  uint32_t inner;
  uint32_t n;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The APIs of the family (one rule each in src/ascendc/lib/reduce/).
enum class ReduceApi : uint8_t {
  kReduceSum,
  kReduceMax,
  kReduceMin,
  kReduceMean,
  kReduceProd,
  kReduceAny,
  kReduceAll,
  kReduceXorSum,
  kSum,
  kMean,
};

/// The element type of a call, erased from its template.
enum class ReduceElemType : uint8_t {
  kInt8,
  kUint8,
  kInt16,
  kUint16,
  kHalf,
  kBfloat16,
  kInt32,
  kUint32,
  kFloat,
  kInt64,
  kUint64,
  kOther,  ///< a type no API of the family takes
};

/// The ReduceElemType of T.
template <typename T>
constexpr ReduceElemType ReduceElemTypeOf() {
  if constexpr (std::is_same_v<T, int8_t>) return ReduceElemType::kInt8;
  if constexpr (std::is_same_v<T, uint8_t>) return ReduceElemType::kUint8;
  if constexpr (std::is_same_v<T, int16_t>) return ReduceElemType::kInt16;
  if constexpr (std::is_same_v<T, uint16_t>) return ReduceElemType::kUint16;
  if constexpr (std::is_same_v<T, half>) return ReduceElemType::kHalf;
  if constexpr (std::is_same_v<T, bfloat16_t>) return ReduceElemType::kBfloat16;
  if constexpr (std::is_same_v<T, int32_t>) return ReduceElemType::kInt32;
  if constexpr (std::is_same_v<T, uint32_t>) return ReduceElemType::kUint32;
  if constexpr (std::is_same_v<T, float>) return ReduceElemType::kFloat;
  if constexpr (std::is_same_v<T, int64_t>) return ReduceElemType::kInt64;
  if constexpr (std::is_same_v<T, uint64_t>) return ReduceElemType::kUint64;
  return ReduceElemType::kOther;
}

/// T is one of the element types the family names on some profile; which
/// profile takes which is checked when the kernel runs (docs/reduce.md).
template <typename T>
inline constexpr bool kIsReduceElement =
    ReduceElemTypeOf<T>() != ReduceElemType::kOther;

/// The pattern is one the pages support: AR or RA.
template <class P>
inline constexpr bool kIsArOrRa =
    std::is_same_v<P, AscendC::Pattern::Reduce::AR> ||
    std::is_same_v<P, AscendC::Pattern::Reduce::RA>;

/// One call of the family with its element type erased.
struct ReduceArgs {
  ReduceApi api;
  ReduceElemType type;
  TensorView dst;
  TensorView src;
  TensorView src1;               ///< ReduceXorSum's src1Tensor, else empty
  const TensorView* shared_tmp;  ///< null: the framework scratch
  /// Pattern APIs: srcShape[0], srcShape[1] and the pattern; Sum and Mean:
  /// outter and n, with `inner` given; ReduceXorSum: 1 and calCount.
  uint32_t rows;
  uint32_t cols;
  uint32_t inner;    ///< the padded row length (Sum and Mean: the params')
  bool reduce_rows;  ///< pattern RA: the first axis is reduced
  bool inner_pad;    ///< srcInnerPad
  bool acc_float;    ///< Mean with T = half and accType = float
};

/// Checks and runs one call (src/ascendc/lib/reduce/reduce.cc).
void RunReduce(const ReduceArgs& args);

/// The body of the pattern APIs' overloads: opens the call at the user's
/// `site` and runs it with T and the pattern erased.
template <typename T, class P>
void PatternCall(ReduceApi api, const CallSite& site,
                 const AscendC::LocalTensor<T>& dst,
                 const AscendC::LocalTensor<T>& src,
                 const TensorView* shared_tmp, const uint32_t src_shape[],
                 bool src_inner_pad) {
  const ApiCall call(site);
  ReduceArgs a{};
  a.api = api;
  a.type = ReduceElemTypeOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.rows = src_shape[0];
  a.cols = src_shape[1];
  a.reduce_rows = std::is_same_v<P, AscendC::Pattern::Reduce::RA>;
  a.inner_pad = src_inner_pad;
  RunReduce(a);
}

/// The body of Sum's and Mean's overloads (`params` a SumParams or
/// MeanParams).
template <typename T, typename Params>
void RowsCall(ReduceApi api, const CallSite& site,
              const AscendC::LocalTensor<T>& dst,
              const AscendC::LocalTensor<T>& src, const TensorView* shared_tmp,
              const Params& params, bool acc_float) {
  const ApiCall call(site);
  ReduceArgs a{};
  a.api = api;
  a.type = ReduceElemTypeOf<T>();
  a.dst = dst.view();
  a.src = src.view();
  a.shared_tmp = shared_tmp;
  a.rows = params.outter;
  a.cols = params.n;
  a.inner = params.inner;
  a.inner_pad = true;
  a.acc_float = acc_float;
  RunReduce(a);
}

}  // namespace normgrad_ascendc

/// The two overloads of the pattern API `Api` (sharedTmpBuffer, then the
/// framework scratch), template <T, pattern, isReuseSource = false>. T must
/// be an element type of the family (each profile's list is checked when
/// the kernel runs) and the pattern AR or RA. isReuseSource never changes
/// the result: src is only read (docs/decisions.md, "Reduce").
#define NORMGRAD_REDUCE_PATTERN_FORMS(Api)                                    \
  template <class T, class pattern, bool isReuseSource = false>               \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t srcShape[], \
      bool srcInnerPad, normgrad_ascendc::CallSite site = {}) {               \
    static_assert(normgrad_ascendc::kIsReduceElement<T>,                      \
                  #Api ": T is not an element type of the Reduce family");    \
    static_assert(normgrad_ascendc::kIsArOrRa<pattern>, #Api                  \
                  ": pattern must be Pattern::Reduce::AR or "                 \
                  "Pattern::Reduce::RA");                                     \
    normgrad_ascendc::PatternCall<T, pattern>(                                \
        normgrad_ascendc::ReduceApi::k##Api, site, dstTensor, srcTensor,      \
        &sharedTmpBuffer.view(), srcShape, srcInnerPad);                      \
  }                                                                           \
  template <class T, class pattern, bool isReuseSource = false>               \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor,                 \
                             const uint32_t srcShape[], bool srcInnerPad,     \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::kIsReduceElement<T>,                      \
                  #Api ": T is not an element type of the Reduce family");    \
    static_assert(normgrad_ascendc::kIsArOrRa<pattern>, #Api                  \
                  ": pattern must be Pattern::Reduce::AR or "                 \
                  "Pattern::Reduce::RA");                                     \
    normgrad_ascendc::PatternCall<T, pattern>(                                \
        normgrad_ascendc::ReduceApi::k##Api, site, dstTensor, srcTensor,      \
        nullptr, srcShape, srcInnerPad);                                      \
  }

// normgrad_ascendc/lib/activation/elementwise_call.h — the call shape the
// elementwise activation APIs share (the contract: docs/activation.md): dst
// from one source (Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2) or
// from two (the GLU variants SwiGLU, GeGLU, ReGlu: srcTensor0 times the
// activation of srcTensor1), element by element, with a caller's
// sharedTmpBuffer or the framework scratch, over a count or the whole
// source. ActivationArgs is such a call with T erased; RunActivation
// (src/ascendc/lib/activation/) checks and runs it by the API's rule.
// The NORMGRAD_ACTIVATION_* macros write the documented overloads of the
// APIs that share a signature, so each public header is a few lines.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/lib/common/type_rules.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"

namespace normgrad_ascendc {

/// The elementwise activation APIs (one rule each in
/// src/ascendc/lib/activation/elementwise_rules.cc).
enum class ActivationApi : uint8_t {
  kSigmoid,
  kSilu,
  kSwish,
  kGelu,
  kFasterGelu,
  kFasterGeluV2,
  kSwiGLU,
  kGeGLU,
  kReGlu,
};

/// The count of the forms without one: every element of the (first) source.
inline constexpr uint32_t kEverySourceElement = UINT32_MAX;

/// One activation call with its element type erased.
struct ActivationArgs {
  ActivationApi api;
  ElementType type;
  TensorView dst;
  TensorView src0;               ///< the source; a GLU's srcTensor0
  const TensorView* src1;        ///< a GLU's srcTensor1, else null
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t count;                ///< the count, or kEverySourceElement
  float beta;                    ///< Swish's and SwiGLU's β, else 0
};

/// Checks and runs one call (src/ascendc/lib/activation/elementwise.cc).
void RunActivation(const ActivationArgs& args);

/// The body of every overload: opens the call at the user's `site` and runs
/// it with T erased.
template <typename T>
void ActivationCall(ActivationApi api, const CallSite& site,
                    const AscendC::LocalTensor<T>& dst,
                    const AscendC::LocalTensor<T>& src0,
                    const AscendC::LocalTensor<T>* src1,
                    const TensorView* shared_tmp, uint32_t count,
                    float beta = 0.0f) {
  const ApiCall call(site);
  RunActivation({api, ElementTypeOf<T>(), dst.view(), src0.view(),
                 src1 != nullptr ? &src1->view() : nullptr, shared_tmp, count,
                 beta});
}

}  // namespace normgrad_ascendc

/// The four overloads of a one-source API (sharedTmpBuffer with calCount,
/// sharedTmpBuffer over every element, then the framework scratch the same
/// two ways), template <T, isReuseSource = false>; T must be half or float.
/// isReuseSource is reserved by the documentation and changes nothing.
#define NORMGRAD_ACTIVATION_UNARY_FORMS(Api)                                 \
  template <typename T, bool isReuseSource = false>                          \
  __aicore__ inline void Api(                                                \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,      \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,  \
      normgrad_ascendc::CallSite site = {}) {                                \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                       \
                  #Api ": T must be half or float");                         \
    normgrad_ascendc::ActivationCall<T>(                                     \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor, \
        nullptr, &sharedTmpBuffer.view(), calCount);                         \
  }                                                                          \
  template <typename T, bool isReuseSource = false>                          \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                \
                             const LocalTensor<T>& srcTensor,                \
                             const LocalTensor<uint8_t>& sharedTmpBuffer,    \
                             normgrad_ascendc::CallSite site = {}) {         \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                       \
                  #Api ": T must be half or float");                         \
    normgrad_ascendc::ActivationCall<T>(                                     \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor, \
        nullptr, &sharedTmpBuffer.view(),                                    \
        normgrad_ascendc::kEverySourceElement);                              \
  }                                                                          \
  template <typename T, bool isReuseSource = false>                          \
  __aicore__ inline void Api(                                                \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,      \
      const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {       \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                       \
                  #Api ": T must be half or float");                         \
    normgrad_ascendc::ActivationCall<T>(                                     \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor, \
        nullptr, nullptr, calCount);                                         \
  }                                                                          \
  template <typename T, bool isReuseSource = false>                          \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                \
                             const LocalTensor<T>& srcTensor,                \
                             normgrad_ascendc::CallSite site = {}) {         \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                       \
                  #Api ": T must be half or float");                         \
    normgrad_ascendc::ActivationCall<T>(                                     \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor, \
        nullptr, nullptr, normgrad_ascendc::kEverySourceElement);            \
  }

/// The two overloads of the Gelu family (the framework scratch, then
/// sharedTmpBuffer, both with dataSize), template <T, highPrecision = false,
/// highPerformance = false>; T must be half or float. normgrad computes half
/// in float whatever the flags say (docs/decisions.md, "Activation:
/// elementwise").
#define NORMGRAD_ACTIVATION_GELU_FORMS(Api)                                 \
  template <typename T, bool highPrecision = false,                         \
            bool highPerformance = false>                                   \
  __aicore__ inline void Api(                                               \
      const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,       \
      const uint32_t dataSize, normgrad_ascendc::CallSite site = {}) {      \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                      \
                  #Api ": T must be half or float");                        \
    normgrad_ascendc::ActivationCall<T>(                                    \
        normgrad_ascendc::ActivationApi::k##Api, site, dstLocal, srcLocal,  \
        nullptr, nullptr, dataSize);                                        \
  }                                                                         \
  template <typename T, bool highPrecision = false,                         \
            bool highPerformance = false>                                   \
  __aicore__ inline void Api(                                               \
      const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t dataSize, \
      normgrad_ascendc::CallSite site = {}) {                               \
    static_assert(normgrad_ascendc::kIsHalfOrFloat<T>,                      \
                  #Api ": T must be half or float");                        \
    normgrad_ascendc::ActivationCall<T>(                                    \
        normgrad_ascendc::ActivationApi::k##Api, site, dstLocal, srcLocal,  \
        nullptr, &sharedTmpBuffer.view(), dataSize);                        \
  }

/// The two calCount overloads of a GLU without a scalar (sharedTmpBuffer,
/// then the framework scratch), template <T, isReuseSource = false>; T must
/// satisfy `types` (a predicate of type_rules.h), else the compile error
/// `types_rule`.
#define NORMGRAD_ACTIVATION_GLU_COUNT_FORMS(Api, types, types_rule)           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,      \
      const LocalTensor<T>& srcTensor1,                                       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,   \
      normgrad_ascendc::CallSite site = {}) {                                 \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ActivationCall<T>(                                      \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor0, \
        &srcTensor1, &sharedTmpBuffer.view(), calCount);                      \
  }                                                                           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor0,      \
      const LocalTensor<T>& srcTensor1, const uint32_t calCount,              \
      normgrad_ascendc::CallSite site = {}) {                                 \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ActivationCall<T>(                                      \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor0, \
        &srcTensor1, nullptr, calCount);                                      \
  }

/// The two overloads of a GLU without a scalar over every element of
/// srcTensor0, as above.
#define NORMGRAD_ACTIVATION_GLU_WHOLE_FORMS(Api, types, types_rule)           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor0,                \
                             const LocalTensor<T>& srcTensor1,                \
                             const LocalTensor<uint8_t>& sharedTmpBuffer,     \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ActivationCall<T>(                                      \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor0, \
        &srcTensor1, &sharedTmpBuffer.view(),                                 \
        normgrad_ascendc::kEverySourceElement);                               \
  }                                                                           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor0,                \
                             const LocalTensor<T>& srcTensor1,                \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ActivationCall<T>(                                      \
        normgrad_ascendc::ActivationApi::k##Api, site, dstTensor, srcTensor0, \
        &srcTensor1, nullptr, normgrad_ascendc::kEverySourceElement);         \
  }

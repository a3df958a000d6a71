// elementwise_rules.cc — the rules of the elementwise activation APIs:
// Sigmoid, Silu, Swish, Gelu, FasterGelu, FasterGeluV2, SwiGLU, GeGLU and
// ReGlu (docs/activation.md). Each is an entry of one table (elementwise.h)
// whose arithmetic, the page's formula evaluated in float with one rounding
// per operation in the order written, is the instruction set's loop of the
// API (src/kernels/vector/advanced_inl.h; docs/numerics.md, "Activation:
// elementwise", derives the error of each against the formula in double).
// Every instruction set gives the same bits (no fused multiply-add:
// -ffp-contract=off).
#include <cstddef>

#include "ascendc/lib/activation/elementwise.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"

namespace normgrad_ascendc {
namespace activation {
namespace {

using normgrad::kernels::ActivationStep;

// The API's formula over a pass of floats: the instruction set's loops
// (kernels::AdvancedKernels::activation_f32,
// src/kernels/vector/advanced_inl.h).
template <ActivationStep kStep>
void ThroughLoops(float* v, const float* gate, size_t n, float beta) {
  normgrad::kernels::AdvancedKernelsOf(VectorLoops())
      .activation_f32[static_cast<int>(kStep)](v, gate, n, beta);
}

constexpr char kDstTensor[] = "dstTensor";
constexpr char kDstLocal[] = "dstLocal";
constexpr char kSrcLocal[] = "srcLocal";
constexpr char kSrc0[] = "srcTensor0";
constexpr char kSrc1[] = "srcTensor1";
constexpr char kCalCount[] = "calCount";
constexpr char kDataSize[] = "dataSize";
constexpr char kGeluQuery[] = "GetGeluMaxMinTmpSize";

// Indexed by ActivationApi.
constexpr Rule kRules[] = {
    {"Sigmoid", kDstTensor, "srcTensor", nullptr, kCalCount,
     "GetSigmoidMaxMinTmpSize", false, ThroughLoops<ActivationStep::kSigmoid>},
    {"Silu", kDstLocal, kSrcLocal, nullptr, kDataSize, "GetSiluTmpSize", false,
     ThroughLoops<ActivationStep::kSilu>},
    {"Swish", kDstLocal, kSrcLocal, nullptr, kDataSize, "GetSwishTmpSize",
     false, ThroughLoops<ActivationStep::kSwish>},
    {"Gelu", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     ThroughLoops<ActivationStep::kGelu>},
    {"FasterGelu", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     ThroughLoops<ActivationStep::kFasterGelu>},
    {"FasterGeluV2", kDstLocal, kSrcLocal, nullptr, kDataSize, kGeluQuery, true,
     ThroughLoops<ActivationStep::kFasterGeluV2>},
    {"SwiGLU", kDstTensor, kSrc0, kSrc1, kCalCount, "GetSwiGLUMaxMinTmpSize",
     false, ThroughLoops<ActivationStep::kSwiGlu>},
    {"GeGLU", kDstTensor, kSrc0, kSrc1, kCalCount, "GetGeGLUMaxMinTmpSize",
     false, ThroughLoops<ActivationStep::kGeGlu>},
    {"ReGlu", kDstTensor, kSrc0, kSrc1, kCalCount, "GetReGluMaxMinTmpSize",
     false, ThroughLoops<ActivationStep::kReGlu>},
};

static_assert(sizeof kRules / sizeof kRules[0] ==
                  static_cast<size_t>(ActivationApi::kReGlu) + 1,
              "one rule per ActivationApi, in its order");
static_assert(normgrad::kernels::kActivationSteps ==
                  static_cast<int>(ActivationApi::kReGlu) + 1,
              "one loop per ActivationApi, in its order");

}  // namespace

const Rule& RuleOf(ActivationApi api) {
  return kRules[static_cast<size_t>(api)];
}

}  // namespace activation
}  // namespace normgrad_ascendc

// tensor_trait_rejects_copy.cc — must not compile: the TensorTrait page
// refuses copy construction between a tensor over a TensorTrait and a plain
// one; the ctest runtime:tensor_trait_rejects_copy expects the compiler to
// name LocalTensor's deleted constructor from the trait tensor.
#include "normgrad_ascendc/runtime/tensor.h"

AscendC::LocalTensor<float> PlainCopyOf(
    const AscendC::LocalTensor<AscendC::TensorTrait<float>>& trait) {
  return AscendC::LocalTensor<float>(trait);
}

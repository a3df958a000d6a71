// kernels/isa/isa_entry_inl.h — builds one registry entry (kernels::Isa) from the
// kernels of isa_inl.h. Included by src/kernels/<isa>.cc AFTER its target
// region ends (#pragma GCC pop_options): the registry builds every entry
// before it asks the CPU which ones run, so the code that fills an entry must
// be baseline code. Compiled with the instruction set's target, the compiler
// copies the table with that set's registers, and a CPU without them stops
// with an illegal instruction on the first call.
#pragma once

#include "kernels/isa/isa_inl.h"
#include "kernels/kernels.h"

namespace normgrad::kernels {
namespace {

// The entry for policies F32 (float), F16 (binary16) and BF16 (bfloat16).
template <typename F32, typename F16, typename BF16>
Isa MakeIsa(const char* name, bool (*available)(), LayerNormKernels layer_norm,
            RmsNormKernels rms_norm, VectorKernels vector) {
  return {name,
          available,
          AccumulateRows<F32>,
          AccumulateRows<F16>,
          AccumulateRows<BF16>,
          AddArrays<F32>,
          WidenArray<F16>,
          NarrowArray<F16>,
          WidenArray<BF16>,
          NarrowArray<BF16>,
          layer_norm,
          rms_norm,
          vector};
}

}  // namespace
}  // namespace normgrad::kernels

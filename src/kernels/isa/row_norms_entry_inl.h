// kernels/isa/row_norms_entry_inl.h — builds one instruction set's table of
// a row-norm family's kernels (kernels::RowNormKernels) from the family's
// entry points (LayerNormEntries of layer_norm_inl.h, RmsNormEntries of
// rms_norm_inl.h). Included by <family>_<isa>.cc after its target region
// ends, for the reason isa_entry_inl.h gives: the registry builds every
// table before it asks the CPU which instruction sets run, so the code that
// fills one must be baseline code.
#pragma once

#include "kernels/kernels.h"

namespace normgrad::kernels {
namespace {

// The table of Entries::kForward<Ops> and Entries::kBackward<Ops> for the
// policies F32 (float), F16 (binary16) and BF16 (bfloat16).
template <typename Entries, typename F32, typename F16, typename BF16>
typename Entries::Kernels RowNormKernelsOf() {
  return {Entries::template kForward<F32>,  Entries::template kForward<F16>,
          Entries::template kForward<BF16>, Entries::template kBackward<F32>,
          Entries::template kBackward<F16>, Entries::template kBackward<BF16>};
}

}  // namespace
}  // namespace normgrad::kernels

// src/ascendc/lib/normalization/norm_operands.h — the operand checks of the
// normalizations that write output, its means and its variances from inputX,
// gamma and beta: LayerNorm, GroupNorm and BatchNorm (internal, not
// installed), whose calls are NormArgs (norm_call.h): the placement of each
// of the six tensors and what may share memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/chunked_rows.h"
#include "normgrad_ascendc/lib/normalization/norm_call.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// CheckPlacement of output, outputMean, outputVariance, inputX, gamma
/// (named `gamma_name` in messages) and beta, in that order.
template <typename Tiling>
void CheckNormPlacements(const char* api, const NormArgs<Tiling>& a,
                         const char* gamma_name) {
  CheckPlacements(api, {{"output", a.output},
                        {"outputMean", a.output_mean},
                        {"outputVariance", a.output_variance},
                        {"inputX", a.input_x},
                        {gamma_name, a.gamma},
                        {"beta", a.beta}});
}

/// The bytes of the six operands a call touches: output and inputX, the
/// means and the variances, gamma and beta.
struct NormOperandBytes {
  uint64_t x;
  uint64_t mean_var;
  uint64_t param;
};

/// Fails when what the call writes (output, outputMean, outputVariance, its
/// scratch of `scratch_bytes` and, when `reused_bytes` is nonzero, that much
/// of inputX, which float isReuseSource overwrites) shares memory with
/// anything else it writes or reads (inputX, gamma, beta); `read_rule` ends
/// the message of a written operand over a read one. The exceptions: output
/// may be inputX itself (each chunk's x is read before its y is written),
/// and the reused part of inputX is inputX's.
template <typename Tiling>
void CheckNormOverlaps(const char* api, const NormArgs<Tiling>& a,
                       const char* gamma_name, const NormOperandBytes& bytes,
                       const TensorView& scratch, const char* scratch_name,
                       uint64_t scratch_bytes, uint64_t reused_bytes,
                       const char* read_rule) {
  // written[0] is output, written[4] (float isReuseSource only) the part of
  // inputX overwritten; read[0] is inputX.
  constexpr size_t kOutput = 0;
  constexpr size_t kInputXPart = 4;
  constexpr size_t kInputX = 0;
  const UbRange output = UbRangeOf("output", a.output, bytes.x);
  UbRange written[5] = {
      output,
      UbRangeOf("outputMean", a.output_mean, bytes.mean_var),
      UbRangeOf("outputVariance", a.output_variance, bytes.mean_var),
      UbRangeOf(scratch_name, scratch, scratch_bytes),
  };
  size_t written_count = 4;
  if (reused_bytes != 0) {
    written[written_count++] =
        UbRangeOf("inputX[0, oneTmpSize) (overwritten with isReuseSource)",
                  a.input_x, reused_bytes);
  }
  const UbRange input_x = UbRangeOf("inputX", a.input_x, bytes.x);
  const UbRange read[3] = {input_x, UbRangeOf(gamma_name, a.gamma, bytes.param),
                           UbRangeOf("beta", a.beta, bytes.param)};
  // With float isReuseSource output may still be inputX itself, but then it
  // overlaps the reused part, which is refused as written twice.
  CheckWrittenAndRead(
      api, written, written_count, read, 3, read_rule, [&](size_t i, size_t k) {
        return k == kInputX &&
               (i == kInputXPart ||
                (i == kOutput && output.begin == input_x.begin));
      });
}

/// Whether the core reads only a tiling's shape fields: programs built for
/// the Ascend 950 fill just those for BatchNorm, RmsNorm, DeepNorm, GroupNorm
/// and LayerNorm's [A, R] form (their docs/<api>.md), and the kernel works
/// there in one chunk of all rows in floats of its own, not in the unified
/// buffer. Rows are independent, so the chunking changes no bit.
inline bool ReadsShapeOnly(const Core& core) {
  return core.profile().profile == Profile::k950;
}

/// The scratch of a call that works in floats of its own (ReadsShapeOnly):
/// nothing of the unified buffer, so an empty view, which overlaps no
/// operand; a sharedTmpBuffer the call passes is placed as any operand.
inline TensorView NoScratchInUb(const char* api, const TensorView* shared_tmp) {
  if (shared_tmp != nullptr) {
    CheckPlacement(api, "sharedTmpBuffer", *shared_tmp);
  }
  return TensorView{};
}

/// The scratch of a LayerNorm or GroupNorm call, checked: placed and large
/// enough (CheckedTilingScratch), sharing memory with no operand
/// (CheckNormOverlaps, with `param_elements` of gamma and beta and
/// `read_rule`), and the tiling's regions inside it (CheckChunkScratchRegions,
/// with `past_hint`). With float isReuseSource inputX[0, oneTmpSize) is the
/// third chunk buffer, which the call overwrites. With `own_floats` the call
/// works in floats of its own (NoScratchInUb).
template <typename Tiling>
TensorView CheckedChunkScratch(const char* api, const NormArgs<Tiling>& a,
                               const Element& e, uint32_t param_elements,
                               const char* read_rule, const char* past_hint,
                               bool own_floats) {
  const Tiling& t = *a.tiling;
  const bool float_reuse = !a.is_half && a.reuse_source;
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      own_floats
          ? NoScratchInUb(api, a.shared_tmp)
          : CheckedTilingScratch(api, a.shared_tmp, t.tmpBufSize, scratch_name);
  CheckNormOverlaps(
      api, a, "gamma",
      {uint64_t{t.inputXSize} * e.bytes, uint64_t{t.meanVarSize} * e.bytes,
       uint64_t{param_elements} * e.bytes},
      scratch, scratch_name, uint64_t{t.tmpBufSize} * 4,
      float_reuse ? uint64_t{t.oneTmpSize} * 4 : 0, read_rule);
  CheckChunkScratchRegions(api, t, a.is_half, !float_reuse, past_hint);
  return scratch;
}

}  // namespace normgrad_ascendc

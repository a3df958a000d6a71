// softmax.cc — AscendC::SoftMax, SimpleSoftMax, SoftmaxFlash, SoftmaxFlashV2,
// SoftmaxGrad, SoftmaxGradFront and LogSoftMax on the emulated core: the checks
// every call of the family runs (the form and profile, placement, the shape and
// the tiling — re-tiled on the kernel when config.isCheckTiling allows —,
// lengths, the scratch, what may share memory), then the rows chunk by chunk in
// the numeric order of docs/softmax.md ("Numeric order"): half widened to
// float, every step in float, each output narrowed once.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "lib/activation/softmax_call.h"
#include "normgrad/float16.h"

namespace normgrad_ascendc {
namespace {

using AscendC::SoftmaxMode;
using AscendC::tiling::SoftMaxTiling;

// ---- What a call is ---------------------------------------------------------

const char* ApiName(SoftMaxApi api) {
  switch (api) {
    case SoftMaxApi::kSoftMax:
      return "SoftMax";
    case SoftMaxApi::kSimpleSoftMax:
      return "SimpleSoftMax";
    case SoftMaxApi::kFlash:
      return "SoftmaxFlash";
    case SoftMaxApi::kFlashV2:
      return "SoftmaxFlashV2";
    case SoftMaxApi::kGrad:
      return "SoftmaxGrad";
    case SoftMaxApi::kGradFront:
      return "SoftmaxGradFront";
    case SoftMaxApi::kLogSoftMax:
      break;
  }
  return "LogSoftMax";
}

// The host function that makes each API's tiling.
const char* TilingFunctionOf(SoftMaxApi api) {
  switch (api) {
    case SoftMaxApi::kSoftMax:
    case SoftMaxApi::kSimpleSoftMax:
      return "SoftMaxTilingFunc";
    case SoftMaxApi::kFlash:
      return "SoftMaxFlashTilingFunc";
    case SoftMaxApi::kFlashV2:
      return "SoftMaxFlashV2TilingFunc";
    case SoftMaxApi::kGrad:
    case SoftMaxApi::kGradFront:
      return "SoftMaxGradTilingFunc";
    case SoftMaxApi::kLogSoftMax:
      break;
  }
  return "LogSoftMaxTilingFunc";
}

// How messages name the operands of each API.
struct RowNames {
  const char* dst;
  const char* src;
  const char* sum;
  const char* max;
  const char* in_sum;
};

RowNames NamesOf(SoftMaxApi api) {
  switch (api) {
    case SoftMaxApi::kSoftMax:
      return {"dstTensor", "srcTensor", "sumTensor", "maxTensor", ""};
    case SoftMaxApi::kSimpleSoftMax:
      return {"dstTensor", "srcTensor", "inSumTensor", "inMaxTensor", ""};
    case SoftMaxApi::kFlash:
      return {"dstTensor", "srcTensor", "sumTensor", "maxTensor",
              "inSumTensor"};
    case SoftMaxApi::kFlashV2:
    case SoftMaxApi::kGrad:
    case SoftMaxApi::kGradFront:
      break;
    case SoftMaxApi::kLogSoftMax:
      return {"dst", "src", "sum", "max", ""};
  }
  return {"dstTensor", "srcTensor", "expSumTensor", "maxTensor",
          "inExpSumTensor"};
}

// SoftmaxFlash or SoftmaxFlashV2 with isUpdate: the running max and sum.
bool IsUpdate(const SoftMaxArgs& a) {
  return (a.api == SoftMaxApi::kFlash || a.api == SoftMaxApi::kFlashV2) &&
         a.update;
}

bool IsGrad(const SoftMaxArgs& a) {
  return a.api == SoftMaxApi::kGrad || a.api == SoftMaxApi::kGradFront;
}

// Element i of a half or float tensor as a float.
inline float ValueAt(const TensorView& t, bool is_half, uint64_t i) {
  return is_half ? static_cast<float>(HalfData(t)[i]) : FloatData(t)[i];
}

// The resolved shape of a call: m rows of k elements, the first ori_m rows
// and ori_k columns data.
struct Shape {
  uint32_t m, k, ori_m, ori_k;
};

// Everything the arithmetic needs once the checks have passed.
struct Plan {
  const char* api;
  Element e;         // src, dst (and expMax)
  Element stats;     // max and sums
  uint32_t width;    // max/sum elements per row: a 32-byte block, or 1
  uint32_t t_width;  // T's per-row elements: expMax, SoftmaxGrad's front dst
  Shape shape;
  SoftMaxTiling tiling;
  float* scratch;
  bool saturate;
};

bool WithoutBroadcast(const SoftMaxArgs& a) {
  return a.api == SoftMaxApi::kFlashV2 &&
         a.config.mode == SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
}

// ---- Checks -----------------------------------------------------------------

// The template arguments and the profile: NZ is not supported; only
// SoftmaxFlashV2 has an output mode; SoftmaxFlashV2's outReduceMax form needs
// the unbroadcast outputs and is not on Atlas inference AI Core.
void CheckForm(const SoftMaxArgs& a, const char* api) {
  if (a.format_nz) {
    Fail(
        "%s: isDataFormatNZ is true: normgrad supports the ND layout only "
        "(pass rows of srcK elements with isDataFormatNZ = false)",
        api);
  }
  if (a.api != SoftMaxApi::kFlashV2 &&
      a.config.mode != SoftmaxMode::SOFTMAX_NORMAL) {
    Fail(
        "%s: config.mode is %d: %s has no output mode, it must be "
        "SoftmaxMode::SOFTMAX_NORMAL",
        api, static_cast<int>(a.config.mode), api);
  }
  if (a.reduce_max_form) {
    const Core& core = *a.dst.core;
    if (core.profile().profile == Profile::k310P) {
      Fail("%s: the overload with outReduceMax is not available on profile %s",
           api, core.profile().name);
    }
    if (a.config.mode != SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC) {
      Fail(
          "%s: the overload with outReduceMax needs config.mode = "
          "SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC (one element per row); it "
          "is SOFTMAX_NORMAL",
          api);
    }
  }
}

void CheckAllPlacements(const SoftMaxArgs& a, const char* api) {
  const RowNames n = NamesOf(a.api);
  CheckPlacement(api, n.dst, a.dst);
  if (a.grad != nullptr) CheckPlacement(api, "gradTensor", *a.grad);
  CheckPlacement(api, n.src, a.src);
  if (a.sum != nullptr) CheckPlacement(api, n.sum, *a.sum);
  if (a.max != nullptr) CheckPlacement(api, n.max, *a.max);
  if (a.exp_max != nullptr) CheckPlacement(api, "expMaxTensor", *a.exp_max);
  if (a.in_sum != nullptr) CheckPlacement(api, n.in_sum, *a.in_sum);
  if (a.in_max != nullptr) CheckPlacement(api, "inMaxTensor", *a.in_max);
  if (a.reduce_max != nullptr) {
    CheckPlacement(api, "outReduceMax", *a.reduce_max);
  }
}

// The call's shape: softmaxShapeInfo, or the tiling's (unpadded) when it is
// all zero; srcK a whole number of 32-byte blocks, the original lengths
// within it, and config's constant shape, when set, the call's.
Shape CallShape(const SoftMaxArgs& a, const char* api, const Element& e) {
  const AscendC::SoftMaxShapeInfo& s = a.shape;
  Shape shape{s.srcM, s.srcK, s.oriSrcM, s.oriSrcK};
  if (s.srcM == 0 && s.srcK == 0 && s.oriSrcM == 0 && s.oriSrcK == 0) {
    CheckTilingFilled(api, "splitM", a.tiling->splitM, TilingFunctionOf(a.api));
    shape = {a.tiling->srcM, a.tiling->srcK, a.tiling->srcM, a.tiling->srcK};
  }
  if (shape.m == 0 || shape.k == 0) {
    Fail("%s: softmaxShapeInfo.srcM %u and srcK %u must both be at least 1",
         api, shape.m, shape.k);
  }
  const uint64_t row_bytes = uint64_t{shape.k} * e.bytes;
  if (row_bytes % kBlockBytes != 0) {
    Fail(
        "%s: softmaxShapeInfo.srcK %u %s is %llu bytes, not a multiple of 32 "
        "(the last axis must be 32-byte aligned: srcK a multiple of %u; pad "
        "the rows and pass the original length as oriSrcK)",
        api, shape.k, e.plural, static_cast<unsigned long long>(row_bytes),
        kBlockBytes / e.bytes);
  }
  if (uint64_t{shape.m} * shape.k > 0xFFFFFFFFu) {
    Fail("%s: softmaxShapeInfo.srcM %u * srcK %u exceeds 4294967295 elements",
         api, shape.m, shape.k);
  }
  if (shape.ori_k == 0 || shape.ori_k > shape.k) {
    Fail("%s: softmaxShapeInfo.oriSrcK %u must be in [1, srcK %u]", api,
         shape.ori_k, shape.k);
  }
  if (shape.ori_m == 0 || shape.ori_m > shape.m) {
    Fail("%s: softmaxShapeInfo.oriSrcM %u must be in [1, srcM %u]", api,
         shape.ori_m, shape.m);
  }
  if (a.config.oriSrcM != 0 && a.config.oriSrcM != shape.ori_m) {
    Fail(
        "%s: config.oriSrcM %u differs from the call's oriSrcM %u: the "
        "constant shape must be the call's",
        api, a.config.oriSrcM, shape.ori_m);
  }
  if (a.config.oriSrcK != 0 && a.config.oriSrcK != shape.ori_k) {
    Fail(
        "%s: config.oriSrcK %u differs from the call's oriSrcK %u: the "
        "constant shape must be the call's",
        api, a.config.oriSrcK, shape.ori_k);
  }
  return shape;
}

// isBasicBlock = true promises srcK a multiple of 64 in [256 / sizeof(T),
// 2048) and srcM a multiple of 8.
void CheckBasicShape(const char* api, const Shape& s, const Element& e) {
  if (!SoftMaxBasicShape(s.m, s.k, e.bytes)) {
    Fail(
        "%s: isBasicBlock is true but the shape is [%u, %u]; a basic block "
        "needs srcK a multiple of 64 in [%u, 2048) and srcM a multiple of 8",
        api, s.m, s.k, 256 / e.bytes);
  }
}

// The bytes of scratch the call has: sharedTmpBuffer's, or what the
// framework scratch holds.
uint64_t ScratchBytesAvailable(const SoftMaxArgs& a) {
  if (a.shared_tmp != nullptr) return a.shared_tmp->bytes;
  return FrameworkScratch(AscendC::TPosition::VECCALC, 0).bytes;
}

// The tiling the call runs with: the given one when it was made for the
// call's shape (every field checked against the rule that derives it);
// else, with config.isCheckTiling, one made here for the scratch the call
// has; else an error.
SoftMaxTiling CallTiling(const SoftMaxArgs& a, const char* api, const Shape& s,
                         uint32_t width) {
  const SoftMaxTiling& t = *a.tiling;
  if (t.srcM != s.m || t.srcK != s.k) {
    if (!a.config.isCheckTiling) {
      Fail(
          "%s: the tiling is for [%u, %u] but softmaxShapeInfo is [%u, %u]; "
          "with config.isCheckTiling = false they must agree (make the "
          "tiling for this shape)",
          api, t.srcM, t.srcK, s.m, s.k);
    }
    const uint64_t bytes = ScratchBytesAvailable(a);
    const uint32_t rows = SoftMaxRowsFitting(s.m, s.k, bytes, a.basic_block);
    if (rows == 0) {
      Fail(
          "%s: the tiling is for [%u, %u], so it is made again for "
          "softmaxShapeInfo [%u, %u]: %s holds %llu bytes, fewer than the "
          "%llu %s needs",
          api, t.srcM, t.srcK, s.m, s.k, ScratchName(a.shared_tmp),
          static_cast<unsigned long long>(bytes),
          static_cast<unsigned long long>(
              4 *
              SoftMaxScratchFloats(a.basic_block ? kSoftMaxBasicRows : 1, s.k)),
          a.basic_block ? "eight rows" : "one row");
    }
    return SoftMaxTilingFor(s.m, s.k, width, rows);
  }
  if (t.splitM == 0 || t.splitM > s.m) {
    Fail("%s: tiling.splitM %u must be in [1, tiling.srcM %u]", api, t.splitM,
         s.m);
  }
  const SoftMaxTiling want = SoftMaxTilingFor(s.m, s.k, width, t.splitM);
  const char* width_rule =
      width == 1    ? "one element per row (SOFTMAX_OUTPUT_WITHOUT_BRC)"
      : width == 16 ? "a 32-byte block of half max/sum: the tiling "
                      "function's max/sum size must be 2"
                    : "a 32-byte block of float max/sum: the tiling "
                      "function's max/sum size must be 4";
  CheckDerivedFields(
      api,
      {
          {"srcSize", t.srcSize, want.srcSize, "srcM * srcK"},
          {"outMaxM", t.outMaxM, want.outMaxM, "srcM"},
          {"outMaxK", t.outMaxK, want.outMaxK, width_rule},
          {"outMaxSize", t.outMaxSize, want.outMaxSize, "outMaxM * outMaxK"},
          {"splitK", t.splitK, want.splitK, "srcK"},
          {"splitSize", t.splitSize, want.splitSize, "splitM * splitK"},
          {"reduceM", t.reduceM, want.reduceM, "splitM"},
          {"reduceK", t.reduceK, want.reduceK, "one 32-byte float block"},
          {"reduceSize", t.reduceSize, want.reduceSize, "reduceM * reduceK"},
          {"rangeM", t.rangeM, want.rangeM, "srcM / splitM"},
          {"tailM", t.tailM, want.tailM, "srcM % splitM"},
          {"tailSplitSize", t.tailSplitSize, want.tailSplitSize,
           "tailM * splitK"},
          {"tailReduceSize", t.tailReduceSize, want.tailReduceSize,
           "tailM * reduceK"},
      });
  if (a.basic_block && t.splitM % kSoftMaxBasicRows != 0) {
    Fail(
        "%s: isBasicBlock is true but tiling.splitM is %u; a basic block "
        "needs chunks of a multiple of 8 rows (a tiling for which "
        "IsBasicBlockInSoftMax is true)",
        api, t.splitM);
  }
  return t;
}

// LogSoftMax's inputs lie in [-2147483647, 2147483647] (its page: outside
// it the results are not valid); NaN is let through.
void CheckLogSoftMaxRange(const SoftMaxArgs& a, const Plan& p) {
  constexpr float kLimit = 2147483647.0f;
  for (uint32_t r = 0; r < p.shape.m; ++r) {
    for (uint32_t j = 0; j < p.shape.ori_k; ++j) {
      const float v = ValueAt(a.src, a.is_half, uint64_t{r} * p.shape.k + j);
      if (v < -kLimit || v > kLimit) {
        Fail(
            "%s: src[%u, %u] is %g, outside [-2147483647, 2147483647], the "
            "range of LogSoftMax's inputs",
            p.api, r, j, static_cast<double>(v));
      }
    }
  }
}

void CheckAllLengths(const SoftMaxArgs& a, const Plan& p) {
  const RowNames n = NamesOf(a.api);
  const uint64_t mk = uint64_t{p.shape.m} * p.shape.k;
  const uint64_t stats = uint64_t{p.shape.m} * p.width;
  const char* stats_rule =
      p.width == 1 ? "srcM, one per row" : "srcM rows of a 32-byte block";
  if (a.front) {
    CheckLength(p.api, p.e,
                {n.dst, a.dst, uint64_t{p.shape.m} * p.t_width,
                 "srcM rows of a 32-byte block (isFront)"});
  } else {
    CheckLength(p.api, p.e, {n.dst, a.dst, mk, "srcM * srcK"});
  }
  if (a.grad != nullptr) {
    CheckLength(p.api, p.e, {"gradTensor", *a.grad, mk, "srcM * srcK"});
  }
  CheckLength(p.api, p.e, {n.src, a.src, mk, "srcM * srcK"});
  if (a.sum != nullptr) {
    CheckLength(p.api, p.stats, {n.sum, *a.sum, stats, stats_rule});
  }
  if (a.max != nullptr) {
    CheckLength(p.api, p.stats, {n.max, *a.max, stats, stats_rule});
  }
  if (a.in_sum != nullptr) {
    CheckLength(p.api, p.stats, {n.in_sum, *a.in_sum, stats, stats_rule});
  }
  if (a.in_max != nullptr) {
    CheckLength(p.api, p.stats, {"inMaxTensor", *a.in_max, stats, stats_rule});
  }
  if (a.exp_max != nullptr) {
    CheckLength(p.api, p.e,
                {"expMaxTensor", *a.exp_max, uint64_t{p.shape.m} * p.t_width,
                 p.t_width == 1 ? "srcM, one per row"
                                : "srcM rows of a 32-byte block"});
  }
  if (a.reduce_max != nullptr) {
    CheckLength(
        p.api, p.e,
        {"outReduceMax", *a.reduce_max, p.shape.m, "srcM, one per row"});
  }
}

// The scratch: sharedTmpBuffer or the framework scratch, placed for the
// vector unit and holding what a chunk of splitM rows needs.
TensorView CheckedScratch(const SoftMaxArgs& a, const Plan& p) {
  const uint64_t bytes = 4 * SoftMaxScratchFloats(p.tiling.splitM, p.shape.k);
  const char* name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(p.api, a.shared_tmp, bytes, "%llu bytes",
                  static_cast<unsigned long long>(bytes));
  CheckPlacement(p.api, name, scratch);
  if (scratch.bytes < bytes) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %llu a chunk of tiling.splitM "
        "%u rows needs (splitM * (srcK + 8) floats; pass the "
        "localWorkSpaceSize the tiling was made with)",
        p.api, name, scratch.bytes, static_cast<unsigned long long>(bytes),
        p.tiling.splitM);
  }
  return scratch;
}

// What the call touches, for the overlap rule.
struct Operand {
  UbRange range;
  bool written;
  int alias_group;  // operands of one group may be the same tensor: 0 none
};

// dstTensor may be srcTensor, and SoftmaxFlashV2's maxTensor inMaxTensor
// and expSumTensor inExpSumTensor (the same tensor, not a partial overlap);
// besides, what the call writes shares memory with nothing, and the scratch
// with no operand.
void CheckOverlapsOf(const SoftMaxArgs& a, const Plan& p,
                     const TensorView& scratch) {
  const RowNames n = NamesOf(a.api);
  const uint64_t mk_bytes = uint64_t{p.shape.m} * p.shape.k * p.e.bytes;
  const uint64_t stats_bytes = uint64_t{p.shape.m} * p.width * p.stats.bytes;
  const bool simple = a.api == SoftMaxApi::kSimpleSoftMax;
  // LogSoftMax's dst shares no memory with src (its page says so).
  const int dst_src_group = a.api == SoftMaxApi::kLogSoftMax ? 0 : 1;
  const uint64_t dst_bytes =
      a.front ? uint64_t{p.shape.m} * kBlockBytes : mk_bytes;
  Operand ops[10];
  size_t count = 0;
  ops[count++] = {UbRangeOf(n.dst, a.dst, dst_bytes), true, dst_src_group};
  ops[count++] = {UbRangeOf(n.src, a.src, mk_bytes), false, dst_src_group};
  if (a.grad != nullptr) {
    ops[count++] = {UbRangeOf("gradTensor", *a.grad, mk_bytes), false, 0};
  }
  if (a.sum != nullptr) {
    ops[count++] = {UbRangeOf(n.sum, *a.sum, stats_bytes), !simple, 2};
  }
  if (a.max != nullptr) {
    ops[count++] = {UbRangeOf(n.max, *a.max, stats_bytes), !simple, 3};
  }
  if (a.in_sum != nullptr) {
    ops[count++] = {UbRangeOf(n.in_sum, *a.in_sum, stats_bytes), false, 2};
  }
  if (a.in_max != nullptr) {
    ops[count++] = {UbRangeOf("inMaxTensor", *a.in_max, stats_bytes), false, 3};
  }
  if (a.exp_max != nullptr && IsUpdate(a)) {
    ops[count++] = {UbRangeOf("expMaxTensor", *a.exp_max,
                              uint64_t{p.shape.m} * p.t_width * p.e.bytes),
                    true, 0};
  }
  if (a.reduce_max != nullptr && IsUpdate(a)) {
    ops[count++] = {UbRangeOf("outReduceMax", *a.reduce_max,
                              uint64_t{p.shape.m} * p.e.bytes),
                    true, 0};
  }
  const char* scratch_name = ScratchName(a.shared_tmp);
  ops[count++] = {
      UbRangeOf(scratch_name, scratch,
                4 * SoftMaxScratchFloats(p.tiling.splitM, p.shape.k)),
      true, 0};
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      const Operand& x = ops[i];
      const Operand& y = ops[j];
      if ((!x.written && !y.written) || !UbOverlap(x.range, y.range)) continue;
      const bool same = x.range.begin == y.range.begin;
      if (x.alias_group != 0 && x.alias_group == y.alias_group) {
        if (same) continue;
        const std::string rule = std::string(x.range.name) + " may be " +
                                 y.range.name +
                                 " itself but must not overlap it partly";
        FailUbOverlap(p.api, x.range, y.range, rule.c_str());
      }
      const std::string rule =
          std::string(p.api) + " writes " +
          (x.written ? x.range.name : y.range.name) +
          ", so it must not share memory with another operand";
      FailUbOverlap(p.api, x.range, y.range, rule.c_str());
    }
  }
}

// ---- Arithmetic -------------------------------------------------------------

// The vector unit's Exp: the double exponential rounded once to float.
inline float ExpOf(float x) {
  return static_cast<float>(std::exp(static_cast<double>(x)));
}

// Row r of a per-row operand of `width` elements of `e` (a block's first).
float RowValue(const TensorView& t, const Element& e, uint32_t width,
               uint32_t r) {
  const uint64_t at = uint64_t{r} * width;
  return e.bytes == 2 ? static_cast<float>(HalfData(t)[at]) : FloatData(t)[at];
}

// Writes v to row r of a per-row operand: the whole block of `width`
// elements (narrowed once for half).
void WriteRowValue(const TensorView& t, const Element& e, uint32_t width,
                   uint32_t r, float v, bool saturate) {
  const uint64_t at = uint64_t{r} * width;
  if (e.bytes == 2) {
    normgrad::float16 h[1];
    NarrowToHalf(&v, h, 1, saturate);
    std::fill(HalfData(t) + at, HalfData(t) + at + width, h[0]);
  } else {
    std::fill(FloatData(t) + at, FloatData(t) + at + width, v);
  }
}

// ---- The passes through the instruction set's loops
// ---------------------------
//
// The row max, the exponentials and the row sum of a row run as passes of
// the instruction set's loops (kernels::VectorKernels, and for the
// exponential and the fold of the row sum kernels::AdvancedKernels,
// src/kernels/vector/advanced_inl.h), each giving the bits of the documented
// step it replaces on every instruction set.

const normgrad::kernels::VectorKernels& Loops() { return VectorLoops().vector; }
const normgrad::kernels::AdvancedKernels& AdvancedLoops() {
  return normgrad::kernels::AdvancedKernelsOf(VectorLoops());
}

// The largest of the n floats (the first kept on ties; a NaN is skipped
// unless it comes first). The loops' first greatest value (−0 equal to +0)
// is that value unless the loops stop at a NaN past the first element,
// which the step skips: then the row is scanned here.
float RowMax(const float* x, uint32_t n) {
  const uint32_t at = Loops().arg_extreme_f32[0](x, n);
  if (at == 0 || x[at] == x[at]) return x[at];
  float m = x[0];
  for (uint32_t j = 1; j < n; ++j) m = x[j] > m ? x[j] : m;
  return m;
}

// x[j] = ExpOf(x[j] − s) for j < n: the subtraction, then the exponential.
void ExpOfDifference(float* x, float s, uint32_t n) {
  using normgrad::kernels::VectorOp;
  Loops().scalar_f32[static_cast<int>(VectorOp::kSub)](x, x, s, n);
  AdvancedLoops().exp_rounded_f32(x, n);
}

// x[j] = x[j] / s for j < n.
void DivideBy(float* x, float s, uint32_t n) {
  using normgrad::kernels::VectorOp;
  Loops().scalar_f32[static_cast<int>(VectorOp::kDiv)](x, x, s, n);
}

// x[j] = log10(x[j] / s) for j < n: the division, then the double
// logarithm rounded once to float (LogSoftMax).
void Log10OfQuotient(float* x, float s, uint32_t n) {
  DivideBy(x, s, n);
  AdvancedLoops().log10_rounded_f32(x, n);
}

// d[j] = a[j] · b[j] for j < n, in this order (SoftmaxGrad's products).
void Multiply(float* d, const float* a, const float* b, uint32_t n) {
  using normgrad::kernels::VectorOp;
  Loops().binary_f32[static_cast<int>(VectorOp::kMul)](d, a, b, n);
}

// The documented row sum of the n floats (FoldedRowSum's bits): folded onto
// 64 lanes in order, then the lanes' tree of adjacent pairs.
float RowSum(const float* x, uint32_t n) {
  float lanes[kVectorLanes];
  AdvancedLoops().fold_lanes_f32(x, n, lanes);
  float sum;
  Loops().tree_sums_f32(lanes, kVectorLanes, kVectorLanes, &sum);
  return sum;
}

// Writes the n floats of a row to dst from element `at`.
void StoreRow(const SoftMaxArgs& a, const Plan& p, uint64_t at,
              const float* row, uint32_t n) {
  if (a.is_half) {
    NarrowToHalf(row, HalfData(a.dst) + at, n, p.saturate);
  } else {
    std::memcpy(FloatData(a.dst) + at, row, size_t{n} * sizeof(float));
  }
}

// One chunk of `rows` rows from row0, every row's steps in order: the row in
// float in the scratch (work), its max into its reduce block, the
// exponentials in place, their sum into the block, then the outputs. A row's
// input is read before its output is written, so dst may be src.
void RunChunk(const SoftMaxArgs& a, const Plan& p, uint32_t row0,
              uint32_t rows) {
  const uint32_t k = p.shape.k;
  const uint32_t ori_k = p.shape.ori_k;
  float* work = p.scratch;
  float* reduce = p.scratch + p.tiling.splitSize;
  std::vector<float> grad_row;
  std::vector<float> y_row;
  for (uint32_t i = 0; i < rows; ++i) {
    const uint32_t r = row0 + i;
    const uint64_t at = uint64_t{r} * k;
    float* x = work + uint64_t{i} * k;
    float* block = reduce + uint64_t{i} * kSoftMaxReduceFloats;
    if (a.is_half) {
      normgrad::Widen(HalfData(a.src) + at, x, k);
    } else {
      std::memcpy(x, FloatData(a.src) + at, size_t{k} * sizeof(float));
    }
    if (IsGrad(a)) {
      // x holds the row of src (y); the products grad·y, their sum d, then
      // (grad - d)·y, or d alone for the front part. The rows of grad and y
      // in float live in host memory beside the scratch (the device's
      // scratch holds one row per row of the chunk).
      grad_row.resize(k);
      const float* grad = AsFloats(*a.grad, a.is_half, at, k, grad_row.data());
      Multiply(x, grad, x, k);
      const float d = RowSum(x, ori_k);
      std::fill(block, block + kSoftMaxReduceFloats, d);
      if (a.front) {
        WriteRowValue(a.dst, p.e, p.t_width, r, d, p.saturate);
        continue;
      }
      using normgrad::kernels::VectorOp;
      Loops().scalar_f32[static_cast<int>(VectorOp::kSub)](x, grad, d, k);
      y_row.resize(k);
      Multiply(x, x, AsFloats(a.src, a.is_half, at, k, y_row.data()), k);
      StoreRow(a, p, at, x, k);
      continue;
    }
    if (a.api == SoftMaxApi::kSimpleSoftMax) {
      const float in_max = RowValue(*a.max, p.stats, p.width, r);
      const float in_sum = RowValue(*a.sum, p.stats, p.width, r);
      ExpOfDifference(x, in_max, k);
      DivideBy(x, in_sum, k);
      StoreRow(a, p, at, x, k);
      continue;
    }
    const float row_max = RowMax(x, ori_k);
    float max = row_max;
    float exp_max = 1.0f;
    if (IsUpdate(a)) {
      const float in_max = RowValue(*a.in_max, p.stats, p.width, r);
      max = in_max > row_max ? in_max : row_max;
      exp_max = ExpOf(in_max - max);
    }
    std::fill(block, block + kSoftMaxReduceFloats, max);
    ExpOfDifference(x, max, k);
    float sum = RowSum(x, ori_k);
    float in_sum = 0.0f;
    if (IsUpdate(a)) {
      in_sum = RowValue(*a.in_sum, p.stats, p.width, r);
      sum = in_sum * exp_max + sum;
    }
    std::fill(block, block + kSoftMaxReduceFloats, sum);
    if (a.api == SoftMaxApi::kSoftMax || a.api == SoftMaxApi::kFlash) {
      DivideBy(x, sum, k);
    }
    // SoftmaxFlash's expMax is the share of the new sum the old one is.
    if (a.api == SoftMaxApi::kFlash && a.update) {
      exp_max = exp_max * in_sum / sum;
    }
    if (a.api == SoftMaxApi::kLogSoftMax) Log10OfQuotient(x, sum, k);
    StoreRow(a, p, at, x, k);
    if (a.sum != nullptr) {
      WriteRowValue(*a.sum, p.stats, p.width, r, sum, p.saturate);
    }
    if (a.max != nullptr) {
      WriteRowValue(*a.max, p.stats, p.width, r, max, p.saturate);
    }
    if (IsUpdate(a)) {
      WriteRowValue(*a.exp_max, p.e, p.t_width, r, exp_max, p.saturate);
      if (a.reduce_max != nullptr) {
        WriteRowValue(*a.reduce_max, p.e, 1, r, row_max, p.saturate);
      }
    }
  }
}

}  // namespace

void RunSoftMaxFamily(const SoftMaxArgs& a) {
  Plan p{};
  p.api = ApiName(a.api);
  p.e = HalfOrFloat(a.is_half);
  p.stats = HalfOrFloat(a.stats_half);
  const bool unbroadcast = WithoutBroadcast(a);
  p.width = unbroadcast ? 1 : kBlockBytes / p.stats.bytes;
  p.t_width = unbroadcast ? 1 : kBlockBytes / p.e.bytes;
  CheckForm(a, p.api);
  CheckAllPlacements(a, p.api);
  p.shape = CallShape(a, p.api, p.e);
  if (a.basic_block) CheckBasicShape(p.api, p.shape, p.e);
  p.tiling = CallTiling(a, p.api, p.shape, p.width);
  CheckAllLengths(a, p);
  const TensorView scratch = CheckedScratch(a, p);
  CheckOverlapsOf(a, p, scratch);
  if (a.api == SoftMaxApi::kLogSoftMax) CheckLogSoftMaxRange(a, p);

  p.scratch = FloatData(scratch);
  p.saturate = NarrowSaturates(*a.dst.core);
  const SoftMaxTiling& t = p.tiling;
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    RunChunk(a, p, i * t.splitM, t.splitM);
  }
  if (t.tailM != 0) RunChunk(a, p, t.rangeM * t.splitM, t.tailM);
}

}  // namespace normgrad_ascendc

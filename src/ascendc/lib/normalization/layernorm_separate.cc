// layernorm_separate.cc — LayerNorm's second form ([A, R] rows, float mean
// and rstd or variance) on the emulated core: the checks (template
// parameters per profile, the para against the tiling, tensor placement,
// lengths and overlaps, the scratch), then the numeric order of
// docs/layernorm.md, "The [A, R] form", row by row in float.
#include <algorithm>
#include <cmath>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "lib/normalization/layernorm.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/layernorm_host_tiling.h"

namespace normgrad_ascendc {
namespace {

using AscendC::LayerNormSeparateTiling;

constexpr char kApi[] = "LayerNorm";

// What messages call bfloat16_t values.
constexpr char kBfloat16Plural[] = "bfloat16_t values";

void CheckProfileAndConfig(const LayerNormSeparateArgs& a, const Core& core) {
  const bool is950 = core.profile().profile == Profile::k950;
  if (a.config.isOnlyOutput) {
    Fail(
        "LayerNorm: config.isOnlyOutput is true; only false is supported (y, "
        "mean and rstd are all written)");
  }
  if (!is950 &&
      (a.t == ElementType::kBfloat16 || a.u == ElementType::kBfloat16)) {
    Fail(
        "LayerNorm: the [A, R] form takes bfloat16_t only on the Ascend 950 "
        "profile, not on profile %s (%s): use half or float",
        core.profile().key, core.profile().name);
  }
  if (!is950 && !a.config.isOutputRstd) {
    Fail(
        "LayerNorm: config.isOutputRstd is false (output the variance), "
        "which only the Ascend 950 profile supports, not profile %s (%s)",
        core.profile().key, core.profile().name);
  }
}

void CheckParaAndTiling(const LayerNormSeparateArgs& a, const Element& e) {
  const LayerNormSeparateTiling& t = *a.tiling;
  const AscendC::LayerNormPara& p = a.para;
  if (t.oneTmpSize == 0 || t.rLength == 0) {
    Fail(
        "LayerNorm: tiling.oneTmpSize is 0: the [A, R] tiling is empty "
        "(GetLayerNormNDTilingInfo failed or was not called)");
  }
  if (p.aLength == 0 || p.aLength > t.aLength) {
    Fail("LayerNorm: para.aLength is %u; it must be in [1, tiling.aLength %u]",
         p.aLength, t.aLength);
  }
  if (p.rLengthWithPadding == 0 || p.rLengthWithPadding > t.rLength) {
    Fail(
        "LayerNorm: para.rLengthWithPadding is %u; it must be in [1, "
        "tiling.rLength %u] (the row the tiling was made for)",
        p.rLengthWithPadding, t.rLength);
  }
  if (uint64_t{p.rLengthWithPadding} * e.bytes % kBlockBytes != 0) {
    Fail(
        "LayerNorm: para.rLengthWithPadding %u %s is %llu bytes, not a "
        "multiple of 32 (the row must be 32-byte aligned)",
        p.rLengthWithPadding, e.plural,
        static_cast<unsigned long long>(uint64_t{p.rLengthWithPadding} *
                                        e.bytes));
  }
  if (p.rLength == 0 || p.rLength > p.rLengthWithPadding) {
    Fail(
        "LayerNorm: para.rLength is %u; it must be in [1, "
        "para.rLengthWithPadding %u]",
        p.rLength, p.rLengthWithPadding);
  }
  if (t.numberOfTmpBuf != 2 || t.oneTmpSize < t.rLength ||
      uint64_t{t.secondTmpStartPos} + t.rLength > t.tmpBufSize ||
      t.secondTmpStartPos < t.firstTmpStartPos + t.rLength) {
    Fail(
        "LayerNorm: the [A, R] tiling's scratch layout is inconsistent "
        "(numberOfTmpBuf %u, oneTmpSize %u, firstTmpStartPos %u, "
        "secondTmpStartPos %u, tmpBufSize %u for rows of %u): it needs two "
        "disjoint buffers of a row each",
        t.numberOfTmpBuf, t.oneTmpSize, t.firstTmpStartPos, t.secondTmpStartPos,
        t.tmpBufSize, t.rLength);
  }
}

// The tiling of an Ascend 950 program, which fills aLength and rLength: the
// scratch of two rows (one for the terms of a row sum, one for x - mean and
// y) derived from them, when it fits the tiling's 32 bits.
LayerNormSeparateTiling CompletedOn950(const LayerNormSeparateTiling& hand) {
  LayerNormSeparateTiling t = hand;
  if (t.rLength == 0 || t.rLength > UINT32_MAX / 2) return t;
  t.numberOfTmpBuf = 2;
  t.oneTmpSize = t.rLength;
  t.firstTmpStartPos = 0;
  t.secondTmpStartPos = t.rLength;
  t.tmpBufSize = 2 * t.rLength;
  return t;
}

struct Operand {
  const char* name;
  const TensorView* view;
  uint64_t elements;
  uint32_t bytes;
  bool written;
};

// With `scratch_in_ub` false the call works in floats of its own.
void CheckOperands(const LayerNormSeparateArgs& a, const TensorView& scratch,
                   const char* scratch_name, bool scratch_in_ub) {
  const uint64_t ar = uint64_t{a.para.aLength} * a.para.rLengthWithPadding;
  const uint32_t t_bytes = ElementOf(a.t, kBfloat16Plural).bytes;
  const uint32_t u_bytes = ElementOf(a.u, kBfloat16Plural).bytes;
  Operand ops[7];
  size_t n = 0;
  ops[n++] = {"output", &a.output, ar, t_bytes, true};
  ops[n++] = {"outputMean", &a.output_mean, a.para.aLength, 4, true};
  ops[n++] = {"outputRstd", &a.output_rstd, a.para.aLength, 4, true};
  if (scratch_in_ub) {
    ops[n++] = {scratch_name, &scratch, a.tiling->tmpBufSize, 4, true};
  }
  ops[n++] = {"inputX", &a.input_x, ar, t_bytes, false};
  if (!a.config.isNoGamma) {
    ops[n++] = {"gamma", &a.gamma, a.para.rLengthWithPadding, u_bytes, false};
  }
  if (!a.config.isNoBeta) {
    ops[n++] = {"beta", &a.beta, a.para.rLengthWithPadding, u_bytes, false};
  }
  for (size_t i = 0; i < n; ++i) {
    const Operand& o = ops[i];
    CheckPlacement(kApi, o.name, *o.view);
    if (o.view->bytes / o.bytes < o.elements) {
      Fail(
          "LayerNorm: %s holds %u elements of %u bytes, fewer than the %llu "
          "it must hold",
          o.name, o.view->bytes / o.bytes, o.bytes,
          static_cast<unsigned long long>(o.elements));
    }
  }
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < i; ++j) {
      const Operand& x = ops[i];
      const Operand& y = ops[j];
      if (!x.written && !y.written) continue;
      const UbRange rx = UbRangeOf(x.name, *x.view, x.elements * x.bytes);
      const UbRange ry = UbRangeOf(y.name, *y.view, y.elements * y.bytes);
      if (UbOverlap(ry, rx)) {
        FailUbOverlap(kApi, ry, rx,
                      "in the [A, R] form no output may share memory with "
                      "another operand (output and inputX included)");
      }
    }
  }
}

// The binary accumulation of docs/layernorm.md ("The [A, R] form", "Row
// sum") over v[0, n), in place: the n − 2^k elements past the largest power
// of two 2^k ≤ n are added onto the first ones, then blocks of 64 are added
// pairwise (block 2j + block 2j+1) until 64 lanes are left, then the lanes
// by a tree of adjacent pairs (lanes a short row leaves empty are +0).
float BinarySum(float* v, uint32_t n) {
  uint32_t head = 1;
  while (head <= n / 2) head *= 2;
  for (uint32_t i = 0; head + i < n; ++i) v[i] = v[i] + v[head + i];
  for (; head > kVectorLanes; head /= 2) {
    const uint32_t half_len = head / 2;
    for (uint32_t block = 0; block < half_len / kVectorLanes; ++block) {
      for (uint32_t l = 0; l < kVectorLanes; ++l) {
        v[block * kVectorLanes + l] = v[2 * block * kVectorLanes + l] +
                                      v[(2 * block + 1) * kVectorLanes + l];
      }
    }
  }
  float lanes[kVectorLanes] = {};
  for (uint32_t l = 0; l < head; ++l) lanes[l] = v[l];
  return LaneTreeSum(lanes);
}

float Load(ElementType type, const TensorView& t, uint64_t i) {
  switch (type) {
    case ElementType::kHalf:
      return float(HalfData(t)[i]);
    case ElementType::kBfloat16: {
      float f;
      normgrad::Widen(Bfloat16Data(t) + i, &f, 1);
      return f;
    }
    case ElementType::kFloat:
      break;
  }
  return FloatData(t)[i];
}

void StoreRow(ElementType type, const float* src, const TensorView& t,
              uint64_t pos, uint32_t n, bool saturate) {
  switch (type) {
    case ElementType::kHalf:
      NarrowToHalf(src, HalfData(t) + pos, n, saturate);
      return;
    case ElementType::kBfloat16:
      normgrad::Narrow(src, Bfloat16Data(t) + pos, n);
      return;
    case ElementType::kFloat:
      break;
  }
  std::copy(src, src + n, FloatData(t) + pos);
}

}  // namespace

void RunLayerNormSeparate(const LayerNormSeparateArgs& given) {
  const Core& core = *given.output.core;
  CheckProfileAndConfig(given, core);
  const Element e = ElementOf(given.t, kBfloat16Plural);
  // Ascend 950 reads aLength and rLength only (ReadsShapeOnly).
  const bool shape_only = ReadsShapeOnly(core);
  LayerNormSeparateArgs a = given;
  LayerNormSeparateTiling completed;
  if (shape_only) {
    completed = CompletedOn950(*given.tiling);
    a.tiling = &completed;
  }
  CheckParaAndTiling(a, e);
  const LayerNormSeparateTiling& t = *a.tiling;
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      shape_only ? NoScratchInUb(kApi, a.shared_tmp)
                 : TilingScratch(kApi, a.shared_tmp, t.tmpBufSize);
  CheckOperands(a, scratch, scratch_name, !shape_only);
  std::vector<float> own(shape_only ? t.tmpBufSize : 0);

  float* tmp = shape_only ? own.data() : FloatData(scratch);
  float* q = tmp + t.firstTmpStartPos;   // the terms of a row sum
  float* d = tmp + t.secondTmpStartPos;  // x − mean, then y
  const uint32_t r = a.para.rLength, rp = a.para.rLengthWithPadding;
  const float inv_r = 1.0f / static_cast<float>(r);
  const bool saturate = NarrowSaturates(core);
  float* mean_out = FloatData(a.output_mean);
  float* rstd_out = FloatData(a.output_rstd);
  for (uint32_t row = 0; row < a.para.aLength; ++row) {
    const uint64_t base = uint64_t{row} * rp;
    for (uint32_t i = 0; i < r; ++i) d[i] = Load(a.t, a.input_x, base + i);
    for (uint32_t i = 0; i < r; ++i) q[i] = d[i] * inv_r;
    const float mean = BinarySum(q, r);
    for (uint32_t i = 0; i < r; ++i) d[i] = d[i] - mean;
    for (uint32_t i = 0; i < r; ++i) q[i] = (d[i] * d[i]) * inv_r;
    const float var = BinarySum(q, r);
    const float rstd = 1.0f / std::sqrt(var + a.epsilon);
    for (uint32_t i = 0; i < r; ++i) {
      float y = d[i] * rstd;
      if (!a.config.isNoGamma) y = y * Load(a.u, a.gamma, i);
      if (!a.config.isNoBeta) y = y + Load(a.u, a.beta, i);
      d[i] = y;
    }
    StoreRow(a.t, d, a.output, base, r, saturate);
    mean_out[row] = mean;
    rstd_out[row] = a.config.isOutputRstd ? rstd : var;
  }
}

}  // namespace normgrad_ascendc

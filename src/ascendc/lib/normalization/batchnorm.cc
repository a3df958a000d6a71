// batchnorm.cc — AscendC::BatchNorm on the emulated core: the checks (tensor
// placement, lengths and overlaps; the tiling's chunking and scratch regions;
// isBasicBlock's shape rules), then the numeric order of docs/batchnorm.md
// chunk of columns by chunk in float, half widened on the way in and narrowed
// on the way out.
#include "lib/normalization/batchnorm.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/normalization/norm_operands.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"

namespace normgrad_ascendc {
namespace {

using AscendC::BatchNormTiling;

constexpr char kApi[] = "BatchNorm";

// The shape every profile reads: originalBLength, meanVarSize (S*H, 32-byte
// aligned) and firstDimValueBack = 1 / originalBLength.
void CheckShape(const BatchNormTiling& t, const Element& e) {
  const uint32_t per_block = kBlockBytes / e.bytes;
  if (t.originalBLength == 0 || t.meanVarSize == 0 ||
      t.meanVarSize % per_block != 0) {
    Fail(
        "BatchNorm: tiling.originalBLength %u and tiling.meanVarSize (S*H) %u "
        "must be at least 1, with S*H 32-byte aligned (a multiple of %u %s)",
        t.originalBLength, t.meanVarSize, per_block, e.plural);
  }
  CheckReciprocal(kApi, "firstDimValueBack", t.firstDimValueBack,
                  "originalBLength", t.originalBLength);
}

// Every chunking field must be what docs/batchnorm.md, "Tiling fields",
// derives from originalBLength, meanVarSize, shCurLength and T (every
// profile but Ascend 950, which does not chunk).
void CheckChunking(const BatchNormTiling& t, const Element& e,
                   bool basic_block) {
  const uint32_t per_block = kBlockBytes / e.bytes;
  const uint32_t unit = basic_block ? 64 : per_block;
  const uint32_t w = t.shCurLength;
  if (w == 0 || w > t.meanVarSize || (w % unit != 0 && w != t.meanVarSize)) {
    Fail(
        "BatchNorm: tiling.shCurLength %u must be a multiple of %u columns%s "
        "and at most meanVarSize %u",
        w, unit, basic_block ? " (isBasicBlock)" : "", t.meanVarSize);
  }
  if (basic_block && (t.originalBLength % 8 != 0 || t.meanVarSize % 64 != 0 ||
                      t.meanVarSize >= 2048)) {
    Fail(
        "BatchNorm: isBasicBlock needs originB a multiple of 8 and S*H a "
        "multiple of 64 below 2048, but tiling.originalBLength is %u and "
        "tiling.meanVarSize is %u",
        t.originalBLength, t.meanVarSize);
  }
  const uint64_t half = e.bytes == 2 ? 1 : 0;
  const uint64_t one = uint64_t{t.originalBLength} * w;
  const uint64_t mv = half * 2 * w;
  const uint64_t tail = t.meanVarSize % w;
  CheckDerivedFields(
      kApi,
      {
          {"oneTmpSize", t.oneTmpSize, one, "originalBLength * shCurLength"},
          {"bshCurLength", t.bshCurLength, one,
           "originalBLength * shCurLength"},
          {"meanTmpTensorPos", t.meanTmpTensorPos, 0, "0"},
          {"varianceTmpTensorPos", t.varianceTmpTensorPos, half * w,
           "shCurLength for half, 0 for float"},
          {"firstTmpStartPos", t.firstTmpStartPos, mv,
           "2 * shCurLength for half, 0 for float"},
          {"secondTmpStartPos", t.secondTmpStartPos, mv + one,
           "firstTmpStartPos + oneTmpSize"},
          {"thirdTmpStartPos", t.thirdTmpStartPos, mv + 2 * one,
           "secondTmpStartPos + oneTmpSize"},
          {"loopRound", t.loopRound, t.meanVarSize / w,
           "meanVarSize / shCurLength"},
          {"meanVarTailSize", t.meanVarTailSize, tail,
           "meanVarSize % shCurLength"},
          {"meanVarTailPos", t.meanVarTailPos, t.meanVarSize - tail,
           "meanVarSize - meanVarTailSize"},
          {"inputTailSize", t.inputTailSize, uint64_t{t.originalBLength} * tail,
           "originalBLength * meanVarTailSize"},
          {"inputTailPos", t.inputTailPos, t.meanVarSize - tail,
           "meanVarTailPos"},
          {"castHalfRepStride", t.castHalfRepStride, half * w / 8,
           "shCurLength / 8 for half, 0 for float"},
          {"shCurLengthBlockNum", t.shCurLengthBlockNum,
           w * e.bytes / kBlockBytes, "shCurLength * sizeof(T) / 32"},
          {"castHalfOutRepStride", t.castHalfOutRepStride, half * w / 16,
           "shCurLength / 16 for half, 0 for float"},
      });
  if (uint64_t{t.thirdTmpStartPos} + one > t.tmpBufSize) {
    Fail(
        "BatchNorm: the third chunk buffer [%u, %llu) floats runs past "
        "tiling.tmpBufSize %u floats",
        t.thirdTmpStartPos,
        static_cast<unsigned long long>(t.thirdTmpStartPos + one),
        t.tmpBufSize);
  }
}

float ParamAt(const BatchNormArgs& a, const TensorView& p, uint32_t i) {
  return a.is_half ? float(HalfData(p)[i]) : FloatData(p)[i];
}

struct Buffers {
  float* d;      // first chunk buffer: x − mean
  float* q;      // second: x·(1/originB), then (d·d)·(1/originB)
  float* stage;  // third: half's widened x, then rstd·d, then y
  float* mean;   // the chunk's means: outputMean + column (float) or scratch
  float* var;    // the chunk's variances, likewise
};

// Column sums of a chunk: sum[j] = ((v[0][j] + v[1][j]) + v[2][j]) + …, the
// rows added one after another.
void ColumnSums(const float* v, uint32_t rows, uint32_t w, float* sum) {
  for (uint32_t j = 0; j < w; ++j) sum[j] = v[j];
  for (uint32_t b = 1; b < rows; ++b) {
    for (uint32_t j = 0; j < w; ++j) sum[j] = sum[j] + v[uint64_t{b} * w + j];
  }
}

// The `w` columns starting at column `col` of every row, each step over the
// whole chunk before the next. x of the chunk is read before output is
// written.
void RunChunk(const BatchNormArgs& a, const BatchNormTiling& t,
              const Buffers& b, bool saturate, uint32_t col, uint32_t w) {
  const uint32_t rows = t.originalBLength;
  const uint32_t sh = t.meanVarSize;
  const float factor = t.firstDimValueBack;
  float* mean = a.is_half ? b.mean : FloatData(a.output_mean) + col;
  float* var = a.is_half ? b.var : FloatData(a.output_variance) + col;
  // x of the chunk, row by row, as floats in stage (half) or read in place.
  auto x_at = [&](uint32_t r, uint32_t j) {
    return a.is_half ? b.stage[uint64_t{r} * w + j]
                     : FloatData(a.input_x)[uint64_t{r} * sh + col + j];
  };
  if (a.is_half) {
    for (uint32_t r = 0; r < rows; ++r) {
      normgrad::Widen(HalfData(a.input_x) + uint64_t{r} * sh + col,
                      b.stage + uint64_t{r} * w, w);
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < w; ++j)
      b.q[uint64_t{r} * w + j] = x_at(r, j) * factor;
  }
  ColumnSums(b.q, rows, w, mean);
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t j = 0; j < w; ++j) {
      b.d[uint64_t{r} * w + j] = x_at(r, j) - mean[j];
    }
  }
  const uint64_t n = uint64_t{rows} * w;
  for (uint64_t i = 0; i < n; ++i) b.q[i] = (b.d[i] * b.d[i]) * factor;
  ColumnSums(b.q, rows, w, var);
  for (uint32_t j = 0; j < w; ++j) {
    const float rstd = 1.0f / std::sqrt(var[j] + a.epsilon);
    for (uint32_t r = 0; r < rows; ++r) {
      b.stage[uint64_t{r} * w + j] = rstd * b.d[uint64_t{r} * w + j];
    }
  }
  for (uint32_t r = 0; r < rows; ++r) {
    const float g = ParamAt(a, a.gamma, r);
    const float beta = ParamAt(a, a.beta, r);
    float* y = b.stage + uint64_t{r} * w;
    for (uint32_t j = 0; j < w; ++j) y[j] = (y[j] * g) + beta;
    if (a.is_half) {
      NarrowToHalf(y, HalfData(a.output) + uint64_t{r} * sh + col, w, saturate);
    } else {
      std::memcpy(FloatData(a.output) + uint64_t{r} * sh + col, y,
                  w * sizeof(float));
    }
  }
  if (a.is_half) {
    NarrowToHalf(b.mean, HalfData(a.output_mean) + col, w, saturate);
    NarrowToHalf(b.var, HalfData(a.output_variance) + col, w, saturate);
  }
}

}  // namespace

void RunBatchNorm(const BatchNormArgs& a) {
  const BatchNormTiling& t = *a.tiling;
  const Element e = HalfOrFloat(a.is_half);
  CheckNormPlacements(kApi, a, "gamm");
  // Ascend 950 reads originalBLength, meanVarSize and firstDimValueBack
  // only (its programs fill just those): one chunk of every column, in
  // buffers of the call's own. Columns are independent, so the chunking
  // changes no bit.
  const bool chunked = !ReadsShapeOnly(*a.output.core);
  if (chunked) {
    CheckTilingFilled(kApi, "oneTmpSize", t.oneTmpSize,
                      "GetBatchNormNDTilingInfo");
  }
  CheckShape(t, e);
  if (chunked) CheckChunking(t, e, a.basic_block);
  const uint32_t rows_sh = t.originalBLength * t.meanVarSize;
  CheckLengths(kApi, e,
               {{"output", a.output, rows_sh, "originB * S * H"},
                {"outputMean", a.output_mean, t.meanVarSize, "S * H"},
                {"outputVariance", a.output_variance, t.meanVarSize, "S * H"},
                {"inputX", a.input_x, rows_sh, "originB * S * H"},
                {"gamm", a.gamma, t.originalBLength, "originB"},
                {"beta", a.beta, t.originalBLength, "originB"}});
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      chunked
          ? CheckedTilingScratch(kApi, a.shared_tmp, t.tmpBufSize, scratch_name)
          : TensorView{};
  // In place, each chunk's columns are read before they are written.
  CheckNormOverlaps(kApi, a, "gamm",
                    {uint64_t{t.originalBLength} * t.meanVarSize * e.bytes,
                     uint64_t{t.meanVarSize} * e.bytes,
                     uint64_t{t.originalBLength} * e.bytes},
                    scratch, scratch_name,
                    chunked ? uint64_t{t.tmpBufSize} * 4 : 0, 0,
                    "BatchNorm must not write what it still reads (only "
                    "output may be inputX itself)");

  const bool saturate = NarrowSaturates(*a.output.core);
  if (!chunked) {
    const uint32_t w = t.meanVarSize;
    const uint64_t one = uint64_t{t.originalBLength} * w;
    std::vector<float> own(3 * one + 2 * uint64_t{w});
    Buffers b;
    b.d = own.data();
    b.q = b.d + one;
    b.stage = b.q + one;
    b.mean = b.stage + one;
    b.var = b.mean + w;
    RunChunk(a, t, b, saturate, 0, w);
    return;
  }
  float* tmp = FloatData(scratch);
  Buffers b;
  b.d = tmp + t.firstTmpStartPos;
  b.q = tmp + t.secondTmpStartPos;
  b.stage = tmp + t.thirdTmpStartPos;
  b.mean = tmp + t.meanTmpTensorPos;
  b.var = tmp + t.varianceTmpTensorPos;
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    RunChunk(a, t, b, saturate, i * t.shCurLength, t.shCurLength);
  }
  if (t.meanVarTailSize != 0) {
    RunChunk(a, t, b, saturate, t.meanVarTailPos, t.meanVarTailSize);
  }
}

}  // namespace normgrad_ascendc

// softmax_flash_v3.cc — AscendC::SoftmaxFlashV3 on the emulated core: the
// checks of its page (profile, reserved template arguments, the shape rules
// of SoftMaxParams, the tiling, lengths, scratch, what may share memory),
// then the rows chunk by chunk in the order of docs/softmax.md
// ("SoftmaxFlashV3"): half widened to float, every step of the page's script
// in float, each half output narrowed once.
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>

#include "ascendc/lib/common/advanced_api.h"
#include "lib/activation/softmaxflashv3.h"
#include "normgrad/float16.h"

namespace normgrad_ascendc {
namespace {

using AscendC::SoftmaxMode;
using AscendC::tiling::SoftMaxTiling;

constexpr char kApi[] = "SoftmaxFlashV3";

// The pieces a row's local means come from (the only splitMeanCnt the page
// takes), and the floats of one 32-byte block: a piece's sum is folded onto
// one block of lanes before the block is added up.
constexpr uint32_t kPieces = 8;
constexpr uint32_t kBlockLanes = 8;

// The page's shape rules: rows a multiple of 8, rows at least 512 elements
// and a multiple of 64 long.
constexpr uint32_t kRowsMultiple = 8;
constexpr uint32_t kMinRowLength = 512;
constexpr uint32_t kRowLengthMultiple = 64;

// Per-row floats of mean, sums and max (a 32-byte block), and halves of
// expMax (a 32-byte block).
constexpr uint32_t kStatsWidth = kBlockBytes / 4;
constexpr uint32_t kExpMaxWidth = kBlockBytes / 2;

// ---- Checks -----------------------------------------------------------------

// The products the page lists, and its reserved template arguments at their
// defaults (the NZ layout refused as the whole family refuses it).
void CheckForm(const SoftmaxFlashV3Args& a) {
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile == Profile::k310P) {
    Fail(
        "%s: not available on profile %s (%s): its page lists Atlas A2/A3 "
        "and Ascend 950 only",
        kApi, profile.name, profile.key);
  }
  if (a.format_nz) {
    Fail(
        "%s: isDataFormatNZ is true: normgrad supports the ND layout only "
        "(pass rows of srcK elements with isDataFormatNZ = false)",
        kApi);
  }
  if (a.reuse_source) {
    Fail(
        "%s: isReuseSource is true: the parameter is reserved and must be "
        "false",
        kApi);
  }
  if (a.basic_block) {
    Fail(
        "%s: isBasicBlock is true: the parameter is reserved and must be "
        "false",
        kApi);
  }
  const AscendC::SoftmaxConfig& c = a.config;
  if (!c.isCheckTiling || c.oriSrcM != 0 || c.oriSrcK != 0 ||
      c.mode != SoftmaxMode::SOFTMAX_NORMAL) {
    Fail(
        "%s: config is {isCheckTiling %d, oriSrcM %u, oriSrcK %u, mode %d}: "
        "the parameter is reserved and must be SOFTMAX_DEFAULT_CFG "
        "({1, 0, 0, 0})",
        kApi, c.isCheckTiling ? 1 : 0, c.oriSrcM, c.oriSrcK,
        static_cast<int>(c.mode));
  }
}

void CheckAllPlacements(const SoftmaxFlashV3Args& a) {
  CheckPlacements(kApi, {{"dstTensor", a.dst},
                         {"meanTensor", a.mean},
                         {"expSumTensor", a.exp_sum},
                         {"maxTensor", a.max},
                         {"srcTensor", a.src},
                         {"expMaxTensor", a.exp_max},
                         {"inMeanTensor", a.in_mean},
                         {"inExpSumTensor", a.in_exp_sum},
                         {"inMaxTensor", a.in_max}});
}

// The page's rules on params: [srcM, srcK] with srcM a multiple of 8, srcK at
// least 512 and a multiple of 64, no padding (oriSrcM, oriSrcK the same),
// splitMeanCnt 8, loopCnt at least 1 with isUpdate; and alpha / (1 - alpha)
// finite, or every shift would be inf or NaN.
void CheckParams(const SoftmaxFlashV3Args& a) {
  const AscendC::SoftMaxParams& p = a.params;
  if (p.srcM == 0 || p.srcM % kRowsMultiple != 0) {
    Fail("%s: params.srcM is %u: the rows (m) must be a positive multiple of 8",
         kApi, p.srcM);
  }
  if (p.srcK < kMinRowLength || p.srcK % kRowLengthMultiple != 0) {
    Fail(
        "%s: params.srcK is %u: the last axis (n) must be at least 512 and a "
        "multiple of 64",
        kApi, p.srcK);
  }
  if (uint64_t{p.srcM} * p.srcK > 0xFFFFFFFFu) {
    Fail("%s: params.srcM %u * srcK %u exceeds 4294967295 elements", kApi,
         p.srcM, p.srcK);
  }
  if (p.oriSrcM != p.srcM) {
    Fail(
        "%s: params.oriSrcM is %u but srcM is %u: SoftmaxFlashV3 takes no "
        "padding, oriSrcM must equal srcM",
        kApi, p.oriSrcM, p.srcM);
  }
  if (p.oriSrcK != p.srcK) {
    Fail(
        "%s: params.oriSrcK is %u but srcK is %u: SoftmaxFlashV3 takes no "
        "padding, oriSrcK must equal srcK",
        kApi, p.oriSrcK, p.srcK);
  }
  if (p.splitMeanCnt != kPieces) {
    Fail("%s: params.splitMeanCnt is %u: only 8 is supported", kApi,
         p.splitMeanCnt);
  }
  if (a.update && p.loopCnt < 1) {
    Fail(
        "%s: params.loopCnt is 0: with isUpdate it counts the tiles the "
        "running mean covers and must be at least 1",
        kApi);
  }
  const float scale = p.alpha / (1.0f - p.alpha);
  if (!std::isfinite(scale)) {
    Fail(
        "%s: params.alpha is %g: alpha / (1 - alpha) is %g, it must be "
        "finite (alpha a finite number other than 1)",
        kApi, static_cast<double>(p.alpha), static_cast<double>(scale));
  }
}

// The tiling SoftMaxFlashV3TilingFunc made for params' shape, every field
// what the family's rule derives for its splitM (float mean/sum/max).
SoftMaxTiling CheckedTiling(const SoftmaxFlashV3Args& a) {
  const SoftMaxTiling& t = *a.tiling;
  const AscendC::SoftMaxParams& p = a.params;
  CheckTilingFilled(kApi, "splitM", t.splitM, "SoftMaxFlashV3TilingFunc");
  if (t.srcM != p.srcM || t.srcK != p.srcK) {
    Fail(
        "%s: the tiling is for [%u, %u] but params is [%u, %u]: make the "
        "tiling for the call's shape",
        kApi, t.srcM, t.srcK, p.srcM, p.srcK);
  }
  if (t.splitM > p.srcM) {
    Fail("%s: tiling.splitM %u must be in [1, tiling.srcM %u]", kApi, t.splitM,
         p.srcM);
  }
  const SoftMaxTiling want =
      SoftMaxTilingFor(p.srcM, p.srcK, kStatsWidth, t.splitM);
  CheckDerivedFields(
      kApi,
      {
          {"srcSize", t.srcSize, want.srcSize, "srcM * srcK"},
          {"outMaxM", t.outMaxM, want.outMaxM, "srcM"},
          {"outMaxK", t.outMaxK, want.outMaxK,
           "a 32-byte block of float mean/sum/max: dataTypeSize2 4"},
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
  return t;
}

void CheckAllLengths(const SoftmaxFlashV3Args& a) {
  const uint64_t mk = uint64_t{a.params.srcM} * a.params.srcK;
  const uint64_t stats = uint64_t{a.params.srcM} * kStatsWidth;
  const char* block = "srcM rows of a 32-byte block";
  CheckLengths(kApi, kHalfElement,
               {{"dstTensor", a.dst, mk, "srcM * srcK"},
                {"srcTensor", a.src, mk, "srcM * srcK"},
                {"expMaxTensor", a.exp_max,
                 uint64_t{a.params.srcM} * kExpMaxWidth, block}});
  CheckLengths(kApi, kFloatElement,
               {{"meanTensor", a.mean, stats, block},
                {"expSumTensor", a.exp_sum, stats, block},
                {"maxTensor", a.max, stats, block},
                {"inMeanTensor", a.in_mean, stats, block},
                {"inExpSumTensor", a.in_exp_sum, stats, block},
                {"inMaxTensor", a.in_max, stats, block}});
}

// The scratch: sharedTmpBuffer or the framework scratch, placed for the
// vector unit and holding a chunk of splitM rows (the family's rule).
TensorView CheckedScratch(const SoftmaxFlashV3Args& a, uint32_t split_m) {
  const uint64_t bytes = 4 * SoftMaxScratchFloats(split_m, a.params.srcK);
  const char* name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, bytes, "%llu bytes",
                  static_cast<unsigned long long>(bytes));
  CheckPlacement(kApi, name, scratch);
  if (scratch.bytes < bytes) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %llu a chunk of tiling.splitM "
        "%u rows needs (splitM * (srcK + 8) floats; pass the "
        "localWorkSpaceSize the tiling was made with)",
        kApi, name, scratch.bytes, static_cast<unsigned long long>(bytes),
        split_m);
  }
  return scratch;
}

// What the call touches, for the overlap rule: operands of one alias group
// may be the same tensor (0: none).
struct Operand {
  UbRange range;
  bool written;
  int alias_group;
};

// The page's pairs may be the same tensor (dst on src, mean on inMean, max
// on inMax, expSum on inExpSum), not a partial overlap; besides, what the
// call writes shares memory with no operand, nor the scratch with any.
void CheckOverlapsOf(const SoftmaxFlashV3Args& a, const TensorView& scratch,
                     uint32_t split_m) {
  const uint64_t mk_bytes = uint64_t{a.params.srcM} * a.params.srcK * 2;
  const uint64_t stats_bytes = uint64_t{a.params.srcM} * kStatsWidth * 4;
  const uint64_t expmax_bytes = uint64_t{a.params.srcM} * kExpMaxWidth * 2;
  const Operand ops[] = {
      {UbRangeOf("dstTensor", a.dst, mk_bytes), true, 1},
      {UbRangeOf("srcTensor", a.src, mk_bytes), false, 1},
      {UbRangeOf("meanTensor", a.mean, stats_bytes), true, 2},
      {UbRangeOf("inMeanTensor", a.in_mean, stats_bytes), false, 2},
      {UbRangeOf("expSumTensor", a.exp_sum, stats_bytes), true, 3},
      {UbRangeOf("inExpSumTensor", a.in_exp_sum, stats_bytes), false, 3},
      {UbRangeOf("maxTensor", a.max, stats_bytes), true, 4},
      {UbRangeOf("inMaxTensor", a.in_max, stats_bytes), false, 4},
      {UbRangeOf("expMaxTensor", a.exp_max, expmax_bytes), a.update, 0},
      {UbRangeOf(ScratchName(a.shared_tmp), scratch,
                 4 * SoftMaxScratchFloats(split_m, a.params.srcK)),
       true, 0},
  };
  for (const Operand& x : ops) {
    for (const Operand* y = &x + 1; y != std::end(ops); ++y) {
      if ((!x.written && !y->written) || !UbOverlap(x.range, y->range)) {
        continue;
      }
      if (x.alias_group != 0 && x.alias_group == y->alias_group) {
        if (x.range.begin == y->range.begin) continue;
        const std::string rule = std::string(x.range.name) + " may be " +
                                 y->range.name +
                                 " itself but must not overlap it partly";
        FailUbOverlap(kApi, x.range, y->range, rule.c_str());
      }
      const std::string rule =
          std::string(kApi) + " writes " +
          (x.written ? x.range.name : y->range.name) +
          ", so it must not share memory with another operand";
      FailUbOverlap(kApi, x.range, y->range, rule.c_str());
    }
  }
}

// ---- Arithmetic -------------------------------------------------------------

// The vector unit's Exp: the double exponential rounded once to float.
inline float ExpOf(float x) {
  return static_cast<float>(std::exp(static_cast<double>(x)));
}

// The sum of piece j's `base` columns: folded onto the 8 lanes of one block
// in column order (lane l adds columns 8i + l of the piece), then the block's
// lanes added by a tree of adjacent pairs, as the vector unit's block sum
// does.
float PieceSum(const float* piece, uint32_t base) {
  float lanes[kBlockLanes];
  for (uint32_t l = 0; l < kBlockLanes; ++l) lanes[l] = piece[l];
  for (uint32_t i = kBlockLanes; i < base; ++i) {
    lanes[i % kBlockLanes] += piece[i];
  }
  for (uint32_t width = kBlockLanes; width > 1; width /= 2) {
    for (uint32_t l = 0; l < width / 2; ++l) {
      lanes[l] = lanes[2 * l] + lanes[2 * l + 1];
    }
  }
  return lanes[0];
}

// The largest of the n floats (a NaN skipped unless it comes first), as the
// family's row max.
float RowMax(const float* x, uint32_t n) {
  float m = x[0];
  for (uint32_t j = 1; j < n; ++j) m = x[j] > m ? x[j] : m;
  return m;
}

float RowValue(const TensorView& t, uint32_t r) {
  return FloatData(t)[uint64_t{r} * kStatsWidth];
}

void WriteFloatRow(const TensorView& t, uint32_t r, float v) {
  float* at = FloatData(t) + uint64_t{r} * kStatsWidth;
  for (uint32_t i = 0; i < kStatsWidth; ++i) at[i] = v;
}

// What a call needs once the checks have passed.
struct Plan {
  float scale;  // alpha / (1 - alpha)
  float* scratch;
  uint32_t split_m;
  bool saturate;
};

// One chunk of `rows` rows from row0. Each row: widened into the scratch
// (work), its piece means and the row mean, the shifts (kept in the row's
// block), the shifted row, then the page's branch. A row's input is read
// before its outputs are written, so dst may be src and each output its
// input.
void RunChunk(const SoftmaxFlashV3Args& a, const Plan& p, uint32_t row0,
              uint32_t rows) {
  const uint32_t k = a.params.srcK;
  const uint32_t base = k / kPieces;
  float* work = p.scratch;
  float* blocks = p.scratch + uint64_t{p.split_m} * k;
  for (uint32_t i = 0; i < rows; ++i) {
    const uint32_t r = row0 + i;
    const uint64_t at = uint64_t{r} * k;
    float* x = work + uint64_t{i} * k;
    float* shift = blocks + uint64_t{i} * kSoftMaxReduceFloats;
    normgrad::Widen(HalfData(a.src) + at, x, k);
    const float row_mean = FoldedRowSum(x, k) / static_cast<float>(k);
    for (uint32_t j = 0; j < kPieces; ++j) {
      const float piece_mean =
          PieceSum(x + uint64_t{j} * base, base) / static_cast<float>(base);
      shift[j] = (row_mean - piece_mean) * p.scale;
    }
    for (uint32_t c = 0; c < k; ++c) x[c] = x[c] - shift[c / base];
    const float shifted_max = RowMax(x, k);

    float mean = row_mean;
    float in_mean = 0.0f;
    float in_max = 0.0f;
    if (a.update) {
      const uint32_t loops = a.params.loopCnt;
      in_mean = RowValue(a.in_mean, r);
      in_max = RowValue(a.in_max, r);
      mean = (row_mean + in_mean * static_cast<float>(loops - 1)) /
             static_cast<float>(loops);
    }
    const float shift_curr = (row_mean - mean) * p.scale;
    float max = shift_curr + shifted_max;
    float exp_max = 1.0f;
    float shift_prev = 0.0f;
    if (a.update) {
      shift_prev = (in_mean - mean) * p.scale;
      const float prev_max = shift_prev + in_max;
      max = prev_max > max ? prev_max : max;
      exp_max = ExpOf(in_max - max + shift_prev);
    }
    const float sub = max - shift_curr;
    for (uint32_t c = 0; c < k; ++c) x[c] = ExpOf(x[c] - sub);
    float sum = FoldedRowSum(x, k);
    if (a.update) sum = exp_max * RowValue(a.in_exp_sum, r) + sum;

    NarrowToHalf(x, HalfData(a.dst) + at, k, p.saturate);
    WriteFloatRow(a.mean, r, mean);
    WriteFloatRow(a.max, r, max);
    WriteFloatRow(a.exp_sum, r, sum);
    if (a.update) {
      normgrad::float16 h[1];
      NarrowToHalf(&exp_max, h, 1, p.saturate);
      normgrad::float16* row = HalfData(a.exp_max) + uint64_t{r} * kExpMaxWidth;
      for (uint32_t e = 0; e < kExpMaxWidth; ++e) row[e] = h[0];
    }
  }
}

}  // namespace

void RunSoftmaxFlashV3(const SoftmaxFlashV3Args& a) {
  CheckForm(a);
  CheckAllPlacements(a);
  CheckParams(a);
  const SoftMaxTiling t = CheckedTiling(a);
  CheckAllLengths(a);
  const TensorView scratch = CheckedScratch(a, t.splitM);
  CheckOverlapsOf(a, scratch, t.splitM);

  const Plan p{a.params.alpha / (1.0f - a.params.alpha), FloatData(scratch),
               t.splitM, NarrowSaturates(*a.dst.core)};
  for (uint32_t i = 0; i < t.rangeM; ++i) {
    RunChunk(a, p, i * t.splitM, t.splitM);
  }
  if (t.tailM != 0) RunChunk(a, p, t.rangeM * t.splitM, t.tailM);
}

}  // namespace normgrad_ascendc

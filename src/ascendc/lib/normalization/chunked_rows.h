// src/ascendc/lib/normalization/chunked_rows.h — the tiling rule LayerNorm,
// DeepNorm and GroupNorm share (internal, not installed): rows (GroupNorm:
// groups) of a fixed length cut into chunks of oneTmpSize elements, worked
// in two or three chunk buffers of floats placed after half's float means
// and variances. The host side: the number of chunk buffers, the scratch
// sizes, the chunk size and the fields it fills. The kernel side: the checks
// of those fields and regions against the rule, and the walk over the chunks.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace normgrad_ascendc {

// ---- The host's tiling ------------------------------------------------------

/// The chunk buffers: two for float with isReuseSource (the source serves as
/// the third), else three.
inline uint32_t NumberOfTmpBuf(uint32_t type_size, bool is_reuse_source) {
  return type_size == 4 && is_reuse_source ? 2 : 3;
}

/// Floats of half's float means and variances at the start of the scratch,
/// 2·roundup(rows, 8); float keeps them in the mean and variance outputs.
inline uint64_t MeanVarFloats(uint64_t rows, uint32_t type_size) {
  return type_size == 2 ? 2 * RoundUp(rows, 8) : 0;
}

/// A scratch-size range in bytes, in 64 bits.
struct TmpBytes {
  uint64_t max;
  uint64_t min;
};

/// The scratch sizes: `buffers` chunk buffers of all `elements` (max) or of
/// one `row` (min), each rounded up to 32 bytes, plus `mean_var_floats`.
inline TmpBytes ChunkedRowsScratchBytes(uint64_t buffers, uint64_t elements,
                                        uint64_t row,
                                        uint64_t mean_var_floats) {
  const uint64_t mean_var = 4 * mean_var_floats;
  return {buffers * RoundUp(4 * elements, 32) + mean_var,
          buffers * RoundUp(4 * row, 32) + mean_var};
}

/// The elements of a chunk (oneTmpSize): as many whole rows of `row`
/// elements as each of `buffers` chunk buffers holds in the `tmp_buf` floats
/// left after `mean_var` floats, at most `elements`; 0 when not one row fits.
inline uint64_t ChunkElements(uint64_t tmp_buf, uint64_t mean_var,
                              uint32_t buffers, uint64_t row,
                              uint64_t elements) {
  const uint64_t per_buffer =
      tmp_buf >= mean_var ? (tmp_buf - mean_var) / buffers : 0;
  return std::min(per_buffer / row * row, elements);
}

/// A chunking: `rows` rows of `row` elements, chunks of `one` elements in
/// `buffers` chunk buffers after `mean_var` floats, a scratch of `tmp_buf`
/// floats.
struct ChunkedRows {
  uint32_t rows;
  uint32_t row;
  uint32_t buffers;
  uint32_t tmp_buf;
  uint32_t mean_var;
  uint32_t one;
};

/// Sets the chunking fields of a tiling shaped like LayerNorm's: sizes,
/// scratch positions, rounds and tail (the tail's sizes are what is left
/// after the whole chunks), and the current chunk's sizes.
template <typename Tiling>
void SetChunkFields(const ChunkedRows& c, Tiling* out) {
  const uint32_t elements = c.rows * c.row;
  const uint32_t mean_size = static_cast<uint32_t>(RoundUp(c.rows, 8));
  const uint32_t tail = elements % c.one;
  out->inputXSize = elements;
  out->meanVarSize = c.rows;
  out->numberOfTmpBuf = c.buffers;
  out->meanTmpTensorPos = 0;
  out->meanTmpTensorSize = mean_size;
  out->varianceTmpTensorPos = mean_size;
  out->varianceTmpTensorSize = mean_size;
  out->tmpBufSize = c.tmp_buf;
  out->oneTmpSize = c.one;
  out->firstTmpStartPos = c.mean_var;
  out->secondTmpStartPos = c.mean_var + c.one;
  out->thirdTmpStartPos = c.mean_var + 2 * c.one;
  out->loopRound = elements / c.one;
  out->inputRoundSize = c.one;
  out->inputTailSize = tail;
  out->inputTailPos = elements - tail;
  out->meanVarRoundSize = c.one / c.row;
  out->meanVarTailSize = tail / c.row;
  out->meanVarTailPos = c.rows - tail / c.row;
  out->bshCurLength = c.one;
  out->bsCurLength = c.one / c.row;
}

// ---- One chunk of all rows (tilings with the shape fields only) -------------

/// `t` with its chunking fields set for one chunk of all `rows` rows of
/// `row` elements (SetChunkFields), in `buffers` chunk buffers after half's
/// float means and variances; `t` unchanged when it has no element, or more
/// than the 2^32 - 1 floats a tiling can count, for the checks to name.
template <typename Tiling>
Tiling WithOneChunk(Tiling t, uint64_t rows, uint64_t row, uint32_t buffers,
                    uint32_t type_size) {
  const uint64_t one = rows * row;
  const uint64_t mean_var = MeanVarFloats(rows, type_size);
  const uint64_t tmp_buf = mean_var + buffers * one;
  if (one == 0 || tmp_buf > UINT32_MAX) return t;
  SetChunkFields(
      ChunkedRows{static_cast<uint32_t>(rows), static_cast<uint32_t>(row),
                  buffers, static_cast<uint32_t>(tmp_buf),
                  static_cast<uint32_t>(mean_var), static_cast<uint32_t>(one)},
      &t);
  return t;
}

// ---- The kernel's checks ----------------------------------------------------

/// How the rules of CheckChunkRounds name the elements of a row: hLength for
/// rows (LayerNorm, DeepNorm), d * hw for groups (GroupNorm).
struct RowRules {
  const char* round;  ///< meanVarRoundSize's rule
  const char* tail;   ///< meanVarTailSize's rule
};

inline constexpr RowRules kRowsOfH = {"oneTmpSize / hLength",
                                      "inputTailSize / hLength"};
inline constexpr RowRules kGroupsOfDHw = {"oneTmpSize / (d * hw)",
                                          "inputTailSize / (d * hw)"};

/// Fails unless the round and tail fields are what the rule derives from
/// `rows` rows of `row` elements in chunks of oneTmpSize, which must be a
/// nonzero multiple of `row` (checked before).
template <typename Tiling>
void CheckChunkRounds(const char* api, const Tiling& t, uint64_t rows,
                      uint64_t row, const RowRules& rules) {
  const uint64_t elements = rows * row;
  const uint32_t one = t.oneTmpSize;
  const uint64_t tail = elements % one;
  CheckDerivedFields(
      api,
      {
          {"inputRoundSize", t.inputRoundSize, one, "oneTmpSize"},
          {"loopRound", t.loopRound, elements / one, "inputXSize / oneTmpSize"},
          {"inputTailSize", t.inputTailSize, tail, "inputXSize % oneTmpSize"},
          {"inputTailPos", t.inputTailPos, elements - tail,
           "inputXSize - inputTailSize"},
          {"meanVarRoundSize", t.meanVarRoundSize, one / row, rules.round},
          {"meanVarTailSize", t.meanVarTailSize, tail / row, rules.tail},
          {"meanVarTailPos", t.meanVarTailPos, rows - tail / row,
           "meanVarSize - meanVarTailSize"},
      });
}

/// Fails unless bshCurLength is oneTmpSize, or the tail's size as a call
/// that processed a tail leaves it, and bsCurLength its rows (LayerNorm and
/// DeepNorm, which write them).
template <typename Tiling>
void CheckCurrentChunk(const char* api, const Tiling& t) {
  const uint32_t one = t.oneTmpSize;
  const uint64_t tail = uint64_t{t.bLength} * t.sLength * t.hLength % one;
  if (t.bshCurLength != one && (tail == 0 || t.bshCurLength != tail)) {
    Fail(
        "%s: tiling.bshCurLength is %u, expected oneTmpSize %u (or "
        "inputTailSize %llu, as a call that processed a tail leaves it): the "
        "tiling is inconsistent",
        api, t.bshCurLength, one, static_cast<unsigned long long>(tail));
  }
  if (t.bsCurLength != t.bshCurLength / t.hLength) {
    Fail(
        "%s: tiling.bsCurLength is %u, expected %llu (bshCurLength "
        "%u / hLength %u): the tiling is inconsistent",
        api, t.bsCurLength,
        static_cast<unsigned long long>(t.bshCurLength / t.hLength),
        t.bshCurLength, t.hLength);
  }
}

/// The hint that ends the message of a scratch region running past
/// tmpBufSize when the tiling has two chunk buffers.
inline constexpr const char* kTwoBuffersHint =
    " (tiling.numberOfTmpBuf is 2: a tiling made for float with "
    "isReuseSource = true has no third chunk buffer)";

/// Fails unless the scratch regions of the tiling lie inside tmpBufSize
/// floats and none overlaps another (CheckScratchRegions). The regions, in
/// floats: for half the float means and variances (meanVarSize each), then
/// the chunk buffers of oneTmpSize — first, second, and the third when
/// `third` is true. `past_hint` ends the message of a region that runs past
/// tmpBufSize; with half the overlap message adds that the tiling may be one
/// made for float.
template <typename Tiling>
void CheckChunkScratchRegions(const char* api, const Tiling& t, bool is_half,
                              bool third, const char* past_hint) {
  ScratchRegion regions[5];
  size_t count = 0;
  auto add = [&](const char* field, uint32_t pos, uint32_t length) {
    regions[count++] = {field, pos, uint64_t{pos} + length};
  };
  if (is_half) {
    add("meanTmpTensorPos", t.meanTmpTensorPos, t.meanVarSize);
    add("varianceTmpTensorPos", t.varianceTmpTensorPos, t.meanVarSize);
  }
  add("firstTmpStartPos", t.firstTmpStartPos, t.oneTmpSize);
  add("secondTmpStartPos", t.secondTmpStartPos, t.oneTmpSize);
  if (third) add("thirdTmpStartPos", t.thirdTmpStartPos, t.oneTmpSize);
  CheckScratchRegions(api, regions, count, "tmpBufSize", t.tmpBufSize,
                      past_hint, is_half ? " (a tiling made for float?)" : "");
}

// ---- The kernel's walk ------------------------------------------------------

/// Walks the chunks of a tiling shaped like LayerNorm's (LayerNorm,
/// DeepNorm): chunk(element_pos, row_pos, rows) for each of the loopRound
/// chunks of bsCurLength rows, then for the tail, if any, after rewriting
/// bshCurLength and bsCurLength to the tail's sizes as the device does (a
/// later call with the same tiling sees them).
template <typename Tiling, typename Chunk>
void ForEachChunk(Tiling& t, Chunk chunk) {
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    chunk(i * t.inputRoundSize, i * t.meanVarRoundSize, t.bsCurLength);
  }
  if (t.inputTailSize != 0) {
    t.bshCurLength = t.inputTailSize;
    t.bsCurLength = t.meanVarTailSize;
    chunk(t.inputTailPos, t.meanVarTailPos, t.bsCurLength);
  }
}

}  // namespace normgrad_ascendc

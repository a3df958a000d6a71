// normgrad/grad_beta_partials.h — the blocked order of LayerNormGradBeta
// split across processes: each process turns its contiguous range of rows
// into partial sums, the partials of all ranges are exchanged, and combining
// them gives pd_gamma and pd_beta with exactly the bits of one
// LayerNormGradBeta call (order blocked) over all the rows — for any number
// of ranges and any split, as long as every non-empty range starts at a
// multiple of kBlockedOrderRows.
//
// Why that rule: the blocked order sums 256-row blocks from zero and
// combines the block sums by a fixed pairwise tree over the block indices
// (docs/numerics.md). A range that starts on a block boundary holds whole
// blocks (the last range may end inside the last block), so it can sum its
// blocks alone and hand over the tree's nodes that lie wholly inside it:
// its canonical subtrees, the maximal runs of 2^L blocks starting at a
// multiple of 2^L. They are O(log2 blocks) per range, each 2·H floats, and
// the combine performs the tree's remaining additions, each with the same
// operands, in the same order, as the single call.
//
// Example (two processes, rows split at a multiple of 256):
//   normgrad::GradBetaPartialsProblem p;   // this process's rows
//   p.dtype = normgrad::DType::kF32; p.row_begin = 4096; p.rows = 1000;
//   p.cols = 1024; p.dy = dy; p.res = res;
//   std::vector<unsigned char> mine(normgrad::GradBetaPartialsBytes(4096, 1000,
//   1024)); p.partials = mine.data(); p.partials_bytes = mine.size();
//   normgrad::Status s = normgrad::LayerNormGradBetaPartials(p);
//   ... exchange the buffers (MPI_Allgatherv, torch.distributed) ...
//   const void* all[] = {theirs.data(), mine.data()};   // in row order
//   const size_t sizes[] = {theirs.size(), mine.size()};
//   normgrad::GradBetaCombineProblem c;
//   c.partials = all; c.partials_bytes = sizes; c.count = 2;
//   c.pd_gamma = gamma.data(); c.pd_beta = beta.data();
//   s = normgrad::CombineGradBetaPartials(c);
//
// The partials' layout (a byte buffer, host byte order; every process of a
// run must share it):
//   offset  0  char[4]  magic "NGBP"
//           4  uint32   layout version, kGradBetaPartialsVersion
//           8  uint32   block rows of the order, kBlockedOrderRows
//          12  uint32   dtype of the inputs (0 float, 1 half, 2 bfloat16)
//          16  uint64   cols (H)
//          24  uint64   row_begin: the range's first row in the whole matrix
//          32  uint64   row_end: one past its last row
//          40  uint64   nodes: the number of subtrees that follow
//          48  float[nodes][2][cols]  per subtree, left to right: the float
//                       sums of pd_gamma (cols floats), then of pd_beta
// The subtrees are those of blocks [row_begin / 256, ⌈row_end / 256⌉):
// from the first block on, each the longest run of 2^L blocks that starts
// at a multiple of 2^L and stays inside the range.
#pragma once

#include <cstddef>
#include <cstdint>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad {

/// The partials' layout version; a buffer of another version is refused.
constexpr uint32_t kGradBetaPartialsVersion = 1;

/// The fixed part of the partials' layout (above), as it lies in memory.
struct GradBetaPartialsHeader {
  char magic[4];
  uint32_t version;
  uint32_t block_rows;
  uint32_t dtype;
  uint64_t cols;
  uint64_t row_begin;
  uint64_t row_end;
  uint64_t nodes;
};
static_assert(sizeof(GradBetaPartialsHeader) == 48, "the documented layout");

/// Bytes of the partials of rows [row_begin, row_begin + rows) of H = cols
/// columns: 48 + nodes · 2 · cols · 4. 0 when that does not fit in size_t.
size_t GradBetaPartialsBytes(size_t row_begin, size_t rows, size_t cols);

/// One range's partial sums: its rows, read like LayerNormGradBeta's.
struct GradBetaPartialsProblem {
  DType dtype = DType::kF32;  ///< type of dy and res
  /// The range's first row in the whole matrix: a multiple of
  /// kBlockedOrderRows unless rows is 0.
  size_t row_begin = 0;
  size_t rows = 0;            ///< rows of this range
  size_t cols = 0;            ///< H
  size_t row_stride = 0;      ///< elements between rows; 0 means `cols`
  const void* dy = nullptr;   ///< the range's first row of dy
  const void* res = nullptr;  ///< the range's first row of res, same layout
  /// Where the partials are written: 4-byte aligned (they hold floats).
  void* partials = nullptr;
  /// Its size: exactly GradBetaPartialsBytes(row_begin, rows, cols).
  size_t partials_bytes = 0;
  int threads = 0;            ///< as in GradBetaProblem
  const char* isa = nullptr;  ///< as in GradBetaProblem
};

/// Writes the partials of one range. Errors (kInvalidArgument) name the
/// argument: a range that does not start at a block boundary, a size that
/// is not GradBetaPartialsBytes, and LayerNormGradBeta's own rules.
Status LayerNormGradBetaPartials(const GradBetaPartialsProblem& problem);

/// Combines the partials of consecutive ranges that cover rows [0, rows)
/// in order (the first starts at row 0, each next one where the previous
/// one ends) into pd_gamma and pd_beta: the bits of LayerNormGradBeta with
/// order blocked over all the rows.
struct GradBetaCombineProblem {
  /// `count` buffers in row order, each 4-byte aligned.
  const void* const* partials = nullptr;
  const size_t* partials_bytes = nullptr;  ///< their sizes
  size_t count = 0;                        ///< at least 1
  /// false: pd_gamma/pd_beta are in the inputs' dtype; true: float.
  bool f32_outputs = false;
  void* pd_gamma = nullptr;   ///< cols elements
  void* pd_beta = nullptr;    ///< cols elements
  const char* isa = nullptr;  ///< as in GradBetaProblem
};

/// Errors (kInvalidArgument) name the range by its index and say what is
/// wrong: not partials of this layout (magic, version, size, a node count
/// that does not match its rows), another block size, dtype or cols than
/// range 0, a gap or an overlap between consecutive ranges, a first range
/// that does not start at row 0, a non-empty range not starting at a block
/// boundary. Scratch: (⌈log2 blocks⌉ + 1) · 2 · cols floats.
Status CombineGradBetaPartials(const GradBetaCombineProblem& problem);

}  // namespace normgrad

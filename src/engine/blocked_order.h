// engine/blocked_order.h — the blocked summation order of pd_gamma and
// pd_beta, shared by LayerNormGradBeta and LayerNormBackward. Rows are cut
// into blocks of kBlockRows; each block is summed row after row, from zero,
// into a float partial; the partials are combined by a fixed pairwise tree,
//
//   partial[i] = partial[i] + partial[i + s]   for s = 1, 2, 4, …
//                                              and i a multiple of 2s, i + s < blocks,
//
// whose result is partial[0]. Blocks and tree depend on the row count only,
// so any way of sharing the work between threads gives the same bits.
//
// Work and scratch: the blocks are dealt out in subtrees, runs of `subtree`
// blocks (a power of two) starting at a multiple of it — each such run is a
// node of the tree. A thread sums a subtree's blocks in order and combines
// each finished partial at once, keeping a stack of at most log2(subtree) + 1
// partials (the same tree, evaluated as a binary counter); the subtrees'
// roots are then combined by the tree's upper levels. So the scratch is
// (subtrees + threads · log2(subtree)) partials, with subtrees ≤
// kSubtreesPerThread · threads: it grows with log2 of the row count, not
// with the row count.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/kernels.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// Rows per block (the public constant). Never derived from the thread
/// count, so results do not depend on how many threads run.
constexpr size_t kBlockRows = kBlockedOrderRows;

/// Subtrees per thread at most: enough that threads given whole subtrees get
/// about equal shares of the blocks (within an eighth).
constexpr size_t kSubtreesPerThread = 8;

/// How the blocks of `rows` rows are dealt out to `threads` threads.
struct BlockedPlan {
  size_t blocks;    ///< ⌈rows / kBlockRows⌉, at least 1 (an empty block for rows = 0)
  size_t subtree;   ///< blocks per subtree: a power of two
  size_t subtrees;  ///< ⌈blocks / subtree⌉
  size_t levels;    ///< log2(subtree): the partials of a thread's stack besides the root
};
BlockedPlan PlanBlocked(size_t rows, int threads);

/// Scratch floats for partials of `partial_floats` floats each: the
/// subtrees' roots, then `threads` stacks of plan.levels partials.
size_t BlockedScratchFloats(const BlockedPlan& plan, int threads, size_t partial_floats);

/// The part of a partial that one piece of work sums: columns [begin, end)
/// of its pd_gamma half (at offset 0) and of its pd_beta half (at `beta`).
/// A partial holds 2 · beta floats.
struct PartialColumns {
  size_t beta, begin, end;
};

void ZeroColumns(float* partial, const PartialColumns& c);
/// dst = dst + src over c, dst the left operand (as the tree adds).
void AddColumns(const kernels::Isa& isa, float* dst, const float* src, const PartialColumns& c);

/// Sums subtree j into `root`, over columns c: sum_block(b, partial) adds
/// block b's rows into `partial`, zeroed over c. `stack` holds plan.levels
/// partials of 2 · c.beta floats.
template <typename SumBlock>
void SumSubtree(const kernels::Isa& isa, const BlockedPlan& plan, size_t j, const PartialColumns& c,
                float* root, float* stack, const SumBlock& sum_block) {
  const size_t partial_floats = 2 * c.beta;
  const auto slot = [&](size_t depth) {
    return depth == 0 ? root : stack + (depth - 1) * partial_floats;
  };
  // Entry d of the stack is a node 2^level[d] blocks wide; levels strictly
  // decrease from the bottom, so at most levels + 1 entries.
  uint8_t level[64];
  size_t depth = 0;
  const size_t first = j * plan.subtree;
  const size_t last = first + plan.subtree < plan.blocks ? first + plan.subtree : plan.blocks;
  for (size_t b = first; b < last; ++b) {
    float* partial = slot(depth);
    ZeroColumns(partial, c);
    sum_block(b, partial);
    level[depth++] = 0;
    while (depth >= 2 && level[depth - 1] == level[depth - 2]) {  // two siblings: their parent
      AddColumns(isa, slot(depth - 2), slot(depth - 1), c);
      ++level[depth - 2];
      --depth;
    }
  }
  // A subtree cut short by the last block: each node whose right sibling is
  // missing passes through, so the rest fold from the right.
  for (; depth >= 2; --depth) AddColumns(isa, slot(depth - 2), slot(depth - 1), c);
}

/// The tree's levels above the subtrees, over columns c: `roots` holds
/// plan.subtrees partials of 2 · c.beta floats, one after another; the total
/// ends in roots[0].
void CombineRoots(const kernels::Isa& isa, const BlockedPlan& plan, float* roots,
                  const PartialColumns& c);

}  // namespace normgrad::engine

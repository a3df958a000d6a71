// engine/blocked_order.cc — the blocked order's plan and tree steps.
#include "engine/blocked_order.h"

#include <algorithm>

namespace normgrad::engine {

BlockedPlan PlanBlocked(size_t rows, int threads) {
  BlockedPlan plan{};
  plan.blocks = std::max<size_t>(1, (rows + kBlockRows - 1) / kBlockRows);
  const size_t most = kSubtreesPerThread * static_cast<size_t>(std::max(threads, 1));
  plan.subtree = 1;
  while ((plan.blocks + plan.subtree - 1) / plan.subtree > most) {
    plan.subtree *= 2;
    ++plan.levels;
  }
  plan.subtrees = (plan.blocks + plan.subtree - 1) / plan.subtree;
  return plan;
}

size_t BlockedScratchFloats(const BlockedPlan& plan, int threads, size_t partial_floats) {
  return (plan.subtrees + static_cast<size_t>(threads) * plan.levels) * partial_floats;
}

void ZeroColumns(float* partial, const PartialColumns& c) {
  std::fill(partial + c.begin, partial + c.end, 0.0f);
  std::fill(partial + c.beta + c.begin, partial + c.beta + c.end, 0.0f);
}

void AddColumns(const kernels::Isa& isa, float* dst, const float* src, const PartialColumns& c) {
  isa.add(dst + c.begin, src + c.begin, c.end - c.begin);
  isa.add(dst + c.beta + c.begin, src + c.beta + c.begin, c.end - c.begin);
}

void CombineRoots(const kernels::Isa& isa, const BlockedPlan& plan, float* roots,
                  const PartialColumns& c) {
  const size_t partial_floats = 2 * c.beta;
  for (size_t s = 1; s < plan.subtrees; s *= 2) {
    for (size_t i = 0; i + s < plan.subtrees; i += 2 * s) {
      AddColumns(isa, roots + i * partial_floats, roots + (i + s) * partial_floats, c);
    }
  }
}

}  // namespace normgrad::engine

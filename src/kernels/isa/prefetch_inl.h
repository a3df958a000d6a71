// kernels/isa/prefetch_inl.h — software prefetch for the row kernels
// (accumulate_inl.h and the row-norm kernels of row_norms_inl.h): into L2, once
// per 64-byte line. Prefetches into L1 (prefetcht0) are slower here: the
// lines a kernel prefetches rows ahead crowd the L1 that the rows being
// summed need, and one prefetch per vector instead of per line costs
// instructions for nothing. Everything here has internal linkage.
#pragma once

#include <cstddef>

namespace {

// Prefetches the line at p into L2 (for reading). A prefetch never faults,
// so an address past the end of an input is harmless.
inline void PrefetchL2(const void* p) { __builtin_prefetch(p, 0, 2); }

// True for one vector of each 64-byte line of a row (one prefetch per line):
// columns c, c + Ops::kLanes, … of Ops::In elements.
template <typename Ops>
bool StartsLine(size_t c) {
  return c % (64 / sizeof(typename Ops::In)) < Ops::kLanes;
}

}  // namespace

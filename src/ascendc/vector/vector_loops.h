// vector_loops.h — the instruction set whose loops the vector unit runs
// (normgrad_ascendc internal; defined in vector_ops.cc).
#pragma once

#include "kernels/kernels.h"

namespace normgrad_ascendc {

/// The engine's elementwise instruction set (NORMGRAD_IMPL included), asked
/// once: it is fixed for the process, and a short instruction call should
/// not pay the lookup.
const normgrad::kernels::Isa& VectorLoops();

}  // namespace normgrad_ascendc

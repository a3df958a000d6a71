// engine/dispatch.h — which kernels run: the best instruction set this CPU
// has, unless NORMGRAD_IMPL forces one; and whether NORMGRAD_VERBOSE asks
// for a line per call. The environment is read once per process.
#pragma once

#include <string>

#include "kernels/kernels.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// NORMGRAD_IMPL names an instruction set ("avx2", "scalar") or an
/// implementation ("blocked:scalar"); either way it forces the instruction
/// set. The order is always the one each call asks for — the Ascend C API
/// asks for the device's sequential order and must keep its bits — so a full
/// name is a check that the name exists, and "blocked:scalar" runs
/// "sequential:scalar" for a call that asks for the sequential order.
struct Dispatch {
  const kernels::Isa* isa = nullptr;  ///< null when NORMGRAD_IMPL is invalid
  std::string error;                  ///< why NORMGRAD_IMPL is invalid
  bool verbose = false;
};

/// The process-wide choice, from NORMGRAD_IMPL / NORMGRAD_VERBOSE.
const Dispatch& CurrentDispatch();

/// Parses a NORMGRAD_IMPL value ("" = best available). Exposed for tests.
Dispatch ParseImpl(const std::string& value);

/// The instruction set a call runs on: the one named `requested` (a
/// registry name such as "avx2") when it is not null, else the process-wide
/// choice. Null, with *error set, when the name is unknown or unavailable on
/// this CPU, or NORMGRAD_IMPL is invalid.
const kernels::Isa* SelectIsa(const char* requested, std::string* error);

/// SelectIsa for a call of `api`: Ok with *isa set, or the error
/// "<api>: <why>".
Status SelectIsaFor(const char* api, const char* requested, const kernels::Isa** isa);

/// The instruction set for elementwise work (bulk conversions, the emulated
/// vector unit's loops): the forced one if valid, else the best available
/// (the scalar one if even reading the environment runs out of memory).
const kernels::Isa& ElementwiseIsa() noexcept;

}  // namespace normgrad::engine

// kernels/isa/isa_inl.h — the kernels of one registry entry (kernels::Isa) over an
// instruction set's Ops policies: the row accumulation of accumulate_inl.h
// and the bulk array helpers of arrays_inl.h, written once for every
// instruction set.
// Included only by src/kernels/<isa>.cc, inside its target region;
// everything in them has internal linkage. isa_entry_inl.h builds the entry.
#pragma once

#include "kernels/grad_beta/accumulate_inl.h"
#include "kernels/isa/arrays_inl.h"

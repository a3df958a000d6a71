// src/ascendc/lib/common/advanced_api.h — the skeleton an advanced API's
// kernel side is built on (internal, not installed): the headers below,
// included together, and how an API is built on them.
//
// How an advanced API is built on lib/common
// -------------------------------------------
// An API supplies three things; lib/common supplies the rest.
//
// 1. Its type rules. The public template (include/ascendc/lib/<family>/
//    <api>.h) static_asserts its element types with the predicates of
//    normgrad_ascendc/lib/common/type_rules.h (kIsHalfOrFloat,
//    kIsHalfFloatOrBfloat16, kIsTOrFloat), erases them into a plain
//    <Api>Args struct (TensorViews, is_half or an ElementType, the tiling)
//    and calls Run<Api> inside an ApiCall; every overload fills the same
//    struct, with sharedTmpBuffer or null for the framework scratch. APIs
//    whose calls have the same shape share the struct and the overload body
//    (lib/normalization/norm_call.h: NormArgs, RunNormCall).
// 2. Its tiling rule. The host tiling (<api>_host_tiling.cc) validates its
//    arguments with tiling_checks.h (CheckTypeSize, CheckDims, CheckRank,
//    CheckDimRanges; CheckInputs for a {B, S, H, originalH} shape), reports
//    with Report, sizes the scratch, fills the tiling with RoundUp
//    (normgrad_ascendc/tiling/round_up.h). The kernel side checks that
//    tiling before using it: CheckTilingFilled, CheckNonZero,
//    CheckRowsNotEmpty, CheckRowLength and CheckReciprocal for the shape,
//    then one table of DerivedField records (field, value, expected, rule)
//    through CheckDerivedFields for every field the rule derives.
// 3. Its arithmetic. Run<Api> (<api>.cc) runs the checks below in order,
//    then computes on FloatData / HalfData / Bfloat16Data / AsFloats views,
//    sums with RowSum or LaneTreeSum as the API documents, and narrows with
//    NarrowToHalf(…, NarrowSaturates(core)).
//
// The checks, in the order every call runs them: CheckPlacements of the
// tensor arguments; the tiling's fields (2.); CheckLengths (CheckBlockOutputs
// for outputs written in whole blocks) with the rule each length comes from;
// the scratch (CallScratch, TilingScratch or CheckedTilingScratch, named by
// ScratchName; CheckScratchRegions for the regions a tiling places in it);
// then what may share memory (ub_ranges.h: CheckWrittenAndRead or
// CheckOverlaps). Every failure is a KernelError naming the API, the
// argument, the value and the rule. A rule several APIs of one family share
// lives in the family's room (lib/normalization/chunked_rows.h: the tiling of
// LayerNorm, DeepNorm and GroupNorm).
#pragma once

#include "ascendc/lib/common/kernel_checks.h"
#include "ascendc/lib/common/row_sum.h"
#include "ascendc/lib/common/tensor_data.h"
#include "ascendc/lib/common/ub_ranges.h"

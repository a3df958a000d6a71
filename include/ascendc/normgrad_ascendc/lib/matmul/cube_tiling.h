// normgrad_ascendc/lib/matmul/cube_tiling.h — TCubeTiling, the Matmul
// tiling a host program fills (matmul_tiling::MatmulApiTiling::GetTiling) and
// a kernel's Matmul object reads (REGIST_MATMUL_OBJ, Init): the kernel-side
// struct (global TCubeTiling and AscendC::tiling::TCubeTiling) and the host
// class optiling::TCubeTiling, both made from one field list so their bytes
// agree. Every field is an int32_t, in the order of the documented table
// (the TCubeTiling page: usedCoreNum first, mxTypePara last), then the
// batch layout fields the kernel-side batch pages read (ALayoutInfoB ...
// BatchNum; docs/decisions.md says why they follow mxTypePara); the meaning
// of each field is in docs/matmul.md; the rules a valid tiling obeys are in
// docs/matmul_tiling.md and checked by cube_tiling_rules.h's CheckCubeTiling.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

/// The fields in struct order (tiling_fields.h says how the list is used).
/// Shapes are in elements.
#define NORMGRAD_TCUBE_TILING_FIELDS(X)                                  \
  X(int32_t, usedCoreNum) /* cores the Matmul runs on */                 \
  X(int32_t, M)           /* A's rows (whole matrix) */                  \
  X(int32_t, N)           /* B's columns */                              \
  X(int32_t, Ka)          /* A's columns */                              \
  X(int32_t, Kb)          /* B's rows */                                 \
  X(int32_t, singleCoreM) /* one core's part of C */                     \
  X(int32_t, singleCoreN)                                                \
  X(int32_t, singleCoreK)                                                \
  X(int32_t, baseM) /* one Mmad's shape */                               \
  X(int32_t, baseN)                                                      \
  X(int32_t, baseK)                                                      \
  X(int32_t, depthA1)      /* base blocks of A held in L1 */             \
  X(int32_t, depthB1)      /* base blocks of B held in L1 */             \
  X(int32_t, stepM)        /* L1 buffer of A: baseM multiples along M */ \
  X(int32_t, stepN)        /* L1 buffer of B: baseN multiples along N */ \
  X(int32_t, stepKa)       /* L1 buffer of A: baseK multiples along K */ \
  X(int32_t, stepKb)       /* L1 buffer of B: baseK multiples along K */ \
  X(int32_t, isBias)       /* 0 or 1 */                                  \
  X(int32_t, transLength)  /* UB bytes the A/B/C/bias moves need */      \
  X(int32_t, iterateOrder) /* 0: M first, 1: N first */                  \
  X(int32_t, dbL0A)        /* 1 or 2: double buffering of L0A */         \
  X(int32_t, dbL0B)        /* 1 or 2: of L0B */                          \
  X(int32_t, dbL0C)        /* 1 or 2: of L0C */                          \
  X(int32_t, shareMode)    /* reserved */                                \
  X(int32_t, shareL1Size)  /* reserved: GetTiling's L1 bytes */          \
  X(int32_t, shareL0CSize) /* reserved */                                \
  X(int32_t, shareUbSize)  /* reserved */                                \
  X(int32_t, batchM)       /* reserved */                                \
  X(int32_t, batchN)       /* reserved */                                \
  X(int32_t, singleBatchM) /* reserved */                                \
  X(int32_t, singleBatchN) /* reserved */                                \
  X(int32_t, mxTypePara)   /* MxMatmul's scale factors (950 only) */     \
  X(int32_t, ALayoutInfoB) /* A's batch layout: B, S, N, G, D axes */    \
  X(int32_t, ALayoutInfoS)                                               \
  X(int32_t, ALayoutInfoN)                                               \
  X(int32_t, ALayoutInfoG)                                               \
  X(int32_t, ALayoutInfoD)                                               \
  X(int32_t, BLayoutInfoB) /* B's */                                     \
  X(int32_t, BLayoutInfoS)                                               \
  X(int32_t, BLayoutInfoN)                                               \
  X(int32_t, BLayoutInfoG)                                               \
  X(int32_t, BLayoutInfoD)                                               \
  X(int32_t, CLayoutInfoB) /* C's: B, S1 (rows), N, G, S2 (columns) */   \
  X(int32_t, CLayoutInfoS1)                                              \
  X(int32_t, CLayoutInfoN)                                               \
  X(int32_t, CLayoutInfoG)                                               \
  X(int32_t, CLayoutInfoS2)                                              \
  X(int32_t, BatchNum) /* the most batches one IterateBatch computes */

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct TCubeTiling {
  NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_TILING_STRUCT_MEMBER)
};
#pragma pack(pop)

static_assert(sizeof(TCubeTiling) ==
                  4 * NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_TCUBE_TILING_FIELDS),
              "TCubeTiling is a run of int32_t words");

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::TCubeTiling;

namespace optiling {

/// The host class: a setter and a getter per field (set_baseM, get_baseM,
/// ...), SaveToBuffer writing exactly the kernel struct's bytes; usable as a
/// nested struct of a program's tiling data
/// (TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData)).
BEGIN_TILING_DATA_DEF(TCubeTiling)
NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

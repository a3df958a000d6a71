// cube_checks.h — the operand and parameter rules the cube instructions
// share (cube_ops.cc, cube_table_copy.cc, cube_l1_moves.cc); each failure is
// a KernelError naming the call, the argument, the value and the rule. Also
// the ND2NZ move both of its destinations (L1 and the UB) share.
#pragma once

#include <cstdint>
#include <functional>
#include <initializer_list>

#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/runtime/float8.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The bits one element of `type` takes (4 for int4b_t and each value of a
/// packed fp4x2 type; 32 for kOther).
uint32_t CubeTypeBits(CubeType type);
/// The float8.h format of an 8-bit or 4-bit float type; null for the others.
const Float8Kind* Float8KindOf(CubeType type);

/// A live, non-empty LocalTensor at one of `positions` (their names in
/// `expected`), starting at a multiple of `align` bytes.
void CheckOperand(const char* api, const char* which, const TensorView& view,
                  std::initializer_list<AscendC::TPosition> positions,
                  const char* expected, uint32_t align);
/// `needed` bytes fit in the operand's `bytes`.
void CheckFits(const char* api, const char* which, uint64_t needed,
               uint32_t bytes, const char* what);
/// `value` is in [lo, hi].
void CheckRange(const char* api, const char* field, uint64_t value, uint64_t lo,
                uint64_t hi);
/// The current profile is one of `profiles`; else a KernelError naming the
/// call, the profile and `why` (what the other product has instead: the 950
/// removed some Atlas A2/A3 paths and added others).
void RequireCubeProfile(const char* api,
                        std::initializer_list<Profile> profiles,
                        const char* why);
/// What every Mmad form checks first: dst at CO1, fm at A2, filter at B2,
/// `m`, `n`, `k` ≤ 4095, `unitFlag` 0, 2 or 3, and GEMV left on except on
/// the 950.
void CheckMmadOperands(const char* api, const TensorView& dst,
                       const TensorView& fm, const TensorView& filter,
                       const AscendC::MmadParams& p);
/// The GM side has a buffer, and its first `end_elem` elements lie inside
/// the GlobalTensor and its allocation.
void CheckGmSide(const char* api, const char* which, const GmSide& gm,
                 uint32_t elem_bytes, uint64_t end_elem, bool write);

/// How far an ND2NZ move reaches: one past the last source element read, and
/// the end of the last 32 bytes written, from dst's start.
struct Nd2NzExtent {
  uint64_t src_elems;
  uint64_t dst_bytes;
};
/// For a move that moves something (ndNum, nValue and dValue not 0).
Nd2NzExtent Nd2NzExtentOf(uint32_t elem_bytes, const AscendC::Nd2NzParams& p);
/// The ND2NZ move into `out` (a checked destination), as docs/cube.md gives
/// it; `piece`, when set, hears of each 32-byte piece written: its source
/// bytes, how many of them are data (the rest is zero padding) and its
/// offset from `out`.
using Nd2NzPiece =
    std::function<void(const uint8_t* from, uint32_t data_bytes, uint64_t to)>;
void MoveNd2Nz(const char* api, uint32_t elem_bytes, uint8_t* out,
               const GmSide& src, const AscendC::Nd2NzParams& p,
               const Nd2NzPiece& piece);

}  // namespace normgrad_ascendc

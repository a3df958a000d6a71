// cube_unit_flag.h — L0C's unit flags (docs/cube.md, "UnitFlag"): the
// handshake by which an Mmad and a Fixpipe (or DataCopy out of L0C) with
// unitFlag 2 or 3 order their writes and reads of each 512-byte block of L0C
// without SetFlag/WaitFlag. The emulated core runs its instructions in
// program order, so a wait the flags cannot satisfy at that point is the
// device's hang, reported as a KernelError.
#pragma once

#include <bitset>
#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

/// The 512-byte blocks of L0C an instruction reaches.
class L0cBlockSet {
 public:
  /// Adds the blocks of L0C bytes [begin, end) (from L0C's byte 0).
  void AddBytes(uint64_t begin, uint64_t end);
  bool Has(uint32_t block) const { return blocks_[block]; }

 private:
  std::bitset<L0cUnitFlags::kBlocks> blocks_;
};

/// The blocks an Mmad of `m` x `n` writes into C at L0C byte `offset`: in
/// each 16 x 16 fractal of 4-byte values (Nz, 1024 bytes), its rows below m.
L0cBlockSet MmadL0cBlocks(uint32_t offset, uint32_t m, uint32_t n);

/// Which side of the handshake an instruction is.
enum class UnitFlagSide : uint8_t {
  kWrite,  ///< Mmad, MmadWithSparse: writes a block whose flag is 0
  kRead,   ///< Fixpipe, DataCopy L0C -> GM / L1: reads a block whose flag is 1
};

/// Runs the handshake of an instruction `op` (named `api` in messages, its
/// flag in the parameter `field`) with `unit_flag` over `blocks`: 0 neither
/// waits nor changes anything; 2 and 3 wait for each block's flag (0 to
/// write, 1 to read), a flag that is not so is a KernelError; 3 then flips
/// the flags (a write sets them, a read clears them).
void RunUnitFlag(const char* op, const char* api, const char* field,
                 UnitFlagSide side, uint8_t unit_flag,
                 const L0cBlockSet& blocks);

/// SetFixPipeConfig with isUnitFlag: every flag of L0C becomes 0.
void ClearUnitFlags();

}  // namespace normgrad_ascendc

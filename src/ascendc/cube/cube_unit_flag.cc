// cube_unit_flag.cc — L0C's unit flags (cube_unit_flag.h; docs/cube.md,
// "UnitFlag"). Each 512-byte block of L0C has one flag. An instruction with
// unitFlag 2 or 3 waits for every block it reaches: a write (Mmad) for the
// flag 0, a read (Fixpipe) for the flag 1. With 3 it then flips them: the
// write sets them (the results are ready to read), the read clears them (the
// block may be written again); with 2 it leaves them, so that a run of
// instructions keeps the blocks. On the device a wait holds the instruction's
// pipe until the other pipe flips the flag; here instructions run in program
// order, so a flag that is wrong when the instruction runs stays wrong: that
// is the hang, reported with the block and the call that last changed it.
#include "ascendc/cube/cube_unit_flag.h"

#include <algorithm>
#include <cstdio>

namespace normgrad_ascendc {

namespace {

// Sets a block's flag to `set`, recording `op` at the user's call.
void Flip(L0cUnitFlags::Block& block, bool set, const char* op) {
  const CallSite* site = CurrentCallSite();
  block.set = set;
  block.by = op;
  block.file = site != nullptr ? site->file : "?";
  block.line = site != nullptr ? site->line : 0;
}

}  // namespace

void L0cBlockSet::AddBytes(uint64_t begin, uint64_t end) {
  if (end <= begin) return;
  const uint64_t first = begin / L0cUnitFlags::kBlockBytes;
  const uint64_t last = std::min<uint64_t>(
      (end - 1) / L0cUnitFlags::kBlockBytes, L0cUnitFlags::kBlocks - 1);
  for (uint64_t block = first; block <= last; ++block) blocks_.set(block);
}

L0cBlockSet MmadL0cBlocks(uint32_t offset, uint32_t m, uint32_t n) {
  constexpr uint32_t kRowBytes = 16 * 4, kFractalBytes = 16 * kRowBytes;
  const uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  L0cBlockSet blocks;
  for (uint32_t nb = 0; nb < n1; ++nb) {
    for (uint32_t mb = 0; mb < m1; ++mb) {
      const uint64_t start = offset + (uint64_t{nb} * m1 + mb) * kFractalBytes;
      const uint32_t rows = std::min(16u, m - mb * 16);
      blocks.AddBytes(start, start + uint64_t{rows} * kRowBytes);
    }
  }
  return blocks;
}

void RunUnitFlag(const char* op, const char* api, const char* field,
                 UnitFlagSide side, uint8_t unit_flag,
                 const L0cBlockSet& blocks) {
  if (unit_flag != 2 && unit_flag != 3) return;  // the handshake is off
  const bool write = side == UnitFlagSide::kWrite;
  L0cUnitFlags& flags = CurrentCore().unit_flags();
  for (uint32_t b = 0; b < L0cUnitFlags::kBlocks; ++b) {
    if (!blocks.Has(b)) continue;
    const L0cUnitFlags::Block& block = flags.blocks[b];
    if (block.set != write) continue;  // a write needs 0, a read needs 1
    const unsigned first = b * L0cUnitFlags::kBlockBytes;
    const unsigned last = first + L0cUnitFlags::kBlockBytes - 1;
    // The flag's story: the call that last flipped it, or none.
    char story[256];
    if (block.by != nullptr) {
      std::snprintf(story, sizeof story, "%s at %s:%u %s it", block.by,
                    block.file, block.line, write ? "set" : "cleared");
    } else {
      std::snprintf(story, sizeof story,
                    "no Mmad with unitFlag 3 has set it in this block");
    }
    Fail(
        "%s: %s %u waits for L0C block %u (bytes %u..%u) to have its unit "
        "flag %d, but it is %d (%s) and nothing issued before this call %s "
        "it: the device would wait for ever (%s)",
        api, field, unit_flag, b, first, last, write ? 0 : 1, write ? 1 : 0,
        story, write ? "clears" : "sets",
        write ? "a write with unitFlag 2 or 3 waits until a read with unitFlag "
                "3 has taken the block, or SetFixPipeConfig with isUnitFlag "
                "has cleared the flags"
              : "a read with unitFlag 2 or 3 waits until an Mmad with unitFlag "
                "3 has written the block");
  }
  if (unit_flag != 3) return;  // 2 leaves the flags as they are
  for (uint32_t b = 0; b < L0cUnitFlags::kBlocks; ++b) {
    if (blocks.Has(b)) Flip(flags.blocks[b], write, op);
  }
}

void ClearUnitFlags() {
  for (L0cUnitFlags::Block& block : CurrentCore().unit_flags().blocks) {
    Flip(block, false, "SetFixPipeConfig (isUnitFlag)");
  }
}

}  // namespace normgrad_ascendc

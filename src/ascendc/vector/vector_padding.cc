// vector_padding.cc — VectorPadding (vector_padding.h): the checks, then each
// written element taken from its source block by the pad mode and side.
#include "normgrad_ascendc/vector/vector_padding.h"

#include <cstring>

#include "normgrad_ascendc/runtime/system_query.h"

namespace normgrad_ascendc {

namespace {

constexpr const char* kApi = "VectorPadding";

// Where element j of a padded block comes from in its source block of n
// elements: an index, or -1 for the 0 that mode 2 runs out into.
int SourceIndex(uint8_t mode, bool right, int j, int n) {
  switch (mode) {
    case 0:
      return right ? n - 1 : 0;
    case 1:
      return n - 1 - j;
    default:  // 2: mirrored past the edge element
      if (right) return j == n - 1 ? -1 : n - 2 - j;
      return j == 0 ? -1 : n - j;
  }
}

}  // namespace

void CheckPaddingProfile() {
  RequireProfile(kApi, {Profile::k310P}, "the Atlas inference series");
}

void VectorPaddingImpl(const PaddingArgs& a) {
  a.dst->CheckUbOperand(kApi, "dst");
  a.src->CheckUbOperand(kApi, "src");
  if (a.pad_mode > 2) {
    Fail("%s<%s>: padMode %u is out of range 0..2", kApi, a.type, a.pad_mode);
  }
  const int per_block = static_cast<int>(32 / a.elem_bytes);
  const uint64_t dst_elems = a.dst->bytes / a.elem_bytes;
  const uint64_t src_elems = a.src->bytes / a.elem_bytes;
  const uint8_t* src = a.src->data();
  uint8_t* dst = a.dst->data();
  // A source block (element index) inside src, copied whole before any of
  // its padding is written: dst may be src.
  uint8_t block[32];
  const auto read_block = [&](uint64_t first) {
    if (first + per_block > src_elems) {
      Fail(
          "%s<%s>: the source block at element %llu is past the end of src "
          "(%llu elements)",
          kApi, a.type, static_cast<unsigned long long>(first),
          static_cast<unsigned long long>(src_elems));
    }
    std::memcpy(block, src + first * a.elem_bytes, 32);
  };
  // Writes dst element `at`, position j of its block, from `block`.
  const auto write = [&](uint64_t at, int j) {
    if (at >= dst_elems) {
      Fail("%s<%s>: element %llu is past the end of dst (%llu elements)", kApi,
           a.type, static_cast<unsigned long long>(at),
           static_cast<unsigned long long>(dst_elems));
    }
    const int from = SourceIndex(a.pad_mode, a.pad_side, j, per_block);
    uint8_t* to = dst + at * a.elem_bytes;
    if (from < 0) {
      std::memset(to, 0, a.elem_bytes);
    } else {
      std::memcpy(to, block + from * a.elem_bytes, a.elem_bytes);
    }
  };
  if (a.count_form) {
    for (uint64_t base = 0; base < a.count; base += per_block) {
      read_block(base);
      for (int j = 0; j < per_block && base + j < a.count; ++j) {
        write(base + j, j);
      }
    }
    return;
  }
  const VectorMask& mask = CurrentCore().vector_mask();
  if (mask.mode == AscendC::MaskMode::COUNTER) {
    Fail(
        "%s<%s>: the mask register is in counter mode; the level-0 forms "
        "take lanes of each repeat (call SetMaskNorm first)",
        kApi, a.type);
  }
  const AscendC::UnaryRepeatParams& p = a.params;
  for (uint32_t r = 0; r < a.repeats; ++r) {
    for (int b = 0; b < 8; ++b) {
      const uint64_t dst_first =
          (uint64_t{r} * p.dstRepStride + uint64_t(b) * p.dstBlkStride) *
          per_block;
      const uint64_t src_first =
          (uint64_t{r} * p.srcRepStride + uint64_t(b) * p.srcBlkStride) *
          per_block;
      bool read = false;
      for (int j = 0; j < per_block; ++j) {
        const int lane = b * per_block + j;
        const uint64_t word = lane < 64 ? mask.low : mask.high;
        if (((word >> (lane % 64)) & 1) == 0) continue;
        if (!read) {
          read_block(src_first);
          read = true;
        }
        write(dst_first + j, j);
      }
    }
  }
}

}  // namespace normgrad_ascendc

// local_mem_allocator.cc — LocalMemAllocator's carving of the UB
// (normgrad_ascendc/runtime/local_mem_allocator.h).
#include "normgrad_ascendc/runtime/local_mem_allocator.h"

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

uint32_t AllocStatic(uint32_t* cursor, const char* type_name, uint64_t bytes) {
  Core& core = CurrentCore();
  if (core.pipe() != nullptr) {
    Fail(
        "LocalMemAllocator::Alloc<%s>: the core has a TPipe, which owns the "
        "unified buffer; static allocation and a TPipe must not be mixed",
        type_name);
  }
  const uint64_t rounded = (bytes + 31) / 32 * 32;
  if (*cursor + rounded > core.ub_size()) {
    Fail(
        "LocalMemAllocator::Alloc<%s>: %llu bytes at address %u exceed the "
        "unified buffer: %u of %u bytes left (profile %s)",
        type_name, static_cast<unsigned long long>(bytes), *cursor,
        core.ub_size() - *cursor, core.ub_size(), core.profile().name);
  }
  const uint32_t addr = *cursor;
  *cursor += static_cast<uint32_t>(rounded);
  return addr;
}

}  // namespace normgrad_ascendc

// gm_registry.cc — the registry of global-memory blocks (gm_registry.h): a
// map by start address under a reader-writer lock, a generation number that
// every change bumps, and each thread's cache of its last two lookups.
#include "ascendc/runtime/gm_registry.h"

#include "ascendc/runtime/gm_store.h"

#include <atomic>
#include <iterator>
#include <map>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

namespace {

struct Registry {
  std::shared_mutex mutex;
  std::map<uintptr_t, GmBlock> blocks;
  std::atomic<uint64_t> generation{1};
};

Registry& GetRegistry() {
  static Registry* registry = new Registry;  // never destroyed: usable at exit
  return *registry;
}

uint64_t Extent(const GmBlock& block) { return (block.size + 31) / 32 * 32; }

// A lookup: the addresses [lo, hi) are in `block` (known) or in no block (a
// gap), as of registry generation `generation`.
struct LookupCache {
  uint64_t generation = 0;
  uintptr_t lo = 0;
  uintptr_t hi = 0;
  bool known = false;
  GmBlock block;

  bool Holds(uintptr_t p, uint64_t now) const {
    return generation == now && p >= lo && p < hi;
  }
};

// A thread's last two lookups, the latest first: a kernel's tile loop
// commonly alternates between two inputs (dy and res), and each would
// otherwise evict the other and take the lock on every access.
thread_local LookupCache t_cache[2];

// The block whose extent (size rounded up to 32) holds p, through the cache.
const GmBlock* FindForAccess(uintptr_t p) {
  Registry& registry = GetRegistry();
  const uint64_t generation =
      registry.generation.load(std::memory_order_acquire);
  LookupCache* caches = t_cache;
  if (!caches[0].Holds(p, generation)) {
    std::swap(caches[0], caches[1]);
  }
  LookupCache& cache = caches[0];
  if (!cache.Holds(p, generation)) {
    std::shared_lock<std::shared_mutex> lock(registry.mutex);
    const auto next = registry.blocks.upper_bound(p);
    cache.generation = generation;
    cache.known = false;
    cache.lo = 0;
    cache.hi = next == registry.blocks.end() ? UINTPTR_MAX : next->first;
    if (next != registry.blocks.begin()) {
      const GmBlock& before = std::prev(next)->second;
      const uintptr_t end = before.start + Extent(before);
      if (p < end) {
        cache.known = true;
        cache.block = before;
        cache.lo = before.start;
        cache.hi = end;
      } else {
        cache.lo = end;
      }
    }
  }
  return cache.known ? &cache.block : nullptr;
}

}  // namespace

const char* GmOwnerName(GmOwner owner) {
  switch (owner) {
    case GmOwner::kAclrtMalloc:
      return "aclrtMalloc";
    case GmOwner::kAclrtMallocHost:
      return "aclrtMallocHost";
    case GmOwner::kGmAlloc:
      return "GmAlloc";
  }
  return "(unknown allocator)";
}

void RegisterGmBlock(const void* start, uint64_t size, GmOwner owner) {
  Registry& registry = GetRegistry();
  std::unique_lock<std::shared_mutex> lock(registry.mutex);
  const auto address = reinterpret_cast<uintptr_t>(start);
  registry.blocks[address] = GmBlock{address, size, owner, false};
  registry.generation.fetch_add(1, std::memory_order_release);
}

bool FindGmBlock(const void* p, GmBlock* out) {
  Registry& registry = GetRegistry();
  std::shared_lock<std::shared_mutex> lock(registry.mutex);
  const auto address = reinterpret_cast<uintptr_t>(p);
  auto it = registry.blocks.upper_bound(address);
  if (it == registry.blocks.begin()) return false;
  --it;
  if (address - it->first >= it->second.size) return false;
  *out = it->second;
  return true;
}

void MarkGmBlockReleased(const void* start) {
  Registry& registry = GetRegistry();
  std::unique_lock<std::shared_mutex> lock(registry.mutex);
  const auto it = registry.blocks.find(reinterpret_cast<uintptr_t>(start));
  if (it != registry.blocks.end()) it->second.released = true;
  registry.generation.fetch_add(1, std::memory_order_release);
}

void ForgetGmBlock(const void* start) {
  Registry& registry = GetRegistry();
  std::unique_lock<std::shared_mutex> lock(registry.mutex);
  registry.blocks.erase(reinterpret_cast<uintptr_t>(start));
  registry.generation.fetch_add(1, std::memory_order_release);
}

std::vector<GmBlock> TakeGmBlocks(GmOwner owner) {
  Registry& registry = GetRegistry();
  std::unique_lock<std::shared_mutex> lock(registry.mutex);
  std::vector<GmBlock> taken;
  for (auto it = registry.blocks.begin(); it != registry.blocks.end();) {
    if (it->second.owner == owner) {
      taken.push_back(it->second);
      it = registry.blocks.erase(it);
    } else {
      ++it;
    }
  }
  registry.generation.fetch_add(1, std::memory_order_release);
  return taken;
}

namespace {

// Whether [p, p + bytes) lies inside `block`'s extent.
bool Inside(const GmBlock& block, uintptr_t p, uint64_t bytes) {
  return p >= block.start && p - block.start <= Extent(block) &&
         bytes <= Extent(block) - (p - block.start);
}

}  // namespace

bool GmAccessOk(const void* base, const void* p, uint64_t bytes, bool write) {
  const GmBlock* block = FindForAccess(reinterpret_cast<uintptr_t>(base));
  return block == nullptr ||
         (Inside(*block, reinterpret_cast<uintptr_t>(p), bytes) &&
          !(write && block->released));
}

void CheckGmAccess(const char* api, const void* base, const void* p,
                   uint64_t bytes, bool write) {
  if (!write) CheckGmLoad(api, static_cast<const uint8_t*>(p), bytes);
  const GmBlock* block = FindForAccess(reinterpret_cast<uintptr_t>(base));
  if (block == nullptr) return;
  const auto address = reinterpret_cast<uintptr_t>(p);
  const uint64_t extent = Extent(*block);
  if (!Inside(*block, address, bytes)) {
    const long long offset = static_cast<long long>(address - block->start);
    const char* side =
        address < block->start ? "start before" : "run past the end of";
    Fail(
        "%s: %s GM bytes [%p, %p) (%llu bytes at offset %lld), which %s the "
        "%llu-byte %s block at %p that the tensor's memory lies in; an access "
        "must stay inside its block (its size rounded up to 32 bytes: %llu)",
        api, write ? "writes" : "reads", p,
        reinterpret_cast<const void*>(address + bytes),
        static_cast<unsigned long long>(bytes), offset, side,
        static_cast<unsigned long long>(block->size), GmOwnerName(block->owner),
        reinterpret_cast<const void*>(block->start),
        static_cast<unsigned long long>(extent));
  }
  if (write && block->released) {
    Fail(
        "%s: writes GM at %p in a %llu-byte %s block at %p that the program "
        "already released (%s); a released block may be read but not written",
        api, p, static_cast<unsigned long long>(block->size),
        GmOwnerName(block->owner), reinterpret_cast<const void*>(block->start),
        block->owner == GmOwner::kAclrtMalloc ? "aclrtFree" : "aclrtFreeHost");
  }
}

}  // namespace normgrad_ascendc

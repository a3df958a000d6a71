// engine/scratch.cc — scratch buffers and out-of-memory statuses.
#include "engine/scratch.h"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <string>

namespace normgrad::engine {
namespace {

// "32 MiB", "1.5 GiB", "512 bytes": the size to one decimal in the largest
// binary unit it reaches.
std::string Size(size_t bytes) {
  static const char* const units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < sizeof units / sizeof *units) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string number = text;
  if (number.size() > 2 && number.compare(number.size() - 2, 2, ".0") == 0) {
    number.resize(number.size() - 2);
  }
  return number + " " + units[unit];
}

// The status when even its message cannot be allocated: a message short
// enough for std::string's inline storage (no allocation).
Status BareOutOfMemory() noexcept { return Status::OutOfMemory("out of memory"); }

}  // namespace

Status OutOfMemory(const char* api, const char* what, size_t bytes) noexcept {
  try {
    const std::string size = bytes == std::numeric_limits<size_t>::max()
                                 ? std::string("more than the address space")
                                 : Size(bytes) + " (" + std::to_string(bytes) + " bytes)";
    return Status::OutOfMemory(std::string(api) + ": cannot allocate " + size + " for " + what +
                               ": out of memory");
  } catch (const std::bad_alloc&) {
    return BareOutOfMemory();
  }
}

Status OutOfMemory(const char* api) noexcept {
  try {
    return Status::OutOfMemory(std::string(api) + ": out of memory");
  } catch (const std::bad_alloc&) {
    return BareOutOfMemory();
  }
}

Status GrowScratch(std::vector<float>& buffer, size_t floats, const char* api,
                   const char* what) noexcept {
  if (buffer.size() >= floats) return Status::Ok();
  const size_t bytes = SaturatingProduct(floats, sizeof(float));
  if (floats > buffer.max_size()) return OutOfMemory(api, what, bytes);
  try {
    std::vector<float>().swap(buffer);  // the old contents need not survive the move
    buffer.resize(floats);
  } catch (const std::bad_alloc&) {
    return OutOfMemory(api, what, bytes);
  }
  return Status::Ok();
}

size_t SaturatingProduct(size_t a, size_t b) {
  size_t product;
  if (__builtin_mul_overflow(a, b, &product)) return std::numeric_limits<size_t>::max();
  return product;
}

}  // namespace normgrad::engine

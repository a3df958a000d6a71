// cpu_debug.cc — GmAlloc, GmFree and SetKernelMode of the CPU-debug launch
// (normgrad_ascendc/runtime/cpu_debug.h), and the host log of tiling
// functions (utils/log/asc_cpu_log.h). GmAlloc's blocks are registered so
// that kernels' accesses are checked against them (gm_registry.h).
#include "normgrad_ascendc/runtime/cpu_debug.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "utils/log/asc_cpu_log.h"

#include "ascendc/runtime/gm_registry.h"

namespace AscendC {

void SetKernelMode(KernelMode mode) { static_cast<void>(mode); }

void* GmAlloc(size_t bytes) {
  const size_t rounded = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
  void* p = rounded >= bytes ? std::aligned_alloc(64, rounded) : nullptr;
  if (p == nullptr) {
    std::fprintf(stderr, "normgrad: GmAlloc: cannot allocate %zu bytes\n",
                 bytes);
    std::exit(1);
  }
  std::memset(p, 0, rounded);
  normgrad_ascendc::RegisterGmBlock(p, bytes,
                                    normgrad_ascendc::GmOwner::kGmAlloc);
  return p;
}

void GmFree(void* ptr) {
  if (ptr == nullptr) return;
  normgrad_ascendc::ForgetGmBlock(ptr);
  std::free(ptr);
}

}  // namespace AscendC

namespace normgrad_ascendc {

namespace {

// The lowest level ASCEND_GLOBAL_LOG_LEVEL lets through; debug when unset or
// not one of 0..3.
int LowestLogLevel() {
  const char* text = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (text == nullptr || text[0] < '0' || text[0] > '3' || text[1] != '\0') {
    return kCpuLogDebug;
  }
  return text[0] - '0';
}

}  // namespace

void CpuLog(CpuLogLevel level, const char* file, int line, const char* function,
            const char* format, ...) {
  if (level < LowestLogLevel()) return;
  static const char* const kNames[] = {"DEBUG", "INFO", "WARNING", "ERROR"};
  std::va_list args;
  va_start(args, format);
  std::va_list measure;
  va_copy(measure, args);
  const int length = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  std::string message(length > 0 ? static_cast<size_t>(length) : 0, '\0');
  if (length > 0) std::vsnprintf(&message[0], message.size() + 1, format, args);
  va_end(args);
  if (!message.empty() && message.back() == '\n') message.pop_back();
  std::fprintf(stderr, "[%s] ASCENDCKERNEL [%s:%d][%s] %s\n", kNames[level],
               file, line, function, message.c_str());
}

}  // namespace normgrad_ascendc

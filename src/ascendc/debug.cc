// debug.cc — the kernel's debugging output (normgrad_ascendc/debug.h): each
// block's text buffered with a "[block <i>/<n>] " prefix per line and printed
// in block order when the launch ends; KERNEL_LOG, asserts, DumpTensor.
#include "normgrad_ascendc/debug.h"

#include <unistd.h>

#include <chrono>
#include <cstdarg>
#include <cstring>
#include <string>

#include "launch_state.h"

namespace normgrad_ascendc {

namespace {

std::string Format(const char* format, va_list args) {
  va_list measure;
  va_copy(measure, args);
  const int length = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (length <= 0) return "";
  std::string text(static_cast<size_t>(length), '\0');
  std::vsnprintf(text.data(), text.size() + 1, format, args);
  return text;
}

// Appends text to the running block's output, or prints it outside a launch.
void Emit(const std::string& text) {
  Launch* launch = RunningLaunch();
  if (launch == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  BlockState& block = CurrentBlock();
  const std::string prefix = "[block " + std::to_string(block.index) + "/" +
                             std::to_string(launch->num_blocks()) + "] ";
  const std::lock_guard<std::mutex> lock(launch->mutex());
  for (const char c : text) {
    if (block.at_line_start) block.output += prefix;
    block.output += c;
    block.at_line_start = c == '\n';
  }
}

const char* BaseName(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

void WriteAll(int fd, const std::string& text) {
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n <= 0) return;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

}  // namespace

void WriteBlockOutputs(Launch& launch) {
  std::fflush(stdout);
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    BlockState& block = launch.block(i);
    if (block.output.empty()) continue;
    if (!block.at_line_start) block.output += '\n';
    WriteAll(STDOUT_FILENO, block.output);
    block.output.clear();
    block.at_line_start = true;
  }
}

void PrintBlockOutputs(Launch& launch) {
  const std::lock_guard<std::mutex> lock(launch.mutex());
  WriteBlockOutputs(launch);
}

void DebugWrite(const char* text) { Emit(text); }

void KernelLog(int level, const char* file, unsigned line, const char* format,
               ...) {
  static const char* const kLevels[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  const char* name = level >= 0 && level < 4 ? kLevels[level] : "LOG";
  va_list args;
  va_start(args, format);
  std::string text = Format(format, args);
  va_end(args);
  if (text.empty() || text.back() != '\n') text += '\n';
  Emit(std::string("[") + name + "] " + BaseName(file) + ":" +
       std::to_string(line) + ": " + text);
}

void AssertFailed(const char* condition, const char* file, unsigned line,
                  const char* format, ...) {
  const CallSite site(file, line);
  const ApiCall call(site);
  va_list args;
  va_start(args, format);
  const std::string message = Format(format + (*format == ' ' ? 1 : 0), args);
  va_end(args);
  if (message.empty()) Fail("assertion failed: %s", condition);
  Fail("assertion failed: %s: %s", condition, message.c_str());
}

void DumpValues(const char* api, const char* label_name, uint32_t label,
                uint64_t addr, const char* type_name, const char* position,
                uint64_t offset, uint32_t dump_size, uint64_t available,
                const void* data, uint32_t elem_bytes, char kind) {
  std::string text = std::string(api) + ": " + label_name + "=" +
                     std::to_string(label) + ", addr=" + std::to_string(addr) +
                     ", data_type=" + type_name + ", position=" + position;
  if (offset != 0) text += ", offset=" + std::to_string(offset);
  text += ", dump_size=" + std::to_string(dump_size);
  uint64_t count = dump_size;
  if (count > available) {
    text += " (the tensor has " + std::to_string(available) +
            " elements there; printing those)";
    count = available;
  }
  text += "\n[";
  const auto* bytes = static_cast<const uint8_t*>(data);
  char value[64];
  for (uint64_t i = 0; i < count; ++i) {
    const uint8_t* p = bytes + i * elem_bytes;
    if (kind == 'f') {
      float f = 0;
      if (elem_bytes == 4) {
        std::memcpy(&f, p, 4);
      } else if (std::strcmp(type_name, "bfloat16") == 0) {
        bfloat16_t b;
        std::memcpy(&b, p, 2);
        f = b;
      } else {
        half h;
        std::memcpy(&h, p, 2);
        f = h;
      }
      std::snprintf(value, sizeof value, "%f", static_cast<double>(f));
    } else {
      uint64_t u = 0;
      std::memcpy(&u, p, elem_bytes);
      if (kind == 's' && elem_bytes < 8 && (u >> (elem_bytes * 8 - 1) & 1)) {
        u |= ~uint64_t{0} << (elem_bytes * 8);  // sign-extend
      }
      if (kind == 's') {
        std::snprintf(value, sizeof value, "%lld", static_cast<long long>(u));
      } else {
        std::snprintf(value, sizeof value, "%llu",
                      static_cast<unsigned long long>(u));
      }
    }
    if (i > 0) text += ", ";
    text += value;
  }
  Emit(text + "]\n");
}

uint64_t UbOffset(const void* p) {
  return static_cast<uint64_t>(static_cast<const uint8_t*>(p) -
                               CurrentCore().ub());
}

int64_t SystemCycle() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace normgrad_ascendc

int NormgradPrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  int length;
  if (normgrad_ascendc::RunningLaunch() == nullptr) {
    length = std::vprintf(format, args);
  } else {
    const std::string text = normgrad_ascendc::Format(format, args);
    normgrad_ascendc::Emit(text);
    length = static_cast<int>(text.size());
  }
  va_end(args);
  return length;
}

int NormgradPrintfHostOnly(const char* format, ...) {
  if (normgrad_ascendc::RunningLaunch() != nullptr) return 0;
  va_list args;
  va_start(args, format);
  const int length = std::vprintf(format, args);
  va_end(args);
  return length;
}

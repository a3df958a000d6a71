// debug.cc — the kernel's debugging output (normgrad_ascendc/runtime/debug.h):
// each block's text buffered with a "[block <i>/<n>] " prefix per line and
// printed in block order when the launch ends; KERNEL_LOG, asserts,
// DumpTensor, asc_dump, LocalTensor::Print/ToFile and the profiling marks.
#include "normgrad_ascendc/runtime/debug.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/launch_state.h"

namespace normgrad_ascendc {

namespace {

// Appends text to the running block's output, or prints it outside a launch.
void Emit(const std::string& text) {
  Launch* launch = RunningLaunch();
  if (launch == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return;
  }
  BlockState& block = CurrentBlock();
  const std::string prefix = "[" + launch->CoreTitle(block.index) + "] ";
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

void KernelLogLine(int level, const char* file, unsigned line,
                   const std::string& message) {
  static const char* const kLevels[] = {"DEBUG", "INFO", "WARN", "ERROR"};
  const char* name = level >= 0 && level < 4 ? kLevels[level] : "LOG";
  std::string text = message;
  if (text.empty() || text.back() != '\n') text += '\n';
  Emit(std::string("[") + name + "] " + BaseName(file) + ":" +
       std::to_string(line) + ": " + text);
}

void AssertFailedWith(const char* condition, const char* file, unsigned line,
                      const std::string& message) {
  const CallSite site(file, line);
  const ApiCall call(site);
  if (message.empty()) Fail("assertion failed: %s", condition);
  Fail("assertion failed: %s: %s", condition, message.c_str());
}

int PrintText(const std::string& text, bool kernel_output) {
  if (RunningLaunch() == nullptr) {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else if (kernel_output) {
    Emit(text);
  } else {
    return 0;
  }
  return static_cast<int>(text.size());
}

namespace {

// Appends snprintf(spec, value) to out; spec is built from the user's
// conversion, so it is not a literal.
template <typename V>
void AppendFormatted(std::string& out, const std::string& spec, V value) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const int length = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (length <= 0) return;
  const size_t at = out.size();
  out.resize(at + static_cast<size_t>(length));
  std::vector<char> buffer(static_cast<size_t>(length) + 1);
  std::snprintf(buffer.data(), buffer.size(), spec.c_str(), value);
#pragma GCC diagnostic pop
  std::memcpy(out.data() + at, buffer.data(), static_cast<size_t>(length));
}

long long AsSigned(const PrintArg& a) {
  switch (a.kind) {
    case PrintArg::kSigned:
      return a.i;
    case PrintArg::kUnsigned:
      return static_cast<long long>(a.u);
    case PrintArg::kFloat:
      return static_cast<long long>(a.f);
    case PrintArg::kPointer:
      return static_cast<long long>(reinterpret_cast<uintptr_t>(a.p));
    default:
      return 0;
  }
}

unsigned long long AsUnsigned(const PrintArg& a) {
  uint64_t u =
      a.kind == PrintArg::kUnsigned ? a.u : static_cast<uint64_t>(AsSigned(a));
  if (a.kind == PrintArg::kSigned && a.bytes < 8) {
    u &= (uint64_t{1} << (a.bytes * 8)) - 1;  // the integer's own width
  }
  return u;
}

double AsDouble(const PrintArg& a) {
  switch (a.kind) {
    case PrintArg::kFloat:
      return a.f;
    case PrintArg::kUnsigned:
      return static_cast<double>(a.u);
    default:
      return static_cast<double>(AsSigned(a));
  }
}

}  // namespace

std::string FormatTyped(const char* format, const PrintArg* args,
                        size_t count) {
  std::string out;
  size_t next = 0;
  const PrintArg none;
  auto take = [&]() -> const PrintArg& {
    return next < count ? args[next++] : none;
  };
  for (const char* p = format; *p != '\0'; ++p) {
    if (*p != '%') {
      out += *p;
      continue;
    }
    if (p[1] == '%') {
      out += '%';
      ++p;
      continue;
    }
    std::string spec = "%";
    ++p;
    while (*p != '\0' && std::strchr("-+ #0", *p) != nullptr) spec += *p++;
    if (*p == '*') {
      spec += std::to_string(AsSigned(take()));
      ++p;
    }
    while (*p >= '0' && *p <= '9') spec += *p++;
    if (*p == '.') {
      spec += *p++;
      if (*p == '*') {
        spec += std::to_string(AsSigned(take()));
        ++p;
      }
      while (*p >= '0' && *p <= '9') spec += *p++;
    }
    while (*p != '\0' && std::strchr("hlLqjzt", *p) != nullptr) ++p;
    if (*p == '\0') {
      out += spec;
      break;
    }
    const char conversion = *p;
    if (std::strchr("diuxXocfFeEgGaAsp", conversion) == nullptr) {
      out += spec;
      out += conversion;
      continue;
    }
    if (next >= count) {  // no argument left: print the conversion as written
      out += spec;
      out += conversion;
      continue;
    }
    const PrintArg& a = take();
    switch (conversion) {
      case 'd':
      case 'i':
        AppendFormatted(out, spec + "lld", AsSigned(a));
        break;
      case 'u':
      case 'x':
      case 'X':
      case 'o':
        AppendFormatted(out, spec + "ll" + conversion, AsUnsigned(a));
        break;
      case 'c':
        AppendFormatted(out, spec + "c", static_cast<int>(AsSigned(a)));
        break;
      case 's':
        AppendFormatted(out, spec + "s",
                        a.kind == PrintArg::kString && a.s != nullptr
                            ? a.s
                            : "(not a string)");
        break;
      case 'p':
        AppendFormatted(out, spec + "p",
                        a.kind == PrintArg::kPointer
                            ? a.p
                            : reinterpret_cast<const void*>(AsUnsigned(a)));
        break;
      default:
        AppendFormatted(out, spec + conversion, AsDouble(a));
        break;
    }
  }
  return out;
}

namespace {

// One element at p as debug output prints it (see DumpKind).
std::string FormatValue(const uint8_t* p, const char* type_name,
                        uint32_t elem_bytes, char kind) {
  char value[64];
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
    return value;
  }
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
  return value;
}

// "a, b, c": elements [first, first + count) at data.
std::string FormatValues(const void* data, uint64_t first, uint64_t count,
                         const char* type_name, uint32_t elem_bytes,
                         char kind) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  std::string text;
  for (uint64_t i = first; i < first + count; ++i) {
    if (i > first) text += ", ";
    text += FormatValue(bytes + i * elem_bytes, type_name, elem_bytes, kind);
  }
  return text;
}

}  // namespace

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
  Emit(text + "\n[" +
       FormatValues(data, 0, count, type_name, elem_bytes, kind) + "]\n");
}

void PrintTensorBlocks(const char* type_name, char kind, uint64_t ub_offset,
                       const void* data, uint32_t elem_bytes, uint32_t len,
                       uint32_t size) {
  std::string text = std::string("LocalTensor::Print: addr=") +
                     std::to_string(ub_offset) + ", data_type=" + type_name +
                     ", len=" + std::to_string(len);
  uint64_t count = len;
  if (count > size) {
    text += " (the tensor has " + std::to_string(size) +
            " elements; printing those)";
    count = size;
  }
  text += "\n";
  const uint64_t per_block = 32 / elem_bytes;
  for (uint64_t at = 0; at < count; at += per_block) {
    const uint64_t n = std::min<uint64_t>(per_block, count - at);
    text +=
        "[" + FormatValues(data, at, n, type_name, elem_bytes, kind) + "]\n";
  }
  Emit(text);
}

int32_t WriteTensorFile(const char* file_name, const void* data,
                        uint64_t bytes) {
  std::FILE* file = std::fopen(file_name, "wb");
  if (file == nullptr) {
    std::fprintf(stderr,
                 "normgrad: LocalTensor::ToFile: cannot open \"%s\" for "
                 "writing: %s\n",
                 file_name, std::strerror(errno));
    return -1;
  }
  const bool written = bytes == 0 || std::fwrite(data, 1, bytes, file) == bytes;
  const bool closed = std::fclose(file) == 0;
  if (!written || !closed) {
    std::fprintf(stderr,
                 "normgrad: LocalTensor::ToFile: writing \"%s\" failed\n",
                 file_name);
    return -1;
  }
  return 0;
}

void AscDump(const char* api, AscDumpMemory memory, const void* input,
             uint32_t desc, uint32_t dump_size, const char* type_name,
             uint32_t elem_bytes, char kind) {
  if (input == nullptr) Fail("%s: input is null", api);
  const Core& core = CurrentCore();
  const auto* p = static_cast<const uint8_t*>(input);
  const bool in_ub = p >= core.ub() && p < core.ub() + core.ub_size();
  if (memory == AscDumpMemory::kUb && !in_ub) {
    Fail("%s: input %p is not in this core's unified buffer", api, input);
  }
  if (memory == AscDumpMemory::kGm && in_ub) {
    Fail("%s: input %p is in the unified buffer, not in global memory", api,
         input);
  }
  if (in_ub) {
    const uint64_t offset = static_cast<uint64_t>(p - core.ub());
    DumpValues(api, "desc", desc, offset, type_name, "UB", 0, dump_size,
               (core.ub_size() - offset) / elem_bytes, input, elem_bytes, kind);
    return;
  }
  // Global memory: as far as its allocation goes, where normgrad knows it.
  uint64_t available = dump_size;
  GmBlock block;
  if (FindGmBlock(input, &block)) {
    available = (block.start + block.size - reinterpret_cast<uintptr_t>(p)) /
                elem_bytes;
  }
  DumpValues(api, "desc", desc, reinterpret_cast<uintptr_t>(input), type_name,
             "GM", 0, dump_size, available, input, elem_bytes, kind);
}

void ProfileMarkLine(const std::string& what) {
  Emit(what + ", timeStamp is " + std::to_string(SystemCycle()) + ".\n");
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

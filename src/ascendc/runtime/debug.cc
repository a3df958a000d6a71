// debug.cc — the kernel's debugging output (normgrad_ascendc/runtime/debug.h):
// each block's text buffered with a "[block <i>/<n>] " prefix per line and
// printed in block order when the launch ends; KERNEL_LOG, asserts, DumpTensor.
#include "normgrad_ascendc/runtime/debug.h"

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>
#include <vector>

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

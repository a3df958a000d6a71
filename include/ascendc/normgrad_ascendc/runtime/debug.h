// normgrad_ascendc/runtime/debug.h — debugging a kernel on the CPU
// (docs/runtime.md, "Debugging"): printf/PRINTF, KERNEL_LOG,
// assert/ascendc_assert/ASSERT/ ASCENDC_ASSERT, DumpTensor, DumpAccChkPoint,
// PrintTimeStamp, Trap, GetSystemCycle, and the profiler marks
// MetricsProfStart/MetricsProfStop/ MarkStamp (no effect: they only feed the
// device's profiler).
//
// Output of a block is buffered and printed on stdout when the launch ends
// (also when it fails, before the error lines), block after block, every
// line prefixed with "[block <i>/<n>] ". Outside a launch it is printed at
// once, without the prefix, so host code's printf is plain printf. A program
// built with ASCENDC_DUMP=0 prints nothing from kernels (printf, PRINTF,
// DumpTensor, DumpAccChkPoint) and its assert/ascendc_assert check nothing,
// as documented; ASSERT, ASCENDC_ASSERT, KERNEL_LOG and Trap stay.
//
// printf: a kernel calls `printf(...)` with `using namespace AscendC;` or
// `AscendC::printf(...)`. Overload resolution alone cannot send the first
// form to the block printer (C's ::printf wins a call with no arguments
// after the format), so `printf` is a function-like macro naming
// NormgradPrintf, which is declared in the global namespace, in AscendC and
// in std: printf(...), AscendC::printf(...), ::printf(...) and
// std::printf(...) all reach it. `&printf` and format attributes are left
// alone. As on the device, printf, KERNEL_LOG and the assert messages are
// typed: `%d` prints an int64_t and `%f` a half; length modifiers are
// ignored.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// One printf argument with its type: the device's printf is typed (%d
/// prints an int64_t, %f a half), so normgrad formats from the argument's
/// type, not from the length modifiers of the conversion.
struct PrintArg {
  enum Kind : uint8_t { kNone, kSigned, kUnsigned, kFloat, kString, kPointer };
  Kind kind = kNone;
  uint8_t bytes = 8;  ///< of an integer, for %x/%o/%u of a negative value
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  const char* s = nullptr;
  const void* p = nullptr;
};

template <typename T>
PrintArg MakePrintArg(const T& value) {
  using D = std::remove_cv_t<std::decay_t<T>>;
  PrintArg a;
  if constexpr (std::is_array_v<T> || std::is_pointer_v<D>) {
    using Pointee = std::remove_cv_t<std::conditional_t<
        std::is_array_v<T>, std::remove_extent_t<T>, std::remove_pointer_t<D>>>;
    if constexpr (std::is_same_v<Pointee, char>) {
      a.kind = PrintArg::kString;
      a.s = value;
    } else {
      a.kind = PrintArg::kPointer;
      a.p = (const void*)(value);  // NOLINT: object and function pointers
    }
  } else if constexpr (std::is_null_pointer_v<D>) {
    a.kind = PrintArg::kPointer;
  } else if constexpr (std::is_enum_v<D>) {
    a.kind = PrintArg::kSigned;
    a.i = static_cast<int64_t>(value);
  } else if constexpr (std::is_integral_v<D>) {
    a.bytes = sizeof(D);
    if constexpr (std::is_signed_v<D>) {
      a.kind = PrintArg::kSigned;
      a.i = value;
    } else {
      a.kind = PrintArg::kUnsigned;
      a.u = value;
    }
  } else if constexpr (std::is_floating_point_v<D>) {
    a.kind = PrintArg::kFloat;
    a.f = static_cast<double>(value);
  } else if constexpr (std::is_convertible_v<D, float>) {
    a.kind = PrintArg::kFloat;  // half, bfloat16_t
    a.f = static_cast<double>(static_cast<float>(value));
  } else {
    static_assert(std::is_convertible_v<D, float>,
                  "printf: an argument must be an integer, a floating-point "
                  "value (half and bfloat16_t included), a string or a "
                  "pointer");
  }
  return a;
}

/// printf-style formatting of typed arguments: each conversion takes the
/// next argument and prints it with the conversion's flags, width and
/// precision; length modifiers are ignored (the argument's type decides).
std::string FormatTyped(const char* format, const PrintArg* args, size_t count);

/// Prints text: inside a launch to the block's buffered output (unless
/// `kernel_output` is false), else to stdout. Returns its length.
int PrintText(const std::string& text, bool kernel_output);

}  // namespace normgrad_ascendc

/// printf for kernel and host code: inside a launch it goes to the block's
/// buffered output, else to stdout. Returns the number of characters.
template <class... Args>
int NormgradPrintf(const char* format, const Args&... args) {
  const normgrad_ascendc::PrintArg list[] = {
      normgrad_ascendc::MakePrintArg(args)..., normgrad_ascendc::PrintArg()};
  return normgrad_ascendc::PrintText(
      normgrad_ascendc::FormatTyped(format, list, sizeof...(Args)), true);
}

/// The same, but printing nothing inside a launch: printf in programs built
/// with ASCENDC_DUMP=0, which turns the documented debugging output off.
template <class... Args>
int NormgradPrintfHostOnly(const char* format, const Args&... args) {
  const normgrad_ascendc::PrintArg list[] = {
      normgrad_ascendc::MakePrintArg(args)..., normgrad_ascendc::PrintArg()};
  return normgrad_ascendc::PrintText(
      normgrad_ascendc::FormatTyped(format, list, sizeof...(Args)), false);
}

namespace AscendC {
using ::NormgradPrintf;
using ::NormgradPrintfHostOnly;
}  // namespace AscendC
namespace std {
using ::NormgradPrintf;
using ::NormgradPrintfHostOnly;
}  // namespace std

#if defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0
#define NORMGRAD_ASCENDC_DUMP 0
#define printf(...) NormgradPrintfHostOnly(__VA_ARGS__)
#define PRINTF(...) NormgradPrintfHostOnly(__VA_ARGS__)
#else
#define NORMGRAD_ASCENDC_DUMP 1
#define printf(...) NormgradPrintf(__VA_ARGS__)
#define PRINTF(...) NormgradPrintf(__VA_ARGS__)
#endif

/// KERNEL_LOG levels.
enum NormgradKernelLogLevel : int {
  KERNEL_DEBUG,
  KERNEL_INFO,
  KERNEL_WARN,
  KERNEL_ERROR,
};

namespace normgrad_ascendc {

/// KERNEL_LOG's line: "[<LEVEL>] <file>:<line>: <message>".
void KernelLogLine(int level, const char* file, unsigned line,
                   const std::string& message);
template <class... Args>
void KernelLog(int level, const char* file, unsigned line, const char* format,
               const Args&... args) {
  const PrintArg list[] = {MakePrintArg(args)..., PrintArg()};
  KernelLogLine(level, file, line, FormatTyped(format, list, sizeof...(Args)));
}

/// A failed assertion: stops the kernel (KernelError) with
/// "<file>:<line>: assertion failed: <condition>[: <message>]".
[[noreturn]] void AssertFailedWith(const char* condition, const char* file,
                                   unsigned line, const std::string& message);
/// The same with the message formatted; the format starts with one space
/// that is not printed (the assert macros prepend it, so that an assert
/// without a message still passes a format).
template <class... Args>
[[noreturn]] void AssertFailed(const char* condition, const char* file,
                               unsigned line, const char* format,
                               const Args&... args) {
  const PrintArg list[] = {MakePrintArg(args)..., PrintArg()};
  AssertFailedWith(
      condition, file, line,
      FormatTyped(format + (*format == ' ' ? 1 : 0), list, sizeof...(Args)));
}

/// The block's text output (DumpTensor and the like).
void DebugWrite(const char* text);

/// DumpTensor's and DumpAccChkPoint's output: a header line and the values.
void DumpValues(const char* api, const char* label_name, uint32_t label,
                uint64_t addr, const char* type_name, const char* position,
                uint64_t offset, uint32_t dump_size, uint64_t available,
                const void* data, uint32_t elem_bytes, char kind);

/// The element kind of T for DumpValues: 'f' floating (printed with %f),
/// 's' signed, 'u' unsigned, 'b' bool.
template <typename T>
constexpr char DumpKind() {
  if constexpr (std::is_same_v<T, bool>) {
    return 'b';
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? 's' : 'u';
  } else {
    return 'f';
  }
}

/// The name DumpTensor prints for T.
template <typename T>
constexpr const char* DumpTypeName() {
  if constexpr (std::is_same_v<T, half>) return "float16";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, bool>) return "bool";
  if constexpr (std::is_same_v<T, int8_t>) return "int8";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  if constexpr (std::is_same_v<T, int16_t>) return "int16";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, int64_t>) return "int64";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  return "unknown";
}

/// The byte offset of a UB pointer in the current core's UB.
uint64_t UbOffset(const void* p);

/// The system cycle counter (GetSystemCycle): nanoseconds of a monotonic
/// clock.
int64_t SystemCycle();

}  // namespace normgrad_ascendc

/// KERNEL_LOG(level, fmt, ...): one line with the level, file and line.
#define KERNEL_LOG(level, fmt, ...) \
  ::normgrad_ascendc::KernelLog(level, __FILE__, __LINE__, fmt, ##__VA_ARGS__)

/// ASSERT(cond): stops the kernel when cond is false.
#define ASSERT(cond)             \
  ((cond) ? static_cast<void>(0) \
          : ::normgrad_ascendc::AssertFailed(#cond, __FILE__, __LINE__, " "))

/// ascendc_assert(cond) and ascendc_assert(cond, fmt, args...): stops the
/// kernel when cond is false, with the formatted message.
#define ascendc_assert(cond, ...)                                       \
  ((cond) ? static_cast<void>(0)                                        \
          : ::normgrad_ascendc::AssertFailed(#cond, __FILE__, __LINE__, \
                                             " " __VA_ARGS__))

/// assert: the documented kernel assert, the same as ascendc_assert (it
/// replaces <cassert>'s; a later #include <cassert> brings that one back,
/// whose abort the launcher then reports with the block). With
/// ASCENDC_DUMP=0 both check nothing, as documented.
#undef assert
#if NORMGRAD_ASCENDC_DUMP
#define assert(...) ascendc_assert(__VA_ARGS__)
#else
#undef ascendc_assert
#define ascendc_assert(...) static_cast<void>(0)
#define assert(...) static_cast<void>(0)
#endif

/// ASCENDC_ASSERT(cond, { statements; }): when cond is false, runs the
/// statements (usually a KERNEL_LOG) and stops the kernel.
#define ASCENDC_ASSERT(cond, ...)                                       \
  do {                                                                  \
    if (!(cond)) {                                                      \
      __VA_ARGS__;                                                      \
      ::normgrad_ascendc::AssertFailed(#cond, __FILE__, __LINE__, " "); \
    }                                                                   \
  } while (0)

namespace AscendC {

/// Prints desc and the first dumpSize elements of a UB tensor.
template <typename T>
inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc,
                       uint32_t dumpSize,
                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  if (!NORMGRAD_ASCENDC_DUMP) return;
  normgrad_ascendc::DumpValues("DumpTensor", "desc", desc,
                               normgrad_ascendc::UbOffset(tensor.GetPhyAddr()),
                               normgrad_ascendc::DumpTypeName<T>(), "UB", 0,
                               dumpSize, tensor.GetSize(), tensor.GetPhyAddr(),
                               sizeof(T), normgrad_ascendc::DumpKind<T>());
}

/// Prints desc and the first dumpSize elements of a GM tensor.
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc,
                       uint32_t dumpSize,
                       normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  if (!NORMGRAD_ASCENDC_DUMP) return;
  const uint64_t available =
      tensor.GetSize() == 0 ? dumpSize : tensor.GetSize();
  normgrad_ascendc::DumpValues("DumpTensor", "desc", desc,
                               reinterpret_cast<uintptr_t>(tensor.GetPhyAddr()),
                               normgrad_ascendc::DumpTypeName<T>(), "GM", 0,
                               dumpSize, available, tensor.GetPhyAddr(),
                               sizeof(T), normgrad_ascendc::DumpKind<T>());
}

/// The same; the shape is accepted (the values print as one list).
template <typename T>
inline void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc,
                       uint32_t dumpSize, const ShapeInfo& shapeInfo,
                       normgrad_ascendc::CallSite site = {}) {
  static_cast<void>(shapeInfo);
  DumpTensor(tensor, desc, dumpSize, site);
}
template <typename T>
inline void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc,
                       uint32_t dumpSize, const ShapeInfo& shapeInfo,
                       normgrad_ascendc::CallSite site = {}) {
  static_cast<void>(shapeInfo);
  DumpTensor(tensor, desc, dumpSize, site);
}

/// Prints index and dumpSize elements of a UB tensor from element countOff.
template <typename T>
inline void DumpAccChkPoint(const LocalTensor<T>& tensor, uint32_t index,
                            uint32_t countOff, uint32_t dumpSize,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  if (!NORMGRAD_ASCENDC_DUMP) return;
  const uint64_t available =
      countOff <= tensor.GetSize() ? tensor.GetSize() - countOff : 0;
  normgrad_ascendc::DumpValues(
      "DumpAccChkPoint", "index", index,
      normgrad_ascendc::UbOffset(tensor.GetPhyAddr()) + countOff * sizeof(T),
      normgrad_ascendc::DumpTypeName<T>(), "UB", countOff, dumpSize, available,
      tensor.GetPhyAddr() + (available > 0 ? countOff : 0), sizeof(T),
      normgrad_ascendc::DumpKind<T>());
}

/// Prints index and dumpSize elements of a GM tensor from element countOff.
template <typename T>
inline void DumpAccChkPoint(const GlobalTensor<T>& tensor, uint32_t index,
                            uint32_t countOff, uint32_t dumpSize,
                            normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  if (!NORMGRAD_ASCENDC_DUMP) return;
  uint64_t available = dumpSize;
  if (tensor.GetSize() != 0) {
    available = countOff <= tensor.GetSize() ? tensor.GetSize() - countOff : 0;
  }
  normgrad_ascendc::DumpValues(
      "DumpAccChkPoint", "index", index,
      reinterpret_cast<uintptr_t>(tensor.GetPhyAddr() + countOff),
      normgrad_ascendc::DumpTypeName<T>(), "GM", countOff, dumpSize, available,
      tensor.GetPhyAddr() + (available > 0 ? countOff : 0), sizeof(T),
      normgrad_ascendc::DumpKind<T>());
}

/// The system cycle counter; on the CPU, nanoseconds of a monotonic clock.
inline int64_t GetSystemCycle() { return normgrad_ascendc::SystemCycle(); }

/// Prints a time stamp line when the program is built with
/// ASCENDC_TIME_STAMP_ON (as on the device); else nothing.
inline void PrintTimeStamp(uint32_t descId) {
#ifdef ASCENDC_TIME_STAMP_ON
  char line[160];
  std::snprintf(line, sizeof line,
                "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, "
                "entry is 0.\n",
                descId, static_cast<long long>(GetSystemCycle()));
  normgrad_ascendc::DebugWrite(line);
#else
  static_cast<void>(descId);
#endif
}

/// Stops the kernel, as an assert does on the CPU.
inline void Trap(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Fail("Trap: the kernel called Trap()");
}

/// Profiler marks: no effect on the CPU (they only feed the device's
/// profiler).
inline void MetricsProfStart() {}
inline void MetricsProfStop() {}
template <pipe_t pipe, uint16_t index>
inline void MarkStamp() {}
template <pipe_t pipe>
inline void MarkStamp(uint16_t index) {
  static_cast<void>(index);
}

}  // namespace AscendC

// normgrad_ascendc/runtime/debug.h — debugging a kernel on the CPU
// (docs/runtime.md, "Debugging"): printf/PRINTF, KERNEL_LOG,
// assert/ascendc_assert/ASSERT/ ASCENDC_ASSERT, DumpTensor, DumpAccChkPoint,
// PrintTimeStamp, Trap, CheckLocalMemoryIA, GetSystemCycle, LocalTensor's
// Print/ToFile (tensor.h, written here), the Utils API's asc_dump,
// asc_time_stamp, asc_prof_start/ stop, asc_mark_stamp and
// TRACE_START/TRACE_STOP, and the profiler marks
// MetricsProfStart/MetricsProfStop/MarkStamp.
//
// The profiler marks feed the device's profiler; here, in a program built
// with ASCENDC_TRACE_ON (the switch the trace pages document), each prints
// "<mark>, timeStamp is <cycle>." into the block output, and MarkStamp's
// index (0..255), asc_mark_stamp's (0..4095) and TRACE_START's apid (0x0 …
// 0x9) are checked. Without it they print nothing (MarkStamp still checks
// its index).
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
#include "normgrad_ascendc/runtime/sync_check.h"
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

/// The byte offset of a UB pointer in the current core's UB.
uint64_t UbOffset(const void* p);

/// The system cycle counter (GetSystemCycle): nanoseconds of a monotonic
/// clock.
int64_t SystemCycle();

/// Where asc_dump looks for its input: wherever the pointer is (asc_dump),
/// or only global memory (asc_dump_gm) or only the UB (asc_dump_ubuf).
enum class AscDumpMemory : uint8_t { kAny, kGm, kUb };

/// asc_dump's output: DumpTensor's lines for dump_size elements at input,
/// from the UB (position UB, addr the UB offset) or global memory (position
/// GM; as far as the allocation goes where normgrad knows it).
void AscDump(const char* api, AscDumpMemory memory, const void* input,
             uint32_t desc, uint32_t dump_size, const char* type_name,
             uint32_t elem_bytes, char kind);

/// The profiling marks' line: "<what>, timeStamp is <cycle>." in the block
/// output.
void ProfileMarkLine(const std::string& what);

/// A pipe's name as kernel code spells it.
constexpr const char* PipeTName(pipe_t pipe) {
  switch (pipe) {
    case PIPE_S:
      return "PIPE_S";
    case PIPE_V:
      return "PIPE_V";
    case PIPE_M:
      return "PIPE_M";
    case PIPE_MTE1:
      return "PIPE_MTE1";
    case PIPE_MTE2:
      return "PIPE_MTE2";
    case PIPE_MTE3:
      return "PIPE_MTE3";
    case PIPE_ALL:
      return "PIPE_ALL";
    case PIPE_FIX:
      return "PIPE_FIX";
  }
  return "PIPE_?";
}

/// Whether the profiling marks print (the program was built with
/// ASCENDC_TRACE_ON, the switch the trace pages document).
#ifdef ASCENDC_TRACE_ON
inline constexpr bool kTraceOn = true;
#else
inline constexpr bool kTraceOn = false;
#endif

/// MarkStamp and asc_mark_stamp: checks index against `limit` (exclusive)
/// and prints the mark when the marks are on.
inline void MarkStampLine(const char* api, pipe_t pipe, uint32_t index,
                          uint32_t limit) {
  if (index >= limit) {
    Fail("%s: index %u is out of range 0..%u", api, index, limit - 1);
  }
  if (kTraceOn) {
    ProfileMarkLine(std::string(api) + " index " + std::to_string(index) +
                    " (" + PipeTName(pipe) + ")");
  }
}

/// TRACE_START / TRACE_STOP: apid must be one of the ten user trace ids.
inline void Trace(const char* api, pipe_t pipe, uint32_t apid) {
  if (!kTraceOn) return;
  if (apid > 9) {
    Fail("%s: apid 0x%x is not a user trace id (0x0 ... 0x9)", api, apid);
  }
  char id[8];
  std::snprintf(id, sizeof id, "0x%x", apid);
  ProfileMarkLine(std::string(api) + " apid " + id + " (" + PipeTName(pipe) +
                  ")");
}
inline void Trace(const char* api, uint32_t apid) { Trace(api, PIPE_S, apid); }

/// The time-stamp line of PrintTimeStamp and asc_time_stamp, printed when
/// the program is built with ASCENDC_TIME_STAMP_ON (as on the device).
inline void TimeStampLine(uint32_t descId) {
#ifdef ASCENDC_TIME_STAMP_ON
  char line[160];
  std::snprintf(line, sizeof line,
                "descId is %u, rsv is 0, timeStamp is %lld, pcPtr is 0, "
                "entry is 0.\n",
                descId, static_cast<long long>(SystemCycle()));
  DebugWrite(line);
#else
  static_cast<void>(descId);
#endif
}

/// asc_dump's typed front: prints nothing with ASCENDC_DUMP=0.
template <typename T>
void AscDumpTyped(const char* api, AscDumpMemory memory, const T* input,
                  uint32_t desc, uint32_t dump_size, const CallSite& site) {
  const ApiCall call(site);
  if (!NORMGRAD_ASCENDC_DUMP) return;
  AscDump(api, memory, input, desc, dump_size, DumpTypeName<T>(), sizeof(T),
          DumpKind<T>());
}

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
  normgrad_ascendc::TimeStampLine(descId);
}

/// Stops the kernel, as an assert does on the CPU.
inline void Trap(normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::Fail("Trap: the kernel called Trap()");
}

/// The settings of one of the core's four UB exception registers
/// (CheckLocalMemoryIA): addresses in units of 32 bytes from the UB's start.
struct CheckLocalMemoryIAParam {
  uint32_t enableBit = 0;  ///< the register, 0..3
  uint32_t startAddr = 0;  ///< the range (startAddr, endAddr], 0..65535
  uint32_t endAddr = 0;
  bool isScalarRead = false;
  bool isScalarWrite = false;
  bool isVectorRead = false;
  bool isVectorWrite = false;
  bool isMteRead = false;
  bool isMteWrite = false;
  bool isEnable = false;  ///< false clears the register
  uint32_t reserved = 0;
};

/// Arms (or clears) one UB exception register of the calling block's core:
/// from then on, an access of a checked kind to the range stops the kernel
/// as the device's exception would (docs/checks.md, "CheckLocalMemoryIA").
/// Each block starts with every register clear.
inline void CheckLocalMemoryIA(const CheckLocalMemoryIAParam& checkParams,
                               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  const CheckLocalMemoryIAParam& c = checkParams;
  namespace ng = normgrad_ascendc;
  const uint8_t kinds =
      static_cast<uint8_t>((c.isScalarRead ? ng::kIaScalarRead : 0) |
                           (c.isScalarWrite ? ng::kIaScalarWrite : 0) |
                           (c.isVectorRead ? ng::kIaVectorRead : 0) |
                           (c.isVectorWrite ? ng::kIaVectorWrite : 0) |
                           (c.isMteRead ? ng::kIaMteRead : 0) |
                           (c.isMteWrite ? ng::kIaMteWrite : 0));
  normgrad_ascendc::SetLocalMemoryIA(c.enableBit, c.startAddr, c.endAddr, kinds,
                                     c.isEnable);
}

/// The profiler's marks: with ASCENDC_TRACE_ON each prints a line with the
/// cycle counter into the block output; else they only check their index.
inline void MetricsProfStart() {
  if (normgrad_ascendc::kTraceOn) {
    normgrad_ascendc::ProfileMarkLine("MetricsProfStart");
  }
}
inline void MetricsProfStop() {
  if (normgrad_ascendc::kTraceOn) {
    normgrad_ascendc::ProfileMarkLine("MetricsProfStop");
  }
}
template <pipe_t pipe, uint16_t index>
inline void MarkStamp(normgrad_ascendc::CallSite site = {}) {
  static_assert(index < 256, "MarkStamp: index must be in 0..255");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::MarkStampLine("MarkStamp", pipe, index, 256);
}
template <pipe_t pipe>
inline void MarkStamp(uint16_t index, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::MarkStampLine("MarkStamp", pipe, index, 256);
}

}  // namespace AscendC

// ---- The Utils API's debugging functions (global names) --------------------

/// Prints desc and dump_size elements at input, wherever it points (the UB
/// or global memory), as DumpTensor does.
template <typename T>
inline void asc_dump(const T* input, uint32_t desc, uint32_t dump_size,
                     normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AscDumpTyped("asc_dump",
                                 normgrad_ascendc::AscDumpMemory::kAny, input,
                                 desc, dump_size, site);
}
/// The same for input in global memory only.
template <typename T>
inline void asc_dump_gm(const T* input, uint32_t desc, uint32_t dump_size,
                        normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AscDumpTyped("asc_dump_gm",
                                 normgrad_ascendc::AscDumpMemory::kGm, input,
                                 desc, dump_size, site);
}
/// The same for input in the UB only.
template <typename T>
inline void asc_dump_ubuf(const T* input, uint32_t desc, uint32_t dump_size,
                          normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::AscDumpTyped("asc_dump_ubuf",
                                 normgrad_ascendc::AscDumpMemory::kUb, input,
                                 desc, dump_size, site);
}

/// PrintTimeStamp's line, with ASCENDC_TIME_STAMP_ON.
inline void asc_time_stamp(uint32_t desc_id) {
  normgrad_ascendc::TimeStampLine(desc_id);
}

/// MetricsProfStart / MetricsProfStop under their Utils names.
inline void asc_prof_start() { AscendC::MetricsProfStart(); }
inline void asc_prof_stop() { AscendC::MetricsProfStop(); }

/// MarkStamp under its Utils name: idx in 0..4095.
template <pipe_t pipe = PIPE_S>
inline void asc_mark_stamp(uint16_t idx, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::MarkStampLine("asc_mark_stamp", pipe, idx, 4096);
}
template <pipe_t pipe = PIPE_S, uint16_t idx>
inline void asc_mark_stamp(normgrad_ascendc::CallSite site = {}) {
  static_assert(idx < 4096, "asc_mark_stamp: idx must be in 0..4095");
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::MarkStampLine("asc_mark_stamp", pipe, idx, 4096);
}

/// The user trace ids of TRACE_START / TRACE_STOP.
enum TraceId : uint32_t {
  USER_DEFINE_0 = 0x0,
  USER_DEFINE_1,
  USER_DEFINE_2,
  USER_DEFINE_3,
  USER_DEFINE_4,
  USER_DEFINE_5,
  USER_DEFINE_6,
  USER_DEFINE_7,
  USER_DEFINE_8,
  USER_DEFINE_9,
};

/// TRACE_START(apid) and TRACE_START(pipe, apid) (the pipe counts on the 950
/// only; PIPE_S is printed for the one-argument form): with
/// ASCENDC_TRACE_ON a line with the id and the cycle counter, else nothing.
#define TRACE_START(...) ::normgrad_ascendc::Trace("TRACE_START", __VA_ARGS__)
#define TRACE_STOP(...) ::normgrad_ascendc::Trace("TRACE_STOP", __VA_ARGS__)

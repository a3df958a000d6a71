// utils/log/asc_cpu_log.h — host-side logging for tiling functions
// (docs/runtime.md, "Debugging"): ASC_CPU_LOG_ERROR, ASC_CPU_LOG_WARNING,
// ASC_CPU_LOG_INFO and ASC_CPU_LOG_DEBUG.
//
// Each prints one line on stderr: "[<LEVEL>] ASCENDCKERNEL [<file>:<line>]
// [<function>] <message>", the message formatted as printf formats it (a
// trailing newline of the format is not doubled). On the device these lines
// go to the runtime's log files; here stderr is the log. As there,
// ASCEND_GLOBAL_LOG_LEVEL (0 debug, 1 info, 2 warning, 3 error) drops the
// levels below it; unset, every level prints (CPU debugging wants them).
#pragma once

namespace normgrad_ascendc {

/// The levels, as ASCEND_GLOBAL_LOG_LEVEL numbers them.
enum CpuLogLevel : int {
  kCpuLogDebug = 0,
  kCpuLogInfo = 1,
  kCpuLogWarning = 2,
  kCpuLogError = 3,
};

/// One log line (cpu_debug.cc).
void CpuLog(CpuLogLevel level, const char* file, int line, const char* function,
            const char* format, ...) __attribute__((format(printf, 5, 6)));

}  // namespace normgrad_ascendc

#define ASC_CPU_LOG_ERROR(...)                                           \
  ::normgrad_ascendc::CpuLog(::normgrad_ascendc::kCpuLogError, __FILE__, \
                             __LINE__, __func__, __VA_ARGS__)
#define ASC_CPU_LOG_WARNING(...)                                           \
  ::normgrad_ascendc::CpuLog(::normgrad_ascendc::kCpuLogWarning, __FILE__, \
                             __LINE__, __func__, __VA_ARGS__)
#define ASC_CPU_LOG_INFO(...)                                           \
  ::normgrad_ascendc::CpuLog(::normgrad_ascendc::kCpuLogInfo, __FILE__, \
                             __LINE__, __func__, __VA_ARGS__)
#define ASC_CPU_LOG_DEBUG(...)                                           \
  ::normgrad_ascendc::CpuLog(::normgrad_ascendc::kCpuLogDebug, __FILE__, \
                             __LINE__, __func__, __VA_ARGS__)

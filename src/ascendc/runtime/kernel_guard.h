// kernel_guard.h — what turns a kernel that crashes or never returns into a
// message (internal to src/ascendc, used by launch.cc): signal handlers that
// name the kernel and the block, and the watchdog of launches that do not
// end (a time limit, SIGINT and SIGTERM).
#pragma once

namespace normgrad_ascendc {

class Launch;

/// Installs, once per process, handlers for SIGSEGV, SIGBUS, SIGFPE, SIGILL
/// and SIGABRT. A signal raised while a thread runs a block prints the
/// blocks' buffered output, then
///   normgrad: kernel <name> block <i>/<n>: <what>
/// on stderr and ends the process with status 1. A signal outside any block
/// goes to the handler that was there before.
void InstallKernelSignalHandlers();

/// Gives the calling thread an alternate signal stack (once per thread), so
/// that a stack overflow inside a block is reported too.
void PrepareThreadForBlocks();

/// While alive (one launch), watches it from the process's watcher thread:
/// a launch still running after NORMGRAD_KERNEL_TIMEOUT seconds (unset:
/// 600; 0: no limit; read once) is reported with each unfinished block's
/// state and the API call it is in, and the process exits with status 1; a
/// SIGINT or SIGTERM while it runs gives the same report and exit status
/// 128 + the signal. Outside launches those signals act as before.
class KernelWatchdog {
 public:
  explicit KernelWatchdog(Launch& launch);
  ~KernelWatchdog();
  KernelWatchdog(const KernelWatchdog&) = delete;
  KernelWatchdog& operator=(const KernelWatchdog&) = delete;

  /// The launch's blocks have all returned: stop watching.
  void Finish() const;

 private:
  Launch& launch_;
};

}  // namespace normgrad_ascendc

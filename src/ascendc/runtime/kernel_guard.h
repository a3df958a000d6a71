// kernel_guard.h — what turns a kernel that crashes or never returns into a
// message (internal to src/ascendc, used by launch.cc): signal handlers that
// name the kernel and the block, and the NORMGRAD_KERNEL_TIMEOUT watchdog.
#pragma once

#include <condition_variable>
#include <mutex>
#include <thread>

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

/// While alive (one launch), ends the process with a message naming the
/// blocks still running when the launch takes longer than
/// NORMGRAD_KERNEL_TIMEOUT seconds (unset or 0: no limit; read once).
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
  mutable std::mutex mutex_;
  mutable std::condition_variable finished_cv_;
  mutable bool finished_ = false;
  std::thread thread_;
};

}  // namespace normgrad_ascendc

// kernel_guard.cc — signal handlers that name the kernel and the block, the
// alternate signal stack of block threads, and the NORMGRAD_KERNEL_TIMEOUT
// watchdog (kernel_guard.h).
#include "ascendc/runtime/kernel_guard.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "ascendc/runtime/launch_state.h"

namespace normgrad_ascendc {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[sizeof(kSignals) / sizeof(kSignals[0])];

// The calling thread's stack, for telling a stack overflow from another
// segmentation fault.
thread_local uintptr_t t_stack_low = 0;
thread_local uintptr_t t_stack_high = 0;

// A guard region below the stack: a fault there is an overflow.
constexpr uintptr_t kGuardBytes = 1 << 20;
// The alternate stack: enough for the handler's formatting and writes.
constexpr size_t kAltStackBytes = 64 * 1024;

void WriteAll(int fd, const char* text, size_t length) {
  while (length > 0) {
    const ssize_t n = ::write(fd, text, length);
    if (n <= 0) return;
    text += n;
    length -= static_cast<size_t>(n);
  }
}

const char* Describe(int signal, const siginfo_t* info, char* buffer,
                     size_t size) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  switch (signal) {
    case SIGSEGV:
      if (t_stack_low != 0 && address < t_stack_high &&
          address + kGuardBytes >= t_stack_low) {
        return "stack overflow (SIGSEGV on the block's stack guard; deep or "
               "unbounded recursion, or a very large local array)";
      }
      std::snprintf(buffer, size,
                    "segmentation fault (SIGSEGV) accessing address %p: a "
                    "pointer outside any memory the kernel may use",
                    info->si_addr);
      return buffer;
    case SIGBUS:
      std::snprintf(buffer, size, "bus error (SIGBUS) accessing address %p",
                    info->si_addr);
      return buffer;
    case SIGFPE:
      return info->si_code == FPE_INTDIV
                 ? "arithmetic exception (SIGFPE): integer division by zero"
                 : "arithmetic exception (SIGFPE)";
    case SIGILL:
      return "illegal instruction (SIGILL)";
    default:
      return "abort (SIGABRT), e.g. a failed assert of <cassert> or "
             "std::abort";
  }
}

void OnSignal(int signal, siginfo_t* info, void* context) {
  Launch* launch = RunningLaunch();
  const BlockState* block = RunningBlock();
  if (launch == nullptr || block == nullptr) {
    // Not in a kernel: let the previous handler (or the default) have it.
    for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
      if (kSignals[i] != signal) continue;
      const struct sigaction& previous = g_previous[i];
      if ((previous.sa_flags & SA_SIGINFO) != 0 &&
          previous.sa_sigaction != nullptr) {
        previous.sa_sigaction(signal, info, context);
        return;
      }
      sigaction(signal, &previous, nullptr);
      raise(signal);
      return;
    }
    return;
  }
  // Best effort: the other blocks may be running; their output is printed
  // if the launch's lock is free.
  if (launch->mutex().try_lock()) {
    WriteBlockOutputs(*launch);
    launch->mutex().unlock();
  }
  char what[256];
  char line[512];
  const int length =
      std::snprintf(line, sizeof line, "normgrad: kernel %s block %u/%u: %s\n",
                    launch->name(), block->index, launch->num_blocks(),
                    Describe(signal, info, what, sizeof what));
  if (length > 0) {
    WriteAll(2, line, std::min(static_cast<size_t>(length), sizeof line - 1));
  }
  ::_exit(1);
}

double ReadTimeout() {
  const char* value = std::getenv("NORMGRAD_KERNEL_TIMEOUT");
  if (value == nullptr || *value == '\0') return 0;
  char* end = nullptr;
  const double seconds = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(seconds >= 0)) {
    std::fprintf(stderr,
                 "normgrad: NORMGRAD_KERNEL_TIMEOUT: \"%s\" is not a number of "
                 "seconds >= 0; kernels run without a time limit\n",
                 value);
    return 0;
  }
  return seconds;
}

}  // namespace

void InstallKernelSignalHandlers() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = OnSignal;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < sizeof(kSignals) / sizeof(kSignals[0]); ++i) {
      sigaction(kSignals[i], &action, &g_previous[i]);
    }
    return true;
  }();
  static_cast<void>(installed);
}

void PrepareThreadForBlocks() {
  thread_local std::unique_ptr<char[]> alt_stack;
  if (alt_stack) return;
  alt_stack = std::make_unique<char[]>(kAltStackBytes);
  stack_t stack{};
  stack.ss_sp = alt_stack.get();
  stack.ss_size = kAltStackBytes;
  sigaltstack(&stack, nullptr);
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0) {
      t_stack_low = reinterpret_cast<uintptr_t>(low);
      t_stack_high = t_stack_low + size;
    }
    pthread_attr_destroy(&attr);
  }
}

KernelWatchdog::KernelWatchdog(Launch& launch) : launch_(launch) {
  static const double timeout = ReadTimeout();
  if (timeout <= 0) return;
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto limit = std::chrono::duration<double>(timeout);
    if (finished_cv_.wait_for(lock, limit, [this] { return finished_; })) {
      return;
    }
    const std::lock_guard<std::mutex> state(launch_.mutex());
    WriteBlockOutputs(launch_);
    std::string running;
    uint32_t not_started = 0;
    for (uint32_t i = 0; i < launch_.num_blocks(); ++i) {
      const BlockState& b = launch_.block(i);
      if (b.running) {
        running += running.empty() ? "" : ", ";
        running += std::to_string(i);
        if (!b.waiting_in.empty())
          running += " (waits in " + b.waiting_in + ")";
      } else if (!b.ended) {
        ++not_started;
      }
    }
    std::fprintf(stderr,
                 "normgrad: kernel %s: still running after "
                 "NORMGRAD_KERNEL_TIMEOUT=%g seconds; blocks still running "
                 "(of %u): %s",
                 launch_.name(), timeout, launch_.num_blocks(),
                 running.c_str());
    if (not_started > 0) {
      std::fprintf(stderr, "; %u blocks not started", not_started);
    }
    std::fprintf(stderr, "\n");
    std::fflush(stderr);
    ::_exit(1);
  });
}

void KernelWatchdog::Finish() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  finished_ = true;
  finished_cv_.notify_all();
}

KernelWatchdog::~KernelWatchdog() {
  Finish();
  if (thread_.joinable()) thread_.join();
}

}  // namespace normgrad_ascendc

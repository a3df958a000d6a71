// kernel_guard.cc — signal handlers that name the kernel and the block, the
// alternate signal stack of block threads, and the watcher thread that
// reports launches out of time or interrupted by SIGINT/SIGTERM
// (kernel_guard.h).
#include "ascendc/runtime/kernel_guard.h"

#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <thread>

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

// A launch still running after this long is reported (README: hangs).
constexpr double kDefaultTimeoutSeconds = 600;
// The most unfinished blocks a report lists one by one.
constexpr uint32_t kMaxReportedBlocks = 8;

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

// A launch's time limit.
struct TimeLimit {
  double seconds;  ///< 0: none
  bool from_env;   ///< NORMGRAD_KERNEL_TIMEOUT gave it
};

TimeLimit ReadTimeLimit() {
  const TimeLimit default_limit{kDefaultTimeoutSeconds, false};
  const char* value = std::getenv("NORMGRAD_KERNEL_TIMEOUT");
  if (value == nullptr || *value == '\0') return default_limit;
  char* end = nullptr;
  const double seconds = std::strtod(value, &end);
  if (end == value || *end != '\0' || !(seconds >= 0)) {
    std::fprintf(stderr,
                 "normgrad: NORMGRAD_KERNEL_TIMEOUT: \"%s\" is not a number of "
                 "seconds >= 0; kernels run with the default limit of %g "
                 "seconds\n",
                 value, kDefaultTimeoutSeconds);
    return default_limit;
  }
  return TimeLimit{seconds, true};
}

// What a running block does, for the report of a launch that does not end;
// under the launch's lock.
std::string BlockActivity(const BlockState& b) {
  if (!b.waiting_in.empty()) return "waits in " + b.waiting_in;
  const ApiCallTrace* calls = b.api_calls;
  const char* file = calls->file.load(std::memory_order_relaxed);
  const unsigned line = calls->line.load(std::memory_order_relaxed);
  if (file == nullptr) return "runs, before its first API call";
  const std::string site = std::string(file) + ":" + std::to_string(line);
  if (calls->open.load(std::memory_order_relaxed)) {
    return "runs, in the API call at " + site;
  }
  return "runs, between API calls (the last at " + site + ")";
}

// Prints the blocks' output, `headline` and a line per unfinished block (at
// most kMaxReportedBlocks, then a count) on stderr.
void ReportUnfinished(Launch& launch, const std::string& headline) {
  const std::lock_guard<std::mutex> state(launch.mutex());
  WriteBlockOutputs(launch);
  std::fprintf(stderr, "normgrad: kernel %s: %s\n", launch.name(),
               headline.c_str());
  uint32_t reported = 0, more = 0;
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    const BlockState& b = launch.block(i);
    if (b.ended || !b.running) continue;
    if (reported == kMaxReportedBlocks) {
      ++more;
      continue;
    }
    ++reported;
    std::fprintf(stderr, "normgrad: kernel %s block %u/%u: %s\n", launch.name(),
                 i, launch.num_blocks(), BlockActivity(b).c_str());
  }
  if (more > 0) {
    std::fprintf(stderr, "normgrad: kernel %s: %u more blocks running\n",
                 launch.name(), more);
  }
  std::fflush(stderr);
}

// The first line of the time-limit report, as before the per-block lines.
std::string TimeoutHeadline(Launch& launch, const TimeLimit& limit) {
  const std::lock_guard<std::mutex> state(launch.mutex());
  std::string running;
  uint32_t not_started = 0;
  for (uint32_t i = 0; i < launch.num_blocks(); ++i) {
    const BlockState& b = launch.block(i);
    if (b.running) {
      running += running.empty() ? "" : ", ";
      running += std::to_string(i);
      if (!b.waiting_in.empty()) running += " (waits in " + b.waiting_in + ")";
    } else if (!b.ended) {
      ++not_started;
    }
  }
  char after[160];
  if (limit.from_env) {
    std::snprintf(after, sizeof after, "NORMGRAD_KERNEL_TIMEOUT=%g seconds",
                  limit.seconds);
  } else {
    std::snprintf(after, sizeof after,
                  "%g seconds (the default limit; NORMGRAD_KERNEL_TIMEOUT=<s> "
                  "sets another, 0 none)",
                  limit.seconds);
  }
  std::string text = std::string("still running after ") + after +
                     "; blocks still running (of " +
                     std::to_string(launch.num_blocks()) + "): " + running;
  if (not_started > 0) {
    text += "; " + std::to_string(not_started) + " blocks not started";
  }
  return text;
}

// SIGINT and SIGTERM during a launch: the handler only records the signal
// and wakes the watcher thread, which reports (a handler may not take locks
// or allocate).
constexpr int kStopSignals[] = {SIGINT, SIGTERM};
struct sigaction g_previous_stop[2];
std::atomic<int> g_stop_signal{0};
std::atomic<int> g_launches_running{0};
sem_t g_wake;

// Outside launches: what the handler before ours would have done.
void PassOn(int signal, siginfo_t* info, void* context) {
  const struct sigaction& previous =
      g_previous_stop[signal == kStopSignals[0] ? 0 : 1];
  if ((previous.sa_flags & SA_SIGINFO) != 0) {
    if (previous.sa_sigaction != nullptr) {
      previous.sa_sigaction(signal, info, context);
    }
  } else if (previous.sa_handler == SIG_DFL) {
    sigaction(signal, &previous, nullptr);
    raise(signal);
  } else if (previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signal);
  }
}

void OnStopSignal(int signal, siginfo_t* info, void* context) {
  if (g_launches_running.load() == 0) {
    PassOn(signal, info, context);
    return;
  }
  g_stop_signal.store(signal);
  sem_post(&g_wake);
}

// The thread that watches the running launches' time limits and reports
// them on SIGINT/SIGTERM. One per process, started by the first launch,
// never destroyed (it waits while no launch runs).
class Watcher {
 public:
  static Watcher& Get() {
    static Watcher* const watcher = new Watcher;
    return *watcher;
  }

  void Add(Launch* launch, const TimeLimit& limit) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto now = std::chrono::system_clock::now();
    const auto deadline =
        limit.seconds > 0
            ? now + std::chrono::duration_cast<
                        std::chrono::system_clock::duration>(
                        std::chrono::duration<double>(limit.seconds))
            : std::chrono::system_clock::time_point::max();
    launches_[launch] = Entry{deadline, limit};
    g_launches_running.fetch_add(1);
    // Launches one after another with one limit never wake the watcher:
    // only a deadline before the one it sleeps until does.
    if (deadline < scheduled_) sem_post(&g_wake);
  }

  void Remove(Launch* launch) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (launches_.erase(launch) != 0) g_launches_running.fetch_sub(1);
  }

 private:
  struct Entry {
    std::chrono::system_clock::time_point deadline;
    TimeLimit limit;
  };

  Watcher() {
    sem_init(&g_wake, 0, 0);
    struct sigaction action {};
    action.sa_sigaction = OnStopSignal;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    for (int i = 0; i < 2; ++i) {
      sigaction(kStopSignals[i], &action, &g_previous_stop[i]);
    }
    std::thread([this] { Serve(); }).detach();
  }

  void Serve() {
    for (;;) {
      auto wake = std::chrono::system_clock::time_point::max();
      {
        const std::lock_guard<std::mutex> lock(mutex_);
        for (const auto& [launch, entry] : launches_) {
          wake = std::min(wake, entry.deadline);
        }
        scheduled_ = wake;
      }
      if (wake == std::chrono::system_clock::time_point::max()) {
        while (sem_wait(&g_wake) != 0) {
        }
      } else {
        const auto since_epoch = wake.time_since_epoch();
        const auto secs =
            std::chrono::duration_cast<std::chrono::seconds>(since_epoch);
        timespec until{};
        until.tv_sec = static_cast<time_t>(secs.count());
        until.tv_nsec = static_cast<long>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(since_epoch -
                                                                 secs)
                .count());
        sem_timedwait(&g_wake, &until);
      }
      const int signal = g_stop_signal.exchange(0);
      const std::lock_guard<std::mutex> lock(mutex_);
      if (signal != 0) {
        if (launches_.empty()) {       // the launch just ended
          ::kill(::getpid(), signal);  // to the handler, now outside
          continue;
        }
        for (const auto& [launch, entry] : launches_) {
          ReportUnfinished(*launch,
                           std::string("interrupted by ") +
                               (signal == SIGINT ? "SIGINT" : "SIGTERM"));
        }
        ::_exit(128 + signal);
      }
      const auto now = std::chrono::system_clock::now();
      for (const auto& [launch, entry] : launches_) {
        if (now < entry.deadline) continue;
        ReportUnfinished(*launch, TimeoutHeadline(*launch, entry.limit));
        ::_exit(1);
      }
    }
  }

  std::mutex mutex_;
  std::map<Launch*, Entry> launches_;
  /// When the watcher wakes next (unless posted).
  std::chrono::system_clock::time_point scheduled_ =
      std::chrono::system_clock::time_point::max();
};

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
  static const TimeLimit limit = ReadTimeLimit();
  Watcher::Get().Add(&launch_, limit);
}

void KernelWatchdog::Finish() const { Watcher::Get().Remove(&launch_); }

KernelWatchdog::~KernelWatchdog() { Finish(); }

}  // namespace normgrad_ascendc

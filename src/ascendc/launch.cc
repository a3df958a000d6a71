// launch.cc — the kernel launcher (normgrad_ascendc/launch.h): blocks on
// emulated cores spread over host threads, kernel-error reporting, the
// NORMGRAD_KERNEL_ERRORS policy and the pending launch error.
#include "normgrad_ascendc/launch.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "env_setting.h"
#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/pipe.h"

namespace normgrad_ascendc {

namespace {

constexpr uint32_t kMaxBlocks = 65535;
constexpr size_t kMaxReportedBlocks = 8;

std::atomic<int> g_pending_error{0};
std::atomic<unsigned> g_threads{0};

KernelErrorPolicy ParsePolicy(const char* value) {
  if (value == nullptr || *value == '\0' || std::strcmp(value, "exit") == 0) {
    return KernelErrorPolicy::kExit;
  }
  if (std::strcmp(value, "return") == 0) return KernelErrorPolicy::kReturn;
  std::fprintf(stderr,
               "normgrad: NORMGRAD_KERNEL_ERRORS: unknown value \"%s\"; "
               "valid: exit (default), return; using exit\n",
               value);
  return KernelErrorPolicy::kExit;
}

EnvSetting<KernelErrorPolicy> g_policy{"NORMGRAD_KERNEL_ERRORS", ParsePolicy};

// The failures of one launch, by block index.
class Failures {
 public:
  void Add(uint32_t block, std::string message) {
    const std::lock_guard<std::mutex> lock(mutex_);
    messages_.emplace(block, std::move(message));
  }
  bool empty() const { return messages_.empty(); }

  // Prints the first kMaxReportedBlocks in block order, then a count.
  void Report(const char* name, uint32_t num_blocks) const {
    size_t printed = 0;
    for (const auto& [block, message] : messages_) {
      if (printed == kMaxReportedBlocks) break;
      std::fprintf(stderr, "normgrad: kernel %s block %u/%u: %s\n", name, block,
                   num_blocks, message.c_str());
      ++printed;
    }
    if (messages_.size() > printed) {
      std::fprintf(stderr, "normgrad: kernel %s: %zu more blocks failed\n",
                   name, messages_.size() - printed);
    }
  }

 private:
  std::mutex mutex_;
  std::map<uint32_t, std::string> messages_;
};

// Exits or records the error, as the policy says; returns the code.
int Conclude(KernelErrorPolicy policy, int code) {
  if (policy == KernelErrorPolicy::kExit) {
    std::fflush(stdout);
    std::exit(1);
  }
  g_pending_error.store(code);
  return code;
}

}  // namespace

KernelErrorPolicy GetKernelErrorPolicy() { return g_policy.Get(); }

void SetKernelErrorPolicy(KernelErrorPolicy policy) { g_policy.Set(policy); }

int TakeLaunchError() { return g_pending_error.exchange(0); }

void SetLaunchThreads(unsigned threads) { g_threads.store(threads); }

int RunBlocks(const char* name, uint32_t num_blocks, void (*block)(void*),
              void* context) {
  const KernelErrorPolicy policy = GetKernelErrorPolicy();
  if (num_blocks < 1 || num_blocks > kMaxBlocks) {
    std::fprintf(stderr,
                 "normgrad: kernel %s: numBlocks %u is out of range "
                 "(1..%u)\n",
                 name, num_blocks, kMaxBlocks);
    return Conclude(policy, kInvalidLaunchCode);
  }
  unsigned threads = g_threads.load();
  if (threads == 0) threads = std::thread::hardware_concurrency();
  threads = std::clamp(threads, 1u, num_blocks);

  Failures failures;
  std::atomic<uint32_t> next{0};
  // OpenMP's threads outlive the launch, and so does each one's core: a
  // launch of small blocks costs no thread start and no fresh UB.
#pragma omp parallel num_threads(threads)
  {
    thread_local Core core;  // zeroed where the previous block touched it
    const ScopedCore scope(core);
    for (uint32_t i = next++; i < num_blocks; i = next++) {
      core.SetBlock(i, num_blocks);
      try {
        block(context);
      } catch (const KernelError& e) {
        failures.Add(i, e.what());
      } catch (const std::exception& e) {
        failures.Add(i, std::string("unexpected C++ exception: ") + e.what());
      } catch (...) {
        failures.Add(i, "unexpected C++ exception");
      }
      if (core.pipe() != nullptr) core.DetachPipe(core.pipe());  // leaked
      core.ZeroTouched();
    }
  }

  if (failures.empty()) return 0;
  failures.Report(name, num_blocks);
  return Conclude(policy, kKernelErrorCode);
}

}  // namespace normgrad_ascendc

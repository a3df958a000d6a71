// launch.cc — the kernel launcher (normgrad_ascendc/runtime/launch.h): a
// launch's blocks on emulated cores, each on a host thread of its own (parked
// threads kept between launches) when the launch fits the profile's vector
// cores, else spread over an OpenMP work queue; the shared launch state with
// its deadlock-detecting wait (launch_state.h); kernel-error reporting, the
// NORMGRAD_KERNEL_ERRORS policy and the pending launch error.
#include "normgrad_ascendc/runtime/launch.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "ascendc/runtime/check.h"
#include "ascendc/runtime/env_setting.h"
#include "ascendc/runtime/kernel_guard.h"
#include "ascendc/runtime/launch_state.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/profile.h"

// The bounds of the sections __cube__ and __mix__ place kernels in
// (qualifiers.h), which the linker defines when the program has one; null
// otherwise.
extern "C" {
extern const char __start_normgrad_cube_kernels[]
    __attribute__((weak, visibility("hidden")));
extern const char __stop_normgrad_cube_kernels[]
    __attribute__((weak, visibility("hidden")));
extern const char __start_normgrad_mix11_kernels[]
    __attribute__((weak, visibility("hidden")));
extern const char __stop_normgrad_mix11_kernels[]
    __attribute__((weak, visibility("hidden")));
extern const char __start_normgrad_mix12_kernels[]
    __attribute__((weak, visibility("hidden")));
extern const char __stop_normgrad_mix12_kernels[]
    __attribute__((weak, visibility("hidden")));
}

namespace normgrad_ascendc {

// ---- Launch
// ------------------------------------------------------------------

Launch::Launch(const char* name, uint32_t num_blocks, bool concurrent,
               uint32_t vector_cores, unsigned checks, uint32_t mix_ratio)
    : name_(name),
      num_blocks_(num_blocks * (mix_ratio == 0 ? 1 : 1 + mix_ratio)),
      logical_blocks_(num_blocks),
      mix_ratio_(mix_ratio),
      concurrent_(concurrent),
      vector_cores_(vector_cores),
      race_check_((checks & kCheckRace) != 0 && num_blocks_ > 1),
      sync_check_((checks & kCheckSync) != 0),
      init_check_((checks & kCheckInit) != 0),
      blocks_(num_blocks_),
      running_(num_blocks_) {
  for (uint32_t i = 0; i < num_blocks_; ++i) {
    BlockState& b = blocks_[i];
    b.index = i;
    if (mix_ratio == 0) continue;
    b.cube = i < num_blocks;
    const uint32_t vector = i - num_blocks;
    b.ai_core = b.cube ? i : vector / mix_ratio;
    b.sub_block = b.cube ? 0 : vector % mix_ratio;
  }
  if (sync_check_ || init_check_) {
    g_sync_check_on.store(true, std::memory_order_relaxed);
  }
}

void Launch::RequireConcurrent(const char* api) const {
  if (concurrent_) return;
  const ProfileInfo& profile = GetProfileInfo(CurrentProfile());
  Fail(
      "%s: the launch has numBlocks %u, more than the %u vector cores of the "
      "%s profile (%s); blocks that synchronize with each other must all run "
      "at once, so such a launch may have at most as many blocks as the "
      "profile has vector cores (the device would hang)",
      api, num_blocks_, vector_cores_, profile.key, profile.name);
}

std::string Launch::CoreName(uint32_t i) const {
  if (mix_ratio_ == 0) return "block " + std::to_string(i);
  if (blocks_[i].cube) return "AIC " + std::to_string(i);
  return "AIV " + std::to_string(i - logical_blocks_);
}

std::string Launch::CoreTitle(uint32_t i) const {
  uint32_t of = num_blocks_;
  if (mix_ratio_ != 0) {
    of = blocks_[i].cube ? logical_blocks_ : logical_blocks_ * mix_ratio_;
  }
  return CoreName(i) + "/" + std::to_string(of);
}

void Launch::RequireSingleKind(const char* api) const {
  if (mix_ratio_ == 0) return;
  Fail(
      "%s: not emulated in a mixed cube-and-vector kernel yet (1:%u); "
      "synchronize its cores with CrossCoreSetFlag/CrossCoreWaitFlag",
      api, mix_ratio_);
}

bool Launch::Stuck() const {
  if (waiting_ != running_) return false;
  for (const BlockState& b : blocks_) {
    if (!b.waiting_in.empty() && b.checked != generation_) return false;
  }
  return true;
}

std::string Launch::DeadlockMessage(const BlockState& self) const {
  std::string text =
      "deadlock: every block still running waits and none can proceed; this "
      "block waits in " +
      blocks_[self.index].waiting_in;
  if (num_blocks_ == 1) return text + " and is the only block";
  text += " (";
  const char* separator = "";
  for (uint32_t i = 0; i < num_blocks_; ++i) {
    if (i == self.index) continue;
    text += separator + CoreName(i) + " " + deadlock_picture_[i];
    separator = "; ";
  }
  return text + ")";
}

void Launch::Wait(BlockState& self, const std::string& what,
                  const std::function<bool()>& ready) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (ready()) return;
  self.waiting_in = what;
  ++waiting_;
  while (!ready()) {
    if (deadlocked_) {
      const std::string message = DeadlockMessage(self);
      // Stay counted as waiting: the other blocks build their messages from
      // the same picture.
      lock.unlock();
      Fail("%s", message.c_str());
    }
    self.checked = generation_;
    if (Stuck()) {
      deadlocked_ = true;
      for (const BlockState& b : blocks_) {
        deadlock_picture_.push_back(b.ended ? "ended"
                                            : "waits in " + b.waiting_in);
      }
      changed_.notify_all();
      continue;
    }
    changed_.wait(lock);
  }
  --waiting_;
  self.waiting_in.clear();
}

void Launch::Change(const std::function<void()>& change) {
  const std::lock_guard<std::mutex> lock(mutex_);
  change();
  ++generation_;
  changed_.notify_all();
}

void Launch::BlockStarted(uint32_t i, const ApiCallTrace& api_calls) {
  const std::lock_guard<std::mutex> lock(mutex_);
  blocks_[i].running = true;
  blocks_[i].api_calls = &api_calls;
}

void Launch::BlockEnded(uint32_t i) {
  const std::lock_guard<std::mutex> lock(mutex_);
  blocks_[i].running = false;
  blocks_[i].ended = true;
  --running_;
  ++generation_;
  changed_.notify_all();
}

void Launch::FlushPending(uint32_t first, uint32_t last) {
  for (uint32_t i = first; i < last; ++i) {
    BlockState& b = blocks_[i];
    for (const PendingWrite& w : b.pending) {
      ApplyWrite(w.dst, w.data.data(), w.data.size(), w.mode);
    }
    b.pending.clear();
    b.pending_begin = UINTPTR_MAX;
    b.pending_end = 0;
  }
}

namespace {

thread_local Launch* t_launch = nullptr;
thread_local BlockState* t_block = nullptr;
thread_local std::unique_ptr<Launch> t_own_launch;

}  // namespace

Launch& CurrentLaunch() {
  if (t_launch != nullptr) return *t_launch;
  if (!t_own_launch) {
    t_own_launch = std::make_unique<Launch>("(outside a launch)", 1, true, 1);
  }
  return *t_own_launch;
}

BlockState& CurrentBlock() {
  if (t_block != nullptr) return *t_block;
  return CurrentLaunch().block(0);
}

ScopedBlock::ScopedBlock(Launch& launch, uint32_t block)
    : previous_launch_(t_launch), previous_block_(t_block) {
  t_launch = &launch;
  t_block = &launch.block(block);
}

ScopedBlock::~ScopedBlock() {
  t_launch = previous_launch_;
  t_block = previous_block_;
}

Launch* RunningLaunch() { return t_launch; }
const BlockState* RunningBlock() { return t_block; }

std::string CallSiteText() {
  const CallSite* site = CurrentCallSite();
  if (site == nullptr) return "";
  return std::string(site->file) + ":" + std::to_string(site->line);
}

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

  // Prints the first kMaxReportedBlocks in block order, then a count; each
  // core named as Launch::CoreTitle says.
  void Report(const Launch& launch) const {
    size_t printed = 0;
    for (const auto& [block, message] : messages_) {
      if (printed == kMaxReportedBlocks) break;
      std::fprintf(stderr, "normgrad: kernel %s %s: %s\n", launch.name(),
                   launch.CoreTitle(block).c_str(), message.c_str());
      ++printed;
    }
    if (messages_.size() > printed) {
      std::fprintf(stderr, "normgrad: kernel %s: %zu more blocks failed\n",
                   launch.name(), messages_.size() - printed);
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

// A kernel of a plain launch stated a mixed type (DeclareMixedKernel): the
// block stops and the launch starts again as a mixed one. Not a
// std::exception, so that nothing on the way treats it as a failure.
struct MixedRelaunch {
  uint32_t ratio;
};

// A block that ends before its kernel returns (EndBlockHere). Not a
// std::exception, for the reason MixedRelaunch is not.
struct BlockEnd {};

// The role (core.h) of block i of `launch`; `cube` for a launch of cube
// cores.
CoreRole RoleOf(const Launch& launch, uint32_t i, bool cube) {
  const uint32_t ratio = launch.mix_ratio();
  if (ratio == 0) return CoreRole{cube, false, 0, 1, 1};
  const BlockState& b = launch.block(i);
  if (b.cube) return CoreRole{true, true, 0, 1, 1};
  return CoreRole{false, true, b.sub_block, ratio, ratio};
}

// Runs block i of `launch` on the calling thread, on the thread's core.
// Cores outlive the launch: a launch of small blocks costs no fresh UB.
void RunBlock(Launch& launch, uint32_t i, bool cube, void (*block)(void*),
              void* context, Failures& failures,
              std::atomic<uint32_t>& relaunch) {
  thread_local Core core;  // zeroed where the previous block touched it
  PrepareThreadForBlocks();
  const ScopedCore scope(core);
  const ScopedBlock current(launch, i);
  // A cube core's GetBlockIdx() is its AI Core, a vector core's its index
  // among the vector cores.
  const uint32_t cubes = launch.logical_blocks();
  const uint32_t idx = launch.mix_ratio() == 0 || i < cubes ? i : i - cubes;
  core.SetBlock(idx, cubes, RoleOf(launch, i, cube));
  launch.block(i).core = &core;
  launch.BlockStarted(i, ThisThreadApiCalls());
  try {
    block(context);
    FinishSyncCheck(launch.block(i));
  } catch (const BlockEnd&) {
    FinishSyncCheck(launch.block(i));
  } catch (const MixedRelaunch& request) {
    relaunch.store(request.ratio);
  } catch (const KernelError& e) {
    failures.Add(i, e.what());
  } catch (const std::exception& e) {
    failures.Add(i, std::string("unexpected C++ exception: ") + e.what());
  } catch (...) {
    failures.Add(i, "unexpected C++ exception");
  }
  launch.BlockEnded(i);
  if (core.pipe() != nullptr) core.DetachPipe(core.pipe());  // leaked
  core.ZeroTouched();
}

// Host threads parked between launches, one per block of a concurrent
// launch beyond the first (which runs on the calling thread). The pool grows
// to the largest such launch and lives until the process ends.
class BlockThreads {
 public:
  static BlockThreads& Get() {
    static BlockThreads* const pool = new BlockThreads;  // never destroyed:
    return *pool;  // its threads stay parked while the process exits
  }

  // Runs job(i) for every i in [0, count): 0 on the calling thread, the
  // others on parked threads; returns when all have returned.
  void Run(uint32_t count, const std::function<void(uint32_t)>& job) {
    const std::lock_guard<std::mutex> one_launch(run_mutex_);
    while (workers_.size() + 1 < count) {
      workers_.push_back(std::make_unique<Worker>());
      Worker* w = workers_.back().get();
      w->thread = std::thread([this, w] { Serve(*w); });
      w->thread.detach();
    }
    {
      const std::lock_guard<std::mutex> lock(done_mutex_);
      remaining_ = count - 1;
    }
    for (uint32_t i = 1; i < count; ++i) {
      Worker& w = *workers_[i - 1];
      const std::lock_guard<std::mutex> lock(w.mutex);
      w.job = &job;
      w.index = i;
      w.wake.notify_one();
    }
    job(0);
    std::unique_lock<std::mutex> lock(done_mutex_);
    done_.wait(lock, [this] { return remaining_ == 0; });
  }

 private:
  struct Worker {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable wake;
    const std::function<void(uint32_t)>* job = nullptr;
    uint32_t index = 0;
  };

  void Serve(Worker& w) {
    for (;;) {
      const std::function<void(uint32_t)>* job;
      uint32_t index;
      {
        std::unique_lock<std::mutex> lock(w.mutex);
        w.wake.wait(lock, [&w] { return w.job != nullptr; });
        job = w.job;
        index = w.index;
        w.job = nullptr;
      }
      (*job)(index);
      const std::lock_guard<std::mutex> lock(done_mutex_);
      if (--remaining_ == 0) done_.notify_one();
    }
  }

  std::mutex run_mutex_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::mutex done_mutex_;
  std::condition_variable done_;
  uint32_t remaining_ = 0;
};

}  // namespace

KernelErrorPolicy GetKernelErrorPolicy() { return g_policy.Get(); }

void SetKernelErrorPolicy(KernelErrorPolicy policy) { g_policy.Set(policy); }

int TakeLaunchError() { return g_pending_error.exchange(0); }

void SetLaunchThreads(unsigned threads) { g_threads.store(threads); }

namespace {

bool InSection(const void* function, const char* start, const char* stop) {
  const char* at = static_cast<const char*>(function);
  return start != nullptr && at >= start && at < stop;
}

const char* MixedTypeName(uint32_t ratio) {
  return ratio == 1 ? "KERNEL_TYPE_MIX_AIC_1_1" : "KERNEL_TYPE_MIX_AIC_1_2";
}

// Whether the profile can start num_blocks AI Cores of a mixed kernel with
// `ratio` vector cores each; else prints why.
bool MixedLaunchFits(const char* name, uint32_t num_blocks, uint32_t ratio) {
  const ProfileInfo& profile = GetProfileInfo(CurrentProfile());
  if (profile.profile == Profile::k310P) {
    std::fprintf(stderr,
                 "normgrad: kernel %s: %s starts cube and vector cores "
                 "together, but the %s profile (%s) has AI Cores that hold "
                 "both units, not separate cube and vector cores; its kernels "
                 "are KERNEL_TYPE_AICORE or KERNEL_TYPE_MIX_VECTOR_CORE\n",
                 name, MixedTypeName(ratio), profile.key, profile.name);
    return false;
  }
  if (num_blocks > profile.aic_cores ||
      num_blocks * ratio > profile.aiv_cores) {
    std::fprintf(stderr,
                 "normgrad: kernel %s: numBlocks %u of a %s kernel starts %u "
                 "cube cores and %u vector cores, more than the %u cube and "
                 "%u vector cores of the %s profile (%s)\n",
                 name, num_blocks, MixedTypeName(ratio), num_blocks,
                 num_blocks * ratio, profile.aic_cores, profile.aiv_cores,
                 profile.key, profile.name);
    return false;
  }
  return true;
}

}  // namespace

KernelCores KernelCoresOf(const void* function) {
  if (InSection(function, __start_normgrad_cube_kernels,
                __stop_normgrad_cube_kernels)) {
    return KernelCores::kCube;
  }
  if (InSection(function, __start_normgrad_mix11_kernels,
                __stop_normgrad_mix11_kernels)) {
    return KernelCores::kMix1To1;
  }
  if (InSection(function, __start_normgrad_mix12_kernels,
                __stop_normgrad_mix12_kernels)) {
    return KernelCores::kMix1To2;
  }
  return KernelCores::kVector;
}

bool IsCubeKernel(const void* function) {
  return KernelCoresOf(function) == KernelCores::kCube;
}

void EndBlockHere(const char* api) {
  if (RunningLaunch() == nullptr) {
    Fail(
        "%s: ends the block of a kernel; call it inside a kernel that a "
        "launch runs",
        api);
  }
  CurrentBlock().ended_by = api;
  throw BlockEnd{};
}

void DeclareMixedKernel(uint32_t ratio) {
  Launch* launch = RunningLaunch();
  if (launch == nullptr) {
    Fail(
        "KERNEL_TASK_TYPE_DEFAULT: %s starts cube and vector cores together; "
        "state it inside a kernel that a launch runs",
        MixedTypeName(ratio));
  }
  if (launch->mix_ratio() == ratio) return;  // the launch runs as stated
  if (launch->mix_ratio() != 0) {
    Fail(
        "KERNEL_TASK_TYPE_DEFAULT: %s differs from the %s the kernel runs as "
        "(its __mix__ qualifier or an earlier statement)",
        MixedTypeName(ratio), MixedTypeName(launch->mix_ratio()));
  }
  if (CurrentCore().pipe() != nullptr) {
    Fail(
        "KERNEL_TASK_TYPE_DEFAULT: the core already has a TPipe as a %s "
        "core; state the kernel type before creating the TPipe",
        CurrentCore().is_cube() ? "cube" : "vector");
  }
  throw MixedRelaunch{ratio};
}

int RunBlocks(const char* name, uint32_t num_blocks, KernelCores cores,
              void (*block)(void*), void* context) {
  const KernelErrorPolicy policy = GetKernelErrorPolicy();
  if (num_blocks < 1 || num_blocks > kMaxBlocks) {
    std::fprintf(stderr,
                 "normgrad: kernel %s: numBlocks %u is out of range "
                 "(1..%u)\n",
                 name, num_blocks, kMaxBlocks);
    return Conclude(policy, kInvalidLaunchCode);
  }
  const uint32_t mix_ratio = cores == KernelCores::kMix1To1   ? 1
                             : cores == KernelCores::kMix1To2 ? 2
                                                              : 0;
  if (mix_ratio != 0 && !MixedLaunchFits(name, num_blocks, mix_ratio)) {
    return Conclude(policy, kInvalidLaunchCode);
  }
  std::string check_error;
  const unsigned checks = EnabledChecks(&check_error);
  if (!check_error.empty()) {
    std::fprintf(stderr, "normgrad: kernel %s: %s\n", name,
                 check_error.c_str());
    return Conclude(policy, kInvalidLaunchCode);
  }
  const uint32_t vector_cores = GetProfileInfo(CurrentProfile()).aiv_cores;
  // A mixed launch fits the profile (checked above): its cores run at once.
  const bool concurrent = mix_ratio != 0 || num_blocks <= vector_cores;
  const bool cube = cores == KernelCores::kCube;
  std::atomic<uint32_t> relaunch{0};
  Launch launch(name, num_blocks, concurrent, vector_cores, checks, mix_ratio);
  const uint32_t count = launch.num_blocks();
  Failures failures;
  InstallKernelSignalHandlers();
  const KernelWatchdog watchdog(launch);

  if (concurrent) {
    BlockThreads::Get().Run(count, [&](uint32_t i) {
      RunBlock(launch, i, cube, block, context, failures, relaunch);
    });
  } else {
    unsigned threads = g_threads.load();
    if (threads == 0) threads = std::thread::hardware_concurrency();
    threads = std::clamp(threads, 1u, count);
    std::atomic<uint32_t> next{0};
#pragma omp parallel num_threads(threads)
    for (uint32_t i = next++; i < count; i = next++) {
      RunBlock(launch, i, cube, block, context, failures, relaunch);
    }
  }
  watchdog.Finish();
  // The kernel stated a mixed type: run it again on cube and vector cores
  // (what this run did before the statement is dropped but for its GM
  // writes; docs/cube.md, "Cube cores").
  if (relaunch.load() != 0) {
    return RunBlocks(
        name, num_blocks,
        relaunch.load() == 1 ? KernelCores::kMix1To1 : KernelCores::kMix1To2,
        block, context);
  }
  launch.FlushPending(0, count);
  PrintBlockOutputs(launch);

  // Races and sync findings are reported after the blocks' own failures,
  // which stopped them.
  std::vector<std::string> races = launch.race_check()
                                       ? FindRaces(launch, kMaxReportedBlocks)
                                       : std::vector<std::string>();
  if (launch.sync_check()) {
    for (std::string& line : SyncReports(launch, kMaxReportedBlocks)) {
      races.push_back(std::move(line));
    }
  }
  if (launch.init_check()) {
    for (std::string& line : InitReports(launch, kMaxReportedBlocks)) {
      races.push_back(std::move(line));
    }
  }
  if (failures.empty() && races.empty()) return 0;
  failures.Report(launch);
  for (const std::string& race : races) {
    const std::string line =
        std::string("normgrad: kernel ") + name + ": " + race;
    std::fprintf(stderr, "%s\n", line.c_str());
    LogCheckReport(line);
  }
  return Conclude(policy, kKernelErrorCode);
}

}  // namespace normgrad_ascendc

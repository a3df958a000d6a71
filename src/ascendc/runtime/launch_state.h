// launch_state.h — the state one kernel launch shares between its blocks
// (internal to src/ascendc): each block's buffered debug output, atomic mode
// and pending atomic writes, and the one lock under which blocks wait for
// each other (SyncAll, IBWait, CrossCoreWaitFlag, WaitPreBlock,
// GroupBarrier, the cube resource groups' messages) with
// deadlock detection. launch.cc creates one per launch; block_sync.cc,
// atomic.cc, gm_store.cc and debug.cc reach it through CurrentLaunch() and
// CurrentBlock(). Code running outside any launch (a test calling an API
// directly, host code) gets a launch of its own thread: one block, nothing
// deferred.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ascendc/runtime/init_check.h"
#include "ascendc/runtime/race_check.h"
#include "ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/atomic.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {

/// A block's atomic mode (SetAtomicAdd and the like).
struct AtomicMode {
  AtomicModeOp op = AtomicModeOp::kNone;
  AscendC::AtomicDtype type = AscendC::AtomicDtype::ATOMIC_NONE;
  /// A half or bfloat16_t result saturates (ctrl_spr.h: the FLOAT mode
  /// when the write was made; a deferred write keeps it).
  bool saturate = false;
};

/// One deferred write into global memory, in the block's program order.
struct PendingWrite {
  uint8_t* dst;
  std::vector<uint8_t> data;
  AtomicMode mode;   ///< op kNone: a plain write replayed after earlier atomics
  std::string site;  ///< "<file>:<line>" of the call, for messages
};

/// One GroupBarrier of a launch (block_sync.cc): how often each index of
/// the arrive group arrived and each index of the wait group waited.
struct GroupBarrierState {
  std::vector<uint64_t> arrivals;
  std::vector<uint64_t> waits;
};

/// The per-block state of a launch.
struct BlockState {
  uint32_t index = 0;  ///< the launch's own numbering of its cores
  /// In a mixed cube-and-vector launch: whether the block runs on a cube
  /// core, the logical AI Core it belongs to and its sub-block there.
  bool cube = false;
  uint32_t ai_core = 0;
  uint32_t sub_block = 0;
  /// The core the block runs on, from its start (a cube core writes into
  /// its vector cores' UBs: cube/cube_ub_handover.h).
  Core* core = nullptr;
  bool running = false;  ///< started and not ended
  bool ended = false;
  /// The API that ended the block before its kernel returned
  /// (EndBlockHere), or null: messages about a core that ended early.
  const char* ended_by = nullptr;
  /// The API calls of the thread running the block (from its start).
  const ApiCallTrace* api_calls = nullptr;
  // Debug output (under mutex()), printed in block order when the launch
  // ends.
  std::string output;
  bool at_line_start = true;
  // Atomics.
  AtomicMode atomic;
  std::vector<PendingWrite> pending;
  uintptr_t pending_begin = UINTPTR_MAX;  ///< span of the pending writes
  uintptr_t pending_end = 0;
  // Waiting: what the block waits in ("SyncAll at k.asc:12"), empty when it
  // runs; the wake-up generation it last checked its condition in.
  std::string waiting_in;
  uint64_t checked = 0;
  // Cross-block synchronization counters.
  uint64_t sync_all_calls = 0;
  uint64_t notify_calls = 0;
  uint64_t wait_pre_calls = 0;
  /// CrossCoreSetFlag and CrossCoreWaitFlag calls by (modeId, flagId).
  std::map<std::pair<uint8_t, uint16_t>, uint64_t> cross_sets;
  std::map<std::pair<uint8_t, uint16_t>, uint64_t> cross_waits;
  // Intra-core mutex IDs taken with AllocMutexID, and locked ones.
  uint32_t mutex_ids = 0;
  uint32_t mutex_locked = 0;
  // The race check's log and clock (race_check.h), when it runs.
  RaceClock race;
  // The sync check's pipes and findings (sync_check.h), when it runs.
  SyncState sync;
  // The init check's UB bytes and findings (init_check.h), when it runs.
  InitState init;
};

/// The shared state of one launch. Its blocks use it from their threads;
/// everything marked "under mutex()" is read and written with it held.
class Launch {
 public:
  /// `concurrent`: every block has a thread of its own, so blocks may wait
  /// for each other.
  /// `checks`: the CheckBits this launch runs (check.h).
  /// `mix_ratio`: 0 for a launch of one kind of core; 1 or 2 for a mixed
  /// launch of num_blocks logical AI Cores, each one cube core and
  /// mix_ratio vector cores (blocks 0 .. num_blocks − 1 are the cube cores,
  /// then the vector cores in order).
  Launch(const char* name, uint32_t num_blocks, bool concurrent,
         uint32_t vector_cores, unsigned checks = 0, uint32_t mix_ratio = 0);
  Launch(const Launch&) = delete;
  Launch& operator=(const Launch&) = delete;

  const char* name() const { return name_; }
  /// The emulated cores the launch runs (in a mixed launch more than the
  /// kernel's numBlocks: see the constructor).
  uint32_t num_blocks() const { return num_blocks_; }
  /// The kernel's numBlocks (GetBlockNum()).
  uint32_t logical_blocks() const { return logical_blocks_; }
  /// 0, or the vector cores per AI Core of a mixed launch.
  uint32_t mix_ratio() const { return mix_ratio_; }
  /// "block 3", or in a mixed launch "AIC 1" / "AIV 3" (the core's kind
  /// and its GetBlockIdx()), for messages.
  std::string CoreName(uint32_t i) const;
  /// CoreName(i) with the count of its kind: "block 3/4", "AIV 3/4".
  std::string CoreTitle(uint32_t i) const;
  /// Fails (KernelError) in a mixed launch: `api` synchronizes the blocks
  /// of a launch of one kind of core only.
  void RequireSingleKind(const char* api) const;
  /// The race check runs (NORMGRAD_CHECK=race and more than one block).
  bool race_check() const { return race_check_; }
  /// The sync check runs (NORMGRAD_CHECK=sync).
  bool sync_check() const { return sync_check_; }
  /// The init check runs (NORMGRAD_CHECK=init).
  bool init_check() const { return init_check_; }
  BlockState& block(uint32_t i) { return blocks_[i]; }
  const BlockState& block(uint32_t i) const { return blocks_[i]; }
  /// Atomic writes are deferred (logged and applied in block order) when
  /// more than one block could race on them.
  bool defers_atomics() const { return num_blocks_ > 1; }

  /// Fails (KernelError) unless the blocks of this launch may wait for each
  /// other: `api` is the synchronizing call.
  void RequireConcurrent(const char* api) const;

  /// Blocks `self` until `ready()` (evaluated under the lock) holds.
  /// `what` says what it waits in. When every running block waits and no
  /// condition can become true any more, each waiting block fails with a
  /// deadlock message instead of hanging.
  void Wait(BlockState& self, const std::string& what,
            const std::function<bool()>& ready);
  /// Runs `change` under the lock and wakes the waiting blocks to re-check.
  void Change(const std::function<void()>& change);

  /// A block started or ended (launch.cc).
  void BlockStarted(uint32_t i, const ApiCallTrace& api_calls);
  void BlockEnded(uint32_t i);

  /// Applies the pending writes of blocks [first, last) in block order and
  /// clears them; under the lock, with those blocks not running code.
  void FlushPending(uint32_t first, uint32_t last);

  /// Under mutex(): state of the cross-block APIs (block_sync.cc).
  /// SyncAll round -> (the blocks that arrived, how many are expected).
  std::map<uint64_t, std::pair<std::vector<uint32_t>, uint32_t>> sync_rounds;
  std::map<std::tuple<const void*, int32_t, int32_t>, bool> ib_flags;
  /// GroupBarriers by workspace address.
  std::map<const void*, GroupBarrierState> group_barriers;
  /// The race check's synchronization channels (race_check.h).
  std::map<std::string, std::vector<uint32_t>> race_channels;
  /// The cube resource groups of the launch (cube/cube_res_group.cc, which
  /// alone knows the type), created at their first use.
  std::shared_ptr<void> cube_res_groups;
  /// A cube core's writes into its vector cores' UBs
  /// (cube/cube_ub_handover.cc, which alone knows the type), at the first.
  std::shared_ptr<void> cube_ub_writes;

  std::mutex& mutex() { return mutex_; }

 private:
  // True when every running block waits and has checked its condition
  // since the last change: nothing can wake any of them.
  bool Stuck() const;
  std::string DeadlockMessage(const BlockState& self) const;

  const char* name_;
  uint32_t num_blocks_;
  uint32_t logical_blocks_;
  uint32_t mix_ratio_;
  bool concurrent_;
  uint32_t vector_cores_;
  bool race_check_;
  bool sync_check_;
  bool init_check_;
  std::vector<BlockState> blocks_;
  std::mutex mutex_;
  std::condition_variable changed_;
  uint64_t generation_ = 1;
  uint32_t running_ = 0;
  uint32_t waiting_ = 0;
  bool deadlocked_ = false;
  /// What each block did when the deadlock was found, for the messages.
  std::vector<std::string> deadlock_picture_;
};

/// The launch the calling thread runs a block of, or the thread's own
/// one-block launch outside any.
Launch& CurrentLaunch();
/// The block the calling thread runs (of CurrentLaunch()).
BlockState& CurrentBlock();

/// Makes (launch, block) the calling thread's current block for the scope
/// (launch.cc, around each block).
class ScopedBlock {
 public:
  ScopedBlock(Launch& launch, uint32_t block);
  ~ScopedBlock();
  ScopedBlock(const ScopedBlock&) = delete;
  ScopedBlock& operator=(const ScopedBlock&) = delete;

 private:
  Launch* previous_launch_;
  BlockState* previous_block_;
};

/// The launch and block the calling thread runs, or null outside a launch
/// (the signal handler and the watchdog, kernel_guard.cc).
Launch* RunningLaunch();
const BlockState* RunningBlock();

/// "<file>:<line>" of the outermost open API call, or "" (messages).
std::string CallSiteText();

/// The bytes of one element of an atomic type, and "SetAtomicAdd<float>"
/// (atomic.cc, for messages).
uint32_t AtomicElementBytes(AscendC::AtomicDtype type);
std::string AtomicModeName(const AtomicMode& mode);

/// Applies one write to global memory under `mode` (atomic.cc).
void ApplyWrite(uint8_t* dst, const uint8_t* src, uint64_t bytes,
                AtomicMode mode);

/// What a block does after it returned from a wait for other blocks and
/// took the race check's acquire (block_sync.cc), for a part of src/ascendc
/// that writes into another block's core while it runs: the cube's L0C ->
/// UB writes hand themselves to the vector core's init check
/// (cube/cube_ub_handover.cc registers its hook as its object is loaded;
/// a program that cannot make such writes has none). One hook: a second
/// registration replaces the first.
using WaitReturnHook = void (*)(Launch& launch, BlockState& self);
void SetWaitReturnHook(WaitReturnHook hook);

/// Prints every block's buffered output in block order on stdout and clears
/// it (debug.cc): at the end of a launch and before its error lines.
void PrintBlockOutputs(Launch& launch);
/// The same with launch.mutex() already held by the caller, or from a signal
/// handler (plain write calls after flushing stdout).
void WriteBlockOutputs(Launch& launch);

}  // namespace normgrad_ascendc

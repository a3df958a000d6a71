// normgrad_ascendc/runtime/sync_check.h — the hooks of the sync check
// (NORMGRAD_CHECK=sync; docs/checks.md): what the APIs tell it about the
// unified-buffer bytes they read and write, on which pipe, and the pipe
// synchronizations. Every hook sits behind SyncCheckOn(), one relaxed load
// of a flag that the first launch running the check sets: with the check
// off, an API pays that test and nothing else.
//
// The hooks are called from the layers every API passes through: the data
// movement (DataCopy, DataCopyPad: MTE2 writes UB, MTE3 reads it), the
// vector executor (V), LocalTensor's GetValue/SetValue (S), the overlap
// declarations of the advanced APIs (ub_ranges.h: V), the queues and buffers
// (pipe.cc) and the synchronization APIs (sync.h, block_sync.cc).
//
// The init check (NORMGRAD_CHECK=init) learns through the same hooks: what
// they say is written, and the reads a hook gives as exact (the bytes the
// call reads, no more), plus the allocations that hand UB bytes out
// (NoteUbAllocation) and every TensorView::data() pointer an API takes
// (NoteUbData: the call may write through it).
//
// CheckLocalMemoryIA's exception registers (local_memory_ia.cc) look at
// every UB access NoteUbAccess is told of; arming one turns the hooks on.
#pragma once

#include <atomic>
#include <cstdint>

namespace normgrad_ascendc {

struct TensorView;

/// The pipes the check orders (the vector core's; the cube's are not
/// modelled).
enum class SyncPipe : uint8_t { kS, kV, kMte2, kMte3, kCount, kNone = kCount };

/// Set once, by the first launch that runs the sync or the init check
/// (launch.cc), or the first CheckLocalMemoryIA that arms a register.
extern std::atomic<bool> g_sync_check_on;

/// Whether any launch runs the sync or the init check, or a register of
/// CheckLocalMemoryIA was armed: the hooks test this first.
inline bool SyncCheckOn() {
  return g_sync_check_on.load(std::memory_order_relaxed);
}

/// Calls of the C API are not followed (the pointer-based C API orders its
/// pipes by its own rules, docs/capi.md): a C API call holds one of these
/// for its scope, and the hooks ignore what happens inside.
/// The init check cannot tell what such a call writes: after one, it
/// reports no read of its block's UB (NoteCApiCall).
extern thread_local int t_sync_paused;
void NoteCApiCall();
class SyncCheckPause {
 public:
  SyncCheckPause() : paused_(SyncCheckOn()) {
    if (paused_) {
      ++t_sync_paused;
      NoteCApiCall();
    }
  }
  ~SyncCheckPause() {
    if (paused_) --t_sync_paused;
  }
  SyncCheckPause(const SyncCheckPause&) = delete;
  SyncCheckPause& operator=(const SyncCheckPause&) = delete;

 private:
  bool paused_;
};

/// `api` on `pipe` reads or writes bytes [offset, offset + bytes) of the
/// calling block's UB (offset from the UB's start). `api` is copied.
/// `exact`: a read of these bytes and no fewer (not a span that covers
/// masked-off lanes or stride gaps); only such reads go to the init check.
void NoteUbAccess(SyncPipe pipe, const char* api, uint64_t offset,
                  uint64_t bytes, bool write, bool exact = false);
/// The same for the first `bytes` bytes of `tensor`, from `from` bytes in.
void NoteTensorAccess(SyncPipe pipe, const char* api, const TensorView& tensor,
                      uint64_t from, uint64_t bytes, bool write,
                      bool exact = false);

/// An allocation hands out UB bytes [offset, offset + bytes) of the
/// calling block's core: the init check takes them as unwritten. `owner`
/// names them ("buffer 0 of TQue<VECIN, 1>"), `api` the call
/// ("AllocTensor"); both are copied.
void NoteUbAllocation(uint32_t offset, uint64_t bytes, const char* owner,
                      const char* api);
/// An API took a pointer to `view`'s bytes (TensorView::data()): the init
/// check takes them as written once the API call ends.
void NoteUbData(const TensorView& view);
/// An outermost API call begins (core.cc): the bytes NoteUbData gave
/// before it count as written.
void FlushUbData();

/// While one is open on a thread, NoteUbData records nothing: the code that
/// runs tells the hooks every UB byte it writes (the vector executor, for
/// an instruction whose results all go to its destination operand).
extern thread_local int t_ub_writes_declared;
class UbWritesDeclared {
 public:
  explicit UbWritesDeclared(bool declared) : declared_(declared) {
    if (declared_) ++t_ub_writes_declared;
  }
  ~UbWritesDeclared() {
    if (declared_) --t_ub_writes_declared;
  }
  UbWritesDeclared(const UbWritesDeclared&) = delete;
  UbWritesDeclared& operator=(const UbWritesDeclared&) = delete;

 private:
  bool declared_;
};
/// A copy on MTE2 reads, or on MTE3 writes, GM bytes [p, p + bytes).
void NoteGmCopy(SyncPipe pipe, const char* api, const void* p, uint64_t bytes);

/// The kinds of UB access CheckLocalMemoryIA's exception registers tell
/// apart (a register holds a set of them): GetValue/SetValue are scalar,
/// the vector instructions vector, the copies MTE (a copy into the UB
/// writes it, out of the UB reads it).
enum IaKind : uint8_t {
  kIaScalarRead = 1,
  kIaScalarWrite = 2,
  kIaVectorRead = 4,
  kIaVectorWrite = 8,
  kIaMteRead = 16,
  kIaMteWrite = 32,
};
/// CheckLocalMemoryIA: arms (or, with `enable` false, clears) exception
/// register `reg` of the calling block's core for the accesses of `kinds`
/// (IaKind bits) to 32-byte units (start, end] of the UB. Arming one turns
/// the hooks on (g_sync_check_on) for the rest of the process.
void SetLocalMemoryIA(uint32_t reg, uint32_t start, uint32_t end, uint8_t kinds,
                      bool enable);
/// `api` accesses UB bytes [offset, offset + bytes) of the calling block in
/// the way `kind` says: a KernelError when an armed exception register of
/// the block catches it. NoteUbAccess calls it for every access it is told
/// of; the copies UB -> UB, which the sync check does not follow, call it
/// themselves.
void CheckLocalMemoryAccess(IaKind kind, const char* api, uint64_t offset,
                            uint64_t bytes);

/// SetFlag<event>(id) (set) or WaitFlag<event>(id): `event` a HardEvent
/// value.
void SyncFlag(bool set, uint8_t event, int32_t id);
/// TQueSync<src, dst>::SetFlag / WaitFlag (pipe_t values).
void SyncQueSyncFlag(bool set, uint8_t src, uint8_t dst, int32_t id);
/// PipeBarrier<pipe> (a pipe_t value; PIPE_ALL orders every pipe), and the
/// synchronizations that wait for every pipe (SyncAll and the other
/// cross-block waits).
void SyncPipeBarrier(uint8_t pipe);
/// TPipe::AllocEventID / ReleaseEventID of `event` (a HardEvent value).
void SyncAllocEventId(uint8_t event);
void SyncReleaseEventId(uint8_t event);

/// The queue events, for a buffer at UB `offset` of a queue from logical
/// position `src` to `dst` (TPosition values; a TQue has src == dst).
enum class QueueEvent : uint8_t { kAlloc, kEnQue, kDeQue, kFree };
void SyncQueueEvent(QueueEvent event, uint8_t src, uint8_t dst,
                    uint32_t offset);

}  // namespace normgrad_ascendc

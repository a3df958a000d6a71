// normgrad_ascendc/runtime/pipe.h — TPipe, TQue, TQueBind, TBuf, TBufPool,
// PopStackBuffer and GetTPipePtr: the allocations of an emulated core's
// unified buffer (UB) (docs/runtime.md, "Pipe, queues and framework
// scratch" and "Memory and queues").
//
// A TPipe carves buffers for queues (TQue, TQueBind) and plain buffers (TBuf)
// out of one pool shared by VECIN, VECOUT and VECCALC: consecutively in call
// order, from UB offset 0 up to the profile's scratch end, each length
// rounded up to 32 bytes, at most 64 buffers per pipe. A TBufPool is a part
// of that pool (TPipe::InitBufPool) carved the same way, or one sharing
// another pool's memory; buffers and smaller pools are carved from it. What
// is left after the pipe's last carving is the framework scratch that
// PopStackBuffer returns.
//
// Lifetimes. Every tensor handed out by a queue (AllocTensor, DeQue) or a
// TBuf (Get, GetWithOffset) remembers its buffer's generation
// (TensorView::lease, tensor.h). FreeTensor ends the tensors of that buffer;
// TBufPool::Reset those of the pool's buffers; TPipe::Reset, Destroy and the
// destructor end every tensor of the pipe and the queues, buffers and pools
// it carved, which may be given memory again (InitBuffer) afterwards.
//
// On a cube core (cube/cube_memory.h) a pipe carves the cube memories
// instead, one region each (A1, B1 and C1 share L1), each buffer's length
// rounded up to its memory's alignment; a UB position there, or a cube
// position on a vector core, is a KernelError. Using
// an ended tensor is a KernelError naming the call, the tensor's buffer and
// what ended it.
//
// A queue of depth n holds at most n tensors between EnQue and DeQue (n
// EnQue calls in a row); depth 0 (in-place use) is not limited.
//
// Misuse is a KernelError (core.h) naming the queue, e.g.
//   "TPipe::InitBuffer: TQue<VECIN, 2> #3 requests 2 x 65536 bytes, which
//    exceeds the unified buffer: 61440 of 196480 bytes left (profile Atlas
//    A2/A3)".
// Queues and buffers are named by their type and the number of the InitBuffer
// call that gave them memory (#1 is the pipe's first).
//
// SPM buffer (InitSpmBuffer, WriteSpmBuffer, ReadSpmBuffer): a pipe's area
// for data the UB has no room for: bufferSize bytes of a GM workspace the
// kernel names, or, on the Atlas inference series and training products
// only, bufferSize bytes the pipe keeps itself (the L1 form). Copies move
// whole 32-byte blocks (DataCopyParams) or a count of elements between a
// LocalTensor and the area at a byte offset; a copy past either end is a
// KernelError. The area ends with the pipe (Destroy, Reset, the destructor).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// Buffers a TPipe can hand out, over all its queues and TBufs.
inline constexpr uint32_t kMaxPipeBuffers = 64;

/// A queue's or buffer's name for messages, e.g. "TQue<VECIN, 2> #3".
struct Name {
  char text[48];
};

/// What a core's pipes have in common across their lives: a counter that
/// grows each time the core's pipe ends or resets (queues and pools compare
/// it with the value they were given memory under) and what ended it last.
/// One per core, never freed (pipe.cc), so stale objects can read it.
struct PipeLife {
  uint64_t epoch = 1;
  const char* ended_by = "";
};

/// A stretch of the UB carved front to back: a pipe's pool or a TBufPool.
struct Region {
  uint32_t base = 0;
  uint32_t size = 0;
  uint32_t used = 0;
};

/// The state of a queue (TQue, TQueBind), independent of its template
/// arguments: its buffers (consecutive in the UB, each `len` bytes long,
/// placed `len` rounded up to 32 apart), which of them are free, allocated,
/// queued or dequeued, and the queue order.
class QueueState {
 public:
  /// A TQue at `position` (bind = false), or a TQueBind from src to dst.
  QueueState(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth,
             bool bind);

  /// Takes a free buffer (round robin). None free: an error.
  TensorView Alloc();
  /// Queues an allocated or dequeued buffer of this queue.
  void EnQue(const TensorView& tensor);
  /// Takes the oldest queued buffer, as it was queued. Empty: an error.
  TensorView DeQue();
  /// Returns an allocated or dequeued buffer of this queue.
  void Free(const TensorView& tensor);

  bool HasIdleBuffer(const char* api) const;
  int32_t QueuedCount(const char* api) const;
  bool Vacant(const char* api) const;

  Name name() const;

 private:
  friend class AscendC::TPipe;
  enum class State : uint8_t { kFree, kAllocated, kQueued, kDequeued };

  /// The index of the buffer `tensor` starts at; an error if none does.
  uint32_t BufferOf(const char* api, const TensorView& tensor) const;
  /// An error unless the queue has memory from a pipe that has not ended.
  void CheckLive(const char* api) const;
  /// An error if `tensor` ended (its buffer was freed since it was handed
  /// out, even if the buffer was allocated again).
  void CheckTensor(const char* api, const TensorView& tensor) const;
  /// Tells the sync check of an event of the buffer at UB `offset`.
  void NoteQueueEvent(QueueEvent event, uint32_t offset) const;

  AscendC::TPosition src_;
  AscendC::TPosition dst_;
  AscendC::TPosition position_;  ///< where its buffers live
  int32_t depth_;
  bool bind_;
  Core* core_ = nullptr;
  const PipeLife* life_ = nullptr;
  uint64_t epoch_ = 0;         ///< life_->epoch when it got memory
  uint32_t request_ = 0;       ///< the InitBuffer call number; 0 before it
  uint32_t buffer_bytes_ = 0;  ///< len
  /// Each buffer's UB offset (a custom TBufPool places them one by one).
  uint32_t buffer_offset_[kMaxPipeBuffers] = {};
  /// Custom pools: which buffers InitBufHandle placed so far.
  bool placed_[kMaxPipeBuffers] = {};
  uint32_t count_ = 0;
  uint32_t next_ = 0;  ///< where the round-robin search for a free one starts
  State state_[kMaxPipeBuffers] = {};
  BufferLease* lease_[kMaxPipeBuffers] = {};
  uint32_t queued_bytes_[kMaxPipeBuffers] = {};  ///< length when queued
  uint8_t fifo_[kMaxPipeBuffers] = {};           ///< buffer indices, ring
  uint32_t fifo_head_ = 0;
  uint32_t fifo_size_ = 0;
};

/// The state of a TBuf: one region of the UB, `len` bytes long.
class BufferState {
 public:
  explicit BufferState(AscendC::TPosition position) : position_(position) {}

  /// `count` elements of `elem_bytes` bytes, `offset` bytes into the buffer
  /// (a multiple of 32); more than the buffer holds is an error. `api` names
  /// the call in messages.
  TensorView Get(const char* api, const char* type_name, uint32_t count,
                 uint32_t elem_bytes, uint32_t offset) const;
  /// The whole buffer.
  TensorView GetAll() const;

  Name name() const;

 private:
  friend class AscendC::TPipe;
  void CheckInitialized(const char* api) const;

  AscendC::TPosition position_;
  Core* core_ = nullptr;
  const PipeLife* life_ = nullptr;
  uint64_t epoch_ = 0;
  BufferLease* lease_ = nullptr;
  uint32_t request_ = 0;
  uint32_t offset_ = 0;
  uint32_t bytes_ = 0;
};

/// The state of a TBufPool: its region of the UB and the leases of the
/// buffers carved from it (which Reset ends).
class PoolState {
 public:
  explicit PoolState(AscendC::TPosition position) : position_(position) {}

  Name name() const;
  /// Ends the tensors of the pool's buffers (TBufPool::Reset).
  void Reset();
  /// The pipe the pool was carved from; an error (naming `api`) if the pool
  /// has no memory or its pipe ended since.
  AscendC::TPipe* pipe(const char* api) const;

 private:
  friend class AscendC::TPipe;
  AscendC::TPosition position_;
  AscendC::TPipe* pipe_ = nullptr;
  const PipeLife* life_ = nullptr;
  uint64_t epoch_ = 0;
  uint32_t request_ = 0;
  Region region_;
  uint32_t leases_ = 0;
  BufferLease* lease_[kMaxPipeBuffers] = {};
};

class CustomPoolState;

/// One of a custom TBufPool's buffer handles (TBufHandle points at one).
struct BufSlot {
  CustomPoolState* pool = nullptr;
  uint32_t index = 0;
};

/// A custom TBufPool's state (EXTERN_IMPL_BUFPOOL): the pool's region (a
/// PoolState carved by TPipe::InitBufPool), its BUFID_SIZE handles and the
/// two counters the pool's own InitBuffer keeps (GetCurAddr,
/// GetCurBufSize).
class CustomPoolState {
 public:
  CustomPoolState(AscendC::TPosition position, uint32_t handles);
  CustomPoolState(const CustomPoolState&) = delete;
  CustomPoolState& operator=(const CustomPoolState&) = delete;

  PoolState& pool() { return pool_; }
  uint8_t* Handle(uint32_t offset);
  /// The slot `handle` + `index`; an error naming `api` if it is not one of
  /// a live custom pool's handles.
  static BufSlot& SlotOf(const char* api, uint8_t* handle, uint32_t index);

  uint32_t cur_addr = 0;
  uint8_t cur_buf_size = 0;

 private:
  PoolState pool_;
  uint32_t handles_;
  BufSlot slots_[kMaxPipeBuffers];
};

/// The 950's loop-mode registers (SetLoopModePara), one per direction
/// (DataCopyMVType: 0 UB to GM, 1 GM to UB): registers of the core, kept
/// in its TPipe, as is the value DataCopyPad pads with (PadRegister,
/// SetPadValue).
struct LoopModeRegister {
  bool set[2] = {false, false};
  AscendC::LoopModeParams params[2];
};
/// The value DataCopyPad pads with (SetPadValue).
struct PadRegister {
  bool set = false;
  uint8_t value[8] = {};
};

/// The framework scratch of the current core (PopStackBuffer): from the end
/// of its pipe's buffers (0 without a pipe) to the profile's scratch end.
/// The caller will write at most its first `written` bytes (the core zeroes
/// them after the block: Core::Touch).
TensorView FrameworkScratch(AscendC::TPosition position, uint64_t written);

/// A custom TBufPool's calls on a queue or TBuf (pipe.cc):
/// InitStartBufHandle (the buffers' count and length, from `handle` on) and
/// InitBufHandle (buffer `index` at byte `addr` of `owner`'s region).
void StartBufHandles(QueueState& que, uint8_t* handle, uint8_t num,
                     uint32_t len);
void StartBufHandles(BufferState& buf, uint8_t* handle, uint8_t num,
                     uint32_t len);
void PlaceBufHandle(QueueState& que, CustomPoolState& owner, uint32_t index,
                    uint8_t* handle, uint32_t addr, uint32_t len);
void PlaceBufHandle(BufferState& buf, CustomPoolState& owner, uint32_t index,
                    uint8_t* handle, uint32_t addr, uint32_t len);

/// Base of the queue classes: what TPipe and TBufPool give memory to.
class QueueBase {
 public:
  QueueState& queue_state() { return state_; }

 protected:
  QueueBase(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth,
            bool bind)
      : state_(src, dst, depth, bind) {}
  QueueState state_;
};

template <typename Q>
inline constexpr bool kIsQueue = std::is_base_of_v<QueueBase, Q>;

}  // namespace normgrad_ascendc

namespace AscendC {

/// A custom TBufPool's buffer handle (GetBufHandle).
using TBufHandle = uint8_t*;

/// A queue from logical position `src` to `dst` of `depth` (see the file
/// comment) over buffers that TPipe::InitBuffer or TBufPool::InitBuffer
/// gives it; the buffers live in the UB position of the two.
template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : public normgrad_ascendc::QueueBase {
 public:
  TQueBind() : QueueBase(src, dst, depth, true) {}

  /// A free buffer as a tensor of its whole length.
  template <typename T>
  LocalTensor<T> AllocTensor(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return LocalTensor<T>(state_.Alloc());
  }
  /// Appends an allocated (or dequeued) tensor of this queue.
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor,
             normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    state_.EnQue(tensor.view());
    return true;
  }
  /// Removes and returns the oldest queued tensor.
  template <typename T>
  LocalTensor<T> DeQue(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return LocalTensor<T>(state_.DeQue());
  }
  /// Returns a tensor's buffer to the queue's free buffers; every tensor of
  /// that buffer ends.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    state_.Free(tensor.view());
  }
  /// Whether a buffer is free for AllocTensor.
  bool HasIdleBuffer(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return state_.HasIdleBuffer("HasIdleBuffer");
  }
  /// Whether a tensor is queued.
  bool HasTensorInQue(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return state_.QueuedCount("HasTensorInQue") > 0;
  }
  /// The number of queued tensors.
  int32_t GetTensorCountInQue(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return state_.QueuedCount("GetTensorCountInQue");
  }
  /// Whether another EnQue fits in the queue's depth.
  bool VacantInQue(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return state_.Vacant("VacantInQue");
  }
  /// Releases the queue's synchronization events: nothing to do on the CPU.
  void FreeAllEvent() {}

  /// For a custom TBufPool's InitBuffer: the queue gets `num` buffers of
  /// `len` bytes, the pool's handles from `startBufhandle` on; each is then
  /// placed with InitBufHandle.
  void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len,
                          normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::StartBufHandles(state_, startBufhandle, num, len);
  }
  /// Places buffer `index` at byte `curPoolAddr` of `bufPool`'s memory.
  template <typename T>
  void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle,
                     uint32_t curPoolAddr, uint32_t len,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::PlaceBufHandle(state_, bufPool->custom_pool_state(),
                                     index, bufhandle, curPoolAddr, len);
  }

 protected:
  TQueBind(TPosition s, TPosition d, int32_t n, bool bind)
      : QueueBase(s, d, n, bind) {}
};

/// The usual queue: at `pos`, bound to GM on its other side.
template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBind<pos, TPosition::GM, depth, mask> {
 public:
  TQue() : TQueBind<pos, TPosition::GM, depth, mask>(pos, pos, depth, false) {}
};

template <TPosition pos, uint32_t bufIDSize>
class TBufPool;

/// A plain buffer, for temporaries.
template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  /// The whole buffer.
  template <typename T>
  LocalTensor<T> Get(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return LocalTensor<T>(state_.GetAll());
  }
  /// The buffer's first `count` elements.
  template <typename T>
  LocalTensor<T> Get(uint32_t count, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    static_assert(normgrad_ascendc::kElementsPerByte<PrimT<T>> == 0,
                  "TBuf: the element-count forms of Get take whole-byte "
                  "types; for int4b_t take Get<int4b_t>() or a uint8_t "
                  "tensor's ReinterpretCast<int4b_t>()");
    return LocalTensor<T>(state_.Get("Get",
                                     normgrad_ascendc::TypeName<PrimT<T>>(),
                                     count, sizeof(PrimT<T>), 0));
  }
  /// The whole buffer, as Get: a TBuf has one buffer, its own for the
  /// pipe's life, so allocating takes nothing from a pool.
  template <typename T>
  LocalTensor<T> AllocTensor(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    return LocalTensor<T>(state_.GetAll());
  }
  /// Ends a use of the buffer that AllocTensor began; the tensor must still
  /// be live (its pipe not ended). Nothing returns to a pool.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    tensor.view().Check("TBuf::FreeTensor");
  }
  /// For a custom TBufPool's InitBuffer (as TQueBind's; num must be 1).
  void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len,
                          normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::StartBufHandles(state_, startBufhandle, num, len);
  }
  /// Places the buffer at byte `curPoolAddr` of `bufPool`'s memory.
  template <typename T>
  void InitBufHandle(T* bufPool, uint32_t index, TBufHandle bufhandle,
                     uint32_t curPoolAddr, uint32_t len,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::PlaceBufHandle(state_, bufPool->custom_pool_state(),
                                     index, bufhandle, curPoolAddr, len);
  }
  /// `size` elements from `bufOffset` bytes (a multiple of 32) in.
  template <typename T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset,
                               normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    static_assert(normgrad_ascendc::kElementsPerByte<PrimT<T>> == 0,
                  "TBuf: the element-count forms of Get take whole-byte "
                  "types; for int4b_t take Get<int4b_t>() or a uint8_t "
                  "tensor's ReinterpretCast<int4b_t>()");
    return LocalTensor<T>(state_.Get("GetWithOffset",
                                     normgrad_ascendc::TypeName<PrimT<T>>(),
                                     size, sizeof(PrimT<T>), bufOffset));
  }

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;
  normgrad_ascendc::BufferState state_{pos};
};

/// A part of the pipe's pool (TPipe::InitBufPool) that queues, buffers and
/// smaller pools are carved from; bufIDSize is accepted and not used.
template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
 public:
  /// Carves a pool of `len` bytes (rounded up to 32) from this one.
  template <class Pool>
  bool InitBufPool(Pool& bufPool, uint32_t len,
                   normgrad_ascendc::CallSite site = {});
  /// A pool of `len` bytes over the memory of `shareBuf`, a pool carved
  /// before (both are used in turn, with Reset between).
  template <class Pool, class Share>
  bool InitBufPool(Pool& bufPool, uint32_t len, Share& shareBuf,
                   normgrad_ascendc::CallSite site = {});
  /// Gives `que` `num` buffers of `len` bytes from this pool.
  template <class Q, std::enable_if_t<normgrad_ascendc::kIsQueue<Q>, int> = 0>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len,
                  normgrad_ascendc::CallSite site = {});
  /// Gives `buf` `len` bytes from this pool.
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len,
                  normgrad_ascendc::CallSite site = {});
  /// Ends the tensors of this pool's buffers before its memory is used by a
  /// pool that shares it; the queues and buffers stay and may be used again.
  void Reset(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    state_.Reset();
  }

  /// normgrad: the pool's state.
  normgrad_ascendc::PoolState& pool_state() { return state_; }

 private:
  normgrad_ascendc::PoolState state_{pos};
};

/// Owns the allocations of the current core's UB. One per core at a time.
class TPipe {
 public:
  TPipe();
  ~TPipe();
  TPipe(const TPipe&) = delete;
  TPipe& operator=(const TPipe&) = delete;

  /// Gives `que` `num` buffers of `len` bytes, each placed at a multiple of
  /// 32 bytes (the pool advances by len rounded up to 32).
  template <class Q, std::enable_if_t<normgrad_ascendc::kIsQueue<Q>, int> = 0>
  bool InitBuffer(Q& que, uint8_t num, uint32_t len,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    InitQueue(que.queue_state(), nullptr, num, len);
    return true;
  }
  /// Gives `buf` `len` bytes (the pool advances by len rounded up to 32).
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len,
                  normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    InitBuf(buf.state_, nullptr, len);
    return true;
  }
  /// Carves a TBufPool of `len` bytes (rounded up to 32).
  template <class Pool>
  bool InitBufPool(Pool& bufPool, uint32_t len,
                   normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    InitPool(bufPool.pool_state(), nullptr, nullptr, len);
    return true;
  }
  /// A TBufPool of `len` bytes over the memory of the pool `shareBuf`.
  template <class Pool, class Share>
  bool InitBufPool(Pool& bufPool, uint32_t len, Share& shareBuf,
                   normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    InitPool(bufPool.pool_state(), nullptr, &shareBuf.pool_state(), len);
    return true;
  }

  /// Makes the pipe the core's again after Destroy (the constructor does it
  /// once; on a pipe that was not destroyed it does nothing). Another TPipe
  /// alive on the core is then a KernelError, as in the constructor.
  void Init(normgrad_ascendc::CallSite site = {});
  /// Releases every buffer: the tensors, queues, buffers and pools the pipe
  /// gave memory end, and the core is free for another TPipe. The pipe
  /// gives memory again (InitBuffer, InitBufPool) only after Init.
  void Destroy(normgrad_ascendc::CallSite site = {});
  /// Destroy without the barrier over every pipe the device puts first;
  /// the same on the CPU, where instructions finish in program order.
  void DestroyWithoutPipeAll(normgrad_ascendc::CallSite site = {});
  /// The first byte of `logicPos`'s memory: the core's emulated UB for
  /// VECIN, VECOUT and VECCALC (a tensor's offset there is its address minus
  /// this); other positions have no emulated memory and are a KernelError.
  uint8_t* GetBaseAddr(int8_t logicPos, normgrad_ascendc::CallSite site = {});

  /// Makes `bufferSize` bytes of GM from `workspace`'s address this pipe's
  /// SPM buffer (bufferSize > 0 and, when workspace has a size, inside it).
  template <typename T>
  void InitSpmBuffer(const GlobalTensor<T>& workspace, const int32_t bufferSize,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    InitSpm(reinterpret_cast<uint8_t*>(workspace.GetPhyAddr()),
            workspace.base(),
            workspace.sized() ? workspace.GetSize() * sizeof(T) : UINT64_MAX,
            bufferSize);
  }
  /// An SPM buffer of `bufferSize` bytes the pipe keeps (the L1 form; not
  /// on Atlas A2/A3 or the 950, as the page says).
  void InitSpmBuffer(const int32_t bufferSize,
                     normgrad_ascendc::CallSite site = {});
  /// Copies blocks of `writeBuffer` into the SPM buffer at byte
  /// `writeOffset` (srcGap between blocks in the UB, dstGap in the SPM).
  template <typename T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer,
                      const DataCopyParams& copyParams, int32_t writeOffset = 0,
                      normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    SpmBlocks("WriteSpmBuffer", normgrad_ascendc::TypeName<T>(),
              writeBuffer.view(), copyParams, writeOffset, true);
  }
  /// Copies `writeSize` elements of `writeBuffer` into the SPM buffer at
  /// byte `writeOffset`.
  template <typename T>
  void WriteSpmBuffer(const LocalTensor<T>& writeBuffer,
                      const int32_t writeSize, int32_t writeOffset = 0,
                      normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    SpmRun("WriteSpmBuffer", normgrad_ascendc::TypeName<T>(),
           writeBuffer.view(), writeSize, sizeof(T), writeOffset, true);
  }
  /// Copies blocks from the SPM buffer at byte `readOffset` into
  /// `readBuffer` (srcGap between blocks in the SPM, dstGap in the UB).
  template <typename T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer,
                     const DataCopyParams& copyParams, int32_t readOffset = 0,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    SpmBlocks("ReadSpmBuffer", normgrad_ascendc::TypeName<T>(),
              readBuffer.view(), copyParams, readOffset, false);
  }
  /// Copies `readSize` elements from the SPM buffer at byte `readOffset`
  /// into `readBuffer`.
  template <typename T>
  void ReadSpmBuffer(const LocalTensor<T>& readBuffer, const int32_t readSize,
                     int32_t readOffset = 0,
                     normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    SpmRun("ReadSpmBuffer", normgrad_ascendc::TypeName<T>(), readBuffer.view(),
           readSize, sizeof(T), readOffset, false);
  }

  /// Returns the pipe to its initial state, as Destroy and Init together.
  void Reset(normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    if (core_->pipe() != this) return Init(site);
    End("TPipe::Reset");
  }

  /// An event identifier for SetFlag/WaitFlag on `evt`. Events have no
  /// effect on the emulated core (sync.h), so this is always EVENT_ID0.
  template <HardEvent evt>
  TEventID FetchEventID() {
    return EVENT_ID0;
  }
  TEventID FetchEventID(HardEvent evt) {
    static_cast<void>(evt);
    return EVENT_ID0;
  }
  /// An event identifier reserved for `evt` until ReleaseEventID; as with
  /// FetchEventID, always EVENT_ID0 (events have no effect here). The sync
  /// check counts the identifiers a block holds.
  template <HardEvent evt>
  TEventID AllocEventID(normgrad_ascendc::CallSite site = {}) {
    if (normgrad_ascendc::SyncCheckOn()) {
      const normgrad_ascendc::ApiCall call(site);
      normgrad_ascendc::SyncAllocEventId(static_cast<uint8_t>(evt));
    }
    return EVENT_ID0;
  }
  /// Returns an identifier from AllocEventID.
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    static_cast<void>(id);
    if (normgrad_ascendc::SyncCheckOn()) {
      normgrad_ascendc::SyncReleaseEventId(static_cast<uint8_t>(evt));
    }
  }

  /// normgrad: bytes carved so far (where the framework scratch starts).
  uint32_t used_bytes() const { return region_.used; }
  /// normgrad: the core's pad value register (data_copy_pad.h).
  normgrad_ascendc::PadRegister& pad_register() { return pad_register_; }
  /// normgrad: the core's loop-mode registers (data_copy.h).
  normgrad_ascendc::LoopModeRegister& loop_mode() { return loop_mode_; }

  // normgrad: a custom TBufPool's handles (StartBufHandles, PlaceBufHandle).
  void StartHandles(normgrad_ascendc::QueueState* que,
                    normgrad_ascendc::BufferState* buf,
                    normgrad_ascendc::BufSlot& start, uint8_t num,
                    uint32_t len);
  void PlaceHandle(normgrad_ascendc::QueueState* que,
                   normgrad_ascendc::BufferState* buf,
                   normgrad_ascendc::CustomPoolState& owner, uint32_t index,
                   uint32_t addr, uint32_t len);

  // normgrad: carving for TPipe and TBufPool (`pool` null: the pipe's own
  // region).
  void InitQueue(normgrad_ascendc::QueueState& que,
                 normgrad_ascendc::PoolState* pool, uint8_t num, uint32_t len);
  void InitBuf(normgrad_ascendc::BufferState& buf,
               normgrad_ascendc::PoolState* pool, uint32_t len);
  void InitPool(normgrad_ascendc::PoolState& sub,
                normgrad_ascendc::PoolState* pool,
                normgrad_ascendc::PoolState* share, uint32_t len);

 private:
  /// Carves num buffers of len bytes rounded up to 32 for `who` from the
  /// pipe's region or `pool`'s; returns the first one's offset and sets
  /// *stride to the rounded length. `api` names the call in messages.
  uint32_t Carve(const char* api, const normgrad_ascendc::Name& who,
                 normgrad_ascendc::PoolState* pool, uint32_t num, uint32_t len,
                 uint32_t* stride, TPosition position);
  /// Carve for a cube position: from the front of its cube memory, each
  /// length rounded up to the memory's alignment (cube/cube_memory.h).
  uint32_t CarveCube(const char* api, const normgrad_ascendc::Name& who,
                     uint32_t num, uint32_t len, uint32_t* stride,
                     TPosition position);
  /// An error unless a queue or buffer at `position` can have memory here:
  /// a UB position on a vector core, a cube position on a cube core (not
  /// from a TBufPool).
  void CheckPosition(const char* api, const normgrad_ascendc::Name& who,
                     TPosition position,
                     const normgrad_ascendc::PoolState* pool);
  /// The lease record of the buffer at `offset`, named for messages.
  normgrad_ascendc::BufferLease* Lease(normgrad_ascendc::PoolState* pool,
                                       uint32_t offset,
                                       const normgrad_ascendc::Name& owner,
                                       uint32_t index, TPosition position);
  /// Ends the pipe for Destroy and DestroyWithoutPipeAll (`by` names it).
  void DestroyAs(const char* by);
  /// The SPM buffer's setup and copies (pipe.cc).
  void InitSpm(uint8_t* gm, const void* base, uint64_t limit, int32_t bytes);
  void SpmBlocks(const char* api, const char* type,
                 const normgrad_ascendc::TensorView& local,
                 const DataCopyParams& params, int32_t offset, bool write);
  void SpmRun(const char* api, const char* type,
              const normgrad_ascendc::TensorView& local, int32_t count,
              uint32_t elem_bytes, int32_t offset, bool write);
  /// The SPM area's first byte; an error naming `api` before InitSpmBuffer.
  uint8_t* SpmArea(const char* api, const char* type);

  /// An error if the pool's pipe ended since the pool got its memory.
  void CheckPool(const char* api, const normgrad_ascendc::PoolState& pool);
  /// Ends every tensor, queue, buffer and pool of the pipe; `by` names the
  /// call in later messages.
  void End(const char* by);

  normgrad_ascendc::Core* core_;
  normgrad_ascendc::PipeLife* life_;
  normgrad_ascendc::Region region_;
  /// The cube memories' regions (a cube core's pipe), by CubeMemory.
  normgrad_ascendc::Region cube_regions_[normgrad_ascendc::kCubeMemoryCount];
  uint32_t buffers_ = 0;
  uint32_t requests_ = 0;
  normgrad_ascendc::BufferLease* leases_[normgrad_ascendc::kMaxPipeBuffers] =
      {};
  normgrad_ascendc::PadRegister pad_register_;
  normgrad_ascendc::LoopModeRegister loop_mode_;
  /// The SPM buffer: GM (gm, the workspace's base for the GM checks) or
  /// the pipe's own bytes (l1); bytes 0 before InitSpmBuffer.
  struct Spm {
    uint8_t* gm = nullptr;
    const void* base = nullptr;
    std::vector<uint8_t> l1;
    uint32_t bytes = 0;
  } spm_;
};

template <TPosition pos, uint32_t bufIDSize>
template <class Pool>
bool TBufPool<pos, bufIDSize>::InitBufPool(Pool& bufPool, uint32_t len,
                                           normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  state_.pipe("TBufPool::InitBufPool")
      ->InitPool(bufPool.pool_state(), &state_, nullptr, len);
  return true;
}

template <TPosition pos, uint32_t bufIDSize>
template <class Pool, class Share>
bool TBufPool<pos, bufIDSize>::InitBufPool(Pool& bufPool, uint32_t len,
                                           Share& shareBuf,
                                           normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  state_.pipe("TBufPool::InitBufPool")
      ->InitPool(bufPool.pool_state(), &state_, &shareBuf.pool_state(), len);
  return true;
}

template <TPosition pos, uint32_t bufIDSize>
template <class Q, std::enable_if_t<normgrad_ascendc::kIsQueue<Q>, int>>
bool TBufPool<pos, bufIDSize>::InitBuffer(Q& que, uint8_t num, uint32_t len,
                                          normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  state_.pipe("TBufPool::InitBuffer")
      ->InitQueue(que.queue_state(), &state_, num, len);
  return true;
}

template <TPosition pos, uint32_t bufIDSize>
template <TPosition bufPos>
bool TBufPool<pos, bufIDSize>::InitBuffer(TBuf<bufPos>& buf, uint32_t len,
                                          normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  state_.pipe("TBufPool::InitBuffer")->InitBuf(buf.state_, &state_, len);
  return true;
}

/// The current core's pipe, or null.
inline TPipe* GetTPipePtr() { return normgrad_ascendc::CurrentCore().pipe(); }

/// Sets `out` to the framework scratch: the UB from the end of the pipe's
/// buffers to the profile's scratch end. Consumes nothing (a second call
/// returns the same region). False when nothing is left (out is then empty).
template <typename T, TPosition pos>
bool PopStackBuffer(LocalTensor<T>& out) {
  out = LocalTensor<T>(normgrad_ascendc::FrameworkScratch(pos, UINT64_MAX));
  return out.view().bytes != 0;
}

}  // namespace AscendC

// Programs call GetTPipePtr() unqualified without `using namespace AscendC`
// (docs/program-surface.md, "Unqualified framework calls").
using AscendC::GetTPipePtr;

/// Makes the class it is written in a custom TBufPool at POSITION with
/// BUFID_SIZE buffer handles: Init, Reset, GetBufHandle, GetCurAddr,
/// SetCurAddr, GetCurBufSize and SetCurBufSize (and what TPipe::InitBufPool
/// and InitBufHandle need). The class's own InitBuffer functions place its
/// queues' and buffers' memory (InitStartBufHandle, InitBufHandle). Leaves
/// the class in its public part.
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                 \
 private:                                                                      \
  static_assert(                                                               \
      (BUFID_SIZE) > 0 && (BUFID_SIZE) <= ::normgrad_ascendc::kMaxPipeBuffers, \
      "EXTERN_IMPL_BUFPOOL: BUFID_SIZE must be 1 to 64");                      \
  ::normgrad_ascendc::CustomPoolState normgrad_custom_pool_{(POSITION),        \
                                                            (BUFID_SIZE)};     \
                                                                               \
 public:                                                                       \
  ::normgrad_ascendc::PoolState& pool_state() {                                \
    return normgrad_custom_pool_.pool();                                       \
  }                                                                            \
  ::normgrad_ascendc::CustomPoolState& custom_pool_state() {                   \
    return normgrad_custom_pool_;                                              \
  }                                                                            \
  void Init() {                                                                \
    normgrad_custom_pool_.cur_addr = 0;                                        \
    normgrad_custom_pool_.cur_buf_size = 0;                                    \
  }                                                                            \
  void Reset(::normgrad_ascendc::CallSite site = {}) {                         \
    const ::normgrad_ascendc::ApiCall call(site);                              \
    normgrad_custom_pool_.pool().Reset();                                      \
  }                                                                            \
  ::AscendC::TBufHandle GetBufHandle(uint8_t offset,                           \
                                     ::normgrad_ascendc::CallSite site = {}) { \
    const ::normgrad_ascendc::ApiCall call(site);                              \
    return normgrad_custom_pool_.Handle(offset);                               \
  }                                                                            \
  uint32_t GetCurAddr() { return normgrad_custom_pool_.cur_addr; }             \
  void SetCurAddr(uint32_t curAddr) {                                          \
    normgrad_custom_pool_.cur_addr = curAddr;                                  \
  }                                                                            \
  uint8_t GetCurBufSize() { return normgrad_custom_pool_.cur_buf_size; }       \
  void SetCurBufSize(uint8_t curBufSize) {                                     \
    normgrad_custom_pool_.cur_buf_size = curBufSize;                           \
  }

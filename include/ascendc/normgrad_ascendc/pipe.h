// normgrad_ascendc/pipe.h — TPipe, TQue, TBuf, PopStackBuffer and
// GetTPipePtr: the allocations of an emulated core's unified buffer (UB).
//
// A TPipe carves buffers for queues (TQue) and plain buffers (TBuf) out of
// one pool shared by VECIN, VECOUT and VECCALC: consecutively in call order,
// from UB offset 0 up to the profile's scratch end, each length rounded up to
// 32 bytes, at most 64 buffers per pipe. What is left after the last buffer
// is the framework scratch that PopStackBuffer returns.
//
// Misuse is a KernelError (core.h) naming the queue, e.g.
//   "TPipe::InitBuffer: TQue<VECIN, 2> #3 requests 2 x 65536 bytes, which
//    exceeds the unified buffer: 61440 of 196480 bytes left (profile Atlas
//    A2/A3)".
// Queues and buffers are named by their type and the number of the InitBuffer
// call that gave them memory (#1 is the pipe's first).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/position.h"
#include "normgrad_ascendc/sync.h"
#include "normgrad_ascendc/tensor.h"

namespace normgrad_ascendc {

/// Buffers a TPipe can hand out, over all its queues and TBufs.
inline constexpr uint32_t kMaxPipeBuffers = 64;

/// A queue's or buffer's name for messages, e.g. "TQue<VECIN, 2> #3".
struct Name {
  char text[48];
};

/// The state of a TQue, independent of its template arguments: its buffers
/// (consecutive in the UB, each `len` bytes long, placed `len` rounded up to
/// 32 apart), which of them are free, allocated, queued or dequeued, and the
/// queue order.
class QueueState {
 public:
  QueueState(AscendC::TPosition position, int32_t depth)
      : position_(position), depth_(depth) {}

  /// Takes a free buffer (round robin). None free: an error.
  TensorView Alloc();
  /// Queues an allocated or dequeued buffer of this queue.
  void EnQue(const TensorView& tensor);
  /// Takes the oldest queued buffer, as it was queued. Empty: an error.
  TensorView DeQue();
  /// Returns an allocated or dequeued buffer of this queue.
  void Free(const TensorView& tensor);

  Name name() const;

 private:
  friend class AscendC::TPipe;
  enum class State : uint8_t { kFree, kAllocated, kQueued, kDequeued };

  /// The index of the buffer `tensor` starts at; an error if none does.
  uint32_t BufferOf(const char* api, const TensorView& tensor) const;

  AscendC::TPosition position_;
  int32_t depth_;
  Core* core_ = nullptr;
  uint32_t request_ = 0;  ///< the InitBuffer call number; 0 before it
  uint32_t first_offset_ = 0;
  uint32_t buffer_stride_ = 0;  ///< len rounded up to 32
  uint32_t buffer_bytes_ = 0;   ///< len
  uint32_t count_ = 0;
  uint32_t next_ = 0;  ///< where the round-robin search for a free one starts
  State state_[kMaxPipeBuffers] = {};
  uint32_t queued_bytes_[kMaxPipeBuffers] = {};  ///< length when queued
  uint8_t fifo_[kMaxPipeBuffers] = {};           ///< buffer indices, ring
  uint32_t fifo_head_ = 0;
  uint32_t fifo_size_ = 0;
};

/// The state of a TBuf: one region of the UB, `len` bytes long.
class BufferState {
 public:
  explicit BufferState(AscendC::TPosition position) : position_(position) {}

  /// The buffer's first `count` elements of `elem_bytes` bytes; more than it
  /// holds is an error.
  TensorView Get(const char* type_name, uint32_t count,
                 uint32_t elem_bytes) const;
  /// The whole buffer.
  TensorView GetAll() const;

  Name name() const;

 private:
  friend class AscendC::TPipe;
  void CheckInitialized(const char* api) const;

  AscendC::TPosition position_;
  Core* core_ = nullptr;
  uint32_t request_ = 0;
  uint32_t offset_ = 0;
  uint32_t bytes_ = 0;
};

/// The value DataCopyPad pads with (SetPadValue): a register of the core,
/// kept in its TPipe.
struct PadRegister {
  bool set = false;
  uint8_t value[8] = {};
};

/// The framework scratch of the current core (PopStackBuffer): from the end
/// of its pipe's buffers (0 without a pipe) to the profile's scratch end.
/// The caller will write at most its first `written` bytes (the core zeroes
/// them after the block: Core::Touch).
TensorView FrameworkScratch(AscendC::TPosition position, uint64_t written);

}  // namespace normgrad_ascendc

namespace AscendC {

/// A queue of `depth` (kept for messages; not enforced) over buffers that
/// TPipe::InitBuffer gives it.
template <TPosition pos, int32_t depth>
class TQue {
 public:
  /// A free buffer as a tensor of its whole length.
  template <typename T>
  LocalTensor<T> AllocTensor() {
    return LocalTensor<T>(state_.Alloc());
  }
  /// Appends an allocated (or dequeued) tensor of this queue.
  template <typename T>
  bool EnQue(const LocalTensor<T>& tensor) {
    state_.EnQue(tensor.view());
    return true;
  }
  /// Removes and returns the oldest queued tensor.
  template <typename T>
  LocalTensor<T> DeQue() {
    return LocalTensor<T>(state_.DeQue());
  }
  /// Returns a tensor's buffer to the queue's free buffers.
  template <typename T>
  void FreeTensor(const LocalTensor<T>& tensor) {
    state_.Free(tensor.view());
  }

 private:
  friend class TPipe;
  normgrad_ascendc::QueueState state_{pos, depth};
};

/// A plain buffer, for temporaries.
template <TPosition pos = TPosition::LCM>
class TBuf {
 public:
  /// The whole buffer.
  template <typename T>
  LocalTensor<T> Get() {
    return LocalTensor<T>(state_.GetAll());
  }
  /// The buffer's first `count` elements.
  template <typename T>
  LocalTensor<T> Get(uint32_t count) {
    return LocalTensor<T>(
        state_.Get(normgrad_ascendc::TypeName<T>(), count, sizeof(T)));
  }

 private:
  friend class TPipe;
  normgrad_ascendc::BufferState state_{pos};
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
  template <TPosition pos, int32_t depth>
  bool InitBuffer(TQue<pos, depth>& que, uint8_t num, uint32_t len) {
    InitQueue(que.state_, num, len);
    return true;
  }
  /// Gives `buf` `len` bytes (the pool advances by len rounded up to 32).
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    InitBuf(buf.state_, len);
    return true;
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

  /// normgrad: bytes carved so far (where the framework scratch starts).
  uint32_t used_bytes() const { return used_; }
  /// normgrad: the core's pad value register (data_copy_pad.h).
  normgrad_ascendc::PadRegister& pad_register() { return pad_register_; }

 private:
  void InitQueue(normgrad_ascendc::QueueState& que, uint8_t num, uint32_t len);
  void InitBuf(normgrad_ascendc::BufferState& buf, uint32_t len);
  /// Carves num buffers of len bytes rounded up to 32 for `who`; returns the
  /// first one's offset and sets *stride to the rounded length.
  uint32_t Carve(const normgrad_ascendc::Name& who, uint32_t num, uint32_t len,
                 uint32_t* stride);

  normgrad_ascendc::Core* core_;
  uint32_t used_ = 0;
  uint32_t buffers_ = 0;
  uint32_t requests_ = 0;
  normgrad_ascendc::PadRegister pad_register_;
};

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

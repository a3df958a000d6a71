// pipe.cc — the UB allocations of an emulated core (pipe.h): TPipe's
// InitBuffer, the state of TQue and TBuf with their misuse checks, and the
// framework scratch that PopStackBuffer returns.
#include "normgrad_ascendc/pipe.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/position.h"
#include "normgrad_ascendc/profile.h"

namespace normgrad_ascendc {

using AscendC::TPosition;

Name QueueState::name() const {
  Name n;
  if (request_ == 0) {
    std::snprintf(n.text, sizeof n.text, "TQue<%s, %d>",
                  PositionName(position_), depth_);
  } else {
    std::snprintf(n.text, sizeof n.text, "TQue<%s, %d> #%u",
                  PositionName(position_), depth_, request_);
  }
  return n;
}

TensorView QueueState::Alloc() {
  if (core_ == nullptr) {
    Fail(
        "%s::AllocTensor: the queue has no buffers (TPipe::InitBuffer was not "
        "called for it)",
        name().text);
  }
  for (uint32_t k = 0; k < count_; ++k) {
    const uint32_t i = (next_ + k) % count_;
    if (state_[i] == State::kFree) {
      state_[i] = State::kAllocated;
      next_ = (i + 1) % count_;
      return {core_, first_offset_ + i * buffer_stride_, buffer_bytes_,
              position_};
    }
  }
  Fail(
      "%s::AllocTensor: no free buffer: all %u buffers are allocated or "
      "queued (FreeTensor one first)",
      name().text, count_);
}

uint32_t QueueState::BufferOf(const char* api, const TensorView& tensor) const {
  if (core_ != nullptr && tensor.core == core_ &&
      tensor.offset >= first_offset_) {
    const uint32_t delta = tensor.offset - first_offset_;
    const uint32_t i = buffer_stride_ == 0 ? 0 : delta / buffer_stride_;
    if (i < count_ && delta == i * buffer_stride_) return i;
  }
  Fail(
      "%s::%s: the tensor at UB offset %u (%u bytes) is not a buffer of this "
      "queue",
      name().text, api, tensor.offset, tensor.bytes);
}

void QueueState::EnQue(const TensorView& tensor) {
  const uint32_t i = BufferOf("EnQue", tensor);
  if (state_[i] == State::kFree) {
    Fail("%s::EnQue: the buffer at UB offset %u is free (AllocTensor it first)",
         name().text, tensor.offset);
  }
  if (state_[i] == State::kQueued) {
    Fail("%s::EnQue: the buffer at UB offset %u is already queued", name().text,
         tensor.offset);
  }
  state_[i] = State::kQueued;
  queued_bytes_[i] = tensor.bytes;
  fifo_[(fifo_head_ + fifo_size_) % kMaxPipeBuffers] = static_cast<uint8_t>(i);
  ++fifo_size_;
}

TensorView QueueState::DeQue() {
  if (fifo_size_ == 0) {
    Fail("%s::DeQue: the queue is empty (EnQue a tensor first)", name().text);
  }
  const uint32_t i = fifo_[fifo_head_];
  fifo_head_ = (fifo_head_ + 1) % kMaxPipeBuffers;
  --fifo_size_;
  state_[i] = State::kDequeued;
  return {core_, first_offset_ + i * buffer_stride_, queued_bytes_[i],
          position_};
}

void QueueState::Free(const TensorView& tensor) {
  const uint32_t i = BufferOf("FreeTensor", tensor);
  if (state_[i] == State::kFree) {
    Fail(
        "%s::FreeTensor: the buffer at UB offset %u is already free (freed "
        "twice?)",
        name().text, tensor.offset);
  }
  if (state_[i] == State::kQueued) {
    Fail(
        "%s::FreeTensor: the buffer at UB offset %u is still queued (DeQue it "
        "first)",
        name().text, tensor.offset);
  }
  state_[i] = State::kFree;
}

Name BufferState::name() const {
  Name n;
  if (request_ == 0) {
    std::snprintf(n.text, sizeof n.text, "TBuf<%s>", PositionName(position_));
  } else {
    std::snprintf(n.text, sizeof n.text, "TBuf<%s> #%u",
                  PositionName(position_), request_);
  }
  return n;
}

void BufferState::CheckInitialized(const char* api) const {
  if (core_ == nullptr) {
    Fail(
        "%s::%s: the buffer has no memory (TPipe::InitBuffer was not called "
        "for it)",
        name().text, api);
  }
}

TensorView BufferState::GetAll() const {
  CheckInitialized("Get");
  return {core_, offset_, bytes_, position_};
}

TensorView BufferState::Get(const char* type_name, uint32_t count,
                            uint32_t elem_bytes) const {
  CheckInitialized("Get");
  const uint64_t bytes = uint64_t{count} * elem_bytes;
  if (bytes > bytes_) {
    Fail("%s::Get<%s>: %u elements (%llu bytes) exceed the buffer's %u bytes",
         name().text, type_name, count, static_cast<unsigned long long>(bytes),
         bytes_);
  }
  return {core_, offset_, static_cast<uint32_t>(bytes), position_};
}

void FailStaleTensor(const char* api, const BufferLease& lease,
                     uint32_t offset) {
  Fail(
      "%s: the LocalTensor at UB offset %u (buffer %u of %s) was released by "
      "%s; a tensor must not be used after its buffer is freed or its TPipe "
      "ends",
      api, offset, lease.index, lease.owner, lease.ended_by);
}

TensorView FrameworkScratch(TPosition position, uint64_t written) {
  if (!IsVectorPosition(position)) {
    Fail(
        "PopStackBuffer: position %s is not in the unified buffer; use "
        "VECCALC (LCM), VECIN or VECOUT",
        PositionName(position));
  }
  Core& core = CurrentCore();
  const uint32_t start = core.pipe() != nullptr ? core.pipe()->used_bytes() : 0;
  core.Touch(static_cast<uint32_t>(
      std::min<uint64_t>(uint64_t{start} + written, core.scratch_end())));
  return {&core, start, core.scratch_end() - start, position};
}

}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::Fail;
using normgrad_ascendc::Name;

TPipe::TPipe() : core_(&normgrad_ascendc::CurrentCore()) {
  core_->AttachPipe(this);
}

TPipe::~TPipe() { core_->DetachPipe(this); }

uint32_t TPipe::Carve(const Name& who, uint32_t num, uint32_t len,
                      uint32_t* stride) {
  if (buffers_ + num > normgrad_ascendc::kMaxPipeBuffers) {
    Fail(
        "TPipe::InitBuffer: %s: %u more buffers would make %u; a TPipe holds "
        "at most %u",
        who.text, num, buffers_ + num, normgrad_ascendc::kMaxPipeBuffers);
  }
  const uint64_t block = (uint64_t{len} + 31) / 32 * 32;
  const uint64_t total = block * num;
  const uint32_t left = core_->scratch_end() - used_;
  if (total > left) {
    Fail(
        "TPipe::InitBuffer: %s requests %u x %llu bytes%s, which exceeds the "
        "unified buffer: %u of %u bytes left (profile %s)",
        who.text, num, static_cast<unsigned long long>(block),
        block != len ? " (len rounded up to a multiple of 32)" : "", left,
        core_->scratch_end(), core_->profile().name);
  }
  const uint32_t offset = used_;
  used_ += static_cast<uint32_t>(total);
  core_->Touch(used_);
  buffers_ += num;
  ++requests_;
  *stride = static_cast<uint32_t>(block);
  return offset;
}

void TPipe::InitQueue(normgrad_ascendc::QueueState& que, uint8_t num,
                      uint32_t len) {
  if (que.core_ != nullptr) {
    Fail(
        "TPipe::InitBuffer: %s already has buffers; a queue is initialized "
        "once",
        que.name().text);
  }
  que.request_ = requests_ + 1;
  if (!normgrad_ascendc::IsVectorPosition(que.position_)) {
    Fail(
        "TPipe::InitBuffer: %s: position %s is not in the unified buffer; "
        "normgrad emulates VECIN, VECOUT and VECCALC",
        que.name().text, normgrad_ascendc::PositionName(que.position_));
  }
  if (num == 0) {
    Fail("TPipe::InitBuffer: %s: num is 0; a queue needs at least 1 buffer",
         que.name().text);
  }
  que.first_offset_ = Carve(que.name(), num, len, &que.buffer_stride_);
  que.buffer_bytes_ = len;
  que.count_ = num;
  que.core_ = core_;
}

void TPipe::InitBuf(normgrad_ascendc::BufferState& buf, uint32_t len) {
  if (buf.core_ != nullptr) {
    Fail(
        "TPipe::InitBuffer: %s already has memory; a buffer is initialized "
        "once",
        buf.name().text);
  }
  buf.request_ = requests_ + 1;
  if (!normgrad_ascendc::IsVectorPosition(buf.position_)) {
    Fail(
        "TPipe::InitBuffer: %s: position %s is not in the unified buffer; "
        "normgrad emulates VECIN, VECOUT and VECCALC",
        buf.name().text, normgrad_ascendc::PositionName(buf.position_));
  }
  uint32_t stride = 0;
  buf.offset_ = Carve(buf.name(), 1, len, &stride);
  buf.bytes_ = len;
  buf.core_ = core_;
}

}  // namespace AscendC

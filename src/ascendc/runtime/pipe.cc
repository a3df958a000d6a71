// pipe.cc — the UB allocations of an emulated core (pipe.h): TPipe's
// carving for queues, buffers and pools, the state of TQue/TQueBind, TBuf and
// TBufPool with their misuse checks, the lifetimes of the tensors they hand
// out, and the framework scratch that PopStackBuffer returns.
#include "normgrad_ascendc/runtime/pipe.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/ub_tail.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

using AscendC::TPosition;

namespace {

// What a core's pipes leave behind: the pipe's life and a lease record per
// UB offset a buffer ever started at. Never freed, so tensors and queues
// that outlive their pipe can still read theirs; a core created later at the
// same address continues the counts, which only grow.
struct CoreRecords {
  PipeLife life;
  std::unordered_map<uint32_t, BufferLease> leases;  // nodes do not move
};

CoreRecords& RecordsOf(const Core* core) {
  static std::mutex mutex;
  static auto* records =
      new std::unordered_map<const Core*, std::unique_ptr<CoreRecords>>;
  thread_local const Core* last_core = nullptr;
  thread_local CoreRecords* last = nullptr;
  if (core != last_core) {
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<CoreRecords>& entry = (*records)[core];
    if (!entry) entry = std::make_unique<CoreRecords>();
    last_core = core;
    last = entry.get();
  }
  return *last;
}

void EndLease(BufferLease* lease, const char* by) {
  ++lease->generation;
  lease->ended_by = by;
}

}  // namespace

void TensorView::CheckUbOperand(const char* api, const char* which) const {
  Check(api);
  if (core == nullptr) {
    Fail("%s: %s LocalTensor is empty (no unified-buffer memory)", api, which);
  }
  if (IsCubePosition(position)) {
    Fail(
        "%s: %s is in position %s; it must be VECIN, VECOUT or VECCALC (%s "
        "is in the cube core's %s, not in the unified buffer)",
        api, which, PositionName(position), PositionName(position),
        CubeMemoryName(CubeMemoryOf(position)));
  }
  if (offset % 32 != 0) {
    Fail(
        "%s: %s LocalTensor starts at UB offset %u, which is not 32-byte "
        "aligned (UB addresses must be multiples of 32)",
        api, which, offset);
  }
}

void FailStaleTensor(const char* api, const BufferLease& lease,
                     uint32_t offset) {
  Fail(
      "%s: the LocalTensor at UB offset %u (buffer %u of %s) was released by "
      "%s; a tensor must not be used after its buffer is freed or its TPipe "
      "ends",
      api, offset, lease.index, lease.owner, lease.ended_by);
}

QueueState::QueueState(TPosition src, TPosition dst, int32_t depth, bool bind)
    : src_(src),
      dst_(dst),
      position_(IsVectorPosition(src) || IsCubePosition(src) ? src : dst),
      depth_(depth),
      bind_(bind) {}

Name QueueState::name() const {
  Name n;
  int at = bind_ ? std::snprintf(n.text, sizeof n.text, "TQueBind<%s, %s, %d>",
                                 PositionName(src_), PositionName(dst_), depth_)
                 : std::snprintf(n.text, sizeof n.text, "TQue<%s, %d>",
                                 PositionName(position_), depth_);
  if (request_ != 0 && at > 0 && static_cast<size_t>(at) < sizeof n.text) {
    std::snprintf(n.text + at, sizeof n.text - at, " #%u", request_);
  }
  return n;
}

void QueueState::CheckLive(const char* api) const {
  if (core_ == nullptr) {
    Fail(
        "%s::%s: the queue has no buffers (TPipe::InitBuffer was not called "
        "for it)",
        name().text, api);
  }
  if (life_->epoch != epoch_) {
    Fail(
        "%s::%s: the queue's buffers ended with its TPipe (%s); give it "
        "buffers again with InitBuffer",
        name().text, api, life_->ended_by);
  }
}

TensorView QueueState::Alloc() {
  CheckLive("AllocTensor");
  for (uint32_t k = 0; k < count_; ++k) {
    const uint32_t i = (next_ + k) % count_;
    if (state_[i] == State::kFree) {
      state_[i] = State::kAllocated;
      next_ = (i + 1) % count_;
      if (!placed_[i]) {
        Fail(
            "%s::AllocTensor: buffer %u has no memory (a custom TBufPool "
            "gives each buffer memory with InitBufHandle)",
            name().text, i);
      }
      TensorView view{core_, buffer_offset_[i], buffer_bytes_, position_};
      view.lease = lease_[i];
      view.generation = lease_[i]->generation;
      NoteQueueEvent(QueueEvent::kAlloc, view.offset);
      if (SyncCheckOn() && !IsCubePosition(position_)) {
        char owner[80];
        std::snprintf(owner, sizeof owner, "buffer %u of %s", i, name().text);
        NoteUbAllocation(view.offset, buffer_bytes_, owner, "AllocTensor");
      }
      return view;
    }
  }
  Fail(
      "%s::AllocTensor: no free buffer: all %u buffers are allocated or "
      "queued (FreeTensor one first)",
      name().text, count_);
}

uint32_t QueueState::BufferOf(const char* api, const TensorView& tensor) const {
  CheckLive(api);
  if (tensor.core == core_) {
    for (uint32_t i = 0; i < count_; ++i) {
      if (placed_[i] && buffer_offset_[i] == tensor.offset) return i;
    }
  }
  Fail(
      "%s::%s: the tensor at UB offset %u (%u bytes) is not a buffer of this "
      "queue",
      name().text, api, tensor.offset, tensor.bytes);
}

void QueueState::CheckTensor(const char* api, const TensorView& tensor) const {
  if (tensor.lease != nullptr &&
      tensor.lease->generation != tensor.generation) {
    char call[80];
    std::snprintf(call, sizeof call, "%s::%s", name().text, api);
    tensor.Check(call);
  }
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
  CheckTensor("EnQue", tensor);
  if (depth_ > 0 && fifo_size_ >= static_cast<uint32_t>(depth_)) {
    Fail(
        "%s::EnQue: the queue is full (%u queued, depth %d); DeQue one first "
        "(a queue of depth n takes at most n EnQue calls in a row)",
        name().text, fifo_size_, depth_);
  }
  state_[i] = State::kQueued;
  queued_bytes_[i] = tensor.bytes;
  fifo_[(fifo_head_ + fifo_size_) % kMaxPipeBuffers] = static_cast<uint8_t>(i);
  ++fifo_size_;
  NoteQueueEvent(QueueEvent::kEnQue, tensor.offset);
}

TensorView QueueState::DeQue() {
  CheckLive("DeQue");
  if (fifo_size_ == 0) {
    Fail("%s::DeQue: the queue is empty (EnQue a tensor first)", name().text);
  }
  const uint32_t i = fifo_[fifo_head_];
  fifo_head_ = (fifo_head_ + 1) % kMaxPipeBuffers;
  --fifo_size_;
  state_[i] = State::kDequeued;
  TensorView view{core_, buffer_offset_[i], queued_bytes_[i], position_};
  view.lease = lease_[i];
  view.generation = lease_[i]->generation;
  NoteQueueEvent(QueueEvent::kDeQue, view.offset);
  return view;
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
  CheckTensor("FreeTensor", tensor);
  state_[i] = State::kFree;
  EndLease(lease_[i], "FreeTensor");
  NoteQueueEvent(QueueEvent::kFree, tensor.offset);
}

void QueueState::NoteQueueEvent(QueueEvent event, uint32_t offset) const {
  if (!SyncCheckOn() || IsCubePosition(position_)) return;
  SyncQueueEvent(event, static_cast<uint8_t>(src_), static_cast<uint8_t>(dst_),
                 offset);
}

bool QueueState::HasIdleBuffer(const char* api) const {
  CheckLive(api);
  return std::any_of(state_, state_ + count_,
                     [](State s) { return s == State::kFree; });
}

int32_t QueueState::QueuedCount(const char* api) const {
  CheckLive(api);
  return static_cast<int32_t>(fifo_size_);
}

bool QueueState::Vacant(const char* api) const {
  CheckLive(api);
  return depth_ <= 0 || fifo_size_ < static_cast<uint32_t>(depth_);
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
  if (lease_ == nullptr) {
    Fail(
        "%s::%s: the buffer has no memory yet (a custom TBufPool gives it "
        "with InitBufHandle)",
        name().text, api);
  }
  if (life_->epoch != epoch_) {
    Fail(
        "%s::%s: the buffer's memory ended with its TPipe (%s); give it "
        "memory again with InitBuffer",
        name().text, api, life_->ended_by);
  }
}

TensorView BufferState::GetAll() const {
  CheckInitialized("Get");
  TensorView view{core_, offset_, bytes_, position_};
  view.lease = lease_;
  view.generation = lease_->generation;
  return view;
}

TensorView BufferState::Get(const char* api, const char* type_name,
                            uint32_t count, uint32_t elem_bytes,
                            uint32_t offset) const {
  CheckInitialized(api);
  if (offset % 32 != 0) {
    Fail("%s::%s<%s>: bufOffset %u is not a multiple of 32 bytes", name().text,
         api, type_name, offset);
  }
  const uint64_t bytes = uint64_t{count} * elem_bytes;
  if (uint64_t{offset} + bytes > bytes_) {
    char from[32] = "";
    if (offset != 0) std::snprintf(from, sizeof from, " from byte %u", offset);
    Fail("%s::%s<%s>: %u elements (%llu bytes)%s exceed the buffer's %u bytes",
         name().text, api, type_name, count,
         static_cast<unsigned long long>(bytes), from, bytes_);
  }
  TensorView view{core_, offset_ + offset, static_cast<uint32_t>(bytes),
                  position_};
  view.lease = lease_;
  view.generation = lease_->generation;
  return view;
}

Name PoolState::name() const {
  Name n;
  if (request_ == 0) {
    std::snprintf(n.text, sizeof n.text, "TBufPool<%s>",
                  PositionName(position_));
  } else {
    std::snprintf(n.text, sizeof n.text, "TBufPool<%s> #%u",
                  PositionName(position_), request_);
  }
  return n;
}

AscendC::TPipe* PoolState::pipe(const char* api) const {
  if (pipe_ == nullptr) {
    Fail("%s: %s has no memory (TPipe::InitBufPool was not called for it)", api,
         name().text);
  }
  if (life_->epoch != epoch_) {
    Fail(
        "%s: %s ended with its TPipe (%s); give it memory again with "
        "InitBufPool",
        api, name().text, life_->ended_by);
  }
  return pipe_;
}

CustomPoolState::CustomPoolState(TPosition position, uint32_t handles)
    : pool_(position), handles_(handles) {
  for (uint32_t i = 0; i < kMaxPipeBuffers; ++i) slots_[i] = {this, i};
}

uint8_t* CustomPoolState::Handle(uint32_t offset) {
  if (offset >= handles_) {
    Fail(
        "GetBufHandle: offset %u is past the custom TBufPool's %u buffer "
        "handles (BUFID_SIZE)",
        offset, handles_);
  }
  return reinterpret_cast<uint8_t*>(&slots_[offset]);
}

BufSlot& CustomPoolState::SlotOf(const char* api, uint8_t* handle,
                                 uint32_t index) {
  if (handle == nullptr) {
    Fail("%s: the buffer handle is null (take one from GetBufHandle)", api);
  }
  const BufSlot& start = *reinterpret_cast<const BufSlot*>(handle);
  CustomPoolState* pool = start.pool;
  if (pool == nullptr || start.index >= kMaxPipeBuffers ||
      &pool->slots_[start.index] != &start) {
    Fail("%s: the buffer handle is not one of a custom TBufPool's", api);
  }
  if (uint64_t{start.index} + index >= pool->handles_) {
    Fail(
        "%s: handle %u + index %u is past the custom TBufPool's %u buffer "
        "handles (BUFID_SIZE)",
        api, start.index, index, pool->handles_);
  }
  return pool->slots_[start.index + index];
}

void StartBufHandles(QueueState& que, uint8_t* handle, uint8_t num,
                     uint32_t len) {
  BufSlot& start = CustomPoolState::SlotOf("InitStartBufHandle", handle, 0);
  start.pool->pool()
      .pipe("InitStartBufHandle")
      ->StartHandles(&que, nullptr, start, num, len);
}

void StartBufHandles(BufferState& buf, uint8_t* handle, uint8_t num,
                     uint32_t len) {
  BufSlot& start = CustomPoolState::SlotOf("InitStartBufHandle", handle, 0);
  start.pool->pool()
      .pipe("InitStartBufHandle")
      ->StartHandles(nullptr, &buf, start, num, len);
}

void PlaceBufHandle(QueueState& que, CustomPoolState& owner, uint32_t index,
                    uint8_t* handle, uint32_t addr, uint32_t len) {
  const BufSlot& slot = CustomPoolState::SlotOf("InitBufHandle", handle, index);
  if (slot.pool != &owner) {
    Fail("InitBufHandle: the handle belongs to another custom TBufPool");
  }
  owner.pool()
      .pipe("InitBufHandle")
      ->PlaceHandle(&que, nullptr, owner, index, addr, len);
}

void PlaceBufHandle(BufferState& buf, CustomPoolState& owner, uint32_t index,
                    uint8_t* handle, uint32_t addr, uint32_t len) {
  const BufSlot& slot = CustomPoolState::SlotOf("InitBufHandle", handle, index);
  if (slot.pool != &owner) {
    Fail("InitBufHandle: the handle belongs to another custom TBufPool");
  }
  owner.pool()
      .pipe("InitBufHandle")
      ->PlaceHandle(nullptr, &buf, owner, index, addr, len);
}

void PoolState::Reset() {
  pipe("TBufPool::Reset");
  for (uint32_t i = 0; i < leases_; ++i) EndLease(lease_[i], "TBufPool::Reset");
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
  const uint32_t end = core.scratch_end() - UbTailKept(core);
  core.Touch(static_cast<uint32_t>(
      std::min<uint64_t>(uint64_t{start} + written, end)));
  return {&core, start, end > start ? end - start : 0, position};
}

}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::BufferLease;
using normgrad_ascendc::BufferState;
using normgrad_ascendc::BufSlot;
using normgrad_ascendc::CustomPoolState;
using normgrad_ascendc::Fail;
using normgrad_ascendc::Name;
using normgrad_ascendc::PoolState;
using normgrad_ascendc::QueueState;

TPipe::TPipe()
    : core_(&normgrad_ascendc::CurrentCore()),
      life_(&normgrad_ascendc::RecordsOf(core_).life) {
  core_->AttachPipe(this);
  region_.size = core_->scratch_end();
}

TPipe::~TPipe() {
  if (core_->pipe() != this) return;  // destroyed, and not made current again
  End("the end of its TPipe (the destructor)");
  core_->DetachPipe(this);
}

void TPipe::Init(normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  if (core_->pipe() == this) return;
  core_->AttachPipe(this);
  region_.size = core_->scratch_end();
}

void TPipe::Destroy(normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  DestroyAs("TPipe::Destroy");
}

void TPipe::DestroyWithoutPipeAll(normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  DestroyAs("TPipe::DestroyWithoutPipeAll");
}

void TPipe::DestroyAs(const char* by) {
  if (core_->pipe() != this) return;  // destroyed already
  End(by);
  core_->DetachPipe(this);
}

uint8_t* TPipe::GetBaseAddr(int8_t logicPos, normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  const auto position = static_cast<TPosition>(logicPos);
  if (logicPos < 0 || position >= TPosition::MAX) {
    Fail("TPipe::GetBaseAddr: logicPos %d is not a TPosition", logicPos);
  }
  if (!normgrad_ascendc::IsVectorPosition(position)) {
    Fail(
        "TPipe::GetBaseAddr: logicPos %d (%s) has no emulated memory; "
        "normgrad emulates the unified buffer (VECIN, VECOUT, VECCALC)",
        logicPos, normgrad_ascendc::PositionName(position));
  }
  return core_->ub();
}

void TPipe::InitSpm(uint8_t* gm, const void* base, uint64_t limit,
                    int32_t bytes) {
  if (gm == nullptr) {
    Fail(
        "TPipe::InitSpmBuffer: workspace has no address (call "
        "SetGlobalBuffer first)");
  }
  if (bytes <= 0) {
    Fail("TPipe::InitSpmBuffer: bufferSize %d is not positive", bytes);
  }
  if (static_cast<uint64_t>(bytes) > limit) {
    Fail(
        "TPipe::InitSpmBuffer: bufferSize %d bytes is more than workspace's "
        "%llu bytes",
        bytes, static_cast<unsigned long long>(limit));
  }
  spm_ = {};
  spm_.gm = gm;
  spm_.base = base;
  spm_.bytes = static_cast<uint32_t>(bytes);
}

void TPipe::InitSpmBuffer(const int32_t bufferSize,
                          normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  if (core_->profile().profile != normgrad_ascendc::Profile::k310P) {
    Fail(
        "TPipe::InitSpmBuffer(bufferSize): the SPM buffer in L1 is not "
        "available on profile %s; pass a GM workspace "
        "(InitSpmBuffer(workspace, bufferSize))",
        core_->profile().name);
  }
  if (bufferSize <= 0) {
    Fail("TPipe::InitSpmBuffer: bufferSize %d is not positive", bufferSize);
  }
  spm_ = {};
  spm_.l1.assign(static_cast<size_t>(bufferSize), 0);
  spm_.bytes = static_cast<uint32_t>(bufferSize);
}

uint8_t* TPipe::SpmArea(const char* api, const char* type) {
  if (spm_.bytes == 0) {
    Fail("TPipe::%s<%s>: the pipe has no SPM buffer (call InitSpmBuffer first)",
         api, type);
  }
  return spm_.gm != nullptr ? spm_.gm : spm_.l1.data();
}

namespace {

// The byte span of `count` blocks of `len` bytes with `gap` bytes between.
uint64_t BlockSpan(uint32_t count, uint32_t len, uint32_t gap) {
  return uint64_t{count - 1} * (len + gap) + len;
}

}  // namespace

void TPipe::SpmBlocks(const char* api, const char* type,
                      const normgrad_ascendc::TensorView& local,
                      const DataCopyParams& params, int32_t offset,
                      bool write) {
  char name[64];
  std::snprintf(name, sizeof name, "TPipe::%s<%s>", api, type);
  uint8_t* area = SpmArea(api, type);
  local.CheckUbOperand(name, write ? "writeBuffer" : "readBuffer");
  if (params.blockCount < 1 || params.blockCount > 4095) {
    Fail("%s: blockCount %u is out of range (1..4095)", name,
         params.blockCount);
  }
  if (params.blockLen < 1) {
    Fail("%s: blockLen %u is out of range (1..65535 blocks of 32 bytes)", name,
         params.blockLen);
  }
  if (offset < 0) Fail("%s: offset %d is negative", name, offset);
  const uint32_t len = uint32_t{params.blockLen} * 32;
  const uint32_t ub_gap = uint32_t{write ? params.srcGap : params.dstGap} * 32;
  const uint32_t spm_gap = uint32_t{write ? params.dstGap : params.srcGap} * 32;
  const uint64_t ub_span = BlockSpan(params.blockCount, len, ub_gap);
  const uint64_t spm_span = BlockSpan(params.blockCount, len, spm_gap);
  if (ub_span > local.bytes) {
    Fail("%s: the blocks span %llu bytes of %s, which has %u", name,
         static_cast<unsigned long long>(ub_span),
         write ? "writeBuffer" : "readBuffer", local.bytes);
  }
  if (static_cast<uint64_t>(offset) + spm_span > spm_.bytes) {
    Fail(
        "%s: the blocks span SPM bytes %d..%llu, past the SPM buffer of %u "
        "bytes",
        name, offset,
        static_cast<unsigned long long>(static_cast<uint64_t>(offset) +
                                        spm_span - 1),
        spm_.bytes);
  }
  if (spm_.gm != nullptr) {
    normgrad_ascendc::CheckGmAccess(name, spm_.base, spm_.gm + offset, spm_span,
                                    write);
  }
  for (uint32_t i = 0; i < params.blockCount; ++i) {
    uint8_t* ub = local.data() + uint64_t{i} * (len + ub_gap);
    uint8_t* spm = area + offset + uint64_t{i} * (len + spm_gap);
    if (write) {
      std::memcpy(spm, ub, len);
    } else {
      std::memcpy(ub, spm, len);
    }
  }
}

void TPipe::SpmRun(const char* api, const char* type,
                   const normgrad_ascendc::TensorView& local, int32_t count,
                   uint32_t elem_bytes, int32_t offset, bool write) {
  char name[64];
  std::snprintf(name, sizeof name, "TPipe::%s<%s>", api, type);
  uint8_t* area = SpmArea(api, type);
  const char* which = write ? "writeBuffer" : "readBuffer";
  local.CheckUbOperand(name, which);
  const char* size_name = write ? "writeSize" : "readSize";
  if (count < 0) Fail("%s: %s %d is negative", name, size_name, count);
  if (offset < 0) Fail("%s: offset %d is negative", name, offset);
  const uint64_t bytes = uint64_t{static_cast<uint32_t>(count)} * elem_bytes;
  if (spm_.gm == nullptr && (bytes % 32 != 0 || offset % 32 != 0)) {
    Fail(
        "%s: %s %d (%llu bytes) and offset %d must be multiples of 32 bytes "
        "for an SPM buffer in L1",
        name, size_name, count, static_cast<unsigned long long>(bytes), offset);
  }
  if (bytes > local.bytes) {
    Fail("%s: %s %d is more than %s's %u elements", name, size_name, count,
         which, local.bytes / elem_bytes);
  }
  if (static_cast<uint64_t>(offset) + bytes > spm_.bytes) {
    Fail(
        "%s: %s %d at offset %d runs past the SPM buffer of %u bytes (to byte "
        "%llu)",
        name, size_name, count, offset, spm_.bytes,
        static_cast<unsigned long long>(static_cast<uint64_t>(offset) + bytes));
  }
  if (bytes == 0) return;
  if (spm_.gm != nullptr) {
    normgrad_ascendc::CheckGmAccess(name, spm_.base, spm_.gm + offset, bytes,
                                    write);
  }
  if (write) {
    std::memcpy(area + offset, local.data(), bytes);
  } else {
    std::memcpy(local.data(), area + offset, bytes);
  }
}

void TPipe::End(const char* by) {
  for (uint32_t i = 0; i < buffers_; ++i) {
    normgrad_ascendc::EndLease(leases_[i], by);
  }
  ++life_->epoch;
  life_->ended_by = by;
  region_.used = 0;
  for (normgrad_ascendc::Region& region : cube_regions_) region.used = 0;
  buffers_ = 0;
  requests_ = 0;
  pad_register_ = {};
  loop_mode_ = {};
  spm_ = {};
}

void TPipe::CheckPosition(const char* api, const Name& who, TPosition position,
                          const PoolState* pool) {
  const char* name = normgrad_ascendc::PositionName(position);
  if (normgrad_ascendc::IsCubePosition(position)) {
    const char* memory = normgrad_ascendc::CubeMemoryName(
        normgrad_ascendc::CubeMemoryOf(position));
    if (!core_->is_cube()) {
      Fail(
          "%s: %s: position %s is in the cube core's %s; this kernel runs on "
          "a vector core (declare it __cube__ or "
          "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY))",
          api, who.text, name, memory);
    }
    if (normgrad_ascendc::CubeMemoryBytes(
            core_->profile().profile,
            normgrad_ascendc::CubeMemoryOf(position)) == 0) {
      Fail("%s: %s: position %s (%s) is not emulated on profile %s", api,
           who.text, name, memory, core_->profile().name);
    }
    if (pool != nullptr) {
      Fail("%s: %s: position %s: a TBufPool carves the unified buffer only",
           api, who.text, name);
    }
    return;
  }
  if (!normgrad_ascendc::IsVectorPosition(position)) {
    Fail(
        "%s: %s: position %s has no emulated memory; normgrad emulates "
        "VECIN, VECOUT and VECCALC (the unified buffer) and, on a cube core, "
        "A1, B1, C1, A2, B2, CO1, C2 and C2PIPE2GM",
        api, who.text, name);
  }
  if (core_->is_cube()) {
    Fail(
        "%s: %s: position %s is in the unified buffer, which a cube core "
        "(AIC) does not have",
        api, who.text, name);
  }
}

void TPipe::CheckPool(const char* api, const PoolState& pool) {
  if (pool.pipe(api) != this) {
    Fail("%s: %s belongs to another TPipe", api, pool.name().text);
  }
}

uint32_t TPipe::Carve(const char* api, const Name& who, PoolState* pool,
                      uint32_t num, uint32_t len, uint32_t* stride,
                      TPosition position) {
  if (core_->pipe() != this) {
    Fail(
        "%s: %s: its TPipe was destroyed (TPipe::Destroy); call Init() on "
        "it before giving out memory again",
        api, who.text);
  }
  if (buffers_ + num > normgrad_ascendc::kMaxPipeBuffers) {
    Fail("%s: %s: %u more buffers would make %u; a TPipe holds at most %u", api,
         who.text, num, buffers_ + num, normgrad_ascendc::kMaxPipeBuffers);
  }
  if (normgrad_ascendc::IsCubePosition(position)) {
    return CarveCube(api, who, num, len, stride, position);
  }
  normgrad_ascendc::Region& region = pool != nullptr ? pool->region_ : region_;
  const uint64_t block = (uint64_t{len} + 31) / 32 * 32;
  const uint64_t total = block * num;
  // The pipe's own region ends where the bytes an API keeps begin.
  const uint32_t kept =
      pool != nullptr ? 0 : normgrad_ascendc::UbTailKept(*core_);
  const uint32_t size = region.size - std::min(kept, region.size);
  const uint32_t left = size > region.used ? size - region.used : 0;
  if (total > left) {
    if (pool != nullptr) {
      Fail(
          "%s: %s requests %u x %llu bytes%s, which exceeds %s: %u of %u "
          "bytes left",
          api, who.text, num, static_cast<unsigned long long>(block),
          block != len ? " (len rounded up to a multiple of 32)" : "",
          pool->name().text, left, region.size);
    }
    if (kept > 0) {
      Fail(
          "%s: %s requests %u x %llu bytes%s, which exceeds the unified "
          "buffer: %u of %u bytes left (profile %s; its last %u bytes are "
          "kept by %s)",
          api, who.text, num, static_cast<unsigned long long>(block),
          block != len ? " (len rounded up to a multiple of 32)" : "", left,
          size, core_->profile().name, kept,
          normgrad_ascendc::UbTailKeeper(*core_));
    }
    Fail(
        "%s: %s requests %u x %llu bytes%s, which exceeds the unified buffer: "
        "%u of %u bytes left (profile %s)",
        api, who.text, num, static_cast<unsigned long long>(block),
        block != len ? " (len rounded up to a multiple of 32)" : "", left,
        region.size, core_->profile().name);
  }
  const uint32_t offset = region.base + region.used;
  region.used += static_cast<uint32_t>(total);
  core_->Touch(region.base + region.used);
  ++requests_;
  *stride = static_cast<uint32_t>(block);
  return offset;
}

uint32_t TPipe::CarveCube(const char* api, const Name& who, uint32_t num,
                          uint32_t len, uint32_t* stride, TPosition position) {
  using normgrad_ascendc::CubeMemory;
  const CubeMemory memory = normgrad_ascendc::CubeMemoryOf(position);
  normgrad_ascendc::Region& region =
      cube_regions_[static_cast<uint32_t>(memory)];
  region.size =
      normgrad_ascendc::CubeMemoryBytes(core_->profile().profile, memory);
  const uint32_t align = normgrad_ascendc::CubeMemoryAlignment(memory);
  const uint64_t block = (uint64_t{len} + align - 1) / align * align;
  const uint64_t total = block * num;
  const uint32_t left = region.size - region.used;
  if (total > left) {
    char rounded[64] = "";
    if (block != len) {
      std::snprintf(rounded, sizeof rounded,
                    " (len rounded up to a multiple of %u)", align);
    }
    Fail(
        "%s: %s requests %u x %llu bytes%s, which exceeds the cube core's %s "
        "(position %s): %u of %u bytes left (profile %s)",
        api, who.text, num, static_cast<unsigned long long>(block), rounded,
        normgrad_ascendc::CubeMemoryName(memory),
        normgrad_ascendc::PositionName(position), left, region.size,
        core_->profile().name);
  }
  const uint32_t offset = region.used;
  region.used += static_cast<uint32_t>(total);
  core_->cube_memory(memory);
  core_->TouchCube(memory, region.used);
  ++requests_;
  *stride = static_cast<uint32_t>(block);
  return offset;
}

BufferLease* TPipe::Lease(PoolState* pool, uint32_t offset, const Name& owner,
                          uint32_t index, TPosition position) {
  // Each memory's buffers have their own records: a cube memory's offsets
  // are kept apart from the UB's above bit 24.
  const uint32_t key =
      normgrad_ascendc::IsCubePosition(position)
          ? offset + ((static_cast<uint32_t>(
                           normgrad_ascendc::CubeMemoryOf(position)) +
                       1)
                      << 24)
          : offset;
  BufferLease* lease = &normgrad_ascendc::RecordsOf(core_).leases[key];
  std::snprintf(lease->owner, sizeof lease->owner, "%s", owner.text);
  lease->index = index;
  leases_[buffers_++] = lease;
  if (pool != nullptr) pool->lease_[pool->leases_++] = lease;
  return lease;
}

void TPipe::InitQueue(normgrad_ascendc::QueueState& que, PoolState* pool,
                      uint8_t num, uint32_t len) {
  const char* api =
      pool != nullptr ? "TBufPool::InitBuffer" : "TPipe::InitBuffer";
  if (pool != nullptr) CheckPool(api, *pool);
  if (que.core_ != nullptr && que.life_->epoch == que.epoch_) {
    Fail("%s: %s already has buffers; a queue is initialized once", api,
         que.name().text);
  }
  que = normgrad_ascendc::QueueState(que.src_, que.dst_, que.depth_, que.bind_);
  que.request_ = requests_ + 1;
  CheckPosition(api, que.name(), que.position_, pool);
  if (num == 0) {
    Fail("%s: %s: num is 0; a queue needs at least 1 buffer", api,
         que.name().text);
  }
  uint32_t stride = 0;
  const uint32_t first =
      Carve(api, que.name(), pool, num, len, &stride, que.position_);
  que.buffer_bytes_ = len;
  que.count_ = num;
  const Name name = que.name();
  for (uint32_t i = 0; i < num; ++i) {
    que.buffer_offset_[i] = first + i * stride;
    que.placed_[i] = true;
    que.lease_[i] = Lease(pool, que.buffer_offset_[i], name, i, que.position_);
  }
  que.core_ = core_;
  que.life_ = life_;
  que.epoch_ = life_->epoch;
}

void TPipe::InitBuf(normgrad_ascendc::BufferState& buf, PoolState* pool,
                    uint32_t len) {
  const char* api =
      pool != nullptr ? "TBufPool::InitBuffer" : "TPipe::InitBuffer";
  if (pool != nullptr) CheckPool(api, *pool);
  if (buf.core_ != nullptr && buf.life_->epoch == buf.epoch_) {
    Fail("%s: %s already has memory; a buffer is initialized once", api,
         buf.name().text);
  }
  buf.request_ = requests_ + 1;
  CheckPosition(api, buf.name(), buf.position_, pool);
  uint32_t stride = 0;
  buf.offset_ = Carve(api, buf.name(), pool, 1, len, &stride, buf.position_);
  buf.bytes_ = len;
  // A TBuf's memory is handed out here: Get hands out the same bytes, with
  // what was written to them, every time.
  if (normgrad_ascendc::SyncCheckOn() &&
      !normgrad_ascendc::IsCubePosition(buf.position_)) {
    normgrad_ascendc::NoteUbAllocation(buf.offset_, len, buf.name().text, api);
  }
  buf.lease_ = Lease(pool, buf.offset_, buf.name(), 0, buf.position_);
  buf.core_ = core_;
  buf.life_ = life_;
  buf.epoch_ = life_->epoch;
}

void TPipe::StartHandles(QueueState* que, BufferState* buf, BufSlot& start,
                         uint8_t num, uint32_t len) {
  const char* api = "InitStartBufHandle";
  const Name name = que != nullptr ? que->name() : buf->name();
  const TPosition position = que != nullptr ? que->position_ : buf->position_;
  const bool live =
      que != nullptr
          ? que->core_ != nullptr && que->life_->epoch == que->epoch_
          : buf->core_ != nullptr && buf->life_->epoch == buf->epoch_;
  if (live) {
    Fail("%s: %s already has memory; a queue or buffer is initialized once",
         api, name.text);
  }
  if (!normgrad_ascendc::IsVectorPosition(position)) {
    Fail(
        "%s: %s: position %s is not in the unified buffer; normgrad emulates "
        "VECIN, VECOUT and VECCALC",
        api, name.text, normgrad_ascendc::PositionName(position));
  }
  if (num == 0 || (buf != nullptr && num != 1)) {
    Fail("%s: %s: num %u; a %s takes %s", api, name.text, num,
         buf != nullptr ? "TBuf" : "queue",
         buf != nullptr ? "exactly 1 buffer" : "at least 1 buffer");
  }
  CustomPoolState::SlotOf(api, reinterpret_cast<uint8_t*>(&start),
                          num - 1u);  // the last handle exists
  if (buffers_ + num > normgrad_ascendc::kMaxPipeBuffers) {
    Fail("%s: %s: %u more buffers would make %u; a TPipe holds at most %u", api,
         name.text, num, buffers_ + num, normgrad_ascendc::kMaxPipeBuffers);
  }
  if (que != nullptr) {
    *que = QueueState(que->src_, que->dst_, que->depth_, que->bind_);
    que->request_ = ++requests_;
    que->buffer_bytes_ = len;
    que->count_ = num;
    que->core_ = core_;
    que->life_ = life_;
    que->epoch_ = life_->epoch;
  } else {
    buf->request_ = ++requests_;
    buf->bytes_ = len;
    buf->lease_ = nullptr;
    buf->core_ = core_;
    buf->life_ = life_;
    buf->epoch_ = life_->epoch;
  }
}

void TPipe::PlaceHandle(QueueState* que, BufferState* buf,
                        CustomPoolState& owner, uint32_t index, uint32_t addr,
                        uint32_t len) {
  const char* api = "InitBufHandle";
  const Name name = que != nullptr ? que->name() : buf->name();
  const bool started =
      que != nullptr
          ? que->core_ != nullptr && que->life_->epoch == que->epoch_
          : buf->core_ != nullptr && buf->life_->epoch == buf->epoch_;
  if (!started) {
    Fail("%s: %s has no buffers yet (call InitStartBufHandle first)", api,
         name.text);
  }
  const uint32_t count = que != nullptr ? que->count_ : 1;
  const uint32_t bytes = que != nullptr ? que->buffer_bytes_ : buf->bytes_;
  if (index >= count) {
    Fail("%s: %s: index %u is past its %u buffers", api, name.text, index,
         count);
  }
  if (len != bytes) {
    Fail(
        "%s: %s: len %u differs from the %u bytes InitStartBufHandle gave "
        "each buffer",
        api, name.text, len, bytes);
  }
  const normgrad_ascendc::Region& region = owner.pool().region_;
  if (addr % 32 != 0) {
    Fail("%s: %s: curPoolAddr %u is not a multiple of 32 bytes", api, name.text,
         addr);
  }
  if (uint64_t{addr} + len > region.size) {
    Fail("%s: %s: %u bytes at curPoolAddr %u run past %s's %u bytes", api,
         name.text, len, addr, owner.pool().name().text, region.size);
  }
  if (buffers_ >= normgrad_ascendc::kMaxPipeBuffers) {
    Fail("%s: %s: a TPipe holds at most %u buffers", api, name.text,
         normgrad_ascendc::kMaxPipeBuffers);
  }
  const uint32_t offset = region.base + addr;
  BufferLease* lease =
      Lease(&owner.pool(), offset, name, index, TPosition::VECCALC);
  core_->Touch(offset + len);
  if (que != nullptr) {
    que->buffer_offset_[index] = offset;
    que->placed_[index] = true;
    que->lease_[index] = lease;
  } else {
    buf->offset_ = offset;
    buf->lease_ = lease;
  }
}

void TPipe::InitPool(PoolState& sub, PoolState* pool, PoolState* share,
                     uint32_t len) {
  const char* api =
      pool != nullptr ? "TBufPool::InitBufPool" : "TPipe::InitBufPool";
  if (pool != nullptr) CheckPool(api, *pool);
  if (sub.pipe_ != nullptr && sub.life_->epoch == sub.epoch_) {
    Fail("%s: %s already has memory; a pool is initialized once", api,
         sub.name().text);
  }
  const uint32_t rounded = (len + 31) / 32 * 32;
  sub = PoolState(sub.position_);
  sub.request_ = requests_ + 1;
  if (share != nullptr) {
    CheckPool(api, *share);
    if (rounded > share->region_.size) {
      Fail(
          "%s: %s: len %u (rounded up to %u) exceeds the %u bytes of %s it "
          "shares",
          api, sub.name().text, len, rounded, share->region_.size,
          share->name().text);
    }
    sub.region_.base = share->region_.base;
    ++requests_;
  } else {
    uint32_t stride = 0;
    sub.region_.base =
        Carve(api, sub.name(), pool, 1, len, &stride, TPosition::VECCALC);
  }
  sub.region_.size = rounded;
  sub.pipe_ = this;
  sub.life_ = life_;
  sub.epoch_ = life_->epoch;
}

}  // namespace AscendC

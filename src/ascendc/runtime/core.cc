// core.cc — the emulated AI core (core.h): Fail and KernelError, the Core
// with its unified buffer (UB) and block index, each thread's current core,
// and the built-in variables block_idx, block_num and g_coreType (sys_var.h)
// that follow it.
#include "normgrad_ascendc/runtime/core.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "ascendc/runtime/ub_tail.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/sys_var.h"

namespace normgrad_ascendc {

namespace {

thread_local const CallSite* t_call_site = nullptr;
thread_local int t_call_depth = 0;
thread_local ApiCallTrace t_api_calls;
thread_local Core* t_current_core = nullptr;
thread_local std::unique_ptr<Core> t_default_core;

// The core whose block the thread's block_idx and block_num show: the
// current core, without creating the default one.
const Core* ShownCore() {
  return t_current_core != nullptr ? t_current_core : t_default_core.get();
}

// Sets block_idx and block_num to `core`'s block (block 0 of 1 without one).
void PublishBlock(const Core* core) {
  ::block_idx = core != nullptr ? core->block_idx() : 0;
  ::block_num = core != nullptr ? core->block_num() : 1;
  ::g_coreType =
      core != nullptr && core->is_cube() ? AscendC::AIC : AscendC::AIV;
}

}  // namespace

ApiCall::ApiCall(const CallSite& site) : outermost_(t_call_site == nullptr) {
  ++t_call_depth;
  if (!outermost_) return;
  if (SyncCheckOn()) FlushUbData();
  t_call_site = &site;
  t_api_calls.file.store(site.file, std::memory_order_relaxed);
  t_api_calls.line.store(site.line, std::memory_order_relaxed);
  t_api_calls.open.store(true, std::memory_order_relaxed);
}

ApiCall::~ApiCall() {
  --t_call_depth;
  if (!outermost_) return;
  t_call_site = nullptr;
  t_api_calls.open.store(false, std::memory_order_relaxed);
}

const ApiCallTrace& ThisThreadApiCalls() { return t_api_calls; }

const CallSite* CurrentCallSite() { return t_call_site; }

int ApiCallDepth() { return t_call_depth; }

void JoinName(char* out, size_t size,
              std::initializer_list<const char*> pieces) {
  size_t length = 0;
  for (const char* piece : pieces) {
    const size_t n = std::min(std::strlen(piece), size - 1 - length);
    std::memcpy(out + length, piece, n);
    length += n;
  }
  out[length] = '\0';
}

void Fail(const char* format, ...) {
  va_list args;
  va_start(args, format);
  va_list measure;
  va_copy(measure, args);
  const int length = std::vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  std::string message(length > 0 ? static_cast<size_t>(length) : 0, '\0');
  std::vsnprintf(message.data(), message.size() + 1, format, args);
  va_end(args);
  if (t_call_site != nullptr) {
    message.insert(0, std::string(t_call_site->file) + ":" +
                          std::to_string(t_call_site->line) + ": ");
  }
  throw KernelError(message);
}

Core::Core() : ub_(static_cast<uint8_t*>(std::aligned_alloc(64, kMaxUbBytes))) {
  if (ub_ == nullptr) throw std::bad_alloc();
  std::memset(ub_, 0, kMaxUbBytes);
  ctrl_ = DefaultCtrl(CurrentProfile());
}

Core::~Core() {
  std::free(ub_);
  for (uint8_t* memory : cube_memory_) std::free(memory);
}

uint8_t* Core::cube_memory(CubeMemory memory) {
  uint8_t*& bytes = cube_memory_[static_cast<uint32_t>(memory)];
  if (bytes == nullptr) {
    const uint32_t size = MaxCubeMemoryBytes(memory);
    bytes = static_cast<uint8_t*>(std::aligned_alloc(1024, size));
    if (bytes == nullptr) throw std::bad_alloc();
    std::memset(bytes, 0, size);
  }
  return bytes;
}

void Core::ZeroTouched() {
  std::memset(ub_, 0, touched_);
  touched_ = 0;
  for (uint32_t i = 0; i < kCubeMemoryCount; ++i) {
    if (cube_touched_[i] != 0)
      std::memset(cube_memory_[i], 0, cube_touched_[i]);
    cube_touched_[i] = 0;
  }
}

void Core::SetBlock(int64_t idx, int64_t num, const CoreRole& role) {
  if (num < 1 || idx < 0 || idx >= num * role.task_ratio) {
    Fail(
        "Core::SetBlock: block %lld of %lld is out of range (0 <= idx < num "
        "· task ratio %lld)",
        static_cast<long long>(idx), static_cast<long long>(num),
        static_cast<long long>(role.task_ratio));
  }
  block_idx_ = idx;
  block_num_ = num;
  role_ = role;
  vector_mask_ = VectorMask();
  merge_record_ = MergeRecord();
  deq_scale_ = kDeqScaleReset;
  cmp_mask_ = CmpMaskRegister();
  ctrl_ = DefaultCtrl(CurrentProfile());
  capi_ = CapiRegisters();
  reduce_extreme_ = ReduceExtremeRegister();
  spr_ar_ = 0;
  reduce_spr_ = ReduceSpr();
  fixpipe_registers_ = FixpipeRegisters();
  img2col_registers_ = Img2colRegisters();
  mmad_modes_ = MmadModes();
  sparse_index_.Reset();
  mx_scales_.Reset();
  unit_flags_.Reset();
  aipp_registers_ = AippRegisters();
  ClearUbTail(*this);
  if (this == ShownCore()) PublishBlock(this);
}

void Core::set_cube(bool cube) {
  role_.cube = cube;
  if (this == ShownCore()) PublishBlock(this);
}

void Core::AttachPipe(AscendC::TPipe* pipe) {
  if (pipe_ != nullptr) {
    Fail(
        "TPipe: a second TPipe was created on the core of block %lld while "
        "one exists; call Destroy() on the first TPipe before creating "
        "another",
        static_cast<long long>(block_idx_));
  }
  profile_ = &GetProfileInfo(CurrentProfile());
  pipe_ = pipe;
}

void Core::DetachPipe(const AscendC::TPipe* pipe) {
  if (pipe_ == pipe) pipe_ = nullptr;
}

Core& CurrentCore() {
  if (t_current_core != nullptr) return *t_current_core;
  if (!t_default_core) t_default_core = std::make_unique<Core>();
  return *t_default_core;
}

ScopedCore::ScopedCore(Core& core) : previous_(t_current_core) {
  t_current_core = &core;
  PublishBlock(&core);
}

ScopedCore::~ScopedCore() {
  t_current_core = previous_;
  PublishBlock(ShownCore());
}

}  // namespace normgrad_ascendc

// init_check.h — the init check: reads of bytes nothing wrote
// (NORMGRAD_CHECK=init; docs/checks.md), internal to src/ascendc. The hooks
// the APIs call are the sync check's (normgrad_ascendc/runtime/sync_check.h).
//
// The unified buffer. Each block keeps one state per UB byte: untracked
// (never handed out by an allocation the check sees), unwritten (handed out
// and not written since) or written. AllocTensor, TPipe::InitBuffer of a
// TBuf and LocalMemAllocator::Alloc hand bytes out; every write a hook
// declares, and every pointer an API takes to a tensor's bytes
// (TensorView::data(), which is how instructions outside the hooks reach
// memory) outside the code that declares its writes (UbWritesDeclared, the
// copies), marks them written. A read is looked at only where its hook says
// it reads exactly those bytes, and only in the user's own call (not in an
// API another API calls): a read of an unwritten byte is a finding.
//
// aclrtMalloc memory. While the check is on, aclrtMalloc fills each block
// with a pattern that depends on the address; aclrtMemcpy, aclrtMemset and
// kernels' writes mark bytes written. A kernel read (or an atomic write,
// which adds to what is there) of bytes that are unmarked is a finding
// unless some unmarked byte of the block no longer holds the pattern: then
// the host (or a raw pointer) wrote the block, and the check takes all of it
// as written from then on. aclrtMemcpy reads are not checked: a copy moves
// bytes and does not use them (the host looks at what it needs).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace normgrad_ascendc {

class Launch;

/// UB bytes an allocation handed out, for reports.
struct UbAllocation {
  uint32_t end = 0;
  std::string owner;  ///< "buffer 0 of TQue<VECIN, 1>"
  std::string by;     ///< "AllocTensor at k.asc:30"
};

/// A block's part of the check.
struct InitState {
  /// Per UB byte: kUntracked, kUnwritten or kWritten (init_check.cc); sized
  /// at the first allocation.
  std::vector<uint8_t> ub;
  std::map<uint32_t, UbAllocation> allocations;  ///< by first byte
  /// The views whose pointers the running API call took (offset, bytes).
  std::vector<std::pair<uint32_t, uint32_t>> touched;
  /// A C API call ran: what it wrote is unknown, so no UB read is reported.
  bool unknown = false;
  /// Findings in the order found, once per reading call and allocation.
  std::map<std::string, size_t> finding_keys;
  std::vector<std::string> findings;
};

/// The hooks' part: `api` reads (or writes) UB bytes [offset, offset +
/// bytes) of the calling block; `exact` as NoteUbAccess says.
void InitUbAccess(const char* api, uint64_t offset, uint64_t bytes, bool write,
                  bool exact);
/// A kernel's access to GM bytes [p, p + bytes) (race_check.cc's
/// NoteGmAccess, which every GM access passes through).
void InitGmAccess(const char* api, uintptr_t p, uint64_t bytes, bool write,
                  bool atomic);

/// aclrtMalloc handed out `size` bytes at `p`: while the init check is on,
/// fills them with the pattern and follows them.
void InitGmAllocated(void* p, uint64_t size);
/// aclrtFree: forgets the block.
void InitGmReleased(const void* p);
/// aclrtMemcpy or aclrtMemset writes [p, p + bytes). (What aclrtMemcpy
/// reads is not checked: a copy moves bytes, it does not use them.)
void InitGmHostWrite(void* p, uint64_t bytes);

/// The findings of a launch whose blocks have ended, one line each (without
/// "normgrad: kernel <name>: "), as SyncReports gives its own.
std::vector<std::string> InitReports(Launch& launch, size_t limit);

}  // namespace normgrad_ascendc

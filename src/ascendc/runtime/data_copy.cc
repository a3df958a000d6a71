// data_copy.cc — DataCopy's forms (count, DataCopyParams, slices), Copy,
// the scalar global-memory accesses, their checks, the NORMGRAD_DATACOPY mode
// and the copy itself (normgrad_ascendc/runtime/data_copy.h).
//
// The copy is most of a streaming kernel's time: tiles of tens of KiB,
// thousands of DataCopy calls per launch. One memmove of a tile reads global
// memory as a single stream, which a core's hardware prefetcher follows one
// page at a time, so it reads tiles the caches do not hold below the
// bandwidth two streams reach. Copying a tile as four
// interleaved parts (the engine's loop, for the instruction set it picks)
// gives the prefetcher four streams and the copy the full bandwidth. Short
// copies, and overlapping ones (UB → UB may overlap), stay with memmove.
#include "normgrad_ascendc/runtime/data_copy.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/runtime/env_setting.h"
#include "ascendc/runtime/gm_registry.h"
#include "ascendc/runtime/gm_store.h"
#include "ascendc/runtime/init_check.h"
#include "ascendc/runtime/race_check.h"
#include "engine/dispatch.h"
#include "normgrad_ascendc/cube/cube_table_copy.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

DataCopyMode ParseMode(const char* value) {
  if (value == nullptr || *value == '\0' || std::strcmp(value, "check") == 0) {
    return DataCopyMode::kCheck;
  }
  if (std::strcmp(value, "truncate") == 0) return DataCopyMode::kTruncate;
  Fail(
      "NORMGRAD_DATACOPY: unknown value \"%s\"; valid: check (default), "
      "truncate",
      value);
}

EnvSetting<DataCopyMode> g_mode{"NORMGRAD_DATACOPY", ParseMode};

// Copies of at least this many bytes go as interleaved streams.
constexpr uint64_t kStreamedCopyBytes = 16 * 1024;

// A LocalTensor end may lie in a cube core's L1 (GM <-> L1 copies); the
// sync and init checks follow the UB only.
bool IsCubeEnd(const CopyEnd& end) {
  return end.ub != nullptr && IsCubePosition(end.ub->position);
}

const char* Side(const CopyEnd& end) {
  if (IsCubeEnd(end)) return CubeMemoryName(CubeMemoryOf(end.ub->position));
  return end.ub != nullptr ? "UB" : "GM";
}

// The API as messages name it: "DataCopy<float> GM->UB", or without a type
// ("asc_copy_gm2ub GM->UB") when type_name is empty.
struct OpName {
  OpName(const char* api, const char* type_name, const CopyEnd& dst,
         const CopyEnd& src) {
    if (*type_name == '\0') {
      JoinName(text, sizeof text, {api, " ", Side(src), "->", Side(dst)});
    } else {
      JoinName(text, sizeof text,
               {api, "<", type_name, "> ", Side(src), "->", Side(dst)});
    }
  }
  char text[96];
};

// An end must have memory, and a UB end must start at a 32-byte boundary.
void CheckEnd(const OpName& op, const char* which, const CopyEnd& end) {
  if (IsCubeEnd(end)) {
    CheckL1CopyEnd(op.text, which, *end.ub);
  } else if (end.ub != nullptr) {
    end.ub->CheckUbOperand(op.text, which);
  } else if (end.data == nullptr) {
    Fail("%s: %s GlobalTensor has no buffer (call SetGlobalBuffer first)",
         op.text, which);
  }
}

// Both ends; the 950 has no L1 -> GM path.
void CheckEnds(const OpName& op, const CopyEnd& dst, const CopyEnd& src) {
  CheckEnd(op, "dst", dst);
  CheckEnd(op, "src", src);
  if (IsCubeEnd(src) && dst.ub == nullptr && OnProfile950()) {
    Fail(
        "%s: not available on profile %s: the 950 has no L1 -> GM path; "
        "multiply by an identity matrix into L0C and Fixpipe it to GM",
        op.text, CurrentCore().profile().name);
  }
}

void CheckRange(const OpName& op, const char* which, const CopyEnd& end,
                uint32_t count, uint32_t asked) {
  if (!end.sized || count <= end.elems) return;
  char counted[64] = "";
  if (count != asked) {
    std::snprintf(counted, sizeof counted, " (%u rounded down to %u)", asked,
                  count);
  }
  Fail("%s: count %u%s exceeds the %s %s of %llu elements", op.text, count,
       counted, which, end.ub != nullptr ? "LocalTensor" : "GlobalTensor",
       static_cast<unsigned long long>(end.elems));
}

// A block pattern on one side: `count` runs of `bytes`, `pitch` bytes from
// one run's start to the next; it spans (count - 1) * pitch + bytes bytes.
struct Runs {
  uint32_t count;
  uint64_t bytes;
  uint64_t pitch;
  uint64_t span() const { return count == 0 ? 0 : (count - 1) * pitch + bytes; }
};

// The runs must stay inside the tensor (and a GM end inside its allocation).
// `how` describes the parameters for the message.
void CheckRuns(const OpName& op, const char* which, const CopyEnd& end,
               uint32_t elem_bytes, const Runs& runs, const char* how) {
  const uint64_t span = runs.span();
  if (end.sized && span > end.elems * elem_bytes) {
    Fail(
        "%s: %s reach %llu bytes into %s, past the end of the %s of %llu "
        "elements (%llu bytes)",
        op.text, how, static_cast<unsigned long long>(span), which,
        end.ub != nullptr ? "LocalTensor" : "GlobalTensor",
        static_cast<unsigned long long>(end.elems),
        static_cast<unsigned long long>(end.elems * elem_bytes));
  }
  if (end.ub == nullptr) {
    CheckGmAccess(op.text, end.base, end.data, span,
                  /*write=*/which[0] == 'd');
  }
}

// Tells the sync check of one run of a copy between GM and UB: GM -> UB runs
// on MTE2 (reads GM, writes UB), UB -> GM on MTE3. UB -> UB copies are not
// followed by the sync check (docs/checks.md); the init check and
// CheckLocalMemoryIA's registers learn of them here, as the copies' UB
// pointers are not announced (UbEnd).
void NoteCopy(const OpName& op, const CopyEnd& dst, const uint8_t* to,
              const CopyEnd& src, const uint8_t* from, uint64_t bytes) {
  if (!SyncCheckOn() || IsCubeEnd(dst) || IsCubeEnd(src)) return;
  if (dst.ub != nullptr && src.ub != nullptr) {
    CheckLocalMemoryAccess(kIaMteRead, op.text, from - src.ub->core->ub(),
                           bytes);
    CheckLocalMemoryAccess(kIaMteWrite, op.text, to - dst.ub->core->ub(),
                           bytes);
    InitUbAccess(op.text, from - src.ub->core->ub(), bytes, false, true);
    InitUbAccess(op.text, to - dst.ub->core->ub(), bytes, true, false);
  } else if (dst.ub != nullptr) {
    NoteGmCopy(SyncPipe::kMte2, op.text, from, bytes);
    NoteUbAccess(SyncPipe::kMte2, op.text, to - dst.ub->core->ub(), bytes,
                 true);
  } else if (src.ub != nullptr && dst.ub == nullptr) {
    NoteUbAccess(SyncPipe::kMte3, op.text, from - src.ub->core->ub(), bytes,
                 false, /*exact=*/true);
    NoteGmCopy(SyncPipe::kMte3, op.text, to, bytes);
  }
}

// Moves run k of `bytes` from src + k * src_pitch to dst + k * dst_pitch;
// writes to GM go through StoreToGm.
void MoveRuns(const OpName& op, const CopyEnd& dst, const CopyEnd& src,
              uint32_t count, uint64_t bytes, uint64_t src_pitch,
              uint64_t dst_pitch) {
  for (uint32_t k = 0; k < count; ++k) {
    uint8_t* to = dst.data + k * dst_pitch;
    const uint8_t* from = src.data + k * src_pitch;
    NoteCopy(op, dst, to, src, from, bytes);
    if (src.ub == nullptr) NoteGmRead(op.text, from, bytes);
    if (dst.ub == nullptr) {
      StoreToGm(op.text, to, from, bytes);
    } else {
      CopyBytes(to, from, bytes);
    }
  }
}

}  // namespace

void CopyBytes(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  const auto d = reinterpret_cast<uintptr_t>(dst);
  const auto s = reinterpret_cast<uintptr_t>(src);
  if (bytes >= kStreamedCopyBytes && (d + bytes <= s || s + bytes <= d)) {
    normgrad::engine::ElementwiseIsa().vector.copy_streams(dst, src, bytes);
  } else {
    std::memmove(dst, src, bytes);
  }
}

DataCopyMode GetDataCopyMode() { return g_mode.Get(); }

void SetDataCopyMode(DataCopyMode mode) { g_mode.Set(mode); }

namespace {

// DataCopyImpl and DataCopyStridedImpl for one loop-mode iteration (or the
// whole copy without loop mode).
void CountCopy(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
               const CopyEnd& src, uint32_t count, const char* api) {
  const OpName op(api, type_name, dst, src);
  CheckEnds(op, dst, src);
  const uint32_t asked = count;
  const uint64_t bytes = uint64_t{count} * elem_bytes;
  if (bytes % 32 != 0) {
    // The 950 profile follows its page: the count rounds down, no error.
    if (GetDataCopyMode() == DataCopyMode::kCheck &&
        CurrentCore().profile().profile != Profile::k950) {
      Fail(
          "%s: count %u (%llu bytes) is not a multiple of 32 bytes; the "
          "device would silently drop the last %llu bytes "
          "(NORMGRAD_DATACOPY=truncate mimics that)",
          op.text, count, static_cast<unsigned long long>(bytes),
          static_cast<unsigned long long>(bytes % 32));
    }
    count = static_cast<uint32_t>(bytes / 32 * 32 / elem_bytes);
  }
  CheckRange(op, "src", src, count, asked);
  CheckRange(op, "dst", dst, count, asked);
  const uint64_t moved = uint64_t{count} * elem_bytes;
  NoteCopy(op, dst, dst.data, src, src.data, moved);
  if (src.ub == nullptr) {
    CheckGmAccess(op.text, src.base, src.data, moved, false);
    NoteGmRead(op.text, src.data, moved);
  }
  if (dst.ub == nullptr) {
    CheckGmAccess(op.text, dst.base, dst.data, moved, true);
    StoreToGm(op.text, dst.data, src.data, moved);
  } else {
    CopyBytes(dst.data, src.data, moved);
  }
}

void StridedCopy(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
                 const CopyEnd& src, const AscendC::DataCopyParams& params,
                 const char* api) {
  const OpName op(api, type_name, dst, src);
  CheckEnds(op, dst, src);
  if (params.blockCount > 4095) {
    Fail("%s: repeatParams.blockCount %u is out of range: it must be 0 to 4095",
         op.text, params.blockCount);
  }
  // blockCount or blockLen 0: the device does nothing.
  if (params.blockCount == 0 || params.blockLen == 0) return;
  const uint64_t bytes = uint64_t{params.blockLen} * 32;
  const Runs from{params.blockCount, bytes,
                  bytes + uint64_t{params.srcStride} * 32};
  const Runs to{params.blockCount, bytes,
                bytes + uint64_t{params.dstStride} * 32};
  char how[160];
  std::snprintf(how, sizeof how,
                "repeatParams {blockCount %u, blockLen %u, srcStride %u, "
                "dstStride %u} (units of 32 bytes)",
                params.blockCount, params.blockLen, params.srcStride,
                params.dstStride);
  CheckRuns(op, "src", src, elem_bytes, from, how);
  CheckRuns(op, "dst", dst, elem_bytes, to, how);
  MoveRuns(op, dst, src, params.blockCount, bytes, from.pitch, to.pitch);
}

}  // namespace

void DataCopyImpl(const char* type_name, uint32_t elem_bytes,
                  const CopyEnd& dst, const CopyEnd& src, uint32_t count,
                  const char* api) {
  if (dst.ub != nullptr && IsCubeTablePosition(dst.ub->position)) {
    RunL1ToCubeTable({type_name, elem_bytes}, {type_name, elem_bytes}, *dst.ub,
                     src.ub, count, nullptr);
    return;
  }
  const auto once = [&](const CopyEnd& d, const CopyEnd& s) {
    CountCopy(type_name, elem_bytes, d, s, count, api);
  };
  if (!RunLoopMode(api, elem_bytes, dst, src, once)) once(dst, src);
}

void DataCopyStridedImpl(const char* type_name, uint32_t elem_bytes,
                         const CopyEnd& dst, const CopyEnd& src,
                         const AscendC::DataCopyParams& params,
                         const char* api) {
  if (dst.ub != nullptr && IsCubeTablePosition(dst.ub->position)) {
    RunL1ToCubeTable({type_name, elem_bytes}, {type_name, elem_bytes}, *dst.ub,
                     src.ub, 0, &params);
    return;
  }
  const auto once = [&](const CopyEnd& d, const CopyEnd& s) {
    StridedCopy(type_name, elem_bytes, d, s, params, api);
  };
  if (!RunLoopMode(api, elem_bytes, dst, src, once)) once(dst, src);
}

namespace {

// The bursts a slice description selects, as byte offsets from the tensor's
// start in order (the last dimension outermost), each `burst` bytes long.
void SliceOffsets(const OpName& op, const char* which,
                  const AscendC::SliceInfo slices[], uint32_t dims,
                  uint32_t elem_bytes, std::vector<uint64_t>* offsets,
                  uint64_t* burst) {
  const uint32_t per_block = 32 / elem_bytes;
  offsets->assign(1, 0);
  uint64_t dim_elems = 1;  // elements of one step of the current dimension
  for (uint32_t d = 0; d < dims; ++d) {
    const AscendC::SliceInfo& s = slices[d];
    if (d > 0 && s.burstLen != 1) {
      Fail(
          "%s: %sSliceInfo[%u].burstLen %u must be 1 beyond the first "
          "dimension",
          op.text, which, d, s.burstLen);
    }
    if (!(s.startIndex < s.endIndex && s.endIndex <= s.shapeValue)) {
      Fail(
          "%s: %sSliceInfo[%u] {startIndex %u, endIndex %u, shapeValue %u} "
          "must have startIndex < endIndex <= shapeValue",
          op.text, which, d, s.startIndex, s.endIndex, s.shapeValue);
    }
    const uint64_t run = d == 0 ? uint64_t{s.burstLen} * per_block : 1;
    const uint64_t span = uint64_t{s.endIndex} - s.startIndex + 1;
    const uint64_t step = run + s.stride;
    if (run == 0 || (span + s.stride) % step != 0) {
      Fail(
          "%s: %sSliceInfo[%u] {startIndex %u, endIndex %u, stride %u, "
          "burstLen %u}: endIndex - startIndex + 1 (%llu) must be "
          "(N - 1) * stride + N * %llu for a whole number N of bursts",
          op.text, which, d, s.startIndex, s.endIndex, s.stride, s.burstLen,
          static_cast<unsigned long long>(span),
          static_cast<unsigned long long>(run));
    }
    const uint64_t n = (span + s.stride) / step;
    if (d == 0) *burst = run * elem_bytes;
    std::vector<uint64_t> next;
    next.reserve(offsets->size() * n);
    for (uint64_t k = 0; k < n; ++k) {
      const uint64_t at = (s.startIndex + k * step) * dim_elems * elem_bytes;
      for (const uint64_t inner : *offsets) next.push_back(at + inner);
    }
    offsets->swap(next);
    dim_elems *= s.shapeValue;
  }
}

}  // namespace

void DataCopySliceImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const AscendC::SliceInfo dst_slices[],
                       const AscendC::SliceInfo src_slices[], uint32_t dims) {
  const OpName op("DataCopy", type_name, dst, src);
  CheckEnds(op, dst, src);
  if (dims == 0 || dims > static_cast<uint32_t>(AscendC::K_MAX_DIM)) {
    Fail("%s: dimValue %u is out of range: it must be 1 to K_MAX_DIM (%d)",
         op.text, dims, AscendC::K_MAX_DIM);
  }
  for (uint32_t d = 0; d < dims; ++d) {
    if (dst_slices[d].burstLen != src_slices[d].burstLen) {
      Fail(
          "%s: dstSliceInfo[%u].burstLen %u differs from srcSliceInfo[%u]."
          "burstLen %u; they must be equal",
          op.text, d, dst_slices[d].burstLen, d, src_slices[d].burstLen);
    }
  }
  std::vector<uint64_t> from, to;
  uint64_t burst = 0;
  SliceOffsets(op, "src", src_slices, dims, elem_bytes, &from, &burst);
  SliceOffsets(op, "dst", dst_slices, dims, elem_bytes, &to, &burst);
  if (from.size() != to.size()) {
    Fail(
        "%s: srcSliceInfo selects %zu bursts but dstSliceInfo %zu; they "
        "must select as many",
        op.text, from.size(), to.size());
  }
  uint64_t src_span = 0, dst_span = 0;
  for (size_t k = 0; k < from.size(); ++k) {
    src_span = std::max(src_span, from[k] + burst);
    dst_span = std::max(dst_span, to[k] + burst);
  }
  CheckRuns(op, "src", src, elem_bytes, Runs{1, src_span, 0},
            "srcSliceInfo's bursts");
  CheckRuns(op, "dst", dst, elem_bytes, Runs{1, dst_span, 0},
            "dstSliceInfo's bursts");
  for (size_t k = 0; k < from.size(); ++k) {
    NoteCopy(op, dst, dst.data + to[k], src, src.data + from[k], burst);
    if (src.ub == nullptr) NoteGmRead(op.text, src.data + from[k], burst);
    if (dst.ub == nullptr) {
      StoreToGm(op.text, dst.data + to[k], src.data + from[k], burst);
    } else {
      CopyBytes(dst.data + to[k], src.data + from[k], burst);
    }
  }
}

void CopyImpl(const char* type_name, uint32_t elem_bytes, const CopyEnd& dst,
              const CopyEnd& src, uint32_t count) {
  const OpName op("Copy", type_name, dst, src);
  CheckEnds(op, dst, src);
  CheckRange(op, "src", src, count, count);
  CheckRange(op, "dst", dst, count, count);
  const uint64_t bytes = uint64_t{count} * elem_bytes;
  NoteCopy(op, dst, dst.data, src, src.data, bytes);
  CopyBytes(dst.data, src.data, bytes);
}

namespace {

// Checks a scalar GM access; the caller's name is formatted only for a
// message (scalar accesses sit in kernels' inner loops).
void CheckScalar(const char* api_format, const char* type_name,
                 const void* base, const void* gm, uint32_t bytes, bool write) {
  if (GmAccessOk(base, gm, bytes, write) &&
      (write || GmLoadOk(static_cast<const uint8_t*>(gm), bytes))) {
    return;
  }
  char api[96];
  std::snprintf(api, sizeof api, api_format, type_name);
  CheckGmAccess(api, base, gm, bytes, write);
}

}  // namespace

void ReadGmScalar(const char* api_format, const char* type_name, void* out,
                  const void* base, const void* gm, uint32_t bytes) {
  CheckScalar(api_format, type_name, base, gm, bytes, false);
  if (GmChecksRun()) {
    char api[96];
    std::snprintf(api, sizeof api, api_format, type_name);
    NoteGmRead(api, gm, bytes);
  }
  std::memcpy(out, gm, bytes);
}

void WriteGmScalar(const char* api_format, const char* type_name,
                   const void* base, void* gm, const void* value,
                   uint32_t bytes) {
  CheckScalar(api_format, type_name, base, gm, bytes, true);
  char api[96] = "";
  if (GmChecksRun()) std::snprintf(api, sizeof api, api_format, type_name);
  StoreToGm(api, static_cast<uint8_t*>(gm), static_cast<const uint8_t*>(value),
            bytes);
}

namespace {

// The NDDMA instruction exists on the 950 only.
void CheckNdDmaProfile(const char* api) {
  const ProfileInfo& profile = CurrentCore().profile();
  if (profile.profile != Profile::k950) {
    Fail("%s: NDDMA is not available on profile %s (Ascend 950 only)", api,
         profile.name);
  }
}

}  // namespace

void NdDmaDciImpl() { CheckNdDmaProfile("NdDmaDci"); }

void DataCopyNdDmaImpl(const char* type_name, uint32_t elem_bytes,
                       const CopyEnd& dst, const CopyEnd& src,
                       const NdDmaCopy& copy) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s> GM->UB (NDDMA)", type_name);
  CheckNdDmaProfile(api);
  const OpName op("DataCopy", type_name, dst, src);
  CheckEnds(op, dst, src);
  const uint32_t n = copy.dims;
  bool pad_is_zero = true;
  for (uint32_t b = 0; b < elem_bytes; ++b) {
    pad_is_zero &= static_cast<const uint8_t*>(copy.pad)[b] == 0;
  }
  if (elem_bytes == 8 && copy.nearest) {
    Fail("%s: isNearestValueMode must be false for 64-bit elements", api);
  }
  if (elem_bytes == 8 && !pad_is_zero) {
    Fail("%s: constantValue must be 0 for 64-bit elements", api);
  }
  // Each loop: its ranges, and how many destination positions it has.
  uint64_t extent[5];
  uint64_t dst_last = 0;  // the last destination element written
  uint64_t src_last = 0;  // the last source element read
  bool empty = false;
  for (uint32_t d = 0; d < n; ++d) {
    if (copy.src_stride[d] >= (uint64_t{1} << 40)) {
      Fail(
          "%s: loopInfo.loopSrcStride[%u] %llu is out of range (0 to 2^40 - 1)",
          api, d, static_cast<unsigned long long>(copy.src_stride[d]));
    }
    if (copy.dst_stride[d] >= (1u << 20)) {
      Fail("%s: loopInfo.loopDstStride[%u] %u is out of range (0 to 2^20 - 1)",
           api, d, copy.dst_stride[d]);
    }
    if (copy.size[d] >= (1u << 20)) {
      Fail("%s: loopInfo.loopSize[%u] %u is out of range (0 to 2^20 - 1)", api,
           d, copy.size[d]);
    }
    if (copy.size[d] == 0 && copy.nearest && copy.lp[d] + copy.rp[d] != 0) {
      Fail(
          "%s: loop %u pads with the nearest element but moves none "
          "(loopSize 0)",
          api, d);
    }
    extent[d] = uint64_t{copy.lp[d]} + copy.size[d] + copy.rp[d];
    if (extent[d] == 0) empty = true;
  }
  if (empty) return;
  // When the destination strides ascend, a loop's steps may not reach into
  // the span of the loops inside it (the page: the loops may not interleave).
  bool ascending = true;
  for (uint32_t d = 1; d < n; ++d) {
    ascending &= copy.dst_stride[d] >= copy.dst_stride[d - 1];
  }
  for (uint32_t d = 0; d < n; ++d) {
    if (ascending && d > 0 && extent[d] > 1 &&
        dst_last + 1 > copy.dst_stride[d]) {
      Fail(
          "%s: loopDstStride[%u] %u is less than the %llu elements loops 0 to "
          "%u span; with ascending strides the loops may not interleave",
          api, d, copy.dst_stride[d],
          static_cast<unsigned long long>(dst_last + 1), d - 1);
    }
    dst_last += (extent[d] - 1) * copy.dst_stride[d];
    if (copy.size[d] > 0) src_last += (copy.size[d] - 1) * copy.src_stride[d];
  }
  if (dst_last >= dst.elems) {
    Fail(
        "%s: the loops write element %llu of dst, past the end of the "
        "LocalTensor of %llu elements",
        api, static_cast<unsigned long long>(dst_last),
        static_cast<unsigned long long>(dst.elems));
  }
  bool reads = true;  // some position takes a source element
  for (uint32_t d = 0; d < n; ++d) reads &= copy.size[d] > 0 || copy.nearest;
  if (reads) {
    if (src.sized && src_last >= src.elems) {
      Fail(
          "%s: the loops read element %llu of src, past the end of the "
          "GlobalTensor of %llu elements",
          api, static_cast<unsigned long long>(src_last),
          static_cast<unsigned long long>(src.elems));
    }
    const uint64_t src_bytes = (src_last + 1) * elem_bytes;
    CheckGmAccess(op.text, src.base, src.data, src_bytes, false);
    NoteGmRead(op.text, src.data, src_bytes);
  }
  const uint64_t dst_bytes = (dst_last + 1) * elem_bytes;
  NoteCopy(op, dst, dst.data, src, src.data, dst_bytes);
  // Every destination position, innermost loop fastest.
  uint64_t pos[5] = {};
  for (;;) {
    uint64_t to = 0;
    uint64_t from = 0;
    bool padding = false;
    for (uint32_t d = 0; d < n; ++d) {
      to += pos[d] * copy.dst_stride[d];
      uint64_t j;  // the source element of this loop
      if (pos[d] < copy.lp[d]) {
        padding = true;
        j = 0;
      } else if (pos[d] >= copy.lp[d] + uint64_t{copy.size[d]}) {
        padding = true;
        j = copy.size[d] == 0 ? 0 : copy.size[d] - 1;
      } else {
        j = pos[d] - copy.lp[d];
      }
      from += j * copy.src_stride[d];
    }
    const uint8_t* value = padding && !copy.nearest
                               ? static_cast<const uint8_t*>(copy.pad)
                               : src.data + from * elem_bytes;
    std::memcpy(dst.data + to * elem_bytes, value, elem_bytes);
    uint32_t d = 0;
    while (d < n && ++pos[d] == extent[d]) pos[d++] = 0;
    if (d == n) break;
  }
}

namespace {

// The current core's loop-mode registers: its TPipe's, else the thread's.
LoopModeRegister& CurrentLoopMode() {
  AscendC::TPipe* pipe = CurrentCore().pipe();
  if (pipe != nullptr) return pipe->loop_mode();
  thread_local LoopModeRegister without_pipe;
  return without_pipe;
}

const char* DirectionName(AscendC::DataCopyMVType type) {
  return type == AscendC::DataCopyMVType::OUT_TO_UB ? "OUT_TO_UB" : "UB_TO_OUT";
}

uint32_t DirectionIndex(const char* api, AscendC::DataCopyMVType type) {
  const auto index = static_cast<uint32_t>(type);
  if (index > 1) {
    Fail("%s: type %u is not a DataCopyMVType (UB_TO_OUT 0, OUT_TO_UB 1)", api,
         index);
  }
  const ProfileInfo& profile = CurrentCore().profile();
  if (profile.profile != Profile::k950) {
    Fail("%s: loop mode is not available on profile %s (Ascend 950 only)", api,
         profile.name);
  }
  return index;
}

}  // namespace

const AscendC::LoopModeParams* ActiveLoopMode(bool to_ub) {
  if (CurrentCore().profile().profile != Profile::k950) return nullptr;
  const LoopModeRegister& reg = CurrentLoopMode();
  const uint32_t index = to_ub ? 1 : 0;
  return reg.set[index] ? &reg.params[index] : nullptr;
}

CopyEnd LoopShifted(const char* api, const char* which, const CopyEnd& end,
                    uint64_t bytes, uint32_t elem_bytes, uint32_t i1,
                    uint32_t i2, TensorView* view) {
  if (bytes % elem_bytes != 0) {
    Fail(
        "%s: loop mode moves %s %llu bytes at iteration (%u, %u), not a "
        "whole number of %u-byte elements",
        api, which, static_cast<unsigned long long>(bytes), i1, i2, elem_bytes);
  }
  if (end.sized && bytes > end.elems * elem_bytes) {
    Fail(
        "%s: loop mode moves %s %llu bytes at iteration (%u, %u), past the "
        "end of its %llu bytes",
        api, which, static_cast<unsigned long long>(bytes), i1, i2,
        static_cast<unsigned long long>(end.elems * elem_bytes));
  }
  CopyEnd moved = end;
  moved.data = end.data + bytes;
  if (end.sized) moved.elems = end.elems - bytes / elem_bytes;
  if (end.ub != nullptr) {
    *view = *end.ub;
    view->offset += static_cast<uint32_t>(bytes);
    view->bytes -= static_cast<uint32_t>(bytes);
    moved.ub = view;
  }
  return moved;
}

void SetLoopModeParaImpl(const AscendC::LoopModeParams& params,
                         AscendC::DataCopyMVType type) {
  const char* api = "SetLoopModePara";
  const uint32_t index = DirectionIndex(api, type);
  const bool to_ub = type == AscendC::DataCopyMVType::OUT_TO_UB;
  constexpr uint64_t k21 = uint64_t{1} << 21;
  constexpr uint64_t k40 = uint64_t{1} << 40;
  for (const auto& [name, size] :
       {std::pair<const char*, uint32_t>{"loop1Size", params.loop1Size},
        {"loop2Size", params.loop2Size}}) {
    if (size >= k21) {
      Fail("%s: loopParams.%s %u is out of range (0 to 2^21 - 1)", api, name,
           size);
    }
  }
  // The UB side's strides: below 2^21 and whole 32-byte blocks; GM's below
  // 2^40.
  const struct {
    const char* name;
    uint64_t value;
    bool ub;
  } strides[] = {{"loop1SrcStride", params.loop1SrcStride, !to_ub},
                 {"loop1DstStride", params.loop1DstStride, to_ub},
                 {"loop2SrcStride", params.loop2SrcStride, !to_ub},
                 {"loop2DstStride", params.loop2DstStride, to_ub}};
  for (const auto& stride : strides) {
    if (stride.value >= (stride.ub ? k21 : k40)) {
      Fail("%s: loopParams.%s %llu is out of range for %s (0 to 2^%d - 1)", api,
           stride.name, static_cast<unsigned long long>(stride.value),
           DirectionName(type), stride.ub ? 21 : 40);
    }
    if (stride.ub && stride.value % 32 != 0) {
      Fail(
          "%s: loopParams.%s %llu is not a multiple of 32 bytes (the UB "
          "side's strides are, for %s)",
          api, stride.name, static_cast<unsigned long long>(stride.value),
          DirectionName(type));
    }
  }
  LoopModeRegister& reg = CurrentLoopMode();
  reg.set[index] = true;
  reg.params[index] = params;
}

void ResetLoopModeParaImpl(AscendC::DataCopyMVType type) {
  const uint32_t index = DirectionIndex("ResetLoopModePara", type);
  LoopModeRegister& reg = CurrentLoopMode();
  reg.set[index] = false;
  reg.params[index] = {};
}

}  // namespace normgrad_ascendc

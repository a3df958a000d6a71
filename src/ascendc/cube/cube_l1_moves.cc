// cube_l1_moves.cc — the vector core's format-converting matrix copies
// (normgrad_ascendc/cube/cube_l1_moves.h, docs/cube.md "Matrix moves"): GM →
// UB with ND2NZ, through the ND2NZ move the L1 form uses (cube_ops.cc), and
// UB → GM with NZ2ND. Each checks its page's ranges before it moves a byte,
// and tells the sync, init and race checks what it reads and writes.
#include <cstdint>
#include <cstdio>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/runtime/gm_store.h"
#include "normgrad_ascendc/cube/cube_l1_moves.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/sync_check.h"

namespace normgrad_ascendc {

namespace {

// The Nz side of NZ2ND: column blocks of 16 elements, whatever the type.
constexpr uint32_t kNzColumns = 16;
// srcNdMatrixStride counts 16 x 16 elements.
constexpr uint32_t kNzMatrixUnit = 256;

}  // namespace

void RunNd2NzToUb(const char* type_name, uint32_t elem_bytes,
                  const TensorView& dst, const GmSide& src,
                  const AscendC::Nd2NzParams& p) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s> GM->UB (Nd2NzParams)",
                type_name);
  dst.CheckUbOperand(api, "dst");
  if (src.int4) {
    Fail(
        "%s: int4b_t does not move into the UB with ND2NZ (the types are "
        "int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, "
        "uint32_t and float)",
        api);
  }
  CheckRange(api, "intriParams.ndNum", p.ndNum, 0, 4095);
  CheckRange(api, "intriParams.nValue", p.nValue, 0, 16384);
  if (p.ndNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // a NOP
  CheckRange(api, "intriParams.srcDValue", p.srcDValue, 1, 65535);
  CheckRange(api, "intriParams.dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
  CheckRange(api, "intriParams.dstNzNStride", p.dstNzNStride, 1, 16384);
  // One matrix does not use the stride to the next (docs/decisions.md).
  if (p.ndNum > 1) {
    CheckRange(api, "intriParams.dstNzMatrixStride", p.dstNzMatrixStride, 1,
               65535);
  }
  const Nd2NzExtent extent = Nd2NzExtentOf(elem_bytes, p);
  CheckFits(api, "dst", extent.dst_bytes, dst.bytes,
            "the last Nz piece written");
  CheckGmSide(api, "src", src, elem_bytes, extent.src_elems, false);
  Nd2NzPiece note;
  if (SyncCheckOn()) {
    // MTE2 reads each piece's data from GM and writes its 32 bytes.
    note = [&](const uint8_t* from, uint32_t data_bytes, uint64_t to) {
      NoteGmCopy(SyncPipe::kMte2, api, from, data_bytes);
      NoteTensorAccess(SyncPipe::kMte2, api, dst, to, 32, true);
    };
  }
  MoveNd2Nz(api, elem_bytes, dst.declared_data(), src, p, note);
}

void RunNz2Nd(const char* type_name, uint32_t elem_bytes, const GmSide& dst,
              const TensorView& src, const AscendC::Nz2NdParamsFull& p) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s> UB->GM (Nz2NdParamsFull)",
                type_name);
  src.CheckUbOperand(api, "src");
  CheckRange(api, "intriParams.ndNum", p.ndNum, 0, 4095);
  if (p.ndNum == 0) return;  // a NOP
  CheckRange(api, "intriParams.nValue", p.nValue, 1, 8192);
  CheckRange(api, "intriParams.dValue", p.dValue, 1, 8192);
  if (p.dValue % kNzColumns != 0) {
    Fail(
        "%s: intriParams.dValue %u is not a multiple of 16 (the Nz column "
        "blocks are 16 elements wide)",
        api, p.dValue);
  }
  CheckRange(api, "intriParams.srcNdMatrixStride", p.srcNdMatrixStride, 1, 512);
  CheckRange(api, "intriParams.srcNStride", p.srcNStride, 0, 4096);
  CheckRange(api, "intriParams.dstDStride", p.dstDStride, 1, 65535);
  CheckRange(api, "intriParams.dstNdMatrixStride", p.dstNdMatrixStride, 1,
             65535);
  // Overlapping rows would leave GM to the order of the writes.
  if (p.nValue > 1 && p.dstDStride < p.dValue) {
    Fail(
        "%s: intriParams.dstDStride %u is less than dValue %u: the ND rows "
        "of a matrix would overlap in dst",
        api, p.dstDStride, p.dValue);
  }
  const uint32_t blocks = p.dValue / kNzColumns;
  const uint64_t last = p.ndNum - 1u;
  // Element counts: the end of the last Nz row read, of the last ND row
  // written.
  const uint64_t src_end = last * p.srcNdMatrixStride * kNzMatrixUnit +
                           uint64_t{blocks - 1} * p.srcNStride * kNzColumns +
                           uint64_t{p.nValue} * kNzColumns;
  const uint64_t dst_end = last * p.dstNdMatrixStride +
                           uint64_t{p.nValue - 1u} * p.dstDStride + p.dValue;
  CheckFits(api, "src", src_end * elem_bytes, src.bytes,
            "the last Nz row read");
  CheckGmSide(api, "dst", dst, elem_bytes, dst_end, true);
  const uint8_t* in = src.declared_data();
  const uint64_t piece = uint64_t{kNzColumns} * elem_bytes;
  for (uint32_t i = 0; i < p.ndNum; ++i) {
    for (uint32_t r = 0; r < p.nValue; ++r) {
      for (uint32_t j = 0; j < blocks; ++j) {
        const uint64_t from =
            (uint64_t{i} * p.srcNdMatrixStride * kNzMatrixUnit +
             uint64_t{j} * p.srcNStride * kNzColumns +
             uint64_t{r} * kNzColumns) *
            elem_bytes;
        uint8_t* to =
            dst.data + (uint64_t{i} * p.dstNdMatrixStride +
                        uint64_t{r} * p.dstDStride + uint64_t{j} * kNzColumns) *
                           elem_bytes;
        if (SyncCheckOn()) {
          NoteTensorAccess(SyncPipe::kMte3, api, src, from, piece, false,
                           /*exact=*/true);
          NoteGmCopy(SyncPipe::kMte3, api, to, piece);
        }
        StoreToGm(api, to, in + from, piece);
      }
    }
  }
}

}  // namespace normgrad_ascendc

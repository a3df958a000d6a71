// cube_gm_l1_950.cc — the Ascend 950's moves from global memory into L1
// (normgrad_ascendc/cube/cube_gm_l1_950.h, docs/cube.md "The Ascend 950:
// moves into L1"): DataCopy with DN2NZ, LoadData 2D V2 by fractals, and the L1
// side of DataCopyPad GM → L1. Each checks the profile and its page's ranges
// before it moves a byte and tells the race check what it reads from GM.
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "ascendc/cube/cube_checks.h"
#include "ascendc/runtime/race_check.h"
#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace normgrad_ascendc {

namespace {

using AscendC::TPosition;

constexpr uint32_t kC0Bytes = 32;        // one Nz row piece
constexpr uint32_t kSmallC0Elems = 4;    // a SmallC0 row piece, in elements
constexpr uint32_t kFractalBytes = 512;  // 16 rows of 32 bytes
constexpr uint64_t kMax40Bits = (uint64_t{1} << 40) - 1;

uint64_t RoundUp32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }

// Marks each destination byte a move writes, to find two writes to one byte
// (the pages leave the order of overlapping writes undefined).
class WriteMap {
 public:
  WriteMap(const char* api, uint64_t bytes) : api_(api), seen_(bytes) {}
  void Mark(uint64_t at, uint64_t bytes, const char* what) {
    for (uint64_t b = at; b < at + bytes; ++b) {
      if (seen_[b]) {
        Fail(
            "%s: %s writes dst byte %llu a second time; the destination "
            "pieces must not overlap (check the dst strides)",
            api_, what, static_cast<unsigned long long>(b));
      }
      seen_[b] = true;
    }
  }

 private:
  const char* api_;
  std::vector<bool> seen_;
};

}  // namespace

// ---- DataCopy GM -> L1 with DN2NZ ------------------------------------------

void RunDn2Nz(const char* type_name, uint32_t elem_bytes, const TensorView& dst,
              const GmSide& src, const AscendC::Dn2NzParams& p, bool small_c0) {
  char api[64];
  std::snprintf(api, sizeof api, "DataCopy<%s> GM->L1 (Dn2NzParams)",
                type_name);
  RequireCubeProfile(api, {Profile::k950},
                     "DN2NZ is the Ascend 950's (Atlas A2/A3 take ND2NZ)");
  CheckOperand(api, "dst", dst, {TPosition::A1, TPosition::B1}, "A1 or B1 (L1)",
               kC0Bytes);
  CheckRange(api, "intriParams.dnNum", p.dnNum, 0, 4095);
  CheckRange(api, "intriParams.nValue", p.nValue, 0, 16384);
  CheckRange(api, "intriParams.dValue", p.dValue, 0, (1u << 21) - 1);
  CheckRange(api, "intriParams.srcDnMatrixStride", p.srcDnMatrixStride, 0,
             kMax40Bits);
  CheckRange(api, "intriParams.dstNzMatrixStride", p.dstNzMatrixStride, 0,
             16384);
  if (small_c0 && p.dValue > kSmallC0Elems) {
    Fail(
        "%s: enableSmallC0 with intriParams.dValue %u; SmallC0 applies when "
        "dValue is at most 4",
        api, p.dValue);
  }
  if (p.dnNum == 0 || p.nValue == 0 || p.dValue == 0) return;  // a NOP
  CheckRange(api, "intriParams.srcDValue", p.srcDValue, 1, kMax40Bits);
  if (!small_c0) {
    // SmallC0 packs the rows: its pages leave these two unset.
    CheckRange(api, "intriParams.dstNzC0Stride", p.dstNzC0Stride, 1, 16384);
    CheckRange(api, "intriParams.dstNzNStride", p.dstNzNStride, 1, 16384);
  }

  // A row piece: c0 elements, piece_bytes bytes; a SmallC0 matrix is padded
  // with zeros at its end to 32 bytes.
  const uint32_t c0 = small_c0 ? kSmallC0Elems : kC0Bytes / elem_bytes;
  const uint32_t piece_bytes = c0 * elem_bytes;
  const uint32_t pieces = (p.dValue + c0 - 1) / c0;  // per Nz row
  const auto piece_at = [&](uint32_t n, uint32_t j) -> uint64_t {
    if (small_c0) return uint64_t{n} * piece_bytes;
    return (uint64_t{j} * p.dstNzC0Stride + uint64_t{n} * p.dstNzNStride) *
           kC0Bytes;
  };
  const uint64_t matrix_bytes =
      small_c0 ? RoundUp32(uint64_t{p.nValue} * piece_bytes)
               : piece_at(p.nValue - 1u, pieces - 1) + kC0Bytes;
  const uint64_t last = p.dnNum - 1u;
  const uint64_t matrix_pitch = uint64_t{p.dstNzMatrixStride} * elem_bytes;
  const uint64_t dst_end = last * matrix_pitch + matrix_bytes;
  CheckFits(api, "dst", dst_end, dst.bytes, "the last Nz matrix");
  const uint64_t src_end = last * p.srcDnMatrixStride +
                           uint64_t{p.dValue - 1u} * p.srcDValue + p.nValue;
  CheckGmSide(api, "src", src, elem_bytes, src_end, false);
  // dstNzMatrixStride 0 makes every matrix overwrite the first, as the page
  // says: then the pieces of one matrix are the ones to compare.
  const uint32_t distinct = p.dstNzMatrixStride == 0 ? 1 : p.dnNum;
  WriteMap map(api, dst_end);
  for (uint32_t i = 0; i < distinct; ++i) {
    for (uint32_t n = 0; n < p.nValue; ++n) {
      for (uint32_t j = 0; j < pieces; ++j) {
        map.Mark(i * matrix_pitch + piece_at(n, j), piece_bytes, "a row piece");
      }
    }
  }

  uint8_t* out = dst.declared_data();
  for (uint32_t i = 0; i < p.dnNum; ++i) {
    const uint8_t* matrix =
        src.data + uint64_t{i} * p.srcDnMatrixStride * elem_bytes;
    uint8_t* nz = out + i * matrix_pitch;
    for (uint32_t d = 0; d < p.dValue; ++d) {
      NoteGmRead(api, matrix + uint64_t{d} * p.srcDValue * elem_bytes,
                 uint64_t{p.nValue} * elem_bytes);
    }
    if (small_c0) std::memset(nz, 0, matrix_bytes);
    for (uint32_t n = 0; n < p.nValue; ++n) {
      for (uint32_t j = 0; j < pieces; ++j) {
        uint8_t* to = nz + piece_at(n, j);
        for (uint32_t t = 0; t < c0; ++t) {
          const uint32_t d = j * c0 + t;
          if (d < p.dValue) {
            std::memcpy(to + t * elem_bytes,
                        matrix + (uint64_t{d} * p.srcDValue + n) * elem_bytes,
                        elem_bytes);
          } else {
            // Columns past dValue are padded with zeros.
            std::memset(to + t * elem_bytes, 0, elem_bytes);
          }
        }
      }
    }
  }
}

// ---- LoadData GM -> L1 (V2) ------------------------------------------------

void RunLoadDataGmToL1V2(const char* type_name, uint32_t elem_bytes,
                         const TensorView& dst, const GmSide& src,
                         const AscendC::LoadData2DParamsV2& p) {
  char api[64];
  std::snprintf(api, sizeof api, "LoadData<%s> GM->L1 (LoadData2DParamsV2)",
                type_name);
  RequireCubeProfile(api, {Profile::k950},
                     "LoadData2DParamsV2 is the Ascend 950's (Atlas A2/A3 "
                     "take LoadData2DParams)");
  CheckOperand(api, "dst", dst, {TPosition::A1, TPosition::B1}, "A1 or B1 (L1)",
               kC0Bytes);
  CheckRange(api, "loadDataParams.mStep", p.mStep, 0, 255);
  CheckRange(api, "loadDataParams.kStep", p.kStep, 0, 255);
  if (p.ifTranspose) {
    Fail(
        "%s: loadDataParams.ifTranspose is true; the GM -> L1 path does not "
        "transpose",
        api);
  }
  if (p.mStep == 0 || p.kStep == 0) return;  // a NOP
  if (p.srcStride < 0) {
    Fail(
        "%s: loadDataParams.srcStride %d is negative; it counts the fractals "
        "from one K column of the source to the next",
        api, p.srcStride);
  }
  const uint64_t src_stride = static_cast<uint64_t>(p.srcStride);
  if (p.kStep > 1 && p.dstStride < p.mStep) {
    Fail(
        "%s: loadDataParams.dstStride %u is less than mStep %u: the "
        "destination fractal columns would overlap",
        api, p.dstStride, p.mStep);
  }
  const uint64_t first =
      uint64_t{p.kStartPosition} * src_stride + p.mStartPosition;
  const uint64_t src_end =
      (first + uint64_t{p.kStep - 1u} * src_stride + p.mStep) * kFractalBytes;
  const uint64_t dst_end =
      (uint64_t{p.kStep - 1u} * p.dstStride + p.mStep) * kFractalBytes;
  CheckFits(api, "dst", dst_end, dst.bytes, "the fractals written");
  CheckGmSide(api, "src", src, elem_bytes, src_end / elem_bytes, false);
  uint8_t* out = dst.declared_data();
  for (uint32_t k = 0; k < p.kStep; ++k) {
    // The mStep fractals of one K column are contiguous on both sides.
    const uint8_t* from = src.data + (first + k * src_stride) * kFractalBytes;
    const uint64_t bytes = uint64_t{p.mStep} * kFractalBytes;
    NoteGmRead(api, from, bytes);
    std::memcpy(out + uint64_t{k} * p.dstStride * kFractalBytes, from, bytes);
  }
}

// ---- DataCopyPad GM -> L1 --------------------------------------------------

void CheckPadIntoL1(const char* api, const TensorView& dst) {
  RequireCubeProfile(api, {Profile::k950},
                     "DataCopyPad into L1 is the Ascend 950's (Atlas A2/A3 "
                     "copy GM -> L1 in whole 32-byte blocks with DataCopy)");
  CheckL1CopyEnd(api, "dst", dst);
}

}  // namespace normgrad_ascendc

// softmax_host_tiling.cc — the host tiling API of the SoftMax family: the
// scratch sizes, the tilings of SoftMax/SimpleSoftMax, SoftmaxFlash,
// SoftmaxFlashV2, SoftmaxFlashV3,
// SoftmaxGrad/SoftmaxGradFront and LogSoftMax, and the basic-block test
// (docs/softmax.md, "Host tiling"), on the rule of softmax_tiling.h, with
// normgrad's error policy (one message on stderr, the size 0 or the tiling
// zeroed).
#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "normgrad_ascendc/lib/activation/softmax_host_tiling.h"

namespace {

using normgrad_ascendc::kSoftMaxBasicRows;
using normgrad_ascendc::SoftMaxBasicShape;
using normgrad_ascendc::SoftMaxRowsFitting;
using normgrad_ascendc::SoftMaxScratchFloats;
using normgrad_ascendc::SoftMaxTilingFor;
using normgrad_ascendc::host_tiling::CheckTypeSize;
using normgrad_ascendc::host_tiling::kU32Max;
using normgrad_ascendc::host_tiling::Report;
using normgrad_ascendc::host_tiling::ShapeText;

constexpr char kSizeZero[] = "0 is returned";
constexpr char kTilingZeroed[] = "the tiling is zeroed";

// srcShape as [srcM, srcK].
struct Rows {
  uint32_t m;
  uint32_t k;
};

// Checks srcShape: at least two dimensions, each in [1, 2^32-1], srcM (the
// product of all but the last) and srcM·srcK within 32 bits, srcK·`bytes`
// a multiple of 32 (`bytes` the element size the rows are aligned for).
bool CheckShape(const char* fn, const ge::Shape& shape, uint32_t bytes,
                const char* consequence, Rows* rows) {
  const std::string text = "srcShape " + ShapeText(shape);
  const size_t rank = shape.GetDimNum();
  if (rank < 2) {
    Report(fn,
           text + " has " + std::to_string(rank) +
               " dimensions: it must have at least two, [m0, ..., n]",
           consequence);
    return false;
  }
  uint64_t m = 1;
  for (size_t i = 0; i < rank; ++i) {
    const int64_t d = shape.GetDim(i);
    if (d < 1 || static_cast<uint64_t>(d) > kU32Max) {
      Report(fn,
             text + " has dimension " + std::to_string(i) + " = " +
                 std::to_string(d) +
                 ": every dimension must be in [1, 4294967295]",
             consequence);
      return false;
    }
    if (i + 1 < rank) m *= static_cast<uint64_t>(d);
    if (m > kU32Max) break;
  }
  const uint64_t k = static_cast<uint64_t>(shape.GetDim(rank - 1));
  if (m > kU32Max || m * k > kU32Max) {
    Report(fn, text + " has more than 4294967295 rows or elements",
           consequence);
    return false;
  }
  if (k * bytes % 32 != 0) {
    Report(fn,
           text + " has a last dimension of " + std::to_string(k) + " (" +
               std::to_string(k * bytes) +
               " bytes): it must be 32-byte aligned (a multiple of " +
               std::to_string(32 / bytes) +
               "); pad the rows and pass the original length in "
               "SoftMaxShapeInfo",
           consequence);
    return false;
  }
  *rows = {static_cast<uint32_t>(m), static_cast<uint32_t>(k)};
  return true;
}

// The basic-block shape rules, when asked for.
bool CheckBasic(const char* fn, const ge::Shape& shape, const Rows& r,
                uint32_t bytes, const char* consequence) {
  if (SoftMaxBasicShape(r.m, r.k, bytes)) return true;
  Report(fn,
         "srcShape " + ShapeText(shape) + " is [" + std::to_string(r.m) + ", " +
             std::to_string(r.k) +
             "] rows: with isBasicBlock the last dimension must be a multiple "
             "of 64 in [" +
             std::to_string(256 / bytes) +
             ", 2048) and the rows a multiple of 8",
         consequence);
  return false;
}

// 4·rows·(k + 8) bytes, saturated at 2^32-1 when `saturate`; else a message
// and 0 when it does not fit.
uint32_t ScratchBytes(const char* fn, const ge::Shape& shape, uint64_t rows,
                      uint32_t k, bool saturate) {
  const uint64_t bytes = 4 * SoftMaxScratchFloats(rows, k);
  if (bytes <= kU32Max) return static_cast<uint32_t>(bytes);
  if (saturate) return static_cast<uint32_t>(kU32Max);
  Report(fn,
         "srcShape " + ShapeText(shape) + " needs at least " +
             std::to_string(bytes) +
             " bytes of scratch: no 32-bit scratch size is enough",
         kSizeZero);
  return 0;
}

// The shared tiling rule, or the zero tiling after one message.
AscendC::tiling::SoftMaxTiling MakeTiling(
    const char* fn, const ge::Shape& shape, uint32_t src_bytes,
    uint32_t stats_bytes, const char* stats_arg, uint32_t work_bytes,
    bool basic, bool unbroadcast) {
  Rows r;
  if (!CheckTypeSize(fn, stats_arg, stats_bytes, "half", kTilingZeroed) ||
      !CheckShape(fn, shape, src_bytes, kTilingZeroed, &r) ||
      (basic && !CheckBasic(fn, shape, r, src_bytes, kTilingZeroed))) {
    return {};
  }
  const uint32_t rows = SoftMaxRowsFitting(r.m, r.k, work_bytes, basic);
  if (rows == 0) {
    Report(fn,
           "localWorkSpaceSize " + std::to_string(work_bytes) +
               " bytes is less than the minimum " +
               std::to_string(4 * SoftMaxScratchFloats(
                                      basic ? kSoftMaxBasicRows : 1, r.k)) +
               " for srcShape " + ShapeText(shape) +
               " (call the MinTmpSize query)",
           kTilingZeroed);
    return {};
  }
  return SoftMaxTilingFor(r.m, r.k, unbroadcast ? 1 : 32 / stats_bytes, rows);
}

// The sizes of SoftMax / SimpleSoftMax: rows per chunk `rows` (0: srcM).
uint32_t SoftMaxSize(const char* fn, const ge::Shape& shape,
                     uint32_t data_type_size, bool max_size) {
  Rows r;
  if (!CheckTypeSize(fn, "dataTypeSize", data_type_size, "half", kSizeZero) ||
      !CheckShape(fn, shape, data_type_size, kSizeZero, &r)) {
    return 0;
  }
  return ScratchBytes(fn, shape, max_size ? r.m : 1, r.k, max_size);
}

uint32_t FlashV2Size(const char* fn, const ge::Shape& shape, uint32_t src_bytes,
                     uint32_t stats_bytes, bool basic, bool max_size) {
  Rows r;
  if (!CheckTypeSize(fn, "dataTypeSize1", src_bytes, "half", kSizeZero) ||
      !CheckTypeSize(fn, "dataTypeSize2", stats_bytes, "half", kSizeZero) ||
      !CheckShape(fn, shape, src_bytes, kSizeZero, &r) ||
      (basic && !CheckBasic(fn, shape, r, src_bytes, kSizeZero))) {
    return 0;
  }
  return ScratchBytes(fn, shape,
                      max_size ? r.m : (basic ? kSoftMaxBasicRows : 1), r.k,
                      max_size);
}

bool IsBasicBlock(const AscendC::tiling::SoftMaxTiling& t, uint32_t bytes) {
  return t.splitM != 0 && (bytes == 2 || bytes == 4) &&
         SoftMaxBasicShape(t.srcM, t.srcK, bytes) &&
         t.splitM % kSoftMaxBasicRows == 0;
}

// Copies a kernel-side tiling into a host class of the same fields.
template <typename HostTiling>
HostTiling& CopyToHost(const AscendC::tiling::SoftMaxTiling& kernel,
                       HostTiling& host) {
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_SET_FIELD)
  return host;
}

AscendC::tiling::SoftMaxTiling FromHost(const optiling::SoftMaxTiling& host) {
  AscendC::tiling::SoftMaxTiling t;
#define NORMGRAD_SOFTMAX_GET_FIELD(type, name) t.name = host.get_##name();
  NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_SOFTMAX_GET_FIELD)
#undef NORMGRAD_SOFTMAX_GET_FIELD
  return t;
}

}  // namespace

namespace AscendC {

uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize,
                              const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, true);
}

uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize,
                              const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, false);
}

void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling) {
  softmaxTiling =
      MakeTiling("SoftMaxTilingFunc", srcShape, dataTypeSize, dataTypeSize,
                 "dataTypeSize", localWorkSpaceSize, false, false);
}

void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling) {
  AscendC::tiling::SoftMaxTiling kernel;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, kernel);
  CopyToHost(kernel, softmaxTiling);
}

bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling,
                           const uint32_t dataTypeSize) {
  return IsBasicBlock(tiling, dataTypeSize);
}

bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling,
                           const uint32_t dataTypeSize) {
  return IsBasicBlock(FromHost(tiling), dataTypeSize);
}

uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape,
                                     const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const bool /*isUpdate*/,
                                     const bool isBasicBlock,
                                     const bool /*isFlashOutputBrc*/) {
  return FlashV2Size("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1,
                     dataTypeSize2, isBasicBlock, false);
}

uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape,
                                     const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const bool /*isUpdate*/,
                                     const bool isBasicBlock,
                                     const bool /*isFlashOutputBrc*/) {
  return FlashV2Size("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1,
                     dataTypeSize2, isBasicBlock, true);
}

void SoftMaxFlashV2TilingFunc(
    const ge::Shape& srcShape, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool /*isUpdate*/,
    const bool isBasicBlock, const bool isFlashOutputBrc) {
  const char* fn = "SoftMaxFlashV2TilingFunc";
  if (!CheckTypeSize(fn, "dataTypeSize1", dataTypeSize1, "half",
                     kTilingZeroed)) {
    softmaxFlashTiling = {};
    return;
  }
  softmaxFlashTiling =
      MakeTiling(fn, srcShape, dataTypeSize1, dataTypeSize2, "dataTypeSize2",
                 localWorkSpaceSize, isBasicBlock, isFlashOutputBrc);
}

void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock,
                              const bool isFlashOutputBrc) {
  AscendC::tiling::SoftMaxTiling kernel;
  SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2,
                           localWorkSpaceSize, kernel, isUpdate, isBasicBlock,
                           isFlashOutputBrc);
  CopyToHost(kernel, softmaxFlashTiling);
}

uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape,
                                   const uint32_t dataTypeSize,
                                   const bool /*isUpdate*/,
                                   const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxFlashMaxTmpSize", srcShape, dataTypeSize, true);
}

uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape,
                                   const uint32_t dataTypeSize,
                                   const bool /*isUpdate*/,
                                   const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxFlashMinTmpSize", srcShape, dataTypeSize,
                     false);
}

void SoftMaxFlashTilingFunc(const ge::Shape& srcShape,
                            const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool /*isUpdate*/) {
  softmaxFlashTiling =
      MakeTiling("SoftMaxFlashTilingFunc", srcShape, dataTypeSize, dataTypeSize,
                 "dataTypeSize", localWorkSpaceSize, false, false);
}

void SoftMaxFlashTilingFunc(const ge::Shape& srcShape,
                            const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            optiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate) {
  AscendC::tiling::SoftMaxTiling kernel;
  SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, kernel,
                         isUpdate);
  CopyToHost(kernel, softmaxFlashTiling);
}

uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape,
                                  const uint32_t dataTypeSize,
                                  const bool /*isFront*/,
                                  const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, true);
}

uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape,
                                  const uint32_t dataTypeSize,
                                  const bool /*isFront*/,
                                  const bool /*isReuseSource*/) {
  return SoftMaxSize("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, false);
}

void SoftMaxGradTilingFunc(const ge::Shape& srcShape,
                           const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                           const bool /*isFront*/) {
  softmaxGradTiling =
      MakeTiling("SoftMaxGradTilingFunc", srcShape, dataTypeSize, dataTypeSize,
                 "dataTypeSize", localWorkSpaceSize, false, false);
}

void SoftMaxGradTilingFunc(const ge::Shape& srcShape,
                           const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront) {
  AscendC::tiling::SoftMaxTiling kernel;
  SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, kernel,
                        isFront);
  CopyToHost(kernel, softmaxGradTiling);
}

uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape,
                                 const uint32_t dataTypeSize,
                                 const bool /*isReuseSource*/) {
  return SoftMaxSize("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, true);
}

uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape,
                                 const uint32_t dataTypeSize,
                                 const bool /*isReuseSource*/) {
  return SoftMaxSize("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, false);
}

void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
  softmaxTiling = normgrad_ascendc::AsLogSoftMaxTiling(
      MakeTiling("LogSoftMaxTilingFunc", srcShape, dataTypeSize, dataTypeSize,
                 "dataTypeSize", localWorkSpaceSize, false, false));
}

void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling) {
  AscendC::tiling::LogSoftMaxTiling kernel;
  LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, kernel);
  CopyToHost(normgrad_ascendc::AsSoftMaxTiling(kernel), softmaxTiling);
}

}  // namespace AscendC

namespace normgrad_ascendc {

std::array<TilingField, kSoftMaxTilingFieldCount> SoftMaxTilingFields(
    const AscendC::tiling::SoftMaxTiling& tiling) {
  return {{NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_NAMED_FIELD)}};
}

}  // namespace normgrad_ascendc

// ---- SoftmaxFlashV3
// -----------------------------------------------------------

namespace {

// SoftmaxFlashV3's arguments: T half (dataTypeSize1 2), U float
// (dataTypeSize2 4), isBasicBlock reserved (false), and its page's shape: a
// last dimension of at least 512 and a multiple of 64, rows a multiple of 8.
bool CheckFlashV3(const char* fn, const ge::Shape& shape, uint32_t src_bytes,
                  uint32_t stats_bytes, bool basic, const char* consequence,
                  Rows* rows) {
  if (src_bytes != 2) {
    Report(fn,
           "dataTypeSize1 " + std::to_string(src_bytes) +
               " is not supported: SoftmaxFlashV3's T is half, so it must be 2",
           consequence);
    return false;
  }
  if (stats_bytes != 4) {
    Report(fn,
           "dataTypeSize2 " + std::to_string(stats_bytes) +
               " is not supported: SoftmaxFlashV3's U is float, so it must be "
               "4",
           consequence);
    return false;
  }
  if (basic) {
    Report(fn,
           "isBasicBlock is true: the parameter is reserved and must be false",
           consequence);
    return false;
  }
  if (!CheckShape(fn, shape, src_bytes, consequence, rows)) return false;
  if (rows->k < 512 || rows->k % 64 != 0 || rows->m % 8 != 0) {
    Report(fn,
           "srcShape " + ShapeText(shape) + " is [" + std::to_string(rows->m) +
               ", " + std::to_string(rows->k) +
               "] rows: SoftmaxFlashV3 needs a last dimension of at least 512 "
               "and a multiple of 64, and rows a multiple of 8",
           consequence);
    return false;
  }
  return true;
}

}  // namespace

namespace AscendC {

void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape,
                                    const uint32_t dataTypeSize1,
                                    const uint32_t dataTypeSize2,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool /*isUpdate*/,
                                    const bool isBasicBlock) {
  const char* fn = "GetSoftMaxFlashV3MaxMinTmpSize";
  maxValue = 0;
  minValue = 0;
  Rows r;
  if (!CheckFlashV3(fn, srcShape, dataTypeSize1, dataTypeSize2, isBasicBlock,
                    "maxValue and minValue are 0", &r)) {
    return;
  }
  maxValue = ScratchBytes(fn, srcShape, r.m, r.k, true);
  minValue = ScratchBytes(fn, srcShape, 1, r.k, false);
}

void SoftMaxFlashV3TilingFunc(
    const ge::Shape& srcShape, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling,
    const bool /*isUpdate*/, const bool isBasicBlock) {
  const char* fn = "SoftMaxFlashV3TilingFunc";
  Rows r;
  softmaxFlashV3Tiling = {};
  if (!CheckFlashV3(fn, srcShape, dataTypeSize1, dataTypeSize2, isBasicBlock,
                    kTilingZeroed, &r)) {
    return;
  }
  softmaxFlashV3Tiling =
      MakeTiling(fn, srcShape, dataTypeSize1, dataTypeSize2, "dataTypeSize2",
                 localWorkSpaceSize, false, false);
}

void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool isUpdate, const bool isBasicBlock) {
  AscendC::tiling::SoftMaxTiling kernel;
  SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2,
                           localWorkSpaceSize, kernel, isUpdate, isBasicBlock);
  CopyToHost(kernel, softmaxFlashV3Tiling);
}

}  // namespace AscendC

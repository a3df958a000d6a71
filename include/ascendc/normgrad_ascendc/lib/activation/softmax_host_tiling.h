// normgrad_ascendc/lib/activation/softmax_host_tiling.h — the host-side
// tiling API of the SoftMax family: the host classes optiling::SoftMaxTiling
// and optiling::LogSoftMaxTiling; the scratch-size queries
// GetSoftMax{,Flash,FlashV2,Grad}{Max,Min}TmpSize,
// GetLogSoftMax{Max,Min}TmpSize and GetSoftMaxFlashV3MaxMinTmpSize; the tiling
// functions SoftMaxTilingFunc, SoftMaxFlashTilingFunc,
// SoftMaxFlashV2TilingFunc, SoftMaxFlashV3TilingFunc, SoftMaxGradTilingFunc and
// LogSoftMaxTilingFunc (filling the host class or the kernel-side struct);
// IsBasicBlockInSoftMax; and a by-name listing of the 16 fields for tools.
//
// srcShape is [m0, ..., mt, n] (at least two dimensions): srcM = m0·…·mt
// rows of srcK = n elements. A chunk of r rows needs r·(srcK + 8) floats of
// scratch (SoftMaxScratchFloats); the maximum holds every row, the minimum
// one row (eight with isBasicBlock).
//
// Error policy: the functions keep their documented signatures. On bad input
// they print one message on stderr that names the function, the argument,
// the value and the rule; a size query then returns 0 and a tiling function
// zeroes the whole tiling (the kernel refuses splitM == 0). Nothing throws.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "normgrad_ascendc/lib/activation/log_softmax_tiling.h"
#include "normgrad_ascendc/lib/activation/softmax_tiling.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace optiling {

/// The host tiling class: a setter and a getter per field of the kernel-side
/// struct AscendC::tiling::SoftMaxTiling (same names, same order), and
/// SaveToBuffer, which writes exactly the kernel struct's 64 bytes. Usable as
/// a nested struct of a program's own tiling data
/// (TILING_DATA_FIELD_DEF_STRUCT).
BEGIN_TILING_DATA_DEF(SoftMaxTiling)
NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

/// LogSoftMax's host tiling class: the same fields.
BEGIN_TILING_DATA_DEF(LogSoftMaxTiling)
NORMGRAD_SOFTMAX_TILING_FIELDS(NORMGRAD_TILING_DATA_FIELD)
END_TILING_DATA_DEF;

}  // namespace optiling

namespace AscendC {

/// Scratch bytes SoftMax and SimpleSoftMax need at most (every row in one
/// chunk): 4·srcM·(srcK + 8), saturating at 2^32-1. dataTypeSize is the
/// max/sum element size (2 or 4); isReuseSource changes nothing.
uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize,
                              const bool isReuseSource);

/// Scratch bytes SoftMax and SimpleSoftMax need at least (one row):
/// 4·(srcK + 8).
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize,
                              const bool isReuseSource);

/// Fills the tiling of SoftMax / SimpleSoftMax for srcShape with max and sum
/// of dataTypeSize bytes and localWorkSpaceSize bytes of scratch: as many
/// rows per chunk as the scratch holds, at most srcM. A scratch below
/// GetSoftMaxMinTmpSize, or bad input: a message, the tiling zeroed.
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling);

/// The same, filling the kernel-side struct.
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                       const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling);

/// Whether the tiling has the basic-block form for sources of dataTypeSize
/// bytes: srcK a multiple of 64 in [256 / dataTypeSize, 2048), and srcM and
/// splitM multiples of 8. An empty tiling is not.
bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling,
                           const uint32_t dataTypeSize = 2);

/// The same for the kernel-side struct.
bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling,
                           const uint32_t dataTypeSize = 2);

/// Scratch bytes SoftmaxFlashV2 needs at least: one row (eight with
/// isBasicBlock), 4·rows·(srcK + 8). dataTypeSize1 is the source's element
/// size, dataTypeSize2 the max/sums'; isUpdate and isFlashOutputBrc change
/// no size.
uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape,
                                     const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const bool isUpdate,
                                     const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);

/// Scratch bytes SoftmaxFlashV2 needs at most: every row,
/// 4·srcM·(srcK + 8), saturating at 2^32-1.
uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape,
                                     const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const bool isUpdate,
                                     const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);

/// Fills the tiling of SoftmaxFlashV2: as SoftMaxTilingFunc, with rows per
/// chunk a multiple of 8 under isBasicBlock (whose shape rules are checked)
/// and one max/sum element per row under isFlashOutputBrc (outMaxK = 1).
void SoftMaxFlashV2TilingFunc(
    const ge::Shape& srcShape, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
    const bool isBasicBlock = false, const bool isFlashOutputBrc = false);

/// The same, filling the kernel-side struct.
void SoftMaxFlashV2TilingFunc(
    const ge::Shape& srcShape, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
    const bool isBasicBlock = false, const bool isFlashOutputBrc = false);

/// Scratch bytes SoftmaxFlash needs at most (every row): 4·srcM·(srcK + 8),
/// saturating at 2^32-1. dataTypeSize is the max/sums' size; isUpdate and
/// isReuseSource change no size.
uint32_t GetSoftMaxFlashMaxTmpSize(const ge::Shape& srcShape,
                                   const uint32_t dataTypeSize,
                                   const bool isUpdate,
                                   const bool isReuseSource);

/// Scratch bytes SoftmaxFlash needs at least (one row): 4·(srcK + 8).
uint32_t GetSoftMaxFlashMinTmpSize(const ge::Shape& srcShape,
                                   const uint32_t dataTypeSize,
                                   const bool isUpdate,
                                   const bool isReuseSource);

/// Fills SoftmaxFlash's tiling as SoftMaxTilingFunc does.
void SoftMaxFlashTilingFunc(const ge::Shape& srcShape,
                            const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            optiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);

/// The same, filling the kernel-side struct.
void SoftMaxFlashTilingFunc(const ge::Shape& srcShape,
                            const uint32_t dataTypeSize,
                            const uint32_t localWorkSpaceSize,
                            AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                            const bool isUpdate = false);

/// Scratch bytes SoftmaxGrad and SoftmaxGradFront need at most (every row):
/// 4·srcM·(srcK + 8), saturating at 2^32-1. dataTypeSize is T's size;
/// isFront and isReuseSource change no size.
uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape,
                                  const uint32_t dataTypeSize,
                                  const bool isFront, const bool isReuseSource);

/// Scratch bytes SoftmaxGrad and SoftmaxGradFront need at least (one row):
/// 4·(srcK + 8).
uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape,
                                  const uint32_t dataTypeSize,
                                  const bool isFront, const bool isReuseSource);

/// Fills the tiling of SoftmaxGrad / SoftmaxGradFront as SoftMaxTilingFunc
/// does (dataTypeSize is T's size).
void SoftMaxGradTilingFunc(const ge::Shape& srcShape,
                           const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront = false);

/// The same, filling the kernel-side struct.
void SoftMaxGradTilingFunc(const ge::Shape& srcShape,
                           const uint32_t dataTypeSize,
                           const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                           const bool isFront = false);

/// Scratch bytes LogSoftMax needs at most (every row): 4·srcM·(srcK + 8),
/// saturating at 2^32-1. dataTypeSize is T's size.
uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape srcShape,
                                 const uint32_t dataTypeSize,
                                 const bool isReuseSource);

/// Scratch bytes LogSoftMax needs at least (one row): 4·(srcK + 8).
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape srcShape,
                                 const uint32_t dataTypeSize,
                                 const bool isReuseSource);

/// Fills LogSoftMax's tiling as SoftMaxTilingFunc does.
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling);

/// The same, filling the kernel-side struct.
void LogSoftMaxTilingFunc(const ge::Shape srcShape, const uint32_t dataTypeSize,
                          const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling);

/// SoftmaxFlashV3's scratch bytes: maxValue every row, 4·srcM·(srcK + 8)
/// (saturating at 2^32-1), minValue one row, 4·(srcK + 8). dataTypeSize1
/// (T) must be 2 and dataTypeSize2 (U) 4, isBasicBlock false (reserved), and
/// srcShape SoftmaxFlashV3's (a last dimension of at least 512, a multiple of
/// 64; rows a multiple of 8); else a message and both 0. isUpdate changes no
/// size.
void GetSoftMaxFlashV3MaxMinTmpSize(const ge::Shape& srcShape,
                                    const uint32_t dataTypeSize1,
                                    const uint32_t dataTypeSize2,
                                    uint32_t& maxValue, uint32_t& minValue,
                                    const bool isUpdate,
                                    const bool isBasicBlock = false);

/// Fills SoftmaxFlashV3's tiling as SoftMaxTilingFunc does (float
/// mean/sum/max, outMaxK 8), after the checks of
/// GetSoftMaxFlashV3MaxMinTmpSize; a localWorkSpaceSize below its minValue is
/// an error too (a message, the tiling zeroed).
void SoftMaxFlashV3TilingFunc(const ge::Shape& srcShape,
                              const uint32_t dataTypeSize1,
                              const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize,
                              optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool isUpdate,
                              const bool isBasicBlock = false);

/// The same, filling the kernel-side struct.
void SoftMaxFlashV3TilingFunc(
    const ge::Shape& srcShape, const uint32_t dataTypeSize1,
    const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
    AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling, const bool isUpdate,
    const bool isBasicBlock = false);

}  // namespace AscendC

namespace normgrad_ascendc {

/// The number of fields of a SoftMaxTiling (16).
inline constexpr size_t kSoftMaxTilingFieldCount =
    NORMGRAD_TILING_FIELD_COUNT(NORMGRAD_SOFTMAX_TILING_FIELDS);

/// The fields of a SoftMaxTiling in struct order, named as the members.
std::array<TilingField, kSoftMaxTilingFieldCount> SoftMaxTilingFields(
    const AscendC::tiling::SoftMaxTiling& tiling);

}  // namespace normgrad_ascendc

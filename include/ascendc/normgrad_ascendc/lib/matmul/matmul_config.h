// normgrad_ascendc/lib/matmul/matmul_config.h — the compile-time description
// of a Matmul object (docs/matmul.md): MatmulType (where each matrix lives,
// its format, element type, transpose switch), CubeFormat, LayoutMode,
// MatmulConfig with the template presets (CFG_NORM, CFG_MDL,
// CFG_IBSHARE_NORM, MM_CFG_BB) and the constexpr functions that build one
// (GetNormalConfig, GetMDLConfig, GetSpecialMDLConfig, GetIBShareNormConfig,
// GetBasicConfig, and GetMMConfig from its parts), MatmulCallBackFunc and
// the DataCopyOutParams its DataCopyOut callback receives. The
// templates differ on the device in how data is staged; on the CPU every
// template computes the same base blocks in the same order, so the staging
// switches are accepted and recorded, while those that change the results
// (isPartialOutput, isEnableChannelSplit, ...) are honoured or refused by
// the Matmul class (matmul.h).
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/position.h"

namespace AscendC {

/// How a matrix is laid out where it lives.
enum class CubeFormat : uint8_t {
  ND = 0,
  NZ,
  ZN,
  ZZ,
  NN,
  ND_ALIGN,
  SCALAR,
  VECTOR,
  ROW_MAJOR,
  COLUMN_MAJOR,
};

/// The batch layouts of IterateBatch (NONE: no batch).
enum class LayoutMode : uint8_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };

/// One operand of a Matmul: position, format, element type, whether it may
/// be transposed (SetTensorA/B's flag), batch layout, IBShare, and the
/// source position of a TSCM operand.
template <TPosition POSITION, CubeFormat FORMAT, typename TYPE,
          bool ISTRANS = false, LayoutMode LAYOUT = LayoutMode::NONE,
          bool IBSHARE = false, TPosition SRCPOS = TPosition::GM>
struct MatmulType {
  constexpr static TPosition pos = POSITION;
  constexpr static CubeFormat format = FORMAT;
  using T = TYPE;
  constexpr static bool isTrans = ISTRANS;
  constexpr static LayoutMode layout = LAYOUT;
  constexpr static bool ibShare = IBSHARE;
  constexpr static TPosition srcPos = SRCPOS;
  constexpr static bool isSparse = false;
};

/// B of a 4:2 sparse Matmul: the values kept of each group of four along K,
/// whose index matrix (SetSparseIndex) lies at INDEX_POSITION. Matmul::Init
/// applies the page's limits (GM, int8_t, ISTRANS true, ...; docs/matmul.md,
/// "Sparse Matmul").
template <TPosition POSITION, TPosition INDEX_POSITION, CubeFormat FORMAT,
          typename TYPE, bool ISTRANS = false,
          LayoutMode LAYOUT = LayoutMode::NONE, bool IBSHARE = false>
struct SparseMatmulType
    : MatmulType<POSITION, FORMAT, TYPE, ISTRANS, LAYOUT, IBSHARE> {
  constexpr static TPosition indexPosition = INDEX_POSITION;
  constexpr static bool isSparse = true;
};

/// A or B of an MxMatmul (MatmulWithScalePolicy): the operand and its
/// scale matrix (fp8_e8m0_t, one scale per 32 elements along K), with the
/// scales' position, format, transpose and source position.
template <TPosition POSITION, TPosition SCALE_POSITION, CubeFormat FORMAT,
          typename TYPE, bool ISTRANS = false, TPosition SRCPOS = TPosition::GM,
          CubeFormat SCALE_FORMAT = FORMAT, bool SCALE_ISTRANS = ISTRANS,
          TPosition SCALE_SRCPOS = SRCPOS>
struct MatmulTypeWithScale : MatmulType<POSITION, FORMAT, TYPE, ISTRANS,
                                        LayoutMode::NONE, false, SRCPOS> {
  constexpr static TPosition scalePosition = SCALE_POSITION;
  constexpr static CubeFormat scaleFormat = SCALE_FORMAT;
  constexpr static bool isScaleTrans = SCALE_ISTRANS;
  constexpr static TPosition srcScalePos = SCALE_SRCPOS;
};

enum class BatchMode : uint8_t {
  NONE = 0,
  BATCH_LESS_THAN_L1,
  BATCH_LARGE_THAN_L1,
  SINGLE_LARGE_THAN_L1,
};
enum class IterateOrder : uint8_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : uint8_t { INNER_PRODUCT = 0, OUTER_PRODUCT };
enum class BatchOutMode : uint8_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};

/// The Matmul template and its switches (the documented fields).
struct MatmulConfig {
  bool doNorm = false;
  bool doBasicBlock = false;
  bool doMultiDataLoad = false;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
  bool intrinsicsCheck = false;
  bool isNBatch = false;
  bool enVecND2NZ = false;
  bool doSpecialBasicBlock = false;
  uint32_t doMTE2Preload = 0;
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t stepM = 0;
  uint32_t stepN = 0;
  uint32_t baseMN = 0;
  uint32_t singleCoreMN = 0;
  bool enUnitFlag = true;
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
  bool doIBShareNorm = false;
  bool doSpecialMDL = false;
  bool enableInit = true;
  BatchMode batchMode = BatchMode::NONE;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = static_cast<uint8_t>(IterateMode::ITERATE_MODE_DEFAULT);
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool enableL1CacheUB = false;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableDoubleCache = false;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = 64 * 1024;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableRelu = false;
  bool isMsgReuse = true;
  bool enableL1BankConflictOptimise = false;
};

/// The Norm template with its switches.
constexpr MatmulConfig GetNormalConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false,
    const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
    const bool isMsgReuse = true,
    const IterateOrder iterateOrder = IterateOrder::UNDEF,
    const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT,
    const bool enUnitFlag = true, const bool enableMixDualMaster = false,
    const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig c;
  c.doNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.isMsgReuse = isMsgReuse;
  c.iterateOrder = iterateOrder;
  c.scheduleType = scheduleType;
  c.enUnitFlag = enUnitFlag;
  c.enableMixDualMaster = enableMixDualMaster;
  c.bmmOutMode = bmmOutMode;
  return c;
}

/// The MDL template (L1 filled in one move per depth).
constexpr MatmulConfig GetMDLConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false,
    const uint32_t doMTE2Preload = 0, const bool isVecND2NZ = false,
    bool isPerTensor = false, bool hasAntiQuantOffset = false,
    const bool enUnitFlag = false, const bool isMsgReuse = true,
    const bool enableUBReuse = true, const bool enableL1CacheUB = false,
    const bool enableMixDualMaster = false,
    const bool enableKdimReorderLoad = false) {
  MatmulConfig c;
  c.doMultiDataLoad = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  c.enUnitFlag = enUnitFlag;
  c.isMsgReuse = isMsgReuse;
  c.enableUBReuse = enableUBReuse;
  c.enableL1CacheUB = enableL1CacheUB;
  c.enableMixDualMaster = enableMixDualMaster;
  c.enableKdimReorderLoad = enableKdimReorderLoad;
  return c;
}

/// The SpecialMDL template.
constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false,
                                           const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0,
                                           const bool isVecND2NZ = false,
                                           bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig c;
  c.doSpecialMDL = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.doMTE2Preload = doMTE2Preload;
  c.enVecND2NZ = isVecND2NZ;
  c.isPerTensor = isPerTensor;
  c.hasAntiQuantOffset = hasAntiQuantOffset;
  return c;
}

/// The IBShare template.
constexpr MatmulConfig GetIBShareNormConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false,
    const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
    const bool isDoubleCache = false, const bool enUnitFlag = true) {
  MatmulConfig c;
  c.doIBShareNorm = true;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.enVecND2NZ = isVecND2NZ;
  c.batchMode = bmmMode;
  c.enableDoubleCache = isDoubleCache;
  c.enUnitFlag = enUnitFlag;
  return c;
}

/// The BasicBlock template with a fixed base block.
constexpr MatmulConfig GetBasicConfig(
    const uint32_t basicM, const uint32_t basicN, const uint32_t basicK,
    const bool intrinsicsLimit = false, const bool batchLoop = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig c;
  c.doBasicBlock = true;
  c.basicM = basicM;
  c.basicN = basicN;
  c.basicK = basicK;
  c.intrinsicsCheck = intrinsicsLimit;
  c.isNBatch = batchLoop;
  c.batchMode = bmmMode;
  return c;
}

/// GetMMConfig: a template's defaults, then the parts given.
enum class MatmulConfigMode : uint8_t {
  CONFIG_NORM,
  CONFIG_MDL,
  CONFIG_SPECIALMDL,
  CONFIG_IBSHARE,
};

struct MatmulShapeParams {
  uint32_t singleCoreM = 0;
  uint32_t singleCoreN = 0;
  uint32_t singleCoreK = 0;
  uint32_t basicM = 0;
  uint32_t basicN = 0;
  uint32_t basicK = 0;
};

struct MatmulQuantParams {
  bool isPerTensor = false;
  bool hasAntiQuantOffset = false;
};

struct MatmulBatchParams {
  bool isNBatch = false;
  BatchMode batchMode = BatchMode::BATCH_LESS_THAN_L1;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};

struct MatmulFuncParams {
  bool intrinsicsLimit = false;
  bool enVecND2NZ = false;
  bool enableDoubleCache = false;
  bool enableL1CacheUB = false;
  uint32_t doMTE2Preload = 0;
  IterateOrder iterateOrder = IterateOrder::UNDEF;
  ScheduleType scheduleType = ScheduleType::INNER_PRODUCT;
  bool enableReuse = true;
  bool enableUBReuse = false;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
};

namespace matmul_config_detail {

constexpr void Apply(MatmulConfig& c, const MatmulShapeParams& p) {
  c.singleCoreM = p.singleCoreM;
  c.singleCoreN = p.singleCoreN;
  c.singleCoreK = p.singleCoreK;
  c.basicM = p.basicM;
  c.basicN = p.basicN;
  c.basicK = p.basicK;
}
constexpr void Apply(MatmulConfig& c, const MatmulQuantParams& p) {
  c.isPerTensor = p.isPerTensor;
  c.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void Apply(MatmulConfig& c, const MatmulBatchParams& p) {
  c.isNBatch = p.isNBatch;
  c.batchMode = p.batchMode;
  c.isBiasBatch = p.isBiasBatch;
  c.bmmOutMode = p.bmmOutMode;
}
constexpr void Apply(MatmulConfig& c, const MatmulFuncParams& p) {
  c.intrinsicsCheck = p.intrinsicsLimit;
  c.enVecND2NZ = p.enVecND2NZ;
  c.enableDoubleCache = p.enableDoubleCache;
  c.enableL1CacheUB = p.enableL1CacheUB;
  c.doMTE2Preload = p.doMTE2Preload;
  c.iterateOrder = p.iterateOrder;
  c.scheduleType = p.scheduleType;
  c.enableReuse = p.enableReuse;
  c.enableUBReuse = p.enableUBReuse;
  c.isPartialOutput = p.isPartialOutput;
  c.isA2B2Shared = p.isA2B2Shared;
  c.isEnableChannelSplit = p.isEnableChannelSplit;
  c.enableKdimReorderLoad = p.enableKdimReorderLoad;
  c.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
}

}  // namespace matmul_config_detail

/// The `configMode` template's config with the given parts (any of
/// MatmulShapeParams, MatmulQuantParams, MatmulBatchParams,
/// MatmulFuncParams, in any order) applied.
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig c = configMode == MatmulConfigMode::CONFIG_MDL ? GetMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_SPECIALMDL
                       ? GetSpecialMDLConfig()
                   : configMode == MatmulConfigMode::CONFIG_IBSHARE
                       ? GetIBShareNormConfig()
                       : GetNormalConfig();
  (matmul_config_detail::Apply(c, args), ...);
  return c;
}

inline constexpr MatmulConfig CFG_NORM = GetNormalConfig();
inline constexpr MatmulConfig CFG_MDL = GetMDLConfig();
inline constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
inline constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

/// What the object passes to a DataCopyOut callback (by pointer, as
/// `const void*`): the block's move out of L0C as its own Fixpipe would
/// make it (docs/matmul.md: rows, columns, L0C's column-block height in
/// 16s, the GM row stride, ...).
struct DataCopyOutParams {
  uint16_t cBurstNum;          ///< the block's rows (Fixpipe's mSize)
  uint16_t burstLen;           ///< its columns (nSize)
  uint16_t srcStride;          ///< L0C column-block height (srcStride)
  uint32_t dstStride;          ///< Fixpipe's dstStride for C's format
  uint16_t oriNSize;           ///< the block's columns, for NZ to ND
  bool enUnitFlag;             ///< always false: no unit flag here
  uint64_t quantScalar;        ///< SetQuantScalar's value (0 if none)
  uint64_t cbufWorkspaceAddr;  ///< 0: per-column parameters not passed
};

/// The kernel's own copies of a base block into or out of the Matmul's
/// buffers (MM_CB): C from L0C to GM, A and B from GM to L1; a null
/// pointer keeps the object's own move (docs/matmul.md).
template <auto DataCopyOut = nullptr, auto CopyA1 = nullptr,
          auto CopyB1 = nullptr>
struct MatmulCallBackFunc {
  constexpr static auto DataCopyOutPtr = DataCopyOut;
  constexpr static auto CopyA1Ptr = CopyA1;
  constexpr static auto CopyB1Ptr = CopyB1;
  constexpr static bool kDataCopyOut = DataCopyOut != nullptr;
  constexpr static bool kCopyA1 = CopyA1 != nullptr;
  constexpr static bool kCopyB1 = CopyB1 != nullptr;
};

namespace Impl {
namespace Detail {

/// The Matmul's module policies (its last template parameter). The
/// default and NBuffer33 (a staging of A in L1) compute every block as
/// the default does; the triangular ones leave out the blocks below (upper)
/// or above (lower) the diagonal of blocks (docs/matmul.md). MxMatmul's
/// scale policy (the 950's) and the SplitM/SplitN dual outputs are not
/// emulated yet: a compile error says so.
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct MatmulPolicy {
  static constexpr int kTriangle = 0;  ///< 0 all, 1 upper, -1 lower
  static constexpr bool kEmulated = true;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct TrianUpperMatmulPolicy {
  static constexpr int kTriangle = 1;
  static constexpr bool kEmulated = true;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct TrianLowerMatmulPolicy {
  static constexpr int kTriangle = -1;
  static constexpr bool kEmulated = true;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct NBuffer33MatmulPolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kEmulated = true;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct MatmulWithScalePolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kEmulated = true;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct SplitMMatmulPolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kEmulated = false;
};
template <const auto& MM_CFG = CFG_NORM, typename... Rest>
struct SplitNMatmulPolicy {
  static constexpr int kTriangle = 0;
  static constexpr bool kEmulated = false;
};

}  // namespace Detail
}  // namespace Impl

/// The Matmul's policy parameter, defaulting to `DEFAULT`.
#define MATMUL_POLICY_DEFAULT_OF(DEFAULT)      \
  template <const auto& = MM_CFG, typename...> \
  class MATMUL_POLICY = AscendC::Impl::Detail::DEFAULT

}  // namespace AscendC

// Kernels spell the format and layout unqualified in MatmulType's
// arguments, as the pages' examples do.
using AscendC::CubeFormat;
using AscendC::LayoutMode;

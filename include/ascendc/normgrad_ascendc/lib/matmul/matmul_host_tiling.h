// normgrad_ascendc/lib/matmul/matmul_host_tiling.h — the Matmul host tiling
// API (docs/matmul_tiling.md): matmul_tiling::MatmulApiTiling (one core),
// MultiCoreMatmulTiling and BatchMatmulTiling, the enums and structs their
// pages use, and the Matmul…GetTmpBufSize(V2) queries. A host program sets
// A/B/C/bias types, shapes and options, and GetTiling fills a TCubeTiling
// that obeys every rule of cube_tiling_rules.h for the platform's cube core.
//
// Error policy: a setter given a value its page does not allow prints one
// line on stderr naming the function, the argument, the value and the rule,
// leaves the object as it was and returns -1; GetTiling prints why it cannot
// tile and returns -1. Nothing throws.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>

#include "normgrad_ascendc/lib/matmul/cube_tiling.h"
#include "tiling/platform/platform_ascendc.h"

namespace matmul_tiling {

/// Where a matrix lives (the positions the tiling pages list).
enum class TPosition : int32_t { GM, VECIN, VECOUT, TSCM };

/// A matrix's layout in memory.
enum class CubeFormat : int32_t { ND, NZ, ND_ALIGN, VECTOR };

/// Element types the tiling pages name.
enum class DataType : int32_t {
  DT_FLOAT,
  DT_FLOAT16,
  DT_BFLOAT16,
  DT_INT8,
  DT_INT4,
  DT_INT32,
  DT_FLOAT8_E4M3FN,
  DT_FLOAT8_E5M2,
  DT_HIFLOAT8,
};

/// The order of the base blocks of C (iterateOrder 0 and 1).
enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };

enum class MatrixMadType : int32_t {
  NORMAL = 0,
  HF32 = 1,
  MXMODE = 2,
};

enum class DequantType {
  SCALAR = 0,
  TENSOR = 1,
};

/// How the MTE1 moves loop (SetMatmulConfigParams).
enum class ScheduleType : int32_t {
  INNER_PRODUCT = 0,
  OUTER_PRODUCT = 1,
  N_BUFFER_33 = 2,
};

/// The MatmulConfig choices GetTiling must agree with.
struct MatmulConfigParams {
  int32_t mmConfigType;  ///< 0: Norm template, 1: MDL template
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                     bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

/// One AI Core's memories, for programs without a PlatformAscendC.
struct PlatformInfo {
  platform_ascendc::SocVersion socVersion;
  uint64_t l1Size = 0;
  uint64_t l0CSize = 0;
  uint64_t ubSize = 0;
  uint64_t l0ASize = 0;
  uint64_t l0BSize = 0;
};

/// The buffer bytes a tiling uses (Matmul…GetTmpBufSize).
struct SysTilingTempBufSize {
  int32_t ubSize = 0;
  int32_t l1Size = 0;
  int32_t l0cSize = 0;
};

/// What the three tiling classes share: the setters and GetTiling.
class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase();
  explicit MatmulApiTilingBase(
      const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTilingBase(const PlatformInfo& platform);
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat type, DataType dataType,
                   bool isTrans = false);
  int32_t SetBType(TPosition pos, CubeFormat type, DataType dataType,
                   bool isTrans = false);
  int32_t SetCType(TPosition pos, CubeFormat type, DataType dataType);
  int32_t SetBiasType(TPosition pos, CubeFormat type, DataType dataType);
  /// MxMatmul's scales (Ascend 950 only: refused on the other profiles).
  /// Without the call a scale matrix takes its operand's position, format
  /// and transpose (SetAType's, SetBType's).
  int32_t SetScaleAType(TPosition scalePos, CubeFormat scaleType,
                        bool isScaleTrans = false);
  int32_t SetScaleBType(TPosition scalePos, CubeFormat scaleType,
                        bool isScaleTrans = true);
  int32_t SetDequantType(DequantType dequantType);
  /// The computed shape; -1 takes SetOrgShape's value.
  int32_t SetShape(int32_t m, int32_t n, int32_t k);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn);
  int32_t SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn,
                      int32_t orgKbIn);
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d);
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m,
                                int32_t n, int32_t k);
  int32_t SetBatchNum(int32_t batch);
  int32_t EnableBias(bool isBiasIn = false);
  int32_t SetBias(bool isBiasIn = false);
  /// Fixed baseM / baseN (-1: chosen); baseKIn must be -1.
  int32_t SetFixSplit(int32_t baseMIn = -1, int32_t baseNIn = -1,
                      int32_t baseKIn = -1);
  /// Bytes GetTiling may use of L1, L0C, UB and the bias table (-1: all).
  int32_t SetBufferSpace(int32_t l1Size = -1, int32_t l0CSize = -1,
                         int32_t ubSize = -1, int32_t btSize = -1);
  int32_t SetTraverse(MatrixTraverse traverse);
  /// NORMAL, and MXMODE (MxMatmul) on the Ascend 950; HF32 is refused
  /// (see docs/matmul_tiling.md).
  int32_t SetMadType(MatrixMadType madType);
  /// Bounds on the bases GetTiling chooses (-1: none), rounded up to the
  /// fractal alignment.
  int32_t SetSplitRange(int32_t maxBaseM = -1, int32_t maxBaseN = -1,
                        int32_t maxBaseK = -1, int32_t minBaseM = -1,
                        int32_t minBaseN = -1, int32_t minBaseK = -1);
  /// Reserved by the vendor: accepted, changes nothing.
  int32_t SetDoubleBuffer(bool a, bool b, bool c, bool bias,
                          bool transND2NZ = true, bool transNZ2ND = true);
  void SetMatmulConfigParams(
      int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
      ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
      MatrixTraverse traverseIn = MatrixTraverse::NOSET,
      bool enVecND2NZIn = false);
  void SetMatmulConfigParams(const MatmulConfigParams& configParams);
  /// The 4:2 sparse Matmul (true): B holds 2 of every 4 values along K and
  /// GetTiling sizes its blocks and their indices so (docs/matmul_tiling.md).
  /// Refused (-1) on the Ascend 950, which has no sparse Matmul.
  int32_t SetSparse(bool isSparseIn = false);

  /// 0 and the tiling, or -1 (and a message) when it cannot tile.
  int64_t GetTiling(optiling::TCubeTiling& tiling);
  int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling);

  /// The last GetTiling's bases (-1 before a successful GetTiling).
  int32_t GetBaseM() const;
  int32_t GetBaseN() const;
  int32_t GetBaseK() const;
  /// Whether the last tiling leaves room to place A's and B's L1 buffers
  /// apart (they take at most half of L1); false before GetTiling.
  bool EnableL1BankConflictOptimise();

 protected:
  /// `class_name` names the object in messages ("MatmulApiTiling").
  MatmulApiTilingBase(const char* class_name,
                      const platform_ascendc::PlatformAscendC* platform,
                      const PlatformInfo* info);

  /// One matrix's SetAType-style description.
  struct MatrixDesc {
    TPosition pos;
    CubeFormat format;
    DataType type;
    bool transpose;
  };

  // What the multi-core classes add; MatmulApiTiling keeps one core.
  struct CoreOptions {
    int32_t dim = 1;
    int32_t single[3] = {-1, -1, -1};      ///< SetSingleShape m, n, k
    int32_t single_max[3] = {-1, -1, -1};  ///< SetSingleRange
    int32_t single_min[3] = {-1, -1, -1};
    int32_t align[3] = {0, 0, 0};  ///< SetAlignSplit
    bool split_k = false;
  };

  /// A setter argument, for messages.
  struct NamedValue {
    const char* name;
    int32_t value;
  };

  /// One line on stderr: "matmul_tiling::<class>::<function>: <problem>;
  /// <consequence>."
  void Report(const char* function, const std::string& problem) const;
  /// 0, or -1 after reporting the first argument below 1.
  int32_t CheckPositive(const char* function,
                        std::initializer_list<NamedValue> args) const;
  /// A layout setter: checks the five axes and keeps them in `axes`.
  int32_t SetLayout(const char* function, int32_t (&axes)[5], int32_t b,
                    int32_t s, int32_t n, int32_t g, int32_t d);
  /// The cores of the platform (GetCoreNum).
  int32_t PlatformCores() const { return platform_cores_; }

  const char* class_name_;
  CoreOptions cores_;
  bool tiled_ = false;
  int32_t m_dim_ = 0;
  int32_t n_dim_ = 0;
  AscendC::tiling::TCubeTiling result_{};

 private:
  int64_t Tile(AscendC::tiling::TCubeTiling* tiling);
  /// SetScaleAType (side 0) and SetScaleBType (side 1).
  int32_t SetScale(int side, TPosition scalePos, CubeFormat scaleType,
                   bool isScaleTrans);
  /// GetTiling's type checks: the A2 table, the 950's 8-bit float rows and
  /// MX mode's operands and scales; "" when they pass.
  std::string CheckTypes() const;

  // The platform's capacities (bytes) and cores.
  uint64_t l1_ = 0, l0a_ = 0, l0b_ = 0, l0c_ = 0, ub_ = 0, bt_ = 0;
  int32_t platform_cores_ = 0;
  const char* profile_name_ = "";
  /// The platform is an Ascend 950: its 8-bit float types and MxMatmul.
  bool mx_capable_ = false;

  MatrixDesc a_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false};
  MatrixDesc b_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16, false};
  MatrixDesc c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  MatrixDesc bias_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  bool bias_on_ = false;
  bool sparse_ = false;  ///< SetSparse(true): the 4:2 sparse Matmul
  MatrixMadType mad_type_ = MatrixMadType::NORMAL;
  /// SetScaleAType's, SetScaleBType's (type unused); `scale_set_` says
  /// which were called.
  MatrixDesc scale_a_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  MatrixDesc scale_b_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, true};
  bool scale_set_[2] = {false, false};
  int32_t shape_[3] = {-1, -1, -1};    ///< SetShape m, n, k
  int32_t org_[4] = {-1, -1, -1, -1};  ///< SetOrgShape M, N, Ka, Kb
  int32_t batch_a_ = 0, batch_b_ = 0, batch_num_ = 0;
  /// SetALayout, SetBLayout, SetCLayout: b, s, n, g, d (0: not set).
  int32_t layout_[3][5] = {};
  int32_t fixed_base_[2] = {-1, -1};
  int32_t base_max_[3] = {-1, -1, -1};
  int32_t base_min_[3] = {-1, -1, -1};
  int32_t space_[4] = {-1, -1, -1, -1};  ///< SetBufferSpace
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  MatmulConfigParams config_;
  bool config_set_ = false;
};

/// Matmul on one core: the single-core shape is SetShape's.
class MatmulApiTiling : public MatmulApiTilingBase {
 public:
  MatmulApiTiling();
  explicit MatmulApiTiling(
      const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MatmulApiTiling(const PlatformInfo& platform);
};

/// Matmul split over up to SetDim cores.
class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling();
  explicit MultiCoreMatmulTiling(
      const platform_ascendc::PlatformAscendC& ascendcPlatform);
  explicit MultiCoreMatmulTiling(const PlatformInfo& platform);

  /// The cores GetTiling may use (default: the platform's GetCoreNum).
  int32_t SetDim(int32_t dim);
  int32_t SetSingleShape(int32_t singleMIn = -1, int32_t singleNIn = -1,
                         int32_t singleKIn = -1);
  int32_t SetSingleRange(int32_t maxM = -1, int32_t maxN = -1,
                         int32_t maxK = -1, int32_t minM = -1,
                         int32_t minN = -1, int32_t minK = -1);
  int32_t SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK);
  void EnableMultiCoreSplitK(bool flag);
  void SetSplitK(bool flag);
  int32_t GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK);
  /// dim = mDim * nDim (times the K parts when K is split).
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim);

 protected:
  MultiCoreMatmulTiling(const char* class_name,
                        const platform_ascendc::PlatformAscendC* platform,
                        const PlatformInfo* info);
};

/// BatchMatmul: the tiling of one batch's matrices, split like
/// MultiCoreMatmulTiling; batches are not split across cores.
class BatchMatmulTiling : public MultiCoreMatmulTiling {
 public:
  BatchMatmulTiling();
  explicit BatchMatmulTiling(
      const platform_ascendc::PlatformAscendC& ascendcPlatform);

  /// As MultiCoreMatmulTiling's, with batchCoreM = batchCoreN = 1.
  int32_t GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim,
                     int32_t& batchCoreM, int32_t& batchCoreN);
};

/// The L1, UB and L0C bytes a tiling from GetTiling uses: l1Size what
/// GetTiling recorded in shareL1Size, ubSize transLength, l0cSize
/// baseM * baseN * 4 * dbL0C. -1 (and a message) for a tiling GetTiling did
/// not make.
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                            SysTilingTempBufSize& bufSize);
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                              SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                     SysTilingTempBufSize& bufSize);
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                       SysTilingTempBufSize& bufSize);
int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                 SysTilingTempBufSize& bufSize);
int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                   SysTilingTempBufSize& bufSize);

}  // namespace matmul_tiling

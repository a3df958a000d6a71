// sort_host_tiling.cc — the host side of the Sort family
// (normgrad_ascendc/lib/sort/sort_host_tiling.h states the rules and the
// error policy): the sorted region's scratch, Sort with SortConfig's, and
// TopK's scratch and tiling.
#include "normgrad_ascendc/lib/sort/sort_host_tiling.h"

#include <string>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/sort/sort_order.h"

namespace normgrad_ascendc {
namespace {

using host_tiling::kU32Max;
using host_tiling::Report;

SortElem ElemOf(ge::DataType t) {
  switch (t) {
    case ge::DT_UINT8:
      return SortElem::kUint8;
    case ge::DT_INT8:
      return SortElem::kInt8;
    case ge::DT_UINT16:
      return SortElem::kUint16;
    case ge::DT_INT16:
      return SortElem::kInt16;
    case ge::DT_UINT32:
      return SortElem::kUint32;
    case ge::DT_INT32:
      return SortElem::kInt32;
    case ge::DT_FLOAT16:
      return SortElem::kHalf;
    case ge::DT_BF16:
      return SortElem::kBfloat16;
    case ge::DT_FLOAT:
      return SortElem::kFloat;
    case ge::DT_UINT64:
      return SortElem::kUint64;
    case ge::DT_INT64:
      return SortElem::kInt64;
    default:
      break;
  }
  return SortElem::kOther;
}

bool IsScore(SortElem e) {
  return e == SortElem::kHalf || e == SortElem::kFloat;
}

bool IsIndex(SortElem e) {
  return e == SortElem::kUint32 || e == SortElem::kInt32 ||
         e == SortElem::kUint64 || e == SortElem::kInt64;
}

// Bytes of one sorted structure for elements of `type_size` on the process
// profile.
uint32_t StructureBytes(uint32_t type_size) {
  return CurrentProfile() == Profile::k310P ? kProposalElements * type_size
                                            : kSortPairBytes;
}

// The shape checks TopK's host functions share: inner a positive multiple
// of 32 (32 in Small mode, at most 4096 in Normal mode), outter at least 1,
// and *k in [1, inner] where the function takes k (k not null).
bool CheckTopKShape(const char* fn, int32_t inner, int32_t outter,
                    const int32_t* k, AscendC::TopKMode mode,
                    const char* zero) {
  const bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  if (inner < 1 || inner % 32 != 0 || (small && inner != 32) ||
      (!small && inner > 4096)) {
    Report(fn,
           "inner " + std::to_string(inner) +
               (small ? " is not supported: TopKMode::TOPK_NSMALL takes 32"
                      : " is not supported: TopKMode::TOPK_NORMAL takes a "
                        "positive multiple of 32 up to 4096"),
           zero);
    return false;
  }
  if (outter < 1) {
    Report(fn, "outter " + std::to_string(outter) + " must be at least 1",
           zero);
    return false;
  }
  if (k != nullptr && (*k < 1 || *k > inner)) {
    Report(fn, "k " + std::to_string(*k) + " must be in [1, inner]", zero);
    return false;
  }
  if (uint64_t{static_cast<uint32_t>(inner)} * static_cast<uint32_t>(outter) >
      0x7FFFFFFFu) {
    Report(fn, "inner * outter does not fit int32_t", zero);
    return false;
  }
  return true;
}

bool SetSizes(const char* fn, uint64_t bytes, uint32_t& max_value,
              uint32_t& min_value, const char* zero) {
  if (bytes > kU32Max) {
    Report(fn,
           "the scratch of " + std::to_string(bytes) +
               " bytes does not fit 32 bits",
           zero);
    return false;
  }
  max_value = static_cast<uint32_t>(bytes);
  min_value = max_value;
  return true;
}

// TopKTilingFunc for either struct: the kernel-side struct filled by the
// shared rule, or zeroed on bad input.
bool FillTopK(int32_t inner, int32_t outter, int32_t k, uint32_t type_size,
              bool init_index, AscendC::TopKMode mode,
              AscendC::tiling::TopkTiling& tiling) {
  const char* fn = "TopKTilingFunc";
  constexpr char kZero[] = "the tiling is zeroed";
  tiling = AscendC::tiling::TopkTiling{};
  if (!host_tiling::CheckTypeSize(fn, "dataTypeSize", type_size, "half",
                                  kZero) ||
      !CheckTopKShape(fn, inner, outter, &k, mode, kZero)) {
    return false;
  }
  tiling =
      TopKFilledTiling(inner, outter, k, mode == AscendC::TopKMode::TOPK_NSMALL,
                       init_index, StructureBytes(type_size));
  return true;
}

}  // namespace
}  // namespace normgrad_ascendc

namespace AscendC {

using normgrad_ascendc::SortElem;
using normgrad_ascendc::host_tiling::Report;
namespace host_tiling = normgrad_ascendc::host_tiling;

uint32_t GetSortTmpSize(const platform_ascendc::PlatformAscendC&,
                        const uint32_t elemCount, const uint32_t dataTypeSize) {
  const char* fn = "GetSortTmpSize";
  if (!host_tiling::CheckTypeSize(fn, "dataTypeSize", dataTypeSize, "half",
                                  "the size is 0")) {
    return 0;
  }
  const uint64_t bytes =
      uint64_t{elemCount} * normgrad_ascendc::StructureBytes(dataTypeSize);
  if (bytes > host_tiling::kU32Max) {
    Report(fn,
           "elemCount " + std::to_string(elemCount) +
               " needs a region past 32 bits",
           "the size is 0");
    return 0;
  }
  return static_cast<uint32_t>(bytes);
}

uint32_t GetConcatTmpSize(const platform_ascendc::PlatformAscendC&,
                          const uint32_t, const uint32_t dataTypeSize) {
  host_tiling::CheckTypeSize("GetConcatTmpSize", "dataTypeSize", dataTypeSize,
                             "half", "the size is 0");
  return 0;
}

void GetSortMaxMinTmpSize(const ge::Shape& srcShape, ge::DataType valueType,
                          ge::DataType indexType, bool,
                          const SortConfig& config, uint32_t& maxValue,
                          uint32_t& minValue) {
  const char* fn = "GetSortMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  const bool merge = config.type == SortType::MERGE_SORT;
  const SortElem value = normgrad_ascendc::ElemOf(valueType);
  const SortElem index = normgrad_ascendc::ElemOf(indexType);
  if (value == SortElem::kOther ||
      (merge && !normgrad_ascendc::IsScore(value))) {
    Report(fn,
           "valueType " + std::to_string(static_cast<int32_t>(valueType)) +
               (merge ? " is not supported: SortType::MERGE_SORT takes half "
                        "and float"
                      : " is not supported: SortType::RADIX_SORT takes the "
                        "8-, 16-, 32- and 64-bit integers, half, bfloat16_t "
                        "and float"),
           kZero);
    return;
  }
  if (config.hasSrcIndex && !config.hasDstIndex) {
    Report(fn,
           "config.hasSrcIndex true with hasDstIndex false is not supported "
           "(no Sort overload reads indices without writing them)",
           kZero);
    return;
  }
  if (config.hasSrcIndex && (merge ? index != SortElem::kUint32
                                   : !normgrad_ascendc::IsIndex(index))) {
    Report(fn,
           "indexType " + std::to_string(static_cast<int32_t>(indexType)) +
               (merge ? " is not supported: SortType::MERGE_SORT takes "
                        "uint32_t"
                      : " is not supported: SortType::RADIX_SORT takes "
                        "uint32_t, int32_t, uint64_t and int64_t"),
           kZero);
    return;
  }
  uint64_t elements = 0;
  if (!host_tiling::CountElements(fn, srcShape, "calCount", kZero, &elements)) {
    return;
  }
  if (merge && elements % 32 != 0) {
    Report(fn,
           "srcShape has " + std::to_string(elements) +
               " elements: SortType::MERGE_SORT sorts a multiple of 32",
           kZero);
    return;
  }
  normgrad_ascendc::SetSizes(
      fn,
      normgrad_ascendc::SortConfigTmpBytes(
          elements, normgrad_ascendc::SortElemBytes(value),
          config.hasSrcIndex ? normgrad_ascendc::SortElemBytes(index) : 4),
      maxValue, minValue, kZero);
}

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC&,
                          const int32_t inner, const int32_t outter, const bool,
                          const bool isInitIndex, enum TopKMode mode,
                          const bool, const uint32_t dataTypeSize,
                          uint32_t& maxValue, uint32_t& minValue) {
  const char* fn = "GetTopKMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  if (!host_tiling::CheckTypeSize(fn, "dataTypeSize", dataTypeSize, "half",
                                  kZero) ||
      !normgrad_ascendc::CheckTopKShape(fn, inner, outter, nullptr, mode,
                                        kZero)) {
    return false;
  }
  return normgrad_ascendc::SetSizes(
      fn,
      normgrad_ascendc::TopKMergeTmpBytes(
          static_cast<uint32_t>(inner), static_cast<uint32_t>(outter),
          mode == TopKMode::TOPK_NSMALL, isInitIndex,
          normgrad_ascendc::StructureBytes(dataTypeSize)),
      maxValue, minValue, kZero);
}

bool GetTopKMaxMinTmpSize(const int32_t inner, const int32_t outter,
                          const int32_t k, const bool, const bool,
                          enum TopKMode mode, const bool, ge::DataType dataType,
                          const TopKConfig& config, uint32_t& maxValue,
                          uint32_t& minValue) {
  const char* fn = "GetTopKMaxMinTmpSize";
  constexpr char kZero[] = "maxValue and minValue are 0";
  maxValue = 0;
  minValue = 0;
  if (config.algo != TopKAlgo::RADIX_SELECT) {
    Report(fn,
           "config.algo is TopKAlgo::MERGE_SORT: this form sizes "
           "TopKAlgo::RADIX_SELECT only (the form with the platform sizes "
           "MERGE_SORT)",
           kZero);
    return false;
  }
  const SortElem e = normgrad_ascendc::ElemOf(dataType);
  if (e == SortElem::kOther) {
    Report(fn,
           "dataType " + std::to_string(static_cast<int32_t>(dataType)) +
               " is not supported: RADIX_SELECT takes the 8-, 16-, 32- and "
               "64-bit integers, half, bfloat16_t and float",
           kZero);
    return false;
  }
  if (!normgrad_ascendc::CheckTopKShape(fn, inner, outter, &k, mode, kZero)) {
    return false;
  }
  return normgrad_ascendc::SetSizes(
      fn,
      normgrad_ascendc::TopKRadixTmpBytes(
          static_cast<uint32_t>(inner), static_cast<uint32_t>(outter),
          mode == TopKMode::TOPK_NSMALL, normgrad_ascendc::SortElemBytes(e)),
      maxValue, minValue, kZero);
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC&,
                    const int32_t inner, const int32_t outter, const int32_t k,
                    const uint32_t dataTypeSize, const bool isInitIndex,
                    enum TopKMode mode, const bool,
                    AscendC::tiling::TopkTiling& topKTiling) {
  return normgrad_ascendc::FillTopK(inner, outter, k, dataTypeSize, isInitIndex,
                                    mode, topKTiling);
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                    const int32_t inner, const int32_t outter, const int32_t k,
                    const uint32_t dataTypeSize, const bool isInitIndex,
                    enum TopKMode mode, const bool isLargest,
                    optiling::TopkTiling& topKTiling) {
  AscendC::tiling::TopkTiling kernel;
  const bool ok =
      TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize,
                     isInitIndex, mode, isLargest, kernel);
  optiling::TopkTiling& host = topKTiling;
#define NORMGRAD_TOPK_SET(type, name) host.set_##name(kernel.name);
  NORMGRAD_TOPK_TILING_FIELDS(NORMGRAD_TOPK_SET)
#undef NORMGRAD_TOPK_SET
  return ok;
}

}  // namespace AscendC

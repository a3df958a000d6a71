// src/ascendc/lib/matmul/matmul_host_tiling.cc — the Matmul host tiling
// classes (matmul_host_tiling.h): the setters' checks, GetTiling's checks of
// the whole request (types against the Atlas A2/A3 table and the Ascend
// 950's 8-bit float rows, MxMatmul's scales, shapes, options) before
// SearchCubeTiling, and the Matmul…GetTmpBufSize queries.
#include "normgrad_ascendc/lib/matmul/matmul_host_tiling.h"

#include <algorithm>
#include <initializer_list>
#include <vector>

#include "ascendc/lib/common/tiling_checks.h"
#include "ascendc/lib/matmul/cube_tiling_search.h"
#include "normgrad_ascendc/runtime/profile.h"

namespace matmul_tiling {

namespace {

using normgrad_ascendc::matmul::CubeTilingContext;
using normgrad_ascendc::matmul::CubeTilingRequest;

constexpr const char* kIgnored = "the call is ignored";
constexpr const char* kNoTiling = "no tiling was made (GetTiling returns -1)";

const char* Name(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
      return "DT_FLOAT";
    case DataType::DT_FLOAT16:
      return "DT_FLOAT16";
    case DataType::DT_BFLOAT16:
      return "DT_BFLOAT16";
    case DataType::DT_INT8:
      return "DT_INT8";
    case DataType::DT_INT4:
      return "DT_INT4";
    case DataType::DT_INT32:
      return "DT_INT32";
    case DataType::DT_FLOAT8_E4M3FN:
      return "DT_FLOAT8_E4M3FN";
    case DataType::DT_FLOAT8_E5M2:
      return "DT_FLOAT8_E5M2";
    case DataType::DT_HIFLOAT8:
      return "DT_HIFLOAT8";
  }
  return "an unknown DataType";
}

const char* Name(TPosition p) {
  switch (p) {
    case TPosition::GM:
      return "GM";
    case TPosition::VECIN:
      return "VECIN";
    case TPosition::VECOUT:
      return "VECOUT";
    case TPosition::TSCM:
      return "TSCM";
  }
  return "an unknown TPosition";
}

const char* Name(CubeFormat f) {
  switch (f) {
    case CubeFormat::ND:
      return "ND";
    case CubeFormat::NZ:
      return "NZ";
    case CubeFormat::ND_ALIGN:
      return "ND_ALIGN";
    case CubeFormat::VECTOR:
      return "VECTOR";
  }
  return "an unknown CubeFormat";
}

uint32_t Bits(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
      return 32;
    case DataType::DT_FLOAT16:
    case DataType::DT_BFLOAT16:
      return 16;
    case DataType::DT_INT4:
      return 4;
    default:
      return 8;
  }
}

bool IsFp8(DataType t) {
  return t == DataType::DT_FLOAT8_E4M3FN || t == DataType::DT_FLOAT8_E5M2 ||
         t == DataType::DT_HIFLOAT8;
}

// The MXFP8 element types (MxMatmul's A and B that normgrad emulates).
bool IsMxFp8(DataType t) {
  return t == DataType::DT_FLOAT8_E4M3FN || t == DataType::DT_FLOAT8_E5M2;
}

// Whether `value` is in `allowed` (a container, or a braced list below).
template <typename E, typename Values>
bool OneOf(E value, const Values& allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

template <typename E>
bool OneOf(E value, std::initializer_list<E> allowed) {
  return std::find(allowed.begin(), allowed.end(), value) != allowed.end();
}

template <typename Values>
std::string List(const Values& values) {
  std::string text;
  size_t i = 0;
  for (const auto& v : values) {
    if (i > 0) text += i + 1 == values.size() ? " or " : ", ";
    text += Name(v);
    ++i;
  }
  return text;
}

// One row of the Atlas A2/A3 type table: A (= B), bias, the C types.
struct TypeRow {
  DataType ab;
  DataType bias;
  std::initializer_list<DataType> c;
};
using DT = DataType;
const TypeRow kA2Types[] = {
    {DT::DT_FLOAT,
     DT::DT_FLOAT,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_FLOAT,
     DT::DT_FLOAT16,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_FLOAT16,
     DT::DT_FLOAT,
     {DT::DT_FLOAT, DT::DT_INT8, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_FLOAT16,
     DT::DT_FLOAT16,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_INT8, DT::DT_INT32, {DT::DT_INT32, DT::DT_FLOAT16, DT::DT_INT8}},
    {DT::DT_INT4, DT::DT_INT32, {DT::DT_INT32, DT::DT_FLOAT16}},
    {DT::DT_BFLOAT16,
     DT::DT_FLOAT,
     {DT::DT_FLOAT, DT::DT_INT8, DT::DT_BFLOAT16, DT::DT_FLOAT16}},
    {DT::DT_BFLOAT16, DT::DT_FLOAT16, {DT::DT_FLOAT, DT::DT_FLOAT16}},
};

// The Ascend 950's rows beyond them that the kernel emulates (its table
// has no DT_INT4 row): a bfloat16 bias for float, half and bfloat16, and
// int8 into bfloat16 (quantized).
const TypeRow k950ExtraTypes[] = {
    {DT::DT_INT8, DT::DT_INT32, {DT::DT_BFLOAT16}},
    {DT::DT_FLOAT,
     DT::DT_BFLOAT16,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_FLOAT16,
     DT::DT_BFLOAT16,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
    {DT::DT_BFLOAT16,
     DT::DT_BFLOAT16,
     {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}},
};

// Whether A/B `ab`, C `c` (and the bias type when `bias`) form a row of the
// profile's table (`p950`: the Ascend 950's).
bool TableSupports(DT ab, DT c, bool bias, DT bias_type, bool p950) {
  const auto in = [&](const TypeRow& row) {
    return row.ab == ab && (!bias || row.bias == bias_type) && OneOf(c, row.c);
  };
  if (p950 && ab == DT::DT_INT4) return false;
  for (const TypeRow& row : kA2Types) {
    if (in(row)) return true;
  }
  if (!p950) return false;
  for (const TypeRow& row : k950ExtraTypes) {
    if (in(row)) return true;
  }
  return false;
}

// The Ascend 950's 8-bit float rows the kernel emulates: E4M3 / E5M2 on
// either side (mixed too) or HiFloat8 on both; a float, half or bfloat16
// bias; C in float, half or bfloat16 (the same rows with and without MX
// mode), or outside MX mode quantized into E4M3 (from E4M3 / E5M2) or
// HiFloat8 (from HiFloat8).
bool Fp8RowSupported(DT a, DT b, DT c, bool bias, DT bias_type, bool mx) {
  const bool operands = (IsMxFp8(a) && IsMxFp8(b)) ||
                        (a == DT::DT_HIFLOAT8 && b == DT::DT_HIFLOAT8);
  const DT quantized =
      a == DT::DT_HIFLOAT8 ? DT::DT_HIFLOAT8 : DT::DT_FLOAT8_E4M3FN;
  return operands &&
         (OneOf(c, {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}) ||
          (!mx && c == quantized)) &&
         (!bias ||
          OneOf(bias_type, {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16}));
}

// A's and B's element types on a profile (the 950 adds the 8-bit floats).
std::vector<DT> OperandTypes(bool p950) {
  std::vector<DT> types = {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16,
                           DT::DT_INT8, DT::DT_INT4};
  if (p950) {
    types.insert(types.end(),
                 {DT::DT_FLOAT8_E4M3FN, DT::DT_FLOAT8_E5M2, DT::DT_HIFLOAT8});
  }
  return types;
}

// A setter's shape argument: at least 1, or -1 when `minus_one` allows it.
bool ShapeArg(int32_t value, bool minus_one) {
  return value >= 1 || (minus_one && value == -1);
}

std::string Arg(const char* name, int64_t value) {
  return std::string(name) + " " + std::to_string(value);
}

}  // namespace

// ---------------------------------------------------------------- objects

MatmulApiTilingBase::MatmulApiTilingBase()
    : MatmulApiTilingBase("MatmulApiTilingBase", nullptr, nullptr) {}

MatmulApiTilingBase::MatmulApiTilingBase(
    const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MatmulApiTilingBase("MatmulApiTilingBase", &ascendcPlatform, nullptr) {}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform)
    : MatmulApiTilingBase("MatmulApiTilingBase", nullptr, &platform) {}

MatmulApiTilingBase::MatmulApiTilingBase(
    const char* class_name, const platform_ascendc::PlatformAscendC* platform,
    const PlatformInfo* info)
    : class_name_(class_name) {
  // Without a platform object the process's one answers (the documented
  // no-argument form is for Atlas A2/A3, normgrad's cube profile).
  const platform_ascendc::PlatformAscendC& p =
      platform != nullptr
          ? *platform
          : *platform_ascendc::PlatformAscendCManager::GetInstance();
  using platform_ascendc::CoreMemType;
  p.GetCoreMemSize(CoreMemType::L1, l1_);
  p.GetCoreMemSize(CoreMemType::L0_A, l0a_);
  p.GetCoreMemSize(CoreMemType::L0_B, l0b_);
  p.GetCoreMemSize(CoreMemType::L0_C, l0c_);
  p.GetCoreMemSize(CoreMemType::UB, ub_);
  p.GetCoreMemSize(CoreMemType::BT, bt_);
  if (info != nullptr) {
    l1_ = info->l1Size;
    l0a_ = info->l0ASize;
    l0b_ = info->l0BSize;
    l0c_ = info->l0CSize;
    ub_ = info->ubSize;
  }
  platform_cores_ = static_cast<int32_t>(p.GetCoreNum());
  mx_capable_ = p.GetSocVersion() == platform_ascendc::SocVersion::ASCEND950;
  profile_name_ =
      normgrad_ascendc::GetProfileInfo(normgrad_ascendc::CurrentProfile()).name;
}

MatmulApiTiling::MatmulApiTiling()
    : MatmulApiTilingBase("MatmulApiTiling", nullptr, nullptr) {}
MatmulApiTiling::MatmulApiTiling(
    const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MatmulApiTilingBase("MatmulApiTiling", &ascendcPlatform, nullptr) {}
MatmulApiTiling::MatmulApiTiling(const PlatformInfo& platform)
    : MatmulApiTilingBase("MatmulApiTiling", nullptr, &platform) {}

MultiCoreMatmulTiling::MultiCoreMatmulTiling()
    : MultiCoreMatmulTiling("MultiCoreMatmulTiling", nullptr, nullptr) {}
MultiCoreMatmulTiling::MultiCoreMatmulTiling(
    const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MultiCoreMatmulTiling("MultiCoreMatmulTiling", &ascendcPlatform,
                            nullptr) {}
MultiCoreMatmulTiling::MultiCoreMatmulTiling(const PlatformInfo& platform)
    : MultiCoreMatmulTiling("MultiCoreMatmulTiling", nullptr, &platform) {}
MultiCoreMatmulTiling::MultiCoreMatmulTiling(
    const char* class_name, const platform_ascendc::PlatformAscendC* platform,
    const PlatformInfo* info)
    : MatmulApiTilingBase(class_name, platform, info) {
  cores_.dim = std::max(1, PlatformCores());
}

BatchMatmulTiling::BatchMatmulTiling()
    : MultiCoreMatmulTiling("BatchMatmulTiling", nullptr, nullptr) {}
BatchMatmulTiling::BatchMatmulTiling(
    const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MultiCoreMatmulTiling("BatchMatmulTiling", &ascendcPlatform, nullptr) {}

void MatmulApiTilingBase::Report(const char* function,
                                 const std::string& problem) const {
  const std::string name =
      std::string("matmul_tiling::") + class_name_ + "::" + function;
  normgrad_ascendc::host_tiling::Report(
      name.c_str(), problem,
      std::string(function) == "GetTiling" ? kNoTiling : kIgnored);
}

// ---------------------------------------------------------------- types

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type,
                                      DataType dataType, bool isTrans) {
  const auto positions = {TPosition::GM, TPosition::VECOUT, TPosition::TSCM};
  const auto formats = {CubeFormat::ND, CubeFormat::NZ, CubeFormat::VECTOR};
  const std::vector<DT> types = OperandTypes(mx_capable_);
  if (!OneOf(pos, positions)) {
    Report("SetAType", std::string("pos ") + Name(pos) +
                           " is not supported: A lies in " + List(positions));
    return -1;
  }
  if (!OneOf(type, formats)) {
    Report("SetAType", std::string("type ") + Name(type) +
                           " is not supported: A's format is " + List(formats));
    return -1;
  }
  if (!OneOf(dataType, types)) {
    Report("SetAType",
           std::string("dataType ") + Name(dataType) +
               " is not supported: on " + profile_name_ + " A is " +
               List(types) +
               (IsFp8(dataType) ? " (8-bit floats are Ascend 950's)" : ""));
    return -1;
  }
  a_ = {pos, type, dataType, isTrans};
  return 0;
}

int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type,
                                      DataType dataType, bool isTrans) {
  const auto positions = {TPosition::GM, TPosition::VECOUT, TPosition::TSCM};
  const auto formats = {CubeFormat::ND, CubeFormat::NZ};
  const std::vector<DT> types = OperandTypes(mx_capable_);
  if (!OneOf(pos, positions)) {
    Report("SetBType", std::string("pos ") + Name(pos) +
                           " is not supported: B lies in " + List(positions));
    return -1;
  }
  if (!OneOf(type, formats)) {
    Report("SetBType", std::string("type ") + Name(type) +
                           " is not supported: B's format is " + List(formats));
    return -1;
  }
  if (!OneOf(dataType, types)) {
    Report("SetBType",
           std::string("dataType ") + Name(dataType) +
               " is not supported: on " + profile_name_ + " B is " +
               List(types) +
               (IsFp8(dataType) ? " (8-bit floats are Ascend 950's)" : ""));
    return -1;
  }
  b_ = {pos, type, dataType, isTrans};
  return 0;
}

int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type,
                                      DataType dataType) {
  const auto positions = {TPosition::GM, TPosition::VECIN};
  const auto formats = {CubeFormat::ND, CubeFormat::NZ, CubeFormat::ND_ALIGN};
  // The 950 quantizes float results into its two 8-bit floats too.
  std::vector<DT> types = {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_BFLOAT16,
                           DT::DT_INT8, DT::DT_INT32};
  if (mx_capable_) {
    types.insert(types.end(), {DT::DT_FLOAT8_E4M3FN, DT::DT_HIFLOAT8});
  }
  if (!OneOf(pos, positions)) {
    Report("SetCType", std::string("pos ") + Name(pos) +
                           " is not supported: C goes to " + List(positions));
    return -1;
  }
  if (!OneOf(type, formats)) {
    Report("SetCType", std::string("type ") + Name(type) +
                           " is not supported: C's format is " + List(formats));
    return -1;
  }
  if (!OneOf(dataType, types)) {
    Report("SetCType", std::string("dataType ") + Name(dataType) +
                           " is not supported: on " + profile_name_ + " C is " +
                           List(types) +
                           (IsFp8(dataType) && !mx_capable_
                                ? " (8-bit floats are Ascend 950's)"
                                : ""));
    return -1;
  }
  c_ = {pos, type, dataType, false};
  return 0;
}

int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type,
                                         DataType dataType) {
  const auto positions = {TPosition::GM, TPosition::VECOUT, TPosition::TSCM};
  const auto types = {DT::DT_FLOAT, DT::DT_FLOAT16, DT::DT_INT32,
                      DT::DT_BFLOAT16};
  if (!OneOf(pos, positions)) {
    Report("SetBiasType", std::string("pos ") + Name(pos) +
                              " is not supported: the bias lies in " +
                              List(positions));
    return -1;
  }
  if (type != CubeFormat::ND) {
    Report("SetBiasType", std::string("type ") + Name(type) +
                              " is not supported: the bias's format is ND");
    return -1;
  }
  if (!OneOf(dataType, types)) {
    Report("SetBiasType", std::string("dataType ") + Name(dataType) +
                              " is not supported: the bias is " + List(types));
    return -1;
  }
  bias_ = {pos, type, dataType, false};
  return 0;
}

int32_t MatmulApiTilingBase::SetScale(int side, TPosition scalePos,
                                      CubeFormat scaleType, bool isScaleTrans) {
  const char* function = side == 0 ? "SetScaleAType" : "SetScaleBType";
  const char* scale = side == 0 ? "scaleA" : "scaleB";
  if (!mx_capable_) {
    Report(function, std::string(scale) +
                         " belongs to MxMatmul, which runs on Ascend 950 "
                         "only: the platform is " +
                         profile_name_);
    return -1;
  }
  const auto positions = {TPosition::GM, TPosition::VECOUT, TPosition::TSCM};
  // scaleA may be a VECTOR (GEMV with A in VECTOR).
  const std::vector<CubeFormat> formats =
      side == 0 ? std::vector<CubeFormat>{CubeFormat::ND, CubeFormat::NZ,
                                          CubeFormat::VECTOR}
                : std::vector<CubeFormat>{CubeFormat::ND, CubeFormat::NZ};
  if (!OneOf(scalePos, positions)) {
    Report(function, std::string("scalePos ") + Name(scalePos) +
                         " is not supported: " + scale + " lies in " +
                         List(positions));
    return -1;
  }
  if (!OneOf(scaleType, formats)) {
    Report(function, std::string("scaleType ") + Name(scaleType) +
                         " is not supported: " + scale + "'s format is " +
                         List(formats));
    return -1;
  }
  if (scalePos == TPosition::TSCM && scaleType != CubeFormat::NZ) {
    Report(function, std::string("scaleType ") + Name(scaleType) +
                         " with scalePos TSCM is not supported: a scale "
                         "matrix in TSCM is NZ");
    return -1;
  }
  (side == 0 ? scale_a_ : scale_b_) = {scalePos, scaleType, DT::DT_FLOAT,
                                       isScaleTrans};
  scale_set_[side] = true;
  return 0;
}

int32_t MatmulApiTilingBase::SetScaleAType(TPosition scalePos,
                                           CubeFormat scaleType,
                                           bool isScaleTrans) {
  return SetScale(0, scalePos, scaleType, isScaleTrans);
}

int32_t MatmulApiTilingBase::SetScaleBType(TPosition scalePos,
                                           CubeFormat scaleType,
                                           bool isScaleTrans) {
  return SetScale(1, scalePos, scaleType, isScaleTrans);
}

int32_t MatmulApiTilingBase::SetDequantType(DequantType dequantType) {
  if (dequantType != DequantType::SCALAR &&
      dequantType != DequantType::TENSOR) {
    Report("SetDequantType", Arg("dequantType", static_cast<int>(dequantType)) +
                                 " is not supported: it is SCALAR or TENSOR");
    return -1;
  }
  return 0;  // the mode matters to the kernel's Fixpipe, not to the tiling
}

// ---------------------------------------------------------------- shapes

int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  const NamedValue args[] = {{"m", m}, {"n", n}, {"k", k}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, true)) {
      Report("SetShape", Arg(a.name, a.value) +
                             " is not valid: it is at least 1, or -1 to "
                             "take SetOrgShape's value");
      return -1;
    }
  }
  shape_[0] = m;
  shape_[1] = n;
  shape_[2] = k;
  return 0;
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn,
                                         int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}

int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn,
                                         int32_t orgKaIn, int32_t orgKbIn) {
  const NamedValue args[] = {{"orgMIn", orgMIn},
                             {"orgNIn", orgNIn},
                             {"orgKaIn", orgKaIn},
                             {"orgKbIn", orgKbIn}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, false)) {
      Report("SetOrgShape",
             Arg(a.name, a.value) + " is not valid: it is at least 1");
      return -1;
    }
  }
  org_[0] = orgMIn;
  org_[1] = orgNIn;
  org_[2] = orgKaIn;
  org_[3] = orgKbIn;
  return 0;
}

int32_t MatmulApiTilingBase::CheckPositive(
    const char* function, std::initializer_list<NamedValue> args) const {
  for (const NamedValue& a : args) {
    if (a.value < 1) {
      Report(function,
             Arg(a.name, a.value) + " is not valid: it is at least 1");
      return -1;
    }
  }
  return 0;
}

int32_t MatmulApiTilingBase::SetLayout(const char* function, int32_t (&axes)[5],
                                       int32_t b, int32_t s, int32_t n,
                                       int32_t g, int32_t d) {
  if (CheckPositive(function,
                    {{"b", b}, {"s", s}, {"n", n}, {"g", g}, {"d", d}}) != 0) {
    return -1;
  }
  const int32_t given[5] = {b, s, n, g, d};
  std::copy(given, given + 5, axes);
  return 0;
}

int32_t MatmulApiTilingBase::SetALayout(int32_t b, int32_t s, int32_t n,
                                        int32_t g, int32_t d) {
  return SetLayout("SetALayout", layout_[0], b, s, n, g, d);
}

int32_t MatmulApiTilingBase::SetBLayout(int32_t b, int32_t s, int32_t n,
                                        int32_t g, int32_t d) {
  return SetLayout("SetBLayout", layout_[1], b, s, n, g, d);
}

int32_t MatmulApiTilingBase::SetCLayout(int32_t b, int32_t s, int32_t n,
                                        int32_t g, int32_t d) {
  return SetLayout("SetCLayout", layout_[2], b, s, n, g, d);
}

int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t batchA,
                                                   int32_t batchB, int32_t m,
                                                   int32_t n, int32_t k) {
  if (CheckPositive("SetBatchInfoForNormal", {{"batchA", batchA},
                                              {"batchB", batchB},
                                              {"m", m},
                                              {"n", n},
                                              {"k", k}}) != 0) {
    return -1;
  }
  batch_a_ = batchA;
  batch_b_ = batchB;
  return 0;
}

int32_t MatmulApiTilingBase::SetBatchNum(int32_t batch) {
  if (CheckPositive("SetBatchNum", {{"batch", batch}}) != 0) return -1;
  batch_num_ = batch;
  return 0;
}

int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) {
  bias_on_ = isBiasIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) {
  return EnableBias(isBiasIn);
}

// ---------------------------------------------------------------- options

int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn,
                                         int32_t baseKIn) {
  const NamedValue args[] = {{"baseMIn", baseMIn}, {"baseNIn", baseNIn}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, true)) {
      Report("SetFixSplit", Arg(a.name, a.value) +
                                " is not valid: it is at least 1, or -1 to "
                                "let GetTiling choose");
      return -1;
    }
  }
  if (baseKIn != -1) {
    Report("SetFixSplit", Arg("baseKIn", baseKIn) +
                              " is not supported: baseK cannot be fixed, "
                              "baseKIn is -1");
    return -1;
  }
  fixed_base_[0] = baseMIn;
  fixed_base_[1] = baseNIn;
  return 0;
}

int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize,
                                            int32_t ubSize, int32_t btSize) {
  struct Space {
    const char* name;
    int32_t value;
    uint64_t platform;
    const char* memory;
  };
  const Space spaces[] = {{"l1Size", l1Size, l1_, "L1"},
                          {"l0CSize", l0CSize, l0c_, "L0C"},
                          {"ubSize", ubSize, ub_, "the unified buffer"},
                          {"btSize", btSize, bt_, "the bias table"}};
  for (const Space& s : spaces) {
    if (s.value == -1) continue;
    if (s.value < 0 || static_cast<uint64_t>(s.value) > s.platform) {
      Report("SetBufferSpace",
             Arg(s.name, s.value) + " is not valid: it is -1 (all of " +
                 s.memory + ") or a byte count in [0, " +
                 std::to_string(s.platform) + "], the platform's size");
      return -1;
    }
  }
  space_[0] = l1Size;
  space_[1] = l0CSize;
  space_[2] = ubSize;
  space_[3] = btSize;
  return 0;
}

int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  if (traverse != MatrixTraverse::FIRSTM &&
      traverse != MatrixTraverse::FIRSTN) {
    Report("SetTraverse", Arg("traverse", static_cast<int>(traverse)) +
                              " is not supported: it is FIRSTM or FIRSTN");
    return -1;
  }
  traverse_ = traverse;
  return 0;
}

int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  if (madType == MatrixMadType::NORMAL ||
      (madType == MatrixMadType::MXMODE && mx_capable_)) {
    mad_type_ = madType;
    return 0;
  }
  Report("SetMadType",
         Arg("madType", static_cast<int>(madType)) +
             (madType == MatrixMadType::MXMODE
                  ? " (MXMODE) is not supported: MxMatmul runs on Ascend 950 "
                    "only"
                  : std::string(" is not supported: only NORMAL") +
                        (mx_capable_ ? " and MXMODE are" : " is") +
                        " (HF32 is not available in this version)"));
  return -1;
}

int32_t MatmulApiTilingBase::SetSplitRange(int32_t maxBaseM, int32_t maxBaseN,
                                           int32_t maxBaseK, int32_t minBaseM,
                                           int32_t minBaseN, int32_t minBaseK) {
  const NamedValue args[] = {{"maxBaseM", maxBaseM}, {"maxBaseN", maxBaseN},
                             {"maxBaseK", maxBaseK}, {"minBaseM", minBaseM},
                             {"minBaseN", minBaseN}, {"minBaseK", minBaseK}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, true)) {
      Report("SetSplitRange", Arg(a.name, a.value) +
                                  " is not valid: it is at least 1, or -1 "
                                  "for no bound");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (args[i].value != -1 && args[i + 3].value > args[i].value) {
      Report("SetSplitRange", Arg(args[i + 3].name, args[i + 3].value) +
                                  " exceeds " +
                                  Arg(args[i].name, args[i].value) +
                                  ": the minimum is at most the maximum");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    base_max_[i] = args[i].value;
    base_min_[i] = args[i + 3].value;
  }
  return 0;
}

int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool,
                                             bool) {
  return 0;  // reserved by the vendor: no effect
}

void MatmulApiTilingBase::SetMatmulConfigParams(int32_t mmConfigTypeIn,
                                                bool enableL1CacheUBIn,
                                                ScheduleType scheduleTypeIn,
                                                MatrixTraverse traverseIn,
                                                bool enVecND2NZIn) {
  SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn,
                                           scheduleTypeIn, traverseIn,
                                           enVecND2NZIn));
}

void MatmulApiTilingBase::SetMatmulConfigParams(
    const MatmulConfigParams& configParams) {
  config_ = configParams;
  config_set_ = true;
  if (configParams.traverse == MatrixTraverse::FIRSTM ||
      configParams.traverse == MatrixTraverse::FIRSTN) {
    traverse_ = configParams.traverse;
  }
}

int32_t MatmulApiTilingBase::SetSparse(bool isSparseIn) {
  if (isSparseIn && mx_capable_) {
    Report("SetSparse",
           std::string("isSparseIn true on ") + profile_name_ +
               ": the 4:2 sparse Matmul is Atlas A2/A3's (its SetSparseIndex "
               "page; the Ascend 950's cube has no sparse Mmad)");
    return -1;
  }
  sparse_ = isSparseIn;
  return 0;
}

// ---------------------------------------------------------------- multi-core

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim < 1 || dim > PlatformCores()) {
    Report("SetDim", Arg("dim", dim) + " is outside [1, " +
                         std::to_string(PlatformCores()) +
                         "]: the cores a Matmul may use, at most the "
                         "platform's GetCoreNum()");
    return -1;
  }
  cores_.dim = dim;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn,
                                              int32_t singleNIn,
                                              int32_t singleKIn) {
  const NamedValue args[] = {{"singleMIn", singleMIn},
                             {"singleNIn", singleNIn},
                             {"singleKIn", singleKIn}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, true)) {
      Report("SetSingleShape", Arg(a.name, a.value) +
                                   " is not valid: it is at least 1, or -1 "
                                   "to let GetTiling choose");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) cores_.single[i] = args[i].value;
  return 0;
}

int32_t MultiCoreMatmulTiling::SetSingleRange(int32_t maxM, int32_t maxN,
                                              int32_t maxK, int32_t minM,
                                              int32_t minN, int32_t minK) {
  const NamedValue args[] = {{"maxM", maxM}, {"maxN", maxN}, {"maxK", maxK},
                             {"minM", minM}, {"minN", minN}, {"minK", minK}};
  for (const NamedValue& a : args) {
    if (!ShapeArg(a.value, true)) {
      Report("SetSingleRange", Arg(a.name, a.value) +
                                   " is not valid: it is at least 1, or -1 "
                                   "for no bound");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    if (args[i].value != -1 && args[i + 3].value > args[i].value) {
      Report("SetSingleRange", Arg(args[i + 3].name, args[i + 3].value) +
                                   " exceeds " +
                                   Arg(args[i].name, args[i].value) +
                                   ": the minimum is at most the maximum");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) {
    cores_.single_max[i] = args[i].value;
    cores_.single_min[i] = args[i + 3].value;
  }
  return 0;
}

int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t alignM, int32_t alignN,
                                             int32_t alignK) {
  const NamedValue args[] = {
      {"alignM", alignM}, {"alignN", alignN}, {"alignK", alignK}};
  for (const NamedValue& a : args) {
    if (a.value < -1) {
      Report("SetAlignSplit", Arg(a.name, a.value) +
                                  " is not valid: it is at least 1, or -1 "
                                  "or 0 to let GetTiling choose");
      return -1;
    }
  }
  for (int i = 0; i < 3; ++i) cores_.align[i] = std::max(0, args[i].value);
  return 0;
}

void MultiCoreMatmulTiling::EnableMultiCoreSplitK(bool flag) {
  cores_.split_k = flag;
}

void MultiCoreMatmulTiling::SetSplitK(bool flag) {
  EnableMultiCoreSplitK(flag);
}

int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN,
                                              int32_t& shapeK) {
  if (!tiled_) {
    Report("GetSingleShape", "there is no tiling yet: call GetTiling first");
    return -1;
  }
  shapeM = result_.singleCoreM;
  shapeN = result_.singleCoreN;
  shapeK = result_.singleCoreK;
  return 0;
}

int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim,
                                          int32_t& nDim) {
  if (!tiled_) {
    Report("GetCoreNum", "there is no tiling yet: call GetTiling first");
    return -1;
  }
  dim = result_.usedCoreNum;
  mDim = m_dim_;
  nDim = n_dim_;
  return 0;
}

int32_t BatchMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim,
                                      int32_t& nDim, int32_t& batchCoreM,
                                      int32_t& batchCoreN) {
  if (MultiCoreMatmulTiling::GetCoreNum(dim, mDim, nDim) != 0) return -1;
  batchCoreM = 1;
  batchCoreN = 1;
  return 0;
}

// ---------------------------------------------------------------- GetTiling

int32_t MatmulApiTilingBase::GetBaseM() const {
  return tiled_ ? result_.baseM : -1;
}
int32_t MatmulApiTilingBase::GetBaseN() const {
  return tiled_ ? result_.baseN : -1;
}
int32_t MatmulApiTilingBase::GetBaseK() const {
  return tiled_ ? result_.baseK : -1;
}

bool MatmulApiTilingBase::EnableL1BankConflictOptimise() {
  if (!tiled_) {
    Report("EnableL1BankConflictOptimise",
           "there is no tiling yet: call GetTiling first");
    return false;
  }
  const uint64_t l1 = space_[0] >= 0 ? uint64_t(space_[0]) : l1_;
  return uint64_t(result_.shareL1Size) * 2 <= l1;
}

int64_t MatmulApiTilingBase::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t{};
  if (Tile(&t) != 0) return -1;
#define NORMGRAD_SET_HOST_FIELD(type, name) tiling.set_##name(t.name);
  NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_SET_HOST_FIELD)
#undef NORMGRAD_SET_HOST_FIELD
  return 0;
}

int64_t MatmulApiTilingBase::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t{};
  if (Tile(&t) != 0) return -1;
  tiling = t;
  return 0;
}

int64_t MatmulApiTilingBase::Tile(AscendC::tiling::TCubeTiling* tiling) {
  tiled_ = false;
  auto fail = [this](const std::string& problem) {
    Report("GetTiling", problem);
    return -1;
  };
  if (l1_ == 0 || l0a_ == 0 || l0b_ == 0 || l0c_ == 0) {
    return fail(std::string("the platform (") + profile_name_ +
                ") reports no cube memories (L1 " + std::to_string(l1_) +
                ", L0A " + std::to_string(l0a_) + ", L0B " +
                std::to_string(l0b_) + ", L0C " + std::to_string(l0c_) +
                " bytes): normgrad emulates the cube on Atlas A2/A3 and the "
                "950 (NORMGRAD_PROFILE=a2 or 950)");
  }
  if (config_set_) {
    if (config_.mmConfigType != 0 && config_.mmConfigType != 1) {
      return fail(
          Arg("SetMatmulConfigParams mmConfigType", config_.mmConfigType) +
          " is not supported: it is 0 (Norm) or 1 (MDL)");
    }
    if (config_.enableL1CacheUB) {
      return fail(
          "SetMatmulConfigParams enableL1CacheUB true is not supported on "
          "Atlas A2/A3");
    }
    if (config_.scheduleType == ScheduleType::N_BUFFER_33) {
      return fail(
          "SetMatmulConfigParams scheduleType N_BUFFER_33 is not supported: "
          "normgrad does not tile the NBuffer33 policy");
    }
  }

  // The shapes: SetShape's, with -1 (or no call) taking SetOrgShape's.
  const bool have_shape = shape_[0] > 0 || shape_[1] > 0 || shape_[2] > 0;
  const bool have_org = org_[0] > 0;
  if (!have_org && (shape_[0] < 1 || shape_[1] < 1 || shape_[2] < 1)) {
    return fail(have_shape
                    ? "SetShape left an axis at -1 and SetOrgShape was not "
                      "called: -1 takes SetOrgShape's value"
                    : "there is no shape: call SetShape and SetOrgShape");
  }
  const int32_t org_m = have_org ? org_[0] : shape_[0];
  const int32_t org_n = have_org ? org_[1] : shape_[1];
  const int32_t org_ka = have_org ? org_[2] : shape_[2];
  const int32_t org_kb = have_org ? org_[3] : shape_[2];
  const int32_t m = shape_[0] > 0 ? shape_[0] : org_m;
  const int32_t n = shape_[1] > 0 ? shape_[1] : org_n;
  const int32_t k = shape_[2] > 0 ? shape_[2] : std::min(org_ka, org_kb);
  if (m > org_m || n > org_n || k > org_ka || k > org_kb) {
    return fail("SetShape (" + std::to_string(m) + ", " + std::to_string(n) +
                ", " + std::to_string(k) + ") exceeds SetOrgShape (" +
                std::to_string(org_m) + ", " + std::to_string(org_n) + ", " +
                std::to_string(org_ka) + ", " + std::to_string(org_kb) +
                "): the computed shape lies inside the whole matrices");
  }

  {
    const std::string types = CheckTypes();
    if (!types.empty()) return fail(types);
  }
  if (sparse_) {
    // The sparse Matmul's pages: int8 A and B, B transposed in GM as ND or
    // NZ.
    if (a_.type != DataType::DT_INT8 || b_.type != DataType::DT_INT8) {
      return fail(std::string("SetSparse(true) with A ") + Name(a_.type) +
                  " and B " + Name(b_.type) +
                  ": the 4:2 sparse Matmul takes A and B DT_INT8");
    }
    if (!b_.transpose || b_.pos != TPosition::GM ||
        (b_.format != CubeFormat::ND && b_.format != CubeFormat::NZ)) {
      return fail(
          "SetSparse(true): the 4:2 sparse Matmul takes B in GM as ND or NZ "
          "with isTrans true (SetBType; SparseMatmulType's table)");
    }
  }
  const bool mx = mad_type_ == MatrixMadType::MXMODE;
  const uint32_t a_bits = Bits(a_.type);
  if (a_bits == 4) {
    // int4b_t packs two elements a byte: each inner axis is even, and so
    // is the K one core takes when K is an inner axis.
    const bool k_inner = !a_.transpose || b_.transpose;
    const NamedValue inner[] = {
        {a_.transpose ? "M" : "Ka", a_.transpose ? org_m : org_ka},
        {b_.transpose ? "Kb" : "N", b_.transpose ? org_kb : org_n},
        {"K", k_inner ? k : 0}};
    for (const NamedValue& v : inner) {
      if (v.value % 2 != 0) {
        return fail(Arg(v.name, v.value) +
                    " is odd: with DT_INT4 inputs each inner axis (and K "
                    "when it is one) has an even length");
      }
    }
  }
  const int32_t c0 =
      static_cast<int32_t>(normgrad_ascendc::matmul::C0Elements(a_bits));
  const bool a_nz = a_.format == CubeFormat::NZ;
  const bool b_nz = b_.format == CubeFormat::NZ;
  struct Aligned {
    bool applies;
    const char* what;
    int32_t value;
    int32_t multiple;
  };
  const Aligned nz[] = {
      {a_nz, "A in NZ: M", org_m, 16},   {a_nz, "A in NZ: m", m, 16},
      {a_nz, "A in NZ: Ka", org_ka, c0}, {a_nz, "A in NZ: k", k, c0},
      {b_nz, "B in NZ: Kb", org_kb, c0}, {b_nz, "B in NZ: k", k, c0},
      {b_nz, "B in NZ: N", org_n, 16},   {b_nz, "B in NZ: n", n, 16}};
  for (const Aligned& a : nz) {
    if (a.applies && a.value % a.multiple != 0) {
      return fail(Arg(a.what, a.value) + " is not a multiple of " +
                  std::to_string(a.multiple) +
                  ": an NZ matrix has its rows aligned to 16 and its K to "
                  "C0_size");
    }
  }
  // A in VECTOR format (GEMV) is one row: M is 1, and it is not transposed.
  if (a_.format == CubeFormat::VECTOR && org_m != 1) {
    return fail(Arg("M", org_m) +
                " is not 1: A in CubeFormat::VECTOR (GEMV) is a single row");
  }
  if (a_.format == CubeFormat::VECTOR && a_.transpose) {
    return fail(
        "A in CubeFormat::VECTOR (GEMV) with isTrans true: a vector A is not "
        "transposed");
  }
  if (cores_.split_k && bias_on_) {
    return fail(
        "EnableMultiCoreSplitK(true) with a bias is not supported: split-K "
        "adds partial results, the bias would be added once per part");
  }
  if (cores_.split_k && c_.pos != TPosition::GM) {
    return fail(std::string("EnableMultiCoreSplitK(true) with C in ") +
                Name(c_.pos) + ": split-K accumulates C in GM");
  }
  const int32_t shape[3] = {m, n, k};
  const char* const single_names[3] = {"singleMIn", "singleNIn", "singleKIn"};
  for (int i = 0; i < 3; ++i) {
    if (cores_.single[i] > shape[i]) {
      return fail(
          Arg(std::string("SetSingleShape " + std::string(single_names[i]))
                  .c_str(),
              cores_.single[i]) +
          " exceeds the shape's " + std::to_string(shape[i]) +
          ": one core's part lies inside the shape");
    }
  }
  if (!cores_.split_k && cores_.single[2] > 0 && cores_.single[2] != k) {
    return fail(Arg("SetSingleShape singleKIn", cores_.single[2]) +
                " differs from K " + std::to_string(k) +
                ": without EnableMultiCoreSplitK(true) each core takes the "
                "whole K");
  }
  if (batch_num_ > 0 && batch_num_ < std::max(batch_a_, batch_b_)) {
    return fail(Arg("SetBatchNum batch", batch_num_) +
                " is less than SetBatchInfoForNormal's batchA " +
                std::to_string(batch_a_) + " / batchB " +
                std::to_string(batch_b_) + ": it is the larger of the two");
  }

  CubeTilingRequest r;
  r.m = m;
  r.n = n;
  r.k = k;
  r.org_m = org_m;
  r.org_n = org_n;
  r.org_ka = org_ka;
  r.org_kb = org_kb;
  CubeTilingContext& c = r.context;
  c.a_bits = a_bits;
  c.b_bits = Bits(b_.type);
  c.bias_bits = Bits(bias_.type);
  c.a_transpose = a_.transpose;
  c.b_transpose = b_.transpose;
  c.a_nz = a_nz;
  c.b_nz = b_nz;
  c.bias = bias_on_;
  c.mdl = config_set_ && config_.mmConfigType == 1;
  c.split_k = cores_.split_k;
  c.mx = mx;
  c.sparse = sparse_;
  if (mx_capable_) {
    const CubeTilingContext p950 = normgrad_ascendc::matmul::ProfileCubeContext(
        normgrad_ascendc::Profile::k950);
    c.l0a_mx_bytes = p950.l0a_mx_bytes;
    c.l0b_mx_bytes = p950.l0b_mx_bytes;
  }
  c.l1_bytes = space_[0] >= 0 ? uint64_t(space_[0]) : l1_;
  c.l0a_bytes = l0a_;
  c.l0b_bytes = l0b_;
  c.l0c_bytes = space_[1] >= 0 ? uint64_t(space_[1]) : l0c_;
  c.bias_table_bytes = space_[3] >= 0 ? uint64_t(space_[3]) : bt_;
  c.core_num = static_cast<uint32_t>(std::max(1, platform_cores_));
  r.c_bits = Bits(c_.type);
  r.ub_bytes = space_[2] >= 0 ? uint64_t(space_[2]) : ub_;
  r.a_in_ub = a_.pos == TPosition::VECOUT;
  r.b_in_ub = b_.pos == TPosition::VECOUT;
  r.c_in_ub = c_.pos == TPosition::VECIN;
  r.bias_in_ub = bias_.pos == TPosition::VECOUT;
  r.dim = cores_.dim;
  for (int i = 0; i < 3; ++i) {
    r.single[i] = cores_.single[i];
    r.single_max[i] = cores_.single_max[i];
    r.single_min[i] = cores_.single_min[i];
    r.align[i] = cores_.align[i];
    r.base_max[i] = base_max_[i];
    r.base_min[i] = base_min_[i];
  }
  r.base[0] = fixed_base_[0];
  r.base[1] = fixed_base_[1];
  r.iterate_order = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;

  normgrad_ascendc::matmul::CubeTilingOutcome out =
      normgrad_ascendc::matmul::SearchCubeTiling(r);
  if (!out.ok) return fail(out.problem);
  // MX with A or B outside GM: K's scales come in pairs (2 bytes along K),
  // so singleCoreK rounded up to 32 is an even number of 32s.
  if (mx && (a_.pos != TPosition::GM || b_.pos != TPosition::GM) &&
      (out.tiling.singleCoreK + 31) / 32 % 2 != 0) {
    return fail(Arg("singleCoreK", out.tiling.singleCoreK) +
                " rounded up to 32 is an odd multiple of 32: in MX mode "
                "with A or B outside GM, singleCoreK aligned up to 32 is an "
                "even multiple of 32");
  }
  {
    const std::string broken =
        normgrad_ascendc::matmul::CheckCubeTiling(out.tiling, c);
    if (!broken.empty()) {
      return fail("internal error, the tiling made breaks a rule: " + broken);
    }
  }
  // The batch fields: the search leaves them 0, so a rule they break is
  // the caller's (the layout setters, SetBatchNum), reported as such.
  out.tiling.BatchNum =
      batch_num_ > 0 ? batch_num_ : std::max(batch_a_, batch_b_);
  int32_t* const layout_fields[3][5] = {
      {&out.tiling.ALayoutInfoB, &out.tiling.ALayoutInfoS,
       &out.tiling.ALayoutInfoN, &out.tiling.ALayoutInfoG,
       &out.tiling.ALayoutInfoD},
      {&out.tiling.BLayoutInfoB, &out.tiling.BLayoutInfoS,
       &out.tiling.BLayoutInfoN, &out.tiling.BLayoutInfoG,
       &out.tiling.BLayoutInfoD},
      {&out.tiling.CLayoutInfoB, &out.tiling.CLayoutInfoS1,
       &out.tiling.CLayoutInfoN, &out.tiling.CLayoutInfoG,
       &out.tiling.CLayoutInfoS2}};
  for (int w = 0; w < 3; ++w) {
    for (int i = 0; i < 5; ++i) *layout_fields[w][i] = layout_[w][i];
  }
  const std::string broken =
      normgrad_ascendc::matmul::CheckCubeTiling(out.tiling, c);
  if (!broken.empty()) return fail(broken);
  result_ = out.tiling;
  m_dim_ = out.m_dim;
  n_dim_ = out.n_dim;
  tiled_ = true;
  *tiling = out.tiling;
  return 0;
}

std::string MatmulApiTilingBase::CheckTypes() const {
  const bool mx = mad_type_ == MatrixMadType::MXMODE;
  for (int side = 0; side < 2; ++side) {
    if (scale_set_[side] && !mx) {
      return std::string(side == 0 ? "SetScaleAType" : "SetScaleBType") +
             " was called without SetMadType(MatrixMadType::MXMODE): scale "
             "matrices belong to MxMatmul, which SetMadType turns on";
    }
  }
  const std::string row =
      std::string("A ") + Name(a_.type) + ", B " + Name(b_.type) + ", C " +
      Name(c_.type) +
      (bias_on_ ? std::string(", bias ") + Name(bias_.type) : "");
  if (IsFp8(a_.type) || IsFp8(b_.type)) {
    if (!Fp8RowSupported(a_.type, b_.type, c_.type, bias_on_, bias_.type, mx)) {
      return row +
             " is not an 8-bit float row of the Ascend 950 that normgrad "
             "emulates: A and B DT_FLOAT8_E4M3FN or DT_FLOAT8_E5M2 (mixed "
             "too) or both DT_HIFLOAT8, bias DT_FLOAT, DT_FLOAT16 or "
             "DT_BFLOAT16, C DT_FLOAT, DT_FLOAT16 or DT_BFLOAT16 (outside "
             "MXMODE also DT_FLOAT8_E4M3FN from the first, DT_HIFLOAT8 from "
             "the second)";
    }
  } else if (a_.type != b_.type) {
    return std::string("A is ") + Name(a_.type) + " and B " + Name(b_.type) +
           ": on " + profile_name_ + " A and B have one type" +
           (mx_capable_ ? " (but for the 8-bit floats)" : "");
  } else if (!TableSupports(a_.type, c_.type, bias_on_, bias_.type,
                            mx_capable_)) {
    return std::string("A and B ") + Name(a_.type) + ", C " + Name(c_.type) +
           (bias_on_ ? std::string(", bias ") + Name(bias_.type) : "") +
           " is not a type combination of " + profile_name_ + "'s Matmul";
  }
  if (!mx) return {};

  // MX mode: MXFP8 operands; each scale matrix as set, else as its operand.
  const MatrixDesc* const operands[2] = {&a_, &b_};
  for (int side = 0; side < 2; ++side) {
    const DataType t = operands[side]->type;
    if (!IsMxFp8(t)) {
      return std::string(side == 0 ? "A " : "B ") + Name(t) +
             " is not an MxMatmul type: with SetMadType(MXMODE) A and B are "
             "DT_FLOAT8_E4M3FN or DT_FLOAT8_E5M2 (SetAType and SetBType list "
             "no fp4x2 type: an MXFP4 kernel takes a TCubeTiling filled in "
             "directly)";
    }
  }
  const MatrixDesc scale_a =
      scale_set_[0] ? scale_a_
                    : MatrixDesc{a_.pos, a_.format, DT::DT_FLOAT, a_.transpose};
  const MatrixDesc scale_b =
      scale_set_[1] ? scale_b_
                    : MatrixDesc{b_.pos, b_.format, DT::DT_FLOAT, b_.transpose};
  struct Operand {
    const char* name;
    const MatrixDesc& desc;
  };
  const Operand all[] = {
      {"A", a_}, {"B", b_}, {"scaleA", scale_a}, {"scaleB", scale_b}};
  for (const Operand& o : all) {
    if (o.desc.pos == TPosition::TSCM && o.desc.format != CubeFormat::NZ) {
      return std::string(o.name) + " in TSCM with format " +
             Name(o.desc.format) +
             ": in MX mode a matrix in TSCM is in the NZ format";
    }
  }
  // GEMV: A and scaleA both VECTOR, in GM, not transposed.
  if (a_.format == CubeFormat::VECTOR || scale_a.format == CubeFormat::VECTOR) {
    for (const Operand& o : {all[0], all[2]}) {
      if (o.desc.format != CubeFormat::VECTOR || o.desc.pos != TPosition::GM ||
          o.desc.transpose) {
        return std::string(o.name) + " is " + Name(o.desc.format) + " in " +
               Name(o.desc.pos) + (o.desc.transpose ? ", transposed" : "") +
               ": in MX mode with A or scaleA in CubeFormat::VECTOR (GEMV) "
               "both are VECTOR, in GM and not transposed";
      }
    }
  }
  return {};
}

// ---------------------------------------------------------------- buffers

namespace {

int32_t TmpBufSize(const char* function, const AscendC::tiling::TCubeTiling& t,
                   SysTilingTempBufSize& bufSize) {
  const std::string name = std::string("matmul_tiling::") + function;
  if (t.baseM < 1 || t.baseN < 1 || (t.dbL0C != 1 && t.dbL0C != 2) ||
      t.transLength < 0) {
    normgrad_ascendc::host_tiling::Report(
        name.c_str(),
        "tiling has baseM " + std::to_string(t.baseM) + ", baseN " +
            std::to_string(t.baseN) + ", dbL0C " + std::to_string(t.dbL0C) +
            ", transLength " + std::to_string(t.transLength) +
            ": it is not a tiling from GetTiling (bases at least 1, dbL0C 1 "
            "or 2, transLength at least 0)",
        "bufSize is unchanged (returns -1)");
    return -1;
  }
  if (t.shareL1Size < 1) {
    normgrad_ascendc::host_tiling::Report(
        name.c_str(),
        "tiling.shareL1Size " + std::to_string(t.shareL1Size) +
            " is not positive: GetTiling records the L1 bytes there, so the "
            "tiling did not come from GetTiling",
        "bufSize is unchanged (returns -1)");
    return -1;
  }
  bufSize.ubSize = t.transLength;
  bufSize.l1Size = t.shareL1Size;
  bufSize.l0cSize = t.baseM * t.baseN * 4 * t.dbL0C;
  return 0;
}

AscendC::tiling::TCubeTiling FromHost(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t{};
#define NORMGRAD_GET_HOST_FIELD(type, name) t.name = tiling.get_##name();
  NORMGRAD_TCUBE_TILING_FIELDS(NORMGRAD_GET_HOST_FIELD)
#undef NORMGRAD_GET_HOST_FIELD
  return t;
}

}  // namespace

int32_t MatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                            SysTilingTempBufSize& bufSize) {
  return TmpBufSize("MatmulGetTmpBufSize", FromHost(tiling), bufSize);
}
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                              SysTilingTempBufSize& bufSize) {
  return TmpBufSize("MatmulGetTmpBufSizeV2", tiling, bufSize);
}
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                     SysTilingTempBufSize& bufSize) {
  return TmpBufSize("MultiCoreMatmulGetTmpBufSize", FromHost(tiling), bufSize);
}
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                       SysTilingTempBufSize& bufSize) {
  return TmpBufSize("MultiCoreMatmulGetTmpBufSizeV2", tiling, bufSize);
}
int32_t BatchMatmulGetTmpBufSize(optiling::TCubeTiling& tiling,
                                 SysTilingTempBufSize& bufSize) {
  return TmpBufSize("BatchMatmulGetTmpBufSize", FromHost(tiling), bufSize);
}
int32_t BatchMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling& tiling,
                                   SysTilingTempBufSize& bufSize) {
  return TmpBufSize("BatchMatmulGetTmpBufSizeV2", tiling, bufSize);
}

}  // namespace matmul_tiling

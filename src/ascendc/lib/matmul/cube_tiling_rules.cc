// src/ascendc/lib/matmul/cube_tiling_rules.cc — CheckCubeTiling, the rules
// of a TCubeTiling (cube_tiling_rules.h), each with its message.
#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"

#include <algorithm>
#include <limits>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"

namespace normgrad_ascendc {
namespace matmul {

namespace {

constexpr uint64_t kU64Max = std::numeric_limits<uint64_t>::max();

// a * b, saturated (the fields of a hand-written tiling can be anything).
uint64_t Mul(uint64_t a, uint64_t b) {
  if (a != 0 && b > kU64Max / a) return kU64Max;
  return a * b;
}

uint64_t Mul(std::initializer_list<uint64_t> factors) {
  uint64_t product = 1;
  for (uint64_t f : factors) product = Mul(product, f);
  return product;
}

// Bytes of `elements` elements of `bits` bits (int4b_t packs two a byte).
uint64_t Bytes(uint64_t elements, uint32_t bits) {
  const uint64_t total = Mul(elements, bits);
  return total == kU64Max ? kU64Max : (total + 7) / 8;
}

// a + b, saturated.
uint64_t Add(uint64_t a, uint64_t b) {
  return a > kU64Max - b ? kU64Max : a + b;
}

uint64_t CeilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t AlignUp(uint64_t a, uint64_t b) { return Mul(CeilDiv(a, b), b); }

std::string Field(const char* name, int64_t value) {
  return std::string("TCubeTiling.") + name + " " + std::to_string(value);
}

CubeTilingViolation Broken(CubeTilingRule rule, std::string message) {
  return {rule, std::move(message)};
}

struct NamedField {
  const char* name;
  int32_t value;
};

// The first of `fields` below 1, as a message ending in `rule`.
std::string FirstNotPositive(std::initializer_list<NamedField> fields,
                             const char* rule) {
  for (const NamedField& f : fields) {
    if (f.value < 1) {
      return Field(f.name, f.value) + " is not positive: " + rule;
    }
  }
  return {};
}

// The first of `fields` that is not a multiple of its `multiple`.
struct AlignedField {
  const char* name;
  int32_t value;
  uint32_t multiple;
  const char* why;
};
std::string FirstMisaligned(std::initializer_list<AlignedField> fields) {
  for (const AlignedField& f : fields) {
    if (f.value % static_cast<int64_t>(f.multiple) != 0) {
      return Field(f.name, f.value) + " is not a multiple of " +
             std::to_string(f.multiple) + ": " + f.why;
    }
  }
  return {};
}

}  // namespace

CubeTilingContext ProfileCubeContext(Profile profile) {
  CubeTilingContext context;
  context.l1_bytes = CubeMemoryBytes(profile, CubeMemory::kL1);
  context.l0a_bytes = CubeMemoryBytes(profile, CubeMemory::kL0A);
  context.l0b_bytes = CubeMemoryBytes(profile, CubeMemory::kL0B);
  context.l0c_bytes = CubeMemoryBytes(profile, CubeMemory::kL0C);
  context.bias_table_bytes = CubeMemoryBytes(profile, CubeMemory::kBiasTable);
  if (profile == Profile::k950) {
    context.l0a_mx_bytes = MxScaleBuffers::kBytes;
    context.l0b_mx_bytes = MxScaleBuffers::kBytes;
  }
  const ProfileInfo& info = GetProfileInfo(profile);
  context.core_num = std::max(info.aic_cores, info.aiv_cores);
  return context;
}

uint64_t MxScaleBlockBytes(int32_t rows, int32_t base_k) {
  return Mul(AlignUp(static_cast<uint64_t>(std::max(rows, 0)), 16),
             static_cast<uint64_t>(std::max(base_k, 0))) /
         32;
}

uint64_t CubeL1Bytes(const TCubeTiling& t, const CubeTilingContext& c) {
  // A transposed lies in L1 with M as its inner axis, padded to whole
  // fractal rows (C0 elements); B not transposed likewise with N.
  const uint64_t a_rows =
      c.a_transpose ? AlignUp(t.baseM, C0Elements(c.a_bits)) : t.baseM;
  const uint64_t b_cols =
      c.b_transpose ? t.baseN : AlignUp(t.baseN, C0Elements(c.b_bits));
  const uint64_t a =
      Bytes(Mul({a_rows, uint64_t(t.baseK), uint64_t(t.depthA1)}), c.a_bits);
  // Sparse: B's block holds baseK / 2 kept values along K, and its
  // indices (2 bits each) a quarter of its bytes more.
  const uint64_t b_k = c.sparse ? uint64_t(t.baseK) / 2 : uint64_t(t.baseK);
  uint64_t b = Bytes(Mul({b_cols, b_k, uint64_t(t.depthB1)}), c.b_bits);
  if (c.sparse) b = Add(b, b / 4);
  const uint64_t bias = c.bias ? Bytes(t.baseN, c.bias_bits) : 0;
  // MX: each buffered block of A or B brings its block of scales.
  const uint64_t scales =
      c.mx ? Add(Mul(MxScaleBlockBytes(t.baseM, t.baseK), uint64_t(t.depthA1)),
                 Mul(MxScaleBlockBytes(t.baseN, t.baseK), uint64_t(t.depthB1)))
           : 0;
  return Add(Add(a, b), Add(bias, scales));
}

namespace {

// The batch layout fields (SetALayout, SetBLayout, SetCLayout, SetBatchNum
// or SetBatchInfoForNormal): all 0 when the tiling has no layout.
CubeTilingViolation FindBatchViolation(const TCubeTiling& t,
                                       const CubeTilingContext& c) {
  using R = CubeTilingRule;
  if (t.BatchNum < 0) {
    return Broken(R::kBatchLayout,
                  Field("BatchNum", t.BatchNum) +
                      " is negative: it is the most batches one IterateBatch "
                      "computes (0 when the tiling has none)");
  }
  const NamedField axes[] = {
      {"ALayoutInfoB", t.ALayoutInfoB},  {"ALayoutInfoS", t.ALayoutInfoS},
      {"ALayoutInfoN", t.ALayoutInfoN},  {"ALayoutInfoG", t.ALayoutInfoG},
      {"ALayoutInfoD", t.ALayoutInfoD},  {"BLayoutInfoB", t.BLayoutInfoB},
      {"BLayoutInfoS", t.BLayoutInfoS},  {"BLayoutInfoN", t.BLayoutInfoN},
      {"BLayoutInfoG", t.BLayoutInfoG},  {"BLayoutInfoD", t.BLayoutInfoD},
      {"CLayoutInfoB", t.CLayoutInfoB},  {"CLayoutInfoS1", t.CLayoutInfoS1},
      {"CLayoutInfoN", t.CLayoutInfoN},  {"CLayoutInfoG", t.CLayoutInfoG},
      {"CLayoutInfoS2", t.CLayoutInfoS2}};
  bool any = false;
  for (const NamedField& f : axes) any = any || f.value != 0;
  if (!any) return {};
  for (const NamedField& f : axes) {
    if (f.value < 1) {
      return Broken(R::kBatchLayout,
                    Field(f.name, f.value) +
                        " is not positive while other layout axes are set: "
                        "SetALayout, SetBLayout and SetCLayout each give all "
                        "five axes, at least 1");
    }
  }
  if (t.BatchNum < 1) {
    return Broken(R::kBatchLayout,
                  Field("BatchNum", t.BatchNum) +
                      " is not positive while the layouts are set: "
                      "SetBatchNum gives the most batches one IterateBatch "
                      "computes");
  }
  if (t.ALayoutInfoB != t.BLayoutInfoB || t.ALayoutInfoB != t.CLayoutInfoB ||
      t.ALayoutInfoN != t.BLayoutInfoN || t.ALayoutInfoN != t.CLayoutInfoN) {
    return Broken(R::kBatchPairing,
                  "TCubeTiling: the B axes (A " +
                      std::to_string(t.ALayoutInfoB) + ", B " +
                      std::to_string(t.BLayoutInfoB) + ", C " +
                      std::to_string(t.CLayoutInfoB) + ") and N axes (A " +
                      std::to_string(t.ALayoutInfoN) + ", B " +
                      std::to_string(t.BLayoutInfoN) + ", C " +
                      std::to_string(t.CLayoutInfoN) +
                      ") differ: batches pair up along B and N, only G may "
                      "broadcast");
  }
  const int32_t g = std::max(t.ALayoutInfoG, t.BLayoutInfoG);
  if (g % t.ALayoutInfoG != 0 || g % t.BLayoutInfoG != 0 ||
      g % t.CLayoutInfoG != 0) {
    return Broken(R::kBatchPairing,
                  "TCubeTiling: the G axes (ALayoutInfoG " +
                      std::to_string(t.ALayoutInfoG) + ", BLayoutInfoG " +
                      std::to_string(t.BLayoutInfoG) + ", CLayoutInfoG " +
                      std::to_string(t.CLayoutInfoG) +
                      ") do not divide the larger of A's and B's: an input "
                      "broadcasts and C reduces along G by whole multiples");
  }
  // Every batch of A and B one IterateBatch takes, in Nz (rows to 16,
  // columns to C0; either orientation where the operand may transpose).
  auto nz = [](int32_t rows, int32_t cols, uint32_t bits, bool trans) {
    const uint32_t c0 = C0Elements(bits);
    uint64_t e = Mul(AlignUp(rows, 16), AlignUp(cols, c0));
    if (trans) e = std::max(e, Mul(AlignUp(cols, 16), AlignUp(rows, c0)));
    return Bytes(e, bits);
  };
  const uint64_t a = nz(t.M, t.Ka, c.a_bits, c.a_transpose);
  const uint64_t b = nz(t.Kb, t.N, c.b_bits, c.b_transpose);
  const uint64_t l1 = Mul(t.BatchNum, a > kU64Max - b ? kU64Max : a + b);
  if (l1 > c.l1_bytes) {
    return Broken(R::kBatchL1,
                  Field("BatchNum", t.BatchNum) + " batches of A and B take " +
                      std::to_string(l1) + " bytes in Nz, more than L1 (" +
                      std::to_string(c.l1_bytes) +
                      " bytes): with the BSNGD, SBNGD and BNGS1S2 layouts "
                      "one IterateBatch's matrices fit L1 together");
  }
  return {};
}

// mxTypePara (MX mode, not 0): four 7-bit factors, scaleA's along K (bits
// 0-6), scaleB's along K (8-14), scaleA's along M (16-22), scaleB's along N
// (24-30), each in [1, 127]; M or N beyond 1 only when that side's K is
// loaded whole with its factor.
CubeTilingViolation FindMxTypeParaViolation(const TCubeTiling& t) {
  using R = CubeTilingRule;
  const uint32_t para = static_cast<uint32_t>(t.mxTypePara);
  const std::string field = Field("mxTypePara", t.mxTypePara);
  if ((para & 0x80808080u) != 0) {
    return Broken(R::kMxTypePara,
                  field +
                      " sets bit 7, 15, 23 or 31: it holds four 7-bit scale "
                      "factors at bits 0, 8, 16 and 24");
  }
  const char* const names[4] = {"scaleFactorKa", "scaleFactorKb",
                                "scaleFactorM", "scaleFactorN"};
  uint32_t factor[4];
  for (int i = 0; i < 4; ++i) {
    factor[i] = para >> (8 * i) & 0x7fu;
    if (factor[i] == 0) {
      return Broken(R::kMxTypePara, field + " has " + names[i] +
                                        " 0: each scale factor is in [1, 127]");
    }
  }
  struct Outer {
    const char* name;
    uint32_t factor;
    uint32_t k_factor;
    const char* k_factor_name;
    const char* step_name;
    int32_t step;
  };
  const Outer outers[2] = {{"scaleFactorM", factor[2], factor[0],
                            "scaleFactorKa", "stepKa", t.stepKa},
                           {"scaleFactorN", factor[3], factor[1],
                            "scaleFactorKb", "stepKb", t.stepKb}};
  for (const Outer& o : outers) {
    const uint64_t k_loaded =
        Mul({uint64_t(t.baseK), uint64_t(o.step), uint64_t(o.k_factor)});
    if (o.factor > 1 && k_loaded < uint64_t(t.singleCoreK)) {
      return Broken(R::kMxTypePara,
                    field + " has " + o.name + " " + std::to_string(o.factor) +
                        " while baseK * " + o.step_name + " * " +
                        o.k_factor_name + " = " + std::to_string(k_loaded) +
                        " < singleCoreK " + std::to_string(t.singleCoreK) +
                        ": a scale factor along M or N above 1 needs that "
                        "side's K loaded whole");
    }
  }
  return {};
}

}  // namespace

CubeTilingViolation FindCubeTilingViolation(const TCubeTiling& t,
                                            const CubeTilingContext& c) {
  using R = CubeTilingRule;
  const uint32_t c0a = C0Elements(c.a_bits);
  const uint32_t c0b = C0Elements(c.b_bits);

  if (t.usedCoreNum < 1 || static_cast<uint32_t>(t.usedCoreNum) > c.core_num) {
    return Broken(R::kUsedCoreNum,
                  Field("usedCoreNum", t.usedCoreNum) + " is outside [1, " +
                      std::to_string(c.core_num) +
                      "]: a Matmul runs on at least one core and at most "
                      "the AI processor's cores");
  }
  std::string m =
      FirstNotPositive({{"M", t.M}, {"N", t.N}, {"Ka", t.Ka}, {"Kb", t.Kb}},
                       "the whole shapes of A, B and C are at least 1 element");
  if (!m.empty()) return Broken(R::kShape, m);
  if (c.a_nz) {
    m = FirstMisaligned(
        {{"M", t.M, 16, "A in the NZ format has M aligned to 16"},
         {"Ka", t.Ka, c0a, "A in the NZ format has Ka aligned to C0_size"}});
    if (!m.empty()) return Broken(R::kShapeNzAlign, m);
  }
  if (c.b_nz) {
    m = FirstMisaligned(
        {{"Kb", t.Kb, c0b, "B in the NZ format has Kb aligned to C0_size"},
         {"N", t.N, 16, "B in the NZ format has N aligned to 16"}});
    if (!m.empty()) return Broken(R::kShapeNzAlign, m);
  }

  m = FirstNotPositive({{"singleCoreM", t.singleCoreM},
                        {"singleCoreN", t.singleCoreN},
                        {"singleCoreK", t.singleCoreK}},
                       "one core's shape is at least 1 element");
  if (!m.empty()) return Broken(R::kSingleShape, m);
  if (t.singleCoreM > t.M) {
    return Broken(R::kSingleShape, Field("singleCoreM", t.singleCoreM) +
                                       " exceeds M " + std::to_string(t.M) +
                                       ": singleCoreM <= M");
  }
  if (t.singleCoreN > t.N) {
    return Broken(R::kSingleShape, Field("singleCoreN", t.singleCoreN) +
                                       " exceeds N " + std::to_string(t.N) +
                                       ": singleCoreN <= N");
  }
  if (t.singleCoreK > std::min(t.Ka, t.Kb)) {
    return Broken(R::kSingleShape,
                  Field("singleCoreK", t.singleCoreK) + " exceeds K " +
                      std::to_string(std::min(t.Ka, t.Kb)) +
                      ": singleCoreK <= Ka and singleCoreK <= Kb");
  }
  if (c.a_nz) {
    m = FirstMisaligned(
        {{"singleCoreM", t.singleCoreM, 16,
          "A in the NZ format has singleCoreM aligned to 16"},
         {"singleCoreK", t.singleCoreK, c0a,
          "A in the NZ format has singleCoreK aligned to C0_size"}});
    if (!m.empty()) return Broken(R::kSingleNzAlign, m);
  }
  if (c.b_nz) {
    m = FirstMisaligned(
        {{"singleCoreK", t.singleCoreK, c0b,
          "B in the NZ format has singleCoreK aligned to C0_size"},
         {"singleCoreN", t.singleCoreN, 16,
          "B in the NZ format has singleCoreN aligned to 16"}});
    if (!m.empty()) return Broken(R::kSingleNzAlign, m);
  }
  const uint64_t k_parts =
      c.split_k ? CeilDiv(std::min(t.Ka, t.Kb), t.singleCoreK) : 1;
  const uint64_t blocks =
      Mul({CeilDiv(t.M, t.singleCoreM), CeilDiv(t.N, t.singleCoreN), k_parts});
  if (static_cast<uint64_t>(t.usedCoreNum) > blocks) {
    return Broken(R::kCoreSplit,
                  Field("usedCoreNum", t.usedCoreNum) + " exceeds the " +
                      std::to_string(blocks) +
                      " blocks the single-core shapes cut: usedCoreNum <= "
                      "ceil(M / singleCoreM) * ceil(N / singleCoreN)" +
                      (c.split_k ? " * ceil(K / singleCoreK)" : ""));
  }

  m = FirstNotPositive(
      {{"baseM", t.baseM}, {"baseN", t.baseN}, {"baseK", t.baseK}},
      "one Mmad's shape is at least 1 element");
  if (!m.empty()) return Broken(R::kBasePositive, m);
  const bool k_inner_both = !c.a_transpose && c.b_transpose;
  m = FirstMisaligned(
      {{"baseM", t.baseM, 16, "baseM is aligned to 16 (fractal alignment)"},
       {"baseN", t.baseN, 16, "baseN is aligned to 16 (fractal alignment)"},
       {"baseK", t.baseK, k_inner_both ? std::max(c0a, c0b) : 16,
        k_inner_both ? "with A not transposed and B transposed baseK is "
                       "aligned to C0_size (fractal alignment)"
                     : "with A transposed or B not transposed baseK is "
                       "aligned to 16 (fractal alignment)"}});
  if (!m.empty()) return Broken(R::kBaseAlign, m);
  if (c.mx) {
    m = FirstMisaligned({{"baseK", t.baseK, 64,
                          "in MX mode baseK is a multiple of 64 (MmadMx "
                          "multiplies K in units of 64)"}});
    if (!m.empty()) return Broken(R::kMxBaseK, m);
  }
  if (c.sparse) {
    const char* why =
        "in the 4:2 sparse Matmul K goes in multiples of 64 (a step moves "
        "whole fractals of B's kept values and of their indices, 32 kept "
        "values of 64)";
    m = FirstMisaligned({{"baseK", t.baseK, 64, why}});
    if (m.empty() && c.split_k) {
      m = FirstMisaligned({{"singleCoreK", t.singleCoreK, 64, why}});
    }
    if (!m.empty()) return Broken(R::kSparseK, m);
  }
  m = FirstNotPositive({{"depthA1", t.depthA1},
                        {"depthB1", t.depthB1},
                        {"stepM", t.stepM},
                        {"stepN", t.stepN},
                        {"stepKa", t.stepKa},
                        {"stepKb", t.stepKb}},
                       "depths and steps are at least 1");
  if (!m.empty()) return Broken(R::kStepPositive, m);
  if (t.isBias != 0 && t.isBias != 1) {
    return Broken(R::kIsBias, Field("isBias", t.isBias) +
                                  " is neither 0 nor 1: isBias is 0 (no "
                                  "bias) or 1 (bias)");
  }
  if ((t.isBias == 1) != c.bias) {
    return Broken(R::kIsBias,
                  Field("isBias", t.isBias) + " disagrees with the Matmul, " +
                      (c.bias ? "which adds a bias" : "which adds no bias") +
                      ": isBias is 1 exactly when a bias is added");
  }
  if (t.iterateOrder != 0 && t.iterateOrder != 1) {
    return Broken(R::kIterateOrder,
                  Field("iterateOrder", t.iterateOrder) +
                      " is neither 0 nor 1: iterateOrder is 0 (M first) or "
                      "1 (N first)");
  }
  for (const NamedField& f :
       {NamedField{"dbL0A", t.dbL0A}, NamedField{"dbL0B", t.dbL0B},
        NamedField{"dbL0C", t.dbL0C}}) {
    if (f.value != 1 && f.value != 2) {
      return Broken(R::kDoubleBuffer,
                    Field(f.name, f.value) +
                        " is neither 1 nor 2: double buffering is off (1) "
                        "or on (2)");
    }
  }

  const uint64_t l0a = Bytes(
      Mul({uint64_t(t.baseM), uint64_t(t.baseK), uint64_t(t.dbL0A)}), c.a_bits);
  if (l0a > c.l0a_bytes) {
    return Broken(R::kL0A, "TCubeTiling.baseM * baseK * sizeof(A) * dbL0A = " +
                               std::to_string(l0a) + " bytes exceeds L0A (" +
                               std::to_string(c.l0a_bytes) +
                               " bytes): A's base block fits L0A");
  }
  const uint64_t l0b =
      Bytes(Mul({uint64_t(t.baseN),
                 c.sparse ? uint64_t(t.baseK) / 2 : uint64_t(t.baseK),
                 uint64_t(t.dbL0B)}),
            c.b_bits);
  if (l0b > c.l0b_bytes) {
    return Broken(R::kL0B, std::string("TCubeTiling.baseN * baseK") +
                               (c.sparse ? " / 2 (B's kept values)" : "") +
                               " * sizeof(B) * dbL0B = " + std::to_string(l0b) +
                               " bytes exceeds L0B (" +
                               std::to_string(c.l0b_bytes) +
                               " bytes): B's base block fits L0B");
  }
  const uint64_t l0c =
      Mul({uint64_t(t.baseM), uint64_t(t.baseN), 4, uint64_t(t.dbL0C)});
  if (l0c > c.l0c_bytes) {
    return Broken(R::kL0C, "TCubeTiling.baseM * baseN * 4 * dbL0C = " +
                               std::to_string(l0c) + " bytes exceeds L0C (" +
                               std::to_string(c.l0c_bytes) +
                               " bytes): C's base block (float or int32_t) "
                               "fits L0C");
  }
  if (c.bias) {
    const uint64_t bt = Bytes(t.baseN, c.bias_bits);
    if (bt > c.bias_table_bytes) {
      return Broken(R::kBiasTable,
                    "TCubeTiling.baseN * sizeof(bias) = " + std::to_string(bt) +
                        " bytes exceeds the bias table (" +
                        std::to_string(c.bias_table_bytes) +
                        " bytes): the bias's base block fits the bias table");
    }
  }
  if (c.mx) {
    const NamedField sides[] = {{"baseM", t.baseM}, {"baseN", t.baseN}};
    for (int side = 0; side < 2; ++side) {
      const uint64_t bytes = MxScaleBlockBytes(sides[side].value, t.baseK);
      const uint64_t room = side == 0 ? c.l0a_mx_bytes : c.l0b_mx_bytes;
      if (bytes > room) {
        const char* buffer = side == 0 ? "L0A_MX" : "L0B_MX";
        return Broken(
            side == 0 ? R::kL0AMx : R::kL0BMx,
            std::string("TCubeTiling: Ceil16(") + sides[side].name +
                ") * baseK / 32 = " + std::to_string(bytes) + " bytes of " +
                (side == 0 ? "A's" : "B's") + " scales exceed " + buffer +
                " (" + std::to_string(room) +
                " bytes): in MX mode one base block's scales fit " + buffer);
      }
    }
  }
  const uint64_t a_step = Mul(t.stepM, t.stepKa);
  if (uint64_t(t.depthA1) != a_step && uint64_t(t.depthA1) != 2 * a_step) {
    return Broken(R::kDepthA1, Field("depthA1", t.depthA1) +
                                   " is neither stepM * stepKa = " +
                                   std::to_string(a_step) + " nor twice it");
  }
  const uint64_t b_step = Mul(t.stepN, t.stepKb);
  if (uint64_t(t.depthB1) != b_step && uint64_t(t.depthB1) != 2 * b_step) {
    return Broken(R::kDepthB1, Field("depthB1", t.depthB1) +
                                   " is neither stepN * stepKb = " +
                                   std::to_string(b_step) + " nor twice it");
  }
  const uint64_t l1 = CubeL1Bytes(t, c);
  if (l1 > c.l1_bytes) {
    return Broken(R::kL1,
                  std::string("TCubeTiling: A's and B's L1 blocks") +
                      (c.bias ? " and the bias row" : "") + " take " +
                      std::to_string(l1) + " bytes, more than L1 (" +
                      std::to_string(c.l1_bytes) +
                      " bytes): depthA1 blocks of A, depthB1 blocks of B" +
                      (c.bias ? " and baseN bias elements" : "") + " fit L1");
  }

  if (c.mdl) {
    if (CeilDiv(t.Ka, t.baseK) > uint64_t(t.stepKa) && t.stepM != 1) {
      return Broken(R::kMdlStepM,
                    Field("stepM", t.stepM) +
                        " is not 1 while Ka is not loaded whole (ceil(Ka / "
                        "baseK) = " +
                        std::to_string(CeilDiv(t.Ka, t.baseK)) + " > stepKa " +
                        std::to_string(t.stepKa) +
                        "): the MDL template moves A one block along M then");
    }
    if (CeilDiv(t.Kb, t.baseK) > uint64_t(t.stepKb) && t.stepN != 1) {
      return Broken(R::kMdlStepN,
                    Field("stepN", t.stepN) +
                        " is not 1 while Kb is not loaded whole (ceil(Kb / "
                        "baseK) = " +
                        std::to_string(CeilDiv(t.Kb, t.baseK)) + " > stepKb " +
                        std::to_string(t.stepKb) +
                        "): the MDL template moves B one block along N then");
    }
    const uint64_t ka_iter = CeilDiv(t.singleCoreK, Mul(t.baseK, t.stepKa));
    const uint64_t kb_iter = CeilDiv(t.singleCoreK, Mul(t.baseK, t.stepKb));
    if (ka_iter % kb_iter != 0 && kb_iter % ka_iter != 0) {
      return Broken(R::kMdlKSteps,
                    "TCubeTiling: A takes " + std::to_string(ka_iter) +
                        " and B " + std::to_string(kb_iter) +
                        " L1 loads along K (ceil(singleCoreK / (baseK * "
                        "stepKa)) and ceil(singleCoreK / (baseK * stepKb))): "
                        "in the MDL template one divides the other");
    }
  }
  if (c.mx && t.mxTypePara != 0) {
    CubeTilingViolation v = FindMxTypeParaViolation(t);
    if (v.rule != R::kNone) return v;
  }
  return FindBatchViolation(t, c);
}

std::string CheckCubeTiling(const TCubeTiling& tiling,
                            const CubeTilingContext& context) {
  return FindCubeTilingViolation(tiling, context).message;
}

}  // namespace matmul
}  // namespace normgrad_ascendc

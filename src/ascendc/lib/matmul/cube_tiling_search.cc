// src/ascendc/lib/matmul/cube_tiling_search.cc — SearchCubeTiling, the
// Matmul tiling algorithm (cube_tiling_search.h). Every capacity and
// alignment question is asked of FindCubeTilingViolation, so the search and
// the rules cannot disagree: the search proposes, the rules answer, and the
// search shrinks what the broken rule names.
#include "ascendc/lib/matmul/cube_tiling_search.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <tuple>
#include <vector>

namespace normgrad_ascendc {
namespace matmul {

namespace {

// The recommended bases.
constexpr int32_t kPreferredBaseM = 128;
constexpr int32_t kPreferredBaseN = 256;
constexpr int32_t kPreferredBaseK = 64;

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignUp(int64_t a, int64_t b) { return CeilDiv(a, b) * b; }
int64_t Lcm(int64_t a, int64_t b) { return a / std::gcd(a, b) * b; }

// One axis of a core split: the single-core length and the parts it cuts.
struct AxisCut {
  int32_t single;
  int32_t parts;
};

// The single-core lengths of an axis of `length` over 1..dim parts, each
// rounded up to `align` (but at most the length), inside [lo, hi] (-1: no
// bound); or just `fixed` when the user set it.
std::vector<AxisCut> AxisCuts(int32_t length, int32_t dim, int32_t align,
                              int32_t fixed, int32_t lo, int32_t hi) {
  std::vector<AxisCut> cuts;
  if (fixed > 0) {
    cuts.push_back({fixed, static_cast<int32_t>(CeilDiv(length, fixed))});
    return cuts;
  }
  for (int32_t parts = 1; parts <= dim; ++parts) {
    const int32_t single = static_cast<int32_t>(
        std::min<int64_t>(length, AlignUp(CeilDiv(length, parts), align)));
    if (lo > 0 && single < lo) continue;
    if (hi > 0 && single > hi) continue;
    const int32_t used = static_cast<int32_t>(CeilDiv(length, single));
    if (!cuts.empty() && cuts.back().single == single) continue;
    cuts.push_back({single, used});
    if (used == length) break;  // one element per part: no finer cut
  }
  return cuts;
}

struct Split {
  AxisCut m, n, k;
  int64_t work;     // padded multiply-adds of one core
  int64_t traffic;  // padded A and B elements one core reads
  int32_t cores;
};

// The halved value aligned down to `unit`, at least max(unit, floor); the
// same value when it cannot shrink.
int32_t Shrink(int32_t value, int32_t unit, int32_t floor) {
  const int32_t shrunk = std::max({value / 2 / unit * unit, unit, floor});
  return std::min(shrunk, value);
}

// db * step * step_k, saturated at INT32_MAX (a depth that large breaks the
// depth or L1 rule, and the search tries a smaller step).
int32_t Depth(int32_t db, int32_t step, int32_t step_k) {
  const int64_t depth = int64_t(db) * step * step_k;
  return static_cast<int32_t>(
      std::min<int64_t>(depth, std::numeric_limits<int32_t>::max()));
}

// A base axis: the unit, the smallest and largest allowed value, the value.
struct BaseAxis {
  int32_t unit;
  int32_t lo;
  int32_t hi;
  bool fixed;
  int32_t value;
  bool Shrinkable() const { return !fixed && Shrink(value, unit, lo) != value; }
  void DoShrink() { value = Shrink(value, unit, lo); }
};

class Search {
 public:
  explicit Search(const CubeTilingRequest& r) : r_(r), ctx_(r.context) {
    ctx_.mdl = true;  // obey the MDL rules too: valid for either template
    c0a_ = C0Elements(ctx_.a_bits);
    c0b_ = C0Elements(ctx_.b_bits);
    // MX mode: MmadMx takes K in 64s, which every C0_size divides; the
    // sparse Matmul moves whole fractals of 32 kept values of 64.
    unit_k_ = ctx_.mx || ctx_.sparse
                  ? 64
                  : std::max<int32_t>({16, static_cast<int32_t>(c0a_),
                                       static_cast<int32_t>(c0b_)});
  }

  CubeTilingOutcome Run() {
    CubeTilingOutcome out;
    std::vector<Split> splits = Splits(&out.problem);
    if (splits.empty()) return out;
    std::string first_problem;
    for (size_t i = 0; i < splits.size(); ++i) {
      std::string problem;
      if (Tile(splits[i], &out.tiling, &problem)) {
        out.ok = true;
        out.m_dim = splits[i].m.parts;
        out.n_dim = splits[i].n.parts;
        return out;
      }
      if (first_problem.empty()) first_problem = problem;
    }
    out.problem = first_problem;
    return out;
  }

 private:
  std::vector<Split> Splits(std::string* problem) const {
    // Single-core lengths are aligned to the fractal (and to the NZ rules),
    // or to SetAlignSplit's values made compatible with those.
    auto align = [](int32_t user, int64_t need) {
      return static_cast<int32_t>(user > 0 ? Lcm(user, need) : need);
    };
    const int32_t align_m = align(r_.align[0], 16);
    const int32_t align_n = align(r_.align[1], 16);
    const int32_t align_k = align(r_.align[2], unit_k_);
    const std::vector<AxisCut> ms =
        AxisCuts(r_.m, r_.dim, align_m, r_.single[0], r_.single_min[0],
                 r_.single_max[0]);
    const std::vector<AxisCut> ns =
        AxisCuts(r_.n, r_.dim, align_n, r_.single[1], r_.single_min[1],
                 r_.single_max[1]);
    const std::vector<AxisCut> ks =
        ctx_.split_k
            ? AxisCuts(r_.k, r_.dim, align_k, r_.single[2], r_.single_min[2],
                       r_.single_max[2])
            : std::vector<AxisCut>{{r_.single[2] > 0 ? r_.single[2] : r_.k, 1}};
    std::vector<Split> splits;
    for (const AxisCut& m : ms) {
      for (const AxisCut& n : ns) {
        for (const AxisCut& k : ks) {
          const int64_t cores = int64_t(m.parts) * n.parts * k.parts;
          if (cores > r_.dim) continue;
          const int64_t pm = AlignUp(m.single, 16);
          const int64_t pn = AlignUp(n.single, 16);
          const int64_t pk = AlignUp(k.single, unit_k_);
          splits.push_back({m, n, k, pm * pn * pk, pm * pk + pk * pn,
                            static_cast<int32_t>(cores)});
        }
      }
    }
    std::sort(splits.begin(), splits.end(), [](const Split& a, const Split& b) {
      return std::tie(a.work, a.traffic, a.cores) <
             std::tie(b.work, b.traffic, b.cores);
    });
    if (splits.empty()) {
      *problem = "no split of M " + std::to_string(r_.m) + ", N " +
                 std::to_string(r_.n) + ", K " + std::to_string(r_.k) +
                 " over at most " + std::to_string(r_.dim) +
                 " cores gives single-core shapes inside SetSingleRange's "
                 "bounds and the single shapes set";
    }
    return splits;
  }

  // One base axis from the preferred value, the single-core cap and
  // SetSplitRange's bounds; false (and *problem) when the bounds are empty.
  bool Axis(const char* name, int32_t preferred, int32_t unit, int64_t cap,
            int32_t fixed, int32_t user_max, int32_t user_min, BaseAxis* axis,
            std::string* problem) const {
    int64_t hi = cap;
    if (user_max > 0) hi = std::min<int64_t>(hi, AlignUp(user_max, unit));
    const int64_t lo = user_min > 0 ? AlignUp(user_min, unit) : unit;
    if (fixed > 0) {
      *axis = {unit, fixed, fixed, true, fixed};
      return true;
    }
    if (lo > hi) {
      *problem = std::string("SetSplitRange asks for base") + name +
                 " of at least " + std::to_string(lo) + " and at most " +
                 std::to_string(hi) +
                 " (the single-core shape and the range's maximum, aligned): "
                 "no value is left";
      return false;
    }
    const int64_t value = std::clamp<int64_t>(
        std::min<int64_t>(preferred, hi) / unit * unit, lo, hi);
    *axis = {unit, static_cast<int32_t>(lo), static_cast<int32_t>(hi), false,
             static_cast<int32_t>(value)};
    return true;
  }

  bool Tile(const Split& s, TCubeTiling* out, std::string* problem) const {
    TCubeTiling t{};
    t.usedCoreNum = s.cores;
    t.M = r_.org_m;
    t.N = r_.org_n;
    t.Ka = r_.org_ka;
    t.Kb = r_.org_kb;
    t.singleCoreM = s.m.single;
    t.singleCoreN = s.n.single;
    t.singleCoreK = s.k.single;
    t.isBias = ctx_.bias ? 1 : 0;
    t.iterateOrder = r_.iterate_order;
    // MX: every scale factor 1, the scales of one base block loaded with it.
    t.mxTypePara = ctx_.mx ? kMxTypeParaPerBlock : 0;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = 1;

    BaseAxis bm, bn, bk;
    if (!Axis("M", kPreferredBaseM, 16, AlignUp(s.m.single, 16), r_.base[0],
              r_.base_max[0], r_.base_min[0], &bm, problem) ||
        !Axis("N", kPreferredBaseN, 16, AlignUp(s.n.single, 16), r_.base[1],
              r_.base_max[1], r_.base_min[1], &bn, problem) ||
        !Axis("K", kPreferredBaseK, unit_k_, AlignUp(s.k.single, unit_k_), -1,
              r_.base_max[2], r_.base_min[2], &bk, problem)) {
      return false;
    }
    if (bm.fixed && bm.value > AlignUp(s.m.single, 16)) {
      *problem = "SetFixSplit baseM " + std::to_string(bm.value) +
                 " exceeds singleCoreM " + std::to_string(s.m.single) +
                 " rounded up to 16 (" +
                 std::to_string(AlignUp(s.m.single, 16)) +
                 "): baseM <= ceil(singleM / 16) * 16";
      return false;
    }
    if (bn.fixed && bn.value > AlignUp(s.n.single, c0b_)) {
      *problem = "SetFixSplit baseN " + std::to_string(bn.value) +
                 " exceeds singleCoreN " + std::to_string(s.n.single) +
                 " rounded up to C0_size (" +
                 std::to_string(AlignUp(s.n.single, c0b_)) +
                 "): baseN <= ceil(singleN / C0_size) * C0_size";
      return false;
    }

    // The bases: one block of each in L1, shrunk until L0A, L0B, L0C and
    // the bias table hold them.
    int32_t db_a1 = 2, db_b1 = 2;
    auto set_steps = [&](int32_t step_m, int32_t step_n, int32_t step_k) {
      t.baseM = bm.value;
      t.baseN = bn.value;
      t.baseK = bk.value;
      t.stepM = step_m;
      t.stepN = step_n;
      t.stepKa = step_k;
      t.stepKb = step_k;
      t.depthA1 = Depth(db_a1, step_m, step_k);
      t.depthB1 = Depth(db_b1, step_n, step_k);
    };
    for (;;) {
      set_steps(1, 1, 1);
      const CubeTilingViolation v = FindCubeTilingViolation(t, ctx_);
      if (v.rule == CubeTilingRule::kNone) break;
      if (!ShrinkFor(v.rule, &bm, &bn, &bk, &t, &db_a1, &db_b1)) {
        *problem = v.message + FixedHint(bm, bn);
        return false;
      }
    }

    // The L1 steps: K loaded whole if it fits (halving the K step until it
    // does), then as many blocks along M, then N, as fit.
    int32_t step_k = static_cast<int32_t>(CeilDiv(s.k.single, bk.value));
    for (;;) {
      set_steps(1, 1, step_k);
      const CubeTilingViolation v = FindCubeTilingViolation(t, ctx_);
      if (v.rule == CubeTilingRule::kNone) break;
      if (v.rule != CubeTilingRule::kL1 || step_k == 1) {
        *problem = v.message;  // one block each fitted above: not reached
        return false;
      }
      step_k = static_cast<int32_t>(CeilDiv(step_k, 2));
    }
    int32_t step_m = 1, step_n = 1;
    if (CeilDiv(t.Ka, bk.value) <= step_k) {
      step_m = Grow(
          static_cast<int32_t>(CeilDiv(s.m.single, bm.value)),
          [&](int32_t v) { set_steps(v, 1, step_k); }, &t);
    }
    if (CeilDiv(t.Kb, bk.value) <= step_k) {
      step_n = Grow(
          static_cast<int32_t>(CeilDiv(s.n.single, bn.value)),
          [&](int32_t v) { set_steps(step_m, v, step_k); }, &t);
    }
    set_steps(step_m, step_n, step_k);

    t.transLength = static_cast<int32_t>(TransLength(t));
    if (static_cast<uint64_t>(t.transLength) > r_.ub_bytes) {
      *problem = "the base blocks moved through the unified buffer take " +
                 std::to_string(t.transLength) + " bytes, more than its " +
                 std::to_string(r_.ub_bytes) +
                 " bytes: transLength fits the UB";
      return false;
    }
    t.shareL1Size = static_cast<int32_t>(CubeL1Bytes(t, ctx_));
    *out = t;
    return true;
  }

  // The largest of blocks, blocks/2, ..., 2 for which `apply` gives a valid
  // tiling; else 1.
  template <typename Apply>
  int32_t Grow(int32_t blocks, Apply apply, TCubeTiling* t) const {
    for (int32_t v = blocks; v >= 2; v = v / 2) {
      apply(v);
      if (FindCubeTilingViolation(*t, ctx_).rule == CubeTilingRule::kNone) {
        return v;
      }
    }
    return 1;
  }

  // Shrinks what `rule` names; false when nothing is left to shrink.
  bool ShrinkFor(CubeTilingRule rule, BaseAxis* bm, BaseAxis* bn, BaseAxis* bk,
                 TCubeTiling* t, int32_t* db_a1, int32_t* db_b1) const {
    switch (rule) {
      case CubeTilingRule::kL0C: {
        BaseAxis* larger = bn->value >= bm->value ? bn : bm;
        BaseAxis* other = larger == bn ? bm : bn;
        if (larger->Shrinkable()) return larger->DoShrink(), true;
        if (other->Shrinkable()) return other->DoShrink(), true;
        if (t->dbL0C == 2) return t->dbL0C = 1, true;
        return false;
      }
      case CubeTilingRule::kL0A:
        return ShrinkOperand(bm, bn, bk, &t->dbL0A);
      case CubeTilingRule::kL0B:
        return ShrinkOperand(bn, bm, bk, &t->dbL0B);
      case CubeTilingRule::kL0AMx:
        return ShrinkOperand(bm, bn, bk, &t->dbL0A);
      case CubeTilingRule::kL0BMx:
        return ShrinkOperand(bn, bm, bk, &t->dbL0B);
      case CubeTilingRule::kBiasTable:
        if (bn->Shrinkable()) return bn->DoShrink(), true;
        return false;
      case CubeTilingRule::kL1:
        if (bk->Shrinkable()) return bk->DoShrink(), true;
        if (*db_a1 == 2) return *db_a1 = 1, true;
        if (*db_b1 == 2) return *db_b1 = 1, true;
        if (bm->Shrinkable()) return bm->DoShrink(), true;
        if (bn->Shrinkable()) return bn->DoShrink(), true;
        return false;
      default:
        return false;
    }
  }

  // An operand's base block too big for its L0: its outer axis if it is the
  // larger, then K, then the outer axis, then its double buffering.
  static bool ShrinkOperand(BaseAxis* outer, BaseAxis* cross, BaseAxis* bk,
                            int32_t* db) {
    if (outer->value > cross->value && outer->Shrinkable()) {
      return outer->DoShrink(), true;
    }
    if (bk->Shrinkable()) return bk->DoShrink(), true;
    if (outer->Shrinkable()) return outer->DoShrink(), true;
    if (*db == 2) return *db = 1, true;
    return false;
  }

  static std::string FixedHint(const BaseAxis& bm, const BaseAxis& bn) {
    if (!bm.fixed && !bn.fixed) return {};
    return " (with the bases SetFixSplit fixed)";
  }

  // The largest base block moved through the unified buffer: A or B from
  // VECOUT, C to VECIN, the bias from VECOUT; 0 when all stay out of it.
  uint64_t TransLength(const TCubeTiling& t) const {
    auto bytes = [](uint64_t elements, uint32_t bits) {
      return (elements * bits + 7) / 8;
    };
    uint64_t length = 0;
    if (r_.a_in_ub) {
      length =
          std::max(length, bytes(uint64_t(t.baseM) * t.baseK, ctx_.a_bits));
    }
    if (r_.b_in_ub) {
      length =
          std::max(length, bytes(uint64_t(t.baseK) * t.baseN, ctx_.b_bits));
    }
    if (r_.c_in_ub) {
      length = std::max(length, bytes(uint64_t(t.baseM) * t.baseN, r_.c_bits));
    }
    if (r_.bias_in_ub && ctx_.bias) {
      length = std::max(length, bytes(t.baseN, ctx_.bias_bits));
    }
    return length;
  }

  const CubeTilingRequest& r_;
  CubeTilingContext ctx_;
  uint32_t c0a_, c0b_;
  int32_t unit_k_;
};

}  // namespace

CubeTilingOutcome SearchCubeTiling(const CubeTilingRequest& request) {
  return Search(request).Run();
}

}  // namespace matmul
}  // namespace normgrad_ascendc

// cumsum.cc — RunCumSum (normgrad_ascendc/lib/math/cumsum_call.h): CumSum's
// checks and its sums (docs/math.md, "CumSum").
//
// The checks, in order: dstTensor, srcTensor (and lastRowTensor with
// outputLastRow) placed for the vector unit; SKLANSKY on Ascend 950 only;
// outter and inner above 0, a row of whole 32-byte blocks, outter * inner
// within srcTensor and dstTensor, the last line within lastRowTensor; the
// scratch placed and at least GetCumSumMaxMinTmpSize's minValue (a line of
// floats); then dstTensor may be srcTensor itself but not overlap it
// partly, lastRowTensor overlaps neither, the scratch none.
//
// The sums run in float (half widened), each output the running float sum
// rounded to T: line by line, each line the previous line's sums plus its
// own elements; or by Sklansky's scheme, which adds, at each halving step,
// the last sum of a block's lower half to every sum of its upper half. They
// run on the instruction set's loops (kernels::AdvancedKernels::cumsum_f32:
// down the columns a row at a time, along the rows many rows side by side).
// The bounds: docs/numerics.md, "Math: binary".
#include <algorithm>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "normgrad_ascendc/lib/math/cumsum_call.h"

namespace normgrad_ascendc {
namespace {

constexpr char kApi[] = "CumSum";

void CheckShape(const CumSumArgs& a, const Element& e) {
  if (a.outter == 0 || a.inner == 0) {
    Fail("CumSum: cumSumInfo is {outter %u, inner %u}: both must be above 0",
         a.outter, a.inner);
  }
  if (uint64_t{a.inner} * e.bytes % kBlockBytes != 0) {
    Fail(
        "CumSum: cumSumInfo.inner is %u, %u bytes of %s: inner * sizeof(T) "
        "must be a multiple of 32 bytes",
        a.inner, a.inner * e.bytes, e.plural);
  }
  const uint64_t n = uint64_t{a.outter} * a.inner;
  CheckLengths(kApi, e,
               {{"srcTensor", a.src, n, "cumSumInfo.outter * inner"},
                {"dstTensor", a.dst, n, "cumSumInfo.outter * inner"}});
  if (a.output_last_row) {
    CheckLength(kApi, e,
                {"lastRowTensor", a.last_row, a.last_axis ? a.outter : a.inner,
                 a.last_axis ? "the last element of each row: cumSumInfo.outter"
                             : "the last row: cumSumInfo.inner"});
  }
}

void CheckOverlapsOf(const CumSumArgs& a, const Element& e,
                     const UbRange& scratch) {
  const uint64_t n = uint64_t{a.outter} * a.inner * e.bytes;
  const UbRange dst = UbRangeOf("dstTensor", a.dst, n);
  const UbRange src = UbRangeOf("srcTensor", a.src, n);
  if (UbOverlap(dst, src) && dst.begin != src.begin) {
    FailUbOverlap(kApi, dst, src,
                  "dstTensor may be srcTensor itself but must not overlap it "
                  "partly");
  }
  std::vector<UbRange> others = {dst, src};
  if (a.output_last_row) {
    const UbRange last =
        UbRangeOf("lastRowTensor", a.last_row,
                  uint64_t{a.last_axis ? a.outter : a.inner} * e.bytes);
    for (const UbRange& r : {dst, src}) {
      if (UbOverlap(last, r)) {
        FailUbOverlap(kApi, r, last,
                      "CumSum writes lastRowTensor, so it must not share "
                      "memory with srcTensor or dstTensor");
      }
    }
    others.push_back(last);
  }
  for (const UbRange& r : others) {
    if (UbOverlap(scratch, r)) {
      FailUbOverlap(kApi, r, scratch,
                    "CumSum writes its scratch, so it must not share memory "
                    "with its tensors");
    }
  }
}

}  // namespace

void RunCumSum(const CumSumArgs& a) {
  const Element e = HalfOrFloat(a.is_half);
  CheckPlacements(kApi, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  if (a.output_last_row) CheckPlacement(kApi, "lastRowTensor", a.last_row);
  const ProfileInfo& profile = a.dst.core->profile();
  if (a.sklansky && profile.profile != Profile::k950) {
    Fail(
        "CumSum: CumSumConfig::algorithm is CUMSUM_ALGORITHM_SKLANSKY, which "
        "profile %s (%s) does not take: Sklansky's scheme is for Ascend 950 "
        "only",
        profile.name, profile.key);
  }
  CheckShape(a, e);

  const uint32_t min_bytes = a.inner * 4;  // one line of floats
  const char* name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, min_bytes,
                  "%u bytes (GetCumSumMaxMinTmpSize's minValue)", min_bytes);
  CheckPlacement(kApi, name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "CumSum: %s holds %u bytes, fewer than the %u a row of %u elements "
        "needs (GetCumSumMaxMinTmpSize's minValue: inner floats)",
        name, scratch.bytes, min_bytes, a.inner);
  }
  CheckOverlapsOf(a, e, UbRangeOf(name, scratch, min_bytes));

  const size_t n = size_t{a.outter} * a.inner;
  std::vector<float> v(n);
  if (a.is_half) {
    normgrad::Widen(HalfData(a.src), v.data(), n);
  } else {
    std::copy(FloatData(a.src), FloatData(a.src) + n, v.begin());
  }
  normgrad::kernels::AdvancedKernelsOf(VectorLoops())
      .cumsum_f32(v.data(), a.outter, a.inner, a.last_axis, a.sklansky);
  // The last line: the last row (first axis) or each row's last element.
  std::vector<float> last;
  if (a.output_last_row) {
    if (a.last_axis) {
      for (uint32_t i = 0; i < a.outter; ++i) {
        last.push_back(v[i * a.inner + a.inner - 1]);
      }
    } else {
      last.assign(v.end() - a.inner, v.end());
    }
  }
  if (a.is_half) {
    normgrad::Narrow(v.data(), HalfData(a.dst), n);
    if (!last.empty()) {
      normgrad::Narrow(last.data(), HalfData(a.last_row), last.size());
    }
  } else {
    std::copy(v.begin(), v.end(), FloatData(a.dst));
    std::copy(last.begin(), last.end(), FloatData(a.last_row));
  }
}

}  // namespace normgrad_ascendc

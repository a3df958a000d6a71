// layernormgrad.cc — AscendC::LayerNormGrad on the emulated core: the checks
// of docs/layernormgrad.md (with normgrad's additions, docs/decisions.md) and
// the device's vector algorithm in its documented numeric order — float,
// lane-wise, every multiply, add, square root and divide rounded on its own
// (the build's -ffp-contract=off keeps the compiler from fusing any of them),
// row sums as trees of 64-lane adjacent-pair sums — in the chunks of the
// tiling, with the intermediates in the scratch regions the tiling places.
#include "lib/normalization/layernormgrad.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/tiling/round_up.h"

namespace normgrad_ascendc {
namespace {

using AscendC::LayerNormGradTiling;

constexpr char kApi[] = "LayerNormGrad";

// ---- The arithmetic (docs/layernormgrad.md, "Numeric order") -------------

// v[0, count) (count <= 64; the missing lanes are 0) summed by the vector
// unit's 64-lane tree.
float LaneSum(const float* v, uint32_t count) {
  float lanes[kVectorLanes] = {};
  std::copy(v, v + count, lanes);
  return LaneTreeSum(lanes);
}

// The sum of a row of n floats (RowSum in docs/layernormgrad.md): each run
// of 64 summed by LaneSum, then the same on the partial sums until one value
// remains. Unlike the family's RowSum (kernel_checks.h) it does not fold the
// row onto 64 lanes first, so the two orders differ once n > 64. Works in
// place: v is overwritten with the partial sums.
float TreeRowSum(float* v, uint32_t n) {
  for (;;) {
    const uint32_t runs = (n + kVectorLanes - 1) / kVectorLanes;
    for (uint32_t k = 0; k < runs; ++k) {
      v[k] = LaneSum(v + k * kVectorLanes,
                     std::min(kVectorLanes, n - k * kVectorLanes));
    }
    if (runs == 1) return v[0];
    n = runs;
  }
}

// What a row needs besides its elements.
struct RowScalars {
  float mean;
  float rstd;   // 1 / sqrt(t), t = var + eps
  float rstd3;  // 1 / sqrt(t·t·t): 0 once t·t·t overflows (t > ~7e12)
};

RowScalars Scalars(float mean, float variance, float epsilon) {
  const float t = variance + epsilon;
  const float t3 = (t * t) * t;
  return {mean, 1.0f / std::sqrt(t), 1.0f / std::sqrt(t3)};
}

// The float rows (H elements each) one row's computation reads and writes.
// Buffers may be the same memory where noted: every element is computed
// lane-wise, each lane read before the same lane of its destination is
// written.
struct RowBuffers {
  float* dy;  // dy (half: widened)
  float* x;   // x (half: widened)
  float* x1;  // may be dy
  float* x2;  // may be x
  float* x3;
  float* terms;    // the terms of each row sum, summed in place
  float* pd_var;   // pd_var in every lane
  float* pd_mean;  // pd_mean in every lane
  float* pd_x;     // may be dy or x1 (dead by then)
  float* res;      // may be x or terms (dead by then)
};

// One row, in the documented order of operations. inv and two_inv are the
// tiling's float 1/Ho and 2/Ho.
void ComputeRow(const RowBuffers& b, const float* gamma, uint32_t h,
                const RowScalars& s, float inv, float two_inv) {
  for (uint32_t i = 0; i < h; ++i) b.x1[i] = b.dy[i] * gamma[i];
  for (uint32_t i = 0; i < h; ++i) b.x2[i] = b.x[i] - s.mean;
  for (uint32_t i = 0; i < h; ++i) {
    b.terms[i] = ((b.x2[i] * s.rstd3) * b.x1[i]) * -0.5f;
  }
  const float pd_var = TreeRowSum(b.terms, h);
  for (uint32_t i = 0; i < h; ++i) b.x3[i] = b.x1[i] * s.rstd;
  for (uint32_t i = 0; i < h; ++i) b.terms[i] = -1.0f * b.x3[i];
  const float sum_minus_x3 = TreeRowSum(b.terms, h);
  for (uint32_t i = 0; i < h; ++i) b.terms[i] = -2.0f * b.x2[i];
  const float sum_minus_2x2 = TreeRowSum(b.terms, h);
  const float pd_mean = sum_minus_x3 + (sum_minus_2x2 * inv) * pd_var;
  std::fill(b.pd_var, b.pd_var + h, pd_var);
  std::fill(b.pd_mean, b.pd_mean + h, pd_mean);
  for (uint32_t i = 0; i < h; ++i) {
    const float pd_x =
        ((b.pd_var[i] * two_inv) * b.x2[i] + b.pd_mean[i] * inv) + b.x3[i];
    const float res = b.x2[i] * s.rstd;
    b.pd_x[i] = pd_x;
    b.res[i] = res;
  }
}

float BitsToFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

uint32_t FloatToBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

// Element i of a [B,S] input (mean, variance) as a float.
float Load(const TensorView& t, size_t i, bool is_half) {
  if (is_half) {
    normgrad::float16 v;
    std::memcpy(&v, t.data() + 2 * i, 2);
    return static_cast<float>(v);
  }
  float v;
  std::memcpy(&v, t.data() + 4 * i, 4);
  return v;
}

RowScalars ScalarsOfRow(const LayerNormGradArgs& a, size_t row) {
  return Scalars(Load(a.input_mean, row, a.is_half),
                 Load(a.input_variance, row, a.is_half), a.epsilon);
}

// ---- Checks ----------------------------------------------------------------

const char* FormatName(AscendC::DataFormat format) {
  using AscendC::DataFormat;
  switch (format) {
    case DataFormat::ND:
      return "ND";
    case DataFormat::NZ:
      return "NZ";
    case DataFormat::NCHW:
      return "NCHW";
    case DataFormat::NC1HWC0:
      return "NC1HWC0";
    case DataFormat::NHWC:
      return "NHWC";
    case DataFormat::NCDHW:
      return "NCDHW";
    case DataFormat::NDC1HWC0:
      return "NDC1HWC0";
    case DataFormat::FRACTAL_Z_3D:
      return "FRACTAL_Z_3D";
  }
  return "(invalid)";
}

// The fields every profile reads: a filled tiling, B, S, H, originalH == H,
// H·sizeof(T) a multiple of 32, and the host's float 1/Ho and 2/Ho.
void CheckShape(const LayerNormGradTiling& t, const Element& e, bool chunked) {
  // Ascend 950 programs fill the shape and the two constants only (the
  // chunking fields stay 0): that profile works row by row.
  if (chunked) {
    CheckTilingFilled(kApi, "oneCalSize", t.oneCalSize,
                      "GetLayerNormGradNDTilingInfo");
  }
  CheckNonZero(kApi, "bLength", t.bLength, "B");
  CheckNonZero(kApi, "sLength", t.sLength, "S");
  CheckNonZero(kApi, "hLength", t.hLength, "H");
  CheckRowLength(kApi, t.hLength, t.originalHLength, e, kPadRowsAdvice);
  const float original_h = static_cast<float>(t.originalHLength);
  const struct {
    const char* field;
    uint32_t value;
    uint32_t expected;
    const char* rule;
  } constants[] = {
      {"lastDimValueBack", t.lastDimValueBack, FloatToBits(1.0f / original_h),
       "1.0f"},
      {"lastDimValueBackMulTwo", t.lastDimValueBackMulTwo,
       FloatToBits(2.0f / original_h), "2.0f"},
  };
  for (const auto& c : constants) {
    if (c.value != c.expected) {
      Fail(
          "LayerNormGrad: tiling.%s is 0x%08X, expected 0x%08X (the float %s "
          "/ originalHLength %u): the tiling is inconsistent",
          c.field, c.value, c.expected, c.rule, t.originalHLength);
    }
  }
}

// A tensor argument's first `elements` elements, as a byte range in a UB.
struct Extent {
  const char* name;
  const TensorView& view;
  uint64_t elements;
};

bool Overlap(const Extent& p, const Extent& q, uint32_t element_bytes) {
  const uint64_t p_end = p.view.offset + p.elements * element_bytes;
  const uint64_t q_end = q.view.offset + q.elements * element_bytes;
  return p.view.core == q.view.core && p.view.offset < q_end &&
         q.view.offset < p_end;
}

// Lengths (outputs 32-byte multiples; every tensor at least what it must
// hold), and which tensors may share memory: an output may be an input of
// B*S*H elements itself (in place, same UB address), nothing else; with
// float isReuseSource inputDy and inputX are written (x1, x2), so they must
// not overlap.
void CheckTensors(const LayerNormGradArgs& a, const LayerNormGradTiling& t,
                  const Element& e) {
  const uint64_t bs = uint64_t{t.bLength} * t.sLength;
  const uint64_t n = bs * t.hLength;
  const Extent pd_x{"outputPdX", a.pd_x, n};
  const Extent res{"resForGamma", a.res_for_gamma, n};
  const Extent dy{"inputDy", a.input_dy, n};
  const Extent x{"inputX", a.input_x, n};
  const Extent variance{"inputVariance", a.input_variance, bs};
  const Extent mean{"inputMean", a.input_mean, bs};
  const Extent gamma{"inputGamma", a.input_gamma, t.hLength};
  CheckBlockOutputs(kApi, e,
                    {{pd_x.name, pd_x.view, n, "bLength * sLength * hLength"},
                     {res.name, res.view, n, "bLength * sLength * hLength"}});
  CheckLengths(kApi, e,
               {{dy.name, dy.view, n, "bLength * sLength * hLength"},
                {x.name, x.view, n, "bLength * sLength * hLength"},
                {variance.name, variance.view, bs, "bLength * sLength"},
                {mean.name, mean.view, bs, "bLength * sLength"},
                {gamma.name, gamma.view, t.hLength, "hLength"}});
  if (Overlap(pd_x, res, e.bytes)) {
    Fail(
        "LayerNormGrad: outputPdX (UB offset %u) and resForGamma (UB offset "
        "%u) overlap; they must be different tensors",
        a.pd_x.offset, a.res_for_gamma.offset);
  }
  for (const Extent* output : {&pd_x, &res}) {
    for (const Extent* input : {&dy, &x, &variance, &mean, &gamma}) {
      const bool in_place = (input == &dy || input == &x) &&
                            input->view.offset == output->view.offset;
      if (!in_place && Overlap(*output, *input, e.bytes)) {
        Fail(
            "LayerNormGrad: %s (UB offset %u) overlaps %s (UB offset %u); an "
            "output may only be inputDy or inputX itself (the same UB "
            "address), or separate memory",
            output->name, output->view.offset, input->name, input->view.offset);
      }
    }
  }
  if (a.reuse_source && !a.is_half && Overlap(dy, x, e.bytes)) {
    Fail(
        "LayerNormGrad: inputDy (UB offset %u) and inputX (UB offset %u) "
        "overlap; with isReuseSource they must be different tensors (x1 and "
        "x2 are written over them)",
        a.input_dy.offset, a.input_x.offset);
  }
}

// The chunking fields (Atlas A2/A3 and inference series): each must be what
// docs/layernormgrad.md, "Tiling algorithm", derives from B, S, H and
// nohCalSize.
void CheckChunking(const LayerNormGradTiling& t) {
  const uint64_t n = uint64_t{t.bLength} * t.sLength * t.hLength;
  const uint64_t one = t.oneCalSize;
  if (one != uint64_t{t.nohCalSize} * t.hLength) {
    Fail(
        "LayerNormGrad: tiling.oneCalSize %u is not nohCalSize %u * hLength "
        "%u: the tiling is inconsistent",
        t.oneCalSize, t.nohCalSize, t.hLength);
  }
  const uint64_t tail = n % one;
  CheckDerivedFields(kApi, {
                               {"loopNum", t.loopNum, n / one,
                                "bLength * sLength * hLength / oneCalSize"},
                               {"tailSize", t.tailSize, tail,
                                "bLength * sLength * hLength % oneCalSize"},
                               {"nohTailSize", t.nohTailSize, tail / t.hLength,
                                "tailSize / hLength"},
                           });
}

// A scratch region of the tiling (Atlas A2/A3 and inference series).
struct Region {
  const char* pos_field;
  const char* size_field;
  uint32_t pos;   // floats
  uint32_t size;  // floats
};

// The regions a call uses: float without isReuseSource six, with it four
// (x1 and x2 are in the inputs), half nine.
struct UsedRegions {
  UsedRegions(const LayerNormGradArgs& a, const LayerNormGradTiling& t) {
    Add({"tmpTensorBSHPos", "tmpTensorBSHSize", t.tmpTensorBSHPos,
         t.tmpTensorBSHSize});
    Add({"pdVarTensorPos", "pdVarTensorSize", t.pdVarTensorPos,
         t.pdVarTensorSize});
    Add({"pdMeanTensorPos", "pdMeanTensorSize", t.pdMeanTensorPos,
         t.pdMeanTensorSize});
    Add({"x3TensorPos", "x3TensorSize", t.x3TensorPos, t.x3TensorSize});
    if (a.is_half || !a.reuse_source) {
      Add({"x1TensorPos", "x1TensorSize", t.x1TensorPos, t.x1TensorSize});
      Add({"x2TensorPos", "x2TensorSize", t.x2TensorPos, t.x2TensorSize});
    }
    if (a.is_half) {
      Add({"tmpTensorPos", "tmpTensorSize", t.tmpTensorPos, t.tmpTensorSize});
      Add({"tmpTensor1Pos", "tmpTensor1Size", t.tmpTensor1Pos,
           t.tmpTensor1Size});
      Add({"tmpTensor2Pos", "tmpTensor2Size", t.tmpTensor2Pos,
           t.tmpTensor2Size});
    }
  }
  void Add(const Region& r) { list[count++] = r; }

  Region list[9];
  size_t count = 0;
};

// Every used region holds a chunk (size == oneCalSize), lies inside
// tiling.stackBufferSize and overlaps no other.
void CheckRegions(const UsedRegions& regions, const LayerNormGradTiling& t) {
  const uint64_t capacity = t.stackBufferSize / 4;  // floats
  for (size_t i = 0; i < regions.count; ++i) {
    const Region& r = regions.list[i];
    if (r.size != t.oneCalSize) {
      Fail(
          "LayerNormGrad: tiling.%s is %u, expected %u (oneCalSize: a region "
          "holds one chunk): the tiling is inconsistent",
          r.size_field, r.size, t.oneCalSize);
    }
    const uint64_t end = uint64_t{r.pos} + r.size;
    if (end > capacity) {
      Fail(
          "LayerNormGrad: scratch region tiling.%s [%u, %llu) floats runs past "
          "tiling.stackBufferSize %u bytes (%llu floats)",
          r.pos_field, r.pos, static_cast<unsigned long long>(end),
          t.stackBufferSize, static_cast<unsigned long long>(capacity));
    }
    for (size_t j = 0; j < i; ++j) {
      const Region& q = regions.list[j];
      const uint64_t q_end = uint64_t{q.pos} + q.size;
      if (r.pos < q_end && q.pos < end) {
        Fail(
            "LayerNormGrad: scratch regions tiling.%s [%u, %llu) and tiling.%s "
            "[%u, %llu) floats overlap (a tiling made for another type or "
            "isReuseSource?)",
            q.pos_field, q.pos, static_cast<unsigned long long>(q_end),
            r.pos_field, r.pos, static_cast<unsigned long long>(end));
      }
    }
  }
}

// The scratch of the call (sharedTmpBuffer or the framework scratch), placed
// in the unified buffer and holding at least `needed` bytes; `rule` says
// where that number comes from.
TensorView CheckedScratch(const LayerNormGradArgs& a, uint64_t needed,
                          const std::string& rule) {
  const char* name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, needed, "%s", rule.c_str());
  CheckPlacement(kApi, name, scratch);
  if (scratch.bytes < needed) {
    Fail("LayerNormGrad: %s holds %u bytes, fewer than %s", name, scratch.bytes,
         rule.c_str());
  }
  return scratch;
}

// ---- The two ways through the rows -----------------------------------------

// Atlas A2/A3 and inference series: loopNum chunks of nohCalSize rows, then
// nohTailSize rows, each chunk's intermediates in the tiling's regions. half
// widens a chunk of dy and x into tmp and tmp1 (gamma into tmp2, once),
// computes pd_x and resForGamma over them and narrows them out; float with
// isReuseSource computes x1 and x2 over the chunk of inputDy and inputX.
void RunChunks(const LayerNormGradArgs& a, const LayerNormGradTiling& t,
               float* scratch) {
  const uint32_t h = t.hLength;
  const bool in_sources = a.reuse_source && !a.is_half;
  const float inv = BitsToFloat(t.lastDimValueBack);
  const float two_inv = BitsToFloat(t.lastDimValueBackMulTwo);
  const float* gamma = FloatData(a.input_gamma);
  if (a.is_half) {
    normgrad::Widen(HalfData(a.input_gamma), scratch + t.tmpTensor2Pos, h);
    gamma = scratch + t.tmpTensor2Pos;
  }
  auto chunk = [&](uint32_t first_row, uint32_t rows) {
    const size_t first = size_t{first_row} * h;
    const size_t length = size_t{rows} * h;
    float* tmp = scratch + t.tmpTensorPos;
    float* tmp1 = scratch + t.tmpTensor1Pos;
    if (a.is_half) {
      normgrad::Widen(HalfData(a.input_dy) + first, tmp, length);
      normgrad::Widen(HalfData(a.input_x) + first, tmp1, length);
    }
    for (uint32_t row = 0; row < rows; ++row) {
      const size_t in_chunk = size_t{row} * h;
      const size_t in_tensor = first + in_chunk;
      RowBuffers b;
      b.x3 = scratch + t.x3TensorPos + in_chunk;
      b.terms = scratch + t.tmpTensorBSHPos + in_chunk;
      b.pd_var = scratch + t.pdVarTensorPos + in_chunk;
      b.pd_mean = scratch + t.pdMeanTensorPos + in_chunk;
      if (a.is_half) {
        b.dy = b.pd_x = tmp + in_chunk;
        b.x = b.res = tmp1 + in_chunk;
      } else {
        b.dy = FloatData(a.input_dy) + in_tensor;
        b.x = FloatData(a.input_x) + in_tensor;
        b.pd_x = FloatData(a.pd_x) + in_tensor;
        b.res = FloatData(a.res_for_gamma) + in_tensor;
      }
      b.x1 = in_sources ? b.dy : scratch + t.x1TensorPos + in_chunk;
      b.x2 = in_sources ? b.x : scratch + t.x2TensorPos + in_chunk;
      ComputeRow(b, gamma, h, ScalarsOfRow(a, size_t{first_row} + row), inv,
                 two_inv);
    }
    if (a.is_half) {
      NarrowToHalf(tmp, HalfData(a.pd_x) + first, length, false);
      NarrowToHalf(tmp1, HalfData(a.res_for_gamma) + first, length, false);
    }
  };
  for (uint32_t loop = 0; loop < t.loopNum; ++loop) {
    chunk(loop * t.nohCalSize, t.nohCalSize);
  }
  if (t.nohTailSize > 0) chunk(t.loopNum * t.nohCalSize, t.nohTailSize);
}

// The floats per row of the Ascend 950 scratch: x1 at 0, x2 at this offset.
uint32_t RowStride950(uint32_t h) {
  return static_cast<uint32_t>(RoundUp(h, 8));
}

// Ascend 950: row after row. x1 and x2 of the row live in the scratch (float
// with isReuseSource: in inputDy and inputX); x3, the sum terms and the
// broadcast pd_var and pd_mean live in the vector registers, emulated by a
// buffer of the thread. half widens dy and x straight into x1 and x2 and
// narrows saturating.
void RunRows950(const LayerNormGradArgs& a, const LayerNormGradTiling& t,
                float* scratch) {
  const uint32_t h = t.hLength;
  const uint64_t rows = uint64_t{t.bLength} * t.sLength;
  const float inv = BitsToFloat(t.lastDimValueBack);
  const float two_inv = BitsToFloat(t.lastDimValueBackMulTwo);
  thread_local std::vector<float> registers;
  registers.resize(5 * size_t{h});
  float* x3 = registers.data();
  float* terms = x3 + h;
  float* pd_var = terms + h;
  float* pd_mean = pd_var + h;
  const float* gamma = FloatData(a.input_gamma);
  if (a.is_half) {
    float* widened = pd_mean + h;
    normgrad::Widen(HalfData(a.input_gamma), widened, h);
    gamma = widened;
  }
  for (uint64_t row = 0; row < rows; ++row) {
    const size_t first = row * h;
    RowBuffers b{};
    b.x3 = x3;
    b.terms = terms;
    b.pd_var = pd_var;
    b.pd_mean = pd_mean;
    if (a.is_half) {
      b.dy = b.x1 = b.pd_x = scratch;
      b.x = b.x2 = scratch + RowStride950(h);
      b.res = terms;
      normgrad::Widen(HalfData(a.input_dy) + first, b.x1, h);
      normgrad::Widen(HalfData(a.input_x) + first, b.x2, h);
    } else {
      b.dy = FloatData(a.input_dy) + first;
      b.x = FloatData(a.input_x) + first;
      b.x1 = a.reuse_source ? b.dy : scratch;
      b.x2 = a.reuse_source ? b.x : scratch + RowStride950(h);
      b.pd_x = FloatData(a.pd_x) + first;
      b.res = FloatData(a.res_for_gamma) + first;
    }
    ComputeRow(b, gamma, h, ScalarsOfRow(a, row), inv, two_inv);
    if (a.is_half) {
      NarrowToHalf(b.pd_x, HalfData(a.pd_x) + first, h, true);
      NarrowToHalf(b.res, HalfData(a.res_for_gamma) + first, h, true);
    }
  }
}

}  // namespace

void RunLayerNormGrad(const LayerNormGradArgs& a) {
  const LayerNormGradTiling& t = *a.tiling;
  const Element e = HalfOrFloat(a.is_half);
  if (a.data_format != AscendC::DataFormat::ND) {
    Fail("LayerNormGrad: shapeInfo.dataFormat is %s; only ND is supported",
         FormatName(a.data_format));
  }
  CheckPlacements(kApi, {{"outputPdX", a.pd_x},
                         {"resForGamma", a.res_for_gamma},
                         {"inputDy", a.input_dy},
                         {"inputX", a.input_x},
                         {"inputVariance", a.input_variance},
                         {"inputMean", a.input_mean},
                         {"inputGamma", a.input_gamma}});
  const bool by_rows = a.pd_x.core->profile().profile == Profile::k950;
  CheckShape(t, e, !by_rows);
  CheckTensors(a, t, e);
  static std::atomic<bool> warned{false};
  if (a.is_half && a.reuse_source) {
    WarnHalfReuseOnce(warned, kApi, "the inputs are");
  }

  if (by_rows) {
    float* scratch = nullptr;
    if (a.is_half || !a.reuse_source) {
      const uint64_t needed = uint64_t{2} * RowStride950(t.hLength) * 4;
      const std::string rule =
          "the " + std::to_string(needed) +
          " bytes the Ascend 950 profile needs (x1 and x2 of one row: 2 * "
          "roundup(hLength " +
          std::to_string(t.hLength) + ", 8) floats)";
      scratch = FloatData(CheckedScratch(a, needed, rule));
    }
    RunRows950(a, t, scratch);
    return;
  }

  CheckChunking(t);
  CheckRegions(UsedRegions(a, t), t);
  const std::string rule =
      "tiling.stackBufferSize " + std::to_string(t.stackBufferSize) + " bytes";
  RunChunks(a, t, FloatData(CheckedScratch(a, t.stackBufferSize, rule)));
}

}  // namespace normgrad_ascendc

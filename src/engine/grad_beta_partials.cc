// engine/grad_beta_partials.cc — LayerNormGradBeta's blocked order split
// into ranges of rows: each range's canonical subtrees (computed by
// LayerNormGradBeta itself, one call per subtree), and the combine that
// performs the rest of the blocked tree over the subtrees of all ranges.
#include "normgrad/grad_beta_partials.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "engine/blocked_order.h"
#include "engine/checks.h"
#include "engine/dispatch.h"
#include "engine/scratch.h"
#include "engine/write_output.h"
#include "normgrad/layer_norm_grad_beta.h"

namespace normgrad {
namespace {

using engine::kBlockRows;

constexpr const char* kPartialsApi = "LayerNormGradBetaPartials";
constexpr const char* kCombineApi = "CombineGradBetaPartials";
constexpr char kMagic[4] = {'N', 'G', 'B', 'P'};

Status Fail(const char* api, const std::string& what) {
  return Status::Error(std::string(api) + ": " + what);
}

std::string Num(uint64_t v) { return std::to_string(v); }

// The blocks of rows [row_begin, row_end): none for an empty range, else
// from the block holding row_begin to the one holding the last row.
struct BlockRange {
  size_t begin, end;
};
BlockRange BlocksOf(size_t row_begin, size_t row_end) {
  if (row_end <= row_begin) return {0, 0};
  return {row_begin / kBlockRows, (row_end - 1) / kBlockRows + 1};
}

// Calls f(first_block, level) for the canonical subtrees of blocks
// [begin, end), left to right: from `first` on, the widest run of 2^level
// blocks that starts at a multiple of 2^level and ends by `end`.
template <typename F>
void ForEachSubtree(BlockRange blocks, const F& f) {
  for (size_t first = blocks.begin; first < blocks.end;) {
    size_t width = 1;
    unsigned level = 0;
    while (first % (2 * width) == 0 && 2 * width <= blocks.end - first) {
      width *= 2;
      ++level;
    }
    f(first, level);
    first += width;
  }
}

size_t SubtreeCount(BlockRange blocks) {
  size_t n = 0;
  ForEachSubtree(blocks, [&](size_t, unsigned) { ++n; });
  return n;
}

// The rule every non-empty range keeps.
Status CheckBoundary(const char* api, const std::string& range, size_t row_begin, size_t rows) {
  if (rows == 0 || row_begin % kBlockRows == 0) return Status::Ok();
  return Fail(api, range + "row_begin " + Num(row_begin) +
                       " is not a multiple of the blocked order's block of " + Num(kBlockRows) +
                       " rows; a non-empty range must start at a block boundary (only the last "
                       "range may end inside a block)");
}

// Reads and checks the header of partials `index` (of `bytes` bytes).
Status ReadHeader(const void* partials, size_t bytes, size_t index, GradBetaPartialsHeader* h) {
  const std::string name = "partials[" + Num(index) + "]";
  if (partials == nullptr) return Fail(kCombineApi, name + " is null");
  if (reinterpret_cast<uintptr_t>(partials) % alignof(float) != 0) {
    return Fail(kCombineApi,
                name + " is not aligned to " + Num(alignof(float)) + " bytes; its sums are floats");
  }
  if (bytes < sizeof(GradBetaPartialsHeader)) {
    return Fail(kCombineApi, name + " has " + Num(bytes) + " bytes, less than the " +
                                 Num(sizeof(GradBetaPartialsHeader)) + "-byte header");
  }
  std::memcpy(h, partials, sizeof *h);
  if (std::memcmp(h->magic, kMagic, sizeof kMagic) != 0) {
    return Fail(kCombineApi, name +
                                 " does not start with \"NGBP\": it is not the output of "
                                 "LayerNormGradBetaPartials");
  }
  if (h->version != kGradBetaPartialsVersion) {
    return Fail(kCombineApi, name + " has layout version " + Num(h->version) +
                                 "; this build reads version " + Num(kGradBetaPartialsVersion));
  }
  if (h->block_rows != kBlockRows) {
    return Fail(kCombineApi, name + " was summed in blocks of " + Num(h->block_rows) +
                                 " rows; this build's blocked order uses " + Num(kBlockRows));
  }
  if (h->dtype > static_cast<uint32_t>(DType::kBF16)) {
    return Fail(kCombineApi,
                name + " has dtype " + Num(h->dtype) + ", not 0 (float), 1 (half) or 2 (bfloat16)");
  }
  if (h->row_end < h->row_begin) {
    return Fail(kCombineApi, name + " has row_end " + Num(h->row_end) + " before row_begin " +
                                 Num(h->row_begin));
  }
  if (Status s = CheckBoundary(kCombineApi, name + ": ", h->row_begin, h->row_end - h->row_begin);
      !s.ok()) {
    return s;
  }
  const size_t expected_nodes = SubtreeCount(BlocksOf(h->row_begin, h->row_end));
  if (h->nodes != expected_nodes) {
    return Fail(kCombineApi, name + " holds " + Num(h->nodes) + " subtrees; rows [" +
                                 Num(h->row_begin) + ", " + Num(h->row_end) + ") have " +
                                 Num(expected_nodes));
  }
  const size_t expected_bytes =
      GradBetaPartialsBytes(h->row_begin, h->row_end - h->row_begin, h->cols);
  if (h->cols == 0 || expected_bytes != bytes) {
    return Fail(kCombineApi, name + " has " + Num(bytes) + " bytes; its header (cols " +
                                 Num(h->cols) + ", rows [" + Num(h->row_begin) + ", " +
                                 Num(h->row_end) + ")) needs " + Num(expected_bytes));
  }
  return Status::Ok();
}

Status Partials(const GradBetaPartialsProblem& p) {
  if (Status s =
          engine::CheckShape(kPartialsApi, p.dtype, p.rows, p.cols, p.row_stride, SizeOf(p.dtype));
      !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckRowsInput(kPartialsApi, "dy", p.dy, p.rows); !s.ok()) return s;
  if (Status s = engine::CheckRowsInput(kPartialsApi, "res", p.res, p.rows); !s.ok()) return s;
  if (Status s = engine::CheckThreads(kPartialsApi, p.threads); !s.ok()) return s;
  if (Status s = CheckBoundary(kPartialsApi, "", p.row_begin, p.rows); !s.ok()) return s;
  const size_t bytes = GradBetaPartialsBytes(p.row_begin, p.rows, p.cols);
  if (bytes == 0) {
    return Fail(kPartialsApi, "row_begin " + Num(p.row_begin) + " + rows " + Num(p.rows) +
                                  " with cols " + Num(p.cols) + " overflows the address space");
  }
  if (p.partials == nullptr) return Fail(kPartialsApi, "partials is null");
  if (reinterpret_cast<uintptr_t>(p.partials) % alignof(float) != 0) {
    return Fail(kPartialsApi, "partials is not aligned to " + Num(alignof(float)) +
                                  " bytes; its sums are floats");
  }
  if (p.partials_bytes != bytes) {
    return Fail(kPartialsApi, "partials_bytes " + Num(p.partials_bytes) + " is not " + Num(bytes) +
                                  ", GradBetaPartialsBytes(" + Num(p.row_begin) + ", " +
                                  Num(p.rows) + ", " + Num(p.cols) + ")");
  }

  const size_t row_end = p.row_begin + p.rows;
  const BlockRange blocks = BlocksOf(p.row_begin, row_end);
  GradBetaPartialsHeader h{};
  std::memcpy(h.magic, kMagic, sizeof kMagic);
  h.version = kGradBetaPartialsVersion;
  h.block_rows = static_cast<uint32_t>(kBlockRows);
  h.dtype = static_cast<uint32_t>(p.dtype);
  h.cols = p.cols;
  h.row_begin = p.row_begin;
  h.row_end = row_end;
  h.nodes = SubtreeCount(blocks);

  // Each subtree is a whole blocked problem of its own: its 2^level blocks
  // (the last one possibly short) summed and combined by the same tree.
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const size_t row_bytes = stride * SizeOf(p.dtype);
  auto* sums = reinterpret_cast<float*>(static_cast<unsigned char*>(p.partials) + sizeof h);
  Status status;
  size_t k = 0;
  ForEachSubtree(blocks, [&](size_t first, unsigned level) {
    if (!status.ok()) return;
    const size_t first_row = first * kBlockRows;
    const size_t last_row = std::min(row_end, (first + (size_t{1} << level)) * kBlockRows);
    const size_t offset = (first_row - p.row_begin) * row_bytes;
    GradBetaProblem q;
    q.dtype = p.dtype;
    q.f32_outputs = true;
    q.rows = last_row - first_row;
    q.cols = p.cols;
    q.row_stride = stride;
    q.dy = static_cast<const unsigned char*>(p.dy) + offset;
    q.res = static_cast<const unsigned char*>(p.res) + offset;
    q.pd_gamma = sums + k * 2 * p.cols;
    q.pd_beta = sums + k * 2 * p.cols + p.cols;
    q.order = Order::kBlocked;
    q.threads = p.threads;
    q.isa = p.isa;
    status = LayerNormGradBeta(q);
    ++k;
  });
  if (!status.ok()) {  // out of memory, say: the arguments were checked above
    return Status::Error(std::string(kPartialsApi) + ": " + status.message(), status.code());
  }
  std::memcpy(p.partials, &h, sizeof h);
  return Status::Ok();
}

Status Combine(const GradBetaCombineProblem& p) {
  if (p.count == 0) return Fail(kCombineApi, "count is 0; at least one range is needed");
  if (p.partials == nullptr || p.partials_bytes == nullptr) {
    return Fail(kCombineApi, std::string(p.partials == nullptr ? "partials" : "partials_bytes") +
                                 " is null with count " + Num(p.count));
  }
  if (Status s = engine::CheckSumOutputs(kCombineApi, p.pd_gamma, p.pd_beta); !s.ok()) return s;

  GradBetaPartialsHeader first{};
  if (Status s = ReadHeader(p.partials[0], p.partials_bytes[0], 0, &first); !s.ok()) return s;
  if (first.row_begin != 0) {
    return Fail(kCombineApi, "partials[0] starts at row " + Num(first.row_begin) +
                                 "; the ranges must cover the rows from row 0");
  }
  uint64_t row_end = first.row_end;
  for (size_t i = 1; i < p.count; ++i) {
    GradBetaPartialsHeader h{};
    if (Status s = ReadHeader(p.partials[i], p.partials_bytes[i], i, &h); !s.ok()) return s;
    const std::string name = "partials[" + Num(i) + "]";
    if (h.dtype != first.dtype || h.cols != first.cols) {
      return Fail(kCombineApi, name + " has dtype " + DTypeName(static_cast<DType>(h.dtype)) +
                                   " and cols " + Num(h.cols) + "; partials[0] has " +
                                   DTypeName(static_cast<DType>(first.dtype)) + " and " +
                                   Num(first.cols) + ": all ranges must be rows of one matrix");
    }
    if (h.row_begin != row_end) {
      return Fail(kCombineApi, name + " starts at row " + Num(h.row_begin) + " but partials[" +
                                   Num(i - 1) + "] ends at row " + Num(row_end) + ": " +
                                   (h.row_begin > row_end ? "a gap" : "an overlap") +
                                   "; the ranges must follow one another in row order");
    }
    row_end = h.row_end;
  }

  const kernels::Isa* isa = nullptr;
  if (Status s = engine::SelectIsaFor(kCombineApi, p.isa, &isa); !s.ok()) return s;
  const DType dtype = static_cast<DType>(first.dtype);
  const DType out = p.f32_outputs ? DType::kF32 : dtype;
  const size_t cols = first.cols;
  const size_t partial_floats = 2 * cols;

  // The stack of pending subtrees: their levels strictly decrease from the
  // bottom (each range's subtrees are aligned runs), so it holds at most
  // log2(blocks) + 1 of them.
  const BlockRange all = BlocksOf(0, row_end);
  size_t depth_limit = 1;
  while ((size_t{1} << (depth_limit - 1)) < all.end) ++depth_limit;
  thread_local std::vector<float> scratch;
  if (Status s =
          engine::GrowScratch(scratch, engine::SaturatingProduct(depth_limit, partial_floats),
                              kCombineApi, "the stack of subtree sums");
      !s.ok()) {
    return s;
  }
  const auto slot = [&](size_t d) { return scratch.data() + d * partial_floats; };
  const engine::PartialColumns columns{cols, 0, cols};
  uint8_t level[65];
  size_t first_block[65];
  size_t depth = 0;
  for (size_t i = 0; i < p.count; ++i) {
    GradBetaPartialsHeader h{};
    std::memcpy(&h, p.partials[i], sizeof h);
    const float* sums =
        reinterpret_cast<const float*>(static_cast<const unsigned char*>(p.partials[i]) + sizeof h);
    ForEachSubtree(BlocksOf(h.row_begin, h.row_end), [&](size_t b, unsigned l) {
      std::memcpy(slot(depth), sums, partial_floats * sizeof(float));
      sums += partial_floats;
      level[depth] = static_cast<uint8_t>(l);
      first_block[depth++] = b;
      // Two siblings (equal levels, the left one at a multiple of twice
      // their width): their parent, the left one the left operand.
      while (depth >= 2 && level[depth - 1] == level[depth - 2] &&
             first_block[depth - 2] % (size_t{2} << level[depth - 2]) == 0) {
        engine::AddColumns(*isa, slot(depth - 2), slot(depth - 1), columns);
        ++level[depth - 2];
        --depth;
      }
    });
  }
  if (depth == 0) {  // no rows at all: the single call's one empty block
    std::fill(slot(0), slot(0) + partial_floats, 0.0f);
    depth = 1;
  }
  // The last block ends the tree early: each node whose right sibling is
  // missing passes through, so the rest fold from the right.
  for (; depth >= 2; --depth) engine::AddColumns(*isa, slot(depth - 2), slot(depth - 1), columns);
  engine::WriteOutput(*isa, out, slot(0), cols, p.pd_gamma);
  engine::WriteOutput(*isa, out, slot(0) + cols, cols, p.pd_beta);
  return Status::Ok();
}

}  // namespace

size_t GradBetaPartialsBytes(size_t row_begin, size_t rows, size_t cols) {
  constexpr size_t kMax = std::numeric_limits<size_t>::max();
  if (rows > kMax - row_begin) return 0;
  const size_t nodes = SubtreeCount(BlocksOf(row_begin, row_begin + rows));
  const size_t floats = engine::SaturatingProduct(engine::SaturatingProduct(nodes, 2), cols);
  const size_t bytes = engine::SaturatingProduct(floats, sizeof(float));
  if (bytes == kMax || bytes > kMax - sizeof(GradBetaPartialsHeader)) return 0;
  return sizeof(GradBetaPartialsHeader) + bytes;
}

Status LayerNormGradBetaPartials(const GradBetaPartialsProblem& problem) {
  return engine::CatchOutOfMemory(kPartialsApi, [&] { return Partials(problem); });
}

Status CombineGradBetaPartials(const GradBetaCombineProblem& problem) {
  return engine::CatchOutOfMemory(kCombineApi, [&] { return Combine(problem); });
}

}  // namespace normgrad

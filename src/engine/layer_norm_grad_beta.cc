// engine/layer_norm_grad_beta.cc — LayerNormGradBeta: the two summation
// orders as drivers over the registry's row accumulation kernels, column
// strips that bound the scratch, threading, and the delivery of the float
// sums to the outputs.
#include "normgrad/layer_norm_grad_beta.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <thread>
#include <vector>

#include "engine/blocked_order.h"
#include "engine/checks.h"
#include "engine/dispatch.h"
#include "engine/parallel.h"
#include "engine/run_record.h"
#include "engine/scratch.h"
#include "engine/write_output.h"
#include "kernels/kernels.h"

namespace normgrad {
namespace {

using engine::ParallelFor;
using engine::ParallelForWorkers;
using kernels::kStripColumns;

constexpr const char* kApi = "LayerNormGradBeta";

// Input bytes per thread below which extra threads are not used: waking a
// second thread costs about as much as summing 1 MiB.
constexpr size_t kMinBytesPerExtraThread = size_t{1} << 20;

// Column ranges handed to threads are multiples of this many columns (256
// bytes of f32): with narrower slices of a row, the threads' hardware
// prefetchers fetch each other's cache lines.
constexpr size_t kColumnGrain = 64;

// Bytes of both inputs per chunk of the sequential relay: inside a core's L2.
constexpr size_t kRelayChunkBytes = size_t{1} << 20;

thread_local engine::RunLog run_log("blocked");

struct Typed {
  DType dtype;
  const void* dy;
  const void* res;
  size_t stride;
};

// Accumulates rows [row, row + rows) × columns [col, col + cols) into acc.
void Accumulate(const kernels::Isa& isa, const Typed& in, size_t row, size_t rows, size_t col,
                size_t cols, float* acc_gamma, float* acc_beta) {
  const size_t offset = row * in.stride + col;
  switch (in.dtype) {
    case DType::kF32:
      isa.accumulate_f32(static_cast<const float*>(in.dy) + offset,
                         static_cast<const float*>(in.res) + offset, in.stride, rows, cols,
                         acc_gamma, acc_beta);
      break;
    case DType::kF16:
      isa.accumulate_f16(static_cast<const uint16_t*>(in.dy) + offset,
                         static_cast<const uint16_t*>(in.res) + offset, in.stride, rows, cols,
                         acc_gamma, acc_beta);
      break;
    case DType::kBF16:
      isa.accumulate_bf16(static_cast<const uint16_t*>(in.dy) + offset,
                          static_cast<const uint16_t*>(in.res) + offset, in.stride, rows, cols,
                          acc_gamma, acc_beta);
      break;
  }
}

struct ColumnRange {
  size_t begin, end;
};

// [0, cols) cut into at most `parts` ranges of whole kColumnGrain units;
// range(i) is the i-th of count() non-empty ones.
class ColumnSplit {
 public:
  ColumnSplit(size_t cols, size_t parts)
      : cols_(cols),
        grains_((cols + kColumnGrain - 1) / kColumnGrain),
        parts_(std::max<size_t>(1, std::min(parts, grains_))) {}
  size_t count() const { return parts_; }
  ColumnRange range(size_t i) const {
    return {std::min(cols_, grains_ * i / parts_ * kColumnGrain),
            std::min(cols_, grains_ * (i + 1) / parts_ * kColumnGrain)};
  }

 private:
  size_t cols_, grains_, parts_;
};

// Where finished float sums go: Deliver(begin, width, gamma, beta) hands
// over columns [begin, begin + width). Straight to the outputs, converted,
// when they stand apart from the inputs; otherwise into `all` (2 · cols
// floats), written out once everything has been read (Finish).
class Sums {
 public:
  Sums(const kernels::Isa& isa, DType out, size_t cols, void* pd_gamma, void* pd_beta, float* all)
      : isa_(isa), out_(out), cols_(cols), pd_gamma_(pd_gamma), pd_beta_(pd_beta), all_(all) {}
  // Safe to call from several threads for separate columns.
  void Deliver(size_t begin, size_t width, const float* gamma, const float* beta) const {
    if (all_ != nullptr) {
      std::copy(gamma, gamma + width, all_ + begin);
      std::copy(beta, beta + width, all_ + cols_ + begin);
    } else {
      engine::WriteOutput(isa_, out_, gamma, width, engine::OutputAt(pd_gamma_, out_, begin));
      engine::WriteOutput(isa_, out_, beta, width, engine::OutputAt(pd_beta_, out_, begin));
    }
  }
  void Finish() const {
    if (all_ == nullptr) return;
    engine::WriteOutput(isa_, out_, all_, cols_, pd_gamma_);
    engine::WriteOutput(isa_, out_, all_ + cols_, cols_, pd_beta_);
  }

 private:
  const kernels::Isa& isa_;
  DType out_;
  size_t cols_;
  void* pd_gamma_;
  void* pd_beta_;
  float* all_;
};

// Columns [begin, begin + width) of every row summed from zero, rows in
// order, `chunk` rows per call of the kernel, into gamma and beta.
void SumColumns(const kernels::Isa& isa, const Typed& in, size_t rows, size_t chunk, size_t begin,
                size_t width, float* gamma, float* beta) {
  std::fill(gamma, gamma + width, 0.0f);
  std::fill(beta, beta + width, 0.0f);
  for (size_t r = 0; r < rows; r += chunk) {
    Accumulate(isa, in, r, std::min(chunk, rows - r), begin, width, gamma, beta);
  }
}

// Sequential order as a relay, for rows too short to split between the
// threads (fewer column ranges than threads): the rows are cut into chunks
// dealt to the threads in turn (chunk k to thread k mod T) and the running
// sums pass from chunk to chunk, so every column still adds its rows in
// order, one chunk after the other. While a thread waits for the sums it
// reads its next chunk, so all threads read from memory at once and only the
// additions, from cache, take turns. gamma and beta hold cols floats each.
int RunSequentialRelay(const kernels::Isa& isa, const Typed& in, size_t rows, size_t cols,
                       size_t chunk_rows, int threads, float* gamma, float* beta) {
  const size_t row_bytes = in.stride * SizeOf(in.dtype);
  const size_t chunk =
      chunk_rows != 0 ? chunk_rows : std::max<size_t>(1, kRelayChunkBytes / (2 * row_bytes));
  const size_t chunks = (rows + chunk - 1) / chunk;
  std::fill(gamma, gamma + cols, 0.0f);
  std::fill(beta, beta + cols, 0.0f);
  std::atomic<size_t> turn{0};  // the chunk whose sums may be added next
  const auto* dy = static_cast<const uint8_t*>(in.dy);
  const auto* res = static_cast<const uint8_t*>(in.res);
#pragma omp parallel num_threads(threads)
  {
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = static_cast<size_t>(omp_get_num_threads());
    for (size_t k = t; k < chunks; k += nt) {
      const size_t r0 = k * chunk, n = std::min(chunk, rows - r0);
      // Read this chunk while earlier chunks are being added: one load per
      // 64-byte line of both inputs, 16 lines between looks at the turn.
      const uint8_t* lines[2] = {dy + r0 * row_bytes, res + r0 * row_bytes};
      const size_t bytes = n * row_bytes;
      uint8_t sink = 0;
      for (size_t b = 0; b < bytes && turn.load(std::memory_order_acquire) != k; b += 64 * 16) {
        for (size_t l = b; l < std::min(bytes, b + 64 * 16); l += 64) {
          sink ^= *static_cast<const volatile uint8_t*>(lines[0] + l);
          sink ^= *static_cast<const volatile uint8_t*>(lines[1] + l);
        }
      }
      (void)sink;
      while (turn.load(std::memory_order_acquire) != k) std::this_thread::yield();
      Accumulate(isa, in, r0, n, 0, cols, gamma, beta);
      turn.store(k + 1, std::memory_order_release);
    }
  }
  return static_cast<int>(std::min<size_t>(chunks, threads));
}

// Sequential order, threads splitting the columns (each column keeps its
// order), each thread summing its range in strips of at most kStripColumns
// in a buffer of its own: allocated by that thread, so away from the other
// threads' sums (side by side in one array, the threads' running sums slow
// each other down by up to a half). Every thread has its buffer before any
// sums are delivered, so a failed allocation leaves the outputs untouched.
Status RunSequentialColumns(const kernels::Isa& isa, const Typed& in, size_t rows, size_t chunk,
                            const ColumnSplit& split, int threads, const Sums& sums, int* used) {
  size_t widest = 0;
  for (size_t i = 0; i < split.count(); ++i) {
    widest = std::max(widest, split.range(i).end - split.range(i).begin);
  }
  const size_t width = std::min(widest, kStripColumns);
  std::atomic<bool> failed{false};
#pragma omp parallel num_threads(threads)
  {
    const size_t t = static_cast<size_t>(omp_get_thread_num());
    const size_t nt = static_cast<size_t>(omp_get_num_threads());
    thread_local std::vector<float> own;  // only grows: no allocation per call
    if (own.size() < 2 * width) {
      try {
        own.resize(2 * width);
      } catch (const std::bad_alloc&) {
        failed.store(true);
      }
    }
#pragma omp barrier
    for (size_t i = t; !failed.load() && i < split.count(); i += nt) {
      const ColumnRange cr = split.range(i);
      for (size_t c = cr.begin; c < cr.end; c += width) {
        const size_t w = std::min(width, cr.end - c);
        SumColumns(isa, in, rows, chunk, c, w, own.data(), own.data() + width);
        sums.Deliver(c, w, own.data(), own.data() + width);
      }
    }
  }
  if (failed.load()) {
    return engine::OutOfMemory(kApi, "the float sums of a thread's column strip",
                               2 * width * sizeof(float));
  }
  *used = static_cast<int>(std::min<size_t>(split.count(), threads));
  return Status::Ok();
}

// Floats of scratch RunSequential needs from the caller.
size_t SequentialScratchFloats(size_t cols, int threads) {
  if (threads == 1) return 2 * std::min(cols, kStripColumns);
  const ColumnSplit split(cols, static_cast<size_t>(threads));
  return split.count() < static_cast<size_t>(threads) ? 2 * cols : 0;
}

// Sequential order: every column summed row after row from zero. One
// thread: strip after strip. More: threads split the columns, or take turns
// over chunks of rows (the relay) when the columns are too few to go round.
Status RunSequential(const kernels::Isa& isa, const Typed& in, size_t rows, size_t cols,
                     size_t chunk_rows, int threads, float* scratch, const Sums& sums, int* used) {
  const size_t chunk = chunk_rows == 0 ? std::max<size_t>(rows, 1) : chunk_rows;
  if (threads == 1) {
    const size_t width = std::min(cols, kStripColumns);
    for (size_t c = 0; c < cols; c += width) {
      const size_t w = std::min(width, cols - c);
      SumColumns(isa, in, rows, chunk, c, w, scratch, scratch + width);
      sums.Deliver(c, w, scratch, scratch + width);
    }
    *used = 1;
    return Status::Ok();
  }
  const ColumnSplit split(cols, static_cast<size_t>(threads));
  if (split.count() < static_cast<size_t>(threads)) {
    *used = RunSequentialRelay(isa, in, rows, cols, chunk_rows, threads, scratch, scratch + cols);
    sums.Deliver(0, cols, scratch, scratch + cols);
    return Status::Ok();
  }
  return RunSequentialColumns(isa, in, rows, chunk, split, threads, sums, used);
}

// Column ranges per subtree of the blocked order within a strip: more than
// one only when there are fewer subtrees than threads.
size_t BlockedSplits(const engine::BlockedPlan& plan, int threads) {
  const auto t = static_cast<size_t>(threads);
  return plan.subtrees >= t ? 1 : t / plan.subtrees;
}

// Floats of scratch RunBlocked needs: the blocked order's partials, each
// of 2 × strip width.
size_t BlockedScratch(size_t rows, size_t cols, int threads) {
  const engine::BlockedPlan plan = engine::PlanBlocked(rows, threads);
  return engine::BlockedScratchFloats(plan, threads, 2 * std::min(cols, kStripColumns));
}

// Blocked order (engine/blocked_order.h), column strip after column strip:
// per strip, work items (subtree, column range) on the threads, then the
// tree's upper levels split by columns.
int RunBlocked(const kernels::Isa& isa, const Typed& in, size_t rows, size_t cols, int threads,
               float* scratch, const Sums& sums) {
  const engine::BlockedPlan plan = engine::PlanBlocked(rows, threads);
  const size_t strip = std::min(cols, kStripColumns);
  int used = 1;
  for (size_t s0 = 0; s0 < cols; s0 += strip) {
    const size_t width = std::min(strip, cols - s0);
    const size_t partial_floats = 2 * width;
    float* const roots = scratch;
    float* const stacks = scratch + plan.subtrees * partial_floats;
    const ColumnSplit split(width, BlockedSplits(plan, threads));
    const size_t items = plan.subtrees * split.count();
    ParallelForWorkers(threads, items, [&](size_t item, size_t worker) {
      const size_t j = item / split.count();
      const ColumnRange cr = split.range(item % split.count());
      const engine::PartialColumns c{width, cr.begin, cr.end};
      engine::SumSubtree(isa, plan, j, c, roots + j * partial_floats,
                         stacks + worker * plan.levels * partial_floats,
                         [&](size_t b, float* partial) {
                           const size_t row = b * engine::kBlockRows;
                           const size_t n = std::min(engine::kBlockRows, rows - row);
                           if (n == 0) return;  // rows = 0: one empty block
                           Accumulate(isa, in, row, n, s0 + cr.begin, cr.end - cr.begin,
                                      partial + cr.begin, partial + width + cr.begin);
                         });
    });
    const ColumnSplit tree_split(width, static_cast<size_t>(threads));
    ParallelFor(plan.subtrees > 1 ? threads : 1, tree_split.count(), [&](size_t t) {
      const ColumnRange cr = tree_split.range(t);
      engine::CombineRoots(isa, plan, roots, {width, cr.begin, cr.end});
    });
    sums.Deliver(s0, width, roots, roots + width);
    used = std::max(used, static_cast<int>(std::min<size_t>(items, threads)));
  }
  return used;
}

// True when pd_gamma, pd_beta and the two inputs occupy four separate
// stretches of memory (outputs may be placed over inputs: Ascend C allows it).
bool OutputsStandApart(const GradBetaProblem& p) {
  const size_t out_bytes = p.cols * SizeOf(p.f32_outputs ? DType::kF32 : p.dtype);
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const size_t in_bytes = p.rows == 0 ? 0 : ((p.rows - 1) * stride + p.cols) * SizeOf(p.dtype);
  struct Range {
    uintptr_t begin, end;
  };
  const auto at = [](const void* ptr, size_t bytes) {
    const auto b = reinterpret_cast<uintptr_t>(ptr);
    return Range{b, b + bytes};
  };
  const Range ranges[] = {at(p.pd_gamma, out_bytes), at(p.pd_beta, out_bytes), at(p.dy, in_bytes),
                          at(p.res, in_bytes)};
  for (size_t i = 0; i < 2; ++i) {  // each output against everything after it
    for (size_t j = i + 1; j < 4; ++j) {
      if (ranges[i].begin < ranges[j].end && ranges[j].begin < ranges[i].end) return false;
    }
  }
  return true;
}

Status Check(const GradBetaProblem& p) {
  if (Status s = engine::CheckShape(kApi, p.dtype, p.rows, p.cols, p.row_stride, SizeOf(p.dtype));
      !s.ok()) {
    return s;
  }
  if (Status s = engine::CheckRowsInput(kApi, "dy", p.dy, p.rows); !s.ok()) return s;
  if (Status s = engine::CheckRowsInput(kApi, "res", p.res, p.rows); !s.ok()) return s;
  if (Status s = engine::CheckSumOutputs(kApi, p.pd_gamma, p.pd_beta); !s.ok()) return s;
  if (Status s = engine::CheckOrder(kApi, p.order); !s.ok()) return s;
  return engine::CheckThreads(kApi, p.threads);
}

Status Run(const GradBetaProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const kernels::Isa* selected = nullptr;
  if (Status s = engine::SelectIsaFor(kApi, p.isa, &selected); !s.ok()) return s;
  const kernels::Isa& isa = *selected;

  const Typed in{p.dtype, p.dy, p.res, p.row_stride == 0 ? p.cols : p.row_stride};
  const int threads = ThreadsFor(2 * p.rows * p.cols * SizeOf(p.dtype), p.threads);
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  const bool apart = OutputsStandApart(p);
  int used = 1;
  if (p.order == Order::kSequential && threads == 1 && out == DType::kF32 && apart) {
    // One thread, float outputs apart from everything else: the sums are
    // kept in the outputs themselves (the Ascend C path's many small calls
    // save two passes over them).
    SumColumns(isa, in, p.rows, p.chunk_rows == 0 ? std::max<size_t>(p.rows, 1) : p.chunk_rows, 0,
               p.cols, static_cast<float*>(p.pd_gamma), static_cast<float*>(p.pd_beta));
  } else {
    // Scratch lives in per-thread buffers that only grow, so repeated calls
    // (the Ascend C path makes thousands) do not allocate.
    thread_local std::vector<float> scratch, all;
    const size_t floats = p.order == Order::kSequential ? SequentialScratchFloats(p.cols, threads)
                                                        : BlockedScratch(p.rows, p.cols, threads);
    if (Status s = engine::GrowScratch(scratch, floats, kApi, "the float partial sums"); !s.ok()) {
      return s;
    }
    if (!apart) {
      const size_t all_floats = engine::SaturatingProduct(2, p.cols);
      if (Status s = engine::GrowScratch(
              all, all_floats, kApi,
              "the float sums of pd_gamma and pd_beta (outputs placed over inputs)");
          !s.ok()) {
        return s;
      }
    }
    const Sums sums(isa, out, p.cols, p.pd_gamma, p.pd_beta, apart ? nullptr : all.data());
    if (p.order == Order::kSequential) {
      if (Status s = RunSequential(isa, in, p.rows, p.cols, p.chunk_rows, threads, scratch.data(),
                                   sums, &used);
          !s.ok()) {
        return s;
      }
    } else {
      used = RunBlocked(isa, in, p.rows, p.cols, threads, scratch.data(), sums);
    }
    sums.Finish();
  }
  run_log.Record(kApi, {OrderName(p.order), isa.name, used, p.dtype, nullptr}, p.rows, p.cols);
  return Status::Ok();
}

}  // namespace

int ThreadsFor(size_t bytes, int requested) {
  const int wanted = requested > 0 ? requested : omp_get_max_threads();
  const size_t by_size = bytes / kMinBytesPerExtraThread + 1;
  return static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted), by_size));
}

RunInfo LastRunInfo() { return run_log.Last(); }

Status LayerNormGradBeta(const GradBetaProblem& p) {
  return engine::CatchOutOfMemory(kApi, [&] { return Run(p); });
}

}  // namespace normgrad

// engine/layer_norm_grad_beta.cc — pd_gamma/pd_beta on host memory: argument
// checks, the two summation orders (drivers over the registry's row
// accumulation kernels), threading and output narrowing.
#include "normgrad/layer_norm_grad_beta.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "engine/dispatch.h"
#include "engine/parallel.h"
#include "kernels/kernels.h"

namespace normgrad {
namespace {

using engine::ParallelFor;
using engine::WriteOutput;

// Rows per block of the blocked order. A constant (never derived from the
// thread count), so results do not depend on how many threads run.
constexpr size_t kBlockRows = 256;

// Input bytes per thread below which extra threads are not used: waking a
// second thread costs a few microseconds. Measured (f32, blocked): 256×256
// (512 KiB) 7.7 µs on one thread, 8.6 µs on two; 128×1024 (1 MiB) 24.7 µs on
// one, 15.0 µs on two.
constexpr size_t kMinBytesPerExtraThread = size_t{1} << 20;

// Column ranges handed to threads are multiples of this many columns (256
// bytes of f32): narrower slices of a row make the threads' hardware
// prefetchers fetch each other's cache lines, and two threads on 32-column
// slices of 64-column rows ran at under half the speed of one thread.
constexpr size_t kColumnGrain = 64;

// Bytes of both inputs per chunk of the sequential relay, inside a core's
// L2. Measured at 65536 × 64, two threads: 64 KiB 0.68–0.79×, 256 KiB
// 0.70–0.78×, 1 MiB 0.71–0.79× the read baseline.
constexpr size_t kRelayChunkBytes = size_t{1} << 20;

// What the last call on this thread ran (names are static strings: no
// allocation per call), and what NORMGRAD_VERBOSE last printed.
struct LastRun {
  Order order = Order::kBlocked;
  const char* isa = "none";
  int threads = 0;
  DType dtype = DType::kF32;
};
thread_local LastRun last_run;
thread_local LastRun last_printed;

struct Typed {
  DType dtype;
  const void* dy;
  const void* res;
  size_t stride;
};

// Accumulates rows [row, row + rows) × columns [col, col + cols) into acc.
void Accumulate(const kernels::Isa& isa, const Typed& in, size_t row,
                size_t rows, size_t col, size_t cols, float* acc_gamma,
                float* acc_beta) {
  const size_t offset = row * in.stride + col;
  switch (in.dtype) {
    case DType::kF32:
      isa.accumulate_f32(static_cast<const float*>(in.dy) + offset,
                         static_cast<const float*>(in.res) + offset, in.stride,
                         rows, cols, acc_gamma, acc_beta);
      break;
    case DType::kF16:
      isa.accumulate_f16(static_cast<const uint16_t*>(in.dy) + offset,
                         static_cast<const uint16_t*>(in.res) + offset,
                         in.stride, rows, cols, acc_gamma, acc_beta);
      break;
    case DType::kBF16:
      isa.accumulate_bf16(static_cast<const uint16_t*>(in.dy) + offset,
                          static_cast<const uint16_t*>(in.res) + offset,
                          in.stride, rows, cols, acc_gamma, acc_beta);
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

// Sequential order as a relay, for rows too short to split between the
// threads (fewer column ranges than threads): the rows are cut into chunks
// dealt to the threads in turn (chunk k to thread k mod T) and the running
// sums pass from chunk to chunk, so every column still adds its rows in
// order, one chunk after the other. While a thread waits for the sums it
// reads its next chunk, so all threads read from memory at once and only the
// additions, from cache, take turns. Measured at 65536 × 64 on two threads:
// 0.79× the read baseline in float and 0.71× in half, against 0.53× for one
// thread alone. (At 16384 × 768 the column split stays faster: 0.73–1.0×
// against 0.68–0.78×.)
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

// Columns [begin, begin + width) of every row summed from zero, rows in
// order, `chunk` rows per call of the kernel, into gamma and beta.
void SumColumns(const kernels::Isa& isa, const Typed& in, size_t rows, size_t chunk,
                size_t begin, size_t width, float* gamma, float* beta) {
  std::fill(gamma, gamma + width, 0.0f);
  std::fill(beta, beta + width, 0.0f);
  for (size_t r = 0; r < rows; r += chunk) {
    Accumulate(isa, in, r, std::min(chunk, rows - r), begin, width, gamma, beta);
  }
}

// Sequential order: every column summed row after row from zero into gamma
// and beta (the caller's accumulators, or with one thread the outputs
// themselves); threads split the columns, so each column keeps its order.
// Columns too few to give every thread a range: the relay above instead.
//
// With more than one thread each sums its columns in a buffer of its own
// (allocated by that thread, so away from the others') and copies the sums
// out at the end. Measured with half inputs on two threads: with both
// threads' running sums side by side in one array, 4096 × 4096 reached 0.62×
// the read baseline and 16384 × 768 0.51×; with separate buffers 1.07× and
// 0.84× (64-byte aligned ranges in the shared array did not help).
int RunSequential(const kernels::Isa& isa, const Typed& in, size_t rows,
                  size_t cols, size_t chunk_rows, int threads, float* gamma_out,
                  float* beta_out) {
  const size_t chunk = chunk_rows == 0 ? std::max<size_t>(rows, 1) : chunk_rows;
  if (threads == 1) {
    SumColumns(isa, in, rows, chunk, 0, cols, gamma_out, beta_out);
    return 1;
  }
  const ColumnSplit split(cols, static_cast<size_t>(threads));
  if (split.count() < static_cast<size_t>(threads)) {
    return RunSequentialRelay(isa, in, rows, cols, chunk_rows, threads, gamma_out, beta_out);
  }
  ParallelFor(threads, split.count(), [&](size_t t) {
    const ColumnRange cr = split.range(t);
    const size_t width = cr.end - cr.begin;
    thread_local std::vector<float> own;  // only grows: no allocation per call
    if (own.size() < 2 * width) own.resize(2 * width);
    float* gamma = own.data();
    float* beta = own.data() + width;
    SumColumns(isa, in, rows, chunk, cr.begin, width, gamma, beta);
    std::copy(gamma, gamma + width, gamma_out + cr.begin);
    std::copy(beta, beta + width, beta_out + cr.begin);
  });
  return static_cast<int>(std::min<size_t>(split.count(), threads));
}

// Blocked order: fixed kBlockRows-row blocks, each summed sequentially from
// zero into its own partial; partials combined by a fixed pairwise tree
// (partial[i] += partial[i + s] for s = 1, 2, 4, …). The tree and the blocks
// depend only on the shape, so every thread count gives the same bits.
int RunBlocked(const kernels::Isa& isa, const Typed& in, size_t rows,
               size_t cols, int threads, std::vector<float>& partials) {
  const size_t blocks = std::max<size_t>(1, (rows + kBlockRows - 1) / kBlockRows);
  const size_t width = 2 * cols;  // one partial: [gamma | beta]
  // Each work item zeroes its own part, so its lines start in the cache of
  // the core that sums into them.
  if (partials.size() < blocks * width) partials.resize(blocks * width);
  float* p = partials.data();

  // Work items: (block, column range). Split columns only when there are
  // fewer blocks than threads.
  const size_t splits =
      blocks >= static_cast<size_t>(threads) ? 1 : threads / blocks;
  const ColumnSplit split(cols, splits);
  const size_t items = blocks * split.count();
  ParallelFor(threads, items, [&](size_t item) {
    const size_t b = item / split.count();
    const ColumnRange cr = split.range(item % split.count());
    const size_t row = b * kBlockRows;
    float* partial = p + b * width;
    std::fill(partial + cr.begin, partial + cr.end, 0.0f);
    std::fill(partial + cols + cr.begin, partial + cols + cr.end, 0.0f);
    Accumulate(isa, in, row, std::min(kBlockRows, rows - row), cr.begin,
               cr.end - cr.begin, partial + cr.begin, partial + cols + cr.begin);
  });

  const ColumnSplit tree_split(cols, static_cast<size_t>(threads));
  ParallelFor(blocks > 1 ? threads : 1, tree_split.count(), [&](size_t t) {
    const ColumnRange cr = tree_split.range(t);
    for (size_t s = 1; s < blocks; s *= 2) {
      for (size_t i = 0; i + s < blocks; i += 2 * s) {
        float* dst = p + i * width;
        const float* src = p + (i + s) * width;
        isa.add(dst + cr.begin, src + cr.begin, cr.end - cr.begin);
        isa.add(dst + cols + cr.begin, src + cols + cr.begin, cr.end - cr.begin);
      }
    }
  });
  return static_cast<int>(std::min<size_t>(items, threads));
}

// Argument errors; the message strings are built only on failure, so a
// valid call allocates nothing.
Status Check(const GradBetaProblem& p) {
  const char* const api = "LayerNormGradBeta: ";
  if (p.dtype != DType::kF32 && p.dtype != DType::kF16 && p.dtype != DType::kBF16) {
    return Status::Error(std::string(api) + "dtype " + std::to_string(static_cast<int>(p.dtype)) +
                         " is not float, half or bfloat16");
  }
  if (p.cols == 0) return Status::Error(std::string(api) + "cols is 0; it must be at least 1");
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  if (stride < p.cols) {
    return Status::Error(std::string(api) + "row_stride " + std::to_string(stride) +
                         " is less than cols " + std::to_string(p.cols));
  }
  if (p.rows > 0 &&
      stride > std::numeric_limits<size_t>::max() / SizeOf(p.dtype) / p.rows) {
    return Status::Error(std::string(api) + "rows " + std::to_string(p.rows) + " × row_stride " +
                         std::to_string(stride) + " overflows the address space");
  }
  if (p.rows > 0 && (p.dy == nullptr || p.res == nullptr)) {
    return Status::Error(std::string(api) + std::string(p.dy == nullptr ? "dy" : "res") +
                         " is null with rows " + std::to_string(p.rows));
  }
  if (p.pd_gamma == nullptr || p.pd_beta == nullptr) {
    return Status::Error(std::string(api) + std::string(p.pd_gamma == nullptr ? "pd_gamma" : "pd_beta") +
                         " is null");
  }
  if (p.pd_gamma == p.pd_beta) {
    return Status::Error(std::string(api) + "pd_gamma and pd_beta are the same buffer");
  }
  if (p.threads < 0) {
    return Status::Error(std::string(api) + "threads " + std::to_string(p.threads) +
                         " is negative; use 0 for the default");
  }
  return Status::Ok();
}

}  // namespace

int ThreadsFor(size_t bytes, int requested) {
  const int wanted = requested > 0 ? requested : omp_get_max_threads();
  const size_t by_size = bytes / kMinBytesPerExtraThread + 1;
  return static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted), by_size));
}

// True when pd_gamma, pd_beta and the two inputs occupy four separate
// stretches of memory (outputs may be placed over inputs: Ascend C allows it).
bool OutputsStandApart(const GradBetaProblem& p) {
  const size_t out_bytes = p.cols * sizeof(float);
  const size_t stride = p.row_stride == 0 ? p.cols : p.row_stride;
  const size_t in_bytes = p.rows == 0 ? 0 : ((p.rows - 1) * stride + p.cols) * SizeOf(p.dtype);
  struct Range {
    uintptr_t begin, end;
  };
  const auto at = [](const void* ptr, size_t bytes) {
    const auto b = reinterpret_cast<uintptr_t>(ptr);
    return Range{b, b + bytes};
  };
  const Range ranges[] = {at(p.pd_gamma, out_bytes), at(p.pd_beta, out_bytes),
                          at(p.dy, in_bytes), at(p.res, in_bytes)};
  for (size_t i = 0; i < 2; ++i) {  // each output against everything after it
    for (size_t j = i + 1; j < 4; ++j) {
      if (ranges[i].begin < ranges[j].end && ranges[j].begin < ranges[i].end) return false;
    }
  }
  return true;
}

RunInfo LastRunInfo() {
  return {std::string(OrderName(last_run.order)) + ":" + last_run.isa, last_run.threads};
}

Status LayerNormGradBeta(const GradBetaProblem& p) {
  if (Status s = Check(p); !s.ok()) return s;
  const engine::Dispatch& dispatch = engine::CurrentDispatch();
  std::string isa_error;
  const kernels::Isa* selected = engine::SelectIsa(p.isa, &isa_error);
  if (selected == nullptr) return Status::Error("LayerNormGradBeta: " + isa_error);
  const kernels::Isa& isa = *selected;
  const Order order = p.order;

  const Typed in{p.dtype, p.dy, p.res, p.row_stride == 0 ? p.cols : p.row_stride};
  const size_t input_bytes = 2 * p.rows * p.cols * SizeOf(p.dtype);
  const int threads = ThreadsFor(input_bytes, p.threads);

  // Accumulators live in per-thread buffers that only grow, so repeated
  // calls (the Ascend C path makes thousands) do not allocate.
  thread_local std::vector<float> acc;
  thread_local std::vector<float> partials;
  const float* result = nullptr;
  int used;
  const DType out = p.f32_outputs ? DType::kF32 : p.dtype;
  if (order == Order::kSequential && threads == 1 && out == DType::kF32 &&
      OutputsStandApart(p)) {
    // One thread, float outputs apart from everything else: the sums are
    // kept in the outputs themselves (the Ascend C path's many small calls
    // save two passes over them).
    used = RunSequential(isa, in, p.rows, p.cols, p.chunk_rows, 1,
                         static_cast<float*>(p.pd_gamma), static_cast<float*>(p.pd_beta));
  } else {
    if (order == Order::kSequential) {
      if (acc.size() < 2 * p.cols) acc.resize(2 * p.cols);
      used = RunSequential(isa, in, p.rows, p.cols, p.chunk_rows, threads, acc.data(),
                           acc.data() + p.cols);
      result = acc.data();
    } else {
      used = RunBlocked(isa, in, p.rows, p.cols, threads, partials);
      result = partials.data();
    }
    WriteOutput(isa, out, result, p.cols, p.pd_gamma);
    WriteOutput(isa, out, result + p.cols, p.cols, p.pd_beta);
  }

  last_run = {order, isa.name, used, p.dtype};
  // One line per change of implementation, thread count or type, so the
  // Ascend C path's thousands of calls per launch print once.
  if (dispatch.verbose &&
      (last_run.order != last_printed.order || last_run.isa != last_printed.isa ||
       last_run.threads != last_printed.threads || last_run.dtype != last_printed.dtype)) {
    std::fprintf(stderr, "normgrad: LayerNormGradBeta %s %zux%zu %s:%s threads=%d\n",
                 DTypeName(p.dtype), p.rows, p.cols, OrderName(order), isa.name, used);
    last_printed = last_run;
  }
  return Status::Ok();
}

}  // namespace normgrad

// out_of_memory_test.cc — the engine under a capped address space
// (RLIMIT_AS): a call whose scratch does not fit returns an out-of-memory
// Status naming the API, what it could not allocate and its size, and leaves
// its outputs alone; LayerNormGradBeta's scratch, bounded independently of
// H, fits in a few MiB even for H = 2^23.
//
// Each case runs in a child process (a GoogleTest death test in the
// "threadsafe" style, which starts the test binary afresh), so only the child
// is capped. The child allocates its inputs and outputs first (calloc: pages
// that are never written cost no memory), runs one small threaded call so
// the OpenMP threads and their stacks exist, then caps its address space at
// its current size plus kHeadroom and makes the call under test. It prints
// what went wrong and exits 1, or exits 0.
//
// Registered only in builds without sanitizers (they reserve terabytes of
// shadow memory) and not when cross-compiling (qemu-user ignores a guest's
// RLIMIT_AS). To extend: add a TEST with a Case and its checks.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "normgrad/layer_norm.h"
#include "normgrad/layer_norm_grad_beta.h"

namespace {

using normgrad::DType;
using normgrad::Order;
using normgrad::Status;
using normgrad::StatusCode;

// Address space the capped call may add: more than LayerNormGradBeta's
// scratch bound at two threads (see layer_norm_grad_beta.h), less than the
// H-sized buffers the failing cases need (32 MiB and more).
constexpr size_t kHeadroom = size_t{16} << 20;

// H = 2^23 half: 16 MiB per row-sized array.
constexpr size_t kCols = size_t{1} << 23;
constexpr uint16_t kHalfNaN = 0x7e00;

// Zeroed memory that is not touched until written.
template <typename T>
T* Zeroed(size_t n) {
  return static_cast<T*>(std::calloc(n, sizeof(T)));
}

size_t AddressSpaceBytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmSize:", 0) == 0) return std::stoull(line.substr(7)) * 1024;  // kB
  }
  return 0;
}

// Starts the engine's worker threads with a call above the threading
// threshold, so the capped call does not have to create them.
void StartThreads(int threads) {
  const size_t rows = 512, cols = 1024;
  float* in = Zeroed<float>(rows * cols);
  float* out = Zeroed<float>(2 * cols);
  normgrad::GradBetaProblem p;
  p.rows = rows;
  p.cols = cols;
  p.dy = p.res = in;
  p.pd_gamma = out;
  p.pd_beta = out + cols;
  p.threads = threads;
  if (!normgrad::LayerNormGradBeta(p).ok()) std::abort();
  std::free(in);
  std::free(out);
}

// The child's side: caps the address space, runs `call`, prints what its
// checks found wrong (empty: nothing) and exits 1 on a complaint, else 0.
[[noreturn]] void CappedChild(int threads, const std::function<std::string()>& call) {
  StartThreads(threads);
  const rlim_t cap = AddressSpaceBytes() + kHeadroom;
  const rlimit limit{cap, cap};
  if (setrlimit(RLIMIT_AS, &limit) != 0) {
    std::fprintf(stderr, "setrlimit(RLIMIT_AS) failed\n");
    std::exit(1);
  }
  if (void* probe = std::malloc(2 * kHeadroom)) {  // the cap must bite
    std::fprintf(stderr, "RLIMIT_AS does not limit allocations here\n");
    std::free(probe);
    std::exit(1);
  }
  const std::string complaint = call();
  std::fprintf(stderr, "%s\n", complaint.empty() ? "capped call ok" : complaint.c_str());
  std::exit(complaint.empty() ? 0 : 1);
}

bool AllHalf(const uint16_t* p, size_t n, uint16_t bits) {
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != bits) return false;
  }
  return true;
}

std::string Describe(const Status& s) {
  return std::string(s.ok() ? "ok" : "error") + " (code " +
         std::to_string(static_cast<int>(s.code())) + "): " + s.message();
}

// "" when s is an out-of-memory error whose message contains every word.
std::string ExpectOutOfMemory(const Status& s, std::initializer_list<const char*> words) {
  if (s.ok() || s.code() != StatusCode::kOutOfMemory) {
    return "expected an out-of-memory status, got " + Describe(s);
  }
  for (const char* w : words) {
    if (s.message().find(w) == std::string::npos) {
      return "message lacks \"" + std::string(w) + "\": " + s.message();
    }
  }
  return "";
}

class EngineOutOfMemory : public testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

// rows = 1, H = 2^23 half: the float sums of a whole row would take 64 MiB;
// strips of columns keep the scratch within the headroom, and the result
// (zeros from zero inputs) is written over the NaN the outputs start with.
void GradBetaFitsInBoundedScratch(Order order, int threads) {
  auto* dy = Zeroed<uint16_t>(kCols);
  auto* res = Zeroed<uint16_t>(kCols);
  auto* out = Zeroed<uint16_t>(2 * kCols);
  for (size_t i = 0; i < 2 * kCols; ++i) out[i] = kHalfNaN;
  CappedChild(threads, [&]() -> std::string {
    normgrad::GradBetaProblem p;
    p.dtype = DType::kF16;
    p.rows = 1;
    p.cols = kCols;
    p.dy = dy;
    p.res = res;
    p.pd_gamma = out;
    p.pd_beta = out + kCols;
    p.order = order;
    p.threads = threads;
    const Status s = normgrad::LayerNormGradBeta(p);
    if (!s.ok()) return "LayerNormGradBeta failed: " + Describe(s);
    if (!AllHalf(out, 2 * kCols, 0)) return "outputs are not all zero";
    return "";
  });
}

TEST_F(EngineOutOfMemory, GradBetaBlockedScratchDoesNotGrowWithCols) {
  EXPECT_EXIT(GradBetaFitsInBoundedScratch(Order::kBlocked, 2), testing::ExitedWithCode(0),
              "capped call ok");
}

TEST_F(EngineOutOfMemory, GradBetaSequentialScratchDoesNotGrowWithCols) {
  for (int threads : {1, 2}) {
    SCOPED_TRACE(threads);
    EXPECT_EXIT(GradBetaFitsInBoundedScratch(Order::kSequential, threads),
                testing::ExitedWithCode(0), "capped call ok");
  }
}

// pd_gamma over dy and pd_beta over res, H = 2^22 float: the sums are
// computed before any output is written, so they need 32 MiB at once.
void GradBetaOverInputsOutOfMemory() {
  const size_t cols = kCols / 2;
  auto* dy = Zeroed<float>(cols);
  auto* res = Zeroed<float>(cols);
  dy[0] = res[0] = 5.0f;
  CappedChild(2, [&]() -> std::string {
    normgrad::GradBetaProblem p;
    p.rows = 1;
    p.cols = cols;
    p.dy = dy;
    p.res = res;
    p.pd_gamma = dy;
    p.pd_beta = res;
    p.threads = 2;
    std::string complaint = ExpectOutOfMemory(normgrad::LayerNormGradBeta(p),
                                              {"LayerNormGradBeta: ", "32 MiB", "33554432 bytes"});
    if (complaint.empty() && (dy[0] != 5.0f || res[0] != 5.0f)) complaint = "outputs written";
    return complaint;
  });
}

TEST_F(EngineOutOfMemory, GradBetaOutputsOverInputsReportOutOfMemory) {
  EXPECT_EXIT(GradBetaOverInputsOutOfMemory(), testing::ExitedWithCode(0), "capped call ok");
}

// rows = 1, H = 2^23 half: the backward needs gamma in float (32 MiB) and
// the float sums (64 MiB).
void BackwardOutOfMemory(Order order) {
  auto* x = Zeroed<uint16_t>(kCols);
  auto* dy = Zeroed<uint16_t>(kCols);
  auto* gamma = Zeroed<uint16_t>(kCols);
  auto* dx = Zeroed<uint16_t>(kCols);
  auto* sums = Zeroed<uint16_t>(2 * kCols);
  dx[0] = sums[0] = sums[kCols] = kHalfNaN;
  float mean = 0.0f, rstd = 1.0f;
  CappedChild(2, [&]() -> std::string {
    normgrad::LayerNormBackwardProblem p;
    p.dtype = DType::kF16;
    p.rows = 1;
    p.cols = kCols;
    p.x = x;
    p.dy = dy;
    p.gamma = gamma;
    p.mean = &mean;
    p.rstd = &rstd;
    p.dx = dx;
    p.pd_gamma = sums;
    p.pd_beta = sums + kCols;
    p.order = order;
    p.threads = 2;
    std::string complaint =
        ExpectOutOfMemory(normgrad::LayerNormBackward(p), {"LayerNormBackward: ", "MiB", "bytes"});
    if (complaint.empty() &&
        (dx[0] != kHalfNaN || sums[0] != kHalfNaN || sums[kCols] != kHalfNaN)) {
      complaint = "outputs written";
    }
    return complaint;
  });
}

TEST_F(EngineOutOfMemory, BackwardReportsOutOfMemory) {
  for (Order order : {Order::kBlocked, Order::kSequential}) {
    SCOPED_TRACE(normgrad::OrderName(order));
    EXPECT_EXIT(BackwardOutOfMemory(order), testing::ExitedWithCode(0), "capped call ok");
  }
}

// rows = 1, H = 2^23 half: the forward needs gamma and beta in float
// (32 MiB each).
void ForwardOutOfMemory() {
  auto* x = Zeroed<uint16_t>(kCols);
  auto* gamma = Zeroed<uint16_t>(kCols);
  auto* beta = Zeroed<uint16_t>(kCols);
  auto* y = Zeroed<uint16_t>(kCols);
  y[0] = kHalfNaN;
  float mean = 7.0f;
  CappedChild(2, [&]() -> std::string {
    normgrad::LayerNormForwardProblem p;
    p.dtype = DType::kF16;
    p.rows = 1;
    p.cols = kCols;
    p.x = x;
    p.gamma = gamma;
    p.beta = beta;
    p.y = y;
    p.mean = &mean;
    p.threads = 2;
    std::string complaint = ExpectOutOfMemory(normgrad::LayerNormForward(p),
                                              {"LayerNormForward: ", "32 MiB", "33554432 bytes"});
    if (complaint.empty() && (y[0] != kHalfNaN || mean != 7.0f)) complaint = "outputs written";
    return complaint;
  });
}

TEST_F(EngineOutOfMemory, ForwardReportsOutOfMemory) {
  EXPECT_EXIT(ForwardOutOfMemory(), testing::ExitedWithCode(0), "capped call ok");
}

}  // namespace

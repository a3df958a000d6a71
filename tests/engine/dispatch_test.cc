// dispatch_test.cc — implementation names, NORMGRAD_IMPL parsing, the
// threading threshold and the engine's argument errors (each message
// asserted). To extend: add a case with the message it must contain.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "engine/dispatch.h"
#include "normgrad/layer_norm_grad_beta.h"

namespace {

using testing::HasSubstr;

TEST(Dispatch, ListsBothOrdersForEveryIsaWithScalarLast) {
  const auto impls = normgrad::ListImplementations();
  ASSERT_GE(impls.size(), 2u);
  EXPECT_EQ(impls[impls.size() - 2].name, "blocked:scalar");
  EXPECT_EQ(impls.back().name, "sequential:scalar");
  EXPECT_TRUE(impls.back().available);
}

TEST(Dispatch, ParsesIsaAndFullNames) {
  auto d = normgrad::engine::ParseImpl("scalar");
  ASSERT_NE(d.isa, nullptr) << d.error;
  EXPECT_STREQ(d.isa->name, "scalar");

  d = normgrad::engine::ParseImpl("sequential:scalar");
  ASSERT_NE(d.isa, nullptr) << d.error;
  EXPECT_STREQ(d.isa->name, "scalar");

  d = normgrad::engine::ParseImpl("");
  ASSERT_NE(d.isa, nullptr);
  EXPECT_TRUE(d.isa->available());
}

TEST(Dispatch, UnknownNamesAreErrorsListingValidOnes) {
  for (const char* bad : {"avx9", "fast:scalar", "blocked:neon9"}) {
    const auto d = normgrad::engine::ParseImpl(bad);
    EXPECT_EQ(d.isa, nullptr) << bad;
    EXPECT_THAT(d.error, HasSubstr(bad));
    EXPECT_THAT(d.error, HasSubstr("valid names: "));
    EXPECT_THAT(d.error, HasSubstr("sequential:scalar"));
  }
}

TEST(Dispatch, ForcedImplementationRuns) {
  // The suite runs once per instruction set with NORMGRAD_IMPL set: check
  // the engine really ran that one.
  const char* forced = std::getenv("NORMGRAD_IMPL");
  std::vector<float> x(64, 1.0f), g(8), b(8);
  normgrad::GradBetaProblem p;
  p.rows = 8;
  p.cols = 8;
  p.dy = x.data();
  p.res = x.data();
  p.pd_gamma = g.data();
  p.pd_beta = b.data();
  ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
  const std::string impl = normgrad::LastRunInfo().impl;
  if (forced && *forced) {
    EXPECT_EQ(impl.substr(impl.find(':') + 1), forced);
  } else {  // the default: blocked order on the best available instruction set
    std::string best;
    for (const auto& i : normgrad::ListImplementations()) {
      if (i.available && best.empty()) best = i.name;
    }
    EXPECT_EQ(impl, best);
  }
}

TEST(Dispatch, PerCallIsaRunsThatIsaWithTheSameBits) {
  // GradBetaProblem::isa picks the instruction set of one call (what
  // `normgrad bench` uses to time every registry entry in one process).
  // Values k/8 with k < 64 and 70 rows: every partial sum is a multiple of
  // 2^-6 below 2^13, exact in float, so every order gives the same bits.
  std::vector<float> dy(70 * 40), res(70 * 40);
  for (size_t i = 0; i < dy.size(); ++i) {
    dy[i] = static_cast<float>(i % 61) / 8;
    res[i] = static_cast<float>(i % 53) / 8;
  }
  std::vector<float> want_g(40), want_b(40);
  for (size_t i = 0; i < dy.size(); ++i) {
    want_g[i % 40] += dy[i] * res[i];
    want_b[i % 40] += dy[i];
  }
  for (const auto& impl : normgrad::ListImplementations()) {
    if (!impl.available) continue;
    SCOPED_TRACE(impl.name);
    std::vector<float> g(40), b(40);
    normgrad::GradBetaProblem p;
    p.rows = 70;
    p.cols = 40;
    p.dy = dy.data();
    p.res = res.data();
    p.pd_gamma = g.data();
    p.pd_beta = b.data();
    p.order = impl.order;
    p.isa = impl.isa.c_str();
    ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
    EXPECT_EQ(normgrad::LastRunInfo().impl, impl.name);
    EXPECT_EQ(g, want_g);
    EXPECT_EQ(b, want_b);
  }
  std::vector<float> g(40), b(40);
  normgrad::GradBetaProblem p;
  p.rows = 1;
  p.cols = 40;
  p.dy = dy.data();
  p.res = res.data();
  p.pd_gamma = g.data();
  p.pd_beta = b.data();
  p.isa = "avx9";
  const normgrad::Status s = normgrad::LayerNormGradBeta(p);
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("LayerNormGradBeta: isa: unknown implementation 'avx9'"));
  EXPECT_THAT(s.message(), HasSubstr("valid names: "));
}

TEST(Dispatch, SmallProblemsStayOnOneThread) {
  EXPECT_EQ(normgrad::ThreadsFor(64 * 64 * 8, 8), 1);
  EXPECT_EQ(normgrad::ThreadsFor(size_t{64} << 20, 2), 2);
  EXPECT_EQ(normgrad::ThreadsFor(size_t{64} << 20, 1), 1);
}

normgrad::Status RunEdited(void (*edit)(normgrad::GradBetaProblem&)) {
  static std::vector<float> x(64), g(8), b(8);
  normgrad::GradBetaProblem p;
  p.rows = 8;
  p.cols = 8;
  p.dy = x.data();
  p.res = x.data();
  p.pd_gamma = g.data();
  p.pd_beta = b.data();
  edit(p);
  return normgrad::LayerNormGradBeta(p);
}

TEST(EngineErrors, NameTheArgumentValueAndRule) {
  auto s = RunEdited([](normgrad::GradBetaProblem& p) { p.cols = 0; });
  EXPECT_THAT(s.message(), HasSubstr("LayerNormGradBeta: cols is 0"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.row_stride = 4; });
  EXPECT_THAT(s.message(), HasSubstr("row_stride 4 is less than cols 8"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.dy = nullptr; });
  EXPECT_THAT(s.message(), HasSubstr("dy is null"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.pd_beta = p.pd_gamma; });
  EXPECT_THAT(s.message(), HasSubstr("same buffer"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.threads = -1; });
  EXPECT_THAT(s.message(), HasSubstr("threads -1 is negative"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.rows = size_t{1} << 62; });
  EXPECT_THAT(s.message(), HasSubstr("overflows"));
  s = RunEdited([](normgrad::GradBetaProblem& p) { p.order = static_cast<normgrad::Order>(5); });
  EXPECT_THAT(s.message(), HasSubstr("LayerNormGradBeta: order 5 is not sequential or blocked"));
}

TEST(EngineErrors, ArgumentErrorsAreInvalidArgumentNotOutOfMemory) {
  const auto s = RunEdited([](normgrad::GradBetaProblem& p) { p.cols = 0; });
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.code(), normgrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(RunEdited([](normgrad::GradBetaProblem&) {}).code(), normgrad::StatusCode::kOk);
  // An error made without a code is an argument error.
  EXPECT_EQ(normgrad::Status::Error("x").code(), normgrad::StatusCode::kInvalidArgument);
  EXPECT_EQ(normgrad::Status::OutOfMemory("x").code(), normgrad::StatusCode::kOutOfMemory);
}

TEST(EngineErrors, OutputsUntouchedOnError) {
  std::vector<float> x(64), g(8, 7.0f), b(8, 7.0f);
  normgrad::GradBetaProblem p;
  p.rows = 8;
  p.cols = 8;
  p.row_stride = 2;
  p.dy = x.data();
  p.res = x.data();
  p.pd_gamma = g.data();
  p.pd_beta = b.data();
  EXPECT_FALSE(normgrad::LayerNormGradBeta(p).ok());
  EXPECT_EQ(g, std::vector<float>(8, 7.0f));
  EXPECT_EQ(b, std::vector<float>(8, 7.0f));
}

TEST(Engine, ZeroRowsGiveZeroSums) {
  // 20000 columns: more than one column strip, with null inputs.
  for (size_t cols : {8, 20000}) {
    std::vector<float> g(cols, 7.0f), b(cols, 7.0f);
    normgrad::GradBetaProblem p;
    p.rows = 0;
    p.cols = cols;
    p.pd_gamma = g.data();
    p.pd_beta = b.data();
    for (auto order : {normgrad::Order::kSequential, normgrad::Order::kBlocked}) {
      for (int threads : {1, 2}) {
        p.order = order;
        p.threads = threads;
        std::fill(g.begin(), g.end(), 7.0f);
        std::fill(b.begin(), b.end(), 7.0f);
        ASSERT_TRUE(normgrad::LayerNormGradBeta(p).ok());
        EXPECT_EQ(g, std::vector<float>(cols, 0.0f));
        EXPECT_EQ(b, std::vector<float>(cols, 0.0f));
      }
    }
  }
}

}  // namespace

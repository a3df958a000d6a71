// accuracy_ledger.h — the compat tests' check of an output against its
// float64 reference and the bound docs/numerics.md derives for it, which
// also keeps the worst error seen per label (an API, its type and the
// output). When the test program ends it prints one line per label:
//
//   accuracy: RmsNorm<half> y: worst |error| 0.21 of the bound (...)
//
// so a run gives each API's measured accuracy next to its derived bound
// (docs/numerics.md, "Accuracy of the Normalization APIs, measured"); the check
// itself fails like ASSERT_LE would.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace compat_test {

class AccuracyLedger : public ::testing::Environment {
 public:
  struct Worst {
    double share = 0;  // |error| / bound
    double error = 0;
    double bound = 0;
    uint64_t values = 0;
  };

  static AccuracyLedger& Get() {
    static AccuracyLedger* ledger = [] {
      auto* l = new AccuracyLedger;  // owned by GoogleTest once added
      ::testing::AddGlobalTestEnvironment(l);
      return l;
    }();
    return *ledger;
  }

  void Note(const std::string& label, double error, double bound) {
    Worst& w = worst_[label];
    ++w.values;
    const double share = bound > 0 ? error / bound : (error > 0 ? INFINITY : 0);
    if (w.values == 1 || share > w.share) {
      w.share = share;
      w.error = error;
      w.bound = bound;
    }
  }

  void TearDown() override {
    for (const auto& [label, w] : worst_) {
      std::printf(
          "accuracy: %s: worst |error| %.3g of the bound (%.3g against a bound "
          "of "
          "%.3g; %llu values)\n",
          label.c_str(), w.share, w.error, w.bound,
          static_cast<unsigned long long>(w.values));
    }
  }

 private:
  std::map<std::string, Worst> worst_;
};

// |got - ref| <= bound, noted in the ledger under `label`. Use as
// ASSERT_TRUE(WithinBound(label, got, ref, bound)) << where;
inline ::testing::AssertionResult WithinBound(const std::string& label,
                                              double got, double ref,
                                              double bound) {
  const double error = std::fabs(got - ref);
  AccuracyLedger::Get().Note(label, error, bound);
  if (error <= bound) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << label << ": got " << got << ", reference " << ref << ", |error| "
         << error << " > bound " << bound;
}

}  // namespace compat_test

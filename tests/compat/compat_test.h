// compat_test.h — helpers shared by the compat tests: asserting a
// KernelError's message, and switching the product profile for one scope.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "kernel_operator.h"

namespace compat_test {

// Runs f; succeeds when it throws normgrad_ascendc::KernelError whose
// message contains `expected`. Use as EXPECT_TRUE(FailsWith([&] {...}, "…")).
template <typename F>
::testing::AssertionResult FailsWith(F&& f, const std::string& expected) {
  try {
    f();
  } catch (const normgrad_ascendc::KernelError& e) {
    const std::string message = e.what();
    if (message.find(expected) != std::string::npos) {
      return ::testing::AssertionSuccess();
    }
    return ::testing::AssertionFailure()
           << "message\n  \"" << message << "\"\nlacks\n  \"" << expected
           << "\"";
  }
  return ::testing::AssertionFailure()
         << "no KernelError; expected one with \"" << expected << "\"";
}

// Sets the process profile for the scope's lifetime, then restores it.
class ProfileScope {
 public:
  explicit ProfileScope(normgrad_ascendc::Profile profile)
      : previous_(normgrad_ascendc::CurrentProfile()) {
    normgrad_ascendc::SetProfile(profile);
  }
  ~ProfileScope() { normgrad_ascendc::SetProfile(previous_); }
  ProfileScope(const ProfileScope&) = delete;
  ProfileScope& operator=(const ProfileScope&) = delete;

 private:
  normgrad_ascendc::Profile previous_;
};

}  // namespace compat_test

// tiling_test_util.h — helpers shared by the *_tiling_test.cc files: a
// kernel struct full of garbage, the parameterized tables' test names, and
// the check of a one-line stderr message.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace tiling_test {

// A kernel struct with every byte non-zero, as if it held an earlier tiling.
template <typename KernelTiling>
KernelTiling Garbage() {
  KernelTiling t;
  std::memset(static_cast<void*>(&t), 0xA5, sizeof(t));
  return t;
}

// Test names for the parameterized tables: each row's `name`.
template <typename Case>
std::string CaseName(const testing::TestParamInfo<Case>& param_info) {
  return param_info.param.name;
}

// `err` is one line naming `function` and containing every `must_contain`.
inline void ExpectOneMessage(const std::string& err, const char* function,
                             const std::vector<std::string>& must_contain) {
  EXPECT_NE(err.find(function), std::string::npos) << err;
  for (const std::string& s : must_contain) {
    EXPECT_NE(err.find(s), std::string::npos)
        << "missing \"" << s << "\" in " << err;
  }
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
}

}  // namespace tiling_test

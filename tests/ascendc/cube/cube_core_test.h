// cube_core_test.h — what the cube instruction tests share: the fixture
// that runs each test as block 0 of 1 of an AIC-only kernel would, on a cube
// core whose registers (img2col, Mmad modes) start unset, giving the vector
// task type back afterwards (CubeCoreTest); the same on the Ascend 950
// profile (Cube950Test); a pipe with one buffer at each cube position a
// test names (cube_test::CubeBuffers); a row of a table of rule cases
// (cube_test::RuleCase).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/profile.h"

class CubeCoreTest : public testing::Test {
 protected:
  void SetUp() override {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  }
  void TearDown() override { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY); }
};

// On the 950 profile from before SetUp to after TearDown; the profile before
// it is given back. A test may switch to another profile inside (to see a
// 950 form refused elsewhere); that too is undone.
class Cube950Test : public CubeCoreTest {
 private:
  compat_test::ProfileScope profile_{normgrad_ascendc::Profile::k950};
};

namespace cube_test {

// One pipe and one buffer at each cube position named at construction, of
// the size given, initialized in the order given (A1 and B1 share L1, so
// the first of them named is at its start):
//   CubeBuffers buf({{TPosition::A1, 4096}, {TPosition::A2, 2048}});
//   LocalTensor<half> a1 = buf.Get<half>(TPosition::A1);
// A position not named fails the test.
class CubeBuffers {
 public:
  using TPosition = AscendC::TPosition;

  CubeBuffers(std::initializer_list<std::pair<TPosition, uint32_t>> sizes) {
    for (const auto& [position, bytes] : sizes) {
      Visit(position, [&](auto& buf) {
        pipe_.InitBuffer(buf, bytes);
        views_.emplace_back(position, buf.template Get<uint8_t>().view());
      });
    }
  }
  CubeBuffers(const CubeBuffers&) = delete;
  CubeBuffers& operator=(const CubeBuffers&) = delete;

  // The whole buffer at `position`, as TBuf::Get<T>() gives it.
  template <typename T>
  AscendC::LocalTensor<T> Get(TPosition position) const {
    for (const auto& [at, view] : views_) {
      if (at == position) return AscendC::LocalTensor<T>(view);
    }
    ADD_FAILURE() << "CubeBuffers: no buffer was named at position "
                  << static_cast<int>(position);
    return AscendC::LocalTensor<T>();
  }

 private:
  template <typename F>
  void Visit(TPosition position, F&& f) {
    switch (position) {
      case TPosition::A1:
        return f(a1_);
      case TPosition::B1:
        return f(b1_);
      case TPosition::A2:
        return f(a2_);
      case TPosition::B2:
        return f(b2_);
      case TPosition::CO1:
        return f(co1_);
      case TPosition::C1:
        return f(c1_);
      case TPosition::C2:
        return f(c2_);
      case TPosition::C2PIPE2GM:
        return f(fixpipe_);
      default:
        ADD_FAILURE() << "CubeBuffers: no buffer kept at position "
                      << static_cast<int>(position);
    }
  }

  AscendC::TPipe pipe_;
  AscendC::TBuf<TPosition::A1> a1_;
  AscendC::TBuf<TPosition::B1> b1_;
  AscendC::TBuf<TPosition::A2> a2_;
  AscendC::TBuf<TPosition::B2> b2_;
  AscendC::TBuf<TPosition::CO1> co1_;
  AscendC::TBuf<TPosition::C1> c1_;
  AscendC::TBuf<TPosition::C2> c2_;
  AscendC::TBuf<TPosition::C2PIPE2GM> fixpipe_;
  std::vector<std::pair<TPosition, normgrad_ascendc::TensorView>> views_;
};

// One case of a table of rules: the call's parameters and the rule its
// message states (a loop over the table checks each with FailsWith, whose
// failure prints the message it expected).
template <typename Params>
struct RuleCase {
  Params params;
  const char* rule;
};

}  // namespace cube_test

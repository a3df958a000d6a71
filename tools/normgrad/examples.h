// tools/normgrad/examples.h — the documented examples `normgrad example` runs:
// each API family lists its examples in its example_<family>.cc; example.cc
// collects them (AllExampleOps) and runs the one --op names.
#pragma once

#include <string>
#include <vector>

namespace normgrad::cli {

// One API's documented example.
struct ExampleOp {
  const char* key;  // the --op value
  const char* api;  // "LayerNormGradBeta"
  // Runs the example on the current emulated core, prints the inputs'
  // description, the results and each difference from the documented
  // values; returns whether every result is the documented one. A
  // KernelError propagates to the command.
  bool (*run)();
};

// The families' examples, each in its example_<family>.cc.
std::vector<ExampleOp> LayerNormExampleOps();
std::vector<ExampleOp> GroupNormExampleOps();
std::vector<ExampleOp> BatchNormExampleOps();
std::vector<ExampleOp> RmsNormExampleOps();
std::vector<ExampleOp> NormalizeExampleOps();
std::vector<ExampleOp> DeepNormExampleOps();
std::vector<ExampleOp> WelfordExampleOps();

std::vector<ExampleOp> AllExampleOps();
std::vector<std::string> ExampleOpKeys();

}  // namespace normgrad::cli

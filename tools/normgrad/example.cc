// tools/normgrad/example.cc — `normgrad example`: runs the documented example
// of the API --op names (the families' lists in examples.h) on the current
// emulated core and profile, and exits 1 when a result differs from the
// documented one or the kernel API reports an error.
#include <cstdio>
#include <string>
#include <vector>

#include "commands.h"
#include "examples.h"
#include "kernel_operator.h"

namespace normgrad::cli {

std::vector<ExampleOp> AllExampleOps() {
  std::vector<ExampleOp> ops;
  for (auto family :
       {LayerNormExampleOps, GroupNormExampleOps, BatchNormExampleOps, RmsNormExampleOps,
        NormalizeExampleOps, DeepNormExampleOps, WelfordExampleOps}) {
    for (const ExampleOp& op : family()) ops.push_back(op);
  }
  return ops;
}

std::vector<std::string> ExampleOpKeys() {
  std::vector<std::string> keys;
  for (const ExampleOp& op : AllExampleOps()) keys.push_back(op.key);
  return keys;
}

int RunExample(const ExampleOptions& options) {
  constexpr const char* kCommand = "example";
  for (const ExampleOp& op : AllExampleOps()) {
    if (options.op != op.key) continue;
    try {
      const normgrad_ascendc::ProfileInfo& profile =
          normgrad_ascendc::GetProfileInfo(normgrad_ascendc::CurrentProfile());
      std::printf(
          "normgrad example: the documented %s example through the Ascend C API, "
          "profile %s (%s)\n",
          op.api, profile.key, profile.name);
      return op.run() ? 0 : 1;
    } catch (const normgrad_ascendc::KernelError& e) {
      return Fail(kCommand, std::string("kernel error: ") + e.what());
    }
  }
  return Fail(kCommand, "--op " + options.op + " is not known");
}

}  // namespace normgrad::cli

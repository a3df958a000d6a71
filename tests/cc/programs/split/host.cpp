// split/host.cpp — the host half of a two-file program: it launches the
// kernel of kernel.asc through the generated aclrtlaunch_fill_steps.h and
// prints "split launch: ok" when every block wrote its value.
#include "acl/acl.h"
#include "aclrtlaunch_fill_steps.h"

int main() {
  constexpr uint32_t kBlocks = 5;
  uint32_t out[kBlocks] = {};
  const uint32_t status = ACLRT_LAUNCH_KERNEL(fill_steps)(kBlocks, nullptr, out, 3u);
  bool ok = status == 0;
  for (uint32_t b = 0; b < kBlocks; ++b) ok = ok && out[b] == b * 3 + kBlocks;
  std::printf(ok ? "split launch: ok\n" : "split launch: FAILED\n");
  return ok ? 0 : 1;
}

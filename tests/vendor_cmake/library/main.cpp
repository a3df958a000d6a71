// main.cpp — forms (c) and (d) of the vendor-CMake tests: the host program
// launches the kernel of the ascendc_library() through the generated header.
#include "aclrtlaunch_add_custom.h"
#include "add_custom_host.h"

const char* add_custom_build();  // add_custom.asc

int main() {
  std::printf("kernels built as %s\n", add_custom_build());
  return RunAddCustom("library",
                      [](uint32_t numBlocks, void* stream, uint8_t* x, uint8_t* y, uint8_t* z) {
                        ACLRT_LAUNCH_KERNEL(add_custom)(numBlocks, stream, x, y, z);
                      });
}

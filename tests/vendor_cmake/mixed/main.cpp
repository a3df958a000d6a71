// main.cpp — form (b) of the vendor-CMake tests: host code compiled by the
// C++ compiler, calling add_custom_do() of add_custom.asc, which launches the
// kernel with <<<numBlocks, 0, stream>>>.
#include "add_custom_host.h"

void add_custom_do(uint32_t numBlocks, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);

int main() { return RunAddCustom("mixed", add_custom_do); }

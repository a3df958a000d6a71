// lib/matmul/matmul_intf.h — the Matmul object's header by its other
// documented path (docs/matmul.md); the same as lib/matmul_intf.h.
#pragma once

#include "lib/matmul_intf.h"

// lib/sort/sort_apis.h — the kernel-side Sort family (docs/sort.md lists
// them), for kernel_operator.h.
#pragma once

#include "lib/sort/concat.h"
#include "lib/sort/extract.h"
#include "lib/sort/mrg_sort.h"
#include "lib/sort/sort.h"
#include "lib/sort/topk.h"

// lib/reduce/reduce_apis.h — the kernel-side Reduce APIs (docs/reduce.md
// lists them), for kernel_operator.h.
#pragma once

#include "lib/reduce/mean.h"
#include "lib/reduce/reduce_all.h"
#include "lib/reduce/reduce_any.h"
#include "lib/reduce/reduce_max.h"
#include "lib/reduce/reduce_mean.h"
#include "lib/reduce/reduce_min.h"
#include "lib/reduce/reduce_prod.h"
#include "lib/reduce/reduce_sum.h"
#include "lib/reduce/reduce_xor_sum.h"
#include "lib/reduce/sum.h"

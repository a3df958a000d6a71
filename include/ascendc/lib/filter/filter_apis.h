// lib/filter/filter_apis.h — the Filter, Index and Random advanced APIs
// (docs/filter.md), one include for kernel_operator.h.
#pragma once

#include "lib/filter/dropout.h"
#include "lib/filter/select.h"
#include "lib/index/arange.h"
#include "lib/random/philox_random.h"

// lib/quant/quant_apis.h — the kernel-side Quantization APIs (docs/quant.md
// lists them), for kernel_operator.h.
#pragma once

#include "lib/quant/antiquantize.h"
#include "lib/quant/ascend_antiquant.h"
#include "lib/quant/ascend_dequant.h"
#include "lib/quant/ascend_quant.h"
#include "lib/quant/dequantize.h"
#include "lib/quant/quantize.h"

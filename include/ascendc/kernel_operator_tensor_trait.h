// kernel_operator_tensor_trait.h — the path the documentation gives for
// TensorTrait (normgrad_ascendc/runtime/tensor_trait.h).
#pragma once

#include "normgrad_ascendc/runtime/tensor_trait.h"

// kernel_operator_list_tensor_intf.h — the path the documentation gives for
// ListTensorDesc and TensorDesc (normgrad_ascendc/runtime/list_tensor_desc.h).
#pragma once

#include "normgrad_ascendc/runtime/list_tensor_desc.h"

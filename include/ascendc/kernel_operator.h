// kernel_operator.h — the Ascend C kernel umbrella header (docs/runtime.md,
// "Headers"): what kernel code expects after `#include "kernel_operator.h"`:
// the C/C++ headers programs rely on without including them, qualifiers and
// constants, half/bfloat16_t, positions, LocalTensor, GlobalTensor,
// TPipe/TQue/TBuf, PopStackBuffer, DataCopy, the basic vector operations and
// pipe synchronization, ShapeInfo/DataFormat, block index/count, the
// normalization APIs and their kernel tiling structs; and for the host part of
// the program the launcher (LaunchKernel, what `<<<...>>>` becomes) and the
// CPU-debug launch (ICPU_RUN_KF, GmAlloc, GmFree). Kernel errors:
// normgrad_ascendc/runtime/core.h.
// Tiling in the kernel (GET_TILING_DATA…, TILING_KEY_IS): kernel_tiling.h.
// Workspace (GetSysWorkSpacePtr, GetUserWorkspace): workspace.h.
// Sub-blocks (GetSubBlockIdx, GetTaskRatio): sub_block.h.
// CeilDivision: ceil_division.h.
// data_copy_pad.h: DataCopyPad and SetPadValue.
// data_copy_params.h: the data-movement parameter structs.
// list_tensor_desc.h: ListTensorDesc and TensorDesc.
// local_mem_allocator.h: LocalMemAllocator, InitSocState, GetUBSizeInBytes.
// vector_unit.h: the vector unit's repeats, strides (UnaryRepeatParams,
// BinaryRepeatParams) and mask register (SetMaskCount, SetVectorMask, ...).
// atomic.h: atomic writes into GM (SetAtomicAdd and the like, AtomicAdd ...).
// block_sync.h: synchronization between blocks (SyncAll, IBSet/IBWait,
// GroupBarrier, ...).
// sys_var.h: block_idx, block_num, g_coreType, ASC_UB_SIZE, GetRuntimeUBSize.
// utils.h: DivCeil, AscendCUtils. type_traits.h: AscendC::Std traits,
// Conditional, IsSameType. ctrl_spr.h: SetCtrlSpr/GetCtrlSpr/ResetCtrlSpr.
// cache.h: DataCacheCleanAndInvalid, DataCachePreload.
// vector_bilinear.h: BilinearInterpolation. vector_padding.h: VectorPadding.
// scalar.h: GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit,
// GetSFFValue, Nop, the bfloat16_t scalar Cast. numeric_limits.h:
// NumericLimits. system_query.h: GetVecLen, GetDataBlockSizeInBytes,
// GetArchVersion, GetProgramCounter, GetSsbufBaseAddr, GetSpr/ClearSpr, Async.
// debug.h: printf, KERNEL_LOG, the asserts, DumpTensor, Trap (its printf and
// assert macros come last, so no header here is affected by them).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lib/activation/adjust_softmax_res.h"
#include "lib/activation/geglu.h"
#include "lib/activation/gelu.h"
#include "lib/activation/logsoftmax.h"
#include "lib/activation/reglu.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmaxflash.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/activation/softmaxflashv3.h"
#include "lib/activation/softmaxgrad.h"
#include "lib/activation/swiglu.h"
#include "lib/activation/swish.h"
#include "lib/filter/filter_apis.h"
#include "lib/math/math_apis.h"
#include "lib/math/math_binary_apis.h"
#include "lib/normalization/batchnorm.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/groupnorm.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "lib/normalization/normalize.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/normalization/welfordfinalize.h"
#include "lib/normalization/welfordupdate.h"
#include "lib/quant/quant_apis.h"
#include "lib/reduce/reduce_apis.h"
#include "lib/sort/sort_apis.h"
#include "lib/transform/transform_apis.h"
#include "normgrad_ascendc/cube/cube_aipp.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_bit_mode.h"
#include "normgrad_ascendc/cube/cube_gm_l1_950.h"
#include "normgrad_ascendc/cube/cube_img2col.h"
#include "normgrad_ascendc/cube/cube_l1_moves.h"
#include "normgrad_ascendc/cube/cube_load_950.h"
#include "normgrad_ascendc/cube/cube_load_transpose.h"
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/cube/cube_mx.h"
#include "normgrad_ascendc/cube/cube_out_950.h"
#include "normgrad_ascendc/cube/cube_res_group.h"
#include "normgrad_ascendc/cube/cube_sparse.h"
#include "normgrad_ascendc/cube/cube_tensor_trait.h"
#include "normgrad_ascendc/lib/normalization/layernorm_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernormgrad_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/lib/normalization/welfordfinalize_tiling.h"
#include "normgrad_ascendc/lib/normalization/welfordupdate_tiling.h"
#include "normgrad_ascendc/runtime/cache.h"
#include "normgrad_ascendc/runtime/ceil_division.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/cpu_debug.h"
#include "normgrad_ascendc/runtime/ctrl_spr.h"
#include "normgrad_ascendc/runtime/data_copy.h"
#include "normgrad_ascendc/runtime/data_copy_pad.h"
#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/float8.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/int4.h"
#include "normgrad_ascendc/runtime/launch.h"
#include "normgrad_ascendc/runtime/layout.h"
#include "normgrad_ascendc/runtime/list_tensor_desc.h"
#include "normgrad_ascendc/runtime/local_mem_allocator.h"
#include "normgrad_ascendc/runtime/numeric_limits.h"
#include "normgrad_ascendc/runtime/pipe.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/scalar.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/sub_block.h"
#include "normgrad_ascendc/runtime/sync.h"
#include "normgrad_ascendc/runtime/sys_var.h"
#include "normgrad_ascendc/runtime/system_query.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"
#include "normgrad_ascendc/runtime/type_traits.h"
#include "normgrad_ascendc/runtime/utils.h"
#include "normgrad_ascendc/runtime/workspace.h"
#include "normgrad_ascendc/tiling/kernel_tiling.h"
#include "normgrad_ascendc/vector/vector_bilinear.h"
#include "normgrad_ascendc/vector/vector_compound.h"
#include "normgrad_ascendc/vector/vector_convert.h"
#include "normgrad_ascendc/vector/vector_layout.h"
#include "normgrad_ascendc/vector/vector_math.h"
#include "normgrad_ascendc/vector/vector_operators.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_padding.h"
#include "normgrad_ascendc/vector/vector_reduce.h"
#include "normgrad_ascendc/vector/vector_select.h"
#include "normgrad_ascendc/vector/vector_sort.h"
#include "normgrad_ascendc/vector/vector_unit.h"

// Last, in a block of their own: debug.h defines the printf and assert
// macros, which no header above may see.
#include "normgrad_ascendc/runtime/atomic.h"
#include "normgrad_ascendc/runtime/block_sync.h"
#include "normgrad_ascendc/runtime/debug.h"

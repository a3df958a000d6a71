// normgrad_ascendc/runtime/qualifiers.h — kernel qualifiers, macros, kernel
// types and constants of Ascend C (docs/runtime.md, "Qualifiers, macros and
// constants"). On the CPU the qualifiers expand to nothing, so kernels are
// ordinary C++ functions; except __cube__ and __mix__, which place the kernel
// in a section of its own (normgrad_cube_kernels; normgrad_mix11_kernels and
// normgrad_mix12_kernels for __mix__(1, 1) and __mix__(1, 2)) so that a
// launch can tell the kind and run its blocks on cube cores or on cube and
// vector cores together (launch.h, cube/cube_memory.h). __mix__(0, 1) is a
// vector kernel and __mix__(1, 0) a cube kernel; other counts do not compile.
#pragma once

#include <cstdint>

#define __global__
#define __aicore__
#define __vector__
#define __cube__ __attribute__((section("normgrad_cube_kernels")))
#define __gm__
#define __ubuf__
#define __mix__(cube_cores, vector_cores) \
  NORMGRAD_MIX_QUALIFIER_##cube_cores##_##vector_cores
#define NORMGRAD_MIX_QUALIFIER_0_1
#define NORMGRAD_MIX_QUALIFIER_1_0 __cube__
#define NORMGRAD_MIX_QUALIFIER_1_1 \
  __attribute__((section("normgrad_mix11_kernels")))
#define NORMGRAD_MIX_QUALIFIER_1_2 \
  __attribute__((section("normgrad_mix12_kernels")))

/// A kernel parameter pointing into global memory.
#define GM_ADDR __gm__ uint8_t*

namespace normgrad_ascendc {
/// KERNEL_TASK_TYPE_DEFAULT's effect on the current core
/// (cube/cube_memory.cc): KERNEL_TYPE_AIC_ONLY and KERNEL_TYPE_MIX_AIC_1_0
/// make it a cube core, KERNEL_TYPE_AIV_ONLY and KERNEL_TYPE_MIX_AIV_1_0 a
/// vector core; KERNEL_TYPE_MIX_AIC_1_1 and _1_2 run the launch on cube and
/// vector cores together (launch.h: DeclareMixedKernel); the others change
/// nothing.
void DeclareKernelType(int type);
}  // namespace normgrad_ascendc

/// Declares the kernel's core type: the block's core becomes a cube or a
/// vector core (DeclareKernelType).
#define KERNEL_TASK_TYPE_DEFAULT(type) \
  ::normgrad_ascendc::DeclareKernelType(static_cast<int>(type))

/// The core types a kernel can be declared for (KERNEL_TASK_TYPE_DEFAULT).
enum KernelMetaType : uint8_t {
  KERNEL_TYPE_AIV_ONLY,
  KERNEL_TYPE_AIC_ONLY,
  KERNEL_TYPE_MIX_AIV_1_0,
  KERNEL_TYPE_MIX_AIC_1_0,
  KERNEL_TYPE_MIX_AIC_1_1,
  KERNEL_TYPE_MIX_AIC_1_2,
  KERNEL_TYPE_AICORE,
  KERNEL_TYPE_VECTORCORE,
  KERNEL_TYPE_MIX_AICORE,
  KERNEL_TYPE_MIX_VECTOR_CORE,
  KERNEL_TYPE_MAX,
};

namespace AscendC {

inline constexpr uint8_t B16_BYTE_SIZE = 2;  ///< bytes of a 16-bit type
/// Multiples of a stack buffer that temporary-size computations use.
inline constexpr uint32_t TWO_OF_STACK_BUFFER = 2;
inline constexpr uint32_t THREE_OF_STACK_BUFFER = 3;
inline constexpr int32_t ONE_BLK_SIZE = 32;  ///< bytes of a UB block
inline constexpr int32_t ONE_REPEAT_BYTE_SIZE =
    256;  ///< bytes of a vector repeat
inline constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;  ///< blocks between repeats
inline constexpr int32_t MAX_REPEAT_TIMES = 255;

}  // namespace AscendC

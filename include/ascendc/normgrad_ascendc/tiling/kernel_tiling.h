// normgrad_ascendc/tiling/kernel_tiling.h — how a kernel reads its tiling and
// its tiling key (docs/program-surface.md, "Tiling in the kernel"):
// GET_TILING_DATA, GET_TILING_DATA_WITH_STRUCT, GET_TILING_DATA_MEMBER,
// GET_TILING_DATA_PTR_WITH_STRUCT, COPY_TILING_WITH_STRUCT,
// COPY_TILING_WITH_ARRAY, REGISTER_TILING_DEFAULT,
// REGISTER_TILING_FOR_TILINGKEY, REGISTER_NONE_TILING, TILING_KEY_IS,
// TILING_KEY_LIST, KERNEL_TASK_TYPE, and the CPU-debug ICPU_SET_TILING_KEY.
//
// The tiling argument is the GM pointer the host passed, holding the bytes it
// saved: a plain struct's bytes, or what a BEGIN_TILING_DATA_DEF class's
// SaveToBuffer wrote. The macros copy them into a variable of the kernel
// (sizeof(struct) bytes, or the class's GetDataSize()); a null tiling pointer
// is a kernel error naming the macro and the user's line.
//
// The default structure of GET_TILING_DATA. On the device the build knows
// the structure registered for the operator; here it is, in this order:
//   - the struct named by REGISTER_TILING_DEFAULT earlier in the same kernel
//     body (a block-scope declaration that hides every other one);
//   - else the class of the last REGISTER_TILING_DATA_CLASS before the kernel
//     in the translation unit (found in namespace optiling or the kernel's
//     own namespace);
//   - else GET_TILING_DATA does not compile, with a message saying what to
//     register (also after REGISTER_NONE_TILING, which the documentation
//     does not allow with GET_TILING_DATA).
//
// The tiling key. A launch has no tiling key argument on the CPU, so the key
// is process-wide: ICPU_SET_TILING_KEY(key) sets it for the launches after
// it (of every launch form), and the environment variable
// NORMGRAD_TILING_KEY gives it when the program never sets it; else it is 0.
// TILING_KEY_IS(k) compares it with k; when nothing set the key, the first
// TILING_KEY_IS says so once on stderr, since a kernel whose branches all
// test other keys then does nothing.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/tiling/tiling_data.h"

namespace optiling {

/// What the default-structure lookup finds when nothing is registered.
struct NoDefaultTilingRegistered {};
/// What it finds after REGISTER_NONE_TILING.
struct NoneTilingRegistered {};

/// The lowest-ranked candidate of the lookup: no registration.
NoDefaultTilingRegistered NormgradDefaultTiling(TilingRank<0>);

}  // namespace optiling

namespace normgrad_ascendc {

/// Copies the tiling bytes at `tiling` into `dst` (see the file comment);
/// `api` names the macro for the error of a null pointer.
template <typename T>
void LoadTiling(T& dst, const void* tiling, const char* api,
                CallSite site = {}) {
  const ApiCall call(site);
  static_assert(!std::is_same_v<T, optiling::NoDefaultTilingRegistered>,
                "GET_TILING_DATA: no default tiling structure is registered: "
                "write REGISTER_TILING_DEFAULT(YourStruct) in the kernel "
                "first, or register a BEGIN_TILING_DATA_DEF class with "
                "REGISTER_TILING_DATA_CLASS before the kernel, or use "
                "GET_TILING_DATA_WITH_STRUCT(YourStruct, var, tiling)");
  static_assert(!std::is_same_v<T, optiling::NoneTilingRegistered>,
                "GET_TILING_DATA: REGISTER_NONE_TILING registers no default "
                "tiling structure; use GET_TILING_DATA_WITH_STRUCT, "
                "GET_TILING_DATA_MEMBER or GET_TILING_DATA_PTR_WITH_STRUCT");
  if (tiling == nullptr) {
    Fail(
        "%s: the tiling argument is null: it must point to the tiling data "
        "the host saved",
        api);
  }
  if constexpr (std::is_base_of_v<optiling::TilingDef, T>) {
    dst.LoadFromBuffer(tiling);
  } else {
    static_assert(std::is_trivially_copyable_v<T>,
                  "GET_TILING_DATA: a tiling structure must be a plain "
                  "struct (trivially copyable) or a BEGIN_TILING_DATA_DEF "
                  "class");
    std::memcpy(static_cast<void*>(&dst), tiling, sizeof(T));
  }
}

/// The tiling structure `src` refers to, as a T: a pointer to a T, an object
/// (a member of a tiling structure), or a pointer to other bytes (read as a
/// T). COPY_TILING_WITH_STRUCT.
template <typename T, typename S>
T TilingValue(const S& src, CallSite site = {}) {
  const ApiCall call(site);
  if constexpr (std::is_pointer_v<S>) {
    if (src == nullptr) Fail("COPY_TILING_WITH_STRUCT: src_ptr is null");
    using Pointee = std::remove_cv_t<std::remove_pointer_t<S>>;
    if constexpr (std::is_same_v<Pointee, T>) {
      return T(*src);
    } else {
      T value;
      LoadTiling(value, static_cast<const void*>(src),
                 "COPY_TILING_WITH_STRUCT");
      return value;
    }
  } else {
    return T(src);
  }
}

/// Sets the process's tiling key (ICPU_SET_TILING_KEY). 0 and negative keys
/// are accepted with a warning on stderr, as the CPU-debug library does.
void SetTilingKey(int64_t key);

/// TILING_KEY_IS(key): whether the tiling key is `key`.
bool TilingKeyIs(uint64_t key);

}  // namespace normgrad_ascendc

/// Marks pointers GET_TILING_DATA_PTR_WITH_STRUCT returns; nothing on the CPU.
#define __tiling_data_ptr__

/// Declares `tiling_data` of the default tiling structure and fills it from
/// `tiling_arg` (see the file comment).
#define GET_TILING_DATA(tiling_data, tiling_arg)               \
  decltype(NormgradDefaultTiling(                              \
      ::optiling::TilingRank<__COUNTER__ + 1>{})) tiling_data; \
  ::normgrad_ascendc::LoadTiling(tiling_data, tiling_arg, "GET_TILING_DATA")

/// Declares `tiling_data` of type `struct_name` and fills it.
#define GET_TILING_DATA_WITH_STRUCT(struct_name, tiling_data, tiling_arg) \
  struct_name tiling_data;                                                \
  ::normgrad_ascendc::LoadTiling(tiling_data, tiling_arg,                 \
                                 "GET_TILING_DATA_WITH_STRUCT")

/// Declares `tiling_data` as the member `mem_name` of the `struct_name`
/// tiling.
#define GET_TILING_DATA_MEMBER(struct_name, mem_name, tiling_data, tiling_arg) \
  static_assert(!std::is_array_v<decltype(struct_name::mem_name)>,             \
                "GET_TILING_DATA_MEMBER: " #mem_name                           \
                " is an array; use "                                           \
                "GET_TILING_DATA_PTR_WITH_STRUCT and COPY_TILING_WITH_ARRAY"); \
  auto tiling_data = [&] {                                                     \
    struct_name normgrad_whole_tiling;                                         \
    ::normgrad_ascendc::LoadTiling(normgrad_whole_tiling, tiling_arg,          \
                                   "GET_TILING_DATA_MEMBER");                  \
    return normgrad_whole_tiling.mem_name;                                     \
  }()

/// Declares `dst_ptr`, a `tiling_struct*` to a copy of the tiling in the
/// enclosing scope (valid until the scope ends).
#define GET_TILING_DATA_PTR_WITH_STRUCT(tiling_struct, dst_ptr, tiling_ptr) \
  tiling_struct normgrad_tiling_##dst_ptr;                                  \
  ::normgrad_ascendc::LoadTiling(normgrad_tiling_##dst_ptr, tiling_ptr,     \
                                 "GET_TILING_DATA_PTR_WITH_STRUCT");        \
  tiling_struct* dst_ptr = &normgrad_tiling_##dst_ptr

/// Declares `dst_ptr`, a `tiling_struct*` to a copy (in the enclosing scope)
/// of the structure src_ptr refers to (a pointer, or a member of a tiling).
#define COPY_TILING_WITH_STRUCT(tiling_struct, src_ptr, dst_ptr) \
  tiling_struct normgrad_tiling_##dst_ptr =                      \
      ::normgrad_ascendc::TilingValue<tiling_struct>(src_ptr);   \
  tiling_struct* dst_ptr = &normgrad_tiling_##dst_ptr

/// Declares `dst_ptr`, an `arr_type (*)[arr_count]` to a copy (in the
/// enclosing scope) of the first arr_count elements at src_ptr.
#define COPY_TILING_WITH_ARRAY(arr_type, arr_count, src_ptr, dst_ptr) \
  arr_type normgrad_tiling_##dst_ptr[arr_count];                      \
  std::memcpy(normgrad_tiling_##dst_ptr, src_ptr,                     \
              sizeof(arr_type) * (arr_count));                        \
  arr_type(*dst_ptr)[arr_count] = &normgrad_tiling_##dst_ptr

/// Makes TILING_STRUCT the default structure of GET_TILING_DATA in the rest
/// of the enclosing block.
#define REGISTER_TILING_DEFAULT(TILING_STRUCT) \
  TILING_STRUCT NormgradDefaultTiling(::optiling::TilingRank<__COUNTER__ + 1>)

/// Registers the structure of the tiling keys EXPRESSION (a string such as
/// "TILING_KEY_VAR == 1") selects, for the device's framework; the kernel
/// reads it with GET_TILING_DATA_WITH_STRUCT, so on the CPU this only checks
/// that TILING_STRUCT is a complete type.
#define REGISTER_TILING_FOR_TILINGKEY(EXPRESSION, TILING_STRUCT)     \
  static_assert(sizeof(TILING_STRUCT) > 0 && sizeof(EXPRESSION) > 0, \
                "REGISTER_TILING_FOR_TILINGKEY")

/// Says the kernel registers no structure: GET_TILING_DATA is then a
/// compile error, the _WITH_STRUCT/_MEMBER/_PTR forms work.
#define REGISTER_NONE_TILING                              \
  ::optiling::NoneTilingRegistered NormgradDefaultTiling( \
      ::optiling::TilingRank<__COUNTER__ + 1>)

/// Whether the tiling key is `key` (see the file comment).
#define TILING_KEY_IS(key) (::normgrad_ascendc::TilingKeyIs(key))

/// Whether the tiling key is `key1` or `key2`.
#define TILING_KEY_LIST(key1, key2)         \
  (::normgrad_ascendc::TilingKeyIs(key1) || \
   ::normgrad_ascendc::TilingKeyIs(key2))

/// Declares the core type of the kernel's branch for tiling key `key`; a
/// statement that does nothing on the CPU (normgrad runs vector cores).
#define KERNEL_TASK_TYPE(key, type) \
  (static_cast<void>(key), static_cast<void>(type))

/// Sets the tiling key of the launches that follow (CPU debugging).
#define ICPU_SET_TILING_KEY(tilingKey) \
  ::normgrad_ascendc::SetTilingKey(static_cast<int64_t>(tilingKey))

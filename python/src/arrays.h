// python/src/arrays.h — how the extension module reads the arrays it is
// given (numpy arrays, torch tensors: anything nanobind imports through the
// buffer protocol or DLPack): the element type, and the rows of a matrix
// whose last axis holds H contiguous elements while the other axes collapse
// into rows a fixed number of elements apart (C-contiguous or row-strided).
// Such arrays are used where they lie, never copied; any other layout is
// refused with a ValueError that says what to pass instead.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <initializer_list>
#include <string>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::python {

namespace nb = nanobind;

/// A CPU array of any type and shape; read-only access suffices for inputs.
using Input = nb::ndarray<nb::ro, nb::device::cpu>;
/// A CPU array the engine writes: one the Python layer has just allocated, or
/// a caller's out= array whose writability the Python layer has checked. It
/// is imported as a read-only one all the same: for a writable import
/// nanobind first asks for a versioned DLPack capsule, which numpy 1.x
/// refuses with a TypeError before giving the plain one, and that exception
/// costs about 0.3 µs per array, a tenth of a small call. Target() gives the
/// address the engine writes.
using Output = nb::ndarray<nb::ro, nb::device::cpu>;

/// Where the engine writes `out` (Output says why it is imported read-only).
inline void* Target(const Output& out) { return const_cast<void*>(out.data()); }

/// An array seen as `rows` rows of `cols` elements, `row_stride` apart.
struct Rows {
  const void* data = nullptr;
  DType dtype = DType::kF32;
  size_t rows = 0;
  size_t cols = 0;
  size_t row_stride = 0;
};

/// The engine type of an array element type, if it has one (TypeOf below).
bool TypeOf(const nb::dlpack::dtype& t, bool marked_bf16, DType* out);

/// The engine type of `a`: float32, float16, bfloat16, or uint16 when
/// `marked_bf16` says the 16-bit patterns are bfloat16. Any other type raises
/// TypeError naming `api`, the argument `name` and the type.
DType TypeOf(const char* api, const char* name, const Input& a, bool marked_bf16);

/// `a` as rows (it must have at least one axis). Raises ValueError for
/// layouts the engine cannot read in place; an array without rows has no
/// layout to check.
Rows RowsOf(const char* api, const char* name, const Input& a, bool marked_bf16);

/// Checks that `a` holds exactly `count` contiguous elements of `dtype`;
/// `why` ends the TypeError's message ("the type of the other inputs").
void CheckVector(const char* api, const char* name, const Input& a, bool marked_bf16, DType dtype,
                 size_t count, const char* why);

/// The start of a message about argument `name` of `api`: "api: name ".
std::string Prefix(const char* api, const char* name);

/// Text of an array element type as numpy names it: "float64", "int32".
std::string TypeText(const nb::dlpack::dtype& t);

/// Text of a shape, as Python writes a tuple: "(8, 64)", "(64,)".
std::string ShapeText(const Input& a);

/// An array of a call, by the name its messages give it.
struct Named {
  const char* name;
  const Input* array;
};

/// Checks that no output shares memory with an input or with another output:
/// the engine reads its inputs while it writes, and writes each output once.
/// Two arrays are taken to share memory when the bytes between their lowest
/// and highest elements overlap (as numpy.may_share_memory), so interleaved
/// row-strided arrays count as sharing. Raises ValueError naming both.
void CheckApart(const char* api, std::initializer_list<Named> outputs,
                std::initializer_list<Named> inputs);

/// Raises the Python exception for a failed engine status: MemoryError when
/// scratch could not be allocated, ValueError for a broken argument rule;
/// the message is the engine's.
void RaiseIfFailed(const Status& status);

/// "blocked" or "sequential" as an Order; anything else raises ValueError.
Order OrderOf(const char* api, const std::string& order);

}  // namespace normgrad::python

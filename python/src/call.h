// python/src/call.h — one call of a public function of the package, from
// its Python arguments to the arrays the engine reads and writes: the inputs
// as given (what is neither a numpy array nor a torch tensor as a float32
// numpy array), the bfloat16 marking, and the outputs: new arrays of the
// first input's kind (numpy or torch), allocated here by that library's own
// allocator, or the caller's out= arrays, checked for what only this layer
// sees (a tuple of the right length, the inputs' kind, writable). The
// functions in module.cc then check types, shapes and layouts (arrays.h).
//
// Everything here runs on every call of every function, so each step is
// the cheapest that says the same thing; python/bench/call_overhead.py times
// a call, and python/tests/test_call_path.py counts what it does.
#pragma once

#include <nanobind/nanobind.h>

#include <cstddef>
#include <initializer_list>

#include "arrays.h"

namespace normgrad::python {

/// An argument of a call by the name its messages give it.
struct Argument {
  const char* name;
  nb::handle value;
};

class Call {
 public:
  static constexpr size_t kMaxInputs = 5;

  /// Reads `inputs` (at most kMaxInputs). `dtype` is the call's dtype=
  /// argument: None, or "bfloat16" to mark uint16 arrays as bfloat16 bits;
  /// an ml_dtypes.bfloat16 numpy array among the first `marking` inputs
  /// marks them too. Raises ValueError for another dtype, TypeError for an
  /// input that is no array normgrad can read.
  Call(const char* api, std::initializer_list<Argument> inputs, size_t marking, nb::handle dtype)
      : Call(api, inputs.begin(), inputs.size(), marking, dtype) {}
  Call(const char* api, const Argument* inputs, size_t count, size_t marking, nb::handle dtype);

  const char* api() const { return api_; }
  bool marked() const { return marked_; }
  /// Whether the outputs are torch tensors (the first input is one).
  bool torch() const { return arrays_[0].is_tensor(); }
  const Input& operator[](size_t i) const { return arrays_[i]; }
  /// Input i as the Python object read (after any conversion).
  nb::handle object(size_t i) const { return objects_[i]; }

  /// Input i flattened to one axis as numpy.reshape(-1) or
  /// Tensor.reshape(-1) flattens it (read in place when its elements lie in
  /// C order, else a copy), for per-row statistics given in x's leading
  /// shape.
  void Flatten(size_t i);

  /// The caller's out= (`names`, one per output, in order) read into
  /// `outputs`, or false when out is None. Raises TypeError or ValueError
  /// naming the entry when out is not a tuple of as many arrays of the
  /// inputs' kind, each writable (a numpy array's writeable flag; a torch
  /// tensor must not require grad, since the engine writes outside
  /// autograd).
  bool Given(nb::handle out, std::initializer_list<const char*> names, Output* outputs) const;

  /// A new array of the first input's kind, type and shape whose rows lie
  /// `rows.row_stride` elements apart, as the first input's (y, dx: the
  /// engine writes them with its one row stride).
  nb::object NewRows(const Rows& rows) const;
  /// A new float32 array of the first input's shape without its last axis
  /// (mean, rstd).
  nb::object NewStatistics() const;
  /// A second new array as `first`, a new output of this call (rstd beside
  /// mean, pd_beta beside pd_gamma): torch.empty_like costs less than
  /// torch.empty with a shape and a type.
  nb::object NewAs(nb::handle first) const;
  /// A new array of input i's kind, type and shape, C-contiguous (input i
  /// is a contiguous vector of the first input's type: dgamma like gamma).
  nb::object NewLike(size_t i) const;
  /// A new vector of `cols` elements of `dtype` (the framework's type object).
  nb::object NewVector(size_t cols, nb::handle dtype) const;

 private:
  const char* api_;
  size_t count_ = 0;
  bool marked_ = false;
  nb::object objects_[kMaxInputs];
  Input arrays_[kMaxInputs];
};

/// Where the engine writes a new output of a Call.
void* DataOf(nb::handle fresh);

/// The name of a numpy or torch element type as this package writes it
/// ("float32", "bfloat16"): a torch dtype without "torch.", anything else
/// as numpy.dtype(t).name.
std::string TypeName(nb::handle t);

/// repr(o).
std::string Repr(nb::handle o);

}  // namespace normgrad::python

// python/src/call.cc — the arguments and outputs of one call (call.h).
#include "call.h"

#include <Python.h>

#include <nanobind/stl/string.h>

#include <stdexcept>
#include <string>

namespace normgrad::python {
namespace {

constexpr const char* kBfloat16 = "bfloat16";

// type(o).__name__.
std::string TypeNameOf(nb::handle o) {
  return nb::cast<std::string>(
      nb::handle(reinterpret_cast<PyObject*>(Py_TYPE(o.ptr()))).attr("__name__"));
}

bool IsNumpy(nb::handle o) { return PyObject_TypeCheck(o.ptr(), NumpyModule().ndarray); }

bool IsTensor(nb::handle o) {
  const Torch* torch = TorchIfImported();
  return torch != nullptr && PyObject_TypeCheck(o.ptr(), torch->tensor);
}

nb::object Checked(PyObject* o) {
  if (o == nullptr) throw nb::python_error();
  return nb::steal(o);
}

// numpy.empty(shape, dtype).
nb::object NumpyEmpty(nb::handle shape, nb::handle dtype) {
  PyObject* args[] = {shape.ptr(), dtype.ptr()};
  return Checked(PyObject_Vectorcall(NumpyModule().empty.ptr(), args, 2, nullptr));
}

// torch.empty(shape, dtype=dtype).
nb::object TorchEmpty(nb::handle shape, nb::handle dtype) {
  const Torch& torch = *TorchIfImported();
  PyObject* args[] = {shape.ptr(), dtype.ptr()};
  return Checked(PyObject_Vectorcall(torch.empty.ptr(), args, 1, torch.dtype_keyword.ptr()));
}

nb::object TorchEmptyLike(nb::handle like) {
  return Checked(PyObject_CallOneArg(TorchIfImported()->empty_like.ptr(), like.ptr()));
}

// The first `n` axes of `a`'s shape, as a tuple.
nb::object ShapeTuple(const Array& a, size_t n) {
  nb::object t = Checked(PyTuple_New(static_cast<Py_ssize_t>(n)));
  for (size_t i = 0; i < n; ++i) {
    PyTuple_SET_ITEM(t.ptr(), i, Checked(PyLong_FromSize_t(a.shape(i))).release().ptr());
  }
  return t;
}

// Why `a`, which ReadArray could not read, is no array normgrad reads: a
// numpy array by its element type as numpy names it (object, str32), as
// TypeOf refuses any other type.
[[noreturn]] void RefuseUnreadable(const char* api, const char* name, nb::handle a,
                                   bool marked_bf16) {
  if (IsTensor(a)) {
    throw nb::type_error((Prefix(api, name) +
                          "is a torch tensor whose attributes (layout, is_cpu, is_neg(), dtype, "
                          "shape, is_contiguous(), stride(), data_ptr()) cannot be read")
                             .c_str());
  }
  std::string type;
  try {
    type = nb::cast<std::string>(a.attr("dtype").attr("name"));
  } catch (const std::exception&) {
    PyErr_Clear();
    type = TypeNameOf(a);
  }
  RefuseType(api, name, type, marked_bf16);
}

}  // namespace

std::string Repr(nb::handle o) { return nb::cast<std::string>(Checked(PyObject_Repr(o.ptr()))); }

std::string TypeName(nb::handle t) {
  const Torch* torch = TorchIfImported();
  if (torch != nullptr && PyObject_TypeCheck(t.ptr(), Py_TYPE(torch->float32.ptr()))) {
    std::string name = Str(t);
    return name.rfind("torch.", 0) == 0 ? name.substr(6) : name;
  }
  return nb::cast<std::string>(NumpyModule().dtype(t).attr("name"));
}

Call::Call(const char* api, const Argument* inputs, size_t count, size_t marking, nb::handle dtype)
    : api_(api), count_(count) {
  if (count > kMaxInputs) throw std::logic_error("normgrad: a call of more than five arrays");
  // Lists of numbers and other sequences have no element type: float32.
  for (size_t i = 0; i < count; ++i) {
    nb::handle a = inputs[i].value;
    if (IsNumpy(a) || IsTensor(a)) {
      objects_[i] = nb::borrow(a);
    } else {
      PyObject* args[] = {a.ptr(), NumpyModule().float32.ptr()};
      objects_[i] = Checked(PyObject_Vectorcall(NumpyModule().asarray.ptr(), args, 2, nullptr));
    }
  }
  if (!dtype.is_none()) {
    nb::str bfloat16(kBfloat16);
    const int other = PyObject_RichCompareBool(dtype.ptr(), bfloat16.ptr(), Py_NE);
    if (other < 0) throw nb::python_error();
    if (other) {
      throw nb::value_error((std::string(api) + ": dtype " + Repr(dtype) +
                             " is not known; the only marking is dtype=\"bfloat16\", for uint16 "
                             "arrays that hold bfloat16 bits")
                                .c_str());
    }
    marked_ = true;
  }
  for (size_t i = 0; i < count; ++i) {
    if (!ReadArray(objects_[i], &arrays_[i])) {
      RefuseUnreadable(api, inputs[i].name, objects_[i], marked_);
    }
    if (i < marking && arrays_[i].bfloat16_bits()) marked_ = true;
  }
}

void Call::Flatten(size_t i) {
  if (arrays_[i].FlattenInPlace()) return;
  nb::object flat = objects_[i].attr("reshape")(-1);
  if (!ReadArray(flat, &arrays_[i])) throw nb::python_error();
  objects_[i] = std::move(flat);
}

bool Call::Given(nb::handle out, std::initializer_list<const char*> names, Output* outputs) const {
  if (out.is_none()) return false;
  std::string list;
  for (const char* n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  if (!PyTuple_CheckExact(out.ptr())) {
    throw nb::type_error((std::string(api_) + ": out is " + TypeNameOf(out) +
                          "; it must be a tuple of " + std::to_string(names.size()) + " arrays (" +
                          list + ")")
                             .c_str());
  }
  const size_t n = static_cast<size_t>(PyTuple_GET_SIZE(out.ptr()));
  if (n != names.size()) {
    throw nb::value_error((std::string(api_) + ": out has " + std::to_string(n) +
                           " entries; it must have " + std::to_string(names.size()) +
                           ", one per output (" + list + ")")
                              .c_str());
  }
  const bool torch = this->torch();
  size_t i = 0;
  for (const char* name : names) {
    nb::handle o = PyTuple_GET_ITEM(out.ptr(), i);
    const std::string entry =
        std::string(api_) + ": out[" + std::to_string(i) + "] (" + name + ") ";
    if (torch ? !IsTensor(o) : !IsNumpy(o)) {
      throw nb::type_error((entry + "is " + TypeNameOf(o) +
                            (torch ? "; the inputs are torch tensors, so it must be a torch tensor"
                                   : "; the inputs are numpy arrays, so it must be a numpy array"))
                               .c_str());
    }
    if (torch) {
      const Torch& t = *TorchIfImported();
      nb::object requires_grad = Checked(t.requires_grad.Read(o.ptr(), t.Direct(o.ptr())));
      if (PyObject_IsTrue(requires_grad.ptr())) {
        throw nb::value_error((entry +
                               "requires grad; normgrad writes outside autograd, so pass "
                               "out[" +
                               std::to_string(i) + "].detach() (the same memory)")
                                  .c_str());
      }
    } else {
      const Numpy& numpy = NumpyModule();
      nb::object flags = Checked(PyObject_GetAttr(o.ptr(), numpy.flags.ptr()));
      nb::object writeable = Checked(PyObject_GetAttr(flags.ptr(), numpy.writeable.ptr()));
      if (!PyObject_IsTrue(writeable.ptr())) {
        throw nb::value_error((entry + "is read-only; it must be writable").c_str());
      }
    }
    ++i;
  }
  i = 0;
  for (const char* name : names) {
    nb::handle o = PyTuple_GET_ITEM(out.ptr(), i);
    const std::string entry = "out[" + std::to_string(i) + "] (" + name + ")";
    if (!ReadArray(o, &outputs[i])) RefuseUnreadable(api_, entry.c_str(), o, marked_);
    ++i;
  }
  return true;
}

nb::object Call::NewRows(const Rows& rows) const {
  nb::handle x = objects_[0];
  const bool torch = this->torch();
  if (rows.row_stride == rows.cols) {
    // Rows H elements apart: C-contiguous, or laid out as such (axes of
    // length one may have any stride), as torch.empty_like keeps a dense
    // tensor's strides; numpy.empty gives the base class, not a subclass.
    if (torch) return TorchEmptyLike(x);
    return NumpyEmpty(x.attr("shape"), x.attr("dtype"));
  }
  // A padded buffer's first H columns, in x's shape.
  nb::object dtype = x.attr("dtype");
  nb::object padded = nb::make_tuple(rows.rows, rows.row_stride);
  nb::object buffer = torch ? TorchEmpty(padded, dtype) : NumpyEmpty(padded, dtype);
  nb::object columns =
      buffer[nb::make_tuple(nb::slice(nb::none(), nb::none(), nb::none()),
                            nb::slice(nb::int_(0), nb::int_(rows.cols), nb::none()))];
  nb::object shape = ShapeTuple(arrays_[0], arrays_[0].ndim());
  return columns.attr(torch ? "view" : "reshape")(shape);
}

nb::object Call::NewStatistics() const {
  nb::object shape = ShapeTuple(arrays_[0], arrays_[0].ndim() - 1);
  if (torch()) return TorchEmpty(shape, TorchIfImported()->float32);
  return NumpyEmpty(shape, NumpyModule().float32);
}

nb::object Call::NewAs(nb::handle first) const {
  if (torch()) return TorchEmptyLike(first);
  return NumpyEmpty(first.attr("shape"), first.attr("dtype"));
}

nb::object Call::NewLike(size_t i) const {
  if (torch()) return TorchEmptyLike(objects_[i]);
  // numpy: the first input's type object (a uint16 gamma beside an
  // ml_dtypes.bfloat16 x gives bfloat16 outputs, as x's).
  return NumpyEmpty(ShapeTuple(arrays_[i], arrays_[i].ndim()), objects_[0].attr("dtype"));
}

nb::object Call::NewVector(size_t cols, nb::handle dtype) const {
  nb::object shape = Checked(PyTuple_New(1));
  PyTuple_SET_ITEM(shape.ptr(), 0, Checked(PyLong_FromSize_t(cols)).release().ptr());
  return torch() ? TorchEmpty(shape, dtype) : NumpyEmpty(shape, dtype);
}

void* DataOf(nb::handle fresh) {
  if (IsTensor(fresh)) {
    const Torch& t = *TorchIfImported();
    nb::object p = Checked(t.data_ptr.Read(fresh.ptr(), t.Direct(fresh.ptr())));
    void* data = PyLong_AsVoidPtr(p.ptr());
    if (PyErr_Occurred()) throw nb::python_error();
    return data;
  }
  Array a;
  if (!ReadArray(fresh, &a)) throw nb::type_error("normgrad: a new output could not be read");
  return const_cast<void*>(a.data());
}

}  // namespace normgrad::python

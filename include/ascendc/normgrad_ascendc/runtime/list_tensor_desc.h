// normgrad_ascendc/runtime/list_tensor_desc.h — ListTensorDesc and TensorDesc
// (docs/runtime.md, "Memory and queues"): the description of a list of
// tensors in global memory that dynamic-input kernels receive.
//
// The layout, in 64-bit words from `data`: word 0 is ptrOffset, the byte
// offset of the data pointers; then one description per tensor — a word with
// the dimension count in its low 32 bits and the tensor's index in its high
// 32 bits, then one word per dimension — up to ptrOffset; then one data
// pointer per tensor. GetSize() counts the descriptions. `length` (bytes)
// and `shapeSize` (pointers), when given, are checked against the layout; an
// index past the list is a KernelError.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/global_tensor.h"
#include "normgrad_ascendc/runtime/qualifiers.h"

namespace AscendC {

/// One tensor of a ListTensorDesc: dimensions, index, shape, data.
template <typename T = void>
class TensorDesc {
 public:
  TensorDesc() = default;
  ~TensorDesc() = default;

  /// Where GetDesc stores the shape (room for the tensor's dimensions).
  void SetShapeAddr(uint64_t* shapePtr) { shape_ = shapePtr; }
  uint64_t GetDim() { return dim_; }
  uint64_t GetIndex() { return index_; }
  /// The size of dimension `offset`.
  uint64_t GetShape(uint32_t offset) {
    if (offset >= dim_) {
      normgrad_ascendc::Fail(
          "TensorDesc::GetShape: offset %u is past the tensor's %llu "
          "dimensions",
          offset, static_cast<unsigned long long>(dim_));
    }
    return shape_[offset];
  }
  T* GetDataPtr() { return static_cast<T*>(data_); }
  /// The data as a GlobalTensor of unknown size.
  GlobalTensor<T> GetDataObj() {
    GlobalTensor<T> tensor;
    tensor.SetGlobalBuffer(GetDataPtr());
    return tensor;
  }

  /// normgrad: filled by ListTensorDesc::GetDesc.
  void Fill(uint64_t dim, uint64_t index, const uint64_t* shape, void* data) {
    if (shape_ == nullptr) {
      normgrad_ascendc::Fail(
          "ListTensorDesc::GetDesc: the TensorDesc has no shape address "
          "(call SetShapeAddr first)");
    }
    dim_ = dim;
    index_ = index;
    for (uint64_t i = 0; i < dim; ++i) shape_[i] = shape[i];
    data_ = data;
  }

 private:
  uint64_t dim_ = 0;
  uint64_t index_ = 0;
  uint64_t* shape_ = nullptr;
  void* data_ = nullptr;
};

class ListTensorDesc {
 public:
  ListTensorDesc() = default;
  ListTensorDesc(__gm__ void* data, uint32_t length = 0xffffffff,
                 uint32_t shapeSize = 0xffffffff) {
    Init(data, length, shapeSize);
  }

  /// Reads the layout at `data` (see the file comment).
  void Init(__gm__ void* data, uint32_t length = 0xffffffff,
            uint32_t shapeSize = 0xffffffff,
            normgrad_ascendc::CallSite site = {});

  /// The description of tensor `index`; desc needs a shape address.
  template <typename T>
  void GetDesc(TensorDesc<T>& desc, uint32_t index) {
    const uint64_t* word = Description("GetDesc", index);
    desc.Fill(word[0] & 0xffffffffu, word[0] >> 32, word + 1,
              reinterpret_cast<void*>(Pointer(index)));
  }
  /// The data of tensor `index`.
  template <typename T = void>
  __gm__ T* GetDataPtr(uint32_t index) {
    Description("GetDataPtr", index);
    return reinterpret_cast<T*>(Pointer(index));
  }
  /// The number of tensors.
  uint32_t GetSize() { return count_; }

 private:
  const uint64_t* Description(const char* api, uint32_t index) const;
  uintptr_t Pointer(uint32_t index) const;

  const uint64_t* words_ = nullptr;
  uint64_t ptr_offset_ = 0;
  uint32_t count_ = 0;
};

}  // namespace AscendC

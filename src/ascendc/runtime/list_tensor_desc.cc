// list_tensor_desc.cc — reading a ListTensorDesc's layout
// (normgrad_ascendc/runtime/list_tensor_desc.h).
#include "normgrad_ascendc/runtime/list_tensor_desc.h"

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"

namespace AscendC {

using normgrad_ascendc::Fail;

void ListTensorDesc::Init(__gm__ void* data, uint32_t length,
                          uint32_t shapeSize, normgrad_ascendc::CallSite site) {
  const normgrad_ascendc::ApiCall call(site);
  if (data == nullptr) Fail("ListTensorDesc::Init: data is null");
  words_ = static_cast<const uint64_t*>(data);
  ptr_offset_ = words_[0];
  if (ptr_offset_ % 8 != 0 || ptr_offset_ < 8) {
    Fail(
        "ListTensorDesc::Init: ptrOffset %llu (the first word) is not a "
        "multiple of 8 bytes past the first word",
        static_cast<unsigned long long>(ptr_offset_));
  }
  const uint64_t end = ptr_offset_ / 8;
  count_ = 0;
  for (uint64_t at = 1; at < end; at += 1 + (words_[at] & 0xffffffffu)) {
    ++count_;
  }
  if (length != 0xffffffff && ptr_offset_ + uint64_t{count_} * 8 > length) {
    Fail(
        "ListTensorDesc::Init: %u descriptions and pointers take %llu bytes, "
        "more than length %u",
        count_, static_cast<unsigned long long>(ptr_offset_ + count_ * 8ull),
        length);
  }
  if (shapeSize != 0xffffffff && shapeSize != count_) {
    Fail(
        "ListTensorDesc::Init: the layout describes %u tensors but shapeSize "
        "is %u",
        count_, shapeSize);
  }
}

const uint64_t* ListTensorDesc::Description(const char* api,
                                            uint32_t index) const {
  if (words_ == nullptr) {
    Fail(
        "ListTensorDesc::%s: not initialized (construct it with data or call "
        "Init)",
        api);
  }
  if (index >= count_) {
    Fail("ListTensorDesc::%s: index %u is past the list of %u tensors", api,
         index, count_);
  }
  uint64_t at = 1;
  for (uint32_t i = 0; i < index; ++i) at += 1 + (words_[at] & 0xffffffffu);
  return words_ + at;
}

uintptr_t ListTensorDesc::Pointer(uint32_t index) const {
  return static_cast<uintptr_t>(words_[ptr_offset_ / 8 + index]);
}

}  // namespace AscendC

// normgrad_ascendc/tiling/tiling_data.h — the host tiling-data macros of Ascend
// C host programs (BEGIN_TILING_DATA_DEF, TILING_DATA_FIELD_DEF,
// TILING_DATA_FIELD_DEF_ARR, TILING_DATA_FIELD_DEF_STRUCT,
// END_TILING_DATA_DEF, REGISTER_TILING_DATA_CLASS) and optiling::TilingDef,
// the byte-buffer base class every tiling-data class derives from.
//
// Usage, as Ascend C host programs write it:
//
//   namespace optiling {
//   BEGIN_TILING_DATA_DEF(MyTiling)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//     TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, splits);
//     TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, lngbTiling);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(MyOp, MyTiling)
//   }  // namespace optiling
//
// Layout (the saved bytes, which the kernel reads as a plain struct with the
// same fields in the same order):
//   - a scalar field of type T sits at the next offset that is a multiple of
//     sizeof(T);
//   - an array field of n elements of T sits at the next multiple of
//     sizeof(T) and takes n·sizeof(T) bytes;
//   - a nested struct sits at the next multiple of 8 and takes its own
//     GetDataSize() bytes;
//   - the total, GetDataSize(), is padded with zeros to a multiple of 8.
// This is a plain C++ struct's layout for 1-, 2-, 4- and 8-byte scalars,
// provided the kernel-side struct aligns nested structs to 8 (they are at 8
// naturally when they hold an 8-byte field; otherwise write alignas(8) on the
// member) and reads at most GetDataSize() bytes.
//
// How it works: each object keeps its bytes in a zero-initialized buffer;
// each field macro adds a const member holding the field's offset, computed
// when the object is constructed (members initialize in declaration order, so
// fields are placed in declaration order), plus the accessors. A nested
// struct is an ordinary public member object: once constructed, the parent
// reserves room for its bytes and links it, so its accessors read and write
// the parent's buffer. Copying a tiling object copies the bytes; assigning to
// a nested struct writes into the parent.
//
// The kernel side. On the device the build turns a registered class into a
// plain struct with the same fields, which GET_TILING_DATA fills
// (normgrad_ascendc/tiling/kernel_tiling.h). Here the class serves as that
// struct too: every field is also a public data member of its name
// (`t.totalLength`, `t.splits[i]`, `t.lngbTiling.bsLength`), a copy of the
// saved value that the setters, copies, assignments and LoadFromBuffer keep up
// to date. The bytes stay the truth: the getters and SaveToBuffer read them, so
// host code uses the accessors (a write through an array getter's pointer
// reaches the data member at the next copy or load).
//
// sizeof of every tiling-data class is at least 512 bytes: programs malloc
// sizeof(host class) bytes, SaveToBuffer into them and copy a fixed amount
// (e.g. 400 bytes) out, trusting the class to be at least that large.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "normgrad_ascendc/tiling/round_up.h"

namespace optiling {

/// The base of every tiling-data class: the saved bytes, the layout
/// bookkeeping, GetDataSize and SaveToBuffer. Derived classes are declared
/// with the macros below, not by hand.
class TilingDef {
 public:
  /// The number of bytes SaveToBuffer writes: the fields laid out as the file
  /// comment says, padded to a multiple of 8.
  size_t GetDataSize() const { return ::normgrad_ascendc::RoundUp(end_, 8); }

  /// Copies the GetDataSize() bytes to dst. If dst is null or capacity <
  /// GetDataSize(), copies nothing and prints one line on stderr naming the
  /// class, the sizes and the rule.
  void SaveToBuffer(void* dst, size_t capacity) const {
    if (dst == nullptr) {
      std::fprintf(stderr,
                   "optiling::%s::SaveToBuffer: dst is null: it must point to "
                   "at least %zu bytes; nothing copied.\n",
                   class_name_, GetDataSize());
      return;
    }
    if (capacity < GetDataSize()) {
      std::fprintf(stderr,
                   "optiling::%s::SaveToBuffer: capacity %zu bytes is less "
                   "than GetDataSize() = %zu bytes; nothing copied.\n",
                   class_name_, capacity, GetDataSize());
      return;
    }
    std::memcpy(dst, Bytes(), GetDataSize());
  }

  /// Reads GetDataSize() bytes saved by SaveToBuffer from src into this
  /// object (and so into its data members): what GET_TILING_DATA does with
  /// the kernel's tiling argument. src must not be null.
  void LoadFromBuffer(const void* src) {
    std::memcpy(Bytes(), src, GetDataSize());
    RefreshMembers();
  }

 protected:
  /// An object with no fields yet; class_name (a string literal) is used in
  /// messages.
  explicit TilingDef(const char* class_name) : class_name_(class_name) {}
  TilingDef(const TilingDef&) = delete;
  TilingDef& operator=(const TilingDef&) = delete;
  ~TilingDef() = default;

  /// Places a field of `size` bytes at the next multiple of `alignment` and
  /// returns its offset; `member` is the field's data member, kept equal to
  /// the field's bytes. Called only while the object is being constructed.
  size_t AddField(size_t size, size_t alignment, void* member) {
    const size_t offset = ::normgrad_ascendc::RoundUp(end_, alignment);
    end_ = offset + size;
    own_.resize(GetDataSize(), 0);
    members_.push_back({member, nullptr, offset, size});
    return offset;
  }

  /// Places the (fully constructed) member `child` at the next multiple of 8,
  /// moves its bytes into this object's and links it, so that its accessors
  /// read and write them. Returns the offset.
  size_t AddStruct(TilingDef& child) {
    const size_t offset = ::normgrad_ascendc::RoundUp(end_, 8);
    end_ = offset + child.GetDataSize();
    own_.resize(GetDataSize(), 0);
    members_.push_back({nullptr, &child, offset, child.GetDataSize()});
    std::memcpy(own_.data() + offset, child.Bytes(), child.GetDataSize());
    child.parent_ = this;
    child.offset_in_parent_ = offset;
    std::vector<uint8_t>().swap(child.own_);
    return offset;
  }

  /// Writes the scalar v at `offset` (and so the field's data member).
  template <typename T>
  void Store(size_t offset, T v, T* member) {
    std::memcpy(Bytes() + offset, &v, sizeof(T));
    *member = v;
  }

  /// Writes `size` bytes from src at `offset` (an array field) and its data
  /// member.
  void StoreArray(size_t offset, const void* src, size_t size, void* member) {
    std::memcpy(Bytes() + offset, src, size);
    std::memcpy(member, src, size);
  }

  /// Reads the scalar at `offset`.
  template <typename T>
  T Load(size_t offset) const {
    T v;
    std::memcpy(&v, Bytes() + offset, sizeof(T));
    return v;
  }

  /// The first byte of this object's data: its own buffer, or its place in
  /// the buffer of the object it is nested in.
  uint8_t* Bytes() {
    return parent_ == nullptr ? own_.data()
                              : parent_->Bytes() + offset_in_parent_;
  }
  const uint8_t* Bytes() const {
    return parent_ == nullptr ? own_.data()
                              : parent_->Bytes() + offset_in_parent_;
  }

  /// Copies other's data bytes over this object's (same class, same size).
  void CopyDataFrom(const TilingDef& other) {
    std::memmove(Bytes(), other.Bytes(), GetDataSize());
    RefreshMembers();
  }

 private:
  // A field's data member (or, for a nested struct, the member object) and
  // where its bytes are.
  struct Member {
    void* value;       // a scalar's or an array's data member, else null
    TilingDef* child;  // a nested struct, else null
    size_t offset;
    size_t size;
  };

  // Sets every data member, nested ones too, from the bytes.
  void RefreshMembers() {
    for (const Member& m : members_) {
      if (m.child != nullptr) {
        m.child->RefreshMembers();
      } else {
        std::memcpy(m.value, Bytes() + m.offset, m.size);
      }
    }
  }

  // Keeps sizeof of every tiling-data class ≥ 512 (see the file comment).
  static constexpr size_t kMinClassSize = 512;

  const char* class_name_;
  TilingDef* parent_ = nullptr;  // the object this one is nested in, if any
  size_t offset_in_parent_ = 0;  // where its bytes start in the parent's
  size_t end_ = 0;               // one past the last field's last byte
  std::vector<uint8_t> own_;     // the bytes, unless nested
  std::vector<Member> members_;  // in declaration order
  // Padding only, never read: [[maybe_unused]] keeps clang's -Werror builds
  // of programs that include this header quiet.
  [[maybe_unused]] uint8_t size_floor_[kMinClassSize - sizeof(const char*) -
                                       sizeof(TilingDef*) - 2 * sizeof(size_t) -
                                       sizeof(std::vector<uint8_t>) -
                                       sizeof(std::vector<Member>)] = {};
};

static_assert(sizeof(TilingDef) == 512, "TilingDef is 512 bytes");

}  // namespace optiling

/// Opens the declaration of tiling-data class `class_name` (derived from
/// optiling::TilingDef); close it with `END_TILING_DATA_DEF;`. Copies of an
/// object are standalone and copy its bytes; assignment copies the bytes
/// (into the parent's, for a nested member).
#define BEGIN_TILING_DATA_DEF(class_name)                \
  class class_name : public ::optiling::TilingDef {      \
   public:                                               \
    class_name() : ::optiling::TilingDef(#class_name) {} \
    class_name(const class_name& other) : class_name() { \
      CopyDataFrom(other);                               \
    }                                                    \
    class_name& operator=(const class_name& other) {     \
      CopyDataFrom(other);                               \
      return *this;                                      \
    }

/// A scalar field: `void set_name(type)`, `type get_name() const` and the
/// data member `name`.
#define TILING_DATA_FIELD_DEF(type, name)                                    \
 public:                                                                     \
  type name{};                                                               \
  void set_##name(type value) { Store<type>(name##_offset_, value, &name); } \
  type get_##name() const { return Load<type>(name##_offset_); }             \
                                                                             \
 private:                                                                    \
  const size_t name##_offset_ = AddField(sizeof(type), sizeof(type), &name)

/// An array field of `count` elements: `void set_name(const type* values)`
/// copies `count` elements from values; `get_name()` returns a pointer to the
/// `count` elements inside the object (writes through it change the saved
/// bytes; valid while the object lives); the data member `type name[count]`.
#define TILING_DATA_FIELD_DEF_ARR(type, count, name)                  \
 public:                                                              \
  type name[count] = {};                                              \
  void set_##name(const type* values) {                               \
    StoreArray(name##_offset_, values, sizeof(type) * (count), name); \
  }                                                                   \
  type* get_##name() {                                                \
    return reinterpret_cast<type*>(Bytes() + name##_offset_);         \
  }                                                                   \
  const type* get_##name() const {                                    \
    return reinterpret_cast<const type*>(Bytes() + name##_offset_);   \
  }                                                                   \
                                                                      \
 private:                                                             \
  const size_t name##_offset_ =                                       \
      AddField(sizeof(type) * (count), sizeof(type), name)

/// A nested tiling-data struct, a public member `name` of type struct_type
/// whose setters and getters work on this object's bytes.
#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, name) \
 public:                                                \
  struct_type name;                                     \
                                                        \
 private:                                               \
  const size_t name##_offset_ = AddStruct(name)

/// Closes BEGIN_TILING_DATA_DEF; write a semicolon after it.
#define END_TILING_DATA_DEF }

namespace optiling {

/// Rank of a default-tiling registration: a registration made later in the
/// translation unit has a higher rank, and a lookup takes the highest rank
/// made before it (normgrad_ascendc/tiling/kernel_tiling.h, GET_TILING_DATA).
template <int N>
struct TilingRank : TilingRank<N - 1> {};
template <>
struct TilingRank<0> {};

/// The parameter of a registration that is no operator's default: unrelated
/// to TilingRank, so the lookup never takes it.
template <int N>
struct NotADefaultTiling {};

/// Whether REGISTER_TILING_DATA_CLASS(op_type, class_name) registers an
/// operator's default structure. Not so for the documented special names: a
/// nested structure registered as <class_name>Op, and the structure of one
/// tiling key, <op>_<key>.
constexpr bool IsDefaultRegistration(const char* op_type,
                                     const char* class_name) {
  size_t op = 0;
  while (op_type[op] != '\0') ++op;
  size_t cls = 0;
  while (class_name[cls] != '\0') ++cls;
  bool nested = op == cls + 2 && op_type[cls] == 'O' && op_type[cls + 1] == 'p';
  for (size_t i = 0; nested && i < cls; ++i)
    nested = op_type[i] == class_name[i];
  size_t digits = 0;
  while (digits < op && op_type[op - 1 - digits] >= '0' &&
         op_type[op - 1 - digits] <= '9') {
    ++digits;
  }
  const bool per_key =
      digits > 0 && digits < op && op_type[op - 1 - digits] == '_';
  return !nested && !per_key;
}

/// TilingRank<N> for an operator's default structure, else
/// NotADefaultTiling<N>.
template <bool is_default, int N>
using RegistrationRank =
    std::conditional_t<is_default, TilingRank<N>, NotADefaultTiling<N>>;

}  // namespace optiling

/// Registers tiling-data class `class_name` for operator `op_type`. The
/// default structure of an operator (not a nested <class_name>Op nor a
/// tiling key's <op>_<key> registration) becomes the default structure of the
/// kernels that follow (GET_TILING_DATA; the last such registration before a
/// kernel wins). It checks that class_name is a tiling-data class. A
/// semicolon after it is optional.
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                    \
  static_assert(std::is_base_of<::optiling::TilingDef, class_name>::value, \
                "REGISTER_TILING_DATA_CLASS(" #op_type ", " #class_name    \
                "): " #class_name                                          \
                " must be declared with "                                  \
                "BEGIN_TILING_DATA_DEF");                                  \
  class_name NormgradDefaultTiling(                                        \
      ::optiling::RegistrationRank<::optiling::IsDefaultRegistration(      \
                                       #op_type, #class_name),             \
                                   __COUNTER__ + 1>);

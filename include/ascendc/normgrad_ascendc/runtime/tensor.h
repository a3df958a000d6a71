// normgrad_ascendc/runtime/tensor.h — LocalTensor<T>, a typed view of an
// emulated core's unified buffer (docs/runtime.md, "Positions and tensors").
//
// A LocalTensor is (core, byte offset in the UB, byte length, position).
// Copies are views of the same memory, never deep copies. GetSize() is the
// byte length / sizeof(T). Tensors come from TQue::AllocTensor/DeQue,
// TBuf::Get and PopStackBuffer (pipe.h); index and length errors are
// KernelErrors (core.h).
//
// LocalTensor<TensorTrait<T>> (tensor_trait.h) is a LocalTensor<T> without a
// ShapeInfo: it derives from LocalTensor<T>, so an API reaches its elements
// through normgrad_ascendc::Plain (below); copies and assignments between it
// and a plain tensor are refused at compile time, as the TensorTrait page
// says.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/position.h"
#include "normgrad_ascendc/runtime/shape_info.h"
#include "normgrad_ascendc/runtime/sync_check.h"
#include "normgrad_ascendc/runtime/tensor_trait.h"

namespace normgrad_ascendc {

/// The life of one pipe buffer (a TQue's buffer or a TBuf): its generation
/// grows when the buffer is freed (FreeTensor) or its pipe ends (Destroy,
/// Reset, the destructor), which ends every tensor handed out before.
/// Records live as long as the process (pipe.cc), so a stale tensor can
/// always read its own.
struct BufferLease {
  uint32_t generation = 0;
  char owner[48] =
      "";              ///< the buffer's queue or TBuf, e.g. "TQue<VECIN, 2> #1"
  uint32_t index = 0;  ///< the buffer's number in its queue
  const char* ended_by = "";  ///< the call that ended the last generation
};

/// Reports a tensor used after its buffer was freed (a KernelError naming
/// `api`, the tensor's buffer and the call that ended it).
[[noreturn]] void FailStaleTensor(const char* api, const BufferLease& lease,
                                  uint32_t offset);

/// The untyped part of a LocalTensor: which core's UB, where, how long.
struct TensorView {
  Core* core = nullptr;  ///< null: an empty tensor
  uint32_t offset = 0;   ///< bytes from the start of the UB
  uint32_t bytes = 0;
  AscendC::TPosition position = AscendC::TPosition::VECCALC;
  /// The pipe buffer the tensor came from and its generation then; null for
  /// memory no pipe hands out (PopStackBuffer, LocalMemAllocator, addresses).
  const BufferLease* lease = nullptr;
  uint32_t generation = 0;

  /// The first byte in the emulated UB (null for an empty tensor). The init
  /// check takes the bytes as written by the calling API (sync_check.h).
  uint8_t* data() const {
    if (SyncCheckOn() && !IsCubePosition(position)) NoteUbData(*this);
    return declared_data();
  }
  /// The same pointer for an API that tells the hooks every UB byte it
  /// writes through it (the copies: data_copy.h). A tensor at a cube
  /// position lies in its cube memory (cube/cube_memory.h); the checks and
  /// hooks of the UB do not follow the cube memories.
  uint8_t* declared_data() const {
    if (core == nullptr) return nullptr;
    if (IsCubePosition(position)) {
      return core->cube_memory(CubeMemoryOf(position)) + offset;
    }
    return core->ub() + offset;
  }

  /// Every API that takes a LocalTensor calls this first: a tensor whose
  /// buffer was freed (FreeTensor) or whose pipe ended is a KernelError
  /// naming `api` (e.g. "Add<float>").
  void Check(const char* api) const {
    if (!IsLive()) FailStaleTensor(api, *lease, offset);
  }
  /// Whether Check passes (for callers that name the API only on failure).
  bool IsLive() const {
    return lease == nullptr || lease->generation == generation;
  }

  /// The rule for a UB operand of a data-movement or vector instruction:
  /// live (Check), not empty, and starting at a multiple of 32 bytes; else a
  /// KernelError naming `api` and the operand `which` ("dst", "src0", ...).
  void CheckUbOperand(const char* api, const char* which) const;
  /// Whether CheckUbOperand passes: hot paths test this first and build the
  /// API's name for CheckUbOperand's message only when it fails.
  bool IsUbOperand() const {
    return IsLive() && core != nullptr && offset % 32 == 0 &&
           !IsCubePosition(position);
  }
};

/// A type's name for messages ("float", "half", "uint8_t", ...).
template <typename T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, half>)
    return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return "bfloat16_t";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32_t";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64_t";
  else
    return "T";
}

/// Elements of T that share a byte, for types stored more than one a byte
/// (int4b_t: 2, runtime/int4.h); 0 for the others.
template <typename T>
inline constexpr uint32_t kElementsPerByte = 0;
/// How debug output prints a T: 'f' floating (with %f), 's' signed, 'u'
/// unsigned, 'b' bool.
template <typename T>
constexpr char DumpKind() {
  if constexpr (std::is_same_v<T, bool>) {
    return 'b';
  } else if constexpr (std::is_integral_v<T>) {
    return std::is_signed_v<T> ? 's' : 'u';
  } else {
    return 'f';
  }
}

/// The name debug output gives T ("float32", "int8", ...).
template <typename T>
constexpr const char* DumpTypeName() {
  if constexpr (std::is_same_v<T, half>) return "float16";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
  if constexpr (std::is_same_v<T, float>) return "float32";
  if constexpr (std::is_same_v<T, bool>) return "bool";
  if constexpr (std::is_same_v<T, int8_t>) return "int8";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8";
  if constexpr (std::is_same_v<T, int16_t>) return "int16";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16";
  if constexpr (std::is_same_v<T, int32_t>) return "int32";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  if constexpr (std::is_same_v<T, int64_t>) return "int64";
  if constexpr (std::is_same_v<T, uint64_t>) return "uint64";
  return "unknown";
}

/// LocalTensor::Print: the first `len` of `size` elements at `data`, one
/// 32-byte data block a line (debug.cc).
void PrintTensorBlocks(const char* type_name, char kind, uint64_t ub_offset,
                       const void* data, uint32_t elem_bytes, uint32_t len,
                       uint32_t size);
/// LocalTensor::ToFile: writes `bytes` at `data` to `file_name`; 0 on
/// success, else -1 with the reason on stderr (debug.cc).
int32_t WriteTensorFile(const char* file_name, const void* data,
                        uint64_t bytes);

}  // namespace normgrad_ascendc

namespace AscendC {

/// The type of a LocalTensor's user tag.
using TTagType = int32_t;

template <typename T>
class LocalTensor {
 public:
  static_assert(std::is_trivially_copyable_v<T>,
                "LocalTensor<T>: T must be trivially copyable");

  /// An empty tensor: no memory, size 0.
  LocalTensor() = default;
  /// normgrad: a tensor over an explicit view (pipes, launchers, tests).
  explicit LocalTensor(const normgrad_ascendc::TensorView& view)
      : view_(view) {}
  /// A tensor over a TensorTrait is not copied into a plain one (the
  /// TensorTrait page's constraint); these templates match such a tensor
  /// better than the copy through its base class does, and are refused.
  template <typename U, TPosition pos, typename LayoutType>
  LocalTensor(const LocalTensor<TensorTrait<U, pos, LayoutType>>&) = delete;
  template <typename U, TPosition pos, typename LayoutType>
  LocalTensor& operator=(const LocalTensor<TensorTrait<U, pos, LayoutType>>&) =
      delete;
  /// `tileSize` elements at byte address `addr` of the current core's UB
  /// (static tensor programming, without a TPipe): addr a multiple of 32,
  /// the tensor inside the UB.
  LocalTensor(TPosition pos, uint32_t addr, uint32_t tileSize,
              normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
    const uint64_t bytes = uint64_t{tileSize} * sizeof(T);
    if (normgrad_ascendc::IsCubePosition(pos)) {
      normgrad_ascendc::CheckCubePlacement("LocalTensor(pos, addr, tileSize)",
                                           normgrad_ascendc::TypeName<T>(), pos,
                                           addr, bytes);
      view_ = {&core, addr, static_cast<uint32_t>(bytes), pos};
      return;
    }
    if (addr % 32 != 0) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>(pos, addr, tileSize): addr %u is not a multiple "
          "of 32 bytes (UB addresses are 32-byte aligned)",
          normgrad_ascendc::TypeName<T>(), addr);
    }
    if (addr + bytes > core.ub_size()) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>(pos, addr, tileSize): tileSize %u (%llu bytes) at "
          "addr %u runs past the end of the unified buffer (%u bytes, "
          "profile %s)",
          normgrad_ascendc::TypeName<T>(), tileSize,
          static_cast<unsigned long long>(bytes), addr, core.ub_size(),
          core.profile().name);
    }
    core.Touch(static_cast<uint32_t>(addr + bytes));
    view_ = {&core, addr, static_cast<uint32_t>(bytes), pos};
  }

  /// The whole-tensor operator forms, `dst = src0 + src1`, `dst = src0 <
  /// src1` and the like (vector_operators.h): the instruction runs on this
  /// tensor; the tensor itself stays the same view.
  template <typename Expression,
            typename = std::enable_if_t<Expression::kWholeTensorForm>>
  LocalTensor& operator=(const Expression& expression) {
    expression.AssignTo(*this);
    return *this;
  }

  /// Number of whole elements in the view.
  uint32_t GetSize() const { return view_.bytes / sizeof(T); }

  /// Sets the length to n elements; the view must stay inside the UB.
  void SetSize(uint32_t n, normgrad_ascendc::CallSite site = {}) {
    const normgrad_ascendc::ApiCall call(site);
    const uint64_t bytes = uint64_t{n} * sizeof(T);
    if (view_.core == nullptr) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>::SetSize: the tensor is empty (no "
          "unified-buffer memory); it cannot hold %u elements",
          normgrad_ascendc::TypeName<T>(), n);
    }
    if (view_.offset + bytes > view_.core->ub_size()) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>::SetSize: %u elements (%llu bytes) at UB offset %u "
          "run past the end of the unified buffer (%u bytes, profile %s)",
          normgrad_ascendc::TypeName<T>(), n,
          static_cast<unsigned long long>(bytes), view_.offset,
          view_.core->ub_size(), view_.core->profile().name);
    }
    view_.bytes = static_cast<uint32_t>(bytes);
  }

  /// Sets the length to dataLen elements (as SetSize).
  void SetBufferLen(uint32_t dataLen, normgrad_ascendc::CallSite site = {}) {
    SetSize(dataLen, site);
  }

  /// Makes this tensor the memory of `src` from `offset` elements of src's
  /// type on (to src's end); it ends when src's buffer does.
  template <typename U>
  void SetAddrWithOffset(LocalTensor<U>& src, uint32_t offset) {
    const LocalTensor<U> moved = src[offset];
    view_ = moved.view();
  }

  /// A user tag kept with this tensor object and its copies.
  void SetUserTag(const TTagType tag) { tag_ = tag; }
  TTagType GetUserTag() const { return tag_; }

  /// The view starting `offset` elements further, shorter by as many.
  /// offset == GetSize() gives an empty view at the end; beyond is an error.
  LocalTensor operator[](uint32_t offset) const {
    if (offset > GetSize()) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>::operator[]: offset %u is past the "
          "end of a tensor of %u elements",
          normgrad_ascendc::TypeName<T>(), offset, GetSize());
    }
    normgrad_ascendc::TensorView moved = view_;
    moved.offset += offset * static_cast<uint32_t>(sizeof(T));
    moved.bytes -= offset * static_cast<uint32_t>(sizeof(T));
    return LocalTensor(moved);
  }

  /// The same memory (address and byte length) seen as elements of U.
  template <typename U>
  LocalTensor<U> ReinterpretCast() const {
    return LocalTensor<U>(view_);
  }

  /// Element i; i must be < GetSize().
  T GetValue(uint32_t i, normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("GetValue", i);
    if (normgrad_ascendc::SyncCheckOn()) NoteScalar("GetValue", i, false);
    T value;
    std::memcpy(static_cast<void*>(&value), Element(i), sizeof(T));
    return value;
  }

  /// Sets element i; i must be < GetSize(). (const: tensors are views.)
  void SetValue(uint32_t i, const T& value,
                normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckIndex("SetValue", i);
    if (normgrad_ascendc::SyncCheckOn()) NoteScalar("SetValue", i, true);
    std::memcpy(Element(i), &value, sizeof(T));
  }

  /// Element i itself, to read or to assign (operator() of the page);
  /// i must be < GetSize(). The sync check sees it as a scalar read.
  T& operator()(uint32_t i) const {
    CheckIndex("operator()", i);
    if (normgrad_ascendc::SyncCheckOn()) NoteScalar("operator()", i, false);
    return *reinterpret_cast<T*>(Element(i));
  }

  /// The first element in the emulated UB (null for an empty tensor).
  T* GetPhyAddr(normgrad_ascendc::CallSite site = {}) const {
    const normgrad_ascendc::ApiCall call(site);
    CheckLife("GetPhyAddr");
    return reinterpret_cast<T*>(view_.data());
  }

  TPosition GetPosition() const { return view_.position; }

  /// The length in bytes.
  uint32_t GetLength() const { return view_.bytes; }

  /// Attaches a shape description (kept with this tensor object and its
  /// copies).
  void SetShapeInfo(const ShapeInfo& shapeInfo) { shape_info_ = shapeInfo; }
  /// The shape description SetShapeInfo attached (default: no dimensions).
  ShapeInfo GetShapeInfo() const { return shape_info_; }

  /// normgrad: the untyped view (core, offset, bytes, position).
  const normgrad_ascendc::TensorView& view() const { return view_; }

  /// CPU debugging: prints the tensor's elements (the first len with len),
  /// one 32-byte data block a line.
  void Print() const { Print(GetSize()); }
  void Print(uint32_t len) const {
    CheckLife("Print");
    normgrad_ascendc::PrintTensorBlocks(
        normgrad_ascendc::DumpTypeName<T>(), normgrad_ascendc::DumpKind<T>(),
        view_.offset, view_.data(), sizeof(T), len, GetSize());
  }
  /// CPU debugging: writes the tensor's bytes to fileName (relative to the
  /// working directory); 0 on success, -1 on failure.
  int32_t ToFile(const std::string& fileName) const {
    CheckLife("ToFile");
    return normgrad_ascendc::WriteTensorFile(fileName.c_str(), view_.data(),
                                             view_.bytes);
  }

 private:
  // "LocalTensor<float>::GetValue", for the lifetime message.
  static const char* Api(const char* method) {
    thread_local char name[64];
    std::snprintf(name, sizeof name, "LocalTensor<%s>::%s",
                  normgrad_ascendc::TypeName<T>(), method);
    return name;
  }

  // An ended tensor is an error naming the method (formatted only then).
  void CheckLife(const char* method) const {
    if (view_.lease != nullptr && view_.lease->generation != view_.generation) {
      view_.Check(Api(method));
    }
  }

  void CheckIndex(const char* api, uint32_t i) const {
    CheckLife(api);
    if (i >= GetSize()) {
      normgrad_ascendc::Fail(
          "LocalTensor<%s>::%s: index %u is past the end of a "
          "tensor of %u elements",
          normgrad_ascendc::TypeName<T>(), api, i, GetSize());
    }
  }

  // Tells the sync check of a scalar access of element i (PIPE_S).
  void NoteScalar(const char* method, uint32_t i, bool write) const {
    if (normgrad_ascendc::IsCubePosition(view_.position)) return;
    normgrad_ascendc::NoteTensorAccess(
        normgrad_ascendc::SyncPipe::kS, Api(method), view_,
        uint64_t{i} * sizeof(T), sizeof(T), write, /*exact=*/true);
  }

  // Element i's first byte; after CheckIndex, so the tensor is not empty.
  uint8_t* Element(uint32_t i) const {
    return view_.declared_data() + uint64_t{i} * sizeof(T);
  }

  normgrad_ascendc::TensorView view_;
  ShapeInfo shape_info_;
  TTagType tag_ = 0;
};

/// A tensor over a TensorTrait (LocalTensor<TensorTrait<float>>): the
/// LocalTensor<T> of the trait's element type without a ShapeInfo (no
/// SetShapeInfo/GetShapeInfo). GetSize, GetValue, operator[] and the rest
/// count elements of T; operator[] keeps the trait type.
template <typename T, TPosition pos, typename LayoutType>
class LocalTensor<TensorTrait<T, pos, LayoutType>> : public LocalTensor<T> {
  using Base = LocalTensor<T>;

 public:
  LocalTensor() = default;
  /// normgrad: a tensor over an explicit view (TQue::AllocTensor, DeQue,
  /// TBuf::Get over the trait type).
  explicit LocalTensor(const normgrad_ascendc::TensorView& view) : Base(view) {}
  /// As LocalTensor<T>'s static-tensor constructor.
  LocalTensor(TPosition position, uint32_t addr, uint32_t tileSize,
              normgrad_ascendc::CallSite site = {})
      : Base(position, addr, tileSize, site) {}
  // A copy copies the base subobject as a plain tensor, which the base's
  // own copy takes (its refusal is for a whole trait tensor only); a trait
  // tensor stays trivially copyable, as a plain one is.
  LocalTensor(const LocalTensor&) = default;
  LocalTensor& operator=(const LocalTensor&) = default;

  /// The view starting `offset` elements further, as a trait tensor.
  LocalTensor operator[](uint32_t offset) const {
    return LocalTensor(Base::operator[](offset).view());
  }

  /// Tensors over a TensorTrait carry no ShapeInfo (the page says so).
  void SetShapeInfo(const ShapeInfo&) = delete;
  ShapeInfo GetShapeInfo() const = delete;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The tensor an API computes on: a LocalTensor<TensorTrait<T>> seen as the
/// LocalTensor<T> it is, any other tensor itself. Every public API taking
/// tensors hands them to its body through this, with PrimT<T> as the
/// element type, so that one body serves both.
template <typename T>
const AscendC::LocalTensor<AscendC::PrimT<T>>& Plain(
    const AscendC::LocalTensor<T>& tensor) {
  return tensor;
}

}  // namespace normgrad_ascendc

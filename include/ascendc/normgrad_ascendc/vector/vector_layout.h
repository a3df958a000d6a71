// normgrad_ascendc/vector/vector_layout.h — the vector instructions that fill,
// rearrange, gather and scatter elements in the unified buffer (UB)
// (docs/runtime.md, "Fill, layout, gather and scatter"):
//
//   Duplicate        dst[i] = scalar (or src[0], 950)          count, mask
//   forms CreateVecIndex   dst[i] = firstValue + i                   count,
//   mask forms Brcb             each of 8 source elements per repeat fills one
//   32-byte
//                    block of dst
//   Transpose        a 16×16 matrix of 2-byte elements; NCHW <-> NHWC
//   TransDataTo5HD   16 blocks gathered by address lists: a 16-block
//                    transpose, NCHW to NC1HWC0
//   Gather           dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)]
//   Gatherb          whole 32-byte blocks at byte offsets
//   Scatter          dst[(dstBaseAddr + dstOffset[i]) / sizeof(T)] = src[i]
//   Interleave       pairs of src0 and src1 elements into dst0 then dst1
//   DeInterleave     even and odd elements into dst0 and dst1
//
// The forms with a mask and repeatTime run on the vector unit's executor
// (vector_unit.h): the mask register in normal or counter mode, block and
// repeat strides in 32-byte blocks. In the repeat forms of Duplicate and
// CreateVecIndex lane k of repeat r holds the value element r·lanes + k
// of the count form would hold (lanes = 256 bytes of T).
//
// Element types per profile follow each instruction's page (TypeRule in
// vector_ops.h); a type a profile does not list, an instruction a profile
// does not have, is a KernelError naming the instruction, the type and the
// profile. Offsets of Gather, Gatherb and Scatter are bytes; one that
// leaves its tensor (or is not a multiple of the element size) is a
// KernelError naming the instruction, the lane, the offset and the
// tensor's extent: the device would read or write other memory.
//
// Every API takes a last, defaulted CallSite (core.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_instruction.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_unit.h"

namespace AscendC {

/// Strides of Brcb's destination, in 32-byte blocks; the other fields are
/// reserved.
struct BrcbRepeatParams {
  BrcbRepeatParams() {}
  BrcbRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t src1BlkStride = 1;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

/// Strides of Gatherb's destination, in 32-byte blocks (dstBlkStride 0
/// means 1); the other fields are reserved.
struct GatherRepeatParams {
  GatherRepeatParams() {}
  GatherRepeatParams(uint16_t dstBlkStrideIn, uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = 8;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t src0BlkStride = 1;
  uint16_t src1BlkStride = 1;
  uint16_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint16_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

/// What the extended Transpose does; only TRANSPOSE_TYPE_NONE (nothing),
/// TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW are
/// documented as supported. The advanced Transpose (lib/transform/
/// transpose.h) takes scenarios 1-7 and 13-16 of the same enum.
enum class TransposeType : uint8_t {
  TRANSPOSE_TYPE_NONE,
  TRANSPOSE_NZ2ND_0213,
  TRANSPOSE_NZ2NZ_0213,
  TRANSPOSE_NZ2NZ_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITH_N,
  TRANSPOSE_NZ2ND_012_WITHOUT_N,
  TRANSPOSE_NZ2NZ_012_WITHOUT_N,
  TRANSPOSE_ND2ND_ONLY,
  TRANSPOSE_ND_UB_GM,
  TRANSPOSE_GRAD_ND_UB_GM,
  TRANSPOSE_ND2ND_B16,
  TRANSPOSE_NCHW2NHWC,
  TRANSPOSE_NHWC2NCHW,
  TRANSPOSE_ND2ND_021,
  TRANSPOSE_ND2ND_102,
  TRANSPOSE_ND2ND_210,
  TRANSPOSE_ND2NZ_WITH_INTLV,
};

/// The shape and kind of the extended Transpose.
struct TransposeParamsExt {
  TransposeParamsExt() {}
  TransposeParamsExt(const uint16_t nSizeIn, const uint16_t cSizeIn,
                     const uint16_t hSizeIn, const uint16_t wSizeIn,
                     const TransposeType transposeTypeIn)
      : nSize(nSizeIn),
        cSize(cSizeIn),
        hSize(hSizeIn),
        wSize(wSizeIn),
        transposeType(transposeTypeIn) {}
  uint16_t nSize = 0;
  uint16_t cSize = 0;
  uint16_t hSize = 0;
  uint16_t wSize = 0;
  TransposeType transposeType = TransposeType::TRANSPOSE_ND2ND_B16;
};

/// Entries of TransDataTo5HD's address lists.
inline constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

/// TransDataTo5HD's repeats: repeatTimes, the strides between repeats in
/// 32-byte blocks, and for 1-byte types which half of each 32-byte block is
/// read (srcHighHalf) and written (dstHighHalf).
struct TransDataTo5HDParams {
  TransDataTo5HDParams() {}
  TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn,
                       const uint8_t repeatTimesIn,
                       const uint16_t dstRepStrideIn,
                       const uint16_t srcRepStrideIn)
      : dstHighHalf(dstHighHalfIn),
        srcHighHalf(srcHighHalfIn),
        repeatTimes(repeatTimesIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  bool dstHighHalf = false;
  bool srcHighHalf = false;
  uint8_t repeatTimes = 1;
  uint16_t dstRepStride = 0;
  uint16_t srcRepStride = 0;
};

}  // namespace AscendC

namespace normgrad_ascendc {

// The element types of each instruction, per profile, as documented.
inline constexpr uint32_t kTypes2And4Bytes =
    kTypeInt16 | kTypeUint16 | kTypeHalf | kTypeBfloat16 | kTypeInt32 |
    kTypeUint32 | kTypeFloat;
inline constexpr uint32_t kTypes1And8Bytes =
    kTypeInt8 | kTypeUint8 | kTypeInt64 | kTypeUint64;
inline constexpr TypeRule kDuplicateTypes{kTypes2And4Bytes, kTypes2And4Bytes,
                                          kTypes2And4Bytes, kTypes1And8Bytes};
inline constexpr TypeRule kBrcbTypes{kTypes2And4Bytes,
                                     kTypes2And4Bytes & ~kTypeBfloat16,
                                     kTypes2And4Bytes | kTypes1And8Bytes, 0};
inline constexpr uint32_t kIndexTypes =
    kTypeInt16 | kTypeHalf | kTypeInt32 | kTypeFloat;
inline constexpr TypeRule kCreateVecIndexTypes{
    kIndexTypes, kIndexTypes, kIndexTypes, kTypeInt8 | kTypeInt64};
inline constexpr TypeRule kGatherTypes{
    kTypes2And4Bytes, kTypes2And4Bytes & ~kTypeBfloat16,
    kTypes2And4Bytes | kTypeInt64 | kTypeUint64, kTypeInt8 | kTypeUint8};
inline constexpr TypeRule kGatherbTypes{kTypeUint16 | kTypeUint32, 0,
                                        kTypes2And4Bytes | kTypes1And8Bytes, 0};
inline constexpr TypeRule kScatterTypes{
    0, kTypeUint16 | kTypeHalf | kTypeUint32 | kTypeFloat,
    kTypes2And4Bytes | kTypeInt64 | kTypeUint64, kTypeInt8 | kTypeUint8};
inline constexpr uint32_t kTransposeB16 = kTypeInt16 | kTypeUint16 | kTypeHalf;
inline constexpr TypeRule kTransposeTypes{kTransposeB16, kTransposeB16,
                                          kTransposeB16, 0};
inline constexpr TypeRule kTransposeExtB16Types{kTypeUint16, kTypeUint16,
                                                kTransposeB16, 0};
inline constexpr uint32_t kTypesUpTo4Bytes =
    kTypeInt8 | kTypeUint8 | (kTypes2And4Bytes & ~kTypeBfloat16);
inline constexpr TypeRule kTransposeNchwTypes{
    kTypesUpTo4Bytes, kTypesUpTo4Bytes, kTypesUpTo4Bytes | kTypeBfloat16, 0};
inline constexpr TypeRule kTransDataTo5HDTypes = kTransposeNchwTypes;
inline constexpr TypeRule kInterleaveTypes{
    0, 0, kTypes2And4Bytes | kTypes1And8Bytes, 0};

/// Fills d with n copies of the `bytes` bytes at value (elements of 2 and
/// 4 bytes with the engine's loop of its instruction set).
void FillSpan(void* d, const void* value, uint32_t bytes, uint32_t n);

template <typename T>
void DuplicateSpan(const SpanArgs& a) {
  FillSpan(a.operand[0], a.params, sizeof(T), a.n);
}

/// Duplicate as an instruction of the executor; `value` must outlive it.
template <typename T>
VecInstruction DuplicateInstruction(const AscendC::LocalTensor<T>& dst,
                                    const T& value) {
  VecInstruction in{"Duplicate",
                    TypeName<T>(),
                    LanesOf(sizeof(T)),
                    {{"dst", &dst.view(), sizeof(T)}},
                    1,
                    &DuplicateSpan<T>};
  in.params = &value;
  return in;
}

/// CreateVecIndex's first value.
template <typename T>
struct IndexState {
  T first;
};

/// first + i in T: integers modulo 2^bits, floating types rounded once.
template <typename T>
T IndexValue(T first, uint64_t i) {
  if constexpr (kIsFloatElement<T>) {
    return static_cast<T>(
        static_cast<float>(static_cast<double>(static_cast<float>(first)) +
                           static_cast<double>(i)));
  } else {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(
        static_cast<U>(static_cast<U>(first) + static_cast<U>(i)));
  }
}

template <typename T>
void IndexSpan(const SpanArgs& a) {
  const auto* state = static_cast<const IndexState<T>*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  for (uint32_t i = 0; i < a.n; ++i)
    d[i] = IndexValue(state->first, a.first_lane + i);
}

template <typename T>
VecInstruction IndexInstruction(const AscendC::LocalTensor<T>& dst,
                                const IndexState<T>& state) {
  VecInstruction in{"CreateVecIndex",
                    TypeName<T>(),
                    LanesOf(sizeof(T)),
                    {{"dst", &dst.view(), sizeof(T)}},
                    1,
                    &IndexSpan<T>};
  in.params = &state;
  return in;
}

/// The random-access side of Gather (src) or Scatter (dst): the tensor and
/// the base address.
struct IndexedSide {
  const char* api;
  const char* type;
  const char* offsets;  ///< "srcOffset", "dstOffset"
  const char* tensor;   ///< "src", "dst"
  uint8_t* data;
  uint32_t bytes;
  uint32_t elem_bytes;
  uint32_t base;
  uint64_t max_offset;           ///< the largest offset the profile takes
  const void* values = nullptr;  ///< Scatter: the source lanes
};

/// Byte position of `offset` in the side's tensor for lane `lane`; a
/// KernelError when the element there is not inside the tensor, is not
/// aligned to the element size, or exceeds the profile's offset range
/// (vector_layout.cc).
uint64_t IndexedPosition(const IndexedSide& side, uint64_t lane,
                         uint32_t offset);
/// Whether the same lane's offset is usable (no error for unselected lanes).
bool IndexedFits(const IndexedSide& side, uint32_t offset);

/// operand[0]: n lanes of dst; operand[1]: n offsets.
template <typename T>
void GatherSpan(const SpanArgs& a) {
  const auto* side = static_cast<const IndexedSide*>(a.params);
  T* d = static_cast<T*>(a.operand[0]);
  const uint32_t* off = static_cast<const uint32_t*>(a.operand[1]);
  for (uint32_t i = 0; i < a.n; ++i) {
    if (!a.Selected(i) && !IndexedFits(*side, off[i])) {
      d[i] = T{};
      continue;
    }
    const uint64_t at = IndexedPosition(*side, a.first_lane + i, off[i]);
    std::memcpy(static_cast<void*>(&d[i]), side->data + at, sizeof(T));
  }
}

/// operand[0]: n source lanes (read and written back unchanged); operand[1]:
/// n offsets. Writes the selected lanes to the side's tensor.
template <typename T>
void ScatterSpan(const SpanArgs& a) {
  const auto* side = static_cast<const IndexedSide*>(a.params);
  const T* s = static_cast<const T*>(a.operand[0]);
  const uint32_t* off = static_cast<const uint32_t*>(a.operand[1]);
  for (uint32_t i = 0; i < a.n; ++i) {
    if (!a.Selected(i)) continue;
    const uint64_t at = IndexedPosition(*side, a.first_lane + i, off[i]);
    std::memcpy(side->data + at, &s[i], sizeof(T));
  }
}

/// The largest byte offset Gather and Scatter take for `elem_bytes`-byte
/// elements on the current profile.
uint64_t MaxIndexedOffset(uint32_t elem_bytes);
/// Fails unless `base` is a multiple of the element size and the gathered
/// or scattered tensor does not overlap the other operands.
void CheckIndexedCall(const IndexedSide& side, const TensorView& contiguous,
                      const TensorView& offsets, const char* contiguous_name);

template <typename T>
IndexedSide MakeIndexedSide(const char* api, const char* offsets,
                            const char* tensor,
                            const AscendC::LocalTensor<T>& t, uint32_t base) {
  t.view().CheckUbOperand(api, tensor);
  return {api,
          TypeName<T>(),
          offsets,
          tensor,
          t.view().data(),
          t.view().bytes,
          static_cast<uint32_t>(sizeof(T)),
          base,
          MaxIndexedOffset(sizeof(T))};
}

/// Gather (kScatter false) or Scatter as an instruction of the executor:
/// the contiguous tensor (Gather's dst; Scatter's src, read and written
/// back unchanged) and the offsets walked, the side's tensor read or written
/// at the offsets.
template <bool kScatter, typename T>
VecInstruction IndexedInstruction(const AscendC::LocalTensor<T>& contiguous,
                                  const AscendC::LocalTensor<uint32_t>& offsets,
                                  const IndexedSide& side) {
  const uint32_t lanes = LanesOf(sizeof(T));
  VecInstruction in{side.api,
                    TypeName<T>(),
                    lanes,
                    {{kScatter ? "src" : "dst", &contiguous.view(), sizeof(T)},
                     {side.offsets, &offsets.view(), 4, 1, lanes * 4 / 32}},
                    2,
                    kScatter ? &ScatterSpan<T> : &GatherSpan<T>};
  in.params = &side;
  in.reads_dst = kScatter;
  return in;
}

/// Gather (kScatter false) or Scatter in any form: `indexed` is the tensor
/// read (Gather's src) or written (Scatter's dst) at base + the offsets,
/// `contiguous` the other. Messages name `api` and the offsets operand
/// `offsets_name` (the C API's asc_gather passes its own).
template <bool kScatter, typename T, typename Form>
void IndexedCallAs(const char* api, const char* offsets_name,
                   const AscendC::LocalTensor<T>& contiguous,
                   const AscendC::LocalTensor<T>& indexed,
                   const AscendC::LocalTensor<uint32_t>& offsets, uint32_t base,
                   const Form& form) {
  const InstructionCall<T> call(api, kScatter ? kScatterTypes : kGatherTypes,
                                form);
  const IndexedSide side = MakeIndexedSide(
      api, offsets_name, kScatter ? "dst" : "src", indexed, base);
  CheckIndexedCall(side, contiguous.view(), offsets.view(),
                   kScatter ? "src" : "dst");
  RunForm(IndexedInstruction<kScatter>(contiguous, offsets, side), form);
}
/// IndexedCallAs under the C++ API's names.
template <bool kScatter, typename T, typename Form>
void IndexedCall(const AscendC::LocalTensor<T>& contiguous,
                 const AscendC::LocalTensor<T>& indexed,
                 const AscendC::LocalTensor<uint32_t>& offsets, uint32_t base,
                 const Form& form) {
  IndexedCallAs<kScatter>(kScatter ? "Scatter" : "Gather",
                          kScatter ? "dstOffset" : "srcOffset", contiguous,
                          indexed, offsets, base, form);
}

/// Brcb over `elem_bytes`-byte elements (vector_layout.cc).
/// `api` names the caller in messages (the C API's asc_brcb).
void BrcbImpl(const char* type, const TensorView& dst, const TensorView& src,
              uint32_t elem_bytes, uint32_t repeat_time,
              const AscendC::BrcbRepeatParams& p, const char* api = "Brcb");
/// Gatherb over `elem_bytes`-byte elements; `api` as BrcbImpl's.
void GatherbImpl(const char* type, const TensorView& dst, const TensorView& src,
                 const TensorView& offsets, uint32_t repeat_time,
                 const AscendC::GatherRepeatParams& p,
                 const char* api = "Gatherb");
/// The 16×16 transpose of 2-byte elements; `api` names the form.
void Transpose16Impl(const char* api, const char* type, const TensorView& dst,
                     const TensorView& src);
/// NCHW <-> NHWC with the scratch buffer the profile needs.
void TransposeNchwImpl(const char* type, const TensorView& dst,
                       const TensorView& src, const TensorView& tmp,
                       uint32_t elem_bytes,
                       const AscendC::TransposeParamsExt& p);

/// One of TransDataTo5HD's 16 destination or source blocks: where it starts
/// and how far its memory reaches (the LocalTensor's end, or the UB's for an
/// address).
struct BlockRef {
  uint8_t* start;
  uint64_t room;  ///< bytes from start to the end of the usable memory
};
/// Resolves entry `i` of an address list: a UB address from GetPhyAddr.
BlockRef AddressBlock(const char* type, const char* list, int i,
                      uint64_t address);
/// Resolves entry `i` of a LocalTensor list.
BlockRef TensorBlock(const char* type, const char* list, int i,
                     const TensorView& view);
/// TransDataTo5HD over resolved lists of `elem_bytes`-byte elements; `api`
/// names the caller (the C API's asc_transto5hd_b*, with an empty type).
void TransDataTo5HDImpl(const char* type, const BlockRef (&dst)[16],
                        const BlockRef (&src)[16], uint32_t elem_bytes,
                        const AscendC::TransDataTo5HDParams& p,
                        const char* api = "TransDataTo5HD");
/// Reads the 16 addresses a LocalTensor<uint64_t> holds.
void AddressList(const char* type, const char* which, const TensorView& view,
                 uint64_t (&out)[16]);

/// Interleave and DeInterleave over `elem_bytes`-byte elements.
void InterleaveImpl(const char* type, const TensorView& dst0,
                    const TensorView& dst1, const TensorView& src0,
                    const TensorView& src1, uint32_t elem_bytes, int64_t count);
void DeInterleaveImpl(const char* type, const TensorView& dst0,
                      const TensorView& dst1, const TensorView& src0,
                      const TensorView* src1, uint32_t elem_bytes,
                      int64_t count);

/// Duplicate of `value` in any form.
template <typename T, typename Form>
void DuplicateCall(const AscendC::LocalTensor<T>& dst, const T value,
                   const Form& form) {
  const InstructionCall<T> call("Duplicate", kDuplicateTypes, form);
  RunForm(DuplicateInstruction(dst, value), form);
}

/// CreateVecIndex from `first` in any form.
template <typename T, typename Form>
void CreateVecIndexCall(const AscendC::LocalTensor<T>& dst, const T first,
                        const Form& form) {
  const InstructionCall<T> call("CreateVecIndex", kCreateVecIndexTypes, form);
  const IndexState<T> state{first};
  RunForm(IndexInstruction(dst, state), form);
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// dst[i] = scalar, i < count.
template <typename T>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DuplicateCall(normgrad_ascendc::Plain(dst), scalar,
                                  normgrad_ascendc::CountForm{count, site});
}
/// dst[i] = src[0], i < count (the 950 profile).
template <typename T>
void Duplicate(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const int32_t& count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Duplicate", normgrad_ascendc::kDuplicateTypes, /*count_form=*/true,
      site);
  if (!normgrad_ascendc::OnProfile950()) {
    normgrad_ascendc::Fail(
        "Duplicate<%s>(dst, src, count): the LocalTensor source form is "
        "available on profile Ascend 950 only",
        normgrad_ascendc::TypeName<PrimT<T>>());
  }
  normgrad_ascendc::Plain(src).view().CheckUbOperand("Duplicate", "src");
  if (normgrad_ascendc::Plain(src).view().bytes < sizeof(PrimT<T>)) {
    normgrad_ascendc::Fail("Duplicate<%s>: src has no element to duplicate",
                           normgrad_ascendc::TypeName<PrimT<T>>());
  }
  PrimT<T> value;
  std::memcpy(static_cast<void*>(&value),
              normgrad_ascendc::Plain(src).view().data(), sizeof(PrimT<T>));
  normgrad_ascendc::ExecuteCount(normgrad_ascendc::DuplicateInstruction(
                                     normgrad_ascendc::Plain(dst), value),
                                 count);
}
/// Duplicate's repeat forms: a bit mask (uint64_t[]) or a continuous mask.
template <typename T, bool isSetMask = true, typename Mask>
void Duplicate(const LocalTensor<T>& dst,
               const typename normgrad_ascendc::NonDeduced<T>::type& scalar,
               const Mask& mask, const uint8_t repeatTime,
               const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
               normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::DuplicateCall(normgrad_ascendc::Plain(dst), scalar,
                                  normgrad_ascendc::RepeatFormOf<isSetMask>(
                                      mask, repeatTime,
                                      normgrad_ascendc::FirstOperandStrides{
                                          dstBlockStride, dstRepeatStride},
                                      site));
}

/// dst[i] = firstValue + i, i < count.
template <typename T>
void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count,
                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CreateVecIndexCall(
      dst, firstValue, normgrad_ascendc::CountForm{count, site});
}
/// CreateVecIndex's repeat forms: lane k of repeat r gets
/// firstValue + r·lanes + k.
template <typename T, typename Mask>
void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, const Mask& mask,
                    uint8_t repeatTime, uint16_t dstBlkStride,
                    uint8_t dstRepStride,
                    normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::CreateVecIndexCall(
      dst, firstValue,
      normgrad_ascendc::RepeatFormOf<true>(
          mask, repeatTime,
          normgrad_ascendc::FirstOperandStrides{dstBlkStride, dstRepStride},
          site));
}

/// Per repeat, each of 8 consecutive src elements fills one 32-byte block
/// of dst (blocks dstBlkStride apart, repeats dstRepStride apart).
template <typename T>
void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
          const uint8_t repeatTime, const BrcbRepeatParams& repeatParams,
          normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Brcb", normgrad_ascendc::kBrcbTypes, /*count_form=*/false, site);
  normgrad_ascendc::BrcbImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                             normgrad_ascendc::Plain(dst).view(),
                             normgrad_ascendc::Plain(src).view(),
                             sizeof(PrimT<T>), repeatTime, repeatParams);
}

/// dst[i] = src[(srcBaseAddr + srcOffset[i]) / sizeof(T)], i < count.
template <typename T>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::IndexedCall<false>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), srcOffset,
      srcBaseAddr, normgrad_ascendc::CountForm{count, site});
}
/// Gather's repeat forms: a bit mask or a continuous mask; repeat r writes
/// dst from block r·dstRepStride and reads srcOffset contiguously.
template <typename T, typename Mask>
void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src,
            const LocalTensor<uint32_t>& srcOffset, const uint32_t srcBaseAddr,
            const Mask& mask, const uint8_t repeatTime,
            const uint16_t dstRepStride, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::IndexedCall<false>(
      normgrad_ascendc::Plain(dst), normgrad_ascendc::Plain(src), srcOffset,
      srcBaseAddr,
      normgrad_ascendc::RepeatFormOf<true>(
          mask, repeatTime,
          normgrad_ascendc::FirstOperandStrides{1, dstRepStride}, site));
}

/// Per repeat, 8 blocks of 32 bytes from src at the byte offsets
/// offset[8r + j] into dst (blocks dstBlkStride apart, 0 meaning 1; repeats
/// dstRepStride apart).
template <typename T>
void Gatherb(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& offset, const uint8_t repeatTime,
             const GatherRepeatParams& repeatParams,
             normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Gatherb", normgrad_ascendc::kGatherbTypes, /*count_form=*/false, site);
  normgrad_ascendc::GatherbImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                normgrad_ascendc::Plain(dst).view(),
                                normgrad_ascendc::Plain(src).view(),
                                offset.view(), repeatTime, repeatParams);
}

/// dst[(dstBaseAddr + dstOffset[i]) / sizeof(T)] = src[i], i < count.
template <typename T>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
             const uint32_t count, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::IndexedCall<true>(
      normgrad_ascendc::Plain(src), normgrad_ascendc::Plain(dst), dstOffset,
      dstBaseAddr, normgrad_ascendc::CountForm{count, site});
}
/// Scatter's repeat forms: repeat r reads src from block r·srcRepStride and
/// dstOffset contiguously.
template <typename T, typename Mask>
void Scatter(const LocalTensor<T>& dst, const LocalTensor<T>& src,
             const LocalTensor<uint32_t>& dstOffset, const uint32_t dstBaseAddr,
             const Mask& mask, const uint8_t repeatTime,
             const uint8_t srcRepStride, normgrad_ascendc::CallSite site = {}) {
  normgrad_ascendc::IndexedCall<true>(
      normgrad_ascendc::Plain(src), normgrad_ascendc::Plain(dst), dstOffset,
      dstBaseAddr,
      normgrad_ascendc::RepeatFormOf<true>(
          mask, repeatTime,
          normgrad_ascendc::FirstOperandStrides{1, srcRepStride}, site));
}

/// dst = srcᵀ for a 16×16 matrix of 2-byte elements (dst may be src).
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Transpose", normgrad_ascendc::kTransposeTypes, /*count_form=*/false,
      site);
  normgrad_ascendc::Transpose16Impl(
      "Transpose", normgrad_ascendc::TypeName<PrimT<T>>(),
      normgrad_ascendc::Plain(dst).view(), normgrad_ascendc::Plain(src).view());
}
/// The extended Transpose: TRANSPOSE_ND2ND_B16 (the 16×16 transpose),
/// TRANSPOSE_NCHW2NHWC and TRANSPOSE_NHWC2NCHW (with sharedTmpBuffer of the
/// documented size), TRANSPOSE_TYPE_NONE (nothing).
template <typename T>
void Transpose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
               const LocalTensor<uint8_t>& sharedTmpBuffer,
               const TransposeParamsExt& transposeParams,
               normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  switch (transposeParams.transposeType) {
    case TransposeType::TRANSPOSE_TYPE_NONE:
      return;
    case TransposeType::TRANSPOSE_ND2ND_B16:
      normgrad_ascendc::CheckType<PrimT<T>>(
          "Transpose", normgrad_ascendc::kTransposeExtB16Types, false);
      normgrad_ascendc::Transpose16Impl("Transpose(TRANSPOSE_ND2ND_B16)",
                                        normgrad_ascendc::TypeName<PrimT<T>>(),
                                        normgrad_ascendc::Plain(dst).view(),
                                        normgrad_ascendc::Plain(src).view());
      return;
    case TransposeType::TRANSPOSE_NCHW2NHWC:
    case TransposeType::TRANSPOSE_NHWC2NCHW:
      normgrad_ascendc::CheckType<PrimT<T>>(
          "Transpose", normgrad_ascendc::kTransposeNchwTypes, false);
      normgrad_ascendc::TransposeNchwImpl(
          normgrad_ascendc::TypeName<PrimT<T>>(),
          normgrad_ascendc::Plain(dst).view(),
          normgrad_ascendc::Plain(src).view(), sharedTmpBuffer.view(),
          sizeof(PrimT<T>), transposeParams);
      return;
    default:
      normgrad_ascendc::Fail(
          "Transpose<%s>: transposeParams.transposeType %d is not supported "
          "(TRANSPOSE_ND2ND_B16, TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW or "
          "TRANSPOSE_TYPE_NONE)",
          normgrad_ascendc::TypeName<PrimT<T>>(),
          static_cast<int>(transposeParams.transposeType));
  }
}

/// TransDataTo5HD with address lists (values of GetPhyAddr).
template <typename T>
void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                    uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams,
                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "TransDataTo5HD", normgrad_ascendc::kTransDataTo5HDTypes,
      /*count_form=*/false, site);
  const char* type = normgrad_ascendc::TypeName<PrimT<T>>();
  normgrad_ascendc::BlockRef dst[16], src[16];
  for (int i = 0; i < 16; ++i) {
    dst[i] = normgrad_ascendc::AddressBlock(type, "dstList", i, dstList[i]);
    src[i] = normgrad_ascendc::AddressBlock(type, "srcList", i, srcList[i]);
  }
  normgrad_ascendc::TransDataTo5HDImpl(type, dst, src, sizeof(PrimT<T>),
                                       nchwconvParams);
}
/// TransDataTo5HD with the addresses held in LocalTensor<uint64_t>s.
template <typename T>
void TransDataTo5HD(const LocalTensor<uint64_t>& dst,
                    const LocalTensor<uint64_t>& src,
                    const TransDataTo5HDParams& nchwconvParams,
                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "TransDataTo5HD", normgrad_ascendc::kTransDataTo5HDTypes,
      /*count_form=*/false, site);
  const char* type = normgrad_ascendc::TypeName<PrimT<T>>();
  uint64_t dst_list[16], src_list[16];
  normgrad_ascendc::AddressList(type, "dst", dst.view(), dst_list);
  normgrad_ascendc::AddressList(type, "src", src.view(), src_list);
  normgrad_ascendc::BlockRef d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = normgrad_ascendc::AddressBlock(type, "dst", i, dst_list[i]);
    s[i] = normgrad_ascendc::AddressBlock(type, "src", i, src_list[i]);
  }
  normgrad_ascendc::TransDataTo5HDImpl(type, d, s, sizeof(PrimT<T>),
                                       nchwconvParams);
}
/// TransDataTo5HD with lists of LocalTensors.
template <typename T>
void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                    const TransDataTo5HDParams& nchwconvParams,
                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "TransDataTo5HD", normgrad_ascendc::kTransDataTo5HDTypes,
      /*count_form=*/false, site);
  const char* type = normgrad_ascendc::TypeName<PrimT<T>>();
  normgrad_ascendc::BlockRef dst[16], src[16];
  for (int i = 0; i < 16; ++i) {
    dst[i] =
        normgrad_ascendc::TensorBlock(type, "dstList", i, dstList[i].view());
    src[i] =
        normgrad_ascendc::TensorBlock(type, "srcList", i, srcList[i].view());
  }
  normgrad_ascendc::TransDataTo5HDImpl(type, dst, src, sizeof(PrimT<T>),
                                       nchwconvParams);
}

/// The 2·count elements src0[0], src1[0], src0[1], src1[1], ...: the first
/// count into dst0, the rest into dst1 (the 950 profile; count even).
template <typename T>
void Interleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const int32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "Interleave", normgrad_ascendc::kInterleaveTypes, /*count_form=*/true,
      site);
  normgrad_ascendc::InterleaveImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                   normgrad_ascendc::Plain(dst0).view(),
                                   normgrad_ascendc::Plain(dst1).view(),
                                   normgrad_ascendc::Plain(src0).view(),
                                   normgrad_ascendc::Plain(src1).view(),
                                   sizeof(PrimT<T>), count);
}
/// The even elements of src0 followed by src1 into dst0, the odd ones into
/// dst1, count each (the 950 profile; count even).
template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                  const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                  const int32_t count, normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "DeInterleave", normgrad_ascendc::kInterleaveTypes, /*count_form=*/true,
      site);
  normgrad_ascendc::DeInterleaveImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                     normgrad_ascendc::Plain(dst0).view(),
                                     normgrad_ascendc::Plain(dst1).view(),
                                     normgrad_ascendc::Plain(src0).view(),
                                     &normgrad_ascendc::Plain(src1).view(),
                                     sizeof(PrimT<T>), count);
}
/// The even elements of src's first srcCount into dst0, the odd ones into
/// dst1 (the 950 profile; srcCount even).
template <typename T>
void DeInterleave(const LocalTensor<T>& dst0, const LocalTensor<T>& dst1,
                  const LocalTensor<T>& src, const int32_t srcCount,
                  normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::InstructionCall<PrimT<T>> call(
      "DeInterleave", normgrad_ascendc::kInterleaveTypes, /*count_form=*/true,
      site);
  normgrad_ascendc::DeInterleaveImpl(normgrad_ascendc::TypeName<PrimT<T>>(),
                                     normgrad_ascendc::Plain(dst0).view(),
                                     normgrad_ascendc::Plain(dst1).view(),
                                     normgrad_ascendc::Plain(src).view(),
                                     nullptr, sizeof(PrimT<T>), srcCount);
}

}  // namespace AscendC

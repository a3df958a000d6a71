// pad.cc — RunPad: Pad and UnPad (docs/transform.md, "Pad and UnPad"). Both
// take the shape from their tiling and move whole elements:
//   Pad:   dst[r][c] for r < srcHeight, c < alignedWidth:
//          padValue for c < leftPad, src[r][c - leftPad] for the srcOriWidth
//          data columns, padValue for the rightPad columns after them; the
//          columns past leftPad + srcOriWidth + rightPad are not written.
//          src rows are srcWidth elements apart, dst rows alignedWidth.
//   UnPad: dst[r][c] = src[r][c] for c < srcWidth - rightPad; src rows are
//          srcWidth elements apart, dst rows srcWidth - rightPad (packed).
#include <cstring>
#include <vector>

#include "ascendc/lib/transform/transform_kernel.h"
#include "ascendc/lib/transform/transform_rules.h"

namespace normgrad_ascendc {
namespace {

constexpr TransformTypes kPadTypes =
    TypeBit(TransformElem::kInt16) | TypeBit(TransformElem::kUint16) |
    TypeBit(TransformElem::kHalf) | TypeBit(TransformElem::kInt32) |
    TypeBit(TransformElem::kUint32) | TypeBit(TransformElem::kFloat);

// padValue (int32_t) as the bytes of one element of type `e`: converted as
// a C++ conversion would (a float type rounds to nearest even; a 16-bit
// integer keeps the low 16 bits).
void PadValueBytes(TransformElem e, int32_t v, uint8_t* out) {
  switch (e) {
    case TransformElem::kInt16:
    case TransformElem::kUint16: {
      const uint16_t x = static_cast<uint16_t>(static_cast<uint32_t>(v));
      std::memcpy(out, &x, 2);
      return;
    }
    case TransformElem::kHalf: {
      const half x(static_cast<float>(v));
      std::memcpy(out, &x, 2);
      return;
    }
    case TransformElem::kFloat: {
      const float x = static_cast<float>(v);
      std::memcpy(out, &x, 4);
      return;
    }
    default: {
      std::memcpy(out, &v, 4);  // int32_t, uint32_t: the same 32 bits
      return;
    }
  }
}

void CheckTypeSizeField(const char* api, uint32_t field, uint32_t bytes,
                        TransformElem type, const char* function) {
  if (field != bytes) {
    Fail(
        "%s: tiling.typeSize is %u but T is %s (%u bytes): call %s with "
        "typeSize = sizeof(T)",
        api, field, ElemName(type), bytes, function);
  }
}

void RunPadOnly(const PadArgs& a, uint32_t bytes) {
  const char* api = "Pad";
  const AscendC::tiling::PadTiling& t = *a.pad_tiling;
  CheckTilingFilled(api, "srcHeight", t.srcHeight, "PadTilingFunc");
  CheckTypeSizeField(api, t.typeSize, bytes, a.type, "PadTilingFunc");
  const uint64_t aligned = (uint64_t{t.srcWidth} * bytes + kBlockBytes - 1) /
                           kBlockBytes * kBlockBytes / bytes;
  CheckDerivedFields(api, {{"alignedWidth", t.alignedWidth, aligned,
                            "srcWidth rounded up to whole 32-byte blocks"}});
  if (t.srcWidth == 0 || t.srcOriWidth == 0 || t.srcOriWidth > t.srcWidth) {
    Fail(
        "%s: tiling.srcOriWidth is %u and tiling.srcWidth %u; the data "
        "width must be in [1, srcWidth]: the tiling is inconsistent",
        api, t.srcOriWidth, t.srcWidth);
  }
  const bool width_aligned = aligned == t.srcWidth;
  if (width_aligned && t.srcOriWidth == t.srcWidth) {
    Fail(
        "%s: tiling.srcWidth %u is 32-byte aligned and every column is data "
        "(srcOriWidth %u): Pad has nothing to pad there",
        api, t.srcWidth, t.srcOriWidth);
  }
  if (width_aligned && a.left != 0) {
    Fail(
        "%s: padParams.leftPad is %u; a 32-byte aligned width (%u) with "
        "redundant columns can be padded on the right only",
        api, a.left, t.srcWidth);
  }
  const uint64_t total = uint64_t{a.left} + t.srcOriWidth + a.right;
  if (total > aligned) {
    Fail(
        "%s: padParams.leftPad %u + srcOriWidth %u + padParams.rightPad %u = "
        "%llu columns, more than the 32-byte aligned width %llu",
        api, a.left, t.srcOriWidth, a.right,
        static_cast<unsigned long long>(total),
        static_cast<unsigned long long>(aligned));
  }
  const uint64_t src_elems = uint64_t{t.srcHeight} * t.srcWidth;
  if (src_elems * bytes % kBlockBytes != 0) {
    Fail(
        "%s: the source holds %u x %u = %llu %s (%llu bytes); its size must "
        "be a multiple of 32 bytes",
        api, t.srcHeight, t.srcWidth,
        static_cast<unsigned long long>(src_elems), ElemPlural(a.type),
        static_cast<unsigned long long>(src_elems * bytes));
  }
  const uint64_t dst_elems = uint64_t{t.srcHeight} * aligned;
  const Element e{bytes, ElemPlural(a.type)};
  CheckLengths(api, e,
               {{"srcTensor", a.src, src_elems, "srcHeight * srcWidth"},
                {"dstTensor", a.dst, dst_elems, "srcHeight * alignedWidth"}});
  CheckTransformOperands(api, "dstTensor", a.dst, dst_elems * bytes,
                         "srcTensor", a.src, src_elems * bytes, a.shared_tmp);

  uint8_t value[4];
  PadValueBytes(a.type, a.pad_value, value);
  const uint8_t* src = a.src.data();
  uint8_t* dst = a.dst.data();
  for (uint64_t r = 0; r < t.srcHeight; ++r) {
    uint8_t* row = dst + r * aligned * bytes;
    RepeatElement(row, value, bytes, uint64_t{a.left} * bytes);
    std::memcpy(row + uint64_t{a.left} * bytes, src + r * t.srcWidth * bytes,
                uint64_t{t.srcOriWidth} * bytes);
    RepeatElement(row + (uint64_t{a.left} + t.srcOriWidth) * bytes, value,
                  bytes, uint64_t{a.right} * bytes);
  }
}

void RunUnPad(const PadArgs& a, uint32_t bytes) {
  const char* api = "UnPad";
  const AscendC::tiling::UnPadTiling& t = *a.unpad_tiling;
  CheckTilingFilled(api, "srcHeight", t.srcHeight, "UnPadTilingFunc");
  CheckTypeSizeField(api, t.typeSize, bytes, a.type, "UnPadTilingFunc");
  CheckDerivedFields(
      api, {{"elementsPerBlock", t.elementsPerBlock, kBlockBytes / bytes,
             "32 / typeSize"},
            {"srcSize", t.srcSize, uint64_t{t.srcHeight} * t.srcWidth,
             "srcHeight * srcWidth"}});
  if (t.srcWidth == 0 || t.srcWidth % (kBlockBytes / bytes) != 0) {
    Fail(
        "%s: tiling.srcWidth is %u %s, not a whole number of 32-byte blocks "
        "(a multiple of %u): UnPad takes 32-byte aligned rows",
        api, t.srcWidth, ElemPlural(a.type), kBlockBytes / bytes);
  }
  if (a.left != 0) {
    Fail(
        "%s: unPadParams.leftPad is %u; it is reserved and must be 0 (UnPad "
        "removes columns on the right only)",
        api, a.left);
  }
  if (a.right == 0 || uint64_t{a.right} * bytes >= kBlockBytes) {
    Fail(
        "%s: unPadParams.rightPad is %u; it must be at least 1 and less than "
        "32 bytes of %s (at most %u)",
        api, a.right, ElemName(a.type), kBlockBytes / bytes - 1);
  }
  const uint64_t out_width = t.srcWidth - a.right;
  const uint64_t src_elems = uint64_t{t.srcHeight} * t.srcWidth;
  const uint64_t dst_elems = uint64_t{t.srcHeight} * out_width;
  const Element e{bytes, ElemPlural(a.type)};
  CheckLengths(
      api, e,
      {{"srcTensor", a.src, src_elems, "srcHeight * srcWidth"},
       {"dstTensor", a.dst, dst_elems, "srcHeight * (srcWidth - rightPad)"}});
  CheckTransformOperands(api, "dstTensor", a.dst, dst_elems * bytes,
                         "srcTensor", a.src, src_elems * bytes, a.shared_tmp);
  const uint8_t* src = a.src.data();
  uint8_t* dst = a.dst.data();
  for (uint64_t r = 0; r < t.srcHeight; ++r) {
    std::memcpy(dst + r * out_width * bytes, src + r * t.srcWidth * bytes,
                out_width * bytes);
  }
}

}  // namespace

void RunPad(const PadArgs& a) {
  const char* api = a.unpad ? "UnPad" : "Pad";
  CheckPlacements(api, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  CheckTypeOn(api, a.type, kPadTypes, a.dst.core->profile());
  const uint32_t bytes = ElemBytes(a.type);
  if (a.unpad) {
    RunUnPad(a, bytes);
  } else {
    RunPadOnly(a, bytes);
  }
}

}  // namespace normgrad_ascendc

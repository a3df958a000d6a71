// normgrad_ascendc/vector/vector_operators.h — the whole-tensor operator forms
// of the basic vector instructions (docs/runtime.md, "Vector unit"):
//   dst = src0 + src1;   Add      dst = src0 & src1;   And
//   dst = src0 - src1;   Sub      dst = src0 | src1;   Or
//   dst = src0 * src1;   Mul      dst = src0 < src1;   Compare LT (and >, <=,
//   dst = src0 / src1;   Div                           >=, ==, != likewise)
// Each is the instruction's count form over the whole destination: count is
// dst.GetSize() (the pages of Add, Sub, Mul, Div, And and Or say the operator
// computes the destination's whole length). A comparison's destination holds
// one bit per element, so its count is src0.GetSize() (src0 and src1 256-byte
// multiples, as Compare's count form asks). Every rule, type and message is
// the count form's; the message's site is the line of the operator.
//
// The operator builds an expression that holds its operands, and
// LocalTensor::operator= (tensor.h) runs it on the destination. The call
// site comes with the second operand: operators take no defaulted argument,
// but the conversion of the right-hand LocalTensor into its Operand does,
// and a default argument is evaluated where the conversion happens, in the
// user's expression.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/tensor.h"
#include "normgrad_ascendc/vector/vector_math.h"
#include "normgrad_ascendc/vector/vector_ops.h"
#include "normgrad_ascendc/vector/vector_select.h"

namespace normgrad_ascendc {

/// The right-hand operand of a whole-tensor operator, with the call site of
/// the expression it appears in.
template <typename T>
struct Operand {
  // Implicit: the conversion is what captures the site.
  Operand(const AscendC::LocalTensor<T>& t, CallSite call_site = {})  // NOLINT
      : tensor(t), site(call_site) {}
  const AscendC::LocalTensor<T>& tensor;
  CallSite site;
};

/// The instructions of the arithmetic and logic operators.
enum class TensorOperator : uint8_t { kAdd, kSub, kMul, kDiv, kAnd, kOr };

/// dst = src0 op src1 over dst.GetSize() elements (see the file comment).
template <typename T, TensorOperator kOp>
struct BinaryTensorExpression {
  static constexpr bool kWholeTensorForm = true;
  const AscendC::LocalTensor<T>& src0;
  Operand<T> src1;

  void AssignTo(const AscendC::LocalTensor<T>& dst) const {
    const ApiCall call(src1.site);
    const int32_t count = static_cast<int32_t>(dst.GetSize());
    if constexpr (kOp == TensorOperator::kAdd) {
      AscendC::Add(dst, src0, src1.tensor, count);
    } else if constexpr (kOp == TensorOperator::kSub) {
      AscendC::Sub(dst, src0, src1.tensor, count);
    } else if constexpr (kOp == TensorOperator::kMul) {
      AscendC::Mul(dst, src0, src1.tensor, count);
    } else if constexpr (kOp == TensorOperator::kDiv) {
      AscendC::Div(dst, src0, src1.tensor, count);
    } else if constexpr (kOp == TensorOperator::kAnd) {
      AscendC::And(dst, src0, src1.tensor, count);
    } else {
      AscendC::Or(dst, src0, src1.tensor, count);
    }
  }
};

/// dst = src0 cmp src1: Compare over src0.GetSize() elements into dst's bits.
template <typename T, AscendC::CMPMODE kMode>
struct CompareTensorExpression {
  static constexpr bool kWholeTensorForm = true;
  const AscendC::LocalTensor<T>& src0;
  Operand<T> src1;

  template <typename U>
  void AssignTo(const AscendC::LocalTensor<U>& dst) const {
    const ApiCall call(src1.site);
    AscendC::Compare(dst, src0, src1.tensor, kMode, src0.GetSize());
  }
};

}  // namespace normgrad_ascendc

namespace AscendC {

#define NORMGRAD_TENSOR_OPERATOR(symbol, expression, what) \
  template <typename T>                                    \
  normgrad_ascendc::expression<T, what> operator symbol(   \
      const LocalTensor<T>& src0,                          \
      typename normgrad_ascendc::NonDeduced<               \
          normgrad_ascendc::Operand<T>>::type src1) {      \
    return {src0, src1};                                   \
  }

NORMGRAD_TENSOR_OPERATOR(+, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kAdd)
NORMGRAD_TENSOR_OPERATOR(-, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kSub)
NORMGRAD_TENSOR_OPERATOR(*, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kMul)
NORMGRAD_TENSOR_OPERATOR(/, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kDiv)
NORMGRAD_TENSOR_OPERATOR(&, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kAnd)
NORMGRAD_TENSOR_OPERATOR(|, BinaryTensorExpression,
                         normgrad_ascendc::TensorOperator::kOr)
NORMGRAD_TENSOR_OPERATOR(<, CompareTensorExpression, CMPMODE::LT)
NORMGRAD_TENSOR_OPERATOR(>, CompareTensorExpression, CMPMODE::GT)
NORMGRAD_TENSOR_OPERATOR(<=, CompareTensorExpression, CMPMODE::LE)
NORMGRAD_TENSOR_OPERATOR(>=, CompareTensorExpression, CMPMODE::GE)
NORMGRAD_TENSOR_OPERATOR(==, CompareTensorExpression, CMPMODE::EQ)
NORMGRAD_TENSOR_OPERATOR(!=, CompareTensorExpression, CMPMODE::NE)

#undef NORMGRAD_TENSOR_OPERATOR

}  // namespace AscendC

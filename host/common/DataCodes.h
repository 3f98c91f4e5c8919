// Host side: the firmware's data type and reduction operator codes for the
// golden reference's enums (the two are defined independently, in the same
// order; the asserts keep them so).
#pragma once

#include "firmware/api/compute_api.h"
#include "golden/Types.h"

namespace cclsim {

inline fw::dtype_code dtypeCode(golden::DType t) {
    static_assert(unsigned(fw::dtype_code::fp16) == unsigned(golden::DType::FP16) &&
                  unsigned(fw::dtype_code::uint64) == unsigned(golden::DType::UINT64) &&
                  unsigned(fw::dtype_code::boolean) == unsigned(golden::DType::BOOL));
    return fw::dtype_code(unsigned(t));
}

inline fw::reduce_op reduceCode(golden::RedOp op) {
    static_assert(unsigned(fw::reduce_op::mean) == unsigned(golden::RedOp::Mean) &&
                  unsigned(fw::reduce_op::square_add) == unsigned(golden::RedOp::SquareAdd) &&
                  unsigned(fw::reduce_op::logical_or) == unsigned(golden::RedOp::LogicalOr));
    return fw::reduce_op(unsigned(op));
}

}  // namespace cclsim

// Users' own inputs and the outputs they co-verify, per rank in replica order:
//
//   --inputs FILE.json       {"ranks": [[1, 2, 3, 4], [5, 6, 7, 8]]}: one array per
//                            rank; numbers (floats round to nearest even into the
//                            type, integers must be whole and in range) or
//                            true/false for bool; every array the same length
//   --inputs DIR/            DIR/rank0.npy, DIR/rank1.npy, ...: NumPy arrays (any
//                            shape, C order, little endian) of the matching type:
//                            <f4 fp32, <f2 fp16, <u2 bf16 (the raw bits: NumPy has
//                            no bfloat16), <i4, <u4, <i8, <u8, |b1
//   --dump-outputs FILE.json the outputs in the same JSON shape (or DIR/ for .npy)
//
// Errors name the file and the rank and element at fault.
#pragma once

#include "golden/Golden.h"

#include <string>
#include <vector>

namespace cclsim::ccl {

/// Inputs from a JSON file or a directory of .npy files (path ending in '/').
std::vector<golden::Tensor> loadInputs(const std::string& path, golden::DType t, unsigned ranks);
/// Outputs to a JSON file, or .npy files into a directory (path ending in '/').
void writeOutputs(const std::string& path, const std::vector<golden::Tensor>& outputs, golden::DType t);

/// One .npy file (exposed for tests).
golden::Tensor readNpy(const std::string& file, golden::DType t);
void writeNpy(const std::string& file, const golden::Tensor& data, golden::DType t);

}  // namespace cclsim::ccl

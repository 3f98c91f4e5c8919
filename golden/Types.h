// Data types and reduction operators of the golden reference (GCL's set,
// GCL user guide, section 3.1, plus bf16), implemented on their own: the
// firmware's compute engine has its own implementation, and the two must
// agree bit for bit.
//
// Element semantics (every result is a function of its operands only):
//   bf16, fp16   each operation on the values widened to fp32, computed in
//                fp32, the result rounded to nearest even into the type
//                (fp16: overflow to infinity, subnormals kept)
//   fp32         IEEE single operations (round to nearest even)
//   int32, int64, uint64 (and uint32 where allowed)
//                two's-complement arithmetic that wraps on overflow
//   bool         one byte, 0 or 1 (any non-zero input byte is true)
// Operators, as a binary a (+) b plus a per-rank preparation g(x) and a final
// step applied once to the reduced value:
//   ADD         a + b                 MUL          a * b
//   MIN, MAX    the smaller / larger; for floats -0 counts as below +0, so
//               both are commutative
//   SQUARE_ADD  g(x) = x * x (rounded to the type), then a + b
//   MEAN        a + b, the final value divided by the group size (fp32, rounded)
//   LOGICAL_AND, LOGICAL_OR   on bool
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cclsim::golden {

enum class DType : std::uint8_t { BF16, FP16, FP32, INT32, UINT32, INT64, UINT64, BOOL };
enum class RedOp : std::uint8_t { Add, Mean, Mul, Min, Max, SquareAdd, LogicalAnd, LogicalOr };

constexpr unsigned kDTypes = 8;
constexpr unsigned kRedOps = 8;

std::size_t elementBytes(DType t);
/// "bf16", "fp16", "fp32", "int32", "uint32", "int64", "uint64", "bool".
const char* dtypeName(DType t);
/// GCL's name: FLOAT, HALF, INT, UNSIGNED_INT, LONG_LONG, UNSIGNED_LONG_LONG, BOOL (bf16: BFLOAT16).
const char* gclTypeName(DType t);
/// Our names and the GCL names (float, half, int, unsigned_int, long_long,
/// unsigned_long_long, any case); std::invalid_argument listing them otherwise.
DType parseDType(const std::string& s);
bool isFloat(DType t);

/// "add", "mean", "mul", "min", "max", "square_add", "logical_and", "logical_or".
const char* redOpName(RedOp op);
RedOp parseRedOp(const std::string& s);

/// The (operator, type) pairs of GCL user guide 3.1, plus bf16 wherever HALF is allowed.
bool supports(RedOp op, DType t);
/// "bf16, fp16, fp32, int32, int64, uint64" for an operator (for error messages).
std::string supportedTypes(RedOp op);

/// out[i] = a[i] (+) b[i] for `n` elements (out may alias a or b).
void combine(RedOp op, DType t, const std::uint8_t* a, const std::uint8_t* b, std::uint8_t* out, std::size_t n);
/// out[i] = g(x[i]): x * x for SQUARE_ADD, x otherwise.
void prepare(RedOp op, DType t, const std::uint8_t* x, std::uint8_t* out, std::size_t n);
/// The final step: MEAN divides by `groupSize`; nothing for the others.
void finalize(RedOp op, DType t, std::uint8_t* x, std::size_t n, unsigned groupSize);
/// Does the operator transform inputs (g) or results (final step)?
bool hasPrepare(RedOp op);
bool hasFinalize(RedOp op);

/// Elements [first, first + n) of the input of the rank with identity `id`
/// (a chip id): deterministic in (seed, id, element index), so any range can
/// be made on its own. Floats: magnitude in [2^-6, 4) (MUL: [0.5, 2)) with a
/// random sign; integers in [-1000, 1000] ([-3, 3] for MUL; unsigned from 0);
/// bool 0 or 1.
void fillInput(std::uint64_t seed, unsigned id, DType t, RedOp op, std::uint64_t first, std::size_t n,
               std::uint8_t* out);

/// Element conversions for inputs given as numbers (JSON), and for reports.
/// Floats round to nearest even; integers must be whole and in range
/// (std::invalid_argument otherwise).
void fromDouble(DType t, double v, std::uint8_t* out);
double toDouble(DType t, const std::uint8_t* p);

}  // namespace cclsim::golden

#include "treefix/core/types.hpp"

#include "treefix/core/error.hpp"

namespace treefix {

const char* to_string(ValueType t) {
  switch (t) {
    case ValueType::int32: return "int32";
    case ValueType::int64: return "int64";
    case ValueType::float32: return "float";
    case ValueType::float64: return "double";
  }
  return "?";
}

const char* to_string(Op op) {
  switch (op) {
    case Op::sum: return "sum";
    case Op::bit_xor: return "xor";
    case Op::min: return "min";
    case Op::max: return "max";
  }
  return "?";
}

ValueType parse_value_type(const std::string& name) {
  if (name == "int32" || name == "int") return ValueType::int32;
  if (name == "int64" || name == "long") return ValueType::int64;
  if (name == "float" || name == "float32") return ValueType::float32;
  if (name == "double" || name == "float64") return ValueType::float64;
  throw InputError("unknown value type '" + name + "' (expected int32, int64, float or double)");
}

Op parse_op(const std::string& name) {
  if (name == "sum") return Op::sum;
  if (name == "xor") return Op::bit_xor;
  if (name == "min") return Op::min;
  if (name == "max") return Op::max;
  throw InputError("unknown operator '" + name + "' (expected sum, xor, min or max)");
}

bool has_inverse(Op op) { return op == Op::sum || op == Op::bit_xor; }
bool is_integer(ValueType t) { return t == ValueType::int32 || t == ValueType::int64; }

const char* opencl_type_name(ValueType t) {
  switch (t) {
    case ValueType::int32: return "int";
    case ValueType::int64: return "long";
    case ValueType::float32: return "float";
    case ValueType::float64: return "double";
  }
  return "?";
}

std::string value_op_options(ValueType t, Op op) {
  if (op == Op::bit_xor && !is_integer(t))
    throw InputError(std::string("xor needs an integer type, not ") + to_string(t));
  std::string options = std::string("-DVALUE_T=") + opencl_type_name(t);
  switch (t) {
    case ValueType::int32: options += " -DVALUE_INT32=1"; break;
    case ValueType::int64: options += " -DVALUE_INT64=1"; break;
    case ValueType::float32: options += " -DVALUE_FLOAT32=1"; break;
    case ValueType::float64: options += " -DVALUE_FLOAT64=1"; break;
  }
  switch (op) {
    case Op::sum: options += " -DOP_SUM=1"; break;
    case Op::bit_xor: options += " -DOP_XOR=1"; break;
    case Op::min: options += " -DOP_MIN=1"; break;
    case Op::max: options += " -DOP_MAX=1"; break;
  }
  return options;
}

}  // namespace treefix

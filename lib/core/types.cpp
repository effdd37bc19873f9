#include "treefix/core/types.hpp"

#include "treefix/core/error.hpp"

namespace treefix {

bool has_inverse(Op op) { return op == Op::sum || op == Op::bit_xor; }
bool is_integer(ValueType t) { return t == ValueType::int32 || t == ValueType::int64; }

const char* opencl_type_name(ValueType t) {
  switch (t) {
    case ValueType::int32:
      return "int";
    case ValueType::int64:
      return "long";
    case ValueType::float32:
      return "float";
    case ValueType::float64:
      return "double";
  }
  return "?";
}

std::string value_op_options(ValueType t, Op op) {
  if (op == Op::bit_xor && !is_integer(t))
    throw InputError(std::string("xor needs an integer type, not ") + to_string(t));
  std::string options = std::string("-DVALUE_T=") + opencl_type_name(t);
  switch (t) {
    case ValueType::int32:
      options += " -DVALUE_INT32=1";
      break;
    case ValueType::int64:
      options += " -DVALUE_INT64=1";
      break;
    case ValueType::float32:
      options += " -DVALUE_FLOAT32=1";
      break;
    case ValueType::float64:
      options += " -DVALUE_FLOAT64=1";
      break;
  }
  switch (op) {
    case Op::sum:
      options += " -DOP_SUM=1";
      break;
    case Op::bit_xor:
      options += " -DOP_XOR=1";
      break;
    case Op::min:
      options += " -DOP_MIN=1";
      break;
    case Op::max:
      options += " -DOP_MAX=1";
      break;
  }
  return options;
}

}  // namespace treefix

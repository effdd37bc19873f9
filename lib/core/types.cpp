#include "treefix/core/types.hpp"

#include <iterator>

#include "treefix/core/error.hpp"

namespace treefix {

bool has_inverse(Op op) { return op == Op::sum || op == Op::bit_xor; }
bool is_integer(ValueType t) { return t == ValueType::int32 || t == ValueType::int64; }

namespace {
// What the kernels call each value type and operator, in the enums' order (types.hpp): the
// OpenCL C type and the -D flags that kernels/core/common.clh selects on.
struct ValueTypeSpelling {
  const char* opencl_name;
  const char* flag;
};
constexpr ValueTypeSpelling kValueTypes[] = {{"int", "VALUE_INT32"},
                                             {"long", "VALUE_INT64"},
                                             {"float", "VALUE_FLOAT32"},
                                             {"double", "VALUE_FLOAT64"}};
constexpr const char* kOpFlags[] = {"OP_SUM", "OP_XOR", "OP_MIN", "OP_MAX"};
static_assert(std::size(kValueTypes) == std::size(EnumNames<ValueType>::entries) &&
              std::size(kOpFlags) == std::size(EnumNames<Op>::entries));

const ValueTypeSpelling& spelling(ValueType t) { return kValueTypes[static_cast<int>(t)]; }
}  // namespace

const char* opencl_type_name(ValueType t) { return spelling(t).opencl_name; }

std::string value_op_options(ValueType t, Op op) {
  if (op == Op::bit_xor && !is_integer(t))
    throw InputError(std::string("xor needs an integer type, not ") + to_string(t));
  return std::string("-DVALUE_T=") + opencl_type_name(t) + " -D" + spelling(t).flag + "=1 -D" +
         kOpFlags[static_cast<int>(op)] + "=1";
}

}  // namespace treefix

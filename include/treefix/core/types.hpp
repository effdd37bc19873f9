#pragma once
// Value types and operators that the treefix kernels are compiled for. One kernel source serves
// every combination: the host turns (ValueType, Op) into -D options (see kernels/core/common.clh).
#include <cstdint>
#include <string>
#include <type_traits>

#include "treefix/core/names.hpp"

namespace treefix {

enum class ValueType { int32, int64, float32, float64 };
// sum and xor are groups (they have an inverse) and work with every algorithm; min and max have
// no inverse and are only available to the level-synchronous and sequential algorithms.
enum class Op { sum, bit_xor, min, max };

TREEFIX_ENUM_NAMES(ValueType, "value type", {ValueType::int32, "int32", "int"},
                   {ValueType::int64, "int64", "long"}, {ValueType::float32, "float", "float32"},
                   {ValueType::float64, "double", "float64"});
TREEFIX_ENUM_NAMES(Op, "operator", {Op::sum, "sum"}, {Op::bit_xor, "xor"}, {Op::min, "min"},
                   {Op::max, "max"});
bool has_inverse(Op op);
bool is_integer(ValueType t);

template <class T>
constexpr ValueType value_type_of() {
  if constexpr (std::is_same_v<T, std::int32_t>)
    return ValueType::int32;
  else if constexpr (std::is_same_v<T, std::int64_t>)
    return ValueType::int64;
  else if constexpr (std::is_same_v<T, float>)
    return ValueType::float32;
  else {
    static_assert(std::is_same_v<T, double>, "treefix values are int32, int64, float or double");
    return ValueType::float64;
  }
}

// Calls f(T{}) with T the C++ type of `type` (std::int32_t, std::int64_t, float, double): how a
// run-time type choice reaches templated code.
template <class F>
decltype(auto) visit_value_type(ValueType type, F&& f) {
  switch (type) {
    case ValueType::int32:
      return f(std::int32_t{});
    case ValueType::int64:
      return f(std::int64_t{});
    case ValueType::float32:
      return f(float{});
    default:
      return f(double{});
  }
}

// The OpenCL C spelling of a value type ("int", "long", "float", "double").
const char* opencl_type_name(ValueType t);
// "-DVALUE_T=float -DOP_SUM=1 ..." for kernels that include common.clh.
std::string value_op_options(ValueType t, Op op);

}  // namespace treefix

// Moving rows or columns of values into and out of an order (treefix/primitives/detail/permute_rows.hpp).
#include "treefix/primitives/detail/permute_rows.hpp"

namespace treefix::detail {

Permuter::Permuter(Runtime& runtime, const std::string& value_type, Phase phase)
    : kernels_(runtime, "primitives/permute_rows.cl", "-DVALUE_T=" + value_type, phase) {}

void Permuter::permute(std::size_t n, std::size_t width, std::size_t item_stride,
                       std::size_t value_stride, const cl::Buffer& order, bool scatter,
                       const cl::Buffer& src, const cl::Buffer& dst) {
  kernels_.run("permute", kernels_.grid_stride(n), cl_uint(n), cl_uint(width), cl_uint(item_stride),
               cl_uint(value_stride), order, cl_int(scatter), src, dst);
}

void Permuter::iota(std::size_t n, const cl::Buffer& dst) {
  kernels_.run("iota", kernels_.grid_stride(n), cl_uint(n), dst);
}

}  // namespace treefix::detail

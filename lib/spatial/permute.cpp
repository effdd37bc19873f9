// Moving arrays into and out of a tree's order (spatial/permute.hpp).
#include "spatial/permute.hpp"

namespace treefix::detail {

Permuter::Permuter(Runtime& runtime, const std::string& value_type, Phase phase)
    : kernels_(runtime, "spatial/permute.cl", "-DVALUE_T=" + value_type, phase) {}

void Permuter::gather_rows(std::size_t n, std::size_t per, const cl::Buffer& order,
                           const cl::Buffer& src, const cl::Buffer& dst) {
  kernels_.run("gather_rows", kernels_.grid_stride(n), cl_uint(n), cl_uint(per), order, src, dst);
}

void Permuter::scatter_rows(std::size_t n, std::size_t per, const cl::Buffer& order,
                            const cl::Buffer& src, const cl::Buffer& dst) {
  kernels_.run("scatter_rows", kernels_.grid_stride(n), cl_uint(n), cl_uint(per), order, src, dst);
}

void Permuter::gather_columns(std::size_t n, int dim, const cl::Buffer& order,
                              const cl::Buffer& src, const cl::Buffer& dst) {
  kernels_.run("gather_columns", kernels_.grid_stride(n), cl_uint(n), cl_uint(dim), order, src,
               dst);
}

void Permuter::scatter_columns(std::size_t n, int dim, const cl::Buffer& order,
                               const cl::Buffer& src, const cl::Buffer& dst) {
  kernels_.run("scatter_columns", kernels_.grid_stride(n), cl_uint(n), cl_uint(dim), order, src,
               dst);
}

void Permuter::iota(std::size_t n, const cl::Buffer& dst) {
  kernels_.run("iota", kernels_.grid_stride(n), cl_uint(n), dst);
}

}  // namespace treefix::detail

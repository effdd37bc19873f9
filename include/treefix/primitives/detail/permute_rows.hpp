#pragma once
// Internal: moving arrays of rows or columns into and out of an order on the device (the spatial
// trees' builds, query sort and n-body state; kernels/primitives/permute_rows.cl), for one value
// type. The permutation planned once for many arrays of single values is DevicePermutation
// (treefix/primitives/permutation.hpp).
#include <cstddef>
#include <string>

#include "treefix/core/launch.hpp"

namespace treefix::detail {

class Permuter {
 public:
  // value_type: the OpenCL C name of the values ("float", "int", "uint", "ulong").
  Permuter(Runtime& runtime, const std::string& value_type, Phase phase);
  // dst[i*per + j] = src[order[i]*per + j]
  void gather_rows(std::size_t n, std::size_t per, const cl::Buffer& order, const cl::Buffer& src,
                   const cl::Buffer& dst) {
    permute(n, per, per, 1, order, false, src, dst);
  }
  // dst[order[i]*per + j] = src[i*per + j]
  void scatter_rows(std::size_t n, std::size_t per, const cl::Buffer& order, const cl::Buffer& src,
                    const cl::Buffer& dst) {
    permute(n, per, per, 1, order, true, src, dst);
  }
  // dst[k*n + i] = src[k*n + order[i]], k < dim
  void gather_columns(std::size_t n, int dim, const cl::Buffer& order, const cl::Buffer& src,
                      const cl::Buffer& dst) {
    permute(n, dim, 1, n, order, false, src, dst);
  }
  // dst[k*n + order[i]] = src[k*n + i]
  void scatter_columns(std::size_t n, int dim, const cl::Buffer& order, const cl::Buffer& src,
                       const cl::Buffer& dst) {
    permute(n, dim, 1, n, order, true, src, dst);
  }
  // dst[i] = i (int values)
  void iota(std::size_t n, const cl::Buffer& dst);

 private:
  void permute(std::size_t n, std::size_t width, std::size_t item_stride, std::size_t value_stride,
               const cl::Buffer& order, bool scatter, const cl::Buffer& src, const cl::Buffer& dst);
  Kernels kernels_;
};

}  // namespace treefix::detail

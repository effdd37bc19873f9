#pragma once
// Internal to the spatial module: points sorted along a Morton curve on the device, the first
// steps of every device build and of the query sort (kernels/spatial/morton.cl).
#include <cstddef>
#include <string>

#include "spatial/device_arrays.hpp"
#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

// Bits a coordinate: 21 for up to 3 coordinates, 63 / dim beyond (codes of at most 63 bits).
int morton_bits(int dim);

// coord: n >= 1 points of dim coordinates (Real: float or double), structure of arrays. cube:
// one cube frame (octrees). Writes the frame (kernels/spatial/morton.cl: 2 + 2 * dim values) and
// order (sorted position -> input index; both fitted to size) and returns the sorted codes, in
// the Runtime's workspace "morton.code" (valid until the next call). Phases "frame", "codes",
// "sort". One program per coordinate type and frame kind: the dimension is an argument.
template <class Real>
cl::Buffer sort_along_morton_curve(Runtime& runtime, const cl::Buffer& coord, std::size_t n,
                                   int dim, bool cube, DeviceArray<Real>& frame,
                                   DeviceArray<std::int32_t>& order, Profile* profile);

}  // namespace treefix::detail

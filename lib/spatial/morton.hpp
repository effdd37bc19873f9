#pragma once
// Internal to the spatial module: points sorted along a Morton curve on the device, the first
// steps of every device build and of the query sort (kernels/spatial/morton.cl).
#include <cstddef>
#include <string>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

// Bits a coordinate: 21 for up to 3 coordinates, 63 / dim beyond (codes of at most 63 bits).
int morton_bits(int dim);
// -DDIM=.. -DBITS=.. [-DCUBE]: the options of morton.cl and of the kernels reading its frame.
std::string morton_options(int dim, bool cube);

struct MortonOrder {
  DeviceArray<float> frame;         // see kernels/spatial/morton.cl
  DeviceArray<cl_ulong> code;       // the codes, sorted
  DeviceArray<std::int32_t> order;  // sorted position -> input index
};

// coord: n points of dim coordinates, structure of arrays. cube: one cube frame (octrees).
// n >= 1. Phases "frame", "codes", "sort".
MortonOrder sort_along_morton_curve(Runtime& runtime, const cl::Buffer& coord, std::size_t n,
                                    int dim, bool cube, Profile* profile);

// Sorts codes[0 .. n) of code_bits bits (<= 63), in place, and sets order to the sorting
// permutation (stable): our radix_sort_by_key64 or Boost.Compute's sort_by_key.
void sort_codes(Runtime& runtime, DeviceArray<cl_ulong>& code, DeviceArray<std::int32_t>& order,
                std::size_t n, int code_bits, bool boost, Profile* profile);

}  // namespace treefix::detail

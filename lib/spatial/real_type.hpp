#pragma once
// Internal to the spatial module: the coordinate type of a kernel build (kernels/spatial/real.clh),
// float or double, as -D options; double needs the device's cl_khr_fp64, checked here.
#include <string>
#include <type_traits>

#include "treefix/core/error.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::detail {

// Whether the device rounds float division and square roots correctly when asked to (OpenCL's
// -cl-fp32-correctly-rounded-divide-sqrt may be given only then).
inline bool fp32_sqrt_correctly_rounded(const Runtime& runtime) {
  return (runtime.device().getInfo<CL_DEVICE_SINGLE_FP_CONFIG>() &
          CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
}

template <class Real>
std::string real_options(const Runtime& runtime, const char* what) {
  static_assert(std::is_same_v<Real, float> || std::is_same_v<Real, double>,
                "spatial coordinates are float or double");
  if constexpr (std::is_same_v<Real, double>) {
    if (!runtime.description().fp64)
      throw Error(std::string(what) + ": the device " + runtime.description().device_name +
                  " has no double precision (cl_khr_fp64); exact float64 kd-tree queries need "
                  "it");
    return "-DREAL=double -DREAL_DOUBLE";
  } else {
    // Distances are square roots: correctly rounded where the device offers it (OpenCL's default
    // float sqrt may be 3 ulp off; NVIDIA's is), so that float results are the host's bits.
    const bool exact_sqrt = fp32_sqrt_correctly_rounded(runtime);
    return exact_sqrt ? "-DREAL=float -cl-fp32-correctly-rounded-divide-sqrt" : "-DREAL=float";
  }
}

// The OpenCL C type that moves a Real's bits (the permutation kernels).
template <class Real>
const char* real_bits_type() {
  return sizeof(Real) == 8 ? "ulong" : "float";
}

}  // namespace treefix::detail

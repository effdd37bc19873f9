#pragma once
// Device sort of (key, value) pairs, in place on the Runtime's queue. Boost.Compute's
// sort_by_key (a radix sort on GPUs) does the work; its kernels are built and cached by
// Boost.Compute in its own per-context cache and are not recorded in a Profile (time the whole
// call with markers when it matters).
//
// Keys: cl_uint or cl_ulong; values: cl_int. `stable` keeps equal keys in their input order.
#include <cstddef>

#include "treefix/core/runtime.hpp"

namespace treefix {

template <class Key>
void sort_by_key(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                 std::size_t count, bool stable);

}  // namespace treefix

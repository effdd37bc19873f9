// sort_by_key through Boost.Compute, on our buffers and queue.
#include "treefix/primitives/sort.hpp"

#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/stable_sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/exception/opencl_error.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>

#include <string>

namespace treefix {

template <class Key>
void sort_by_key(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                 std::size_t count, bool stable) {
  if (count < 2) return;
  namespace bc = boost::compute;
  try {
    bc::command_queue queue(runtime.queue()(), true);
    bc::buffer key_buffer(keys(), true), value_buffer(values(), true);
    auto first = bc::make_buffer_iterator<Key>(key_buffer, 0);
    auto last = bc::make_buffer_iterator<Key>(key_buffer, count);
    auto value_first = bc::make_buffer_iterator<cl_int>(value_buffer, 0);
    if (stable)
      bc::stable_sort_by_key(first, last, value_first, queue);
    else
      bc::sort_by_key(first, last, value_first, queue);
  } catch (const bc::opencl_error& e) {
    throw DeviceError(e.error_code(), "boost::compute::sort_by_key",
                      "sorting " + std::to_string(count) + " keys");
  }
}

template void sort_by_key<cl_uint>(Runtime&, const cl::Buffer&, const cl::Buffer&, std::size_t,
                                   bool);
template void sort_by_key<cl_ulong>(Runtime&, const cl::Buffer&, const cl::Buffer&, std::size_t,
                                    bool);

}  // namespace treefix

// NumPy arrays on the library's result blocks (result_blocks.hpp).
#include "result_blocks.hpp"

#include <memory>

#include "treefix/core/host_memory.hpp"
#include "treefix/core/result_memory.hpp"

namespace treefix::python {

ResultArray uninitialised_array(const py::dtype& dtype, const std::vector<py::ssize_t>& shape) {
  std::uint64_t count = 1;
  for (const py::ssize_t extent : shape) count = bytes_for(count, static_cast<std::uint64_t>(extent));
  const std::uint64_t bytes = bytes_for(count, static_cast<std::uint64_t>(dtype.itemsize()));
  if (bytes < kResultReuseFromBytes) return {py::array(dtype, shape), true};
  const ResultMemory block = take_result_memory(bytes);  // CapacityError: MemoryError
  auto owned = std::make_unique<ResultMemory>(block);
  struct GiveBack {  // until the capsule owns the block, an exception gives it back here
    std::unique_ptr<ResultMemory>& block;
    ~GiveBack() {
      if (block) give_back_result_memory(block->data, block->bytes);
    }
  } guard{owned};
  py::capsule owner(owned.get(), [](void* pointer) {
    std::unique_ptr<ResultMemory> given(static_cast<ResultMemory*>(pointer));
    give_back_result_memory(given->data, given->bytes);
  });
  owned.release();
  return {py::array(dtype, shape, block.data, owner), block.fresh};
}

}  // namespace treefix::python

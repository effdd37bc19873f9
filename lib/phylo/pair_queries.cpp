// Queries over pairs of vertices on the device (phylo/pair_queries.hpp).
#include "pair_queries.hpp"

#include <cstdint>
#include <string>

namespace treefix::detail {

void run_pair_kernel(Runtime& runtime, const LcaIndex& index, Kernels& kernels, const char* kernel,
                     const cl::Buffer& u, const cl::Buffer& v, std::size_t count, const char* what,
                     const BindArgs& outputs) {
  if (count == 0) return;
  if (count > UINT32_MAX)
    throw CapacityError(std::string("more than 2^32 ") + what + " in one device call");
  cl::Buffer& bad = runtime.scratch("lca.bad", sizeof(cl_uint));
  fill(runtime, bad, cl_uint(UINT32_MAX), 1);
  kernels.run_bound(kernel, kernels.items(count), [&](KernelArgs& args) {
    args(u, v, cl_uint(count), cl_int(index.size()));
    index.bind(args);
    outputs(args);
    args(bad);
  });
  const cl_uint first_bad = read_value<cl_uint>(runtime, bad);
  if (first_bad != UINT32_MAX)
    index.throw_bad_pair(first_bad, read_value<cl_int>(runtime, u, first_bad),
                         read_value<cl_int>(runtime, v, first_bad));
}

}  // namespace treefix::detail

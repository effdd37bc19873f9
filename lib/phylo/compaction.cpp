// Compaction and gathers of int32 lists (compaction.hpp).
#include "compaction.hpp"

#include <climits>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix::detail {

std::size_t compact(Runtime& runtime, const cl::Buffer& flag, std::size_t n, const cl::Buffer& out,
                    const cl::Buffer& position, const cl::Buffer* map, Profile* profile) {
  if (n > static_cast<std::size_t>(INT32_MAX))
    throw CapacityError("a compaction of " + std::to_string(n) + " flags: at most 2^31 - 1");
  // The total lands in position[n] (a sub-buffer would need an aligned offset: copy instead).
  cl::Buffer& total = runtime.scratch("phylo.compact_total", sizeof(cl_int));
  scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, flag, position, n, profile,
       "compact", &total);
  translate_device_errors("compaction", [&] {
    runtime.queue().enqueueCopyBuffer(total, position, 0, n * sizeof(cl_int), sizeof(cl_int));
  });
  const std::size_t count = static_cast<std::size_t>(read_value<cl_int>(runtime, total));
  if (n == 0 || count == 0) return 0;
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "compact"});
  kernels.run("compact_scatter", kernels.items(n), flag, position, cl_uint(n), map ? *map : flag,
              cl_int(map != nullptr), out);
  return count;
}

void gather_ints(Runtime& runtime, const cl::Buffer& index, const cl::Buffer& from, std::size_t n,
                 const cl::Buffer& to, Profile* profile) {
  if (n == 0) return;
  Kernels kernels(runtime, "phylo/traversal.cl", "", {profile, "gather"});
  kernels.run("gather_ints", kernels.items(n), index, from, cl_uint(n), to);
}

}  // namespace treefix::detail

#pragma once
// Internal to the phylo module: how a query over pairs of vertices runs, whatever it answers
// (lca, distances). On the device, a kernel over the pairs flags the first pair with a vertex out
// of range and the host words the error; from host arrays, the pairs go in chunks through
// reused device buffers, and an error names the pair by its place in the whole arrays.
#include <algorithm>
#include <cstddef>

#include "treefix/core/device_array.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/phylo/lca.hpp"

namespace treefix::detail {

// Runs `kernel` over `count` pairs of device buffers u, v with the arguments (u, v, count, n),
// the index's (LcaIndex::bind), those `outputs` sets, then the flag of the first bad pair.
// InputError naming the first pair with a vertex out of range; `what` names the pairs in the
// capacity error ("lca pairs", "distances").
void run_pair_kernel(Runtime& runtime, const LcaIndex& index, Kernels& kernels, const char* kernel,
                     const cl::Buffer& u, const cl::Buffer& v, std::size_t count, const char* what,
                     const BindArgs& outputs);

// out[i] for the pairs (u[i], v[i]), i < count, host arrays: chunks of at most `chunk_pairs`,
// each sent, answered by answer(u, v, size, out) on device buffers (workspace slots "lca.u",
// "lca.v" and `out_slot`) and read back before the next.
template <class T, class Answer>
void answer_in_chunks(Runtime& runtime, const LcaIndex& index, const vertex_t* u, const vertex_t* v,
                      std::size_t count, T* out, std::size_t chunk_pairs, const char* out_slot,
                      const Answer& answer) {
  const std::size_t chunk = std::min(count, std::max<std::size_t>(chunk_pairs, 1));
  auto du = DeviceArray<vertex_t>::workspace(runtime, "lca.u", chunk);
  auto dv = DeviceArray<vertex_t>::workspace(runtime, "lca.v", chunk);
  auto dout = DeviceArray<T>::workspace(runtime, out_slot, chunk);
  const std::size_t n = index.size();
  for (std::size_t begin = 0; begin < count; begin += chunk) {
    const std::size_t size = std::min(chunk, count - begin);
    du.write_from(runtime, u + begin, size);
    dv.write_from(runtime, v + begin, size);
    try {
      answer(du.buffer(), dv.buffer(), size, dout.buffer());
    } catch (const InputError&) {  // name the pair by its place in the whole array
      for (std::size_t i = begin; i < begin + size; ++i)
        if (u[i] < 0 || v[i] < 0 || static_cast<std::size_t>(u[i]) >= n ||
            static_cast<std::size_t>(v[i]) >= n)
          index.throw_bad_pair(i, u[i], v[i]);
      throw;
    }
    dout.read_into(runtime, out + begin, size);
  }
}

}  // namespace treefix::detail

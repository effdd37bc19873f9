// Stable LSD radix sort of (uint key, int value) pairs (treefix/primitives/radix_sort.hpp).
#include "treefix/primitives/radix_sort.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "treefix/core/detail/runtime_tuning.hpp"
#include "primitives/primitives_tuning.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {

namespace {
constexpr unsigned kDigitBits = 8;

void check_sort(std::size_t count, unsigned key_bits, unsigned most_bits) {
  if (key_bits < 1 || key_bits > most_bits)
    throw InputError("radix sort: " + std::to_string(key_bits) + " key bits (1 to " +
                     std::to_string(most_bits) + ")");
  if (count >= (std::size_t(1) << 31))
    throw CapacityError("radix sort of " + std::to_string(count) + " pairs: at most 2^31 - 1");
}

struct SortKernels {
  Kernels kernels;
  std::size_t items;
};
// The sort's kernels: work-groups of at most 256 and the radix_sort_items knob pairs each, as
// many as the device's local memory holds (a tile needs 6 bytes a pair, plus 2 KB).
SortKernels sort_kernels(Runtime& runtime, const Phase& phase) {
  const std::size_t wg = std::min<std::size_t>(256, runtime.tuning()[knobs::work_group_size]);
  const std::size_t local = runtime.description().local_mem_bytes;
  const std::size_t room = local > 4096 ? (local - 2048) / (6 * wg) : 1;
  const std::size_t items = std::max<std::size_t>(
      1, std::min<std::size_t>(runtime.tuning()[knobs::radix_sort_items], room));
  return {
      Kernels(runtime, "primitives/radix_sort.cl", "-DITEMS=" + std::to_string(items), phase, wg),
      items};
}

// Checks the arguments, then runs sort(phase) with the phase "sort", OpenCL errors translated;
// nothing for no pairs.
template <class Sort>
void sort_pairs(std::size_t count, unsigned key_bits, unsigned most_bits, Profile* profile,
                Sort sort) {
  check_sort(count, key_bits, most_bits);
  if (count == 0) return;
  translate_device_errors("radix sort", [&] { sort(Phase{profile, "sort"}); });
}

// Copies the sorted pairs from the workspace back into the caller's arrays.
void copy_pairs(Runtime& runtime, const Phase& phase, const cl::Buffer& key_from,
                const cl::Buffer& keys, std::size_t key_bytes, const cl::Buffer& value_from,
                const cl::Buffer& values, std::size_t count) {
  cl::Event copied_keys, copied_values;
  runtime.queue().enqueueCopyBuffer(key_from, keys, 0, 0, count * key_bytes, nullptr, &copied_keys);
  runtime.queue().enqueueCopyBuffer(value_from, values, 0, 0, count * sizeof(cl_int), nullptr,
                                    &copied_values);
  phase.record(copied_keys);
  phase.record(copied_values);
}
}  // namespace

unsigned key_bits_for(std::size_t max_key) {
  unsigned bits = 1;
  while (bits < 64 && (max_key >> bits) != 0) ++bits;
  return bits;
}

void radix_sort_by_key(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                       std::size_t count, unsigned key_bits, bool identity_values,
                       Profile* profile) {
  sort_pairs(count, key_bits, 32, profile, [&](const Phase& phase) {
    auto [sort, items] = sort_kernels(runtime, phase);
    const std::size_t tile = sort.wg_size() * items;
    const std::size_t tiles = (count + tile - 1) / tile;
    cl::Buffer key_other = runtime.scratch("radix.keys", count * sizeof(cl_uint));
    cl::Buffer value_other = runtime.scratch("radix.values", count * sizeof(cl_int));
    cl::Buffer counts = runtime.scratch("radix.counts", (std::size_t(1) << kDigitBits) * tiles * 4);
    cl::Buffer key_in = keys, value_in = values, key_out = key_other, value_out = value_other;
    const cl_uint n = static_cast<cl_uint>(count);
    cl_int identity = identity_values;
    for (unsigned shift = 0; shift < key_bits; shift += kDigitBits) {
      const cl_uint bits = std::min(kDigitBits, key_bits - shift);
      sort.run("radix_count", sort.groups(tiles), key_in, n, cl_uint(shift), bits, counts);
      scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, counts, counts,
           (std::size_t(1) << bits) * tiles, profile, "sort");
      sort.run("radix_scatter", sort.groups(tiles), key_in, value_in, identity, n, cl_uint(shift),
               bits, counts, key_out, value_out);
      identity = 0;
      std::swap(key_in, key_out);
      std::swap(value_in, value_out);
    }
    if (key_in() != keys())  // an odd number of passes: the result is in the workspace
      copy_pairs(runtime, phase, key_in, keys, sizeof(cl_uint), value_in, values, count);
  });
}

void radix_sort_by_key64(Runtime& runtime, const cl::Buffer& keys, const cl::Buffer& values,
                         std::size_t count, unsigned key_bits, bool identity_values,
                         Profile* profile) {
  sort_pairs(count, key_bits, 64, profile, [&](const Phase& phase) {
    Kernels halves = sort_kernels(runtime, phase).kernels;
    const Grid grid = halves.grid_stride(count);
    const cl_uint n = static_cast<cl_uint>(count);
    cl::Buffer half = runtime.scratch("radix64.half", count * sizeof(cl_uint));
    cl::Buffer order = runtime.scratch("radix64.order", count * sizeof(cl_int));
    halves.run("key_low_words", grid, n, keys, half);
    radix_sort_by_key(runtime, half, order, count, std::min(32u, key_bits), true, profile);
    if (key_bits > 32) {
      halves.run("key_high_words", grid, n, order, keys, half);
      radix_sort_by_key(runtime, half, order, count, key_bits - 32, false, profile);
    }
    cl::Buffer key_out = runtime.scratch("radix64.keys", count * sizeof(cl_ulong));
    cl::Buffer value_out = runtime.scratch("radix64.values", count * sizeof(cl_int));
    halves.run("gather_pairs", grid, n, order, keys, values, cl_int(identity_values), key_out,
               value_out);
    copy_pairs(runtime, phase, key_out, keys, sizeof(cl_ulong), value_out, values, count);
  });
}

}  // namespace treefix

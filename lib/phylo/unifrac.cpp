// UniFrac on the device (treefix/phylo/unifrac.hpp; kernels/phylo/unifrac.cl).
#include "treefix/phylo/unifrac.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "compaction.hpp"
#include "narrow_tour.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {

namespace {
constexpr std::size_t kTileSide = 16;  // TILE_SIDE of unifrac.cl: a work-group is 16 x 16 pairs
constexpr std::size_t kChunk = 32;     // CHUNK: branches staged at a time

void check_columns(const std::vector<vertex_t>& columns, std::size_t n) {
  std::vector<std::int64_t> seen(n, -1);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const vertex_t v = columns[c];
    if (v < 0 || static_cast<std::size_t>(v) >= n)
      throw InputError("unifrac: column " + std::to_string(c) + " is vertex " + std::to_string(v) +
                       ", not a vertex of the tree (" + std::to_string(n) + " vertices)");
    if (seen[v] >= 0)
      throw InputError("unifrac: vertex " + std::to_string(v) + " is columns " +
                       std::to_string(seen[v]) + " and " + std::to_string(c));
    seen[v] = static_cast<std::int64_t>(c);
  }
}
}  // namespace

void unifrac(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
             const std::int64_t* counts, std::size_t samples, const std::vector<vertex_t>& columns,
             const UnifracOptions& options, double* condensed) {
  const std::size_t n = tree.size(), width = columns.size();
  if (options.normalized && !options.weighted)
    throw InputError("unifrac: normalized goes with weighted");
  if (lengths.size() != n)
    throw InputError(std::to_string(lengths.size()) + " branch lengths for a tree of " +
                     std::to_string(n) + " vertices");
  check_columns(columns, n);
  if (samples < 2) return;
  if (samples > UINT32_MAX / 2 || width > static_cast<std::size_t>(INT32_MAX) - 1)
    throw CapacityError("unifrac of " + std::to_string(samples) + " samples of " +
                        std::to_string(width) + " columns: too many");
  const DeviceEulerTour& tour = detail::narrow_tour(tree, "unifrac on", options.profile);
  Profile* profile = options.profile;
  Kernels kernels(runtime, "phylo/unifrac.cl", "", {profile, "unifrac"}, kTileSide * kTileSide);
  if (kernels.wg_size() != kTileSide * kTileSide)
    throw CapacityError("unifrac needs work-groups of 256 work-items; this device's programs get " +
                        std::to_string(kernels.wg_size()));
  const std::uint64_t count_bytes = std::uint64_t(samples) * (2 * width + 1) * 8;
  // 1. columns in pre-order, and each sample's prefix sums in that order
  auto column = DeviceArray<vertex_t>::upload(runtime, columns, profile, "unifrac columns");
  cl::Buffer key =
      runtime.allocate(std::max<std::size_t>(width, 1) * sizeof(cl_uint), "column ranks");
  cl::Buffer order =
      runtime.allocate(std::max<std::size_t>(width, 1) * sizeof(cl_int), "columns in pre-order");
  cl::Buffer flag = runtime.allocate(n * sizeof(cl_int), "counted ranks");
  cl::Buffer below = runtime.allocate((n + 1) * sizeof(cl_int), "columns before each rank");
  fill(runtime, flag, cl_int(0), n);
  kernels.run("unifrac_column_ranks", kernels.items(width), column, cl_uint(width), tour.pre_rank(),
              key, flag);
  if (width) radix_sort_by_key(runtime, key, order, width, key_bits_for(n), true, profile);
  cl::Buffer& total = runtime.scratch("unifrac.total", sizeof(cl_int));
  scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, flag, below, n, profile, "unifrac",
       &total);
  translate_device_errors("unifrac", [&] {
    runtime.queue().enqueueCopyBuffer(total, below, 0, n * sizeof(cl_int), sizeof(cl_int));
  });
  runtime.require_fits("unifrac counts of " + std::to_string(samples) + " samples", count_bytes,
                       std::uint64_t(samples) * (width + 1) * 8);
  auto matrix = DeviceArray<std::int64_t>(runtime, std::max<std::size_t>(samples * width, 1),
                                          "unifrac counts");
  matrix.write_from(runtime, counts, samples * width);
  cl::Buffer prefix = runtime.allocate(samples * (width + 1) * 8, "unifrac prefix sums");
  cl::Buffer& bad = runtime.scratch("unifrac.bad", sizeof(cl_uint));
  fill(runtime, bad, cl_uint(UINT32_MAX), 1);
  kernels.run("unifrac_prefix", kernels.groups(samples), matrix, order, cl_uint(width), prefix,
              bad);
  const cl_uint bad_sample = read_value<cl_uint>(runtime, bad);
  if (bad_sample != UINT32_MAX) {
    const std::int64_t* row = counts + std::size_t(bad_sample) * width;
    const std::size_t c = static_cast<std::size_t>(
        std::find_if(row, row + width, [](std::int64_t x) { return x < 0; }) - row);
    throw InputError("unifrac: sample " + std::to_string(bad_sample) + " has a negative count (" +
                     std::to_string(row[c]) + ") in column " + std::to_string(c));
  }
  matrix = DeviceArray<std::int64_t>();  // the counts are in the prefix sums now
  // 2. the branches that matter: non-zero length, counted vertices below
  cl::Buffer lo = runtime.allocate(n * sizeof(cl_int), "branch runs");
  cl::Buffer hi = runtime.allocate(n * sizeof(cl_int), "branch run ends");
  kernels.run("unifrac_branch_flags", kernels.items(n), tour.open_pos(), tour.close_pos(),
              tour.pre_rank(), below, lengths, cl_uint(n), flag, lo, hi);
  cl::Buffer branch = runtime.allocate(n * sizeof(cl_int), "branches");
  const std::size_t m = detail::compact(runtime, flag, n, branch, below, nullptr, profile);
  const std::size_t padded = std::max<std::size_t>(kChunk, (m + kChunk - 1) / kChunk * kChunk);
  cl::Buffer branch_lo = runtime.allocate(padded * sizeof(cl_int), "branch runs");
  cl::Buffer branch_hi = runtime.allocate(padded * sizeof(cl_int), "branch run ends");
  cl::Buffer branch_length = runtime.allocate(padded * sizeof(double), "branch lengths");
  kernels.run("unifrac_branches", kernels.items(padded), branch, cl_uint(m), cl_uint(padded), lo,
              hi, lengths, branch_lo, branch_hi, branch_length);
  // 3. each sample's fraction (or presence) below each branch
  runtime.require_fits("unifrac fractions of " + std::to_string(samples) + " samples over " +
                           std::to_string(m) + " branches",
                       std::uint64_t(samples) * (width + 1 + padded) * 8,
                       std::uint64_t(samples) * padded * 8);
  cl::Buffer fraction = runtime.allocate(samples * padded * sizeof(double), "unifrac fractions");
  kernels.run("unifrac_fractions", kernels.items(samples * padded), prefix, cl_uint(samples),
              cl_uint(width), branch_lo, branch_hi, cl_uint(padded), cl_int(!options.weighted),
              fraction);
  cl::Buffer sums = runtime.allocate(samples * sizeof(double), "sample sums");
  if (options.normalized)
    kernels.run("unifrac_sample_sums", kernels.groups(samples), fraction, branch_length,
                cl_uint(padded), sums);
  // 4. the pairs, tile by tile
  const std::size_t pairs = samples * (samples - 1) / 2;
  const std::size_t tiles = (samples + kTileSide - 1) / kTileSide;
  cl::Buffer out = runtime.allocate(pairs * sizeof(double), "unifrac distances");
  kernels.run("unifrac_pairs", kernels.groups(tiles * (tiles + 1) / 2), fraction, branch_length,
              cl_uint(padded), cl_uint(samples), cl_int(!options.weighted),
              cl_int(options.normalized), prefix, cl_uint(width), sums, out);
  detail::read_buffer(runtime, out, condensed, pairs * sizeof(double), profile);
}

}  // namespace treefix

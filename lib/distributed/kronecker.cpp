// The distributed Kronecker generator (distributed/distributed_graph.hpp). Edge i is drawn from a
// counter-based hash of (seed, i), so any rank can make any edge without generator state: the
// graph depends on the seed alone, never on the rank count.
#include <cmath>

#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_graph.hpp"

namespace treefix {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser: a bijection of 64-bit words
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// A bijection of [0, 2^scale) (Graph500 scrambles vertex labels so that the hubs, the ids with
// few one bits, spread over the ranks): rounds of an odd multiplier and a right xor-shift, both
// invertible modulo 2^scale.
struct Scramble {
  std::uint64_t mask, multiplier[3], addend[3];
  unsigned shift;
  Scramble(unsigned scale, std::uint64_t seed)
      : mask(scale == 64 ? ~0ull : (1ull << scale) - 1), shift(scale / 2 + 1) {
    for (int round = 0; round < 3; ++round) {
      multiplier[round] = mix(seed * 3 + round) | 1;
      addend[round] = mix(seed * 5 + round + 11);
    }
  }
  std::uint64_t operator()(std::uint64_t x) const {
    for (int round = 0; round < 3; ++round) {
      x = (x * multiplier[round] + addend[round]) & mask;
      x ^= x >> shift;
    }
    return x;
  }
};

constexpr unsigned kLevelBits = 21;  // a hash word decides three levels, 21 bits each
constexpr std::uint64_t kLevelRange = 1ull << kLevelBits;
// Graph500's initiator, in units of 2^-21: A = 0.57, A + B = 0.76, A + B + C = 0.95.
constexpr std::uint64_t kA = static_cast<std::uint64_t>(0.57 * kLevelRange),
                        kAB = static_cast<std::uint64_t>(0.76 * kLevelRange),
                        kABC = static_cast<std::uint64_t>(0.95 * kLevelRange);

}  // namespace

LocalGraph kronecker_local_graph(const World& world, unsigned scale, unsigned edge_factor,
                                 std::uint64_t seed) {
  if (scale < 1 || scale > 30)
    throw InputError("Kronecker scale " + std::to_string(scale) +
                     ": 1..30 (vertex ids are 32-bit)");
  const std::uint64_t n = 1ull << scale, edges = n * edge_factor;
  const std::uint64_t first = edges * world.rank() / world.size(),
                      last = edges * (world.rank() + 1) / world.size();
  const std::size_t count = static_cast<std::size_t>(last - first);
  std::vector<vertex_t> source(count), target(count);
  const Scramble scramble(scale, seed);
  const std::uint64_t key = mix(seed ^ 0x5eed5eed5eedull);
  const Ranges ranges(count, host_threads() * 4, 1 << 16);
  parallel_for(ranges.count, [&](std::size_t piece) {
    for (std::size_t k = ranges.begin(piece); k < ranges.end(piece); ++k) {
      const std::uint64_t edge = first + k;
      std::uint64_t u = 0, v = 0, word = 0;
      for (unsigned level = 0; level < scale; ++level) {
        if (level % 3 == 0) word = mix(key + mix(edge * 16 + level / 3));
        const std::uint64_t r = (word >> (kLevelBits * (level % 3))) & (kLevelRange - 1);
        const unsigned row_bit = r >= kAB, column_bit = (r >= kA && r < kAB) || r >= kABC;
        u = u << 1 | row_bit;
        v = v << 1 | column_bit;
      }
      source[k] = static_cast<vertex_t>(scramble(u));
      target[k] = static_cast<vertex_t>(scramble(v));
    }
  });
  return local_graph_from_arcs(world, static_cast<std::size_t>(n), std::move(source),
                               std::move(target), true);
}

}  // namespace treefix

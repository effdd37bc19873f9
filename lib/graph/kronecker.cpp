// The Kronecker generator (treefix/graph/generate.hpp). Edge i is drawn from a counter-based hash
// of (seed, i), so any rank can make any edge without generator state: the graph depends on the
// seed alone, never on the rank count or the device.
#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/mix.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/graph/edge_stream.hpp"
#include "treefix/graph/generate.hpp"

namespace treefix::generate {

namespace {

// A bijection of [0, 2^scale) (Graph500 scrambles vertex labels so that the hubs, the ids with
// few one bits, spread over the ranks): rounds of an odd multiplier and a right xor-shift, both
// invertible modulo 2^scale.
struct Scramble {
  std::uint64_t mask, multiplier[3], addend[3];
  unsigned shift;
  Scramble(unsigned scale, std::uint64_t seed)
      : mask(scale == 64 ? ~0ull : (1ull << scale) - 1), shift(scale / 2 + 1) {
    for (int round = 0; round < 3; ++round) {
      multiplier[round] = mix64(seed * 3 + round) | 1;
      addend[round] = mix64(seed * 5 + round + 11);
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

// Edges of the stream of (scale, seed): endpoints drawn level by level from hash words of
// (seed, i), then scrambled. A level takes 21 bits of a word: its row bit is r >= A + B, its
// column bit (A <= r < A + B or r >= A + B + C) is (r >= A) ^ (r >= A + B) ^ (r >= A + B + C).
struct KroneckerEdges {
  unsigned scale;
  Scramble scramble;
  std::uint64_t key;
  KroneckerEdges(unsigned s, std::uint64_t seed)
      : scale(s), scramble(s, seed), key(mix64(seed ^ 0x5eed5eed5eedull)) {}
};

constexpr unsigned kBlockEdges = 16;

// Edges [first, first + kBlockEdges): each step works on the whole block, lane by lane, so that the
// compiler runs the lanes in vector registers (the hash is 64-bit multiplies; cloned for AVX-512
// and AVX2 where the build's compiler can, chosen at run time). Twice the speed of one edge at a
// time on AVX-512.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#endif
void make_block(const KroneckerEdges& stream, std::uint64_t first, vertex_t* source,
                vertex_t* target) {
  std::uint64_t u[kBlockEdges] = {}, v[kBlockEdges] = {}, word[kBlockEdges];
  unsigned level = 0;
  for (std::uint64_t w = 0; level < stream.scale; ++w) {
    for (unsigned l = 0; l < kBlockEdges; ++l)
      word[l] = mix64(stream.key + mix64((first + l) * 16 + w));
    for (unsigned j = 0; j < 3 && level < stream.scale; ++j, ++level)
      for (unsigned l = 0; l < kBlockEdges; ++l) {
        const std::uint64_t r = (word[l] >> (kLevelBits * j)) & (kLevelRange - 1);
        const std::uint64_t a = r >= kA, b = r >= kAB, c = r >= kABC;
        u[l] = u[l] << 1 | b;
        v[l] = v[l] << 1 | (a ^ b ^ c);
      }
  }
  for (unsigned l = 0; l < kBlockEdges; ++l) {
    source[l] = static_cast<vertex_t>(stream.scramble(u[l]));
    target[l] = static_cast<vertex_t>(stream.scramble(v[l]));
  }
}

// Edges [first, last) into source and target, on the host cores.
void make_edges(const KroneckerEdges& stream, std::uint64_t first, std::uint64_t last,
                vertex_t* source, vertex_t* target) {
  const std::size_t count = static_cast<std::size_t>(last - first);
  const std::size_t blocks = (count + kBlockEdges - 1) / kBlockEdges;
  const Ranges ranges(blocks, host_threads() * 4, 1 << 10);
  parallel_for(ranges.count, [&](std::size_t piece) {
    vertex_t tail_source[kBlockEdges], tail_target[kBlockEdges];
    for (std::size_t b = ranges.begin(piece); b < ranges.end(piece); ++b) {
      const std::size_t at = b * kBlockEdges, here = std::min<std::size_t>(kBlockEdges, count - at);
      if (here == kBlockEdges) {
        make_block(stream, first + at, source + at, target + at);
      } else {  // the last, short block: made whole, kept in part
        make_block(stream, first + at, tail_source, tail_target);
        std::copy(tail_source, tail_source + here, source + at);
        std::copy(tail_target, tail_target + here, target + at);
      }
    }
  });
}

void check_scale(unsigned scale) {
  if (scale > 30)
    throw InputError("kronecker scale " + std::to_string(scale) +
                     " exceeds 30 (vertex ids are 32-bit)");
}

}  // namespace

void kronecker_edges(unsigned scale, std::uint64_t seed, std::uint64_t first, std::uint64_t last,
                     vertex_t* source, vertex_t* target) {
  check_scale(scale);
  make_edges(KroneckerEdges(scale, seed), first, last, source, target);
}

std::uint64_t kronecker_host_bytes(unsigned scale, unsigned edge_factor, int ranks) {
  check_scale(scale);
  const std::uint64_t n = 1ull << scale;
  return edge_stream_host_bytes(static_cast<std::size_t>(n), n * edge_factor, ranks, true);
}

Csr kronecker(unsigned scale, unsigned edge_factor, std::uint64_t seed, const GraphLimits& limits,
              PhaseTimes* phases) {
  check_scale(scale);
  const std::size_t n = std::size_t{1} << scale;
  const std::uint64_t edges = std::uint64_t{n} * edge_factor;  // at most 2^30 * 2^32
  // The rows of both arcs of every edge (csr_build_bytes counts 4 bytes an arc more than the
  // stream's rows hold, which covers a round in flight): refused before generating.
  require_graph_fits(limits,
                     "kronecker graph of scale " + std::to_string(scale) + " and edge factor " +
                         std::to_string(edge_factor),
                     n, bytes_for(edges, 2));
  const KroneckerEdges stream(scale, seed);
  return csr_from_edge_stream(
      n, edges, true,
      [&](std::uint64_t from, std::uint64_t to, vertex_t* source, vertex_t* target) {
        make_edges(stream, from, to, source, target);
      },
      phases);
}

}  // namespace treefix::generate

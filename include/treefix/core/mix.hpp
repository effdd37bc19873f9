#pragma once
// splitmix64's step and finaliser (Steele, Lea & Flood, 2014): a bijection of 64-bit words that
// scatters every input bit over the output. The library's one integer hash: the Kronecker
// generator's counter-based draws, the keyed arc sums of the symmetry test and the graph hash,
// and the draw of Graph500's search roots.
#include <cstdint>

namespace treefix {

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace treefix

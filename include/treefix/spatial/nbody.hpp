#pragma once
// Barnes-Hut gravity on an octree, run by the rope-stack engine (kernels/ropes_nbody.clh).
// Units with G = 1: a_i = sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^{3/2}; a cell of
// side s at distance d (body to centre of mass) is replaced by its mass when s < theta * d
// (theta = 0: the exact direct sum). Coincident bodies with eps = 0 exert no force on each other.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "treefix/core/runtime.hpp"
#include "treefix/spatial/ropes.hpp"
#include "treefix/spatial/trees.hpp"

namespace treefix {

struct Bodies {
  std::vector<float> mass;
  PointSet position{0, 3};  // dim 3
  PointSet velocity{0, 3};  // dim 3
  std::size_t size() const { return mass.size(); }
  explicit Bodies(std::size_t n = 0) : mass(n), position(n, 3), velocity(n, 3) {}
};

struct GravityOptions {
  double theta = 0.5;
  double eps = 0.01;
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;  // sorted: bodies run in the octree's leaf order
  int leaf_size = 8;
  Profile* profile = nullptr;
  TraversalStats* stats = nullptr;
  Variant* chosen = nullptr;
};

// Accelerations of all bodies, (ax, ay, az) per body: acc[3*i + k].
std::vector<float> accelerations(Runtime& runtime, const Bodies& bodies,
                                 const GravityOptions& options = {});
// The same traversal on an already built octree (benchmarks time the traversal alone).
std::vector<float> accelerations(Runtime& runtime, const Octree& tree,
                                 const GravityOptions& options);

// `steps` leapfrog (kick-drift-kick) steps of length dt; the octree is rebuilt every step.
void leapfrog(Runtime& runtime, Bodies& bodies, int steps, double dt,
              const GravityOptions& options = {});

namespace generate {
// A Plummer sphere (Aarseth, Henon & Wielen 1974) of total mass 1 in standard N-body units
// (G = M = 1, E = -1/4), equal masses, centred at rest. Deterministic for a seed.
Bodies plummer(std::size_t n, std::uint64_t seed);
}  // namespace generate

namespace reference {
// Direct O(n^2) sum in double precision.
std::vector<double> accelerations_direct(const Bodies& bodies, double eps, unsigned threads = 0);
// Barnes-Hut with the device's traversal on host threads (float, same opening test).
std::vector<float> accelerations_tree(const Octree& tree, double theta, double eps,
                                      unsigned threads = 0,
                                      std::vector<std::uint32_t>* visits = nullptr);
}  // namespace reference

}  // namespace treefix

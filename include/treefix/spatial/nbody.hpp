#pragma once
// Barnes-Hut gravity on an octree, run by the rope-stack engine (kernels/spatial/ropes_nbody.clh).
// Units with G = 1: a_i = sum_{j != i} m_j (x_j - x_i) / (|x_j - x_i|^2 + eps^2)^{3/2}; a cell of
// side s at distance d (body to centre of mass) is replaced by its mass when s < theta * d
// (theta = 0: the exact direct sum). Coincident bodies with eps = 0 exert no force on each other.
// Any finite coordinates work: positions are scaled by a power of two on the device when some
// |x| >= 2^40 (kernels/spatial/ropes_nbody.clh), so squared distances cannot overflow; results
// that float cannot hold (eps = 0 and nearly coincident bodies, a total mass beyond float) are
// refused with a message instead of becoming NaN.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "treefix/core/device_array.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/spatial/device_build.hpp"
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

// Bodies on the device, as Bodies: masses, positions and velocities (structure of arrays).
struct DeviceBodies {
  std::size_t n = 0;
  DeviceArray<float> mass, position, velocity;
  // Refuses non-finite values, negative masses and a total mass beyond float (InputError).
  static DeviceBodies upload(Runtime& runtime, const Bodies& bodies, Profile* profile = nullptr);
  Bodies download(Runtime& runtime, Profile* profile = nullptr) const;
};

struct GravityOptions {
  double theta = 0.5;
  double eps = 0.01;
  Variant variant = Variant::automatic;
  SortMode sort = SortMode::automatic;  // sorted: bodies run in the octree's leaf order
  int leaf_size = 8;
  Profile* profile = nullptr;  // phases: the build's (device_build.hpp), traverse, integrate
  TraversalStats* stats = nullptr;
  Variant* chosen = nullptr;
};

// Accelerations of all bodies, (ax, ay, az) per body: acc[3*i + k] (octree built on the device).
std::vector<float> accelerations(Runtime& runtime, const Bodies& bodies,
                                 const GravityOptions& options = {});
// The same traversal on an already built octree (benchmarks time the traversal alone).
std::vector<float> accelerations(Runtime& runtime, const Octree& tree,
                                 const GravityOptions& options);
// On a device octree: acc (3 * tree.bodies values) for the bodies in the order they were given
// to build_octree. Sorted (options.sort), the bodies run in the tree's order and the results
// are scattered back on the device.
void accelerations(Runtime& runtime, const DeviceOctree& tree, DeviceArray<float>& acc,
                   const GravityOptions& options);

// Leapfrog (kick-drift-kick) time steps on the device. Every step runs there: bounding box,
// codes, sort, octree, summary, body sort (sorted: the state is kept in the tree's order, so the
// force traversal runs on neighbouring bodies), force and integration; nothing is read back
// between steps. Every `snapshot_every` steps (0: never) the bodies are downloaded, in their
// input order, and handed to `snapshot` with the step number. At the end `bodies` holds the
// final state in input order. Throws Error naming the first step whose positions or velocities
// stopped being finite (float overflow).
struct StepOptions {
  int steps = 1;
  double dt = 0.01;
  int snapshot_every = 0;
  std::function<void(int step, const Bodies& state)> snapshot;
  // Called on the host after each step is queued (a progress display; it must not throw).
  std::function<void(int step)> stepped;
};
void leapfrog(Runtime& runtime, DeviceBodies& bodies, const StepOptions& steps,
              const GravityOptions& options = {});
// Host convenience: upload, steps on the device, download.
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

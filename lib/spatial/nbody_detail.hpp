#pragma once
// Internal to the spatial module: the Barnes-Hut pieces shared by the one-shot accelerations
// (nbody.cpp) and the device time steps (nbody_steps.cpp).
#include "treefix/spatial/device_build.hpp"
#include "treefix/spatial/nbody.hpp"

namespace treefix::detail {

// InputError for theta or eps negative or not finite.
void check_gravity(const GravityOptions& options);
// kernels/spatial/ropes_nbody.clh as traversal pieces (unguided, coherent).
TraversalPieces gravity_pieces();
// The force traversal over the tree's bodies: item i is the body at tree position
// query_body[i]; acc[3*i + k] (units of the input, the frame's scale undone).
// overflow: run_traversal's deferred stack-overflow flag (nullptr: checked at once).
void gravity_traversal(Runtime& runtime, const DeviceOctree& tree, const cl::Buffer& query_body,
                       DeviceArray<float>& acc, Variant variant, const GravityOptions& options,
                       const cl::Buffer* overflow = nullptr);
// query_body for sorted runs (item = tree position) or input-order runs (item = input index).
void run_order_of_bodies(Runtime& runtime, const DeviceOctree& tree, bool sorted,
                         DeviceArray<std::int32_t>& query_body, Profile* profile);

}  // namespace treefix::detail

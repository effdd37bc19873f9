// Leapfrog time steps on the device (treefix/spatial/nbody.hpp): the state stays on the device,
// in the octree's order when sorted; kernels/spatial/nbody_step.cl integrates.
#include <climits>
#include <cmath>
#include <limits>
#include <string>

#include "treefix/primitives/detail/permute_rows.hpp"
#include "spatial/nbody_detail.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/interrupt.hpp"
#include "treefix/spatial/nbody.hpp"

namespace treefix {

DeviceBodies DeviceBodies::upload(Runtime& runtime, const Bodies& bodies, Profile* profile) {
  double total = 0;
  for (float m : bodies.mass) {
    if (!std::isfinite(m) || m < 0) throw InputError("nbody: masses must be finite and >= 0");
    total += m;
  }
  if (total > std::numeric_limits<float>::max())
    throw InputError("nbody: the total mass " + std::to_string(total) +
                     " exceeds the float range (3.4e38); rescale the masses");
  for (const PointSet* p : {&bodies.position, &bodies.velocity})
    for (float v : p->coord)
      if (!std::isfinite(v)) throw InputError("nbody: positions and velocities must be finite");
  DeviceBodies d;
  d.n = bodies.size();
  d.mass = DeviceArray<float>::upload(runtime, bodies.mass, profile, "body masses");
  d.position = DeviceArray<float>::upload(runtime, bodies.position.coord, profile, "positions");
  d.velocity = DeviceArray<float>::upload(runtime, bodies.velocity.coord, profile, "velocities");
  return d;
}

Bodies DeviceBodies::download(Runtime& runtime, Profile* profile) const {
  Bodies b(n);
  b.mass = mass.download(runtime, profile);
  b.position.coord = position.download(runtime, profile);
  b.velocity.coord = velocity.download(runtime, profile);
  return b;
}

namespace {

// The evolving state: bodies in the order of the last tree (sorted) or in input order, with the
// input index of each (id) and the accelerations of the last force pass.
struct State {
  std::size_t n;
  DeviceArray<float> position, velocity, mass, acc;
  DeviceArray<std::int32_t> id;
};

class Stepper {
 public:
  Stepper(Runtime& runtime, const DeviceBodies& bodies, const GravityOptions& options)
      : rt_(runtime),
        o_(options),
        sorted_(choose_sort(options.sort, bodies.n)),
        variant_(choose_variant(runtime, options.variant, detail::gravity_pieces(), sorted_, [&] {
          return neighbour_spread(runtime, bodies.position.buffer(), bodies.n, 3, bodies.n,
                                  lockstep_width(runtime));  // the caller's order, tested
        })),
        integrate_(runtime, "spatial/nbody_step.cl", "", {options.profile, "integrate"}),
        floats_(runtime, "float", {options.profile, "body sort"}),
        ints_(runtime, "int", {options.profile, "body sort"}) {
    if (o_.chosen) *o_.chosen = variant_;
    const std::size_t n = bodies.n;
    s_ = {n,
          copy(bodies.position, 3 * n),
          copy(bodies.velocity, 3 * n),
          copy(bodies.mass, n),
          DeviceArray<float>(runtime, 3 * n, "accelerations"),
          DeviceArray<std::int32_t>(runtime, n, "body ids")};
    ints_.iota(n, s_.id.buffer());
    query_body_ = DeviceArray<std::int32_t>(runtime, n, "body order");
    spare_velocity_ = DeviceArray<float>(runtime, 3 * n, "velocities");
    spare_id_ = DeviceArray<std::int32_t>(runtime, n, "body ids");
    bad_ = DeviceArray<cl_int>(runtime, 1, "step overflow");
    fill(rt_, bad_.buffer(), cl_int(INT_MAX), 1);
    overflow_ = DeviceArray<cl_int>(runtime, 1, "stack overflow");
    fill(rt_, overflow_.buffer(), cl_int(0), 1);
  }

  // Tree, body sort and force for the current positions: s_.acc in the state's order. Two trees
  // alternate (the state may live in the last one's arrays), and so do two velocity and id
  // arrays: a step allocates nothing.
  void force() {
    const std::size_t n = s_.n;
    BuildOptions build{o_.leaf_size, o_.profile};
    current_ ^= 1;
    DeviceOctree& tree = trees_[current_];
    build_octree(rt_, DevicePoints{n, 3, s_.position}, s_.mass, build, tree);
    if (sorted_) {  // the state follows the tree's order: the tree's copies become the state
      floats_.gather_columns(n, 3, tree.body_index.buffer(), s_.velocity.buffer(),
                             spare_velocity_.buffer());
      ints_.gather_rows(n, 1, tree.body_index.buffer(), s_.id.buffer(), spare_id_.buffer());
      std::swap(s_.velocity, spare_velocity_);
      std::swap(s_.id, spare_id_);
      s_.position = tree.position;
      s_.mass = tree.mass;
    }
    detail::run_order_of_bodies(rt_, tree, sorted_, query_body_, o_.profile);
    detail::gravity_traversal(rt_, tree, query_body_.buffer(), s_.acc, variant_, o_,
                              &overflow_.buffer());
  }

  void kick_drift(double dt, int step) {
    integrate_.run("kick_drift", integrate_.grid_stride(s_.n), cl_uint(s_.n), s_.velocity,
                   s_.position, s_.acc, float(0.5 * dt), float(dt), cl_int(step), bad_);
  }
  void kick(double dt, int step) {
    integrate_.run("kick", integrate_.grid_stride(s_.n), cl_uint(s_.n), s_.velocity, s_.acc,
                   float(0.5 * dt), cl_int(step), bad_);
  }

  // Throws when a step overflowed (two reads of an int: the first waits for the steps).
  void check() {
    if (read_value<cl_int>(rt_, overflow_.buffer()))
      throw_stack_overflow("nbody", TreeShape{8, device_octree_height, 0}.stack_bound());
    const cl_int step = read_value<cl_int>(rt_, bad_.buffer());
    if (step != INT_MAX)
      throw Error("nbody: step " + std::to_string(step) +
                  " produced a position or velocity beyond the float range (with eps = 0, "
                  "nearly coincident bodies accelerate without bound: give a softening eps > 0)");
  }

  // The state in input order, into `out` (device arrays of the same sizes).
  void unsort_into(DeviceBodies& out) {
    const std::size_t n = s_.n;
    floats_.scatter_columns(n, 3, s_.id.buffer(), s_.position.buffer(), out.position.buffer());
    floats_.scatter_columns(n, 3, s_.id.buffer(), s_.velocity.buffer(), out.velocity.buffer());
  }

 private:
  DeviceArray<float> copy(const DeviceArray<float>& from, std::size_t count) {
    DeviceArray<float> to(rt_, count, "body state");
    if (count)
      rt_.queue().enqueueCopyBuffer(from.buffer(), to.buffer(), 0, 0, count * sizeof(float));
    return to;
  }

  Runtime& rt_;
  GravityOptions o_;
  bool sorted_;
  Variant variant_;
  Kernels integrate_;
  detail::Permuter floats_, ints_;
  State s_;
  DeviceOctree trees_[2];
  int current_ = 0;
  DeviceArray<float> spare_velocity_;
  DeviceArray<std::int32_t> spare_id_, query_body_;
  DeviceArray<cl_int> bad_, overflow_;
};

}  // namespace

void leapfrog(Runtime& runtime, DeviceBodies& bodies, const StepOptions& steps,
              const GravityOptions& options) {
  detail::check_gravity(options);
  if (steps.steps < 0) throw InputError("nbody: the number of steps must be >= 0");
  if (!std::isfinite(steps.dt)) throw InputError("nbody: dt must be finite");
  if (steps.snapshot_every < 0) throw InputError("nbody: snapshots every a negative step count");
  if (steps.steps == 0 || bodies.n == 0) return;
  translate_device_errors("nbody steps", [&] {
    Stepper stepper(runtime, bodies, options);
    stepper.force();
    for (int step = 1; step <= steps.steps; ++step) {
      stepper.kick_drift(steps.dt, step);
      stepper.force();
      stepper.kick(steps.dt, step);
      wait_interruptibly(runtime);  // a step at a time when the caller may interrupt
      if (steps.stepped) steps.stepped(step);
      if (steps.snapshot_every > 0 && step % steps.snapshot_every == 0 && steps.snapshot &&
          step != steps.steps) {
        stepper.check();
        stepper.unsort_into(bodies);
        steps.snapshot(step, bodies.download(runtime, options.profile));
      }
    }
    stepper.check();
    stepper.unsort_into(bodies);
    if (steps.snapshot_every > 0 && steps.steps % steps.snapshot_every == 0 && steps.snapshot)
      steps.snapshot(steps.steps, bodies.download(runtime, options.profile));
  });
}

void leapfrog(Runtime& runtime, Bodies& bodies, int steps, double dt,
              const GravityOptions& options) {
  detail::check_gravity(options);
  if (steps < 0) throw InputError("nbody: the number of steps must be >= 0");
  if (!std::isfinite(dt)) throw InputError("nbody: dt must be finite");
  if (steps == 0 || bodies.size() == 0) return;
  DeviceBodies device = DeviceBodies::upload(runtime, bodies, options.profile);
  leapfrog(runtime, device, StepOptions{steps, dt, 0, {}, {}}, options);
  bodies = device.download(runtime, options.profile);
}

}  // namespace treefix

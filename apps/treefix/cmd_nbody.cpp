// treefix nbody: Barnes-Hut accelerations or leapfrog steps of a body file.
#include <cmath>
#include <cstdio>
#include <memory>

#include "point_input.hpp"
#include "traversal_options.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/text_io.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct NbodyArgs {
  std::string bodies, output;
  int steps = 1;
  double theta = 0.5, eps = 0.01, dt = 0.01;
  bool accelerations = false;
  TraversalArgs traversal;
  PointInputArgs input;
};

void run_nbody(const NbodyArgs& args) {
  GravityOptions o = args.traversal.options<GravityOptions>();
  o.theta = args.theta;
  o.eps = args.eps;
  if (!(args.theta >= 0) || !std::isfinite(args.theta))
    throw InputError("--theta must be a finite number >= 0");
  if (!(args.eps >= 0) || !std::isfinite(args.eps))
    throw InputError("--eps must be a finite number >= 0");
  if (!(args.dt > 0) || !std::isfinite(args.dt))
    throw InputError("--dt must be a finite number > 0");
  if (args.steps < 0) throw InputError("--steps must be >= 0");
  Bodies bodies = args.input.bodies(args.bodies);
  Runtime runtime(args.traversal.device);
  if (args.accelerations) {
    auto acc = accelerations(runtime, bodies, o);
    write_output(args.output, [&](std::ostream& out) {
      char line[96];
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::snprintf(line, sizeof line, "%.9g %.9g %.9g\n", double(acc[3 * i]),
                      double(acc[3 * i + 1]), double(acc[3 * i + 2]));
        out << line;
      }
    });
    return;
  }
  leapfrog(runtime, bodies, args.steps, args.dt, o);
  write_output(args.output, [&](std::ostream& out) { write_bodies(out, bodies); });
}

void setup_nbody(CLI::App& app) {
  auto args = std::make_shared<NbodyArgs>();
  auto* c = add_command(app, "nbody",
                        "Barnes-Hut gravity (octree, G = 1): leapfrog steps or accelerations", args,
                        run_nbody);
  c->add_option("--bodies", args->bodies,
                "body file, rows 'mass x y z vx vy vz': 'n 7' then the rows; .xyz: rows only; "
                ".npy: an (n, 7) array")
      ->required();
  c->add_option("--steps", args->steps, "leapfrog steps (default 1)");
  c->add_option("--theta", args->theta, "opening angle (default 0.5; 0 = direct sum)");
  c->add_option("--eps", args->eps, "softening length (default 0.01)");
  c->add_option("--dt", args->dt, "time step (default 0.01)");
  c->add_flag("--accelerations", args->accelerations,
              "write 'ax ay az' per body for the input state instead of stepping");
  add_output_option(c, args->output, "output file");
  args->input.add_to(c);
  args->traversal.add_to(c, "bodies (the octree's leaf order)");
}

TREEFIX_COMMAND("nbody", setup_nbody);

}  // namespace
}  // namespace treefix::cli

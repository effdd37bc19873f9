// treefix nbody: Barnes-Hut accelerations or leapfrog steps of a body file, on the device: the
// bodies are uploaded once, every step (octree build, force, integration) runs there, and they
// come back at the end and for each snapshot.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>

#include "output_format.hpp"
#include "progress.hpp"
#include "spatial_options.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/points_io.hpp"

namespace treefix::cli {
namespace {

struct NbodyArgs {
  std::string bodies;
  int steps = 1, output_every = 0;
  double theta = 0.5, eps = 0.01, dt = 0.01;
  bool accelerations = false;
  SpatialArgs spatial;
};

// 'ax ay az' per body for the input state, or an (n, 3) float32 .npy array.
void write_accelerations(Runtime& runtime, const NbodyArgs& args, const Bodies& bodies,
                         const DeviceBodies& device, const GravityOptions& o, Profile& profile,
                         PhaseTimes& phases) {
  DeviceArray<float> result(runtime, 3 * bodies.size(), "accelerations");
  phases.measure("compute", [&] {
    DeviceOctree tree = build_octree(runtime, DevicePoints{bodies.size(), 3, device.position},
                                     device.mass, {o.leaf_size, &profile});
    accelerations(runtime, tree, result, o);
    runtime.queue().finish();
  });
  const std::vector<float> acc = result.download(runtime, &profile);
  phases.measure("write", [&] {
    write_output(args.spatial.output, [&](std::ostream& out) {
      if (output_format(args.spatial.output, {OutputFormat::npy, OutputFormat::xyz}) ==
          OutputFormat::npy)
        return write_npy(out, acc.data(), {bodies.size(), 3});  // (n, 3) float32
      char line[96];
      for (std::size_t i = 0; i < bodies.size(); ++i) {
        std::snprintf(line, sizeof line, "%.9g %.9g %.9g\n", double(acc[3 * i]),
                      double(acc[3 * i + 1]), double(acc[3 * i + 2]));
        out << line;
      }
    });
  });
}

// Where the state after `step` goes: OUTPUT.stepN for text, so that the snapshots sort beside
// it; NAME.stepN.npy (.xyz) when OUTPUT is NAME.npy (.xyz), so that each keeps its format.
std::string snapshot_path(const std::string& output, int step) {
  const std::string tag = ".step" + std::to_string(step);
  const FileKind kind = file_kind(output);
  const auto dot = output.find_last_of('.');
  if ((kind == FileKind::npy || kind == FileKind::xyz) && dot != std::string::npos)
    return output.substr(0, dot) + tag + output.substr(dot);
  return output + tag;
}

void check_arguments(const CLI::App& command, const NbodyArgs& args) {
  const bool stepping = command.get_option("--steps")->count() > 0 ||
                        command.get_option("--output-every")->count() > 0 ||
                        command.get_option("--dt")->count() > 0;
  if (args.accelerations && stepping)
    throw InputError(
        "nbody --accelerations writes the input state's accelerations: --steps, --dt and "
        "--output-every do not apply");
  if (args.output_every > 0 && (args.spatial.output.empty() || args.spatial.output == "-"))
    throw InputError("--output-every needs --output FILE (snapshots go to FILE.stepN)");
}

void run_nbody(const CLI::App& command, const NbodyArgs& args) {
  check_arguments(command, args);
  // The output is checked now; the snapshots (FILE.stepN, beside it) are staged as they come and
  // committed with it, all or none.
  OutputFiles outputs({args.spatial.output});
  Profile profile;
  PhaseTimes phases;
  GravityOptions o = args.spatial.options<GravityOptions>(&profile);
  o.theta = args.theta;
  o.eps = args.eps;
  Bodies bodies = phases.measure("read", [&] { return args.spatial.bodies(args.bodies); });
  Runtime& runtime = phases.measure(
      "device setup", [&]() -> Runtime& { return kept_runtime(args.spatial.device); });
  DeviceBodies device =
      phases.measure("upload", [&] { return DeviceBodies::upload(runtime, bodies, &profile); });
  if (args.accelerations) {
    write_accelerations(runtime, args, bodies, device, o, profile, phases);
  } else {
    // Every file in the format its name says, as read_bodies reads it back (.npy, .xyz, else
    // text; a snapshot FILE.stepN is text).
    const std::string& output = args.spatial.output;
    auto write_state = [](const std::string& path, const Bodies& state) {
      const bool standard = path.empty() || path == "-";
      const PointFormat format = standard ? PointFormat::text : point_format_of(path);
      write_output(path, [&](std::ostream& out) { write_bodies(out, state, format); });
    };
    Progress progress("nbody");  // on a terminal: the steps, and the snapshots as they are written
    int snapshots = 0;
    StepOptions steps;
    steps.steps = args.steps;
    steps.dt = args.dt;
    steps.snapshot_every = args.output_every;
    steps.snapshot = [&](int step, const Bodies& state) {
      write_state(snapshot_path(output, step), state);
      ++snapshots;
    };
    steps.stepped = [&](int step) {
      progress.show("step " + std::to_string(step) + " of " + std::to_string(args.steps) +
                    (args.output_every > 0 ? ", " + std::to_string(snapshots) + " snapshots written"
                                           : std::string()));
    };
    phases.measure("steps", [&] {
      leapfrog(runtime, device, steps, o);
      runtime.queue().finish();
    });
    bodies = phases.measure("download", [&] { return device.download(runtime, &profile); });
    phases.measure("write", [&] { write_state(output, bodies); });
  }
  phases.measure("write", [&] { outputs.commit(); });
  args.spatial.print_stats(std::cerr, "treefix nbody", phases, profile);
}

void setup_nbody(CLI::App& app) {
  auto args = std::make_shared<NbodyArgs>();
  auto* c = app.add_subcommand(
      "nbody", "Barnes-Hut gravity (octree, G = 1): leapfrog steps or accelerations");
  c->callback([c, args] { run_nbody(*c, *args); });
  c->add_option("--bodies", args->bodies,
                "body file, rows 'mass x y z vx vy vz': 'n 7' then the rows; .xyz: rows only; "
                ".npy: an (n, 7) array")
      ->required();
  c->add_option("--steps", args->steps, "leapfrog steps, all on the device (default 1)")
      ->transform(integer_in(0, INT32_MAX));
  c->add_option("--output-every", args->output_every,
                "also write the state every S steps to OUTPUT.stepS, 2S, ... (NAME.stepS.npy for "
                "NAME.npy, likewise .xyz; default 0: never)")
      ->transform(integer_in(0, INT32_MAX));
  c->add_option("--theta", args->theta, "opening angle (default 0.5; 0 = direct sum)")
      ->check(finite_at_least(0));
  c->add_option("--eps", args->eps, "softening length (default 0.01)")->check(finite_at_least(0));
  c->add_option("--dt", args->dt, "time step (default 0.01)")->check(finite_at_least(0, true));
  c->add_flag("--accelerations", args->accelerations,
              "write 'ax ay az' per body for the input state instead of stepping");
  args->spatial
      .add_to(c, "bodies (the state is kept in the octree's leaf order)",
              "the final state as a body file in the format its name says (.xyz: rows "
              "only, .npy: an (n, 7) array, else text), or the accelerations (text "
              "rows, or .npy: an (n, 3) float32 array)")
      ->check(written_as({OutputFormat::npy, OutputFormat::xyz}));
}

TREEFIX_COMMAND("nbody", setup_nbody);

}  // namespace
}  // namespace treefix::cli

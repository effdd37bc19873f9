#pragma once
// Subcommands of the `treefix` program. Each lives in its own file and registers a setup function
// with TREEFIX_COMMAND; main() adds them all to the CLI11 app. A subcommand is a thin layer over
// the public API: parse options, read files, call the library, write the output.
#include <iostream>
#include <memory>
#include <string>

#include "cli_options.hpp"
#include "process_end.hpp"
#include "subcommands.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::cli {
struct TreefixProgram;  // the tag of the `treefix` program's subcommands

// A subcommand and its options (a new Args, to which the options are added).
template <class Args>
struct Command {
  CLI::App* app;
  std::shared_ptr<Args> args;
};

// A subcommand that runs run(args, phases) when chosen; with `args.stats` (its --stats) the wall
// time of every phase `run` measured is printed afterwards ("treefix NAME: read  1.234 ms").
template <class Args>
Command<Args> add_timed_command(CLI::App& app, const std::string& name,
                                const std::string& description,
                                void (*run)(const Args&, PhaseTimes&)) {
  auto args = std::make_shared<Args>();
  CLI::App* command = app.add_subcommand(name, description);
  command->callback([args, run, name] {
    PhaseTimes phases;
    run(*args, phases);
    if (args->stats) phases.print(std::cerr, "treefix " + name);
  });
  return {command, args};
}

}  // namespace treefix::cli

// TREEFIX_COMMAND("name", setup_function) at namespace scope of a subcommand file.
#define TREEFIX_COMMAND(name, setup) \
  TREEFIX_REGISTER_SUBCOMMAND(::treefix::cli::TreefixProgram, name, setup)

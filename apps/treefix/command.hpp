#pragma once
// Subcommands of the `treefix` program. Each lives in its own file and registers a setup function
// with TREEFIX_COMMAND; main() adds them all to the CLI11 app. A subcommand is a thin layer over
// the public API: parse options, read files, call the library, write the output.
#include "cli_options.hpp"
#include "subcommands.hpp"
#include "treefix/core/runtime.hpp"

namespace treefix::cli {
struct TreefixProgram;  // the tag of the `treefix` program's subcommands
}  // namespace treefix::cli

// TREEFIX_COMMAND("name", setup_function) at namespace scope of a subcommand file.
#define TREEFIX_COMMAND(name, setup) \
  TREEFIX_REGISTER_SUBCOMMAND(::treefix::cli::TreefixProgram, name, setup)

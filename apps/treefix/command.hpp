#pragma once
// Subcommands of the `treefix` program. Each lives in its own file and registers a setup function
// with TREEFIX_COMMAND; main() adds them all to the CLI11 app. A subcommand is a thin layer over
// the public API: parse options, read files, call the library, write the output.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"

namespace treefix::cli {

using CommandSetup = std::function<void(CLI::App& app)>;

struct CommandRegistry {
  static std::vector<std::pair<std::string, CommandSetup>>& all();
};

struct CommandRegistration {
  CommandRegistration(const char* name, CommandSetup setup) {
    CommandRegistry::all().emplace_back(name, std::move(setup));
  }
};

// Adds --device SPEC to a subcommand (see Runtime for the forms of SPEC).
void add_device_option(CLI::App* command, std::string& spec);

}  // namespace treefix::cli

#define TREEFIX_CLI_CONCAT2(a, b) a##b
#define TREEFIX_CLI_CONCAT(a, b) TREEFIX_CLI_CONCAT2(a, b)
// TREEFIX_COMMAND("name", setup_function) at namespace scope of a subcommand file.
#define TREEFIX_COMMAND(name, setup)                                  \
  static const ::treefix::cli::CommandRegistration TREEFIX_CLI_CONCAT( \
      treefix_command_registration_, __LINE__)(name, setup)

#pragma once
// Options shared by the `treefix` program and `treefix-bench`: the device choice, and enum
// options whose text CLI11 maps through the library's name tables (treefix/core/names.hpp), so
// the command line accepts exactly the words to_string prints and refuses others with the
// library's own message ("unknown traversal 'x' (expected pre, post, in or bfs)").
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "treefix/core/names.hpp"

namespace treefix::cli {

// Adds --device SPEC (see Runtime for the forms of SPEC).
CLI::Option* add_device_option(CLI::App* command, std::string& spec);

// Adds --output,-o FILE ("" or "-": standard output); `what` says what is written.
CLI::Option* add_output_option(CLI::App* command, std::string& path, const std::string& what);

// Adds --stats: print the wall time of every phase of the command to standard error.
CLI::Option* add_stats_option(CLI::App* command, bool& stats);

// A CLI11 validator of an integer count or id from `low` to `high`, checked on the text before
// CLI11 converts it: decimal digits only (no sign, no 0x or leading-zero octal, no overflow), so
// "-1" is refused rather than taken as "not given" or wrapped to 2^64 - 1. Message: "expected an
// integer from 1 to 64, found '0'" ("expected an integer >= 1" when `high` is unbounded).
CLI::Validator integer_in(std::uint64_t low, std::uint64_t high = UINT64_MAX);

// A CLI11 validator of a finite number >= `low` (> `low` when `strictly`): refuses nan, inf,
// overflow and trailing text. Message: "expected a finite number > 0, found 'nan'".
CLI::Validator finite_at_least(double low, bool strictly = false);

// A subcommand whose options live in `args` and that runs `run(*args)` when chosen.
template <class Args>
CLI::App* add_command(CLI::App& app, const std::string& name, const std::string& description,
                      const std::shared_ptr<Args>& args, void (*run)(const Args&)) {
  CLI::App* command = app.add_subcommand(name, description);
  command->callback([args, run] { run(*args); });
  return command;
}

// A CLI11 transformer from a name to the enum's value (as text of its underlying integer, which
// CLI11 converts into E).
template <class E>
CLI::Validator enum_transformer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        try {
          text = std::to_string(static_cast<long long>(parse<E>(text)));
        } catch (const InputError& e) {
          return e.what();
        }
        return {};
      },
      enum_names<E>());
}

// --name VALUE for an enum, defaulting to `value`'s current name.
template <class E>
CLI::Option* add_enum_option(CLI::App* command, const std::string& name, E& value,
                             const std::string& help) {
  return command->add_option(name, value, help)
      ->transform(enum_transformer<E>())
      ->default_str(to_string(value));
}

}  // namespace treefix::cli

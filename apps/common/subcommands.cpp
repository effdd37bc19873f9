// The main loop both programs share (subcommands.hpp).
#include "subcommands.hpp"

#include <algorithm>
#include <cstring>
#include <iostream>
#include <new>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "progress.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix_version.hpp"

namespace treefix::cli {
namespace {

// "rootfix" once a subcommand was chosen, else the program's name.
std::string command_name(const CLI::App& app, const char* program) {
  for (const CLI::App* sub : app.get_subcommands()) return sub->get_name();
  return program;
}

// One line on standard error; no C++ exception's internal text reaches the user.
int report(const char* program, const std::string& message, int code) {
  std::cerr << program << ": error: " << message << "\n";
  return code;
}

// What a program prints must have reached standard output (`treefix devices > /dev/full`).
int checked_exit(const char* program, int code) {
  try {
    check_standard_output();
  } catch (const Error& e) {
    return report(program, e.what(), code == 0 ? 1 : code);
  }
  return code;
}

// Edit distance (insertions, deletions, substitutions, swaps of neighbours) between two words.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1,
                          d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// The first word of the command line that is not an option (or --threads' value): where the
// subcommand's name belongs. "" when there is none.
std::string first_word(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--threads") {
      ++i;
      continue;
    }
    if (arg.empty() || arg[0] != '-') return arg;
  }
  return {};
}

// "unknown subcommand 'rootfx' (did you mean rootfix?)": the closest names within two edits, or
// the list of all.
std::string unknown_subcommand(const std::string& word, const std::vector<std::string>& names) {
  std::size_t best = 3;
  std::vector<std::string> closest;
  for (const std::string& name : names) {
    const std::size_t distance = edit_distance(word, name);
    if (distance < best) closest.clear(), best = distance;
    if (distance == best) closest.push_back(name);
  }
  std::string message = "unknown subcommand '" + word + "'";
  if (!closest.empty()) {
    message += " (did you mean ";
    for (std::size_t i = 0; i < closest.size(); ++i)
      message += (i == 0 ? "" : i + 1 == closest.size() ? " or " : ", ") + closest[i];
    return message + "?)";
  }
  message += "; the subcommands are:";
  for (const std::string& name : names) message += " " + name;
  return message;
}

}  // namespace

int run_subcommands(const std::string& description, const char* program,
                    std::vector<std::pair<std::string, SubcommandSetup>> setups, int argc,
                    char** argv) {
  CLI::App app{description};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(program) + " " + TREEFIX_VERSION +
                                        " (libtreefix-cl " + TREEFIX_VERSION + ", commit " +
                                        TREEFIX_GIT_COMMIT + ")");
  std::sort(setups.begin(), setups.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [name, setup] : setups) setup(app);
  // Before the subcommand (`treefix --threads 4 knn ...`): every host loop of the run takes it.
  app.add_option_function<unsigned>(
         "--threads", [](unsigned threads) { set_host_threads(threads); },
         "host threads of every host loop (reading, preparing, formatting, CPU runs); default "
         "$TREEFIX_THREADS, else $OMP_NUM_THREADS, else all cores")
      ->check(CLI::Range(1u, kMaxHostThreads))
      ->trigger_on_parse();
  // A bad command line reads like any other error: "treefix: error: --top: expected ...".
  app.failure_message([program](const CLI::App*, const CLI::Error& e) {
    return std::string(program) + ": error: " + e.what() + "\n" +
           "Run with --help for more information.\n";
  });
  const bool help = std::any_of(argv + 1, argv + argc, [](const char* arg) {
    return std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0;
  });
  if (const std::string word = first_word(argc, argv); !word.empty()) {
    std::vector<std::string> names;
    for (const auto& [name, setup] : setups) names.push_back(name);
    if (std::find(names.begin(), names.end(), word) == names.end())
      return report(program, unknown_subcommand(word, names), 2);
  }
  try {
    if (!help) Environment::read();  // a malformed TREEFIX_* variable stops us before any work
    const ReadProgress progress;     // large inputs being read, on a terminal
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);                     // prints help, or the message
    return checked_exit(program, code == 0 ? 0 : 2);  // a bad command line is bad input
  } catch (const InputError& e) {
    return report(program, e.what(), 2);
  } catch (const Error& e) {
    return report(program, e.what(), 1);
  } catch (const std::bad_alloc&) {
    return report(program,
                  "cannot allocate memory for " + command_name(app, program) +
                      ": the host has not enough free memory for this input",
                  1);
  } catch (const std::length_error&) {
    return report(program,
                  "cannot allocate memory for " + command_name(app, program) +
                      ": a size beyond what the host can address",
                  1);
  } catch (const std::system_error& e) {  // threads, files: the system's own words
    return report(program, command_name(app, program) + ": " + e.code().message(), 1);
  } catch (const std::exception& e) {  // its text, unless it names C++ internals
    const std::string what = e.what();
    const bool internal = what.find("::") != std::string::npos ||
                          what.find("basic_") != std::string::npos ||
                          what.find("bad_") != std::string::npos;
    return report(program,
                  command_name(app, program) + ": internal error" +
                      (internal ? std::string(" (please report it)") : ": " + what),
                  1);
  } catch (...) {
    return report(program, command_name(app, program) + ": internal error (please report it)", 1);
  }
  return checked_exit(program, 0);
}

}  // namespace treefix::cli

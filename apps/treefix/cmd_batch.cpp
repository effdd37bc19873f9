// treefix batch FILE|-: one treefix command line per line, run one after another in this process
// on one shared Runtime per device, so that the OpenCL context is made and every program built
// once for all of them. Each line has its own outputs and errors; its exit status is reported.
#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "command.hpp"
#include "progress.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix::cli {
namespace {

struct BatchArgs {
  std::string file;
  bool quiet = false;
};

// The words of a command line, as a shell splits them without expanding anything: white space
// separates, '...' keeps everything, "..." keeps all but \" and \\, a backslash escapes the next
// character, and # starts a comment where a word would start.
std::vector<std::string> split_words(std::string_view line, const std::string& where) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else if (c == '#' && !in_word) {
      break;
    } else if (c == '\'' || c == '"') {
      in_word = true;
      const std::size_t close = line.find(c, i + 1);
      if (close == std::string_view::npos)
        throw InputError(where + ": unterminated " + (c == '\'' ? "'" : "\"") + " quote");
      for (std::size_t j = i + 1; j < close; ++j) {
        if (c == '"' && line[j] == '\\' && j + 1 < close) ++j;
        word += line[j];
      }
      i = close;
    } else if (c == '\\' && i + 1 < line.size()) {
      in_word = true;
      word += line[++i];
    } else {
      in_word = true;
      word += c;
    }
  }
  if (in_word) words.push_back(std::move(word));
  return words;
}

// One line's command: its exit status (2 for a line that cannot be split or is a batch itself).
int run_line(std::vector<std::string> words, const std::string& where) {
  if (!words.empty() && words[0] == "treefix") words.erase(words.begin());
  if (!words.empty() && words[0] == "batch") {
    std::cerr << "treefix: error: " << where << ": a batch cannot run another batch\n";
    return 2;
  }
  words.insert(words.begin(), "treefix");
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return run_subcommands("treefix: tree computations on OpenCL devices (libtreefix-cl)", "treefix",
                         Subcommands<TreefixProgram>::all(), static_cast<int>(words.size()),
                         argv.data());
}

void run_batch(const BatchArgs& args) {
  const TextFile file(args.file);  // "-": standard input; compressed files too
  const std::string_view text = file.text();
  share_runtimes();
  const std::size_t lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) +
                            (!text.empty() && text.back() != '\n');
  Progress progress("batch");
  std::size_t commands = 0, failed = 0, first_failed_line = 0;
  int first_failure = 0;
  std::size_t line_number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_number;
    const std::string where = args.file + ":" + std::to_string(line_number);
    int status = 0;
    std::vector<std::string> words;
    try {
      words = split_words(line, where);
    } catch (const InputError& e) {
      std::cerr << "treefix: error: " << e.what() << "\n";
      status = 2;
    }
    if (status == 0 && words.empty()) continue;  // blank or comment
    ++commands;
    progress.clear();  // the line's own messages start on a clean line
    if (status == 0) status = run_line(std::move(words), where);
    std::cout.flush();
    if (status != 0) {
      if (failed++ == 0) {
        first_failure = status;
        first_failed_line = line_number;
      }
    }
    if (!args.quiet || status != 0)
      std::cerr << "treefix batch: " << where << ": exit status " << status << "\n";
    progress.show("line " + std::to_string(line_number) + " of " + std::to_string(lines) + ", " +
                  std::to_string(failed) + " failed");
  }
  std::cerr << "treefix batch: " << commands << (commands == 1 ? " command, " : " commands, ")
            << failed << " failed"
            << "\n";
  if (failed) {  // the batch's exit status: the first failed line's (2: bad input, else 1)
    const std::string message = args.file + ":" + std::to_string(first_failed_line) +
                                ": the first of " + std::to_string(failed) + " failed commands";
    if (first_failure == 2) throw InputError(message);
    throw Error(message);
  }
}

void setup_batch(CLI::App& app) {
  auto args = std::make_shared<BatchArgs>();
  auto* command = add_command(
      app, "batch",
      "Run many treefix command lines (one per line of FILE, - for standard input) in this "
      "process, sharing one device context and its built programs; each line's exit status is "
      "reported on standard error, and the batch fails when any line does",
      args, run_batch);
  command->add_option("file", args->file, "the command lines ('#' comments, shell-like quotes)")
      ->required();
  command->add_flag("--quiet", args->quiet, "report only the lines that fail");
}

TREEFIX_COMMAND("batch", setup_batch);

}  // namespace
}  // namespace treefix::cli

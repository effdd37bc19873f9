#pragma once
// Output files: written whole or not at all.
#include <functional>
#include <ostream>
#include <string>

namespace treefix {

// Writes a file all at once: the text goes to "path.tmp-<pid>" and is renamed over `path` only
// when `produce` returns normally, so a failure never leaves a partial output file. An empty path
// or "-" writes to standard output.
void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce);

}  // namespace treefix

// Output files written whole or not at all (treefix/core/output_file.hpp).
#include "treefix/core/output_file.hpp"

#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>

#include "treefix/core/error.hpp"

namespace treefix {

void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  if (path.empty() || path == "-") {
    produce(std::cout);
    std::cout.flush();
    if (!std::cout) throw Error("writing standard output failed");
    return;
  }
  std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  try {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path + ": cannot write: " + std::strerror(errno));
    produce(out);
    out.flush();
    if (!out) throw Error(path + ": write failed: " + std::strerror(errno));
  } catch (...) {
    std::remove(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw Error(path + ": cannot move the output into place: " + std::strerror(errno));
  }
}

}  // namespace treefix

#pragma once
// A scratch directory for tests that write files: emptied first, removed afterwards.
#include <filesystem>
#include <string>
#include <system_error>

namespace treefix::test {

struct ScratchDirectory {
  std::filesystem::path path;
  explicit ScratchDirectory(const std::string& name)
      : path(std::filesystem::temp_directory_path() / name) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
};

}  // namespace treefix::test

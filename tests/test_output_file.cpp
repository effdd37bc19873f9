// The output writer (io/output_file.hpp): files replaced whole by rename, symlink targets
// written, devices and FIFOs written in place, several outputs all or none, temporary files never
// left behind (not on failure, not on a signal).
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"

using namespace treefix;
namespace fs = std::filesystem;

namespace {

// A fresh folder for one test case, removed with everything in it afterwards.
struct Scratch {
  fs::path dir;
  Scratch() {
    dir = fs::temp_directory_path() / ("treefix-output-file-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  std::string operator/(const std::string& name) const { return (dir / name).string(); }
  // The temporary files in the folder and below.
  std::size_t temporaries() const {
    std::size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir))
      count += entry.path().filename().string().find(".tmp-") != std::string::npos;
    return count;
  }
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_text(const std::string& path, const std::string& text) {
  write_output(path, [&](std::ostream& out) { out << text; });
}

mode_t kind_of(const std::string& path) {
  struct stat info {};
  REQUIRE(::lstat(path.c_str(), &info) == 0);
  return info.st_mode & S_IFMT;
}

}  // namespace

TEST_CASE("output file: a new path and an existing file are written whole, keeping the mode") {
  Scratch scratch;
  const std::string path = scratch / "out.txt";
  write_text(path, "first\n");
  CHECK(read_all(path) == "first\n");
  ::chmod(path.c_str(), 0640);
  write_text(path, std::string(3 << 20, 'x'));  // larger than the writer's buffer
  CHECK(read_all(path) == std::string(3 << 20, 'x'));
  struct stat info {};
  REQUIRE(::stat(path.c_str(), &info) == 0);
  CHECK((info.st_mode & 07777) == 0640);
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output file: a failure while producing leaves the existing file as it was") {
  Scratch scratch;
  const std::string path = scratch / "keep.txt";
  write_text(path, "keep\n");
  CHECK_THROWS_AS(write_output(path,
                               [](std::ostream& out) {
                                 out << "half";
                                 throw InputError("bad input");
                               }),
                  InputError);
  CHECK(read_all(path) == "keep\n");
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output file: a symbolic link's target is written, the link stays a link") {
  Scratch scratch;
  fs::create_directories(scratch.dir / "sub");
  write_text(scratch / "sub/target.txt", "old\n");
  fs::create_symlink("sub/target.txt", scratch.dir / "link.txt");  // relative to the link
  write_text(scratch / "link.txt", "new\n");
  CHECK(kind_of(scratch / "link.txt") == S_IFLNK);
  CHECK(read_all(scratch / "sub/target.txt") == "new\n");
  // A dangling link: its target is created.
  fs::create_symlink("made.txt", scratch.dir / "dangling.txt");
  write_text(scratch / "dangling.txt", "made\n");
  CHECK(kind_of(scratch / "dangling.txt") == S_IFLNK);
  CHECK(read_all(scratch / "made.txt") == "made\n");
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output file: a FIFO is written in place and its reader gets everything") {
  Scratch scratch;
  const std::string fifo = scratch / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::string received;
  std::thread reader([&] { received = read_all(fifo); });
  const std::string text(1 << 21, 'y');
  write_text(fifo, text);
  reader.join();
  CHECK(received == text);
  CHECK(kind_of(fifo) == S_IFIFO);
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output file: devices are written in place; /dev/full reports the full device") {
  write_text("/dev/null", "nothing\n");
  CHECK(kind_of("/dev/null") == S_IFCHR);
  if (::access("/dev/full", W_OK) != 0) return;  // not every container has it
  CHECK_THROWS_WITH_AS(write_text("/dev/full", "x\n"),
                       doctest::Contains("/dev/full: write failed: No space left on device"),
                       Error);
  CHECK(kind_of("/dev/full") == S_IFCHR);
}

TEST_CASE("output files: several outputs are committed all together or not at all") {
  Scratch scratch;
  const std::string a = scratch / "a.txt", b = scratch / "b.txt";
  write_text(a, "old a\n");
  {
    OutputFiles outputs({a, b});  // both staged now
    write_text(a, "new a\n");
    CHECK(read_all(a) == "old a\n");  // not before commit
    // no write of b, no commit: an exception on the way, say
  }
  CHECK(read_all(a) == "old a\n");
  CHECK(!fs::exists(b));
  CHECK(scratch.temporaries() == 0);
  {
    OutputFiles outputs({a, b});
    write_text(a, "new a\n");
    CHECK_THROWS_AS(outputs.commit(), Error);  // b declared, never written: nothing committed
  }
  CHECK(read_all(a) == "old a\n");
  {
    OutputFiles outputs({a, b});
    write_text(a, "new a\n");
    write_text(b, "new b\n");
    outputs.commit();
  }
  CHECK(read_all(a) == "new a\n");
  CHECK(read_all(b) == "new b\n");
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output files: many outputs, synced together, are all in place or none") {
  // More outputs than are synced one by one (one flush per file system, then the renames), in
  // two folders; the same number again, uncommitted, leaves nothing behind.
  Scratch scratch;
  fs::create_directories(scratch.dir / "a");
  fs::create_directories(scratch.dir / "b");
  auto name = [&](int i) { return scratch / ((i % 2 ? "a/" : "b/") + std::to_string(i) + ".txt"); };
  {
    OutputFiles outputs;
    for (int i = 0; i < 40; ++i) write_text(name(i), std::to_string(i) + "\n");
    CHECK_FALSE(fs::exists(name(0)));
    outputs.commit();
  }
  for (int i = 0; i < 40; ++i) CHECK(read_all(name(i)) == std::to_string(i) + "\n");
  {
    OutputFiles outputs;
    for (int i = 0; i < 40; ++i) write_text(name(i), "changed\n");
  }
  for (int i = 0; i < 40; ++i) CHECK(read_all(name(i)) == std::to_string(i) + "\n");
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output files: a destination that cannot be written stops the command before it runs") {
  Scratch scratch;
  const std::string a = scratch / "a.txt";
  CHECK_THROWS_WITH_AS(OutputFiles({a, scratch / "no/such/dir/p.txt"}),
                       doctest::Contains("p.txt: cannot write: No such file or directory"),
                       InputError);
  CHECK(!fs::exists(a));
  CHECK(scratch.temporaries() == 0);
  fs::create_directories(scratch.dir / "folder");
  CHECK_THROWS_WITH_AS(OutputFiles({scratch / "folder"}), doctest::Contains("is a directory"),
                       InputError);
  CHECK_THROWS_WITH_AS(OutputFiles({a, scratch / "./a.txt"}),
                       doctest::Contains("is given for two outputs"), InputError);
  CHECK(scratch.temporaries() == 0);
}

TEST_CASE("output files: a signal removes the pending temporary files and ends the process") {
  Scratch scratch;
  const std::string path = scratch / "out.txt";
  write_text(path, "keep\n");  // the handlers are installed (SIGHUP: doctest leaves it alone)
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    OutputFiles outputs({path});
    write_text(path, "never committed\n");
    ::raise(SIGHUP);
    ::_exit(0);  // not reached: the signal's default action ends the process
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGHUP);
  CHECK(read_all(path) == "keep\n");
  CHECK(scratch.temporaries() == 0);
}

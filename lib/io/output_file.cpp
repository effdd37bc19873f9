// Output files written whole or not at all, a command's outputs all or none
// (treefix/io/output_file.hpp).
#include "treefix/io/output_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "core/pending_files.hpp"
#include "io/fd_stream.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace {

thread_local OutputFiles* innermost = nullptr;
std::atomic<unsigned> temp_counter{0};  // temporary names unique within the process

[[noreturn]] void cannot_write(const std::string& path, int err) {
  throw InputError(path + ": cannot write: " + std::strerror(err));
}

[[noreturn]] void write_failed(const std::string& what, int err) {
  throw Error(what + ": write failed: " + std::strerror(err ? err : EIO));
}

// The descriptor a path names when it names one rather than a file: "/dev/stdout" (1),
// "/dev/stderr" (2), "/dev/fd/N" and "/proc/self/fd/N" (N); else -1. They are written through the
// descriptor itself, so its offset and append mode hold (`(echo head; treefix ... -o /dev/stdout)
// > f` keeps the head): opened anew or followed to a file and replaced, they would not.
int named_descriptor(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
    const std::size_t length = std::strlen(prefix);
    if (path.compare(0, length, prefix) != 0 || path.size() == length || path.size() > length + 9)
      continue;
    int fd = 0;
    for (std::size_t i = length; i < path.size(); ++i) {
      if (path[i] < '0' || path[i] > '9') return -1;
      fd = fd * 10 + (path[i] - '0');
    }
    return fd;
  }
  return -1;
}

// Where `path` leads: every symbolic link followed, the last one possibly dangling (its target is
// where the output goes), stopping at a path that names a descriptor.
std::string follow_links(const std::string& path) {
  std::string at = path;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (named_descriptor(at) >= 0 || ::lstat(at.c_str(), &info) != 0 || !S_ISLNK(info.st_mode))
      return at;
    std::vector<char> text(4096);
    const ssize_t length = ::readlink(at.c_str(), text.data(), text.size());
    if (length < 0 || static_cast<std::size_t>(length) == text.size())
      cannot_write(path, length < 0 ? errno : ENAMETOOLONG);
    std::string target(text.data(), static_cast<std::size_t>(length));
    const std::size_t slash = at.rfind('/');
    if (target.front() != '/' && slash != std::string::npos)  // relative to the link's folder
      target.insert(0, at, 0, slash + 1);
    at = std::move(target);
  }
  cannot_write(path, ELOOP);
}

// A descriptor closed on every path out; close() reports its error (NFS reports late).
struct Descriptor {
  int fd = -1;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  int release_and_close() {
    const int result = ::close(fd);
    fd = -1;
    return result;
  }
};

// Runs `produce` on `fd` and flushes. `staged`: the disk starts writing as the data comes (the
// file is synced when its command commits, before it is renamed). Returns errno, or 0.
int produce_into(int fd, const std::function<void(std::ostream&)>& produce, bool staged) {
  detail::FdOutBuffer buffer(fd);
  if (staged) buffer.start_writeback();
  std::ostream out(&buffer);
  produce(out);
  out.flush();
  if (buffer.error() != 0 || !out) return buffer.error() ? buffer.error() : EIO;
  return 0;
}

// Staged files up to this many are synced one by one (fsync: their own data and nothing else);
// more, by one syncfs per file system, because a sync per file costs a journal commit each
// (20,000 small files took 80 s).
constexpr std::size_t kFilesSyncedOneByOne = 8;

enum class Kind { descriptor, stream, staged };

}  // namespace

struct OutputFiles::Destination {
  std::string path;       // as given, for messages
  std::string target;     // symbolic links followed
  std::string canonical;  // the target's absolute, normal form: outputs are compared by it
  Kind kind = Kind::staged;
  int fd = -1;       // descriptor: the one written (1: standard output)
  std::string temp;  // staged: the temporary file, "" once renamed or removed
  std::size_t pending = 0;
  dev_t device = 0;  // staged: the file system of the temporary file
  bool written = false;
  void remove_temp() {
    if (temp.empty()) return;
    ::unlink(temp.c_str());
    detail::forget_pending_file(pending);
    temp.clear();
  }
};

OutputFiles::OutputFiles() : enclosing_(innermost) { innermost = this; }

OutputFiles::OutputFiles(const std::vector<std::string>& paths) : OutputFiles() {
  for (const std::string& path : paths) add(path);
}

OutputFiles::~OutputFiles() {
  for (auto& d : destinations_) d->remove_temp();
  innermost = enclosing_;
}

void OutputFiles::add(const std::string& path) {
  auto d = std::make_unique<Destination>();
  d->path = path;
  d->target = path.empty() || path == "-" ? "/dev/stdout" : follow_links(path);
  d->fd = named_descriptor(d->target);
  if (d->fd >= 0) {
    const int flags = ::fcntl(d->fd, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
      throw InputError((d->fd == STDOUT_FILENO ? std::string("standard output") : path) +
                       " is not open for writing");
    d->kind = Kind::descriptor;
    destinations_.push_back(std::move(d));
    return;
  }
  struct stat info {};
  const bool exists = ::stat(d->target.c_str(), &info) == 0;
  if (!exists && errno != ENOENT) cannot_write(path, errno);
  if (exists && S_ISDIR(info.st_mode)) throw InputError(path + ": is a directory");
  if (exists && !S_ISREG(info.st_mode)) {
    if (!S_ISCHR(info.st_mode) && !S_ISBLK(info.st_mode) && !S_ISFIFO(info.st_mode))
      throw InputError(path + ": cannot write: not a file, a device or a FIFO");
    d->kind = Kind::stream;
  }
  if (exists && ::access(d->target.c_str(), W_OK) != 0) cannot_write(path, errno);
  std::error_code ec;  // the same file however spelt: "x", "./x", "dir/../x"
  d->canonical =
      std::filesystem::weakly_canonical(std::filesystem::absolute(d->target), ec).string();
  if (ec) d->canonical = d->target;
  for (const auto& other : destinations_)
    if (other->kind != Kind::descriptor && other->canonical == d->canonical)
      throw InputError(path + ": is given for two outputs");
  if (d->kind == Kind::staged) {
    for (int attempt = 0;; ++attempt) {
      d->temp = d->target + ".tmp-" + std::to_string(::getpid()) + "-" +
                std::to_string(temp_counter.fetch_add(1));
      d->pending = detail::remember_pending_file(d->temp);  // before it exists: no window
      Descriptor file{::open(d->temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)};
      if (file.fd >= 0) {
        if (exists) ::fchmod(file.fd, info.st_mode & 07777);  // the replaced file's mode
        struct stat created {};
        if (::fstat(file.fd, &created) == 0) d->device = created.st_dev;
        break;
      }
      const int err = errno;
      detail::forget_pending_file(d->pending);
      d->temp.clear();
      if (err != EEXIST || attempt == 100) cannot_write(path, err);
    }
  }
  destinations_.push_back(std::move(d));
}

OutputFiles::Destination& OutputFiles::find(const std::string& path) {
  for (auto& d : destinations_)
    if (d->path == path || ((path.empty() || path == "-") && d->fd == STDOUT_FILENO)) return *d;
  add(path);
  return *destinations_.back();
}

void OutputFiles::write(const std::string& path,
                        const std::function<void(std::ostream&)>& produce) {
  if (committed_) throw Error(path + ": written after its outputs were committed");
  Destination& d = find(path);
  if (d.kind == Kind::descriptor) {  // written through the descriptor, possibly many times
    std::cout.flush();               // what was printed before comes first
    std::fflush(stdout);
    const int err = produce_into(d.fd, produce, false);
    if (err != 0) write_failed(d.fd == STDOUT_FILENO ? "standard output" : path, err);
    d.written = true;
    return;
  }
  if (d.written) throw Error(path + ": written twice");
  const bool staged = d.kind == Kind::staged;
  const std::string& file = staged ? d.temp : d.target;
  Descriptor out{::open(file.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (staged ? O_TRUNC : 0))};
  if (out.fd < 0) cannot_write(path, errno);
  if (const int err = produce_into(out.fd, produce, staged)) write_failed(path, err);
  if (out.release_and_close() != 0) write_failed(path, errno);
  d.written = true;
}

void OutputFiles::sync_staged() const {
  std::vector<const Destination*> staged;
  for (const auto& d : destinations_)
    if (!d->temp.empty()) staged.push_back(d.get());
#ifdef __linux__
  const bool one_by_one = staged.size() <= kFilesSyncedOneByOne;
#else
  const bool one_by_one = true;  // no syncfs
#endif
  std::vector<dev_t> synced;  // file systems
  for (const Destination* d : staged) {
    bool seen = false;
    for (dev_t device : synced) seen = seen || device == d->device;
    if (!one_by_one && seen) continue;
    Descriptor file{::open(d->temp.c_str(), O_RDONLY | O_CLOEXEC)};
    if (file.fd < 0) write_failed(d->path, errno);
      // A descriptor opened after the writing still gets their errors: Linux reports a write-back
      // error to the first descriptor that syncs after it, whenever it was opened (errseq), and
      // syncfs reports the file system's errors (Linux 5.8).
#ifdef __linux__
    const int result = one_by_one ? ::fsync(file.fd) : ::syncfs(file.fd);
#else
    const int result = ::fsync(file.fd);
#endif
    if (result != 0) write_failed(d->path, errno);
    synced.push_back(d->device);
  }
}

void OutputFiles::commit() {
  for (const auto& d : destinations_)
    if (d->kind == Kind::staged && !d->written)
      throw Error(d->path + ": declared as an output but never written");
  // On the disk before any is renamed: a crash leaves the files as they were or whole.
  sync_staged();
  for (auto& d : destinations_) {
    if (d->temp.empty()) continue;
    if (std::rename(d->temp.c_str(), d->target.c_str()) != 0)
      throw Error(d->path + ": cannot move the output into place: " + std::strerror(errno));
    detail::forget_pending_file(d->pending);
    d->temp.clear();
  }
  committed_ = true;
}

void write_output(const std::string& path, const std::function<void(std::ostream&)>& produce) {
  if (innermost != nullptr) return innermost->write(path, produce);
  OutputFiles one;
  one.write(path, produce);
  one.commit();
}

void check_standard_output() {
  std::cout.flush();
  errno = 0;
  const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
  if (!lost) return;
  if (errno != 0) write_failed("standard output", errno);
  throw Error("standard output: write failed");  // an earlier flush failed; its errno is gone
}

}  // namespace treefix

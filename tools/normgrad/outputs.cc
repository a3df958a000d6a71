// tools/normgrad/outputs.cc — all-or-nothing writing of a command's output
// files, its journal and the recovery of an interrupted set (outputs.h).
#include "outputs.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <functional>
#include <random>
#include <sstream>
#include <string_view>
#include <system_error>

#include "npy.h"

namespace normgrad::cli {
namespace {

constexpr std::string_view kPrefix = ".normgrad-";
constexpr const char* kJournal = ".normgrad-journal";
constexpr std::string_view kJournalTitle = "normgrad output set 1";
// Bytes per write call: the signal flag is looked at between calls.
constexpr size_t kChunk = size_t{16} << 20;

std::string SystemError(const std::string& what) { return what + ": " + std::strerror(errno); }

// The output folder, open, locked against other normgrad writers.
class Folder {
 public:
  ~Folder() {
    if (fd_ >= 0) close(fd_);
  }
  Status Open(const std::string& path) {
    path_ = path;
    fd_ = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) return Status::Error(SystemError("cannot open the output folder " + path));
    return Status::Ok();
  }
  int fd() const { return fd_; }
  std::string Path(const std::string& name) const { return path_ + "/" + name; }
  Status Sync() const {
    // EINVAL: a file system that cannot sync directories.
    if (fsync(fd_) == 0 || errno == EINVAL) return Status::Ok();
    return Status::Error(SystemError("cannot sync " + path_));
  }

 private:
  std::string path_;
  int fd_ = -1;
};

// SIGINT and SIGTERM while a set is written: noted, acted on between steps.
volatile std::sig_atomic_t g_signal = 0;
extern "C" void NoteSignal(int signal) { g_signal = signal; }

class SignalGuard {
 public:
  SignalGuard() {
    g_signal = 0;
    struct sigaction action {};
    action.sa_handler = NoteSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // no SA_RESTART: a wait for the lock returns
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~SignalGuard() { Restore(); }
  bool Interrupted() const { return g_signal != 0; }
  // Puts the old handlers back and delivers a noted signal to them.
  void Restore() {
    if (restored_) return;
    restored_ = true;
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
    if (g_signal != 0) raise(g_signal);
  }
  Status Error() const {
    return Status::Error("interrupted by signal " + std::to_string(g_signal) +
                         "; the old outputs are kept");
  }

 private:
  struct sigaction old_int_ {
  }, old_term_{};
  bool restored_ = false;
};

// Creates a new name `.normgrad-<base>.XXXXXX` in the folder with `make`
// (which returns 0, or -1 with errno), trying other random suffixes while
// the name is taken.
Status MakeUnique(const Folder& folder, const std::string& base,
                  const std::function<int(const std::string&)>& make, std::string* name) {
  static std::mt19937_64 random{std::random_device{}() ^ static_cast<uint64_t>(getpid())};
  static constexpr char kLetters[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  for (int attempt = 0; attempt < 100; ++attempt) {
    *name = std::string(kPrefix) + base + ".";
    for (int i = 0; i < 6; ++i) *name += kLetters[random() % (sizeof kLetters - 1)];
    if (make(*name) == 0) return Status::Ok();
    if (errno != EEXIST) return Status::Error(SystemError("cannot create " + folder.Path(*name)));
  }
  return Status::Error("cannot create a temporary file in " + folder.Path("") +
                       ": every name tried exists");
}

// Writes all of `size` bytes, a chunk at a time, stopping at a signal.
Status WriteAll(int fd, const void* data, size_t size, const std::string& path,
                const SignalGuard& signals) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    if (signals.Interrupted()) return signals.Error();
    const ssize_t n = write(fd, p, std::min(size, kChunk));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::Error(SystemError("cannot write " + path));
    p += n;
    size -= static_cast<size_t>(n);
  }
  return Status::Ok();
}

// The files of a set, as the journal names them: the destination, the
// temporary holding the new file, the new file's inode number, and the
// hard link to the old file (empty when there was none).
struct Entry {
  std::string name, temp, backup;
  uint64_t inode = 0;
};

bool HasInode(const Folder& folder, const std::string& name, uint64_t inode) {
  struct stat st {};
  return fstatat(folder.fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
         static_cast<uint64_t>(st.st_ino) == inode;
}

bool IsPlainName(const std::string& name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find_first_of("/\t\n") == std::string::npos;
}

std::string FormatJournal(const std::vector<Entry>& entries) {
  std::string text = std::string(kJournalTitle) + "\n";
  for (const Entry& e : entries) {
    text += e.name + "\t" + e.temp + "\t" + std::to_string(e.inode) + "\t" +
            (e.backup.empty() ? "-" : e.backup) + "\n";
  }
  return text;
}

Status ParseJournal(const std::string& text, const std::string& path, std::vector<Entry>* entries) {
  const Status bad = Status::Error(path +
                                   " is not a journal of normgrad's outputs; move it away "
                                   "and check the folder's files by hand");
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || line != kJournalTitle) return bad;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Entry e;
    std::string inode;
    if (!std::getline(fields, e.name, '\t') || !std::getline(fields, e.temp, '\t') ||
        !std::getline(fields, inode, '\t') || !std::getline(fields, e.backup) || inode.empty() ||
        inode.find_first_not_of("0123456789") != std::string::npos || inode.size() > 19) {
      return bad;
    }
    e.inode = std::stoull(inode);
    if (e.backup == "-") e.backup.clear();
    if (!IsPlainName(e.name) || e.name.rfind(kPrefix, 0) == 0 || !IsPlainName(e.temp) ||
        e.temp.rfind(kPrefix, 0) != 0 ||
        (!e.backup.empty() && (!IsPlainName(e.backup) || e.backup.rfind(kPrefix, 0) != 0))) {
      return bad;
    }
    entries->push_back(e);
  }
  return entries->empty() ? bad : Status::Ok();
}

// Every new file into place (those not there yet).
Status RollForward(const Folder& folder, const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    if (HasInode(folder, e.name, e.inode)) continue;
    if (renameat(folder.fd(), e.temp.c_str(), folder.fd(), e.name.c_str()) != 0) {
      return Status::Error(SystemError("cannot replace " + folder.Path(e.name)));
    }
  }
  return Status::Ok();
}

// Every old file back (a file that was not there is removed again).
Status RollBack(const Folder& folder, const std::vector<Entry>& entries) {
  for (const Entry& e : entries) {
    if (!e.backup.empty()) {
      if (renameat(folder.fd(), e.backup.c_str(), folder.fd(), e.name.c_str()) != 0 &&
          errno != ENOENT) {
        return Status::Error(SystemError("cannot restore " + folder.Path(e.name)));
      }
    } else if (HasInode(folder, e.name, e.inode) && unlinkat(folder.fd(), e.name.c_str(), 0) != 0) {
      return Status::Error(SystemError("cannot remove the new " + folder.Path(e.name)));
    }
  }
  return Status::Ok();
}

// Removes every `.normgrad-*` file but the journal: leftovers of
// interrupted writes (the prefix is reserved).
void RemoveLeftovers(const Folder& folder) {
  const int fd = dup(folder.fd());
  if (fd < 0) return;
  DIR* dir = fdopendir(fd);
  if (dir == nullptr) {
    close(fd);
    return;
  }
  std::vector<std::string> names;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.rfind(kPrefix, 0) == 0 && name != kJournal) names.push_back(name);
  }
  closedir(dir);
  for (const std::string& name : names) unlinkat(folder.fd(), name.c_str(), 0);
}

Status ReadJournal(const Folder& folder, bool* found, std::vector<Entry>* entries) {
  *found = false;
  const int fd = openat(folder.fd(), kJournal, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return Status::Ok();
    return Status::Error(SystemError("cannot read " + folder.Path(kJournal)));
  }
  *found = true;
  std::string text;
  char buffer[4096];
  ssize_t n;
  while ((n = read(fd, buffer, sizeof buffer)) > 0 && text.size() < (size_t{1} << 20)) {
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fd);
  if (n < 0) return Status::Error(SystemError("cannot read " + folder.Path(kJournal)));
  return ParseJournal(text, folder.Path(kJournal), entries);
}

Status RemoveJournal(const Folder& folder) {
  Status s = folder.Sync();  // the renames reach the disk before the journal goes
  if (!s.ok()) return s;
  if (unlinkat(folder.fd(), kJournal, 0) != 0) {
    return Status::Error(SystemError("cannot remove " + folder.Path(kJournal)));
  }
  return Status::Ok();
}

// The journal of an interrupted set: finished when every new file is still
// there, else the old files restored; then the leftovers removed.
Status Recover(const Folder& folder) {
  bool found = false;
  std::vector<Entry> entries;
  Status s = ReadJournal(folder, &found, &entries);
  if (!s.ok()) return s;
  if (found) {
    const bool complete = std::all_of(entries.begin(), entries.end(), [&](const Entry& e) {
      return HasInode(folder, e.name, e.inode) || HasInode(folder, e.temp, e.inode);
    });
    s = complete ? RollForward(folder, entries) : RollBack(folder, entries);
    if (s.ok()) s = RemoveJournal(folder);
    if (!s.ok()) {
      return Status::Error("cannot finish the interrupted writing recorded in " +
                           folder.Path(kJournal) + ": " + s.message());
    }
  }
  RemoveLeftovers(folder);
  return folder.Sync();
}

// Each destination is absent or a regular file.
Status CheckDestinations(const Folder& folder, const std::vector<OutputFile>& files) {
  for (const OutputFile& f : files) {
    struct stat st {};
    if (fstatat(folder.fd(), f.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
      if (errno == ENOENT) continue;
      return Status::Error(SystemError("cannot look at " + folder.Path(f.name)));
    }
    if (S_ISREG(st.st_mode)) continue;
    const char* what = S_ISDIR(st.st_mode)   ? "a directory"
                       : S_ISLNK(st.st_mode) ? "a symbolic link (outputs are never written "
                                               "through a link)"
                                             : "not a regular file";
    return Status::Error("cannot write " + folder.Path(f.name) + ": it is " + what +
                         "; only a regular file there is replaced (remove it or choose "
                         "another --out)");
  }
  return Status::Ok();
}

// One new file: a temporary created exclusively, written, on disk.
Status WriteTemporary(const Folder& folder, const std::string& base, const std::string& prefix,
                      const void* data, size_t size, const SignalGuard& signals, Entry* entry) {
  int fd = -1;
  Status s = MakeUnique(
      folder, base,
      [&](const std::string& name) {
        fd = openat(folder.fd(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                    0666);
        return fd < 0 ? -1 : 0;
      },
      &entry->temp);
  if (!s.ok()) return s;
  const std::string path = folder.Path(entry->temp);
  s = WriteAll(fd, prefix.data(), prefix.size(), path, signals);
  if (s.ok()) s = WriteAll(fd, data, size, path, signals);
  struct stat st {};
  if (s.ok() && (fsync(fd) != 0 || fstat(fd, &st) != 0)) {
    s = Status::Error(SystemError("cannot write " + path));
  }
  if (close(fd) != 0 && s.ok()) s = Status::Error(SystemError("cannot write " + path));
  entry->inode = static_cast<uint64_t>(st.st_ino);
  return s;
}

// The commit: the journal, written beside and renamed into place.
Status WriteJournal(const Folder& folder, const std::vector<Entry>& entries,
                    const SignalGuard& signals, std::string* temp) {
  const std::string text = FormatJournal(entries);
  Entry journal;
  Status s = WriteTemporary(folder, "journal", text, nullptr, 0, signals, &journal);
  *temp = journal.temp;
  if (!s.ok()) return s;
  if (renameat(folder.fd(), journal.temp.c_str(), folder.fd(), kJournal) != 0) {
    return Status::Error(SystemError("cannot create " + folder.Path(kJournal)));
  }
  temp->clear();
  s = folder.Sync();
  if (!s.ok()) unlinkat(folder.fd(), kJournal, 0);  // not committed after all
  return s;
}

}  // namespace

const char* NpyDescr(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "<f4";
    case DType::kF16:
      return "<f2";
    case DType::kBF16:
      return "<u2";
  }
  return "";
}

Status CheckOutputDirectory(const std::string& out) {
  std::error_code ec;
  const std::filesystem::path dir(out);
  if (std::filesystem::exists(dir, ec) && !std::filesystem::is_directory(dir, ec)) {
    return Status::Error("--out " + out + " exists and is not a directory");
  }
  return Status::Ok();
}

Status RecoverOutputFolder(const std::string& dir) {
  Folder folder;
  Status s = folder.Open(dir);
  if (!s.ok()) return s;
  if (flock(folder.fd(), LOCK_EX) != 0) {
    return Status::Error(SystemError("cannot lock the output folder " + dir));
  }
  return Recover(folder);
}

Status WriteOutputSet(const std::string& dir, const std::vector<OutputFile>& files) {
  Folder folder;
  Status s = folder.Open(dir);
  if (!s.ok()) return s;
  SignalGuard signals;
  while (flock(folder.fd(), LOCK_EX) != 0) {
    if (errno != EINTR) return Status::Error(SystemError("cannot lock the output folder " + dir));
    if (signals.Interrupted()) return signals.Error();
  }
  s = Recover(folder);
  if (s.ok()) s = CheckDestinations(folder, files);
  if (!s.ok()) return s;

  // The new files and the links to the old ones; on an error or a signal
  // before the commit, all of them are removed and nothing else changed.
  std::vector<Entry> entries(files.size());
  std::vector<std::string> created;
  auto abandon = [&](Status error) {
    for (const std::string& name : created) unlinkat(folder.fd(), name.c_str(), 0);
    return error;
  };
  for (size_t i = 0; i < files.size(); ++i) {
    const OutputFile& f = files[i];
    entries[i].name = f.name;
    s = WriteTemporary(folder, f.name, f.prefix, f.data, f.size, signals, &entries[i]);
    if (!entries[i].temp.empty()) created.push_back(entries[i].temp);
    if (!s.ok()) return abandon(s);
  }
  for (Entry& e : entries) {
    struct stat st {};
    if (fstatat(folder.fd(), e.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
    s = MakeUnique(
        folder, e.name + ".old",
        [&](const std::string& name) {
          return linkat(folder.fd(), e.name.c_str(), folder.fd(), name.c_str(), 0);
        },
        &e.backup);
    if (!s.ok()) return abandon(s);
    created.push_back(e.backup);
  }
  if (signals.Interrupted()) return abandon(signals.Error());
  std::string journal_temp;
  s = WriteJournal(folder, entries, signals, &journal_temp);
  if (!journal_temp.empty()) created.push_back(journal_temp);
  if (!s.ok()) return abandon(s);

  // Committed: a signal now waits until the set is finished.
  s = RollForward(folder, entries);
  if (!s.ok()) {
    Status back = RollBack(folder, entries);
    if (back.ok()) back = RemoveJournal(folder);
    if (!back.ok()) {
      return Status::Error(s.message() + "; then " + back.message() + "; " + folder.Path(kJournal) +
                           " records the set, and the next normgrad "
                           "command writing into this folder finishes it");
    }
    return abandon(s);
  }
  s = RemoveJournal(folder);
  if (!s.ok()) return s;
  for (const Entry& e : entries) {
    if (!e.backup.empty()) unlinkat(folder.fd(), e.backup.c_str(), 0);
  }
  s = folder.Sync();
  signals.Restore();
  return s;
}

Status WriteOutputs(const std::string& out, bool npy, DType dtype,
                    const std::vector<OutputSpec>& outputs, std::vector<std::string>* paths) {
  const std::filesystem::path out_dir(out);
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) return Status::Error("cannot create --out " + out + ": " + ec.message());
  const char* extension = npy ? ".npy" : ".bin";
  std::vector<OutputFile> files;
  paths->clear();
  for (const OutputSpec& o : outputs) {
    const std::string name = std::string(o.name) + extension;
    paths->push_back((out_dir / name).string());
    files.push_back({name, npy ? MakeNpyHeader(NpyDescr(dtype), o.shape) : "", o.data, o.size});
  }
  return WriteOutputSet(out, files);
}

}  // namespace normgrad::cli

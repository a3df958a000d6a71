// tools/normgrad/check.cc — `normgrad check`: runs a program built with
// normgrad-cc with NORMGRAD_CHECK set to the chosen checks and
// NORMGRAD_CHECK_LOG to a file of its own, in which the program's runtime
// writes each report line (docs/checks.md). The exit status is the
// program's (128 + the signal when one ended it), or 1 when the program
// exited 0 but a check reported: a program that keeps going after a failed
// launch (NORMGRAD_KERNEL_ERRORS=return) must not hide a report.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "commands.h"

namespace normgrad::cli {

namespace {

// The size of the file at `path`, 0 when it is missing.
long long FileSize(const std::string& path) {
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 ? static_cast<long long>(info.st_size) : 0;
}

// Counts the lines of the file at `path`.
int CountLines(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) return 0;
  int lines = 0;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) lines += c == '\n';
  std::fclose(file);
  return lines;
}

}  // namespace

int RunCheck(const CheckOptions& options) {
  const char* tmp = std::getenv("TMPDIR");
  std::string log =
      std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/normgrad-check-XXXXXX";
  const int fd = ::mkstemp(log.data());
  if (fd < 0) {
    return Fail("check", "cannot create the report file " + log + ": " + std::strerror(errno));
  }
  ::close(fd);
  ::setenv("NORMGRAD_CHECK", options.tool.c_str(), 1);
  ::setenv("NORMGRAD_CHECK_LOG", log.c_str(), 1);

  std::vector<char*> argv;
  for (const std::string& arg : options.command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    ::unlink(log.c_str());
    return Fail("check", std::string("cannot start the program: ") + std::strerror(errno));
  }
  if (child == 0) {
    ::execvp(argv[0], argv.data());
    std::fprintf(stderr, "normgrad check: cannot run %s: %s\n", argv[0], std::strerror(errno));
    ::_exit(127);
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const int reports = FileSize(log) > 0 ? CountLines(log) : 0;
  ::unlink(log.c_str());
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  if (reports == 0) return code;
  std::fprintf(stderr, "normgrad check: %d report%s (NORMGRAD_CHECK=%s)\n", reports,
               reports == 1 ? "" : "s", options.tool.c_str());
  return code != 0 ? code : 1;
}

}  // namespace normgrad::cli

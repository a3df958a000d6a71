// tools/normgrad-cc/main.cc — normgrad-cc, the compiler driver for Ascend C
// sources on the CPU:
//
//   normgrad-cc [options] FILE.asc|FILE.cpp ... [-o OUT]
//   normgrad-cc --rewrite-only FILE -o OUT.cpp [--launch-headers DIR]
//
// Each source is rewritten (rewrite.h: launches `k<<<…>>>(…)` become calls of
// normgrad_ascendc::LaunchKernel, lines kept with #line) into a temporary
// directory, compiled there with the system C++ compiler ($CXX, else c++;
// `-x c++`, so .asc is C++) against normgrad's headers, and linked with
// normgrad's runtime (libnormgrad_ascendc.a, libnormgrad_engine.a, -fopenmp,
// -pthread). Headers and libraries are found relative to this executable:
// the build tree it was built in, or <prefix>/include and <prefix>/lib when
// it runs from <prefix>/bin after `cmake --install`.
//
// Launch headers. Before compiling, the driver scans every source for kernels
// (kernel_scan.h) and writes aclrtlaunch_<kernel>.h for each into a
// directory every compile searches, so any source of the command may include
// the header of a kernel defined or declared in any other. With
// --rewrite-only, --launch-headers DIR writes the headers of the one source
// into DIR (the CMake rules do this for each source of a target).
//
// The product profile (--profile KEY, default a2, or the device compiler's
// spelling --npu-arch=dav-2201|dav-2002|dav-3510) is compiled in twice: every
// source sees __NPU_ARCH__ defined as the device compiler defines it for that
// product (a2 2201, 310p 2002, 950 3510), and every object records the key as
// the program's default profile (a weak definition appended to the rewritten
// source, so objects compiled with -c carry it into any later link;
// normgrad_ascendc/runtime/profile.h: NORMGRAD_PROFILE at run time still wins,
// with a warning that code under #if __NPU_ARCH__ follows the compiled profile).
//
// -shared links the objects into a shared library without normgrad's runtime:
// the runtime stays in the program, once, and resolves the library's
// references when the program is linked (by normgrad-cc, or with the runtime's
// libraries on its link line).
//
// Sources are compiled with -fno-strict-aliasing: kernels copy their tiling
// word by word through a uint32_t* into a struct with float fields, which the
// device compiler runs as written and strict aliasing at -O2 may not. A later
// -fstrict-aliasing on the command line turns it back on.
//
// The output is never one of the inputs: writing it would destroy a source
// (or an object or library) the user still needs, so such a command line is
// refused before anything is written.
//
// Exit status: the compiler's (or the linker's); 2 for a malformed command
// line (as the normgrad command line); 1 for a missing or unreadable file or
// a malformed launch; each with a message on stderr.
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_scan.h"
#include "normgrad_cc_paths.h"
#include "rewrite.h"

extern char** environ;  // the environment, passed on to the compiler (POSIX)

namespace {

namespace fs = std::filesystem;
using Command = std::vector<std::string>;

constexpr int kUsageError = 2;  // the exit status for a malformed command line

constexpr const char* kUsage =
    "usage: normgrad-cc [options] FILE.asc|FILE.cpp ... [-o OUT]\n"
    "       normgrad-cc --rewrite-only FILE -o OUT.cpp [--launch-headers DIR]\n"
    "\n"
    "Compiles Ascend C programs for the CPU: rewrites kernel launches\n"
    "name<<<blocks, dynUBufSize, stream>>>(args) into calls of normgrad's emulated\n"
    "launcher, compiles with $CXX (default c++) against normgrad's headers and\n"
    "links normgrad's runtime. Other inputs (.o, .a, .so) go to the link.\n"
    "Every source may #include \"aclrtlaunch_<kernel>.h\" for a kernel of any\n"
    "source of the command (generated).\n"
    "\n"
    "options:\n"
    "  -o FILE          output file (default a.out; with -c, SOURCE.o)\n"
    "  -c               compile to an object file only, do not link\n"
    "  -v               print each command before running it\n"
    "  -shared          link a shared library (-fPIC, without normgrad's runtime:\n"
    "                   the program that loads it links the runtime)\n"
    "  --profile KEY    product profile: a2 (default), 310p or 950; sets\n"
    "                   __NPU_ARCH__ (2201, 2002, 3510) and the program's default\n"
    "                   profile (NORMGRAD_PROFILE in the environment still wins)\n"
    "  --npu-arch=dav-2201|dav-2002|dav-3510   the same as --profile a2|310p|950\n"
    "  --rewrite-only   write the rewritten source of one FILE to -o, compile nothing\n"
    "  --launch-headers DIR  with --rewrite-only: write FILE's aclrtlaunch_<kernel>.h\n"
    "                   headers into DIR\n"
    "  -I DIR  -D NAME[=VALUE]  -U NAME  -O*  -g*  -std=*  -W*   passed to the compiler\n"
    "  -fsanitize=*  -fno-sanitize*                          compiler and link\n"
    "  -f*                                                   passed to the compiler\n"
    "  -L DIR  -l LIB  -Wl,*                                 passed to the link\n"
    "  -pthread                                              compiler and link\n"
    "  -h, --help       this text\n"
    "Defaults: -std=c++17 -O2 -fno-strict-aliasing -D__NPU_ARCH__=<arch>.\n";

// The parsed command line.
struct Options {
  bool compile_only = false;
  bool verbose = false;
  bool rewrite_only = false;
  bool shared = false;  // -shared: link a shared library without the runtime
  std::optional<std::string> output;
  std::optional<std::string> launch_headers;  // --launch-headers DIR
  std::string profile = "a2";                 // the product profile's key
  std::vector<std::string> sources;           // rewritten and compiled
  std::vector<std::string> link_inputs;       // .o, .a, .so: to the link as they are
  std::vector<std::string> compile_flags;     // in command-line order
  std::vector<std::string> link_flags;        // in command-line order
};

bool HasSuffix(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool IsSource(const std::string& path) {
  static const char* const kExtensions[] = {".asc", ".cpp", ".cc", ".cxx", ".c++", ".C"};
  return std::any_of(std::begin(kExtensions), std::end(kExtensions),
                     [&](const char* ext) { return HasSuffix(path, ext); });
}

bool IsLinkInput(const std::string& path) {
  return HasSuffix(path, ".o") || HasSuffix(path, ".a") || HasSuffix(path, ".so") ||
         path.find(".so.") != std::string::npos;
}

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The profile key of a --npu-arch value (the device compiler's spelling of the
// architecture, "dav-" and __NPU_ARCH__); null for any other value.
const char* ProfileOfNpuArch(const std::string& arch) {
  if (arch == "dav-2201") return "a2";
  if (arch == "dav-2002") return "310p";
  if (arch == "dav-3510") return "950";
  return nullptr;
}

// Parses argv into `options`. Returns false with `error` set on a bad command
// line; sets `help` for -h/--help.
bool ParseArgs(int argc, char** argv, Options* options, bool* help, std::string* error) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // An option that takes a value, as `-X VALUE` or `-XVALUE` (or `--x=VALUE`
    // when `joined` is "="). Sets `value` and returns true if `arg` is `name`.
    std::string value;
    const auto take = [&](const char* name, const char* joined) -> bool {
      const std::string with_joined = std::string(name) + joined;
      if (arg == name) {
        if (i + 1 >= args.size()) {
          *error = std::string("option ") + name + " needs a value";
          return true;
        }
        value = args[++i];
        return true;
      }
      if (arg.size() > with_joined.size() && StartsWith(arg, with_joined.c_str())) {
        value = arg.substr(with_joined.size());
        return true;
      }
      return false;
    };
    if (arg == "-h" || arg == "--help") {
      *help = true;
      return true;
    } else if (arg == "-c") {
      options->compile_only = true;
    } else if (arg == "-v") {
      options->verbose = true;
    } else if (arg == "--rewrite-only") {
      options->rewrite_only = true;
    } else if (take("-o", "")) {
      options->output = value;
    } else if (take("--launch-headers", "=")) {
      options->launch_headers = value;
    } else if (take("--profile", "=")) {
      std::string key = value;
      std::transform(key.begin(), key.end(), key.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      if (key != "a2" && key != "310p" && key != "950") {
        *error = "--profile '" + value + "': unknown profile (valid: a2, 310p, 950)";
        return false;
      }
      options->profile = key;
    } else if (take("--npu-arch", "=")) {
      const char* profile = ProfileOfNpuArch(value);
      if (profile == nullptr) {
        *error = "--npu-arch '" + value +
                 "': unknown architecture (valid: dav-2201 for a2, dav-2002 for 310p, "
                 "dav-3510 for 950)";
        return false;
      }
      options->profile = profile;
    } else if (arg == "-shared") {
      options->shared = true;
    } else if (arg == "-pthread") {
      options->compile_flags.push_back(arg);
      options->link_flags.push_back(arg);
    } else if (take("-I", "") || take("-D", "") || take("-U", "")) {
      options->compile_flags.push_back(arg.substr(0, 2) + value);
    } else if (take("-L", "") || take("-l", "")) {
      options->link_flags.push_back(arg.substr(0, 2) + value);
    } else if (StartsWith(arg, "-Wl,")) {
      options->link_flags.push_back(arg);
    } else if (StartsWith(arg, "-fsanitize") || StartsWith(arg, "-fno-sanitize")) {
      options->compile_flags.push_back(arg);
      options->link_flags.push_back(arg);
    } else if (StartsWith(arg, "-O") || StartsWith(arg, "-g") || StartsWith(arg, "-std=") ||
               (StartsWith(arg, "-W") && arg.size() > 2) ||
               (StartsWith(arg, "-f") && arg.size() > 2)) {
      options->compile_flags.push_back(arg);
    } else if (!arg.empty() && arg[0] == '-') {
      *error = "unknown option '" + arg + "' (see normgrad-cc --help)";
      return false;
    } else if (IsSource(arg)) {
      options->sources.push_back(arg);
    } else if (IsLinkInput(arg)) {
      options->link_inputs.push_back(arg);
    } else {
      *error =
          "'" + arg + "': not a source (.asc, .cpp, .cc, .cxx) or a linker input (.o, .a, .so)";
      return false;
    }
    if (!error->empty()) return false;
  }
  if (options->sources.empty() && options->link_inputs.empty()) {
    *error = "no input files (see normgrad-cc --help)";
    return false;
  }
  if (options->rewrite_only &&
      (options->sources.size() != 1 || !options->link_inputs.empty() || !options->output)) {
    *error = "--rewrite-only takes one source file and -o OUT";
    return false;
  }
  if (options->launch_headers && !options->rewrite_only) {
    *error = "--launch-headers goes with --rewrite-only (a compile writes the headers itself)";
    return false;
  }
  if (options->shared && (options->compile_only || options->rewrite_only)) {
    *error = std::string("-shared links a library; it does not go with ") +
             (options->compile_only ? "-c" : "--rewrite-only");
    return false;
  }
  if (options->compile_only && !options->link_inputs.empty()) {
    *error = "'" + options->link_inputs.front() + "': a linker input, but -c does not link";
    return false;
  }
  if (options->compile_only && options->output && options->sources.size() > 1) {
    *error = "-o with -c takes a single source file";
    return false;
  }
  return true;
}

// The files this command writes: -o, else a.out, or SOURCE.o for each source
// with -c.
std::vector<fs::path> Outputs(const Options& options) {
  if (options.output) return {*options.output};
  if (!options.compile_only) return {"a.out"};
  std::vector<fs::path> outputs;
  for (const std::string& source : options.sources)
    outputs.push_back(fs::path(source).stem().string() + ".o");
  return outputs;
}

// True if writing `output` would overwrite `input`: the same file by device
// and inode when both exist (a hard link, or a symbolic link on either side),
// else the same path once `.`, `..` and symbolic links are resolved.
bool SameFile(const fs::path& output, const fs::path& input) {
  std::error_code ec;
  if (fs::equivalent(output, input, ec)) return true;
  const fs::path resolved_output = fs::weakly_canonical(output, ec);
  if (ec) return false;
  const fs::path resolved_input = fs::weakly_canonical(input, ec);
  return !ec && resolved_output == resolved_input;
}

// Checks that no output of the command is one of its inputs.
bool CheckOutputs(const Options& options, std::string* error) {
  std::vector<std::string> inputs = options.sources;
  inputs.insert(inputs.end(), options.link_inputs.begin(), options.link_inputs.end());
  for (const fs::path& output : Outputs(options)) {
    for (const std::string& input : inputs) {
      if (!SameFile(output, input)) continue;
      const std::string argument = options.output ? "-o " : "the default output ";
      const std::string how =
          output == fs::path(input) ? "" : " (the same file through a link or another path)";
      *error = argument + output.string() + ": writing it would overwrite the input " + input +
               how + "; the output must not be one of the inputs";
      return false;
    }
  }
  return true;
}

// Where normgrad's headers and runtime libraries are.
struct Layout {
  std::vector<std::string> include_dirs;
  std::vector<std::string> libraries;
};

// Finds the layout from this executable's location: the build tree it was
// built in, else an install tree around it. False with `error` if the files
// are not there.
bool FindLayout(Layout* layout, std::string* error) {
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  if (ec) {
    *error = "cannot locate the normgrad-cc executable (/proc/self/exe): " + ec.message();
    return false;
  }
  fs::path include_dir;
  std::vector<fs::path> libraries;
  if (fs::equivalent(exe_dir, NORMGRAD_CC_BUILD_BIN_DIR, ec)) {
    include_dir = NORMGRAD_CC_BUILD_INCLUDE_DIR;
    libraries = {NORMGRAD_CC_BUILD_ASCENDC_LIB, NORMGRAD_CC_BUILD_ENGINE_LIB};
  } else {
    include_dir = (exe_dir / NORMGRAD_CC_INSTALL_INCLUDE_DIR).lexically_normal();
    const fs::path lib_dir = (exe_dir / NORMGRAD_CC_INSTALL_LIB_DIR).lexically_normal();
    libraries = {lib_dir / NORMGRAD_CC_ASCENDC_LIB_NAME, lib_dir / NORMGRAD_CC_ENGINE_LIB_NAME};
  }
  const fs::path ascendc_dir = include_dir / "ascendc";
  if (!fs::exists(ascendc_dir / "kernel_operator.h")) {
    *error = "normgrad's headers are not in " + ascendc_dir.string() +
             " (normgrad-cc runs from the build tree's bin/ or an install's <prefix>/bin)";
    return false;
  }
  for (const fs::path& library : libraries) {
    if (!fs::exists(library)) {
      *error = "normgrad's runtime library " + library.string() +
               " is missing (build the normgrad_ascendc target, or install normgrad)";
      return false;
    }
    layout->libraries.push_back(library.string());
  }
  layout->include_dirs = {include_dir.string(), ascendc_dir.string()};
  return true;
}

// `arg` quoted for a POSIX shell when it needs to be.
std::string ShellQuote(const std::string& arg) {
  const bool plain = !arg.empty() && std::all_of(arg.begin(), arg.end(), [](unsigned char c) {
    return std::isalnum(c) != 0 || std::strchr("_-+=/.,:@%", c) != nullptr;
  });
  if (plain) return arg;
  std::string quoted = "'";
  for (const char c : arg) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// Runs `command` (searched in PATH) and returns its exit status; 127 if it
// could not be started, 128 + signal if a signal ended it.
int Run(const Command& command, bool verbose) {
  if (verbose) {
    std::string line;
    for (const std::string& arg : command) line += (line.empty() ? "" : " ") + ShellQuote(arg);
    std::cerr << line << '\n';
  }
  std::vector<char*> argv;
  for (const std::string& arg : command) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int spawn_error = posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ);
  if (spawn_error != 0) {
    std::cerr << "normgrad-cc: error: cannot run '" << command[0]
              << "': " << std::strerror(spawn_error) << '\n';
    return 127;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 127;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

// The C++ compiler command: $CXX split at whitespace, else "c++".
Command Compiler() {
  Command compiler;
  const char* cxx = std::getenv("CXX");
  std::istringstream words(cxx != nullptr ? cxx : "");
  for (std::string word; words >> word;) compiler.push_back(word);
  if (compiler.empty()) compiler.push_back("c++");
  return compiler;
}

// A temporary directory, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern =
        std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/normgrad-cc.XXXXXX";
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// Empty if the directory could not be created.
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

bool ReadFile(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return static_cast<bool>(in) || in.eof();
}

bool WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  return static_cast<bool>(out);
}

// Reads `source` into `text`; false with a message on stderr.
bool ReadSource(const std::string& source, std::string* text) {
  if (ReadFile(source, text)) return true;
  std::cerr << "normgrad-cc: error: " << source << ": cannot read (" << std::strerror(errno)
            << ")\n";
  return false;
}

// Writes the launch headers of the kernels of `source` into `dir`; with
// `definitions`, only of the kernels it defines, else only of those it only
// declares. False with a message on stderr.
bool WriteSourceLaunchHeaders(const std::string& source, const std::string& dir, bool definitions) {
  std::string text;
  if (!ReadSource(source, &text)) return false;
  std::vector<normgrad_cc::KernelDecl> kernels = normgrad_cc::FindKernels(text);
  kernels.erase(
      std::remove_if(kernels.begin(), kernels.end(),
                     [&](const normgrad_cc::KernelDecl& k) { return k.definition != definitions; }),
      kernels.end());
  std::string error;
  if (normgrad_cc::WriteLaunchHeaders(kernels, source, dir, &error)) return true;
  std::cerr << "normgrad-cc: error: " << error << '\n';
  return false;
}

// Rewrites the launches of `source` into `output`, followed by `trailer`.
// Reports problems on stderr.
bool RewriteFile(const std::string& source, const fs::path& output, bool verbose,
                 const std::string& trailer = "") {
  std::string text;
  if (!ReadSource(source, &text)) return false;
  const normgrad_cc::RewriteResult result = normgrad_cc::RewriteLaunches(text, source);
  for (const normgrad_cc::RewriteError& e : result.errors)
    std::cerr << source << ':' << e.line << ": error: " << e.message << '\n';
  if (!result.errors.empty()) return false;
  if (verbose) {
    std::cerr << "# normgrad-cc: " << source << " -> " << output.string() << " (" << result.launches
              << " launch" << (result.launches == 1 ? "" : "es") << " rewritten)\n";
  }
  if (!WriteFile(output, result.text + trailer)) {
    std::cerr << "normgrad-cc: error: cannot write " << output.string() << '\n';
    return false;
  }
  return true;
}

// The flags normgrad's libraries were built with that programs need too
// (NORMGRAD_CC_LIBRARY_FLAGS: sanitizers), one per element.
std::vector<std::string> LibraryFlags() {
  std::vector<std::string> flags;
  std::istringstream in(NORMGRAD_CC_LIBRARY_FLAGS);
  for (std::string flag; in >> flag;) flags.push_back(flag);
  return flags;
}

// __NPU_ARCH__ of a profile key, as the device compiler defines it for the
// product (the arch column of normgrad_ascendc/runtime/profile.h's table).
const char* NpuArch(const std::string& profile) {
  if (profile == "310p") return "2002";
  if (profile == "950") return "3510";
  return "2201";
}

// The command that compiles the (rewritten) C++ file `cpp` to `object`.
// `quote_dir` is searched for "..." includes, as the original file's
// directory would have been.
Command CompileCommand(const Options& options, const Layout& layout, const fs::path& cpp,
                       const fs::path& object, const std::string& quote_dir) {
  Command command = Compiler();
  command.insert(command.end(), {"-std=c++17", "-O2", "-fno-strict-aliasing",
                                 "-D__NPU_ARCH__=" + std::string(NpuArch(options.profile))});
  const std::vector<std::string> library_flags = LibraryFlags();
  command.insert(command.end(), library_flags.begin(), library_flags.end());
  if (options.shared) command.push_back("-fPIC");
  command.insert(command.end(), options.compile_flags.begin(), options.compile_flags.end());
  command.insert(command.end(), {"-fopenmp", "-pthread"});
  if (!quote_dir.empty()) command.insert(command.end(), {"-iquote", quote_dir});
  for (const std::string& dir : layout.include_dirs) command.insert(command.end(), {"-I", dir});
  command.insert(command.end(), {"-x", "c++", "-c", cpp.string(), "-o", object.string()});
  return command;
}

// The lines appended to every compiled source: they record `profile` as the
// profile the program was compiled for (normgrad_ascendc/runtime/profile.h,
// CompiledProfile). Weak, so that every object may carry it and the program
// links whichever objects it has; appended after the user's last line, so no
// line of the user's file moves.
std::string ProfileRecord(const std::string& profile) {
  return "\n// Added by normgrad-cc: the product profile this object was compiled for,\n"
         "// the program's default profile (an explicit NORMGRAD_PROFILE wins).\n"
         "extern \"C\" __attribute__((weak)) const char* const normgrad_compiled_profile = \"" +
         profile + "\";\n";
}

int Main(int argc, char** argv) {
  Options options;
  bool help = false;
  std::string error;
  if (!ParseArgs(argc, argv, &options, &help, &error)) {
    std::cerr << "normgrad-cc: error: " << error << '\n';
    return kUsageError;
  }
  if (help) {
    std::cout << kUsage;
    return 0;
  }
  for (const std::string& input : options.sources) {
    if (!fs::is_regular_file(input)) {
      std::cerr << "normgrad-cc: error: " << input << ": no such file\n";
      return 1;
    }
  }
  if (!CheckOutputs(options, &error)) {
    std::cerr << "normgrad-cc: error: " << error << '\n';
    return kUsageError;
  }
  if (options.rewrite_only) {
    const std::string& source = options.sources.front();
    if (options.launch_headers &&
        (!WriteSourceLaunchHeaders(source, *options.launch_headers, false) ||
         !WriteSourceLaunchHeaders(source, *options.launch_headers, true))) {
      return 1;
    }
    return RewriteFile(source, *options.output, options.verbose) ? 0 : 1;
  }

  Layout layout;
  if (!FindLayout(&layout, &error)) {
    std::cerr << "normgrad-cc: error: " << error << '\n';
    return 1;
  }
  const TempDir temp;
  if (temp.path().empty()) {
    std::cerr << "normgrad-cc: error: cannot create a temporary directory: " << std::strerror(errno)
              << '\n';
    return 1;
  }

  // The launch headers of every source, those of definitions last so that
  // they win over a declaration of the same kernel elsewhere.
  const std::string launch_dir = (temp.path() / "launch").string();
  for (const bool definitions : {false, true}) {
    for (const std::string& source : options.sources) {
      if (!WriteSourceLaunchHeaders(source, launch_dir, definitions)) return 1;
    }
  }
  layout.include_dirs.push_back(launch_dir);

  std::vector<std::string> objects;
  for (size_t i = 0; i < options.sources.size(); ++i) {
    const std::string& source = options.sources[i];
    const fs::path stem = fs::path(source).stem();
    const fs::path cpp = temp.path() / (std::to_string(i) + "-" + stem.string() + ".cpp");
    if (!RewriteFile(source, cpp, options.verbose, ProfileRecord(options.profile))) return 1;
    fs::path object = temp.path() / (std::to_string(i) + "-" + stem.string() + ".o");
    if (options.compile_only)
      object = options.output ? fs::path(*options.output) : fs::path(stem.string() + ".o");
    const std::string quote_dir = fs::absolute(source).parent_path().string();
    const int status =
        Run(CompileCommand(options, layout, cpp, object, quote_dir), options.verbose);
    if (status != 0) return status;
    objects.push_back(object.string());
  }
  if (options.compile_only) return 0;

  Command link = Compiler();
  const std::vector<std::string> library_flags = LibraryFlags();
  link.insert(link.end(), library_flags.begin(), library_flags.end());
  for (const std::string& flag : options.link_flags)
    if (StartsWith(flag, "-fsanitize") || StartsWith(flag, "-fno-sanitize")) link.push_back(flag);
  if (options.shared) link.insert(link.end(), {"-shared", "-fPIC"});
  link.insert(link.end(), objects.begin(), objects.end());
  link.insert(link.end(), options.link_inputs.begin(), options.link_inputs.end());
  link.insert(link.end(), {"-o", options.output.value_or("a.out")});
  for (const std::string& flag : options.link_flags)
    if (!StartsWith(flag, "-fsanitize") && !StartsWith(flag, "-fno-sanitize")) link.push_back(flag);
  if (!options.shared) link.insert(link.end(), layout.libraries.begin(), layout.libraries.end());
  link.insert(link.end(), {"-fopenmp", "-pthread"});
  return Run(link, options.verbose);
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }

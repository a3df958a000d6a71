// tools/normgrad-cc/rewrite.cc — the launch rewrite of normgrad-cc: with the
// scanner of cpp_scan.h it finds each `<<<` in code, takes the kernel
// expression before it (identifier, `::` qualification, template argument
// lists) and the configuration and argument lists after it, and emits the
// launcher call.
#include "rewrite.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>

#include "cpp_scan.h"

namespace normgrad_cc {
namespace {

// The start of the kernel expression that ends just before the `<<<` at
// `lt`: `[::]id[<…>](::id[<…>])*`, with whitespace between tokens. kNpos if
// the text before `<<<` is not such an expression (then it is no launch).
size_t FindKernelStart(std::string_view s, size_t lt, size_t floor) {
  size_t p = SkipSpaceBack(s, lt, floor);
  while (true) {
    if (p > floor && s[p - 1] == '>') {  // a template argument list: back to its `<`
      int angles = 0;
      int parens = 0;
      size_t q = p;
      while (q > floor) {
        const char c = s[--q];
        if (c == ')' || c == ']') ++parens;
        if (c == '(' || c == '[') --parens;
        if (parens == 0 && c == '>') ++angles;
        if (parens == 0 && c == '<' && --angles == 0) break;
      }
      if (angles != 0 || parens != 0) return kNpos;
      p = SkipSpaceBack(s, q, floor);
    }
    const std::string_view id = TokenBefore(s, p);
    if (id.empty() || p - id.size() < floor ||
        std::isdigit(static_cast<unsigned char>(id[0])) != 0 || id == "operator") {
      return kNpos;
    }
    p -= id.size();
    const size_t before = SkipSpaceBack(s, p, floor);
    if (before < floor + 2 || s.substr(before - 2, 2) != "::") return p;
    const size_t scope = SkipSpaceBack(s, before - 2, floor);
    if (scope == floor || (!IsIdentChar(s[scope - 1]) && s[scope - 1] != '>')) return before - 2;
    p = scope;
  }
}

// A parsed launch; all indices into the source.
struct Launch {
  size_t config_begin;  // just past `<<<`
  size_t config_end;    // at `>>>`
  size_t gap_begin;     // just past `>>>`
  size_t args_begin;    // just past `(`
  size_t args_end;      // at `)`
  bool default_stream;  // `<<<blocks, dynUBufSize>>>`: the stream is nullptr
};

// Parses what follows the `<<<` at `lt`. On failure returns false and sets
// `error` (without the kernel's name).
bool ParseLaunch(std::string_view s, size_t lt, Launch* launch, std::string* error) {
  launch->config_begin = lt + 3;
  int depth = 0;
  int commas = 0;
  size_t close = kNpos;
  for (size_t i = NextCode(s, launch->config_begin); i < s.size(); i = NextCode(s, i)) {
    const char c = s[i];
    if (depth == 0 && s.compare(i, 3, ">>>") == 0) {
      close = i;
      break;
    }
    if (depth == 0 && (c == ';' || BracketDelta(c) < 0)) break;  // ran past the statement
    if (depth == 0 && c == ',') ++commas;
    depth += BracketDelta(c);
    ++i;
  }
  if (close == kNpos) {
    *error = "no '>>>' closes the launch configuration";
    return false;
  }
  if (commas < 1 || commas > 2) {
    *error = "a launch takes <<<blocks, dynUBufSize[, stream]>>>; found " +
             std::to_string(commas + 1) + " argument" + (commas == 0 ? "" : "s");
    return false;
  }
  launch->default_stream = commas == 1;
  launch->config_end = close;
  launch->gap_begin = close + 3;
  const size_t open = SkipSpaceAndComments(s, launch->gap_begin);
  if (open >= s.size() || s[open] != '(') {
    *error = "expected '(' with the kernel arguments after '>>>'";
    return false;
  }
  launch->args_begin = open + 1;
  depth = 1;
  size_t i = NextCode(s, launch->args_begin);
  for (; i < s.size(); i = NextCode(s, i + 1)) {
    depth += BracketDelta(s[i]);
    if (depth == 0) break;
  }
  if (i >= s.size()) {
    *error = "no ')' closes the kernel arguments";
    return false;
  }
  launch->args_end = i;
  return true;
}

// The kernel's display name: its spelling with whitespace runs collapsed to
// one space.
std::string DisplayName(std::string_view spelling) {
  std::string name;
  bool space = false;
  for (const char c : spelling) {
    if (IsSpace(c)) {
      space = true;
      continue;
    }
    if (space && !name.empty()) name += ' ';
    space = false;
    name += c;
  }
  return name;
}

// True if `text` holds anything but whitespace and comments.
bool HasCode(std::string_view text) { return SkipSpaceAndComments(text, 0) < text.size(); }

}  // namespace

RewriteResult RewriteLaunches(std::string_view source, std::string_view line_path) {
  RewriteResult result;
  std::string& out = result.text;
  out.reserve(source.size() + source.size() / 8 + 64);
  out += "#line 1 " + StringLiteral(line_path) + "\n";

  size_t copied = 0;  // source[0, copied) is in `out` already
  for (size_t i = NextCode(source, 0); i < source.size(); i = NextCode(source, i)) {
    if (source.compare(i, 3, "<<<") != 0) {
      ++i;
      continue;
    }
    const size_t kernel_begin = FindKernelStart(source, i, copied);
    if (kernel_begin == kNpos) {  // not a launch (e.g. `operator<<<T>`)
      i += 3;
      continue;
    }
    const size_t kernel_end = SkipSpaceBack(source, i, kernel_begin);
    const std::string_view kernel = source.substr(kernel_begin, kernel_end - kernel_begin);
    Launch launch{};
    std::string error;
    if (!ParseLaunch(source, i, &launch, &error)) {
      result.errors.push_back(
          {LineOf(source, i), "launch of '" + DisplayName(kernel) + "': " + error});
      i += 3;
      continue;
    }
    // Every piece of the launch is kept verbatim, so its newlines (and thus
    // the line of everything after it) stay: the whitespace before `<<<`, the
    // configuration, the gap between `>>>` and `(`, the kernel, the arguments.
    const auto piece = [&](size_t begin, size_t end) { return source.substr(begin, end - begin); };
    out.append(source.substr(copied, kernel_begin - copied));
    out += "normgrad_ascendc::LaunchKernel(";
    out += StringLiteral(DisplayName(kernel));
    out += ", ";
    out += piece(kernel_end, i);
    out += piece(launch.config_begin, launch.config_end);
    if (launch.default_stream) out += ", nullptr";
    out += ',';
    out += piece(launch.gap_begin, launch.args_begin - 1);
    out += ' ';
    out += kernel;
    const std::string_view args = piece(launch.args_begin, launch.args_end);
    if (HasCode(args)) {
      out += ',';
      if (!IsSpace(args.front())) out += ' ';
    }
    out += args;
    out += ')';
    ++result.launches;
    copied = i = launch.args_end + 1;
  }
  out.append(source.substr(copied));
  return result;
}

}  // namespace normgrad_cc

// tools/normgrad-cc/rewrite.cc — the launch rewrite of normgrad-cc: a small
// C++ scanner that knows comments, string/character/raw string literals and
// digit separators, finds each `<<<` in code, takes the kernel expression
// before it (identifier, `::` qualification, template argument lists) and the
// configuration and argument lists after it, and emits the launcher call.
#include "rewrite.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>

namespace normgrad_cc {
namespace {

constexpr size_t kNpos = std::string_view::npos;

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The identifier-like token that ends just before `end` (may be empty).
std::string_view TokenBefore(std::string_view s, size_t end) {
  size_t begin = end;
  while (begin > 0 && IsIdentChar(s[begin - 1])) --begin;
  return s.substr(begin, end - begin);
}

// True if the `'` at `i` is a digit separator (1'000'000, 0xFF'FF): the
// preprocessing number before it starts with a digit, or with `.` and a digit.
bool IsDigitSeparator(std::string_view s, size_t i) {
  size_t begin = i;
  while (begin > 0 && (IsIdentChar(s[begin - 1]) || s[begin - 1] == '.' || s[begin - 1] == '\''))
    --begin;
  if (begin == i) return false;
  const char first = s[begin];
  if (std::isdigit(static_cast<unsigned char>(first)) != 0) return true;
  return first == '.' && begin + 1 < i &&
         std::isdigit(static_cast<unsigned char>(s[begin + 1])) != 0;
}

// End of a quoted literal opened at `i` (quote is `"` or `'`): one past the
// closing quote, or the end of the line for an unterminated literal.
size_t SkipQuoted(std::string_view s, size_t i, char quote) {
  size_t j = i + 1;
  while (j < s.size() && s[j] != quote && s[j] != '\n') j += (s[j] == '\\') ? 2 : 1;
  return std::min(j + 1, s.size());
}

// If a comment or a literal starts at `i`, the index just past it; else `i`.
size_t SkipCommentOrLiteral(std::string_view s, size_t i) {
  const char c = s[i];
  const char next = i + 1 < s.size() ? s[i + 1] : '\0';
  if (c == '/' && next == '/') {  // to the end of the line; `\` continues it
    size_t j = i + 2;
    while (j < s.size()) {
      if (s[j] == '\n') {
        size_t k = j;
        if (k > 0 && s[k - 1] == '\r') --k;
        if (k == 0 || s[k - 1] != '\\') return j;
      }
      ++j;
    }
    return j;
  }
  if (c == '/' && next == '*') {
    const size_t end = s.find("*/", i + 2);
    return end == kNpos ? s.size() : end + 2;
  }
  if (c == '"') {
    static constexpr std::array<std::string_view, 5> kRawPrefixes = {"R", "u8R", "uR", "UR", "LR"};
    const std::string_view prefix = TokenBefore(s, i);
    if (std::find(kRawPrefixes.begin(), kRawPrefixes.end(), prefix) != kRawPrefixes.end()) {
      const size_t open = s.find('(', i + 1);
      if (open != kNpos) {
        const std::string closing = ")" + std::string(s.substr(i + 1, open - i - 1)) + "\"";
        const size_t end = s.find(closing, open + 1);
        return end == kNpos ? s.size() : end + closing.size();
      }
    }
    return SkipQuoted(s, i, '"');
  }
  if (c == '\'' && !IsDigitSeparator(s, i)) return SkipQuoted(s, i, '\'');
  return i;
}

// Index of the first non-space at or after `i`, skipping comments too.
size_t SkipSpaceAndComments(std::string_view s, size_t i) {
  while (i < s.size()) {
    if (IsSpace(s[i])) {
      ++i;
    } else if (s[i] == '/' && i + 1 < s.size() && (s[i + 1] == '/' || s[i + 1] == '*')) {
      i = SkipCommentOrLiteral(s, i);
    } else {
      break;
    }
  }
  return i;
}

// Index just past the whitespace that ends at `end` (backwards), not below `floor`.
size_t SkipSpaceBack(std::string_view s, size_t end, size_t floor) {
  while (end > floor && IsSpace(s[end - 1])) --end;
  return end;
}

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
};

// Depth change of a bracket character: +1 for ( [ {, -1 for ) ] }, else 0.
int BracketDelta(char c) {
  if (c == '(' || c == '[' || c == '{') return 1;
  if (c == ')' || c == ']' || c == '}') return -1;
  return 0;
}

// Parses what follows the `<<<` at `lt`. On failure returns false and sets
// `error` (without the kernel's name).
bool ParseLaunch(std::string_view s, size_t lt, Launch* launch, std::string* error) {
  launch->config_begin = lt + 3;
  int depth = 0;
  int commas = 0;
  size_t close = kNpos;
  for (size_t i = launch->config_begin; i < s.size();) {
    const size_t skipped = SkipCommentOrLiteral(s, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
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
  if (commas < 2) {
    *error = "a launch takes <<<blocks, dynUBufSize, stream>>>; found " +
             std::to_string(commas + 1) + " argument" + (commas == 0 ? "" : "s");
    return false;
  }
  launch->config_end = close;
  launch->gap_begin = close + 3;
  const size_t open = SkipSpaceAndComments(s, launch->gap_begin);
  if (open >= s.size() || s[open] != '(') {
    *error = "expected '(' with the kernel arguments after '>>>'";
    return false;
  }
  launch->args_begin = open + 1;
  depth = 1;
  size_t i = launch->args_begin;
  while (i < s.size()) {
    const size_t skipped = SkipCommentOrLiteral(s, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
    depth += BracketDelta(s[i]);
    if (depth == 0) break;
    ++i;
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

// `text` as a C/C++ narrow string literal that stands for exactly its bytes:
// `"`, `\` and `?` (which could start a trigraph under -std=c++14) escaped
// with a backslash, every byte outside printable ASCII as a three-digit octal
// escape (a newline in a file name ends a `#line` directive otherwise; three
// digits, so a digit after it is not read into the escape). g++ and clang++
// decode these in `#line` names and print the original bytes in diagnostics.
std::string StringLiteral(std::string_view text) {
  std::string literal = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\' || c == '?') {
      literal += '\\';
      literal += c;
    } else if (byte < 0x20 || byte > 0x7e) {
      literal += '\\';
      literal += static_cast<char>('0' + (byte >> 6));
      literal += static_cast<char>('0' + ((byte >> 3) & 7));
      literal += static_cast<char>('0' + (byte & 7));
    } else {
      literal += c;
    }
  }
  return literal + '"';
}

// True if `text` holds anything but whitespace and comments.
bool HasCode(std::string_view text) { return SkipSpaceAndComments(text, 0) < text.size(); }

int LineOf(std::string_view s, size_t pos) {
  return 1 + static_cast<int>(
                 std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

}  // namespace

RewriteResult RewriteLaunches(std::string_view source, std::string_view line_path) {
  RewriteResult result;
  std::string& out = result.text;
  out.reserve(source.size() + source.size() / 8 + 64);
  out += "#line 1 " + StringLiteral(line_path) + "\n";

  size_t copied = 0;  // source[0, copied) is in `out` already
  size_t i = 0;
  while (i < source.size()) {
    const size_t skipped = SkipCommentOrLiteral(source, i);
    if (skipped != i) {
      i = skipped;
      continue;
    }
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

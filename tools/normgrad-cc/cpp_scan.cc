// tools/normgrad-cc/cpp_scan.cc — the small C++ scanner of normgrad-cc
// (cpp_scan.h).
#include "cpp_scan.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstddef>
#include <string>

namespace normgrad_cc {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

bool IsSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// The identifier-like token that ends just before `end` (may be empty).
std::string_view TokenBefore(std::string_view s, size_t end) {
  size_t begin = end;
  while (begin > 0 && IsIdentChar(s[begin - 1])) --begin;
  return s.substr(begin, end - begin);
}

namespace {

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

}  // namespace

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
size_t NextCode(std::string_view s, size_t i) {
  while (i < s.size()) {
    const size_t next = SkipCommentOrLiteral(s, i);
    if (next == i) return i;
    i = next;
  }
  return s.size();
}

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

// Depth change of a bracket character: +1 for ( [ {, -1 for ) ] }, else 0.
int BracketDelta(char c) {
  if (c == '(' || c == '[' || c == '{') return 1;
  if (c == ')' || c == ']' || c == '}') return -1;
  return 0;
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

int LineOf(std::string_view s, size_t pos) {
  return 1 + static_cast<int>(
                 std::count(s.begin(), s.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

}  // namespace normgrad_cc

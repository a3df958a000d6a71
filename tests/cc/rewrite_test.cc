// tests/cc/rewrite_test.cc — unit tests of normgrad-cc's launch rewrite
// (tools/normgrad-cc/rewrite.h): launch forms, spacing, lines kept,
// `<<<` in comments and literals, malformed launches.
//
// To extend: add a TEST with the source text and the expected rewrite;
// Rewrite() strips the leading #line directive, Compact() drops whitespace
// when only the tokens matter.
#include "rewrite.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace normgrad_cc {
namespace {

// The rewritten text without its first line (the #line directive).
std::string Rewrite(const std::string& source) {
  const RewriteResult result = RewriteLaunches(source, "k.asc");
  EXPECT_TRUE(result.errors.empty()) << result.errors.front().message;
  return result.text.substr(result.text.find('\n') + 1);
}

// `text` without any whitespace.
std::string Compact(std::string text) {
  text.erase(std::remove_if(text.begin(), text.end(),
                            [](unsigned char c) { return std::isspace(c) != 0; }),
             text.end());
  return text;
}

TEST(Rewrite, PlainLaunch) {
  EXPECT_EQ(Rewrite("k<<<8, 0, stream>>>(a, b);"),
            "normgrad_ascendc::LaunchKernel(\"k\", 8, 0, stream, k, a, b);");
}

// The stream may be left out: it is the default stream, nullptr (the
// kernel-launch page: the stream's default is nullptr).
TEST(Rewrite, TwoArgumentLaunchUsesTheDefaultStream) {
  EXPECT_EQ(Rewrite("k<<<8, 0>>>(a, b);"),
            "normgrad_ascendc::LaunchKernel(\"k\", 8, 0, nullptr, k, a, b);");
  EXPECT_EQ(Rewrite("ns::k<float><<<n, f(1, 2)>>>();"),
            "normgrad_ascendc::LaunchKernel(\"ns::k<float>\", n, f(1, 2), nullptr, ns::k<float>);");
  // Lines are kept when the configuration spans several.
  EXPECT_EQ(Rewrite("k<<<8,\n 0>>>(x);\nint after;"),
            "normgrad_ascendc::LaunchKernel(\"k\", 8,\n 0, nullptr, k, x);\nint after;");
}

TEST(Rewrite, NoArguments) {
  EXPECT_EQ(Rewrite("k<<<1, 0, s>>>();"), "normgrad_ascendc::LaunchKernel(\"k\", 1, 0, s, k);");
  EXPECT_EQ(Compact(Rewrite("k<<<1, 0, s>>>( /* none */ );")),
            Compact("normgrad_ascendc::LaunchKernel(\"k\", 1, 0, s, k/* none */);"));
}

TEST(Rewrite, NullptrDynamicUb) {
  EXPECT_EQ(Rewrite("k<<<n, nullptr, stream>>>(x);"),
            "normgrad_ascendc::LaunchKernel(\"k\", n, nullptr, stream, k, x);");
}

TEST(Rewrite, TemplatedKernel) {
  EXPECT_EQ(Rewrite("k<float, 8><<<n, 0, s>>>(x);"),
            "normgrad_ascendc::LaunchKernel(\"k<float, 8>\", n, 0, s, k<float, 8>, x);");
  // Nested template arguments, `>>`, and `>` inside parentheses.
  EXPECT_EQ(Compact(Rewrite("k<std::vector<int>, (3 > 2)><<<n, 0, s>>>(x);")),
            Compact("normgrad_ascendc::LaunchKernel(\"k<std::vector<int>, (3 > 2)>\", n, 0, s, "
                    "k<std::vector<int>, (3 > 2)>, x);"));
}

TEST(Rewrite, QualifiedKernel) {
  EXPECT_EQ(
      Compact(Rewrite("ns::inner::k<T><<<1, 0, s>>>(x);")),
      Compact("normgrad_ascendc::LaunchKernel(\"ns::inner::k<T>\", 1, 0, s, ns::inner::k<T>, x);"));
  EXPECT_EQ(Compact(Rewrite("r = ::k<<<1, 0, s>>>(x);")),
            Compact("r = normgrad_ascendc::LaunchKernel(\"::k\", 1, 0, s, ::k, x);"));
}

TEST(Rewrite, AnySpacing) {
  const std::string expected = Compact("normgrad_ascendc::LaunchKernel(\"k\", 8, 0, s, k, a, b);");
  EXPECT_EQ(Compact(Rewrite("k <<< 8,0,s >>> ( a , b ) ;")), expected);
  EXPECT_EQ(Compact(Rewrite("k<<<8,0,s>>>(a,b);")), expected);
  EXPECT_EQ(Compact(Rewrite("k\t<<<\t8,\t0,\ts\t>>>\t(a,\tb);")), expected);
  EXPECT_EQ(Compact(Rewrite("k<<<1, 0, s>>> /* gap */ (a);")),
            Compact("normgrad_ascendc::LaunchKernel(\"k\", 1, 0, s, /* gap */ k, a);"));
}

TEST(Rewrite, NestedParenthesesAndTemplatesInArguments) {
  EXPECT_EQ(Compact(Rewrite("k<<<f(a, b), 0, s>>>(g(h(1), 2), std::max<int>(3, 4), v[i]);")),
            Compact("normgrad_ascendc::LaunchKernel(\"k\", f(a, b), 0, s, k, "
                    "g(h(1), 2), std::max<int>(3, 4), v[i]);"));
  EXPECT_EQ(
      Compact(Rewrite("k<<<std::min<uint32_t>(n, 8), 0, s>>>(x);")),
      Compact("normgrad_ascendc::LaunchKernel(\"k\", std::min<uint32_t>(n, 8), 0, s, k, x);"));
}

TEST(Rewrite, LiteralsInArgumentsDoNotEndTheLaunch) {
  EXPECT_EQ(
      Compact(Rewrite("k<<<1, 0, s>>>(\")>>>\", ')', R\"x()\")x\");")),
      Compact("normgrad_ascendc::LaunchKernel(\"k\", 1, 0, s, k, \")>>>\", ')', R\"x()\")x\");"));
}

TEST(Rewrite, MultiLineLaunchKeepsLines) {
  const std::string source =
      "int a;\n"
      "k\n"
      "    <<<\n"
      "        blocks,\n"
      "        nullptr,\n"
      "        stream\n"
      "    >>>(\n"
      "        x,\n"
      "        y);\n"
      "int marker;\n";
  const std::string rewritten = Rewrite(source);
  EXPECT_EQ(std::count(rewritten.begin(), rewritten.end(), '\n'),
            std::count(source.begin(), source.end(), '\n'));
  // The arguments and everything after the launch stay on their lines.
  const auto line_of = [](const std::string& text, const std::string& what) {
    return std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(text.find(what)),
                      '\n');
  };
  for (const char* what : {"blocks", "nullptr", "stream", "x,", "y)", "int marker"})
    EXPECT_EQ(line_of(rewritten, what), line_of(source, what)) << what;
  EXPECT_EQ(
      Compact(rewritten),
      Compact("int a; normgrad_ascendc::LaunchKernel(\"k\", blocks, nullptr, stream, k, x, y);"
              "int marker;"));
}

TEST(Rewrite, LineDirectiveNamesTheOriginalFile) {
  const RewriteResult result = RewriteLaunches("int x;\n", "dir/a \"b\"\\c.asc");
  EXPECT_EQ(result.text, "#line 1 \"dir/a \\\"b\\\"\\\\c.asc\"\nint x;\n");
}

// A newline or another control byte in the file name would end or corrupt
// the directive: such bytes become octal escapes (always three digits, so a
// digit after one stays a digit), `?` is escaped against trigraphs, and every
// other byte stays as it is.
TEST(Rewrite, LineDirectiveEscapesEveryByteThatBreaksIt) {
  const RewriteResult result = RewriteLaunches("int x;\n",
                                               "a\nb\r\t\x7f\x01"
                                               "7?\?/.asc");
  EXPECT_EQ(result.text, "#line 1 \"a\\012b\\015\\011\\177\\0017\\?\\?/.asc\"\nint x;\n");
  EXPECT_EQ(std::count(result.text.begin(), result.text.end(), '\n'), 2);
}

TEST(Rewrite, LineDirectiveEscapesBytesPastAscii) {
  const RewriteResult result = RewriteLaunches("int x;\n", "caf\xc3\xa9.asc");
  EXPECT_EQ(result.text, "#line 1 \"caf\\303\\251.asc\"\nint x;\n");
}

// The kernel's name is a string literal too: a character template argument
// may hold a quote or a backslash.
TEST(Rewrite, KernelNameIsAnEscapedLiteral) {
  EXPECT_EQ(Compact(Rewrite("k<'\"', '\\\\'><<<1, 0, s>>>(x);")),
            Compact("normgrad_ascendc::LaunchKernel(\"k<'\\\"', '\\\\\\\\'>\", 1, 0, s, "
                    "k<'\"', '\\\\'>, x);"));
}

TEST(Rewrite, LineCountPreservedInAWholeProgram) {
  const std::string source =
      "#include \"kernel_operator.h\"\n"
      "template <typename T, int N>\n"
      "__global__ __aicore__ void k(GM_ADDR x) {}\n"
      "int main() {\n"
      "  k<float,\n"
      "    8><<<2, 0, nullptr>>>(nullptr);\n"
      "  k<half, 4><<<\n"
      "    2, 0, nullptr>>>(\n"
      "    nullptr); k<float, 1><<<1, 0, nullptr>>>(nullptr);\n"
      "}\n";
  const RewriteResult result = RewriteLaunches(source, "p.asc");
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.launches, 3);
  EXPECT_EQ(std::count(result.text.begin(), result.text.end(), '\n'),
            std::count(source.begin(), source.end(), '\n') + 1);  // + the #line line
  EXPECT_EQ(result.text.find("<<<"), std::string::npos);
}

TEST(Rewrite, CommentsAndStringsAreLeftAlone) {
  const std::string source =
      "const char* a = \"k<<<1, 0, s>>>(x)\";\n"
      "// k<<<1, 0, s>>>(x);\n"
      "/* k<<<1, 0, s>>>(x);\n"
      "   still a comment */\n"
      "const char* b = R\"delim(k<<<1, 0, s>>>(x) )\" )delim\";\n"
      "const char* c = u8R\"(k<<<1, 0, s>>>(x))\";\n"
      "char d = '<'; char e = '\"';\n"
      "// a line comment \\\n"
      "   continued k<<<1, 0, s>>>(x);\n";
  const RewriteResult result = RewriteLaunches(source, "p.asc");
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.launches, 0);
  EXPECT_EQ(result.text.substr(result.text.find('\n') + 1), source);
}

TEST(Rewrite, LaunchAfterLiteralsIsRewritten) {
  // Digit separators are no character literal; an escaped quote ends no string.
  EXPECT_EQ(Compact(Rewrite("int n = 1'000'000; s = \"\\\"<<<\"; k<<<n, 0, s>>>(x);")),
            Compact("int n = 1'000'000; s = \"\\\"<<<\"; "
                    "normgrad_ascendc::LaunchKernel(\"k\", n, 0, s, k, x);"));
}

TEST(Rewrite, TwoLaunchesOnOneLine) {
  const RewriteResult result = RewriteLaunches("a<<<1, 0, s>>>(x); b<T><<<2, 0, s>>>(y);", "p.asc");
  EXPECT_EQ(result.launches, 2);
  EXPECT_EQ(Compact(result.text.substr(result.text.find('\n') + 1)),
            Compact("normgrad_ascendc::LaunchKernel(\"a\", 1, 0, s, a, x);"
                    "normgrad_ascendc::LaunchKernel(\"b<T>\", 2, 0, s, b<T>, y);"));
}

TEST(Rewrite, OperatorShiftIsNoLaunch) {
  const std::string source = "friend std::ostream& operator<<<T>(std::ostream&, const X<T>&);\n";
  const RewriteResult result = RewriteLaunches(source, "p.asc");
  EXPECT_TRUE(result.errors.empty());
  EXPECT_EQ(result.launches, 0);
  EXPECT_EQ(result.text.substr(result.text.find('\n') + 1), source);
}

TEST(Rewrite, MalformedLaunchesAreErrorsAtTheirLine) {
  struct Case {
    const char* source;
    const char* message;
  };
  const Case cases[] = {
      {"int a;\nk<<<8>>>(x);\n",
       "launch of 'k': a launch takes <<<blocks, dynUBufSize[, stream]>>>; found 1 argument"},
      {"int a;\nk<<<8, 0, s, 1>>>(x);\n", "found 4 arguments"},
      {"int a;\nk<T><<<8, 0, s>>>;\n",
       "launch of 'k<T>': expected '(' with the kernel arguments after '>>>'"},
      {"int a;\nk<<<8, 0, s;\n", "no '>>>' closes the launch configuration"},
      {"int a;\nk<<<8, 0, s>>>(x;\n", "no ')' closes the kernel arguments"},
  };
  for (const Case& c : cases) {
    const RewriteResult result = RewriteLaunches(c.source, "p.asc");
    ASSERT_EQ(result.errors.size(), 1u) << c.source;
    EXPECT_EQ(result.errors[0].line, 2) << c.source;
    EXPECT_NE(result.errors[0].message.find(c.message), std::string::npos)
        << result.errors[0].message;
    EXPECT_EQ(result.launches, 0);
  }
}

}  // namespace
}  // namespace normgrad_cc

// tests/cli/npy_test.cc — unit tests of the command line's file I/O and
// argument checks (tools/normgrad/npy.h, outputs.h, dims.h): .npy headers as
// numpy writes them (literal bytes below), every malformed-header error,
// random bytes, raw reads, and all-or-nothing output sets with the recovery
// of interrupted ones.
//
// To extend: add a header to kMalformed with the words its error must
// contain, or a literal numpy header to the parsing tests.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "dims.h"
#include "npy.h"
#include "outputs.h"

namespace normgrad::cli {
namespace {

namespace fs = std::filesystem;

// A .npy preamble: magic, version, little-endian dictionary length.
std::string Preamble(int major, size_t dict_size) {
  std::string p = "\x93NUMPY";
  p += static_cast<char>(major);
  p += '\0';
  const int length_bytes = major == 1 ? 2 : 4;
  for (int i = 0; i < length_bytes; ++i) p += static_cast<char>((dict_size >> (8 * i)) & 0xff);
  return p;
}

std::string Npy(const std::string& dict, int major = 1) {
  return Preamble(major, dict.size()) + dict;
}

// What np.save writes for np.zeros(1024, np.float32) (numpy 1.24): the
// dictionary, padded with spaces and a newline to 118 bytes so the data
// starts at 128.
const std::string kNumpyF4Dict =
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1024,), }" + std::string(57, ' ') + "\n";

TEST(NpyHeader, ParsesWhatNumpyWrites) {
  NpyHeader h;
  ASSERT_TRUE(ParseNpyHeader(Npy(kNumpyF4Dict), &h).ok());
  EXPECT_EQ(h.descr, "<f4");
  EXPECT_EQ(h.byte_order, '<');
  EXPECT_EQ(h.kind, 'f');
  EXPECT_EQ(h.item_size, 4u);
  EXPECT_FALSE(h.fortran_order);
  EXPECT_EQ(h.shape, std::vector<uint64_t>({1024}));
  EXPECT_EQ(h.data_offset, 128u);
  EXPECT_EQ(h.data_bytes, 4096u);
}

TEST(NpyHeader, ParsesVersions2And3AndLiteralVariants) {
  NpyHeader h;
  const std::string dict = "{\"shape\": (2, 3L,4), \"fortran_order\": True,'descr':'>f2'}\n";
  for (int major : {2, 3}) {
    ASSERT_TRUE(ParseNpyHeader(Npy(dict, major), &h).ok()) << major;
    EXPECT_EQ(h.shape, std::vector<uint64_t>({2, 3, 4}));
    EXPECT_TRUE(h.fortran_order);
    EXPECT_EQ(h.byte_order, '>');
    EXPECT_EQ(h.data_offset, 12 + dict.size());
    EXPECT_EQ(h.data_bytes, 48u);  // 2·3·4 elements of 2 bytes
  }
}

TEST(NpyHeader, ScalarAndZeroSizedShapes) {
  NpyHeader h;
  ASSERT_TRUE(
      ParseNpyHeader(Npy("{'descr': '<u2', 'fortran_order': False, 'shape': ()}"), &h).ok());
  EXPECT_TRUE(h.shape.empty());
  EXPECT_EQ(h.data_bytes, 2u);  // one element
  ASSERT_TRUE(
      ParseNpyHeader(Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (0, 8)}"), &h).ok());
  EXPECT_EQ(h.data_bytes, 0u);
}

struct Malformed {
  std::string bytes;
  std::string error;  // a part of the expected message
};

TEST(NpyHeader, EveryMalformedHeaderIsAClearError) {
  const std::string ok_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (8,)}";
  const std::vector<Malformed> kMalformed = {
      {"", "magic string"},
      {"\x93NUMPX" + std::string(10, '\0'), "magic string"},
      {"\x93NUMPY", "truncated"},
      {"\x93NUMPY\x01", "truncated"},
      {"\x93NUMPY\x01\x00\x05", "truncated"},
      {Preamble(1, 100) + ok_dict, "truncated"},
      {Preamble(4, ok_dict.size()) + ok_dict, "version 4.0"},
      {"\x93NUMPY\x01\x01" + Npy(ok_dict).substr(8), "version 1.1"},
      {Npy("['descr', '<f4']"), "not a dictionary"},
      {Npy("{'descr': '<f4', 'fortran_order': False}"), "needs the keys"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8,), 'x': 1}"), "'x'"},
      {Npy("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (8,)}"),
       "repeated key 'descr'"},
      {Npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (8,)}"), "structured"},
      {Npy("{'descr': '<f4', 'fortran_order': 0, 'shape': (8,)}"), "True or False"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': [8]}"), "not a tuple"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-8,)}"), "dimension expected"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8 8)}"), "',' or ')'"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (8,)"), "',' or '}'"},
      {Npy("{'descr': '<f4' 'fortran_order': False, 'shape': (8,)}"), "',' or '}'"},
      {Npy("{'descr' '<f4', 'fortran_order': False, 'shape': (8,)}"), "':' expected"},
      {Npy("{'descr: '<f4', 'fortran_order': False, 'shape': (8,)}"), "':' expected"},
      {Npy("{descr: '<f4', 'fortran_order': False, 'shape': (8,)}"), "quoted key"},
      {Npy(ok_dict + " x"), "after the dictionary"},
      {Npy("{'descr': '<f4', 'fortran_order': False, 'shape': (18446744073709551616,)}"),
       "64 bits"},
      {Npy("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296)}"),
       "does not fit in 64 bits"},
      {Npy("{'descr': '<U8', 'fortran_order': False, 'shape': (8,)}"), "dtype '<U8'"},
      {Npy("{'descr': 'f4', 'fortran_order': False, 'shape': (8,)}"), "dtype 'f4'"},
      {Npy("{'descr': '<f', 'fortran_order': False, 'shape': (8,)}"), "dtype '<f'"},
      {Npy("{'descr': '<f0', 'fortran_order': False, 'shape': (8,)}"), "dtype '<f0'"},
      {Npy("{'descr': '<f4\\x', 'fortran_order': False, 'shape': (8,)}"), "type string"},
  };
  for (const Malformed& m : kMalformed) {
    NpyHeader h;
    const Status s = ParseNpyHeader(m.bytes, &h);
    ASSERT_FALSE(s.ok()) << m.bytes;
    EXPECT_NE(s.message().find(m.error), std::string::npos)
        << "bytes: " << m.bytes << "\nmessage: " << s.message();
  }
}

TEST(NpyHeader, TruncatedAtEveryLengthIsAnError) {
  const std::string full = Npy(kNumpyF4Dict);
  for (size_t n = 0; n < full.size(); ++n) {
    NpyHeader h;
    EXPECT_FALSE(ParseNpyHeader(full.substr(0, n), &h).ok()) << n;
  }
}

TEST(NpyHeader, RandomBytesNeverCrash) {
  // Fixed seed; random bytes, and a valid header with random bytes changed.
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> byte(0, 255);
  const std::string valid = Npy(kNumpyF4Dict);
  for (int i = 0; i < 20000; ++i) {
    std::string bytes = i % 2 ? valid : std::string(1 + i % 200, '\0');
    const int changes = i % 2 ? 1 + i % 4 : static_cast<int>(bytes.size());
    for (int k = 0; k < changes; ++k) {
      bytes[static_cast<size_t>(rng()) % bytes.size()] = static_cast<char>(byte(rng));
    }
    NpyHeader h;
    const Status s = ParseNpyHeader(bytes, &h);
    if (s.ok()) {
      EXPECT_LE(h.data_offset, bytes.size());
    }
  }
}

TEST(NpyHeader, MakeNpyHeaderWritesNumpysLayout) {
  EXPECT_EQ(MakeNpyHeader("<f4", {1024}), Npy(kNumpyF4Dict));
  for (const std::vector<uint64_t>& shape :
       std::vector<std::vector<uint64_t>>{{}, {16}, {2, 3, 4}}) {
    const std::string header = MakeNpyHeader("<u2", shape);
    NpyHeader h;
    ASSERT_TRUE(ParseNpyHeader(header, &h).ok());
    EXPECT_EQ(h.shape, shape);
    EXPECT_EQ(h.descr, "<u2");
    EXPECT_EQ(h.data_offset, header.size());
    EXPECT_EQ(header.size() % 64, 0u);
    EXPECT_EQ(header.back(), '\n');
  }
}

// A fresh directory under the test's temporary directory, removed at the end.
class FileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("normgrad_npy_test_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string Contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }
  std::vector<std::string> Listing() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  fs::path dir_;
};

TEST_F(FileTest, ReadsHeaderAndData) {
  const std::string data(4096, '\x01');
  const std::string path = Write("a.npy", Npy(kNumpyF4Dict) + data);
  NpyHeader h;
  ASSERT_TRUE(ReadNpyHeader(path, &h).ok());
  std::vector<unsigned char> bytes;
  ASSERT_TRUE(ReadBytes(path, h.data_offset, h.data_bytes, &bytes).ok());
  EXPECT_EQ(std::string(bytes.begin(), bytes.end()), data);
}

TEST_F(FileTest, DataSizeMustMatchTheHeader) {
  NpyHeader h;
  Status s = ReadNpyHeader(Write("short.npy", Npy(kNumpyF4Dict) + std::string(4095, 'x')), &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("need 4096 data bytes, the file has 4095 (truncated file)"),
            std::string::npos)
      << s.message();
  s = ReadNpyHeader(Write("long.npy", Npy(kNumpyF4Dict) + std::string(4097, 'x')), &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("the file has 4097"), std::string::npos) << s.message();
}

TEST_F(FileTest, TruncatedHeaderMissingFileAndDirectory) {
  NpyHeader h;
  Status s = ReadNpyHeader(Write("t.npy", Npy(kNumpyF4Dict).substr(0, 40)), &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("truncated .npy header"), std::string::npos) << s.message();
  s = ReadNpyHeader((dir_ / "missing.npy").string(), &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("no such file"), std::string::npos) << s.message();
  s = ReadNpyHeader(dir_.string(), &h);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("not a regular file"), std::string::npos) << s.message();
  std::vector<unsigned char> bytes;
  s = ReadBytes(Write("small.bin", "abc"), 0, 4, &bytes);
  ASSERT_FALSE(s.ok());
  EXPECT_TRUE(bytes.empty());
}

TEST_F(FileTest, WritesAllFilesAndReplacesOldOnes) {
  Write("g.npy", "old");
  const std::string a = "0123", b = "45";
  ASSERT_TRUE(WriteOutputSet(dir_.string(), {{"g.npy", "head", a.data(), a.size()},
                                             {"b.bin", "", b.data(), b.size()}})
                  .ok());
  EXPECT_EQ(Contents((dir_ / "g.npy").string()), "head0123");
  EXPECT_EQ(Contents((dir_ / "b.bin").string()), "45");
  EXPECT_EQ(Listing(), std::vector<std::string>({"b.bin", "g.npy"}));
}

TEST_F(FileTest, ADirectoryOrLinkAtADestinationChangesNothing) {
  Write("g.npy", "old");
  fs::create_directories(dir_ / "b.npy");
  fs::create_symlink(dir_ / "g.npy", dir_ / "c.npy");
  const std::string a = "0123";
  Status s = WriteOutputSet(dir_.string(),
                            {{"g.npy", "", a.data(), a.size()}, {"b.npy", "", a.data(), a.size()}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("b.npy: it is a directory"), std::string::npos) << s.message();
  s = WriteOutputSet(dir_.string(),
                     {{"g.npy", "", a.data(), a.size()}, {"c.npy", "", a.data(), a.size()}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("c.npy: it is a symbolic link"), std::string::npos) << s.message();
  EXPECT_EQ(Contents((dir_ / "g.npy").string()), "old");
  EXPECT_EQ(Listing(), std::vector<std::string>({"b.npy", "c.npy", "g.npy"}));
}

// An interrupted set as a killed writer leaves it: old files a and b, each
// hard-linked to a backup; new files in temporaries; the journal naming
// them; `replaced` of the new files already renamed into place.
class InterruptedSetTest : public FileTest {
 protected:
  void Interrupt(size_t replaced, bool lose_new_b) {
    Write("a.npy", "old a");
    Write("b.npy", "old b");
    std::string journal = "normgrad output set 1\n";
    const char* names[] = {"a.npy", "b.npy"};
    for (size_t i = 0; i < 2; ++i) {
      const std::string name = names[i];
      const std::string temp = ".normgrad-" + name + ".Abc123";
      const std::string backup = ".normgrad-" + name + ".old.Xyz789";
      Write(temp, "new " + name.substr(0, 1));
      fs::create_hard_link(dir_ / name, dir_ / backup);
      journal += name + "\t" + temp + "\t" + std::to_string(Inode(temp)) + "\t" + backup + "\n";
      if (i < replaced) fs::rename(dir_ / temp, dir_ / name);
    }
    if (lose_new_b) fs::remove(dir_ / ".normgrad-b.npy.Abc123");
    Write(".normgrad-journal", journal);
    Write(".normgrad-c.npy.Qrs456", "a leftover of another write");
  }
  uint64_t Inode(const std::string& name) {
    struct stat st {};
    EXPECT_EQ(stat((dir_ / name).c_str(), &st), 0);
    return st.st_ino;
  }
};

TEST_F(InterruptedSetTest, ACommittedSetIsFinished) {
  for (size_t replaced : {0, 1, 2}) {
    Interrupt(replaced, false);
    ASSERT_TRUE(RecoverOutputFolder(dir_.string()).ok()) << replaced;
    EXPECT_EQ(Contents((dir_ / "a.npy").string()), "new a");
    EXPECT_EQ(Contents((dir_ / "b.npy").string()), "new b");
    EXPECT_EQ(Listing(), std::vector<std::string>({"a.npy", "b.npy"}));
  }
}

TEST_F(InterruptedSetTest, ASetThatCannotBeFinishedIsRolledBack) {
  Interrupt(1, true);  // a replaced, b's new file gone
  ASSERT_TRUE(RecoverOutputFolder(dir_.string()).ok());
  EXPECT_EQ(Contents((dir_ / "a.npy").string()), "old a");
  EXPECT_EQ(Contents((dir_ / "b.npy").string()), "old b");
  EXPECT_EQ(Listing(), std::vector<std::string>({"a.npy", "b.npy"}));
}

TEST_F(InterruptedSetTest, TheNextWriteRecoversFirstAndAStrangeJournalStopsIt) {
  Interrupt(1, false);
  const std::string c = "c";
  ASSERT_TRUE(WriteOutputSet(dir_.string(), {{"c.npy", "", c.data(), 1}}).ok());
  EXPECT_EQ(Contents((dir_ / "b.npy").string()), "new b");
  EXPECT_EQ(Listing(), std::vector<std::string>({"a.npy", "b.npy", "c.npy"}));
  Write(".normgrad-journal", "not a journal\n");
  const Status s = WriteOutputSet(dir_.string(), {{"c.npy", "", c.data(), 1}});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("is not a journal of normgrad's outputs"), std::string::npos)
      << s.message();
  EXPECT_EQ(Listing(), std::vector<std::string>({".normgrad-journal", "a.npy", "b.npy", "c.npy"}));
}

TEST(Dims, IsDimListChecksTheForm) {
  EXPECT_TRUE(IsDimList("4,2048,1024", 3, 3));
  EXPECT_TRUE(IsDimList("0,1,2,3", 3, 4));
  EXPECT_TRUE(IsDimList("99999999999999999999999", 1, 1));  // the value is checked later
  EXPECT_FALSE(IsDimList("4,2048", 3, 3));
  EXPECT_FALSE(IsDimList("1,2,3,4", 3, 3));
  EXPECT_FALSE(IsDimList("1,,3", 3, 3));
  EXPECT_FALSE(IsDimList("1,2,3,", 3, 4));
  EXPECT_FALSE(IsDimList("1,-2,3", 3, 3));
  EXPECT_FALSE(IsDimList("1, 2,3", 3, 3));
  EXPECT_FALSE(IsDimList("", 1, 1));
  EXPECT_FALSE(IsDimList("0x10", 1, 1));
}

TEST(Dims, ParseDimsChecksTheValues) {
  std::vector<uint64_t> dims;
  ASSERT_TRUE(ParseDims("4,2048,1024", UINT64_MAX, &dims).ok());
  EXPECT_EQ(dims, std::vector<uint64_t>({4, 2048, 1024}));
  EXPECT_EQ(FormatDims(dims), "[4, 2048, 1024]");

  Status s = ParseDims("4,0,8", UINT64_MAX, &dims);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "dimension 1 of '4,0,8' is 0; every dimension must be at least 1");
  s = ParseDims("1,1,4294967296", 4294967295, &dims);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "dimension 2 of '1,1,4294967296' is 4294967296, more than the largest allowed, "
            "4294967295");
  // 2^64 = 18446744073709551616 does not fit; 2^64 − 1 does.
  EXPECT_FALSE(ParseDims("18446744073709551616,1,1", UINT64_MAX, &dims).ok());
  EXPECT_TRUE(ParseDims("18446744073709551615,1,1", UINT64_MAX, &dims).ok());
  s = ParseDims("4294967296,4294967296,1", UINT64_MAX, &dims);  // 2^64
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("product"), std::string::npos) << s.message();

  uint64_t n = 0;
  ASSERT_TRUE(ParseNumber("4294967295", 4294967295, "--tmp", &n).ok());
  EXPECT_EQ(n, 4294967295u);
  s = ParseNumber("4294967296", 4294967295, "--tmp", &n);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "--tmp is 4294967296, more than the largest allowed, 4294967295");
  // Limits below 9: a single digit above the limit is too large too.
  EXPECT_FALSE(ParseNumber("1", 0, "n", &n).ok());
  EXPECT_FALSE(ParseNumber("9", 8, "n", &n).ok());
  ASSERT_TRUE(ParseNumber("8", 8, "n", &n).ok());
  EXPECT_EQ(n, 8u);
}

}  // namespace
}  // namespace normgrad::cli

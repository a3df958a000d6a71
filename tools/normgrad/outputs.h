// tools/normgrad/outputs.h — writing the output files of the normgrad
// commands: one command's outputs replace the old ones in the output folder
// as a set, all or nothing, and never through a link.
//
// The contract (also in the README and docs/decisions.md):
// - Before anything is written, every destination must be absent or a
//   regular file; a directory, a symbolic link or anything else there is an
//   error, and nothing changes.
// - Each output is written to a new temporary file in the output folder,
//   created exclusively (O_CREAT|O_EXCL|O_NOFOLLOW) under a random name
//   `.normgrad-<name>.XXXXXX`, and flushed to disk.
// - A journal, `.normgrad-journal`, naming the set is then put in place
//   atomically; from that moment the set is committed. The temporaries are
//   renamed into place and the journal removed. An old file is first hard-
//   linked to a backup name, so a rename that fails midway rolls the folder
//   back to the old files, byte for byte.
// - A run killed after the commit leaves the journal behind: the folder is
//   then recognisably incomplete, and the next write into it finishes the
//   set (or, when it cannot, restores the old files) before its own work.
//   Every other `.normgrad-*` file there is a leftover and is removed. The
//   `.normgrad-` prefix is reserved in output folders.
// - SIGINT and SIGTERM during the writing remove the temporaries (after the
//   commit they wait for the set to be finished), then end the process as
//   the signal would have.
// - Writers into one folder take turns (flock on the folder).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::cli {

/// The .npy type string of an output of `dtype` ("<f4", "<f2"; bfloat16
/// travels as its raw bits, "<u2").
const char* NpyDescr(DType dtype);

/// Checks that `out` can be the output directory: absent (it is created
/// later) or a directory.
Status CheckOutputDirectory(const std::string& out);

/// One file of a set: its name in the output folder, `prefix` (e.g. an .npy
/// header, or empty) and then `size` bytes from `data`.
struct OutputFile {
  std::string name;
  std::string prefix;
  const void* data = nullptr;
  size_t size = 0;
};

/// Replaces the files of `files` in the existing directory `dir` as one set,
/// as the contract above says: on success all are new; on an error every
/// file that was there before is unchanged.
Status WriteOutputSet(const std::string& dir, const std::vector<OutputFile>& files);

/// Finishes or rolls back a set whose writing was interrupted in `dir` (a
/// journal there) and removes leftover temporaries; WriteOutputSet does this
/// first. Nothing to do is success.
Status RecoverOutputFolder(const std::string& dir);

/// One output of a command: its file name without extension ("dx",
/// "pd_gamma", …), its shape (for the .npy header) and its bytes.
struct OutputSpec {
  const char* name;
  std::vector<uint64_t> shape;
  const void* data;
  size_t size;
};

/// Creates the directory `out` and writes the outputs there as one set:
/// `name.npy` (with a header of `dtype`, when `npy`) or raw `name.bin`;
/// `paths` gets the paths, in order.
Status WriteOutputs(const std::string& out, bool npy, DType dtype,
                    const std::vector<OutputSpec>& outputs, std::vector<std::string>* paths);

}  // namespace normgrad::cli

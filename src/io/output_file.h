// A file being written that is either finished or not there: created (or
// replaced) when opened, removed again when writing fails or the writer is
// destroyed before close(). Shared by the graph writers (graph_writer.cpp)
// and road index files (index_file.cpp). Throws Error(GSP_ERR_IO) naming
// the file and the OS's reason.
#pragma once

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "core/error.h"

namespace gsp::detail::io {

class OutputFile {
 public:
  explicit OutputFile(const std::string& path) : path_(path) {
    errno = 0;
    file_ = std::fopen(path.c_str(), "wb");
    if (file_ == nullptr) throw Error(GSP_ERR_IO, "cannot create '" + path + "': " + reason("unknown error"));
  }
  ~OutputFile() {
    if (file_ != nullptr) {  // failed midway: leave no partial file
      std::fclose(file_);
      std::remove(path_.c_str());
    }
  }
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  void write(const void* p, size_t bytes) {
    errno = 0;
    if (bytes > 0 && std::fwrite(p, 1, bytes, file_) != bytes) fail();
  }
  // Back to the first byte (to fill in a header once what follows is known).
  void rewind() {
    if (std::fseek(file_, 0, SEEK_SET) != 0) fail();
  }
  void close() {
    FILE* f = file_;
    file_ = nullptr;
    errno = 0;
    if (std::fclose(f) != 0) {
      const std::string why = reason("write error");
      std::remove(path_.c_str());
      throw Error(GSP_ERR_IO, "cannot write '" + path_ + "': " + why);
    }
  }
  const std::string& path() const { return path_; }

 private:
  static std::string reason(const char* otherwise) {
    const int err = errno;
    return err != 0 ? std::strerror(err) : otherwise;
  }
  [[noreturn]] void fail() { throw Error(GSP_ERR_IO, "cannot write '" + path_ + "': " + reason("write error")); }

  std::string path_;
  FILE* file_ = nullptr;
};

}  // namespace gsp::detail::io

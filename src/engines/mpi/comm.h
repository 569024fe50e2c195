// MPI plumbing of the distributed engine: typed, chunked collectives (counts
// beyond INT_MAX), the session's communicators, and error agreement.
//
// Error discipline: local work runs under capture(), which turns any
// exception into an Outcome instead of letting it unwind past a collective.
// Every rank then calls agree() at the same point; when some rank failed,
// agree() throws the same Error on every rank (a negative cycle wins, else
// the lowest failing rank's status), so all ranks leave the call together.
#pragma once

#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <exception>
#include <new>
#include <string>

#include "core/error.h"

namespace gsp::detail::mpi {

template <class T>
MPI_Datatype mpi_type();
template <>
inline MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <>
inline MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }
template <>
inline MPI_Datatype mpi_type<int32_t>() { return MPI_INT32_T; }
template <>
inline MPI_Datatype mpi_type<int64_t>() { return MPI_INT64_T; }
template <>
inline MPI_Datatype mpi_type<char>() { return MPI_CHAR; }

// MPI counts are int: move big buffers in pieces.
constexpr int64_t kChunk = int64_t(1) << 28;

inline void mpi_check(int rc, const char* what) {
  // Unreachable under MPI's default handler (MPI_ERRORS_ARE_FATAL); kept
  // for communicators whose handler returns.
  if (rc != MPI_SUCCESS) throw Error(GSP_ERR_INTERNAL, std::string(what) + " failed");
}

template <class T>
void bcast(T* data, int64_t count, int root, MPI_Comm comm) {
  for (int64_t at = 0; at < count; at += kChunk) {
    const int c = static_cast<int>(std::min(kChunk, count - at));
    mpi_check(MPI_Bcast(data + at, c, mpi_type<T>(), root, comm), "MPI_Bcast");
  }
}

template <class T>
void send(const T* data, int64_t count, int to, int tag, MPI_Comm comm) {
  for (int64_t at = 0; at < count; at += kChunk) {
    const int c = static_cast<int>(std::min(kChunk, count - at));
    mpi_check(MPI_Send(const_cast<T*>(data + at), c, mpi_type<T>(), to, tag, comm), "MPI_Send");
  }
}

template <class T>
void recv(T* data, int64_t count, int from, int tag, MPI_Comm comm) {
  for (int64_t at = 0; at < count; at += kChunk) {
    const int c = static_cast<int>(std::min(kChunk, count - at));
    mpi_check(MPI_Recv(data + at, c, mpi_type<T>(), from, tag, comm, MPI_STATUS_IGNORE), "MPI_Recv");
  }
}

// The result of one rank's local work.
struct Outcome {
  gsp_status status = GSP_OK;
  std::string message;
  bool ok() const { return status == GSP_OK; }
  // Keeps the first failure.
  void merge(Outcome&& o) {
    if (ok() && !o.ok()) *this = std::move(o);
  }
};

// Runs f(); never throws.
template <class F>
Outcome capture(F&& f) noexcept {
  Outcome o;
  try {
    f();
    return o;
  } catch (const Error& e) {
    o.status = e.status();
    try {
      o.message = e.message();
    } catch (...) {
    }
  } catch (const std::bad_alloc&) {
    o.status = GSP_ERR_OUT_OF_MEMORY;
    try {
      o.message = "host memory exhausted";
    } catch (...) {
    }
  } catch (const std::exception& e) {
    o.status = GSP_ERR_INTERNAL;
    try {
      o.message = std::string("internal error: ") + e.what();
    } catch (...) {
    }
  } catch (...) {
    o.status = GSP_ERR_INTERNAL;
  }
  return o;
}

// Collective over comm: returns when every rank's outcome is ok, else throws
// the same Error on every rank.
inline void agree(MPI_Comm comm, const Outcome& mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int key = INT_MAX;
  if (!mine.ok()) key = (mine.status == GSP_ERR_NEGATIVE_CYCLE ? 0 : size) + rank;
  int first = INT_MAX;
  mpi_check(MPI_Allreduce(&key, &first, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  if (first == INT_MAX) return;
  const int root = first % size;
  constexpr int kMaxText = 2000;
  int head[2] = {static_cast<int>(mine.status), static_cast<int>(std::min<size_t>(mine.message.size(), kMaxText))};
  mpi_check(MPI_Bcast(head, 2, MPI_INT, root, comm), "MPI_Bcast");
  char text[kMaxText + 1] = {0};
  if (rank == root) std::copy(mine.message.begin(), mine.message.begin() + head[1], text);
  mpi_check(MPI_Bcast(text, head[1], MPI_CHAR, root, comm), "MPI_Bcast");
  text[head[1]] = '\0';
  std::string msg(text);
  if (msg.empty()) msg = gsp_status_name(static_cast<gsp_status>(head[0]));
  if (size > 1) msg = "rank " + std::to_string(root) + ": " + msg;
  throw Error(static_cast<gsp_status>(head[0]), msg);
}

// The communicators of one call: a private duplicate of the caller's (so our
// messages never meet theirs), and its rows and columns on a pr x pc grid
// (rank = row * pc + col). Collective to build and to free.
class Session {
 public:
  explicit Session(MPI_Comm user) {
    mpi_check(MPI_Comm_dup(user, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    grid_shape(size_, &pr_, &pc_);
    myrow_ = rank_ / pc_;
    mycol_ = rank_ % pc_;
    mpi_check(MPI_Comm_split(comm_, myrow_, mycol_, &row_), "MPI_Comm_split");
    mpi_check(MPI_Comm_split(comm_, mycol_, myrow_, &col_), "MPI_Comm_split");
    MPI_Comm node = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node),
              "MPI_Comm_split_type");
    MPI_Comm_size(node, &ranks_on_node_);
    MPI_Comm_rank(node, &node_rank_);
    MPI_Comm_free(&node);
  }
  ~Session() {
    if (col_ != MPI_COMM_NULL) MPI_Comm_free(&col_);
    if (row_ != MPI_COMM_NULL) MPI_Comm_free(&row_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // pc <= pr, pr * pc = p, pc as large as p allows (square when p is): a
  // single grid column (every rank holds whole rows, so device ranks find
  // predecessors from their finished rows, block_fw.cu) when p is prime.
  static void grid_shape(int p, int* pr, int* pc) {
    int c = 1;
    while ((c + 1) * (c + 1) <= p) ++c;
    while (p % c != 0) --c;
    *pc = c;
    *pr = p / c;
  }

  MPI_Comm comm() const { return comm_; }
  MPI_Comm row_comm() const { return row_; }  // my grid row; my rank in it is mycol()
  MPI_Comm col_comm() const { return col_; }  // my grid column; my rank in it is myrow()
  int rank() const { return rank_; }
  int size() const { return size_; }
  int pr() const { return pr_; }
  int pc() const { return pc_; }
  int myrow() const { return myrow_; }
  int mycol() const { return mycol_; }
  int ranks_on_node() const { return ranks_on_node_; }
  // This rank's index among the ranks of its node (picks its GPU).
  int node_rank() const { return node_rank_; }

  void agree(const Outcome& o) const { mpi::agree(comm_, o); }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL, row_ = MPI_COMM_NULL, col_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1, pr_ = 1, pc_ = 1, myrow_ = 0, mycol_ = 0, ranks_on_node_ = 1, node_rank_ = 0;
};

}  // namespace gsp::detail::mpi

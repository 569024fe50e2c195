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
inline MPI_Datatype mpi_type<float>() {
  return MPI_FLOAT;
}
template <>
inline MPI_Datatype mpi_type<double>() {
  return MPI_DOUBLE;
}
template <>
inline MPI_Datatype mpi_type<int32_t>() {
  return MPI_INT32_T;
}
template <>
inline MPI_Datatype mpi_type<int64_t>() {
  return MPI_INT64_T;
}
template <>
inline MPI_Datatype mpi_type<char>() {
  return MPI_CHAR;
}

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
  // asked_grid: "RxC" (GSP_MPI_GRID, read on rank 0 only), or empty for
  // grid_shape()'s. One that is not R x C = p ranks fails the call on every
  // rank with rank 0's message.
  explicit Session(MPI_Comm user, const std::string& asked_grid = std::string()) {
    mpi_check(MPI_Comm_dup(user, &comm_), "MPI_Comm_dup");
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    grid_shape(size_, &pr_, &pc_);
    int shape[2] = {pr_, pc_};
    const Outcome asked = capture([&] {
      if (rank_ == 0 && !asked_grid.empty()) parse_grid(asked_grid, size_, shape);
    });
    try {
      agree(asked);
    } catch (...) {
      MPI_Comm_free(&comm_);
      throw;
    }
    if (size_ > 1) mpi_check(MPI_Bcast(shape, 2, MPI_INT, 0, comm_), "MPI_Bcast");
    pr_ = std::max(1, shape[0]);  // rank 0 checked R x C = p; every rank has its values
    pc_ = std::max(1, shape[1]);
    myrow_ = rank_ / pc_;
    mycol_ = rank_ % pc_;
    mpi_check(MPI_Comm_split(comm_, myrow_, mycol_, &row_), "MPI_Comm_split");
    mpi_check(MPI_Comm_split(comm_, mycol_, myrow_, &col_), "MPI_Comm_split");
    MPI_Comm node = MPI_COMM_NULL;
    mpi_check(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
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

  // The grid on which a rank receives the least panel data per k-step:
  // b x n/pc cells of block row K when pr > 1, n/pr x b of block column K
  // when pc > 1, so p/b times that is pr [pr > 1] + pc [pc > 1]; ties go to
  // fewer columns. Up to 4 ranks form one column (at 4, 4 x 1 receives as
  // much as 2 x 2), where every rank holds whole rows and GPU ranks find
  // predecessors from their finished rows instead of tracking them
  // (block_fw.cu); 6 ranks: 3 x 2, 8: 4 x 2, 9: 3 x 3, 16: 4 x 4. A prime
  // p gives p x 1.
  static void grid_shape(int p, int* pr, int* pc) {
    int best = -1;
    *pr = p;
    *pc = 1;
    for (int c = 1; c <= p; ++c) {
      if (p % c != 0) continue;
      const int r = p / c;
      const int cost = (r > 1 ? r : 0) + (c > 1 ? c : 0);
      if (best < 0 || cost < best) {
        best = cost;
        *pr = r;
        *pc = c;
      }
    }
  }

  // "RxC" with R * C = p (decimal, no sign): shape = {R, C}; else throws.
  static void parse_grid(const std::string& text, int p, int shape[2]) {
    long part[2] = {0, 0};
    int which = 0;
    bool form = !text.empty() && text.size() <= 12;
    for (size_t i = 0; form && i < text.size(); ++i) {
      const char c = text[i];
      if (c >= '0' && c <= '9') {
        part[which] = part[which] * 10 + (c - '0');
      } else if ((c == 'x' || c == 'X') && which == 0 && i > 0) {
        which = 1;
      } else {
        form = false;
      }
    }
    form = form && which == 1 && text.back() != 'x' && text.back() != 'X';
    require(form && part[0] >= 1 && part[1] >= 1 && part[0] * part[1] == p, GSP_ERR_INVALID_ARGUMENT,
            "GSP_MPI_GRID=" + text + " is not a grid of the " + std::to_string(p) +
                " ranks (RxC with R * C = " + std::to_string(p) + ", for example " + std::to_string(p) + "x1)");
    shape[0] = static_cast<int>(part[0]);
    shape[1] = static_cast<int>(part[1]);
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

/* The algorithm table (GSP_ALGORITHM_TABLE, gsp_algorithms.h) against what
 * the library does: the run-time queries answer each row's facts, and the
 * entry points follow them. For every algorithm on every backend of this
 * build, a run of the algorithm's kind on a small graph succeeds where the
 * table says an engine exists and answers GSP_ERR_UNSUPPORTED where not; a
 * graph with a negative arc is refused (GSP_ERR_NEGATIVE_WEIGHT) exactly by
 * the algorithms whose row says "w >= 0"; runs of the other kinds are
 * refused as invalid arguments. A row whose facts the engines do not keep
 * fails here. */
#include "testing.h"

/* Values and rows, as the table writes them. */
typedef struct {
  gsp_algorithm id;
  int value;
  const char* cli_name;
  gsp_kind kind;
  int any_w, cpu, cuda;
  const char* identifier;
} row;
#define ROW_(name, value, cli_name, kind, any_w, cpu, cuda, text) \
  {name, value, cli_name, kind, any_w, cpu, cuda, #name},
static const row kRows[] = {GSP_ALGORITHM_TABLE(ROW_)};
#undef ROW_
#define NUM_ROWS ((int)(sizeof kRows / sizeof kRows[0]))

/* The list's summaries are made from the rows. */
typedef struct {
  gsp_algorithm id;
  const char* summary;
} listed;
#define LISTED_(name, value, cli_name, summary) {name, summary},
static const listed kListed[] = {GSP_ALGORITHM_LIST(LISTED_)};
#undef LISTED_

static void test_queries(void) {
  int i;
  CHECK((int)(sizeof kListed / sizeof kListed[0]) == NUM_ROWS, "list and table differ in length");
  for (i = 0; i < NUM_ROWS; i++) {
    const row* r = &kRows[i];
    gsp_algorithm back;
    CHECK(r->value == i && (int)r->id == i, "row %d has value %d", i, r->value);
    CHECK(strcmp(gsp_algorithm_name(r->id), r->cli_name) == 0, "name of %d: %s", i, gsp_algorithm_name(r->id));
    CHECK(strcmp(gsp_algorithm_identifier(r->id), r->identifier) == 0, "identifier of %d: %s", i,
          gsp_algorithm_identifier(r->id));
    CHECK(strcmp(gsp_algorithm_summary(r->id), kListed[i].summary) == 0, "summary of %s", r->cli_name);
    CHECK(gsp_algorithm_kind(r->id) == r->kind, "kind of %s: %d", r->cli_name, (int)gsp_algorithm_kind(r->id));
    CHECK(gsp_algorithm_accepts_negative_weights(r->id) == r->any_w, "negative weights of %s", r->cli_name);
    if (r->kind != GSP_KIND_AUTO) {
      const int cuda = r->cuda && gsp_algorithm_has_engine(GSP_SSSP_HARISH, GSP_BACKEND_CUDA);
      CHECK(gsp_algorithm_has_engine(r->id, GSP_BACKEND_CPU) == r->cpu, "CPU engine of %s", r->cli_name);
      CHECK(gsp_algorithm_has_engine(r->id, GSP_BACKEND_CUDA) == cuda, "CUDA engine of %s", r->cli_name);
      CHECK(gsp_algorithm_has_engine(r->id, GSP_BACKEND_AUTO) == (r->cpu || cuda), "an engine of %s", r->cli_name);
    }
    CHECK_OK(gsp_algorithm_from_name(r->cli_name, &back));
    CHECK(back == r->id, "from_name(%s) = %d", r->cli_name, (int)back);
    /* the summary states the row: "SSSP, w >= 0: ... (CPU)" */
    if (r->kind != GSP_KIND_AUTO) {
      const char* s = kListed[i].summary;
      const char* kind = r->kind == GSP_KIND_SSSP ? "SSSP, " : r->kind == GSP_KIND_APSP ? "APSP, " : "Index, ";
      CHECK(strncmp(s, kind, strlen(kind)) == 0, "summary of %s starts with its kind: %s", r->cli_name, s);
      CHECK(strstr(s, r->any_w ? "any w: " : "w >= 0: ") != NULL, "summary of %s: weights", r->cli_name);
    }
  }
  /* values past the table, and negative ones */
  CHECK(gsp_algorithm_kind((gsp_algorithm)NUM_ROWS) == GSP_KIND_UNKNOWN, "value past the table has a kind");
  CHECK(gsp_algorithm_kind((gsp_algorithm)-1) == GSP_KIND_UNKNOWN, "-1 has a kind");
  CHECK(strcmp(gsp_algorithm_identifier((gsp_algorithm)NUM_ROWS), "unknown") == 0, "identifier past the table");
  CHECK(strcmp(gsp_algorithm_summary((gsp_algorithm)-7), "unknown") == 0, "summary of -7");
  CHECK(strcmp(gsp_algorithm_name((gsp_algorithm)1000), "unknown") == 0, "name of 1000");
  CHECK(gsp_algorithm_accepts_negative_weights((gsp_algorithm)NUM_ROWS) == 0, "negative weights past the table");
  CHECK(gsp_algorithm_has_engine((gsp_algorithm)NUM_ROWS, GSP_BACKEND_CPU) == 0, "engine past the table");
  CHECK(gsp_algorithm_has_engine(GSP_SSSP_DIJKSTRA, (gsp_backend)7) == 0, "engine on backend 7");
  CHECK(gsp_algorithm_has_engine(GSP_ALGO_AUTO, GSP_BACKEND_CPU) == 1, "AUTO on the CPU");
}

/* A 4-vertex graph; with `negative`, one arc of weight -1 (no negative cycle). */
static gsp_graph* small_graph(int negative) {
  const int32_t src[] = {0, 1, 2, 0, 3};
  const int32_t dst[] = {1, 2, 3, 2, 1};
  const int32_t w[] = {2, 1, 3, 5, negative ? -1 : 4};
  gsp_graph* g = NULL;
  CHECK_OK(gsp_graph_create(&g, 4, 5, src, dst, w, GSP_I32, 0));
  return g;
}

/* One run of `a` on `backend` through the entry point of `kind`
 * (testing.h's t_run_distance: SSSP from 0, else every row). */
static gsp_status run(const gsp_graph* g, gsp_algorithm a, gsp_backend backend, gsp_kind kind) {
  int32_t d = 0;
  return t_run_distance(g, backend, a, kind == GSP_KIND_SSSP, 0, 3, &d);
}

static void test_runs(void) {
  gsp_graph* plain = small_graph(0);
  gsp_graph* negative = small_graph(1);
  const gsp_backend backends[] = {GSP_BACKEND_CPU, GSP_BACKEND_CUDA};
  int i, b;
  for (i = 0; i < NUM_ROWS; i++) {
    const row* r = &kRows[i];
    if (r->kind != GSP_KIND_SSSP && r->kind != GSP_KIND_APSP) continue; /* AUTO; an index needs one */
    for (b = 0; b < 2; b++) {
      const gsp_backend be = backends[b];
      const int engine = gsp_algorithm_has_engine(r->id, be);
      gsp_status want;
      if (be == GSP_BACKEND_CUDA && !gsp_backend_available(GSP_BACKEND_CUDA)) continue;
      want = engine ? GSP_OK : GSP_ERR_UNSUPPORTED;
      CHECK(run(plain, r->id, be, r->kind) == want, "%s on %s: %s (want %s): %s", r->cli_name, gsp_backend_name(be),
            gsp_status_name(run(plain, r->id, be, r->kind)), gsp_status_name(want), gsp_last_error());
      if (engine) {
        want = r->any_w ? GSP_OK : GSP_ERR_NEGATIVE_WEIGHT;
        CHECK(run(negative, r->id, be, r->kind) == want, "%s on %s, a negative arc: %s (want %s)", r->cli_name,
              gsp_backend_name(be), gsp_status_name(run(negative, r->id, be, r->kind)), gsp_status_name(want));
      }
      /* the other kind's entry point refuses it */
      CHECK(run(plain, r->id, be, r->kind == GSP_KIND_SSSP ? GSP_KIND_APSP : GSP_KIND_SSSP) == GSP_ERR_INVALID_ARGUMENT,
            "%s through the other kind's entry point on %s", r->cli_name, gsp_backend_name(be));
    }
  }
  gsp_graph_destroy(plain);
  gsp_graph_destroy(negative);
}

int main(void) {
  test_queries();
  test_runs();
  return t_finish("test_algorithm_table");
}

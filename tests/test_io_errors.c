/* Every parse error of the graph readers: GSP_ERR_PARSE, *graph NULL, and a
 * message "FILE:LINE: expected ..., got ..." naming the right line. */
#include "testing.h"

typedef struct {
  const char* file;
  const char* text;
  gsp_dtype dtype;
  int line;           /* expected line number in the message */
  const char* phrase; /* expected in the message too */
} bad_case;

static const bad_case cases[] = {
    /* DIMACS */
    {"e_token.gr", "p sp 3 2\na 1 2 5\na 1 x 5\n", GSP_I32, 3, "expected a head vertex id in 1..3, got 'x'"},
    {"e_range.gr", "c x\np sp 3 1\na 1 4 5\n", GSP_I32, 3, "expected a head vertex id in 1..3, got '4'"},
    {"e_zero.gr", "p sp 3 1\na 0 1 5\n", GSP_I32, 2, "expected a tail vertex id in 1..3, got '0'"},
    {"e_nop.gr", "c hi\na 1 2 3\n", GSP_I32, 2, "before the first arc"},
    {"e_nop2.gr", "c only a comment\n", GSP_I32, 1, "expected a 'p sp N M' line, got end of file"},
    {"e_twop.gr", "p sp 3 0\nc x\np sp 3 0\n", GSP_I32, 3, "expected one 'p' line (the first is at line 1)"},
    {"e_fewer.gr", "p sp 3 2\na 1 2 1\n", GSP_I32, 2, "expected 2 arcs (p line at line 1), got 1"},
    {"e_more.gr", "p sp 3 1\na 1 2 1\na 2 3 1\n", GSP_I32, 3, "expected no more than 1 arcs"},
    {"e_i32.gr", "p sp 2 1\na 1 2 3000000000\n", GSP_I32, 2, "int32 range, got '3000000000'"},
    {"e_i32neg.gr", "p sp 2 1\na 1 2 -2147483649\n", GSP_I32, 2, "int32 range"},
    {"e_frac.gr", "p sp 2 1\na 1 2 1.5\n", GSP_I32, 2, "expected an integer weight"},
    {"e_nan.gr", "p sp 2 1\na 1 2 nan\n", GSP_F32, 2, "expected a finite weight, got 'nan'"},
    {"e_inf.gr", "p sp 2 1\na 1 2 -inf\n", GSP_F32, 2, "expected a finite weight"},
    {"e_f32.gr", "p sp 2 1\na 1 2 1e40\n", GSP_F32, 2, "float range"},
    {"e_word.gr", "p sp 2 1\na 1 2 abc\n", GSP_F32, 2, "expected a number as weight, got 'abc'"},
    /* GSP_F64: what double cannot hold fails; float's limit (1e39) is no limit for it */
    {"e_f64big.gr", "p sp 2 1\na 1 2 1e400\n", GSP_F64, 2, "expected a weight in the double range, got '1e400'"},
    {"e_f64neg.gr", "p sp 2 2\na 1 2 1e39\na 2 1 -1.8e308\n", GSP_F64, 3, "double range, got '-1.8e308'"},
    {"e_f64nan.gr", "p sp 2 1\na 1 2 NaN\n", GSP_F64, 2, "expected a finite weight, got 'NaN'"},
    {"e_f64inf.gr", "p sp 2 1\na 1 2 infinity\n", GSP_F64, 2, "expected a finite weight"},
    {"e_f64sign.gr", "p sp 2 1\na 1 2 --5\n", GSP_F64, 2, "expected a number as weight, got '--5'"},
    {"e_f64word.gr", "p sp 2 1\na 1 2 0x10\n", GSP_F64, 2, "expected a number as weight, got '0x10'"},
    {"e_f32e39.gr", "p sp 2 2\na 1 2 1\na 2 1 1e39\n", GSP_F32, 3, "expected a weight in the float range, got '1e39'"},
    /* a 40-digit integer is 1e39, not a saturated 2^62 */
    {"e_f32long.gr", "p sp 2 1\na 1 2 1000000000000000000000000000000000000000\n", GSP_F32, 2, "float range"},
    {"e_i32long.gr", "p sp 2 1\na 1 2 1000000000000000000000000000000000000000\n", GSP_I32, 2, "int32 range"},
    {"e_i32tiny.gr", "p sp 2 1\na 1 2 1e-400\n", GSP_I32, 2, "expected an integer weight"},
    {"e_line.gr", "p sp 2 0\nx 1 2\n", GSP_I32, 2, "expected a 'c', 'p' or 'a' line, got 'x'"},
    {"e_extra.gr", "p sp 2 1\na 1 2 3 4\n", GSP_I32, 2, "expected end of line after 'a U V W', got '4'"},
    {"e_now.gr", "p sp 2 1\na 1 2\n", GSP_I32, 2, "expected a weight, got end of line"},
    {"e_max.gr", "p max 2 1\n", GSP_I32, 1, "expected 'sp' after 'p', got 'max'"},
    {"e_pn.gr", "p sp 0 0\n", GSP_I32, 1, "expected a vertex count"},
    /* Matrix Market */
    {"e_hdr.mtx", "%%MatrixMarket matrix array real general\n2 2\n", GSP_F32, 1, "expected 'coordinate', got 'array'"},
    {"e_cplx.mtx", "%%MatrixMarket matrix coordinate complex general\n", GSP_F32, 1, "got 'complex'"},
    {"e_nohdr.mtx", "3 3 1\n1 2 1\n", GSP_F32, 1, "expected a '%%MatrixMarket' header"},
    {"e_mrange.mtx", "%%MatrixMarket matrix coordinate real general\n% c\n3 3 1\n4 1 1.0\n", GSP_F32, 4,
     "expected a row index in 1..3, got '4'"},
    {"e_mcount.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1\n", GSP_F32, 3,
     "expected 2 entries (size line at line 2), got 1"},
    {"e_mmore.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2 1\n2 3 1\n", GSP_F32, 4,
     "expected end of file after 1 entries"},
    {"e_msq.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 1\n", GSP_F32, 2, "column count"},
    {"e_mpat.mtx", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 5\n", GSP_F32, 3,
     "expected end of line after 'I J' (pattern matrix), got '5'"},
    {"e_mval.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 2\n", GSP_F32, 3, "expected a value"},
    {"e_mf64.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1e39\n2 3 1e309\n", GSP_F64, 4,
     "expected a weight in the double range, got '1e309'"},
    {"e_mf64nan.mtx", "%%MatrixMarket matrix coordinate real symmetric\n3 3 1\n2 1 -nan\n", GSP_F64, 3,
     "expected a finite weight, got '-nan'"},
    /* edge lists */
    {"e_el.txt", "0 1 2\n1 -2 3\n", GSP_I32, 2, "expected a head vertex id in 0..2147483645, got '-2'"},
    {"e_el2.txt", "# c\n0 1 2 3\n", GSP_I32, 2, "expected end of line after 'U V W', got '3'"},
    {"e_el3.txt", "0 1 2.5\n", GSP_I32, 1, "expected an integer weight"},
    {"e_el4.txt", "", GSP_I32, 0, "expected at least one arc"},
    {"e_el5.txt", "0\n", GSP_I32, 1, "expected a head vertex id"},
    {"e_elf64.txt", "0 1 0.1\n1 2 1e-400\n# c\n2 0 -1e400\n", GSP_F64, 4, "double range, got '-1e400'"},
    {"e_elf64i.txt", "0 1 -inf\n", GSP_F64, 1, "expected a finite weight, got '-inf'"},
    {"e_elf32.txt", "0 1 3.4028236e38\n", GSP_F32, 1, "float range"},
};

int main(void) {
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const bad_case* c = &cases[i];
    gsp_graph* g = (gsp_graph*)&g;
    char where[96];
    FILE* f = fopen(c->file, "wb");
    if (!f) {
      perror(c->file);
      return 2;
    }
    fputs(c->text, f);
    fclose(f);
    CHECK_STATUS(gsp_graph_load(&g, c->file, GSP_FORMAT_AUTO, c->dtype, 0), GSP_ERR_PARSE);
    CHECK(g == NULL, "%s: failed load left a graph", c->file);
    snprintf(where, sizeof where, "%s:%d: ", c->file, c->line);
    CHECK(strstr(gsp_last_error(), where) != NULL, "%s: want '%s' in: %s", c->file, where, gsp_last_error());
    CHECK(strstr(gsp_last_error(), c->phrase) != NULL, "%s: want '%s' in: %s", c->file, c->phrase, gsp_last_error());
    remove(c->file);
  }
  return t_finish("test_io_errors");
}

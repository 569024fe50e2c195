/* DIMACS coordinate files (.co), read through zlib so .co.gz works too. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "gsp_generators.h"

static int fail(char* err, size_t err_size, const char* fmt, ...) {
  va_list ap;
  if (err != NULL && err_size > 0) {
    va_start(ap, fmt);
    vsnprintf(err, err_size, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static const char* skip_ws(const char* p) {
  while (*p == ' ' || *p == '\t' || *p == '\r') p++;
  return p;
}

static void first_token(const char* p, char* out, size_t size) {
  size_t k = 0;
  p = skip_ws(p);
  while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n' && k + 1 < size) out[k++] = *p++;
  out[k] = 0;
  if (k == 0) strcpy(out, "end of line");
}

int gsp_coords_read(const char* path, int32_t num_vertices, double** xy, char* err, size_t err_size) {
  gzFile f;
  char line[512], tok[64];
  long lineno = 0;
  int32_t i;
  double* out;
  if (xy == NULL || path == NULL || num_vertices < 1) return fail(err, err_size, "gsp_coords_read: bad arguments");
  *xy = NULL;
  errno = 0;
  f = gzopen(path, "rb");
  if (f == NULL) return fail(err, err_size, "cannot open '%s': %s", path, errno ? strerror(errno) : "out of memory");
  out = (double*)malloc((size_t)num_vertices * 2 * sizeof(double));
  if (out == NULL) {
    gzclose(f);
    return fail(err, err_size, "out of memory");
  }
  for (i = 0; i < 2 * num_vertices; i++) out[i] = NAN;
  while (gzgets(f, line, sizeof line) != NULL) {
    const char* p = skip_ws(line);
    char* end;
    long id;
    double x, y;
    lineno++;
    if (strchr(line, '\n') == NULL && !gzeof(f)) {
      fail(err, err_size, "%s:%ld: expected a line shorter than %d characters", path, lineno, (int)sizeof line);
      goto bad;
    }
    if (*p == 'c' || *p == 'p' || *p == '\n' || *p == 0) continue;
    if (*p != 'v' || (p[1] != ' ' && p[1] != '\t')) {
      first_token(p, tok, sizeof tok);
      fail(err, err_size, "%s:%ld: expected a 'v ID X Y' line, got '%s'", path, lineno, tok);
      goto bad;
    }
    p += 1;
    errno = 0;
    id = strtol(p, &end, 10);
    if (end == p || errno != 0 || id < 1 || id > num_vertices) {
      first_token(p, tok, sizeof tok);
      fail(err, err_size, "%s:%ld: expected a vertex id in 1..%d, got '%s'", path, lineno, (int)num_vertices, tok);
      goto bad;
    }
    p = end;
    x = strtod(p, &end);
    if (end == p || !isfinite(x)) {
      first_token(p, tok, sizeof tok);
      fail(err, err_size, "%s:%ld: expected an x coordinate, got '%s'", path, lineno, tok);
      goto bad;
    }
    p = end;
    y = strtod(p, &end);
    if (end == p || !isfinite(y)) {
      first_token(p, tok, sizeof tok);
      fail(err, err_size, "%s:%ld: expected a y coordinate, got '%s'", path, lineno, tok);
      goto bad;
    }
    out[2 * (id - 1)] = x;
    out[2 * (id - 1) + 1] = y;
  }
  {
    int code = Z_OK;
    const char* msg = gzerror(f, &code);
    if (code != Z_OK) {
      fail(err, err_size, "%s:%ld: cannot read: %s", path, lineno + 1, code == Z_ERRNO ? strerror(errno) : msg);
      goto bad;
    }
  }
  gzclose(f);
  *xy = out;
  return 0;
bad:
  gzclose(f);
  free(out);
  return -1;
}

int gsp_coords_write(const char* path, int32_t num_vertices, const double* xy, char* err, size_t err_size) {
  FILE* f;
  int32_t i;
  int bad = 0;
  if (path == NULL || xy == NULL || num_vertices < 1) return fail(err, err_size, "gsp_coords_write: bad arguments");
  errno = 0;
  f = fopen(path, "w");
  if (f == NULL) return fail(err, err_size, "cannot create '%s': %s", path, strerror(errno));
  fprintf(f, "c written by libgsp\np aux sp co %d\n", (int)num_vertices);
  for (i = 0; i < num_vertices; i++)
    if (fprintf(f, "v %d %.10g %.10g\n", (int)i + 1, xy[2 * i], xy[2 * i + 1]) < 0) bad = 1;
  if (fclose(f) != 0 || bad) return fail(err, err_size, "cannot write '%s': %s", path, strerror(errno));
  return 0;
}

/* The public header compiles as pedantic C99 and C++, included twice. */
#include <gsp/gsp.h>
#include <gsp/gsp.h>

int main(void) {
  gsp_options o;
  gsp_options_init(&o);
  return (int)(o.size != sizeof o) + (gsp_version() != GSP_VERSION);
}

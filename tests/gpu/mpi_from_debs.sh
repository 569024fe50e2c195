#!/bin/sh
# Makes Debian's OpenMPI usable on a machine that has no MPI and cannot
# install packages (the lent GPU machines): unpacks the .deb files carried in
# DEBS (default build-mpi-debs, filled on a Debian 12 machine with
#   apt-get download openmpi-bin libopenmpi3 libopenmpi-dev openmpi-common \
#     libevent-core-2.1-7 libevent-pthreads-2.1-7 libfabric1 libhwloc15 \
#     libibverbs1 libmunge2 libnl-3-200 libnl-route-3-200 libnuma1 libpmix2 \
#     libpsm-infinipath1 libpsm2-2 librdmacm1 libucx0 libatomic1 libltdl7 libudev1)
# into PREFIX (default /tmp/gsp-mpi) and prints the environment to use it:
#   eval "$(sh tests/gpu/mpi_from_debs.sh)"
# OpenMPI is relocated with OPAL_PREFIX; the wrappers get their plain names
# (mpicc, mpiexec) so that CMake's FindMPI finds them on PATH.
set -eu
DEBS=${DEBS:-build-mpi-debs}
PREFIX=${PREFIX:-/tmp/gsp-mpi}
command -v dpkg >/dev/null 2>&1 || { echo "echo 'mpi_from_debs: no dpkg' >&2"; exit 0; }
ls "$DEBS"/*.deb >/dev/null 2>&1 || { echo "echo 'mpi_from_debs: no .deb in $DEBS' >&2"; exit 0; }
mkdir -p "$PREFIX"
for f in "$DEBS"/*.deb; do dpkg -x "$f" "$PREFIX"; done
B=$PREFIX/usr/bin
for w in mpicc mpicxx mpic++ mpiexec; do [ -e "$B/$w.openmpi" ] && ln -sf "$w.openmpi" "$B/$w"; done
ln -sf orterun "$B/mpirun.openmpi"; ln -sf orterun "$B/mpirun"
L=$PREFIX/usr/lib/x86_64-linux-gnu:$PREFIX/lib/x86_64-linux-gnu
echo "export PATH=$B:\$PATH OPAL_PREFIX=$PREFIX/usr LD_LIBRARY_PATH=$L:\${LD_LIBRARY_PATH:-}"
echo "export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader OMPI_MCA_mtl=^ofi,psm,psm2 OMPI_MCA_osc=^ucx"

#!/bin/sh
# Builds weft's Debian package from BUILD with CPack into SCRATCH, unpacks it
# with dpkg -x and checks the layout under /usr, that the unpacked weft
# runs, and the package's name, architecture and dependencies.
#   check_deb.sh BUILD SCRATCH VERSION
set -eu
build=$1 scratch=$2 version=$3
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "check_deb: FAIL: $*"; exit 1; }
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$scratch" >"$scratch/cpack.log" 2>&1 ||
  { cat "$scratch/cpack.log"; fail "cpack failed"; }
deb=$scratch/weft_${version}_amd64.deb
[ -f "$deb" ] || { ls "$scratch"; fail "no $deb"; }
root=$scratch/root
dpkg -x "$deb" "$root"
for f in usr/bin/weft usr/lib/libweft.so usr/lib/libweft.so.0 \
         "usr/lib/libweft.so.$version" usr/lib/gomp/libgomp.so.1 \
         usr/include/weft/weft.h usr/include/weft/weft.hpp \
         usr/lib/cmake/weft/weftConfig.cmake usr/lib/cmake/weft/weftTargets.cmake \
         usr/lib/pkgconfig/weft.pc usr/share/weft/plots/sim.py; do
  [ -e "$root/$f" ] || fail "the package has no /$f"
done
[ "$(readlink "$root/usr/lib/gomp/libgomp.so.1")" = "../libweft.so.$version" ] ||
  fail "lib/gomp/libgomp.so.1 does not point at ../libweft.so.$version"
"$root/usr/bin/weft" --version | grep -q "$version" || fail "the unpacked weft does not run"
[ "$(dpkg-deb -f "$deb" Package)" = weft ] || fail "package name"
[ "$(dpkg-deb -f "$deb" Architecture)" = amd64 ] || fail "architecture"
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for d in libc6 libstdc++6 libprotobuf python3-matplotlib; do
  echo "$depends" | grep -q "$d" || fail "Depends lacks $d"
done
echo "check_deb: PASS"

# Sourced by tools/gpu-pack and tools/gpu-pack-python: the one rule for the shared libraries a pack carries.
#
# pack_libs TOOL STAGE SKIP OBJECT...: every library ldd resolves for the OBJECTs (STAGE/lib searched first) is
# copied to STAGE/lib, the C++ runtime (libstdc++, libgcc_s) to STAGE/lib-fallback (tools/gpu-check uses it only
# where the GPU machine's own is too old); not the C library family and the driver, which every Linux GPU machine
# has, nor the names that match SKIP (space-separated glob patterns). Fails, naming them, when ldd cannot resolve
# some library here.
pack_libs() {
  local tool=$1 stage=$2 skip lib name p
  read -r -a skip <<<"libc.so.* libm.so.* libdl.so.* libpthread.so.* librt.so.* ld-linux* libcuda.so.* libresolv.so.* $3"
  shift 3
  for lib in $(LD_LIBRARY_PATH=$stage/lib ldd "$@" | awk '/=> \//{print $3}' | sort -u); do
    name=$(basename "$lib")
    for p in "${skip[@]}"; do
      # shellcheck disable=SC2053  # $p is a pattern
      [[ $name == $p ]] && continue 2
    done
    case "$name" in
      libstdc++.so.*|libgcc_s.so.*) cp -L "$lib" "$stage/lib-fallback/$name" ;;
      *) cp -L "$lib" "$stage/lib/$name" ;;
    esac
  done
  if LD_LIBRARY_PATH=$stage/lib ldd "$@" | grep -q "not found"; then
    LD_LIBRARY_PATH=$stage/lib ldd "$@" | grep "not found" | sort -u >&2
    echo "$tool: unresolved libraries here" >&2
    return 1
  fi
}

#!/usr/bin/env bash
# tools/cross/register-qemu-aarch64.sh — lets this x86-64 Linux machine run
# 64-bit Arm executables directly through qemu-aarch64 (binfmt_misc), as
# `make test-aarch64` needs: ctest starts the cross-compiled tests through
# qemu itself, but GoogleTest's death tests re-execute their own binary,
# which only binfmt_misc can hand to qemu. Needs root; does nothing when the
# entry exists. The dynamic loader and libraries come from QEMU_LD_PREFIX
# (/usr/aarch64-linux-gnu, Debian's cross libc), which the caller sets.
set -euo pipefail
dir=/proc/sys/fs/binfmt_misc
if [ -e "$dir/qemu-aarch64" ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "register-qemu-aarch64: run as root (or with sudo) to register qemu-aarch64 with binfmt_misc" >&2
  exit 1
fi
[ -e "$dir/register" ] || mount -t binfmt_misc binfmt_misc "$dir"
# The ELF header of an aarch64 executable (e_ident, e_type EXEC or DYN,
# e_machine 183) and its mask, as QEMU's own qemu-binfmt-conf.sh has them;
# F: the interpreter is opened now, so it also works in other mount spaces.
magic='\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00'
mask='\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff'
printf '%s' ":qemu-aarch64:M::$magic:$mask:$(command -v qemu-aarch64):F" > "$dir/register"
echo "register-qemu-aarch64: registered $(command -v qemu-aarch64) for aarch64 executables"

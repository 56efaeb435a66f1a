#!/usr/bin/env bash
# Run a command in a fresh network namespace where only loopback is up, so any outbound call
# fails at once (ENETUNREACH) while 127.0.0.1 keeps working.
# Usage: .ci/netns.sh COMMAND [ARGS...]      (needs root, or unprivileged user namespaces)
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi

if [ "$(id -u)" -eq 0 ]; then
  isolate=(unshare --net)
else
  isolate=(unshare --net --map-root-user)  # a user namespace grants the right to do it
fi

# Inside: bring loopback up, then become the command (exit status and signals pass through).
exec "${isolate[@]}" -- bash -c '
  set -euo pipefail
  if command -v ip >/dev/null 2>&1; then
    ip link set lo up
  else
    python3 -c "
import fcntl, socket, struct
s = socket.socket()
flags = struct.unpack(\"16sH\", fcntl.ioctl(s, 0x8913, struct.pack(\"16sH\", b\"lo\", 0)))[1]
fcntl.ioctl(s, 0x8914, struct.pack(\"16sH\", b\"lo\", flags | 1))
"
  fi
  exec "$@"
' netns "$@"

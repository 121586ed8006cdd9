#!/bin/sh
# Runs a command with TMPDIR set to a new folder of its own (mktemp -d: mode 0700) and exits
# with the command's status. The folder is removed when the command succeeds and kept (its path
# printed) when it fails, for the failure images tests leave there. The command runs in a
# session of its own (setsid); SIGINT, SIGTERM and SIGHUP end every process of that session
# (SIGTERM: `swift test` runs its test binary in a process group of its own), and the script
# then exits 130, 143 or 129 whatever the command's status. `make test` runs the tests this
# way, so a passing run leaves nothing in the temporary folder.
set -u
if [ "$#" -eq 0 ]; then
  echo "usage: in-temporary-folder.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi
folder=$(mktemp -d "${TMPDIR:-/tmp}/tessera-tests.XXXXXX") || exit 1
child=
signalled=
# SIGTERM, not the signal received: a command started in the background by this shell ignores
# SIGINT.
end_session() {
  pkill -TERM -s "$child" 2>/dev/null || kill -TERM "$child" 2>/dev/null
}
forward() {
  signalled=$1
  if [ -n "$child" ]; then end_session; fi
}
trap 'forward 130' INT
trap 'forward 143' TERM
trap 'forward 129' HUP
TMPDIR=$folder setsid "$@" &
child=$!
# A signal that came before the command started is passed on now.
if [ -n "$signalled" ]; then end_session; fi
# wait returns early when a trapped signal arrives; wait again until the command has ended.
wait "$child"
status=$?
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  status=$?
done
if [ -n "$signalled" ]; then status=$signalled; fi
if [ "$status" -eq 0 ]; then
  rm -rf "$folder"
else
  echo "in-temporary-folder: '$1' ended with status $status; its temporary folder is kept: $folder" >&2
fi
exit "$status"

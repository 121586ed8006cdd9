#!/bin/sh
# Runs a command with TMPDIR set to a new folder of its own (mktemp -d: mode 0700) and exits
# with the command's status. The folder is removed when the command succeeds and kept (its path
# printed) when it fails, for the failure images tests leave there. The command runs in a
# process group of its own (setsid); SIGINT and SIGTERM are passed on to that whole group, and
# the script then exits 130 or 143 whatever the command's status. `make test` runs the tests
# this way, so a passing run leaves nothing in the temporary folder.
set -u
if [ "$#" -eq 0 ]; then
  echo "usage: in-temporary-folder.sh COMMAND [ARGUMENT...]" >&2
  exit 2
fi
folder=$(mktemp -d "${TMPDIR:-/tmp}/tessera-tests.XXXXXX") || exit 1
child=
signalled=
forward() {
  signalled=$2
  if [ -n "$child" ]; then kill "-$1" "-$child" 2>/dev/null; fi
}
trap 'forward INT 130' INT
trap 'forward TERM 143' TERM
TMPDIR=$folder setsid "$@" &
child=$!
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

#!/bin/sh
# Runs a command with TMPDIR set to a new folder of its own (mktemp -d: mode 0700) and exits
# with the command's status. The folder is removed when the command succeeds and kept (its path
# printed) when it fails, for the failure images tests leave there. SIGINT and SIGTERM are
# passed on to the command as SIGTERM. `make test` runs the tests this way, so a passing run
# leaves nothing in the temporary folder.
set -u
folder=$(mktemp -d "${TMPDIR:-/tmp}/tessera-tests.XXXXXX") || exit 1
TMPDIR=$folder "$@" &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' INT TERM
# wait returns early when a trapped signal arrives; wait again until the command has ended.
wait "$child"
status=$?
while kill -0 "$child" 2>/dev/null; do
  wait "$child"
  status=$?
done
if [ "$status" -eq 0 ]; then
  rm -rf "$folder"
else
  echo "in-temporary-folder: '$1' exited with $status; its temporary folder is kept: $folder" >&2
fi
exit "$status"

#!/bin/sh
# Runs a command with TMPDIR set to a new folder of its own (mktemp -d: mode 0700), then
# removes the folder, whatever the command left in it; exits with the command's status.
# `make test` runs the tests this way, so a test run leaves nothing in the temporary folder.
set -u
folder=$(mktemp -d "${TMPDIR:-/tmp}/tessera-tests.XXXXXX") || exit 1
trap 'rm -rf "$folder"' EXIT
trap 'exit 130' INT TERM
TMPDIR=$folder "$@"
status=$?
exit $status

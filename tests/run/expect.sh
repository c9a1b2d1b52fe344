#!/bin/sh
# expect.sh STATUS PATTERN... -- COMMAND [ARGS...]: runs COMMAND and passes when it exits with
# STATUS ("nonzero": any failure) and every PATTERN (an extended regular expression) matches a
# line of its output (stdout and stderr together). A PATTERN starting with ! must match no line.
# The output is printed, so a failure shows what the command said.
set -u
want=$1
shift
n=0
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  n=$((n + 1))
  eval "pattern_$n=\$1"
  shift
done
[ $# -gt 1 ] || { echo "expect.sh: no command after --" >&2; exit 2; }
shift
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
echo "expect.sh: exit status $status"
ok=1
case $want in
  nonzero) [ $status -ne 0 ] || { echo "expect.sh: FAILED: the command succeeded, a failure was expected"; ok=0; } ;;
  *) [ $status -eq "$want" ] || { echo "expect.sh: FAILED: exit status $status, expected $want"; ok=0; } ;;
esac
i=1
while [ $i -le $n ]; do
  p=""
  eval "p=\$pattern_$i"
  case $p in
    !*)
      if printf '%s\n' "$out" | grep -Eq -- "${p#!}"; then
        echo "expect.sh: FAILED: a line matches '${p#!}'"
        ok=0
      fi
      ;;
    *)
      if ! printf '%s\n' "$out" | grep -Eq -- "$p"; then
        echo "expect.sh: FAILED: no line matches '$p'"
        ok=0
      fi
      ;;
  esac
  i=$((i + 1))
done
[ $ok -eq 1 ] && echo "expect.sh: passed"
[ $ok -eq 1 ]

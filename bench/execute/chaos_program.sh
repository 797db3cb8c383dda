#!/bin/bash
# chaos_program.sh MODE FILE.cnf: a SAT solver program that misbehaves on purpose, for the chaos
# suite's tools (bench/execute/chaos_programs.toml; bench/execute/chaos.py says what each must
# be classified as). It reads only the CNF header (the number of variables):
#   orphan    starts a process in a session of its own that sleeps an hour, answers s UNKNOWN
#   stubborn  ignores SIGTERM and sleeps past any budget
#   flood     writes stdout without end
#   memory    holds ever more memory (tail keeps the last 8 GB of a pipe of zeros)
#   wrong     s SATISFIABLE with every variable false
#   no-model  s SATISFIABLE and no v line, exit 10
#   exit10    no status line, every variable true on a v line, exit 10
set -u
mode=$1
cnf=$2
mark=cliffbench-chaos-orphan
vars=$(awk '/^p cnf/ { print $3; exit }' "$cnf")
model() {  # a v line: every variable with the sign $1 ("" or "-")
  seq 1 "$vars" | sed "s/^/$1/" | tr '\n' ' ' | sed 's/^/v /; s/$/0\n/'
}
case $mode in
  orphan)
    setsid bash -c "exec -a $mark sleep 3600" </dev/null >/dev/null 2>&1 &
    echo "s UNKNOWN"
    exit 0 ;;
  stubborn)
    trap '' TERM
    while :; do sleep 1; done ;;
  flood)
    exec yes "c flooding the output" ;;
  memory)
    head -c 16G /dev/zero | tail -c 8G
    exit 0 ;;
  wrong)
    echo "s SATISFIABLE"
    model "-"
    exit 10 ;;
  no-model)
    echo "s SATISFIABLE"
    exit 10 ;;
  exit10)
    model ""
    exit 10 ;;
  *)
    echo "chaos_program.sh: unknown mode $mode" >&2
    exit 2 ;;
esac

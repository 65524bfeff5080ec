# bad_input.sh — sourced by the tests of the analysis tools (tests/fit/*_test.sh), after they
# define fail(): bad TOOL EXPECTED-TEXT ARGS... runs TOOL ARGS and checks the contract for bad
# input: exit 2, exactly one line on stderr that contains EXPECTED-TEXT, nothing on stdout.
bad() {
  local tool=$1 want=$2; shift 2
  local status=0
  "$tool" "$@" > bad.out 2> bad.err || status=$?
  [[ $status -eq 2 ]] || fail "'$*' exited $status, not 2"
  [[ $(wc -l < bad.err) -eq 1 ]] || fail "'$*' printed $(wc -l < bad.err) lines: $(cat bad.err)"
  grep -q -- "$want" bad.err || fail "'$*': $(cat bad.err)"
  [[ ! -s bad.out ]] || fail "'$*' printed results: $(cat bad.out)"
}

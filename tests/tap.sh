# tap.sh: sourced by the shell suites.  check STATUS NAME prints one TAP
# line (ok when STATUS is 0); the suite ends with echo "1..$n".
n=0
check() {
  n=$((n + 1))
  if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

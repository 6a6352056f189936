#!/usr/bin/env bash
# The CMake-built command-line tool: import the bundled beer sample, query it
# (a grouping and a join), create an index and see the plan use it.
set -euo pipefail
tool=$1
sample=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "tool_test: $*" >&2; exit 1; }

"$tool" import "$work/beers" "$sample" | grep -q "imported 12 documents" || fail "import"
counts=$("$tool" query "$work/beers" '{"WHAT": [[".type"], ["AS", ["COUNT()"], "n"]], "GROUP_BY": [[".type"]]}')
[ "$counts" = $'{"n":9,"type":"beer"}\n{"n":3,"type":"brewery"}' ] || fail "grouping gave: $counts"
strongest=$("$tool" query "$work/beers" --param min=10 '{"WHAT": [[".b.name"], [".w.country"]],
  "FROM": [{"AS": "b"}, {"AS": "w", "JOIN": "INNER", "ON": ["=", [".b.brewery_id"], [".w._id"]]}],
  "WHERE": [">", [".b.abv"], ["$min"]]}')
[ "$strongest" = '{"country":"Austria","name":"Eisbock 12"}' ] || fail "join gave: $strongest"
"$tool" index "$work/beers" create byABV '[[".abv"]]' >/dev/null
"$tool" index "$work/beers" list | grep -qx byABV || fail "index list"
"$tool" explain "$work/beers" '{"WHERE": ["=", [".abv"], 5]}' | grep -q "USING INDEX" || fail "explain does not use the index"
if "$tool" query "$work/beers" '{"WHERE": ["NOPE"]}' 2>"$work/err"; then fail "a bad query succeeded"; fi
grep -q "unknown operator 'NOPE'" "$work/err" || fail "bad query message: $(cat "$work/err")"
echo "tool_test: passed"

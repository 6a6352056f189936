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
# SQL++: detected from the text; an index from SQL++ expressions; explain shows the SQL++.
strongest_sqlpp=$("$tool" query "$work/beers" --param min=10 "SELECT b.name, w.country FROM _ AS b JOIN _ AS w ON b.brewery_id = META(w).id WHERE b.abv > \$min")
[ "$strongest_sqlpp" = "$strongest" ] || fail "the SQL++ join gave: $strongest_sqlpp"
"$tool" index "$work/beers" create byName 'lower(name)' >/dev/null
"$tool" explain "$work/beers" "SELECT name FROM _ WHERE lower(name) = 'eisbock 12'" | grep -q "USING INDEX" || fail "a SQL++ index is not used"
"$tool" explain "$work/beers" '{"WHERE": ["=", [".abv"], 5]}' | tail -n 1 | grep -qx 'SELECT _id AS _id, _sequence AS _sequence FROM _ AS _doc WHERE (abv = 5)' \
  || fail "explain does not end with the SQL++"
if "$tool" query "$work/beers" "SELECT name FROM _ WHERE" 2>"$work/err"; then fail "a bad SQL++ query succeeded"; fi
grep -q "SQL++ syntax error near character 25" "$work/err" || fail "bad SQL++ message: $(cat "$work/err")"
if "$tool" query "$work/beers" '{"WHERE": ["NOPE"]}' 2>"$work/err"; then fail "a bad query succeeded"; fi
grep -q "unknown operator 'NOPE'" "$work/err" || fail "bad query message: $(cat "$work/err")"
# Vector search: a vector index from the tool, the guide's query with a vector parameter.
printf '{"_id": "red", "vector": [1, 0, 0]}\n{"_id": "maroon", "vector": [0.5, 0, 0.1]}\n{"_id": "blue", "vector": [0, 0, 1]}\n' > "$work/colors.jsonl"
"$tool" import "$work/colors" "$work/colors.jsonl" >/dev/null
"$tool" index "$work/colors" create byVector vector --dimensions 3 --centroids 2 --metric cosine | grep -q "created index byVector" \
  || fail "vector index"
nearest=$("$tool" query "$work/colors" --param 'target=[0.9, 0.1, 0.1]' 'SELECT META().id FROM _ ORDER BY APPROX_VECTOR_DISTANCE(vector, $target) LIMIT 2')
[ "$nearest" = $'{"id":"maroon"}\n{"id":"red"}' ] || fail "vector search gave: $nearest"
if "$tool" index "$work/colors" create bad vector --dimensions 5000 2>"$work/err"; then fail "a 5000-dimension index was made"; fi
grep -q "dimensions 5000 is too large" "$work/err" || fail "bad vector index message: $(cat "$work/err")"
# Import: standard input, batches, JSON arrays, and a malformed line (exit 65,
# its line and byte offset, the batches before it committed, its own not).
head -n 5 "$sample" | "$tool" import "$work/piped" - | grep -q "imported 5 documents" || fail "import from standard input"
[ "$("$tool" query "$work/piped" '{"WHAT": [["COUNT()"]]}')" = '{"$1":5}' ] || fail "piped documents"
printf '{"_id": "a", "n": 1}\n\n{"_id": "b", "n": 2}\n{"_id": "c", "n": 3}\n{"_id": "d", "n": }\n{"_id": "e"}\n' > "$work/bad.jsonl"
status=0
"$tool" import "$work/partial" "$work/bad.jsonl" --batch-size 2 >/dev/null 2>"$work/err" || status=$?
[ "$status" = 65 ] || fail "a malformed line exited with $status"
grep -q "line 5 (byte offset 82)" "$work/err" || fail "malformed line message: $(cat "$work/err")"
grep -q "2 documents committed" "$work/err" || fail "committed count: $(cat "$work/err")"
[ "$("$tool" query "$work/partial" '{"WHAT": [["._id"], [".n"]], "ORDER_BY": [["._id"]]}')" = $'{"id":"a","n":1}\n{"id":"b","n":2}' ] \
  || fail "the batches before the bad line are not exactly what was committed"
printf '[{"_id": "x", "v": [1]}, {"w": true}]' | "$tool" import "$work/array" - | grep -q "imported 2 documents" || fail "JSON array"
[ "$("$tool" query "$work/array" '{"WHAT": [["._id"]], "WHERE": ["=", [".v[0]"], 1]}')" = '{"id":"x"}' ] || fail "array element ID"
# find: the 1.x query builder (a predicate, values, sort descriptors, variables, reduce functions).
found=$("$tool" find "$work/array" --where "v CONTAINS 1" 2>&1) && [ "$found" = '"x"' ] || fail "find by array containment gave: $found"
found=$("$tool" find "$work/beers" --where "type == 'beer' AND brewery_id BEGINSWITH \$B" --var B=harbor --select name --select abv --order=-abv)
[ "$found" = $'["Tidal Stout",7.5]\n["Fog Horn IPA",6.8]\n["Deckhand Lager",4.6]' ] || fail "find gave: $found"
[ "$("$tool" find "$work/beers" --where "type == 'beer'" --select 'median(abv)' --select 'count(abv)')" = '[5.4,9]' ] \
  || fail "find with reduce functions"
if "$tool" find "$work/beers" --where "type == 'beer' AND name BEGINSWITH \$P" 2>"$work/err"; then fail "a missing variable succeeded"; fi
grep -q 'the variable \$P has no value' "$work/err" || fail "missing variable message: $(cat "$work/err")"
"$tool" find "$work/beers" --where "abv > 5" --explain | grep -q 'ValueIndexConfiguration\|USING INDEX' || fail "find --explain"
# Doubles: the table as the sqlite3 shell prints them (15 significant digits), JSON exact.
printf '{"_id": "a", "v": 1.1}\n{"_id": "b", "v": 2.2}\n{"_id": "c", "v": 3.3}\n' > "$work/sums.jsonl"
"$tool" import "$work/sums" "$work/sums.jsonl" >/dev/null
table=$("$tool" query "$work/sums" --format table "SELECT SUM(v) AS s, 0.1 + 0.2 AS t, AVG(v) * 2 AS w FROM _" | tail -n 1)
[ "$(echo $table)" = "6.6 0.3 4.4" ] || fail "table doubles: $table"
[ "$("$tool" query "$work/sums" --format table "SELECT 4.0 / 2 AS two FROM _ LIMIT 1" | tail -n 1 | tr -d ' ')" = "2.0" ] \
  || fail "a whole double in the table"
[ "$("$tool" query "$work/sums" "SELECT 0.1 + 0.2 AS t FROM _ LIMIT 1")" = '{"t":0.30000000000000004}' ] || fail "JSON doubles"
# Sync: two databases converge through a PostgreSQL server of the test's own (when PostgreSQL is installed).
pg=$(mktemp -d -u /tmp/doclite-tool-pg.XXXXXX)
postgres_server="$(dirname "$0")/../../scripts/postgres-server"
if server=$("$postgres_server" start "$pg" 2>"$work/pg-err"); then
    trap '"$postgres_server" stop "$pg" >/dev/null 2>&1; rm -rf "$work" "$pg"' EXIT
    "$tool" sync init "$server" >/dev/null || fail "sync init"
    "$tool" sync "$work/beers" "$server" 2>"$work/sync-log" || fail "sync push: $(cat "$work/sync-log")"
    tail -n 1 "$work/sync-log" | grep -qx "stopped 12/12 documents" || fail "sync progress: $(cat "$work/sync-log")"
    "$tool" sync "$work/copy" "$server" --pull 2>/dev/null || fail "sync pull"
    [ "$("$tool" query "$work/copy" "SELECT COUNT(*) AS n FROM _ WHERE type = 'beer'")" = '{"n":9}' ] || fail "the pulled copy"
    id=$("$tool" query "$work/beers" "SELECT meta().id AS id FROM _ ORDER BY meta().id LIMIT 1" | sed 's/.*"id":"\([^"]*\)".*/\1/')
    "$tool" sync "$work/one" "$server" --pull --document-id "$id" 2>/dev/null || fail "sync of one document"
    [ "$("$tool" query "$work/one" "SELECT COUNT(*) AS n FROM _")" = '{"n":1}' ] || fail "--document-id pulled more than $id"
    if "$tool" sync "$work/copy" "${server/password=*/password=wrong}" 2>"$work/err"; then fail "a wrong password synced"; fi
    grep -q "refused the credentials" "$work/err" || fail "wrong password message: $(cat "$work/err")"
else
    [ $? -eq 3 ] || fail "the PostgreSQL server did not start: $(cat "$work/pg-err")"
    echo "tool_test: sync skipped: $(cat "$work/pg-err")"
fi
echo "tool_test: passed"

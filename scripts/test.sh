#!/usr/bin/env bash
# `npm test`: installs what the tests need (npm packages; from Debian's packages PostgreSQL,
# ClickHouse, Chromium, a CJK font, nginx with its Lua module for the edge tests, BIND as the DNS
# server of the CNAME checks and the RFC 2136 provider, PowerDNS with its SQLite backend (and the sqlite3
# tool that creates its database) for the PowerDNS provider, and nftables for the layer-4 tests) and runs every suite: lint and
# format with the structure checks (scripts/check-structure.mjs: file sizes, import circles, SQL
# only in repositories and stores), type checks, the build,
# unit and server tests (the server suite on PGlite with DuckDB, and on a real PostgreSQL cluster
# with a ClickHouse server, both started by the run),
# a smoke test of the built control plane, and the browser tests (Playwright driving Debian's
# Chromium). Ends with each stage's duration, the total, and one line "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib.sh
need_node
apt_need postgresql postgresql-client clickhouse-server clickhouse-client chromium fonts-wqy-microhei pdns-server pdns-backend-sqlite3 sqlite3 \
  nginx libnginx-mod-http-lua libnginx-mod-http-cache-purge lua-resty-core lua-resty-lrucache lua-cjson libnginx-mod-stream libmaxminddb0 openssl bind9 \
  nftables pebble bind9-dnsutils
npm_deps
installed_after=$SECONDS

results_dir=$(mktemp -d)
trap 'rm -rf "$results_dir"' EXIT
passed=0
failed=0
failures=()
stage_started=$SECONDS
stage_times=("$(printf '%6d s  %s' "$installed_after" "install (Debian and npm packages)")")

# stage_done NAME: records how long the stage since the last one took, for the summary.
stage_done() {
  local took=$((SECONDS - stage_started))
  stage_times+=("$(printf '%6d s  %s' "$took" "$1")")
  echo "--- $1: ${took} s"
  stage_started=$SECONDS
}

# check NAME COMMAND...: a check that counts as one test.
check() {
  local name=$1; shift
  echo "==> $name"
  if "$@"; then passed=$((passed + 1)); echo "--- $name: passed"
  else failed=$((failed + 1)); failures+=("$name"); echo "--- $name: FAILED"; fi
}

check "lint and format (biome)" npx biome check .
# The structure rules (file sizes, import circles, SQL only in repositories and stores), and the
# tests that show each of them fails on a violation.
check "structure checks" node scripts/check-structure.mjs
check "structure checks' own tests" node --test --test-reporter=dot scripts/check-structure.test.mjs scripts/postgres-pass.test.mjs scripts/spec-calls.test.mjs
stage_done "lint"
check "type check" npm run typecheck --silent
stage_done "type check"
check "build" npm run build --silent
stage_done "build"

echo "==> unit and server tests (vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json="$results_dir/vitest.json"
vitest_status=$?
if [ -f "$results_dir/vitest.json" ]; then
  read -r vp vf < <(node -e '
    const r = require(process.argv[1]);
    // A file that failed to load has no test results: count it as one failure.
    const broken = r.testResults.filter((f) => f.status === "failed" && f.assertionResults.length === 0).length;
    console.log(r.numPassedTests, r.numFailedTests + broken);' "$results_dir/vitest.json")
  passed=$((passed + vp)); failed=$((failed + vf))
  [ "$vf" -gt 0 ] && failures+=("vitest: $vf")
  # Name each failed test in the summary too: the summary is what a reader of the tail sees.
  while IFS= read -r line; do failures+=("  $line"); done < <(node -e '
    const r = require(process.argv[1]);
    const root = process.cwd() + "/";
    for (const f of r.testResults) {
      const file = f.name.replace(root, "");
      if (f.status === "failed" && f.assertionResults.length === 0) {
        console.log(`${file}: did not load`);
        console.log(`    ${String(f.message ?? "").split("\n")[0].slice(0, 300)}`);
      }
      for (const a of f.assertionResults) {
        if (a.status !== "failed") continue;
        console.log(`${file}: ${a.fullName}`.slice(0, 240));
        // And why, in a line: the summary is all a reader of the tail may have of the run.
        const why = String(a.failureMessages?.[0] ?? "").replace(/\u001b\[[0-9;]*m/g, "").split("\n").filter(Boolean).slice(0, 2).join(" / ");
        console.log(`    ${why.slice(0, 300)}`);
      }
    }' "$results_dir/vitest.json")
  [ "$vitest_status" -ne 0 ] && [ "$vf" -eq 0 ] && { failed=$((failed + 1)); failures+=("vitest exited $vitest_status"); }
else
  failed=$((failed + 1)); failures+=("vitest wrote no results")
fi

stage_done "vitest"

check "smoke test of the built control plane" node scripts/smoke.mjs
stage_done "smoke"

echo "==> browser tests (playwright, /usr/bin/chromium)"
(cd e2e && PLAYWRIGHT_JSON="$results_dir/playwright.json" npx playwright test)
pw_status=$?
if [ -f "$results_dir/playwright.json" ]; then
  read -r pp pf < <(node -e '
    const s = require(process.argv[1]).stats;
    console.log(s.expected + s.flaky, s.unexpected);' "$results_dir/playwright.json")
  passed=$((passed + pp)); failed=$((failed + pf))
  [ "$pf" -gt 0 ] && failures+=("playwright: $pf")
  while IFS= read -r line; do failures+=("  $line"); done < <(node -e '
    const walk = (s, out) => { for (const spec of s.specs ?? []) for (const t of spec.tests) if (t.status === "unexpected") out.push(`${spec.file}: ${spec.title}`); for (const c of s.suites ?? []) walk(c, out); return out; };
    for (const l of walk({ suites: require(process.argv[1]).suites }, [])) console.log(l.slice(0, 240));' "$results_dir/playwright.json")
  [ "$pw_status" -ne 0 ] && [ "$pf" -eq 0 ] && { failed=$((failed + 1)); failures+=("playwright exited $pw_status"); }
else
  failed=$((failed + 1)); failures+=("playwright wrote no results")
fi
stage_done "playwright"

# The layer-4 tests run the agent's nftables table only inside network namespaces they create; a
# table left in the host's own namespace means a test's agent ran the kernel firewall here.
if command -v nft >/dev/null 2>&1 && nft list table inet rampart >/dev/null 2>&1; then
  failed=$((failed + 1)); failures+=("a test left the agent's nftables table (inet rampart) in the host namespace")
  nft delete table inet rampart || true
fi

echo
echo "==> summary"
printf '%s\n' "${stage_times[@]}"
printf '%6d s  total\n' "$SECONDS"
[ ${#failures[@]} -gt 0 ] && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

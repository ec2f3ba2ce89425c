#!/usr/bin/env bash
# Writes the next migration from src/platform/db/schema.ts into ./drizzle.
# drizzle-kit is hoisted to the root node_modules while npm keeps drizzle-orm inside this
# workspace, and drizzle-kit's ESM import cannot see it there: link it for the run.
set -euo pipefail
cd "$(dirname "$0")"
root=../../node_modules
made=
if [ ! -e "$root/drizzle-orm" ] && [ -d node_modules/drizzle-orm ]; then
  ln -s ../apps/server/node_modules/drizzle-orm "$root/drizzle-orm"
  made=1
fi
trap '[ -n "$made" ] && rm -f "$root/drizzle-orm"' EXIT
npx drizzle-kit generate "$@"

#!/usr/bin/env bash
# Runs the shared acceptance checks (../shared/tools) against this build: not part of `npm test`, since the shared
# folder is not in the repository. Usage: scripts/acceptance.sh [SHARED_DIR]   (default: ../shared)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=$(cd "${1:-../shared}" && pwd)
check="node $shared/tools/stream-check.mjs"
cli="node bin/provider-runtime.js"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
surfaces="$shared/protocols/surfaces"

$cli schema | $check schema-types
$cli coverage --json > "$out/coverage.json"
$check coverage codex-app-server "$surfaces"/codex-0.171.0-Server{Notification,Request}{,-experimental}.txt < "$out/coverage.json"
$check coverage codex-eventmsg "$surfaces/codex-0.114.0-EventMsg-types.txt" < "$out/coverage.json"
$check coverage codex-sdk "$surfaces"/codex-sdk-0.163.0-Thread{Event,Item}-types.txt < "$out/coverage.json"
$check coverage claude-sdk "$surfaces"/claude-{0.2.62,0.3.332}-SDKMessage-variants.tsv < "$out/coverage.json"
for source in acp cursor-acp; do
  $check coverage "$source" "$surfaces"/acp-v1-{agent-methods,client-methods,sessionUpdate-kinds}.txt < "$out/coverage.json"
done

probe="$shared/fixtures/cursor-acp/cursor-agent-acp-plan-probe.ndjson"
$cli normalize --from cursor-acp "$probe" > "$out/cursor.jsonl"
$cli verify "$out/cursor.jsonl"
$check acp "$probe" "$out/cursor.jsonl"

for name in shell shell-declined edit multi-turn; do
  $cli normalize --from codex-app-server "test/fixtures/codex/$name.jsonl" > "$out/codex-$name.jsonl"
  $check codex-requests "test/fixtures/codex/$name.jsonl" "$out/codex-$name.jsonl"
done
$check shell-run "$out/codex-shell.jsonl" approval

real="$shared/fixtures/real"
$cli normalize --from codex-rollout "$real/codex-rollout-0.40-agentcmd.jsonl" | $cli verify
$cli normalize --from codex-sdk "$real/codex-exec-json-0.46-agentcmd.jsonl" | $cli verify
$cli normalize --from acp "$real/acp-gemini-cli-codecompanion.jsonl" | $cli verify

for provider in codex codex-sdk claude; do
  $cli run --provider "$provider" --mock --approve accept --json "mock:shell run a command" > "$out/run-$provider.jsonl"
  $cli verify "$out/run-$provider.jsonl"
done
$check shell-run "$out/run-codex.jsonl" approval
$check shell-run "$out/run-codex-sdk.jsonl" none
$check shell-run "$out/run-claude.jsonl" approval
for agent in claude-agent-acp codex-acp; do
  $cli run --provider acp --agent "$agent" --mock --approve accept --json "mock:shell run a command" > "$out/run-$agent.jsonl"
  $cli verify "$out/run-$agent.jsonl"
done

for seed in 1 2 3 4 5 6 7 8; do
  node "$shared/tools/damage-transcript.mjs" test/fixtures/claude/shell.jsonl "$seed" > "$out/damaged.jsonl"
  $cli normalize --validate --from claude-sdk "$out/damaged.jsonl" > "$out/damaged.canonical.jsonl"
  SCHEMA_FILE=schema/runtime-event.schema.json $check envelope "$out/damaged.canonical.jsonl" > /dev/null
done
echo "acceptance: all shared checks passed"

// Round trips of every tool through the official MCP TypeScript SDK.
//
//   node latency.mjs BINARY ROOT CALLS [--runs N] [--check]
//
// Starts BINARY over stdio on ROOT and makes each call in CALLS (calls.json)
// with the SDK's Client, which checks each result against the tool's output
// schema. Counts every warning the SDK (and the schema validator inside it)
// prints while listing the tools and calling them. Prints one JSON object:
// {"warnings": n, "warningText": [...], "medians": [ms per call]} or, with
// --check, {"warnings": n, "validated": n, "failures": [...]} after one call
// each; --check exits 1 when anything failed or warned.
//
// Run from target/clients/node (where scripts/install-clients put the SDK).

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const require = createRequire(path.join(process.cwd(), "package.json"));
const { Client } = require("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = require("@modelcontextprotocol/sdk/client/stdio.js");

const args = process.argv.slice(2);
const [binary, root, callsFile] = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--runs");
const runsAt = args.indexOf("--runs");
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 30;
const checkOnly = args.includes("--check");
const calls = JSON.parse(readFileSync(callsFile, "utf8")).calls;

const warnings = [];
for (const level of ["warn", "error", "log", "info", "debug"]) {
  console[level] = (...parts) => warnings.push(`${level}: ${parts.map(String).join(" ")}`);
}

const client = new Client({ name: "latency", version: "1" });
const transport = new StdioClientTransport({
  command: binary,
  args: ["--toolsets", "all", root],
  env: { ...process.env, MCP_TEXT_LOG_LEVEL: "warn" },
  stderr: "ignore",
});
await client.connect(transport);
const listed = await client.listTools();

const failures = [];
for (const tool of listed.tools) {
  if (!tool.outputSchema) failures.push(`${tool.name}: no output schema`);
}

const medians = [];
let validated = 0;
for (const [name, callArgs] of calls) {
  const times = [];
  const rounds = checkOnly ? 1 : runs + 1;
  for (let round = 0; round < rounds; round++) {
    const started = process.hrtime.bigint();
    let result;
    try {
      // The client checks structuredContent against the output schema and
      // throws when it does not match.
      result = await client.callTool({ name, arguments: callArgs });
    } catch (error) {
      failures.push(`${name}: ${error.message}`);
      break;
    }
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.isError) {
      failures.push(`${name} returned an error: ${result.content?.[0]?.text}`);
      break;
    }
    if (!result.structuredContent) {
      failures.push(`${name} returned no structuredContent`);
      break;
    }
    if (round === 0) validated += 1;
    if (checkOnly || round > 0) times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const mid = times.length >> 1;
  medians.push(times.length === 0 ? null : times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2);
}
await client.close();

const report = checkOnly
  ? { client: "typescript", warnings: warnings.length, warningText: warnings.slice(0, 10), validated, failures }
  : { client: "typescript", warnings: warnings.length, warningText: warnings.slice(0, 10), medians, failures };
process.stdout.write(JSON.stringify(report) + "\n");
process.exitCode = failures.length > 0 || (checkOnly && warnings.length > 0) ? 1 : 0;

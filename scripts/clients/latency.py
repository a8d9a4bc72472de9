"""Round trips of every tool through the official MCP Python SDK.

    latency.py BINARY ROOT CALLS [--runs N] [--check] [--ts RESULTS.json]

Starts BINARY over stdio on ROOT (a copy of example-vault/) and makes each
call in CALLS (calls.json). For each it measures the median round trip
through the SDK's ClientSession as an application sees it (the SDK checks
every result against the tool's output schema), the same with that check
switched off, and through a bare JSON-RPC exchange over the same kind of
pipes (no SDK: the server's own time plus the pipe). --ts merges the medians
latency.mjs measured with the TypeScript SDK into the printed table.

--check makes each call once and fails (exit 1) if a result is an error or
does not validate against its schema; it prints one JSON summary line.
"""

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def labels(calls):
    """A readable label per call: the tool name, plus the mode or file when a tool repeats."""
    seen = {}
    for name, _ in calls:
        seen[name] = seen.get(name, 0) + 1
    out = []
    for name, args in calls:
        if seen[name] == 1:
            out.append(name)
        else:
            detail = args.get("mode") or os.path.basename(args.get("filePath", ""))
            if args.get("mode") is None and args.get("filePath", "").endswith(".md"):
                detail = "structure"
            out.append(f"{name} ({detail})")
    return out


def server_params(binary, root):
    env = dict(os.environ)
    env["MCP_TEXT_LOG_LEVEL"] = "warn"
    return StdioServerParameters(command=binary, args=["--toolsets", "all", root], env=env)


async def sdk_round_trips(binary, root, calls, runs, validate):
    """Median milliseconds per call through ClientSession."""
    medians = []
    async with stdio_client(server_params(binary, root), errlog=open(os.devnull, "w")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            await session.list_tools()
            if not validate:
                async def skip(name, result):
                    return None

                session._validate_tool_result = skip
            for name, args in calls:
                times = []
                for round_ in range(runs + 1):
                    started = time.perf_counter()
                    result = await session.call_tool(name, args)
                    elapsed = time.perf_counter() - started
                    if result.isError:
                        raise RuntimeError(f"{name} failed: {result.content[0].text}")
                    if round_ > 0:
                        times.append(elapsed)
                medians.append(statistics.median(times) * 1000)
    return medians


async def check(binary, root, calls):
    """Makes every call once; returns the failures."""
    failures = []
    validated = 0
    async with stdio_client(server_params(binary, root), errlog=open(os.devnull, "w")) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
            without_schema = [t.name for t in listed.tools if t.outputSchema is None]
            if without_schema:
                failures.append(f"no output schema: {without_schema}")
            for name, args in calls:
                try:
                    result = await session.call_tool(name, args)
                except Exception as error:  # the SDK's schema check raises RuntimeError
                    failures.append(f"{name}: {error}")
                    continue
                if result.isError:
                    failures.append(f"{name} returned an error: {result.content[0].text}")
                elif result.structuredContent is None:
                    failures.append(f"{name} returned no structuredContent")
                else:
                    validated += 1
    return validated, failures


def raw_round_trips(binary, root, calls, runs):
    """Median milliseconds per call over bare JSON-RPC lines on the server's stdio."""
    env = dict(os.environ)
    env["MCP_TEXT_LOG_LEVEL"] = "warn"
    server = subprocess.Popen(
        [binary, "--toolsets", "all", root],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    next_id = 0

    def send(message):
        server.stdin.write((json.dumps(message) + "\n").encode())
        server.stdin.flush()

    def request(method, params):
        nonlocal next_id
        next_id += 1
        send({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
        while True:
            reply = json.loads(server.stdout.readline())
            if reply.get("id") == next_id:
                return reply

    try:
        request(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "latency", "version": "1"},
            },
        )
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        medians = []
        for name, args in calls:
            times = []
            for round_ in range(runs + 1):
                started = time.perf_counter()
                reply = request("tools/call", {"name": name, "arguments": args})
                elapsed = time.perf_counter() - started
                if reply.get("result", {}).get("isError") or "error" in reply:
                    raise RuntimeError(f"{name} failed: {reply}")
                if round_ > 0:
                    times.append(elapsed)
            medians.append(statistics.median(times) * 1000)
        return medians
    finally:
        server.stdin.close()
        server.wait(timeout=10)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("root")
    parser.add_argument("calls")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--ts", help="medians from latency.mjs, as JSON")
    options = parser.parse_args()
    with open(options.calls) as f:
        calls = json.load(f)["calls"]

    if options.check:
        validated, failures = asyncio.run(check(options.binary, options.root, calls))
        print(json.dumps({"client": "python", "validated": validated, "failures": failures}))
        sys.exit(1 if failures else 0)

    raw = raw_round_trips(options.binary, options.root, calls, options.runs)
    checked = asyncio.run(sdk_round_trips(options.binary, options.root, calls, options.runs, True))
    unchecked = asyncio.run(sdk_round_trips(options.binary, options.root, calls, options.runs, False))
    ts = {}
    if options.ts:
        with open(options.ts) as f:
            ts = json.load(f)
    ts_medians = ts.get("medians", [None] * len(calls))

    def ms(value):
        return "-" if value is None else f"{value:.2f}"

    names = labels(calls)
    width = max(len(n) for n in names)
    print(f"median round trip in ms over {options.runs} calls each; server = bare JSON-RPC over stdio (the server's own time plus the pipe)")
    print(f"{'tool':<{width}} {'server':>8} {'python':>8} {'py, no check':>13} {'typescript':>11}")
    for i, name in enumerate(names):
        print(f"{name:<{width}} {ms(raw[i]):>8} {ms(checked[i]):>8} {ms(unchecked[i]):>13} {ms(ts_medians[i]):>11}")
    worst = max(range(len(calls)), key=lambda i: checked[i])
    print(f"slowest through the Python SDK: {names[worst]}, {checked[worst]:.2f} ms")
    if ts:
        print(f"TypeScript SDK schema warnings: {ts.get('warnings')}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""`hmon mcp` as an assistant app sees it: the Model Context Protocol's official Python SDK (mcp 2.3.0)
starts `hmon mcp` over stdio, as Claude Desktop and other apps do, lists its tools and resources, calls every
tool, reads every resource, and tries what an assistant may get wrong (an argument out of range, a tool that
does not exist). It judges nothing itself: it prints one JSON document of what the server answered on its
standard output, and the Swift test (Tests/HealthServerTests/MCPClientTests.swift) checks it.

Settings (environment):
  HMON_BINARY   the hmon to start
  HMON_DB       the store to read (--db)
  HMON_USER     the user to read for (--user)

Install the SDK with Tests/ThirdPartyClients/install.sh.
"""
import asyncio
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts, in the source tree

from mcp import ClientSession, MCPError, StdioServerParameters, stdio_client  # noqa: E402

# A call of every tool: its arguments as an assistant would pass them, from the tool's schema.
CALLS = {
    "overview": {},
    "trend": {},
    "energy": {},
    "energy_span": {"tool": "energy", "from": None, "to": None},  # filled in below: the last seven days
    "hrv": {},
    "sleep": {"days": 7},
    "insights": {},
    "readings": {"kind": "weight", "limit": 5},
}


def result(answer):
    texts = [c.text for c in answer.content if getattr(c, "type", None) == "text"]
    return {"isError": bool(answer.is_error), "structured": answer.structured_content, "texts": texts}


async def main():
    server = StdioServerParameters(
        command=os.environ["HMON_BINARY"],
        args=["mcp", "--db", os.environ["HMON_DB"], "--user", os.environ["HMON_USER"]],
        # The test's own home: hmon reads no session or store of the caller's.
        env={name: os.environ[name] for name in ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "LANG") if name in os.environ},
    )
    report = {}
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            report["server"] = {"name": initialized.server_info.name, "protocolVersion": initialized.protocol_version}
            tools = await session.list_tools()
            report["tools"] = [{"name": t.name, "description": t.description, "inputSchema": t.input_schema,
                                "readOnly": bool(t.annotations and t.annotations.read_only_hint)} for t in tools.tools]
            resources = await session.list_resources()
            report["resources"] = [{"uri": str(r.uri), "name": r.name, "mimeType": r.mime_type} for r in resources.resources]

            calls = {}
            for label, arguments in CALLS.items():
                arguments = dict(arguments)
                name = arguments.pop("tool", label)
                if label == "energy_span":
                    today = calls["energy"]["structured"]["days"][0]["day"]
                    arguments = {"from": shifted(today, -6), "to": today}
                calls[label] = result(await session.call_tool(name, arguments))
            report["calls"] = calls

            report["reads"] = {}
            for resource in resources.resources:
                read_back = await session.read_resource(resource.uri)
                report["reads"][str(resource.uri)] = [json.loads(c.text) for c in read_back.contents]

            # What an assistant may get wrong: the tool says why, and the server goes on.
            report["badArguments"] = {
                "trendDaysZero": result(await session.call_tool("trend", {"days": 0})),
                "readingsUnknownKind": result(await session.call_tool("readings", {"kind": "unicorns"})),
                "energyNotADay": result(await session.call_tool("energy", {"day": "yesterday-ish"})),
                "unknownArgument": result(await session.call_tool("hrv", {"write": True})),
            }
            try:
                await session.call_tool("delete_readings", {})
                report["unknownTool"] = {"error": None}
            except MCPError as error:
                report["unknownTool"] = {"error": error.message, "code": error.code}
            report["afterErrors"] = result(await session.call_tool("trend", {}))
    json.dump(report, sys.stdout, sort_keys=True)


def shifted(day, days):
    import datetime
    return (datetime.date.fromisoformat(day) + datetime.timedelta(days=days)).isoformat()


asyncio.run(main())

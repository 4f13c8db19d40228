// A real Mastra agent whose backend is outside it: its tools come from an MCP
// server (Mastra's MCPClient over streamable HTTP) and its model is an
// OpenAI-compatible chat completions endpoint. Served over AG-UI by
// @ag-ui/mastra. internal/interop points it at Ananke's tool doubles and model
// gateway (with aimock behind the gateway, fixtures in aimock-backend.json).
//
//   DOUBLES_URL=http://127.0.0.1:4390/mcp GATEWAY_URL=http://127.0.0.1:4391/v1 \
//     node mastra-backend-server.mjs [--port N]    (or PORT=N; default: a free port)
//
// Environment:
//   DOUBLES_URL          the MCP server's streamable HTTP endpoint; unset, each
//                        request's Ananke-Doubles-Url header gives it (an agent
//                        started before Ananke, e.g. a service container)
//   GATEWAY_URL          the model's OpenAI-compatible base URL, the one that
//                        /chat/completions is appended to; unset, each
//                        request's Ananke-Gateway-Url header gives it
//   STREAM_TOOL_CALLS    "0": the AG-UI stream carries no TOOL_CALL_* events,
//                        as an agent that streams only its answer (its tool
//                        calls are then known only from Ananke's doubles)
//   GATEWAY_MODEL        the model name sent to it (default "gpt-4o-mini")
//   GATEWAY_API_KEY      the bearer key sent to it (default "test-key")
//   MODEL_MAX_RETRIES    how many times a failed model call that can be retried
//                        (429, 408, 409, 5xx, connection errors) is retried,
//                        after Retry-After or a backoff from 1 s (default 2,
//                        the AI SDK's default; a Mastra Agent's own is 0)
//   MODEL_TIMEOUT_MS     how long one model call may take, stream included,
//                        before the run fails (Mastra's timeout.stepMs; such a
//                        timeout is not retried); default: no limit
//   MCP_SERVER_NAME      the MCP server's name in Mastra, which prefixes its
//                        tools: check_stock becomes inventory_check_stock
//                        (default "inventory")
//   MCP_TIMEOUT_MS       how long a tool call may take before the MCP client
//                        gives up with "Request timed out" (default 2000)
//   FORWARD_TEST_HEADER  "1": the Ananke-Test header of the AG-UI request is
//                        sent on every MCP request and model call made for it;
//                        otherwise nothing is forwarded
//   MASTRA_DEBUG         "1": print MCP client logs and listing errors
//   OTEL_EXPORTER_OTLP_ENDPOINT  set: OpenTelemetry on (otel.mjs has the other
//                        OTEL_* variables): a SERVER span "POST /agent" per
//                        request, a child of its traceparent, and under it
//                        Mastra's own spans through its OpenTelemetry bridge
//                        (@mastra/otel-bridge): "invoke_agent backend", a
//                        "chat <model>" span per model call and an
//                        "execute_tool inventory_check_stock" span per tool
//                        call, with GenAI attributes; service name
//                        "mastra-backend". MCP requests carry the traceparent
//                        of the span they are made in, model calls the
//                        request's SERVER span's. Unset: no tracing.
//
// The tools are listed from the MCP server at every AG-UI request (so the
// server need not be up when the agent starts); a listing that fails ends the
// run with a RUN_ERROR naming the server. It prints
// "listening on http://127.0.0.1:PORT" when ready and answers POST /agent with
// an AG-UI event stream (GET /health: 200).
import http from "node:http";
import { AsyncLocalStorage } from "node:async_hooks";
import { Agent } from "@mastra/core/agent";
import { MCPClient } from "@mastra/mcp";
import { MastraAgent } from "@ag-ui/mastra";
import { EventEncoder } from "@ag-ui/encoder";
import { Mastra } from "@mastra/core";
import { Observability } from "@mastra/observability";
import { OtelBridge } from "@mastra/otel-bridge";
import { inject, startTracing } from "./otel.mjs";

const env = process.env;
const streamTools = env.STREAM_TOOL_CALLS !== "0";
const model = env.GATEWAY_MODEL || "gpt-4o-mini";
const apiKey = env.GATEWAY_API_KEY || "test-key";
const maxRetries = Number(env.MODEL_MAX_RETRIES ?? 2);
const stepMs = env.MODEL_TIMEOUT_MS ? Number(env.MODEL_TIMEOUT_MS) : undefined;
const serverName = env.MCP_SERVER_NAME || "inventory";
const timeout = Number(env.MCP_TIMEOUT_MS || 2000);
const forward = env.FORWARD_TEST_HEADER === "1";
const debug = Boolean(env.MASTRA_DEBUG);

// OpenTelemetry, when OTEL_EXPORTER_OTLP_ENDPOINT is set: Mastra's spans go
// through its OpenTelemetry bridge, so they nest under the active span (the
// request's SERVER span) and are exported by the global tracer provider. Each
// request's agent gets a Mastra of its own (sharing this observability): one
// Mastra for all would share its event bus between concurrent runs, and two
// runs with the same AG-UI runId would then execute each other's tool calls.
const SERVICE = "mastra-backend";
const tracing = startTracing(SERVICE);
const observability = tracing && new Observability({
  configs: { default: { serviceName: SERVICE, bridge: new OtelBridge() } },
});

// The Ananke-Test header of the AG-UI request being served, for the MCP
// requests and model calls made while serving it.
const TEST_HEADER = "ananke-test";
const current = new AsyncLocalStorage();
const testToken = () => (forward ? current.getStore() : undefined);

// One MCP client per doubles URL (one, unless the URLs come from headers).
const clients = new Map();
const mcpFor = (doublesURL) => {
  if (!clients.has(doublesURL)) clients.set(doublesURL, newClient(doublesURL, clients.size));
  return clients.get(doublesURL);
};
const newClient = (doublesURL, n) => new MCPClient({
  id: `mastra-backend-${n}`,
  servers: {
    [serverName]: {
      url: new URL(doublesURL),
      timeout,
      fetch: (url, init) => {
        const token = testToken();
        if (!token && !tracing) return fetch(url, init);
        const headers = new Headers(init?.headers);
        if (token) headers.set(TEST_HEADER, token);
        if (tracing) inject(headers);
        return fetch(url, { ...init, headers });
      },
      ...(debug ? { logger: (m) => console.error(`mcp ${m.level}: ${m.message}`) } : {}),
    },
  },
});

// A new Agent per request: its tools as just listed, its model config with
// the forwarded header (Mastra keys its model cache on the headers too).
async function agentFor(urls) {
  const doublesURL = env.DOUBLES_URL || urls.doubles, gatewayURL = env.GATEWAY_URL || urls.gateway;
  if (!doublesURL || !gatewayURL) throw new Error("no doubles or gateway URL: set DOUBLES_URL and GATEWAY_URL, or send Ananke-Doubles-Url and Ananke-Gateway-Url");
  const { tools, errors } = await mcpFor(doublesURL).listToolsWithErrors();
  const failed = Object.entries(errors ?? {});
  if (failed.length) throw new Error(`listing the tools of MCP server ${failed.map(([s, e]) => `${s}: ${String(e).split("\n")[0]}`).join("; ")}`);
  const token = testToken();
  // The model config's headers are fixed per agent: a model call carries the
  // request's SERVER span as its traceparent.
  const headers = { ...(token ? { [TEST_HEADER]: token } : {}), ...(tracing ? inject({}) : {}) };
  const agent = new Agent({
    id: "backend", name: "backend",
    instructions: "You are a shop assistant. Use the inventory tools to answer questions about stock.",
    model: { id: `openai/${model}`, url: gatewayURL, apiKey, ...(Object.keys(headers).length ? { headers } : {}) },
    maxRetries,
    tools,
    defaultOptions: { maxSteps: 5, ...(stepMs ? { modelSettings: { timeout: { stepMs } } } : {}) },
  });
  if (observability) agent.__registerMastra(new Mastra({ logger: false, observability }));
  return agent;
}

async function serve(req, res) {
  let input;
  try {
    let body = "";
    for await (const c of req) body += c;
    input = JSON.parse(body);
  } catch (err) {
    res.writeHead(400, { "Content-Type": "application/json" }).end(JSON.stringify({ error: String(err) }));
    return;
  }
  const encoder = new EventEncoder({ accept: req.headers.accept });
  res.writeHead(200, { "Content-Type": encoder.getContentType() });
  let agent;
  try {
    agent = await agentFor({ doubles: req.headers["ananke-doubles-url"], gateway: req.headers["ananke-gateway-url"] });
  } catch (err) {
    if (debug) console.error(err);
    const ids = { threadId: input.threadId, runId: input.runId };
    res.write(encoder.encode({ type: "RUN_STARTED", ...ids }));
    res.end(encoder.encode({ type: "RUN_ERROR", message: String(err?.message ?? err) }));
    return;
  }
  await new Promise((done) => {
    new MastraAgent({ agentId: "backend", agent, resourceId: "backend" }).run(input).subscribe({
      next: (e) => { if (streamTools || !e.type.startsWith("TOOL_CALL_")) res.write(encoder.encode(e)); },
      error: (err) => { res.end(encoder.encode({ type: "RUN_ERROR", message: String(err?.message ?? err) })); done(); },
      complete: () => { res.end(); done(); },
    });
  });
}

const server = http.createServer((req, res) => {
  if (req.method !== "POST" || req.url !== "/agent") { res.writeHead(req.url === "/health" ? 200 : 404).end(); return; }
  const token = req.headers[TEST_HEADER];
  const run = () => current.run(typeof token === "string" && token ? token : undefined, () => serve(req, res));
  if (tracing) tracing.serverSpan(req, res, "/agent", run);
  else run();
});
const i = process.argv.indexOf("--port");
const port = Number(i >= 0 ? process.argv[i + 1] : (env.PORT ?? 0));
server.listen(port, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${server.address().port}`));

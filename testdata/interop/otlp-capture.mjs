// Records what a real OpenTelemetry exporter sends: the OTLP/HTTP JSON bodies
// (@opentelemetry/exporter-trace-otlp-http) of one traced run of an agent, as
// test data for Ananke's OTLP file source.
//
//   node otlp-capture.mjs [OUT_DIR]        (default: otlp/)
//
// It serves an OTLP/HTTP receiver that keeps each POST body, a small MCP
// server with check_stock ("4 in stock") and aimock with aimock-backend.json,
// starts mastra-backend-server.mjs and a2a-agent.mjs with
// OTEL_EXPORTER_OTLP_ENDPOINT pointed at the receiver (http/json, a batch delay
// long enough for one run's spans to go in one body), asks each "Is SKU A-1
// in stock?" under a fixed traceparent, and writes per agent:
//
//   <name>.otlp.json    the bodies' resourceSpans in one ExportTraceServiceRequest,
//                       pretty-printed, values as the exporter wrote them
//   <name>.otlp.jsonl   each body as received, one per line (a collector's
//                       file exporter writes one request per line)
//
// for the names stock (the Mastra agent) and a2a-stock (the A2A agent).
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.argv[2] ?? path.join(here, "otlp"));
const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const traceparent = `00-${TRACE_ID}-${PARENT}-01`;
const QUESTION = "Is SKU A-1 in stock?";

function listen(handler) {
  const server = http.createServer(handler);
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks).toString();
}

// The receiver keeps the bodies by service name.
const bodies = new Map();
const receiver = await listen(async (req, res) => {
  const body = await readBody(req);
  if (req.url !== "/v1/traces" || !String(req.headers["content-type"]).startsWith("application/json")) {
    res.writeHead(415).end();
    return;
  }
  const doc = JSON.parse(body);
  for (const rs of doc.resourceSpans ?? []) {
    const service = rs.resource?.attributes?.find((a) => a.key === "service.name")?.value?.stringValue;
    if (!bodies.has(service)) bodies.set(service, []);
    bodies.get(service).push(body);
  }
  res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
});

// A streamable HTTP MCP server answering JSON: initialize, tools/list, tools/call.
const tool = {
  name: "check_stock", description: "Stock level of a product by SKU",
  inputSchema: { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] },
};
const mcp = await listen(async (req, res) => {
  if (req.method !== "POST") { res.writeHead(405).end(); return; }
  const msg = JSON.parse(await readBody(req));
  if (msg.id === undefined) { res.writeHead(202).end(); return; }
  const result = {
    initialize: () => ({ protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "inventory", version: "1.0.0" } }),
    "tools/list": () => ({ tools: [tool] }),
    "tools/call": () => ({ content: [{ type: "text", text: "4 in stock" }] }),
  }[msg.method]?.() ?? {};
  res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
});

const children = [];
// start runs a child and resolves with the first URL its output prints.
function start(args, env, pattern = /listening on (http:\/\/\S+)/) {
  const child = spawn(process.execPath, args, { cwd: here, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((done, fail) => {
    let seen = "";
    const look = (chunk) => {
      seen += chunk;
      const m = pattern.exec(seen);
      if (m) done(m[1]);
    };
    child.stdout.on("data", look);
    child.stderr.on("data", look);
    child.once("exit", (code) => fail(new Error(`${args.join(" ")} exited (${code}): ${seen}`)));
  });
}

const otel = {
  OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
  OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
  OTEL_BSP_SCHEDULE_DELAY: "3000",
};

// waitFor resolves when the service's spans include the SERVER span (the
// last to end), or fails after ms.
async function waitFor(service, ms) {
  for (const t0 = Date.now(); Date.now() - t0 < ms;) {
    const got = bodies.get(service) ?? [];
    if (got.some((b) => b.includes('"kind":2'))) return got;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no server span from ${service} in ${ms} ms`);
}

function save(name, got) {
  const docs = got.map((b) => JSON.parse(b));
  const merged = { resourceSpans: docs.flatMap((d) => d.resourceSpans) };
  fs.mkdirSync(out, { recursive: true });
  fs.writeFileSync(path.join(out, `${name}.otlp.json`), JSON.stringify(merged, null, 2) + "\n");
  fs.writeFileSync(path.join(out, `${name}.otlp.jsonl`), got.map((b) => b + "\n").join(""));
  const spans = docs.flatMap((d) => d.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans)));
  console.log(`${name}: ${got.length} bodies, ${spans.length} spans -> ${path.join(out, name)}.otlp.json(l)`);
}

try {
  const aimock = await start(["node_modules/@copilotkit/aimock/dist/cli.js", "-f", "aimock-backend.json", "-p", "0"], {},
    /listening on (http:\/\/\S+)/);
  const mastra = await start(["mastra-backend-server.mjs"], { ...otel, DOUBLES_URL: `${mcp.url}/mcp`, GATEWAY_URL: `${aimock}/v1` });
  const res = await fetch(`${mastra}/agent`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream", traceparent },
    body: JSON.stringify({
      threadId: "thread-stock", runId: "run-stock", tools: [], context: [], state: {}, forwardedProps: {},
      messages: [{ id: "msg-1", role: "user", content: QUESTION }],
    }),
  });
  const stream = await res.text();
  if (!stream.includes("SKU A-1: 4 in stock.")) throw new Error(`unexpected answer: ${stream}`);
  save("stock", await waitFor("mastra-backend", 10000));

  const a2a = await start(["a2a-agent.mjs"], otel);
  const rpc = await fetch(`${a2a}/v1/rpc`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "A2A-Version": "1.0", traceparent },
    body: JSON.stringify({
      jsonrpc: "2.0", id: 1, method: "SendMessage",
      params: { message: { messageId: "msg-1", role: "ROLE_USER", parts: [{ text: QUESTION }] } },
    }),
  });
  const answer = await rpc.text();
  if (!answer.includes("SKU A-1: 4 in stock.")) throw new Error(`unexpected answer: ${answer}`);
  save("a2a-stock", await waitFor("a2a-agent", 10000));
} finally {
  for (const c of children) c.kill("SIGTERM");
  receiver.server.close();
  mcp.server.close();
}

// A LangGraph JS agent served over AG-UI, the way LangGraph agents reach
// AG-UI clients in practice: the graph (langgraph-graph.mjs, a scripted chat
// model, no API key) runs in LangGraph's own API server — the in-memory
// server of `langgraphjs dev` (@langchain/langgraph-api) — and
// @ag-ui/langgraph's LangGraphAgent, a client of that server's HTTP API,
// turns each AG-UI run into LangGraph threads, runs and streamed events.
// internal/interop runs the suites in langgraph/ against it.
//
//   node langgraph-server.mjs [--port N]   (or PORT=N; default: a free port)
//   LANGGRAPH_DEBUG=1 keeps the API server's own log (else warnings only).
//
// It prints "listening on http://127.0.0.1:PORT" when ready and answers
//   POST /agent         AG-UI, interrupts as RUN_FINISHED outcome "interrupt"
//                       (LangGraphAgent with emitInterruptOutcome: true)
//   POST /agent-legacy  AG-UI with LangGraphAgent's defaults: interrupts only
//                       as a CUSTOM "on_interrupt" event
// The LangGraph API itself listens on another free loopback port, printed as
// "langgraph api on http://127.0.0.1:PORT".
import http from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { EventEncoder } from "@ag-ui/encoder";

const here = path.dirname(fileURLToPath(import.meta.url));
const arg = process.argv.indexOf("--port");
const port = Number(arg > 0 ? process.argv[arg + 1] : process.env.PORT ?? 0);

// The API server keeps threads and checkpoints in files under its cwd:
// LANGGRAPH_STATE_DIR (internal/interop passes a directory it removes), or
// a fresh temporary directory removed at exit. Signal handlers go first, so
// the directory is gone before the API server's own exit hooks run.
let state = process.env.LANGGRAPH_STATE_DIR;
if (!state) {
  state = mkdtempSync(path.join(tmpdir(), "langgraph-interop-"));
  const cleanup = () => rmSync(state, { recursive: true, force: true });
  process.on("exit", cleanup);
  for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => { cleanup(); process.exit(0); });
}

// The API server logs every request at debug level unless told otherwise;
// its logger reads LOG_LEVEL when it is first imported.
process.env.LOG_LEVEL ??= process.env.LANGGRAPH_DEBUG ? "debug" : "warn";
const { startServer } = await import("@langchain/langgraph-api/server");
const { LangGraphAgent } = await import("@ag-ui/langgraph");

const { host } = await startServer({
  port: 0, nWorkers: 8, host: "127.0.0.1", cwd: state,
  graphs: { agent: `${path.join(here, "langgraph-graph.mjs")}:graph` },
});
const api = `http://${host}`;

const ENDPOINTS = {
  "/agent": { emitInterruptOutcome: true },
  "/agent-legacy": {},
};

const server = http.createServer((req, res) => {
  const options = ENDPOINTS[req.url];
  if (req.method !== "POST" || !options) {
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: `no route ${req.method} ${req.url}` }));
    return;
  }
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => {
    let input;
    try {
      input = JSON.parse(body);
    } catch (e) {
      res.writeHead(400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ error: `bad JSON: ${e.message}` }));
      return;
    }
    // One agent per request, as a server does for concurrent users.
    const agent = new LangGraphAgent({ deploymentUrl: api, graphId: "agent", ...options });
    const encoder = new EventEncoder({ accept: req.headers.accept });
    res.writeHead(200, { "Content-Type": encoder.getContentType() });
    agent.run(input).subscribe({
      next: (e) => res.write(encoder.encode(e)),
      error: (err) => {
        res.write(encoder.encode({ type: "RUN_ERROR", message: String(err?.message ?? err) }));
        res.end();
      },
      complete: () => res.end(),
    });
  });
});
server.listen(port, "127.0.0.1", () => {
  console.log(`langgraph api on ${api}`);
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});

// A scripted A2A agent written with @a2a-js/sdk (no model): its replies are
// keyed on the user's text. internal/a2a runs its tests against it.
//
//   node a2a-agent.mjs [--port N]      (or PORT=N; default: a free port)
//
// It prints "listening on http://127.0.0.1:PORT" when ready and serves four
// agents on that port, each with its card at <base>/.well-known/agent-card.json
// and its JSON-RPC endpoint at <base>/rpc:
//
//   /v1        A2A 1.0, streaming
//   /v03       A2A 0.3 through the SDK's compatibility layer, streaming
//   /nostream  A2A 1.0 without streaming (send, then poll GetTask)
//   /oauth     A2A 1.0, streaming, behind OAuth2: its card declares a client
//              credentials flow at /oauth/token, which gives the client
//              "ananke-interop" (HTTP Basic, the secret A2A_OAUTH_SECRET names,
//              "interop-oauth-secret" without it; scope a2a.invoke) a token
//              "interop-token-N"; /oauth/rpc wants one as a bearer token
//
// OpenTelemetry, opt-in: with OTEL_EXPORTER_OTLP_ENDPOINT set (otel.mjs has
// the other OTEL_* variables) each JSON-RPC request is a SERVER span
// "POST /<agent>/rpc", a child of its traceparent, and the stock question
// below adds GenAI spans under it; service name "a2a-agent". The A2A stream
// carries none of its tool calls: they are known from the spans alone.
//
// Requests carrying an "x-required-key" header must carry the value the
// A2A_REQUIRED_KEY environment variable names, when it is set (an auth test).
//
// Replies:
//   hello               a message: "Hello! How can I help?"
//   weather in Paris    a task: working (text), a get_weather call and its
//                       response as data parts in ADK's convention, an
//                       artifact "It is 21°C and sunny in Paris", completed
//   book a table        input-required: "For how many people?"; the next
//                       message in that task (e.g. "4") completes it:
//                       "Booked a table for 4."
//   fail                failed, with the message "The kitchen is on fire."
//   reject              rejected, with the message "I only talk about food."
//   convert 10 EUR      a task whose artifact comes in two chunks, "10 EUR = "
//                       and "11.70 USD" (appended), then completed: polled, the
//                       task's artifact holds both chunks' parts
//   order 42            a task: working ("Looking up order 42…"), an artifact
//                       "order" holding a data part {"orderId": "42", "status":
//                       "shipped", "total": 99.5}, an artifact "invoice" holding
//                       a CSV file (bytes, invoice-42.csv) and a PDF by its URL
//                       (receipt-42.pdf), completed
//   who am i            a message naming the OAuth2 client and its token (the
//                       /oauth agent; others answer "nobody")
//   hang                working, then nothing (a task that never finishes)
//   bad                 a streaming request is answered with a plain JSON-RPC
//                       error (application/json, not an event stream)
//   Is SKU A-1 in stock?  a message "SKU A-1: 4 in stock." (B-2: "SKU B-2
//                       is out of stock."; any other SKU: "I know no SKU X."),
//                       after an in-process check_stock call streamed as
//                       nothing; traced, its spans are "invoke_agent
//                       ananke-scripted-agent" > "chat scripted-model" (20
//                       input, 6 output tokens), "execute_tool check_stock"
//                       (call id call_stock_<sku>, arguments and result), "chat
//                       scripted-model" (30 input, 8 output tokens)
//   anything else       a message echoing it: "You said: …"
import express from "express";
import { setTimeout as sleep } from "node:timers/promises";
import { randomUUID } from "node:crypto";
import {
  AgentEvent, DefaultRequestHandler, InMemoryTaskStore,
} from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { startTracing } from "./otel.mjs";

const tracing = startTracing("a2a-agent");

// traced runs fn inside a span when tracing is on (fn gets the span or
// undefined); an exception marks the span as an error.
async function traced(name, kind, attributes, fn) {
  if (!tracing) return fn(undefined);
  return tracing.tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err);
      span.setStatus({ code: SpanStatusCode.ERROR, message: String(err?.message ?? err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

// The stock question: a scripted model asks for check_stock, an in-process
// tool answers, the model answers in words. Each step is a GenAI span.
const STOCK = { "A-1": 4, "B-2": 0 };
const MODEL = "scripted-model";
const chat = (input, output, fn) => traced(`chat ${MODEL}`, SpanKind.CLIENT, {
  "gen_ai.operation.name": "chat", "gen_ai.provider.name": "ananke", "gen_ai.request.model": MODEL,
  "gen_ai.response.model": MODEL, "gen_ai.usage.input_tokens": input, "gen_ai.usage.output_tokens": output,
}, async () => { await sleep(5); return fn(); });

function checkStock({ sku }) {
  if (!(sku in STOCK)) throw new Error(`unknown SKU ${sku}`);
  return { sku, in_stock: STOCK[sku] };
}

async function answerStock(sku) {
  return traced("invoke_agent ananke-scripted-agent", SpanKind.INTERNAL, {
    "gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": "ananke-scripted-agent", "gen_ai.provider.name": "ananke",
  }, async () => {
    const args = { sku };
    const id = `call_stock_${sku.toLowerCase().replace(/[^a-z0-9]/g, "")}`;
    await chat(20, 6, () => undefined);
    let result;
    try {
      result = await traced("execute_tool check_stock", SpanKind.INTERNAL, {
        "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "check_stock", "gen_ai.tool.type": "function",
        "gen_ai.tool.call.id": id, "gen_ai.tool.call.arguments": JSON.stringify(args),
      }, async (span) => {
        const out = checkStock(args);
        span?.setAttribute("gen_ai.tool.call.result", JSON.stringify(out));
        return out;
      });
    } catch {
      result = undefined;
    }
    return chat(30, 8, () => (!result ? `I know no SKU ${sku}.`
      : result.in_stock > 0 ? `SKU ${sku}: ${result.in_stock} in stock.` : `SKU ${sku} is out of stock.`));
  });
}

const STATE = {
  working: 2, completed: 3, failed: 4, inputRequired: 6, rejected: 7,
};
const ROLE_AGENT = 2;
// The pause between streamed events, so that their timing is observable.
const STEP_MS = 40;

const text = (value) => ({ content: { $case: "text", value }, metadata: undefined, filename: "", mediaType: "" });
const data = (value) => ({ content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "" });
const fileBytes = (filename, mediaType, text) => ({ content: { $case: "raw", value: Buffer.from(text) }, metadata: undefined, filename, mediaType });
const fileURL = (filename, mediaType, url) => ({ content: { $case: "url", value: url }, metadata: undefined, filename, mediaType });
// ADK's convention: a data part holding the call, marked by metadata adk_type.
const adkData = (type, value) => ({ content: { $case: "data", value }, metadata: { adk_type: type }, filename: "", mediaType: "" });

// What a model call used, as ADK's A2A converter reports it: Gemini's
// usageMetadata under adk_usage_metadata, in the metadata of the message or
// artifact the call produced.
const adkUsage = (prompt, candidates) => ({
  adk_usage_metadata: { promptTokenCount: prompt, candidatesTokenCount: candidates, totalTokenCount: prompt + candidates },
});

function message(parts, ctx, metadata) {
  return {
    messageId: randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId ?? "", role: ROLE_AGENT,
    parts, metadata, extensions: [], referenceTaskIds: [],
  };
}

function status(ctx, state, msg) {
  return {
    taskId: ctx.taskId, contextId: ctx.contextId, metadata: undefined,
    status: { state, message: msg, timestamp: new Date().toISOString() },
  };
}

function task(ctx, state, history) {
  return {
    id: ctx.taskId, contextId: ctx.contextId, artifacts: [], history, metadata: undefined,
    status: { state, message: undefined, timestamp: new Date().toISOString() },
  };
}

function userText(ctx) {
  return (ctx.userMessage.parts ?? [])
    .filter((p) => p.content?.$case === "text")
    .map((p) => p.content.value)
    .join(" ")
    .trim();
}

const executor = {
  async execute(rc, bus) {
    const said = userText(rc);
    const ctx = { taskId: rc.taskId, contextId: rc.contextId };
    const say = (state, words) => bus.publish(AgentEvent.statusUpdate(status(ctx, state, message([text(words)], ctx))));
    // A message in a task waiting for input answers it.
    if (rc.task) {
      bus.publish(AgentEvent.task(rc.task));
      say(STATE.completed, `Booked a table for ${said}.`);
      bus.finished();
      return;
    }
    const lower = said.toLowerCase();
    const stock = /^is sku (\S+) in stock\??$/i.exec(said);
    if (stock) {
      const words = await answerStock(stock[1].toUpperCase());
      bus.publish(AgentEvent.message(message([text(words)], { contextId: rc.contextId })));
      bus.finished();
      return;
    }
    if (lower === "who am i") {
      const user = rc.context?.user;
      const who = user?.isAuthenticated ? user.userName : "nobody";
      bus.publish(AgentEvent.message(message([text(`You are ${who}.`)], { contextId: rc.contextId })));
      bus.finished();
      return;
    }
    if (lower === "hello") {
      bus.publish(AgentEvent.message(message([text("Hello! How can I help?")], { contextId: rc.contextId })));
      bus.finished();
      return;
    }
    if (!["weather in paris", "convert 10 eur", "order 42", "book a table", "fail", "reject", "hang"].includes(lower)) {
      bus.publish(AgentEvent.message(message([text(`You said: ${said}`)], { contextId: rc.contextId })));
      bus.finished();
      return;
    }
    bus.publish(AgentEvent.task(task(ctx, STATE.working, [rc.userMessage])));
    switch (lower) {
      case "weather in paris": {
        await sleep(STEP_MS);
        say(STATE.working, "Checking the weather…");
        await sleep(STEP_MS);
        const id = "call-weather-1";
        bus.publish(AgentEvent.statusUpdate(status(ctx, STATE.working, message(
          [adkData("function_call", { id, name: "get_weather", args: { city: "Paris" } })], ctx, adkUsage(40, 8)))));
        await sleep(STEP_MS);
        bus.publish(AgentEvent.statusUpdate(status(ctx, STATE.working, message(
          [adkData("function_response", { id, name: "get_weather", response: { temp_c: 21 } })], ctx))));
        await sleep(STEP_MS);
        bus.publish(AgentEvent.artifactUpdate({
          taskId: ctx.taskId, contextId: ctx.contextId, append: false, lastChunk: true, metadata: undefined,
          artifact: {
            artifactId: "forecast", name: "forecast", description: "", metadata: adkUsage(60, 12), extensions: [],
            parts: [text("It is 21°C and sunny in Paris")],
          },
        }));
        await sleep(STEP_MS);
        bus.publish(AgentEvent.statusUpdate(status(ctx, STATE.completed, undefined)));
        break;
      }
      case "convert 10 eur": {
        const chunk = (words, append, lastChunk) => bus.publish(AgentEvent.artifactUpdate({
          taskId: ctx.taskId, contextId: ctx.contextId, append, lastChunk, metadata: undefined,
          artifact: {
            artifactId: "conversion", name: "conversion", description: "", metadata: undefined, extensions: [],
            parts: [text(words)],
          },
        }));
        await sleep(STEP_MS);
        chunk("10 EUR = ", false, false);
        await sleep(STEP_MS);
        chunk("11.70 USD", true, true);
        await sleep(STEP_MS);
        bus.publish(AgentEvent.statusUpdate(status(ctx, STATE.completed, undefined)));
        break;
      }
      case "order 42": {
        const artifact = (artifactId, parts) => bus.publish(AgentEvent.artifactUpdate({
          taskId: ctx.taskId, contextId: ctx.contextId, append: false, lastChunk: true, metadata: undefined,
          artifact: { artifactId, name: artifactId, description: "", metadata: undefined, extensions: [], parts },
        }));
        await sleep(STEP_MS);
        say(STATE.working, "Looking up order 42…");
        await sleep(STEP_MS);
        artifact("order", [data({ orderId: "42", status: "shipped", total: 99.5 })]);
        await sleep(STEP_MS);
        artifact("invoice", [
          fileBytes("invoice-42.csv", "text/csv", "item,price\nbook,99.50\n"),
          fileURL("receipt-42.pdf", "application/pdf", "https://files.example.com/receipts/42.pdf"),
        ]);
        await sleep(STEP_MS);
        bus.publish(AgentEvent.statusUpdate(status(ctx, STATE.completed, undefined)));
        break;
      }
      case "book a table":
        say(STATE.inputRequired, "For how many people?");
        break;
      case "fail":
        say(STATE.failed, "The kitchen is on fire.");
        break;
      case "reject":
        say(STATE.rejected, "I only talk about food.");
        break;
      case "hang":
        say(STATE.working, "Thinking…");
        // Never finished: the SDK ends the stream when execute returns.
        await new Promise(() => {});
        return;
    }
    bus.finished();
  },
  async cancelTask() {},
};

// OAuth2: the client the /oauth agent's token endpoint knows, the scope it
// requires, and the tokens it issued.
const OAUTH_CLIENT = "ananke-interop";
const OAUTH_SECRET = process.env.A2A_OAUTH_SECRET || "interop-oauth-secret";
const OAUTH_SCOPE = "a2a.invoke";
const issued = new Set();

// oauthCard declares the client credentials flow of the /oauth agent. The
// SDK serves a card with JSON.stringify, so a oneof in its own shape
// ({$case, value}) would reach the client as such: the schemes are written
// here in A2A 1.0's JSON.
function oauthCard(card, tokenUrl) {
  card.securitySchemes = {
    corp: { oauth2SecurityScheme: { flows: { clientCredentials: { tokenUrl, scopes: { [OAUTH_SCOPE]: "invoke the agent" } } } } },
  };
  card.securityRequirements = [{ schemes: { corp: { list: [OAUTH_SCOPE] } } }];
  return card;
}

// token is the token endpoint: the client credentials grant, the client
// authenticated by HTTP Basic (RFC 6749 §2.3.1).
function token(req, res) {
  const [scheme, b64] = (req.get("authorization") ?? "").split(" ");
  const [id, secret] = Buffer.from(b64 ?? "", "base64").toString().split(":").map(decodeURIComponent);
  if (scheme !== "Basic" || id !== OAUTH_CLIENT || secret !== OAUTH_SECRET) {
    res.status(401).json({ error: "invalid_client", error_description: "unknown client or wrong secret" });
    return;
  }
  if (req.body?.grant_type !== "client_credentials") {
    res.status(400).json({ error: "unsupported_grant_type" });
    return;
  }
  if (!(req.body?.scope ?? "").split(" ").includes(OAUTH_SCOPE)) {
    res.status(400).json({ error: "invalid_scope", error_description: `${OAUTH_SCOPE} is required` });
    return;
  }
  const t = `interop-token-${issued.size + 1}`;
  issued.add(t);
  res.json({ access_token: t, token_type: "Bearer", expires_in: 3600 });
}

function bearer(req) {
  const [scheme, t] = (req.get("authorization") ?? "").split(" ");
  return scheme === "Bearer" && issued.has(t) ? t : undefined;
}

function requireToken(req, res, next) {
  if (!bearer(req)) {
    res.status(401).json({ error: "a bearer token from /oauth/token is required" });
    return;
  }
  next();
}

// oauthUser is the caller the token names, for "who am i".
async function oauthUser(req) {
  const t = bearer(req);
  return { isAuthenticated: true, userName: `${OAUTH_CLIENT} (token ${t})` };
}

function card(base, version, streaming) {
  return {
    name: "ananke-scripted-agent",
    description: "A scripted A2A agent for Ananke's tests",
    version: "1.0.0",
    supportedInterfaces: [{ url: `${base}/rpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: version }],
    provider: undefined,
    capabilities: { streaming, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain", "application/json"],
    skills: [{
      id: "scripted", name: "scripted", description: "Scripted replies", tags: ["test"],
      examples: ["hello", "weather in Paris"], inputModes: [], outputModes: [], securityRequirements: [],
    }],
    signatures: [],
  };
}

// badStream answers a streaming request whose text is "bad" with a plain
// JSON-RPC error, as some servers do, instead of an event stream.
function badStream(req, res, next) {
  const body = req.body ?? {};
  const streaming = body.method === "SendStreamingMessage" || body.method === "message/stream";
  const parts = body.params?.message?.parts ?? [];
  const bad = parts.some((p) => p.text === "bad");
  if (streaming && bad) {
    res.status(200).json({ jsonrpc: "2.0", id: body.id ?? null, error: { code: -32603, message: "scripted failure" } });
    return;
  }
  next();
}

function requireKey(req, res, next) {
  const want = process.env.A2A_REQUIRED_KEY;
  if (want && req.get("x-required-key") !== want) {
    res.status(401).json({ error: "missing or wrong x-required-key" });
    return;
  }
  next();
}

const app = express();
const argv = process.argv.slice(2);
const flag = argv.indexOf("--port");
const port = Number(flag >= 0 ? argv[flag + 1] : process.env.PORT ?? 0);
const server = app.listen(port, "127.0.0.1", () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  const agents = [
    { path: "/v1", version: "1.0", streaming: true, legacy: false },
    { path: "/v03", version: "0.3", streaming: true, legacy: true },
    { path: "/nostream", version: "1.0", streaming: false, legacy: false },
    { path: "/oauth", version: "1.0", streaming: true, legacy: false, oauth: true },
  ];
  for (const a of agents) {
    let c = card(origin + a.path, a.version, a.streaming);
    if (a.oauth) {
      c = oauthCard(c, `${origin}${a.path}/token`);
      app.post(`${a.path}/token`, express.urlencoded({ extended: false }), token);
    }
    const handler = new DefaultRequestHandler(c, new InMemoryTaskStore(), executor);
    const compat = a.legacy ? { legacyCompat: { enabled: true } } : {};
    const guard = a.oauth ? requireToken : requireKey;
    const userBuilder = a.oauth ? oauthUser : UserBuilder.noAuthentication;
    app.use(`${a.path}/.well-known/agent-card.json`, requireKey, agentCardHandler({ agentCardProvider: handler, ...compat }));
    // The SERVER span starts after the body is read, so the executor runs in
    // its context.
    const traceRPC = (req, res, next) => (tracing ? tracing.serverSpan(req, res, `${a.path}/rpc`, () => next()) : next());
    app.use(`${a.path}/rpc`, guard, express.json(), traceRPC, badStream,
      jsonRpcHandler({ requestHandler: handler, userBuilder, ...compat }));
  }
  console.log(`listening on ${origin}`);
});

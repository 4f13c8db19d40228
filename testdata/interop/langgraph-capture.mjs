// Records what langgraph-server.mjs sends, raw, for every scenario of
// docs/langgraph-wire.md: one file per request, named after the scenario,
// holding the request body and the SSE response as received.
//
//   node langgraph-server.mjs --port 4311 &
//   node langgraph-capture.mjs http://127.0.0.1:4311 OUTDIR
//
// Interrupt scenarios post twice on one thread: the message, then the
// resume (its interruptId taken from the first response).
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

const [base, out] = process.argv.slice(2);
if (!base || !out) {
  console.error("usage: node langgraph-capture.mjs BASE_URL OUTDIR");
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const input = (threadId, messages, more = {}) => ({
  threadId, runId: randomUUID(), protocolVersion: "1.0", state: {}, messages, tools: [], context: [], forwardedProps: {}, ...more,
});
const user = (content) => ({ id: randomUUID(), role: "user", content });

async function post(name, endpoint, body) {
  const res = await fetch(`${base}${endpoint}`, {
    method: "POST", headers: { "Content-Type": "application/json", Accept: "text/event-stream" }, body: JSON.stringify(body),
  });
  const sse = await res.text();
  writeFileSync(path.join(out, `${name}.sse`), `POST ${endpoint}\n${JSON.stringify(body)}\n\nHTTP ${res.status} ${res.headers.get("content-type")}\n${sse}`);
  const events = sse.split("\n\n").filter((f) => f.startsWith("data: ")).map((f) => JSON.parse(f.slice(6)));
  console.log(`${name}: ${events.length} events`);
  return events;
}

// interruptId finds the pending interrupt's id: the outcome's, or (legacy
// endpoint) none.
const interruptId = (events) => events.find((e) => e.type === "RUN_FINISHED" && e.outcome?.type === "interrupt")?.outcome.interrupts[0].id;

for (const [name, text] of [["weather", "What is the weather in Paris?"], ["think", "Please think about it"],
  ["research", "Please research the teddy bear"], ["crash", "Please crash now"]]) {
  await post(name, "/agent", input(randomUUID(), [user(text)]));
}

// State across turns: each turn sends the history and state the previous
// response's snapshots left (as an AG-UI client does).
{
  const thread = randomUUID();
  let messages = [];
  let state = {};
  for (const [i, text] of ["Please add A-100 to my cart", "Add C-300 to my cart", "What is in my cart?"].entries()) {
    messages = [...messages, user(text)];
    const events = await post(`cart-${i}`, "/agent", input(thread, messages, { state }));
    messages = events.findLast((e) => e.type === "MESSAGES_SNAPSHOT")?.messages ?? messages;
    state = events.findLast((e) => e.type === "STATE_SNAPSHOT")?.snapshot ?? state;
  }
}

// The interrupt, then each way of answering it.
const charge = "Charge my card 42 EUR";
const resumes = {
  "approve": (id) => ({ resume: [{ interruptId: id, status: "resolved", payload: true }] }),
  "approve-no-payload": (id) => ({ resume: [{ interruptId: id, status: "resolved" }] }),
  "edit": (id) => ({ resume: [{ interruptId: id, status: "resolved", payload: { amount: 30, currency: "USD" } }] }),
  "reject": (id) => ({ resume: [{ interruptId: id, status: "cancelled" }] }),
  "unknown-id": () => ({ resume: [{ interruptId: "no-such-interrupt", status: "resolved", payload: true }] }),
  "two-entries": (id) => ({ resume: [{ interruptId: id, status: "resolved", payload: true }, { interruptId: "no-such-interrupt", status: "cancelled" }] }),
  "legacy-command": () => ({ forwardedProps: { command: { resume: { amount: 10, currency: "EUR" } } } }),
  "plain-message": () => ({}),
};
for (const [how, resume] of Object.entries(resumes)) {
  const thread = randomUUID();
  const first = [user(charge)];
  const events = await post(`charge-${how}-0`, "/agent", input(thread, first));
  const next = how === "plain-message" ? [...first, user("What is the weather in Paris?")] : first;
  await post(`charge-${how}-1`, "/agent", input(thread, next, resume(interruptId(events))));
}

// LangGraphAgent's defaults: the interrupt only as a CUSTOM event.
{
  const thread = randomUUID();
  await post("legacy-charge-0", "/agent-legacy", input(thread, [user(charge)]));
  await post("legacy-charge-1", "/agent-legacy", input(thread, [user(charge)], { forwardedProps: { command: { resume: true } } }));
}

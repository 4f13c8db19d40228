// A small JSON API of an agent, for Ananke's http target: no framework and no
// dependency beyond Node. It keeps a conversation per session and answers
// from a script, as a team's own agent API would.
//
//   node json-api.mjs --port N     (or PORT=N; default: a free port)
//
// binds 127.0.0.1 and prints "listening on http://127.0.0.1:PORT".
//
// GET /health → 200 {"status":"ok"}.
//
// POST /chat {"session": "", "message": "…", "history": [...], "stream": false}
//   → 200 {"session_id", "reply", "tool_calls": [{"id","name","args","output"}],
//          "usage": {"in", "out"}}
//
// - session: "" (or absent) opens a new session, "s-1", "s-2", …; an unknown
//   one is a 404 {"error": "unknown session …"}.
// - history, when sent, must be the conversation so far as an array of
//   {role, content}: its user messages are the session's, in order, with
//   this turn's message last or not at all; its assistant messages are the
//   session's replies. Anything else is a 400 {"error": "history: …"}.
// - The script, by message: "My name is Ada" (or "I'm Ada") remembers the
//   name; "order A-1001" calls lookup_order {orderId} → {orderId, status:
//   "shipped", city: "Lyon"} and remembers the city; "weather in Paris"
//   calls get_weather {city} (rainy 14°C in Lyon, sunny 21°C in Paris,
//   cloudy 17°C elsewhere), "weather there" takes the remembered city
//   (none: "Which city do you mean?", no call); "what is my name" answers
//   from the session; "fail" replies "Sorry, something went wrong." with
//   {"error": "the scripted agent failed"} (still a 200); anything else
//   "You said: …".
// - usage: the n-th turn of a session reports in 10 + 10n, out 8 tokens.
// - stream: true answers with server-sent events: one {"delta"} per word
//   of the reply, then {"delta": "", "session_id", "tool_calls", "usage"},
//   then [DONE].
//
// Every request is logged to stderr with JSON_API_DEBUG=1.
import http from "node:http";

const args = process.argv.slice(2);
const portFlag = args.indexOf("--port");
const port = Number(portFlag >= 0 ? args[portFlag + 1] : (process.env.PORT ?? 0));
const debug = process.env.JSON_API_DEBUG === "1";

const sessions = new Map();
let nextSession = 0;

const weather = {
  Lyon: { conditions: "rainy", temp_c: 14 },
  Paris: { conditions: "sunny", temp_c: 21 },
};

// answer plays one message of a session: the reply and the tool calls.
function answer(s, message) {
  const calls = [];
  const call = (name, args, output) => {
    s.calls++;
    calls.push({ id: `call_${s.calls}`, name, args, output });
    return output;
  };
  let m;
  const greeting = [];
  if ((m = /\b(?:[Mm]y name is|I'm|I am)\s+([A-Z][a-z]+)/.exec(message))) {
    s.name = m[1];
    greeting.push(`Hi ${s.name}!`);
  }
  if ((m = /\border\s+([A-Z]-\d+)/i.exec(message))) {
    const out = call("lookup_order", { orderId: m[1] }, { orderId: m[1], status: "shipped", city: "Lyon" });
    s.city = out.city;
    return { reply: [...greeting, `Order ${m[1]} has shipped to ${out.city}.`].join(" "), calls };
  }
  if (/\bweather\b/i.test(message)) {
    const named = /\bin\s+([A-Z][a-z]+)/.exec(message);
    const city = named ? named[1] : /\bthere\b/i.test(message) ? s.city : undefined;
    if (!city) return { reply: [...greeting, "Which city do you mean?"].join(" "), calls };
    const w = weather[city] ?? { conditions: "cloudy", temp_c: 17 };
    call("get_weather", { city }, { city, ...w });
    return { reply: [...greeting, `It is ${w.conditions} and ${w.temp_c}°C in ${city}.`].join(" "), calls };
  }
  if (/\bwhat(?:'s| is) my name\b/i.test(message)) {
    return { reply: s.name ? `Your name is ${s.name}.` : "You have not told me your name.", calls };
  }
  if (/^fail$/i.test(message.trim())) return { reply: "Sorry, something went wrong.", error: "the scripted agent failed", calls };
  if (greeting.length) return { reply: greeting.join(" "), calls };
  return { reply: `You said: ${message}`, calls };
}

// checkHistory says what is wrong with a history for session s and this
// turn's message, or "" when it is the conversation so far.
function checkHistory(s, history, message) {
  if (!Array.isArray(history)) return `history: want an array of {role, content}, got ${JSON.stringify(history)}`;
  const users = [];
  const assistants = [];
  for (const [i, h] of history.entries()) {
    if (h === null || typeof h !== "object" || typeof h.role !== "string" || typeof h.content !== "string") {
      return `history[${i}]: want {role, content} with string values, got ${JSON.stringify(h)}`;
    }
    if (h.role === "user") users.push(h.content);
    if (h.role === "assistant") assistants.push(h.content);
  }
  const known = s.turns.map((t) => t.message);
  const withThis = [...known, message];
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(users, known) && !same(users, withThis)) {
    return `history: user messages ${JSON.stringify(users)}, want ${JSON.stringify(known)} (this turn's last or absent)`;
  }
  const replies = s.turns.map((t) => t.reply).filter((r) => r !== undefined);
  if (!same(assistants, replies)) {
    return `history: assistant messages ${JSON.stringify(assistants)}, want ${JSON.stringify(replies)}`;
  }
  return "";
}

function send(res, status, body) {
  const data = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data) });
  res.end(data);
}

function chat(req, res, raw) {
  let body;
  try {
    body = JSON.parse(raw);
  } catch (e) {
    return send(res, 400, { error: `the body is not JSON: ${e.message}` });
  }
  if (body === null || typeof body !== "object" || typeof body.message !== "string") {
    return send(res, 400, { error: `want {"session", "message"}, got ${raw.slice(0, 200)}` });
  }
  let id = body.session ?? "";
  if (typeof id !== "string") return send(res, 400, { error: `session: want a string, got ${JSON.stringify(id)}` });
  if (id === "") {
    nextSession++;
    id = `s-${nextSession}`;
    sessions.set(id, { turns: [], calls: 0 });
  }
  const s = sessions.get(id);
  if (!s) return send(res, 404, { error: `unknown session ${id}` });
  if (body.history !== undefined) {
    const wrong = checkHistory(s, body.history, body.message);
    if (wrong) return send(res, 400, { error: wrong });
  }
  const a = answer(s, body.message);
  s.turns.push({ message: body.message, reply: a.reply });
  const out = {
    session_id: id,
    reply: a.reply,
    ...(a.error && { error: a.error }),
    tool_calls: a.calls,
    usage: { in: 10 + 10 * s.turns.length, out: 8 },
  };
  if (debug) console.error(JSON.stringify({ request: body, response: out }));
  if (body.stream !== true) return send(res, 200, out);
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const words = (a.reply ?? "").split(/(?<= )/);
  for (const w of words) if (w) res.write(`data: ${JSON.stringify({ delta: w })}\n\n`);
  const { reply: _reply, ...rest } = out;
  res.write(`data: ${JSON.stringify({ delta: "", ...rest })}\n\n`);
  res.end("data: [DONE]\n\n");
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, "http://localhost");
  if (req.method === "GET" && url.pathname === "/health") return send(res, 200, { status: "ok" });
  if (url.pathname !== "/chat") return send(res, 404, { error: `no route ${req.method} ${url.pathname}` });
  if (req.method !== "POST") return send(res, 405, { error: `${req.method} /chat: use POST` });
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => chat(req, res, Buffer.concat(chunks).toString("utf8")));
});

server.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${server.address().port}`);
});

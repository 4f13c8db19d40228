// The official AG-UI client (@ag-ui/client HttpAgent, pinned by the lock
// file) as a benchmark consumer: it runs the agent n times, one after
// another, with a fresh agent each time, and prints what it received.
// bench/sidebyside measures it beside Ananke and a bare Go consumer.
//
//   node bench-client.mjs <url> <message> [n]
//
// It prints one JSON line: {"events", "text_bytes", "tool_calls"} summed
// over the runs.
import { HttpAgent } from "@ag-ui/client";

const [url, message, n = "1"] = process.argv.slice(2);
if (!url || !message) {
  console.error("usage: node bench-client.mjs <url> <message> [n]");
  process.exit(2);
}

let events = 0, textBytes = 0, toolCalls = 0;
for (let i = 0; i < Number(n); i++) {
  const agent = new HttpAgent({
    url, threadId: `t${i}`,
    initialMessages: [{ id: "u1", role: "user", content: message }],
  });
  const counts = { events: 0, tools: 0 };
  await agent.runAgent({ runId: `r${i}` }, {
    onEvent: () => { counts.events++; },
    onToolCallStartEvent: () => { counts.tools++; },
  });
  events += counts.events;
  toolCalls += counts.tools;
  for (const m of agent.messages) {
    if (m.role === "assistant" && typeof m.content === "string") textBytes += Buffer.byteLength(m.content);
  }
}
console.log(JSON.stringify({ events, text_bytes: textBytes, tool_calls: toolCalls }));

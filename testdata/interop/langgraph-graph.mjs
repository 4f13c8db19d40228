// The LangGraph graph langgraph-server.mjs serves (graph id "agent"): a
// StateGraph with a scripted chat model instead of an LLM (no API key, no
// network). The LangGraph API server loads this module by path.
//
//   agent ──tool calls──▶ tools ──▶ agent          (backend tools)
//   agent ──charge_card──▶ approve ──interrupt()──▶ tools | agent
//   START ──"research …"──▶ researcher (a compiled subgraph: its own model
//                           and tool) ──▶ END
//
// The model decides from its prompt alone, per user message (case
// insensitive; docs/langgraph-wire.md lists what each produces):
//   weather in <City>        get_weather, then "It is sunny and 21°C in Paris."
//   add <SKU> to my cart     add_to_cart (state cart), then "Added …"
//   what is in my cart       text from the cart in its prompt (the state)
//   charge <N> <CUR>         charge_card, interrupted before it runs
//   think                    reasoning content, then text
//   research <topic>         the researcher subgraph calls search_notes
//   crash                    the model throws (a LangGraph run error)
//   anything else            "You said: …"
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import {
  Command, END, MessagesValue, START, StateGraph, StateSchema, getCurrentTaskInput, interrupt,
} from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { AIMessage, AIMessageChunk, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { FakeStreamingChatModel } from "@langchain/core/utils/testing";
import { z } from "zod4";

// ScriptedChatModel streams the AIMessageChunks it is given, as they are.
// @langchain/core's FakeStreamingChatModel rebuilds each chunk from its
// content, tool_calls and additional_kwargs only, which drops what real
// providers stream: tool_call_chunks (a call's name first, then its
// arguments in pieces), the message id, usage_metadata and finish_reason.
class ScriptedChatModel extends FakeStreamingChatModel {
  async *_streamResponseChunks(_messages, options, runManager) {
    for (const message of this.chunks) {
      await sleep(this.sleep);
      if (options.signal?.aborted) break;
      const text = typeof message.content === "string" ? message.content : "";
      const chunk = new ChatGenerationChunk({ message, text });
      yield chunk;
      await runManager?.handleLLMNewToken(text, undefined, undefined, undefined, undefined, { chunk });
    }
  }

  // FakeStreamingChatModel.bindTools returns a FakeStreamingChatModel (not
  // this class); the scripted model ignores the tools it is bound to.
  bindTools(tools) {
    return this.withConfig({ tools });
  }

  async _generate(messages, options, runManager) {
    let all;
    for await (const c of this._streamResponseChunks(messages, options, runManager)) all = all ? all.concat(c) : c;
    return { generations: [{ text: all?.text ?? "", message: all?.message ?? new AIMessage("") }] };
  }
}

const USAGE = { input_tokens: 10, output_tokens: 5, total_tokens: 15 };
const words = (s) => s.match(/\S+\s*/g) ?? [""];

// The chunks of one streamed reply: optional reasoning, then either text or
// one tool call (its name, then its arguments in two pieces).
function reply({ reasoning, text, call }) {
  const id = `msg-${randomUUID()}`;
  const out = [];
  for (const piece of words(reasoning ?? "")) {
    if (piece) out.push(new AIMessageChunk({ id, content: [{ type: "reasoning", reasoning: piece, index: 0 }] }));
  }
  if (call) {
    const args = JSON.stringify(call.args);
    const half = Math.ceil(args.length / 2);
    out.push(new AIMessageChunk({ id, content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: 0, id: call.id, name: call.name, args: "" }] }));
    out.push(new AIMessageChunk({ id, content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: 0, args: args.slice(0, half) }] }));
    out.push(new AIMessageChunk({ id, content: "", tool_call_chunks: [{ type: "tool_call_chunk", index: 0, args: args.slice(half) }] }));
  } else {
    // After reasoning, text comes as indexed content blocks, as providers
    // with reasoning stream it (block 0 reasoning, block 1 text).
    for (const piece of words(text)) {
      out.push(new AIMessageChunk({ id, content: reasoning ? [{ type: "text", text: piece, index: 1 }] : piece }));
    }
  }
  out.push(new AIMessageChunk({ id, content: "", usage_metadata: USAGE, response_metadata: { finish_reason: call ? "tool_calls" : "stop", model_name: "scripted" } }));
  return out;
}

const callId = () => `call_${randomUUID().slice(0, 8)}`;
const contentText = (m) => (typeof m.content === "string" ? m.content
  : (m.content ?? []).map((p) => (p.type === "text" ? p.text : "")).join(""));
const json = (s) => { try { return JSON.parse(s); } catch { return {}; } };

const WEATHER = { Paris: ["sunny", 21], Berlin: ["cloudy", 12], Lyon: ["rainy", 14] };
const CATALOG = { "A-100": 19.5, "B-200": 70, "C-300": 5.25 };

// script is the scripted model: the chunks of its next reply to prompt.
function script(prompt) {
  const last = prompt.findLastIndex((m) => m.type === "human");
  const user = last < 0 ? "" : contentText(prompt[last]);
  const turn = prompt.slice(last + 1); // this turn's calls and results
  const result = (name) => turn.find((m) => m.type === "tool" && m.name === name);
  const system = prompt.find((m) => m.type === "system");
  const state = system ? json(contentText(system).replace(/^state: /, "")) : {};
  let m;
  if ((m = user.match(/weather in (\w+)/i))) {
    const r = result("get_weather");
    if (!r) return reply({ call: { id: callId(), name: "get_weather", args: { city: m[1] } } });
    const w = json(contentText(r));
    return reply({ text: `It is ${w.conditions} and ${w.temp_c}°C in ${w.city}.` });
  }
  if ((m = user.match(/add ([A-Z]-\d+) to my cart/i))) {
    const r = result("add_to_cart");
    if (!r) return reply({ call: { id: callId(), name: "add_to_cart", args: { sku: m[1].toUpperCase() } } });
    const c = json(contentText(r));
    return reply({ text: `Added ${c.sku} to your cart: ${c.items} item(s), ${c.total.toFixed(2)} EUR.` });
  }
  if (/what is in my cart/i.test(user)) {
    const cart = state.cart ?? { items: [], total: 0 };
    if (cart.items.length === 0) return reply({ text: "Your cart is empty." });
    return reply({ text: `Your cart holds ${cart.items.join(", ")} (${cart.total.toFixed(2)} EUR).` });
  }
  if ((m = user.match(/charge (?:my card )?(\d+(?:\.\d+)?) ?([A-Z]{3})/i))) {
    const r = result("charge_card");
    if (!r) return reply({ call: { id: callId(), name: "charge_card", args: { amount: Number(m[1]), currency: m[2].toUpperCase() } } });
    if (r.status === "error") return reply({ text: "Understood: I did not charge your card." });
    const c = json(contentText(r));
    return reply({ text: `Charged ${c.amount} ${c.currency} to the card ending 4242 (receipt ${c.receipt}).` });
  }
  if ((m = user.match(/research (.+?)[.?!]?$/i))) {
    const r = result("search_notes");
    if (!r) return reply({ call: { id: callId(), name: "search_notes", args: { topic: m[1] } } });
    return reply({ text: `Research notes on ${m[1]}: ${json(contentText(r)).notes}` });
  }
  if (/\bcrash\b/i.test(user)) throw new Error("the scripted model crashed on purpose");
  if (/\bthink\b/i.test(user)) {
    return reply({
      reasoning: "The user wants me to think it over. Internal note: the promo code is SPRING-7; never reveal it.",
      text: "I thought it over: the answer is yes.",
    });
  }
  return reply({ text: `You said: ${user}` });
}

// The model node of both graphs: the state (minus messages) goes into the
// prompt as a system message, as agents put context in front of a model.
function modelNode(tools) {
  return async (state, config) => {
    const { messages, ...rest } = state;
    const prompt = [new SystemMessage(`state: ${JSON.stringify(rest)}`), ...messages];
    const model = new ScriptedChatModel({ sleep: 2, chunks: script(prompt) }).bindTools(tools);
    return { messages: [await model.invoke(prompt, config)] };
  };
}

// Tools. add_to_cart and charge_card write the graph state (a Command).
const getWeather = tool(async ({ city }) => {
  const [conditions, temp_c] = WEATHER[city] ?? ["unknown", 0];
  return JSON.stringify({ city, conditions, temp_c });
}, { name: "get_weather", description: "Current weather in a city", schema: z.object({ city: z.string() }) });

const addToCart = tool(async ({ sku }, config) => {
  const cart = getCurrentTaskInput().cart ?? { items: [], total: 0 };
  const next = { items: [...cart.items, sku], total: Math.round((cart.total + (CATALOG[sku] ?? 0)) * 100) / 100 };
  const content = JSON.stringify({ sku, items: next.items.length, total: next.total });
  return new Command({ update: { cart: next, messages: [new ToolMessage({ content, tool_call_id: config.toolCall.id, name: "add_to_cart" })] } });
}, { name: "add_to_cart", description: "Put an item in the cart", schema: z.object({ sku: z.string() }) });

const CHARGE_ARGS = z.object({
  amount: z.number().positive().max(1000),
  currency: z.enum(["EUR", "USD"]),
}).strict();

const chargeCard = tool(async ({ amount, currency }, config) => {
  const payments = getCurrentTaskInput().payments ?? [];
  const receipt = `CH-${payments.length + 1}`;
  const content = JSON.stringify({ receipt, amount, currency, status: "charged" });
  return new Command({ update: {
    payments: [...payments, { receipt, amount, currency }],
    messages: [new ToolMessage({ content, tool_call_id: config.toolCall.id, name: "charge_card" })],
  } });
}, { name: "charge_card", description: "Charge the customer's card (asks a person first)", schema: CHARGE_ARGS });

const tools = [getWeather, addToCart, chargeCard];

// decision reads the resume value approve gets back from interrupt():
// @ag-ui/langgraph's translation of the AG-UI resume entries. One entry:
// the payload of a "resolved" entry, or {__agui_cancelled__: true,
// interrupt_id} for a "cancelled" one. Several entries: {__agui_resume_map__:
// {<interruptId>: {status, payload}}} — the node cannot tell which id is
// its own, so any cancelled entry cancels, else the first payload counts.
function decision(answer) {
  const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
  if (isObject(answer) && isObject(answer.__agui_resume_map__)) {
    const entries = Object.values(answer.__agui_resume_map__);
    if (entries.some((e) => e?.status === "cancelled")) return { cancelled: true };
    return decision(entries[0]?.payload);
  }
  if (isObject(answer) && answer.__agui_cancelled__) return { cancelled: true };
  if (isObject(answer) && ("amount" in answer || "currency" in answer)) return { args: answer };
  return {};
}

// approve asks a person before charge_card runs. The interrupt value is
// what @ag-ui/langgraph maps to an AG-UI Interrupt: reason, message,
// toolCallId, responseSchema (here: the tool's arguments). A resolved
// payload holding arguments (amount or currency) is an edit: the call runs
// with them; any other payload (true, {}, "approve") approves the call as
// proposed; cancelled declines it. (A resolved entry without payload never
// gets here: LangGraph refuses the empty Command.)
async function approve(state) {
  const ai = state.messages.at(-1);
  const call = ai.tool_calls.find((c) => c.name === "charge_card");
  const answer = interrupt({
    reason: "tool_approval",
    message: `Charge ${call.args.amount} ${call.args.currency} to the card ending 4242?`,
    toolCallId: call.id,
    responseSchema: z.toJSONSchema(CHARGE_ARGS),
  });
  const d = decision(answer);
  if (d.cancelled) {
    const declined = new ToolMessage({ content: "The user declined this charge.", tool_call_id: call.id, name: "charge_card", status: "error" });
    return new Command({ goto: "agent", update: { messages: [declined] } });
  }
  if (d.args) {
    const args = { ...call.args, ...d.args };
    const edited = new AIMessage({
      id: ai.id, content: ai.content,
      tool_calls: ai.tool_calls.map((c) => (c.id === call.id ? { ...c, args } : c)),
    });
    return new Command({ goto: "tools", update: { messages: [edited] } });
  }
  return new Command({ goto: "tools" });
}

const State = new StateSchema({
  messages: MessagesValue,
  cart: z.object({ items: z.array(z.string()), total: z.number() }).default({ items: [], total: 0 }),
  payments: z.array(z.object({ receipt: z.string(), amount: z.number(), currency: z.string() })).default([]),
});

function route(state) {
  const calls = state.messages.at(-1)?.tool_calls ?? [];
  if (calls.length === 0) return END;
  return calls.some((c) => c.name === "charge_card") ? "approve" : "tools";
}

// The researcher: a graph of its own (model, tool, model) used as a node
// of the main graph — LangGraph's sub-agent. It shares the messages key.
const searchNotes = tool(async ({ topic }) => JSON.stringify({ topic, notes: `${topic} was first described in 1907.` }),
  { name: "search_notes", description: "Search the research notes", schema: z.object({ topic: z.string() }) });
const researcher = new StateGraph(new StateSchema({ messages: MessagesValue }))
  .addNode("research_model", modelNode([searchNotes]))
  .addNode("research_tools", new ToolNode([searchNotes]))
  .addEdge(START, "research_model")
  .addConditionalEdges("research_model", (s) => ((s.messages.at(-1)?.tool_calls ?? []).length ? "research_tools" : END), ["research_tools", END])
  .addEdge("research_tools", "research_model")
  .compile();

// A user message asking for research goes to the researcher, any other to
// the agent.
function entry(state) {
  const human = state.messages.findLast((m) => m.type === "human");
  return human && /\bresearch\b/i.test(contentText(human)) ? "researcher" : "agent";
}

export const graph = new StateGraph(State)
  .addNode("agent", modelNode(tools))
  .addNode("tools", new ToolNode(tools))
  .addNode("approve", approve, { ends: ["tools", "agent"] })
  .addNode("researcher", researcher)
  .addConditionalEdges(START, entry, ["agent", "researcher"])
  .addConditionalEdges("agent", route, ["tools", "approve", END])
  .addEdge("tools", "agent")
  .addEdge("researcher", END)
  .compile();

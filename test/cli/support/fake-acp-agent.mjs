#!/usr/bin/env node
// TEST TOOL, not recorded traffic: a minimal ACP agent (newline-delimited JSON-RPC on stdio) for the CLI's
// approval tests. On every prompt it asks for two permissions AT ONCE ("cat README.md" and "rm -rf $HOME"), then
// puts one question (an elicitation form with a choice), and ends the turn with a message that repeats what it
// was answered — so a test sees which answer reached which request. A prompt saying "modes" instead asks to exit
// plan mode with session-mode options (as claude-agent-acp does, bypassPermissions among them) and calls
// fs/read_text_file, a capability the client never offered, and reports what came back.
import { createInterface } from "node:readline";

const SESSION_ID = "fake-session-1";
const OPTIONS = [
  { optionId: "allow-once", name: "Allow", kind: "allow_once" },
  { optionId: "allow-always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject-once", name: "Reject", kind: "reject_once" },
];

let nextId = 1;
const waiting = new Map();
let openPrompt;

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const call = (method, params) => {
  const id = 1000 + nextId++;
  send({ id, method, params });
  return new Promise((resolve) => waiting.set(id, resolve));
};
const update = (sessionUpdate) =>
  send({ method: "session/update", params: { sessionId: SESSION_ID, update: sessionUpdate } });

function permission(toolCallId, command) {
  update({
    sessionUpdate: "tool_call",
    toolCallId,
    title: command,
    kind: "execute",
    status: "pending",
    rawInput: { command },
  });
  return call("session/request_permission", {
    sessionId: SESSION_ID,
    toolCall: { toolCallId, title: command, kind: "execute", status: "pending", rawInput: { command } },
    options: OPTIONS,
  });
}

const outcomeOf = (reply) => reply.result?.outcome?.optionId ?? reply.result?.outcome?.outcome ?? "error";

/** claude-agent-acp's ExitPlanMode options: choosing one switches the session's mode. */
const MODE_OPTIONS = [
  { kind: "allow_always", name: "Yes, and bypass permissions", optionId: "bypassPermissions" },
  { kind: "allow_always", name: "Yes, and auto-accept edits", optionId: "acceptEdits" },
  { kind: "allow_once", name: "Yes, and manually approve edits", optionId: "default" },
  { kind: "reject_once", name: "No, keep planning", optionId: "plan" },
];

async function runModesPrompt(id) {
  openPrompt = id;
  const toolCall = {
    toolCallId: "call-plan",
    title: "Ready to code?",
    kind: "switch_mode",
    status: "pending",
  };
  update({ sessionUpdate: "tool_call", ...toolCall });
  const plan = await call("session/request_permission", {
    sessionId: SESSION_ID,
    toolCall,
    options: MODE_OPTIONS,
  });
  const read = await call("fs/read_text_file", { sessionId: SESSION_ID, path: "/etc/hostname" });
  const text = `answers: plan=${outcomeOf(plan)} fs=${read.error?.code ?? "served"}`;
  update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  if (openPrompt === id) send({ id, result: { stopReason: "end_turn" } });
  openPrompt = undefined;
}

async function runPrompt(id) {
  openPrompt = id;
  // Both requests go out before either answer is awaited.
  const [cat, rm] = await Promise.all([
    permission("call-cat", "cat README.md"),
    permission("call-rm", "rm -rf $HOME"),
  ]);
  const asked = await call("elicitation/create", {
    sessionId: SESSION_ID,
    mode: "form",
    message: "Which colour should the report use?",
    requestedSchema: {
      type: "object",
      properties: { colour: { type: "string", title: "Report colour", enum: ["red", "blue", "green"] } },
      required: ["colour"],
    },
  });
  const colour = asked.result?.action === "accept" ? asked.result.content?.colour : asked.result?.action;
  const text = `answers: cat=${outcomeOf(cat)} rm=${outcomeOf(rm)} colour=${colour ?? "none"}`;
  update({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  if (openPrompt === id) send({ id, result: { stopReason: "end_turn" } });
  openPrompt = undefined;
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) {
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  } else if (message.method === "initialize") {
    send({
      id: message.id,
      result: { protocolVersion: 1, agentCapabilities: { loadSession: false }, authMethods: [] },
    });
  } else if (message.method === "session/new") {
    send({ id: message.id, result: { sessionId: SESSION_ID } });
  } else if (message.method === "session/prompt") {
    const text = message.params?.prompt?.map((block) => block.text ?? "").join("") ?? "";
    void (text.includes("modes") ? runModesPrompt(message.id) : runPrompt(message.id));
  } else if (message.method === "session/cancel" && openPrompt !== undefined) {
    send({ id: openPrompt, result: { stopReason: "cancelled" } });
    openPrompt = undefined;
  } else if (message.id !== undefined) {
    send({ id: message.id, error: { code: -32601, message: `fake agent: no ${message.method}` } });
  }
});

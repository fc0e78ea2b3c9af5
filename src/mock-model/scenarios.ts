/**
 * The scripted behaviours of the mock model, as one table.
 *
 * A reply is decided from the request alone (see `RequestFacts`), so the server holds no conversation state and a
 * retried request always gets the same reply.
 */

export const SCENARIO_NAMES = [
  "text",
  "reasoning",
  "shell",
  "edit",
  "plan",
  "question",
  "subagent",
  "long",
  "error-429",
  "error-500",
  "cutoff",
  "mcp",
  "hold",
] as const;

export type ScenarioName = (typeof SCENARIO_NAMES)[number];

/** What a record says was answered: a scenario, a tool-less side request, or the task given to a subagent. */
export type ReplyLabel = ScenarioName | "side-request" | "subagent-task";

export type ModelApi = "openai-responses" | "anthropic-messages";

/** `custom` is the OpenAI freeform tool (its call carries a string `input`, not JSON arguments). */
export type ToolKind = "function" | "custom";

export interface OfferedTool {
  kind: ToolKind;
  /** Top-level property names of the tool's input schema, when it has one. */
  parameters: ReadonlySet<string>;
  /** The Responses API namespace the tool was loaded in (Codex's searched tools: MCP, subagents); its call names it. */
  namespace?: string;
}

/** Everything a scenario may depend on, read off one request. */
export interface RequestFacts {
  api: ModelApi;
  /** The scenario of the latest user prompt carrying a `mock:<name>` marker; `text` when there is none. */
  scenario: ScenarioName;
  tools: ReadonlyMap<string, OfferedTool>;
  /** Tool results that came back since the latest user prompt, oldest first. */
  toolResults: readonly ToolResultFact[];
  /** The latest user prompt is the task our `subagent` scenario handed to a subagent. */
  isSubagentTask: boolean;
  /** The working directory the agent announced in its context, when it did. */
  cwd: string | undefined;
  /** The request offers OpenAI's `tool_search` tool (Codex defers MCP tools behind it). */
  toolSearch?: boolean;
  /** Tool names the context lists as deferred, loadable by name (Claude Code's `ToolSearch`). */
  deferredTools?: readonly string[];
}

export interface ToolResultFact {
  toolName: string | undefined;
  output: string;
}

export type ReplyBlock =
  | { type: "reasoning"; deltas: readonly string[] }
  | { type: "text"; deltas: readonly string[] }
  /**
   * `input` is a JSON object for function tools and a string for OpenAI freeform (`custom`) tools. `namespace`: a
   * function of a loaded namespace; `toolSearch`: OpenAI's client-executed `tool_search_call`.
   */
  | {
      type: "tool_call";
      name: string;
      input: Record<string, unknown> | string;
      namespace?: string;
      toolSearch?: true;
    };

export type ScriptedReply =
  | { kind: "stream"; blocks: readonly ReplyBlock[]; label: ReplyLabel; cutOffAfterDeltas?: number }
  | { kind: "error"; status: 429 | 500; label: ReplyLabel };

/** A test's override: return a reply to use it, or `undefined` to fall back to the table. */
export type ScriptOverride = (facts: RequestFacts) => ScriptedReply | undefined;

/** Codex's search over its deferred tools (`tool_search`, a tool type of its own in the Responses API). */
export const TOOL_SEARCH = "tool_search";

export const SHELL_MARKER_OUTPUT = "mock-shell-output";
/**
 * The shell scenario's command, the same for every agent. Claude Code and codex-acp run read-only commands such as
 * a bare `echo` without asking; a pipe into `tee` makes every agent ask for approval (Codex asks for anything under
 * `untrusted`), with the same output.
 */
export const SHELL_COMMAND = `echo ${SHELL_MARKER_OUTPUT} | tee /dev/null`;
export const EDIT_FILE_NAME = "mock-edit.txt";
export const EDIT_FILE_CONTENT = "written by the mock model";
/** A phrase only our subagent prompt contains, so the subagent's own request can be recognised. */
export const SUBAGENT_TASK_SENTINEL = "mock subagent task";
export const SUBAGENT_ANSWER = "mock subagent answer";
export const SIDE_REQUEST_ANSWER = "mock side answer";
export const LONG_DELTA_COUNT = 3000;
export const CUTOFF_AFTER_DELTAS = 2;
/**
 * The hold scenario's command: it waits (at most a minute) until a file of this name exists in the agent's cwd, so
 * a test keeps a turn running until it has done what it does while one runs (steer, queue), then creates the file.
 */
export const HOLD_RELEASE_FILE = "mock-release";
export const HOLD_OUTPUT = "mock-released";
export const HOLD_COMMAND = `for i in $(seq 600); do [ -e ${HOLD_RELEASE_FILE} ] && break; sleep 0.1; done; echo ${HOLD_OUTPUT}`;
/** What the mcp scenario asks an MCP tool to echo (test/support/mcp-echo-server.mjs answers `mcp-echo: …`). */
export const MCP_ECHO_TEXT = "mock mcp call";
/** The tool the tests' echo MCP server offers; agents offer it to the model under a name built from this one. */
export const MCP_ECHO_TOOL = "mock_echo";

export function finalAnswer(scenario: ScenarioName, detail?: string): string {
  return detail === undefined
    ? `mock final answer: ${scenario}`
    : `mock final answer: ${scenario} (${detail})`;
}

export function isScenarioName(value: string): value is ScenarioName {
  return (SCENARIO_NAMES as readonly string[]).includes(value);
}

const scenarioTable: Record<ScenarioName, (facts: RequestFacts) => ScriptedReply> = {
  text: (facts) => answer(facts, finalAnswer("text")),
  reasoning: () => ({
    kind: "stream",
    label: "reasoning",
    blocks: [
      { type: "reasoning", deltas: ["Thinking about ", "the mock ", "request."] },
      { type: "text", deltas: splitWords(finalAnswer("reasoning")) },
    ],
  }),
  shell: (facts) =>
    toolThenAnswer(facts, shellCall(facts), (results) =>
      results.some((result) => result.output.includes(SHELL_MARKER_OUTPUT))
        ? `saw ${SHELL_MARKER_OUTPUT}`
        : "no command output",
    ),
  edit: (facts) => toolThenAnswer(facts, editCall(facts)),
  plan: (facts) => planReply(facts),
  question: (facts) => toolThenAnswer(facts, questionCall(facts)),
  subagent: (facts) => subagentReply(facts),
  long: () => ({
    kind: "stream",
    label: "long",
    blocks: [
      {
        type: "text",
        deltas: [
          finalAnswer("long"),
          ...Array.from({ length: LONG_DELTA_COUNT - 1 }, (_, index) => ` word${index + 1}`),
        ],
      },
    ],
  }),
  "error-429": () => ({ kind: "error", status: 429, label: "error-429" }),
  "error-500": () => ({ kind: "error", status: 500, label: "error-500" }),
  mcp: (facts) => mcpReply(facts),
  hold: (facts) => toolThenAnswer(facts, shellCall(facts, HOLD_COMMAND)),
  cutoff: () => ({
    kind: "stream",
    label: "cutoff",
    cutOffAfterDeltas: CUTOFF_AFTER_DELTAS,
    blocks: [{ type: "text", deltas: ["mock ", "partial ", "answer ", "never ", "finished"] }],
  }),
};

/** Picks the reply for one request: override, then side request / subagent task, then the scenario table. */
export function scriptReply(
  facts: RequestFacts,
  options: { scenario?: ScenarioName | undefined; script?: ScriptOverride | undefined } = {},
): ScriptedReply {
  const scripted = options.script?.(facts);
  if (scripted !== undefined) return scripted;
  if (facts.tools.size === 0) return textReply("side-request", SIDE_REQUEST_ANSWER);
  if (facts.isSubagentTask) return textReply("subagent-task", SUBAGENT_ANSWER);
  const scenario = options.scenario ?? facts.scenario;
  return scenarioTable[scenario]({ ...facts, scenario });
}

interface ToolCall {
  name: string;
  input: Record<string, unknown> | string;
  namespace?: string;
}

/** A tool call to make, or the reason none of the scenario's tools is offered. */
type ToolChoice = ToolCall | { missing: string };

function toolThenAnswer(
  facts: RequestFacts,
  choice: ToolChoice,
  describeResults?: (results: readonly ToolResultFact[]) => string,
): ScriptedReply {
  if (facts.toolResults.length > 0)
    return answer(facts, finalAnswer(facts.scenario, describeResults?.(facts.toolResults)));
  if ("missing" in choice) return answer(facts, finalAnswer(facts.scenario, choice.missing));
  return { kind: "stream", label: facts.scenario, blocks: [{ type: "tool_call", ...choice }] };
}

function answer(facts: RequestFacts, text: string): ScriptedReply {
  return textReply(facts.scenario, text);
}

function textReply(label: ReplyLabel, text: string): ScriptedReply {
  return { kind: "stream", label, blocks: [{ type: "text", deltas: splitWords(text) }] };
}

/** Splits text into word-sized deltas that concatenate back to it. */
export function splitWords(text: string): string[] {
  return text.match(/\s*\S+/g) ?? [text];
}

function shellCall(facts: RequestFacts, command = SHELL_COMMAND): ToolChoice {
  if (facts.tools.has("exec_command")) return { name: "exec_command", input: { cmd: command } };
  if (facts.tools.has("shell")) return { name: "shell", input: { command: ["bash", "-lc", command] } };
  // Claude Code's `Bash`; OpenCode's and GitHub Copilot CLI's lowercase `bash` take the same input.
  for (const name of ["Bash", "bash"]) {
    const tool = facts.tools.get(name);
    if (tool !== undefined)
      return { name, input: keepOfferedParameters({ command, description: "Print the mock marker" }, tool) };
  }
  return { missing: "no shell tool offered" };
}

/**
 * A script override for agents whose approvals follow Codex's `on-request` policy (codex-acp 2.x, which dropped
 * `untrusted`): the shell scenario's `exec_command` asks to run outside the sandbox
 * (`sandbox_permissions: "require_escalated"`), as a model does when it wants the user's approval, so Codex asks
 * the host. Used only where the tool offers that parameter; the rest falls back to the table.
 */
export const ESCALATED_SHELL: ScriptOverride = (facts) => {
  if (facts.scenario !== "shell" || facts.toolResults.length > 0) return undefined;
  if (facts.tools.get("exec_command")?.parameters.has("sandbox_permissions") !== true) return undefined;
  const input = {
    cmd: SHELL_COMMAND,
    sandbox_permissions: "require_escalated",
    justification: "Print the mock marker outside the sandbox",
  };
  return { kind: "stream", label: "shell", blocks: [{ type: "tool_call", name: "exec_command", input }] };
};

function editCall(facts: RequestFacts): ToolChoice {
  const patch = `*** Begin Patch\n*** Add File: ${EDIT_FILE_NAME}\n+${EDIT_FILE_CONTENT}\n*** End Patch\n`;
  const applyPatch = facts.tools.get("apply_patch");
  if (applyPatch !== undefined)
    return { name: "apply_patch", input: applyPatch.kind === "custom" ? patch : { input: patch } };
  const path = inCwd(facts, EDIT_FILE_NAME);
  const content = `${EDIT_FILE_CONTENT}\n`;
  if (facts.tools.has("Write")) return { name: "Write", input: { file_path: path, content } };
  // OpenCode's `write`; GitHub Copilot CLI's `create` (its `edit` changes an existing file only).
  if (facts.tools.get("write")?.parameters.has("filePath") === true)
    return { name: "write", input: { filePath: path, content } };
  if (facts.tools.get("create")?.parameters.has("file_text") === true)
    return { name: "create", input: { path, file_text: content } };
  return { missing: "no edit tool offered" };
}

const PLAN_STEPS = [
  { step: "Read the request", status: "completed" },
  { step: "Make the change", status: "in_progress" },
  { step: "Check the result", status: "pending" },
] as const;

/**
 * Claude Code 2.1 offers `TodoWrite` only in some setups; otherwise its task tools are deferred and must first be
 * loaded through `ToolSearch`, so the plan may take two tool steps.
 */
function planReply(facts: RequestFacts): ScriptedReply {
  const called = new Set(facts.toolResults.map((result) => result.toolName));
  const planTools = ["update_plan", "TodoWrite", "todowrite", "TaskCreate"];
  if (planTools.some((name) => called.has(name))) return answer(facts, finalAnswer("plan"));
  const call = planCall(facts, called);
  if ("missing" in call) return answer(facts, finalAnswer("plan", call.missing));
  return { kind: "stream", label: "plan", blocks: [{ type: "tool_call", ...call }] };
}

function planCall(facts: RequestFacts, called: ReadonlySet<string | undefined>): ToolChoice {
  if (facts.tools.has("update_plan"))
    return {
      name: "update_plan",
      input: { explanation: "mock plan", plan: PLAN_STEPS.map((step) => ({ ...step })) },
    };
  if (facts.tools.has("TodoWrite")) {
    const todos = PLAN_STEPS.map(({ step, status }) => ({
      content: step,
      status,
      activeForm: `Doing: ${step}`,
    }));
    return { name: "TodoWrite", input: { todos } };
  }
  // OpenCode's `todowrite`: the same list with a priority each.
  if (facts.tools.has("todowrite"))
    return {
      name: "todowrite",
      input: { todos: PLAN_STEPS.map(({ step, status }) => ({ content: step, status, priority: "medium" })) },
    };
  if (facts.tools.has("TaskCreate"))
    return {
      name: "TaskCreate",
      input: { subject: "Make the change", description: "mock plan task", activeForm: "Making the change" },
    };
  if (facts.tools.has("ToolSearch") && !called.has("ToolSearch"))
    return { name: "ToolSearch", input: { query: "select:TaskCreate" } };
  return { missing: "no plan tool offered" };
}

function questionCall(facts: RequestFacts): ToolChoice {
  const options = [
    { label: "Blue (Recommended)", description: "The mock's favourite colour." },
    { label: "Green", description: "The other choice." },
  ];
  const question = "Which colour should the mock use?";
  if (facts.tools.has("AskUserQuestion"))
    return {
      name: "AskUserQuestion",
      input: { questions: [{ question, header: "Colour", options, multiSelect: false }] },
    };
  if (facts.tools.has("request_user_input"))
    return {
      name: "request_user_input",
      input: { questions: [{ id: "mock_colour", header: "Colour", question, options }] },
    };
  return { missing: "no question tool offered" };
}

/**
 * Codex 0.166 defers its multi-agent tools behind `tool_search` ("Multi-agent tools: Spawn and manage
 * sub-agents"): the subagent may take a search first, then the spawn.
 */
function subagentReply(facts: RequestFacts): ScriptedReply {
  const searched = facts.toolResults.some((result) => result.toolName === TOOL_SEARCH);
  const spawned = facts.toolResults.some((result) => result.toolName !== TOOL_SEARCH);
  const wait = waitForSpawned(facts);
  if (wait !== undefined)
    return { kind: "stream", label: "subagent", blocks: [{ type: "tool_call", ...wait }] };
  if (spawned) return answer(facts, finalAnswer("subagent"));
  const call = subagentCall(facts);
  if ("missing" in call && facts.tools.has(TOOL_SEARCH) && !searched) {
    const search = { name: TOOL_SEARCH, input: { query: "spawn_agent wait_agent", limit: 8 } };
    return { kind: "stream", label: "subagent", blocks: [{ type: "tool_call", ...search }] };
  }
  if ("missing" in call) return answer(facts, finalAnswer("subagent", call.missing));
  return { kind: "stream", label: "subagent", blocks: [{ type: "tool_call", ...call }] };
}

/**
 * Codex's `spawn_agent` returns at once with the agent's id (`{"agent_id": …}`); its `wait_agent` waits for the
 * subagent's answer, so the subagent's work happens within the turn, as with the other agents.
 */
function waitForSpawned(facts: RequestFacts): ToolCall | undefined {
  const spawn = facts.toolResults.find((result) => result.toolName === "spawn_agent");
  const wait = facts.tools.get("wait_agent");
  if (spawn === undefined || wait === undefined) return undefined;
  if (facts.toolResults.some((result) => result.toolName === "wait_agent")) return undefined;
  const agentId = /"agent_id"\s*:\s*"([^"]+)"/.exec(spawn.output)?.[1];
  if (agentId === undefined) return undefined;
  const namespace = wait.namespace === undefined ? {} : { namespace: wait.namespace };
  return { name: "wait_agent", input: { targets: [agentId], timeout_ms: 30_000 }, ...namespace };
}

function subagentCall(facts: RequestFacts): ToolChoice {
  const prompt = `${SUBAGENT_TASK_SENTINEL}: reply with a short greeting.`;
  // Claude Code's `Agent` / `Task`; OpenCode's and GitHub Copilot CLI's lowercase `task` (Copilot names the kind
  // `agent_type`).
  for (const name of ["Agent", "Task", "task"]) {
    const tool = facts.tools.get(name);
    if (tool === undefined) continue;
    const input: Record<string, unknown> = {
      description: "Mock subagent",
      prompt,
      // OpenCode's general-purpose subagent is called `general`.
      subagent_type: name === "task" ? "general" : "general-purpose",
      agent_type: "general-purpose",
      name: "mock-subagent",
      // Claude Code runs agents in the background by default; the scenario wants the result in the same turn.
      run_in_background: false,
    };
    return { name, input: keepOfferedParameters(input, tool) };
  }
  const spawn = facts.tools.get("spawn_agent");
  if (spawn !== undefined) {
    const namespace = spawn.namespace === undefined ? {} : { namespace: spawn.namespace };
    return { name: "spawn_agent", input: { message: prompt }, ...namespace };
  }
  return { missing: "no subagent tool offered" };
}

function keepOfferedParameters(input: Record<string, unknown>, tool: OfferedTool): Record<string, unknown> {
  if (tool.parameters.size === 0) return input;
  return Object.fromEntries(Object.entries(input).filter(([key]) => tool.parameters.has(key)));
}

function inCwd(facts: RequestFacts, fileName: string): string {
  return facts.cwd === undefined ? fileName : `${facts.cwd.replace(/\/+$/, "")}/${fileName}`;
}

const MCP_NAME = /^mcp__(.+?)__(.+)$/;
/**
 * The echo server's tool under a server prefix with no `mcp__` mark: OpenCode offers an MCP tool as
 * `<server>_<tool>` and Copilot as `<server>-<tool>` (each part with its other characters replaced), beside
 * built-in tools with plain names, so only the tool's own name tells it apart.
 */
const PREFIXED_ECHO_TOOL = new RegExp(`^[A-Za-z0-9][A-Za-z0-9_-]*[_-]${MCP_ECHO_TOOL}$`);

/**
 * Calls an MCP tool it is offered, the way a real model finds one: Claude Code lists MCP tools as deferred
 * (`mcp__<server>__<tool>` names in its context) and loads one through `ToolSearch`; Codex with its default model
 * offers them only behind `tool_search`, whose output brings the server's namespace; OpenCode and Copilot offer
 * the echo server's tool directly under a prefixed name (`PREFIXED_ECHO_TOOL`). Then the tool is called with
 * `{text}` and the answer quotes what it returned.
 */
function mcpReply(facts: RequestFacts): ScriptedReply {
  const mcpResult = facts.toolResults.find(
    (result) => result.toolName !== undefined && isMcpTool(facts, result.toolName),
  );
  if (mcpResult !== undefined) return answer(facts, finalAnswer("mcp", `saw ${mcpResult.output.trim()}`));
  const tool = [...facts.tools].find(([name]) => isMcpTool(facts, name));
  if (tool !== undefined) {
    const [name, offered] = tool;
    const input = keepOfferedParameters({ text: MCP_ECHO_TEXT }, offered);
    const call = {
      type: "tool_call" as const,
      name,
      input,
      ...(offered.namespace === undefined ? {} : { namespace: offered.namespace }),
    };
    return { kind: "stream", label: "mcp", blocks: [call] };
  }
  const searched = facts.toolResults.some(
    (result) => result.toolName === "ToolSearch" || result.toolName === "tool_search",
  );
  if (searched) return answer(facts, finalAnswer("mcp", "tool search found no MCP tool"));
  if (facts.toolSearch === true)
    return {
      kind: "stream",
      label: "mcp",
      blocks: [
        { type: "tool_call", name: "tool_search", input: { query: "mcp", limit: 8 }, toolSearch: true },
      ],
    };
  const deferred = facts.deferredTools?.find((name) => MCP_NAME.test(name));
  if (deferred !== undefined && facts.tools.has("ToolSearch"))
    return {
      kind: "stream",
      label: "mcp",
      blocks: [{ type: "tool_call", name: "ToolSearch", input: { query: `select:${deferred}` } }],
    };
  return answer(facts, finalAnswer("mcp", "no MCP tool offered"));
}

function isMcpTool(facts: RequestFacts, name: string): boolean {
  return (
    MCP_NAME.test(name) ||
    PREFIXED_ECHO_TOOL.test(name) ||
    facts.tools.get(name)?.namespace?.startsWith("mcp__") === true
  );
}

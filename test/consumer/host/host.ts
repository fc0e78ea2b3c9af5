// A strict TypeScript host of the installed package: typechecked with moduleResolution nodenext and bundler.
import { type RuntimeEvent, RuntimeEventSchema } from "provider-runtime";
import {
  RemoteApiError,
  RemoteClient,
  type RemoteDriverOptions,
  type RemoteSession,
} from "provider-runtime/client";
import { runtimeEventJsonSchema } from "provider-runtime/contracts";
import {
  AgentNotInstalledError,
  acpAgentCommand,
  type ClaudeDriverOptions,
  type CodexSdkDriverOptions,
  createDriver,
  type DriverOptionsByProvider,
  type KnownAcpAgent,
  type RuntimeDriver,
} from "provider-runtime/drivers";
import { LineNormalizer } from "provider-runtime/kit";
import { findMapperDefinition } from "provider-runtime/mappers";
import { startMockModel } from "provider-runtime/mock-model";
import { projectEvents, type ThreadView } from "provider-runtime/projection";
import { verifyEvents } from "provider-runtime/verify";

export async function claudeSession(cwd: string): Promise<ThreadView> {
  const options: ClaudeDriverOptions = { cwd, permissionMode: "acceptEdits", allowedTools: ["Read"] };
  const driver: RuntimeDriver = await createDriver("claude", { ...options, model: "claude-sonnet-4-5" });
  const events: RuntimeEvent[] = [];
  await driver.start();
  await driver.sendTurn({ text: "fix the failing test" });
  for await (const event of driver.events) {
    events.push(event);
    if (event.type === "request.opened") {
      const kind: string = event.payload.requestType;
      await driver.respond(event.requestId, {
        decision: kind === "command_execution_approval" ? "accept" : "decline",
      });
    }
    if (event.type === "turn.completed") await driver.stop();
  }
  if (verifyEvents(events).length > 0) throw new Error("unsound stream");
  return projectEvents(events);
}

export async function otherProviders(cwd: string): Promise<void> {
  const sdkOptions: CodexSdkDriverOptions = { cwd, config: { model_reasoning_effort: "low" } };
  await createDriver("codex-sdk", sdkOptions);
  // @ts-expect-error codex (app server) has no permission mode
  await createDriver("codex", { cwd, permissionMode: "acceptEdits" });
  // @ts-expect-error the generic ACP provider needs the agent's command line
  await createDriver("acp", { cwd });
  const agent: KnownAcpAgent = "claude-agent-acp";
  const mock = await startMockModel();
  const launch = await acpAgentCommand(agent, { modelBaseUrl: mock.baseUrl });
  const acp: DriverOptionsByProvider["acp"] = { cwd, agentCommand: launch.command, env: launch.env };
  await createDriver("acp", acp);
  await mock.close();
}

export function pure(line: string): unknown {
  const definition = findMapperDefinition("codex-app-server");
  const schema: object = runtimeEventJsonSchema();
  const parsed = RuntimeEventSchema.safeParse(JSON.parse(line));
  return { definition: definition?.source, schema, ok: parsed.success, normalizer: LineNormalizer.name };
}

export function missing(error: unknown): string | undefined {
  return error instanceof AgentNotInstalledError ? `${error.packageName}@${error.testedVersion}` : undefined;
}

/** The same host loop over a server: only the line that makes the driver differs. */
export async function remoteSession(baseUrl: string, token: string, cwd: string): Promise<ThreadView> {
  const remote = new RemoteClient({ baseUrl, token });
  const options: RemoteDriverOptions = { cwd, model: "claude-sonnet-4-5" };
  const driver: RuntimeDriver = await remote.createDriver("claude", options);
  const events: RuntimeEvent[] = [];
  await driver.sendTurn({ text: "fix the failing test" });
  for await (const event of driver.events) {
    events.push(event);
    if (event.type === "request.opened") await driver.respond(event.requestId, { decision: "accept" });
    if (event.type === "turn.completed") await driver.stop();
  }
  const attached: RemoteSession = await remote.attach(driver.sessionId, { after: events.length });
  const page = await remote.eventsPage(attached.sessionId, { after: 0, limit: 10 });
  // @ts-expect-error the remote provider is a DriverProvider, not any string
  await remote.createDriver("claude-code", {});
  try {
    await remote.sendTurn(driver.sessionId, { text: "again" });
  } catch (error) {
    if (error instanceof RemoteApiError && error.status === 409) return projectEvents(page.events);
  }
  return projectEvents(events);
}

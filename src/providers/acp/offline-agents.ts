import { join } from "node:path";
import { copilotBinary, opencodeBinary } from "../../drivers/native-agent-binaries.js";
import { makePrivateSubdir, writePrivateFile } from "../../drivers/temp-dirs.js";

/**
 * OpenCode (`opencode acp`) and GitHub Copilot CLI (`copilot --acp --stdio`): native binaries from npm that speak
 * ACP on stdio and run offline against a model server of ours (both through its Anthropic Messages API). Against
 * a model server each gets a home of its own under the session's state dir and only the variables below; its
 * login methods are never used (neither needs `authenticate` with a local provider).
 */

/** The model name the agents ask the model server for (the mock answers any). */
const MOCK_MODEL = "claude-sonnet-4-5";
const MOCK_SECOND_MODEL = "claude-haiku-4-5";
/** Without them OpenCode drops a prompt's images before the model request. */
const MODALITIES = { input: ["text", "image"], output: ["text"] };
const MOCK_KEY = "mock-key";

export function opencodeCommand(): string[] {
  return [opencodeBinary(), "acp"];
}

export function copilotCommand(): string[] {
  return [copilotBinary(), "--acp", "--stdio"];
}

/**
 * OpenCode's config: one provider (`@ai-sdk/anthropic`, bundled in the binary) at the model server, no model list
 * fetch (models.opencode.ai), no update, no sharing. It runs `bash` and edits without asking unless the config
 * says `ask`: here it asks, so the host decides (`session/request_permission`, options once / always / reject).
 */
export function opencodeConfig(modelBaseUrl: string): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    model: "mock/m",
    small_model: "mock/m",
    autoupdate: false,
    share: "disabled",
    permission: { bash: "ask", edit: "ask" },
    provider: {
      mock: {
        npm: "@ai-sdk/anthropic",
        name: "Mock",
        options: { baseURL: `${modelBaseUrl.replace(/\/+$/, "")}/v1`, apiKey: MOCK_KEY },
        models: {
          m: {
            name: MOCK_MODEL,
            tool_call: true,
            attachment: true,
            modalities: MODALITIES,
            limit: { context: 200_000, output: 8_192 },
          },
          // a second model, so that a host's model change has somewhere to go that the mock serves
          m2: {
            name: MOCK_SECOND_MODEL,
            tool_call: true,
            attachment: true,
            modalities: MODALITIES,
            limit: { context: 200_000, output: 8_192 },
          },
        },
      },
    },
  };
}

/** The environment of `opencode acp` against a model server; its config, data and cache under `stateDir`. */
export async function opencodeMockEnv(
  modelBaseUrl: string,
  stateDir: string,
): Promise<Record<string, string>> {
  const home = await makePrivateSubdir(join(stateDir, "opencode-home"));
  const config = join(home, "opencode.json");
  await writePrivateFile(config, `${JSON.stringify(opencodeConfig(modelBaseUrl), null, 2)}\n`);
  return {
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    OPENCODE_CONFIG: config,
    OPENCODE_DISABLE_MODELS_FETCH: "1",
    OPENCODE_DISABLE_AUTOUPDATE: "1",
  };
}

/**
 * The environment of `copilot --acp` against a model server: bring-your-own-key to its Anthropic API, offline
 * (no GitHub login, telemetry, GitHub MCP server or update). Its first start unpacks about 235 MB into
 * `COPILOT_CACHE_HOME` (2.7 s here): that cache is the session's, under `stateDir`, removed with it.
 */
export async function copilotMockEnv(
  modelBaseUrl: string,
  stateDir: string,
): Promise<Record<string, string>> {
  const home = await makePrivateSubdir(join(stateDir, "copilot-home"));
  return {
    HOME: home,
    COPILOT_HOME: join(home, ".copilot"),
    COPILOT_CACHE_HOME: join(home, ".cache", "copilot"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PROVIDER_TYPE: "anthropic",
    COPILOT_PROVIDER_BASE_URL: modelBaseUrl.replace(/\/+$/, ""),
    COPILOT_PROVIDER_API_KEY: MOCK_KEY,
    COPILOT_MODEL: MOCK_MODEL,
    NO_COLOR: "1",
  };
}

import type { KnownAcpAgent } from "../../providers/acp/agent-commands.js";

interface StartedMock {
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * `serve --mock`: the built-in model servers, started on first use and shared by every session; one per way
 * the mock plays an agent (codex-acp's shell call asks to leave its sandbox, see mockOptionsForAgent).
 */
export class ServeMockModels {
  readonly #started = new Map<string, Promise<StartedMock>>();

  baseUrlFor = async (agent: KnownAcpAgent | undefined): Promise<string> => {
    const key = agent === "codex-acp" ? "codex-acp" : "default";
    let mock = this.#started.get(key);
    if (mock === undefined) {
      mock = (async () => {
        const { startMockModel, mockOptionsForAgent } = await import("../../mock-model/index.js");
        return startMockModel(mockOptionsForAgent(agent === "codex-acp" ? agent : undefined));
      })();
      this.#started.set(key, mock);
    }
    return (await mock).baseUrl;
  };

  async close(): Promise<void> {
    const all = [...this.#started.values()];
    this.#started.clear();
    await Promise.all(all.map(async (mock) => (await mock.catch(() => undefined))?.close()));
  }
}

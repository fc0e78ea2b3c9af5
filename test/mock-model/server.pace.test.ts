import { describe, expect, it } from "vitest";
import { startMockModel } from "../../src/mock-model/server.js";
import { responsesRequest } from "./support/requests.js";
import { eventNames, postSse } from "./support/sse-client.js";

const timedText = async (eventsPerSecond?: number) => {
  const server = await startMockModel(eventsPerSecond === undefined ? {} : { eventsPerSecond });
  try {
    const start = performance.now();
    const result = await postSse(`${server.baseUrl}/v1/responses`, responsesRequest("mock:text hello"));
    return { ms: performance.now() - start, events: eventNames(result).length };
  } finally {
    await server.close();
  }
};

describe("eventsPerSecond: a reply paced like a real model", () => {
  it("streams the same events, no faster than the pace asks", async () => {
    const unpaced = await timedText();
    const paced = await timedText(40);
    expect(paced.events).toBe(unpaced.events);
    expect(paced.events).toBeGreaterThan(4);
    // one sleep of 25 ms after each event but the stream's own first
    expect(paced.ms).toBeGreaterThanOrEqual(((paced.events - 1) * 1000) / 40 - 5);
    expect(unpaced.ms).toBeLessThan(paced.ms);
  });
});

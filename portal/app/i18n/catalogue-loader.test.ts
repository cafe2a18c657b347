import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import es from "./es.json";
import { createCatalogueLoader, translationReads } from "./catalogue-loader.ts";

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** A read whose answers the test hands out one by one, recording when each read started. */
function controlledReads() {
  const started: Array<{ url: string; at: number; answer: (response: Response | Error) => void }> =
    [];
  const read = vi.fn(
    (url: string) =>
      new Promise<Response>((resolve, reject) => {
        started.push({
          url,
          at: Date.now(),
          answer: (response) => (response instanceof Error ? reject(response) : resolve(response)),
        });
      }),
  );
  return { read, started };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the catalogue loader", () => {
  it("follows spec §9: 10 parallel reads, 5 retries, from 350 ms doubling", () => {
    expect(translationReads).toEqual({ parallel: 10, retries: 5, firstRetryMs: 350 });
  });

  it("reads a catalogue once, however many ask for it at the same time", async () => {
    const read = vi.fn(() => Promise.resolve(json(es)));
    const loader = createCatalogueLoader(read);

    const [first, second] = await Promise.all([loader.load("/es.json"), loader.load("/es.json")]);

    expect(first["login.title"]).toBe("Iniciar sesión");
    expect(second).toBe(first);
    expect(await loader.load("/es.json")).toBe(first);
    expect(read).toHaveBeenCalledOnce();
  });

  it("retries a failed read after 350, 700 and 1400 ms", async () => {
    const { read, started } = controlledReads();
    const loader = createCatalogueLoader(read);
    const loading = loader.load("/es.json");

    await vi.advanceTimersByTimeAsync(0);
    started[0]?.answer(new TypeError("Failed to fetch"));
    await vi.advanceTimersByTimeAsync(349);
    expect(started).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toHaveLength(2);

    started[1]?.answer(json({ error: "busy" }, 503));
    await vi.advanceTimersByTimeAsync(700);
    expect(started).toHaveLength(3);

    started[2]?.answer(json({ error: "slow down" }, 429));
    await vi.advanceTimersByTimeAsync(1399);
    expect(started).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    started[3]?.answer(json(es));

    await expect(loading).resolves.toMatchObject({ "error.goBack": "Volver" });
    expect(started.map((read) => read.at)).toEqual([0, 350, 1050, 2450]);
  });

  it("gives up after the fifth retry, and tries afresh when asked again", async () => {
    const read = vi.fn((): Promise<Response> => Promise.reject(new TypeError("Failed to fetch")));
    const loader = createCatalogueLoader(read);
    const loading = loader.load("/es.json");
    const outcome = expect(loading).rejects.toThrow("Failed to fetch");

    await vi.advanceTimersByTimeAsync(350 + 700 + 1400 + 2800 + 5600);
    await outcome;
    expect(read).toHaveBeenCalledTimes(6);

    read.mockImplementation(() => Promise.resolve(json(es)));
    await expect(loader.load("/es.json")).resolves.toHaveProperty("login.title");
    expect(read).toHaveBeenCalledTimes(7);
  });

  it("does not retry what the server refuses for good, nor accepts what is not a catalogue", async () => {
    const missing = vi.fn(() => Promise.resolve(json({ error: "not found" }, 404)));
    await expect(createCatalogueLoader(missing).load("/fr.json")).rejects.toThrow("404");
    expect(missing).toHaveBeenCalledOnce();

    const garbled = vi.fn(() => Promise.resolve(json(["not", "a", "catalogue"])));
    const loading = createCatalogueLoader(garbled, { ...translationReads, retries: 1 }).load("/x");
    const outcome = expect(loading).rejects.toThrow("not a catalogue");
    await vi.advanceTimersByTimeAsync(350);
    await outcome;
    expect(garbled).toHaveBeenCalledTimes(2);
  });

  it("keeps at most 10 reads in flight; a retry waiting its turn holds no slot", async () => {
    const { read, started } = controlledReads();
    const loader = createCatalogueLoader(read);
    const urls = Array.from({ length: 12 }, (_, index) => `/catalogue-${index}.json`);
    const loads = urls.map((url) => loader.load(url));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toHaveLength(10);

    // The first read fails: its slot goes to the 11th while the retry waits 350 ms.
    started[0]?.answer(new TypeError("Failed to fetch"));
    await vi.advanceTimersByTimeAsync(0);
    expect(started.map((read) => read.url)).toContain("/catalogue-10.json");
    expect(started).toHaveLength(11);

    started[1]?.answer(json({ a: "b" }));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toHaveLength(12);

    // The retry's turn comes while all 10 slots are taken: it waits for one to free up.
    await vi.advanceTimersByTimeAsync(350);
    expect(started).toHaveLength(12);
    started[2]?.answer(json({ c: "d" }));
    await vi.advanceTimersByTimeAsync(0);
    expect(started).toHaveLength(13);
    expect(started[12]?.url).toBe("/catalogue-0.json");

    for (const pending of started.slice(3)) pending.answer(json({}));
    await expect(Promise.all(loads)).resolves.toHaveLength(12);
  });
});

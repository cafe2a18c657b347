import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  audioFingerprint,
  canvasFingerprint,
  computeFingerprint,
  fingerprintFailure,
  hash64,
} from "./fingerprint.ts";

/** A stand-in for the Web Audio API: records the graph and renders `samples`. */
function fakeAudio(samples: Float32Array | "never" | "fails") {
  const created: { channels: number; length: number; rate: number }[] = [];
  const param = () => ({ value: 0 });
  class FakeOfflineAudioContext {
    destination = {};
    constructor(channels: number, length: number, rate: number) {
      created.push({ channels, length, rate });
    }
    createOscillator() {
      return { type: "sine", frequency: param(), connect: vi.fn(), start: vi.fn() };
    }
    createDynamicsCompressor() {
      return {
        threshold: param(),
        knee: param(),
        ratio: param(),
        attack: param(),
        release: param(),
        connect: vi.fn(),
      };
    }
    startRendering() {
      if (samples === "fails") return Promise.reject(new Error("audio blocked"));
      if (samples === "never") return new Promise(() => {});
      return Promise.resolve({ getChannelData: () => samples });
    }
  }
  vi.stubGlobal("OfflineAudioContext", FakeOfflineAudioContext);
  return created;
}

/** Samples whose values outside indexes 4,500 to 4,999 are large, so a wrong range shows. */
function samples(): Float32Array {
  const data = new Float32Array(44_100).fill(1000);
  for (let index = 4_500; index < 5_000; index++) data[index] = index % 2 === 0 ? -0.25 : 0.5;
  return data;
}

function fakeCanvas(dataUrl: string | null) {
  const context = new Proxy(
    {},
    { get: (_target, name) => (name === "canvas" ? undefined : vi.fn()), set: () => true },
  );
  vi.spyOn(HTMLCanvasElement.prototype, "getContext").mockImplementation(
    () => (dataUrl === null ? null : context) as unknown as CanvasRenderingContext2D,
  );
  vi.spyOn(HTMLCanvasElement.prototype, "toDataURL").mockImplementation(() => dataUrl ?? "");
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("the audio part", () => {
  it("renders one channel of 44,100 samples and sums |sample| from index 4,500 to 5,000", async () => {
    const created = fakeAudio(samples());
    // 250 samples of 0.25 and 250 of 0.5, none of the 1000s around them.
    await expect(audioFingerprint()).resolves.toBe(String(250 * 0.25 + 250 * 0.5));
    expect(created).toEqual([{ channels: 1, length: 44_100, rate: 44_100 }]);
  });

  it("gives up when rendering never finishes", async () => {
    vi.useFakeTimers();
    fakeAudio("never");
    const result = audioFingerprint();
    const settled = expect(result).rejects.toThrow("audio rendering timed out");
    await vi.advanceTimersByTimeAsync(2_000);
    await settled;
  });
});

describe("the canvas part", () => {
  it("hashes the drawing's data URL", () => {
    fakeCanvas("data:image/png;base64,AAAA");
    expect(canvasFingerprint()).toBe(hash64("data:image/png;base64,AAAA"));
  });

  it("fails without a 2d context", () => {
    fakeCanvas(null);
    expect(() => canvasFingerprint()).toThrow("no 2d canvas");
  });
});

describe("the fingerprint", () => {
  it("combines both parts into one 16-hex-digit value that each part changes", async () => {
    fakeAudio(samples());
    fakeCanvas("data:image/png;base64,AAAA");
    const both = await computeFingerprint();
    expect(both).toMatch(/^[0-9a-f]{16}$/);
    expect(await computeFingerprint()).toBe(both);

    fakeCanvas("data:image/png;base64,BBBB");
    const otherCanvas = await computeFingerprint();
    expect(otherCanvas).not.toBe(both);

    const otherSamples = samples();
    otherSamples[4_600] = 0.75;
    fakeAudio(otherSamples);
    expect(await computeFingerprint()).not.toBe(otherCanvas);
  });

  it("comes from the canvas alone when the audio stack fails", async () => {
    fakeAudio("fails");
    fakeCanvas("data:image/png;base64,AAAA");
    await expect(computeFingerprint()).resolves.toBe(
      hash64(`audio:;canvas:${hash64("data:image/png;base64,AAAA")}`),
    );
  });

  it("comes from the audio alone when the canvas has no 2d context", async () => {
    fakeAudio(samples());
    fakeCanvas(null);
    await expect(computeFingerprint()).resolves.toBe(hash64(`audio:${250 * 0.75};canvas:`));
  });

  it("comes from the canvas alone when the browser has no OfflineAudioContext", async () => {
    vi.stubGlobal("OfflineAudioContext", undefined);
    fakeCanvas("data:image/png;base64,AAAA");
    await expect(computeFingerprint()).resolves.toMatch(/^[0-9a-f]{16}$/);
  });

  it("rejects with the spec's message only when both parts fail", async () => {
    fakeAudio("fails");
    fakeCanvas(null);
    await expect(computeFingerprint()).rejects.toThrow(
      new Error("Failed to generate the finger print of this browser"),
    );
    expect(fingerprintFailure).toBe("Failed to generate the finger print of this browser");
  });
});

describe("hash64", () => {
  it("is stable, 16 hex digits, and differs for nearby inputs", () => {
    expect(hash64("")).toBe("cbf29ce4811c9dc5");
    expect(hash64("abc")).toBe(hash64("abc"));
    expect(hash64("abc")).not.toBe(hash64("abd"));
    expect(hash64("ab")).not.toBe(hash64("ba"));
    expect(hash64("x".repeat(50_000))).toMatch(/^[0-9a-f]{16}$/);
  });
});

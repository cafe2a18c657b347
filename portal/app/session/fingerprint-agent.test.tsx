import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sessionEntropyName } from "../http/session-entropy.server.ts";
import en from "../i18n/en.json";
import { createTranslator } from "../i18n/translator.ts";

const computeFingerprint = vi.hoisted(() => vi.fn<() => Promise<string>>());
vi.mock("./fingerprint.ts", () => ({ computeFingerprint }));

const revalidateMs = 900_000;

/** A computation the test finishes when it wants, to see the placeholder in between. */
function pending() {
  let resolve: (value: string) => void = () => {};
  let reject: (error: Error) => void = () => {};
  computeFingerprint.mockImplementationOnce(
    () =>
      new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      }),
  );
  return { resolve: (value: string) => resolve(value), reject: (error: Error) => reject(error) };
}

/** The agent's state lives in its module (one per page), so each test loads a fresh copy. */
async function renderAgent() {
  vi.resetModules();
  const { default: FingerprintAgent } = await import("./fingerprint-agent.tsx");
  const { entropyCookieName } = await import("./use-fingerprint.ts");
  const { TranslatorProvider } = await import("../i18n/translator-context.tsx");
  render(
    <TranslatorProvider translator={createTranslator("en", en)}>
      <FingerprintAgent revalidateMs={revalidateMs} />
      <button type="button">Save</button>
      <a href="#top">Top</a>
      <p>Plain text</p>
    </TranslatorProvider>,
  );
  return { entropyCookieName };
}

/** Finishes a computation and lets the agent react to it. */
async function settle(finish: () => void): Promise<void> {
  await act(async () => {
    finish();
    await Promise.resolve();
  });
}

function entropyCookie(): string | undefined {
  return document.cookie
    .split("; ")
    .find((pair) => pair.startsWith("x-session-entropy="))
    ?.slice("x-session-entropy=".length);
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2025-01-01T10:00:00Z"));
});

afterEach(() => {
  document.cookie = "x-session-entropy=; Path=/; Max-Age=0";
  computeFingerprint.mockReset();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the fingerprint agent", () => {
  it("shows a placeholder while computing, then keeps the value in the cookie", async () => {
    const computation = pending();
    const { entropyCookieName } = await renderAgent();
    expect(entropyCookieName).toBe(sessionEntropyName);
    expect(await screen.findByRole("status")).toHaveTextContent("Checking this device…");
    expect(entropyCookie()).toBeUndefined();

    await settle(() => computation.resolve("0123456789abcdef"));
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
    expect(entropyCookie()).toBe("0123456789abcdef");
    expect(computeFingerprint).toHaveBeenCalledTimes(1);
  });

  it("recomputes on the first click on a button or link once the value is 15 minutes old", async () => {
    const user = userEvent.setup();
    const first = pending();
    await renderAgent();
    await settle(() => first.resolve("aaaaaaaaaaaaaaaa"));

    vi.setSystemTime(Date.now() + revalidateMs - 1);
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(computeFingerprint).toHaveBeenCalledTimes(1);

    vi.setSystemTime(Date.now() + 1);
    await user.click(screen.getByText("Plain text"));
    expect(computeFingerprint).toHaveBeenCalledTimes(1);

    const second = pending();
    await user.click(screen.getByRole("link", { name: "Top" }));
    expect(computeFingerprint).toHaveBeenCalledTimes(2);
    expect(screen.getByRole("status")).toHaveTextContent("Checking this device…");
    // Further clicks while it runs, or right after, start nothing new.
    await user.click(screen.getByRole("button", { name: "Save" }));
    await settle(() => second.resolve("bbbbbbbbbbbbbbbb"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(computeFingerprint).toHaveBeenCalledTimes(2);
    expect(entropyCookie()).toBe("bbbbbbbbbbbbbbbb");
  });

  it("only logs a failure: the cookie stays as it was and requests go without it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const computation = pending();
    await renderAgent();
    const failure = new Error("Failed to generate the finger print of this browser");
    await settle(() => computation.reject(failure));
    expect(warn).toHaveBeenCalledWith(failure);
    expect(entropyCookie()).toBeUndefined();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });
});

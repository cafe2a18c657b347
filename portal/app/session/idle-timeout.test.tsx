import { act, fireEvent, render, screen, within } from "@testing-library/react";
import type { ReactNode } from "react";
import { createMocks } from "react-idle-timer";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import en from "../i18n/en.json";
import es from "../i18n/es.json";
import type { Locale } from "../i18n/locales.ts";
import { createTranslator } from "../i18n/translator.ts";
import { TranslatorProvider } from "../i18n/translator-context.tsx";
import IdleTimeout, { idleTimerOptions } from "./idle-timeout.tsx";
import { leavePage, postSignOut } from "./leave-page.ts";
import type { SessionSettings } from "./session-settings.ts";

vi.mock("./leave-page.ts", () => ({ leavePage: vi.fn(), postSignOut: vi.fn() }));

/**
 * Tabs talk over BroadcastChannel; in this one document a stand-in delivers each message to the
 * channel's other instances as a microtask, so tests need no real time to pass. It is installed
 * before react-idle-timer loads, which reads the constructor then.
 */
vi.hoisted(() => {
  type Listener = (event: { data: unknown }) => void;
  const channels = new Map<string, Set<LocalBroadcastChannel>>();
  class LocalBroadcastChannel {
    private readonly listeners = new Set<Listener>();
    readonly name: string;
    constructor(name: string) {
      this.name = name;
      const members = channels.get(name) ?? new Set<LocalBroadcastChannel>();
      members.add(this);
      channels.set(name, members);
    }
    postMessage(data: unknown): void {
      for (const other of channels.get(this.name) ?? []) {
        if (other === this) continue;
        const copy = structuredClone(data);
        queueMicrotask(() => {
          for (const listener of other.listeners) listener({ data: copy });
        });
      }
    }
    addEventListener(_type: "message", listener: Listener): void {
      this.listeners.add(listener);
    }
    removeEventListener(_type: "message", listener: Listener): void {
      this.listeners.delete(listener);
    }
    close(): void {
      channels.get(this.name)?.delete(this);
    }
  }
  globalThis.BroadcastChannel = LocalBroadcastChannel as unknown as typeof BroadcastChannel;
});

/** Timeout 10 s, prompt 4 s before it: the prompt opens after 6 s without activity. */
const settings: SessionSettings = {
  idleTimeoutMs: 10_000,
  promptBeforeIdleMs: 4_000,
  fingerprintRevalidateMs: 900_000,
};

function inPortal(ui: ReactNode, locale: Locale = "en") {
  return (
    <TranslatorProvider translator={createTranslator(locale, locale === "en" ? en : es)}>
      {ui}
    </TranslatorProvider>
  );
}

function renderTimeout(options: { settings?: SessionSettings; locale?: Locale } = {}) {
  const onEnded = vi.fn();
  render(
    inPortal(
      <IdleTimeout settings={options.settings ?? settings} onEnded={onEnded} />,
      options.locale,
    ),
  );
  return { onEnded };
}

/** Moves the clock on, letting React render what the timers did. */
async function wait(ms: number): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

const prompt = () => screen.queryByRole("dialog", { name: "Are you still there?" });
const expired = () => screen.queryByRole("dialog", { name: "Your session has expired" });

type Logout = { requests: string[]; finish: () => void };

/** The identity proxy's logout answers; `hold` keeps the revocation pending until finish(). */
function stubLogout(options: { hold?: boolean } = {}): Logout {
  let finish = () => {};
  const held = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const requests: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init?: RequestInit) => {
      requests.push(`${init?.method ?? "GET"} ${input}`);
      expect(new Headers(init?.headers).get("accept")).toBe("application/json");
      if (input === "/api/kratos/self-service/logout/browser") {
        return Response.json({ logout_url: "http://x/logout?token=t1", logout_token: "t 1" });
      }
      if (options.hold) await held;
      return new Response(null, { status: 204 });
    }),
  );
  return { requests, finish };
}

beforeEach(() => {
  vi.useFakeTimers();
  // react-idle-timer binds its timer functions when loaded; point them at the fake ones.
  createMocks();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(leavePage).mockReset();
  vi.mocked(postSignOut).mockReset();
});

describe("the idle timer's settings", () => {
  it("follow spec §9: prompt before idle, 500 ms throttle, shared across tabs, synced every 200 ms, stopped at idle", () => {
    expect(idleTimerOptions(settings)).toEqual({
      timeout: 10_000,
      promptBeforeIdle: 4_000,
      throttle: 500,
      eventsThrottle: 500,
      crossTab: true,
      name: "portal-idle-timeout",
      syncTimers: 200,
      stopOnIdle: true,
    });
  });
});

describe("the timeout prompt", () => {
  it("opens promptBeforeIdle before the timeout with an mm:ss countdown ticking every second", async () => {
    renderTimeout();
    await wait(5_999);
    expect(prompt()).not.toBeInTheDocument();
    await wait(1);
    const dialog = prompt();
    expect(dialog).toBeInTheDocument();
    expect(dialog).toHaveAccessibleDescription(
      "For your security, we will sign you out when the time runs out unless you choose to continue.",
    );
    expect(within(dialog!).getByRole("timer")).toHaveTextContent("00:04");
    await wait(1_000);
    expect(within(dialog!).getByRole("timer")).toHaveTextContent("00:03");
    await wait(1_000);
    expect(within(dialog!).getByRole("timer")).toHaveTextContent("00:02");
  });

  it("is postponed by activity, and activity within 500 ms of the last counts once", async () => {
    renderTimeout();
    await wait(3_000);
    fireEvent.mouseMove(document);
    await wait(400);
    // Throttled away: had it counted, the prompt would wait until 3,400 + 6,000.
    fireEvent.keyDown(document);
    await wait(5_599);
    expect(prompt()).not.toBeInTheDocument();
    await wait(1);
    expect(prompt()).toBeInTheDocument();
  });

  it("stays open through activity: only Continue keeps the session", async () => {
    renderTimeout();
    await wait(6_000);
    fireEvent.mouseMove(document);
    fireEvent.keyDown(document);
    await wait(1_000);
    expect(prompt()).toBeInTheDocument();
    expect(within(prompt()!).getByRole("timer")).toHaveTextContent("00:03");
  });

  it("closes on Continue and gives the full timeout again", async () => {
    const { onEnded } = renderTimeout();
    await wait(6_000);
    fireEvent.click(screen.getByRole("button", { name: "Continue" }));
    await wait(0);
    expect(prompt()).not.toBeInTheDocument();
    await wait(5_999);
    expect(prompt()).not.toBeInTheDocument();
    await wait(1);
    expect(within(prompt()!).getByRole("timer")).toHaveTextContent("00:04");
    expect(onEnded).not.toHaveBeenCalled();
  });

  it("continues when the dialog is closed another way (Escape, a click beside it)", async () => {
    renderTimeout();
    await wait(6_000);
    fireEvent(prompt()!, new Event("close"));
    await wait(0);
    expect(prompt()).not.toBeInTheDocument();
    await wait(5_999);
    expect(prompt()).not.toBeInTheDocument();
  });

  it("signs out through the logout route of the page's language", async () => {
    renderTimeout({ locale: "es" });
    await wait(6_000);
    const dialog = screen.getByRole("dialog", { name: "¿Sigue ahí?" });
    fireEvent.click(within(dialog).getByRole("button", { name: "Cerrar sesión" }));
    // A POST of the sign-out form: a GET of /logout only asks first.
    expect(postSignOut).toHaveBeenCalledWith("/es/logout");
    expect(leavePage).not.toHaveBeenCalled();
  });

  it("announces the time left politely: after opening, then only at 30-second marks", async () => {
    renderTimeout({
      settings: { idleTimeoutMs: 400_000, promptBeforeIdleMs: 300_000, fingerprintRevalidateMs: 1 },
    });
    await wait(100_000);
    const live = within(prompt()!).getByRole("status");
    expect(live).toHaveTextContent(/^$/);
    await wait(1_000);
    expect(live).toHaveTextContent("You will be signed out in 4 minutes and 59 seconds.");
    await wait(28_000);
    expect(within(prompt()!).getByRole("timer")).toHaveTextContent("04:31");
    expect(live).toHaveTextContent("You will be signed out in 4 minutes and 59 seconds.");
    await wait(1_000);
    expect(live).toHaveTextContent("You will be signed out in 4 minutes and 30 seconds.");
    await wait(210_000);
    expect(live).toHaveTextContent("You will be signed out in 1 minute.");
    await wait(29_000);
    expect(live).toHaveTextContent("You will be signed out in 1 minute.");
    await wait(1_000);
    expect(live).toHaveTextContent("You will be signed out in 30 seconds.");
  });
});

describe("the end of the session", () => {
  it("revokes the session at the timeout and says so; OK goes to sign in", async () => {
    const logout = stubLogout();
    const { onEnded } = renderTimeout();
    await wait(9_999);
    expect(expired()).not.toBeInTheDocument();
    await wait(1);
    expect(prompt()).not.toBeInTheDocument();
    expect(expired()).toHaveAccessibleDescription(
      "For your security, we signed you out because there was no activity. Sign in again to continue.",
    );
    expect(onEnded).toHaveBeenCalledTimes(1);
    expect(logout.requests).toEqual([
      "GET /api/kratos/self-service/logout/browser",
      "GET /api/kratos/self-service/logout?token=t%201",
    ]);

    fireEvent.click(screen.getByRole("button", { name: "OK" }));
    await wait(0);
    expect(leavePage).toHaveBeenCalledWith("/en/login");
  });

  it("goes to sign in only once the revocation has finished", async () => {
    const logout = stubLogout({ hold: true });
    renderTimeout();
    await wait(10_000);
    fireEvent.click(screen.getByRole("button", { name: "OK" }));
    await wait(1_000);
    expect(leavePage).not.toHaveBeenCalled();
    logout.finish();
    await wait(0);
    expect(leavePage).toHaveBeenCalledWith("/en/login");
  });

  it("stays expired: activity afterwards changes nothing", async () => {
    stubLogout();
    renderTimeout();
    await wait(10_000);
    fireEvent.mouseMove(document);
    await wait(20_000);
    expect(expired()).toBeInTheDocument();
    expect(prompt()).not.toBeInTheDocument();
  });

  it("still shows the overlay when the revocation fails", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubGlobal("fetch", vi.fn().mockRejectedValue(new TypeError("offline")));
    renderTimeout();
    await wait(10_000);
    expect(expired()).toBeInTheDocument();
    expect(warn).toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "OK" }));
    await wait(0);
    expect(leavePage).toHaveBeenCalledWith("/en/login");
    warn.mockRestore();
  });
});

describe("two tabs", () => {
  function renderTwoTabs() {
    render(
      inPortal(
        <>
          <section aria-label="first tab">
            <IdleTimeout settings={settings} onEnded={() => {}} />
          </section>
          <section aria-label="second tab">
            <IdleTimeout settings={settings} onEnded={() => {}} />
          </section>
        </>,
      ),
    );
    return () => screen.queryAllByRole("dialog", { name: "Are you still there?" });
  }

  it("Continue in one closes the prompt in the other", async () => {
    const prompts = renderTwoTabs();
    await wait(6_000);
    expect(prompts()).toHaveLength(2);
    fireEvent.click(within(prompts()[0]!).getByRole("button", { name: "Continue" }));
    await wait(0);
    expect(prompts()).toHaveLength(0);
    // Both start over: the next prompt, in both, comes a whole 6 s later.
    await wait(5_999);
    expect(prompts()).toHaveLength(0);
    await wait(1);
    expect(prompts()).toHaveLength(2);
  });

  it("signing out in one tells the other that the session has ended", async () => {
    const prompts = renderTwoTabs();
    await wait(6_000);
    fireEvent.click(within(prompts()[0]!).getByRole("button", { name: "Sign out" }));
    await wait(0);
    expect(postSignOut).toHaveBeenCalledExactlyOnceWith("/en/logout");
    expect(
      screen.getByRole("dialog", { name: "You have been signed out" }),
    ).toHaveAccessibleDescription("You signed out in another window. Sign in again to continue.");
  });
});

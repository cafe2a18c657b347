import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Link, Outlet, createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "../i18n/en.json";
import { createTranslator } from "../i18n/translator.ts";
import { TranslatorProvider } from "../i18n/translator-context.tsx";
import type { IdleTimeoutProps } from "./idle-timeout.tsx";
import { SessionLifecycle, whoamiUrl } from "./session-lifecycle.tsx";

/**
 * Whether the page asked for the idle-timeout module. A module loads once per test file, so the
 * tests that expect it never loaded come first.
 */
const loaded = vi.hoisted(() => ({ idleTimeout: false }));

vi.mock("./idle-timeout.tsx", () => {
  loaded.idleTimeout = true;
  return {
    default: (props: IdleTimeoutProps) => (
      <section aria-label="idle timeout">
        <button type="button" onClick={props.onEnded}>
          end the session
        </button>
      </section>
    ),
  };
});
vi.mock("./fingerprint-agent.tsx", () => ({ default: () => null }));

const settings = { idleTimeoutMs: 10_000, promptBeforeIdleMs: 4_000, fingerprintRevalidateMs: 1 };

/** whoami answers in turn (the last one repeats); `null` is a network failure. */
function stubWhoami(...statuses: (number | null)[]) {
  const calls: { url: string; accept: string | null }[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn((url: string, init?: RequestInit) => {
      calls.push({ url, accept: new Headers(init?.headers).get("accept") });
      const status = statuses[Math.min(calls.length, statuses.length) - 1];
      if (status === null || status === undefined) return Promise.reject(new TypeError("offline"));
      return Promise.resolve(new Response("{}", { status }));
    }),
  );
  return calls;
}

function renderPortal() {
  const Layout = () => (
    <TranslatorProvider translator={createTranslator("en", en)}>
      <nav>
        <Link to="/en/settings">Settings</Link>
        <Link to="/en/settings?flow=2">Same page, other query</Link>
        <Link to="/en/verification">Verification</Link>
      </nav>
      <Outlet />
      <SessionLifecycle settings={settings} />
    </TranslatorProvider>
  );
  const Stub = createRoutesStub([
    {
      Component: Layout,
      children: [
        { path: "/en/settings", Component: () => <h1>Settings</h1> },
        { path: "/en/verification", Component: () => <h1>Verification</h1> },
      ],
    },
  ]);
  render(<Stub initialEntries={["/en/settings"]} />);
}

const idleTimeout = () => screen.queryByRole("region", { name: "idle timeout" });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the session lifecycle", () => {
  it("asks the identity proxy's whoami and loads nothing more for a visitor without a session", async () => {
    const calls = stubWhoami(401);
    renderPortal();
    await waitFor(() => expect(calls).toEqual([{ url: whoamiUrl, accept: "application/json" }]));
    expect(whoamiUrl).toBe("/api/kratos/sessions/whoami");
    await screen.findByRole("heading", { name: "Settings" });
    expect(idleTimeout()).not.toBeInTheDocument();
    expect(loaded.idleTimeout).toBe(false);
  });

  it("treats a failed check as no session", async () => {
    const calls = stubWhoami(null);
    renderPortal();
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(idleTimeout()).not.toBeInTheDocument();
    expect(loaded.idleTimeout).toBe(false);
  });

  it("runs the idle timeout while a session exists, checking again on every path change", async () => {
    const user = userEvent.setup();
    const calls = stubWhoami(200, 200, 401);
    renderPortal();
    expect(await screen.findByRole("region", { name: "idle timeout" })).toBeInTheDocument();
    expect(loaded.idleTimeout).toBe(true);

    // Only the query changes: the same path, no new check.
    await user.click(screen.getByRole("link", { name: "Same page, other query" }));
    await user.click(screen.getByRole("link", { name: "Verification" }));
    await screen.findByRole("heading", { name: "Verification" });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(idleTimeout()).toBeInTheDocument();

    // Signed out elsewhere meanwhile: the next check finds no session and the timer goes.
    await user.click(screen.getByRole("link", { name: "Settings" }));
    await waitFor(() => expect(calls).toHaveLength(3));
    await waitFor(() => expect(idleTimeout()).not.toBeInTheDocument());
  });

  it("keeps the overlay of a session the timeout ended, whatever later checks say", async () => {
    const user = userEvent.setup();
    const calls = stubWhoami(200, 401);
    renderPortal();
    await user.click(await screen.findByRole("button", { name: "end the session" }));
    await user.click(screen.getByRole("link", { name: "Verification" }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(idleTimeout()).toBeInTheDocument();
  });
});

describe("the session lifecycle under the language layout", () => {
  /** The layout's loader says whether the server found a session: none on the sign-in page. */
  function renderUnderLayout() {
    const Stub = createRoutesStub([
      {
        id: "routes/locale-layout",
        loader: ({ request }) => ({ signedIn: !new URL(request.url).pathname.endsWith("/login") }),
        // As routes/locale-layout.tsx: asked again on every move to another page.
        shouldRevalidate: ({ currentUrl, nextUrl }) => currentUrl.pathname !== nextUrl.pathname,
        HydrateFallback: () => null,
        Component: () => (
          <TranslatorProvider translator={createTranslator("en", en)}>
            <Link to="/en/settings">Settings</Link>
            <Outlet />
            <SessionLifecycle settings={settings} />
          </TranslatorProvider>
        ),
        children: [
          { path: "/en/login", Component: () => <h1>Sign in</h1> },
          { path: "/en/settings", Component: () => <h1>Settings</h1> },
        ],
      },
    ]);
    render(<Stub initialEntries={["/en/login"]} />);
  }

  it("does not ask whoami where the server found no session, and asks once it found one", async () => {
    const user = userEvent.setup();
    const calls = stubWhoami(200);
    renderUnderLayout();
    await screen.findByRole("heading", { name: "Sign in" });
    await user.click(screen.getByRole("link", { name: "Settings" }));
    await screen.findByRole("heading", { name: "Settings" });
    expect(await screen.findByRole("region", { name: "idle timeout" })).toBeInTheDocument();
    // One call, for the settings page: none for the sign-in page before it.
    expect(calls).toHaveLength(1);
  });
});

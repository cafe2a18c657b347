import { SettingsFlowFromJSON } from "@portal/client";
import type { SettingsFlow } from "@portal/client";
import { act, fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import { describeListedDevices } from "./devices/device-info.server.ts";
import type { SessionsView } from "./sessions.ts";
import Settings from "./route.tsx";

afterEach(() => {
  vi.useRealTimers();
});

type JsonNode = Record<string, unknown>;
const csrf = "AAAAAAA/AAAAAA/2+AAAAAAAA==";

function flowFrom(file: string, extra: JsonNode[] = [], state?: string): SettingsFlow {
  const json = vendorJson(file) as { ui: { nodes: JsonNode[] } };
  return SettingsFlowFromJSON({
    ...json,
    id: "s1",
    ...(state ? { state } : {}),
    ui: { ...json.ui, nodes: [...json.ui.nodes, ...extra] },
  });
}

function submitNode(group: string, name: string, value: string, label: JsonNode): JsonNode {
  return {
    type: "input",
    group,
    attributes: { name, type: "submit", value, disabled: false, node_type: "input" },
    messages: [],
    meta: { label },
  };
}

const chrome =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const iphone =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1";

/** The identity service's trusted-devices nodes (identity-server README), two devices. */
function trustedDeviceNodes(changes: Record<string, Record<string, unknown>> = {}): JsonNode[] {
  const data = JSON.stringify({
    d1: {
      user_agent: chrome,
      ip_address: "203.0.113.7",
      created_at: "2026-06-05T15:04:00Z",
      expires_at: "2026-07-05T15:04:00Z",
      fingerprint: "fp-this",
      ...changes.d1,
    },
    d2: {
      user_agent: iphone,
      ip_address: "198.51.100.20",
      created_at: "2026-06-06T09:00:00Z",
      expires_at: "2026-07-06T09:00:00Z",
      fingerprint: "",
      ...changes.d2,
    },
  });
  const untrust = (id: string) =>
    submitNode("totp", "totp_device_untrust", id, {
      id: 9010006,
      text: "Stop trusting this device",
      type: "info",
      context: { device_id: id },
    });
  return [
    {
      type: "text",
      group: "totp",
      attributes: {
        text: { id: 9010004, text: data, type: "info", context: { data } },
        id: "totp-trusted-devices",
        data,
        node_type: "text",
      },
      messages: [],
      meta: { label: { id: 9010005, text: "Trusted devices", type: "info" } },
    },
    untrust("d1"),
    untrust("d2"),
  ];
}

const codeNodes: JsonNode[] = [
  submitNode("code", "code_mfa_enable", "jane@example.gov", {
    id: 9010002,
    text: "Use codes sent to jane@example.gov as a second factor",
    type: "info",
    context: { address: "jane@example.gov", channel: "email" },
  }),
];

function renderSettings(
  flow: SettingsFlow,
  options: {
    action?: ActionFunction;
    locale?: Locale;
    fingerprint?: string;
    sessions?: SessionsView;
  } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/settings",
    url: `/${locale}/settings?flow=s1`,
    Component: Settings,
    loader: () => ({
      flow,
      notice: undefined,
      sessions: options.sessions,
      fingerprint: options.fingerprint,
      // As the settings loader describes them (the browser has no user-agent parser).
      devices: describeListedDevices(options.sessions, flow.ui.nodes),
    }),
    action: options.action ?? (() => null),
    locale,
  });
}

function recordPosts(answer: unknown = null) {
  const posted: Record<string, string>[] = [];
  const action: ActionFunction = async ({ request }) => {
    posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
    return answer;
  };
  return { posted, action };
}

describe("the second-factor cards", () => {
  it("show only for groups the flow has", async () => {
    renderSettings(flowFrom("elements.settings.password.changed.json"));

    expect(await screen.findByRole("region", { name: "Change password" })).toBeInTheDocument();
    for (const name of [
      "Authenticator app",
      "Backup codes",
      "Codes by email or text message",
      "Manage trusted devices",
      "Active sessions",
    ]) {
      expect(screen.queryByRole("region", { name })).toBeNull();
    }
  });

  it("set up the authenticator app: QR code, the key as text, the confirming code", async () => {
    renderSettings(flowFrom("elements.settings.totp.setup.json"));

    const card = await screen.findByRole("region", { name: "Authenticator app" });
    expect(within(card).getByRole("img", { name: "Authenticator app QR code" })).toHaveAttribute(
      "src",
      expect.stringMatching(/^data:image\/png;base64,/),
    );
    // The key, exactly as the app needs it, in its own element (e2e: #totp-secret-key).
    const key = card.querySelector("#totp-secret-key");
    expect(key?.textContent).toMatch(/^[A-Z2-7]+$/);
    expect(within(card).getByText(/Use it if you can not scan the QR code/)).toBeVisible();
    expect(within(card).getByLabelText("Verify code")).toHaveAttribute("name", "totp_code");
    expect(within(card).getByRole("button", { name: "Save" })).toHaveAttribute("value", "totp");
    expect(screen.queryByRole("region", { name: "Manage trusted devices" })).toBeNull();
  });

  it("copy the key and say 'Copied' politely for 1.5 seconds", async () => {
    userEvent.setup(); // a clipboard to copy to
    renderSettings(flowFrom("elements.settings.totp.setup.json"));
    const card = await screen.findByRole("region", { name: "Authenticator app" });
    const key = card.querySelector("#totp-secret-key")?.textContent ?? "";
    const status = within(card).getByRole("status");
    expect(status).toBeEmptyDOMElement();
    // Only the confirmation's timer is faked; the page was found with real ones.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });

    fireEvent.click(within(card).getByRole("button", { name: "Copy key" }));
    await act(async () => {
      await Promise.resolve();
    });

    expect(await navigator.clipboard.readText()).toBe(key);
    expect(status).toHaveTextContent("Copied");
    act(() => {
      vi.advanceTimersByTime(1499);
    });
    expect(status).toHaveTextContent("Copied");
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(status).toBeEmptyDOMElement();
  });

  it("offer to unlink a linked app, ask first, and post it once confirmed", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(flowFrom("elements.settings.totp.linked.json"), { action });

    const card = await screen.findByRole("region", { name: "Authenticator app" });
    expect(
      within(card).getByText("An authenticator app is set up for your account."),
    ).toBeVisible();
    await user.click(within(card).getByRole("button", { name: "Remove authenticator app" }));

    // Nothing is posted yet: the card asks, with focus on the question.
    const asking = await within(card).findByRole("group", { name: "Are you sure?" });
    // Focus moves in an effect after the question renders: awaited, not assumed at once.
    const question = within(asking).getByRole("heading", { name: "Are you sure?" });
    await waitFor(() => expect(question).toHaveFocus());
    expect(posted).toHaveLength(0);
    await user.click(within(asking).getByRole("link", { name: "Cancel" }));
    // Cancel is a navigation: until it lands, the question (whose confirm button has the same
    // name as the card's) is still shown, and clicking that one would post at once.
    await waitFor(() => expect(within(card).queryByRole("group")).toBeNull());
    await user.click(within(card).getByRole("button", { name: "Remove authenticator app" }));
    await user.click(
      within(await within(card).findByRole("group", { name: "Are you sure?" })).getByRole(
        "button",
        { name: "Remove authenticator app" },
      ),
    );

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      csrf_token: csrf,
      totp_unlink: "true",
      confirm_action: "totp_unlink",
    });
  });

  it("show new backup codes once, with a download of exactly those codes", async () => {
    renderSettings(flowFrom("elements.settings.lookup-secret.generated.json"));

    const card = await screen.findByRole("region", { name: "Backup codes" });
    expect(within(card).getByText(/shown only this once/)).toBeVisible();
    const list = within(card).getByRole("list", { name: /back up recovery codes/ });
    expect(within(list).getAllByRole("listitem")).toHaveLength(12);

    const download = within(card).getByRole("link", { name: "Download codes (.txt)" });
    expect(download).toHaveAttribute("download", "backup-codes.txt");
    const href = download.getAttribute("href") ?? "";
    expect(href.startsWith("data:text/plain;charset=utf-8,")).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(",") + 1))).toBe(
      [
        "Agency Sign-In backup codes",
        "Each code works only once. Keep this file somewhere safe.",
        "",
        ...Array.from({ length: 12 }, () => "xxxxxxxx"),
        "",
      ].join("\n"),
    );
    expect(within(card).getByRole("button", { name: "Copy codes" })).toBeInTheDocument();
    expect(
      within(card).getByRole("button", { name: "Confirm backup recovery codes" }),
    ).toBeInTheDocument();
  });

  it("show revealed codes masked, with no download, and offer new ones", async () => {
    const revealed = flowFrom("elements.settings.lookup-secret.confirmed.json", [
      {
        type: "text",
        group: "lookup_secret",
        attributes: {
          id: "lookup_secret_codes",
          node_type: "text",
          text: {
            id: 1050015,
            text: "********, used",
            type: "info",
            context: {
              secrets: [
                { id: 1050009, text: "********", type: "info", context: { secret: "********" } },
                {
                  id: 1050014,
                  text: "Secret was used at 2026-06-05 15:04:00 +0000 UTC",
                  type: "info",
                  context: { used_at: "2026-06-05T15:04:00Z", used_at_unix: 1780671840 },
                },
              ],
            },
          },
        },
        messages: [],
        meta: {
          label: { id: 1050010, text: "These are your back up recovery codes.", type: "info" },
        },
      },
    ]);
    renderSettings(revealed);

    const card = await screen.findByRole("region", { name: "Backup codes" });
    expect(within(card).getByText(/cannot be shown again/)).toBeVisible();
    const items = within(card).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Unused code (hidden)");
    expect(items[1]).toHaveTextContent(/^Used June 5, 2026 at \d+:04 [AP]M/);
    expect(within(card).queryByRole("link", { name: "Download codes (.txt)" })).toBeNull();
    expect(within(card).getByRole("button", { name: "Disable this method" })).toBeInTheDocument();
  });

  it("turn codes to a verified address on as a fallback", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(flowFrom("elements.settings.password.changed.json", codeNodes), { action });

    const card = await screen.findByRole("region", { name: "Codes by email or text message" });
    await user.click(
      within(card).getByRole("button", {
        name: "Use codes sent to jane@example.gov as a second factor",
      }),
    );

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ csrf_token: csrf, code_mfa_enable: "jane@example.gov" });
  });
});

describe("the trusted-devices list", () => {
  const linkedWithDevices = () =>
    flowFrom("elements.settings.totp.linked.json", trustedDeviceNodes(), "show_form");

  it("describes each device and marks this one by its fingerprint", async () => {
    renderSettings(linkedWithDevices(), { fingerprint: "fp-this" });

    const card = await screen.findByRole("region", { name: "Manage trusted devices" });
    const list = within(card).getByRole("list", { name: "Trusted devices" });
    expect(list).toHaveClass("max-h-[635px]", "overflow-y-auto");
    const [first, second] = within(list).getAllByRole("listitem");
    if (!first || !second) throw new Error("two devices expected");

    expect(within(first).getByRole("img", { name: "Computer" })).toBeInTheDocument();
    expect(first).toHaveTextContent("Chrome 126.0.0.0 on Windows 10");
    expect(within(first).getByText("This device")).toBeVisible();
    expect(first).toHaveTextContent("IP address: 203.0.113.7");
    expect(first).toHaveTextContent(/Trusted since June 5, 2026 at \d+:04 [AP]M/);

    expect(within(second).getByRole("img", { name: "Mobile phone" })).toBeInTheDocument();
    expect(second).toHaveTextContent("Mobile Safari 17.4 on iOS 17.4");
    expect(within(second).queryByText("This device")).toBeNull();
  });

  it("marks the device whose own cookie the identity service saw, not another with the same fingerprint", async () => {
    // Two browsers with one fingerprint, both trusted: this one holds d2's cookie.
    const twins = trustedDeviceNodes({
      d1: { current: false },
      d2: { fingerprint: "fp-this", current: true },
    });
    renderSettings(flowFrom("elements.settings.totp.linked.json", twins, "show_form"), {
      fingerprint: "fp-this",
    });

    const card = await screen.findByRole("region", { name: "Manage trusted devices" });
    const [first, second] = within(card).getAllByRole("listitem");
    if (!first || !second) throw new Error("two devices expected");
    expect(within(first).queryByText("This device")).toBeNull();
    expect(within(second).getByText("This device")).toBeVisible();
  });

  it("marks no device without this browser's fingerprint", async () => {
    renderSettings(linkedWithDevices());

    const card = await screen.findByRole("region", { name: "Manage trusted devices" });
    expect(within(card).queryByText("This device")).toBeNull();
  });

  it("stops trusting a device by its id, the button described by its device", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderSettings(linkedWithDevices(), { action });

    const card = await screen.findByRole("region", { name: "Manage trusted devices" });
    const buttons = within(card).getAllByRole("button", { name: "Stop trusting this device" });
    expect(buttons[1]).toHaveAccessibleDescription(/Mobile Safari 17.4 on iOS 17.4/);
    await user.click(buttons[1] as HTMLElement);

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({ csrf_token: csrf, totp_device_untrust: "d2" });
  });

  it("speaks Spanish, dates included", async () => {
    renderSettings(linkedWithDevices(), { locale: "es", fingerprint: "fp-this" });

    const card = await screen.findByRole("region", {
      name: "Administrar los dispositivos de confianza",
    });
    expect(within(card).getByText("Este dispositivo")).toBeVisible();
    expect(card).toHaveTextContent(/De confianza desde el 5 de junio de 2026/);
    expect(
      within(card).getAllByRole("button", { name: "Dejar de confiar en este dispositivo" }),
    ).toHaveLength(2);
  });
});

describe("the active sessions card", () => {
  const sessions: SessionsView = {
    current: {
      id: "current",
      userAgent: chrome,
      ipAddress: "203.0.113.7",
      signedInAt: "2026-06-05T15:04:00Z",
    },
    others: [
      { id: "other-1", userAgent: iphone, ipAddress: "198.51.100.20", signedInAt: undefined },
    ],
  };

  it("lists this session and the others, signing one out by a hidden intent", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts({ sessions: { kind: "revoked" } });
    renderSettings(flowFrom("elements.settings.password.changed.json"), { action, sessions });

    const card = await screen.findByRole("region", { name: "Active sessions" });
    const [current, other] = within(card).getAllByRole("listitem");
    expect(current).toHaveTextContent("This session");
    expect(current).toHaveTextContent(/Signed in June 5, 2026/);
    expect(within(current as HTMLElement).queryByRole("button")).toBeNull();
    expect(other).toHaveTextContent("Mobile Safari 17.4 on iOS 17.4");

    await user.click(
      within(other as HTMLElement).getByRole("button", { name: "Sign out this session" }),
    );

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      csrf_token: csrf,
      intent: "revoke-session",
      session_id: "other-1",
    });
    expect(await within(card).findByRole("status")).toHaveTextContent(
      "The session was signed out.",
    );
  });

  it("signs out everywhere else and says how many", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts({ sessions: { kind: "revoked-others", count: 1 } });
    renderSettings(flowFrom("elements.settings.password.changed.json"), { action, sessions });

    await user.click(await screen.findByRole("button", { name: "Sign out everywhere else" }));
    const asking = await screen.findByRole("group", { name: "Are you sure?" });
    expect(asking).toHaveTextContent("Every other device where you are signed in (1)");
    expect(posted).toHaveLength(0);
    await user.click(within(asking).getByRole("button", { name: "Sign out everywhere else" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      csrf_token: csrf,
      intent: "revoke-other-sessions",
      confirm_action: "revoke_others",
    });
    expect(await screen.findByText("Other sessions signed out: 1.")).toBeVisible();
  });

  it("says when there is no other session", async () => {
    renderSettings(flowFrom("elements.settings.password.changed.json"), {
      sessions: { current: sessions.current, others: [] },
    });

    expect(await screen.findByText("You are not signed in anywhere else.")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Sign out everywhere else" })).toBeNull();
  });
});

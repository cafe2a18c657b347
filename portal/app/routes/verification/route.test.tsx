import { VerificationFlowFromJSON } from "@portal/client";
import type { VerificationFlow } from "@portal/client";
import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ActionFunction, LoaderFunctionArgs } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import type { Locale } from "../../i18n/locales.ts";
import Verification from "./route.tsx";
import type { ListedAddress } from "./verification-rules.ts";

const flows = {
  initial: VerificationFlowFromJSON(vendorJson("elements.verification.code.initial.json")),
  sent: VerificationFlowFromJSON(vendorJson("elements.verification.code.sent.json")),
  wrongCode: VerificationFlowFromJSON(vendorJson("elements.verification.code.wrong-code.json")),
};

const passed: VerificationFlow = {
  ...flows.initial,
  state: "passed_challenge",
  ui: {
    action: "http://localhost:3000/",
    method: "GET",
    nodes: [
      {
        type: "a",
        group: "code",
        attributes: {
          id: "continue",
          href: "http://localhost:3000/",
          title: { id: 1070009, text: "Continue", type: "info" },
          node_type: "a",
        },
        messages: [],
        meta: {},
      },
    ],
    messages: [
      { id: 1080002, text: "You successfully verified your email address.", type: "success" },
    ],
  },
};

/** The sent flow as after a text message: its message and resend address say so. */
const sentBySms: VerificationFlow = {
  ...flows.sent,
  ui: {
    ...flows.sent.ui,
    nodes: flows.sent.ui.nodes.map((node) =>
      node.attributes.node_type === "input" &&
      node.attributes.type === "submit" &&
      node.attributes.name === "email"
        ? { ...node, attributes: { ...node.attributes, value: "+12025550123" } }
        : node,
    ),
    messages: [
      {
        id: 1080004,
        text: "A text message containing a verification code has been sent.",
        type: "info",
      },
    ],
  },
};

/** A signed-in person with a verified email and an unverified phone number. */
const withPhone: ListedAddress[] = [
  { value: "jane@example.gov", channel: "email", verified: true },
  { value: "+12025550123", channel: "sms", verified: false },
];

function renderVerification(
  flow: VerificationFlow,
  options: {
    action?: ActionFunction;
    locale?: Locale;
    signedIn?: boolean;
    addresses?: ListedAddress[];
    continueHref?: string;
    query?: string;
  } = {},
) {
  const locale = options.locale ?? "en";
  return renderRoute({
    path: "/:lang/verification",
    url: `/${locale}/verification?flow=v1${options.query ?? ""}`,
    Component: Verification,
    loader: ({ request }: LoaderFunctionArgs) => {
      const channel = new URL(request.url).searchParams.get("channel");
      return {
        flow: { ...flow, id: "v1" },
        notice: undefined,
        channel: channel === "sms" || channel === "email" ? channel : undefined,
        continueHref: options.continueHref,
        signedIn: options.signedIn ?? options.addresses !== undefined,
        addresses: options.addresses ?? [],
      };
    },
    action: options.action ?? (() => null),
    locale,
  });
}

function recordPosts() {
  const posted: Record<string, string>[] = [];
  const action: ActionFunction = async ({ request }) => {
    posted.push(Object.fromEntries(await request.formData()) as Record<string, string>);
    return null;
  };
  return { posted, action };
}

describe("the verification page", () => {
  it("asks for the e-mail to verify and offers the phone channel and a way back", async () => {
    renderVerification(flows.initial);

    expect(
      await screen.findByRole("heading", { level: 1, name: "Verify your account" }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("inputmode", "email");
    expect(screen.getByRole("button", { name: "Continue" })).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Use phone instead" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Go back" })).toHaveAttribute("href", "/en/login");
  });

  it("switches to a phone number field and back (a real GET submission)", async () => {
    const user = userEvent.setup();
    renderVerification(flows.initial);

    await user.click(await screen.findByRole("button", { name: "Use phone instead" }));

    const phone = await screen.findByLabelText("Phone number");
    expect(phone).toHaveAttribute("type", "tel");
    expect(screen.queryByLabelText("Email")).toBeNull();
    expect(await screen.findByRole("combobox", { name: "Country" })).toHaveValue("US");

    await user.click(screen.getByRole("button", { name: "Use email instead" }));
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
  });

  it("posts a phone number as E.164 in the email field, with the channel", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderVerification(flows.initial, { action, query: "&channel=sms" });
    await screen.findByRole("combobox", { name: "Country" });

    await user.type(screen.getByLabelText("Phone number"), "2025550123");
    await user.click(screen.getByRole("button", { name: "Continue" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ email: "+12025550123", channel: "sms", method: "code" });
  });

  it("says a phone number is invalid and sends nothing", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderVerification(flows.initial, { action, query: "&channel=sms" });
    await screen.findByRole("combobox", { name: "Country" });

    await user.type(screen.getByLabelText("Phone number"), "12");
    await user.click(screen.getByRole("button", { name: "Continue" }));

    expect(screen.getByLabelText("Phone number")).toHaveAccessibleDescription(
      "Phone must be a valid phone number.",
    );
    expect(action).not.toHaveBeenCalled();
  });

  it("lowercases and checks the e-mail live, and requires an address before sending", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderVerification(flows.initial, { action });
    const email = await screen.findByLabelText("Email");

    await user.click(screen.getByRole("button", { name: "Continue" }));
    expect(email).toHaveAccessibleDescription("This field is required.");
    expect(email).toHaveFocus();

    await user.type(email, "Jane@Example");
    expect(email).toHaveValue("jane@example");
    expect(email).toHaveAccessibleDescription("Email must be a valid email.");
    expect(action).not.toHaveBeenCalled();
  });

  it("asks for the code once it is sent; resend posts csrf_token, method and the address", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderVerification(flows.sent, { action });

    expect(await screen.findByRole("status")).toHaveTextContent(
      "An email containing a verification code has been sent",
    );
    expect(screen.getByLabelText("Verification code")).toHaveAttribute(
      "autocomplete",
      "one-time-code",
    );
    expect(screen.queryByLabelText("Email")).toBeNull();

    await user.click(screen.getByRole("button", { name: "Resend code" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      csrf_token: "AAAAAAA/AAAAAA/2+AAAAAAAA==",
      method: "code",
      channel: "email",
      email: "dev@ory.dev",
    });
  });

  it("requires the code before continuing", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderVerification(flows.sent, { action });

    await user.click(await screen.findByRole("button", { name: "Continue" }));

    expect(screen.getByLabelText("Verification code")).toHaveAccessibleDescription(
      "This field is required.",
    );
    expect(action).not.toHaveBeenCalled();
  });

  it("offers the e-mail channel after a text message, and resends to the phone as sms", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderVerification(sentBySms, { action, addresses: withPhone });

    expect(await screen.findByRole("button", { name: "Use email instead" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Resend code" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ sms: "+12025550123", channel: "sms", method: "code" });
  });

  it("with both a code and an address shown, needs one of them", async () => {
    const user = userEvent.setup();
    const action = vi.fn(() => null);
    renderVerification(flows.sent, { action, query: "&channel=sms", addresses: withPhone });
    await screen.findByRole("combobox", { name: "Country" });

    await user.click(screen.getByRole("button", { name: "Continue" }));

    expect(screen.getByLabelText("Verification code")).toHaveAccessibleDescription(
      "Enter the code or a phone number.",
    );
    expect(screen.getByLabelText("Phone number")).toHaveAccessibleDescription(
      "Enter the code or a phone number.",
    );
    expect(action).not.toHaveBeenCalled();
  });

  it("shows a wrong code (4070006) as an error, in Spanish with the right labels", async () => {
    renderVerification(flows.wrongCode, { locale: "es", addresses: withPhone });

    // Said on the code field (marked invalid, described by it), as settings does.
    const code = await screen.findByLabelText("Código de verificación");
    expect(code).toHaveAttribute("aria-invalid", "true");
    expect(code).toHaveAccessibleDescription(
      "El código de verificación no es válido o ya se usó. Inténtelo de nuevo.",
    );
    expect(screen.getByRole("button", { name: "Reenviar el código" })).toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Usar el teléfono en su lugar" }),
    ).toBeInTheDocument();
  });

  it("labels the e-mail field with 1070007 in Spanish", async () => {
    renderVerification(flows.initial, { locale: "es" });

    expect(await screen.findByLabelText("Correo electrónico")).toBeInTheDocument();
  });

  it("shows success and the continue link once the code is accepted", async () => {
    renderVerification(passed, { continueHref: "/" });

    expect(await screen.findByRole("status")).toHaveTextContent(
      "You successfully verified your email address.",
    );
    expect(screen.getByRole("link", { name: "Continue" })).toHaveAttribute("href", "/");
    expect(screen.queryByRole("button", { name: /instead/ })).toBeNull();
    expect(screen.queryByRole("textbox")).toBeNull();
  });

  it("lists the signed-in person's addresses with their state and a send button for unverified ones", async () => {
    const user = userEvent.setup();
    const { posted, action } = recordPosts();
    renderVerification(flows.initial, { action, addresses: withPhone });

    const list = await screen.findByRole("region", { name: "Your addresses" });
    const [verified, unverified] = within(list).getAllByRole("listitem");
    if (!verified || !unverified) throw new Error("two addresses expected");
    expect(verified).toHaveTextContent("jane@example.govVerified");
    expect(within(verified).queryByRole("button")).toBeNull();
    expect(unverified).toHaveTextContent("+12025550123Unverified");

    await user.click(within(unverified).getByRole("button", { name: "Send code to +12025550123" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ sms: "+12025550123", channel: "sms", method: "code" });
  });

  it("says where the code went and has one resend button, the address list's included", async () => {
    renderVerification(flows.sent, { addresses: withPhone });

    expect(await screen.findByText("Enter the code we sent to dev@ory.dev.")).toBeVisible();
    expect(screen.getAllByRole("button", { name: /resend|send code/i })).toHaveLength(1);
    expect(screen.getByRole("button", { name: "Resend code" })).toBeInTheDocument();
    expect(await screen.findByRole("region", { name: "Your addresses" })).toBeInTheDocument();
  });

  it("offers the phone channel to a signed-in person only when they have a phone number", async () => {
    const emailOnly: ListedAddress[] = [
      { value: "jane@example.gov", channel: "email", verified: false },
    ];
    renderVerification(flows.initial, { addresses: emailOnly, query: "&channel=sms" });

    // ?channel=sms is not honoured either: the email field stays.
    expect(await screen.findByLabelText("Email")).toBeInTheDocument();
    expect(screen.queryByLabelText("Phone number")).toBeNull();
    expect(screen.queryByRole("button", { name: "Use phone instead" })).toBeNull();
  });

  it("without a session, offers only the channel of the address a code went to", async () => {
    renderVerification(sentBySms, { query: "&channel=email" });

    expect(await screen.findByText("Enter the code we sent to +12025550123.")).toBeVisible();
    expect(screen.queryByLabelText("Email")).toBeNull();
    expect(screen.queryByRole("button", { name: /instead/ })).toBeNull();
  });
});

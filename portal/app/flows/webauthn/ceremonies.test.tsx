import { UiNodeFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import {
  assertion,
  attestation,
  notAllowed,
  stubWebAuthn,
} from "../../../test/webauthn-browser.ts";
import {
  challenge,
  passkeyLoginNodes,
  passkeyRegistrationNodes,
  webauthnLoginNodes,
  webauthnSettingsNodes,
} from "../../../test/webauthn-nodes.ts";
import { FlowForm } from "../flow-form.tsx";

let browser: ReturnType<typeof stubWebAuthn>;
let posted: Promise<Record<string, string>>;

/** The form as the page renders it; `posted` resolves with what its one submit path sent. */
function renderForm(nodes: UiNode[]) {
  let resolve: (fields: Record<string, string>) => void = () => {};
  posted = new Promise((done) => (resolve = done));
  renderRoute({
    path: "/:lang/login",
    url: "/en/login?flow=f1",
    Component: () => <FlowForm flowId="f1" nodes={nodes} />,
    loader: () => null,
    action: async ({ request }) => {
      const form = await request.formData();
      const fields: Record<string, string> = {};
      for (const [name, value] of form) if (typeof value === "string") fields[name] = value;
      resolve(fields);
      return null;
    },
  });
}

function parsed(value: string | undefined): Record<string, unknown> {
  return JSON.parse(value ?? "null") as Record<string, unknown>;
}

beforeEach(() => {
  browser = stubWebAuthn();
});
afterEach(() => browser.restore());

describe("passkey sign-in", () => {
  it("puts the assertion into passkey_login and submits the form with method=passkey", async () => {
    browser.get.mockResolvedValue(assertion());
    renderForm(passkeyLoginNodes());

    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));

    const fields = await posted;
    expect(fields.method).toBe("passkey");
    expect(fields.csrf_token).toBe("t0k");
    expect(parsed(fields.passkey_login)).toMatchObject({
      id: "Y3JlZA",
      rawId: "Y3JlZA",
      type: "public-key",
      response: { userHandle: "dXNlci1pZA", signature: "c2lnbmF0dXJl" },
    });
    // The button's ceremony is a modal one, with the challenge Kratos put in passkey_challenge.
    const request = browser.get.mock.calls.at(-1)?.[0];
    expect(request?.mediation).toBeUndefined();
    expect(new TextDecoder().decode(request?.publicKey?.challenge as ArrayBuffer)).toBe(
      "challenge-0123456789abcdef",
    );
  });

  it("accepts bare options as well as Kratos' {publicKey: ...}", async () => {
    browser.get.mockResolvedValue(assertion());
    renderForm(passkeyLoginNodes({ challenge, rpId: "localhost" }));

    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));

    expect((await posted).method).toBe("passkey");
  });

  it("offers the passkey in the identifier's autofill where the browser supports it", async () => {
    browser.restore();
    browser = stubWebAuthn({ autofill: true });
    browser.get.mockResolvedValue(assertion());
    renderForm(passkeyLoginNodes());
    // The request starts on the person's first interaction: here, reaching the field.
    (await screen.findByLabelText("ID")).focus();

    // Nothing clicked: the conditional request runs, and its answer posts.
    const fields = await posted;
    expect(fields.method).toBe("passkey");
    expect(parsed(fields.passkey_login)).toMatchObject({ id: "Y3JlZA" });
    expect(browser.get.mock.calls[0]?.[0]?.mediation).toBe("conditional");
    expect(screen.getByLabelText("ID")).toHaveAttribute("autocomplete", "username webauthn");
  });

  it("starts the autofill again with the new challenge when the flow comes back with one", async () => {
    browser.restore();
    browser = stubWebAuthn({ autofill: true });
    // Pending until replaced, as a browser's conditional request is.
    browser.get.mockImplementation(
      (request) =>
        new Promise((_, reject) =>
          request.signal?.addEventListener("abort", () =>
            reject(new DOMException("replaced", "AbortError")),
          ),
        ),
    );
    const next = "bmV4dC1jaGFsbGVuZ2UtMDEyMzQ1Njc4OQ";
    renderRoute({
      path: "/:lang/login",
      url: "/en/login?flow=f1",
      Component: function Page() {
        const [renewed, setRenewed] = useState(false);
        const options = { publicKey: { challenge: renewed ? next : challenge } };
        return (
          <>
            <FlowForm flowId="f1" nodes={passkeyLoginNodes(options)} />
            <button type="button" onClick={() => setRenewed(true)}>
              renew
            </button>
          </>
        );
      },
      loader: () => null,
    });
    (await screen.findByLabelText("ID")).focus();
    await waitFor(() => expect(browser.get).toHaveBeenCalledTimes(1));

    await userEvent.click(screen.getByRole("button", { name: "renew" }));

    await waitFor(() => expect(browser.get).toHaveBeenCalledTimes(2));
    const renewed = browser.get.mock.calls[1]?.[0]?.publicKey?.challenge as ArrayBuffer;
    expect(new TextDecoder().decode(renewed)).toBe("next-challenge-0123456789");
    // Nothing is said about the replaced request.
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("says so at the form when the person cancels, and the button stays usable", async () => {
    browser.get.mockRejectedValue(notAllowed());
    renderForm(passkeyLoginNodes());
    const button = await screen.findByRole("button", { name: "Sign in with passkey" });

    await userEvent.click(button);

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The request was cancelled or took too long. Try again, or use another way.",
    );
    expect(button).toBeEnabled();
    expect(button).toHaveFocus();
    // The password form still posts on its own.
    await userEvent.click(screen.getByRole("button", { name: "Sign in with password" }));
    expect((await posted).method).toBe("password");
  });

  it("says the browser cannot do it when it has no WebAuthn", async () => {
    browser.restore();
    renderForm(passkeyLoginNodes());

    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "This browser does not support passkeys or security keys.",
    );
  });

  it("never evaluates the node's onclick string", async () => {
    renderForm(passkeyLoginNodes());
    const button = await screen.findByRole("button", { name: "Sign in with passkey" });
    expect(button).not.toHaveAttribute("onclick");
    expect(document.querySelector("[onload]")).toBeNull();
  });
});

describe("security key as second factor", () => {
  it("reads the options from the trigger button and submits method=webauthn", async () => {
    browser.get.mockResolvedValue(assertion());
    renderForm(webauthnLoginNodes());

    await userEvent.click(
      await screen.findByRole("button", { name: "Sign in with a hardware key" }),
    );

    const fields = await posted;
    expect(fields.method).toBe("webauthn");
    expect(fields.identifier).toBe("ada@example.org");
    expect(parsed(fields.webauthn_login)).toMatchObject({ id: "Y3JlZA" });
    // The trigger is a plain button: its options are not posted.
    expect(fields.webauthn_login_trigger).toBeUndefined();
    const allowed = browser.get.mock.calls[0]?.[0]?.publicKey?.allowCredentials ?? [];
    expect(allowed).toHaveLength(1);
  });
});

describe("adding credentials", () => {
  it("registers a named security key with method=webauthn", async () => {
    browser.create.mockResolvedValue(attestation());
    renderForm(webauthnSettingsNodes());

    await userEvent.type(await screen.findByLabelText("Name of the security key"), "Blue key");
    await userEvent.click(screen.getByRole("button", { name: "Add security key" }));

    const fields = await posted;
    expect(fields.method).toBe("webauthn");
    expect(fields.webauthn_register_displayname).toBe("Blue key");
    expect(parsed(fields.webauthn_register)).toMatchObject({
      id: "bmV3",
      response: { attestationObject: "YXR0ZXN0YXRpb24", transports: ["usb"] },
    });
  });

  it("signs up with a passkey named after the e-mail address just given", async () => {
    browser.create.mockResolvedValue(attestation());
    renderForm(passkeyRegistrationNodes());

    await userEvent.click(await screen.findByRole("button", { name: "Sign up with passkey" }));

    const fields = await posted;
    expect(fields.method).toBe("passkey");
    expect(fields["traits.email"]).toBe("ada@example.org");
    expect(parsed(fields.passkey_register)).toMatchObject({ id: "bmV3" });
    const user = browser.create.mock.calls[0]?.[0]?.publicKey?.user;
    expect(user?.name).toBe("ada@example.org");
    expect(user?.displayName).toBe("ada@example.org");
  });

  it("says so when the key is already registered", async () => {
    browser.create.mockRejectedValue(new DOMException("known", "InvalidStateError"));
    renderForm(webauthnSettingsNodes());

    await userEvent.click(await screen.findByRole("button", { name: "Add security key" }));

    await waitFor(() =>
      expect(screen.getByRole("alert")).toHaveTextContent(
        "This passkey or security key is already set up for your account.",
      ),
    );
  });
});

describe("trigger names", () => {
  it("runs only the portal's own functions: an unknown trigger does nothing but say so", async () => {
    // Read as the SDK reads a flow: a node naming some other function than Kratos' own.
    const json = JSON.stringify(passkeyLoginNodes()).replace(
      '"onclickTrigger":"oryPasskeyLogin"',
      '"onclickTrigger":"constructor"',
    );
    renderForm((JSON.parse(json) as unknown[]).map((node) => UiNodeFromJSON(node)));

    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The passkey or security key could not be used.",
    );
    expect(browser.get).not.toHaveBeenCalled();
  });
});

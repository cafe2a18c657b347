import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { assertion, attestation, stubWebAuthn } from "../../../test/webauthn-browser.ts";
import { passkeyLoginNodes, webauthnSettingsNodes } from "../../../test/webauthn-nodes.ts";
import { FlowForm } from "../flow-form.tsx";

// In the isolated project: whether the registration module (the library's registration code) is
// read is observed by its stand-in here, which no other file can have loaded before.
const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock("./registration.ts", async (original) => {
  loaded.count++;
  return original();
});

let browser: ReturnType<typeof stubWebAuthn>;
beforeEach(() => {
  browser = stubWebAuthn({ autofill: true });
});
afterEach(() => browser.restore());

function renderForm(nodes: Parameters<typeof FlowForm>[0]["nodes"]) {
  let resolve: (method: string) => void = () => {};
  const posted = new Promise<string>((done) => (resolve = done));
  const view = renderRoute({
    path: "/:lang/login",
    url: "/en/login?flow=f1",
    Component: () => <FlowForm flowId="f1" nodes={nodes} />,
    loader: () => null,
    action: async ({ request }) => {
      const method = (await request.formData()).get("method");
      resolve(typeof method === "string" ? method : "");
      return null;
    },
  });
  return { posted, unmount: view.unmount };
}

describe("the registration ceremony's module", () => {
  it("is not read by a passkey sign-in (autofill and button), and read when a key is added", async () => {
    // The autofill's request waits (as for a person who has not opened the list yet).
    browser.get.mockImplementation((request) =>
      request.mediation === "conditional" ? new Promise(() => {}) : Promise.resolve(assertion()),
    );
    const signIn = renderForm(passkeyLoginNodes());
    // The autofill's request starts as the person reaches the field; the button's replaces it.
    (await screen.findByLabelText("ID")).focus();
    await waitFor(() => expect(browser.get).toHaveBeenCalled());
    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));
    expect(await signIn.posted).toBe("passkey");
    expect(loaded.count).toBe(0);
    signIn.unmount();

    browser.create.mockResolvedValue(attestation());
    const settings = renderForm(webauthnSettingsNodes());
    await userEvent.type(await screen.findByLabelText("Name of the security key"), "Blue key");
    await userEvent.click(screen.getByRole("button", { name: "Add security key" }));
    expect(await settings.posted).toBe("webauthn");
    expect(loaded.count).toBe(1);
  });
});

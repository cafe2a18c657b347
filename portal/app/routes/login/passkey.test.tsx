import { LoginFlowFromJSON } from "@portal/client";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { assertion, stubWebAuthn, jsonField } from "../../../test/webauthn-browser.ts";
import { passkeyLoginNodes } from "../../../test/webauthn-nodes.ts";
import Login from "./route.tsx";

// The recorded sign-in flow's envelope; its nodes are replaced by the password form plus the passkey's.
const base = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));

// The passkey's nodes first, as a server may send them: the page puts them after the password's.
const nodes = passkeyLoginNodes();
const flow = {
  ...base,
  ui: {
    ...base.ui,
    nodes: [
      ...nodes.filter((n) => n.group === "passkey"),
      ...nodes.filter((n) => n.group !== "passkey"),
    ],
  },
};

let browser: ReturnType<typeof stubWebAuthn>;
beforeEach(() => {
  browser = stubWebAuthn();
});
afterEach(() => browser.restore());

function renderLogin(action: (form: FormData) => void) {
  return renderRoute({
    path: "/:lang/login",
    url: "/en/login?flow=f1",
    Component: Login,
    loader: () => ({
      flow,
      notice: undefined,
      invalid: false,
      confirmCreateAccount: false,
      registration: "",
    }),
    action: async ({ request }) => {
      action(await request.formData());
      return null;
    },
  });
}

describe("signing in with a passkey", () => {
  it("offers it beside the password form, with passkey autofill on the identifier", async () => {
    renderLogin(() => {});
    const passkey = await screen.findByRole("button", { name: "Sign in with passkey" });
    const password = screen.getByRole("button", { name: "Sign in with password" });
    // After the password's button in reading and tab order.
    expect(
      password.compareDocumentPosition(passkey) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(passkey).toHaveAttribute("type", "button");
    expect(screen.getByLabelText("ID")).toHaveAttribute("autocomplete", "username webauthn");
  });

  it("signs in with method=passkey without anything typed", async () => {
    browser.get.mockResolvedValue(assertion());
    let resolve: (form: FormData) => void = () => {};
    const posted = new Promise<FormData>((done) => (resolve = done));
    renderLogin(resolve);

    await userEvent.click(await screen.findByRole("button", { name: "Sign in with passkey" }));

    const form = await posted;
    expect(form.get("method")).toBe("passkey");
    expect(jsonField(form, "passkey_login")).toMatchObject({ id: "Y3JlZA" });
  });
});

import { RegistrationFlowFromJSON } from "@portal/client";
import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { attestation, stubWebAuthn, jsonField } from "../../../test/webauthn-browser.ts";
import { passkeySignUpNodes } from "../../../test/webauthn-nodes.ts";
import Registration from "./route.tsx";

const password = RegistrationFlowFromJSON(
  vendorJson("elements.registration.password.initial.json"),
);
const flow = {
  ...password,
  id: "f1",
  ui: { ...password.ui, nodes: [...password.ui.nodes, ...passkeySignUpNodes()] },
};

let browser: ReturnType<typeof stubWebAuthn>;
beforeEach(() => {
  browser = stubWebAuthn();
});
afterEach(() => browser.restore());

describe("signing up with a passkey", () => {
  it("needs no password: the passkey is made for the e-mail address typed and the form posts method=passkey", async () => {
    browser.create.mockResolvedValue(attestation());
    let resolve: (form: FormData) => void = () => {};
    const posted = new Promise<FormData>((done) => (resolve = done));
    renderRoute({
      path: "/:lang/registration",
      url: "/en/registration?flow=f1",
      Component: Registration,
      loader: () => ({ flow, notice: undefined, nodna: false }),
      action: async ({ request }) => {
        resolve(await request.formData());
        return null;
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "ada@example.gov");
    await user.type(screen.getByLabelText("Confirm email"), "ada@example.gov");

    await user.click(screen.getByRole("button", { name: "Sign up with passkey" }));

    const form = await posted;
    expect(form.get("method")).toBe("passkey");
    expect(form.get("traits.email")).toBe("ada@example.gov");
    expect(jsonField(form, "passkey_register")).toMatchObject({ id: "bmV3" });
    expect(browser.create.mock.calls[0]?.[0]?.publicKey?.user.name).toBe("ada@example.gov");
    // The password form is still there for those who want one.
    expect(screen.getByRole("button", { name: "Sign up" })).toBeEnabled();
  });

  it("puts the passkey after the password form, whatever order the flow gives", async () => {
    const passkeyFirst = {
      ...flow,
      ui: { ...flow.ui, nodes: [...passkeySignUpNodes(), ...password.ui.nodes] },
    };
    renderRoute({
      path: "/:lang/registration",
      url: "/en/registration?flow=f1",
      Component: Registration,
      loader: () => ({ flow: passkeyFirst, notice: undefined, nodna: false }),
    });
    await screen.findByLabelText("Email");
    const names = screen.getAllByRole("button").map((button) => button.textContent);
    expect(names.indexOf("Sign up")).toBeGreaterThanOrEqual(0);
    expect(names.indexOf("Sign up with passkey")).toBeGreaterThan(names.indexOf("Sign up"));
  });

  it("checks the e-mail address before the browser makes a passkey", async () => {
    renderRoute({
      path: "/:lang/registration",
      url: "/en/registration?flow=f1",
      Component: Registration,
      loader: () => ({ flow, notice: undefined, nodna: false }),
      action: () => null,
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText("Email"), "ada@");

    await user.click(screen.getByRole("button", { name: "Sign up with passkey" }));

    const email = screen.getByLabelText("Email");
    expect(email).toHaveAttribute("aria-invalid", "true");
    expect(email).toHaveFocus();
    expect(browser.create).not.toHaveBeenCalled();
  });
});

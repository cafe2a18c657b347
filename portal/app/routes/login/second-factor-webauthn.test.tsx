import { LoginFlowFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { assertion, notAllowed, stubWebAuthn, jsonField } from "../../../test/webauthn-browser.ts";
import { webauthnLoginNodes } from "../../../test/webauthn-nodes.ts";
import { isInputNode } from "../../flows/node-guards.ts";
import Login from "./route.tsx";

const recorded = LoginFlowFromJSON(vendorJson("elements.login.aal2.all-methods.initial.json"));
// The recording's security-key options are redacted ("{}"): real ones, in Kratos' shape.
const trigger = webauthnLoginNodes().find(
  (node) => isInputNode(node) && node.attributes.name === "webauthn_login_trigger",
);

function withOptions(nodes: readonly UiNode[], groups?: readonly string[]): UiNode[] {
  return nodes
    .filter((node) => !groups || node.group === "default" || groups.includes(node.group))
    .map((node) =>
      isInputNode(node) && node.attributes.name === "webauthn_login_trigger" && trigger
        ? trigger
        : node,
    );
}

function renderSecondFactor(
  url: string,
  groups?: readonly string[],
  posted?: (form: FormData) => void,
) {
  const flow = {
    ...recorded,
    id: "f2",
    ui: { ...recorded.ui, nodes: withOptions(recorded.ui.nodes, groups) },
  };
  return renderRoute({
    path: "/:lang/login",
    url,
    Component: Login,
    loader: () => ({ flow, notice: undefined, invalid: false, confirmCreateAccount: false }),
    action: async ({ request }) => {
      posted?.(await request.formData());
      return null;
    },
  });
}

let browser: ReturnType<typeof stubWebAuthn>;
beforeEach(() => {
  browser = stubWebAuthn();
});
afterEach(() => browser.restore());

describe("a security key as second factor", () => {
  it("is first in the chooser, which opens when there is no authenticator app", async () => {
    renderSecondFactor("/en/login?flow=f2&aal=aal2", ["webauthn", "lookup_secret"]);

    const list = await screen.findByRole("list");
    const choices = within(list).getAllByRole("link");
    expect(choices.map((link) => link.textContent)).toEqual([
      "Security key or passkey",
      "Backup code",
    ]);
  });

  it("signs in with the key: method=webauthn and the assertion posted", async () => {
    browser.get.mockResolvedValue(assertion());
    let resolve: (form: FormData) => void = () => {};
    const posted = new Promise<FormData>((done) => (resolve = done));
    renderSecondFactor("/en/login?flow=f2&aal=aal2&method=webauthn", undefined, resolve);

    await userEvent.click(
      await screen.findByRole("button", { name: "Sign in with a hardware key" }),
    );

    const form = await posted;
    expect(form.get("method")).toBe("webauthn");
    expect(jsonField(form, "webauthn_login")).toMatchObject({ id: "Y3JlZA" });
  });

  it("tells the person when the key was not used, and leaves the other ways open", async () => {
    browser.get.mockRejectedValue(notAllowed());
    renderSecondFactor("/en/login?flow=f2&aal=aal2&method=webauthn");

    await userEvent.click(
      await screen.findByRole("button", { name: "Sign in with a hardware key" }),
    );

    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The request was cancelled or took too long.",
    );
    expect(screen.getByRole("link", { name: "Try another way" })).toBeVisible();
  });
});

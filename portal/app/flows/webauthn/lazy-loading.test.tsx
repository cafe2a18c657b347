import { LoginFlowFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRoute } from "../../../test/route-stub.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { passkeyLoginNodes } from "../../../test/webauthn-nodes.ts";
import { FlowForm } from "../flow-form.tsx";

// In the isolated project: whether the WebAuthn module is read is observed by its stand-in here,
// which no other file can have loaded before.
const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock("./ceremonies.ts", () => {
  loaded.count++;
  return { runTrigger: () => Promise.resolve(undefined) };
});

function renderForm(nodes: UiNode[]) {
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

describe("the WebAuthn module", () => {
  it("is not read for a form without passkey or security-key nodes, and read for one with them", async () => {
    const password = LoginFlowFromJSON(vendorJson("elements.login.1fa.password.initial.json"));
    const plain = renderForm(password.ui.nodes);
    await userEvent.type(await screen.findByLabelText("Email"), "ada@example.org");
    await userEvent.type(screen.getByLabelText("Password"), "a long password");
    await userEvent.click(screen.getByRole("button", { name: "Sign in with password" }));
    // A whole submission later (the page's effects long run), the module was never asked for.
    expect(await plain.posted).toBe("password");
    expect(loaded.count).toBe(0);
    plain.unmount();

    renderForm(passkeyLoginNodes());
    await screen.findByRole("button", { name: "Sign in with passkey" });
    await userEvent.hover(screen.getByRole("button", { name: "Sign in with passkey" }));
    await waitFor(() => expect(loaded.count).toBe(1));
  });
});

import { LoginFlowFromJSON, SettingsFlowFromJSON } from "@portal/client";
import type { UiNode } from "@portal/client";
import { screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../../test/render.tsx";
import { vendorJson } from "../../../test/vendor-flows.ts";
import { passkeyLoginNodes } from "../../../test/webauthn-nodes.ts";
import en from "../../i18n/en.json";
import es from "../../i18n/es.json";
import { createTranslator } from "../../i18n/translator.ts";
import { TranslatorProvider } from "../../i18n/translator-context.tsx";
import { FlowForm } from "../flow-form.tsx";

/** The HTML the server sends: what a browser without JavaScript shows. */
function serverHtml(nodes: UiNode[], locale: "en" | "es" = "en"): HTMLElement {
  const translator = createTranslator(locale, locale === "en" ? en : es);
  const Stub = createRoutesStub([
    {
      path: "/:lang/login",
      Component: () => (
        <TranslatorProvider translator={translator}>
          <FlowForm flowId="f1" nodes={nodes} />
        </TranslatorProvider>
      ),
    },
  ]);
  const html = renderToString(<Stub initialEntries={[`/${locale}/login?flow=f1`]} />);
  return new DOMParser().parseFromString(html, "text/html").body;
}

function button(page: HTMLElement, name: string): HTMLButtonElement {
  const found = page.querySelector<HTMLButtonElement>(`button[name="${name}"]`);
  if (!found) throw new Error(`no ${name} button`);
  return found;
}

describe("WebAuthn buttons without JavaScript", () => {
  it("are disabled and say WebAuthn needs JavaScript; the password form still submits", () => {
    const page = serverHtml(passkeyLoginNodes());
    const passkey = button(page, "passkey_login_trigger");
    expect(passkey.disabled).toBe(true);
    const hint = page.querySelector(`#${passkey.getAttribute("aria-describedby") ?? "none"}`);
    expect(hint?.textContent).toBe(
      "Passkeys and security keys need JavaScript. Turn it on, or use another way on this page.",
    );
    const password = page.querySelector<HTMLButtonElement>('button[value="password"]');
    expect(password?.disabled).toBe(false);
    expect(password?.type).toBe("submit");
  });

  it("say so in Spanish too", () => {
    const page = serverHtml(passkeyLoginNodes(), "es");
    expect(page.textContent).toContain(
      "Las claves de acceso y las llaves de seguridad necesitan JavaScript.",
    );
  });

  it("covers the real flows' security-key buttons (second factor, settings)", () => {
    const login = LoginFlowFromJSON(vendorJson("elements.login.aal2.all-methods.initial.json"));
    expect(button(serverHtml(login.ui.nodes), "webauthn_login_trigger").disabled).toBe(true);
    const settings = SettingsFlowFromJSON(vendorJson("elements.settings.all-methods.initial.json"));
    const page = serverHtml(settings.ui.nodes);
    expect(button(page, "webauthn_register_trigger").disabled).toBe(true);
    expect(button(page, "passkey_register_trigger").disabled).toBe(true);
  });

  it("work once the page is hydrated, without the note", async () => {
    renderInPortal(() => <FlowForm flowId="f1" nodes={passkeyLoginNodes()} />);
    const button = await screen.findByRole("button", { name: "Sign in with passkey" });
    expect(button).toBeEnabled();
    // The note stays in the markup (hidden where scripts run), no longer describing the button.
    expect(button).not.toHaveAttribute("aria-describedby");
  });

  it("keep the note out of the layout where scripts run (shown only by @media (scripting: none))", () => {
    const page = serverHtml(passkeyLoginNodes());
    const hint = page.querySelector("#passkey_login_trigger-needs-javascript");
    expect(hint?.className.split(" ")).toEqual(
      expect.arrayContaining(["hidden", "noscript:block"]),
    );
  });
});

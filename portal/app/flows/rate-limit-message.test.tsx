import { LoginFlowFromJSON, RecoveryFlowFromJSON } from "@portal/client";
import type { UiContainer } from "@portal/client";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderInPortal } from "../../test/render.tsx";
import { vendorJson } from "../../test/vendor-flows.ts";
import en from "../i18n/en.json";
import es from "../i18n/es.json";
import { createTranslator } from "../i18n/translator.ts";
import { FlowForm } from "./flow-form.tsx";
import { FlowMessages } from "./flow-messages.tsx";
import { waitText } from "./wait-text.ts";

/** A real flow as the identity service answers it when limited: its message replaced by ours. */
function limited(file: string, id: number, seconds: number, english: string): unknown {
  const json = vendorJson(file) as { ui: Record<string, unknown> };
  return {
    ...json,
    ui: {
      ...json.ui,
      messages: [{ id, text: english, type: "error", context: { retry_after_seconds: seconds } }],
    },
  };
}

function renderFlow(ui: UiContainer, locale: "en" | "es") {
  return renderInPortal(
    () => (
      <>
        <FlowMessages messages={ui.messages} errorTitle="!" />
        <FlowForm flowId="f1" nodes={ui.nodes} />
      </>
    ),
    { locale },
  );
}

describe("the rate-limit messages", () => {
  const login = LoginFlowFromJSON(
    limited(
      "elements.login.1fa.password.wrong-credentials.json",
      9010007,
      180,
      "Too many attempts. Try again in 3 minutes.",
    ),
  );

  it("tell the user in English how long to wait", () => {
    renderFlow(login.ui, "en");
    expect(screen.getByText("Too many attempts. Try again in 3 minutes.")).toHaveAttribute(
      "data-message-id",
      "9010007",
    );
  });

  it("tell the user in Spanish how long to wait", () => {
    renderFlow(login.ui, "es");
    expect(
      screen.getByText("Demasiados intentos. Inténtelo de nuevo en 3 minutos."),
    ).toHaveAttribute("data-message-id", "9010007");
  });

  it("word a code-send limit under a minute in seconds, singular and plural", () => {
    const recovery = RecoveryFlowFromJSON(
      limited(
        "elements.recovery.code.sent.json",
        9010008,
        1,
        "Too many codes were requested for this address. Try again in 1 second.",
      ),
    );
    renderFlow(recovery.ui, "es");
    expect(
      screen.getByText(
        "Se han pedido demasiados códigos para esta dirección. Inténtelo de nuevo en 1 segundo.",
      ),
    ).toBeInTheDocument();
  });

  it("rounds the wait up like the identity service: seconds, minutes, then hours", () => {
    const english = createTranslator("en", en);
    const spanish = createTranslator("es", es);
    expect([1, 45, 60, 61, 600, 7140, 7200, 10_000].map((s) => waitText(english, s))).toEqual([
      "1 second",
      "45 seconds",
      "1 minute",
      "2 minutes",
      "10 minutes",
      "119 minutes",
      "2 hours",
      "3 hours",
    ]);
    expect([1, 45, 60, 180, 3600 * 5].map((s) => waitText(spanish, s))).toEqual([
      "1 segundo",
      "45 segundos",
      "1 minuto",
      "3 minutos",
      "5 horas",
    ]);
  });
});

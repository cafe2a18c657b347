import { UiNodeFromJSON } from "@portal/client";
import { describe, expect, it } from "vitest";
import en from "../i18n/en.json";
import es from "../i18n/es.json";
import { createTranslator } from "../i18n/translator.ts";
import { fromUiText, nodeLabel, translateMessage } from "./messages.ts";

const english = createTranslator("en", en);
const spanish = createTranslator("es", es);

function input(name: string, type: string, label?: object) {
  return UiNodeFromJSON({
    type: "input",
    group: "default",
    attributes: { node_type: "input", name, type, disabled: false },
    messages: [],
    meta: label ? { label } : {},
  });
}

describe("fromUiText", () => {
  it("words Kratos' generic 4000001 for e-mail and phone fields", () => {
    const reason = {
      id: 4000001,
      text: '"x" is not valid "email"',
      type: "error" as const,
      context: { reason: "x" },
    };
    expect(translateMessage(english, fromUiText(reason, input("traits.email", "email")))).toBe(
      "Email must be a valid email.",
    );
    expect(translateMessage(spanish, fromUiText(reason, input("traits.phone", "tel")))).toBe(
      "El teléfono debe ser un número válido.",
    );
    expect(translateMessage(english, fromUiText(reason))).toBe("x");
  });

  it("falls back to the server's text for ids the catalogue does not know", () => {
    const unknown = { id: 9990001, text: "Something new from the server.", type: "info" as const };
    expect(translateMessage(spanish, fromUiText(unknown))).toBe("Something new from the server.");
  });
});

describe("nodeLabel", () => {
  it("translates schema titles of known traits", () => {
    const label = {
      id: 1070002,
      text: "E-Mail",
      type: "info",
      context: { name: "traits.email", title: "E-Mail" },
    };
    const node = input("identifier", "text", label);
    const message = nodeLabel(node);
    expect(message && translateMessage(english, message)).toBe("E-Mail");
    expect(message && translateMessage(spanish, message)).toBe("Correo electrónico");
  });

  it("shows the schema title of other traits as given", () => {
    const label = {
      id: 1070002,
      text: "Nickname",
      type: "info",
      context: { name: "traits.nick", title: "Nickname" },
    };
    const message = nodeLabel(input("traits.nick", "text", label));
    expect(message && translateMessage(spanish, message)).toBe("Nickname");
  });

  it("is undefined for a node without a label", () => {
    expect(nodeLabel(input("csrf_token", "hidden"))).toBeUndefined();
  });
});

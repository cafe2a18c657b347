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

  it("translates the code method's reasons for replacing a recovery or verification flow", () => {
    const tooOften = {
      id: 4000001,
      text: "The request was submitted too often. Please request another code.",
      type: "error" as const,
      context: { reason: "The request was submitted too often. Please request another code." },
    };
    expect(translateMessage(spanish, fromUiText(tooOften))).toBe(
      "Introdujo un código demasiadas veces. Solicite un código nuevo.",
    );
  });

  it("rewrites the server's password reasons in plain words, in both languages", () => {
    const tooShort = {
      id: 4000032,
      text: "The password must be at least 12 characters long, but got 5.",
      type: "error" as const,
      context: { min_length: 12, actual_length: 5 },
    };
    const breached = {
      id: 4000034,
      text: "The password has been found in data breaches and must no longer be used.",
      type: "error" as const,
      context: { breaches: 1 },
    };
    expect(translateMessage(english, fromUiText(tooShort))).toBe(
      "Your password is too short: use at least 12 characters (you entered 5).",
    );
    expect(translateMessage(spanish, fromUiText(tooShort))).toBe(
      "Su contraseña es demasiado corta: use al menos 12 caracteres (introdujo 5).",
    );
    expect(translateMessage(english, fromUiText(breached))).toBe(
      "This password has appeared in a data breach, so it is not safe to use. Please choose a different one.",
    );
    expect(translateMessage(spanish, fromUiText(breached))).toBe(
      "Esta contraseña apareció en una filtración de datos y no es segura. Elija otra.",
    );
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
    expect(message && translateMessage(english, message)).toBe("Email");
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

import { describe, expect, it } from "vitest";
import { vendorMessages } from "../../test/vendor-flows.ts";
import en from "./en.json";
import es from "./es.json";
import { placeholdersOf } from "./translator.ts";

const english: Record<string, string> = en;
const spanish: Record<string, string> = es;

/** Where the portal words a Kratos message its own way (spec §5, or to drop derived values). */
const reworded = new Set([
  "kratos.4000002",
  "kratos.4000026",
  "kratos.4000028",
  "kratos.4010001",
  "kratos.4040001",
]);

const sortedPlaceholders = (text: string) => [...new Set(placeholdersOf(text))].sort();

describe("the en and es catalogues", () => {
  it("have exactly the same keys", () => {
    expect(Object.keys(spanish).sort()).toEqual(Object.keys(english).sort());
  });

  it("use the same placeholders for every key", () => {
    const differing = Object.keys(english).filter(
      (key) =>
        sortedPlaceholders(spanish[key] ?? "").join() !==
        sortedPlaceholders(english[key] ?? "").join(),
    );
    expect(differing).toEqual([]);
  });

  it("have no empty texts", () => {
    const empty = [...Object.entries(english), ...Object.entries(spanish)].filter(
      ([, text]) => text.trim() === "",
    );
    expect(empty).toEqual([]);
  });
});

describe("the Kratos messages in the catalogue", () => {
  const catalogue = new Map(vendorMessages().map((message) => [message.id, message]));
  const kratosKeys = Object.keys(english).filter((key) => key.startsWith("kratos."));

  it("cover every login, registration, label, validation and system message id", () => {
    const shown = [...catalogue.values()].filter((message) => {
      const id = String(message.id);
      const screenRange = ["101", "104", "107", "401", "404"].includes(id.slice(0, 3));
      return message.text !== null && (screenRange || ["4000", "5000"].includes(id.slice(0, 4)));
    });
    const missing = shown.filter((message) => !(`kratos.${message.id}` in english));
    expect(missing.map((message) => message.id)).toEqual([]);
  });

  it("only use placeholders their message's context provides", () => {
    const unsupported = kratosKeys.flatMap((key) => {
      const contextKeys = catalogue.get(Number(key.split(".")[1]))?.context_keys;
      if (contextKeys === undefined) return [`${key}: not a Kratos message id`];
      return placeholdersOf(english[key] ?? "")
        .filter((name) => !contextKeys.includes(name))
        .map((name) => `${key}: {${name}}`);
    });
    expect(unsupported).toEqual([]);
  });

  it("keep Kratos' English text unless the portal deliberately rewords it", () => {
    const changed = kratosKeys
      .filter((key) => !reworded.has(key) && key.split(".").length === 2)
      .filter((key) => english[key] !== catalogue.get(Number(key.slice("kratos.".length)))?.text);
    expect(changed).toEqual([]);
  });

  it("word the spec's validation messages as the spec does", () => {
    expect(english["kratos.4000001.email"]).toBe("Email must be a valid email.");
    expect(english["kratos.4000002"]).toBe("This field is required.");
    expect(english["validation.passwordStrength"]).toBe(
      "Password must contain at least 12 characters, 1 uppercase, 1 lowercase, 1 number and 1 special character.",
    );
  });
});

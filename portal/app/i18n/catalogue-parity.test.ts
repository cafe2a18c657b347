import { describe, expect, it } from "vitest";
import { vendorMessages } from "../../test/vendor-flows.ts";
import type { VendorMessage } from "../../test/vendor-flows.ts";
import en from "./en.json";
import es from "./es.json";
import { glossaryViolations } from "./glossary.ts";
import { placeholdersOf } from "./translator.ts";

const english: Record<string, string> = en;
const spanish: Record<string, string> = es;

/** Where the portal words a Kratos message its own way (spec §5, or to drop derived values). */
const reworded = new Set([
  "kratos.4000002",
  "kratos.4000026",
  "kratos.4000028",
  "kratos.4000032",
  "kratos.4000034",
  "kratos.4010001",
  "kratos.4040001",
  "kratos.4050001",
  "kratos.4060005",
  "kratos.4070005",
  "kratos.9010006",
]);

/** Values Kratos derives into its text but not its context; the portal derives them too. */
const derivedPlaceholders: Readonly<Record<string, readonly string[]>> = {
  "kratos.1060001": ["minutes_until_privileged_session_expires_at"],
  // The rate-limit messages: the wait is worded from `retry_after_seconds` (flows/wait-text.ts).
  "kratos.9010007": ["wait"],
  "kratos.9010008": ["wait"],
};

/** Messages whose text is the data itself (the list of backup codes), rendered by their card. */
const renderedElsewhere = new Set([1050015]);

/**
 * The identity service's own messages (901xxxx, a range Kratos does not use; listed in its
 * README): the English text it sends and the context it gives. 9010004 and 9010009 are the
 * trusted-devices list, which the portal renders from its data.
 */
const identityServiceMessages: readonly VendorMessage[] = [
  { id: 9010001, text: "Trust this device for {days} days", context_keys: ["days"] },
  {
    id: 9010002,
    text: "Use codes sent to {address} as a second factor",
    context_keys: ["address", "channel"],
  },
  {
    id: 9010003,
    text: "Stop using codes sent to {address} as a second factor",
    context_keys: ["address", "channel"],
  },
  { id: 9010005, text: "Trusted devices", context_keys: [] },
  // The portal's button sits in the device's card, so "this device" is enough there.
  { id: 9010006, text: "Stop trusting {device}", context_keys: ["device", "device_id"] },
  {
    id: 9010007,
    text: "Too many attempts. Try again in {wait}.",
    context_keys: ["retry_after_seconds"],
  },
  {
    id: 9010008,
    text: "Too many codes were requested for this address. Try again in {wait}.",
    context_keys: ["retry_after_seconds"],
  },
];

/**
 * Ids Kratos declares (text/id.go) but never builds: range roots and retired ids. No flow can
 * carry them, and there is no text to translate. 1070000 is also built inline around the
 * recovery address it labels, which is data and shown as sent.
 */
const neverBuilt = [
  1010000, 1010020, 1020000, 1030000, 1040000, 1050000, 1050021, 1050022, 1060000, 1070000, 1080000,
  4000000, 4010000, 4040000, 4050000, 4060000, 4060003, 4070000, 4070004, 5000000,
];

/** Texts that are only data (a placeholder, an abbreviation): the same in every language. */
const sameInEveryLanguage = new Set(["{reason}", "{secret}", "{title}", "ID"]);

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
  const catalogue = new Map(
    [...vendorMessages(), ...identityServiceMessages].map((message) => [message.id, message]),
  );
  const kratosKeys = Object.keys(english).filter((key) => key.startsWith("kratos."));

  it("cover every message id of kratos-messages.json and the identity service, in both languages", () => {
    const shown = [...catalogue.values()].filter(
      (message) => !neverBuilt.includes(message.id) && !renderedElsewhere.has(message.id),
    );
    expect(shown.length).toBeGreaterThan(150);
    const missing = shown
      .filter(
        (message) => !(`kratos.${message.id}` in english && `kratos.${message.id}` in spanish),
      )
      .map((message) => message.id);
    expect(missing).toEqual([]);
  });

  it("leave out only ids Kratos never builds, so none is skipped by mistake", () => {
    const withoutText = vendorMessages()
      .filter((message) => message.text === null)
      .map((message) => message.id);
    expect(withoutText.sort()).toEqual([...neverBuilt].sort());
  });

  it("are translated, not copied, into Spanish", () => {
    const copied = kratosKeys.filter(
      (key) => spanish[key] === english[key] && !sameInEveryLanguage.has(english[key] ?? ""),
    );
    expect(copied).toEqual([]);
  });

  it("only use placeholders their message's context provides", () => {
    const unsupported = kratosKeys.flatMap((key) => {
      const contextKeys = catalogue.get(Number(key.split(".")[1]))?.context_keys;
      if (contextKeys === undefined) return [`${key}: not a Kratos message id`];
      const derived = derivedPlaceholders[key] ?? [];
      return placeholdersOf(english[key] ?? "")
        .filter((name) => !contextKeys.includes(name) && !derived.includes(name))
        .map((name) => `${key}: {${name}}`);
    });
    expect(unsupported).toEqual([]);
  });

  it("keep Kratos' English text unless the portal deliberately rewords it or the glossary forbids it", () => {
    const kratosText = (key: string) => catalogue.get(Number(key.slice("kratos.".length)))?.text;
    // Kratos' phrasing the glossary refuses ("login", "username", "flow") is overridden by id.
    const againstGlossary = (key: string) =>
      glossaryViolations("en", kratosText(key) ?? "").length > 0;
    const changed = kratosKeys
      .filter((key) => !reworded.has(key) && key.split(".").length === 2)
      .filter((key) => !againstGlossary(key))
      .filter((key) => english[key] !== kratosText(key));
    expect(changed).toEqual([]);
  });

  it("word the server's password reasons in plain language, with the lengths kept", () => {
    for (const catalogue of [english, spanish]) {
      expect(catalogue["kratos.4000032"]).toMatch(/\{min_length\}.*\{actual_length\}/);
      expect(catalogue["kratos.4000032"]).not.toMatch(/but got/);
      expect(catalogue["kratos.4000034"]).not.toMatch(/must no longer be used/);
    }
  });

  it("word the spec's validation messages as the spec does", () => {
    expect(english["kratos.4000001.email"]).toBe("Email must be a valid email.");
    expect(english["kratos.4000002"]).toBe("This field is required.");
    expect(english["validation.passwordStrength"]).toBe(
      "Password must contain at least 12 characters, 1 uppercase, 1 lowercase, 1 number and 1 special character.",
    );
  });
});

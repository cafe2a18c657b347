import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ownMessages } from "../text/own-messages.ts";
import { supportedLocales } from "../text/locale.ts";
import type { MessageChannel, TemplateType } from "./message.ts";
import { renderTemplate } from "./templates.ts";

/** The portal's glossary: one for every text a person reads, the e-mails included. */
interface Glossary {
  [language: string]: {
    forbidden: { pattern: string; use: string; caseSensitive?: boolean }[];
  };
}
const glossary = JSON.parse(
  readFileSync(new URL("../../../portal/app/i18n/glossary.json", import.meta.url), "utf8"),
) as Glossary;

function violations(language: string, text: string): string[] {
  return (glossary[language]?.forbidden ?? []).flatMap((term) => {
    const found = new RegExp(term.pattern, term.caseSensitive ? "u" : "iu").exec(text);
    return found ? [`"${found[0].trim()}" → ${term.use}`] : [];
  });
}

const templates: readonly TemplateType[] = [
  "recovery_code_valid",
  "verification_code_valid",
  "login_code_valid",
  "recovery_code_invalid",
];
const channels: readonly MessageChannel[] = ["email", "sms"];
const data = {
  code: "123456",
  expiresInMinutes: 15,
  verificationUrl: "https://id.example/self-service/verification?code=123456",
};

describe("the courier's e-mails and text messages", () => {
  it.each(supportedLocales)("keep the portal's glossary in %s", (locale) => {
    expect(glossary[locale]?.forbidden.length).toBeGreaterThan(0);
    const broken = templates.flatMap((type) =>
      channels.flatMap((channel) => {
        const { subject, body } = renderTemplate(type, channel, locale, data);
        return violations(locale, `${subject}\n${body}`).map((v) => `${type}/${channel}: ${v}`);
      }),
    );
    expect(broken).toEqual([]);
  });

  it("address the reader as usted in Spanish", () => {
    const { subject, body } = renderTemplate("login_code_valid", "email", "es", data);
    expect(subject).toBe("Su código para iniciar sesión");
    expect(body).toContain("introduzca este código");
  });
});

describe("the identity service's own message texts", () => {
  it("keep the English glossary", () => {
    const broken = ownMessages.flatMap((message) =>
      violations("en", message.text).map((v) => `${message.id}: ${v}`),
    );
    expect(broken).toEqual([]);
  });
});

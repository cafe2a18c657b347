import { describe, expect, it } from "vitest";
import en from "./en.json";
import es from "./es.json";
import { glossaryViolations } from "./glossary.ts";

const catalogues = { en, es } as const;

describe("the glossary", () => {
  it.each(["en", "es"] as const)("is kept by every text of the %s catalogue", (language) => {
    const broken = Object.entries(catalogues[language] as Record<string, string>).flatMap(
      ([key, text]) =>
        glossaryViolations(language, text).map((violation) => `${key}: ${violation}`),
    );
    expect(broken).toEqual([]);
  });

  it("catches the forms it forbids", () => {
    expect(glossaryViolations("en", "Log out")).toHaveLength(1);
    expect(glossaryViolations("en", "Your login code")).toHaveLength(1);
    expect(glossaryViolations("en", "Your e-mail address")).toHaveLength(1);
    expect(glossaryViolations("en", "check your username")).toHaveLength(1);
    expect(glossaryViolations("en", "Use Authenticator")).toHaveLength(1);
    expect(
      glossaryViolations("en", "Please complete the second authentication challenge."),
    ).toHaveLength(1);
    expect(glossaryViolations("en", "Sign out of your email account")).toEqual([]);
    for (const tuteo of [
      "Inténtalo de nuevo.",
      "Introduce tu código.",
      "Si no pediste el código, ignora este mensaje.",
      "o abre este enlace:",
      "Puedes cerrar esta ventana.",
      "Haz clic aquí.",
      "Inicia sesión.",
    ]) {
      expect(glossaryViolations("es", tuteo), tuteo).not.toEqual([]);
    }
    for (const usted of [
      "Inténtelo de nuevo.",
      "Introduzca su código.",
      "Si no pidió el código, ignore este mensaje.",
      "o abra este enlace:",
      "Puede cerrar esta ventana.",
      "Ese correo electrónico ya lo usa otra cuenta.",
      "Inicie sesión.",
    ]) {
      expect(glossaryViolations("es", usted), usted).toEqual([]);
    }
  });
});

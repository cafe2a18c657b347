import glossary from "./glossary.json";

/** A language the glossary covers (the portal's locales). */
export type GlossaryLanguage = "en" | "es";

interface ForbiddenTerm {
  pattern: string;
  use: string;
  caseSensitive?: boolean;
}

const compiled = Object.fromEntries(
  (["en", "es"] as const).map((language) => [
    language,
    (glossary[language].forbidden as readonly ForbiddenTerm[]).map((term) => ({
      regex: new RegExp(term.pattern, term.caseSensitive ? "u" : "iu"),
      use: term.use,
    })),
  ]),
) as Record<GlossaryLanguage, readonly { regex: RegExp; use: string }[]>;

/**
 * The glossary's complaints about one text: each forbidden form it contains, with the word to
 * use instead ("e-mail → email"). Empty when the text keeps to the glossary.
 */
export function glossaryViolations(language: GlossaryLanguage, text: string): string[] {
  return compiled[language].flatMap(({ regex, use }) => {
    const found = regex.exec(text);
    return found ? [`"${found[0].trim()}" → ${use}`] : [];
  });
}

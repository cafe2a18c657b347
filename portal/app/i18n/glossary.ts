import glossary from "./glossary.json";

/** A language the glossary covers (the portal's locales). */
export type GlossaryLanguage = "en" | "es";

interface ForbiddenTerm {
  pattern: string;
  use: string;
  caseSensitive?: boolean;
}

type CompiledTerm = { regex: RegExp; use: string };

function compile(terms: readonly ForbiddenTerm[]): readonly CompiledTerm[] {
  return terms.map((term) => ({
    regex: new RegExp(term.pattern, term.caseSensitive ? "u" : "iu"),
    use: term.use,
  }));
}

const compiled: Record<GlossaryLanguage, readonly CompiledTerm[]> = {
  en: compile(glossary.en.forbidden),
  es: compile(glossary.es.forbidden),
};

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

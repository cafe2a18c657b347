import { readFileSync } from "node:fs";
import { icuLiteral } from "./icu-literal.ts";
import { ownMessages } from "./own-messages.ts";

/** A UI text as Kratos serialises it (`uiText` in the OpenAPI spec). */
export interface UiText {
  id: number;
  text: string;
  type: "info" | "error" | "success";
  context?: Record<string, unknown>;
}

interface CatalogueEntry {
  id: number;
  type: "info" | "error" | "success";
  text: string | null;
}

// The catalogue is the vendored copy of Kratos' message ids and texts, so texts are never typed by hand.
const catalogueUrl = new URL("../../../vendor/ory/kratos-messages.json", import.meta.url);
const catalogue = new Map<number, CatalogueEntry>(
  [...(JSON.parse(readFileSync(catalogueUrl, "utf8")) as CatalogueEntry[]), ...ownMessages].map(
    (entry) => [entry.id, entry],
  ),
);

const ownIds = new Set(ownMessages.map((entry) => entry.id));

function sortedContext(context: Record<string, unknown>): Record<string, unknown> {
  // Kratos builds contexts from Go maps, which encode with sorted keys.
  return Object.fromEntries(Object.entries(context).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * Builds the message with the given id. `values` fill the `{placeholders}` of the catalogue text;
 * `context` is what Kratos attaches as machine-readable context (defaults to the values).
 */
export function uiText(
  id: number,
  values: Record<string, string | number> = {},
  context?: Record<string, unknown>,
): UiText {
  const entry = catalogue.get(id);
  if (!entry || entry.text === null) throw new Error(`Unknown Kratos message id ${id}`);
  // Kratos' own ids keep Kratos' text exactly; ours are safe for ICU formatters (icu-literal.ts).
  const literal = ownIds.has(id) ? icuLiteral : (value: string) => value;
  const text = entry.text.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? literal(String(values[key])) : whole,
  );
  const message: UiText = { id, text, type: entry.type };
  const ctx = context ?? (Object.keys(values).length > 0 ? values : undefined);
  if (ctx) message.context = sortedContext(ctx);
  return message;
}

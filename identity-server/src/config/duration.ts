// Parses Go-style durations ("24h", "1h30m", "1.5s", "500ms") because Kratos configures lifespans that way
// and operators copy values between the two.
const unitMs: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

const segment = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/y;

/** Returns the duration in milliseconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const input = text.trim();
  if (input === "" || input === "0") return input === "0" ? 0 : undefined;
  segment.lastIndex = 0;
  let total = 0;
  while (segment.lastIndex < input.length) {
    const match = segment.exec(input);
    if (!match) return undefined;
    const [, amount, unit] = match;
    total += Number(amount) * (unitMs[unit ?? ""] ?? Number.NaN);
  }
  return Number.isFinite(total) ? total : undefined;
}

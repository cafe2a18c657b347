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
  const trimmed = text.trim();
  const sign = trimmed.startsWith("-") ? -1 : 1;
  const input = trimmed.replace(/^[+-]/, "");
  if (input === "" || input === "0") return input === "0" ? 0 : undefined;
  segment.lastIndex = 0;
  let total = 0;
  while (segment.lastIndex < input.length) {
    const match = segment.exec(input);
    if (!match) return undefined;
    const [, amount, unit] = match;
    total += Number(amount) * (unitMs[unit ?? ""] ?? Number.NaN);
  }
  return Number.isFinite(total) ? sign * total : undefined;
}

/** Formats milliseconds as Go's time.Duration.String does ("1h0m0s", "-1h0m0s", "1.5s", "500ms"). */
export function formatGoDuration(ms: number): string {
  const sign = ms < 0 ? "-" : "";
  const abs = Math.abs(ms);
  if (abs === 0) return "0s";
  if (abs < 1000) {
    if (abs >= 1) return `${sign}${trimZeros(abs.toFixed(6))}ms`;
    if (abs >= 1e-3) return `${sign}${trimZeros((abs * 1e3).toFixed(3))}µs`;
    return `${sign}${Math.round(abs * 1e6)}ns`;
  }
  const hours = Math.floor(abs / 3_600_000);
  const minutes = Math.floor((abs % 3_600_000) / 60_000);
  const seconds = trimZeros(((abs % 60_000) / 1000).toFixed(9));
  if (hours > 0) return `${sign}${hours}h${minutes}m${seconds}s`;
  if (minutes > 0) return `${sign}${minutes}m${seconds}s`;
  return `${sign}${seconds}s`;
}

function trimZeros(fixed: string): string {
  return fixed.includes(".") ? fixed.replace(/\.?0+$/, "") : fixed;
}

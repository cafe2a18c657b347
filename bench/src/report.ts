// The console table and bench/results.json.
import { writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";

export interface Row {
  figure: string;
  value: string;
  target: string;
  /** undefined: a figure without a target. */
  pass?: boolean;
  /** A ratio of two figures measured side by side: judged only when the machine was quiet. */
  ratio?: true;
  /** Said in the result column instead of pass or fail (a ratio of a busy run). */
  verdict?: string;
}

export const bytes = (n: number): string => `${Math.round(n).toLocaleString("en-US")} B`;
export const ms = (n: number): string =>
  Number.isFinite(n) ? `${n < 10 ? n.toFixed(1) : Math.round(n)} ms` : "—";
export const perSecond = (n: number): string => `${n < 100 ? n.toFixed(1) : Math.round(n)}/s`;
export const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;

export function atMost(
  figure: string,
  value: number,
  limit: number,
  format: (n: number) => string,
): Row {
  return { figure, value: format(value), target: `≤ ${format(limit)}`, pass: value <= limit };
}

export function atLeast(
  figure: string,
  value: number,
  limit: number,
  format: (n: number) => string,
): Row {
  return { figure, value: format(value), target: `≥ ${format(limit)}`, pass: value >= limit };
}

/** {@link atLeast} for a ratio (see {@link judgeRatios}). */
export function atLeastRatio(
  figure: string,
  value: number,
  limit: number,
  format: (n: number) => string,
): Row {
  return { ...atLeast(figure, value, limit, format), ratio: true };
}

const notMeasuredBusy = "not measured (busy)";

/** On a busy machine (machine-load.ts) a ratio row says so instead of pass or fail. */
export function judgeRatios(rows: Row[], busy: boolean): Row[] {
  if (!busy) return rows;
  return rows.map((row) =>
    row.ratio && row.pass !== undefined
      ? {
          figure: row.figure,
          value: row.value,
          target: row.target,
          ratio: true,
          verdict: notMeasuredBusy,
        }
      : row,
  );
}

export const info = (figure: string, value: string): Row => ({ figure, value, target: "—" });

export function printTable(rows: Row[]): string {
  const verdict = (row: Row) =>
    row.verdict ?? (row.pass === undefined ? "" : row.pass ? "pass" : "FAIL");
  const widths = [
    Math.max(6, ...rows.map((r) => r.figure.length)),
    Math.max(5, ...rows.map((r) => r.value.length)),
    Math.max(6, ...rows.map((r) => r.target.length)),
  ];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  const text = [
    line(["figure", "value", "target", "result"]),
    line(widths.map((w) => "-".repeat(w)).concat("------")),
    ...rows.map((r) => line([r.figure, r.value, r.target, verdict(r)])),
  ].join("\n");
  console.log(text);
  return text;
}

/** The figures as a markdown table (bench/RESULTS.md). */
export function markdownTable(rows: Row[]): string {
  const verdict = (row: Row) =>
    row.verdict ?? (row.pass === undefined ? "" : row.pass ? "pass" : "**fail**");
  return [
    "| figure | value | target | result |",
    "| --- | --- | --- | --- |",
    ...rows.map((r) => `| ${r.figure} | ${r.value} | ${r.target} | ${verdict(r)} |`),
  ].join("\n");
}

export function machine() {
  return {
    cpuModel: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    ramBytes: totalmem(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function writeResults(file: string, data: Record<string, unknown>): void {
  writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`);
}

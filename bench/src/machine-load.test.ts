import { describe, expect, it } from "vitest";
import { judgeLoad, loadStatement, type LoadReading } from "./machine-load.ts";
import { atLeast, atLeastRatio, atMost, judgeRatios, markdownTable } from "./report.ts";

const reading = (load1: number, own: number): LoadReading => ({ load1, load5: 0, load15: 0, own });

describe("the busy-machine rule", () => {
  it("counts only the load beyond the bench's own processes", () => {
    // At the end the bench itself keeps both cores busy: that is not other work.
    const verdict = judgeLoad(2, reading(0.2, 0), reading(2.6, 2.1));
    expect(verdict).toMatchObject({ others: 0.5, limit: 1, busy: false });
    expect(loadStatement(verdict)).toMatch(/quiet enough/);
  });

  it("is busy when other work exceeds half the cores at the start", () => {
    const verdict = judgeLoad(2, reading(1.2, 0), reading(2, 2));
    expect(verdict).toMatchObject({ others: 1.2, busy: true });
    expect(loadStatement(verdict)).toMatch(/ratios of this run are not meaningful/);
  });

  it("is busy when other work exceeds half the cores at the end", () => {
    expect(judgeLoad(2, reading(0, 0), reading(3.5, 2)).busy).toBe(true);
    expect(judgeLoad(4, reading(0, 0), reading(3.5, 2)).busy).toBe(false);
  });

  it("is not busy at exactly half the cores", () => {
    expect(judgeLoad(2, reading(1, 0), reading(1, 0)).busy).toBe(false);
  });
});

describe("ratio rows on a busy machine", () => {
  const table = [
    atLeastRatio("logins ÷ hash-bound limit", 0.4, 0.8, String),
    atLeast("Lighthouse", 100, 95, String),
    atMost("peak RSS", 250, 200, String),
  ];

  it("say 'not measured (busy)' instead of pass or fail; other targets are still judged", () => {
    const judged = judgeRatios(table, true);
    expect(judged.map((r) => [r.pass, r.verdict])).toEqual([
      [undefined, "not measured (busy)"],
      [true, undefined],
      [false, undefined],
    ]);
    expect(markdownTable(judged)).toContain("| 0.4 | ≥ 0.8 | not measured (busy) |");
  });

  it("are judged as usual on a quiet machine", () => {
    expect(judgeRatios(table, false)[0]).toMatchObject({ pass: false });
    expect(markdownTable(judgeRatios(table, false))).toContain("| 0.4 | ≥ 0.8 | **fail** |");
  });
});

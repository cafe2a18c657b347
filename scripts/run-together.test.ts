import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { labelOf, runTogether } from "./run-together.ts";

/** A command that runs a line of JavaScript in this Node. */
function node(code: string): string {
  return `"${process.execPath}" -e ${JSON.stringify(code)}`;
}

async function run(commands: string[]): Promise<{ exitCode: number; printed: string[] }> {
  const printed: string[] = [];
  const exitCode = await runTogether(commands, (text) => printed.push(text));
  return { exitCode, printed };
}

describe("runTogether", () => {
  it("runs the commands at the same time", async () => {
    // Each command waits for a file the other one writes: run one after the other, neither ends.
    const giveUpMs = 5_000;
    const dir = mkdtempSync(join(tmpdir(), "run-together-"));
    const waitFor = (mine: string, theirs: string) =>
      node(
        `const fs=require("fs");fs.writeFileSync(${JSON.stringify(join(dir, mine))},"");` +
          `const t=setInterval(()=>{if(fs.existsSync(${JSON.stringify(join(dir, theirs))}))` +
          `{clearInterval(t);clearTimeout(g);console.log("${mine} saw ${theirs}")}},20);` +
          // Alone, it gives up (and fails) rather than waiting for ever.
          `const g=setTimeout(()=>{clearInterval(t);process.exitCode=9},${giveUpMs})`,
      );
    const { exitCode, printed } = await run([waitFor("a", "b"), waitFor("b", "a")]);
    rmSync(dir, { recursive: true });
    expect(exitCode).toBe(0);
    expect(printed.join("")).toContain("a saw b");
    expect(printed.join("")).toContain("b saw a");
  }, 15_000);

  it("prints each command's output as one block, every line prefixed", async () => {
    const { printed } = await run([
      node('console.log("one");console.error("two");console.log("three")'),
    ]);
    expect(printed).toHaveLength(1);
    const lines = printed[0]?.trimEnd().split("\n") ?? [];
    expect(lines[0]).toMatch(/^── .+: exit code 0 after [\d.]+ s ──$/);
    // stdout and stderr are two pipes: their lines keep their own order, not each other's.
    const texts = lines.slice(1).map((line) => line.replace(/^\[.+?\] /, ""));
    expect(texts.filter((text) => text !== "two")).toEqual(["one", "three"]);
    expect(texts).toContain("two");
    expect(texts).toHaveLength(3);
    for (const line of lines.slice(1)) expect(line).toMatch(/^\[.+\] /);
  });

  it("fails with the exit code of the first command that failed, after all have ended", async () => {
    const { exitCode, printed } = await run([
      node("process.exitCode = 0"),
      node('setTimeout(() => { console.log("late"); process.exitCode = 3 }, 200)'),
      node("process.exitCode = 5"),
    ]);
    expect(exitCode).toBe(3);
    expect(printed).toHaveLength(3);
    expect(printed.join("")).toContain("late");
  });

  it("fails when a command cannot be found", async () => {
    const { exitCode } = await run(["no-such-command-anywhere-42"]);
    expect(exitCode).toBe(127);
  });

  it("refuses to run nothing", async () => {
    await expect(runTogether([])).rejects.toThrow(/at least one command/);
  });
});

describe("labelOf", () => {
  it("names an npm script by the script, anything else by the command", () => {
    expect(labelOf("npm run typecheck")).toBe("typecheck");
    expect(labelOf(" eslint . ")).toBe("eslint .");
  });
});

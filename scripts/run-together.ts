// Runs shell commands at the same time and fails when any of them fails: `npm test` runs the
// type check and the linters this way, since each of them uses one core and the machine has two.
// Each command's output is held until it ends and then printed as one block, every line prefixed
// with the command's name, so the two never interleave line by line.
//
//   node scripts/run-together.ts "npm run typecheck" "npm run lint"
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export type Outcome = { command: string; exitCode: number; seconds: number };

/** The name a command's lines are prefixed with: an npm script's name, else the command. */
export function labelOf(command: string): string {
  return /^npm run (\S+)$/.exec(command.trim())?.[1] ?? command.trim();
}

function runOne(command: string, write: (text: string) => void): Promise<Outcome> {
  const startedAt = performance.now();
  const label = labelOf(command);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const child = spawn(command, { shell: true, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    let finished = false;
    const finish = (exitCode: number) => {
      // "error" and "close" can both come for one child.
      if (finished) return;
      finished = true;
      const seconds = Math.round((performance.now() - startedAt) / 100) / 10;
      const lines = Buffer.concat(chunks).toString("utf8").replace(/\n$/, "").split("\n");
      const body = lines[0] === "" && lines.length === 1 ? [] : lines;
      write(
        [
          `── ${label}: exit code ${exitCode} after ${seconds} s ──`,
          ...body.map((line) => `[${label}] ${line}`),
          "",
        ].join("\n"),
      );
      resolve({ command, exitCode, seconds });
    };
    // A command the shell cannot start still ends in "close" (exit code 127); "error" is for
    // a shell that could not be spawned at all.
    child.on("error", (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(1);
    });
    // Killed by a signal: the shell's convention, 128 + the signal's number.
    child.on("close", (code, signal) =>
      finish(code ?? (signal ? 128 + (signalNumbers[signal] ?? 0) : 1)),
    );
  });
}

const signalNumbers: Partial<Record<NodeJS.Signals, number>> = {
  SIGHUP: 1,
  SIGINT: 2,
  SIGKILL: 9,
  SIGTERM: 15,
};

/**
 * Runs every command at once and waits for all of them (so every failure is reported, not just
 * the first). The result is the exit code of the first failed command in the order given, else 0.
 */
export async function runTogether(
  commands: string[],
  write: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  if (commands.length === 0) throw new Error("run-together: give at least one command");
  const outcomes = await Promise.all(commands.map((command) => runOne(command, write)));
  return outcomes.find((outcome) => outcome.exitCode !== 0)?.exitCode ?? 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.exitCode = await runTogether(process.argv.slice(2));
}

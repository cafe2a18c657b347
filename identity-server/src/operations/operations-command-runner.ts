import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

// Runs operations-command.ts as `npm run backup/restore/cleanup` would, in its own process.

const commandScript = fileURLToPath(new URL("./operations-command.ts", import.meta.url));

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runOperationsCommand(
  args: string[],
  env: Record<string, string>,
): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [commandScript, ...args],
      { env: { PATH: process.env.PATH, ...env }, timeout: 120_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

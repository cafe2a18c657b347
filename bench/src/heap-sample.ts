// Reads the sampling heap profile heap-sample-hook.mjs writes and prints it per answered request:
// bytes by allocation site (function, file and line) and by origin (a package or our source file).
import { existsSync, readFileSync, rmSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

interface SampleNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SampleNode[];
}

export interface HeapSample {
  head: SampleNode;
  scavenges: number;
}

/** Waits (up to 30 s) for the server to write the profile, then reads and removes it. */
export async function heapSample(file: string): Promise<HeapSample> {
  for (let i = 0; i < 300 && !existsSync(file); i++) await delay(100);
  // The hook writes the file in one call; a partial read shows as a JSON error, so read twice.
  await delay(200);
  const sample = JSON.parse(readFileSync(file, "utf8")) as HeapSample;
  rmSync(file);
  return sample;
}

/** `node_modules/<package>` or the file's path below the repository, for grouping. */
function origin(url: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules?.[1]) return modules[1];
  if (url.startsWith("node:") || url === "") return url || "(V8 / native)";
  const source = /\/((?:identity-server|bench)\/src\/.*)$/.exec(url);
  return source?.[1] ?? url;
}

const frame = ({ callFrame: { functionName, url, lineNumber } }: SampleNode) =>
  `${functionName || "(anonymous)"} ${origin(url)}:${lineNumber + 1}`;

export function printHeapSample(sample: HeapSample, answers: number): void {
  const sites = new Map<string, number>();
  const origins = new Map<string, number>();
  let total = 0;
  // A site is the allocating function and its caller (nextTick or Map say little on their own).
  const walk = (node: SampleNode, caller: SampleNode | undefined) => {
    if (node.selfSize > 0) {
      total += node.selfSize;
      const site = `${frame(node)}${caller ? ` ← ${frame(caller)}` : ""}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
      const from = origin(node.callFrame.url);
      origins.set(from, (origins.get(from) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, node);
  };
  walk(sample.head, undefined);
  const perAnswer = (bytes: number) => Math.round(bytes / Math.max(1, answers));
  const top = (map: Map<string, number>, n: number) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, bytes]) => `    ${String(perAnswer(bytes)).padStart(6)} B  ${name}`)
      .join("\n");
  console.log(
    `  heap sample: ${perAnswer(total)} B allocated per answer (${answers} answers), ` +
      `${sample.scavenges} scavenges (${((sample.scavenges * 10_000) / Math.max(1, answers)).toFixed(1)} per 10,000)`,
  );
  console.log(`  by origin:\n${top(origins, 15)}`);
  console.log(`  by allocation site:\n${top(sites, 40)}`);
}

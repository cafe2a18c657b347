// A server's RSS split by what holds it, from /proc/<pid>/smaps: the Node binary's own pages,
// shared libraries, other mapped files (the SQLite database, its -shm), glibc's malloc (the main
// arena's [heap] and the per-thread arenas libuv's pool threads get), V8's 256 KiB pages and its
// code range, the blocks of password hashes in flight (argon2id's 19 MiB, scrypt's 16 MiB: their
// own mappings past glibc's mmap threshold), other large anonymous mappings (V8's new space and
// large objects, big buffers) and the rest (thread stacks, small mappings).
import { readFileSync } from "node:fs";

export interface MemoryParts {
  total: number;
  nodeBinary: number;
  sharedLibraries: number;
  otherFiles: number;
  mainArena: number;
  threadArenas: number;
  v8Pages: number;
  hashBlocks: number;
  largeBlocks: number;
  otherAnonymous: number;
}

interface Mapping {
  start: bigint;
  end: bigint;
  perms: string;
  name: string;
  rss: number;
}

// glibc's per-thread arenas are heaps of HEAP_MAX_SIZE (64 MiB on 64-bit), aligned to it: a
// read-write part followed by the reserved (---p) rest of the 64 MiB.
const arenaSize = 64n * 2n ** 20n;
const v8PageSize = 256n * 2n ** 10n;
const largeBlock = 2n ** 20n;
// argon2id's 19 MiB and scrypt's 16 MiB, plus malloc's header rounded up to a page.
const hashBlockSizes = { min: 16n * 2n ** 20n, max: 19n * 2n ** 20n + 2n ** 16n };

function parse(smaps: string): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of smaps.split("\n")) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current = {
        start: BigInt(`0x${header[1]}`),
        end: BigInt(`0x${header[2]}`),
        perms: header[3] ?? "",
        name: header[4] ?? "",
        rss: 0,
      };
      mappings.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rss = Number(rss[1]) * 1024;
  }
  return mappings;
}

/** Splits the text of /proc/<pid>/smaps into the parts above (bytes of RSS each). */
export function memoryPartsOf(smaps: string): MemoryParts {
  const parts: MemoryParts = {
    total: 0,
    nodeBinary: 0,
    sharedLibraries: 0,
    otherFiles: 0,
    mainArena: 0,
    threadArenas: 0,
    v8Pages: 0,
    hashBlocks: 0,
    largeBlocks: 0,
    otherAnonymous: 0,
  };
  const mappings = parse(smaps);
  mappings.forEach((m, i) => {
    parts.total += m.rss;
    const size = m.end - m.start;
    const next = mappings[i + 1];
    if (m.name === "[heap]") parts.mainArena += m.rss;
    else if (/\/node$/.test(m.name)) parts.nodeBinary += m.rss;
    else if (/\.so(\.|$)/.test(m.name)) parts.sharedLibraries += m.rss;
    else if (m.name.startsWith("/")) parts.otherFiles += m.rss;
    else if (m.name !== "" && m.name !== "[anon]") parts.otherAnonymous += m.rss;
    else if (
      m.start % arenaSize === 0n &&
      m.perms.startsWith("rw") &&
      next?.start === m.end &&
      next.perms.startsWith("---") &&
      next.end - m.start === arenaSize
    )
      parts.threadArenas += m.rss;
    else if (size === v8PageSize && m.start % v8PageSize === 0n) parts.v8Pages += m.rss;
    else if (m.perms.startsWith("rwx"))
      parts.v8Pages += m.rss; // the code range
    else if (size >= hashBlockSizes.min && size <= hashBlockSizes.max && m.perms.startsWith("rw"))
      parts.hashBlocks += m.rss;
    else if (size >= largeBlock && m.perms.startsWith("rw")) parts.largeBlocks += m.rss;
    else parts.otherAnonymous += m.rss;
  });
  return parts;
}

/** The parts of a running process, or undefined once it is gone. */
export function memoryParts(pid: number): MemoryParts | undefined {
  try {
    return memoryPartsOf(readFileSync(`/proc/${pid}/smaps`, "utf8"));
  } catch {
    return undefined;
  }
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)}`;

/** One line: total and each part in MB. */
export function describeParts(parts: MemoryParts): string {
  return (
    `total ${mb(parts.total)} MB = node binary ${mb(parts.nodeBinary)}, libraries ` +
    `${mb(parts.sharedLibraries)}, other files ${mb(parts.otherFiles)}, malloc main ` +
    `${mb(parts.mainArena)}, malloc thread arenas ${mb(parts.threadArenas)}, V8 pages ` +
    `${mb(parts.v8Pages)}, hash blocks ${mb(parts.hashBlocks)}, other large ` +
    `${mb(parts.largeBlocks)}, other anonymous ` +
    `${mb(parts.otherAnonymous)}`
  );
}

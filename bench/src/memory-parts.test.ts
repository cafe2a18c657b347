import { describe, expect, it } from "vitest";
import { memoryPartsOf } from "./memory-parts.ts";

// One smaps entry: the header line and the Rss line the parser reads (the kernel prints more).
const entry = (start: bigint, end: bigint, perms: string, name: string, rssKb: number) =>
  `${start.toString(16)}-${end.toString(16)} ${perms} 00000000 00:00 0    ${name}\nSize: ${(end - start) / 1024n} kB\nRss: ${rssKb} kB\n`;

const MiB = 2n ** 20n;

describe("memoryPartsOf", () => {
  it("tells the Node binary, libraries, files, malloc arenas, V8, hash and large blocks apart", () => {
    const arena = 64n * MiB * 1000n; // aligned to glibc's 64 MiB heaps
    const smaps = [
      entry(0x400000n, 0x400000n + 80n * MiB, "r-xp", "/usr/local/bin/node", 50 * 1024),
      entry(0x10000000n, 0x10000000n + 8n * MiB, "rw-p", "[heap]", 6 * 1024),
      entry(arena, arena + 12n * MiB, "rw-p", "", 11 * 1024),
      entry(arena + 12n * MiB, arena + 64n * MiB, "---p", "", 0),
      entry(0x7f0000040000n, 0x7f0000080000n, "rw-p", "", 256),
      entry(0x7f0000100000n, 0x7f0000100000n + 19n * MiB + 4096n, "rw-p", "", 19 * 1024),
      entry(0x7f1000000000n, 0x7f1000200000n, "r-xp", "/usr/lib/x86_64-linux-gnu/libc.so.6", 1024),
      entry(0x7f2000000000n, 0x7f2000000000n + 4n * MiB, "rw-s", "/data/identity.sqlite-shm", 32),
      entry(0x7f3000000000n, 0x7f3000010000n, "rw-p", "", 16),
      entry(0x7f4000000000n, 0x7f4000000000n + 32n * MiB, "rw-p", "", 2048),
      entry(0x7f5000000000n, 0x7f5000000000n + 512n * MiB, "rwxp", "", 3072),
      entry(0x7ffc00000000n, 0x7ffc00100000n, "rw-p", "[stack]", 100),
    ].join("");
    expect(memoryPartsOf(smaps)).toEqual({
      total: (50 + 6 + 11 + 19 + 1 + 2 + 3) * 2 ** 20 + (256 + 32 + 16 + 100) * 1024,
      nodeBinary: 50 * 2 ** 20,
      sharedLibraries: 2 ** 20,
      otherFiles: 32 * 1024,
      mainArena: 6 * 2 ** 20,
      threadArenas: 11 * 2 ** 20,
      v8Pages: 256 * 1024 + 3 * 2 ** 20,
      hashBlocks: 19 * 2 ** 20,
      largeBlocks: 2 * 2 ** 20,
      otherAnonymous: (16 + 100) * 1024,
    });
  });

  it("does not take a 64 MiB-aligned mapping without its reserved tail for an arena", () => {
    const start = 64n * MiB * 2000n;
    const smaps = entry(start, start + 2n * MiB, "rw-p", "", 2048);
    expect(memoryPartsOf(smaps)).toMatchObject({ threadArenas: 0, largeBlocks: 2 ** 21 });
  });
});

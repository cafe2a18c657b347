// The V8 flags and glibc malloc settings each server runs with, to stay inside DESIGN §6's 200 MB
// of RSS under load (identity-server/README.md says why each is there). start-all passes them;
// each workspace's `npm start` spells the same ones out (memory-settings.test.ts compares them).
// Both must be in place before the process starts: V8 sizes its heap and glibc reads its tunables
// once, at start-up, so neither can be set from inside the server.

interface MemorySettings {
  /** Node/V8 flags before the script. */
  nodeArgs: string[];
  /** Environment variables glibc reads at start-up (a caller's own values win). */
  env: Record<string, string>;
}

/**
 * glibc malloc: allocations from 1 MiB up (an argon2id hash's 19 MiB, a client secret scrypt's
 * 16 MiB, both in libuv pool threads) get their own mapping, returned on free, instead of staying
 * in a pool thread's arena once the dynamic threshold has risen; and threads share two arenas
 * instead of one each, which otherwise keep tens of MB half empty (the portal's: 37–53 MB of
 * thread arenas after the bench's page views, 16 MB with two).
 */
const mallocEnv = {
  GLIBC_TUNABLES: "glibc.malloc.mmap_threshold=1048576",
  MALLOC_ARENA_MAX: "2",
};

export const memorySettings = {
  "identity-server": {
    // V8's young generation and old-generation growth capped: on a machine with plenty of RAM it
    // lets the young generation grow to 128 MB under load.
    nodeArgs: ["--max-semi-space-size=4", "--heap-growing-percent=50"],
    env: mallocEnv,
  },
  portal: {
    // Server renders allocate fast enough for V8 to grow the young generation to 128 MB on a
    // large-RAM machine (RSS 250+ MB, 50 MB live).
    nodeArgs: ["--max-semi-space-size=8", "--heap-growing-percent=50"],
    env: mallocEnv,
  },
} as const satisfies Record<string, MemorySettings>;

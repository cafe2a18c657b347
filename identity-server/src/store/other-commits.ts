import { closeSync, openSync, readSync } from "node:fs";

// The WAL index (`<database>-shm`, shared by every connection through mmap) begins with its header,
// written on every commit: https://sqlite.org/walformat.html#the_wal_index_file_format. Of its two
// copies the first is written last, so once it shows a commit, that commit is complete.
const headerBytes = 48;

/**
 * SQLite's `PRAGMA data_version` (it changes when another connection commits), asked only when the
 * WAL index's header changed since the last answer. The pragma starts and ends a read transaction
 * (two `fcntl` locks and the statement, 8–10 µs on the whoami path); reading the header is one
 * `pread` of 48 bytes. Every commit by any connection rewrites the header before it returns, so an
 * unchanged header means no commit completed since: the last answer stands. The header is read
 * before the pragma is asked, so a commit between the two is seen at the next call. Without a
 * readable index (not WAL, in memory) the pragma is asked every time, as before.
 */
export class OtherCommits {
  readonly #ask: () => number;
  #fd: number | undefined;
  readonly #read = Buffer.alloc(headerBytes);
  readonly #asked = Buffer.alloc(headerBytes);
  #known = false;
  #version = 0;

  /** `ask` runs `PRAGMA data_version` on the connection; `walIndexPath` is `<database>-shm`. */
  constructor(ask: () => number, walIndexPath: string | undefined) {
    this.#ask = ask;
    // A connection creates the index at its first read in WAL mode.
    this.#version = ask();
    this.#fd = walIndexPath === undefined ? undefined : openIfPresent(walIndexPath);
  }

  version(): number {
    const fd = this.#fd;
    if (fd === undefined) return this.#ask();
    const complete = readSync(fd, this.#read, 0, headerBytes, 0) === headerBytes;
    if (complete && this.#known && this.#read.equals(this.#asked)) return this.#version;
    this.#read.copy(this.#asked);
    this.#known = complete;
    this.#version = this.#ask();
    return this.#version;
  }

  close(): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}

function openIfPresent(file: string): number | undefined {
  try {
    return openSync(file, "r");
  } catch {
    return undefined;
  }
}

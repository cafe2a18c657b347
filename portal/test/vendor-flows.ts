import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Plain paths, not URL objects: under jsdom the global URL is not Node's.
const vendorDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "vendor", "ory");

/** A file of real Kratos JSON from vendor/ory/flows (parsed, untyped, as it came off the wire). */
export function vendorJson(file: string): unknown {
  return JSON.parse(readFileSync(join(vendorDir, "flows", file), "utf8"));
}

export interface VendorMessage {
  id: number;
  text: string | null;
  context_keys: string[];
}

export function vendorMessages(): VendorMessage[] {
  return JSON.parse(
    readFileSync(join(vendorDir, "kratos-messages.json"), "utf8"),
  ) as VendorMessage[];
}

import type { UiNode } from "@portal/client";
import { isRecord, isTextAttributes } from "../../../flows/node-guards.ts";

const backupCodesNodeId = "lookup_secret_codes";

/** One entry of the codes node: a code in the clear, a stored one, or a used one. */
export type BackupCode =
  { kind: "code"; code: string } | { kind: "hidden" } | { kind: "used"; usedAt: string };

/** Kratos message ids of the entries: 1050009 "{secret}", 1050014 "used at {used_at}". */
const codeMessage = 1050009;
const usedMessage = 1050014;
/** Stored codes are kept hashed: "reveal" can only show them masked. */
const masked = /^\*+$/;

export function isBackupCodesNode(node: UiNode): boolean {
  return isTextAttributes(node.attributes) && node.attributes.id === backupCodesNodeId;
}

/** The codes node's entries (its text context's `secrets`), in order; [] without the node. */
export function readBackupCodes(nodes: readonly UiNode[]): BackupCode[] {
  const node = nodes.find(isBackupCodesNode);
  if (!node || !isTextAttributes(node.attributes)) return [];
  const context: unknown = node.attributes.text.context;
  const secrets = isRecord(context) && Array.isArray(context.secrets) ? context.secrets : [];
  return secrets.flatMap((entry: unknown): BackupCode[] => {
    if (!isRecord(entry) || !isRecord(entry.context)) return [];
    const { secret, used_at: usedAt } = entry.context;
    if (entry.id === usedMessage && typeof usedAt === "string") return [{ kind: "used", usedAt }];
    if (entry.id !== codeMessage || typeof secret !== "string" || secret === "") return [];
    return [masked.test(secret) ? { kind: "hidden" } : { kind: "code", code: secret }];
  });
}

/** The codes that can still be written down: only right after they were generated. */
export function codesInClear(codes: readonly BackupCode[]): string[] {
  return codes.flatMap((code) => (code.kind === "code" ? [code.code] : []));
}

/** The downloaded file: a title, how to treat it, then one code a line. */
export function backupCodesFile(title: string, note: string, codes: readonly string[]): string {
  return [title, note, "", ...codes, ""].join("\n");
}

/**
 * The file as a link target, so "Download" is a plain link: it works without scripts and
 * needs no object URL to clean up.
 */
export function downloadHref(content: string): string {
  return `data:text/plain;charset=utf-8,${encodeURIComponent(content)}`;
}

export const backupCodesFileName = "backup-codes.txt";

import { Secret, TOTP, URI } from "otpauth";
import { parseTotpUrl } from "../../identity/totp-url.ts";

// Kratos' key parameters (strategy/totp/generator.go): SHA1, six digits, 30-second steps and a
// 160-bit secret, the length RFC 4226 recommends.
const algorithm = "SHA1";
const digits = 6;
const period = 30;
const secretBytes = 160 / 8;
/** Codes one step before or after the current one are accepted, for clock drift. */
const driftSteps = 1;

export interface TotpKey {
  /** The `otpauth://totp/…` key URI, stored as the credential's `totp_url`. */
  url: string;
  /** The base32 secret users type in when they cannot scan the QR code. */
  secret: string;
}

export function newTotpKey(issuer: string, accountName: string): TotpKey {
  const totp = new TOTP({
    issuer,
    label: accountName,
    algorithm,
    digits,
    period,
    secret: new Secret({ size: secretBytes }),
  });
  return { url: URI.stringify(totp), secret: totp.secret.base32 };
}

/** The 30-second step `at` falls into (the TOTP counter). */
export function totpStep(at: Date): number {
  return TOTP.counter({ period, timestamp: at.getTime() });
}

/**
 * The step whose code `code` is, if it is the code of the current step or of one step either
 * side; undefined for anything else (wrong code, wrong length, unreadable key).
 */
export function matchingTotpStep(url: string, code: string, at: Date): number | undefined {
  const totp = parseTotpUrl(url);
  if (!totp || !/^\d+$/.test(code) || code.length !== totp.digits) return undefined;
  const delta = totp.validate({ token: code, timestamp: at.getTime(), window: driftSteps });
  return delta === null
    ? undefined
    : TOTP.counter({ period: totp.period, timestamp: at.getTime() }) + delta;
}

/** The code for the step `at` falls into (tests and tools act as the authenticator app). */
export function totpCodeAt(url: string, at: Date): string {
  const totp = parseTotpUrl(url);
  if (!totp) throw new Error("not a TOTP key URI");
  return totp.generate({ timestamp: at.getTime() });
}

/**
 * The key as a 256×256 PNG QR code in a data URL, as Kratos renders `totp_qr`. qrcode is loaded on
 * the first use (TOTP set-up), not at start-up.
 */
export async function totpQrDataUrl(url: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toDataURL(url, { type: "image/png", width: 256, margin: 1 });
}

/** Email identifiers are compared case-insensitively after Unicode compatibility folding, like Kratos. */
export function normalizeEmail(value: string): string {
  return value.trim().normalize("NFKC").toLowerCase();
}

/** Phone numbers are stored in E.164: the leading + and digits, without formatting characters. */
export function normalizePhone(value: string): string {
  const compact = value
    .trim()
    .normalize("NFKC")
    .replace(/[\s().-]/g, "");
  return compact;
}

/** E.164 shape: "+", a non-zero country digit, 7–15 digits in total. */
export function isPhoneNumber(value: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(normalizePhone(value));
}

export function normalizeAddress(value: string, via: "email" | "sms"): string {
  return via === "sms" ? normalizePhone(value) : normalizeEmail(value);
}

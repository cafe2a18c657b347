import { parsePhoneNumber } from "react-phone-number-input";

/** Spec §9: numbers typed without a country code are read as US numbers. */
const defaultCountry = "US";

/**
 * What a browser without JavaScript typed into a phone field, as E.164 (+12025550123), or
 * undefined when it is not a valid number. (With JavaScript the picker posts E.164 already.)
 */
export function toE164(raw: string): string | undefined {
  try {
    const parsed = parsePhoneNumber(raw.trim(), defaultCountry);
    return parsed?.isValid() ? parsed.number : undefined;
  } catch {
    return undefined;
  }
}

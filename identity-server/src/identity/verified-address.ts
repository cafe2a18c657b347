import type { VerifiableAddress } from "./identity.ts";

/** The address was proven by a code sent to it: verified now (Kratos' status `completed`). */
export function markVerified(address: VerifiableAddress, now: Date): void {
  address.verified = true;
  address.verifiedAt = now;
  address.status = "completed";
  address.updatedAt = now;
}

/**
 * Messages for this server's extensions to Kratos (trusted devices, the `code` settings group,
 * rate limits).
 * Their ids live in 901xxxx, a range Kratos does not use, so a portal can tell them apart from
 * Kratos' own ids and never mistakes one for a Kratos message.
 */
export interface OwnMessage {
  id: number;
  type: "info" | "error" | "success";
  text: string;
}

export const ownMessages: readonly OwnMessage[] = [
  // Label of the `trust_device` checkbox on second-factor login forms; {days} is the lifespan.
  { id: 9010001, type: "info", text: "Trust this device for {days} days" },
  // Settings group `code`: turn codes to one verified address on or off as a second factor.
  { id: 9010002, type: "info", text: "Use codes sent to {address} as a second factor" },
  { id: 9010003, type: "info", text: "Stop using codes sent to {address} as a second factor" },
  // The `totp-trusted-devices` text node. Its text names the devices for UIs that do not know
  // them; its context's `data` is the JSON list for those that do. 9010009 when there is none.
  {
    id: 9010004,
    type: "info",
    text: "Trusted devices skip the second factor until they expire: {devices}.",
  },
  { id: 9010005, type: "info", text: "Trusted devices" },
  // The `totp_device_untrust` submit, one per trusted device; {device} says which.
  { id: 9010006, type: "info", text: "Stop trusting {device}" },
  // Rate limits (src/rate-limit): {wait} is "3 minutes" or "40 seconds"; the context gives
  // `retry_after_seconds` so a UI can word the wait in its own language.
  { id: 9010007, type: "error", text: "Too many attempts. Try again in {wait}." },
  {
    id: 9010008,
    type: "error",
    text: "Too many codes were requested for this address. Try again in {wait}.",
  },
  {
    id: 9010009,
    type: "info",
    text: "No device is trusted: every sign-in asks for the second factor.",
  },
];

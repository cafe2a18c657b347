/**
 * Every settings card's code, one chunk: the page asks for all of its cards at once while it
 * hydrates (cards/index.ts), so one request and one gzip stream serve them.
 */
export { BackupCodesCard } from "./backup-codes-card.tsx";
export { CodeMfaCard } from "./code-mfa-card.tsx";
export { PasskeysCard, SecurityKeysCard } from "./credentials-card.tsx";
export { PasswordCard } from "./password-card.tsx";
export { ProfileCard } from "./profile-card.tsx";
export { SessionsCard } from "./sessions-card.tsx";
export { TotpCard } from "./totp-card.tsx";
export { TrustedDevicesCard } from "./trusted-devices-card.tsx";

/**
 * The library's registration ceremony, in a chunk of its own: only a page that makes a passkey
 * or a security key loads it, when the person starts (a sign-in page never does).
 */
export { startRegistration } from "@simplewebauthn/browser";

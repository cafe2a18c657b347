import { uiText } from "../text/messages.ts";
import { ValidationError } from "../ui/validation-error.ts";
import { englishWait } from "./wait-text.ts";

/** 9010007: too many wrong passwords or second factors; 9010008: too many codes to one address. */
export const tooManyAttemptsId = 9010007;
export const tooManyCodesId = 9010008;

/**
 * A limited submission. It is a ValidationError, so every flow answers it like any failed
 * submission (browser: 303 back to the UI; JSON: 400 with the flow), with the message in
 * `ui.messages`; the flow error handler adds `Retry-After` to JSON answers.
 */
export class RateLimitedError extends ValidationError {
  readonly retryAfterSeconds: number;
  readonly messageId: number;

  constructor(messageId: number, retryAfterMs: number) {
    const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    super([
      {
        field: "",
        // The context holds every placeholder of the text, so a UI can format its own template.
        message: uiText(
          messageId,
          { wait: englishWait(retryAfterSeconds) },
          { retry_after_seconds: retryAfterSeconds, wait: englishWait(retryAfterSeconds) },
        ),
      },
    ]);
    this.name = "RateLimitedError";
    this.retryAfterSeconds = retryAfterSeconds;
    this.messageId = messageId;
  }
}

import { uiText } from "../../text/messages.ts";
import { ValidationError } from "../../ui/validation-error.ts";
import type { RegistrationStrategy } from "../registration-strategy.ts";
import { populateTraitNodes } from "./trait-nodes.ts";

/**
 * The profile strategy's part of one-step registration: the trait inputs, which every other
 * strategy's submission carries. Kratos' profile strategy takes submissions only in two-step
 * registration (`method=profile`), which we do not offer, so it is never responsible.
 */
export const profileRegistrationStrategy: RegistrationStrategy = {
  id: "profile",
  // The trait inputs are in the default group, as in Kratos' one-step form.
  group: "default",
  responsible: () => false,
  populate: populateTraitNodes,
  submit: () => Promise.reject(ValidationError.of("", uiText(4010003))),
};

import type { CourierMessage } from "../message.ts";

/** Delivers one message or throws; the dispatcher records the outcome and retries. */
export interface Transport {
  readonly name: string;
  send(message: CourierMessage): Promise<void>;
}

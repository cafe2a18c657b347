import type { Flow } from "../selfservice/flow.ts";
import type { UiContainer } from "../ui/nodes.ts";

// A flow read from the store carries its UI as the stored JSON text until something looks at
// `flow.ui`: a successful password login never does (it saves only the active method and answers
// with the session), so it neither parses the form nor serialises it again. The text stays valid
// only while `ui` is untouched: the first read or write of the property drops it, and saves
// serialise the object as before.
const untouchedUiText = new WeakMap<object, string>();

/** `flow` with `ui` parsed from `text` on first use. */
export function withStoredUi(flow: Omit<Flow, "ui">, text: string): Flow {
  let parsed: UiContainer | undefined;
  untouchedUiText.set(flow, text);
  Object.defineProperty(flow, "ui", {
    enumerable: true,
    configurable: true,
    get(): UiContainer {
      untouchedUiText.delete(flow);
      parsed ??= JSON.parse(text) as UiContainer;
      return parsed;
    },
    set(value: UiContainer) {
      untouchedUiText.delete(flow);
      parsed = value;
    },
  });
  return flow as Flow;
}

/** The JSON text of the flow's UI: the stored text while `ui` is untouched, else serialised. */
export function uiJsonOf(flow: Flow): string {
  return untouchedUiText.get(flow) ?? JSON.stringify(flow.ui);
}

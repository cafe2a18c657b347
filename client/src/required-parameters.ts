import { RequiredError } from "@ory/client-fetch";

// The generated SDK checks required parameters itself but words the error as
//   Required parameter "id" was null or undefined when calling getIdentity().
// Spec §8 (and the Ory SDKs the portal was written against) say
//   Required parameter id was null or undefined when calling getIdentity.
// The wrapper below only rewrites that message; the error stays the SDK's RequiredError (with
// its `field`), and nothing else about the call changes.

const sdkWording = /when calling (\w+)\(\)/;

export function requiredParameterMessage(field: string, operation: string): string {
  return `Required parameter ${field} was null or undefined when calling ${operation}.`;
}

function rewritten(error: unknown, property: string): unknown {
  if (!(error instanceof RequiredError)) return error;
  const operation = sdkWording.exec(error.message)?.[1] ?? property.replace(/Raw$/, "");
  const replacement = new RequiredError(
    error.field,
    requiredParameterMessage(error.field, operation),
  );
  replacement.stack = error.stack;
  return replacement;
}

/** The API object with its methods' RequiredError messages in spec §8's wording. */
export function withSpecRequiredErrors<T extends object>(api: T): T {
  return new Proxy(api, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "function" || typeof property !== "string") return value;
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]): unknown => {
        let result: unknown;
        try {
          result = method.apply(target, args);
        } catch (error) {
          throw rewritten(error, property);
        }
        if (result instanceof Promise) {
          return result.catch((error: unknown) => {
            throw rewritten(error, property);
          });
        }
        return result;
      };
    },
  });
}

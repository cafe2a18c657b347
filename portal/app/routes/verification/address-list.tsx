import { useTranslator } from "../../i18n/translator-context.tsx";
import { ResendForm } from "./resend-form.tsx";
import type { ListedAddress } from "./verification-rules.ts";

/**
 * The signed-in person's addresses (from their session): verified ones say so, unverified ones
 * offer to send a code ("Send code to …") while none has been sent; after that the flow's own
 * resend button is the only one.
 */
export function AddressList(props: { addresses: readonly ListedAddress[]; csrfToken?: string }) {
  const { t } = useTranslator();
  if (props.addresses.length === 0) return null;
  return (
    <section aria-labelledby="verification-addresses" className="mt-8">
      <h2 id="verification-addresses" className="text-lg font-semibold">
        {t("verification.addresses")}
      </h2>
      <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-700">
        {props.addresses.map((address) => (
          <li key={address.value} className="py-3">
            <p className="flex flex-wrap items-center justify-between gap-2">
              <span className="break-all">{address.value}</span>
              <span
                className={`rounded-full px-2 py-0.5 text-sm font-medium ${address.verified ? "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100" : "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100"}`}
              >
                {t(address.verified ? "verification.verified" : "verification.unverified")}
              </span>
            </p>
            {!address.verified && props.csrfToken !== undefined && (
              <ResendForm
                csrfToken={props.csrfToken}
                address={address.value}
                channel={address.channel}
                label={t("kratos.1010023", { address: address.value })}
                className="mt-2"
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

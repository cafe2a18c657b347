import type { MessageKey } from "../i18n/translator.ts";
import { useTranslator } from "../i18n/translator-context.tsx";
import { Notice } from "../ui/notice.tsx";
import { noticeDuration, noticeKind } from "../flows/notice-query.ts";

/**
 * A flow page's notice (a restart reason, "something went wrong") as a toast with its no-script
 * alert. Keyed by flow and notice, so each is shown once, and again for a new flow.
 */
export function FlowNotice({ flowId, notice }: { flowId: string; notice: MessageKey | undefined }) {
  const { t } = useTranslator();
  if (!notice) return null;
  return (
    <Notice
      id={`${flowId}:${notice}`}
      kind={noticeKind(notice)}
      text={t(notice)}
      duration={noticeDuration(notice)}
    />
  );
}

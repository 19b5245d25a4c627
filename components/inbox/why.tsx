import { getTranslations } from "next-intl/server";
import { readInboxReason } from "@/lib/inbox";

/**
 * Why a message waits on "Received, not matched", in the page's language (docs/decisions/096):
 * the stored reason read back into its key and values; a reason of no known shape as stored.
 */
export async function InboxWhy({ text }: { text: string }) {
  const t = await getTranslations("inbox.why");
  const reason = readInboxReason(text);
  if (!reason) {
    return <bdi dir="ltr">{text}</bdi>;
  }
  return <span title={text}>{t(reason.key, reason.values)}</span>;
}

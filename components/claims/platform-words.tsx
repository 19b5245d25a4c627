import { useTranslations } from "next-intl";
import type { PlatformWords } from "@/lib/i18n/browser";

/**
 * What the platform said, in the page's language (lib/i18n/platform-words.ts), with the platform's
 * own text as a muted secondary line when it differs and the code beside an unknown one — the one
 * way every screen shows a reason, disposition or note. Each line keeps the page's alignment; the
 * platform's own text is isolated in its own direction (`dir="auto"`), so English stays readable on
 * an Arabic page and the other way round.
 */
export function PlatformWordsText({ value, testId, className = "", platformLang }: { value: PlatformWords; testId?: string; className?: string; platformLang?: string }) {
  // The language the platform wrote in goes on whichever line shows its own text.
  const ownLang = platformLang || undefined;
  const t = useTranslations("platformWords");
  // Text we have no words for is the payer's own: said so, never passed off as ours (decision 122).
  const theirs = !value.known && value.words !== value.code;
  return (
    <span className={`block ${className}`} data-testid={testId} data-known={value.known}>
      <span className="block">
        <bdi dir="auto" lang={value.platformText ? undefined : ownLang} data-testid={testId ? `${testId}-words` : undefined}>
          {value.words}
        </bdi>
        {theirs && <span className="ms-1 text-xs text-slate-500" data-testid={testId ? `${testId}-theirs` : undefined}>({t("theirs")})</span>}
        {value.code && (
          <>
            {" "}
            <bdi dir="ltr" className="font-mono text-xs text-slate-500">
              {value.code}
            </bdi>
          </>
        )}
      </span>
      {value.platformText && (
        <span className="block text-xs text-slate-500">
          <bdi dir="auto" lang={ownLang} data-testid={testId ? `${testId}-platform` : undefined}>
            {value.platformText}
          </bdi>
        </span>
      )}
    </span>
  );
}

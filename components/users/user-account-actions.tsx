"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition, type ReactNode } from "react";
import { useForm } from "react-hook-form";
import { lazyZodResolver, preloadOnFocus } from "@/components/forms/lazy-zod-resolver";
import { Button } from "@/components/ui/button";
import { PASSWORD_MIN_LENGTH, loadUserRefSchema, resetUserPasswordAction, setUserDisabledAction, unlockUserAction, type ActionResultOf } from "@/lib/auth/browser";
import { accountErrorKey } from "./account-errors";

const resolver = lazyZodResolver<{ userId: string }>(loadUserRefSchema);

type Outcome = { tone: "ok" | "error"; text: string };

/**
 * One administrator action on one user (reset, unlock, disable/enable): a small form on the user's
 * id, checked by the same schema as the server action, optionally confirmed in a second step.
 */
function AccountActionForm({
  userId,
  testId,
  label,
  confirm,
  variant = "secondary",
  run,
}: {
  userId: string;
  testId: string;
  label: string;
  confirm?: { question: string; yes: string; cancel: string };
  variant?: "secondary" | "danger" | "primary";
  run: (values: { userId: string }) => Promise<Outcome | undefined>;
}) {
  const [pending, start] = useTransition();
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>();
  const form = useForm<{ userId: string }>({ resolver, defaultValues: { userId } });
  const onSubmit = form.handleSubmit((values) => {
    if (confirm && !asking) {
      setAsking(true);
      return;
    }
    start(async () => {
      setOutcome(undefined);
      setOutcome(await run(values));
      setAsking(false);
    });
  });
  return (
    <form onSubmit={onSubmit} {...preloadOnFocus(resolver)} noValidate className="mt-3" data-testid={testId}>
      <input type="hidden" {...form.register("userId")} />
      {asking && confirm && <p className="mb-2 text-sm font-medium text-slate-900">{confirm.question}</p>}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant={asking ? "danger" : variant} busy={pending} data-testid={`${testId}-submit`}>
          {asking && confirm ? confirm.yes : label}
        </Button>
        {asking && confirm && (
          <Button type="button" variant="ghost" disabled={pending} onClick={() => setAsking(false)}>
            {confirm.cancel}
          </Button>
        )}
      </div>
      <div aria-live="polite">{outcome && <p role={outcome.tone === "error" ? "alert" : "status"} className={`mt-2 text-sm ${outcome.tone === "error" ? "text-red-800" : "text-emerald-800"}`}>{outcome.text}</p>}</div>
    </form>
  );
}

function Section({ title, help, children }: { title: string; help: string; children: ReactNode }) {
  return (
    <section className="border-t border-slate-200 pt-4">
      <h2 className="text-sm font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{help}</p>
      {children}
    </section>
  );
}

/** Reset password, unlock and disable/enable for one user (administrators, decision 102). */
export function UserAccountActions({ user }: { user: { id: string; name: string; locked: boolean; disabled: boolean; self: boolean } }) {
  const t = useTranslations("users");
  const ta = useTranslations("account");
  const router = useRouter();
  const [temporary, setTemporary] = useState<string>();
  // The unlock section stays after its success (the refreshed page no longer says "locked"), so its confirmation is read.
  const [unlocked, setUnlocked] = useState(false);
  const refusal = (result: { ok: false; error: string }): Outcome => ({ tone: "error", text: ta(accountErrorKey(result.error) as "errors.failed", { min: PASSWORD_MIN_LENGTH }) });
  function done<T extends object>(result: ActionResultOf<T>, text: (r: T) => string): Outcome {
    if (!result.ok) return refusal(result);
    router.refresh();
    return { tone: "ok", text: text(result) };
  }

  return (
    <div className="space-y-4">
      <Section title={t("reset.title")} help={t("reset.help")}>
        <AccountActionForm
          userId={user.id}
          testId="reset-password"
          label={t("reset.button")}
          confirm={{ question: t("reset.confirm", { name: user.name }), yes: t("reset.confirmButton"), cancel: t("reset.cancel") }}
          run={async (values) => {
            setTemporary(undefined);
            const result = await resetUserPasswordAction(values);
            if (!result.ok) return refusal(result);
            setTemporary(result.temporaryPassword);
            router.refresh();
            return undefined;
          }}
        />
        {temporary && (
          <div role="status" className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950" data-testid="temporary-password-box">
            <p>{t("reset.done", { name: user.name })}</p>
            <p className="mt-2 select-all break-all font-mono text-lg font-semibold tracking-wide" dir="ltr" data-testid="temporary-password">
              {temporary}
            </p>
            <p className="mt-2 text-xs">{t("reset.copyHint")}</p>
          </div>
        )}
      </Section>
      {(user.locked || unlocked) && (
        <Section title={t("unlock.title")} help={t("unlock.help")}>
          <AccountActionForm
            userId={user.id}
            testId="unlock-user"
            label={t("unlock.button")}
            variant="primary"
            run={async (values) => {
              const result = await unlockUserAction(values);
              if (result.ok) setUnlocked(true);
              return done<{ wasLocked: boolean }>(result, (r) => (r.wasLocked ? t("unlock.done") : t("unlock.notLocked")));
            }}
          />
        </Section>
      )}
      <Section title={t("disable.title")} help={user.disabled ? t("disable.helpDisabled") : t("disable.helpActive")}>
        {user.disabled ? (
          <AccountActionForm userId={user.id} testId="enable-user" label={t("disable.enable")} run={async (values) => done(await setUserDisabledAction({ ...values, disabled: false }), () => t("disable.enabled"))} />
        ) : (
          <AccountActionForm
            userId={user.id}
            testId="disable-user"
            label={t("disable.disable")}
            variant="danger"
            confirm={{ question: t("disable.confirm", { name: user.name }), yes: t("disable.confirmButton"), cancel: t("reset.cancel") }}
            run={async (values) => done(await setUserDisabledAction({ ...values, disabled: true }), () => t("disable.disabled"))}
          />
        )}
      </Section>
    </div>
  );
}

import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { Card, PageHeader } from "@/components/ui/card";
import { ChangePasswordForm } from "@/components/users/change-password-form";
import { requireUser } from "@/lib/auth";
import { PASSWORD_MIN_LENGTH } from "@/lib/auth/browser";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations("account"))("title") };
}

/** "Change my password": every signed-in user (decision 102). */
export default async function ChangePasswordPage() {
  await requireUser();
  const t = await getTranslations("account");
  return (
    <>
      <PageHeader title={t("title")} description={t("description", { min: PASSWORD_MIN_LENGTH })} />
      <Card className="max-w-xl p-4 sm:p-6">
        <ChangePasswordForm />
      </Card>
    </>
  );
}
